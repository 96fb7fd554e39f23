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
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from aieco.errors import IntegrityError, StageStopped
from aieco.quotes import quote_occurs
from aieco.records import (
    Claim,
    ModelOutputPoint,
    ModelRun,
    Relation,
    Report,
    ReportSentence,
    RunStatus,
    SentenceKind,
    Source,
    SourceLocation,
    canonical_json,
)
from aieco.reporting.claims import UNROUNDED_TOLERANCE, latest_results, passed_claims, registered_tests
from aieco.reporting.contract import TOKEN_RE, Violation, check_numeric_contract
from aieco.reporting.schema import ReportDraft, SentenceDraft
from aieco.review import review_state
from aieco.store import Store

UP_WORDS = (r"ris(?:e|es|ing|en)|rose|increas(?:e|es|ed|ing)|climb(?:s|ed|ing)?|grows|grew|growing|higher|upward|"
            r"upwards|expand(?:s|ed|ing)?|expansion|accelerat\w*|strengthen\w*|gain(?:s|ed)?|surg(?:e|es|ed|ing)|"
            r"jump(?:s|ed)?|boost\w*|lift(?:s|ed|ing)?|push(?:es|ed)? up|recover\w*|rebound\w*|widen\w*")
DOWN_WORDS = (r"declin(?:e|es|ed|ing)|fall(?:s|ing)?|fell|fallen|drop(?:s|ped|ping)?|decreas(?:e|es|ed|ing)|lower|"
              r"downward|downwards|contract(?:s|ed|ing|ion)|shrink\w*|shrank|weaken\w*|correction|slump\w*|"
              r"slow(?:s|ed|ing)?|slowdown|deteriorat\w*|tumbl\w*|plung\w*|erod\w*|erosion|downturn|"
              r"recession|weigh(?:s|ed|ing)? on")
DIRECTION_RE = re.compile(rf"\b(?:(?P<up>{UP_WORDS})|(?P<down>{DOWN_WORDS}))\b")
#: "rise to X" states a target level, not the sign of a change.
TARGET_RE = re.compile(r"\s+(?:[a-z]+\s+){0,2}?to\s+\{\{NUM:")
LEVEL_TRANSFORMATIONS = {"level", "rate", "ratio", "index", "share", "levels"}


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
            problems.append(("output_hash", f"claim names artifact {claim.artifact_digest}, run wrote "
                                            f"{run.output_digest}"))
    if point is None:
        problems.append(("point_id", f"output point {claim.point_id} does not exist"))
    else:
        for name, attr in (("run_id", "run_id"), ("output_hash", "artifact_digest"), ("table", "table_name"),
                           ("row", "row"), ("column", "column"), ("unit", "unit"),
                           ("transformation", "transformation"), ("variable", "variable"), ("period", "period")):
            if getattr(point, attr) != getattr(claim, attr):
                problems.append((name, f"claim has {getattr(claim, attr)!r}, "
                                       f"output point has {getattr(point, attr)!r}"))
    result = latest_results(store, claim.analysis_id).get(claim.claim_id)
    if result is None or result.result != "pass":
        problems.append(("output_test", "no passed OutputTest result for this claim"
                         + (f" ({result.detail})" if result else "")))
    else:
        for name, want, have in (("run_id", result.run_id, claim.run_id), ("point_id", result.point_id, claim.point_id),
                                 ("unit", result.unit, claim.unit), ("variable", result.variable, claim.variable),
                                 ("transformation", result.transformation, claim.transformation)):
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
        raise IntegrityError(f"claim {claim_id} does not resolve: "
                             + "; ".join(f"{f}: {d}" for f, d in problems))
    return ResolvedClaim(claim, store.require(ModelRun, claim.run_id), store.require(ModelOutputPoint, claim.point_id),
                         value, format_value(value, claim.unit, claim.rounding))


def format_value(value: float, unit: str, rounding: int) -> str:
    """Round_ρ(value) with its unit: ``format_value(-1.1424, "percent", 3) == "-1.142%"``."""
    text = f"{round(value, rounding):.{rounding}f}"
    if float(text) == 0.0:
        text = text.lstrip("-")
    u = unit.strip().lower()
    if u in ("percent", "%", "pct", "per cent"):
        return f"{text}%"
    if u in ("pp", "percentage points", "percentage point"):
        return f"{text} pp"
    if u in ("bp", "bps", "basis points"):
        return f"{text} bp"
    if u in ("", "index", "level", "ratio", "number"):
        return text
    return f"{text} {unit}"


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
        title = title[len(source.publisher):].lstrip(" :-–—,")
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


