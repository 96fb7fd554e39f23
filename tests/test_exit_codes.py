"""Refused requests exit non-zero with the reason; a stop inside a risk program is a result."""

from __future__ import annotations

import json

from click.testing import CliRunner

from aieco.cli import main
from aieco.cli.analyze import refusals
from aieco.demo import DEMO_REQUEST


def test_a_request_refused_before_any_risk_program_exits_1_with_the_reason(tmp_path):
    res = CliRunner().invoke(main, ["analyze", str(DEMO_REQUEST), "--workspace", str(tmp_path / "ws")])
    assert res.exit_code == 1, res.output
    assert "request refused at eligibility: no eligible source location at cutoff 2024-12-31" in res.output


def test_the_json_output_of_a_refused_request_still_carries_every_analysis(tmp_path):
    res = CliRunner().invoke(main, ["analyze", str(DEMO_REQUEST), "--workspace", str(tmp_path / "ws"), "--json"])
    assert res.exit_code == 1
    data = json.loads(res.stdout)
    assert {a["stopped_stage"] for a in data["analyses"]} == {"eligibility"}


def test_only_shared_stage_stops_are_refusals():
    data = {
        "analyses": [
            {"status": "completed", "stopped_stage": None, "reason": ""},
            {"status": "stopped", "stopped_stage": "restriction_derivation", "reason": "paths contradict"},
        ]
    }
    assert refusals(data) == []
    data["analyses"].append({"status": "stopped", "stopped_stage": "request_checks", "reason": "unknown outcome x"})
    assert refusals(data) == ["request_checks: unknown outcome x"]
