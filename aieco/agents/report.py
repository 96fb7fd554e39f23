"""Report agent: accepted evidence, selected channels and passed claims → a structured report.

Numbers appear only as ``{{NUM:claim_id}}`` tokens of passed claims and dates only as
``{{DATE:…}}``; a directional sentence cites accepted relations. The draft is checked by
the same numeric contract and attribution rules before and after rendering
(aieco.reporting). Offline, the agent is the deterministic report writer.
"""

from __future__ import annotations

import re
from typing import Any

from aieco.llm.base import Prompt, Task
from aieco.models.catalog import is_bank
from aieco.records import (
    Claim,
    Derivation,
    ModelOutputPoint,
    ModelRun,
    ObservedValue,
    Relation,
    Restriction,
    RunStatus,
    Source,
    SourceLocation,
)
from aieco.reporting.bank import claim_model_gate_failed
from aieco.reporting.render import check_report_draft, short_reference
from aieco.reporting.rules import variable_label
from aieco.reporting.schema import (
    ChannelGap,
    ClaimBrief,
    ProvenanceBrief,
    RelationBrief,
    ReportContext,
    ReportDraft,
)
from aieco.reporting.writer import write_report
from aieco.review import review_state
from aieco.store import Store

PROMPT = Prompt(
    name="report",
    version="10",
    system=(
        "You are the report agent of an evidence-traceable scenario analysis. You write a short scenario "
        "report as connected prose from accepted relations and registered model outputs. You never write a "
        "number, a year or a quantity in words: every value is a {{NUM:claim_id}} token of a listed claim and "
        "every date a {{DATE:horizon}} or {{DATE:cutoff}} token."
    ),
    instructions=(
        "Write sentences of kind qualitative (a mechanism step; cite its relation ids in "
        "cited_relation_ids, never inside a token), temporal (dates as DATE tokens) or numerical (values "
        "as NUM tokens of the listed claim ids, listed in claim_ids). Use neutral verbs for values: the "
        "sign of a rendered value must not contradict the sentence's wording. Name the variable of every "
        "value next to its token. Write one paragraph per path (paragraph 'channel:<n>': where the "
        "channel runs, then each step as cause then effect, 'a rise/fall in X lifts/weighs on Y', agreeing "
        "with the cited relation's sign; never negate a cited effect, never make Y the cause of X, never state "
        "two movements without saying which causes which), then paragraph 'channel:none' naming any "
        "channels_without_path (no mechanism, no citation), then paragraph 'scenario' (the inputs' provenance "
        "and estimation sample as "
        "given, then cumulative real GDP, peak unemployment, cumulative house-price and equity-price "
        "change, each against the median path, then one temporal sentence naming the "
        "unrestricted_variables: no channel restricts them, so their paths are the model's joint response "
        "with the restricted variables, not a direction the cited evidence sets), then 'annual', then 'bank' when "
        "bank_requested (the "
        "cross-bank CET1 depletion against the CET1 threshold, saying the bank data's bank_provenance in "
        "every sentence with a bank figure unless it is real, or why the bank part is absent). The title "
        "has no number."
    ),
)

TASK: Task[ReportContext, ReportDraft] = Task(
    name="write_report", prompt=PROMPT, input_schema=ReportContext, output_schema=ReportDraft, offline=write_report
)


def label(variable: str) -> str:
    """A readable variable name for prose (:func:`aieco.reporting.rules.variable_label`)."""
    return variable_label(variable)


