"""Export of a stored report: HTML, Markdown, LaTeX (framed), PDF and a verifiable JSON bundle.

Every export first re-renders the report from its claims (``rebuild_report``), so an
altered run, artifact or claim stops the export instead of printing a stale number. In
HTML, Markdown and PDF every number links to its output point inside the section of its
ModelRun (digests, inputs, restrictions, supporting relations with quotes); sources are
footnoted with their quotes. The HTML page is self-contained (no external resources).
HTML and PDF carry the fan charts and the bank chart as PNG images drawn from the runs'
stored tables (:mod:`aieco.reporting.figures`), after the cover block and the headline figures.
The JSON bundle holds the report, its claims, tests, runs, points, restrictions,
relations, locations, sources and the run artifacts themselves; :func:`verify_bundle`
re-imports it into a scratch workspace and re-resolves every claim.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from aieco.errors import InputError, IntegrityError
from aieco.records import (
    RECORD_TYPES,
    Claim,
    ModelOutputPoint,
    ModelRun,
    ModelSpecification,
    OutputTest,
    Record,
    Relation,
    Report,
    ReportSentence,
    Restriction,
    Source,
    SourceLocation,
    canonical_json,
    sha256_hex,
)
from aieco.reporting.figures import BankChart, bank_caption, bank_chart, bank_chart_png, fan_panel_alt, fan_panel_png
from aieco.reporting.render import RenderedReport, Segment, rebuild_report, short_reference, stored_draft
from aieco.reporting.rules import variable_label
from aieco.review import citation_notes
from aieco.store import Store

FORMATS = ("html", "md", "tex", "pdf", "json")
BUNDLE_FORMAT = "aieco-report-bundle/1"


@dataclass(frozen=True)
class RunSection:
    run: ModelRun
    spec: ModelSpecification | None
    points: list[tuple[ModelOutputPoint, str]]  # (point, claim id)
    restrictions: list[Restriction]
    relations: list[tuple[Relation, str]]  # (relation, short reference)


@dataclass(frozen=True)
class FanPanel:
    """One variable of the fan chart: the selected path, the median and the 5–95 % band by year."""

    variable: str
    unit: str
    years: list[str]
    selected: list[float]
    median: list[float]
    p05: list[float]
    p95: list[float]
    transformation: str = ""  # the run's output transformation (annual_growth …): the axis says what is measured


@dataclass(frozen=True)
class FanChart:
    run_id: str
    panels: list[FanPanel]
    data_label: str  # "synthetic" or "observed", from the run's data_label table


@dataclass(frozen=True)
class SummaryRow:
    """One headline figure: the number exactly as the prose renders it, and what it measures."""

    variable: str
    period: str
    statistic: str
    value: str  # the rendered token's text (never re-formatted here)
    unit: str
    transformation: str
    claim_id: str
    point_id: str


@dataclass(frozen=True)
class ReportView:
    """Everything an export shows, gathered once from the store."""

    rendered: RenderedReport
    runs: list[RunSection]
    citations: list[tuple[Relation, str]]  # footnotes in order of first citation
    paragraphs: list[list[list[Segment]]] = field(default_factory=list)  # paragraphs of sentences' segments
    charts: list[FanChart] = field(default_factory=list)
    #: relation id → who read the cited relation and what an analyst decided on it (aieco.review.citation_notes)
    reading: dict[str, str] = field(default_factory=dict)
    #: the cover block: (label, value) — title's context an analyst circulates the report with
    cover: list[tuple[str, str]] = field(default_factory=list)
    #: the headline figures: one row per number in the prose, as rendered there, with its claim
    summary: list[SummaryRow] = field(default_factory=list)
    #: per macro run: its baselines and scenario beside the official outlook (OUTLOOK_HEADERS)
    outlook: list[tuple[str, list[list[str]]]] = field(default_factory=list)
    #: the depletion across banks of each bank run whose figures the report cites
    bank_charts: list[BankChart] = field(default_factory=list)

    @property
    def report(self) -> Report:
        return self.rendered.report


def report_view(store: Store, report_id: str) -> ReportView:
    rendered = rebuild_report(store, report_id)
    report = rendered.report
    claims = [store.require(Claim, c) for c in report.claim_ids]
    restrictions = store.find(Restriction, analysis_id=report.analysis_id, risk=report.risk)
    runs = []
    for run_id in dict.fromkeys(c.run_id for c in claims):
        run = store.require(ModelRun, run_id)
        points = [(store.require(ModelOutputPoint, c.point_id), c.claim_id) for c in claims if c.run_id == run_id]
        rel_ids = dict.fromkeys(r for rst in restrictions for r in rst.supporting_relation_ids)
        runs.append(
            RunSection(
                run,
                store.get(ModelSpecification, run.spec_id),
                points,
                restrictions,
                [_cited(store, r) for r in rel_ids if store.get(Relation, r)],
            )
        )
    order = dict.fromkeys(r for s in rendered.sentences for r in s.cited_relation_ids)
    charts = [c for c in (fan_chart(store, s.run) for s in runs) if c is not None]
    reading = citation_notes(store, order)
    return ReportView(
        rendered,
        runs,
        [_cited(store, r) for r in order],
        paragraphs(rendered),
        charts,
        reading,
        cover_block(store, report, runs, reading),
        summary_rows(rendered, {c.claim_id: c for c in claims}),
        outlook_tables(store, runs),
        [b for b in (bank_chart(store, s.run) for s in runs) if b is not None],
    )


#: Columns of the "against the official outlook" appendix (aieco.evaluation.references.COLUMNS, in words).
OUTLOOK_HEADERS = (
    ("variable", "variable"),
    ("period", "period"),
    ("measure", "measure"),
    ("baseline_anchored", "aieco baseline (anchored)"),
    ("baseline_unconditional", "aieco baseline (unconditional)"),
    ("scenario", "this scenario"),
    ("official_projection", "official projection at the cutoff"),
    ("projection_source", "projection source"),
    ("official_adverse", "official adverse"),
    ("adverse_source", "adverse source"),
    ("adverse_timing", "adverse published"),
)


def outlook_tables(store: Store, runs: list[RunSection]) -> list[tuple[str, list[list[str]]]]:
    """Per completed macro run: its paths beside the official outlook (rows of text, values rounded as printed)."""
    from aieco.evaluation.references import official_comparison

    out = []
    for section in runs:
        run = section.run
        if run.model_id != "macro_var" or run.status.value != "completed":
            continue
        frame = official_comparison(store, run)
        rows = []
        for _, r in frame.iterrows():
            cells = []
            for key, _ in OUTLOOK_HEADERS:
                value = r[key]
                if isinstance(value, float):
                    cells.append("" if value != value else f"{value:.2f}")
                else:
                    cells.append("" if value is None else str(value))
            rows.append(cells)
        if rows:
            out.append((run.run_id, rows))
    return out


def cover_block(store: Store, report: Report, runs: list[RunSection], reading: dict[str, str]) -> list[tuple[str, str]]:
    """The report's context: risk, cutoff, jurisdiction, horizon, vintage policy, run date, aieco
    version, the model runs' data, and its review status (report rules and the cited relations)."""
    from aieco.records import Analysis

    analysis = store.get(Analysis, report.analysis_id)
    request = analysis.request if analysis else {}
    _, cutoff, horizon = stored_draft(report)  # what the report itself was rendered against
    risk = next(
        (r.get("label") for r in request.get("risks", []) if isinstance(r, dict) and r.get("name") == report.risk), ""
    )
    versions = sorted({s.run.package_version for s in runs if s.run.package_version})
    ran = sorted({s.run.ended_at.date().isoformat() for s in runs})
    reviewed = sum("not reviewed" not in note for note in reading.values())
    labels = sorted({str(s.run.diagnostics.get("data_label", "")) for s in runs} - {""})
    cover = [
        ("Risk", risk or report.risk.replace("_", " ")),
        ("Information cutoff", str(cutoff or request.get("cutoff") or "not recorded")),
        ("Jurisdiction", ", ".join(request.get("jurisdictions", [])) or "not recorded"),
        ("Horizon", str(horizon or request.get("horizon") or "not recorded")),
        ("Data vintages", f"{request.get('vintage_policy', 'strict')} vintage policy"),
        ("Run date", ", ".join(ran) or "no model run"),
        ("aieco version", ", ".join(versions) or _package_version()),
        ("Review status", f"report rules passed; {reviewed} of {len(reading)} cited relations reviewed by an analyst"),
    ]
    if labels:
        cover.insert(5, ("Model data", ", ".join(labels)))
    return cover


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("aieco")
    except PackageNotFoundError:
        return "unknown"


