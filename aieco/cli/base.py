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
from typing import TYPE_CHECKING, Any, TextIO

import click

from aieco.config import redact
from aieco.errors import AiecoError

if TYPE_CHECKING:
    from aieco.store import Store

#: Modules of ``aieco.cli`` that define commands.
COMMAND_MODULES = (
    "analyze",
    "backtest",
    "bank",
    "bench",
    "core",
    "data",
    "default",
    "evaluate",
    "graph",
    "reports",
    "review",
    "sources",
)
#: Top-level command → the module defining it, imported only when the command is asked for (a cold
#: `aieco search` then imports the search path alone, not pandas, the models and the pipeline).
COMMANDS = {
    "analyze": "analyze",
    "audit": "core",
    "backtest": "backtest",
    "bank": "bank",
    "bench": "bench",
    "check-report": "reports",
    "data": "data",
    "default": "default",
    "demo": "analyze",
    "evaluate": "evaluate",
    "graph": "graph",
    "ingest": "sources",
    "init": "core",
    "paths": "graph",
    "report": "reports",
    "review": "review",
    "review-queue": "review",
    "search": "sources",
    "sources": "sources",
    "vocab": "graph",
}


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
    entry still runs); ``list_commands`` (``--help``) lists them all.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        load_all_commands()
        return sorted(self.commands)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            if cmd_name in COMMANDS:
                importlib.import_module(f"aieco.cli.{COMMANDS[cmd_name]}")
            else:
                load_all_commands()
        return self.commands.get(cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except AiecoError as exc:
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
