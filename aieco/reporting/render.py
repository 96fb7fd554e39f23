"""The report renderer: resolves tokens, checks attribution and direction, stores the report.

A ``{{NUM:claim_id}}`` token is resolved only after the claim's run is found completed,
its output artifact re-read (``Store.get_tables`` re-hashes the bytes), the table, row and
column found, and the unit, transformation and value shown to agree with the output point
and the claim's passed OutputTest (§3.5). Dates enter only through ``{{DATE:…}}``.

A qualitative or directional sentence must cite an accepted relation; it is rendered
with a short reference built from the relation's source and location. Beyond the paper,
a direction word must agree with the sign of the change it describes ("house prices
decline" next to a positive house-price return fails).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from aieco.errors import IntegrityError, StageStopped
from aieco.quotes import quote_occurs
from aieco.records import (
    Claim,
    Derivation,
    ModelOutputPoint,
    ModelRun,
    Path,
    Relation,
    Report,
    ReportSentence,
    RunStatus,
    Source,
    SourceLocation,
    canonical_json,
)
from aieco.reporting.claims import UNROUNDED_TOLERANCE, latest_results, passed_claims, registered_tests, unit_rule
from aieco.reporting.contract import TOKEN_RE, Violation, check_numeric_contract
from aieco.reporting.rules import (
    ClaimFacts,
    RelationFacts,
    direction_violations,
    quoted_span_violations,
    relation_direction_violations,
    uncited,
    variable_violations,
)
from aieco.reporting.schema import ReportDraft, SentenceDraft
from aieco.review import review_state
from aieco.store import Store


@dataclass(frozen=True)
class ResolvedClaim:
    """A claim re-read from its run's stored artifact, with its rendered text."""

    claim: Claim
    run: ModelRun
    point: ModelOutputPoint
    value: float
    text: str


@dataclass(frozen=True)
class Segment:
    """A piece of a rendered sentence: plain text, a number (with its claim) or a reference."""

    kind: str  # text | num | date | cite
    text: str
    claim_id: str | None = None
    relation_ids: tuple[str, ...] = ()


@dataclass
class RenderedReport:
    report: Report
    sentences: list[ReportSentence]
    segments: list[list[Segment]]
    violations: list[Violation] = field(default_factory=list)


# --------------------------------------------------------------------------- claims


def inspect_claim(store: Store, claim: Claim) -> tuple[float | None, list[tuple[str, str]]]:
    """Re-resolve ``claim`` from stored records and artifacts: (value, [(field, problem)])."""
    problems: list[tuple[str, str]] = []
    if claim.claim_id != claim.expected_id():
        problems.append(("claim_id", f"claim fields no longer give its id (expected {claim.expected_id()})"))
    run = store.get(ModelRun, claim.run_id)
    point = store.get(ModelOutputPoint, claim.point_id)
    if run is None:
        problems.append(("run_id", f"run {claim.run_id} does not exist"))
    else:
        if run.run_id != run.expected_id():
            problems.append(("run_id", f"run {run.run_id} was altered after it was written"))
        if run.status is not RunStatus.completed:
            problems.append(("run_status", f"run {run.run_id} is {run.status.value}"))
        if run.analysis_id != claim.analysis_id:
            problems.append(("run_id", f"run {run.run_id} belongs to analysis {run.analysis_id}"))
        if run.output_digest != claim.artifact_digest:
            problems.append(
                ("output_hash", f"claim names artifact {claim.artifact_digest}, run wrote {run.output_digest}")
            )
    if point is None:
        problems.append(("point_id", f"output point {claim.point_id} does not exist"))
    else:
        for name, attr in (
            ("run_id", "run_id"),
            ("output_hash", "artifact_digest"),
            ("table", "table_name"),
            ("row", "row"),
            ("column", "column"),
            ("unit", "unit"),
            ("transformation", "transformation"),
            ("variable", "variable"),
            ("period", "period"),
        ):
            if getattr(point, attr) != getattr(claim, attr):
                problems.append(
                    (name, f"claim has {getattr(claim, attr)!r}, output point has {getattr(point, attr)!r}")
                )
    result = latest_results(store, claim.analysis_id).get(claim.claim_id)
    if result is None or result.result != "pass":
        problems.append(
            ("output_test", "no passed OutputTest result for this claim" + (f" ({result.detail})" if result else ""))
        )
    else:
        for name, want, have in (
            ("run_id", result.run_id, claim.run_id),
            ("point_id", result.point_id, claim.point_id),
            ("unit", result.unit, claim.unit),
            ("variable", result.variable, claim.variable),
            ("transformation", result.transformation, claim.transformation),
        ):
            if want != have:
                problems.append((name, f"claim has {have!r}, its OutputTest has {want!r}"))
    registered = {t.claim_id: t for t in registered_tests(store, claim.analysis_id)}.get(claim.claim_id)
    if registered is None:
        problems.append(("output_test", "no OutputTest was registered for this claim before the run"))
    value = None
    try:
        tables = store.get_tables(claim.artifact_digest)
        table = tables.get(claim.table_name)
        if table is None:
            problems.append(("table", f"table {claim.table_name!r} missing from artifact {claim.artifact_digest}"))
        elif claim.row not in table.index:
            problems.append(("row", f"row {claim.row!r} missing from table {claim.table_name!r}"))
        elif claim.column not in table.columns:
            problems.append(("column", f"column {claim.column!r} missing from table {claim.table_name!r}"))
        else:
            value = float(table.loc[claim.row, claim.column])
            if point is not None and not abs(value - point.value) <= UNROUNDED_TOLERANCE:
                problems.append(("value", f"artifact holds {value!r}, output point {point.value!r}"))
            if not math.isfinite(value):
                problems.append(("value", f"artifact holds a non-finite value {value!r}"))
    except (IntegrityError, ValueError, TypeError) as exc:
        problems.append(("output_hash", str(exc)))
    return value, problems


