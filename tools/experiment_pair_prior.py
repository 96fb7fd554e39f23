"""Experiment (session 6, issue 15): does economic prior knowledge, as a pair → sign table, find the
relations the rule reader misses on an unseen document?

Many labelled relations are inferred from economics rather than stated by a sentence's grammar. The
crudest reader that brings such knowledge: for a sentence naming two vocabulary variables (with a
causal cue, no negation, no question) for which the rule reader proposed nothing, propose the pair's
usual sign, learned from the labels of the *other* development documents (grouped six-fold
cross-validation by document; a pair enters the table with at least MIN_N labels, MIN_SHARE of them
with one sign). The held-back part is never read.

    python3 -m tools.experiment_pair_prior [MIN_N MIN_SHARE CUE(1|0)]

Result: the additions are mostly wrong — MIN_N 2, 0.8, cue: 22 right and 184 wrong (precision of the
additions 0.11, recall +0.07); MIN_N 5, 0.9, cue: 13 right, 85 wrong (0.13, +0.04); without the cue
condition 29 right, 366 wrong. A sentence that names two variables usually does not state the channel
between them, so knowledge of the usual sign does not tell which pairs a sentence relates. Not used.
(Figures of the session-6 rule reader; the reader has changed since, so a re-run gives today's.)
"""

import sys
from collections import Counter, defaultdict

from sklearn.model_selection import GroupKFold

from aieco.extraction import cues
from aieco.extraction.gold import evaluate, load_gold
from tools.experiment_pair_classifier import VOCAB, lx


def mentioned(text):
    t = cues.LINE_BREAK_HYPHEN.sub("", text)
    ms = VOCAB.mentions_in_context(t)
    return ms, t.lower()


def main(min_n: int = 2, min_share: float = 0.8, need_cue: bool = True, gold=None) -> dict[str, float]:
    """The rule reader's precision and recall on ``gold`` (default: the development part) with and without the
    prior's additions, by grouped six-fold cross-validation over documents."""
    gold = gold if gold is not None else [g for g in load_gold() if g.split == "dev"]
    _, reading = evaluate(gold=gold)
    prop = {k: {p for p in v if p[2] in "+-"} for k, v in reading.proposed.items()}
    docs = [g.document for g in gold]
    base_tp = base_fp = add_tp = add_fp = n_gold = 0
    for tr, te in GroupKFold(n_splits=6).split(gold, groups=docs):
        counts = defaultdict(Counter)
        for i in tr:
            for r in gold[i].relations:
                counts[(r.src, r.dst)][r.sign] += 1
        prior = {}
        for pair, c in counts.items():
            n = sum(c.values())
            s, k = c.most_common(1)[0]
            if n >= min_n and k / n >= min_share:
                prior[pair] = (s, n)
        for i in te:
            g = gold[i]
            want = {(r.src, r.dst, r.sign) for r in g.relations}
            got = prop[g.id]
            n_gold += len(want)
            base_tp += len(want & got)
            base_fp += len(got - want)
            ms, low = mentioned(g.text)
            if need_cue:
                info = [lx.MentionMove(m, 0, m.start) for m in ms]
                if not lx.find_cues(low, info):
                    continue
            if cues.NEGATION.search(low) or "?" in g.text:
                continue
            vars_ = sorted({m.variable_id for m in ms})
            covered = {frozenset((a, b)) for a, b, _ in got}
            added = set()
            for a in vars_:
                for b in vars_:
                    if a >= b or frozenset((a, b)) in covered:
                        continue
                    cands = [((x, y), prior[(x, y)]) for x, y in ((a, b), (b, a)) if (x, y) in prior]
                    if not cands:
                        continue
                    (x, y), (s, n) = max(cands, key=lambda c: c[1][1])
                    added.add((x, y, s))
            add_tp += len(added & want)
            add_fp += len(added - want)
    bp = base_tp / (base_tp + base_fp)
    br = base_tp / n_gold
    p = (base_tp + add_tp) / (base_tp + base_fp + add_tp + add_fp)
    r = (base_tp + add_tp) / n_gold
    return {
        "base_p": bp,
        "base_r": br,
        "added_tp": add_tp,
        "added_fp": add_fp,
        "union_p": p,
        "union_r": r,
        "n_gold": n_gold,
    }


if __name__ == "__main__":
    min_n = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    min_share = float(sys.argv[2]) if len(sys.argv) > 2 else 0.8
    need_cue = sys.argv[3] != "0" if len(sys.argv) > 3 else True
    f = main(min_n, min_share, need_cue)
    print(
        f"min_n={min_n} share={min_share} cue={need_cue}: base P {f['base_p']:.2f} R {f['base_r']:.2f} | "
        f"added TP {f['added_tp']} FP {f['added_fp']} (precision of additions "
        f"{f['added_tp'] / max(1, f['added_tp'] + f['added_fp']):.2f}, recall gain {f['added_tp'] / f['n_gold']:.2f}) "
        f"| union P {f['union_p']:.2f} R {f['union_r']:.2f}"
    )
