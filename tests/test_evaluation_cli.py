"""`aieco evaluate` and the Evaluation page's view functions."""

from __future__ import annotations

import json

from click.testing import CliRunner

from aieco.cli import main
from aieco.evaluation.views import contribution_figure, evaluation_records, evaluation_tables, risk_measure_figure
from aieco.store import Store
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
    out = CliRunner().invoke(main, ["evaluate", "--workspace", str(ws), "--orderings", "500", "--workers", "1",
                                    "--json"])
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