def resolve_claim(store: Store, claim_id: str, analysis_id: str | None = None) -> ResolvedClaim:
    """The claim's value and rendered text; raises IntegrityError naming the failing field."""
    claim = store.get(Claim, claim_id)
    if claim is None or (analysis_id is not None and claim.analysis_id != analysis_id):
        raise IntegrityError(f"claim {claim_id} is not linked to a model output of this analysis")
    value, problems = inspect_claim(store, claim)
    if problems or value is None:
        raise IntegrityError(f"claim {claim_id} does not resolve: " + "; ".join(f"{f}: {d}" for f, d in problems))
    return ResolvedClaim(
        claim,
        store.require(ModelRun, claim.run_id),
        store.require(ModelOutputPoint, claim.point_id),
        value,
        format_value(value, claim.unit, claim.rounding),
    )


def format_value(value: float, unit: str, rounding: int) -> str:
    """Round_ρ(value) with its registered unit text: ``format_value(-1.1424, "percent", 1) == "-1.1%"``."""
    text = f"{round(value, rounding):.{rounding}f}"
    if float(text) == 0.0:
        text = text.lstrip("-")
    return text + unit_rule(unit).text


def render_date(value: str, cutoff: date | None, horizon: str) -> str:
    """Text of a ``{{DATE:…}}`` token (forms checked by the contract)."""
    start, _, end = horizon.partition("-")
    if value == "cutoff":
        if cutoff is None:
            raise IntegrityError("a {{DATE:cutoff}} token needs the analysis cutoff")
        return f"{cutoff.day} {cutoff:%B %Y}"
    if value == "horizon":
        return f"{start}\u2013{end or start}"
    if value in ("horizon_start", "horizon_end"):
        return start if value == "horizon_start" else (end or start)
    if "-" in value:
        a, b = value.split("-")
        return f"{a}\u2013{b}"
    if "Q" in value or "H" in value:
        return f"{value[4:]} {value[:4]}"
    return value


# --------------------------------------------------------------------------- attribution


