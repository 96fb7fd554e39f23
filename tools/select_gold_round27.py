"""Sentence selection of the twenty-seventh labelling round of the extraction gold set (issue 30, a blind held-back
part).

``python3 tools/select_gold_round27.py FOLDER > selection.json``: the twenty-sixth round's rule and reading, unchanged
(``tools/select_gold_round26.py``: the FOMC minutes' record from "Developments in Financial Markets and Open Market
Operations", the snapshot's doubly decoded punctuation decoded back; whole documents in order until MIN_SENTENCES,
repeats of earlier rounds dropped) on the FOMC minutes of 2024 that round left unread, latest first:
the meeting of 11-12 June 2024 back to that of 30-31 January 2024. All were released in 2024 (before 2025, as issue
30 asks where possible); the minutes are a work of the United States government. Documents saved in FOLDER under the
snapshot's file names (``git show 2e898819:data/fed/minutes/<file>`` of github:vtasca/central-bank-statements). Ids
continue after g10327; earlier rounds are rounds 1-26.

A second round from the same publisher asks what a pass on the twenty-sixth round's misses (development once this
round's labels land) carries over to the next minutes of that publisher, as rounds 13-25 did for ECB accounts.

One change of form, found from the pages' headings only: on these pages the attendance list comes before the record,
not after it, so the record ends at the first paragraph after its start that is "Attendance" or the line of
underscores above the Secretary's signature (RECORD_END), whichever comes first. On the twenty-sixth round's pages
"Attendance" comes first, so its records are unchanged by this end; here, as there, the notation vote closes the
record.

Fixed before any sentence was read, in session 19 (after the twenty-sixth round's look). No reader, parser or model
runs here: only the sentence screen and the vocabulary's synonym match.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

START = 10328
MIN_SENTENCES = 300
#: The snapshot's FOMC minutes of 2024 the twenty-sixth round did not read, latest first.
CANDIDATES = ["20240612.html", "20240501.html", "20240320.html", "20240131.html"]
RECORD_END = re.compile(r"^(Attendance|_{3,})$")


def minutes_sentences(path: Path) -> list[str]:
    """Sentences of a saved page's record: the twenty-sixth round's reading, ended at this round's RECORD_END."""
    from tools.select_gold_round12 import page_record_sentences
    from tools.select_gold_round26 import record_paragraphs

    return page_record_sentences(path, lambda html: record_paragraphs(html, RECORD_END))


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: the twenty-sixth round's reading of the minutes, whole documents in order until
    MIN_SENTENCES, repeats of rounds 1-26 dropped (``select_gold_round12.whole_documents_until``)."""
    from tools.select_gold_round12 import whole_documents_until

    return whole_documents_until(folder, files, gold, START, MIN_SENTENCES, minutes_sentences)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.select_gold_round14 import print_selection

    print_selection(Path(sys.argv[1]), CANDIDATES, selection, where="data/fed/minutes")
