"""The graph page: self-contained, coloured by sign, tooltips with quote and source, everything escaped."""

from __future__ import annotations

import re
from datetime import date

from graph_corpus import rel

from aieco.graph.render import SIGN_COLOURS, render, write_graph_page
from aieco.records import Source, SourceLocation, utc_now

EVIL = 'Tariffs <script>alert("x")</script> & <img src=x onerror=alert(1)> reduce GDP'


def page():
    src = Source.create(
        path="a.pdf",
        sha256="1" * 64,
        publisher="p",
        title="Report <b>bold</b>",
        publication_date=date(2024, 1, 1),
        retrieved_at=utc_now(),
        role="generation",
        kind="pdf",
    )
    loc = SourceLocation.create(source_id=src.source_id, kind="passage", page=7, text=EVIL, parser_version="t")
    bad = rel("tariffs", "real_gdp", "-", source=src.source_id, quote=EVIL)
    bad = bad.model_copy(update={"location_id": loc.location_id})
    good = rel("tariffs", "import_prices", "+", source=src.source_id)
    return render([bad, good], {src.source_id: src}, {loc.location_id: loc}, title="<t>")


def test_page_loads_nothing_from_the_network():
    html = page()
    assert not re.search(r"""<(?:script|link)\b[^>]*(?:src|href)\s*=\s*["']?https?://""", html, re.IGNORECASE)
    assert "vis.Network" in html and "vis-network" in html.lower()  # the library is in-lined


def test_quotes_and_titles_are_escaped():
    html = page()
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>bold" not in html
    assert "\\u0026lt;script\\u0026gt;alert" in html  # the quote is shown as text
    assert "Report \\u0026lt;b\\u0026gt;bold" in html and "page 7" in html
    assert "<title>&lt;t&gt;</title>" in html


def test_edges_are_coloured_by_sign_and_carry_evidence_class():
    html = page()
    assert SIGN_COLOURS["-"] in html and SIGN_COLOURS["+"] in html
    assert "evidence class: unknown" in html


def test_write_graph_page(tmp_path):
    out = write_graph_page(tmp_path / "g.html", [rel("tariffs", "real_gdp", "-")], {}, {})
    assert out.read_text(encoding="utf-8").startswith("<html>")
