"""Re-derive aieco/default/corpus/bis-qr-2024-03-excerpts.md from the BIS Quarterly Review PDF.

The BIS states on the review's imprint page: "All rights reserved. Brief excerpts may be
reproduced or translated provided the source is stated." The default workspace therefore ships
brief verbatim excerpts (a sentence or two each, page cited) instead of the PDF or whole pages.
Each excerpt is located in the PDF text by its first and last words; nothing is typed by hand.

    python3 tools/default_corpus.py ../shared/data/docs/bis-quarterly-review-2024.pdf
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pdfplumber

OUT = Path(__file__).resolve().parents[1] / "aieco" / "default" / "corpus" / "bis-qr-2024-03-excerpts.md"

#: (printed page label, 1-based PDF page, first words, last words, subject)
EXCERPTS = (
    ("Box B, p. 6", 18, "Despite the prevailing uncertainty", "for most of 2023", "Uncertainty and equity volatility"),
    (
        "p. 24",
        36,
        "Furthermore, growing geopolitical fragmentation",
        "advanced economies.",
        "Geopolitical fragmentation",
    ),
    (
        "p. 47, footnote 2",
        59,
        "Nominal house prices have seen some correction",
        "the United States).",
        "House prices and monetary tightening",
    ),
    ("p. 63", 75, "Shocks to global risk aversion", "especially in EMEs.", "Asset sales and market liquidity"),
)

HEADER = """# BIS Quarterly Review, March 2024 — brief excerpts

Brief verbatim excerpts from the BIS Quarterly Review, March 2024 (Bank for International
Settlements, 2024), reproduced under the publication's terms ("Brief excerpts may be reproduced
or translated provided the source is stated"). Source: BIS Quarterly Review, March 2024,
https://www.bis.org/publ/qtrpdf/r_qt2403.htm. Each section names the page it quotes.
"""


def flat(text: str) -> str:
    """PDF page text on one line: a line-final hyphen joins its word, other breaks become spaces."""
    text = re.sub(r"-\n(?=\w)", "-", text)
    return re.sub(r"\s+", " ", text).strip()


def excerpt(page_text: str, first: str, last: str) -> str:
    text = flat(page_text)
    start = text.find(first)
    end = text.find(last, start)
    if start < 0 or end < 0:
        raise ValueError(f"excerpt {first!r} … {last!r} not found on the page")
    return text[start : end + len(last)]


def render(pdf_path: Path) -> str:
    parts = [HEADER]
    with pdfplumber.open(pdf_path) as pdf:
        for label, page, first, last, subject in EXCERPTS:
            quote = excerpt(pdf.pages[page - 1].extract_text() or "", first, last)
            parts.append(f"\n## {subject} ({label})\n\n{quote}\n")
    return "".join(parts)


if __name__ == "__main__":
    OUT.write_text(render(Path(sys.argv[1])), encoding="utf-8")
    print(OUT)
