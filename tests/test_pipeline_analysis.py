"""The algorithm end to end on the demo workspace: offline, openai (local server), replay, resume."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from aieco.agents import all_tasks
from aieco.analysis.pipeline import analyze
from aieco.config import get_settings
from aieco.demo import DEMO_REQUEST, build_demo
from aieco.records import (
    Derivation,
    LLMCall,
    ModelRequest,
    ModelRun,
    Relation,
    Report,
    Restriction,
    StageRecord,
    ValidationGate,
    canonical_json,
)
from aieco.records import Path as PathRecord
from aieco.request import load_request, parse_request, save_request
from aieco.store import Store
from tests.openai_stub_server import StubServer, responses_body

ROOT = Path(__file__).resolve().parents[1]
# The paper's sizes (20,000 VAR draws, 19 quantiles, 25,000 bank paths) run in `aieco bench
# pipeline`; the tests keep the numerical work small.
SMALL = {
    "AIECO_SCENARIO__VAR_DRAWS": "2000",
    "AIECO_BANK__PROJECTION_PATHS": "500",
    "AIECO_BANK__QUANTILES": "[0.1, 0.5, 0.9]",
}


@pytest.fixture(scope="module")
def small_draws():
    old = {k: os.environ.get(k) for k in SMALL}
    os.environ.update(SMALL)
    get_settings.cache_clear()
    yield
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    get_settings.cache_clear()


@pytest.fixture(scope="module")
def demo_ws(tmp_path_factory, small_draws) -> Path:
    ws = tmp_path_factory.mktemp("demo") / "ws"
    with Store(ws) as store:
        build_demo(store)
    return ws


@pytest.fixture(scope="module")
def offline_run(demo_ws):
    with Store(demo_ws) as store:
        outcome = analyze(store, load_request(DEMO_REQUEST))
    return outcome


def by_risk(outcome):
    return {p.risk: p for p in outcome.programs}


def test_demo_offline_completes_reports_with_conditions_on_every_record(demo_ws, offline_run):
    progs = by_risk(offline_run)
    assert progs["trade_fragmentation"].status == "completed", progs["trade_fragmentation"].reason
    assert progs["property_correction"].status == "completed", progs["property_correction"].reason
    with Store(demo_ws) as store:
        aid = offline_run.analysis_id
        for risk in ("trade_fragmentation", "property_correction"):
            rpt = store.require(Report, progs[risk].report_id)
            assert rpt.status == "passed" and rpt.claim_ids and rpt.relation_ids
            assert (rpt.graph_condition, rpt.retrieval_condition) == ("G0", "graph")
            assert "{{" not in rpt.rendered
            records = (
                store.find(Restriction, analysis_id=aid, risk=risk)
                + store.find(PathRecord, analysis_id=aid, risk=risk)
                + store.find(ModelRequest, analysis_id=aid, risk=risk)
            )
            assert records and all(r.graph_condition == "G0" and r.retrieval_condition == "graph" for r in records)
            runs = store.find(ModelRun, analysis_id=aid, model_id="macro_var")
            assert runs and all(r.graph_condition == "G0" for r in runs)
        stages = [s.stage for s in store.find(StageRecord, analysis_id=aid)]
        assert stages[:3] == ["request_checks", "planning", "eligibility"]
        assert "property_correction/consistency" in stages
        # market illiquidity stops at derivation exactly when its derivation record refuses it
        drv = store.find(Derivation, analysis_id=aid, risk="market_illiquidity")[-1]
        mi = progs["market_illiquidity"]
        assert (mi.stopped_stage == "restriction_derivation") == (drv.status == "stopped")


def test_a_risk_whose_paths_all_compose_against_stops_before_any_model_call(demo_ws, tmp_path, small_draws):
    """mi2 alone: lower market liquidity pushes long-term rates down, against the registered increase."""
    ws = tmp_path / "mi"
    shutil.copytree(demo_ws, ws)
    data = load_request(DEMO_REQUEST).as_dict()
    mi = [r for r in data["risks"] if r["name"] == "market_illiquidity"][0]
    request = parse_request({**data, "risks": [{**mi, "channels": [c for c in mi["channels"] if c["id"] == "mi2"]}]})
    with Store(ws) as store:
        out = analyze(store, request)
        prog = out.programs[0]
        assert (prog.status, prog.stopped_stage) == ("stopped", "restriction_derivation")
        assert "before any model call" in prog.reason
        aid = out.analysis_id
        assert not store.find(ModelRequest, analysis_id=aid) and not store.find(ModelRun, analysis_id=aid)
        assert not store.find(LLMCall, analysis_id=aid, stage="market_illiquidity/model_request")
        drv = store.find(Derivation, analysis_id=aid)[-1]
        assert drv.status == "stopped" and [a["outcome"] for a in drv.assessed] == ["refused"]
        assert "contradicting the registered increase" in drv.assessed[0]["reason"]


def test_rerun_resumes_with_the_same_ids(demo_ws, offline_run):
    with Store(demo_ws) as store:
        before = store.table_counts()
        again = analyze(store, load_request(DEMO_REQUEST))
        assert [p.as_json() for p in again.programs] == [p.as_json() for p in offline_run.programs]
        after = store.table_counts()
    # a stopped program re-runs its stopped stage (a new StageRecord); nothing else is written
    stopped = sum(p.status == "stopped" for p in offline_run.programs)
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == (
        {"stage_records": stopped} if stopped else {}
    )


def offline_responder(body: dict) -> tuple[int, dict]:
    """The local server answers each task as the offline agent would — a real HTTP exchange."""
    task = all_tasks()[body["text"]["format"]["name"]]
    payload = json.loads(body["input"][0]["content"].split("Input (JSON):\n", 1)[1])
    answer = task.offline(task.input_schema.model_validate(payload))
    return 200, responses_body(canonical_json(answer.model_dump(mode="json")), body["model"])


def record_structure(store: Store, outcome) -> dict:
    aid = outcome.analysis_id
    return {
        "programs": [(p.risk, p.status, p.stopped_stage) for p in outcome.programs],
        # distinct (stage, status): a resumed run repeats a stopped stage's record
        "stages": sorted({(s.stage, s.status.value) for s in store.find(StageRecord, analysis_id=aid)}),
        "calls": [(c.stage, c.task, c.status) for c in store.find(LLMCall, analysis_id=aid)],
        "paths": sorted(
            (p.risk, p.rank, p.variables, p.relation_ids, p.score) for p in store.find(PathRecord, analysis_id=aid)
        ),
        "reports": sorted(store.require(Report, p.report_id).rendered for p in outcome.programs if p.report_id),
    }


def test_openai_backend_on_local_server_gives_the_same_record_structure(demo_ws, offline_run, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
    monkeypatch.setenv("AIECO_LLM__BASE_URL", "")
    with StubServer() as server, Store(demo_ws) as store:
        server.fallback["/v1/responses"] = offline_responder
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        outcome = analyze(store, load_request(DEMO_REQUEST), backend="openai")
        got, want = record_structure(store, outcome), record_structure(store, offline_run)
        calls = store.find(LLMCall, analysis_id=outcome.analysis_id)
        assert len(server.requests) == len(calls)  # one HTTP request per recorded call, no retries
    assert outcome.analysis_id != offline_run.analysis_id  # another backend is another analysis
    assert got == want
    assert all(c.backend == "openai" and c.input_tokens == 100 and c.cost_usd > 0 for c in calls)


def record_ids(store: Store, aid: str) -> dict:
    return {
        cls.__name__: sorted(r.key for r in store.find(cls, analysis_id=aid))
        for cls in (PathRecord, Restriction, Derivation, ModelRequest, ModelRun, Report)
    }


def test_replay_reproduces_the_recorded_analysis_exactly(demo_ws, offline_run, tmp_path):
    """Replayed into a workspace built from the same sources, every id and every report is the recorded one."""
    with Store(tmp_path / "replay") as fresh, Store(demo_ws) as recorded:
        build_demo(fresh)
        replayed = analyze(fresh, load_request(DEMO_REQUEST), backend="replay", replay_from=recorded)
        assert [p.as_json() for p in replayed.programs] == [p.as_json() for p in offline_run.programs]
        aid = replayed.analysis_id
        assert aid == offline_run.analysis_id
        assert record_ids(fresh, aid) == record_ids(recorded, aid)
        assert record_structure(fresh, replayed) == record_structure(recorded, offline_run)
        calls = fresh.find(LLMCall, analysis_id=aid)
        assert calls and all(c.backend == "replay" and c.status == "ok" for c in calls)
        assert [c.parsed for c in calls] == [c.parsed for c in recorded.find(LLMCall, analysis_id=aid)]


def test_replay_without_recorded_calls_stops(demo_ws, tmp_path, small_draws):
    ws = tmp_path / "copy"
    shutil.copytree(demo_ws, ws)
    request = load_request(DEMO_REQUEST)
    request = request.model_copy(update={"model_snapshot": "gpt-4o-2099-01-01"})  # never recorded
    with Store(ws) as store, Store(tmp_path / "empty") as empty:
        out = analyze(store, request, backend="replay", replay_from=empty)
    assert {(p.status, p.stopped_stage) for p in out.programs} == {("stopped", "planning")}
    assert "no recorded answer" in out.programs[0].reason


def test_repetitions_record_agreement(demo_ws, small_draws, tmp_path):
    ws = tmp_path / "reps"
    shutil.copytree(demo_ws, ws)
    request = load_request(DEMO_REQUEST).model_copy(update={"repetitions": 2})
    with Store(ws) as store:
        out = analyze(store, request)
    assert len({p.analysis_id for p in out.programs}) == 2
    assert out.agreement is not None and out.agreement.pairs == 1
    assert out.agreement.path_agreement == 1.0 and out.agreement.warning_jaccard == 1.0


def test_killed_mid_run_resumes_with_same_ids_and_nothing_duplicated(demo_ws, tmp_path, small_draws):
    ws = tmp_path / "kill"
    shutil.copytree(demo_ws, ws)
    request = load_request(DEMO_REQUEST).model_copy(update={"seeds": [7]})  # a fresh analysis
    req_file = save_request(request, tmp_path / "req.toml")
    env = {**os.environ, **SMALL, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "aieco", "analyze", str(req_file), "--workspace", str(ws), "--json"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    aid = request.analysis_id
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            with Store(ws) as probe:
                done = probe.find(StageRecord, analysis_id=aid, status="completed")
            if any(s.stage == "trade_fragmentation/execution" for s in done):
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    with Store(ws) as store:
        first = {s.stage: s.record_id for s in store.find(StageRecord, analysis_id=aid, status="completed")}
        runs_before = {r.run_id for r in store.find(ModelRun, analysis_id=aid)}
    assert "trade_fragmentation/execution" in first and "market_illiquidity/retrieval" not in first
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    data = json.loads(out.stdout)
    status = {a["risk"]: a["status"] for a in data["analyses"]}
    assert status["trade_fragmentation"] == status["property_correction"] == "completed"
    with Store(ws) as store:
        records = store.find(StageRecord, analysis_id=aid, status="completed")
        again = {s.stage: s.record_id for s in records}
        stages = [s.stage for s in records]
        assert len(stages) == len(set(stages))  # no stage completed twice
        assert all(again[k] == v for k, v in first.items())  # earlier ids unchanged
        assert runs_before <= {r.run_id for r in store.find(ModelRun, analysis_id=aid)}
        calls = store.find(LLMCall, analysis_id=aid)
        assert len({(c.stage, c.sequence) for c in calls}) == len(calls)


def test_cli_analyze_json_shape(demo_ws, offline_run):
    from click.testing import CliRunner

    from aieco.cli import main

    res = CliRunner().invoke(main, ["analyze", str(DEMO_REQUEST), "--workspace", str(demo_ws), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    keys = {"analysis_id", "risk", "status", "stopped_stage", "reason", "report_id"}
    assert all(keys <= set(a) for a in data["analyses"])
    assert [(a["risk"], a["status"], a["stopped_stage"], a["report_id"]) for a in data["analyses"]] == [
        (p.risk, p.status, p.stopped_stage, p.report_id) for p in offline_run.programs
    ]


def test_cli_demo_builds_from_nothing_and_writes_reports(tmp_path, small_draws):
    from click.testing import CliRunner

    from aieco.cli import main

    ws = tmp_path / "fresh"
    res = CliRunner().invoke(main, ["demo", "--workspace", str(ws), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [a["risk"] for a in data["analyses"]] == ["trade_fragmentation", "property_correction", "market_illiquidity"]
    done = [a for a in data["analyses"] if a["status"] == "completed"]
    assert {a["risk"] for a in done} >= {"trade_fragmentation", "property_correction"}
    for a in done:
        html = Path(data["report_paths"][a["report_id"]]).read_text(encoding="utf-8")
        assert "run_" in html  # numbers link to their ModelRun


def test_the_retrieval_condition_is_written_on_every_downstream_record(demo_ws, tmp_path, small_draws):
    ws = tmp_path / "hybrid"
    shutil.copytree(demo_ws, ws)
    request = load_request(DEMO_REQUEST).model_copy(update={"retrieval_condition": "hybrid"})
    with Store(ws) as store:
        out = analyze(store, request)
        aid = out.analysis_id
        assert by_risk(out)["property_correction"].status == "completed"
        records = [
            *store.find(PathRecord, analysis_id=aid),
            *store.find(Restriction, analysis_id=aid),
            # the macro request and the bank application's requests and runs alike
            *store.find(ModelRequest, analysis_id=aid),
            *store.find(ModelRun, analysis_id=aid),
            *store.find(Report, analysis_id=aid),
        ]
        assert records and {(r.graph_condition, r.retrieval_condition) for r in records} == {("G0", "hybrid")}
        assert {r.model_id for r in store.find(ModelRun, analysis_id=aid)} > {"macro_var"}


def test_document_rag_uses_the_passage_constrained_relation_graph(demo_ws, tmp_path, small_draws):
    ws = tmp_path / "document"
    shutil.copytree(demo_ws, ws)
    request = load_request(DEMO_REQUEST).model_copy(update={"retrieval_condition": "document"})
    with Store(ws) as store:
        out = analyze(store, request)
        aid = out.analysis_id
        assert by_risk(out)["trade_fragmentation"].status == "completed"
        paths = store.find(PathRecord, analysis_id=aid)
        restrictions = store.find(Restriction, analysis_id=aid)
        assert paths and restrictions
        records = [
            *paths,
            *restrictions,
            *store.find(ModelRequest, analysis_id=aid),
            *store.find(ModelRun, analysis_id=aid),
            *store.find(Report, analysis_id=aid),
        ]
        assert {(r.graph_condition, r.retrieval_condition) for r in records} == {("G0", "document")}
        stages = {r.stage: r for r in store.find(StageRecord, analysis_id=aid)}
        for risk in ("trade_fragmentation", "property_correction"):
            retrieved = store.get_json(stages[f"{risk}/retrieval"].output_digest)
            assert 0 < len(retrieved["risk_passages"]) <= get_settings().retrieval.top_k
            # every relation on a document path was extracted from one of the risk's retrieved passages
            rel_ids = {r for p in paths if p.risk == risk for step in p.evidence for r in step}
            locs = {r.location_id for r in store.find(Relation, relation_id=sorted(rel_ids))}
            assert rel_ids and locs <= set(retrieved["risk_passages"])
            found = store.get_json(stages[f"{risk}/graph_search"].output_digest)
            # fewer relations than A(t): the graph is constrained to the retrieved passages
            assert found["graph_edges"] < store.count(Relation, graph_condition="G0")


def test_application_stores_the_bank_validation_gates_before_any_bank_conclusion(demo_ws, offline_run):
    with Store(demo_ws) as store:
        gates = {g.model_id: g for g in store.find(ValidationGate)}
        assert set(gates) == {"bank_feols", "bank_feqar"}
        for gate in gates.values():
            assert set(gate.thresholds) == {"mae_max", "spearman_min", "coverage_min"}
        done = [
            r
            for r in store.find(StageRecord, analysis_id=offline_run.analysis_id, status="completed")
            if r.stage.endswith("/application")
        ]
        assert done
        for rec in done:
            out = store.get_json(rec.output_digest)
            assert sorted(out["gates"]) == sorted(g.gate_id for g in gates.values())
            assert out["may_supply_conclusions"] == {m: g.passed for m, g in gates.items()}


def test_the_request_horizon_drives_the_simulation_and_the_claims(demo_ws, tmp_path, small_draws):
    """A 2026–2028 request: the VAR simulates to 2028Q4, its points and registered claims carry 2026–2028."""
    from aieco.records import ModelOutputPoint, OutputTest

    ws = tmp_path / "h2028"
    shutil.copytree(demo_ws, ws)
    data = load_request(DEMO_REQUEST).as_dict()
    trade = [r for r in data["risks"] if r["name"] == "trade_fragmentation"]
    request = parse_request({**data, "horizon": "2026-2028", "risks": trade})
    with Store(ws) as store:
        out = analyze(store, request)
        aid = out.analysis_id
        run = store.find(ModelRun, analysis_id=aid, model_id="macro_var")[-1]
        assert run.status.value == "completed", run.reason
        assert (run.diagnostics["horizon"], run.diagnostics["simulated_to"]) == ("2026-2028", "2028Q4")
        # the estimation ends at the latest quarter every model variable has a release for by the cutoff
        from aieco.models.macro import VARIABLES, workspace_observations
        from aieco.models.vintages import quarterly_levels, select_as_of

        levels = quarterly_levels(select_as_of(workspace_observations(store), request.cutoff), VARIABLES)
        assert run.diagnostics["estimation_end"] == str(levels.dropna().index.max())
        tables = store.get_tables(run.output_digest)
        assert list(tables["selected_path"].index) == ["2026", "2027", "2028"]
        assert list(tables["selected_quarterly"].index)[-1] == "2028Q4"
        periods = {p.period for p in store.find(ModelOutputPoint, run_id=run.run_id)}
        assert periods == {"2026", "2027", "2028", "2026-2028"}  # years and the horizon figures
        mreq = [m for m in store.find(ModelRequest, analysis_id=aid) if m.digest() == run.request_digest]
        assert [m.horizon for m in mreq] == ["2026-2028"]
        tests = store.find(OutputTest, analysis_id=aid, phase="registered")
        assert tests and {t.horizon for t in tests} == {"2026-2028"}
        prog = out.programs[0]
        if prog.status == "completed":
            from aieco.records import Claim

            claims = store.find(Claim, analysis_id=aid)
            assert claims and {c.period for c in claims} <= {"2026", "2027", "2028"}
            assert {c.horizon for c in claims} == {"2026-2028"}
        else:  # the synthetic country histories end in 2024: no 2025 base year for the bank countries
            assert prog.stopped_stage == "application" and "2025" in prog.reason, prog.reason
