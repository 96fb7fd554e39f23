"""The offline readers' gold-set scores, recorded with what they were computed from.

Every ``aieco graph build`` states its reader's measured precision and recall next to the relations
(:func:`aieco.extraction.gold.reader_note`). Computing them reads the whole gold set — for the learned and combined
readers the sentence encoder reads every sentence, about half a minute — so they are recorded in
``aieco/data/reader_scores.json`` together with a digest of every file they depend on (the gold set, the
vocabulary, the learned artefact, the reader's code). A record whose digest no longer matches is never used: the
scores are computed again, as before, and ``tests/test_reader_scores.py`` fails until the record is written anew.

Write it with ``python -m aieco.extraction.scores`` — only after the held-back round's one look, since the record
holds the held-back part's aggregate figures (docs/labelling-guide.md: a blind round is scored once, in aggregate).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from aieco.extraction.gold import SplitScore

PACKAGE = Path(__file__).resolve().parents[1]
RECORD = PACKAGE / "data" / "reader_scores.json"
#: The files the scores depend on, relative to the package: the labels, the vocabulary, the learned artefact and
#: the code that reads a sentence (the reader, its mention matcher, the offline backend the rule score goes through).
SCORED_INPUTS = (
    "data/extraction_gold.jsonl",
    "data/vocabulary.toml",
    "data/learned_reader.json",
    "vocab.py",
    "llm/base.py",
    "extraction/*.py",
)
READERS = ("rules", "learned", "combined")


def inputs_digest(package: Path = PACKAGE) -> str:
    """SHA-256 over the scored inputs' relative paths and bytes, in path order."""
    files = sorted({p for pattern in SCORED_INPUTS for p in package.glob(pattern) if p.is_file()})
    h = hashlib.sha256()
    for p in files:
        h.update(p.relative_to(package).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def recorded_scores(reader: str, record: Path = RECORD) -> dict[str, SplitScore] | None:
    """``reader``'s recorded scores by split, or ``None`` when there is no record or it is out of date."""
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("inputs_sha256") != inputs_digest() or reader not in data.get("readers", {}):
        return None
    return {split: SplitScore.model_validate(s) for split, s in data["readers"][reader].items()}


def compute_scores() -> dict[str, dict[str, SplitScore]]:
    """Each reader's scores computed from the gold set: the rules through the offline extraction task (as the
    workbench reads), the learned and combined readers sentence by sentence."""
    from aieco.extraction.gold import evaluate, load_gold, reader_split_score

    gold = load_gold()
    out = {"rules": {s.split: s for s in evaluate(gold=gold)[0]}}
    for reader in READERS[1:]:
        out[reader] = {split: reader_split_score(reader, gold, split) for split in ("held_back", "dev")}
    return out


def write_record(record: Path = RECORD) -> dict:
    """Compute every reader's scores and write them with the inputs' digest."""
    data = {
        "inputs_sha256": inputs_digest(),
        "inputs": list(SCORED_INPUTS),
        "readers": {r: {k: s.model_dump() for k, s in splits.items()} for r, splits in compute_scores().items()},
    }
    record.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return data


if __name__ == "__main__":
    written = write_record()
    for name, splits in written["readers"].items():
        print(name, {k: (s["precision"], s["recall"], s["proposed"]) for k, s in splits.items()})
    print(f"wrote {RECORD.relative_to(PACKAGE.parent)}")
