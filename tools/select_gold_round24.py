"""Sentence selection of the twenty-fourth labelling round of the extraction gold set (issue 30, a blind held-back
part).

``python3 tools/select_gold_round24.py FOLDER > selection.json``: the eighteenth round's rule
(``tools/select_gold_round18.py``: the fourth round's screen, repeats of earlier rounds dropped, each account read as
the workbench reads HTML between its date line and its "Monetary policy statement" heading, whole accounts in order
until MIN_SENTENCES) on the snapshot's accounts published in 2022 that rounds 22 and 23 did not take, latest
first (19 May 2022 back to 20 January 2022). Documents saved in FOLDER under the
snapshot's file names (``git show 2e898819:data/ecb/accounts/<date>.html`` of github:vtasca/central-bank-statements).
Ids continue after g8867; earlier rounds are rounds 1-23.

Fixed before any sentence was read, in session 17 (after the twenty-third round's look). The ECB permits reproduction
provided that the source is acknowledged. No reader, parser or model runs here: only the sentence screen and the
vocabulary's synonym match.
"""

from __future__ import annotations

import sys
from pathlib import Path

START = 8868
MIN_SENTENCES = 300
#: The snapshot's accounts published in 2022 that rounds 22 and 23 did not take, latest first.
CANDIDATES = [
    "20220519.html",
    "20220407.html",
    "20220303.html",
    "20220120.html",
]


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: the eighteenth round's rule from this round's first id (repeats of rounds 1-23 dropped)."""
    from tools.select_gold_round18 import selection as eighteenth_round_rule

    return eighteenth_round_rule(folder, files, gold, start=START, least=MIN_SENTENCES)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.select_gold_round14 import print_selection

    print_selection(Path(sys.argv[1]), CANDIDATES, selection)
