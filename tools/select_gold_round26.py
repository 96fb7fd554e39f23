"""Sentence selection of the twenty-sixth labelling round of the extraction gold set (issue 30, a blind held-back
part).

``python3 tools/select_gold_round26.py FOLDER > selection.json``: the twelfth round's rule (the fourth round's screen,
repeats of earlier rounds dropped, whole documents in order until MIN_SENTENCES; ``tools/select_gold_round12.py``)
on minutes of the Federal Open Market Committee released in 2024 (before 2025, as issue 30 asks where possible),
latest first: the meeting of 6-7 November 2024 back to that of 30-31 January 2024. The minutes of 17-18 December 2024
are left out: their page was released on 8 January 2025 (its "Last Update" line). Twelve rounds in a row were ECB
accounts; this round asks whether the reader carries over to another central bank's minutes (rounds 10-11, FOMC
minutes of 2008, 2018 and 2023, are the only earlier ones). The minutes are a work of the United States government.
Documents saved in FOLDER under the snapshot's file names (``git show 2e898819:data/fed/minutes/<file>`` of
github:vtasca/central-bank-statements, named by the meeting's last day). Ids continue after g9902; earlier rounds are
rounds 1-25. (A first twenty-sixth round, drawn from the Bank of England, was withdrawn before any label landed: the
set holds no Bank of England text.)

Reading (fixed before any sentence was read, from the pages' headings only): the page is read as the workbench reads
an HTML source (``aieco.sources.text.html_to_text``, one passage per paragraph). The site's navigation comes before
the record, and the attendance list and the footer after it, so the record is the paragraphs from the minutes' first
section heading, "Developments in Financial Markets and Open Market Operations" (RECORD_START, as in the tenth
round), to the paragraph "Attendance" (RECORD_END), both found by form alone; a page without them is refused. The
snapshot saved these pages with their UTF-8 punctuation decoded twice ("â\\x80\\x93" for an en dash, "â\\x80\\x99" for
an apostrophe), so each such run of characters is decoded back to the one character it stands for (``undo_mojibake``);
nothing else in the text changes. Section headings stay and are labelled, as earlier rounds kept headings.

Fixed before any sentence was read, in session 18 (after the twenty-fifth round's look). No reader, parser or model
runs here: only the sentence screen and the vocabulary's synonym match.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

START = 9903
MIN_SENTENCES = 300
RECORD_START = re.compile(r"^Developments in Financial Markets and Open Market Operations$")
RECORD_END = re.compile(r"^Attendance$")
#: A UTF-8 sequence read as Latin-1 characters: a lead byte then one to three continuation bytes.
MOJIBAKE = re.compile(r"[\xc2-\xf4][\x80-\xbf]{1,3}")
#: The snapshot's FOMC minutes released in 2024, latest first (data/fed/minutes/, named by the meeting's last day).
CANDIDATES = [
    "20241107.html",
    "20240918.html",
    "20240731.html",
    "20240612.html",
    "20240501.html",
    "20240320.html",
    "20240131.html",
]


def undo_mojibake(text: str) -> str:
    """Each run of characters that is a UTF-8 sequence decoded as Latin-1, decoded back ("â\\x80\\x99" → "’")."""

    def back(m: re.Match) -> str:
        try:
            return m.group().encode("latin-1").decode("utf-8")
        except UnicodeError:
            return m.group()

    return MOJIBAKE.sub(back, text)


def record_paragraphs(html: str, end: re.Pattern = RECORD_END) -> list[str]:
    """The minutes' paragraphs: from RECORD_START to the paragraph before ``end`` (RECORD_END), mojibake undone."""
    from aieco.sources.text import html_to_text

    paras = [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", undo_mojibake(html_to_text(html)))]
    starts = [i for i, p in enumerate(paras) if RECORD_START.match(p)]
    if not starts:
        raise ValueError(
            "no 'Developments in Financial Markets and Open Market Operations' heading; this round's reading does "
            "not apply"
        )
    ends = [i for i, p in enumerate(paras) if i > starts[0] and end.match(p)]
    if not ends:
        raise ValueError(f"no paragraph matching {end.pattern!r} after the minutes; this reading does not apply")
    return [p for p in paras[starts[0] : ends[0]] if p]


def minutes_sentences(path: Path) -> list[str]:
    """Sentences of a saved page's record (the twelfth round's page reading with this round's record)."""
    from tools.select_gold_round12 import page_record_sentences

    return page_record_sentences(path, record_paragraphs)


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: whole documents in order until MIN_SENTENCES, repeats of rounds 1-25 dropped (the twelfth
    round's rule, ``select_gold_round12.whole_documents_until``, with this round's record)."""
    from tools.select_gold_round12 import whole_documents_until

    return whole_documents_until(folder, files, gold, START, MIN_SENTENCES, minutes_sentences)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.select_gold_round14 import print_selection

    print_selection(Path(sys.argv[1]), CANDIDATES, selection, where="data/fed/minutes")
