"""Export of a stored report: HTML, Markdown, LaTeX (framed), PDF and a verifiable JSON bundle.

Every export first re-renders the report from its claims (``rebuild_report``), so an
altered run, artifact or claim stops the export instead of printing a stale number. In
HTML, Markdown and PDF every number links to its output point inside the section of its
ModelRun (digests, inputs, restrictions, supporting relations with quotes); sources are
footnoted with their quotes. The HTML page is self-contained (no external resources).
The JSON bundle holds the report, its claims, tests, runs, points, restrictions,
relations, locations, sources and the run artifacts themselves; :func:`verify_bundle`
re-imports it into a scratch workspace and re-resolves every claim.
"""

from __future__ import annotations

import base64
import html
import io
import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
from aieco.reporting.render import RenderedReport, Segment, rebuild_report, short_reference
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
class ReportView:
    """Everything an export shows, gathered once from the store."""

    rendered: RenderedReport
    runs: list[RunSection]
    citations: list[tuple[Relation, str]]  # footnotes in order of first citation

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
        runs.append(RunSection(run, store.get(ModelSpecification, run.spec_id), points, restrictions,
                               [_cited(store, r) for r in rel_ids if store.get(Relation, r)]))
    order = dict.fromkeys(r for s in rendered.sentences for r in s.cited_relation_ids)
    return ReportView(rendered, runs, [_cited(store, r) for r in order])


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
        raise InputError(f"report {report_id} failed ({view.report.failure_rule}); only passed reports export",
                         fix="see `aieco report list` for the failing rule and sentence")
    return {"html": to_html, "md": to_markdown, "tex": to_latex, "pdf": to_pdf}[fmt](view)


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
    facts = [("model", f"{run.model_id} ({run.spec_id})"), ("status", run.status.value),
             ("output digest", run.output_digest or ""), ("code digest", run.code_digest),
             ("config digest", run.config_digest), ("environment digest", run.env_digest),
             ("request digest", run.request_digest), ("seed", str(run.seed)),
             ("started", run.started_at.isoformat()), ("ended", run.ended_at.isoformat())]
    facts += [(f"input {name}", d) for name, d in sorted(run.input_digests.items())]
    facts += [(f"diagnostic {name}", json.dumps(v, sort_keys=True)) for name, v in sorted(run.diagnostics.items())]
    return facts


def _sentence_pieces(view: ReportView, segments: list[Segment], link: Callable[[str, str, str], str],
                     cite: Callable[[Segment, list[int]], str], esc: Callable[[str], str]) -> str:
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


# --------------------------------------------------------------------------- HTML

_CSS = """body{font-family:Georgia,serif;max-width:48em;margin:2em auto;line-height:1.5;color:#222}
.framed{border:1px solid #444;padding:1em 1.4em;margin:1em 0}
a.num{font-weight:bold;text-decoration:none;border-bottom:1px dotted #06c;color:#06c}
sup a{text-decoration:none}table{border-collapse:collapse;font-size:.85em}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
code{font-size:.85em;word-break:break-all}blockquote{margin:.3em 1em;color:#444}"""


