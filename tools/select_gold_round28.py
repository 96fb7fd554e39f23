"""Sentence selection of the twenty-eighth labelling round of the extraction gold set (issue 30, a blind held-back
part).

``python3 tools/select_gold_round28.py FOLDER > selection.json``: the twelfth round's rule (the fourth round's screen,
repeats of earlier rounds dropped, whole documents in order until MIN_SENTENCES; ``tools/select_gold_round12.py``)
with the eleventh round's reading of plain-text FOMC minutes (``tools/select_gold_round11.py``: the record from the
heading "Developments in Financial Markets and Open Market Operations", title, meeting line and attendance list
dropped, footnotes and the secretary's line kept) on the minutes of github:sophia-jihye/Collecting_FOMC_Minutes at
the tenth round's commit (``FOMC_REPO`` of ``tools/build_extraction_gold.py``) that no round has read, latest first:
the meeting of 21-22 March 2023 back to that of 1-2 November 2022 (``Minutes/2023/`` and ``Minutes/2022/``). All were
released before 2025, as issue 30 asks where possible; the minutes are a work of the United States government.

The snapshot of github:vtasca/central-bank-statements that rounds 26-27 drew from holds FOMC minutes from January
2024 only, and of 2024 only January's are left (the December 2024 minutes were released in January 2025), so this
round goes back to the plain-text snapshot of rounds 10-11, whose minutes of May and June 2023 (round 10) and December
2018 and 2008 (round 11) are the only ones read from it. Ids continue after g10751; earlier rounds are rounds 1-27.

Fixed before any sentence was read, in session 19 (after the twenty-seventh round's look), from the files' names
and the presence of the heading only. No reader, parser or model runs here: only the sentence screen and the
vocabulary's synonym match.
"""

from __future__ import annotations

import sys
from pathlib import Path

START = 10752
MIN_SENTENCES = 300
#: The snapshot's minutes no round has read, latest first (Minutes/2023/ and Minutes/2022/, by meeting date).
CANDIDATES = [
    "MeetingDate=2023-03-21-2023-03-22_UploadedOn=20230412.txt",
    "MeetingDate=2023-01-31-2023-02-01_UploadedOn=20230222.txt",
    "MeetingDate=2022-12-13-2022-12-14_UploadedOn=20230104.txt",
    "MeetingDate=2022-11-01-2022-11-02_UploadedOn=20221123.txt",
]


def plain_minutes_rows(folder: Path, files: list[str], gold: Path, start: int) -> list[dict]:
    """The eleventh round's reading of plain-text minutes, whole documents in order until MIN_SENTENCES, repeats of
    earlier rounds dropped (``select_gold_round12.whole_documents_until``), ids from ``start`` (rounds 28-30)."""
    from tools.select_gold_round11 import minutes_sentences
    from tools.select_gold_round12 import whole_documents_until

    return whole_documents_until(folder, files, gold, start, MIN_SENTENCES, minutes_sentences)


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: ``plain_minutes_rows`` from START, repeats of rounds 1-27 dropped."""
    return plain_minutes_rows(folder, files, gold, START)


def print_plain_minutes_selection(candidates: list[str], select) -> None:
    """The command line of rounds 28-30: ``select``'s rows for the snapshot's plain-text minutes saved in argv[1]."""
    from tools.select_gold_round14 import print_selection

    print_selection(
        Path(sys.argv[1]),
        candidates,
        select,
        where="Minutes/<year>",
        repo="github:sophia-jihye/Collecting_FOMC_Minutes",
        commit="ea2b8e16",
    )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    print_plain_minutes_selection(CANDIDATES, selection)