def short_reference(source: Source, location: SourceLocation) -> str:
    """``(ESRB, Adverse scenario 2018, p. 5)``: publisher, short title with year, page or cell."""
    title = str(source.series.get("short_title") or source.title)
    # A title that repeats its publisher ("ECB Financial Stability Review" by "ECB Financial Stability
    # Review") would print the name twice; keep only what the title adds.
    if title.lower().startswith(source.publisher.lower()):
        title = title[len(source.publisher) :].lstrip(" :-–—,")
    title = _shorten(title) if title else ""
    year = source.publication_date.year if source.publication_date else None
    if year is not None and str(year) not in title:
        title = f"{title} {year}".strip()
    if not title:
        return f"({source.publisher}, {where_of(location)})"
    return f"({source.publisher}, {title}, {where_of(location)})"


def where_of(location: SourceLocation) -> str:
    """Section and paragraph (Markdown, HTML), page, sheet!cell or cell of a location, as a reference prints it."""
    if location.section:
        return f"§ {location.section}" + (f", ¶ {location.paragraph}" if location.paragraph else "")
    if location.page is not None:
        where = f"p. {location.page}"
    elif location.sheet:
        where = f"{location.sheet}!{location.cell}" if location.cell else location.sheet
    else:
        where = location.cell or location.kind
    return where


def _shorten(title: str, words: int = 5) -> str:
    parts = title.split()
    if len(parts) <= words:
        return title
    kept = parts[:words]
    while kept and kept[-1].lower() in {"the", "of", "for", "and", "in", "on", "a", "an", "to"}:
        kept.pop()
    return " ".join(kept)


@dataclass(frozen=True)
class Citation:
    relation: Relation
    location: SourceLocation
    source: Source
    reference: str


def check_attribution(
    store: Store, sentences: Sequence[SentenceDraft], *, reviewed: bool = True
) -> tuple[list[Violation], dict[str, Citation]]:
    """Directional and qualitative sentences must cite accepted relations with a location.

    ``reviewed=False`` (re-rendering a stored report) leaves out the analysts' later decisions:
    a report is re-rendered as it was written, and shown superseded by the review instead."""
    found, cites = [], {}
    for index, s in enumerate(sentences):
        missing = uncited(s, index)
        if missing is not None:
            found.append(missing)
        for rid in s.cited_relation_ids:
            rel = store.get(Relation, rid)
            loc = store.get(SourceLocation, rel.location_id) if rel else None
            src = store.get(Source, rel.source_id) if rel else None
            if rel is None or loc is None or src is None:
                why = "unknown relation" if rel is None else "its source location or source is missing"
                found.append(Violation(rule="unknown_relation", sentence=index, offset=0, text=rid, message=why))
            elif rel.review_decision != "accepted":
                found.append(
                    Violation(
                        rule="rejected_relation",
                        sentence=index,
                        offset=0,
                        text=rid,
                        message=f"relation was rejected: {rel.rejection_reason or 'no reason'}",
                    )
                )
            elif reviewed and (state := review_state(store, rid)) is not None:
                found.append(
                    Violation(
                        rule="rejected_relation",
                        sentence=index,
                        offset=0,
                        text=rid,
                        message=f"an analyst's review took the relation out of use ({state})",
                    )
                )
            elif not quote_occurs(rel.quote, loc.text) and rel.quote != str(loc.value):
                found.append(
                    Violation(
                        rule="quote_not_found",
                        sentence=index,
                        offset=0,
                        text=rid,
                        message="the relation's quote is not in its location",
                    )
                )
            else:
                cites[rid] = Citation(rel, loc, src, short_reference(src, loc))
    passages = {rid: c.location.text or str(c.location.value or "") for rid, c in cites.items()}
    found += quoted_span_violations(sentences, passages)
    return found, cites


# --------------------------------------------------------------------------- rendering


def render_segments(
    draft: SentenceDraft,
    resolved: Mapping[str, ResolvedClaim],
    cites: Mapping[str, Citation],
    cutoff: date | None,
    horizon: str,
) -> list[Segment]:
    """The sentence as text, number, date and citation pieces (joined, the rendered sentence)."""
    out, pos, t = [], 0, draft.template
    for m in TOKEN_RE.finditer(t):
        if m.start() > pos:
            out.append(Segment("text", t[pos : m.start()]))
        kind, value = m.groups()
        if kind == "NUM":
            out.append(Segment("num", resolved[value].text, claim_id=value))
        else:
            out.append(Segment("date", render_date(value, cutoff, horizon)))
        pos = m.end()
    tail = t[pos:]
    refs = [cites[r].reference for r in draft.cited_relation_ids if r in cites]
    if refs:
        stripped = tail.rstrip()
        end = stripped[-1] if stripped and stripped[-1] in ".!?" else ""
        if stripped[: len(stripped) - len(end)]:
            out.append(Segment("text", stripped[: len(stripped) - len(end)]))
        out.append(
            Segment("cite", " " + "; ".join(refs).replace(") ; (", "; "), relation_ids=tuple(draft.cited_relation_ids))
        )
        if end:
            out.append(Segment("text", end))
    elif tail:
        out.append(Segment("text", tail))
    return out


