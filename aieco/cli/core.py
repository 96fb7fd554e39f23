"""Workspace commands: init and audit."""

from __future__ import annotations

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
@common
@pass_state
@click.pass_context
def audit(ctx: click.Context, state: CliState, analysis_id: str | None) -> None:
    """Recompute every artifact, record and source digest; exit 1 on any mismatch."""
    from aieco.audit import run_audit

    with state.store(create=False) as store:
        result = run_audit(store, analysis_id)

    def human(r: dict) -> str:
        lines = [f"audited {r['checked']} records and artifacts in {r['workspace']}"]
        lines += [f"  MISMATCH {p['kind']} {p['id']}: {p['detail']}" for p in r["mismatches"]]
        lines.append("clean" if r["clean"] else f"{len(r['mismatches'])} mismatch(es)")
        return "\n".join(lines)

    emit(state, result, human)
    if not result["clean"]:
        ctx.exit(1)
