"""Sentence selection of the twenty-sixth labelling round of the extraction gold set (issue 30, a blind held-back
part).

``python3 tools/select_gold_round26.py FOLDER > selection.json``: the twelfth round's rule (the fourth round's screen,
repeats of earlier rounds dropped, whole documents in order until MIN_SENTENCES; ``tools/select_gold_round12.py``)
on a publisher no earlier round holds: the Bank of England's Monetary Policy Summaries and Minutes of the Monetary
Policy Committee published in 2024 (before 2025, as issue 30 asks where possible), latest first (December back to
February 2024). Twelve rounds in a row were ECB accounts; this round asks whether the reader carries over to another
central bank's minutes. Documents saved in FOLDER under the snapshot's file names (``git show
2e898819:data/boe/minutes/<file>`` of github:vtasca/central-bank-statements, whose file names give the month of
publication). Ids continue after g9902; earlier rounds are rounds 1-25.

Reading (fixed before any sentence was read, from the pages' headings only): the page is read as the workbench reads
an HTML source (``aieco.sources.text.html_to_text``, one passage per paragraph). The site's cookie notice and
navigation come before the record, and the attendance list, links to other news and the footer after it, so the
record is the paragraphs after the heading "Monetary Policy Summary, <month> <year>" (RECORD_TITLE: the summary, then
the minutes) and before the minutes' paragraph "The following members of the Committee were present" (RECORD_END),
both found by form alone; a page without them is refused. The minutes number their paragraphs ("44: The Chair …");
the number is dropped (NUMBER). Section headings stay and are labelled, as earlier rounds kept headings.

Fixed before any sentence was read, in session 18 (after the twenty-fifth round's look). The Bank of England permits
reproduction of its content with acknowledgement of the source. No reader, parser or model runs here: only the
sentence screen and the vocabulary's synonym match.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

START = 9903
MIN_SENTENCES = 300
RECORD_TITLE = re.compile(r"^#+\s*Monetary Policy Summary, [A-Z][a-z]+ \d{4}$")
RECORD_END = re.compile(r"^(?:\d+:\s*)?The following members of the Committee were present")
NUMBER = re.compile(r"^\d+:\s*")
#: The snapshot's Bank of England Monetary Policy Summaries and Minutes published in 2024, latest first.
CANDIDATES = [
    "20241201.html",
    "20241101.html",
    "20240901.html",
    "20240801.html",
    "20240601.html",
    "20240501.html",
    "20240301.html",
    "20240201.html",
]


def record_paragraphs(html: str) -> list[str]:
    """The summary's and minutes' paragraphs: after RECORD_TITLE, before RECORD_END, paragraph numbers dropped."""
    from aieco.sources.text import html_to_text

    paras = [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", html_to_text(html))]
    titles = [i for i, p in enumerate(paras) if RECORD_TITLE.match(p)]
    if not titles:
        raise ValueError("no 'Monetary Policy Summary, <month> <year>' heading; this round's reading does not apply")
    ends = [i for i, p in enumerate(paras) if i > titles[0] and RECORD_END.match(p)]
    if not ends:
        raise ValueError(
            "no 'The following members of the Committee were present' paragraph after the summary; this round's "
            "reading does not apply"
        )
    return [NUMBER.sub("", p) for p in paras[titles[0] + 1 : ends[0]] if p]


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

    print_selection(Path(sys.argv[1]), CANDIDATES, selection)
