"""`aieco analyze REQUEST.toml` and `aieco demo`: run the algorithm, show stage progress and results."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from tqdm import tqdm

from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.llm.backends import BACKENDS
from aieco.progress import reporting


class StageProgress:
    """A tqdm bar on stderr fed by the pipeline's progress(stage, event, index, total) callback."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()  # a bar only for a person watching a terminal
        self.bar: tqdm | None = None
        self.own_step = False  # the bar shows a sub-step's items (no stage has started yet)

    def __call__(self, stage: str, event: str, index: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None or self.own_step or index == 0 and event in ("started", "skipped"):
            self.close()
            self.bar = tqdm(total=total, file=sys.stderr, unit="stage", leave=False, dynamic_ncols=True)
        self.bar.set_description_str(stage)
        if event == "started":
            self.bar.set_postfix_str("", refresh=False)  # the previous stage's sub-step is over
        if event in ("completed", "skipped"):
            self.bar.update(1)
        elif event == "waiting":
            tqdm.write(
                "another run of this analysis is in progress in this workspace: waiting for it, "
                "then resuming after the stages it completed",
                file=sys.stderr,
            )
        elif event in ("stopped", "failed"):
            tqdm.write(f"  {stage}: {event}", file=sys.stderr)

    def substep(self, step: str, done: int, total: int, label: str) -> None:
        """The aieco.progress reporter: the running stage's sub-step (bank fit, simulation …) after its name."""
        if not self.enabled:
            return
        if self.own_step and self.bar is not None and self.bar.desc != step:
            self.close()  # another step of the build: a fresh bar (its own count and rate)
        if self.bar is None:  # before the first stage (building a workspace): a bar of this step alone
            self.bar = tqdm(total=total, file=sys.stderr, unit="item", leave=False, dynamic_ncols=True)
            self.own_step = True
        if self.own_step:
            self.bar.set_description_str(step)
            self.bar.total, self.bar.n = total, done
        self.bar.set_postfix_str(f"{step} {done}/{total}" + (f" {label}" if label else ""), refresh=True)

    def note(self, message: str) -> None:
        """A build step's message on stderr, above the bar when one is shown."""
        if self.bar is not None:
            tqdm.write(message, file=sys.stderr)
        else:
            click.echo(message, err=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        self.own_step = False


def report_paths(store: Any, report_ids: list[str], folder: Path) -> dict[str, str]:
    """Write each passed report as HTML (when the exporter is installed) and return the paths."""
    try:
        from aieco.reporting.export import export_report
    except ImportError:
        return {}
    out = {}
    for rid in report_ids:
        path = folder / f"{rid}.html"
        store.write_file(path, export_report(store, rid, "html"))  # recorded: the audit checks exports
        out[rid] = str(path)
    return out


def human_outcome(data: dict[str, Any]) -> str:
    lines = []
    for a in data["analyses"]:
        head = f"{a['risk']:<24} rep {a['repetition']}  {a['status']:<9}"
        if a["status"] == "completed":
            where = data.get("report_paths", {}).get(a["report_id"]) or a["report_id"]
            lines.append(f"{head} report {where}")
        else:
            lines.append(f"{head} at {a['stopped_stage']}: {a['reason']}")
    if "agreement" in data:
        g = data["agreement"]
        lines.append(
            f"agreement over {g['pairs']} pairs: paths {g['path_agreement']:.3f}, "
            f"warning subjects (Jaccard) {g['warning_jaccard']:.3f}"
        )
    ids = sorted({a["analysis_id"] for a in data["analyses"]})
    lines.append(f"analysis {', '.join(ids)} in workspace {data['workspace']}")
    return "\n".join(lines)


def outcome_json(outcome: Any, store: Any, state: CliState) -> dict[str, Any]:
    data = outcome.as_json()
    data["workspace"] = str(state.workspace)
    done = [a["report_id"] for a in data["analyses"] if a["report_id"]]
    data["report_paths"] = report_paths(store, done, state.workspace / "reports")
    return data


@main.command()
@click.argument("request_file", type=click.Path(path_type=Path))
@click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default=None,
    help="LLM backend (default: the request's; offline needs no key).",
)
@click.option(
    "--replay-from",
    type=click.Path(path_type=Path),
    default=None,
    help="Workspace holding the recorded calls for --backend replay (default: this one).",
)
@common
@pass_state
@click.pass_context
def analyze(
    ctx: click.Context, state: CliState, request_file: Path, backend: str | None, replay_from: Path | None
) -> None:
    """Run the algorithm for REQUEST_FILE; ends with report paths or stop reasons."""
    from aieco.analysis.pipeline import analyze as run_analysis
    from aieco.request import load_request

    request = load_request(request_file)
    progress = StageProgress(enabled=not state.json)
    with state.store() as store:
        try:
            with reporting(progress.substep):
                outcome = run_analysis(store, request, backend=backend, progress=progress, replay_from=replay_from)
        finally:
            progress.close()
        data = outcome_json(outcome, store, state)
    emit(state, data, human_outcome)
    exit_for(ctx, data)


def refusals(data: dict[str, Any]) -> list[str]:
    """Why the request itself was refused: stops in the shared stages (request checks, planning,
    eligibility), before any risk program ran. A stop inside a risk program is that program's result."""
    from aieco.analysis.stages import SHARED_STAGES

    return sorted(
        {
            f"{a['stopped_stage']}: {a['reason']}"
            for a in data["analyses"]
            if a["status"] == "stopped" and a["stopped_stage"] in SHARED_STAGES
        }
    )


def exit_for(ctx: click.Context, data: dict[str, Any]) -> None:
    """Exit 1 when a program failed or the request was refused (the reason goes to stderr)."""
    refused = refusals(data)
    for reason in refused:
        click.echo(f"request refused at {reason}", err=True)
    if refused or any(a["status"] == "failed" for a in data["analyses"]):
        ctx.exit(1)


@main.command()
@click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default="offline",
    show_default=True,
    help="LLM backend for the demo analyses.",
)
@click.option(
    "--macro",
    type=click.Choice(["synthetic", "real"]),
    default="synthetic",
    show_default=True,
    help="Macro series: the synthetic demo dataset, or the real euro-area series shipped in the package "
    "(analysed with the approximate vintage policy).",
)
@common
@pass_state
@click.pass_context
def demo(ctx: click.Context, state: CliState, backend: str, macro: str) -> None:
    """Build the demo workspace from nothing and run its three risks end to end."""
    from aieco.demo import build_demo, run_demo

    progress = StageProgress(enabled=not state.json)

    def step(message: str) -> None:
        if not state.json:
            progress.note(message)

    try:
        with state.store() as store, reporting(progress.substep):
            build_demo(store, progress=step, macro=macro)
            outcome = run_demo(store, backend=backend, progress=progress, macro=macro)
            data = outcome_json(outcome, store, state)
    finally:
        progress.close()
    emit(state, data, human_outcome)
    exit_for(ctx, data)