def context(
    store: Store,
    *,
    analysis_id: str,
    request: Any,
    risk: str,
    selections: list[dict[str, Any]],
    claim_ids: list[str],
    channels_without_path: list[dict[str, Any]] | None = None,
) -> ReportContext:
    """What the writer may use: the selected paths the restriction derivation accepted (their
    accepted relations with references and quotes), the passed claims, the inputs' provenance
    and the bank models' status.

    A relation an analyst's review took out of use (aieco.review) is never offered either."""

    refused = _refused_paths(store, analysis_id, risk)
    kept = [s for s in selections if s.get("path_id") not in refused]
    paths = [list(s["relation_ids"]) for s in kept]
    movements = {c.id: c.movement.direction for c in request.risk(risk).channels}
    directions = [movements.get(s.get("query_id"), 1) for s in kept]
    rel_ids = sorted({r for p in paths for r in p})
    relations = [r for r in store.find(Relation, relation_id=rel_ids) if r.review_decision == "accepted"]
    sources = {s.source_id: s for s in store.find(Source, source_id=sorted({r.source_id for r in relations}))}
    locations = {
        loc.location_id: loc
        for loc in store.find(SourceLocation, location_id=sorted({r.location_id for r in relations}))
    }
    briefs = [
        RelationBrief(
            relation_id=r.relation_id,
            src_var=r.src_var,
            dst_var=r.dst_var,
            src_label=label(r.src_var),
            dst_label=label(r.dst_var),
            sign=r.sign.value,
            reference=short_reference(sources[r.source_id], locations[r.location_id]),
            quote=r.quote,
        )
        for r in relations
        if r.sign.value in ("+", "-") and review_state(store, r.relation_id) is None
    ]
    claims = store.find(Claim, claim_id=claim_ids)
    points = {p.point_id: p for p in store.find(ModelOutputPoint, point_id=[c.point_id for c in claims])}
    claim_briefs = []
    for c in sorted(claims, key=lambda c: (c.period, c.variable, c.transformation, c.statistic)):
        value = points[c.point_id].value if c.point_id in points else None
        sign = None if value is None else (1 if value > 0 else -1 if value < 0 else 0)
        claim_briefs.append(
            ClaimBrief(
                claim_id=c.claim_id,
                variable=c.variable,
                label=label(c.variable),
                period=c.period,
                unit=c.unit,
                transformation=c.transformation,
                sign=sign,
                statistic=c.statistic,
            )
        )
    spec = request.risk(risk)
    runs = store.find(ModelRun, analysis_id=analysis_id)
    macro_runs = sorted({c.run_id for c in claims if not is_bank(c.model_id)})
    kept_paths = {s.get("path_id") for s in kept}
    restricted = {
        r.model_variable
        for r in store.find(Restriction, analysis_id=analysis_id, risk=risk)
        if r.path_id in kept_paths and r.model_variable
    }
    macro_variables = {c.variable for c in claims if not is_bank(c.model_id)}
    return ReportContext(
        analysis_id=analysis_id,
        risk=risk,
        risk_label=(spec.label or risk.replace("_", " ")).lower(),
        cutoff=request.cutoff,
        horizon=request.horizon,
        paths=paths,
        path_directions=directions,
        relations=briefs,
        claims=claim_briefs,
        provenance=provenance(
            store, [r for r in runs if r.run_id in macro_runs], [sources[r.source_id] for r in relations]
        ),
        channels_without_path=[
            ChannelGap(
                src_var=g["source"], dst_var=g["target"], src_label=label(g["source"]), dst_label=label(g["target"])
            )
            for g in channels_without_path or []
        ],
        # said only beside restrictions (a context without them has no derivation to compare with)
        unrestricted_variables=sorted(macro_variables - restricted) if restricted else [],
        bank_requested="cet1_ratio" in getattr(request, "outcomes", []),
        bank_status=bank_status(
            runs, claim_briefs, gates_failed=bank_gates_failed(store) or claim_model_gate_failed(store)
        ),
        bank_starts=bank_starts(store, analysis_id, risk),
        **bank_source(runs, claims),
    )


def bank_starts(store: Store, analysis_id: str, risk: str) -> list[dict[str, Any]]:
    """The real banks' starting points the application stage recorded (empty without real bank data)."""
    from aieco.records import StageRecord

    recs = store.find(StageRecord, analysis_id=analysis_id, stage=f"{risk}/application")
    out: list[dict[str, Any]] = []
    for rec in recs:
        if rec.output_digest is None:
            continue
        real = (store.get_json(rec.output_digest) or {}).get("real_banks") or {}
        for point in real.get("starting_points") or []:
            item = {"kind": point["kind"], "actual_year": int(point["actual_year"])}
            if item not in out:
                out.append(item)
    return sorted(out, key=lambda i: -i["actual_year"])


def bank_source(runs: list[ModelRun], claims: list[Claim]) -> dict[str, Any]:
    """The model and data provenance of the bank run the bank claims link to (from its record)."""
    bank_runs = {c.run_id for c in claims if is_bank(c.model_id)}
    for r in runs:
        if r.run_id in bank_runs:
            prov = str(r.diagnostics.get("provenance") or "undeclared")
            return {"bank_model": r.model_id, "bank_provenance": prov if prov in _PROVENANCES else "undeclared"}
    return {}


_PROVENANCES = ("real", "synthetic", "illustrative", "mixed", "undeclared")


def _refused_paths(store: Store, analysis_id: str, risk: str) -> set[str]:
    """Paths the restriction derivation refused (they are never told as a channel)."""
    refused: set[str] = set()
    for d in store.find(Derivation, analysis_id=analysis_id, risk=risk):
        refused |= {a.get("path_id") for a in d.assessed if a.get("outcome") != "accepted"}
    return refused


