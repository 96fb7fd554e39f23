"""The analysis: every repetition and risk program of a request, composed from the stages.

``analyze`` runs the analysis-wide stages (``aieco.analysis.stages.shared_stages``) and then
one program of risk stages per risk through the runner (``aieco.analysis.runner``), and
reports how each program ended and the agreement across repetitions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aieco.analysis.inputs import AnalysisInputs, ProgramInputs
from aieco.analysis.runner import ProgressFn, RunOutcome, run_stages
from aieco.errors import AiecoError
from aieco.records import utc_now
from aieco.store import Store

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
        return {
            "analysis_id": self.analysis_id,
            "risk": self.risk,
            "repetition": self.repetition,
            "status": self.status,
            "stopped_stage": self.stopped_stage,
            "reason": self.reason,
            "report_id": self.report_id,
        }


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
            out["agreement"] = {
                "pairs": self.agreement.pairs,
                "path_agreement": self.agreement.path_agreement,
                "warning_jaccard": self.agreement.warning_jaccard,
            }
        return out


def repetition_analysis(request: Any, repetition: int) -> Any:
    """The Analysis record of one repetition: the first is the digest of the request itself,
    later ones add their repetition number, so each keeps its own claims and reports."""
    from aieco.records import Analysis

    if repetition == 1:
        return request.analysis()
    return Analysis.create(
        request={**request.analysis_identity(), "repetition": repetition},
        label=f"{request.title} (repetition {repetition})",
        created_at=utc_now(),
    )


def current_version(store: Store, analysis: Any, inputs: AnalysisInputs, first_stage: str) -> Any:
    """``analysis``, or its first later version whose records were made from these inputs (or that has none).

    Analysis ids digest the request and the result settings off their defaults; when the
    records under an id were made from other inputs all the same (a default changed with the
    code, or a workspace written before settings were part of the id), these inputs get their
    own version (``"version": k`` added to the identity) instead of a second set of records
    under the old ids. The first stage's input digest says which inputs a version holds.
    """
    from aieco.analysis.runner import stage_input_digest
    from aieco.records import Analysis, StageRecord

    want = stage_input_digest(inputs, first_stage)
    candidate, version = analysis, 1
    while True:
        held = {r.input_digest for r in store.find(StageRecord, analysis_id=candidate.analysis_id, stage=first_stage)}
        if not held or want in held:
            return candidate
        version += 1
        candidate = Analysis.create(
            request={**analysis.request, "version": version},
            label=f"{analysis.label} (version {version})",
            created_at=utc_now(),
        )


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
        for b in reps[i + 1 :]:
            pa, pb = by_rep[a], by_rep[b]
            reached = sorted({r for r, p in pa.items() if p.reached} | {r for r, p in pb.items() if p.reached})
            if reached:
                agree = sum(
                    1
                    for r in reached
                    if r in pa
                    and r in pb
                    and pa[r].reached
                    and pb[r].reached
                    and set(pa[r].selected_paths) == set(pb[r].selected_paths)
                )
                path_scores.append(agree / len(reached))
            else:
                path_scores.append(1.0)
            wa = {(r, s) for r, p in pa.items() for s in p.warning_subjects}
            wb = {(r, s) for r, p in pb.items() for s in p.warning_subjects}
            warn_scores.append(len(wa & wb) / len(wa | wb) if wa | wb else 1.0)
    return Agreement(
        pairs=len(path_scores),
        path_agreement=sum(path_scores) / len(path_scores),
        warning_jaccard=sum(warn_scores) / len(warn_scores),
    )


def _program_outcome(
    analysis_id: str,
    risk: str,
    repetition: int,
    run: RunOutcome | None,
    shared_stop: RunOutcome | None,
    failure: str | None = None,
) -> ProgramOutcome:
    if shared_stop is not None:
        return ProgramOutcome(
            analysis_id, risk, repetition, shared_stop.status, shared_stop.stopped_stage, shared_stop.reason, None
        )
    if run is None:
        return ProgramOutcome(analysis_id, risk, repetition, "failed", None, failure or "", None)
    out = run.outputs  # the typed stage outputs (aieco.analysis.outputs)
    sel = out.get(f"{risk}/path_selection")
    rpt = out.get(f"{risk}/consistency")
    stage = run.stopped_stage.split("/", 1)[1] if run.stopped_stage and "/" in run.stopped_stage else run.stopped_stage
    return ProgramOutcome(
        analysis_id,
        risk,
        repetition,
        run.status,
        stage,
        run.reason,
        rpt.report_id if rpt is not None and run.status == "completed" else None,
        # a path is named by its query and relation sequence: path ids carry the analysis id
        selected_paths=tuple(sorted(f"{s.query_id}:{'>'.join(s.relation_ids)}" for s in sel.selections)) if sel else (),
        warning_subjects=tuple(sorted({w.subject for w in sel.warnings})) if sel else (),
        reached=sel is not None,
    )


def analyze(
    store: Store,
    request: Any,
    *,
    backend: str | None = None,
    progress: ProgressFn | None = None,
    replay_from: Any = None,
    llm_backend: Any = None,
) -> AnalysisOutcome:
    """Run the algorithm for ``request`` (an AnalysisRequest): every repetition, every risk program.

    ``backend`` overrides the request's backend (the analysis id follows the request, so
    another backend is another analysis) — except ``replay``, which re-executes the recorded
    analysis: the request keeps its recorded backend, so in a workspace built from the same
    sources every id is the recorded one. A stop ends only its risk program; re-running
    resumes after the last completed stage of each program with the same ids.
    """
    from aieco.agents import model_request
    from aieco.analysis.stages import register_models, risk_stages, shared_stages
    from aieco.llm import LLMClient, make_backend
    from aieco.review import decisions_digest

    register_models()  # from the catalog, whichever stages run: a resume may reload every earlier one

    engine_name = backend or request.backend
    if engine_name not in ("replay", request.backend):
        request = request.model_copy(update={"backend": engine_name})
    engine = llm_backend or make_backend(engine_name, store=store, replay_from=replay_from)
    programs: list[ProgramOutcome] = []
    first_id = None
    for rep in range(1, request.repetitions + 1):
        inputs = AnalysisInputs(request=request, repetition=rep, reviews=decisions_digest(store))
        stages = shared_stages()
        base = repetition_analysis(request, rep)
        # the version is chosen and its first stages run under one lock: a concurrent run from
        # other inputs then sees these records and takes the next version
        waiting = None
        if progress is not None:
            waiting = lambda first=stages[0].name, n=len(stages): progress(first, "waiting", 0, n)  # noqa: E731
        with store.run_lock(f"version-{base.analysis_id}", on_wait=waiting):
            analysis = current_version(store, base, inputs, stages[0].name)
            store.put(analysis)
            aid = analysis.analysis_id
            client = LLMClient(store, engine, aid, model=request.model_snapshot, validators=[model_request.contract])
            shared = run_stages(store, aid, stages, inputs, progress=progress, client=client)
        first_id = first_id or aid
        if shared.status != "completed":
            programs += [_program_outcome(aid, r.name, rep, None, shared) for r in request.risks]
            continue
        for risk in request.risks:
            run: RunOutcome | None = None
            failure = None
            try:
                program = ProgramInputs(**dict(inputs), risk=risk.name, shared=shared.outputs)
                run = run_stages(store, aid, risk_stages(risk.name), program, progress=progress, client=client)
            except AiecoError as exc:  # recorded as failed by the runner; the other risks continue
                failure = str(exc)
            programs.append(_program_outcome(aid, risk.name, rep, run, None, failure))
    return AnalysisOutcome(first_id or request.analysis_id, programs, agreement(programs))
