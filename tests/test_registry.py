"""Model registry: compatibility, stop with reasons, ModelRun + output points, read_point."""

from __future__ import annotations

import pandas as pd
import pytest

from aieco.errors import InputError, StageStopped
from aieco.models import registry
from aieco.models.registry import ModelResult, PointRef
from aieco.records import (
    ModelOutputPoint,
    ModelRequest,
    ModelRun,
    ModelSpecification,
    RunStatus,
    VariableSpec,
)

OUT = VariableSpec(variable="toy_rate", unit="%", frequency="A", transformation="annual_average", horizon="2025-2027")


def toy_spec(model_id="toy", **changes) -> ModelSpecification:
    fields = dict(
        model_id=model_id,
        version="1",
        inputs=[],
        outputs=[OUT],
        scope="XX",
        horizon="2025-2027",
        snapshot="s",
        entry_point="tests.test_registry:toy_fn",
        min_restrictions=1,
    )
    fields.update(changes)
    return ModelSpecification.create(**fields)


def toy_request(**changes) -> ModelRequest:
    fields = dict(analysis_id="a1", risk="r", outputs=[OUT], restriction_ids=["rst_1"], horizon="2025-2027", scope="XX")
    fields.update(changes)
    return ModelRequest.create(**fields)


class ToyInputs(registry.ModelInputs):
    scale: float
    frame: pd.DataFrame | None = None


def toy_fn(request, inputs: ToyInputs, seed):
    table = pd.DataFrame({"toy_rate": [1.5 + seed, 2.5]}, index=["2025", "2026"])
    points = [
        PointRef(
            variable="toy_rate",
            unit="%",
            transformation="annual_average",
            period=p,
            table="path",
            row=p,
            column="toy_rate",
        )
        for p in ("2025", "2026")
    ]
    return ModelResult(
        status=RunStatus.completed, tables={"path": table}, points=points, diagnostics={"scale": inputs.scale}
    )


@pytest.fixture
def toy():
    entry = registry.register(toy_spec(), toy_fn)
    yield entry
    registry.unregister("toy")


def test_compatible_request_has_no_reasons(toy):
    assert registry.incompatibilities(toy_request(), toy.spec) == []


@pytest.mark.parametrize(
    "change, reason",
    [
        ({"outputs": [OUT.model_copy(update={"unit": "pp"})]}, "not produced by toy"),
        ({"horizon": "2025-2026"}, "horizon 2025-2026 differs"),
        ({"scope": "EA"}, "scope EA differs"),
        ({"restriction_ids": []}, "0 restrictions; toy needs at least 1"),
    ],
)
def test_each_incompatibility_is_named(toy, change, reason):
    reasons = registry.incompatibilities(toy_request(**change), toy.spec)
    assert len(reasons) == 1 and reason in reasons[0]


def test_run_compatible_stops_with_every_refusal_reason(store, toy):
    with pytest.raises(StageStopped) as info:
        registry.run_compatible(store, toy_request(scope="NOWHERE"), ToyInputs(scale=1.0), seed=0)
    assert "no compatible model specification" in info.value.reason
    assert "toy: scope NOWHERE differs" in info.value.reason
    assert info.value.stage == "execution"


def test_execute_writes_run_points_and_read_point_returns_the_cell(store, toy):
    runs = registry.run_compatible(store, toy_request(), ToyInputs(scale=2.0, frame=pd.DataFrame({"x": [1.0]})), seed=3)
    assert len(runs) == 1
    run = runs[0]
    assert run.status is RunStatus.completed and run.seed == 3 and run.model_id == "toy"
    assert set(run.input_digests) == {"scale", "frame"} and run.output_digest
    assert run.diagnostics == {"horizon": "2025-2027", "scale": 2.0}  # every run records the horizon it served
    assert store.get(ModelRun, run.run_id) is not None
    points = sorted(store.find(ModelOutputPoint, run_id=run.run_id), key=lambda p: p.period)
    assert [(p.period, p.value) for p in points] == [("2025", 4.5), ("2026", 2.5)]
    assert [registry.read_point(store, p) for p in points] == [4.5, 2.5]


