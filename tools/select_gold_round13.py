"""Sentence selection of the thirteenth labelling round of the extraction gold set (issue 30, new blind held-back part).

``python3 tools/select_gold_round13.py --extract CSV FOLDER`` writes each statement of the snapshot's
``communications_riksbank.csv`` (github:vtasca/central-bank-statements) that the round may take to
``FOLDER/riksbank-<date>.txt`` (the row's text, UTF-8, byte for byte); ``python3 tools/select_gold_round13.py
FOLDER > selection.json`` then screens them: the fourth round's screen (seed 15, six sampled sentences per document;
``tools/select_gold_round4.py``), sentences repeating a sentence of an earlier round dropped
(``tools/select_gold_round6.py``). Ids continue after g3359; earlier rounds are rounds 1-12.

Documents (fixed by date before any sentence was read): Sveriges Riksbank's monetary policy decisions (annex A to
the minutes of the Executive Board's monetary policy meeting: the decision and its grounds), rows of type
"statement" dated before 2025, latest first (19 December 2024 back to 9 February 2023, thirteen), each taken whole;
a next one is added only while the round holds fewer than MIN_SENTENCES sentences. A publisher no earlier round
holds (rounds 10-12 were FOMC minutes and ECB press conferences).

Reading (fixed before any sentence was read): the rows are text extracted from PDFs, a line per printed line and no
blank line, so a statement is read as the workbench reads plain text (``clean_text``), whitespace collapsed, one
passage, split by the candidate screen's splitter. The letterhead before the decision (date, department, registry
number, classification, contact lines) is not prose and is dropped by form: the record starts at the heading
"The Riksbank's decision" (RECORD_START), present in every statement the rule may take; a text without it is
refused. Footnotes and the closing line naming who took the decision stay. No reader, parser or model runs here:
only the sentence screen and the vocabulary's synonym match.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

START = 3360
MIN_SENTENCES = 300
LAST_DATE = "2025-01-01"  # published before 2025
RECORD_START = re.compile(r"^The Riksbank[’']s decision\s*$", re.MULTILINE)


def statements(csv_path: Path) -> list[tuple[str, str]]:
    """(file name, text) of the CSV's statements dated before LAST_DATE, latest first."""
    csv.field_size_limit(sys.maxsize)
    with csv_path.open(encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["Type"] == "statement" and r["Date"] < LAST_DATE]
    rows.sort(key=lambda r: r["Date"], reverse=True)
    return [(f"riksbank-{r['Date']}.txt", r["Text"]) for r in rows]


def record_text(text: str) -> str:
    """The statement from its decision heading on (see the module docstring)."""
    start = RECORD_START.search(text)
    if start is None:
        raise ValueError("no \"The Riksbank's decision\" heading; the round's reading rule does not apply")
    return text[start.start() :]


def statement_sentences(path: Path) -> list[str]:
    """Sentences of a saved statement's record, read as the workbench reads plain text."""
    from aieco.extraction.screen import split_sentences
    from aieco.sources.clean import clean_text
    from aieco.sources.delimited import read_text

    try:
        record = record_text(clean_text(read_text(path, None)).text)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from exc
    return split_sentences(re.sub(r"\s+", " ", record).strip())


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: whole statements in order until MIN_SENTENCES, repeats of rounds 1-12 dropped (the
    twelfth round's rule, ``select_gold_round12.whole_documents_until``)."""
    from tools.select_gold_round12 import whole_documents_until

    return whole_documents_until(folder, files, gold, START, MIN_SENTENCES, statement_sentences)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.build_extraction_gold import OUT

    if sys.argv[1] == "--extract":
        out = Path(sys.argv[3])
        out.mkdir(parents=True, exist_ok=True)
        for name, text in statements(Path(sys.argv[2])):
            (out / name).write_text(text, encoding="utf-8")
    else:
        folder = Path(sys.argv[1])
        names = sorted((p.name for p in folder.glob("riksbank-*.txt")), reverse=True)
        if not names:
            raise FileNotFoundError(f"{folder}: no riksbank-*.txt statements; write them with --extract CSV {folder}")
        json.dump(selection(folder, names, OUT), sys.stdout, ensure_ascii=False, indent=1)
