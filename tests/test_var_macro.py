"""The registered macro_var model through the registry: runs, points, stops, synthetic label."""

from __future__ import annotations

import numpy as np
import pytest

from aieco.demo.macro import load_demo_observations
from aieco.errors import StageStopped
from aieco.models import registry
from aieco.models.macro import (
    MODEL_ID,
    selected_quarterly_path,
    specification,
)
from aieco.models.var import VARIABLES
from aieco.records import ModelOutputPoint, ModelSpecification, RunStatus
from tests.macro_helpers import run_macro_scenario

TRADE = [
    {
        "variable": "tariffs",
        "model_variable": "real_gdp",
        "direction": -1,
        "priority": 1,
        "reference": "zero",
        "restriction_id": "rst_a",
    },
    {
        "variable": "unemployment",
        "direction": 1,
        "priority": 2,
        "reference": "last_observed",
        "restriction_id": "rst_b",
    },
]


@pytest.fixture(scope="module")
def observations():
    return load_demo_observations()


def macro_runs(runs):
    return [r for r in runs if r.model_id == MODEL_ID]


def test_specification_outputs_and_diagnostics():
    spec = specification()
    outputs = {(o.variable, o.unit, o.frequency, o.transformation) for o in spec.outputs}
    assert ("real_gdp", "%", "A", "annual_growth") in outputs
    assert ("inflation", "%", "A", "annual_avg_index_growth") in outputs
    assert ("house_prices", "%", "A", "annual_avg_index_change") in outputs
    assert spec.horizon == registry.ANY_HORIZON and spec.scope == "EA" and spec.min_restrictions == 1  # the request's
    assert spec.diagnostics_required == ["stability", "min_obs", "range_checks", "plausibility"]
    assert spec.spec_id == specification().spec_id  # deterministic


def test_request_runs_var_and_writes_points(store, observations):
    runs = macro_runs(
        run_macro_scenario(store, "an1", "trade_fragmentation", TRADE, observations, "2024-12-31", seed=7, draws=2_000)
    )
    assert len(runs) == 1
    run = runs[0]
    assert run.status is RunStatus.completed, run.reason
    assert run.seed == 7 and store.get(ModelSpecification, run.spec_id) is not None
    d = run.diagnostics
    assert d["stability"]["stable"] and d["min_obs"]["nobs"] == 95 and d["endpoint"] == "2024Q3"
    assert d["data"] == "synthetic" and 0 < d["acceptance_share"] < 1
    tables = store.get_tables(run.output_digest)
    assert tables["data_label"].loc["value", "label"] == "synthetic"
    path = tables["selected_path"]
    assert list(path.index) == ["2025", "2026", "2027"] and list(path.columns) == list(VARIABLES)
    assert path["real_gdp"].mean() < 0  # restriction: three-year mean GDP growth below 0
    sel = tables["selection"].loc["trade_fragmentation"]
    assert path["unemployment"].mean() > sel["reference_unemployment"]
    every = store.find(ModelOutputPoint, run_id=run.run_id)
    points = [p for p in every if p.statistic == "selected" and p.table_name == "selected_path"]
    assert len(points) == 18
    summary = [p for p in every if p.table_name == "horizon_summary"]
    assert len(summary) == 6 * 10 and {p.period for p in summary} == {"2025-2027"}
    assert {p.statistic for p in summary} == {"selected", "median"}
    quantiles = [p for p in every if p.quantile is not None]
    assert len(quantiles) == 90 and {p.statistic for p in quantiles} == {"p05", "p25", "p50", "p75", "p95"}
    median = next(p for p in quantiles if p.variable == "real_gdp" and p.period == "2026" and p.statistic == "p50")
    assert median.value == tables["fan_chart"].loc["real_gdp:2026", "p50"] and median.quantile == 0.5
    uncond = [p for p in every if p.statistic.startswith("unconditional_")]
    assert len(uncond) == 54 and all(p.risk is None and p.simulation_id for p in uncond)
    for p in points:
        assert registry.read_point(store, p) == p.value == float(path.loc[p.row, p.column])
        assert p.simulation_id == int(sel["simulation_id"]) and p.risk == "trade_fragmentation"
    fan = tables["fan_chart"]
    assert list(fan.columns) == ["p05", "p25", "p50", "p75", "p95"]
    assert (fan["p05"] <= fan["p50"]).all() and (fan["p50"] <= fan["p95"]).all()
    assert len(tables["unconditional_ids"]) == 3 and len(tables["unconditional"]) == 9
    quarterly = selected_quarterly_path(store, run)
    assert quarterly.loc["2024Q3", "observed"] == 1.0 and quarterly.loc["2024Q4", "observed"] == 0.0
    # the quarterly levels aggregate to the reported annual path
    gdp = quarterly["real_gdp"].to_numpy()
    assert path.loc["2025", "real_gdp"] == pytest.approx(100 * (gdp[4:8].sum() / gdp[0:4].sum() - 1))