def summary_rows(rendered: RenderedReport, claims: dict[str, Claim]) -> list[SummaryRow]:
    """Every number of the prose once, in reading order, with the rendered text the prose shows."""
    rows: dict[str, SummaryRow] = {}
    for segments in rendered.segments:
        for seg in segments:
            if seg.kind != "num" or not seg.claim_id or seg.claim_id in rows or seg.claim_id not in claims:
                continue
            c = claims[seg.claim_id]
            rows[c.claim_id] = SummaryRow(
                variable_label(c.variable),
                c.period,
                c.statistic,
                seg.text,
                c.unit,
                c.transformation,
                c.claim_id,
                c.point_id,
            )
    return list(rows.values())


def paragraphs(rendered: RenderedReport) -> list[list[list[Segment]]]:
    """Sentences grouped into paragraphs: a new paragraph where the draft's paragraph label
    changes, or (for drafts without labels) where the sentence kind changes."""
    draft, _, _ = stored_draft(rendered.report)
    out: list[list[list[Segment]]] = []
    last = None
    for s, segs in zip(draft.sentences, rendered.segments, strict=True):
        if not segs:
            continue
        key = s.paragraph or s.kind.value
        if key != last:
            out.append([])
            last = key
        out[-1].append(segs)
    return out


#: The variables the fan chart shows (those the scenario paragraph states).
CHART_VARIABLES = ("real_gdp", "unemployment", "house_prices", "equity_prices")


