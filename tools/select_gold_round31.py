"""Sentence selection of the thirty-first labelling round of the extraction gold set (issue 30, a blind held-back
part).

``python3 tools/select_gold_round31.py FOLDER > selection.json``: the twenty-eighth round's rule and reading, unchanged
(``tools/select_gold_round28.py``), on the minutes of the same snapshot (github:sophia-jihye/Collecting_FOMC_Minutes at
ea2b8e16, ``Minutes/2022/`` and ``Minutes/2021/``) that no round has read, latest first, from the meeting of 14-15
December 2021 (the thirtieth round's fifth candidate, which it did not need) back to that of 15-16 June 2021. All were
released before 2025 (in 2021 and 2022); the minutes are a work of the United States government. Ids continue after
g12368; earlier rounds are rounds 1-30.

The minutes of 25-26 January 2022 (the thirtieth round's fourth candidate) and of 2-3 November 2021 are left out:
the eleventh round's reading stops on them (``select_gold_round11.record_start``: neither file has the section
heading nor an attendance list), and the rule is not changed for two files. Every other minutes file of 2019-2022 in
the snapshot passes that check; the list goes on to June 2021 in case three files are not enough.

Fixed before any sentence was read, in session 20 (after the thirtieth round's look), from the files' names and that
reading error only.
No reader, parser or model runs here: only the sentence screen and the vocabulary's synonym match.
"""

from __future__ import annotations

import sys
from pathlib import Path

START = 12369
#: The snapshot's minutes no round has read, latest first (Minutes/2022/ and Minutes/2021/, by meeting date).
CANDIDATES = [
    "MeetingDate=2021-12-14-2021-12-15_UploadedOn=20220105.txt",
    "MeetingDate=2021-09-21-2021-09-22_UploadedOn=20211013.txt",
    "MeetingDate=2021-07-27-2021-07-28_UploadedOn=20210818.txt",
    "MeetingDate=2021-06-15-2021-06-16_UploadedOn=20210707.txt",
]


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: the twenty-eighth round's selection with this round's start (ids after g12368)."""
    from tools.select_gold_round28 import plain_minutes_rows

    return plain_minutes_rows(folder, files, gold, START)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.select_gold_round28 import print_plain_minutes_selection

    print_plain_minutes_selection(CANDIDATES, selection)
