"""Registry integration: a selected macro path drives both bank models; runs, points, gates."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from aieco.asof import AsOf
from aieco.errors import InputError, StageStopped
from aieco.models import registry
from aieco.models.bank import outputs as bank_outputs
from aieco.models.bank.panel import MACRO_VARIABLES
from aieco.models.bank.spec import (
    annual_path_from_run,
    ensure_validation_gates,
    register_bank_models,
    run_bank_models,
    run_bank_validation,
    validation_scenario,
)
from aieco.models.bank.workspace import read_bank_inputs, read_validation_inputs
from aieco.models.registry import ModelResult
from aieco.records import (
    ModelOutputPoint,
    ModelRequest,
    ModelRun,
    ModelSpecification,
    Provenance,
    RunStatus,
    ValidationGate,
    VariableSpec,
)

FAST = {"quantiles": [0.1, 0.5, 0.9]}
ANNUAL = pd.DataFrame(
    {
        "real_gdp": [-1.5, 0.0, 1.0],
        "inflation": [3.0, 2.5, 2.0],
        "unemployment": [7.5, 8.0, 7.8],
        "long_term_rate": [3.5, 3.8, 3.6],
        "equity_prices": [-25.0, -5.0, 5.0],
        "house_prices": [-6.0, -3.0, 0.0],
    },
    index=[2025, 2026, 2027],
)


@pytest.fixture
def store(store):
    """A workspace holding the demo's synthetic bank records (the bank models read only the workspace)."""
    from aieco.demo import load_bank_data

    load_bank_data(store)
    return store


def _macro_run(store):
    """A stand-in macro_var run whose output holds a long-format selected annual path per risk."""
    long = pd.DataFrame(
        [
            {"risk": "trade", "variable": v, "period": str(y), "value": float(ANNUAL.loc[y, v])}
            for y in ANNUAL.index
            for v in MACRO_VARIABLES
        ]
    )
    spec = ModelSpecification.create(
        model_id="macro_var_stub",
        version="0",
        inputs=[],
        snapshot="s",
        outputs=[VariableSpec(variable="real_gdp", unit="%", frequency="A", transformation="annual_growth")],
        entry_point="tests:none",
        min_restrictions=0,
    )
    entry = registry.register(
        spec, lambda req, inp, seed: ModelResult(status=RunStatus.completed, tables={"selected_paths": long})
    )
    req = ModelRequest.create(analysis_id="a1", risk="trade", outputs=spec.outputs, restriction_ids=[])
    try:
        return registry.execute(store, entry, req, registry.ModelInputs(), seed=0)
    finally:
        registry.unregister("macro_var_stub")


def test_selected_macro_run_drives_both_models(store):
    macro = _macro_run(store)
    got = annual_path_from_run(store, macro.run_id, risk="trade")
    pd.testing.assert_frame_equal(got.loc[:, list(MACRO_VARIABLES)], ANNUAL, check_names=False, check_dtype=False)
    runs = run_bank_models(store, "a1", macro.run_id, seed=3, paths=100, fit_options=FAST)
    assert [r.model_id for r in runs] == ["bank_feols_fit", "bank_feols", "bank_feqar_fit", "bank_feqar"]
    assert all(r.status == RunStatus.completed for r in runs)
    proj = runs[-1]
    assert macro.run_id in proj.parent_runs and runs[2].run_id in proj.parent_runs
    assert any("euro-area annual scenario path" in a for a in proj.diagnostics["scenario_assumptions"])
    assert proj.diagnostics["identity_max_error"] <= 1e-9
    assert set(proj.diagnostics["quantile_crossing_share"]) == {"n", "l", "o", "a", "g"}
    points = store.find(ModelOutputPoint, run_id=proj.run_id)
    # per bank: 6 half-years × 4 statistics of the ratio and 4 of the depletion; then the cross-bank figures
    assert len(points) == 40 * 6 * 4 + 40 * 4 + len(bank_outputs.FIGURES)
    cross = {(pt.variable, pt.statistic): pt for pt in points if pt.entity is None}
    assert set(cross) == {(f.variable, f.statistic) for f in bank_outputs.FIGURES}
    assert {pt.period for pt in cross.values()} == {proj.diagnostics["horizon"]}
    dep = {pt.entity: pt.value for pt in points if pt.variable == "cet1_depletion" and pt.statistic == "p50"}
    assert cross["cet1_depletion", "cross_bank_p50"].value == pytest.approx(np.median(list(dep.values())))
    assert proj.diagnostics["accounting_identities"]["passed"] is True
    p = next(pt for pt in points if pt.variable == "cet1_depletion" and pt.statistic == "p50")
    assert registry.read_point(store, p) == p.value
    tables = store.get_tables(proj.output_digest)
    assert set(tables) == {"cet1_ratio", "depletion", "depletion_distribution", "cet1_ratio_paths", "cross_bank"}
    fit = store.get_tables(runs[2].output_digest)
    assert list(fit["dropped"].index) == ["FR90", "IT90"]
    assert fit["params"].shape == (5 * 3, 4 + len(MACRO_VARIABLES))


