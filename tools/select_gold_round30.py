"""Sentence selection of the thirtieth labelling round of the extraction gold set (issue 30, a blind held-back
part).

``python3 tools/select_gold_round30.py FOLDER > selection.json``: the twenty-eighth round's rule and reading, unchanged
(``tools/select_gold_round28.py``), on the minutes of the same snapshot (github:sophia-jihye/Collecting_FOMC_Minutes at
ea2b8e16, ``Minutes/2022/``) that no round has read, latest first, from the meeting of 14-15 June 2022 (the
twenty-ninth round's fourth candidate, which it did not need) back to that of 14-15 December 2021. All were released
in 2022; the minutes are a work of the United States government. Ids continue after g11814; earlier rounds are rounds
1-29.

Fixed before any sentence was read, in session 19 (after the twenty-ninth round's look), from the files' names only.
No reader, parser or model runs here: only the sentence screen and the vocabulary's synonym match.
"""

from __future__ import annotations

import sys
from pathlib import Path

START = 11815
MIN_SENTENCES = 300
#: The snapshot's minutes released in 2022 no round has read, latest first (Minutes/2022/, by meeting date).
CANDIDATES = [
    "MeetingDate=2022-06-14-2022-06-15_UploadedOn=20220706.txt",
    "MeetingDate=2022-05-03-2022-05-04_UploadedOn=20220525.txt",
    "MeetingDate=2022-03-15-2022-03-16_UploadedOn=20220406.txt",
    "MeetingDate=2022-01-25-2022-01-26_UploadedOn=20220216.txt",
    "MeetingDate=2021-12-14-2021-12-15_UploadedOn=20220105.txt",
]


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: the twenty-eighth round's selection with this round's start (ids after g11814)."""
    from tools.select_gold_round28 import plain_minutes_rows

    return plain_minutes_rows(folder, files, gold, START)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.select_gold_round28 import print_plain_minutes_selection

    print_plain_minutes_selection(CANDIDATES, selection)
