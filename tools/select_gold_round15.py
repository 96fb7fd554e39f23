"""Sentence selection of the fifteenth labelling round of the extraction gold set (issue 30, new blind held-back part).

``python3 tools/select_gold_round15.py FOLDER > selection.json``: the fourteenth round's screen and reading
(``tools/select_gold_round14.py``: the fourth round's screen, repeats of earlier rounds dropped, each account read
as the workbench reads HTML between its date line and its "Monetary policy statement" heading) on the next accounts
of the ECB Governing Council's monetary policy meetings published in 2024, latest first (22 August 2024 back to 18
January 2024: CANDIDATES, the fourteenth round's candidates after the two it took), each taken whole; a next one is
added only while the round holds fewer than MIN_SENTENCES sentences. Documents saved in FOLDER under the snapshot's
file names (``git show 2e898819:data/ecb/accounts/<date>.html`` of github:vtasca/central-bank-statements). Ids
continue after g4178; earlier rounds are rounds 1-14.

Fixed before any sentence was read, in session 13, after a first fifteenth round drawn from the Bank of England's
Monetary Policy Summaries and Minutes was withdrawn: the set holds no Bank of England text (its pages are "all
rights reserved"; the third round's rule), which that selection had missed. The ECB permits reproduction provided
that the source is acknowledged. No reader, parser or model runs here: only the sentence screen and the vocabulary's
synonym match.
"""

from __future__ import annotations

import sys
from pathlib import Path

START = 4179
MIN_SENTENCES = 300
#: The snapshot's accounts published in 2024 that the fourteenth round did not take, latest first.
CANDIDATES = [
    "20240822.html",
    "20240704.html",
    "20240510.html",
    "20240404.html",
    "20240222.html",
    "20240118.html",
]


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: whole accounts in order until MIN_SENTENCES, repeats of rounds 1-14 dropped (the
    twelfth round's rule, ``select_gold_round12.whole_documents_until``, with the fourteenth round's reading)."""
    from tools.select_gold_round12 import whole_documents_until
    from tools.select_gold_round14 import account_sentences

    return whole_documents_until(folder, files, gold, START, MIN_SENTENCES, account_sentences)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.select_gold_round14 import print_selection

    print_selection(Path(sys.argv[1]), CANDIDATES, selection)
