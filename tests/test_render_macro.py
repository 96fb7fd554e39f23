"""Integration: claims on the registered macro_var model's selected path link, render and export."""

from __future__ import annotations

import pytest

from aieco.records import ModelOutputPoint

macro = pytest.importorskip("aieco.models.macro")
demo_macro = pytest.importorskip("aieco.demo.macro")

from aieco.agents.report import label  # noqa: E402
from aieco.reporting.claims import ClaimSpec, link_claims, register_output_tests  # noqa: E402
from aieco.reporting.export import export_report, verify_bundle  # noqa: E402
from aieco.reporting.render import render_report  # noqa: E402
from aieco.reporting.schema import ClaimBrief, ProvenanceBrief, ReportContext  # noqa: E402
from aieco.reporting.writer import write_report  # noqa: E402
from tests.macro_helpers import run_macro_scenario  # noqa: E402

RESTRICTIONS = [
    {
        "variable": "tariffs",
        "model_variable": "real_gdp",
        "direction": -1,
        "priority": 1,
        "reference": "zero",
        "restriction_id": "rst_a",
    }
]


@pytest.fixture
def macro_report(store):
    spec = macro.specification()
    specs = [
        ClaimSpec(
            analysis_id="an_macro",
            risk="trade_fragmentation",
            variable=o.variable,
            unit=o.unit,
            horizon="2025-2027",
            transformation=o.transformation,
            period=year,
            model_id=spec.model_id,
            statistic="selected",
            required_diagnostics=list(spec.diagnostics_required),
        )
        for o in spec.outputs
        for year in ("2025", "2026", "2027")
    ]
    specs += [
        ClaimSpec(
            analysis_id="an_macro",
            risk="trade_fragmentation",
            variable=v,
            horizon="2025-2027",
            model_id=spec.model_id,
            required_diagnostics=list(spec.diagnostics_required),
            **macro.scenario_figure_fields(v, col, "2025-2027"),
        )
        for v, col in macro.SCENARIO_FIGURES
    ]
    tests = register_output_tests(store, specs)
    runs = run_macro_scenario(
        store,
        "an_macro",
        "trade_fragmentation",
        RESTRICTIONS,
        demo_macro.load_demo_observations(),
        "2024-12-31",
        seed=7,
        draws=500,
        horizon="2025-2027",
    )
    run = next(r for r in runs if r.model_id == spec.model_id)
    if run.status.value != "completed":
        pytest.skip(f"macro_var did not complete on the demo data: {run.reason}")
    results = link_claims(store, run, tests)
    assert [r.detail for r in results if r.result != "pass"] == []
    ctx = ReportContext(
        analysis_id="an_macro",
        risk="trade_fragmentation",
        risk_label="trade fragmentation",
        claims=[
            ClaimBrief(
                claim_id=s.claim_id,
                variable=s.variable,
                label=label(s.variable),
                period=s.period,
                unit=s.unit,
                transformation=s.transformation,
                statistic=s.statistic,
            )
            for s in specs
        ],
        provenance=ProvenanceBrief(
            data="synthetic", evidence="illustrative", sample_start="2001Q1", sample_end="2024Q3"
        ),
    )
    out = render_report(store, "an_macro", write_report(ctx))
    assert out.report.status == "passed", out.report.failure_rule
    return store, run, specs, out


def test_selected_path_claims_pass_render_and_export(macro_report):
    store, run, specs, out = macro_report
    point = store.find(ModelOutputPoint, run_id=run.run_id, statistic="selected", variable="real_gdp", period="2025")[0]
    assert f"{round(point.value, 1):.1f}%".lstrip("-") in out.report.rendered
    assert verify_bundle(export_report(store, out.report.report_id, "json"))["claims"] == len(specs)


def test_scenario_paragraph_renders_figures_against_the_median_path(macro_report):
    store, run, _, out = macro_report
    summary = store.get_tables(run.output_digest)["horizon_summary"]
    text = out.report.rendered
    assert "computed from synthetic inputs" in text and "not a forecast" in text and "Q1 2001" in text
    gdp = summary.loc["real_gdp"]
    assert (
        f"cumulative real GDP growth over 2025\u20132027 (annual averages compounded) comes to "
        f"{gdp['cumulative_change']:.1f}%, against "
        f"{gdp['cumulative_change_median']:.1f}% in the baseline"
    ) in text.replace("-0.0%", "0.0%")
    assert f"The unemployment rate peaks at {summary.loc['unemployment', 'peak']:.1f}%" in text


