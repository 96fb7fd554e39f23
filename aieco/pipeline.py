"""The analysis pipeline: the stage runner (here) and, later, the paper's stages.

A stage is a function of a :class:`StageContext` returning a JSON-serialisable output
(a pydantic model, dict, list or scalar). Its output is stored as an artifact and its
digest goes into the StageRecord. Each stage's input digest covers the analysis inputs
and the output digests of every earlier stage, so re-running with the same inputs
finds the completed stages, reloads their outputs and resumes after the last one;
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
    """What a stage sees: the store, its analysis, the inputs and earlier outputs."""

    store: Store
    analysis_id: str
    inputs: Any
    outputs: dict[str, Any] = field(default_factory=dict)
    stage: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

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


def run_stages(
    store: Store,
    analysis_id: str,
    stages: Sequence[Stage],
    inputs: Any,
    *,
    progress: ProgressFn | None = None,
    extra: dict[str, Any] | None = None,
) -> RunOutcome:
    """Run ``stages`` in order for ``analysis_id``, resuming after completed ones."""
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
        return _run_stages(store, analysis_id, stages, inputs, progress=progress, extra=extra)


def _run_stages(store: Store, analysis_id: str, stages: Sequence[Stage], inputs: Any, *,
                progress: ProgressFn | None, extra: dict[str, Any] | None) -> RunOutcome:
    inputs_digest = digest(_jsonable(inputs))
    ctx = StageContext(store=store, analysis_id=analysis_id, inputs=inputs, extra=extra or {})
    previous: list[str] = []
    written: list[StageRecord] = []
    total = len(stages)

    def note(stage: str, event: str, i: int) -> None:
        if progress is not None:
            progress(stage, event, i, total)

    for i, stage in enumerate(stages):
        ctx.stage = stage.name
        input_digest = digest({"inputs": inputs_digest, "stage": stage.name, "previous": previous})
        done = store.find(StageRecord, analysis_id=analysis_id, stage=stage.name,
                          input_digest=input_digest, status=StageStatus.completed)
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
            rec = _record(store, analysis_id, stage.name, StageStatus.stopped, stop.reason,
                          input_digest, None, started)
            written.append(rec)
            note(stage.name, "stopped", i)
            return RunOutcome(analysis_id, "stopped", stage.name, stop.reason, ctx.outputs, written)
        except BaseException as exc:
            reason = str(exc) if isinstance(exc, AiecoError) else (
                f"{type(exc).__name__}: {exc} | {traceback.format_exc(limit=3).strip().splitlines()[-1]}")
            rec = _record(store, analysis_id, stage.name, StageStatus.failed, reason,
                          input_digest, None, started)
            written.append(rec)
            note(stage.name, "failed", i)
            raise
        out_json = _jsonable(output)
        out_digest = store.put_json(out_json, kind=f"stage:{stage.name}")
        ctx.outputs[stage.name] = store.get_json(out_digest)
        previous.append(out_digest)
        written.append(_record(store, analysis_id, stage.name, StageStatus.completed, "",
                               input_digest, out_digest, started))
        note(stage.name, "completed", i)
    return RunOutcome(analysis_id, "completed", None, "", ctx.outputs, written)


def _record(store: Store, analysis_id: str, stage: str, status: StageStatus, reason: str,
            input_digest: str, output_digest: str | None, started: Any) -> StageRecord:
    rec = StageRecord.create(analysis_id=analysis_id, stage=stage, status=status, reason=reason,
                             input_digest=input_digest, output_digest=output_digest,
                             started_at=started, ended_at=utc_now())
    with store.transaction():  # a stage completes once per input (the store refuses a second record)
        if status is StageStatus.completed:
            done = store.find(StageRecord, analysis_id=analysis_id, stage=stage, input_digest=input_digest,
                              status=StageStatus.completed, limit=1)
            if done:
                return done[0]
        store.put(rec)
    return rec


# --------------------------------------------------------------------------- the analysis


@dataclass(frozen=True)
class ProgramOutcome:
    """How one risk program of one repetition ended."""

    analysis_id: str
    risk: str
    repetition: int
    status: str  # completed | stopped | failed
    stopped_stage: str | None
    reason: str
    report_id: str | None
    selected_paths: tuple[str, ...] = ()
    warning_subjects: tuple[str, ...] = ()
    reached: bool = False  # the evidence agent's selection was accepted

    def as_json(self) -> dict[str, Any]:
        return {"analysis_id": self.analysis_id, "risk": self.risk, "repetition": self.repetition,
                "status": self.status, "stopped_stage": self.stopped_stage, "reason": self.reason,
                "report_id": self.report_id}


@dataclass(frozen=True)
class Agreement:
    """Agreement across repetitions (paper §5.4): over all pairs, an unreached risk disagrees."""

    pairs: int
    path_agreement: float
    warning_jaccard: float


@dataclass(frozen=True)
class AnalysisOutcome:
    analysis_id: str
    programs: list[ProgramOutcome]
    agreement: Agreement | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"analyses": [p.as_json() for p in self.programs]}
        if self.agreement is not None:
            out["agreement"] = {"pairs": self.agreement.pairs, "path_agreement": self.agreement.path_agreement,
                                "warning_jaccard": self.agreement.warning_jaccard}
        return out


def repetition_analysis(request: Any, repetition: int) -> Any:
    """The Analysis record of one repetition: the first is the digest of the request itself,
    later ones add their repetition number, so each keeps its own claims and reports."""
    from aieco.records import Analysis

    if repetition == 1:
        return request.analysis()
    return Analysis.create(request={**request.as_dict(), "repetition": repetition},
                           label=f"{request.title} (repetition {repetition})", created_at=utc_now())


def agreement(programs: Sequence[ProgramOutcome]) -> Agreement | None:
    """Path agreement and Jaccard similarity of warning subjects over all pairs of repetitions.

    For each pair, the risks reached by either repetition are compared; a risk reached by
    only one counts as disagreement; two reached risks agree when they select the same set
    of paths. Warning subjects are compared as (risk, subject) sets; two empty sets agree.
    """
    by_rep: dict[int, dict[str, ProgramOutcome]] = {}
    for p in programs:
        by_rep.setdefault(p.repetition, {})[p.risk] = p
    reps = sorted(by_rep)
    if len(reps) < 2:
        return None
    path_scores, warn_scores = [], []
    for i, a in enumerate(reps):
        for b in reps[i + 1:]:
            pa, pb = by_rep[a], by_rep[b]
            reached = sorted({r for r, p in pa.items() if p.reached} | {r for r, p in pb.items() if p.reached})
            if reached:
                agree = sum(1 for r in reached if r in pa and r in pb and pa[r].reached and pb[r].reached
                            and set(pa[r].selected_paths) == set(pb[r].selected_paths))
                path_scores.append(agree / len(reached))
            else:
                path_scores.append(1.0)
            wa = {(r, s) for r, p in pa.items() for s in p.warning_subjects}
            wb = {(r, s) for r, p in pb.items() for s in p.warning_subjects}
            warn_scores.append(len(wa & wb) / len(wa | wb) if wa | wb else 1.0)
    return Agreement(pairs=len(path_scores), path_agreement=sum(path_scores) / len(path_scores),
                     warning_jaccard=sum(warn_scores) / len(warn_scores))


def _program_outcome(analysis_id: str, risk: str, repetition: int, run: RunOutcome | None,
                     shared_stop: RunOutcome | None, failure: str | None = None) -> ProgramOutcome:
    if shared_stop is not None:
        return ProgramOutcome(analysis_id, risk, repetition, shared_stop.status, shared_stop.stopped_stage,
                              shared_stop.reason, None)
    if run is None:
        return ProgramOutcome(analysis_id, risk, repetition, "failed", None, failure or "", None)
    out = run.outputs
    sel = out.get(f"{risk}/path_selection")
    rpt = out.get(f"{risk}/consistency") or {}
    stage = run.stopped_stage.split("/", 1)[1] if run.stopped_stage and "/" in run.stopped_stage else run.stopped_stage
    return ProgramOutcome(
        analysis_id, risk, repetition, run.status, stage, run.reason,
        rpt.get("report_id") if run.status == "completed" else None,
        # a path is named by its query and relation sequence: path ids carry the analysis id
        selected_paths=tuple(sorted(f"{s['query_id']}:{'>'.join(s['relation_ids'])}" for s in sel["selections"]))
        if sel else (),
        warning_subjects=tuple(sorted({w["subject"] for w in sel.get("warnings", [])})) if sel else (),
        reached=sel is not None)


def analyze(store: Store, request: Any, *, backend: str | None = None, progress: ProgressFn | None = None,
            replay_from: Any = None, llm_backend: Any = None) -> AnalysisOutcome:
    """Run the algorithm for ``request`` (an AnalysisRequest): every repetition, every risk program.

    ``backend`` overrides the request's backend (the analysis id follows the request, so
    another backend is another analysis) — except ``replay``, which re-executes the recorded
    analysis: the request keeps its recorded backend, so in a workspace built from the same
    sources every id is the recorded one. A stop ends only its risk program; re-running
    resumes after the last completed stage of each program with the same ids.
    """
    from aieco.agents import model_request
    from aieco.llm import LLMClient, make_backend
    from aieco.stages import risk_stages, settings_digest, shared_stages

    engine_name = backend or request.backend
    if engine_name not in ("replay", request.backend):
        request = request.model_copy(update={"backend": engine_name})
    engine = llm_backend or make_backend(engine_name, store=store, replay_from=replay_from)
    programs: list[ProgramOutcome] = []
    first_id = request.analysis_id
    for rep in range(1, request.repetitions + 1):
        analysis = repetition_analysis(request, rep)
        store.put(analysis)
        aid = analysis.analysis_id
        client = LLMClient(store, engine, aid, model=request.model_snapshot, validators=[model_request.contract])
        extra = {"request": request, "client": client, "repetition": rep}
        # the configuration digest is part of every stage's input: a changed setting re-runs
        # the stages it could affect instead of resuming from outputs made under other settings
        inputs = {"request": request.as_dict(), "repetition": rep, "settings": settings_digest()}
        shared = run_stages(store, aid, shared_stages(), inputs, progress=progress, extra=extra)
        if shared.status != "completed":
            programs += [_program_outcome(aid, r.name, rep, None, shared) for r in request.risks]
            continue
        for risk in request.risks:
            run: RunOutcome | None = None
            failure = None
            try:
                run = run_stages(store, aid, risk_stages(risk.name),
                                 {**inputs, "risk": risk.name, "shared": [shared.outputs[s] for s in shared.outputs]},
                                 progress=progress,
                                 extra={**extra, "risk": risk.name, "prefix": f"{risk.name}/",
                                        "shared": shared.outputs})
            except AiecoError as exc:  # recorded as failed by the runner; the other risks continue
                failure = str(exc)
            programs.append(_program_outcome(aid, risk.name, rep, run, None, failure))
    return AnalysisOutcome(first_id, programs, agreement(programs))
