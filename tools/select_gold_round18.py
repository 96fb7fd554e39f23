"""Sentence selection of the eighteenth labelling round of the extraction gold set (issue 30, a blind held-back part).

``python3 tools/select_gold_round18.py FOLDER > selection.json``: the seventeenth round's rule
(``tools/select_gold_round17.py``: the fourth round's screen, repeats of earlier rounds dropped, each account read as
the workbench reads HTML between its date line and its "Monetary policy statement" heading, whole accounts in order
until MIN_SENTENCES) on the accounts of the ECB Governing Council's monetary policy meetings published in 2023, the
snapshot's accounts of 2024 being all taken by rounds 14-17, latest first (23 November 2023 back to 19 January 2023;
published before 2025, as issue 30 asks where possible). Documents saved in FOLDER under the snapshot's file names
(``git show 2e898819:data/ecb/accounts/<date>.html`` of github:vtasca/central-bank-statements). Ids continue after
g5608; earlier rounds are rounds 1-17.

Fixed before any sentence was read, in session 15. The ECB permits reproduction provided that the source is
acknowledged. No reader, parser or model runs here: only the sentence screen and the vocabulary's synonym match.
"""

from __future__ import annotations

import sys
from pathlib import Path

START = 5609
MIN_SENTENCES = 300
#: The snapshot's accounts published in 2023, latest first.
CANDIDATES = [
    "20231123.html",
    "20231012.html",
    "20230831.html",
    "20230713.html",
    "20230601.html",
    "20230420.html",
    "20230302.html",
    "20230119.html",
]


def selection(folder: Path, files: list[str], gold: Path, start: int = START, least: int = MIN_SENTENCES) -> list[dict]:
    """The round's rows: whole accounts in order until ``least`` sentences, repeats of the rounds before id ``start``
    dropped (rounds 1-17 here; the nineteenth and twentieth rounds apply the same rule from their own first id)."""
    from tools.select_gold_round12 import whole_documents_until
    from tools.select_gold_round14 import account_sentences

    return whole_documents_until(folder, files, gold, start, least, account_sentences)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.select_gold_round14 import print_selection

    print_selection(Path(sys.argv[1]), CANDIDATES, selection)
