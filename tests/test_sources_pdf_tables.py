"""The fast table path of parser pdf-2 against the plain one, on every shared PDF.

Four shortcuts must not change any output: the ruling edges read through integer-handle
PDFium calls (reference: the previous reader, tests/pdf_edges_reference.py), the cell search
``_cells`` (reference: pdfplumber's ``intersections_to_cells``), the pre-check that skips
the table finder on pages with fewer than two edges of an orientation (reference:
pdfplumber's ``TableFinder`` run on every page) and the one-call cell text reader
(reference: pypdfium2's ``get_text_bounded``).
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pdfplumber.table import TableFinder, TableSettings, edges_to_intersections, intersections_to_cells

from aieco.sources import pdf as pdf_module
from aieco.sources.pdf import _cell_reader, _cells, _EdgePage, _find_tables, _ruling_edges, parse_pdf
from tests.pdf_edges_reference import _ruling_edges as reference_edges

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PDF = ROOT / "aieco" / "default" / "corpus" / "esrb-2018-adverse-scenario.pdf"


def _shared_pdfs(shared_data: Path) -> list[Path]:
    pdfs = sorted((shared_data / "docs").glob("*.pdf"))
    assert pdfs, "no shared PDFs"
    return [*pdfs, DEFAULT_PDF]


def _plain_tables(page: _EdgePage) -> list:
    return TableFinder(page, TableSettings.resolve(None)).tables


def _table_view(tables: list) -> list:
    return [(t.bbox, [row.cells for row in t.rows]) for t in tables]


def test_edges_and_tables_match_the_plain_path_on_every_page(shared_data):
    pages = skipped = with_tables = 0
    for path in _shared_pdfs(shared_data):
        doc = pdfium.PdfDocument(str(path))
        try:
            for i in range(len(doc)):
                page = doc[i]
                width, height = page.get_size()
                edges = _ruling_edges(page, height)
                assert edges == reference_edges(page, height), f"{path.name} page {i + 1}"
                fast = _find_tables(_EdgePage(edges, (0.0, 0.0, width, height)))
                plain = _plain_tables(_EdgePage(edges, (0.0, 0.0, width, height)))
                assert _table_view(fast) == _table_view(plain), f"{path.name} page {i + 1}"
                page.close()
                pages += 1
                vertical = sum(e["orientation"] == "v" for e in edges)
                skipped += vertical < 2 or len(edges) - vertical < 2
                with_tables += bool(plain)
        finally:
            doc.close()
    # the comparison covered pages of both kinds: ones the pre-check skips and ones with tables
    assert pages >= 150 and skipped > 0 and with_tables > 0


def test_cell_text_is_get_text_bounded_on_every_shared_table_cell(shared_data):
    cells = 0
    for path in _shared_pdfs(shared_data)[:-1]:
        doc = pdfium.PdfDocument(str(path))
        try:
            for i in range(len(doc)):
                page = doc[i]
                width, height = page.get_size()
                textpage = page.get_textpage()
                read = _cell_reader(textpage, height, len(textpage.get_text_range()))
                for table in _find_tables(_EdgePage(_ruling_edges(page, height), (0.0, 0.0, width, height))):
                    for x0, top, x1, bottom in (c for row in table.rows for c in row.cells if c is not None):
                        box = dict(left=x0, bottom=height - bottom, right=x1, top=height - top)
                        expected = textpage.get_text_bounded(**box)
                        assert read((x0, top, x1, bottom)) == expected, f"{path.name} page {i + 1}"
                        cells += 1
                textpage.close()
                page.close()
        finally:
            doc.close()
    assert cells > 1000


@pytest.mark.parametrize(
    "name", ["bis-quarterly-review-2024.pdf", "esrb-2018-adverse-scenario.pdf", "eba-transparency-2024-csv-guide.pdf"]
)
def test_locations_are_the_same_as_with_the_plain_table_finder(shared_data, monkeypatch, name):
    path = shared_data / "docs" / name
    pages = (1, 30)
    fast = parse_pdf(path, "src_t", parser_version="pdf-2", max_passage_chars=1200, page_range=pages)
    monkeypatch.setattr(pdf_module, "_find_tables", _plain_tables)
    plain = parse_pdf(path, "src_t", parser_version="pdf-2", max_passage_chars=1200, page_range=pages)

    def view(parsed):
        return [
            (loc.location_id, loc.kind, loc.page, loc.ordinal, loc.cell, loc.text, loc.row_label, loc.column_label)
            for loc in parsed.locations
        ]

    assert view(fast) == view(plain) and fast.warnings == plain.warnings
    assert any(loc.kind == "table_cell" for loc in fast.locations) or name != "bis-quarterly-review-2024.pdf"


def test_cells_of_a_hand_made_grid():
    # a 2 × 2 grid: three horizontal rules (top 10, 20, 30) and three vertical ones (x 0, 10, 20)
    def edge(x0, top, x1, bottom):
        o = "h" if top == bottom else "v"
        return {"x0": x0, "x1": x1, "top": top, "bottom": bottom, "orientation": o}

    edges = [edge(0, y, 20, y) for y in (10, 20, 30)] + [edge(x, 10, x, 30) for x in (0, 10, 20)]
    cells = _cells(edges_to_intersections(edges, 3, 3))
    assert cells == [(0, 10, 10, 20), (0, 20, 10, 30), (10, 10, 20, 20), (10, 20, 20, 30)]
    # one vertical rule only: no cell, and the finder is not run
    assert _find_tables(_EdgePage([edges[0], edges[1], edges[3]], (0, 0, 100, 100))) == []


_coord = st.integers(min_value=0, max_value=12).map(lambda v: v * 5.0)


@st.composite
def _edge_sets(draw):
    edges = []
    for _ in range(draw(st.integers(min_value=0, max_value=14))):
        at, a, b = draw(_coord), draw(_coord), draw(_coord)
        lo, hi = min(a, b), max(a, b) + 5.0
        if draw(st.booleans()):
            edges.append({"x0": lo, "x1": hi, "top": at, "bottom": at, "orientation": "h"})
        else:
            edges.append({"x0": at, "x1": at, "top": lo, "bottom": hi, "orientation": "v"})
    return edges


@settings(max_examples=200, deadline=None, derandomize=True)
@given(_edge_sets())
def test_cells_equal_pdfplumbers_on_random_rulings(edges):
    intersections = edges_to_intersections(edges, 3, 3)
    assert _cells(intersections) == intersections_to_cells(intersections)


@pytest.mark.parametrize("name", ["bis-quarterly-review-2024.pdf", "esrb-2018-adverse-scenario.pdf"])
def test_char_boxes_read_directly_give_the_same_locations_as_pypdfium2s(shared_data, monkeypatch, name):
    path = shared_data / "docs" / name
    fast = parse_pdf(path, "src_t", parser_version="pdf-2", max_passage_chars=1200, page_range=(1, 30))
    monkeypatch.setattr(pdf_module, "_loose_box", lambda textpage: lambda i: textpage.get_charbox(i, loose=True))
    plain = parse_pdf(path, "src_t", parser_version="pdf-2", max_passage_chars=1200, page_range=(1, 30))
    assert [loc.location_id for loc in fast.locations] == [loc.location_id for loc in plain.locations]
    assert [loc.text for loc in fast.locations] == [loc.text for loc in plain.locations]
