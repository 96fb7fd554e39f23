"""The `aieco` command group and what every command shares (workspace, --json, errors)."""

from __future__ import annotations

import functools
import importlib
import io
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

import click

from aieco.errors import AiecoError

if TYPE_CHECKING:
    from aieco.store import Store


class CommandEntry(NamedTuple):
    """Where a top-level command lives and the line `aieco --help` lists it with."""

    module: str  #: the module of ``aieco.cli`` that defines it, imported only when the command is asked for
    summary: str  #: the first sentence of its docstring (a test keeps the two equal)


#: Every top-level command, the one list: `aieco --help` reads the summaries here without importing a command
#: module (a cold `aieco --help` imports click alone); `aieco X` imports X's module only, so `aieco search`
#: does not pay for pandas, the models and the pipeline.
COMMANDS: dict[str, CommandEntry] = {
    "analyze": CommandEntry("analyze", "Run the algorithm for REQUEST_FILE; ends with report paths or stop reasons."),
    "audit": CommandEntry(
        "core", "Recompute every artifact, record and source digest (read-only, one snapshot); exit 1 on any mismatch."
    ),
    "backtest": CommandEntry(
        "backtest", "Score the model's unconditional baseline at each cutoff against later-published outcomes."
    ),
    "bank": CommandEntry("bank", "Bank capital: FE-OLS / FE-QAR CET1 projections and external validation."),
    "bench": CommandEntry(
        "bench", "Run benchmark sections; none (or `all`): every figure of the performance targets in one JSON."
    ),
    "check-report": CommandEntry(
        "reports", "Check a candidate report (plain text or a structured JSON draft) against every report rule."
    ),
    "data": CommandEntry("data", "Series data: observed values with release dates."),
    "default": CommandEntry(
        "default",
        "Build the real default workspace (ESRB/BIS corpus, ECB/Eurostat/BIS series, EBA banks; cutoff 2024-12-31) "
        "and run its three risks; ends with report paths or stop reasons.",
    ),
    "demo": CommandEntry("analyze", "Build the demo workspace from nothing and run its three risks end to end."),
    "evaluate": CommandEntry(
        "evaluate", "Benchmark measures per risk and condition, source contribution and agreement."
    ),
    "graph": CommandEntry("graph", "Build and draw the relation graph."),
    "ingest": CommandEntry("sources", "Register and parse the sources listed in MANIFEST (exit 1 if any file fails)."),
    "init": CommandEntry("core", "Create (or open) the workspace and bring its schema up to date."),
    "paths": CommandEntry("graph", "Ranked signed paths from one variable to another, with scores and quotes."),
    "report": CommandEntry("reports", "Stored reports: export, verify a bundle, list."),
    "review": CommandEntry(
        "review", "Accept, reject or correct one relation; the decision is an append-only ReviewDecision."
    ),
    "review-queue": CommandEntry(
        "review",
        "The relations an analysis rests on (its restrictions' support, its reports' citations), unreviewed first.",
    ),
    "search": CommandEntry("sources", "Hybrid retrieval (BM25 + LSA, reciprocal rank fusion) over eligible sources."),
    "sources": CommandEntry("sources", "List the registered sources with their dates, roles and location counts."),
    "vocab": CommandEntry("graph", "List the controlled vocabulary: variable ids, labels, synonyms, model variables."),
}
#: Modules of ``aieco.cli`` that define commands.
COMMAND_MODULES = tuple(sorted({entry.module for entry in COMMANDS.values()}))


@dataclass
class CliState:
    workspace: Path
    json: bool = False
    #: Where ``emit`` writes: the command's real stdout while a --json command runs (everything
    #: else written to stdout then goes to stderr); None: ``sys.stdout``.
    out: TextIO | None = None

    def store(self, *, create: bool = True) -> Store:
        from aieco.store import open_store

        return open_store(self.workspace, create=create)

    def record_output(self, path: Path) -> None:
        """Record the digest of a file a command wrote inside the workspace (the audit checks every file)."""
        root = self.workspace.resolve()
        target = path.resolve()
        if root in target.parents:
            with self.store(create=False) as store:
                store.record_file(target)


