"""Stops at the analysis-wide stages: request checks and the coordinator's plan (no corpus needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aieco.analysis.pipeline import analyze
from aieco.errors import InputError
from aieco.records import LLMCall, StageRecord, canonical_json
from aieco.request import load_request, parse_request
from tests.openai_stub_server import StubServer, responses_body

DEMO = Path(__file__).resolve().parents[1] / "aieco" / "demo" / "requests" / "euro_area_risks.toml"


def edited(**changes) -> object:
    return parse_request({**load_request(DEMO).as_dict(), **changes})


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"outcomes": ["real_gdp", "moon_phase"]}, "moon_phase"),
        ({"models": ["macro_var", "dsge_2030"]}, "dsge_2030"),
        ({"horizon": "2024-2026"}, "starts before the information cutoff"),
    ],
)
def test_request_checks_refuse_before_any_llm_call(store, changes, words):
    out = analyze(store, edited(**changes))
    assert {(p.status, p.stopped_stage) for p in out.programs} == {("stopped", "request_checks")}
    assert all(words in p.reason for p in out.programs) and len(out.programs) == 3
    assert store.count(LLMCall, analysis_id=out.analysis_id) == 0
    assert [s.stage for s in store.find(StageRecord, analysis_id=out.analysis_id)] == ["request_checks"]


def test_direct_is_refused_as_an_agent_request():
    with pytest.raises(InputError, match="never accepted as an agent result"):
        edited(retrieval_condition="direct")


def test_unknown_channel_variable_is_named_with_its_risk_and_query(store):
    data = load_request(DEMO).as_dict()
    data["risks"][1]["channels"][0]["target"] = "house_pricez"
    out = analyze(store, parse_request(data))
    assert "risk property_correction, query pc1: 'house_pricez' is not a vocabulary variable" in out.programs[0].reason


def test_a_coordinator_plan_wider_than_the_request_stops_planning(store, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")

    def widen(body: dict) -> tuple[int, dict]:
        plan = {
            "programs": [
                {"risk": r, "source_variables": [], "targets": []}
                for r in ("trade_fragmentation", "property_correction", "market_illiquidity")
            ],
            "outcomes": [],
            "admissible_roles": ["generation", "evaluation"],
        }
        return 200, responses_body(canonical_json(plan), body["model"])

    with StubServer() as server:
        server.fallback["/v1/responses"] = widen
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        out = analyze(store, load_request(DEMO), backend="openai")
        assert len(server.requests) == 1
    assert {(p.status, p.stopped_stage) for p in out.programs} == {("stopped", "planning")}
    assert "roles ['evaluation']" in out.programs[0].reason
    call = store.find(LLMCall, analysis_id=out.analysis_id)[0]
    assert call.status == "ok" and call.task == "coordinate" and call.backend == "openai"
    assert json.loads(call.raw_response)["object"] == "response"


def test_an_empty_workspace_stops_at_eligibility_and_a_rerun_resumes_there(store):
    pytest.importorskip("aieco.sources.eligibility")
    out = analyze(store, load_request(DEMO))
    assert {(p.status, p.stopped_stage) for p in out.programs} == {("stopped", "eligibility")}
    assert "no eligible source location at cutoff 2024-12-31" in out.programs[0].reason
    first = store.find(StageRecord, analysis_id=out.analysis_id)
    again = analyze(store, load_request(DEMO))
    records = store.find(StageRecord, analysis_id=out.analysis_id)
    assert [p.as_json() for p in again.programs] == [p.as_json() for p in out.programs]
    assert records[:3] == first and [r.stage for r in records[3:]] == ["eligibility"]  # only the stop re-ran
    assert store.count(LLMCall, analysis_id=out.analysis_id) == 1  # the accepted plan is reused, not re-asked


def test_a_changed_setting_runs_another_analysis_instead_of_resuming(store, monkeypatch):
    from aieco.config import get_settings

    request = edited(outcomes=["moon_phase"])  # stops at the first stage, which is enough here
    analyze(store, request)
    analyze(store, request)
    assert store.count(StageRecord, analysis_id=request.analysis_id) == 2  # the stop re-ran, nothing else
    monkeypatch.setenv("AIECO_RETRIEVAL__TOP_K", "7")
    get_settings.cache_clear()
    try:
        other = analyze(store, request)
    finally:
        monkeypatch.delenv("AIECO_RETRIEVAL__TOP_K")
        get_settings.cache_clear()
    assert other.analysis_id != request.analysis_id  # its own ids, never a second set under the old ones
    assert len({r.input_digest for r in store.find(StageRecord, analysis_id=request.analysis_id)}) == 1
    assert store.count(StageRecord, analysis_id=other.analysis_id) == 1
