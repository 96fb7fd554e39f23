"""Train the learned reader on the gold set's development part: ``python -m aieco.extraction.training``.

Kept apart from :mod:`aieco.extraction.learned` (the reader the extraction tasks use at run time), so the
reader never imports the gold set: the gold set's LLM reading imports the tasks, which import the reader.
"""

from __future__ import annotations

import json
from pathlib import Path

from aieco.extraction.gold import load_gold
from aieco.extraction.learned import ARTEFACT, train


def write_artefact(out: Path | None = None) -> dict:
    """Train on the shipped gold set and write the artefact (default: the packaged ``aieco/data`` file)."""
    artefact = train(load_gold())
    out = out or Path(__file__).resolve().parents[1] / ARTEFACT
    out.write_text(json.dumps(artefact, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return artefact


if __name__ == "__main__":
    written = write_artefact()
    print(f"wrote {ARTEFACT}: threshold {written['threshold']}, cross-validation {written['cross_validation']}")
