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
from aieco.records import Claim, ModelOutputPoint, Relation, Source, SourceLocation
from aieco.reporting.render import check_report_draft, short_reference
from aieco.reporting.schema import ClaimBrief, RelationBrief, ReportContext, ReportDraft
from aieco.reporting.writer import write_report
from aieco.store import Store

PROMPT = Prompt(
    name="report",
    version="7",
    system=("You are the report agent of an evidence-traceable scenario analysis. You write a short scenario "
            "report as connected prose from accepted relations and registered model outputs. You never write a "
            "number, a year or a quantity in words: every value is a {{NUM:claim_id}} token of a listed claim and "
            "every date a {{DATE:horizon}} or {{DATE:cutoff}} token."),
    instructions=("Write sentences of kind qualitative (a mechanism step; cite its relation ids in "
                  "cited_relation_ids, never inside a token), temporal (dates as DATE tokens) or numerical (values "
                  "as NUM tokens of the listed claim ids, listed in claim_ids). Use neutral verbs for values: the "
                  "sign of a rendered value must not contradict the sentence's wording. The title has no number."),
)

TASK: Task[ReportContext, ReportDraft] = Task(
    name="write_report", prompt=PROMPT, input_schema=ReportContext, output_schema=ReportDraft,
    offline=write_report)


def label(variable: str) -> str:
    """A readable variable name for prose: the vocabulary label without its parenthetical
    detail ("Long-term interest rate (10-year …)" → "long-term interest rate"), so no digit
    of a definition can enter the report text."""
    from aieco.vocab import load_vocabulary

    vocab = load_vocabulary()
    if variable not in vocab:
        return variable.replace("_", " ")
    text = re.sub(r"\s*\([^)]*\)", "", vocab.get(variable).label).strip()
    words = text.split()
    # keep acronyms (GDP, CET1), lower-case ordinary words: the label sits mid-sentence
    return " ".join(w if w.isupper() or any(c.isdigit() for c in w) else w.lower() for w in words)


def context(store: Store, *, analysis_id: str, request: Any, risk: str, selections: list[dict[str, Any]],
            claim_ids: list[str]) -> ReportContext:
    """What the writer may use: the selected paths' relations (with references) and the passed claims.

    A path the restriction derivation refused, and a relation an analyst's review took out of use,
    are never offered: the writer cannot cite them.
    """
    from aieco.records import Derivation
    from aieco.review import review_state

    refused = {a.get("path_id") for d in store.find(Derivation, analysis_id=analysis_id, risk=risk)
               for a in d.assessed if a.get("outcome") != "accepted"}
    paths = [list(s["relation_ids"]) for s in selections if s.get("path_id") not in refused]
    rel_ids = sorted({r for p in paths for r in p})
    relations = store.find(Relation, relation_id=rel_ids)
    sources = {s.source_id: s for s in store.find(Source, source_id=sorted({r.source_id for r in relations}))}
    locations = {loc.location_id: loc for loc in
                 store.find(SourceLocation, location_id=sorted({r.location_id for r in relations}))}
    briefs = [RelationBrief(relation_id=r.relation_id, src_var=r.src_var, dst_var=r.dst_var,
                            src_label=label(r.src_var), dst_label=label(r.dst_var), sign=r.sign.value,
                            reference=short_reference(sources[r.source_id], locations[r.location_id]))
              for r in relations if r.sign.value in ("+", "-") and review_state(store, r.relation_id) is None]
    claims = store.find(Claim, claim_id=claim_ids)
    points = {p.point_id: p for p in store.find(ModelOutputPoint, point_id=[c.point_id for c in claims])}
    claim_briefs = []
    for c in sorted(claims, key=lambda c: (c.period, c.variable)):
        value = points[c.point_id].value if c.point_id in points else None
        sign = None if value is None else (1 if value > 0 else -1 if value < 0 else 0)
        claim_briefs.append(ClaimBrief(claim_id=c.claim_id, variable=c.variable, label=label(c.variable),
                                       period=c.period, unit=c.unit, transformation=c.transformation, sign=sign))
    spec = request.risk(risk)
    return ReportContext(analysis_id=analysis_id, risk=risk,
                         risk_label=(spec.label or risk.replace("_", " ")).lower(),
                         cutoff=request.cutoff, horizon=request.horizon, paths=paths, relations=briefs,
                         claims=claim_briefs)


def draft_problems(store: Store, analysis_id: str, draft: ReportDraft, ctx: ReportContext) -> list[str]:
    """The generation-time check: numeric contract over registered claims and attribution."""
    problems = [] if draft.risk == ctx.risk else [f"the draft is about {draft.risk!r}, not {ctx.risk!r}"]
    problems += [str(v) for v in check_report_draft(store, analysis_id, draft, phase="generation")]
    return problems
