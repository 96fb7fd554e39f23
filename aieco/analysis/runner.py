"""The stage runner: Stage, StageContext, resume, StageRecords and the stages' store writes.

A stage is a function of a :class:`StageContext` returning its typed output (a frozen
pydantic model declared as ``Stage.output``, see :mod:`aieco.analysis.outputs`) or a
:class:`StageResult` carrying that output and the domain records the stage produced
(Paths, Restrictions, OutputTests, …). The runner stores the output's JSON as an artifact,
then writes the records and the StageRecord in one transaction. Later stages read earlier
outputs as the typed models (``ctx.outputs`` holds them), re-hydrated from the stored JSON
when the run resumes. A stage without a declared output model (tests, simple pipelines) may
return any JSON-serialisable value and is handed back the stored JSON.

The context carries the stage's typed inputs (a frozen pydantic model, e.g.
:class:`aieco.analysis.inputs.ProgramInputs`), the earlier outputs, a read-only
:class:`StoreReader` and the runtime services (the LLM client); there is no untyped side
dict. Its output's digest goes into the StageRecord. Each stage's
input digest covers the analysis inputs and the output digests of every earlier stage, so
re-running with the same inputs finds the completed stages, reloads their outputs and resumes after the last one;
ids never change because nothing completed is run again.

A :class:`StageStopped` raised by a stage is a result: it is recorded with its reason
(and the records it carries, e.g. the paths found before the stop) and ends the analysis.
Any other exception is recorded as ``failed`` and re-raised; the stage's records are then
not written.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, TypeVar

from pydantic import BaseModel, ValidationError

from aieco.config import redact
from aieco.errors import AiecoError, IntegrityError, StageStopped
from aieco.records import Record, StageRecord, StageStatus, digest, utc_now
from aieco.store import Store

R = TypeVar("R", bound=Record)

ProgressFn = Callable[[str, str, int, int], None]
"""progress(stage, event, index, total) with event in started|skipped|completed|stopped|failed|waiting."""


class StoreReader:
    """The read side of the store, which is all a stage needs to look records up."""

    def __init__(self, store: Store):
        self._store = store

    def find(self, cls: type[R], **where: Any) -> list[R]:
        return self._store.find(cls, **where)

    def get(self, cls: type[R], key: str) -> R | None:
        return self._store.get(cls, key)

    def require(self, cls: type[R], key: str) -> R:
        return self._store.require(cls, key)

    def get_tables(self, digest: str) -> dict[str, Any]:
        return self._store.get_tables(digest)

    def get_json(self, digest: str) -> Any:
        return self._store.get_json(digest)


@dataclass
class StageContext:
    """What a stage sees: its analysis, its typed inputs, earlier (typed) outputs, a reader and the LLM client.

    ``store`` is handed on only to the core functions that write during a stage for a reason
    (docs/architecture.md, "Where records are written"); a stage returns its own records.
    """

    store: Store
    analysis_id: str
    inputs: Any
    outputs: dict[str, Any] = field(default_factory=dict)
    stage: str = ""
    client: Any = None

    @property
    def read(self) -> StoreReader:
        return StoreReader(self.store)

    def stop(self, reason: str, records: Sequence[Record] = ()) -> NoReturn:
        """Stop the stage with ``reason``; ``records`` (produced before the stop) are stored with it."""
        raise StageStopped(reason, stage=self.stage, records=records)


@dataclass(frozen=True)
class StageResult:
    """A stage's typed output and the domain records it produced (the runner writes them)."""

    output: Any
    records: tuple[Record, ...] = ()


@dataclass(frozen=True)
class Stage:
    name: str
    run: Callable[[StageContext], Any]
    output: type[BaseModel] | None = None  # the typed output model (None: plain JSON)


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
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    return obj


def _hydrate(stage: Stage, stored: Any, digest: str) -> Any:
    """The stage's output as later stages see it: the typed model validated from its stored JSON."""
    if stage.output is None:
        return stored
    try:
        return stage.output.model_validate(stored)
    except ValidationError as exc:
        raise IntegrityError(
            f"the stored output {digest} of stage {stage.name} does not match {stage.output.__name__}: "
            f"{exc.errors()[0]['loc']} {exc.errors()[0]['msg']}",
            where=f"stage {stage.name}",
        ) from exc