class AiecoGroup(click.Group):
    """Turns AiecoError into a readable message (or `{error, detail}` with --json) and exit 2.

    Commands are loaded lazily: ``get_command`` imports the module ``COMMANDS`` names (a name it
    does not know imports every module of ``COMMAND_MODULES``, so a command added without an
    entry still runs); ``list_commands`` and ``--help`` read ``COMMANDS`` and import nothing.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            if cmd_name in COMMANDS:
                importlib.import_module(f"aieco.cli.{COMMANDS[cmd_name].module}")
            else:
                load_all_commands()
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``--help`` from ``COMMANDS`` (a loaded command's own short help otherwise)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            command = self.commands.get(name)
            if command is None:
                rows.append((name, click.utils.make_default_short_help(COMMANDS[name].summary, limit)))
            elif not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except AiecoError as exc:
            from aieco.config import redact

            state = ctx.find_object(CliState)
            # the group's own --json is parsed before its callback, which may fail (a bad setting)
            as_json = bool(state and state.json) or bool(ctx.params.get("as_json")) or "--json" in sys.argv
            if as_json:
                click.echo(json.dumps(redact(exc.as_dict())))
            else:
                click.echo(f"error: {redact(str(exc))}", err=True)
            ctx.exit(2)


@click.group(cls=AiecoGroup)
@click.option(
    "--workspace",
    "-w",
    type=click.Path(path_type=Path),
    default=None,
    help="Workspace folder (default: store/ or $AIECO_WORKSPACE).",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output.")
@click.version_option(package_name="aieco")
@click.pass_context
def main(ctx: click.Context, workspace: Path | None, as_json: bool) -> None:
    """aieco: evidence-traceable economic and financial scenario analysis."""
    from aieco.config import get_settings

    ctx.obj = CliState(workspace=Path(workspace or get_settings().workspace).absolute(), json=as_json)


def load_all_commands() -> None:
    """Import every command module (registers every command on ``main``)."""
    for module in COMMAND_MODULES:
        importlib.import_module(f"aieco.cli.{module}")


@contextmanager
def stdout_for_json() -> Iterator[TextIO]:
    """Keep stdout for the JSON answer alone: yield a stream on the real stdout, and send whatever else
    writes to stdout meanwhile — Python's ``print``, click, and C libraries writing to file descriptor 1
    (HiGHS's banner) — to stderr."""
    original = sys.stdout
    try:
        fd = original.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        fd = None
    if fd != 1:  # stdout is not the process's descriptor 1 (a test runner's buffer): Python-level only
        sys.stdout = sys.stderr
        try:
            yield original
        finally:
            sys.stdout = original
        return
    original.flush()
    saved = os.dup(1)
    out = open(os.dup(saved), "w", encoding="utf-8", closefd=True)  # noqa: SIM115  (closed below)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        yield out
    finally:
        out.flush()
        out.close()
        sys.stderr.flush()
        sys.stdout = original
        os.dup2(saved, 1)
        os.close(saved)


def _json_only(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``fn`` with stdout kept for its JSON answer when --json is set."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        state = click.get_current_context().find_object(CliState)
        if state is None or not state.json or state.out is not None:
            return fn(*args, **kwargs)
        with stdout_for_json() as out:
            state.out = out
            try:
                return fn(*args, **kwargs)
            finally:
                state.out = None

    return run


def common(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Accept --workspace and --json after the sub-command too (`aieco audit --json`); with --json,
    stdout carries the JSON answer alone (banners, progress and library output go to stderr)."""

    def _workspace(ctx: click.Context, _p: click.Parameter, value: Path | None) -> None:
        if value is not None:
            ctx.ensure_object(CliState).workspace = value.absolute()  # a relative path stays this folder's

    def _json(ctx: click.Context, _p: click.Parameter, value: bool) -> None:
        if value:
            ctx.ensure_object(CliState).json = True

    fn = _json_only(fn)
    fn = click.option(
        "--workspace",
        "-w",
        type=click.Path(path_type=Path),
        default=None,
        expose_value=False,
        callback=_workspace,
        is_eager=True,
        help="Workspace folder.",
    )(fn)
    fn = click.option(
        "--json", is_flag=True, expose_value=False, callback=_json, is_eager=True, help="Machine-readable JSON output."
    )(fn)
    return fn


pass_state = click.make_pass_decorator(CliState, ensure=True)


def emit(state: CliState, data: Any, human: Callable[[Any], str] | str | None = None) -> None:
    """Print ``data`` as JSON with --json, else the human rendering (secret values redacted)."""
    from aieco.config import redact
    from aieco.records import canonical_json

    data = redact(data)
    if state.json:
        click.echo(canonical_json(data) if not isinstance(data, str) else json.dumps(data), file=state.out)
    elif callable(human):
        click.echo(redact(human(data)))
    elif human is not None:
        click.echo(redact(human))
    else:
        click.echo(json.dumps(data, indent=2, default=str))