def fan_chart(store: Store, run: ModelRun) -> FanChart | None:
    """The selected annual path against the median and the 5–95 % band, from the run's
    ``selected_path`` and ``fan_chart`` tables (None for a run without them)."""
    if not run.output_digest:
        return None
    tables = store.get_tables(run.output_digest)
    sel, fan = tables.get("selected_path"), tables.get("fan_chart")
    if sel is None or fan is None:
        return None
    label = tables.get("data_label")
    data_label = str(label.loc["value", "label"]) if label is not None and "value" in label.index else "unknown"
    years = [str(y) for y in sel.index]
    spec = store.get(ModelSpecification, run.spec_id)
    measured = {o.variable: (o.unit, o.transformation) for o in (spec.outputs if spec else [])}
    panels = []
    for v in CHART_VARIABLES:
        if v not in sel.columns or not all(f"{v}:{y}" in fan.index for y in years):
            continue
        rows = fan.loc[[f"{v}:{y}" for y in years]]
        base = tables.get("median_path")  # the baseline (anchored point forecast); older runs: the draws' median
        centre = (
            [float(base.loc[v, y]) for y in years]
            if base is not None and v in base.index and all(y in base.columns for y in years)
            else [float(x) for x in rows["p50"]]
        )
        unit, transformation = measured.get(v, ("%", ""))
        panels.append(
            FanPanel(
                v,
                unit,
                years,
                [float(x) for x in sel[v]],
                centre,
                [float(x) for x in rows["p05"]],
                [float(x) for x in rows["p95"]],
                transformation,
            )
        )
    return FanChart(run.run_id, panels, data_label) if panels else None


def chart_caption(chart: FanChart) -> str:
    note = {
        "synthetic": "synthetic inputs — illustrates the method, not a forecast",
        "observed": "model projections computed from published data",
    }.get(chart.data_label, "inputs of unrecorded provenance")
    return (
        f"Scenario path (solid) against the baseline (dashed) and the 5–95 % band of the simulated draws around the "
        f"baseline, annual, run {chart.run_id}; {note}."
    )


def _cited(store: Store, relation_id: str) -> tuple[Relation, str]:
    rel = store.require(Relation, relation_id)
    return rel, short_reference(store.require(Source, rel.source_id), store.require(SourceLocation, rel.location_id))


def export_report(store: Store, report_id: str, fmt: str) -> bytes:
    """The report in ``fmt`` (html | md | tex | pdf | json) as bytes."""
    if fmt not in FORMATS:
        raise InputError(f"unknown export format {fmt!r}", fix=f"use one of {', '.join(FORMATS)}")
    if fmt == "json":
        return export_bundle(store, report_id)
    view = report_view(store, report_id)
    if view.report.status != "passed":
        raise InputError(
            f"report {report_id} failed ({view.report.failure_rule}); only passed reports export",
            fix="see `aieco report list` for the failing rule and sentence",
        )
    return {"html": to_html, "md": to_markdown, "tex": to_latex, "pdf": to_pdf}[fmt](view)


#: File extension of each export format (the JSON bundle is marked as one).
EXTENSIONS = {"html": "html", "md": "md", "tex": "tex", "pdf": "pdf", "json": "bundle.json"}


def export_file_name(store: Store, report_id: str, fmt: str) -> str:
    """The file an export goes to, named from the report's title (``scenario-report-trade-fragmentation.pdf``),
    never its id."""
    report = store.require(Report, report_id)
    slug = re.sub(r"[^a-z0-9]+", "-", report.title.lower()).strip("-")[:80].rstrip("-") or "report"
    return f"{slug}.{EXTENSIONS[fmt]}"


# --------------------------------------------------------------------------- shared pieces


def _anchor(point_id: str) -> str:
    return f"pt-{point_id}"


def _point_of(view: ReportView, claim_id: str) -> tuple[str, str]:
    for section in view.runs:
        for point, cid in section.points:
            if cid == claim_id:
                return section.run.run_id, point.point_id
    raise IntegrityError(f"claim {claim_id} has no run section")


def _footnote_no(view: ReportView) -> dict[str, int]:
    return {rel.relation_id: i for i, (rel, _) in enumerate(view.citations, start=1)}


def _run_facts(section: RunSection) -> list[tuple[str, str]]:
    run = section.run
    facts = [
        ("model", f"{run.model_id} ({run.spec_id})"),
        ("status", run.status.value),
        ("output digest", run.output_digest or ""),
        ("code digest", run.code_digest),
        ("config digest", run.config_digest),
        ("environment digest", run.env_digest),
        ("request digest", run.request_digest),
        ("seed", str(run.seed)),
        ("started", run.started_at.isoformat()),
        ("ended", run.ended_at.isoformat()),
    ]
    facts += [(f"input {name}", d) for name, d in sorted(run.input_digests.items())]
    for name, v in sorted(run.diagnostics.items()):
        facts += [(f"diagnostic {key}", text) for key, text in _readable(name.replace("_", " "), v)]
    return facts


def _readable(name: str, value: Any, depth: int = 0) -> list[tuple[str, str]]:
    """A diagnostic as rows a person reads ('plausibility › bounds › real gdp', '[-6.0, 4.0]'), not a
    JSON dump: mappings open into one row per key (two levels), short lists stay on one row."""
    if isinstance(value, dict) and value and depth < 2:
        return [
            row
            for k, v in sorted(value.items())
            for row in _readable(f"{name} › {str(k).replace('_', ' ')}", v, depth + 1)
        ]
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return [(name, ", ".join(str(v) for v in value) if value else "none")]
    if isinstance(value, (dict, list)):
        return [(name, json.dumps(value, sort_keys=True))]
    return [(name, "none" if value is None else str(value))]


def _sentence_pieces(
    view: ReportView,
    segments: list[Segment],
    link: Callable[[str, str, str], str],
    cite: Callable[[Segment, list[int]], str],
    esc: Callable[[str], str],
) -> str:
    notes = _footnote_no(view)
    out = []
    for seg in segments:
        if seg.kind == "num":
            run_id, point_id = _point_of(view, seg.claim_id or "")
            out.append(link(seg.text, run_id, point_id))
        elif seg.kind == "cite":
            out.append(cite(seg, [notes[r] for r in seg.relation_ids if r in notes]))
        else:
            out.append(esc(seg.text))
    return "".join(out)


