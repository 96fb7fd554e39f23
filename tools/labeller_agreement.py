"""Agreement of a second, independent labelling of a gold round with the gold set's labels (issue 30).

``python3 tools/labeller_agreement.py [LABELS.json]`` (default: the sixteenth round's second labelling,
``docs/labeller-agreement/round16-second-labels.json``, written by three session-14 labellers after that round's look,
from the first labellers' brief and frozen references, without the first labels or any reader). Labels are in the
form of ``tools/build_extraction_gold.py``'s ``LABELS``; relations are compared as (source, target, sign), hedges
aside. Prints the second labelling's precision and recall against the gold labels (which, for two labellings, are
each other's recall and precision) and the sentences where they differ.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SECOND = ROOT / "docs" / "labeller-agreement" / "round16-second-labels.json"


def relations(label: str) -> set[tuple[str, str, str]]:
    """The (src, dst, sign) relations of a label ("src>dst:sign[:h];…" or "NEG:<kind>"), read by the gold set's own
    parser (``tools/build_extraction_gold.parse``)."""
    from tools.build_extraction_gold import parse

    return {(r["src"], r["dst"], r["sign"]) for r in parse(label)["relations"]}


def agreement(second: dict[str, str], gold) -> dict:
    """Counts of the second labelling against the gold labels of the same sentences (every id must be in gold)."""
    by_id = {g.id: {(r.src, r.dst, r.sign) for r in g.relations} for g in gold}
    missing = sorted(set(second) - set(by_id))
    if missing:
        raise ValueError(f"second labels for sentences not in the gold set: {missing[:5]}")
    both = first = other = 0
    differ = []
    for sid, label in second.items():
        a, b = by_id[sid], relations(label)
        both, first, other = both + len(a & b), first + len(a), other + len(b)
        if a != b:
            differ.append((sid, sorted(a - b), sorted(b - a)))
    return {"sentences": len(second), "gold": first, "second": other, "agreed": both, "differ": differ}


def main(path: Path = SECOND) -> None:
    sys.path.insert(0, str(ROOT))
    from aieco.extraction.gold import load_gold

    got = agreement(json.loads(path.read_text(encoding="utf-8")), load_gold())
    print(
        f"{got['sentences']} sentences: {got['agreed']} relations agreed of {got['gold']} (gold) and "
        f"{got['second']} (second): precision {got['agreed'] / got['second']:.2f}, "
        f"recall {got['agreed'] / got['gold']:.2f}; {len(got['differ'])} sentences differ"
    )
    for sid, only_gold, only_second in got["differ"]:
        print(f"  {sid}: gold only {only_gold}, second only {only_second}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else SECOND)
