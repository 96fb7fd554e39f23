"""Experiment (session 5, issue 15): can a learned pair classifier read relations on unseen documents?

For every pair of vocabulary mentions in a sentence, logistic regressions (scikit-learn) predict
whether the pair is a labelled relation, its direction and its sign, from the words between and
around the mentions, the reader's cue lexicon (cue kinds and signs between the mentions) and the
mentions' movement modifiers. Scored by grouped cross-validation over the development documents
only (six folds, no document in two folds): each document is read by a model that never saw it,
which is what a held-back part measures. The held-back part is never read.

    PYTHONPATH=. python3 tools/experiment_pair_classifier.py [C]

Result (C = 1; 1,410 development sentences, 305 relations): at a decision threshold of 0.4, precision
0.31 and recall 0.21; at 0.2, 0.23 / 0.34 — at the rule reader's blind recall (0.21) with half its blind
precision (0.54-0.57), so it was not used.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict

import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

from aieco.extraction import clauses as lx
from aieco.extraction import cues as lxc
from aieco.extraction.gold import load_gold
from aieco.vocab import load_vocabulary

VOCAB = load_vocabulary()
TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?|[,;:()]")


def _tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def pair_features(text: str) -> list[tuple[str, str, dict[str, float]]]:
    """(first variable, second variable, features) for every pair of mentions of distinct variables."""
    text = lxc.LINE_BREAK_HYPHEN.sub("", text)
    low = text.lower()
    mentions = VOCAB.mentions_in_context(text)
    ends = {m.end for m in mentions}
    info = []
    for m in mentions:
        adverse = VOCAB.get(m.variable_id).adverse_direction
        adv = 0 if adverse is None else (1 if adverse.value == "increase" else -1)
        move, start = lx.movement_modifier(low, m.start, ends, m.end, m.variable_id, adv)
        info.append((m, move or lx.inherent_move(m.text.lower()), start))
    cues = lx.find_cues(low, [lx.MentionMove(m, move, start) for m, move, start in info])
    out = []
    for i, (a, move_a, start_a) in enumerate(info):
        for b, move_b, start_b in info[i + 1 :]:
            if a.variable_id == b.variable_id:
                continue
            f: dict[str, float] = {}
            between = _tokens(low[a.end : start_b])
            for t in between:
                f[f"between:{t}"] = 1
            for x, y in zip(between, between[1:], strict=False):
                f[f"bigram:{x}_{y}"] = 1
            for t in _tokens(low[max(0, start_a - 60) : start_a])[-4:]:
                f[f"before:{t}"] = 1
            for t in _tokens(low[b.end : b.end + 60])[:4]:
                f[f"after:{t}"] = 1
            inside = [c for c in cues if a.end <= c.start and c.end <= start_b]
            for c in inside:
                f[f"cue:{c.kind}:{c.sign}"] = 1
            signed = [c.sign for c in inside if c.kind in ("directional", "noun") and c.sign]
            cue_sign = signed[0] if signed else 0
            f.update(
                length=min(len(between), 30) / 30,
                commas=low[a.end : start_b].count(","),
                move_a=move_a,
                move_b=move_b,
                cue_sign=cue_sign,
                composed=cue_sign * (move_a or 1) if cue_sign else move_a * move_b,
                negation=float(bool(lxc.NEGATION.search(low))),
                hedge=float(bool(lxc.HEDGE.search(low))),
            )
            f[f"var_a:{a.variable_id}"] = 1
            f[f"var_b:{b.variable_id}"] = 1
            out.append((a.variable_id, b.variable_id, f))
    return out


def main(c: float = 1.0) -> None:
    gold = [g for g in load_gold() if g.split == "dev"]
    rows = []
    for g in gold:
        want = {(r.src, r.dst, r.sign) for r in g.relations}
        for a, b, f in pair_features(g.text):
            fwd = next((s for s in "+-" if (a, b, s) in want), None)
            back = next((s for s in "+-" if (b, a, s) in want), None)
            rows.append((g.id, g.document, a, b, f, fwd or back, fwd is not None))
    features = [r[4] for r in rows]
    related = np.array([r[5] is not None for r in rows])
    forward = np.array([r[6] for r in rows])
    positive = np.array([r[5] == "+" for r in rows])
    groups = np.array([r[1] for r in rows])
    p_rel, p_fwd, p_pos = np.zeros(len(rows)), np.zeros(len(rows)), np.zeros(len(rows))
    for train, test in GroupKFold(n_splits=6).split(features, related, groups):
        dv = DictVectorizer()
        x_train, x_test = dv.fit_transform([features[i] for i in train]), dv.transform([features[i] for i in test])
        pos_train = train[related[train]]
        p_rel[test] = LogisticRegression(C=c, max_iter=3000).fit(x_train, related[train]).predict_proba(x_test)[:, 1]
        x_pos = x_train[related[train]]
        p_fwd[test] = LogisticRegression(C=c, max_iter=3000).fit(x_pos, forward[pos_train]).predict_proba(x_test)[:, 1]
        p_pos[test] = LogisticRegression(C=c, max_iter=3000).fit(x_pos, positive[pos_train]).predict_proba(x_test)[:, 1]
    n_gold = sum(len(g.relations) for g in gold)
    wanted = {g.id: {(r.src, r.dst, r.sign) for r in g.relations} for g in gold}
    for threshold in (0.2, 0.3, 0.4, 0.5, 0.6):
        proposed: dict[str, set[tuple[str, str, str]]] = defaultdict(set)
        for k, (sid, _, a, b, *_) in enumerate(rows):
            if p_rel[k] >= threshold:
                sign = "+" if p_pos[k] > 0.5 else "-"
                proposed[sid].add((a, b, sign) if p_fwd[k] > 0.5 else (b, a, sign))
        n = sum(len(v) for v in proposed.values())
        tp = sum(len(v & wanted[sid]) for sid, v in proposed.items())
        share = f"precision {tp / max(n, 1):.3f}, recall {tp / n_gold:.3f}"
        print(f"threshold {threshold}: proposed {n}, right {tp}, {share}")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0)