def check_attribution(store: Store, sentences: Sequence[SentenceDraft]) -> tuple[list[Violation], dict[str, Citation]]:
    """Directional and qualitative sentences must cite accepted relations with a location."""
    found, cites = [], {}
    for index, s in enumerate(sentences):
        direction = DIRECTION_RE.search(_masked(s.template).lower())
        needs = s.kind is SentenceKind.qualitative or direction is not None
        if needs and not s.cited_relation_ids:
            at = direction.start() if direction else 0
            found.append(Violation(rule="uncited_direction" if direction else "uncited_qualitative", sentence=index,
                                   offset=at, text=direction.group(0) if direction else s.template,
                                   message="a directional or qualitative sentence must cite an accepted relation"))
        for rid in s.cited_relation_ids:
            rel = store.get(Relation, rid)
            loc = store.get(SourceLocation, rel.location_id) if rel else None
            src = store.get(Source, rel.source_id) if rel else None
            if rel is None or loc is None or src is None:
                why = "unknown relation" if rel is None else "its source location or source is missing"
                found.append(Violation(rule="unknown_relation", sentence=index, offset=0, text=rid, message=why))
            elif rel.review_decision != "accepted":
                found.append(Violation(rule="rejected_relation", sentence=index, offset=0, text=rid,
                                       message=f"relation was rejected: {rel.rejection_reason or 'no reason'}"))
            elif (state := review_state(store, rid)) is not None:
                found.append(Violation(rule="rejected_relation", sentence=index, offset=0, text=rid,
                                       message=f"an analyst's review took the relation out of use ({state})"))
            elif not quote_occurs(rel.quote, loc.text) and rel.quote != str(loc.value):
                found.append(Violation(rule="quote_not_found", sentence=index, offset=0, text=rid,
                                       message="the relation's quote is not in its location"))
            else:
                cites[rid] = Citation(rel, loc, src, short_reference(src, loc))
    return found, cites


def _masked(template: str) -> str:
    return TOKEN_RE.sub(lambda m: m.group(0) if m.group(1) == "NUM" else " " * len(m.group(0)), template)


# --------------------------------------------------------------------------- direction


def direction_violations(sentences: Sequence[SentenceDraft], values: Mapping[str, tuple[float, Claim]],
                         labels: Mapping[str, Sequence[str]] | None = None) -> list[Violation]:
    """Direction words that contradict the sign of the change they describe.

    A direction word attaches to the nearest variable mentioned in its sentence (labels),
    else to the nearest NUM token. The value checked is that variable's claim in the same
    sentence, else in the previous one ("this decline in house prices"), else in the next
    one (framing before the number). Levels ("rise to X", level transformations)
    carry no sign and are not checked.
    """
    names = dict(labels or {})
    for _, claim in values.values():
        names.setdefault(claim.variable, [claim.variable.replace("_", " ")])
    claims_in = [[(m.start(), m.group(2)) for m in TOKEN_RE.finditer(s.template) if m.group(1) == "NUM"
                  and m.group(2) in values] for s in sentences]
    found = []
    for index, s in enumerate(sentences):
        text = _masked(s.template).lower()
        mentions = [(m.start(), var) for var, words in names.items() for w in words
                    for m in re.finditer(rf"\b{re.escape(w.lower())}\b", text)]
        for d in DIRECTION_RE.finditer(text):
            if TARGET_RE.match(s.template, d.end()):
                continue
            anchors = mentions or [(pos, values[cid][1].variable) for pos, cid in claims_in[index]]
            if not anchors:
                continue
            variable = min(anchors, key=lambda a: abs(a[0] - d.start()))[1]
            for neighbour in (index, index - 1, index + 1):
                if not 0 <= neighbour < len(sentences):
                    continue
                hits = [cid for _, cid in claims_in[neighbour] if values[cid][1].variable == variable]
                if hits:
                    value, claim = values[hits[0]]
                    sign = (value > 0) - (value < 0)
                    want = 1 if d.group("up") else -1
                    if claim.transformation.lower() not in LEVEL_TRANSFORMATIONS and sign and sign != want:
                        found.append(Violation(
                            rule="direction_inconsistent", sentence=index, offset=d.start(), text=d.group(0),
                            message=f"{claim.variable} {'rises' if sign > 0 else 'falls'} in claim {hits[0]} "
                                    f"(sentence {neighbour}) but the text says {d.group(0)!r}"))
                    break
    return found


# --------------------------------------------------------------------------- rendering