def test_validation_stores_gates(store):
    exercise = read_validation_inputs(store, AsOf(cutoff=None))
    history = read_bank_inputs(store, AsOf(cutoff=None)).history
    official, scenario = exercise.official, validation_scenario(exercise, history)
    runs, gates = run_bank_validation(
        store, "a1", official, scenario, seed=1, paths=200, fit_options=FAST, bootstrap_reps=50
    )
    assert [r.role for r in runs] == ["validation"] * 4
    assert {g.model_id for g in gates} == {"bank_feols", "bank_feqar"}
    stored = store.find(ValidationGate)
    assert len(stored) == 2
    for g in stored:
        assert set(g.metrics) >= {"mae", "rmse", "spearman", "top_quartile_recall", "coverage", "boot_mae_diff"}
        assert g.passed == (g.metrics["mae"] <= 2 and g.metrics["spearman"] >= 0.5 and g.metrics["coverage"] >= 0.75)
    t = store.get_tables(runs[1].output_digest)
    assert {"validation", "validation_metrics"} <= set(t)


def test_missing_macro_path_is_an_input_error(store):
    with pytest.raises(InputError):
        annual_path_from_run(store, "run_missing")
    macro = _macro_run(store)
    with pytest.raises(InputError, match="no annual path"):
        annual_path_from_run(store, macro.run_id, risk="unknown-risk")


def test_specifications_registered():
    entries = register_bank_models()
    assert set(entries) == {"bank_feols_fit", "bank_feqar_fit", "bank_feols", "bank_feqar"}
    spec = entries["bank_feqar"].spec
    assert {o.variable for o in spec.outputs} == {"cet1_ratio", *bank_outputs.VARIABLES}
    assert {i.variable for i in spec.inputs} == set(MACRO_VARIABLES)


def test_real_macro_var_run_drives_bank_projections(store):
    """Done-when: a selected macro scenario from the VAR drives CET1 projections through both models."""
    from aieco.demo.macro import load_demo_observations
    from aieco.models.macro import MODEL_ID
    from tests.macro_helpers import run_macro_scenario

    restrictions = [
        {
            "variable": "tariffs",
            "model_variable": "real_gdp",
            "direction": -1,
            "priority": 1,
            "reference": "zero",
            "restriction_id": "rst_a",
        }
    ]
    macro = next(
        r
        for r in run_macro_scenario(
            store, "a2", "trade_fragmentation", restrictions, load_demo_observations(), "2024-12-31", seed=5, draws=500
        )
        if r.model_id == MODEL_ID
    )
    assert macro.status == RunStatus.completed, macro.reason
    runs = run_bank_models(store, "a2", macro.run_id, seed=5, paths=50, fit_options=FAST)
    assert [r.status for r in runs] == [RunStatus.completed] * 4
    assert all(macro.run_id in r.parent_runs for r in runs)
    selected = store.get_tables(macro.output_digest)["selected_path"]
    used = annual_path_from_run(store, macro.run_id)
    assert used.loc[2025, "real_gdp"] == float(selected.loc["2025", "real_gdp"])
    quarterly = store.get_tables(macro.output_digest)["selected_quarterly"]
    ea_2024 = quarterly.loc[["2024Q1", "2024Q2", "2024Q3", "2024Q4"], "unemployment"].astype(float).mean()
    assert used.loc[2024, "unemployment"] == pytest.approx(ea_2024)
    assert any("changes from the path's 2024 value" in a for a in runs[1].diagnostics["scenario_assumptions"])


def test_a_projection_without_its_tables_cannot_be_asked_for(store):
    """The projection's inputs are typed: missing fit tables are refused when the inputs are built,
    and inputs of another shape never reach the model (no run is written)."""
    from pydantic import ValidationError

    from aieco.models.bank.inputs import BankProjectionInputs

    with pytest.raises(ValidationError, match="fixed_effects"):
        BankProjectionInputs(params=pd.DataFrame(), start_state=pd.DataFrame(), scenario=pd.DataFrame())
    entries = register_bank_models()
    req = ModelRequest.create(
        analysis_id="a3", risk="r", outputs=entries["bank_feqar"].spec.outputs, restriction_ids=[]
    )
    with pytest.raises(InputError, match="bank_feqar are a dict"):
        registry.execute(store, entries["bank_feqar"], req, {}, seed=0)
    assert store.find(ModelRun, model_id="bank_feqar") == []