def check_report_draft(
    store: Store,
    analysis_id: str,
    draft: ReportDraft | Sequence[SentenceDraft],
    *,
    phase: str = "generation",
    labels: Mapping[str, Sequence[str]] | None = None,
    title: str | None = None,
) -> list[Violation]:
    """Every rule a report must pass, in one place: the numeric contract, attribution,
    the claim's variable against the text, direction against values and cited relations.

    At generation the registered claims are known (values once linked), after execution
    only the passed ones (the same contract function both times). ``check-report``, the
    report stage and the renderer all call this function, so they accept the same drafts.
    """
    sentences = draft.sentences if isinstance(draft, ReportDraft) else list(draft)
    title = draft.title if isinstance(draft, ReportDraft) else title
    registered = {t.claim_id: t for t in registered_tests(store, analysis_id)}
    passed = passed_claims(store, analysis_id)
    known = set(registered) if phase == "generation" else set(passed)
    found = check_numeric_contract(sentences, known_claims=known, title=title)
    found += check_attribution(store, sentences)[0]
    found += rule_violations(store, analysis_id, sentences, labels, registered=registered)
    found += refused_path_violations(
        store, analysis_id, sentences, draft.risk if isinstance(draft, ReportDraft) else None
    )
    found.sort(key=lambda v: (-1 if v.sentence is None else v.sentence, v.offset))
    return found


def rule_violations(
    store: Store,
    analysis_id: str,
    sentences: Sequence[SentenceDraft],
    labels: Mapping[str, Sequence[str]] | None = None,
    *,
    registered: Mapping[str, Any] | None = None,
) -> list[Violation]:
    """Variable, direction-vs-value and direction-vs-relation rules (aieco.reporting.rules)."""
    registered = registered if registered is not None else {t.claim_id: t for t in registered_tests(store, analysis_id)}
    ids = sorted({m.group(2) for s in sentences for m in TOKEN_RE.finditer(s.template) if m.group(1) == "NUM"})
    facts: dict[str, ClaimFacts] = {}
    for cid in ids:
        claim = store.get(Claim, cid)
        if claim is not None and claim.analysis_id == analysis_id:
            point = store.get(ModelOutputPoint, claim.point_id)
            facts[cid] = ClaimFacts(
                cid, claim.variable, claim.transformation, point.value if point is not None else None
            )
        elif cid in registered:
            facts[cid] = ClaimFacts(cid, registered[cid].variable, registered[cid].transformation)
    rel_ids = sorted({r for s in sentences for r in s.cited_relation_ids})
    relations = (
        {
            r.relation_id: RelationFacts(r.relation_id, r.src_var, r.dst_var, r.sign.value)
            for r in store.find(Relation, relation_id=rel_ids)
        }
        if rel_ids
        else {}
    )
    found = variable_violations(sentences, facts, labels)
    found += provenance_violations(store, sentences, ids, rel_ids)
    found += direction_violations(sentences, {c: (f.value, f) for c, f in facts.items() if f.value is not None}, labels)
    found += relation_direction_violations(sentences, relations, labels)
    return found


