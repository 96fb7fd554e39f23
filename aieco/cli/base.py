"""The `aieco` command group and what every command shares (workspace, --json, errors)."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from aieco.config import redact
from aieco.errors import AiecoError

if TYPE_CHECKING:
    from aieco.store import Store

#: Modules of ``aieco.cli`` that define commands.
COMMAND_MODULES = (
    "analyze",
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

    ctx.obj = CliState(workspace=workspace or get_settings().workspace, json=as_json)


def load_all_commands() -> None:
    """Import every command module (registers every command on ``main``)."""
    for module in COMMAND_MODULES:
        importlib.import_module(f"aieco.cli.{module}")


def common(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Accept --workspace and --json after the sub-command too (`aieco audit --json`)."""

    def _workspace(ctx: click.Context, _p: click.Parameter, value: Path | None) -> None:
        if value is not None:
            ctx.ensure_object(CliState).workspace = value

    def _json(ctx: click.Context, _p: click.Parameter, value: bool) -> None:
        if value:
            ctx.ensure_object(CliState).json = True

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
        click.echo(canonical_json(data) if not isinstance(data, str) else json.dumps(data))
    elif callable(human):
        click.echo(redact(human(data)))
    elif human is not None:
        click.echo(redact(human))
    else:
        click.echo(json.dumps(data, indent=2, default=str))
