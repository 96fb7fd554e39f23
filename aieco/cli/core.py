"""Workspace commands: init and audit."""

from __future__ import annotations

from pathlib import Path

import click

from aieco.cli.base import CliState, common, emit, main, pass_state


@main.command()
@common
@pass_state
def init(state: CliState) -> None:
    """Create (or open) the workspace and bring its schema up to date."""
    with state.store() as store:
        counts = store.table_counts()
    emit(
        state,
        {"workspace": str(state.workspace), "tables": counts},
        f"workspace {state.workspace} ready ({len(counts)} tables)",
    )


@main.command()
@click.argument("analysis_id", required=False)
@click.option(
    "--anchor",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="An anchor.json kept outside the workspace: the chains must still hold the rows it recorded.",
)
@common
@pass_state
@click.pass_context
def audit(ctx: click.Context, state: CliState, analysis_id: str | None, anchor: Path | None) -> None:
    """Recompute every artifact, record and source digest (read-only, one snapshot); exit 1 on any mismatch."""
    from aieco.audit import read_anchor, run_audit
    from aieco.store import Store

    anchor_doc = read_anchor(anchor) if anchor is not None else None
    with Store(state.workspace, read_only=True) as store:
        result = run_audit(store, analysis_id, anchor=anchor_doc)

    def human(r: dict) -> str:
        lines = [f"audited {r['checked']} records and artifacts in {r['workspace']}"]
        lines += [f"  MISMATCH {p['kind']} {p['id']}: {p['detail']}" for p in r["mismatches"]]
        lines += [f"  superseded by review: {s['report_id']} ({', '.join(s['decisions'])})" for s in r["superseded"]]
        lines.append("clean" if r["clean"] else f"{len(r['mismatches'])} mismatch(es)")
        return "\n".join(lines)

    emit(state, result, human)
    if not result["clean"]:
        ctx.exit(1)