def identity(inputs: Any) -> Any:
    """What the input digest covers: ``inputs.identity()`` when the inputs define it, else their JSON."""
    ident = getattr(inputs, "identity", None)
    return ident() if callable(ident) else _jsonable(inputs)


def stage_input_digest(inputs: Any, stage: str, previous: Sequence[str] = ()) -> str:
    """A stage's input digest: the inputs' identity, the stage's name and every earlier output digest."""
    return digest({"inputs": digest(identity(inputs)), "stage": stage, "previous": list(previous)})


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
    ctx = StageContext(store=store, analysis_id=analysis_id, inputs=inputs, client=client)
    previous: list[str] = []
    written: list[StageRecord] = []
    total = len(stages)

    def note(stage: str, event: str, i: int) -> None:
        if progress is not None:
            progress(stage, event, i, total)

    for i, stage in enumerate(stages):
        ctx.stage = stage.name
        input_digest = stage_input_digest(inputs, stage.name, previous)
        done = store.find(
            StageRecord,
            analysis_id=analysis_id,
            stage=stage.name,
            input_digest=input_digest,
            status=StageStatus.completed,
        )
        if done and done[-1].output_digest and store.has_artifact(done[-1].output_digest):
            ctx.outputs[stage.name] = _hydrate(stage, store.get_json(done[-1].output_digest), done[-1].output_digest)
            previous.append(done[-1].output_digest)
            note(stage.name, "skipped", i)
            continue
        note(stage.name, "started", i)
        started = utc_now()
        try:
            _refuse_other_inputs(store, analysis_id, stage.name, input_digest)
            output = stage.run(ctx)
            records: tuple[Record, ...] = ()
            if isinstance(output, StageResult):
                output, records = output.output, tuple(output.records)
            if stage.output is not None and not isinstance(output, stage.output):
                raise TypeError(f"stage {stage.name} returned {type(output).__name__}, not {stage.output.__name__}")
        except StageStopped as stop:
            status, reason = StageStatus.stopped, stop.reason
            rec = _record(store, analysis_id, stage.name, status, reason, input_digest, None, started, stop.records)
            written.append(rec)
            note(stage.name, "stopped", i)
            return RunOutcome(analysis_id, "stopped", stage.name, rec.reason, ctx.outputs, written)
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
        ctx.outputs[stage.name] = _hydrate(stage, store.get_json(out_digest), out_digest)
        previous.append(out_digest)
        written.append(
            _record(
                store, analysis_id, stage.name, StageStatus.completed, "", input_digest, out_digest, started, records
            )
        )
        note(stage.name, "completed", i)
    return RunOutcome(analysis_id, "completed", None, "", ctx.outputs, written)


def _refuse_other_inputs(store: Store, analysis_id: str, stage: str, input_digest: str) -> None:
    """A stage completed under this analysis from other inputs is never completed again beside it:
    two sets of records under one analysis id would make its claims point at two runs."""
    other = [
        r.input_digest
        for r in store.find(StageRecord, analysis_id=analysis_id, stage=stage, status=StageStatus.completed)
        if r.input_digest != input_digest
    ]
    if other:
        raise IntegrityError(
            f"stage {stage} of analysis {analysis_id} already completed from other inputs "
            f"({other[0][:16]}…, now {input_digest[:16]}…); running it again would write a second set of "
            "records under the same analysis id",
            where=f"analysis {analysis_id}",
            fix="run the request again through aieco analyze, which starts a new analysis version for new inputs",
        )


def _record(
    store: Store,
    analysis_id: str,
    stage: str,
    status: StageStatus,
    reason: str,
    input_digest: str,
    output_digest: str | None,
    started: Any,
    records: Sequence[Record] = (),
) -> StageRecord:
    """Write the stage's records and its StageRecord in one transaction."""
    reason = redact(reason)  # an LLM endpoint's error may carry the API key
    if status is not StageStatus.completed and not reason.strip():  # a stop is shown with its reason
        reason = f"stage {stage} {status.value} without giving a reason"
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
        store.put_many(records)  # existing ids are left as they are (content digests)
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
