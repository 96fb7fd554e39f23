"""A 2026–2028 request runs through to stored Claims, and resumes from typed outputs (issue #13).

The real default workspace (aieco.default) is the one on which this run can complete honestly:
its macro series end in 2023–2024 and the VAR simulates the gap to the horizon, and its bank
part (real EBA banks, no synthetic panel) ends in a recorded absence rather than a stop. On the
synthetic demo the same request stops at application, because the demo's country histories end
in 2024 and a path starting in 2026 needs 2025 base levels (tests/test_pipeline_analysis.py).
"""

from __future__ import annotations

import pytest

from aieco.analysis.inputs import AnalysisInputs, ProgramInputs
from aieco.analysis.outputs import OUTPUTS, GraphSearchOutput, StageOutput
from aieco.analysis.pipeline import analyze
from aieco.analysis.runner import run_stages
from aieco.analysis.stages import risk_stages, shared_stages
from aieco.default import DEFAULT_REQUEST
from aieco.records import Claim, ModelRun, OutputTest, StageRecord, StageStatus
from aieco.request import load_request, parse_request
from aieco.store import Store

pytestmark = pytest.mark.slow
RISK = "trade_fragmentation"


@pytest.fixture(scope="module")
def horizon_run(default_built, workspace_copy):
    store = Store(workspace_copy(default_built[0], "h2028"))  # the session's build_default, copied
    data = load_request(DEFAULT_REQUEST).as_dict()
    request = parse_request({**data, "horizon": "2026-2028", "risks": [r for r in data["risks"] if r["name"] == RISK]})
    outcome = analyze(store, request)
    yield store, request, outcome
    store.close()


def test_a_2026_2028_request_simulates_to_2028q4_and_stores_claims_tagged_2026_to_2028(horizon_run):
    store, request, outcome = horizon_run
    [program] = outcome.programs
    assert program.status == "completed", (program.stopped_stage, program.reason)
    aid = outcome.analysis_id
    [run] = [r for r in store.find(ModelRun, analysis_id=aid, model_id="macro_var") if r.status.value == "completed"]
    assert (run.diagnostics["horizon"], run.diagnostics["simulated_to"]) == ("2026-2028", "2028Q4")
    assert run.diagnostics["estimation_end"] < "2026Q1"  # the quarters up to the horizon are simulated
    claims = store.find(Claim, analysis_id=aid)
    assert claims and {c.horizon for c in claims} == {"2026-2028"}
    annual = {c.period for c in claims if c.transformation == "annual_growth" or c.period.isdigit()}
    assert annual == {"2026", "2027", "2028"}
    # every other claim is a whole-horizon scenario figure, tagged with the horizon itself
    assert {c.period for c in claims} - annual <= {"2026-2028"}
    passed = {t.claim_id for t in store.find(OutputTest, analysis_id=aid, phase="result") if t.result == "pass"}
    assert {c.claim_id for c in claims} <= passed


def test_the_paper_channels_without_a_real_path_are_named_and_the_risk_goes_on(horizon_run):
    """Issue #19 on real data: tf2 and tf3 have no path in the shipped corpus; tf1 and tf4 carry the risk."""
    store, request, outcome = horizon_run
    assert [c.id for c in request.risk(RISK).channels] == ["tf1", "tf2", "tf3", "tf4"]
    [rec] = store.find(StageRecord, analysis_id=outcome.analysis_id, stage=f"{RISK}/graph_search")
    found = GraphSearchOutput.from_json(store.get_json(rec.output_digest))
    assert found.channels_with_paths() == ["tf1", "tf4"]
    assert {g.channel_id: g.reason for g in found.channels_without_path} == {
        "tf2": "no chain of relations leads from geopolitical_risk to equity_prices",
        "tf3": "no chain of relations leads from tariffs to inflation",
    }


def test_resume_rehydrates_every_typed_output_from_the_stored_records(horizon_run):
    store, request, outcome = horizon_run
    aid = outcome.analysis_id
    records = store.count(StageRecord, analysis_id=aid)
    # resume through the runner with no LLM client: any stage that ran instead of resuming would fail
    inputs = AnalysisInputs(request=request, repetition=1)
    shared = run_stages(store, aid, shared_stages(), inputs)
    program = ProgramInputs(**dict(inputs), risk=RISK, shared=shared.outputs)
    resumed = run_stages(store, aid, risk_stages(RISK), program)
    assert resumed.status == "completed" and store.count(StageRecord, analysis_id=aid) == records
    by_stage = {o.stage: o for o in OUTPUTS}
    for name, out in {**shared.outputs, **resumed.outputs}.items():
        model = by_stage[name.split("/")[-1]]
        assert isinstance(out, model) and isinstance(out, StageOutput)
        [rec] = store.find(StageRecord, analysis_id=aid, stage=name, status=StageStatus.completed)
        assert out.to_json() == store.get_json(rec.output_digest) and out == model.from_json(out.to_json())
    assert isinstance(resumed.outputs[f"{RISK}/graph_search"], GraphSearchOutput)
    again = analyze(store, request)  # and the pipeline's own resume gives the same outcome, no new record
    assert again.as_json() == outcome.as_json() and again.programs == outcome.programs
    assert store.count(StageRecord, analysis_id=aid) == records