def _provenance_of(values: set[str]) -> str:
    if not values:
        return "real"
    return values.pop() if len(values) == 1 else "mixed"


def provenance(store: Store, runs: list[ModelRun], sources: list[Source]) -> ProvenanceBrief | None:
    """The inputs' provenance from records: declared ObservedValue provenance (else the run's
    recorded data label), Source.illustrative of the cited sources, the estimation sample and
    the release rules of the model's input observations."""
    if not runs:
        return None
    run = runs[0]
    from aieco.models.var import VARIABLES

    observed = store.find(ObservedValue, variable=list(VARIABLES), frequency="Q")
    declared = {o.provenance.value for o in observed if o.provenance is not None}
    if not declared:
        declared = {"synthetic" if run.diagnostics.get("data") == "synthetic" else "real"}
    # the run's own recorded release rules (what this run used), not whatever the workspace holds
    recorded = run.diagnostics.get("release_rules") or {}
    rules = sorted({r for series in recorded.values() for rs in series.values() for r in rs})
    if not recorded:
        rules = sorted({o.release_rule.value for o in observed if o.release_rule is not None})
    baseline = run.diagnostics.get("baseline") or {}
    chosen = run.diagnostics.get("selected") or {}
    scale = chosen.get("scale") or {}
    publisher = str((baseline.get("source") or {}).get("publisher") or "")
    sample = str((run.diagnostics.get("min_obs") or {}).get("sample") or "")
    start, _, end = sample.partition("\u2013")
    quarter = re.compile(r"\d{4}Q[1-4]\Z")
    estimator = (run.diagnostics.get("estimator") or {}).get("estimator")
    evidence = {"illustrative" if s.illustrative else "real" for s in sources}
    return ProvenanceBrief(
        data=_provenance_of(declared),
        evidence=_provenance_of(evidence),
        sample_start=start if quarter.match(start) else None,
        sample_end=end if quarter.match(end) else None,
        release_rules=[r for r in rules if r in ("vintage", "lag", "file")],
        estimator=estimator if estimator in ("minnesota", "ols") else None,
        baseline=baseline.get("kind") if baseline.get("kind") in ("anchored", "unconditional") else None,
        baseline_publisher=publisher.replace("_", " ").capitalize().replace("Ecb", "ECB") or None,
        anchored_variables=sorted({k.split(":")[0] for k in (baseline.get("achieved") or {})}),
        selection_rule=chosen.get("rule") if chosen.get("rule") in ("calibrated", "paper_max") else None,
        severity_scaled=float(scale.get("factor") or 1.0) != 1.0,
        last_observed={
            str(v): str(q) for v, q in (run.diagnostics.get("last_usable") or {}).items() if quarter.match(str(q))
        },
    )


def bank_gates_failed(store: Store) -> bool:
    """The workspace's bank models were validated and none passed its gate (a real-data model that
    fails its gate stops before any run, so the runs alone cannot tell this from 'not run')."""
    from aieco.records import ValidationGate

    gates = [g for g in store.find(ValidationGate) if is_bank(g.model_id)]
    return bool(gates) and not any(g.passed for g in gates)


def bank_status(runs: list[ModelRun], claims: list[ClaimBrief], *, gates_failed: bool = False) -> str:
    """present | not_run | stopped | gate_failed | no_claims | not_scenario, from the analysis' bank runs (and,
    when there is none, whether every bank model failed its validation gate)."""
    from aieco.models.catalog import takes_macro_path

    bank = [r for r in runs if is_bank(r.model_id)]
    if not bank:
        return "gate_failed" if gates_failed else "not_run"
    if not any(r.status is RunStatus.completed for r in bank):
        return "stopped"
    if any(c.variable.startswith("cet1") for c in claims):
        return "present"
    done = {r.model_id for r in bank if r.status is RunStatus.completed}
    # a model that takes no macro path (its registry specification) gives no outcome of the scenario
    if done and not any(takes_macro_path(m) for m in done):
        return "not_scenario"
    if gates_failed or any("gate" in (r.reason or "").lower() for r in bank):
        return "gate_failed"
    return "no_claims"


def draft_problems(store: Store, analysis_id: str, draft: ReportDraft, ctx: ReportContext) -> list[str]:
    """The generation-time check: numeric contract over registered claims and attribution."""
    problems = [] if draft.risk == ctx.risk else [f"the draft is about {draft.risk!r}, not {ctx.risk!r}"]
    problems += [str(v) for v in check_report_draft(store, analysis_id, draft, phase="generation")]
    return problems
