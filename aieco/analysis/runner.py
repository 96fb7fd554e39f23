"""The stage runner: Stage, StageContext, resume and StageRecords.

A stage is a function of a :class:`StageContext` returning a JSON-serialisable output
(a pydantic model, dict, list or scalar). The context carries the stage's typed inputs
(a frozen pydantic model, e.g. :class:`aieco.analysis.inputs.ProgramInputs`), the outputs of
the earlier stages and the runtime services (the LLM client); there is no untyped side dict.
Its output is stored as an artifact and its digest goes into the StageRecord. Each stage's
input digest covers the analysis inputs and the output digests of every earlier stage, so
re-running with the same inputs finds the completed stages, reloads their outputs and resumes after the last one;
ids never change because nothing completed is run again.

A :class:`StageStopped` raised by a stage is a result: it is recorded with its reason
and ends the analysis. Any other exception is recorded as ``failed`` and re-raised.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from aieco.errors import AiecoError, StageStopped
from aieco.records import StageRecord, StageStatus, digest, utc_now
from aieco.store import Store

ProgressFn = Callable[[str, str, int, int], None]
"""progress(stage, event, index, total) with event in started|skipped|completed|stopped|failed|waiting."""


@dataclass
class StageContext:
    """What a stage sees: the store, its analysis, its typed inputs, earlier outputs and the LLM client."""

    store: Store
    analysis_id: str
    inputs: Any
    outputs: dict[str, Any] = field(default_factory=dict)
    stage: str = ""
    client: Any = None

    def stop(self, reason: str) -> None:
        raise StageStopped(reason, stage=self.stage)


@dataclass(frozen=True)
class Stage:
    name: str
    run: Callable[[StageContext], Any]


@dataclass(frozen=True)
class RunOutcome:
    analysis_id: str
    status: str  # completed | stopped | failed
    stopped_stage: str | None
    reason: str
    outputs: dict[str, Any]
    records: list[StageRecord]


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    return obj


def identity(inputs: Any) -> Any:
    """What the input digest covers: ``inputs.identity()`` when the inputs define it, else their JSON."""
    ident = getattr(inputs, "identity", None)
    return ident() if callable(ident) else _jsonable(inputs)


def run_stages(
    store: Store,
    analysis_id: str,
    stages: Sequence[Stage],
    inputs: Any,
    *,
    progress: ProgressFn | None = None,
    client: Any = None,
) -> RunOutcome:
    """Run ``stages`` in order for ``analysis_id``, resuming after completed ones.

    ``inputs`` is the stages' typed input (a frozen pydantic model; its ``identity()``, when
    defined, is what the input digest covers); ``client`` the LLM client the agent stages call.
    """
    names = [s.name for s in stages]
    if len(set(names)) != len(names):
        raise ValueError(f"stage names must be unique: {names}")
    # One run of these stages of this analysis at a time: a second, concurrent process waits,
    # then resumes after the stages the first completed (one completed record per stage).
    lock = digest({"analysis_id": analysis_id, "stages": names})[:24]
    waiting = None
    if progress is not None:
        waiting = lambda: progress(names[0], "waiting", 0, len(names))  # noqa: E731
    with store.run_lock(lock, on_wait=waiting):
        return _run_stages(store, analysis_id, stages, inputs, progress=progress, client=client)


def _run_stages(
    store: Store, analysis_id: str, stages: Sequence[Stage], inputs: Any, *, progress: ProgressFn | None, client: Any
) -> RunOutcome:
    inputs_digest = digest(identity(inputs))
    ctx = StageContext(store=store, analysis_id=analysis_id, inputs=inputs, client=client)
    previous: list[str] = []
    written: list[StageRecord] = []
    total = len(stages)

    def note(stage: str, event: str, i: int) -> None:
        if progress is not None:
            progress(stage, event, i, total)

    for i, stage in enumerate(stages):
        ctx.stage = stage.name
        input_digest = digest({"inputs": inputs_digest, "stage": stage.name, "previous": previous})
        done = store.find(
            StageRecord,
            analysis_id=analysis_id,
            stage=stage.name,
            input_digest=input_digest,
            status=StageStatus.completed,
        )
        if done and done[-1].output_digest and store.has_artifact(done[-1].output_digest):
            ctx.outputs[stage.name] = store.get_json(done[-1].output_digest)
            previous.append(done[-1].output_digest)
            note(stage.name, "skipped", i)
            continue
        note(stage.name, "started", i)
        started = utc_now()
        try:
            output = stage.run(ctx)
        except StageStopped as stop:
            rec = _record(store, analysis_id, stage.name, StageStatus.stopped, stop.reason, input_digest, None, started)
            written.append(rec)
            note(stage.name, "stopped", i)
            return RunOutcome(analysis_id, "stopped", stage.name, stop.reason, ctx.outputs, written)
        except BaseException as exc:
            reason = (
                str(exc)
                if isinstance(exc, AiecoError)
                else (f"{type(exc).__name__}: {exc} | {traceback.format_exc(limit=3).strip().splitlines()[-1]}")
            )
            rec = _record(store, analysis_id, stage.name, StageStatus.failed, reason, input_digest, None, started)
            written.append(rec)
            note(stage.name, "failed", i)
            raise
        out_json = _jsonable(output)
        out_digest = store.put_json(out_json, kind=f"stage:{stage.name}")
        ctx.outputs[stage.name] = store.get_json(out_digest)
        previous.append(out_digest)
        written.append(
            _record(store, analysis_id, stage.name, StageStatus.completed, "", input_digest, out_digest, started)
        )
        note(stage.name, "completed", i)
    return RunOutcome(analysis_id, "completed", None, "", ctx.outputs, written)


def _record(
    store: Store,
    analysis_id: str,
    stage: str,
    status: StageStatus,
    reason: str,
    input_digest: str,
    output_digest: str | None,
    started: Any,
) -> StageRecord:
    rec = StageRecord.create(
        analysis_id=analysis_id,
        stage=stage,
        status=status,
        reason=reason,
        input_digest=input_digest,
        output_digest=output_digest,
        started_at=started,
        ended_at=utc_now(),
    )
    with store.transaction():  # a stage completes once per input (the store refuses a second record)
        if status is StageStatus.completed:
            done = store.find(
                StageRecord,
                analysis_id=analysis_id,
                stage=stage,
                input_digest=input_digest,
                status=StageStatus.completed,
                limit=1,
            )
            if done:
                return done[0]
        store.put(rec)
    return rec