def to_html(view: ReportView) -> bytes:
    e = html.escape
    r = view.report

    def link(text: str, run_id: str, point_id: str) -> str:
        return f'<a class="num" href="#{_anchor(point_id)}" title="run {run_id}">{e(text)}</a>'

    def cite(seg: Segment, nos: list[int]) -> str:
        sups = "".join(f'<sup><a href="#note-{n}">[{n}]</a></sup>' for n in nos)
        return e(seg.text) + sups

    body = " ".join(_sentence_pieces(view, segs, link, cite, e) for segs in view.rendered.segments if segs)
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{e(r.title)}</title>",
             f"<style>{_CSS}</style></head><body>",
             f'<div class="framed" id="report-{e(r.report_id)}"><p><em>{e(r.title)}</em></p><p>{body}</p></div>',
             f"<p><small>Report {e(r.report_id)} · analysis {e(r.analysis_id)} · risk {e(r.risk)} · "
             f"status {e(r.status)}</small></p>", "<h2>Sources</h2><ol>"]
    for n, (rel, ref) in enumerate(view.citations, start=1):
        parts.append(f'<li id="note-{n}">{e(ref)}: <blockquote>“{e(rel.quote)}”</blockquote>'
                     f"<small>relation <code>{e(rel.relation_id)}</code> {e(rel.src_var)} "
                     f"{e(rel.sign.value)}→ {e(rel.dst_var)}</small></li>")
    parts.append("</ol><h2>Model runs</h2>")
    for s in view.runs:
        parts.append(f'<section id="run-{e(s.run.run_id)}"><h3>Run <code>{e(s.run.run_id)}</code></h3><table>')
        parts += [f"<tr><th>{e(k)}</th><td><code>{e(v)}</code></td></tr>" for k, v in _run_facts(s)]
        parts.append("</table><h4>Output points</h4><table><tr><th>claim</th><th>variable</th><th>period</th>"
                     "<th>unit</th><th>transformation</th><th>table / row / column</th><th>value</th></tr>")
        for p, cid in s.points:
            parts.append(f'<tr id="{_anchor(p.point_id)}"><td><code>{e(cid)}</code></td><td>{e(p.variable)}</td>'
                         f"<td>{e(p.period)}</td><td>{e(p.unit)}</td><td>{e(p.transformation)}</td>"
                         f"<td>{e(p.table_name)} / {e(p.row)} / {e(p.column)}</td><td>{p.value!r}</td></tr>")
        parts.append("</table><h4>Restrictions</h4><ul>")
        parts += [f"<li>{e(x.variable)} {'increase' if x.direction > 0 else 'decrease'} ({e(x.aggregation)}, "
                  f"{e(x.horizon)}, priority {x.priority})</li>" for x in s.restrictions]
        parts.append("</ul><h4>Supporting relations</h4><ul>")
        parts += [f"<li>{e(rel.src_var)} {e(rel.sign.value)}→ {e(rel.dst_var)} {e(ref)}: “{e(rel.quote)}”</li>"
                  for rel, ref in s.relations]
        parts.append("</ul></section>")
    parts.append("</body></html>")
    return "\n".join(parts).encode("utf-8")


# --------------------------------------------------------------------------- Markdown


def _md_escape(text: str) -> str:
    return "".join("\\" + c if c in "\\`*_[]<>#|" else c for c in text)


def to_markdown(view: ReportView) -> bytes:
    r = view.report

    def link(text: str, run_id: str, point_id: str) -> str:
        return f"[{_md_escape(text)}](#{_anchor(point_id)})"

    def cite(seg: Segment, nos: list[int]) -> str:
        return _md_escape(seg.text) + "".join(f"[^{n}]" for n in nos)

    body = " ".join(_sentence_pieces(view, segs, link, cite, _md_escape) for segs in view.rendered.segments if segs)
    lines = [f"> *{_md_escape(r.title)}*", ">", f"> {body}", "",
             f"Report `{r.report_id}` · analysis `{r.analysis_id}` · risk `{r.risk}`", ""]
    for n, (rel, ref) in enumerate(view.citations, start=1):
        lines.append(f"[^{n}]: {_md_escape(ref)}: “{_md_escape(rel.quote)}” (relation `{rel.relation_id}`)")
    lines += ["", "## Model runs", ""]
    for s in view.runs:
        lines += [f'<a id="run-{s.run.run_id}"></a>', f"### Run `{s.run.run_id}`", "", "| field | value |",
                  "|---|---|"]
        lines += [f"| {k} | `{v}` |" for k, v in _run_facts(s)]
        lines += ["", "| claim | variable | period | unit | table / row / column | value |",
                  "|---|---|---|---|---|---|"]
        lines += [f'| <a id="{_anchor(p.point_id)}"></a>`{cid}` | {p.variable} | {p.period} | {p.unit} | '
                  f"{p.table_name} / {p.row} / {p.column} | {p.value!r} |" for p, cid in s.points]
        lines += [""] + [f"- restriction: {x.variable} {'increase' if x.direction > 0 else 'decrease'} "
                         f"({x.aggregation}, {x.horizon}, priority {x.priority})" for x in s.restrictions]
        lines += [f"- relation {rel.src_var} {rel.sign.value}→ {rel.dst_var} {_md_escape(ref)}: "
                  f"“{_md_escape(rel.quote)}”" for rel, ref in s.relations]
        lines.append("")
    return "\n".join(lines).encode("utf-8")


