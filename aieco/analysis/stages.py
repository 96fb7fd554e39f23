"""The stages of the algorithm (paper §3.3, DESIGN §1), one function each.

Analysis-wide stages (one per repetition): request checks → planning (coordinator agent)
→ eligibility. Then, per risk program: retrieval → graph search → path selection
(evidence agent) → restriction derivation → model request (model request and testing
agents; OutputTests registered before any run) → execution (execution agent; the
registry runs every compatible model) → application (bank capital) → candidate
selection → output tests → report (report agent) → consistency (consistency agent).

Each stage reads the request and the typed outputs of earlier stages from its
:class:`StageContext` (``earlier(ctx, GraphSearchOutput)``), looks records up through
``ctx.read`` and returns its typed output (:mod:`aieco.analysis.outputs`), with the domain
records it produced as a :class:`StageResult`: the runner writes them with the StageRecord.
The core functions that still write during a stage are listed, with the reason, in
``docs/architecture.md``. A rule that refuses an input raises ``StageStopped`` through
``ctx.stop`` (with the records produced before it): the risk program stops there, recorded,
and the other risk programs continue.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from aieco.agents import consistency, coordinator, evidence, execution, model_request, report, testing
from aieco.analysis.inputs import AnalysisInputs, ProgramInputs
from aieco.analysis.outputs import (
    ApplicationOutput,
    Candidate,
    CandidateSelectionOutput,
    ChannelWithoutPath,
    ConsistencyOutput,
    EligibilityOutput,
    ExecutionOutput,
    GraphSearchOutput,
    ModelRequestOutput,
    OutputTestsOutput,
    PathSelectionOutput,
    PlanningOutput,
    ReportOutput,
    RequestChecksOutput,
    RestrictionDerivationOutput,
    RetrievalOutput,
    StageOutput,
)
from aieco.analysis.runner import Stage, StageContext, StageResult
from aieco.config import get_settings
from aieco.errors import InputError, StageStopped
from aieco.llm.base import LLMClient
from aieco.models import registry
from aieco.records import (
    ChannelQuery,
    ModelRequest,
    ModelRun,
    OutputTest,
    Path,
    Relation,
    Report,
    ReportSentence,
    Restriction,
    RunStatus,
    Source,
    SourceLocation,
    VariableSpec,
    digest,
)
from aieco.request import AnalysisRequest

SHARED_STAGES = ("request_checks", "planning", "eligibility")
RISK_STAGES = (
    "retrieval",
    "graph_search",
    "path_selection",
    "restriction_derivation",
    "model_request",
    "execution",
    "application",
    "candidate_selection",
    "output_tests",
    "report",
    "consistency",
)


# --------------------------------------------------------------------------- context


def inputs_of(ctx: StageContext) -> AnalysisInputs:
    return ctx.inputs


def program_of(ctx: StageContext) -> ProgramInputs:
    return ctx.inputs


def request_of(ctx: StageContext) -> AnalysisRequest:
    return inputs_of(ctx).request


def client_of(ctx: StageContext) -> LLMClient:
    return ctx.client


def risk_of(ctx: StageContext) -> str:
    return program_of(ctx).risk


O = TypeVar("O", bound=StageOutput)


def _typed(out: Any, output: type[O]) -> O:
    return out if isinstance(out, output) else output.model_validate(out)


def earlier(ctx: StageContext, output: type[O]) -> O:
    """The typed output of an earlier stage of the same program (stored as 'risk/stage')."""
    return _typed(ctx.outputs[program_of(ctx).prefix + output.stage], output)


def shared(ctx: StageContext, output: type[O]) -> O:
    """The typed output of an analysis-wide stage (same run, or handed to a risk program)."""
    name = output.stage
    return _typed(ctx.outputs[name] if name in ctx.outputs else program_of(ctx).shared[name], output)


def conditions(ctx: StageContext) -> dict[str, str]:
    return inputs_of(ctx).conditions


def refuse(ctx: StageContext, problems: list[str], what: str, records: Any = ()) -> None:
    if problems:
        ctx.stop(f"{what}: " + "; ".join(problems), records)


# --------------------------------------------------------------------------- models


def register_models() -> list[str]:
    """Register the models aieco ships (the explicit tuple of ``aieco.models.catalog``); every registered id."""
    from aieco.models.catalog import register_shipped

    return list(register_shipped())


# --------------------------------------------------------------------------- analysis-wide stages


def request_checks(ctx: StageContext) -> RequestChecksOutput:
    """Accepted request or rejection reason: vocabulary, models, dates (the rules of
    :func:`aieco.request.request_problems`, which the dashboard's check uses too)."""
    from aieco.request import request_problems

    req = request_of(ctx)
    refuse(ctx, request_problems(req, register_models()), "request refused")
    return RequestChecksOutput(
        accepted=True,
        risks=[r.name for r in req.risks],
        models=list(req.models),
        request_digest=digest(req.as_dict()),
        settings_digest=inputs_of(ctx).settings,
    )


def planning(ctx: StageContext) -> PlanningOutput:
    """The coordinator agent's plan, accepted only within the request."""
    req = request_of(ctx)
    inputs = coordinator.CoordinatorInput(
        application=req.application,
        jurisdictions=list(req.jurisdictions),
        sectors=list(req.sectors),
        horizon=req.horizon,
        cutoff=req.cutoff,
        outcomes=list(req.outcomes),
        allowed_roles=[r.value for r in req.allowed_roles],
        risks=[
            coordinator.RiskBrief(
                name=r.name,
                label=r.label or r.name.replace("_", " "),
                description=r.description,
                channels=[
                    coordinator.ChannelBrief(
                        id=c.id, source=c.source, movement=c.movement.value, target=c.target, expected=c.expected.value
                    )
                    for c in r.channels
                ],
            )
            for r in req.risks
        ],
    )
    plan = client_of(ctx).run(coordinator.TASK, inputs, stage=ctx.stage)
    refuse(ctx, coordinator.plan_problems(plan, inputs), "coordinator plan refused")
    return PlanningOutput.model_validate(plan.model_dump(mode="json"))


def as_of_of(ctx: StageContext) -> Any:
    """The request's AsOf under the plan's admissible roles."""
    return request_of(ctx).as_of(shared(ctx, PlanningOutput).admissible_roles)


def eligibility_of(ctx: StageContext) -> Any:
    """The request's eligibility split; its exclusions carry the analysis id (not yet stored)."""
    from aieco.sources.eligibility import eligible_locations

    return eligible_locations(ctx.store, as_of=as_of_of(ctx), analysis_id=ctx.analysis_id, write=False)


def eligibility(ctx: StageContext) -> StageResult:
    """Eligible source locations; every exclusion (returned, stored by the runner) has its reason."""
    result = eligibility_of(ctx)
    reasons: dict[str, int] = {}
    for exc in result.exclusions:
        reasons[exc.reason.value] = reasons.get(exc.reason.value, 0) + 1
    if not result.eligible:
        ctx.stop(
            f"no eligible source location at cutoff {request_of(ctx).cutoff} (exclusions: {reasons})",
            result.exclusions,
        )
    ids = sorted(loc.location_id for loc in result.eligible)
    out = EligibilityOutput(
        eligible=len(ids),
        eligible_digest=digest(ids),
        excluded=reasons,
        sources=len({loc.source_id for loc in result.eligible}),
    )
    return StageResult(out, tuple(result.exclusions))


# --------------------------------------------------------------------------- risk stages


def retrieval(ctx: StageContext) -> RetrievalOutput:
    """Hybrid retrieval (BM25 + LSA, RRF) under the request's AsOf, one query per channel.

    ``aieco.retrieval.search`` decides eligibility with the same AsOf as the eligibility stage
    (so nothing published after the cutoff comes back) and keeps its index as cached artifacts.
    """
    from aieco.retrieval import search
    from aieco.vocab import load_vocabulary

    vocab = load_vocabulary()
    as_of = as_of_of(ctx)
    locs = eligibility_of(ctx).eligible
    if digest(sorted(loc.location_id for loc in locs)) != shared(ctx, EligibilityOutput).eligible_digest:
        ctx.stop("the eligible source set changed since the eligibility stage; re-run the analysis")
    per_query: dict[str, list[str]] = {}
    for c in request_of(ctx).risk(risk_of(ctx)).channels:
        text = f"{vocab.get(c.source).label} {c.movement.value} {vocab.get(c.target).label} {c.expected.value}"
        per_query[c.id] = [h.location_id for h in search(ctx.store, text, as_of=as_of)]
    if not any(per_query.values()):
        ctx.stop("retrieval returned no eligible passage for any channel query")
    if request_of(ctx).retrieval_condition == "graph":
        return RetrievalOutput(passages=per_query)
    # Document RAG (and Hybrid's document half): the top eligible passages for the risk's query text
    from aieco.graph.constrained import risk_query_text

    risk = request_of(ctx).risk(risk_of(ctx))
    text = risk_query_text(
        risk.label or risk.name.replace("_", " "),
        risk.description,
        [v for c in risk.channels for v in (c.source, c.target)],
        vocab,
    )
    top = [h.location_id for h in search(ctx.store, text, as_of=as_of, top_k=get_settings().retrieval.top_k)]
    if not top:
        ctx.stop(f"document retrieval returned no eligible passage for the query text of {risk_of(ctx)}")
    return RetrievalOutput(passages=per_query, risk_query=text, risk_passages=top)


def graph_search(ctx: StageContext) -> StageResult:
    """Enumerate admissible signed paths per registered channel query in A(t) (≤ max_len relations, top k).

    The LLM writes no graph query: the queries are the request's registration. A channel
    query with no admissible path is recorded in ``channels_without_path`` with its reason and
    the risk goes on with its other channels (the paper's graph can retain several channels
    per risk; derivation then needs enough restrictions from the channels that remain). The
    risk program stops here only when no channel query has a path (its admissible set is
    empty), or when Hybrid's two representations require conflicting directions. Document
    RAG enumerates in the passage-constrained relation graph (``aieco.graph.constrained``).
    The ChannelQueries and Paths are returned to the runner, which stores them.
    """
    from aieco.graph.build import as_of_graph
    from aieco.graph.paths import enumerate_paths, no_path_reason

    req = request_of(ctx)
    risk = risk_of(ctx)
    specs = req.risk(risk).channels
    queries = req.channel_queries(risk)
    graph = as_of_graph(ctx.store, as_of_of(ctx), condition=req.graph_condition)
    ids = {spec.id: q.query_id for spec, q in zip(specs, queries, strict=True)}
    kw = {
        "analysis_id": ctx.analysis_id,
        "graph_condition": req.graph_condition,
        "retrieval_condition": req.retrieval_condition,
    }
    conflicts: list[str] = []
    if req.retrieval_condition == "graph":
        found = {q.query_id: enumerate_paths(graph, q, **kw) for q in queries}
        searched, where = graph, ""
    else:
        # Document RAG: paths of the passage-constrained relation graph (relations extracted from exactly
        # the retrieved passages); Hybrid: their non-conflicting union with the graph's own paths.
        from aieco.graph.constrained import hybrid_union, passage_constrained

        doc_graph = passage_constrained(graph, earlier(ctx, RetrievalOutput).risk_passages or [])
        found = {}
        for q in queries:
            found[q.query_id] = enumerate_paths(doc_graph, q, **kw)
            if req.retrieval_condition == "hybrid":
                union = hybrid_union(
                    found[q.query_id], enumerate_paths(graph, q, **kw), top_k=get_settings().graph.top_paths
                )
                found[q.query_id] = union.paths
                if union.conflict:
                    conflicts.append(union.conflict)
        # the digest below is of the graph the paths were enumerated in (Hybrid: the full graph too)
        searched = doc_graph if req.retrieval_condition == "document" else graph
        where = " in the passage-constrained relation graph" if req.retrieval_condition == "document" else ""
    records = [*queries, *(p for ps in found.values() for p in ps)]
    if conflicts:
        ctx.stop("; ".join(conflicts), records)
    gaps = [
        ChannelWithoutPath(
            channel_id=spec.id,
            query_id=q.query_id,
            source=q.source_var,
            target=q.target_var,
            reason=no_path_reason(searched, q) + (f" ({where.strip()})" if where else ""),
        )
        for spec, q in zip(specs, queries, strict=True)
        if not found[q.query_id]
    ]
    if len(gaps) == len(specs):
        ctx.stop(
            f"no admissible path{where} for any channel query of {risk}: "
            + "; ".join(f"{g.channel_id} ({g.source} → {g.target}): {g.reason}" for g in gaps),
            records,
        )
    out = GraphSearchOutput(
        paths={spec.id: [p.path_id for p in found[ids[spec.id]]] for spec in specs},
        queries=ids,
        graph_edges=searched.number_of_edges(),
        # the digest of A(t) itself: the relation ids the enumeration could use (paper, "Evaluation Records")
        graph_digest=digest(sorted(k for _, _, k in searched.edges(keys=True))),
        # Document RAG's older name for the same list (kept so earlier records keep their shape)
        unsupported_queries=[g.channel_id for g in gaps] if req.retrieval_condition == "document" else None,
        channels_without_path=gaps,
    )
    return StageResult(out, tuple(records))


def _evidence_input(ctx: StageContext) -> evidence.EvidenceInput:
    from aieco.retrieval import serialize_records

    req = request_of(ctx)
    found = earlier(ctx, GraphSearchOutput)
    specs = {c.id: c for c in req.risk(risk_of(ctx)).channels}
    path_ids = [pid for ids in found.paths.values() for pid in ids]
    paths = {p.path_id: p for p in ctx.read.find(Path, path_id=path_ids)}
    by_query = {qid: spec_id for spec_id, qid in found.queries.items()}
    candidates = [
        evidence.CandidatePath(
            path_id=p.path_id,
            query_id=by_query[p.query_id],
            rank=p.rank,
            score=p.score,
            variables=p.variables,
            signs=[s.value for s in p.signs],
            relation_ids=p.relation_ids,
            composed_sign=p.composed_sign.value,
            n_docs=p.n_docs,
        )
        for pid in path_ids
        for p in [paths[pid]]
    ]
    rel_ids = sorted({r for p in paths.values() for r in p.relation_ids})
    relations = ctx.read.find(Relation, relation_id=rel_ids)
    locations = {
        loc.location_id: loc
        for loc in ctx.read.find(SourceLocation, location_id=sorted({r.location_id for r in relations}))
    }
    sources = {s.source_id: s for s in ctx.read.find(Source, source_id=sorted({r.source_id for r in relations}))}
    rel_briefs = [
        evidence.RelationEvidence(
            relation_id=r.relation_id,
            src_var=r.src_var,
            dst_var=r.dst_var,
            sign=r.sign.value,
            evidence_class=r.evidence_class.value,
            quote=r.quote,
            source_title=sources[r.source_id].title if r.source_id in sources else "",
            page=locations[r.location_id].page if r.location_id in locations else None,
        )
        for r in relations
    ]
    # The retrieved passages share the request's byte budget, whole records only, best first.
    retrieved = earlier(ctx, RetrievalOutput)
    budget = req.byte_budget
    if req.retrieval_condition == "graph":
        order = []
        for ids in retrieved.passages.values():
            order += [i for i in ids if i not in order]
    else:  # Document RAG's top passages for the risk; Hybrid gives them half the budget
        from aieco.evaluation.comparison import byte_allocation

        order = list(retrieved.risk_passages or [])
        budget = byte_allocation(req.retrieval_condition, req.byte_budget)["documents"]
    locs = {loc.location_id: loc for loc in ctx.read.find(SourceLocation, location_id=order)}
    packed = serialize_records(({"location_id": i, "text": locs[i].text} for i in order if i in locs), budget=budget)
    passages = [line for line in packed.text.splitlines() if line]
    return evidence.EvidenceInput(
        risk=risk_of(ctx),
        queries=[
            evidence.QueryBrief(
                query_id=qid,
                source=specs[qid].source,
                movement=specs[qid].movement.value,
                target=specs[qid].target,
                expected=specs[qid].expected.value,
            )
            for qid in found.paths
        ],
        candidates=candidates,
        relations=rel_briefs,
        passages=passages,
    )


def path_selection(ctx: StageContext) -> PathSelectionOutput:
    """The evidence agent's choice among declared paths; any citation error stops the program."""
    inputs = _evidence_input(ctx)
    chosen = client_of(ctx).run(evidence.TASK, inputs, stage=ctx.stage)
    refuse(ctx, evidence.citation_problems(chosen, inputs), "evidence selection refused")
    if not chosen.selections:
        ctx.stop("the evidence agent selected no path")
    return PathSelectionOutput.model_validate(chosen.model_dump(mode="json"))


def restriction_derivation(ctx: StageContext) -> StageResult:
    """Compose each selected path's sign; refuse contradicting paths; derive prioritised restrictions.

    Fewer restrictions than the admissible models need stops the risk program here, before
    any model call, with the derivation record naming every assessed path (paper §5.4).
    """
    from aieco.scenario.derive import derive_restrictions

    req = request_of(ctx)
    found = earlier(ctx, GraphSearchOutput)
    selection = earlier(ctx, PathSelectionOutput)
    paths = ctx.read.find(Path, path_id=[s.path_id for s in selection.selections])
    queries = ctx.read.find(ChannelQuery, query_id=list(found.queries.values()))
    register_models()
    needs = [e.spec.min_restrictions for e in registry.registered() if e.spec.model_id in req.models]
    outcome = derive_restrictions(
        ctx.analysis_id,
        risk_of(ctx),
        queries,
        paths,
        min_restrictions=min(needs or [1]),
        horizon=req.horizon,
        **conditions(ctx),
    )
    records = (outcome.derivation, *outcome.restrictions)
    if outcome.stopped:  # the derivation record names every assessed path; it is stored with the stop
        gaps = found.channels_without_path
        ctx.stop(
            f"restriction derivation stopped the program before any model call: "
            f"risk {outcome.derivation.risk}: {outcome.derivation.reason} "
            f"(derivation {outcome.derivation.derivation_id})"
            + (f"; channels without a path: {', '.join(g.channel_id for g in gaps)}" if gaps else ""),
            records,
        )
    out = RestrictionDerivationOutput(
        derivation_id=outcome.derivation.derivation_id,
        restriction_ids=[r.restriction_id for r in outcome.restrictions],
        registration_digest=outcome.derivation.registration_digest,
    )
    return StageResult(out, records)


def _offered(req: AnalysisRequest) -> list[model_request.OfferedOutput]:
    return [
        model_request.OfferedOutput(
            model_id=e.spec.model_id,
            variable=o.variable,
            unit=o.unit,
            frequency=o.frequency,
            transformation=o.transformation,
        )
        for e in registry.registered()
        if e.spec.model_id in req.models
        for o in e.spec.outputs
    ]


def model_request_stage(ctx: StageContext) -> StageResult:
    """The model request (Eq. modelrequest) and its OutputTests, fixed before any model runs
    (the runner stores both with the stage record, before the execution stage starts)."""
    from aieco.reporting.bank import bank_claim_specs
    from aieco.reporting.claims import ClaimSpec, output_tests_for

    req = request_of(ctx)
    register_models()
    restrictions = ctx.read.find(Restriction, restriction_id=earlier(ctx, RestrictionDerivationOutput).restriction_ids)
    inputs = model_request.ModelRequestInput(
        risk=risk_of(ctx),
        restrictions=[
            model_request.RestrictionBrief(
                restriction_id=r.restriction_id,
                variable=r.variable,
                model_variable=r.model_variable,
                direction=r.direction,
                priority=r.priority,
            )
            for r in restrictions
        ],
        offered=_offered(req),
    )
    draft = client_of(ctx).run(model_request.TASK, inputs, stage=ctx.stage)
    unknown = model_request.unknown_outputs(draft, inputs)
    refuse(
        ctx,
        [f"output {v} is offered by no admissible model" for v in unknown]
        + ([] if draft.outputs else ["no output requested"]),
        "model request refused",
    )
    mreq = ModelRequest.create(
        analysis_id=ctx.analysis_id,
        risk=risk_of(ctx),
        outputs=[
            VariableSpec(
                variable=o.variable,
                unit=o.unit,
                frequency=o.frequency,
                transformation=o.transformation,
                horizon=req.horizon,
            )
            for o in draft.outputs
        ],
        restriction_ids=[r.restriction_id for r in restrictions],
        horizon=req.horizon,
        scope=req.jurisdictions[0],
        data_versions={"cutoff": req.cutoff.isoformat()},
        rationale=draft.rationale,
        **conditions(ctx),
    )
    compatible = [
        e.spec
        for e in registry.registered()
        if e.spec.model_id in req.models and not registry.incompatibilities(mreq, e.spec)
    ]
    years = [str(y) for y in range(req.years[0], req.years[1] + 1)]
    t_inputs = testing.TestingInput(
        risk=risk_of(ctx),
        outputs=[
            testing.OutputBrief(variable=o.variable, unit=o.unit, transformation=o.transformation)
            for o in draft.outputs
        ],
        periods=years,
        model_ids=[s.model_id for s in compatible],
    )
    plan = client_of(ctx).run(testing.TASK, t_inputs, stage=ctx.stage)
    refuse(ctx, testing.plan_problems(plan, t_inputs), "test registration refused", (mreq,))
    outputs = {o.variable: o for o in draft.outputs}
    specs = [
        ClaimSpec(
            analysis_id=ctx.analysis_id,
            risk=risk_of(ctx),
            variable=c.variable,
            unit=outputs[c.variable].unit,
            horizon=req.horizon,
            transformation=outputs[c.variable].transformation,
            period=c.period,
            model_id=s.model_id,
            statistic="selected",
            required_diagnostics=list(s.diagnostics_required),
        )
        for s in compatible
        for c in plan.claims
        if any(o.variable == c.variable for o in s.outputs)
    ]
    specs += scenario_figure_specs(ctx.analysis_id, risk_of(ctx), req.horizon, compatible)
    specs += bank_claim_specs(ctx.store, ctx.analysis_id, risk_of(ctx), req.horizon, outcomes=req.outcomes)
    tests = output_tests_for(specs)
    out = ModelRequestOutput(
        request_id=mreq.request_id, test_ids=[t.test_id for t in tests], claim_ids=[t.claim_id for t in tests]
    )
    return StageResult(out, (mreq, *tests))


def timed_restrictions(ctx: StageContext, restrictions: list[Restriction]) -> list[dict[str, Any]]:
    """Restriction payloads with ``years``: the horizon years their supporting relations time."""
    from aieco.models import macro
    from aieco.scenario.selection import evidence_years

    req = request_of(ctx)
    years = [str(y) for y in range(req.years[0], req.years[1] + 1)]
    out = []
    for payload, r in zip(macro.restriction_payload(restrictions), restrictions, strict=True):
        ids = list(r.supporting_relation_ids)
        phrases = [rel.horizon for rel in ctx.read.find(Relation, relation_id=ids)] if ids else []
        payload["years"] = list(evidence_years(phrases, years))
        out.append(payload)
    return out


def scenario_figure_specs(analysis_id: str, risk: str, horizon: str, compatible: list[Any]) -> list[Any]:
    """Claims of the scenario paragraph (cumulative, peak and end figures against the median path), registered
    with the annual ones before the models run: each compatible model's catalog entry says which it supplies
    (its ``scenario_figures`` hook)."""
    from aieco.models import catalog
    from aieco.reporting.claims import ClaimSpec

    specs = []
    for s in compatible:
        entry = catalog.find(s.model_id)
        if entry is None or entry.scenario_figures is None:
            continue
        specs += [
            ClaimSpec(
                analysis_id=analysis_id,
                risk=risk,
                variable=v,
                horizon=horizon,
                model_id=s.model_id,
                required_diagnostics=list(s.diagnostics_required),
                **fields,
            )
            for v, fields in entry.scenario_figures(horizon)
        ]
    return specs


def _model_inputs(ctx: StageContext, restrictions: list[Restriction]) -> Callable[[Any], Any]:
    """Each model's typed inputs, built by its catalog entry's input builder from this program's context
    (the request's AsOf passed on as it is)."""
    from aieco.models import catalog

    req = request_of(ctx)
    timed = tuple(timed_restrictions(ctx, restrictions))

    def inputs(spec: Any) -> Any:
        entry = catalog.find(spec.model_id)
        if entry is None or entry.build_inputs is None:
            ctx.stop(f"the pipeline has no input builder for model {spec.model_id}")
        return entry.build_inputs(
            catalog.InputContext(
                store=ctx.store,
                request=req,
                as_of=inputs_of(ctx).as_of(),
                risk=risk_of(ctx),
                restrictions=timed,
                seed=req.seed(inputs_of(ctx).repetition),
                repetition=inputs_of(ctx).repetition,
            )
        )

    return inputs


def execution_stage(ctx: StageContext) -> ExecutionOutput:
    """The execution agent confirms the plan; the registry runs every compatible model.

    ``registry.execute`` writes each ModelRun (running, then completed/failed/refused) with its
    output points itself: a run is recorded as started before the model is called, so a crash
    or kill leaves its record (docs/architecture.md)."""
    req = request_of(ctx)
    register_models()  # a resumed analysis reloads the earlier stages without running them
    mreq = ctx.read.require(ModelRequest, earlier(ctx, ModelRequestOutput).request_id)
    admissible = [e for e in registry.registered() if e.spec.model_id in req.models]
    if not admissible:
        ctx.stop(f"none of the request's models {list(req.models)} is registered")
    refused = {e.spec.model_id: registry.incompatibilities(mreq, e.spec) for e in admissible}
    compatible = sorted(m for m, why in refused.items() if not why)
    plan_in = execution.ExecutionInput(
        request_id=mreq.request_id,
        compatible=compatible,
        refused={m: w for m, w in refused.items() if w},
        seed=req.seed(inputs_of(ctx).repetition),
    )
    plan = client_of(ctx).run(execution.TASK, plan_in, stage=ctx.stage)
    refuse(ctx, execution.plan_problems(plan, plan_in), "execution plan refused")
    if not compatible:
        ctx.stop("no compatible model specification: " + "; ".join(f"{m}: {', '.join(w)}" for m, w in refused.items()))
    restrictions = ctx.read.find(Restriction, restriction_id=mreq.restriction_ids)
    runs = []
    inputs = _model_inputs(ctx, restrictions)
    for entry in admissible:
        if entry.spec.model_id in compatible:
            runs.append(registry.execute(ctx.store, entry, mreq, inputs(entry.spec), seed=plan.seed))
    done = [r for r in runs if r.status == RunStatus.completed]
    if not done:
        ctx.stop("no model run completed: " + "; ".join(f"{r.model_id} {r.status.value}: {r.reason}" for r in runs))
    return ExecutionOutput(
        run_ids=[r.run_id for r in runs],
        completed=[r.run_id for r in done],
        status={r.run_id: r.status.value for r in runs},
    )


def application(ctx: StageContext) -> ApplicationOutput:
    """Bank capital under each completed macro run's selected scenario (FE-OLS and FE-QAR on the
    workspace's bank panel) and, when the workspace holds real EBA bank data, the real banks."""
    from aieco.models.bank.eba_application import real_bank_conclusions
    from aieco.models.bank.spec import ensure_validation_gates, passing_gate, run_bank_models

    seed = inputs_of(ctx).seed
    as_of = inputs_of(ctx).as_of()
    # Real EBA banks (workspace records released by the cutoff): the real-data model runs only
    # under a passed real-data gate; otherwise its stop and reason are this stage's recorded result.
    # bank stage hook (issue 31): the scenario-conditional real model runs under each completed macro run
    real = real_bank_conclusions(
        ctx.store,
        ctx.analysis_id,
        as_of=as_of,
        seed=seed,
        parent_runs=list(earlier(ctx, ExecutionOutput).completed),
        horizon=request_of(ctx).horizon,
        risk=risk_of(ctx),
    )
    # The bank data are workspace records (any provenance) released by the cutoff; a workspace
    # without them stops here with that reason (aieco.models.bank.workspace) — no other data stands in.
    # The external validation gate decides whether a bank model may supply bank conclusions
    # (appendix "Bank Models and External Validation"); it is computed once per workspace.
    results: dict[str, Any] = {}
    gates: list = []
    fe_note = ""
    try:
        _, gates = ensure_validation_gates(ctx.store, ctx.analysis_id, seed=seed, as_of=as_of)
        for run in ctx.read.find(ModelRun, run_id=earlier(ctx, ExecutionOutput).completed):
            bank = run_bank_models(
                ctx.store, ctx.analysis_id, run.run_id, seed, risk=risk_of(ctx), conditions=conditions(ctx), as_of=as_of
            )
            results[run.run_id] = {b.run_id: b.status.value for b in bank}
    except StageStopped as exc:
        if real is None:
            raise
        fe_note = f"FE-OLS/FE-QAR not run: {exc.reason}"
    except InputError as exc:
        if real is None:
            ctx.stop(f"bank application impossible with the workspace's bank data: {exc}")
        fe_note = f"FE-OLS/FE-QAR not run: {exc}"
    # A gate on synthetic data never authorises a conclusion about a real bank.
    may_conclude = {
        m: passing_gate(ctx.store, m, real_banks=bool(real)) is not None for m in ("bank_feols", "bank_feqar")
    }
    return ApplicationOutput(
        bank_runs=results,
        gates=sorted(g.gate_id for g in gates),
        may_supply_conclusions=may_conclude,
        real_banks=real,
        fe_models=(fe_note or "run on the workspace's bank panel") if real is not None else None,
    )


def candidate_selection(ctx: StageContext) -> CandidateSelectionOutput:
    """The fixed criterion: highest severity S_{s,k}; an exact tie goes to the smallest run id."""
    runs = ctx.read.find(ModelRun, run_id=earlier(ctx, ExecutionOutput).completed)
    scored = []
    for run in runs:
        tables = ctx.read.get_tables(run.output_digest) if run.output_digest else {}
        sel = tables.get("selection")
        if sel is None or risk_of(ctx) not in sel.index:
            continue
        scored.append(
            (float(sel.loc[risk_of(ctx), "severity"]), run.run_id, int(float(sel.loc[risk_of(ctx), "simulation_id"])))
        )
    if not scored:
        ctx.stop("no completed run selected a scenario satisfying the restrictions")
    best = sorted(scored, key=lambda t: (-t[0], t[1]))[0]
    return CandidateSelectionOutput(
        run_id=best[1],
        severity=best[0],
        simulation_id=best[2],
        candidates=[Candidate(run_id=r, severity=s, simulation_id=i) for s, r, i in scored],
    )


def output_tests(ctx: StageContext) -> StageResult:
    """Link the registered OutputTests to the selected run's points (Eq. outputtestpass).

    The Claims and the result OutputTests (pass or fail, each with its reason) are returned to
    the runner, which stores them with the stage record — also when a failed test stops the stage.
    The bank claims link to the bank run of the selected path (none when the bank part stopped).
    """
    from aieco.reporting.bank import bank_claims_and_results
    from aieco.reporting.claims import claims_and_results

    run = ctx.read.require(ModelRun, earlier(ctx, CandidateSelectionOutput).run_id)
    registered = ctx.read.find(OutputTest, test_id=earlier(ctx, ModelRequestOutput).test_ids)
    claims, results = claims_and_results(ctx.store, run, registered)
    bank_claims, bank_results = bank_claims_and_results(ctx.store, run, registered)
    claims, results = claims + bank_claims, results + bank_results
    records = (*claims, *results)
    failed = [f"{t.claim_id}: {t.detail}" for t in results if t.result != "pass"]
    refuse(ctx, failed, "output tests failed", records)
    return StageResult(
        OutputTestsOutput(passed=[t.claim_id for t in results], result_ids=[t.test_id for t in results]), records
    )


def report_stage(ctx: StageContext) -> StageResult:
    """The report agent writes NUM tokens and citations; the renderer checks and stores it."""
    from aieco.reporting.render import render_report

    req = request_of(ctx)
    gaps = earlier(ctx, GraphSearchOutput).channels_without_path  # said in the report, never told
    context = report.context(
        ctx.store,
        analysis_id=ctx.analysis_id,
        request=req,
        risk=risk_of(ctx),
        selections=[s.model_dump(mode="json") for s in earlier(ctx, PathSelectionOutput).selections],
        claim_ids=earlier(ctx, OutputTestsOutput).passed,
        channels_without_path=[g.model_dump(mode="json") for g in gaps],
    )
    draft = client_of(ctx).run(report.TASK, context, stage=ctx.stage)
    refuse(ctx, report.draft_problems(ctx.store, ctx.analysis_id, draft, context), "report refused")
    try:
        rendered = render_report(
            ctx.store, ctx.analysis_id, draft, cutoff=req.cutoff, horizon=req.horizon, write=False, **conditions(ctx)
        )
    except StageStopped as stop:  # the failed report is a result: stored with the stop
        ctx.stop(stop.reason, stop.records)
    return StageResult(ReportOutput(report_id=rendered.report.report_id), (rendered.report, *rendered.sentences))


def consistency_stage(ctx: StageContext) -> ConsistencyOutput:
    """After rendering: the program's contract, attribution and sign rules, then the consistency agent."""
    from aieco.reporting.render import check_report_draft, stored_draft

    rpt = ctx.read.require(Report, earlier(ctx, ReportOutput).report_id)
    draft, _, _ = stored_draft(rpt)
    violations = [str(v) for v in check_report_draft(ctx.store, ctx.analysis_id, draft, phase="execution")]
    sentences = sorted(ctx.read.find(ReportSentence, report_id=rpt.report_id), key=lambda s: s.position)
    rels = {r.relation_id: r for r in ctx.read.find(Relation, relation_id=rpt.relation_ids)}
    view = consistency.ConsistencyInput(
        risk=risk_of(ctx),
        sentences=[
            consistency.SentenceView(
                position=s.position,
                kind=s.kind.value,
                rendered=s.rendered,
                cited_relations=[
                    f"{rels[r].src_var} -> {rels[r].dst_var} ({rels[r].sign.value})"
                    for r in s.cited_relation_ids
                    if r in rels
                ],
            )
            for s in sentences
        ],
        program_violations=violations,
    )
    verdict = client_of(ctx).run(consistency.TASK, view, stage=ctx.stage)
    refuse(ctx, violations, "consistency check failed")
    refuse(
        ctx,
        [f"sentence {p.position}: {p.problem}" for p in verdict.problems]
        or ([] if verdict.accept else ["the consistency agent refused the report"]),
        "consistency agent",
    )
    return ConsistencyOutput(report_id=rpt.report_id, accepted=True)


def shared_stages() -> list[Stage]:
    return [
        Stage("request_checks", request_checks, RequestChecksOutput),
        Stage("planning", planning, PlanningOutput),
        Stage("eligibility", eligibility, EligibilityOutput),
    ]


RISK_STAGE_FUNCTIONS: dict[str, tuple[Callable[[StageContext], Any], type[StageOutput]]] = {
    "retrieval": (retrieval, RetrievalOutput),
    "graph_search": (graph_search, GraphSearchOutput),
    "path_selection": (path_selection, PathSelectionOutput),
    "restriction_derivation": (restriction_derivation, RestrictionDerivationOutput),
    "model_request": (model_request_stage, ModelRequestOutput),
    "execution": (execution_stage, ExecutionOutput),
    "application": (application, ApplicationOutput),
    "candidate_selection": (candidate_selection, CandidateSelectionOutput),
    "output_tests": (output_tests, OutputTestsOutput),
    "report": (report_stage, ReportOutput),
    "consistency": (consistency_stage, ConsistencyOutput),
}


def risk_stages(risk: str) -> list[Stage]:
    """The program of one risk; stage names are 'risk/stage' so programs never share a record."""
    return [Stage(f"{risk}/{name}", *RISK_STAGE_FUNCTIONS[name]) for name in RISK_STAGES]
