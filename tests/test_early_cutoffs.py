"""The default request at earlier cutoffs (issue 28, item 8): 2019-12-31, 2021-12-31 and 2023-06-30 complete
with a plausible anchored baseline, on the shipped real data and official projections."""

from __future__ import annotations

from datetime import date

import pytest

from aieco.benchmarks import scenarios as sc
from aieco.models import macro
from aieco.records import ModelRequest, RunStatus

CUTOFFS = {"2019-12-31": "2020-2022", "2021-12-31": "2022-2024", "2023-06-30": "2024-2026"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from aieco.default import load_official_projections, load_real_macro
    from aieco.store import Store

    s = Store(tmp_path_factory.mktemp("early") / "ws")
    load_real_macro(s)
    load_official_projections(s)
    yield s
    s.close()


@pytest.fixture(scope="module")
def observations(store):
    return macro.workspace_observations(store)


def _run(store, observations, cutoff, risk="trade_fragmentation"):
    horizon = CUTOFFS[cutoff]
    cutoff = date.fromisoformat(cutoff)
    anchors, note = macro.official_anchors(store, cutoff, "EA")
    inputs = macro.model_inputs(
        observations,
        sc.RISKS[risk],
        cutoff,
        1000,
        vintage_policy="approximate",
        anchors=anchors,
        anchor_note=note,
        severity_reference=macro.severity_reference(cutoff),
    )
    request = ModelRequest.create(
        analysis_id="early", risk=risk, outputs=macro.output_specs(horizon), restriction_ids=[], horizon=horizon
    )
    return macro.run_macro_var(request, inputs, 7), anchors


@pytest.mark.parametrize("cutoff", sorted(CUTOFFS))
def test_the_default_request_completes_at_an_earlier_cutoff(store, observations, cutoff):
    run, anchors = _run(store, observations, cutoff)
    assert run.status is RunStatus.completed, run.reason
    d = run.diagnostics
    assert d["estimator"]["estimator"] == "minnesota"
    assert d["baseline"]["kind"] == "anchored" and d["plausibility"]["passed"]
    base = run.tables["median_path"]
    first, last = (int(y) for y in CUTOFFS[cutoff].split("-"))
    for a in anchors:  # the anchored years equal the official round
        if a["variable"] == "real_gdp" and first <= a["year"] <= last:
            assert base.loc["real_gdp", str(a["year"])] == pytest.approx(a["value"], abs=0.01)
    # the adverse path lies below the baseline in GDP level by the horizon's end
    dev = run.tables["horizon_summary"].loc["real_gdp"]
    assert dev["cumulative_change"] < base.loc["real_gdp"].add(100).div(100).prod() * 100 - 100


def test_the_ols_estimator_gives_the_equity_paths_the_check_refuses(store, observations, monkeypatch):
    """Why the Minnesota prior is the default: under OLS the 2021 cutoff's baseline has equity rising
    far beyond anything in its sample, and the plausibility check stops the run saying so."""
    from aieco.config import get_settings

    monkeypatch.setenv("AIECO_SCENARIO__VAR_ESTIMATOR", "ols")
    get_settings.cache_clear()
    try:
        run, _ = _run(store, observations, "2021-12-31")
    finally:
        monkeypatch.delenv("AIECO_SCENARIO__VAR_ESTIMATOR")
        get_settings.cache_clear()
    assert run.status is RunStatus.stopped
    assert run.diagnostics["estimator"] == {"estimator": "ols"}
    assert "median equity_prices" in run.reason and "lowest to highest" in run.reason


def test_a_survey_round_that_only_nowcasts_does_not_anchor_the_horizon(store):
    """At 2021-12-31 the stored 2021Q4 SPF unemployment values are for 2021 only: the 2021Q3 round, which
    projects 2023, completes the staff round."""
    anchors, _ = macro.official_anchors(store, date(2021, 12, 31), "EA")
    unemployment = [a for a in anchors if a["variable"] == "unemployment"]
    assert {a["round"] for a in unemployment} == {"2021Q3"}
    assert max(a["year"] for a in unemployment) > 2021
    gdp = [a for a in anchors if a["variable"] == "real_gdp"]
    assert {a["round"] for a in gdp} == {"2021-12"}
