"""Markdown and HTML passages carry section-level locations (heading path + paragraph)."""

from __future__ import annotations

from datetime import date

from aieco.records import Source, SourceLocation, utc_now
from aieco.reporting.render import short_reference, where_of
from aieco.sources.text import html_to_text, parse_text

MD = """# Markets in 2024

Intro.

## Volatility and valuations

Higher volatility lowers equity prices.
It did so in April.

Another paragraph.

# Housing
Higher rates weigh on house prices.
"""

HTML = """<html><head><title>t</title><style>p {color: red}</style></head><body>
<h1>Real estate markets</h1><p>Tighter financing conditions have
reduced demand.</p><h2>Commercial</h2><p>CRE prices fell.</p><script>var x = "<p>no</p>";</script>
<p>Rents &amp; yields.</p></body></html>"""


def _where(path):
    return [
        (loc.text, where_of(loc))
        for loc in parse_text(path, "src_x", parser_version="t", max_passage_chars=2000).locations
    ]


def test_markdown_paragraphs_name_their_heading_path_and_number(tmp_path):
    p = tmp_path / "note.md"
    p.write_text(MD)
    assert _where(p) == [
        ("# Markets in 2024", "§ Markets in 2024"),
        ("Intro.", "§ Markets in 2024, ¶ 1"),
        ("## Volatility and valuations", "§ Markets in 2024 › Volatility and valuations"),
        (
            "Higher volatility lowers equity prices.\nIt did so in April.",
            "§ Markets in 2024 › Volatility and valuations, ¶ 1",
        ),
        ("Another paragraph.", "§ Markets in 2024 › Volatility and valuations, ¶ 2"),
        ("# Housing", "§ Housing"),
        ("Higher rates weigh on house prices.", "§ Housing, ¶ 1"),
    ]


def test_html_headings_open_sections_and_scripts_are_skipped(tmp_path):
    p = tmp_path / "page.html"
    p.write_text(HTML)
    assert _where(p) == [
        ("# Real estate markets", "§ Real estate markets"),
        ("Tighter financing conditions have reduced demand.", "§ Real estate markets, ¶ 1"),
        ("## Commercial", "§ Real estate markets › Commercial"),
        ("CRE prices fell.", "§ Real estate markets › Commercial, ¶ 1"),
        ("Rents & yields.", "§ Real estate markets › Commercial, ¶ 2"),
    ]


def test_plain_text_keeps_page_locations(tmp_path):
    p = tmp_path / "note.txt"
    p.write_text("# not a heading in plain text\n\nA paragraph.\n")
    assert [w for _, w in _where(p)] == ["p. 1", "p. 1"]


def test_broken_html_still_yields_its_text():
    assert html_to_text("<p>unclosed <b>bold <h2>Head</p>") == "unclosed bold\n\n## Head"


def test_a_report_reference_names_the_section():
    src = Source.create(
        path="x.md",
        sha256="0" * 64,
        publisher="ECB",
        title="Financial Stability Review",
        publication_date=date(2023, 11, 22),
        retrieved_at=utc_now(),
        role="generation",
        kind="text",
    )
    loc = SourceLocation.create(
        source_id=src.source_id,
        kind="passage",
        page=1,
        ordinal=3,
        text="t",
        parser_version="t",
        section="Real estate › Commercial",
        paragraph=2,
    )
    assert short_reference(src, loc) == "(ECB, Financial Stability Review 2023, § Real estate › Commercial, ¶ 2)"
    # Section and paragraph are left out of the id: earlier locations keep theirs.
    bare = SourceLocation.create(
        source_id=src.source_id, kind="passage", page=1, ordinal=3, text="t", parser_version="t"
    )
    assert bare.location_id == loc.location_id
