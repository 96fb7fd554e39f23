"""The record of the offline readers' gold-set scores and the digest of what they were computed from.

Read by :mod:`aieco.extraction.gold` (which states the figures next to every graph build) and written by
:mod:`aieco.extraction.scores`; it imports neither, so the two never import each other.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
RECORD = PACKAGE / "data" / "reader_scores.json"
#: The files the scores depend on, relative to the package: the labels, the vocabulary, the learned artefact and its
#: neighbours' vectors, and the code that reads a sentence (the reader, its mention matcher, the offline backend the
#: rule score goes through).
SCORED_INPUTS = (
    "data/extraction_gold.jsonl",
    "data/vocabulary.toml",
    "data/learned_reader.json",
    "data/learned_neighbours.npy",
    "vocab.py",
    "llm/base.py",
    "extraction/*.py",
)
READERS = ("rules", "learned", "combined", "strict")


def inputs_digest(package: Path = PACKAGE) -> str:
    """SHA-256 over the scored inputs' relative paths and bytes, in path order."""
    files = sorted({p for pattern in SCORED_INPUTS for p in package.glob(pattern) if p.is_file()})
    h = hashlib.sha256()
    for p in files:
        h.update(p.relative_to(package).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()


def recorded(reader: str, record: Path = RECORD) -> dict[str, dict] | None:
    """``reader``'s recorded scores by split (plain dicts), or ``None`` when there is no record or it is out of
    date."""
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if data.get("inputs_sha256") != inputs_digest() or reader not in data.get("readers", {}):
        return None
    return data["readers"][reader]
