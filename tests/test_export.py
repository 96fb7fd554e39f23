"""Export in five formats; numbers link to runs; the JSON bundle re-verifies; the PDF holds the numbers."""

import io
import json
import re
import shutil
import subprocess

import pdfplumber
import pytest
from reporting_world import ANALYSIS, build_world, good_draft

from aieco.errors import InputError, IntegrityError, StageStopped
from aieco.records import Report, canonical_json
from aieco.reporting.export import FORMATS, export_report, verify_bundle
from aieco.reporting.render import render_report

NUMBERS = ["5.2%", "0.8%", "-2.5%", "8.2%"]


@pytest.fixture
def rendered(store):
    w = build_world(store)
    return w, render_report(store, ANALYSIS, good_draft(w)).report


def test_html_is_self_contained_and_links_every_number(store, rendered):
    w, report = rendered
    page = export_report(store, report.report_id, "html").decode()
    assert not re.search(r"""(src|href)=["'](https?:|//)""", page) and "<link" not in page and "<script" not in page
    assert '<div class="framed"' in page
    links = re.findall(r'<a class="num" href="#(pt-[^"]+)" title="run ([^"]+)">([^<]+)</a>', page)
    assert [t for _, _, t in links] == NUMBERS
    for anchor, run_id, _ in links:
        assert f'id="{anchor}"' in page and run_id == w.run.run_id
    assert f'id="run-{w.run.run_id}"' in page and w.run.output_digest in page and w.run.code_digest in page
    assert "“Higher long-term rates feed into mortgage rates”" in page and 'id="note-1"' in page
    assert "(ESRB, Adverse scenario 2018, p. 5)" in page
    section = page[page.index(f'id="run-{w.run.run_id}"') :]
    assert "house_prices decrease (three_year_mean, 2025-2027, priority 1)" in section
    assert "mortgage_rates -→ house_prices (ECB, FSR Nov 2023, p. 31): “Rising mortgage rates weigh on" in section


def test_markdown_links_numbers_and_footnotes_quotes(store, rendered):
    _, report = rendered
    md = export_report(store, report.report_id, "md").decode()
    for n in NUMBERS:
        assert re.search(rf"\[{re.escape(n)}\]\(#pt-pt_[0-9a-f]+\)", md)
    assert "[^1]: (ESRB, Adverse scenario 2018, p. 5): “Higher long-term rates feed into mortgage rates”" in md
    # each footnote says who read the relation and whether an analyst reviewed it
    notes = [line for line in md.splitlines() if line.startswith("[^")]
    assert notes and all(n.endswith("; read by the offline rule reader; not reviewed by an analyst)") for n in notes)


def test_latex_uses_the_framed_environment(store, rendered):
    _, report = rendered
    tex = export_report(store, report.report_id, "tex").decode()
    assert r"\usepackage{framed}" in tex and tex.count(r"\begin{framed}") == 1
    assert r"\noindent\emph{Impact of higher financing costs on property markets}" in tex
    assert r"}{-2.5\%}" in tex and r"p.~5" in tex and r"\footnote{" in tex
    links = re.findall(r"\\hyperlink\{([^}]+)\}", tex)
    assert len(links) == 4 and all(f"\\hypertarget{{{a}}}" in tex and "_" not in a for a in links)