# --------------------------------------------------------------------------- LaTeX

_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
        "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\u2013": "--", "\u2014": "---",
        "“": "``", "”": "''", "→": r"$\rightarrow$"}


def tex_escape(text: str) -> str:
    return "".join(_TEX.get(c, c) for c in text)


def _tex_anchor(point_id: str) -> str:
    return _anchor(point_id).replace("_", "-")  # underscores in hyperref names need care; avoid them


def to_latex(view: ReportView) -> bytes:
    r = view.report

    def link(text: str, run_id: str, point_id: str) -> str:
        return rf"\hyperlink{{{_tex_anchor(point_id)}}}{{{tex_escape(text)}}}"

    def cite(seg: Segment, nos: list[int]) -> str:
        notes = "".join(rf"\footnote{{{tex_escape(ref)}: ``{tex_escape(rel.quote)}''}}"
                        for rel, ref in (view.citations[n - 1] for n in nos))
        return tex_escape(seg.text).replace(", p. ", r", p.~") + notes

    body = " ".join(_sentence_pieces(view, segs, link, cite, tex_escape) for segs in view.rendered.segments if segs)
    lines = [r"\documentclass{article}", r"\usepackage[utf8]{inputenc}", r"\usepackage[T1]{fontenc}",
             r"\usepackage{framed}", r"\usepackage{hyperref}", r"\begin{document}", "",
             r"\begin{framed}", rf"\noindent\emph{{{tex_escape(r.title)}}}", "", body, r"\end{framed}", "",
             r"\section*{Model runs}"]
    for s in view.runs:
        lines += [rf"\subsection*{{Run \texttt{{{tex_escape(s.run.run_id)}}}}}", r"\begin{description}"]
        lines += [rf"\item[{tex_escape(k)}] \texttt{{\detokenize{{{v}}}}}" for k, v in _run_facts(s)]
        lines += [r"\end{description}", r"\begin{itemize}"]
        lines += [rf"\item \hypertarget{{{_tex_anchor(p.point_id)}}}{{\texttt{{{tex_escape(cid)}}}}}: "
                  rf"{tex_escape(p.variable)}, {tex_escape(p.period)}, {tex_escape(p.unit)}, "
                  rf"{tex_escape(p.table_name)} / {tex_escape(p.row)} / {tex_escape(p.column)} = {p.value!r}"
                  for p, cid in s.points]
        lines += [rf"\item restriction {tex_escape(x.variable)} "
                  rf"{'increase' if x.direction > 0 else 'decrease'} ({tex_escape(x.horizon)})" for x in s.restrictions]
        lines += [rf"\item relation {tex_escape(rel.src_var)} {tex_escape(rel.sign.value)} "
                  rf"{tex_escape(rel.dst_var)} {tex_escape(ref)}: ``{tex_escape(rel.quote)}''"
                  for rel, ref in s.relations]
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
    e = html.escape
    r = view.report

    def link(text: str, run_id: str, point_id: str) -> str:
        return f'<a href="#{_anchor(point_id)}" color="blue"><b>{e(text)}</b></a>'

    def cite(seg: Segment, nos: list[int]) -> str:
        return e(seg.text) + "".join(f"<super>[{n}]</super>" for n in nos)

    body = " ".join(_sentence_pieces(view, segs, link, cite, e) for segs in view.rendered.segments if segs)
    frame = Table([[Paragraph(f"<i>{e(r.title)}</i>", styles["BodyText"])], [Paragraph(body, styles["BodyText"])]],
                  colWidths=[460])
    frame.setStyle(TableStyle([("BOX", (0, 0), (-1, -1), 0.8, colors.black), ("LEFTPADDING", (0, 0), (-1, -1), 10),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 10)]))
    small = styles["BodyText"].clone("small", fontSize=7.5, leading=9)
    story: list[Any] = [frame, Spacer(1, 12), Paragraph("Sources", styles["Heading2"])]
    story += [Paragraph(f"[{n}] {e(ref)}: “{e(rel.quote)}”", styles["BodyText"])
              for n, (rel, ref) in enumerate(view.citations, start=1)]
    story.append(Paragraph("Model runs", styles["Heading2"]))
    for s in view.runs:
        story.append(Paragraph(f'<a name="run-{s.run.run_id}"/>Run {e(s.run.run_id)}', styles["Heading3"]))
        story += [Paragraph(f"<b>{e(k)}</b>: {e(v)}", small) for k, v in _run_facts(s)]
        story += [Paragraph(f'<a name="{_anchor(p.point_id)}"/>{e(cid)}: {e(p.variable)} {e(p.period)} '
                            f"[{e(p.unit)}, {e(p.transformation)}] {e(p.table_name)}/{e(p.row)}/{e(p.column)} "
                            f"= {p.value!r}", small) for p, cid in s.points]
    buf = io.BytesIO()
    SimpleDocTemplate(buf, pagesize=A4, title=r.title, author="aieco", invariant=1).build(story)
    return buf.getvalue()


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
    rel_ids = dict.fromkeys([*(r for s in sentences for r in s.cited_relation_ids),
                             *(r for x in restrictions for r in x.supporting_relation_ids)])
    relations = [x for x in (store.get(Relation, r) for r in rel_ids) if x is not None]
    locations = [store.require(SourceLocation, x.location_id) for x in relations]
    sources = [store.require(Source, s) for s in dict.fromkeys(x.source_id for x in relations)]
    records: list[Record] = [report, *sentences, *claims, *tests, *runs, *points, *specs, *restrictions,
                             *relations, *dict.fromkeys(locations), *sources]
    artifacts = {d: base64.b64encode(store.get_artifact(d)).decode("ascii")
                 for d in dict.fromkeys(r.output_digest for r in runs if r.output_digest)}
    content = {"format": BUNDLE_FORMAT, "report_id": report_id,
               "records": [{"type": type(x).__name__, "id": x.key, "digest": x.digest(),
                            "data": x.model_dump(mode="json")} for x in records],
               "artifacts": artifacts}
    content["bundle_digest"] = sha256_hex(canonical_json(content))
    return canonical_json(content).encode("utf-8")


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
    records = []
    for item in content["records"]:
        rec = types[item["type"]].model_validate(item["data"])
        if rec.key != item["id"] or rec.digest() != item["digest"] or rec.key != rec.expected_id():
            raise IntegrityError(f"{item['type']} {item['id']} in the bundle does not match its digest or id")
        records.append(rec)
    with tempfile.TemporaryDirectory(prefix="aieco-bundle-") as tmp:
        store = Store(Path(tmp) / "ws")
        try:
            for digest_, b64 in content["artifacts"].items():
                if store.put_artifact(base64.b64decode(b64), "tables") != digest_:
                    raise IntegrityError(f"artifact {digest_} in the bundle does not hash to its name")
            store.put_many(records)
            problems = audit_claims(store, None)
            if problems:
                raise IntegrityError("bundle claims do not re-resolve: "
                                     + "; ".join(f"{p['kind']} {p['id']}: {p['detail']}" for p in problems))
            rebuild_report(store, content["report_id"])
            n_claims = store.count(Claim)
        finally:
            store.close()
    return {"report_id": content["report_id"], "records": len(records), "artifacts": len(content["artifacts"]),
            "claims": n_claims}