def test_untyped_inputs_are_refused_before_anything_is_written(store, toy):
    """The registry boundary takes a model's typed inputs only: a loose dict is refused with the fix, no run written."""
    with pytest.raises(InputError, match="inputs of toy are a dict, not typed model inputs"):
        registry.execute(store, toy, toy_request(), {"scale": 1.0}, seed=0)
    assert store.find(ModelRun) == []


def test_a_none_input_is_not_stored(store, toy):
    [run] = registry.run_compatible(store, toy_request(), ToyInputs(scale=1.0), seed=0)
    assert set(run.input_digests) == {"scale"}


def test_stopped_and_failed_functions_become_runs_with_reasons(store):
    def stops(request, inputs, seed):
        raise StageStopped("too few observations", stage="estimation")

    def fails(request, inputs, seed):
        raise InputError("observations lack the column value")

    for model_id, fn, status, reason in [
        ("stopper", stops, RunStatus.stopped, "too few observations"),
        ("failer", fails, RunStatus.failed, "lack the column value"),
    ]:
        entry = registry.register(toy_spec(model_id), fn)
        try:
            run = registry.execute(store, entry, toy_request(), registry.ModelInputs(), seed=None)
        finally:
            registry.unregister(model_id)
        assert run.status is status and reason in run.reason and run.output_digest is None


def test_point_on_a_missing_cell_is_refused(store):
    def bad_point(request, inputs, seed):
        return ModelResult(
            status=RunStatus.completed,
            tables={"path": pd.DataFrame({"a": [1.0]}, index=["2025"])},
            points=[
                PointRef(
                    variable="toy_rate",
                    unit="%",
                    transformation="t",
                    period="2030",
                    table="path",
                    row="2030",
                    column="a",
                )
            ],
        )

    entry = registry.register(toy_spec("badpoint"), bad_point)
    try:
        with pytest.raises(InputError, match="missing cell"):
            registry.execute(store, entry, toy_request(), registry.ModelInputs(), seed=None)
    finally:
        registry.unregister("badpoint")


def test_entry_point_is_loaded_when_no_function_is_given():
    from aieco.models.macro import run_macro_var

    entry = registry.register(toy_spec("by_entry_point", entry_point="aieco.models.macro:run_macro_var"))
    registry.unregister("by_entry_point")
    assert entry.fn is run_macro_var
    with pytest.raises(InputError, match="cannot be loaded"):
        registry.register(toy_spec("nowhere", entry_point="aieco.nowhere:fn"))


def test_macro_inputs_carry_the_as_of_rule_and_store_what_runs_always_stored():
    """MacroVarInputs holds the request's AsOf itself (scope and exclusions kept); what a run stores and
    digests is the form macro_var runs stored before the typed inputs (cutoff as ISO text, the vintage
    policy beside it, optional entries only when set), so input digests of earlier runs stay comparable."""
    from datetime import date

    from aieco.asof import AsOf
    from aieco.models.macro import MacroVarInputs, model_inputs

    as_of = AsOf(cutoff=date(2024, 12, 31), scope=["EA"], exclude=["GLOBAL"], vintage_policy="strict")
    frame = pd.DataFrame({"variable": ["real_gdp"], "value": [1.0]})
    inputs = model_inputs(frame, [{"variable": "real_gdp", "direction": -1, "priority": 1}], as_of)
    assert isinstance(inputs, MacroVarInputs) and inputs.as_of is as_of
    stored = inputs.artifacts()
    assert set(stored) == {"observations", "restrictions", "cutoff", "vintage_policy", "taken"}
    assert (stored["cutoff"], stored["vintage_policy"], stored["taken"]) == ("2024-12-31", "strict", {})
    assert stored["restrictions"] == [{"variable": "real_gdp", "direction": -1, "priority": 1}]
    richer = model_inputs(frame, [], as_of, 500, selection_rule="paper_max", anchor_note="none published")
    assert {k: richer.artifacts()[k] for k in ("draws", "selection", "anchor_note")} == {
        "draws": 500,
        "selection": "paper_max",
        "anchor_note": "none published",
    }
    with pytest.raises(InputError, match="beside an AsOf"):
        model_inputs(frame, [], as_of, vintage_policy="approximate")  # the policy travels inside the AsOf