def test_same_seed_same_selection_across_workspaces(tmp_path, observations):
    from aieco.store import Store

    ids = []
    for name in ("w1", "w2"):
        s = Store(tmp_path / name)
        run = macro_runs(
            run_macro_scenario(s, "an1", "trade_fragmentation", TRADE, observations, "2024-12-31", seed=11, draws=2_000)
        )[0]
        ids.append((run.run_id, run.output_digest))
        s.close()
    assert ids[0] == ids[1]


def test_empty_admissible_set_is_a_stopped_run_with_tables(store, observations):
    impossible = [
        {"variable": "unemployment", "direction": 1, "priority": 1, "reference": "last_observed"},
        {"variable": "unemployment", "direction": -1, "priority": 1, "reference": "last_observed"},
    ]
    run = macro_runs(
        run_macro_scenario(store, "an2", "contradiction", impossible, observations, "2024-12-31", seed=1, draws=500)
    )[0]
    assert run.status is RunStatus.stopped and "no simulated path satisfies" in run.reason
    assert "fan_chart" in store.get_tables(run.output_digest)
    stored = store.find(ModelOutputPoint, run_id=run.run_id)
    assert stored and not [p for p in stored if p.statistic == "selected"]
    with pytest.raises(StageStopped, match="selected no path"):
        selected_quarterly_path(store, run)


def test_request_without_restrictions_stops_before_any_run(store, observations):
    with pytest.raises(StageStopped, match="macro_var: 0 restrictions"):
        run_macro_scenario(store, "an3", "market_illiquidity", [], observations, "2024-12-31", seed=1, draws=100)


def test_cutoff_before_any_release_stops_the_run(store, observations):
    run = macro_runs(
        run_macro_scenario(store, "an4", "trade_fragmentation", TRADE, observations, "1999-12-31", seed=1, draws=100)
    )[0]
    assert run.status is RunStatus.stopped and "required vintage missing" in run.reason


def test_earlier_cutoff_moves_the_estimation_endpoint(store, observations):
    run = macro_runs(
        run_macro_scenario(store, "an5", "trade_fragmentation", TRADE, observations, "2024-08-01", seed=1, draws=500)
    )[0]
    # 2024Q2 GDP is released 45 days after 30 June (14 August): not eligible on 1 August
    assert run.diagnostics["endpoint"] == "2024Q1"
    assert np.isfinite(run.diagnostics["stability"]["max_modulus"])


def test_observations_stored_in_the_workspace_feed_the_model(store, observations):
    from aieco.models.macro import store_observations, workspace_observations
    from aieco.records import ObservedValue

    assert store_observations(store, observations) == len(observations)
    assert store_observations(store, observations) == 0  # same ids: nothing new
    assert all(r.series_key.startswith("SYNTHETIC") for r in store.find(ObservedValue, variable="real_gdp"))
    back = workspace_observations(store)
    assert len(back) == len(observations)
    merged = back.merge(observations, on=["variable", "reference_period"], suffixes=("", "_demo"))
    assert (merged["value"] == merged["value_demo"]).all()
    assert (merged["release_date"] == merged["release_date_demo"]).all()
    run = macro_runs(
        run_macro_scenario(store, "an6", "trade_fragmentation", TRADE, back, "2024-12-31", seed=7, draws=2_000)
    )[0]
    direct = macro_runs(
        run_macro_scenario(store, "an6", "trade_fragmentation", TRADE, observations, "2024-12-31", seed=7, draws=2_000)
    )[0]
    assert store.get_tables(run.output_digest)["selected_path"].equals(
        store.get_tables(direct.output_digest)["selected_path"]
    )


def test_only_the_selected_path_has_years_by_variables(store, observations):
    """Readers that look for a years × six-variables table find exactly one: the selected path."""
    run = macro_runs(
        run_macro_scenario(store, "an7", "trade_fragmentation", TRADE, observations, "2024-12-31", seed=7, draws=1_000)
    )[0]
    tables = store.get_tables(run.output_digest)
    shaped = [
        name
        for name, t in tables.items()
        if set(VARIABLES) <= set(t.columns) and list(t.index) == ["2025", "2026", "2027"]
    ]
    assert shaped == ["selected_path"]
    pct = tables["marginal_percentiles"]
    assert list(pct.index) == list(VARIABLES) and ((pct >= 0) & (pct <= 1)).all().all()
