"""Sentence selection of the twelfth labelling round of the extraction gold set (issue 30, new blind held-back part).

``python3 tools/select_gold_round12.py FOLDER > selection.json``: the fourth round's screen (seed 15, six sampled
sentences per document; ``tools/select_gold_round4.py``), then sentences repeating a sentence of an earlier round
dropped (``tools/select_gold_round6.py``), on the twelfth round's documents (``tools/build_extraction_gold.py``:
ROUND12_DOCUMENTS): ECB monetary policy statements at the press conference, with the transcript of the questions
and answers, as web pages saved by github:vtasca/central-bank-statements (data/ecb/statements/<date>.html). A kind
of document no earlier round holds (rounds 10 and 11 were FOMC minutes); ids continue after g2973 and earlier
rounds are rounds 1-11.

Documents (fixed by date before any sentence was read): the statements of the last monetary policy meeting of
each year, latest first, all before 2025: 14 December 2023, 15 December 2022, 16 December 2021, 10 December 2020,
12 December 2019. Each is taken whole; a next one is added only while the round holds fewer than MIN_SENTENCES
sentences.

Reading (fixed before any sentence was read): the page is read as the workbench reads an HTML source
(``aieco.sources.text.html_to_text``, one passage per paragraph). The page's navigation comes before the record and
its footer after it, so the record is the paragraphs after the place-and-date line under the statement's title
(RECORD_START: "Frankfurt am Main, <day> <Month> <year>") and before the "Related topics" heading (RECORD_END),
both found by form alone; a page without them is refused. No reader, parser or model runs here: only the sentence
screen and the vocabulary's synonym match.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

START = 2974
MIN_SENTENCES = 300
RECORD_START = re.compile(r"^Frankfurt am Main, \d{1,2} [A-Z][a-z]+ \d{4}$")
RECORD_END = re.compile(r"^#+\s*Related topics$")
#: The snapshot's files in the order they are taken (data/ecb/statements/ of github:vtasca/central-bank-statements).
CANDIDATES = ["20231214.html", "20221215.html", "20211216.html", "20201210.html", "20191212.html"]


def record_paragraphs(html: str) -> list[str]:
    """The statement's paragraphs: after RECORD_START, before RECORD_END (see the module docstring)."""
    from aieco.sources.text import html_to_text

    paras = [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", html_to_text(html))]
    starts = [i for i, p in enumerate(paras) if RECORD_START.match(p)]
    if not starts:
        raise ValueError("no place-and-date line; the round's reading rule does not apply")
    ends = [i for i, p in enumerate(paras) if i > starts[0] and RECORD_END.match(p)]
    if not ends:
        raise ValueError("no 'Related topics' heading after the record; the round's reading rule does not apply")
    return [p for p in paras[starts[0] + 1 : ends[0]] if p]


def page_record_sentences(path: Path, record: Callable[[str], list[str]] | None = None) -> list[str]:
    """Sentences of a saved page's record (``record``: the page's HTML to its record's paragraphs, default this
    round's :func:`record_paragraphs`), split by the candidate screen's splitter; a page the rule does not fit is
    refused, naming it."""
    from aieco.extraction.screen import split_sentences

    try:
        paras = (record or record_paragraphs)(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from exc
    return [s for p in paras for s in split_sentences(p)]


def statement_sentences(path: Path) -> list[str]:
    """Sentences of a saved statement page's record."""
    return page_record_sentences(path)


def whole_documents_until(
    folder: Path, files: list[str], gold: Path, start: int, least: int, read: Callable[[Path], list[str]]
) -> list[dict]:
    """The fourth round's screen on ``files`` taken whole, in order, until the rows (repeats of a sentence of the
    gold file before id ``start`` dropped) number at least ``least``; a file is read only when it is needed."""
    from tools.select_gold_round4 import select
    from tools.select_gold_round6 import earlier_sentences, repeats

    earlier = earlier_sentences(gold, start)
    repeated: dict[str, bool] = {}  # each text is compared with the earlier rounds once
    for n in range(1, len(files) + 1):
        rows = select(folder, files[:n], start=start, read=read)
        rows = [r for r in rows if not repeated.setdefault(r["text"], repeats(r["text"], earlier))]
        if len(rows) >= least:
            break
    return rows


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: whole documents in order until MIN_SENTENCES, repeats of rounds 1-11 dropped."""
    return whole_documents_until(folder, files, gold, START, MIN_SENTENCES, statement_sentences)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.build_extraction_gold import OUT

    json.dump(selection(Path(sys.argv[1]), CANDIDATES, OUT), sys.stdout, ensure_ascii=False, indent=1)