def refused_path_violations(
    store: Store, analysis_id: str, sentences: Sequence[SentenceDraft], risk: str | None
) -> list[Violation]:
    """Once the restriction derivation has assessed the paths (a Derivation record exists), a
    sentence may cite only relations of a path it accepted (rule ``refused_path_citation``)."""
    where = {"analysis_id": analysis_id, **({"risk": risk} if risk else {})}
    derivations = store.find(Derivation, **where)
    if not derivations:
        return []
    accepted = [a["path_id"] for d in derivations for a in d.assessed if a.get("outcome") == "accepted"]
    allowed = {r for p in store.find(Path, path_id=accepted) for r in p.relation_ids} if accepted else set()
    return [
        Violation(
            rule="refused_path_citation",
            sentence=index,
            offset=0,
            text=rid,
            message="the relation belongs to no path the restriction derivation accepted",
        )
        for index, s in enumerate(sentences)
        for rid in s.cited_relation_ids
        if rid not in allowed
    ]


def provenance_violations(
    store: Store, sentences: Sequence[SentenceDraft], claim_ids: Sequence[str], relation_ids: Sequence[str]
) -> list[Violation]:
    """A report whose numbers rest on synthetic inputs, or whose citations on illustrative
    sources, must say so in its text (rule ``provenance_missing``): the run's recorded data
    label and the sources' ``illustrative`` flag decide, never the writer."""
    claims = [c for c in (store.get(Claim, cid) for cid in claim_ids) if c is not None]
    runs = [r for r in (store.get(ModelRun, rid) for rid in dict.fromkeys(c.run_id for c in claims)) if r]
    relations = store.find(Relation, relation_id=list(relation_ids)) if relation_ids else []
    sources = store.find(Source, source_id=sorted({r.source_id for r in relations})) if relations else []
    text = " ".join(s.template.lower() for s in sentences)
    first_num = next((i for i, s in enumerate(sentences) if "{{NUM:" in s.template), 0)
    first_cite = next((i for i, s in enumerate(sentences) if s.cited_relation_ids), 0)
    found = []
    if any(r.diagnostics.get("data") == "synthetic" for r in runs) and "synthetic" not in text:
        found.append(
            Violation(
                rule="provenance_missing",
                sentence=first_num,
                offset=0,
                text=sentences[first_num].template[:40],
                message="the model ran on synthetic inputs; the report must say so",
            )
        )
    if any(s.illustrative for s in sources) and "illustrative" not in text:
        found.append(
            Violation(
                rule="provenance_missing",
                sentence=first_cite,
                offset=0,
                text=sentences[first_cite].template[:40],
                message="cited sources are illustrative; the report must say so",
            )
        )
    return found


def render_report(
    store: Store,
    analysis_id: str,
    draft: ReportDraft,
    *,
    cutoff: date | None = None,
    horizon: str | None = None,
    labels: Mapping[str, Sequence[str]] | None = None,
    graph_condition: str = "G0",
    retrieval_condition: str = "graph",
    write: bool = True,
) -> RenderedReport:
    """Check, render and store a report; a failure is stored, then raises StageStopped.

    ``write=False`` (the analysis stage) stores nothing: the Report and its sentences are
    returned, or carried by the StageStopped, for the stage runner to store.

    ``cutoff`` and ``horizon`` (for DATE tokens) default to the analysis request's, else the
    settings; they are stored with the report so it re-renders identically.
    """
    default_horizon, default_cutoff = _dates_of(store, analysis_id)
    cutoff = cutoff or default_cutoff
    horizon = horizon or default_horizon
    violations = check_report_draft(store, analysis_id, draft, phase="execution", labels=labels)
    cites = check_attribution(store, draft.sentences)[1]
    resolved: dict[str, ResolvedClaim] = {}
    for index, s in enumerate(draft.sentences):
        for m in TOKEN_RE.finditer(s.template):
            if m.group(1) != "NUM" or m.group(2) in resolved or store.get(Claim, m.group(2)) is None:
                continue
            try:
                resolved[m.group(2)] = resolve_claim(store, m.group(2), analysis_id)
            except IntegrityError as exc:
                violations.append(
                    Violation(
                        rule="claim_unresolved", sentence=index, offset=m.start(), text=m.group(0), message=exc.message
                    )
                )
    violations.sort(key=lambda v: (-1 if v.sentence is None else v.sentence, v.offset))
    failed_at = {v.sentence for v in violations}
    segments, texts = [], []
    for index, s in enumerate(draft.sentences):
        if index in failed_at or any(c not in resolved for c in s.claim_ids):
            segments.append([])
            texts.append("")
            continue
        segs = render_segments(s, resolved, cites, cutoff, horizon)
        segments.append(segs)
        texts.append("".join(g.text for g in segs))
    first = violations[0] if violations else None
    report = Report.create(
        analysis_id=analysis_id,
        risk=draft.risk,
        title=draft.title,
        template=canonical_json({"draft": draft, "cutoff": cutoff, "horizon": horizon}),
        rendered=" ".join(t for t in texts if t),
        status="failed" if first else "passed",
        failure_rule=first.rule if first else "",
        failure_position=first.sentence if first else None,
        claim_ids=sorted(resolved),
        relation_ids=sorted(cites),
        graph_condition=graph_condition,
        retrieval_condition=retrieval_condition,
    )
    sentences = []
    for index, s in enumerate(draft.sentences):
        mine = [v for v in violations if v.sentence == index]
        sentences.append(
            ReportSentence.create(
                report_id=report.report_id,
                position=index,
                kind=s.kind,
                template=s.template,
                cited_relation_ids=s.cited_relation_ids,
                claim_ids=s.claim_ids,
                rendered=texts[index],
                status="failed" if mine else "ok",
                failure="; ".join(str(v) for v in mine),
            )
        )
    if write:
        with store.transaction():
            store.put(report)
            store.put_many(sentences)
    if first:
        raise StageStopped(
            f"report {report.report_id} failed the {first.rule} rule at {first}",
            stage="report",
            records=() if write else (report, *sentences),
        )
    return RenderedReport(report, sentences, segments, violations)


