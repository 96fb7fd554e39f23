"""The PDFium parser (pdf-2) against the pdfplumber parser it replaces (pdf-1, tests/pdf_plumber_reference.py).

The documented differences (aieco/sources/pdf.py): content order instead of height order,
PDFium's spaces, table cell text read by PDFium. Measured on the shared PDFs, whole files:
passages of pdf-1 reproduced exactly (whitespace-normalised) 88 % (BIS), 89 % (BoE), 97 % (EBA),
93 % (ESRB); non-space characters of the passages differing 0.9 %, 0.0 %, 0.03 %, 0.1 %.
The test pins those figures (with a margin) on the pages it parses.
"""

from __future__ import annotations

from collections import Counter

import pytest

from aieco.errors import InputError
from aieco.sources.pdf import parse_pdf, pdf_page_count
from tests.pdf_plumber_reference import parse_pdf as parse_pdf_plumber
from tests.sources_files import text_pdf

CASES = [  # file, pages compared (None = all), least share of pdf-1 passages reproduced, most char difference
    ("eba-transparency-2024-csv-guide.pdf", None, 0.93, 0.002),
    ("esrb-2018-adverse-scenario.pdf", None, 0.90, 0.005),
    ("bis-quarterly-review-2024.pdf", (1, 16), 0.85, 0.02),
]


def _norm(text: str) -> str:
    return " ".join(text.split())


def _chars(locations, page: int) -> Counter:
    return Counter(
        "".join(loc.text for loc in locations if loc.page == page and loc.kind == "passage")
        .replace(" ", "")
        .replace("\n", "")
    )


@pytest.mark.parametrize("name,pages,min_reproduced,max_char_diff", CASES)
def test_passages_match_the_pdfplumber_parser_within_the_documented_difference(
    shared_data, name, pages, min_reproduced, max_char_diff
):
    path = shared_data / "docs" / name
    old = parse_pdf_plumber(path, "src_cmp", parser_version="pdf-1", max_passage_chars=1200, page_range=pages)
    new = parse_pdf(path, "src_cmp", parser_version="pdf-2", max_passage_chars=1200, page_range=pages)
    assert new.pages == old.pages == pdf_page_count(path)
    old_passages = {_norm(loc.text) for loc in old.locations if loc.kind == "passage" and loc.text.strip()}
    new_passages = {_norm(loc.text) for loc in new.locations if loc.kind == "passage" and loc.text.strip()}
    assert len(old_passages & new_passages) / len(old_passages) >= min_reproduced
    first, last = pages or (1, old.pages)
    diff = total = 0
    for page in range(first, last + 1):
        a, b = _chars(old.locations, page), _chars(new.locations, page)
        diff += sum(((a - b) + (b - a)).values())
        total += sum(a.values())
    assert diff / total <= max_char_diff
    # the same pages are empty or image-only, with the same warnings
    assert new.warnings == old.warnings
    # cells found on the same pages; ids differ only through the parser version
    assert {loc.page for loc in new.locations if loc.kind == "table_cell"} == {
        loc.page for loc in old.locations if loc.kind == "table_cell"
    }
    assert not {loc.location_id for loc in new.locations} & {loc.location_id for loc in old.locations}


def test_hand_made_pdf_gives_its_paragraphs_exactly(tmp_path):
    p1 = "Higher policy rates raise bank funding costs\nand tighten lending standards."
    p2 = "Lower house prices reduce collateral values."
    p3 = "Energy prices feed into inflation."
    text_pdf(tmp_path / "a.pdf", [[p1, p2], [p3]])
    parsed = parse_pdf(tmp_path / "a.pdf", "src_a", parser_version="pdf-2", max_passage_chars=1200)
    got = [(loc.page, loc.ordinal, loc.text) for loc in parsed.locations if loc.kind == "passage"]
    assert got == [(1, 0, p1), (1, 1, p2), (2, 0, p3)]  # lines joined by newlines, paragraphs by the gap
    assert parsed.pages == 2 and all(loc.parser_version == "pdf-2" for loc in parsed.locations)


@pytest.mark.parametrize(
    "content,match",
    [(b"this is not a PDF at all", "not a readable PDF"), (b"%PDF-1.4\n%%EOF", "not a readable PDF|has no pages")],
)
def test_bad_input_is_an_input_error_naming_the_file(tmp_path, content, match):
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(content)
    with pytest.raises(InputError, match=match) as err:
        parse_pdf(bad, "src_bad", parser_version="pdf-2", max_passage_chars=1200)
    assert str(bad) in str(err.value)