def test_validation_gates_then_bank_models_as_the_application_stage_calls_them(store, monkeypatch):
    from aieco.config import get_settings
    from aieco.models.bank.spec import passing_gate

    monkeypatch.setenv("AIECO_BANK__QUANTILES", "[0.1, 0.5, 0.9]")
    monkeypatch.setenv("AIECO_BANK__BOOTSTRAP_REPS", "50")
    get_settings.cache_clear()
    as_of = AsOf(cutoff=None)
    try:
        macro = _macro_run(store)
        validation, gates = ensure_validation_gates(store, "a1", seed=2, paths=100, as_of=as_of)
        again, same = ensure_validation_gates(store, "a1", seed=2, paths=100, as_of=as_of)
        runs = run_bank_models(store, "a1", macro.run_id, seed=2, paths=100, as_of=as_of)
        rerun = run_bank_models(store, "a1", macro.run_id, seed=2, paths=100, as_of=as_of)
    finally:
        get_settings.cache_clear()
    assert [r.role for r in validation] == ["validation"] * 4 and again == []  # gates exist: not repeated
    assert {g.gate_id for g in gates} == {g.gate_id for g in same}
    assert {(g.fit_provenance, g.validation_provenance) for g in gates} == {(Provenance.synthetic,) * 2}
    assert [r.role for r in runs] == ["generation"] * 4
    assert [r.run_id for r in rerun] == [r.run_id for r in runs]  # same inputs and seed, same runs
    gate = passing_gate(store, "bank_feqar")
    assert gate is None or gate.passed


def test_a_workspace_without_bank_data_stops_and_never_uses_the_demo(tmp_path):
    from aieco.store import Store

    empty = Store(tmp_path / "no-bank")
    macro = _macro_run(empty)
    with pytest.raises(StageStopped, match="no bank panel"):
        run_bank_models(empty, "a1", macro.run_id, seed=2, paths=10, as_of=AsOf(cutoff=None))
    assert ensure_validation_gates(empty, "a1", seed=2, as_of=AsOf(cutoff=None)) == ([], [])
    assert empty.count(ValidationGate) == 0


def test_bank_values_released_after_the_cutoff_do_not_reach_the_models(store):
    from datetime import date

    data = read_bank_inputs(store, AsOf(cutoff=date(2020, 12, 31)))
    assert max(data.panel["period_end"]) == "2020-12-31" and max(data.history["quarter"]) == "2020Q4"
    assert data.provenance == ("synthetic",) and set(data.panel["data_status"]) == {"synthetic"}
    assert read_validation_inputs(store, AsOf(cutoff=date(2020, 12, 31))) is None  # the exercise is later
    with pytest.raises(StageStopped, match="no bank panel usable at 2010-12-31") as err:
        read_bank_inputs(store, AsOf(cutoff=date(2010, 12, 31)))
    assert "vintage_policy" not in str(err.value)  # nothing was released by then: no policy to blame


def test_bank_values_go_through_the_requests_vintage_policy(tmp_path):
    """One as-of rule for the bank path too (issue 34): released by the cutoff *and* dated by a rule the
    request's vintage policy accepts. Lag-dated values reach the models under ``approximate`` only;
    a strict request stops and says which rule it refused and how to change it."""
    from datetime import date

    from aieco.demo.bank import load_demo_adverse, load_demo_macro, load_demo_official, load_demo_panel
    from aieco.models.bank.workspace import bank_records
    from aieco.records import ObservedValue, Provenance, ReleaseRule
    from aieco.store import Store

    cutoff = date(2020, 12, 31)
    tables = (load_demo_panel(), load_demo_macro(), load_demo_official(), load_demo_adverse())
    lagged = Store(tmp_path / "lag")
    lagged.put_many(
        bank_records(*tables, provenance=Provenance.synthetic, series_prefix="T", release_rule=ReleaseRule.lag)
    )
    approximate = read_bank_inputs(lagged, AsOf.at(cutoff, "approximate"))
    assert max(approximate.panel["period_end"]) == "2020-12-31"
    with pytest.raises(StageStopped, match="no bank panel usable at 2020-12-31") as err:
        read_bank_inputs(lagged, AsOf.at(cutoff, "strict"))
    assert "release rule lag" in str(err.value) and "vintage_policy 'strict'" in str(err.value)
    assert 'vintage_policy = "approximate"' in str(err.value)
    # the demo's synthetic vintages pass the strict policy, with the same values
    demo = Store(tmp_path / "demo")
    from aieco.demo import load_bank_data

    load_bank_data(demo)
    assert {r.release_rule for r in demo.find(ObservedValue, sector="banks")} == {ReleaseRule.vintage}
    strict = read_bank_inputs(demo, AsOf.at(cutoff, "strict"))
    pd.testing.assert_frame_equal(strict.panel, approximate.panel)
    pd.testing.assert_frame_equal(strict.history, approximate.history)
