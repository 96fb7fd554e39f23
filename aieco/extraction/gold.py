"""The extraction gold set and its evaluation (issue 15; labelling guide: docs/labelling-guide.md).

``aieco/data/extraction_gold.jsonl`` holds hand-labelled sentences from real documents (the
ESRB 2018 adverse scenario, the BIS Quarterly Review of March 2024, Federal Reserve, Bank of Canada,
ECB, Banca d'Italia and EBA texts; see the PROVENANCE file beside it): each with the relations
it states between vocabulary variables (source, target, sign) or, for a sentence that states
none, the kind of hard negative it is. Sentences are split
by document into a development part and a held-back part.

:func:`evaluate` runs the relation-extraction task through any LLM backend (the offline reader
by default) and scores the signed relations it proposes against the labels: precision, recall,
and false positives on the negative sentences, for each split. A proposal with sign ``absent``
(a negated statement) or ``ambiguous`` asserts no channel and is not scored as one.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from aieco.errors import InputError

SPLITS = ("dev", "held_back")
SCORED_SIGNS = frozenset({"+", "-"})


class GoldRelation(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    src: str
    dst: str
    sign: str
    hedged: bool = False


class GoldSentence(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    file: str = Field(description="Source file under ../shared/data/docs.")
    page: int
    document: str = Field(description="Split unit: one report, or one special feature of a review.")
    split: str
    text: str
    relations: list[GoldRelation]
    negative: str | None = Field(description="Kind of hard negative when the sentence states no channel.")
    origin: str | None = Field(
        default=None,
        description="Publisher, title and where the PDF comes from, for a file not in ../shared/data/docs.",
    )


class SplitScore(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    split: str
    sentences: int
    gold_relations: int
    proposed: int = Field(description="Signed (+/-) relations proposed.")
    true_positives: int
    precision: float
    recall: float
    negatives: int = Field(description="Sentences labelled as stating no channel.")
    false_positives_on_negatives: int = Field(description="Signed relations proposed on negative sentences.")
    negatives_with_false_positive: int
    false_positives_by_kind: dict[str, int]


def load_gold(path: Path | None = None) -> list[GoldSentence]:
    """The packaged gold set (or the JSON-lines file at ``path``)."""
    if path is None:
        raw = resources.files("aieco").joinpath("data/extraction_gold.jsonl").read_text(encoding="utf-8")
        where = "aieco/data/extraction_gold.jsonl"
    else:
        raw, where = Path(path).read_text(encoding="utf-8"), str(path)
    out = []
    for n, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            s = GoldSentence.model_validate(json.loads(line))
        except (ValueError, TypeError) as exc:
            raise InputError(
                f"gold sentence on line {n} is malformed: {exc}",
                where=where,
                fix="each line is one JSON object with id, file, page, document, split, text, relations, negative",
            ) from exc
        if s.split not in SPLITS:
            raise InputError(
                f"gold sentence {s.id} has split {s.split!r}", where=f"{where}:{n}", fix=f"use one of {SPLITS}"
            )
        if bool(s.relations) == bool(s.negative):
            raise InputError(
                f"gold sentence {s.id} must have relations or a negative kind, not both or neither",
                where=f"{where}:{n}",
                fix="label what the sentence states",
            )
        out.append(s)
    return out


def score(gold: Iterable[GoldSentence], proposed: dict[str, set[tuple[str, str, str]]], split: str) -> SplitScore:
    """Score proposals (sentence id → {(src, dst, sign)}) on one split ("all": the whole gold set)."""
    rows = [g for g in gold if split in ("all", g.split)]
    tp = n_prop = n_gold = fp_neg = neg_hit = 0
    kinds: Counter[str] = Counter()
    for g in rows:
        want = {(r.src, r.dst, r.sign) for r in g.relations}
        got = {p for p in proposed.get(g.id, set()) if p[2] in SCORED_SIGNS}
        n_gold += len(want)
        n_prop += len(got)
        tp += len(want & got)
        if g.negative:
            fp_neg += len(got)
            if got:
                neg_hit += 1
                kinds[g.negative] += len(got)
    return SplitScore(
        split=split,
        sentences=len(rows),
        gold_relations=n_gold,
        proposed=n_prop,
        true_positives=tp,
        precision=round(tp / n_prop, 4) if n_prop else 0.0,
        recall=round(tp / n_gold, 4) if n_gold else 0.0,
        negatives=sum(1 for g in rows if g.negative),
        false_positives_on_negatives=fp_neg,
        negatives_with_false_positive=neg_hit,
        false_positives_by_kind=dict(sorted(kinds.items())),
    )


class GoldReading(BaseModel):
    """What a reader proposed for each gold sentence, and the sentences it left unread."""

    model_config = ConfigDict(frozen=True)

    proposed: dict[str, set[tuple[str, str, str]]]
    unread: dict[str, str] = Field(
        default_factory=dict, description="Sentence id → why its batch gave no usable answer (recorded LLMCall)."
    )


def read_gold(
    gold: list[GoldSentence],
    client,
    *,
    batch_size: int = 20,
    progress: Callable[[int, int], None] | None = None,
) -> GoldReading:
    """Run the relation-extraction task on the gold sentences through ``client`` (an LLMClient), in batches.

    Each batch is its own stage (``gold_extraction:<first sentence id>``), so a rerun in the same store
    reuses every answer already accepted and asks again only where an answer was refused. A batch whose
    answer is unusable (timeout, malformed or truncated output: the client records the refusal) leaves
    its sentences unread, with the reason, and the reading goes on; a budget stop ends it (re-raised).
    ``progress(done, total)`` is called after each batch with the number of sentences read so far.
    """
    from aieco.errors import BudgetStopped, StageStopped
    from aieco.extraction.schemas import ExtractionRequest, Statement
    from aieco.extraction.tasks import EXTRACTION_TASK
    from aieco.vocab import load_vocabulary

    allowed = sorted(load_vocabulary().variables)
    out: dict[str, set[tuple[str, str, str]]] = {g.id: set() for g in gold}
    unread: dict[str, str] = {}
    for i in range(0, len(gold), batch_size):
        batch = gold[i : i + batch_size]
        request = ExtractionRequest(
            statements=[Statement(candidate_id=g.id, location_id=f"{g.file}#p{g.page}", text=g.text) for g in batch],
            variables=allowed,
        )
        try:
            result = client.run(EXTRACTION_TASK, request, stage=f"gold_extraction:{batch[0].id}")
        except BudgetStopped:
            raise
        except StageStopped as exc:
            unread.update({g.id: exc.reason for g in batch})
        else:
            for p in result.relations:
                if p.candidate_id in out:
                    out[p.candidate_id].add((p.src_var, p.dst_var, p.sign))
        if progress:
            progress(min(i + batch_size, len(gold)), len(gold))
    return GoldReading(proposed=out, unread=unread)


def evaluate(
    client=None,
    gold: list[GoldSentence] | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    batch_size: int = 20,
) -> tuple[list[SplitScore], GoldReading]:
    """Scores of ``client`` (default: the offline reader in a throw-away workspace) on ``gold``, per split
    present (dev, held_back) and, when both are, over all of it; with the reading they come from. An unread sentence
    (see :func:`read_gold`) counts as proposing nothing."""
    import tempfile

    from aieco.llm.base import LLMClient, OfflineBackend
    from aieco.store import Store

    gold = gold if gold is not None else load_gold()
    if client is None:
        with tempfile.TemporaryDirectory() as tmp:
            client = LLMClient(
                Store(Path(tmp) / "ws"), OfflineBackend(), analysis_id="extraction-gold", budget=len(gold) + 10
            )
            reading = read_gold(gold, client, batch_size=batch_size, progress=progress)
    else:
        reading = read_gold(gold, client, batch_size=batch_size, progress=progress)
    present = [s for s in SPLITS if any(g.split == s for g in gold)]
    splits = (*present, "all") if len(present) > 1 else tuple(present)
    return [score(gold, reading.proposed, s) for s in splits], reading


def recorded_scores(reader: str) -> dict[str, SplitScore] | None:
    """``reader``'s scores as recorded with the digest of their inputs (:mod:`aieco.extraction.scores`), or
    ``None`` when the record is missing or out of date."""
    from aieco.extraction.score_record import recorded

    splits = recorded(reader)
    return None if splits is None else {split: SplitScore.model_validate(s) for split, s in splits.items()}


@cache
def offline_reader_scores() -> dict[str, SplitScore]:
    """The offline reader's scores on the packaged gold set, by split: the recorded ones when their inputs are
    unchanged (:func:`recorded_scores`), else computed (once per process, ~3 s)."""
    return recorded_scores("rules") or {s.split: s for s in evaluate()[0]}


@cache
def other_reader_scores(reader: str) -> dict[str, SplitScore]:
    """The learned or combined reader's scores on the held-back and development parts: the recorded ones when their
    inputs are unchanged, else computed (once per process; the encoder reads every sentence, about half a minute)."""
    recorded = recorded_scores(reader)
    if recorded is not None:
        return recorded
    gold = load_gold()
    return {split: reader_split_score(reader, gold, split) for split in ("held_back", "dev")}


READER_NAMES = {
    "rules": "rule reader",
    "learned": "learned reader",
    "combined": "rule and learned readers combined",
    "strict": "rule and learned readers combined, strict",
}


def reader_note(
    backends: Iterable[str | None], scores: dict[str, SplitScore] | None = None, reader: str = "rules"
) -> str | None:
    """What an analyst should know about relations machine-read by these LLM ``backends``.

    For the offline ``reader`` (rules, learned or combined): its measured precision and recall on the gold set's
    held-back documents (prose it was not developed on) next to its development figures, from
    :func:`offline_reader_scores` for the rules and :func:`reader_split_score` for the others (``scores``
    overrides them). For an LLM endpoint: how to measure it. ``None`` when no relation was machine-read (``None``
    backends: an analyst's corrections only).
    """
    backends = {b for b in backends if b}
    if not backends:
        return None
    parts = []
    if "offline" in backends:
        if scores is None:
            scores = offline_reader_scores() if reader == "rules" else other_reader_scores(reader)
        held, dev = scores["held_back"], scores["dev"]
        parts.append(
            f"Read by the offline {READER_NAMES[reader]}. On prose it was not developed on (the gold set's held-back "
            "part: "
            f"{held.sentences} sentences, {held.gold_relations} labelled relations) {held.true_positives} of the "
            f"{held.proposed} relations it proposed were right (precision {held.precision:.2f}) and it found "
            f"{held.true_positives} of the {held.gold_relations} (recall {held.recall:.2f}); on the documents it "
            f"was developed on, precision {dev.precision:.2f} and recall {dev.recall:.2f}. Expect wrong relations "
            "and missing channels: read each quote, and accept, correct or reject the relation "
            "(figures: `aieco bench extraction`)."
        )
    llm = sorted(backends - {"offline"})
    if llm:
        parts.append(
            f"Read through the {' and '.join(llm)} backend: measure its model on the gold set with "
            "`aieco bench extraction --backend openai` before relying on its relations."
        )
    return " ".join(parts)


class RuleScore(BaseModel):
    """One rule of the offline reader scored on a split: what it proposed, and how much of it is labelled."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str
    proposed: int = Field(
        description="Signed relations this rule read or joined a movement it recorded to (readings kept for their key)."
    )
    true_positives: int
    precision: float = Field(description="Share of its proposals that are labelled; 0.0 when it proposed none.")
    recall: float = Field(description="Share of the split's labelled relations this rule found.")


def score_rules(gold: Iterable[GoldSentence], split: str = "dev") -> list[RuleScore]:
    """Each rule of the offline reader (:data:`aieco.extraction.rules.RULE_NAMES`) scored on ``split``.

    Only the development part is ever scored per rule: the held-back part is scored in aggregate only
    (docs/labelling-guide.md), so ``split`` must be ``dev``.
    """
    from aieco.extraction.rules import RULE_NAMES, read_sentence
    from aieco.vocab import load_vocabulary

    if split != "dev":
        raise InputError(
            f"per-rule scores are for the development part only, not {split!r}",
            where="score_rules",
            fix="score the held-back part in aggregate (aieco bench extraction)",
        )
    vocab = load_vocabulary()
    rows = [g for g in gold if g.split == "dev"]
    n_gold = sum(len(g.relations) for g in rows)
    proposed: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    for g in rows:
        want = {(r.src, r.dst, r.sign) for r in g.relations}
        for r in read_sentence(g.text, vocab):
            if r.sign.value not in SCORED_SIGNS:
                continue
            for name in {r.rule, *r.movement_rules}:
                proposed[name] += 1
                hits[name] += (r.src, r.dst, r.sign.value) in want
    return [
        RuleScore(
            rule=name,
            proposed=proposed[name],
            true_positives=hits[name],
            precision=round(hits[name] / proposed[name], 4) if proposed[name] else 0.0,
            recall=round(hits[name] / n_gold, 4) if n_gold else 0.0,
        )
        for name in RULE_NAMES
    ]


def reader_split_score(reader: str, gold, split: str = "held_back", vocab=None) -> SplitScore:
    """``reader``'s score (:class:`aieco.extraction.gold.SplitScore`) on one split of the gold set: each sentence
    read by :func:`aieco.extraction.learned.read_with`, signed proposals compared with the labels as every gold score is
    (:func:`score`). On ``held_back`` this is the blind figure: the reader and the
    learned artefact were built on the development part only."""
    return reader_split_scores((reader,), gold, split, vocab)[reader]


def reader_split_scores(readers: Iterable[str], gold, split: str = "held_back", vocab=None) -> dict[str, SplitScore]:
    """:func:`reader_split_score` of several readers, each sentence read by all of them in turn (the learned and
    combined readers then share the encoder's states of a sentence instead of encoding it twice)."""
    from aieco.extraction.learned import read_with
    from aieco.vocab import load_vocabulary

    vocab = vocab or load_vocabulary()
    readers = tuple(readers)
    rows = [g for g in gold if split in ("all", g.split)]
    proposed: dict[str, dict[str, set]] = {reader: {} for reader in readers}
    for g in rows:
        for reader in readers:
            proposed[reader][g.id] = {(r.src, r.dst, r.sign.value) for r in read_with(reader, g.text, vocab)}
    return {reader: score(rows, proposed[reader], split) for reader in readers}
