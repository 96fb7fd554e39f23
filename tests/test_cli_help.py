"""`aieco --help` from the command table alone (lazy command modules), and every command's own --help."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from aieco.cli import main
from aieco.cli.base import COMMAND_MODULES, COMMANDS, load_all_commands

ROOT = Path(__file__).resolve().parents[1]


def every_command() -> list[tuple[str, ...]]:
    """Every command path (``("bank", "run")`` …), groups included, after loading every module."""
    load_all_commands()
    found: list[tuple[str, ...]] = []

    def walk(group: click.Group, prefix: tuple[str, ...]) -> None:
        for name, command in sorted(group.commands.items()):
            found.append((*prefix, name))
            if isinstance(command, click.Group):
                walk(command, (*prefix, name))

    walk(main, ())
    return found


def test_the_table_names_every_command_its_module_and_its_docstrings_first_sentence():
    load_all_commands()
    assert sorted(main.commands) == sorted(COMMANDS), "add the command to COMMANDS in aieco/cli/base.py"
    for name, command in main.commands.items():
        assert command.callback.__module__ == f"aieco.cli.{COMMANDS[name].module}", name
        # the summary `aieco --help` shows without importing is the command's own first sentence
        assert COMMANDS[name].summary == command.get_short_help_str(limit=300), (
            f"COMMANDS[{name!r}].summary: copy the first sentence of the command's docstring"
        )
    assert set(COMMAND_MODULES) == {entry.module for entry in COMMANDS.values()}


HELP_RUN = """
import io, json, sys
from contextlib import redirect_stdout
from aieco.cli import main
from aieco.cli.base import load_all_commands

def helped():
    out = io.StringIO()
    with redirect_stdout(out):
        main(["--help"], standalone_mode=False, terminal_width=300, max_content_width=300)
    return out.getvalue()

cold = helped()
loaded = sorted(m for m in sys.modules if m in ("pandas", "pydantic", "numpy")
                or m.startswith("aieco.") and m not in ("aieco.cli", "aieco.cli.base", "aieco.errors"))
load_all_commands()
print(json.dumps({"cold": cold, "loaded": loaded, "warm": helped()}))
"""


def test_help_lists_every_command_without_importing_a_command_module_as_it_does_once_they_are_loaded():
    out = subprocess.run(
        [sys.executable, "-c", HELP_RUN], capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)}
    )
    assert out.returncode == 0, out.stderr
    run = json.loads(out.stdout)
    assert run["loaded"] == [], "aieco --help imported a command module or a heavy library"
    lines = run["cold"].splitlines()
    listed = [line.split(maxsplit=1) for line in lines[lines.index("Commands:") + 1 :]]
    assert listed == [[name, COMMANDS[name].summary] for name in sorted(COMMANDS)]
    assert run["warm"] == run["cold"]


@pytest.mark.parametrize("path", every_command(), ids=" ".join)
def test_every_command_shows_its_options(path):
    out = CliRunner().invoke(main, [*path, "--help"])
    assert out.exit_code == 0, out.output
    assert f"Usage: main {' '.join(path)}" in out.output and "Options:" in out.output and "--help" in out.output


def test_the_bench_times_help_against_a_bare_interpreter_in_the_same_run():
    from aieco.benchmarks.cli import TARGET_S, run

    figures = {f.name: f for f in run(quick=True)}
    assert set(figures) == {"cli_help_s", "cli_help_cpu_s", "peer_python_pass_s", "peer_python_pass_cpu_s"}
    assert figures["cli_help_s"].target == TARGET_S == 0.25 and figures["cli_help_s"].unit == "s"
    assert all(f.value > 0 for f in figures.values())


def test_a_failing_timed_process_raises_with_its_error():
    from aieco.benchmarks.cli import timed_process

    with pytest.raises(RuntimeError, match="no such command"):
        timed_process(["-c", "raise SystemExit('no such command')"])