def _paragraph_texts(
    view: ReportView,
    link: Callable[[str, str, str], str],
    cite: Callable[[Segment, list[int]], str],
    esc: Callable[[str], str],
) -> list[str]:
    return [" ".join(_sentence_pieces(view, segs, link, cite, esc) for segs in para) for para in view.paragraphs]


def _restriction_text(x: Restriction) -> str:
    return (
        f"{x.variable} {'increase' if x.direction > 0 else 'decrease'} ({x.aggregation}, {x.horizon}, "
        f"priority {x.priority})"
    )


# --------------------------------------------------------------------------- HTML

_CSS = """body{font-family:Georgia,serif;max-width:48em;margin:2em auto;line-height:1.5;color:#222}
.framed{border:1px solid #444;padding:1em 1.4em;margin:1em 0}
a.num{font-weight:bold;text-decoration:none;border-bottom:1px dotted #06c;color:#06c}
sup a{text-decoration:none}table{border-collapse:collapse;font-size:.85em}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
code{font-size:.85em;word-break:break-all}blockquote{margin:.3em 1em;color:#444}
figure{margin:1em 0}.panels{display:grid;grid-template-columns:1fr 1fr;gap:.5em}img{max-width:100%}
figcaption{font-size:.85em;color:#444}"""


def to_html(view: ReportView) -> bytes:
    e = html.escape
    r = view.report

    def link(text: str, run_id: str, point_id: str) -> str:
        return f'<a class="num" href="#{_anchor(point_id)}" title="run {run_id}">{e(text)}</a>'

    def cite(seg: Segment, nos: list[int]) -> str:
        sups = "".join(f'<sup><a href="#note-{n}">[{n}]</a></sup>' for n in nos)
        return e(seg.text) + sups

    body = "".join(f"<p>{p}</p>" for p in _paragraph_texts(view, link, cite, e))
    figures = _figures_html(view, e)
    cover = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>" for k, v in view.cover)
    summary = "".join(
        f"<tr><td>{e(x.variable)}</td><td>{e(x.period)}</td><td>{e(x.statistic)}</td>"
        f'<td><a class="num" href="#{_anchor(x.point_id)}">{e(x.value)}</a></td>'
        f"<td>{e(x.unit)}, {e(x.transformation.replace('_', ' '))}</td><td><code>{e(x.claim_id)}</code></td></tr>"
        for x in view.summary
    )
    parts = [
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{e(r.title)}</title>',
        f"<style>{_CSS}</style></head><body>",
        f'<h1>{e(r.title)}</h1><table class="cover">{cover}</table>',
        '<h2>Headline figures</h2><table class="summary"><tr><th>variable</th><th>period</th><th>statistic</th>'
        f"<th>value</th><th>unit, measure</th><th>claim</th></tr>{summary}</table>",
        figures,
        f'<div class="framed" id="report-{e(r.report_id)}"><p><em>{e(r.title)}</em></p>{body}</div>',
        _outlook_html(view, e),
        f"<p><small>Report {e(r.report_id)} · analysis {e(r.analysis_id)} · risk {e(r.risk)} · "
        f"status {e(r.status)}</small></p>",
        "<h2>Sources</h2><ol>",
    ]
    for n, (rel, ref) in enumerate(view.citations, start=1):
        parts.append(
            f'<li id="note-{n}">{e(ref)}: <blockquote>“{e(rel.quote)}”</blockquote>'
            f"<small>relation <code>{e(rel.relation_id)}</code> {e(rel.src_var)} "
            f"{e(rel.sign.value)}→ {e(rel.dst_var)}; {e(view.reading.get(rel.relation_id, ''))}</small></li>"
        )
    parts.append("</ol><h2>Model runs</h2>")
    for s in view.runs:
        parts.append(f'<section id="run-{e(s.run.run_id)}"><h3>Run <code>{e(s.run.run_id)}</code></h3><table>')
        parts += [f"<tr><th>{e(k)}</th><td><code>{e(v)}</code></td></tr>" for k, v in _run_facts(s)]
        parts.append(
            "</table><h4>Output points</h4><table><tr><th>claim</th><th>variable</th><th>period</th>"
            "<th>unit</th><th>transformation</th><th>table / row / column</th><th>value</th></tr>"
        )
        for p, cid in s.points:
            parts.append(
                f'<tr id="{_anchor(p.point_id)}"><td><code>{e(cid)}</code></td><td>{e(p.variable)}</td>'
                f"<td>{e(p.period)}</td><td>{e(p.unit)}</td><td>{e(p.transformation)}</td>"
                f"<td>{e(p.table_name)} / {e(p.row)} / {e(p.column)}</td><td>{p.value!r}</td></tr>"
            )
        parts.append("</table><h4>Restrictions</h4><ul>")
        parts += [
            f"<li>{e(x.variable)} {'increase' if x.direction > 0 else 'decrease'} ({e(x.aggregation)}, "
            f"{e(x.horizon)}, priority {x.priority})</li>"
            for x in s.restrictions
        ]
        parts.append("</ul><h4>Supporting relations</h4><ul>")
        parts += [
            f"<li>{e(rel.src_var)} {e(rel.sign.value)}→ {e(rel.dst_var)} {e(ref)}: “{e(rel.quote)}”</li>"
            for rel, ref in s.relations
        ]
        parts.append("</ul></section>")
    parts.append("</body></html>")
    return "\n".join(parts).encode("utf-8")