def render_segments(draft: SentenceDraft, resolved: Mapping[str, ResolvedClaim], cites: Mapping[str, Citation],
                    cutoff: date | None, horizon: str) -> list[Segment]:
    """The sentence as text, number, date and citation pieces (joined, the rendered sentence)."""
    out, pos, t = [], 0, draft.template
    for m in TOKEN_RE.finditer(t):
        if m.start() > pos:
            out.append(Segment("text", t[pos:m.start()]))
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
        if stripped[:len(stripped) - len(end)]:
            out.append(Segment("text", stripped[:len(stripped) - len(end)]))
        out.append(Segment("cite", " " + "; ".join(refs).replace(") ; (", "; "),
                           relation_ids=tuple(draft.cited_relation_ids)))
        if end:
            out.append(Segment("text", end))
    elif tail:
        out.append(Segment("text", tail))
    return out


def check_report_draft(store: Store, analysis_id: str, draft: ReportDraft, *, phase: str = "generation"
                       ) -> list[Violation]:
    """Contract and attribution of a draft; at generation the registered claims are known,
    after execution only the passed ones (the same contract function both times)."""
    if phase == "generation":
        known = {t.claim_id for t in registered_tests(store, analysis_id)}
    else:
        known = set(passed_claims(store, analysis_id))
    found = check_numeric_contract(draft.sentences, known_claims=known, title=draft.title)
    found += check_attribution(store, draft.sentences)[0]
    return found


def render_report(store: Store, analysis_id: str, draft: ReportDraft, *, cutoff: date | None = None,
                  horizon: str | None = None, labels: Mapping[str, Sequence[str]] | None = None,
                  graph_condition: str = "G0", retrieval_condition: str = "graph") -> RenderedReport:
    """Check, render and store a report; a failure is stored, then raises StageStopped.

    ``cutoff`` and ``horizon`` (for DATE tokens) default to the analysis request's, else the
    settings; they are stored with the report so it re-renders identically.
    """
    default_horizon, default_cutoff = _dates_of(store, analysis_id)
    cutoff = cutoff or default_cutoff
    horizon = horizon or default_horizon
    violations = check_numeric_contract(draft.sentences, known_claims=set(passed_claims(store, analysis_id)),
                                        title=draft.title)
    attribution, cites = check_attribution(store, draft.sentences)
    violations += attribution
    resolved: dict[str, ResolvedClaim] = {}
    for index, s in enumerate(draft.sentences):
        for m in TOKEN_RE.finditer(s.template):
            if m.group(1) != "NUM" or m.group(2) in resolved or store.get(Claim, m.group(2)) is None:
                continue
            try:
                resolved[m.group(2)] = resolve_claim(store, m.group(2), analysis_id)
            except IntegrityError as exc:
                violations.append(Violation(rule="claim_unresolved", sentence=index, offset=m.start(),
                                            text=m.group(0), message=exc.message))
    violations += direction_violations(draft.sentences, {k: (r.value, r.claim) for k, r in resolved.items()},
                                       labels)
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
        analysis_id=analysis_id, risk=draft.risk, title=draft.title,
        template=canonical_json({"draft": draft, "cutoff": cutoff, "horizon": horizon}),
        rendered=" ".join(t for t in texts if t), status="failed" if first else "passed",
        failure_rule=first.rule if first else "", failure_position=first.sentence if first else None,
        claim_ids=sorted(resolved), relation_ids=sorted(cites), graph_condition=graph_condition,
        retrieval_condition=retrieval_condition)
    sentences = []
    for index, s in enumerate(draft.sentences):
        mine = [v for v in violations if v.sentence == index]
        sentences.append(ReportSentence.create(
            report_id=report.report_id, position=index, kind=s.kind, template=s.template,
            cited_relation_ids=s.cited_relation_ids, claim_ids=s.claim_ids, rendered=texts[index],
            status="failed" if mine else "ok", failure="; ".join(str(v) for v in mine)))
    with store.transaction():
        store.put(report)
        store.put_many(sentences)
    if first:
        raise StageStopped(f"report {report.report_id} failed the {first.rule} rule at {first}", stage="report")
    return RenderedReport(report, sentences, segments, violations)


def rebuild_report(store: Store, report_id: str) -> RenderedReport:
    """Re-render a stored report from its claims and citations; IntegrityError if it changed."""
    report = store.require(Report, report_id)
    draft, cutoff, horizon = stored_draft(report)
    sentences = sorted(store.find(ReportSentence, report_id=report_id), key=lambda s: s.position)
    resolved = {cid: resolve_claim(store, cid, report.analysis_id) for cid in report.claim_ids}
    _, cites = check_attribution(store, draft.sentences)
    segments = []
    for stored, s in zip(sentences, draft.sentences, strict=True):
        segs = render_segments(s, resolved, cites, cutoff, horizon) if stored.rendered else []
        text = "".join(g.text for g in segs)
        if text != stored.rendered:
            raise IntegrityError(f"sentence {stored.position} of report {report_id} no longer renders as stored",
                                 fix="a claim, run or citation changed; run `aieco audit` to see which")
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
