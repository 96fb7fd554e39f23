"""Integration: claims on the registered macro_var model's selected path link, render and export."""

from __future__ import annotations

import pytest

from aieco.records import ModelOutputPoint

macro = pytest.importorskip("aieco.models.macro")
demo_macro = pytest.importorskip("aieco.demo.macro")

from aieco.reporting.claims import ClaimSpec, link_claims, register_output_tests  # noqa: E402
from aieco.reporting.export import export_report, verify_bundle  # noqa: E402
from aieco.reporting.render import render_report  # noqa: E402
from aieco.reporting.schema import ClaimBrief, ReportContext  # noqa: E402
from aieco.reporting.writer import write_report  # noqa: E402
from tests.macro_helpers import run_macro_scenario  # noqa: E402

RESTRICTIONS = [{"variable": "tariffs", "model_variable": "real_gdp", "direction": -1, "priority": 1,
                 "reference": "zero", "restriction_id": "rst_a"}]


def test_selected_path_claims_pass_render_and_export(store):
    spec = macro.specification()
    specs = [ClaimSpec(analysis_id="an_macro", risk="trade_fragmentation", variable=o.variable, unit=o.unit,
                       horizon="2025-2027", transformation=o.transformation, period=year, model_id=spec.model_id,
                       statistic="selected", required_diagnostics=list(spec.diagnostics_required))
             for o in spec.outputs for year in ("2025", "2026", "2027")]
    tests = register_output_tests(store, specs)
    runs = run_macro_scenario(store, "an_macro", "trade_fragmentation", RESTRICTIONS,
                              demo_macro.load_demo_observations(), "2024-12-31", seed=7, draws=500,
                              horizon="2025-2027")
    run = next(r for r in runs if r.model_id == spec.model_id)
    if run.status.value != "completed":
        pytest.skip(f"macro_var did not complete on the demo data: {run.reason}")
    results = link_claims(store, run, tests)
    assert [r.detail for r in results if r.result != "pass"] == []
    ctx = ReportContext(analysis_id="an_macro", risk="trade_fragmentation", risk_label="trade fragmentation",
                        claims=[ClaimBrief(claim_id=s.claim_id, variable=s.variable,
                                           label=s.variable.replace("_", " "), period=s.period, unit=s.unit,
                                           transformation=s.transformation) for s in specs])
    out = render_report(store, "an_macro", write_report(ctx))
    assert out.report.status == "passed"
    point = store.find(ModelOutputPoint, run_id=run.run_id, statistic="selected", variable="real_gdp",
                       period="2025")[0]
    assert f"{round(point.value, 3):.3f}%".lstrip("-") in out.report.rendered
    assert verify_bundle(export_report(store, out.report.report_id, "json"))["claims"] == len(specs)
