"""Sentence selection of the tenth labelling round of the extraction gold set (issue 30, the new blind held-back part).

``python3 tools/select_gold_round10.py FOLDER > selection.json``: the ninth round's selection
(``tools/select_gold_round9.py``: the fourth round's screen, seed 15, six sampled sentences per page, then
sentences repeating a sentence of an earlier round dropped) on the tenth round's documents
(``tools/build_extraction_gold.py``: ROUND10_DOCUMENTS), Federal Open Market Committee minutes saved as plain
text by github:sophia-jihye/Collecting_FOMC_Minutes; ids continue after g2313 and earlier rounds are rounds 1-9.

Reading (fixed before any sentence was read). The files are plain text, not HTML: ``html_to_text`` would run
every paragraph of a text file into one (it treats line breaks as spaces), so they are read as the workbench
reads a plain-text source (``read_text``: UTF-8 without its byte-order mark; ``clean_text``), one passage per
paragraph (blank-line separated, whitespace collapsed), page 1. These files hold no blank line, so a whole
minutes document is one passage, split by the candidate screen's splitter. The record of the meeting is read
from its first section heading (MINUTES_START, "Developments in Financial Markets and Open Market Operations"):
the title, the line giving the meeting's dates and place and the attendance list before it are not prose of
the minutes and are dropped before the screen (a file without that heading is refused). The footnotes and the
secretary's line after the record are kept, as earlier rounds kept a page's notes and bylines.

Documents (fixed before any sentence was read): the latest minutes in the snapshot first (the meeting of 13-14
June 2023); the one before it (2-3 May 2023) only if the first one's screen keeps fewer than MIN_SENTENCES
sentences. A document is taken whole. No reader, parser or model runs here: only the sentence screen and the
vocabulary's synonym match.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

START = 2314
MIN_SENTENCES = 250
MINUTES_START = "Developments in Financial Markets and Open Market Operations"
#: The snapshot's files in the order they are taken (github:sophia-jihye/Collecting_FOMC_Minutes, Minutes/2023/).
CANDIDATES = [
    "MeetingDate=2023-06-13-2023-06-14_UploadedOn=20230705.txt",
    "MeetingDate=2023-05-02-2023-05-03_UploadedOn=20230524.txt",
]


def heading_start(text: str) -> int:
    """Where the record begins: its first section heading, MINUTES_START (see the module docstring)."""
    at = text.find(MINUTES_START)
    if at < 0:
        raise ValueError(f"no {MINUTES_START!r} heading; the round's reading rule does not apply")
    return at


def read_minutes(path: Path, record_start: Callable[[str], int]) -> list[str]:
    """Sentences of a plain-text minutes file, read as the workbench reads plain text, from ``record_start(text)``
    on, one passage per paragraph."""
    from aieco.extraction.screen import split_sentences
    from aieco.sources.clean import clean_text
    from aieco.sources.delimited import read_text

    text = clean_text(read_text(path, None)).text
    try:
        at = record_start(text)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from exc
    paras = [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", text[at:])]
    return [s for p in paras if p for s in split_sentences(p)]


def minutes_sentences(path: Path) -> list[str]:
    """Sentences of a plain-text minutes file from its first section heading on (see the module docstring)."""
    return read_minutes(path, heading_start)


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: the first file's screen, the second file added whole only below MIN_SENTENCES."""
    from tools.select_gold_round4 import select
    from tools.select_gold_round6 import earlier_sentences, repeats

    first = select(folder, files[:1], start=START, read=minutes_sentences)
    chosen = files[:1] if len(first) >= MIN_SENTENCES else files[:2]
    rows = select(folder, chosen, start=START, read=minutes_sentences)
    earlier = earlier_sentences(gold, START)
    return [r for r in rows if not repeats(r["text"], earlier)]


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.build_extraction_gold import OUT

    json.dump(selection(Path(sys.argv[1]), CANDIDATES, OUT), sys.stdout, ensure_ascii=False, indent=1)
