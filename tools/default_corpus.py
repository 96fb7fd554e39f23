"""Re-derive the default workspace's corpus files (aieco/default/corpus/).

* ``bis-qr-2024-03-excerpts.md`` from the BIS Quarterly Review PDF (below);
* the ECB pages: one Markdown file and one provenance file per ``[[page]]`` of
  ``tools/default_corpus_pages.toml`` (openings of ECB publication pages, whole paragraphs
  verbatim, canonical ecb.europa.eu address, publication date and the rule that gave it), and the
  manifest ``sources.toml`` listing every file. The ECB permits reproduction provided the source is
  acknowledged; each file states its source.

The BIS states on the review's imprint page: "All rights reserved. Brief excerpts may be
reproduced or translated provided the source is stated." The default workspace therefore ships
brief verbatim excerpts (a sentence or two each, page cited) instead of the PDF or whole pages.
Each excerpt is located in the PDF text by its first and last words; nothing is typed by hand.

    python3 tools/default_corpus.py ../shared/data/docs/bis-quarterly-review-2024.pdf   # BIS excerpts
    python3 tools/default_corpus.py --pages                                              # ECB pages, manifest
"""

from __future__ import annotations

import re
import sys
import tomllib
from datetime import date
from pathlib import Path
from urllib.parse import urlparse

import pdfplumber

CORPUS = Path(__file__).resolve().parents[1] / "aieco" / "default" / "corpus"
OUT = CORPUS / "bis-qr-2024-03-excerpts.md"
PAGES = Path(__file__).resolve().parent / "default_corpus_pages.toml"

