"""Train the learned reader on the gold set's development part: ``python -m aieco.extraction.training``.

Kept apart from :mod:`aieco.extraction.learned` (the reader the extraction tasks use at run time), so the
reader never imports the gold set: the gold set's LLM reading imports the tasks, which import the reader.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from aieco.extraction.gold import load_gold
from aieco.extraction.learned import ARTEFACT, NEIGHBOURS, train


def write_artefact(out: Path | None = None) -> dict:
    """Train on the shipped gold set and write the artefact and its neighbours' vectors beside it (default: the
    packaged ``aieco/data`` files). Both are written to temporary names first and renamed together, so a failed
    run leaves the old pair in place."""
    artefact, stored = train(load_gold())
    out = out or Path(__file__).resolve().parents[1] / ARTEFACT
    vectors = out.with_name(Path(NEIGHBOURS).name)
    tmp_json, tmp_npy = out.with_suffix(".json.tmp"), vectors.with_suffix(".npy.tmp")
    tmp_json.write_text(json.dumps(artefact, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    with tmp_npy.open("wb") as fh:
        np.save(fh, stored, allow_pickle=False)
    tmp_npy.replace(vectors)
    tmp_json.replace(out)
    return artefact


if __name__ == "__main__":
    written = write_artefact()
    print(f"wrote {ARTEFACT}: threshold {written['threshold']}, cross-validation {written['cross_validation']}")
