"""Sentence selection of the thirty-second labelling round of the extraction gold set (issue 30, a blind held-back
part).

``python3 tools/select_gold_round32.py FOLDER > selection.json``: the twenty-eighth round's rule and reading, unchanged
(``tools/select_gold_round28.py``), on the minutes of the same snapshot (github:sophia-jihye/Collecting_FOMC_Minutes at
ea2b8e16, ``Minutes/2021/``) that no round has read, latest first, from the meeting of 27-28 July 2021 (the
thirty-first round's third candidate, which it did not need) back to that of 16-17 March 2021. All were released in
2021; the minutes are a work of the United States government. Ids continue after g12709; earlier rounds are rounds
1-31.

Fixed before any sentence was read, in session 20 (after the thirty-first round's look), from the files' names only.
No reader, parser or model runs here: only the sentence screen and the vocabulary's synonym match.
"""

from __future__ import annotations

import sys
from pathlib import Path

START = 12710
#: The snapshot's minutes released in 2021 no round has read, latest first (Minutes/2021/, by meeting date).
CANDIDATES = [
    "MeetingDate=2021-07-27-2021-07-28_UploadedOn=20210818.txt",
    "MeetingDate=2021-06-15-2021-06-16_UploadedOn=20210707.txt",
    "MeetingDate=2021-04-27-2021-04-28_UploadedOn=20210519.txt",
    "MeetingDate=2021-03-16-2021-03-17_UploadedOn=20210407.txt",
]


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: the twenty-eighth round's selection with this round's start (ids after g12709)."""
    from tools.select_gold_round28 import plain_minutes_rows

    return plain_minutes_rows(folder, files, gold, START)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.select_gold_round28 import print_plain_minutes_selection

    print_plain_minutes_selection(CANDIDATES, selection)