# --------------------------------------------------------------------------- Markdown


def _md_escape(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_[]<>#|" else c for c in text)


_OUTLOOK_NOTE = (
    "Model projections beside the official projection published by the cutoff (the anchored baseline follows "
    "it); official adverse figures published after the cutoff are evaluation references only and never reached "
    "the model."
)


def _png_img(png: bytes, alt: str, e: Callable[[str], str]) -> str:
    return f'<img src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}" alt="{e(alt)}">'


def _figures_html(view: ReportView, e: Callable[[str], str]) -> str:
    """The fan charts (one PNG per variable) and the bank chart, inline as base64 PNG, each with its caption."""
    parts = []
    for c in view.charts:
        imgs = "".join(_png_img(fan_panel_png(c, p), fan_panel_alt(c, p), e) for p in c.panels)
        parts.append(
            f'<figure class="fan" id="fan-{e(c.run_id)}"><div class="panels">{imgs}</div>'
            f"<figcaption>{e(chart_caption(c))}</figcaption></figure>"
        )
    for b in view.bank_charts:
        parts.append(
            f'<figure class="bank" id="bank-{e(b.run_id)}">{_png_img(bank_chart_png(b), bank_caption(b), e)}'
            f"<figcaption>{e(bank_caption(b))}</figcaption></figure>"
        )
    return "<h2>Figures</h2>" + "".join(parts) if parts else ""


def _outlook_html(view: ReportView, e: Callable[[str], str]) -> str:
    if not view.outlook:
        return ""
    head = "".join(f"<th>{e(h)}</th>" for _, h in OUTLOOK_HEADERS)
    parts = [f"<h2>Against the official outlook</h2><p><small>{e(_OUTLOOK_NOTE)}</small></p>"]
    for run_id, rows in view.outlook:
        body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>" for row in rows)
        parts.append(f'<table class="outlook" id="outlook-{e(run_id)}"><tr>{head}</tr>{body}</table>')
        parts.append(f"<p><small>run {e(run_id)}</small></p>")
    return "".join(parts)


def to_markdown(view: ReportView) -> bytes:
    r = view.report

    def link(text: str, run_id: str, point_id: str) -> str:
        return f"[{_md_escape(text)}](#{_anchor(point_id)})"

    def cite(seg: Segment, nos: list[int]) -> str:
        return _md_escape(seg.text) + "".join(f"[^{n}]" for n in nos)

    body = "\n>\n".join(f"> {p}" for p in _paragraph_texts(view, link, cite, _md_escape))
    lines = [
        f"> *{_md_escape(r.title)}*",
        ">",
        body,
        "",
        f"Report `{r.report_id}` · analysis `{r.analysis_id}` · risk `{r.risk}`",
        "",
    ]
    for n, (rel, ref) in enumerate(view.citations, start=1):
        lines.append(
            f"[^{n}]: {_md_escape(ref)}: “{_md_escape(rel.quote)}” (relation `{rel.relation_id}`; "
            f"{_md_escape(view.reading.get(rel.relation_id, ''))})"
        )
    if view.outlook:
        lines += ["", "## Against the official outlook", "", _OUTLOOK_NOTE, ""]
        for run_id, rows in view.outlook:
            lines += [f"Run `{run_id}`", "", "| " + " | ".join(h for _, h in OUTLOOK_HEADERS) + " |"]
            lines += ["|" + "---|" * len(OUTLOOK_HEADERS)]
            lines += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in rows]
            lines.append("")
    lines += ["", "## Model runs", ""]
    for s in view.runs:
        lines += [f'<a id="run-{s.run.run_id}"></a>', f"### Run `{s.run.run_id}`", "", "| field | value |", "|---|---|"]
        lines += [f"| {k} | `{v}` |" for k, v in _run_facts(s)]
        lines += [
            "",
            "| claim | variable | period | unit | table / row / column | value |",
            "|---|---|---|---|---|---|",
        ]
        lines += [
            f'| <a id="{_anchor(p.point_id)}"></a>`{cid}` | {p.variable} | {p.period} | {p.unit} | '
            f"{p.table_name} / {p.row} / {p.column} | {p.value!r} |"
            for p, cid in s.points
        ]
        lines += [""] + [
            f"- restriction: {x.variable} {'increase' if x.direction > 0 else 'decrease'} "
            f"({x.aggregation}, {x.horizon}, priority {x.priority})"
            for x in s.restrictions
        ]
        lines += [
            f"- relation {rel.src_var} {rel.sign.value}→ {rel.dst_var} {_md_escape(ref)}: “{_md_escape(rel.quote)}”"
            for rel, ref in s.relations
        ]
        lines.append("")
    return "\n".join(lines).encode("utf-8")


# --------------------------------------------------------------------------- LaTeX

_TEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\u2013": "--",
    "\u2014": "---",
    "“": "``",
    "”": "''",
    "→": r"$\rightarrow$",
}


def tex_escape(text: str) -> str:
    return "".join(_TEX.get(c, c) for c in text)


def _tex_anchor(point_id: str) -> str:
    return _anchor(point_id).replace("_", "-")  # underscores in hyperref names need care; avoid them