def test_html_and_pdf_carry_the_fan_chart_and_the_restrictions(macro_report, tmp_path):
    import io
    import re

    import pdfplumber

    from aieco.reporting.export import fan_chart

    store, run, _, out = macro_report
    chart = fan_chart(store, run)
    tables = store.get_tables(run.output_digest)
    gdp = next(p for p in chart.panels if p.variable == "real_gdp")
    assert gdp.selected == list(tables["selected_path"]["real_gdp"])
    # the dashed line is the baseline (the run's median_path table), the band the draws' 5-95 %
    assert gdp.median == [tables["median_path"].loc["real_gdp", y] for y in gdp.years]
    assert all(lo <= m <= hi for lo, m, hi in zip(gdp.p05, gdp.median, gdp.p95, strict=True))
    page = export_report(store, out.report.report_id, "html").decode()
    figure = page[page.index('<figure class="fan"') : page.index("</figure>")]
    # one inline PNG per variable, its text alternative naming the variable (as the text names it) and unit
    alts = re.findall(r'<img src="data:image/png;base64,[A-Za-z0-9+/=]+" alt="([^"]+)">', figure)
    assert len(alts) == 4
    assert any("real GDP (annual growth, %)" in a for a in alts)
    assert any("unemployment rate (annual average, %)" in a for a in alts)
    assert all(run.run_id in a for a in alts)
    assert re.search(r"5\u201395 % band.*synthetic inputs", page)
    assert page.count("<p>") >= 3  # paragraphs break between channel, scenario and annual parts
    pdf = export_report(store, out.report.report_id, "pdf")
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = "\n".join(p.extract_text() or "" for p in doc.pages)
        images = sum(len(p.images) for p in doc.pages)
    assert "5\u201395 % band" in text and "synthetic inputs" in text and images >= 4


def test_latex_export_carries_the_fan_chart_from_the_stored_tables_and_compiles(macro_report, tmp_path):
    import io
    import shutil
    import subprocess

    import pdfplumber

    store, run, _, out = macro_report
    tex = export_report(store, out.report.report_id, "tex").decode()
    assert r"\usepackage{tikz}" in tex and tex.count(r"\begin{tikzpicture}") == 1
    assert tex.count("% fan: selected") == tex.count("% fan: median") == tex.count("% fan: band") == 4
    # every coordinate is a stored value: the selected path, the median and the band of each panel
    tables = store.get_tables(run.output_digest)
    sel, fan = tables["selected_path"], tables["fan_chart"]
    for v in ("real_gdp", "unemployment", "house_prices", "equity_prices"):
        years = [str(y) for y in sel.index]
        selected = " -- ".join(f"({t},{float(sel.loc[y, v]):.4f})" for t, y in enumerate(sel.index))
        base = tables["median_path"]  # the dashed line: the baseline
        median = " -- ".join(f"({t},{float(base.loc[v, y]):.4f})" for t, y in enumerate(years))
        assert selected in tex and median in tex
        for t, y in enumerate(years):
            for q in ("p05", "p95"):
                assert f"({t},{float(fan.loc[f'{v}:{y}', q]):.4f})" in tex
    assert r"5--95 \% band" in tex and "synthetic inputs" in tex
    engine = shutil.which("pdflatex") or shutil.which("lualatex") or shutil.which("xelatex")
    if engine is None:
        pytest.skip("no TeX engine (pdflatex, lualatex, xelatex) on PATH")
    kpsewhich = shutil.which("kpsewhich")
    for sty in ("framed.sty", "hyperref.sty", "tikz.sty"):
        if kpsewhich and subprocess.run([kpsewhich, sty], capture_output=True).returncode != 0:
            pytest.skip(f"the TeX installation lacks {sty}")
    (tmp_path / "r.tex").write_text(tex)
    res = subprocess.run(
        [engine, "-interaction=nonstopmode", "-halt-on-error", "r.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert res.returncode == 0, res.stdout[-2000:]
    with pdfplumber.open(io.BytesIO((tmp_path / "r.pdf").read_bytes())) as doc:
        text = " ".join(" ".join((p.extract_text() or "").split()) for p in doc.pages)
        drawn = sum(len(p.curves) + len(p.lines) + len(p.rects) for p in doc.pages)
    assert "band" in text and "synthetic inputs" in text and "equity prices" in text
    assert drawn >= 12  # band, median and selected path of four panels


def test_cli_report_verify(macro_report, tmp_path):
    import json

    from click.testing import CliRunner

    from aieco.cli import main

    store, _, _, out = macro_report
    bundle = tmp_path / "b.json"
    bundle.write_bytes(export_report(store, out.report.report_id, "json"))
    res = CliRunner().invoke(main, ["--json", "report", "verify", str(bundle)], catch_exceptions=False)
    assert res.exit_code == 0 and json.loads(res.output)["verified"] is True
    content = json.loads(bundle.read_text())
    point = next(r for r in content["records"] if r["type"] == "ModelOutputPoint")
    point["data"]["value"] += 1.0
    bundle.write_text(json.dumps(content))
    res = CliRunner().invoke(main, ["report", "verify", str(bundle)], catch_exceptions=False)
    assert res.exit_code == 1 and "NOT VERIFIED" in res.output
