"""The stage runner on small real stages: word counting over a text, with stop rules."""

import pytest

from aieco.analysis.runner import Stage, StageContext, run_stages
from aieco.errors import StageStopped
from aieco.records import FrozenModel, StageRecord

TEXT = "Higher policy rates weigh on house prices. Lower house prices raise credit losses."


class Words(FrozenModel):
    """Typed stage input; the switches simulate a transient condition, so they are not part of the identity."""

    text: str
    stop_count: bool = False
    fail_count: bool = False

    def identity(self):
        return {"text": self.text}


def split(ctx: StageContext):
    return [s.strip() for s in ctx.inputs.text.split(".") if s.strip()]


def count(ctx: StageContext):
    if ctx.inputs.stop_count:
        ctx.stop("fewer sentences than the request requires")
    if ctx.inputs.fail_count:
        raise ZeroDivisionError("a bug")
    return {s: len(s.split()) for s in ctx.outputs["split"]}


def total(ctx: StageContext):
    return sum(ctx.outputs["count"].values())


STAGES = [Stage("split", split), Stage("count", count), Stage("total", total)]


def stages_run(store, analysis_id):
    return [(r.stage, r.status.value) for r in store.find(StageRecord, analysis_id=analysis_id)]


def test_runs_all_stages_and_records_each(store):
    out = run_stages(store, "an_1", STAGES, Words(text=TEXT))
    assert out.status == "completed"
    assert out.outputs["total"] == 13
    assert stages_run(store, "an_1") == [("split", "completed"), ("count", "completed"), ("total", "completed")]
    for rec in store.find(StageRecord, analysis_id="an_1"):
        assert rec.ended_at >= rec.started_at and rec.output_digest
        assert store.get_json(rec.output_digest) == out.outputs[rec.stage]


def test_rerun_with_same_inputs_runs_nothing_again(store):
    first = run_stages(store, "an_1", STAGES, Words(text=TEXT))
    events = []
    second = run_stages(store, "an_1", STAGES, Words(text=TEXT), progress=lambda s, e, i, n: events.append((s, e)))
    assert second.outputs == first.outputs
    assert events == [("split", "skipped"), ("count", "skipped"), ("total", "skipped")]
    assert store.count(StageRecord, analysis_id="an_1") == 3


def test_stop_is_recorded_and_resume_continues_after_last_completed(store):
    out = run_stages(store, "an_2", STAGES, Words(text=TEXT, stop_count=True))
    assert (out.status, out.stopped_stage) == ("stopped", "count")
    assert "fewer sentences" in out.reason
    split_rec = store.find(StageRecord, analysis_id="an_2", stage="split")
    assert stages_run(store, "an_2") == [("split", "completed"), ("count", "stopped")]
    events = []
    out = run_stages(store, "an_2", STAGES, Words(text=TEXT), progress=lambda s, e, i, n: events.append((s, e)))
    assert out.status == "completed" and out.outputs["total"] == 13
    assert events[0] == ("split", "skipped")
    assert store.find(StageRecord, analysis_id="an_2", stage="split") == split_rec  # same id, not re-run
    assert stages_run(store, "an_2") == [
        ("split", "completed"),
        ("count", "stopped"),
        ("count", "completed"),
        ("total", "completed"),
    ]


def test_failure_is_recorded_then_raised_and_resume_works(store):
    with pytest.raises(ZeroDivisionError):
        run_stages(store, "an_3", STAGES, Words(text=TEXT, fail_count=True))
    failed = store.find(StageRecord, analysis_id="an_3", stage="count")
    assert failed[0].status.value == "failed" and "ZeroDivisionError" in failed[0].reason
    out = run_stages(store, "an_3", STAGES, Words(text=TEXT))
    assert out.status == "completed"
    assert store.count(StageRecord, analysis_id="an_3", stage="split") == 1


def test_changed_inputs_are_another_analysis_never_a_second_set_under_one_id(store):
    """Issue 35: two sets of completed records under one analysis id made its claims point at two runs."""
    from aieco.errors import IntegrityError

    run_stages(store, "an_4", STAGES, Words(text=TEXT))
    with pytest.raises(IntegrityError, match="already completed from other inputs"):
        run_stages(store, "an_4", STAGES, Words(text="One two. Three."))
    assert store.count(StageRecord, analysis_id="an_4", stage="split", status="completed") == 1
    out = run_stages(store, "an_5", STAGES, Words(text="One two. Three."))  # new inputs, new analysis
    assert out.outputs["total"] == 3


def test_stage_stopped_carries_stage_name():
    with pytest.raises(StageStopped) as e:
        StageContext(store=None, analysis_id="x", inputs=None, stage="retrieval").stop("no eligible source")
    assert e.value.stage == "retrieval" and e.value.reason == "no eligible source"
