"""Report commands: export a stored report, list reports, check a candidate report text."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.errors import InputError


@main.group()
def report() -> None:
    """Stored reports: export, verify a bundle, list."""


@report.command("export")
@click.argument("report_id")
@click.option(
    "--format", "fmt", type=click.Choice(["html", "md", "tex", "pdf", "json"]), required=True, help="Output format."
)
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path),
    default=None,
    help="File to write, or - for stdout (default: a file named from the report's title in this folder).",
)
@common
@pass_state
def export(state: CliState, report_id: str, fmt: str, out: Path | None) -> None:
    """Export report REPORT_ID (re-rendered from its claims) as html, md, tex, pdf or json."""
    from aieco.reporting.export import export_file_name, export_report

    with state.store(create=False) as store:
        data = export_report(store, report_id, fmt)
        name = export_file_name(store, report_id, fmt)
    if str(out) == "-":  # asked for on stdout (a pipe)
        stream = state.out or sys.stdout
        stream.flush()
        stream.buffer.write(data)
        stream.buffer.flush()
        return
    out = (out or Path(name)).absolute()
    if out.is_dir():
        out = out / name
    out.write_bytes(data)
    state.record_output(out)
    emit(
        state,
        {"report_id": report_id, "format": fmt, "path": str(out), "bytes": len(data)},
        f"wrote {out} ({len(data)} bytes, {fmt})",
    )


@report.command("verify")
@click.argument("bundle", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@common
@pass_state
@click.pass_context
def verify(ctx: click.Context, state: CliState, bundle: Path) -> None:
    """Verify a JSON report bundle: digests, record ids, artifacts, every claim and the text.

    Works without a workspace (the bundle is re-imported into a scratch one); exit 1 when
    anything does not match.
    """
    from aieco.errors import IntegrityError
    from aieco.reporting.export import verify_bundle

    try:
        result = {"bundle": str(bundle), "verified": True, **verify_bundle(bundle.read_bytes())}
    except IntegrityError as exc:
        result = {"bundle": str(bundle), "verified": False, "problem": exc.message}

    def human(r: dict) -> str:
        if not r["verified"]:
            return f"NOT VERIFIED {r['bundle']}: {r['problem']}"
        return (
            f"verified {r['bundle']}: report {r['report_id']}, {r['records']} records, "
            f"{r['artifacts']} artifact(s), {r['claims']} claim(s) re-resolved"
        )

    emit(state, result, human)
    if not result["verified"]:
        ctx.exit(1)


@report.command("list")
@click.option("--analysis", "analysis_id", default=None, help="Only this analysis.")
@common
@pass_state
def list_reports(state: CliState, analysis_id: str | None) -> None:
    """List stored reports with status and failing rule."""
    from aieco.api import report_rows

    keep = ("report_id", "analysis_id", "risk", "title", "status", "failure_rule", "failure_position", "superseded_by")
    with state.store(create=False) as store:
        rows = [{k: r[k] for k in keep} for r in report_rows(store, analysis_id)]

    def human(rs: list[dict]) -> str:
        if not rs:
            return "no reports"
        return "\n".join(
            f"{r['report_id']}  {r['status']:<6}  {r['risk']}  {r['title']}"
            + (f"  [{r['failure_rule']} at sentence {r['failure_position']}]" if r["failure_rule"] else "")
            + (f"  [superseded by review: {', '.join(r['superseded_by'])}]" if r["superseded_by"] else "")
            for r in rs
        )

    emit(state, rows, human)


@main.command("check-report")
@click.argument("file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("--analysis", "analysis_id", required=True, help="Analysis whose claims the tokens may name.")
@click.option(
    "--phase",
    type=click.Choice(["generation", "execution"]),
    default="generation",
    help="generation: registered claims are known; execution: only passed claims.",
)
@common
@pass_state
@click.pass_context
def check_report(ctx: click.Context, state: CliState, file: Path, analysis_id: str, phase: str) -> None:
    """Check a candidate report (plain text or a structured JSON draft) against every report rule.

    The same rules as generation and the renderer: numeric contract, attribution, the
    claim's variable against the text, direction against values and cited relations. Plain
    text cites a relation as ``[rel:<relation id>]`` inside the sentence; each violation
    names its rule, sentence and character offset (``text_offset`` in the whole file).
    """
    from aieco.reporting.render import check_report_draft
    from aieco.reporting.rules import locate_in_text, plain_text_drafts
    from aieco.reporting.schema import ReportDraft

    text = file.read_text(encoding="utf-8")
    with state.store(create=False) as store:
        draft = None
        if file.suffix == ".json":
            try:
                draft = ReportDraft.model_validate(json.loads(text))
            except ValueError as exc:
                raise InputError(
                    f"{file} is not a structured report draft: {exc}",
                    fix="give a ReportDraft JSON {title, risk, sentences} or a plain text file",
                ) from exc
        if draft is not None:
            violations = check_report_draft(store, analysis_id, draft, phase=phase)
        else:
            pieces = plain_text_drafts(text)
            violations = locate_in_text(
                text, pieces, check_report_draft(store, analysis_id, [d for _, d in pieces], phase=phase)
            )
    result = {
        "file": str(file),
        "analysis_id": analysis_id,
        "phase": phase,
        "accepted": not violations,
        "violations": [v.model_dump() for v in violations],
    }

    def human(r: dict) -> str:
        lines = [str(v) for v in violations]
        lines.append("accepted" if r["accepted"] else f"{len(violations)} violation(s)")
        return "\n".join(lines)

    emit(state, result, human)
    if violations:
        ctx.exit(1)
