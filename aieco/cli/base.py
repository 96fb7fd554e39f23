"""The `aieco` command group and what every command shares (workspace, --json, errors)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from aieco.config import get_settings
from aieco.errors import AiecoError
from aieco.records import canonical_json
from aieco.store import Store, open_store


@dataclass
class CliState:
    workspace: Path
    json: bool = False

    def store(self, *, create: bool = True) -> Store:
        return open_store(self.workspace, create=create)

    def record_output(self, path: Path) -> None:
        """Record the digest of a file a command wrote inside the workspace (the audit checks every file)."""
        root = self.workspace.resolve()
        target = path.resolve()
        if root in target.parents:
            with self.store(create=False) as store:
                store.record_file(target)


class AiecoGroup(click.Group):
    """Turns AiecoError into a readable message (or `{error, detail}` with --json) and exit 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except AiecoError as exc:
            state = ctx.find_object(CliState)
            as_json = bool(state and state.json) or "--json" in sys.argv
            if as_json:
                click.echo(json.dumps(exc.as_dict()))
            else:
                click.echo(f"error: {exc}", err=True)
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
    ctx.obj = CliState(workspace=workspace or get_settings().workspace, json=as_json)


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
    """Print ``data`` as JSON with --json, else the human rendering."""
    if state.json:
        click.echo(canonical_json(data) if not isinstance(data, str) else json.dumps(data))
    elif callable(human):
        click.echo(human(data))
    elif human is not None:
        click.echo(human)
    else:
        click.echo(json.dumps(data, indent=2, default=str))
