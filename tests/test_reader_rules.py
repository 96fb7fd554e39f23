"""The rule reader split into named rules reads exactly what the single-function reader read.

``tests/fixtures/reader_outputs.json`` was written by the reader as it stood before the split (commit
d8fdb7a, ``read_relations``): every development sentence's readings in full, and for each held-back sentence
only a SHA-256 digest of its readings, so the held-back part's per-sentence output is never stored or read
(docs/labelling-guide.md: a blind part is scored in aggregate only). Regenerate it only for a deliberate change
of behaviour: ``PYTHONPATH=. python tests/test_reader_rules.py --record``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

FIXTURE = Path(__file__).parent / "fixtures" / "reader_outputs.json"


def reading_rows(readings) -> list[list]:
    """Readings as plain rows, in the reader's order."""
    return [
        [r.src, r.dst, r.sign.value, r.verb, r.confidence, r.evidence_class.value, r.horizon, r.hedged, r.negated]
        for r in readings
    ]


def digest(sentence_id: str, rows: list[list]) -> str:
    return hashlib.sha256(json.dumps([sentence_id, rows], sort_keys=True).encode()).hexdigest()


def outputs(read) -> dict[str, dict]:
    """Every gold sentence's readings under ``read``: rows for development, a digest for held-back."""
    from aieco.extraction.gold import load_gold
    from aieco.vocab import load_vocabulary

    vocab = load_vocabulary()
    dev: dict[str, list[list]] = {}
    held: dict[str, str] = {}
    for g in load_gold():
        rows = reading_rows(read(g.text, vocab))
        if g.split == "dev":
            dev[g.id] = rows
        else:
            held[g.id] = digest(g.id, rows)
    return {"dev": dev, "held_back_digests": held}


def test_the_reader_reads_what_it_read_before_the_split_on_the_whole_gold_set():
    from aieco.extraction.rules import read_sentence

    want = json.loads(FIXTURE.read_text(encoding="utf-8"))
    got = outputs(read_sentence)
    changed_dev = sorted(k for k in want["dev"] if got["dev"].get(k) != want["dev"][k])
    # held-back sentences are compared by digest and reported by count only
    changed_held = sum(got["held_back_digests"].get(k) != v for k, v in want["held_back_digests"].items())
    assert len(got["dev"]) == len(want["dev"]) == 1410 and len(want["held_back_digests"]) == 252
    assert changed_dev == [] and changed_held == 0, (changed_dev[:10], changed_held)


if __name__ == "__main__" and "--record" in sys.argv:
    from aieco.extraction.rules import read_sentence

    out = outputs(read_sentence)
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for part in ("dev", "held_back_digests") for k, v in out[part].items()]
    n = len(out["dev"])
    text = '{"dev": {\n' + ",\n".join(lines[:n]) + '\n},\n"held_back_digests": {\n' + ",\n".join(lines[n:]) + "\n}}\n"
    FIXTURE.write_text(text, encoding="utf-8")
    print(f"wrote {FIXTURE}")
