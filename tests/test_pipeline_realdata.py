"""An analysis with cutoff 2024-12-31 on the real euro-area series, end to end, under both vintage policies."""

from __future__ import annotations

from datetime import date

import pytest

from aieco.analysis.pipeline import analyze
from aieco.demo import DEMO_REQUEST, REAL_REQUEST, build_demo
from aieco.models.macro import MODEL_ID, workspace_observations
from aieco.models.realdata import store_real_observations
from aieco.models.var import VARIABLES
from aieco.records import ModelRun, ObservedValue, RunStatus
from aieco.request import load_request
from aieco.sources.series import period_end
from aieco.store import Store


@pytest.fixture(scope="module")
def real_ws(tmp_path_factory):
    from pathlib import Path

    shared = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data").resolve()
    if not shared.is_dir():
        pytest.skip(f"shared data folder {shared} is absent")
    ws = tmp_path_factory.mktemp("real") / "ws"
    with Store(ws) as store:
        build_demo(store, macro="none")
        store_real_observations(store, shared)
    return ws


def macro_runs(store, outcome):
    return [r for r in store.find(ModelRun, model_id=MODEL_ID) if r.analysis_id == outcome.analysis_id]


@pytest.mark.parametrize("policy", ["approximate", "strict"])
def test_real_analysis_runs_end_to_end_under_each_vintage_policy(real_ws, policy):
    request = load_request(DEMO_REQUEST).model_copy(update={"vintage_policy": policy})
    with Store(real_ws) as store:
        values = store.find(ObservedValue, variable=list(VARIABLES))
        assert values and {v.provenance.value for v in values} == {"real"}  # no synthetic macro fallback
        outcome = analyze(store, request)
        programs = {p.risk: p for p in outcome.programs}
        assert set(programs) == {"trade_fragmentation", "property_correction", "market_illiquidity"}
        for p in programs.values():  # every program ends with a status; a stop carries its stage and reason
            assert p.status in ("completed", "stopped") and (p.status == "completed" or p.reason)
        runs = macro_runs(store, outcome)
        assert runs and all(r.diagnostics["vintage_policy"] == policy for r in runs)
        done = [r for r in runs if r.status is RunStatus.completed]
        assert done, [(r.status, r.reason) for r in runs]
        # strict: true vintages (GDP) and dated public copies only; the copies of house prices and
        # equity committed 2021-04-25 end the common sample in 2020Q3
        endpoint = {"approximate": "2023Q2", "strict": "2020Q3"}[policy]
        for r in runs:
            d = r.diagnostics
            assert d["plausibility"]["passed"] and d["endpoint"] == endpoint and d["pandemic"] == "dummies"
            assert d["release_rules"]["real_gdp"] == {"RTDB.gdp_ea": ["vintage"]}
            assert d["ragged_edge"] == "condition" and d["conditioned_on"]["real_gdp"] == "2024Q3"
            assert d["geography"]["jurisdictions"] == ["EA"] and "composition" in d["geography"]["caveat"]
            if policy == "strict":
                rules = {x for series in d["release_rules"].values() for rs in series.values() for x in rs}
                assert rules == {"vintage", "file"}
        sids = [r.diagnostics["selected"] for r in done]
        assert len({s["simulation_id"] for s in sids}) == len(sids) or all(s["shared_with"] for s in sids)


def test_no_workspace_value_released_after_the_cutoff_reaches_the_model(real_ws):
    from aieco.models.realdata import model_levels

    with Store(real_ws) as store:
        frame = workspace_observations(store)
    built = model_levels(frame, "2024-12-31", VARIABLES, "approximate")
    cutoff = date(2024, 12, 31)
    used = built.eligible
    for d, p in zip(used["release_date"], used["reference_period"], strict=True):
        released = d if isinstance(d, date) else date.fromisoformat(str(d))
        assert period_end(p, "Q") < released <= cutoff


def test_the_shipped_real_series_run_the_real_request_end_to_end(tmp_path):
    """What a fresh clone has: the illustrative corpus with the real series shipped in the package."""
    with Store(tmp_path / "ws") as store:
        build_demo(store, macro="real")
        # the macro series are real; the bank tables are the synthetic demo's (they say so)
        assert {v.provenance.value for v in store.find(ObservedValue, variable=list(VARIABLES))} == {"real"}
        request = load_request(REAL_REQUEST)
        assert request.vintage_policy == "approximate"
        outcome = analyze(store, request)
        runs = macro_runs(store, outcome)
        assert runs and any(r.status is RunStatus.completed for r in runs), [(r.status, r.reason) for r in runs]
        for r in runs:
            assert r.diagnostics["plausibility"]["passed"] and r.diagnostics["data"] == "observed"
