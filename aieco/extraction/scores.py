"""The offline readers' gold-set scores, recorded with what they were computed from.

Every ``aieco graph build`` states its reader's measured precision and recall next to the relations
(:func:`aieco.extraction.gold.reader_note`). Computing them reads the whole gold set — for the learned and combined
readers the sentence encoder reads every sentence, about half a minute — so they are recorded in
``aieco/data/reader_scores.json`` together with a digest of every file they depend on (the gold set, the
vocabulary, the learned artefact, the reader's code; :mod:`aieco.extraction.score_record`). A record whose digest
no longer matches is never used: the scores are computed again, as before, and ``tests/test_reader_scores.py``
fails until the record is written anew.

Write it with ``python -m aieco.extraction.scores`` — only after the held-back round's one look, since the record
holds the held-back part's aggregate figures (docs/labelling-guide.md: a blind round is scored once, in aggregate);
``python -m aieco.extraction.scores --check`` recomputes every figure and names those that differ.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from aieco.extraction.gold import SplitScore, evaluate, load_gold, reader_split_scores, recorded_scores
from aieco.extraction.score_record import PACKAGE, READERS, RECORD, SCORED_INPUTS, inputs_digest


def compute_scores() -> dict[str, dict[str, SplitScore]]:
    """Each reader's scores computed from the gold set: the rules through the offline extraction task (as the
    workbench reads), the learned and combined readers sentence by sentence."""
    gold = load_gold()
    out = {"rules": {s.split: s for s in evaluate(gold=gold)[0]}}
    by_split = {split: reader_split_scores(READERS[1:], gold, split) for split in ("held_back", "dev")}
    for reader in READERS[1:]:
        out[reader] = {split: by_split[split][reader] for split in ("held_back", "dev")}
    return out


def write_record(record: Path = RECORD) -> dict:
    """Compute every reader's scores and write them with the inputs' digest."""
    data = {
        "inputs_sha256": inputs_digest(),
        "inputs": list(SCORED_INPUTS),
        "readers": {r: {k: s.model_dump() for k, s in splits.items()} for r, splits in compute_scores().items()},
    }
    partial = record.with_suffix(".json.partial")  # written whole, then moved over the record: never half a file
    partial.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(partial, record)
    return data


def check_record() -> list[str]:
    """The "reader split" pairs whose recorded figures differ from the ones computed now (empty: the record holds);
    an out-of-date record differs everywhere."""
    computed = compute_scores()
    out = []
    for reader, splits in computed.items():
        recorded = recorded_scores(reader) or {}
        out += [f"{reader} {split}" for split, s in splits.items() if recorded.get(split) != s]
    return out


if __name__ == "__main__" and "--check" in sys.argv:
    differing = check_record()
    print("the record holds" if not differing else f"the record differs for: {', '.join(differing)}")
    sys.exit(1 if differing else 0)
elif __name__ == "__main__":
    written = write_record()
    for name, splits in written["readers"].items():
        print(name, {k: (s["precision"], s["recall"], s["proposed"]) for k, s in splits.items()})
    print(f"wrote {RECORD.relative_to(PACKAGE.parent)}")
