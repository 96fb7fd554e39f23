"""`aieco evaluate` and the Evaluation page's view functions."""

from __future__ import annotations

import json

from click.testing import CliRunner

from aieco.cli import main
from aieco.store import Store
from dashboard.evaluation_views import contribution_figure, evaluation_records, evaluation_tables, risk_measure_figure
from tests.test_evaluation_run import CHAIN, _relation, _source


def _workspace(path):
    from datetime import date

    s = Store(path)
    d1 = _source(s, "d1", date(2023, 5, 1))
    _relation(s, d1, CHAIN[0])
    _relation(s, _source(s, "d2", date(2024, 1, 1)), CHAIN[1])
    s.close()


def test_evaluate_json_and_tables(tmp_path):
    ws = tmp_path / "ws"
    _workspace(ws)
    out = CliRunner().invoke(
        main, ["evaluate", "--workspace", str(ws), "--orderings", "500", "--workers", "1", "--json"]
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["benchmark"] == "demo-2025-adverse-mechanisms"
    risks = {r["risk"]: r for r in data["tables"]["risks"]}
    assert risks["trade_fragmentation"]["relation_coverage"] == 0.2
    assert risks["trade_fragmentation"]["endpoint_path_availability"] == 0.25  # tf1 only
    docs = {r["document"] for r in data["tables"]["contribution"]}
    assert len(docs) == 2
    with Store(ws) as s:
        assert evaluation_records(s)["evaluation_id"].iloc[0] == data["evaluation_id"]
        t = evaluation_tables(s)
        assert len(risk_measure_figure(t["risks"]).data) == 4  # three risks and the mean
        assert contribution_figure(t["contribution"]).data


def test_evaluate_human_output_and_bad_benchmark(tmp_path):
    ws = tmp_path / "ws"
    _workspace(ws)
    out = CliRunner().invoke(main, ["evaluate", "-w", str(ws), "--orderings", "100", "--workers", "1"])
    assert out.exit_code == 0, out.output
    assert "Measures per initiating risk" in out.output and "Source contribution" in out.output
    bad = tmp_path / "b.toml"
    bad.write_text('[benchmark]\nname="x"\n')
    out = CliRunner().invoke(main, ["evaluate", "-w", str(ws), "--benchmark", str(bad), "--json"])
    assert out.exit_code == 2
    assert "no [[channel]] entries" in json.loads(out.output.strip().splitlines()[-1])["detail"]


def test_direct_comparator_is_one_recorded_call_and_never_a_model_run(tmp_path, monkeypatch):
    from aieco.evaluation.direct import DIRECT_ANALYSIS_ID
    from aieco.records import LLMCall, ModelRun, canonical_json
    from tests.openai_stub_server import StubServer, responses_body

    ws = tmp_path / "ws"
    _workspace(ws)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-test")
    values = [
        {"risk": "trade_fragmentation", "variable": "real_gdp", "year": y, "value": v}
        for y, v in ((2025, -0.5), (2026, -1.25), (2027, 0.25))
    ]
    values.append({"risk": "trade_fragmentation", "variable": "real_gdp", "year": 2031, "value": 9.0})  # not asked
    with StubServer() as server:
        server.fallback["/v1/responses"] = lambda body: (
            200,
            responses_body(canonical_json({"values": values}), body["model"]),
        )
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        out = CliRunner().invoke(
            main,
            ["evaluate", "-w", str(ws), "--orderings", "100", "--workers", "1", "--direct-backend", "openai", "--json"],
        )
        assert out.exit_code == 0, out.output
        assert len(server.requests) == 1
    tables = json.loads(out.output)["tables"]
    direct = tables["direct_comparator"]
    assert [(r["year"], r["value"]) for r in direct] == [(2025, -0.5), (2026, -1.25), (2027, 0.25)]
    assert not any(r["accepted_as_agent_result"] for r in direct)
    rows = [r for r in tables["retrieval_inputs"] if r["condition"] == "direct"]
    assert rows and all(r["status"] == "comparator recorded" and direct[0]["llm_call_id"] in r["reason"] for r in rows)
    # the comparator's numbers are not scored as paths and never become a model run
    assert all(
        r["exact_selected_path_recovery"] is None for r in tables["retrieval_conditions"] if r["condition"] == "direct"
    )
    with Store(ws) as s:
        assert s.count(ModelRun) == 0
        assert [c.task for c in s.find(LLMCall, analysis_id=DIRECT_ANALYSIS_ID)] == ["direct_comparator"]


def test_direct_comparator_is_not_applicable_offline(tmp_path):
    import pytest

    from aieco.errors import InputError
    from aieco.evaluation.benchmark import demo_benchmark_path, load_benchmark
    from aieco.evaluation.direct import direct_comparator
    from aieco.llm.base import OfflineBackend

    with Store(tmp_path / "ws") as s, pytest.raises(InputError, match="offline backend has no LLM"):
        direct_comparator(s, load_benchmark(demo_benchmark_path()), OfflineBackend())
