"""`aieco default`: build the real default workspace from the package alone and run its request."""

from __future__ import annotations

import click

from aieco.cli.analyze import StageProgress, human_outcome, outcome_json
from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.llm.backends import BACKENDS
from aieco.progress import reporting


@main.command("default")
@click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default="offline",
    show_default=True,
    help="LLM backend for the default analysis.",
)
@common
@pass_state
@click.pass_context
def default_workspace(ctx: click.Context, state: CliState, backend: str) -> None:
    """Build the real default workspace (ESRB/BIS corpus, ECB/Eurostat/BIS series, EBA banks;
    cutoff 2024-12-31) and run its three risks; ends with report paths or stop reasons."""
    from aieco.default import build_default, run_default

    progress = StageProgress(enabled=not state.json)

    def step(message: str) -> None:
        if not state.json:
            progress.note(message)

    try:
        with state.store() as store, reporting(progress.substep):
            build = build_default(store, progress=step)
            outcome = run_default(store, backend=backend, progress=progress)
            data = outcome_json(outcome, store, state)
            data["build"] = {
                k: build[k] for k in ("manifest", "ingest", "observations", "official_projections", "bank_values")
            }
    finally:
        progress.close()
    emit(state, data, human_outcome)
    if any(a["status"] == "failed" for a in data["analyses"]):
        ctx.exit(1)