def fan_chart_tikz(chart: FanChart, panel_w: float = 5.2, panel_h: float = 2.8) -> str:
    """The fan chart as a TikZ picture (for the LaTeX export): one panel per variable, the
    5–95 % band filled, the median dashed, the selected path solid.

    Each panel is a scope whose y unit and shift map the panel's value range onto its
    height, so every coordinate is the stored value itself (``(t, value)`` with ``t`` the
    year's position): the picture is drawn from the run's ``fan_chart`` and
    ``selected_path`` tables, never from retyped numbers.
    """
    cols = 2
    out = [r"\begin{tikzpicture}[font=\scriptsize]"]
    for i, p in enumerate(chart.panels):
        x0, y0 = (i % cols) * (panel_w + 0.8), -(i // cols) * (panel_h + 1.0)
        lo, hi = min(p.p05 + p.selected + p.median), max(p.p95 + p.selected + p.median)
        span = (hi - lo) or 1.0
        unit = panel_h / span  # cm per unit of the variable
        dx = panel_w / max(len(p.years) - 1, 1)
        out.append(rf"\begin{{scope}}[shift={{({x0:.4f}cm,{y0 - lo * unit:.4f}cm)}}, x={dx:.4f}cm, y={unit:.6f}cm]")

        def line(values: list[float]) -> str:
            return " -- ".join(f"({t},{v:.4f})" for t, v in enumerate(values))

        band = " -- ".join(
            [f"({t},{v:.4f})" for t, v in enumerate(p.p95)]
            + [f"({t},{v:.4f})" for t, v in reversed(list(enumerate(p.p05)))]
        )
        out.append(rf"\fill[blue!25] {band} -- cycle; % fan: band p05-p95")
        if lo < 0 < hi:
            out.append(rf"\draw[gray, very thin] (0,0) -- ({len(p.years) - 1},0);")
        out.append(rf"\draw[black, dashed] {line(p.median)}; % fan: median")
        out.append(rf"\draw[red, thick] {line(p.selected)}; % fan: selected")
        for t, y in enumerate(p.years):
            out.append(rf"\node[below] at ({t},{lo:.4f}) {{{tex_escape(y)}}};")
        for v, shift in ((lo, 4), (hi, -2)):  # lifted clear of the year labels below
            out.append(rf"\node[left, yshift={shift}pt] at (0,{v:.4f}) {{{v:.1f}}};")
        name = tex_escape(variable_label(p.variable))
        out.append(rf"\node[above right] at (0,{hi:.4f}) {{{name} ({tex_escape(p.unit)})}};")
        out.append(r"\end{scope}")
    out.append(r"\end{tikzpicture}")
    return "\n".join(out)


def to_latex(view: ReportView) -> bytes:
    r = view.report

    def link(text: str, run_id: str, point_id: str) -> str:
        return rf"\hyperlink{{{_tex_anchor(point_id)}}}{{{tex_escape(text)}}}"

    def cite(seg: Segment, nos: list[int]) -> str:
        notes = "".join(
            rf"\footnote{{{tex_escape(ref)}: ``{tex_escape(rel.quote)}'' "
            rf"({tex_escape(view.reading.get(rel.relation_id, ''))})}}"
            for rel, ref in (view.citations[n - 1] for n in nos)
        )
        return tex_escape(seg.text).replace(", p. ", r", p.~") + notes

    body = "\n\n".join(_paragraph_texts(view, link, cite, tex_escape))
    lines = [
        r"\documentclass{article}",
        r"\usepackage[utf8]{inputenc}",
        r"\usepackage[T1]{fontenc}",
        r"\usepackage{framed}",
        *([r"\usepackage{tikz}"] if view.charts else []),
        r"\usepackage{hyperref}",
        r"\begin{document}",
        "",
        r"\begin{framed}",
        rf"\noindent\emph{{{tex_escape(r.title)}}}",
        "",
        body,
        r"\end{framed}",
        "",
    ]
    for c in view.charts:
        lines += [
            r"\begin{figure}[ht]",
            r"\centering",
            fan_chart_tikz(c),
            rf"\caption{{{tex_escape(chart_caption(c))}}}",
            rf"\label{{fan-{_tex_anchor(c.run_id)}}}",
            r"\end{figure}",
            "",
        ]
    lines += [
        r"\section*{Model runs}",
    ]
    for s in view.runs:
        lines += [rf"\subsection*{{Run \texttt{{{tex_escape(s.run.run_id)}}}}}", r"\begin{description}"]
        lines += [rf"\item[{tex_escape(k)}] \texttt{{\detokenize{{{v}}}}}" for k, v in _run_facts(s)]
        lines += [r"\end{description}", r"\begin{itemize}"]
        lines += [
            rf"\item \hypertarget{{{_tex_anchor(p.point_id)}}}{{\texttt{{{tex_escape(cid)}}}}}: "
            rf"{tex_escape(p.variable)}, {tex_escape(p.period)}, {tex_escape(p.unit)}, "
            rf"{tex_escape(p.table_name)} / {tex_escape(p.row)} / {tex_escape(p.column)} = {p.value!r}"
            for p, cid in s.points
        ]
        lines += [
            rf"\item restriction {tex_escape(x.variable)} "
            rf"{'increase' if x.direction > 0 else 'decrease'} ({tex_escape(x.horizon)})"
            for x in s.restrictions
        ]
        lines += [
            rf"\item relation {tex_escape(rel.src_var)} {tex_escape(rel.sign.value)} "
            rf"{tex_escape(rel.dst_var)} {tex_escape(ref)}: ``{tex_escape(rel.quote)}''"
            for rel, ref in s.relations
        ]
        lines.append(r"\end{itemize}")
    lines.append(r"\end{document}")
    return "\n".join(lines).encode("utf-8")


# --------------------------------------------------------------------------- PDF


def to_pdf(view: ReportView) -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    styles = getSampleStyleSheet()
    small = styles["BodyText"].clone("small", fontSize=7.5, leading=9)
    e = html.escape
    r = view.report

    def link(text: str, run_id: str, point_id: str) -> str:
        return f'<a href="#{_anchor(point_id)}" color="blue"><b>{e(text)}</b></a>'

    def cite(seg: Segment, nos: list[int]) -> str:
        return e(seg.text) + "".join(f"<super>[{n}]</super>" for n in nos)

    body = [[Paragraph(p, styles["BodyText"])] for p in _paragraph_texts(view, link, cite, e)]
    frame = Table([[Paragraph(f"<i>{e(r.title)}</i>", styles["BodyText"])], *body], colWidths=[460])
    frame.setStyle(
        TableStyle(
            [
                ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                ("LEFTPADDING", (0, 0), (-1, -1), 10),
                ("RIGHTPADDING", (0, 0), (-1, -1), 10),
            ]
        )
    )
    grid = TableStyle(
        [
            ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ("FONTSIZE", (0, 0), (-1, -1), 8),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ]
    )
    cover = Table(
        [[Paragraph(f"<b>{e(k)}</b>", small), Paragraph(e(v), small)] for k, v in view.cover], colWidths=[110, 350]
    )
    cover.setStyle(grid)
    head = ["variable", "period", "statistic", "value", "unit, measure"]
    rows = [[Paragraph(f"<b>{h}</b>", small) for h in head]]
    rows += [
        [
            Paragraph(e(x.variable), small),
            Paragraph(e(x.period), small),
            Paragraph(e(x.statistic), small),
            Paragraph(f'<a href="#{_anchor(x.point_id)}" color="blue">{e(x.value)}</a>', small),
            Paragraph(f"{e(x.unit)}, {e(x.transformation.replace('_', ' '))}", small),
        ]
        for x in view.summary
    ]
    summary = Table(rows, colWidths=[120, 60, 60, 70, 150], repeatRows=1)
    summary.setStyle(grid)
    story: list[Any] = [
        Paragraph(e(r.title), styles["Title"]),
        cover,
        Spacer(1, 10),
        Paragraph("Headline figures", styles["Heading2"]),
        summary,
        Spacer(1, 12),
        *_figures_pdf(view, small, styles["Heading2"]),
        frame,
        Spacer(1, 12),
    ]
    story.append(Paragraph("Sources", styles["Heading2"]))
    story += [
        Paragraph(f"[{n}] {e(ref)}: “{e(rel.quote)}” ({e(view.reading.get(rel.relation_id, ''))})", styles["BodyText"])
        for n, (rel, ref) in enumerate(view.citations, start=1)
    ]
    story.append(Paragraph("Model runs", styles["Heading2"]))
    for s in view.runs:
        story.append(Paragraph(f'<a name="run-{s.run.run_id}"/>Run {e(s.run.run_id)}', styles["Heading3"]))
        facts = Table(
            [[Paragraph(f"<b>{e(k)}</b>", small), Paragraph(e(v), small)] for k, v in _run_facts(s)],
            colWidths=[170, 290],
            repeatRows=0,
        )
        facts.setStyle(grid)
        story.append(facts)
        story += [
            Paragraph(
                f'<a name="{_anchor(p.point_id)}"/>{e(cid)}: {e(p.variable)} {e(p.period)} '
                f"[{e(p.unit)}, {e(p.transformation)}] {e(p.table_name)}/{e(p.row)}/{e(p.column)} "
                f"= {p.value!r}",
                small,
            )
            for p, cid in s.points
        ]
        story.append(Paragraph("Restrictions", styles["Heading4"]))
        story += [Paragraph(e(_restriction_text(x)), small) for x in s.restrictions]
        story.append(Paragraph("Supporting relations", styles["Heading4"]))
        story += [
            Paragraph(f"{e(rel.src_var)} {e(rel.sign.value)}→ {e(rel.dst_var)} {e(ref)}: “{e(rel.quote)}”", small)
            for rel, ref in s.relations
        ]
    buf = io.BytesIO()
    SimpleDocTemplate(buf, pagesize=A4, title=r.title, author="aieco", invariant=1).build(story)
    return buf.getvalue()


def _figures_pdf(view: ReportView, small: Any, heading: Any) -> list[Any]:
    """The fan charts (two variables a row) and the bank chart as embedded PNG images, each with its caption."""
    from reportlab.platypus import Image, KeepTogether, Paragraph, Spacer, Table

    e = html.escape
    out: list[Any] = []
    for c in view.charts:
        images = [Image(io.BytesIO(fan_panel_png(c, p)), width=230, height=166.75) for p in c.panels]
        grid = Table([images[i : i + 2] for i in range(0, len(images), 2)], colWidths=[235, 235])
        out.append(KeepTogether([grid, Paragraph(e(chart_caption(c)), small), Spacer(1, 8)]))
    for b in view.bank_charts:
        image = Image(io.BytesIO(bank_chart_png(b)), width=460, height=195.5)
        out.append(KeepTogether([image, Paragraph(e(bank_caption(b)), small), Spacer(1, 8)]))
    return [Paragraph("Figures", heading), *out] if out else []


# --------------------------------------------------------------------------- JSON bundle


def export_bundle(store: Store, report_id: str) -> bytes:
    """Canonical JSON: the report and every record and artifact it rests on, with digests."""
    report = store.require(Report, report_id)
    sentences = store.find(ReportSentence, report_id=report_id)
    claims = [store.require(Claim, c) for c in report.claim_ids]
    tests = [t for t in store.find(OutputTest, claim_id=[c.claim_id for c in claims])]
    runs = [store.require(ModelRun, r) for r in dict.fromkeys(c.run_id for c in claims)]
    points = [store.require(ModelOutputPoint, c.point_id) for c in claims]
    specs = [s for s in (store.get(ModelSpecification, r.spec_id) for r in runs) if s is not None]
    restrictions = store.find(Restriction, analysis_id=report.analysis_id, risk=report.risk)
    rel_ids = dict.fromkeys(
        [
            *(r for s in sentences for r in s.cited_relation_ids),
            *(r for x in restrictions for r in x.supporting_relation_ids),
        ]
    )
    relations = [x for x in (store.get(Relation, r) for r in rel_ids) if x is not None]
    locations = [store.require(SourceLocation, x.location_id) for x in relations]
    sources = [store.require(Source, s) for s in dict.fromkeys(x.source_id for x in relations)]
    records: list[Record] = [
        report,
        *sentences,
        *claims,
        *tests,
        *runs,
        *points,
        *specs,
        *restrictions,
        *relations,
        *dict.fromkeys(locations),
        *sources,
    ]
    artifacts = {
        d: base64.b64encode(store.get_artifact(d)).decode("ascii")
        for d in dict.fromkeys(r.output_digest for r in runs if r.output_digest)
    }
    content = {
        "format": BUNDLE_FORMAT,
        "report_id": report_id,
        "records": [
            {"type": type(x).__name__, "id": x.key, "digest": x.digest(), "data": x.model_dump(mode="json")}
            for x in records
        ],
        "artifacts": artifacts,
    }
    content["bundle_digest"] = sha256_hex(canonical_json(content))
    return canonical_json(content).encode("utf-8")


def _bundle_shape(content: dict[str, Any], types: dict[str, Any]) -> None:
    """The bundle's structure, before anything in it is used: an InputError naming what is missing."""
    fix = "export the report again with `aieco report export ID --format json`"
    records, artifacts = content.get("records"), content.get("artifacts")
    if not isinstance(records, list) or not isinstance(artifacts, dict):
        raise InputError("the bundle lacks its 'records' list or 'artifacts' table", fix=fix)
    for i, item in enumerate(records):
        if not isinstance(item, dict) or not {"type", "id", "digest", "data"} <= set(item):
            raise InputError(f"bundle record #{i} lacks one of type, id, digest, data", fix=fix)
        if item["type"] not in types:
            raise InputError(
                f"bundle record #{i} has the unknown type {item['type']!r}; known: {', '.join(sorted(types))}", fix=fix
            )
    reports = {item["id"] for item in records if item["type"] == "Report"}
    if content.get("report_id") not in reports:
        raise InputError(f"the bundle's report_id {content.get('report_id')!r} names none of its reports", fix=fix)


def verify_bundle(data: bytes) -> dict[str, Any]:
    """Re-verify a bundle: digests, record ids, artifacts, every claim and the rendered text.

    Returns ``{report_id, records, artifacts, claims}``; raises IntegrityError on any mismatch.
    """
    from aieco.reporting.audit import audit_claims

    try:
        content = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"not a report bundle: {exc}") from exc
    if not isinstance(content, dict) or content.get("format") != BUNDLE_FORMAT:
        raise InputError("not an aieco report bundle", fix="export one with `aieco report export ID --format json`")
    stated = content.pop("bundle_digest", None)
    if stated != sha256_hex(canonical_json(content)):
        raise IntegrityError("bundle digest does not match its content")
    types = {cls.__name__: cls for cls in RECORD_TYPES}
    _bundle_shape(content, types)
    records = []
    for item in content["records"]:
        try:
            rec = types[item["type"]].model_validate(item["data"])
        except ValidationError as exc:
            raise InputError(
                f"bundle record {item['type']} {item['id']} is not a valid {item['type']}: {exc.errors()[0]['msg']}",
                fix="export the report again with `aieco report export ID --format json`",
            ) from None
        if rec.key != item["id"] or rec.digest() != item["digest"] or rec.key != rec.expected_id():
            raise IntegrityError(f"{item['type']} {item['id']} in the bundle does not match its digest or id")
        records.append(rec)
    with tempfile.TemporaryDirectory(prefix="aieco-bundle-") as tmp:
        store = Store(Path(tmp) / "ws")
        try:
            for digest_, b64 in content["artifacts"].items():
                try:
                    raw = base64.b64decode(b64, validate=True)
                except (ValueError, TypeError):
                    raise InputError(f"bundle artifact {digest_} is not base64") from None
                if store.put_artifact(raw, "tables") != digest_:
                    raise IntegrityError(f"artifact {digest_} in the bundle does not hash to its name")
            store.put_many(records)
            problems = audit_claims(store, None)
            if problems:
                raise IntegrityError(
                    "bundle claims do not re-resolve: "
                    + "; ".join(f"{p['kind']} {p['id']}: {p['detail']}" for p in problems)
                )
            rebuild_report(store, content["report_id"])
            n_claims = store.count(Claim)
        finally:
            store.close()
    return {
        "report_id": content["report_id"],
        "records": len(records),
        "artifacts": len(content["artifacts"]),
        "claims": n_claims,
    }
