"""Sentence selection of the eleventh labelling round of the extraction gold set (issue 30, new blind held-back part).

``python3 tools/select_gold_round11.py FOLDER > selection.json``: the tenth round's selection
(``tools/select_gold_round10.py``: the fourth round's screen, seed 15, six sampled sentences per page, then
sentences repeating a sentence of an earlier round dropped) on the eleventh round's documents
(``tools/build_extraction_gold.py``: ROUND11_DOCUMENTS), Federal Open Market Committee minutes of another era than
the tenth round's 2023, saved as plain text by github:sophia-jihye/Collecting_FOMC_Minutes at the tenth round's
commit; ids continue after g2641 and earlier rounds are rounds 1-10.

Documents (fixed by date before any sentence was read), both taken whole, in this order: the minutes of the last
meeting of 2018 (18-19 December 2018, released 9 January 2019) and of the last meeting of 2008 (15-16 December
2008, released 6 January 2009).

Reading (fixed before any sentence was read). As in the tenth round (``select_gold_round10.minutes_sentences``):
plain text read as the workbench reads it, from the heading MINUTES_START ("Developments in Financial Markets and
Open Market Operations"), title, meeting line and attendance list dropped. The 2018 file has that heading. The
2008 file has no section heading at all before its notation vote (a search for the section names of later minutes
found none; no sentence was read), so for a file without MINUTES_START the record is read from the end of the
attendance list, found by its form alone: the list is the run of attendance entries (a personal title "Mr.",
"Ms.", "Mrs.", "Messrs." or "Mses." followed by names, posts and an affiliation) at the file's head; the record
starts right after the first affiliation ("Board of Governors" or "Federal Reserve Bank of <City>") that follows
the last personal title of the file's first tenth (ATTENDANCE_SPAN). The footnotes and the secretary's line after
the record are kept, as in the tenth round. No reader, parser or model runs here: only the sentence screen and
the vocabulary's synonym match.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

START = 2642
ATTENDANCE_SPAN = 0.1
TITLE = re.compile(r"\b(?:Mr|Ms|Mrs|Messrs|Mses)\.")
CITIES = r"New York|San Francisco|St\. Louis|Kansas City|[A-Z][a-z]+"
AFFILIATION = re.compile(rf"Board of Governors|Federal Reserve Bank of (?:{CITIES})")
#: The snapshot's files in the order they are taken (Minutes/2019/ and Minutes/2009/ of the snapshot).
CANDIDATES = [
    "MeetingDate=2018-12-18-2018-12-19_UploadedOn=20190109.txt",
    "MeetingDate=2008-12-16-2008-12-16_UploadedOn=20090106.txt",
]


def record_start(text: str) -> int:
    """Where the record begins: MINUTES_START, else the end of the attendance list (module docstring)."""
    from tools.select_gold_round10 import MINUTES_START

    if MINUTES_START in text:
        return text.index(MINUTES_START)
    head = int(len(text) * ATTENDANCE_SPAN)
    titles = [m.end() for m in TITLE.finditer(text, 0, head)]
    after = AFFILIATION.search(text, titles[-1]) if titles else None
    if after is None:
        raise ValueError("no section heading and no attendance list; the round's reading rule does not apply")
    return after.end()


def minutes_sentences(path: Path) -> list[str]:
    """Sentences of a plain-text minutes file from its record's start on (the tenth round's reading otherwise)."""
    from tools.select_gold_round10 import read_minutes

    return read_minutes(path, record_start)


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: every file's screen, in order, repeats of rounds 1-10 dropped."""
    from tools.select_gold_round4 import select
    from tools.select_gold_round6 import earlier_sentences, repeats

    rows = select(folder, files, start=START, read=minutes_sentences)
    earlier = earlier_sentences(gold, START)
    return [r for r in rows if not repeats(r["text"], earlier)]


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.build_extraction_gold import OUT

    json.dump(selection(Path(sys.argv[1]), CANDIDATES, OUT), sys.stdout, ensure_ascii=False, indent=1)