def rebuild_report(store: Store, report_id: str) -> RenderedReport:
    """Re-render a stored report from its claims and citations; IntegrityError if it changed."""
    report = store.require(Report, report_id)
    draft, cutoff, horizon = stored_draft(report)
    sentences = sorted(store.find(ReportSentence, report_id=report_id), key=lambda s: s.position)
    resolved = {cid: resolve_claim(store, cid, report.analysis_id) for cid in report.claim_ids}
    _, cites = check_attribution(store, draft.sentences, reviewed=False)
    segments = []
    if len(sentences) != len(draft.sentences):
        raise IntegrityError(
            f"report {report_id} stores {len(sentences)} sentences, its draft has {len(draft.sentences)}",
            fix="a sentence was added or removed; run `aieco audit` to see which",
        )
    for stored, s in zip(sentences, draft.sentences, strict=True):
        as_drafted = (s.kind, s.template, list(s.cited_relation_ids), list(s.claim_ids))
        if (stored.kind, stored.template, stored.cited_relation_ids, stored.claim_ids) != as_drafted:
            raise IntegrityError(
                f"sentence {stored.position} of report {report_id} differs from the draft it was rendered from "
                "(template, kind, citations or claims)",
                fix="a stored sentence was edited; run `aieco audit` to see which",
            )
        segs = render_segments(s, resolved, cites, cutoff, horizon) if stored.rendered else []
        text = "".join(g.text for g in segs)
        if text != stored.rendered:
            raise IntegrityError(
                f"sentence {stored.position} of report {report_id} no longer renders as stored",
                fix="a claim, run or citation changed; run `aieco audit` to see which",
            )
        segments.append(segs)
    return RenderedReport(report, sentences, segments)


def stored_draft(report: Report) -> tuple[ReportDraft, date | None, str]:
    """The draft, cutoff and horizon a report was rendered from."""
    obj = json.loads(report.template)
    cutoff = date.fromisoformat(obj["cutoff"]) if obj.get("cutoff") else None
    return ReportDraft.model_validate(obj["draft"]), cutoff, obj["horizon"]


def _dates_of(store: Store, analysis_id: str) -> tuple[str, date | None]:
    """The analysis' horizon and cutoff (from its request; defaults from the settings)."""
    from aieco.config import get_settings
    from aieco.records import Analysis

    settings = get_settings().scenario
    analysis = store.get(Analysis, analysis_id)
    request = analysis.request if analysis else {}
    horizon = str(request.get("horizon") or f"{settings.horizon_start}-{settings.horizon_end}")
    cutoff = request.get("cutoff") or settings.cutoff
    return horizon, date.fromisoformat(str(cutoff)) if cutoff else None
