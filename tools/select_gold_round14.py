"""Sentence selection of the fourteenth labelling round of the extraction gold set (issue 30, new blind held-back part).

``python3 tools/select_gold_round14.py FOLDER > selection.json``: the fourth round's screen (seed 15, six sampled
sentences per document; ``tools/select_gold_round4.py``), sentences repeating a sentence of an earlier round dropped
(``tools/select_gold_round6.py``), on the round's documents saved in FOLDER under the snapshot's file names
(``git show 2e898819:data/ecb/accounts/<date>.html`` of github:vtasca/central-bank-statements). Ids continue after
g3687; earlier rounds are rounds 1-13.

Documents (fixed by date before any sentence was read): the accounts of the ECB Governing Council's monetary policy
meetings (the minutes: the review of financial, economic and monetary developments by the Executive Board members and
the Governing Council's discussion), a kind of document no earlier round holds (rounds 10-11 were FOMC minutes, round
12 ECB press conferences, round 13 Riksbank decisions), published in 2024, latest first (14 November 2024 back to 18
January 2024, CANDIDATES), each taken whole; a next one is added only while the round holds fewer than MIN_SENTENCES
sentences.

Reading (fixed before any sentence was read, from the pages' headings only): the page is read as the workbench reads
an HTML source (``aieco.sources.text.html_to_text``, one passage per paragraph). The site's navigation comes before
the record, and the meeting's attendance lists, links and footer after it, so the record is the paragraphs after the
publication date line that follows the heading "Account of the monetary policy meeting ..." (RECORD_TITLE) and before
the heading "Monetary policy statement" (RECORD_END: the account's links to the statement and press release, then
the list of members), both found by form alone; a page without them is refused. Section headings stay and are
labelled, as earlier rounds kept headings. No reader, parser or model runs here: only the sentence screen and the
vocabulary's synonym match.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

START = 3688
MIN_SENTENCES = 300
RECORD_TITLE = re.compile(r"^#+\s*Account of the monetary policy meeting\b")
RECORD_DATE = re.compile(r"^\d{1,2} [A-Z][a-z]+ \d{4}$")
RECORD_END = re.compile(r"^#+\s*Monetary policy statement$")
#: The snapshot's accounts published in 2024, latest first
#: (data/ecb/accounts/ of github:vtasca/central-bank-statements).
CANDIDATES = [
    "20241114.html",
    "20241010.html",
    "20240822.html",
    "20240704.html",
    "20240510.html",
    "20240404.html",
    "20240222.html",
    "20240118.html",
]


def record_paragraphs(html: str) -> list[str]:
    """The account's paragraphs: after the date line under RECORD_TITLE, before RECORD_END."""
    from aieco.sources.text import html_to_text

    paras = [re.sub(r"\s+", " ", p).strip() for p in re.split(r"\n\s*\n", html_to_text(html))]
    titles = [i for i, p in enumerate(paras) if RECORD_TITLE.match(p)]
    if not titles or titles[0] + 1 >= len(paras) or not RECORD_DATE.match(paras[titles[0] + 1]):
        raise ValueError(
            "no 'Account of the monetary policy meeting' heading with its date line; the round's reading rule does "
            "not apply"
        )
    start = titles[0] + 2
    ends = [i for i, p in enumerate(paras) if i >= start and RECORD_END.match(p)]
    if not ends:
        raise ValueError(
            "no 'Monetary policy statement' heading after the record; the round's reading rule does not apply"
        )
    return [p for p in paras[start : ends[0]] if p]


def account_sentences(path: Path) -> list[str]:
    """Sentences of a saved account page's record (the twelfth round's page reading with this round's record)."""
    from tools.select_gold_round12 import page_record_sentences

    return page_record_sentences(path, record_paragraphs)


def selection(folder: Path, files: list[str], gold: Path) -> list[dict]:
    """The round's rows: whole accounts in order until MIN_SENTENCES, repeats of rounds 1-13 dropped (the
    twelfth round's rule, ``select_gold_round12.whole_documents_until``)."""
    from tools.select_gold_round12 import whole_documents_until

    return whole_documents_until(folder, files, gold, START, MIN_SENTENCES, account_sentences)


def print_selection(
    folder: Path,
    candidates: list[str],
    select,
    where: str = "data/ecb/accounts",
    repo: str = "github:vtasca/central-bank-statements",
    commit: str = "2e898819",
) -> None:
    """Print ``select``'s rows for the documents ``candidates`` saved in ``folder`` as JSON; a missing document is
    refused, naming it and how to save it from the folder ``where`` of ``repo`` at ``commit`` (this round's command
    line and later rounds')."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tools.build_extraction_gold import OUT

    missing = [f for f in candidates if not (folder / f).exists()]
    if missing:
        raise FileNotFoundError(
            f"{folder}: missing {missing}; save them with git show {commit}:{where}/<file> from {repo}"
        )
    json.dump(select(folder, candidates, OUT), sys.stdout, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    print_selection(Path(sys.argv[1]), CANDIDATES, selection)
