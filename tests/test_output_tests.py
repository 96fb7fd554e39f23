"""Eq. outputtestpass on hand-made records: every field of τ_k must match, and |z − Round(z̃)| ≤ ε."""

from datetime import UTC, datetime

import pytest

from aieco.records import ModelOutputPoint, ModelRun, ModelSpecification, OutputTest, RunStatus, VariableSpec
from aieco.reporting.claims import diagnostic_passed, output_test_failures

T0 = datetime(2025, 1, 1, tzinfo=UTC)


def _records(**changes):
    test = OutputTest.create(
        analysis_id="an",
        claim_id="clm.r.real_gdp.y1.00000000",
        phase="registered",
        variable="real_gdp",
        unit="percent",
        horizon="2025-2027",
        transformation="annual_log_change",
        model_id="macro",
        rounding=3,
        tolerance=1e-10,
        required_diagnostics=["stable"],
        input_versions={"history": "d1"},
    )
    run = ModelRun.create(
        analysis_id="an",
        model_id=changes.pop("model_id", "macro"),
        spec_id="spec_x",
        request_digest="r",
        input_digests=changes.pop("inputs", {"history": "d1"}),
        code_digest="c",
        config_digest="g",
        env_digest="e",
        seed=1,
        started_at=T0,
        ended_at=T0,
        status=changes.pop("status", RunStatus.completed),
        diagnostics=changes.pop("diagnostics", {"stable": True}),
        output_digest="o",
    )
    spec = ModelSpecification.create(
        model_id="macro",
        version="1",
        inputs=[],
        snapshot="s",
        entry_point="m:f",
        outputs=[VariableSpec(variable="real_gdp", unit="percent", frequency="A", transformation="annual_log_change")],
        horizon=changes.pop("horizon", "2025-2027"),
    )
    point = ModelOutputPoint.create(
        run_id=run.run_id,
        variable=changes.pop("variable", "real_gdp"),
        unit=changes.pop("unit", "percent"),
        transformation=changes.pop("transformation", "annual_log_change"),
        period="2025",
        value=-1.14241,
        artifact_digest="o",
        table_name="paths",
        row="2025",
        column="real_gdp",
    )
    assert not changes
    return test, run, spec, point


def test_matching_claim_passes_with_hand_rounded_value():
    test, run, spec, point = _records()
    # Round_3(-1.14241) = -1.142; the report shows -1.142
    assert output_test_failures(test, run, spec, point, -1.142, -1.14241) == []


@pytest.mark.parametrize("reported", [-1.143, -1.14241, -1.1420001])
def test_reported_value_off_by_more_than_epsilon_fails(reported):
    test, run, spec, point = _records()
    why = output_test_failures(test, run, spec, point, reported, -1.14241)
    assert any("Round_3" in w for w in why)


def test_unrounded_source_must_equal_the_point_within_1e_10():
    test, run, spec, point = _records()
    assert output_test_failures(test, run, spec, point, -1.142, -1.14241 + 5e-11) == []
    assert any("stored value" in w for w in output_test_failures(test, run, spec, point, -1.142, -1.14241 + 1e-9))


@pytest.mark.parametrize(
    "change, word",
    [
        ({"variable": "unemployment"}, "variable"),
        ({"unit": "pp"}, "unit"),
        ({"transformation": "level"}, "transformation"),
        ({"model_id": "other"}, "model id"),
        ({"horizon": "2025-2028"}, "horizon"),
        ({"inputs": {"history": "d2"}}, "input history"),
        ({"diagnostics": {}}, "diagnostic"),
        ({"diagnostics": {"stable": False}}, "diagnostic"),
        ({"status": RunStatus.stopped}, "not completed"),
    ],
)
def test_each_field_of_the_test_must_match(change, word):
    test, run, spec, point = _records(**change)
    why = output_test_failures(test, run, spec, point, -1.142, -1.14241)
    assert any(word in w for w in why), why


@pytest.mark.parametrize(
    "value, ok",
    [
        (True, True),
        ({"passed": True}, True),
        ({"passed": False}, False),
        (None, False),
        (False, False),
        (0.93, True),
        ({"max_modulus": 0.97, "stable": True}, True),
        ({"max_modulus": 1.02, "stable": False}, False),
        ({"nobs": 95, "required": 80}, True),
        ({"nobs": 70, "required": 80}, False),
        ({"failures": 3, "passed_share": 0.9}, True),
        ({"ok": False}, False),
    ],
)
def test_diagnostic_passed(value, ok):
    assert diagnostic_passed(value) is ok