#: (printed page label, 1-based PDF page, first words, last words, subject)
EXCERPTS = (
    (
        "Box B, p. 6",
        18,
        "Despite the prevailing uncertainty",
        "(Graph B1.A, red line).",
        "Uncertainty and equity volatility",
    ),
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


# --------------------------------------------------------------------------- ECB pages

#: Publishers whose pages may enter the default corpus, and the host their canonical address must have.
CANONICAL_HOSTS = {"ECB": ("www.ecb.europa.eu",), "ESRB": ("www.esrb.europa.eu",), "EBA": ("www.eba.europa.eu",)}
#: The latest publication date a page may carry (the default request's cutoff).
LATEST = date(2024, 12, 31)
#: A paragraph ends at a sentence end (a full stop, question or exclamation mark, maybe a footnote mark).
SENTENCE_END = re.compile(r"[.!?][\u201d\u2019\")]?(\[\d+\])?$")
#: Words that mark text from a publisher the default corpus must not carry.
FORBIDDEN = ("International Monetary Fund", "Bank of England")

MANIFEST_HEADER = """# The default workspace's corpus: real documents (see PROVENANCE.md beside this file and the
# provenance-*.md file of each ECB page). Paths are relative to this manifest.
# Written by tools/default_corpus.py --pages; do not edit by hand.

[[source]]
path = "esrb-2018-adverse-scenario.pdf"
title = "Adverse macro-financial scenario for the 2018 EU-wide banking sector stress test"
publisher = "ESRB"
publication_date = 2018-01-16
role = "generation"
jurisdiction = "EU"
note = "Real document, reuse with attribution (Source: ESRB). See PROVENANCE.md."

[[source]]
path = "bis-qr-2024-03-excerpts.md"
title = "BIS Quarterly Review, March 2024 (brief excerpts)"
publisher = "BIS"
publication_date = 2024-03-31
role = "generation"
jurisdiction = "GLOBAL"
note = "Brief verbatim excerpts, source stated (BIS terms). See PROVENANCE.md."
"""


def load_pages(path: Path = PAGES) -> list[dict]:
    """The ``[[page]]`` entries, each checked: canonical publisher address, date, whole paragraphs."""
    pages = tomllib.loads(path.read_text(encoding="utf-8"))["page"]
    slugs = [p["slug"] for p in pages]
    if len(set(slugs)) != len(slugs):
        raise ValueError(f"{path}: a slug appears twice")
    for p in pages:
        check_page(p)
    return pages


def check_page(page: dict) -> None:
    """Raise ValueError naming the page when it breaks a rule of the default corpus."""
    name = page.get("slug", "?")
    hosts = CANONICAL_HOSTS.get(page["publisher"])
    if hosts is None:
        raise ValueError(f"{name}: publisher {page['publisher']!r} is not one of {sorted(CANONICAL_HOSTS)}")
    url = urlparse(page["url"])
    if url.scheme != "https" or url.hostname not in hosts or not url.path.endswith(".en.html"):
        raise ValueError(f"{name}: {page['url']} is not the canonical English page on {hosts[0]}")
    if not isinstance(page["date"], date) or page["date"] > LATEST:
        raise ValueError(f"{name}: publication date {page['date']} is after {LATEST}")
    if not page.get("date_rule"):
        raise ValueError(f"{name}: no date_rule says where the publication date comes from")
    if not page["paragraphs"]:
        raise ValueError(f"{name}: no paragraph")
    for i, para in enumerate(page["paragraphs"], 1):
        if para != para.strip() or "\n" in para:
            raise ValueError(f"{name}: paragraph {i} is not one line without outer spaces")
        if not SENTENCE_END.search(para):
            raise ValueError(f"{name}: paragraph {i} does not end at a sentence end: {para[-40:]!r}")
        if any(word in para for word in FORBIDDEN):
            raise ValueError(f"{name}: paragraph {i} quotes a publisher the default corpus excludes")


def page_markdown(page: dict) -> str:
    """The shipped Markdown of one page: a heading, the source line, the verbatim paragraphs."""
    cut = (
        " The stored opening ends inside the last paragraph; its complete sentences are kept."
        if page.get("cut")
        else ""
    )
    head = (
        f"# {page['title']}\n\n"
        f"Verbatim opening paragraphs of an {page['publisher']} publication page, reproduced with the source "
        f"acknowledged. Source: {page['publisher']}, {page['title']}, {page['url']} (published "
        f"{page['date'].isoformat()}).{cut}\n\n## Opening\n"
    )
    return head + "".join(f"\n{para}\n" for para in page["paragraphs"])


def page_provenance(page: dict) -> str:
    """The provenance file of one page."""
    lines = [
        f"# Provenance: {page['slug']}.md",
        "",
        f"- publisher: {page['publisher']}",
        f"- title: {page['title']}",
        f"- canonical address: {page['url']}",
        f"- text read at: {page['seen_at']} (the stored copy the `search` tool's pages corpus returned; "
        "an ECB mirror host serving the same page)",
        f"- publication date: {page['date'].isoformat()} ({page['date_rule']}); release-date rule: file",
        f"- extract: the page's opening, {len(page['paragraphs'])} whole paragraph(s) verbatim"
        + (
            "; the last one shortened to its complete sentences (the stored opening ends inside it)"
            if page.get("cut")
            else ""
        ),
        "- written by: tools/default_corpus.py --pages from tools/default_corpus_pages.toml",
        f"- licence: {page['publisher']} publications: reuse with attribution (reproduction permitted provided the "
        f"source is acknowledged). Source: {page['publisher']}",
        "- provenance: real (quoted text); the heading and source line are ours",
        "",
    ]
    return "\n".join(lines)


def manifest(pages: list[dict]) -> str:
    """``sources.toml``: the ESRB and BIS entries, then one entry per page."""
    parts = [MANIFEST_HEADER]
    for p in pages:
        title = p["title"].replace('"', '\\"')
        parts.append(
            f'\n[[source]]\npath = "{p["slug"]}.md"\ntitle = "{title}"\npublisher = "{p["publisher"]}"\n'
            f'publication_date = {p["date"].isoformat()}\nrole = "generation"\njurisdiction = "EA"\n'
            f'note = "Verbatim opening of {p["url"]}; reuse with attribution. See provenance-{p["slug"]}.md."\n'
        )
    return "".join(parts)


def render_pages(pages: list[dict]) -> dict[str, str]:
    """File name → text of every file the pages give (Markdown, provenance, manifest)."""
    out = {"sources.toml": manifest(pages)}
    for p in pages:
        out[f"{p['slug']}.md"] = page_markdown(p)
        out[f"provenance-{p['slug']}.md"] = page_provenance(p)
    return out


if __name__ == "__main__":
    if sys.argv[1:] == ["--pages"]:
        for name, text in render_pages(load_pages()).items():
            (CORPUS / name).write_text(text, encoding="utf-8")
            print(CORPUS / name)
    else:
        OUT.write_text(render(Path(sys.argv[1])), encoding="utf-8")
        print(OUT)
