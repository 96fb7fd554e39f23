"""Sentence selection of the twenty-fifth labelling round of the extraction gold set (issue 30, a blind held-back
part).

``python3 tools/select_gold_round25.py FOLDER > selection.json``: the eighteenth round's rule
(``tools/select_gold_round18.py``: the fourth round's screen, repeats of earlier rounds dropped, each account read as
the workbench reads HTML up to its "Monetary policy statement" heading, whole accounts in order until
MIN_SENTENCES; the record's start is this round's, see Reading) on the snapshot's accounts published in 2022 that
rounds 22-24 did not take (3 March and 20 January 2022), then its accounts of 2021, latest first. Documents saved
in FOLDER under the snapshot's file names (``git show 2e898819:data/ecb/accounts/<date>.html`` of
github:vtasca/central-bank-statements). Ids continue after g9427; earlier rounds are rounds 1-24.

Reading: these accounts carry the meeting's date in the heading itself ("Account of the monetary policy meeting ...
held in Frankfurt am Main on Wednesday and Thursday, 2-3 February 2022") with no date line under it, so the
fourteenth round's record (after the date line under that heading) is refused on them. The record here is the
paragraphs after that dated heading (RECORD_TITLE_DATED) and before the heading "Monetary policy statement", the
fourteenth round's end, both found by form alone (seen on the pages' headings only); a page without them is refused.

Fixed before any sentence was read, in session 18 (after the twenty-fourth round's look). The ECB permits reproduction
provided that the source is acknowledged. No reader, parser or model runs here: only the sentence screen and the
vocabulary's synonym match.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

START = 9428
MIN_SENTENCES = 300
#: The account's heading with the meeting's date at its end (the accounts of 2021 and early 2022).
RECORD_TITLE_DATED = re.compile(
    r"^#+\s*Account of the monetary policy meeting\b.*\b\d{1,2}(-\d{1,2})? [A-Z][a-z]+ \d{4}$"
)
#: The snapshot's accounts published in 2022 that rounds 22-24 did not take, then those of 2021, latest first.
CANDIDATES = [
    "20220303.html",
    "20220120.html",
    "20211125.html",
    "20211007.html",
    "20210826.html",
]


def record_paragraphs(html: str) -> list[str]:
    """The account's paragraphs: after the dated heading RECORD_TITLE_DATED, before the fourteenth round's end."""
    from aieco.sources.text import html_to_text
    from tools.select_gold_round14 import RECORD_END

    paras = [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", html_to_text(html))]
    titles = [i for i, p in enumerate(paras) if RECORD_TITLE_DATED.match(p)]
    if not titles:
        raise ValueError(
            "no 'Account of the monetary policy meeting ... <date>' heading; this round's reading does not apply"
        )
    start = titles[0] + 1
    ends = [i for i, p in enumerate(paras) if i >= start and RECORD_END.match(p)]
    if not ends:
        raise ValueError("no 'Monetary policy statement' heading after the record; this round's reading does not apply")
    return [p for p in paras[start : ends[0]] if p]


def account_sentences(path: Path) -> list[str]:
    """Sentences of a saved account page's record (the twelfth round's page reading with this round's record)."""
    from tools.select_gold_round12 import page_record_sentences

    return page_record_sentences(path, record_paragraphs)


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: whole accounts in order until MIN_SENTENCES, repeats of rounds 1-24 dropped (the twelfth
    round's rule, ``select_gold_round12.whole_documents_until``, with this round's record)."""
    from tools.select_gold_round12 import whole_documents_until

    return whole_documents_until(folder, files, gold, START, MIN_SENTENCES, account_sentences)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.select_gold_round14 import print_selection

    print_selection(Path(sys.argv[1]), CANDIDATES, selection)
