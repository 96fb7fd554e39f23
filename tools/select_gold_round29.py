"""Sentence selection of the twenty-ninth labelling round of the extraction gold set (issue 30, a blind held-back
part).

``python3 tools/select_gold_round29.py FOLDER > selection.json``: the twenty-eighth round's rule and reading, unchanged
(``tools/select_gold_round28.py``: the eleventh round's reading of plain-text FOMC minutes, the twelfth round's rule of
whole documents in order until MIN_SENTENCES, repeats of earlier rounds dropped), on the minutes of the same snapshot
(github:sophia-jihye/Collecting_FOMC_Minutes at ea2b8e16, ``Minutes/2022/``) that no round has read, latest first,
from the meeting of 1-2 November 2022 (the twenty-eighth round's fourth candidate, which it did not need) back to that
of 3-4 May 2022. All were released in 2022; the minutes are a work of the United States government. Ids continue
after g11257; earlier rounds are rounds 1-28.

Fixed before any sentence was read, in session 19 (after the twenty-eighth round's look), from the files' names only.
No reader, parser or model runs here: only the sentence screen and the vocabulary's synonym match.
"""

from __future__ import annotations

import sys
from pathlib import Path

START = 11258
MIN_SENTENCES = 300
#: The snapshot's minutes of 2022 no round has read, latest first (Minutes/2022/, by meeting date).
CANDIDATES = [
    "MeetingDate=2022-11-01-2022-11-02_UploadedOn=20221123.txt",
    "MeetingDate=2022-09-20-2022-09-21_UploadedOn=20221012.txt",
    "MeetingDate=2022-07-26-2022-07-27_UploadedOn=20220817.txt",
    "MeetingDate=2022-06-14-2022-06-15_UploadedOn=20220706.txt",
    "MeetingDate=2022-05-03-2022-05-04_UploadedOn=20220525.txt",
]


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: the twenty-eighth round's selection with this round's start (ids after g11257)."""
    from tools.select_gold_round28 import plain_minutes_rows

    return plain_minutes_rows(folder, files, gold, START)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.select_gold_round28 import print_plain_minutes_selection

    print_plain_minutes_selection(CANDIDATES, selection)
