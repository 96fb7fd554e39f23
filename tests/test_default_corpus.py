"""The ECB pages of the default corpus (issue 29): rebuilt from tools/default_corpus_pages.toml
byte for byte, each from the canonical publisher address, dated by the cutoff, whole paragraphs,
no excluded publisher, a provenance file beside each and a manifest entry for each."""

from __future__ import annotations

import importlib
import tomllib
from datetime import date
from pathlib import Path

import pytest

import aieco

PACKAGE = Path(aieco.__file__).resolve().parent
CORPUS = PACKAGE / "default" / "corpus"


@pytest.fixture(scope="module")
def tool():
    return importlib.import_module("tools.default_corpus")


@pytest.fixture(scope="module")
def pages(tool):
    return tool.load_pages()


def test_the_shipped_pages_manifest_and_provenance_are_what_the_tool_writes(tool, pages):
    files = tool.render_pages(pages)
    assert len(files) == 2 * len(pages) + 1 and len(pages) >= 15
    for name, text in files.items():
        assert (CORPUS / name).read_text(encoding="utf-8") == text, (
            f"{name} differs: rerun tools/default_corpus.py --pages"
        )


def test_every_page_is_a_canonical_publisher_page_dated_by_the_cutoff(pages):
    for p in pages:
        assert p["url"].startswith(
            ("https://www.ecb.europa.eu/", "https://www.esrb.europa.eu/", "https://www.eba.europa.eu/")
        )
        assert p["date"] <= date(2024, 12, 31)
        assert "imf.org" not in p["url"] and "bankofengland" not in p["url"]


def test_the_manifest_lists_every_page_with_its_date(pages):
    entries = {e["path"]: e for e in tomllib.loads((CORPUS / "sources.toml").read_text(encoding="utf-8"))["source"]}
    for p in pages:
        e = entries[f"{p['slug']}.md"]
        assert e["publication_date"] == p["date"] and e["publisher"] == p["publisher"] and e["role"] == "generation"
    assert {"esrb-2018-adverse-scenario.pdf", "bis-qr-2024-03-excerpts.md"} <= set(entries)


def test_each_shipped_page_quotes_its_paragraphs_verbatim_and_names_its_source(pages):
    for p in pages:
        text = (CORPUS / f"{p['slug']}.md").read_text(encoding="utf-8")
        assert p["url"] in text and f"Source: {p['publisher']}" in text
        body = text.split("## Opening\n", 1)[1]
        assert [para for para in body.split("\n") if para] == p["paragraphs"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"url": "https://zentral-bank.eu/press/x.en.html"}, "canonical"),
        ({"url": "https://www.ecb.europa.eu/press/x.de.html"}, "canonical"),
        ({"date": date(2025, 1, 15)}, "after"),
        ({"paragraphs": ["Higher tariffs raise import prices and"]}, "sentence end"),
        ({"paragraphs": ["The Bank of England said so."]}, "excludes"),
        ({"publisher": "IMF"}, "publisher"),
        ({"date_rule": ""}, "date_rule"),
    ],
)
def test_a_page_that_breaks_a_rule_is_refused(tool, pages, change, message):
    with pytest.raises(ValueError, match=message):
        tool.check_page({**pages[0], **change})
