"""Quotes that hold (issue 29, item 3): no control or non-character code point in a stored passage,
a quote extended to its sentence end, no row of numbers as a passage, and a relation whose quote
does not name both of its variables refused with its reason. On the real PDFs and the ECB pages."""

from __future__ import annotations

from pathlib import Path

import pytest

import aieco
from aieco.extraction.schemas import ProposedRelation
from aieco.extraction.screen import split_sentences
from aieco.extraction.validate import complete_quote, rejection_reason
from aieco.records import SourceLocation
from aieco.sources.clean import clean_text, disallowed, numeric_row
from aieco.sources.pdf import _passages, parse_pdf
from aieco.sources.text import parse_text
from aieco.vocab import load_vocabulary

CORPUS = Path(aieco.__file__).resolve().parent / "default" / "corpus"


def _bad(text: str) -> list[str]:
    return [f"U+{ord(c):04X}" for c in text if disallowed(c)]


# ---- normalisation at parse time -------------------------------------------------------------


def test_pdfium_hyphen_mark_becomes_a_hyphen_and_the_span_maps_back():
    original = "advanced non\ufffeEU countries\uf081 and\x02euro"
    cleaned = clean_text(original)
    assert cleaned.text == "advanced non-EU countries and euro"
    for word in ("non-EU", "countries", "euro"):
        start = cleaned.text.index(word)
        a, b = cleaned.original_span(start, start + len(word))
        assert clean_text(original[a:b]).text == word
    assert "U+FFFE@12->'-'" in cleaned.describe()
    assert clean_text("plain\ttext\n").edits == ()


@pytest.mark.parametrize("ch", ["\x00", "\x07", "\x1b", "\x85", "\uffff", "\ufffe", "\ue000", "\U000f0000", "\ufdd0"])
def test_every_control_and_non_character_is_disallowed(ch):
    assert disallowed(ch) and not _bad(clean_text(f"a{ch}b").text)


@pytest.mark.parametrize("name", ["esrb-2018-adverse-scenario.pdf", "bis-quarterly-review-2024.pdf"])
def test_no_stored_pdf_location_carries_a_disallowed_code_point_or_is_a_row_of_numbers(shared_data, name):
    out = parse_pdf(shared_data / "docs" / name, "s", parser_version="t", max_passage_chars=1200)
    assert out.locations
    bad = {loc.location_id: _bad(loc.text) for loc in out.locations if _bad(loc.text)}
    assert not bad
    assert not [loc.text for loc in out.locations if loc.kind == "passage" and numeric_row(loc.text)]
    if name.startswith("esrb"):
        text = " ".join(loc.text for loc in out.locations)
        assert "non-EU countries" in text  # PDFium wrote non\ufffeEU
        assert any(loc.warning and "U+FFFE" in loc.warning for loc in out.locations)


def test_the_default_corpus_text_files_parse_without_disallowed_code_points():
    for path in sorted(CORPUS.glob("*.md")):
        if "PROVENANCE" in path.name.upper() or path.name.startswith("provenance-"):
            continue
        out = parse_text(path, "s", parser_version="t", max_passage_chars=1200)
        assert out.locations and not [loc.text for loc in out.locations if _bad(loc.text)], path.name


def test_a_text_file_is_cleaned_and_a_paragraph_of_numbers_is_not_a_passage(tmp_path):
    f = tmp_path / "a.md"
    f.write_text("# T\n\nHigher tariffs lower real GDP in non\ufffeEU economies.\n\n8 7 6 10 8 7\n", encoding="utf-8")
    texts = [loc.text for loc in parse_text(f, "s", parser_version="t", max_passage_chars=1200).locations]
    assert texts == ["# T", "Higher tariffs lower real GDP in non-EU economies."]


# ---- passages end at sentence ends -------------------------------------------------------------


def _lines(*texts):
    return [{"text": t, "top": 12.0 * i, "bottom": 12.0 * i + 10} for i, t in enumerate(texts)]


def test_a_long_pdf_paragraph_is_split_after_a_sentence_not_mid_phrase():
    lines = _lines(
        "Tariffs would reduce EU real GDP by about", "four percent.", "Trade would fall", "sharply.", "8 7 6 10"
    )
    parts = _passages(lines, max_chars=60)
    assert parts == ["Tariffs would reduce EU real GDP by about\nfour percent.", "Trade would fall\nsharply."]
    # the lines after the last sentence end move on to the next passage with the line that did not fit
    assert _passages(_lines("A b c d e f.", "G h i j", "k l m n o."), max_chars=20) == [
        "A b c d e f.",
        "G h i j\nk l m n o.",
    ]
    assert all(len(p) <= 60 for p in parts)


def test_a_footnote_mark_after_a_full_stop_ends_a_sentence():
    assert split_sentences("It rose (Chart A).[1] Aggregate growth fell.") == [
        "It rose (Chart A).[1]",
        "Aggregate growth fell.",
    ]


# ---- validation ---------------------------------------------------------------------------------


def _proposal(src, dst, quote):
    return ProposedRelation(candidate_id="c", src_var=src, dst_var=dst, sign="-", quote=quote, confidence=0.7)


def _location(text):
    return SourceLocation.create(source_id="s", kind="passage", page=1, ordinal=0, text=text, parser_version="t")


def test_a_quote_is_extended_to_the_end_of_its_sentence():
    text = "Tariffs would reduce EU real GDP by about 3.6 percentage\npoints by 2020 (see Table 4.2).[3] Next."
    assert (
        complete_quote("Tariffs would reduce EU real GDP by about 3.6 percentage", text)
        == "Tariffs would reduce EU real GDP by about 3.6 percentage points by 2020 (see Table 4.2).[3]"
    )
    assert complete_quote("Tariffs lower GDP.", "Tariffs lower GDP. More.") == "Tariffs lower GDP."


def test_a_quote_must_name_both_variables_or_be_refused_with_its_reason():
    vocab = load_vocabulary()
    quote = "Equity markets rallied as investors anticipated rate cuts."
    loc = _location(quote)
    assert rejection_reason(_proposal("policy_rate", "confidence", quote), loc, vocab) == (
        "quote_lacks_variable: confidence"
    )
    ok = "Higher tariffs reduce economic activity."  # "economic activity" is a real GDP synonym
    assert rejection_reason(_proposal("tariffs", "real_gdp", ok), _location(ok), vocab) is None


def test_a_quote_whose_sentence_runs_past_its_passage_is_refused():
    vocab = load_vocabulary()
    text = "Higher tariffs would reduce EU real GDP by about 3.6 percentage"
    reason = rejection_reason(_proposal("tariffs", "real_gdp", text), _location(text), vocab)
    assert reason and reason.startswith("quote_incomplete")