def test_latex_compiles_when_a_tex_engine_is_present(store, rendered, tmp_path):
    engine = shutil.which("pdflatex") or shutil.which("lualatex") or shutil.which("xelatex")
    if engine is None:
        pytest.skip("no TeX engine (pdflatex, lualatex, xelatex) on PATH")
    kpsewhich = shutil.which("kpsewhich")
    for sty in ("framed.sty", "hyperref.sty"):
        if kpsewhich and subprocess.run([kpsewhich, sty], capture_output=True).returncode != 0:
            pytest.skip(f"the TeX installation lacks {sty} (Debian: texlive-latex-extra)")
    _, report = rendered
    (tmp_path / "r.tex").write_bytes(export_report(store, report.report_id, "tex"))
    out = subprocess.run(
        [engine, "-interaction=nonstopmode", "-halt-on-error", "r.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout[-2000:]
    assert (tmp_path / "r.pdf").exists()


def test_pdf_opens_and_contains_the_rendered_numbers(store, rendered):
    _, report = rendered
    data = export_report(store, report.report_id, "pdf")
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    assert data.startswith(b"%PDF")
    for n in NUMBERS:
        assert n in text
    assert "Adverse scenario 2018" in text
    # the restrictions and their supporting relations, as in the HTML export
    flat = " ".join(text.split())
    assert "Restrictions" in flat and "house_prices decrease (three_year_mean, 2025-2027, priority 1)" in flat
    assert "Supporting relations" in flat and "“Rising mortgage rates weigh on house prices”" in flat


def test_json_bundle_round_trips_and_re_verifies(store, rendered):
    w, report = rendered
    data = export_report(store, report.report_id, "json")
    summary = verify_bundle(data)
    assert summary == {"report_id": report.report_id, "records": summary["records"], "artifacts": 1, "claims": 4}
    content = json.loads(data)
    types = {r["type"] for r in content["records"]}
    assert {
        "Report",
        "ReportSentence",
        "Claim",
        "OutputTest",
        "ModelRun",
        "ModelOutputPoint",
        "Relation",
        "SourceLocation",
        "Source",
    } <= types
    assert w.run.output_digest in content["artifacts"]
    assert export_report(store, report.report_id, "json") == data  # deterministic


def _reseal(content):
    content.pop("bundle_digest")
    from aieco.records import sha256_hex

    content["bundle_digest"] = sha256_hex(canonical_json(content))
    return canonical_json(content).encode()


@pytest.mark.parametrize(
    "field, value",
    [
        ("row", "2026"),
        ("column", "real_gdp"),
        ("unit", "pp"),
        ("transformation", "level"),
        ("run_id", "run_00000000000000000000"),
        ("artifact_digest", "0" * 64),
    ],
)
def test_a_tampered_bundle_fails_even_when_resealed(store, rendered, field, value):
    _, report = rendered
    content = json.loads(export_report(store, report.report_id, "json"))
    claim = next(r for r in content["records"] if r["type"] == "Claim")
    claim["data"][field] = value
    with pytest.raises(IntegrityError):
        verify_bundle(json.dumps(content).encode())  # digest no longer matches
    # Re-sealed with fresh digests, the claim still no longer resolves against the bundled artifact.
    from aieco.records import Claim

    rec = Claim.model_validate(claim["data"])
    claim["digest"] = rec.digest()
    claim["id"] = rec.claim_id
    with pytest.raises(IntegrityError):
        verify_bundle(_reseal(content))


def test_a_tampered_bundle_artifact_fails(store, rendered):
    _, report = rendered
    content = json.loads(export_report(store, report.report_id, "json"))
    import base64

    digest, b64 = next(iter(content["artifacts"].items()))
    content["artifacts"][digest] = base64.b64encode(base64.b64decode(b64).replace(b"5.1701", b"5.1702")).decode()
    with pytest.raises(IntegrityError, match="does not hash"):
        verify_bundle(_reseal(content))


@pytest.mark.parametrize("data", [b"not json", b"{}", b'{"format": "other"}'])
def test_verify_bundle_refuses_other_files(data):
    with pytest.raises(InputError):
        verify_bundle(data)


def test_every_format_exports_and_unknown_formats_are_refused(store, rendered):
    _, report = rendered
    for fmt in FORMATS:
        assert export_report(store, report.report_id, fmt)
    for fmt in ("html", "md", "tex"):  # the review state of each cited relation, in every text format
        assert "not reviewed by an analyst" in export_report(store, report.report_id, fmt).decode()
    with pytest.raises(InputError):
        export_report(store, report.report_id, "docx")


def test_a_failed_report_does_not_export_as_a_document(store):
    w = build_world(store)
    d = good_draft(w)
    bad = d.model_copy(
        update={"sentences": [*d.sentences[:3], d.sentences[3].model_copy(update={"cited_relation_ids": []})]}
    )
    with pytest.raises(StageStopped):
        render_report(store, ANALYSIS, bad)
    failed = store.find(Report, status="failed")[0]
    with pytest.raises(InputError, match="uncited_direction"):
        export_report(store, failed.report_id, "html")
    assert verify_bundle(export_report(store, failed.report_id, "json"))["report_id"] == failed.report_id


def test_export_stops_when_a_stored_number_was_altered(store, rendered):
    w, report = rendered
    path = store._artifact_path(w.run.output_digest)
    path.write_bytes(path.read_bytes().replace(b"0.77549", b"0.87549"))
    with pytest.raises(IntegrityError):
        export_report(store, report.report_id, "html")


def test_pdf_opens_with_a_cover_block_and_a_summary_table_of_the_rendered_figures(store, rendered):
    _, report = rendered
    data = export_report(store, report.report_id, "pdf")
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        first = pdf.pages[0]
        tables = first.extract_tables()
        text = first.extract_text()
    cover = {row[0]: row[1] for row in tables[0] if row and row[0]}
    for label in ("Risk", "Information cutoff", "Jurisdiction", "Horizon", "Data vintages", "Run date"):
        assert cover.get(label), f"cover block lacks {label}: {cover}"
    assert cover["Information cutoff"] == "2024-12-31"  # the cutoff the report was rendered against
    assert "aieco version" in cover and "Review status" in cover
    summary = tables[1]
    assert summary[0][:4] == ["variable", "period", "statistic", "value"]
    # the headline figures are the prose's numbers, as the prose renders them, in reading order
    assert [row[3] for row in summary[1:]] == NUMBERS
    assert "Headline figures" in text


def test_html_cover_and_summary_link_each_figure_to_its_output_point(store, rendered):
    _, report = rendered
    page = export_report(store, report.report_id, "html").decode()
    cover = page[page.index('<table class="cover">') : page.index("</table>", page.index('<table class="cover">'))]
    assert "Information cutoff" in cover and "aieco version" in cover and "Review status" in cover
    start = page.index('<table class="summary">')
    summary = page[start : page.index("</table>", start)]
    links = re.findall(r'<a class="num" href="#(pt-[^"]+)">([^<]+)</a>', summary)
    assert [t for _, t in links] == NUMBERS
    assert all(f'id="{anchor}"' in page for anchor, _ in links)


def test_run_diagnostics_read_as_rows_not_json_dumps():
    from aieco.reporting.export import _readable

    rows = _readable("plausibility", {"bounds": {"real_gdp": [-6.0, 4.0]}, "passed": True, "notes": []})
    assert rows == [
        ("plausibility › bounds › real gdp", "-6.0, 4.0"),
        ("plausibility › notes", "none"),
        ("plausibility › passed", "True"),
    ]
    assert _readable("acceptance share", 0.25) == [("acceptance share", "0.25")]
