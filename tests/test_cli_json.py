"""Every command that offers --json prints JSON alone on stdout (the CLI's machine contract).

Each command runs in its own process, as a script would run it, so output written straight to
file descriptor 1 by a C library (HiGHS's banner in the bank models) is caught too. The table of
cases must name every command that has --json: a new command fails here until it gets one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from tests_shared import illiquidity_request

ROOT = Path(__file__).resolve().parents[1]

REQUEST = illiquidity_request("Market illiquidity only (CLI JSON test)")

SERIES = "date,close\n2023-03-31,100.0\n2023-06-30,101.5\n2023-09-30,99.0\n2023-12-31,102.0\n"


def aieco(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AIECO_DASHBOARD__BUILD_DEMO_ON_FIRST_LAUNCH": "false"}
    return subprocess.run(
        [sys.executable, "-m", "aieco", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def json_commands() -> set[str]:
    """Every command (``bank run``, ``audit`` …) with a --json option."""
    from aieco.cli.base import load_all_commands, main

    load_all_commands()
    found: set[str] = set()

    def walk(group: click.Group, prefix: tuple[str, ...]) -> None:
        for name, command in group.commands.items():
            if isinstance(command, click.Group):
                walk(command, (*prefix, name))
            elif any("--json" in p.opts for p in command.params):
                found.add(" ".join((*prefix, name)))

    walk(main, ())
    return found


class World:
    """A demo workspace built by `aieco demo --json` (a relative -w), and the ids the cases need."""

    def __init__(self, folder: Path):
        from aieco.records import Analysis, ModelRun, Relation, Report
        from aieco.reporting.export import export_report
        from aieco.store import Store

        self.folder = folder
        self.demo = aieco("demo", "-w", "ws", "--json", cwd=folder)
        self.ws = folder / "ws"
        with Store(self.ws) as store:
            self.analysis = next(store.all(Analysis)).analysis_id
            self.report = next(r.report_id for r in store.all(Report) if r.status == "passed")
            self.macro_run = next(r.run_id for r in store.all(ModelRun) if r.model_id == "macro_var")
            self.relation = next(store.all(Relation)).relation_id
            (folder / "bundle.json").write_bytes(export_report(store, self.report, "json"))
        (folder / "request.toml").write_text(REQUEST)
        (folder / "candidate.txt").write_text("Real GDP falls over the horizon.\n")
        (folder / "series.csv").write_text(SERIES)


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    return World(tmp_path_factory.mktemp("cli_json"))


#: One invocation of each command (without --json, added by the test); ``w`` is the World.
CASES = {
    "analyze": lambda w: ["-w", "ws", "analyze", "request.toml"],
    "audit": lambda w: ["-w", "ws", "audit"],
    "bank import": lambda w: ["-w", "ws", "bank", "import"],
    "bank run": lambda w: ["-w", "ws", "bank", "run", "--macro-run", w.macro_run, "--paths", "2"],
    "bank validate": lambda w: ["-w", "ws", "bank", "validate"],
    # the smallest section: the command's JSON path is the same for every section, and HiGHS's banner (a C
    # library writing to descriptor 1) is met by `bank run`, whose FE-QAR fit opens a HiGHS solver
    "bench": lambda w: ["bench", "store", "--quick"],
    "check-report": lambda w: ["-w", "ws", "check-report", "candidate.txt", "--analysis", w.analysis],
    "data add": lambda w: [
        *("-w", "ws", "data", "add", "series.csv", "--variable", "equity_prices", "--unit", "index"),
        *("--frequency", "Q", "--map", "period=date", "--map", "value=close", "--release-date", "2024-02-01"),
        *("--provenance", "illustrative"),
    ],
    "data load-real": lambda w: ["-w", "ws", "data", "load-real"],
    "data load-official": lambda w: ["-w", "ws", "data", "load-official"],
    "backtest": lambda w: [
        *("-w", "ws", "backtest", "request.toml", "--cutoffs", "2023-12-31..2023-12-31", "--every", "quarter"),
        *("--draws", "100", "--min-obs", "20"),
    ],
    "default": lambda w: ["-w", "ws_default", "default"],
    "demo": None,  # run by the fixture: `aieco demo -w ws --json`
    "evaluate": lambda w: ["-w", "ws", "evaluate", "--conditions", "G0", "--orderings", "50", "--workers", "1"],
    "graph build": lambda w: ["-w", "ws", "graph", "build"],
    "graph render": lambda w: ["-w", "ws", "graph", "render", "--out", "graph.html"],
    "ingest": lambda w: ["-w", "ws", "ingest", "ws/demo_corpus/manifest.toml"],
    "init": lambda w: ["-w", "ws", "init"],
    "paths": lambda w: ["-w", "ws", "paths", "--from", "tariffs", "--to", "real_gdp"],
    "report export": lambda w: ["-w", "ws", "report", "export", w.report, "--format", "pdf"],
    "report list": lambda w: ["-w", "ws", "report", "list"],
    "report verify": lambda w: ["report", "verify", "bundle.json"],
    "review": lambda w: ["-w", "ws", "review", w.relation, "--accept", "--note", "CLI JSON test"],
    "review-queue": lambda w: ["-w", "ws", "review-queue"],
    "search": lambda w: ["-w", "ws", "search", "tariffs trade"],
    "sources": lambda w: ["-w", "ws", "sources"],
    "vocab": lambda w: ["-w", "ws", "vocab"],
}


def test_every_command_with_json_has_a_case():
    assert json_commands() == set(CASES)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(CASES))
def test_json_output_is_json_alone_on_stdout(command, world):
    done = world.demo if CASES[command] is None else aieco(*CASES[command](world), "--json", cwd=world.folder)
    assert done.returncode in (0, 1), f"{command}: exit {done.returncode}\n{done.stderr[-2000:]}"
    try:
        answer = json.loads(done.stdout)
    except json.JSONDecodeError as exc:
        pytest.fail(f"`aieco {command} --json` printed more than JSON on stdout ({exc}):\n{done.stdout[:600]}")
    assert answer not in (None, "", [], {}), f"{command}: empty answer"
    if isinstance(answer, dict):
        assert "error" not in answer, f"{command}: {answer}"


def test_output_a_c_library_writes_to_descriptor_1_goes_to_stderr_under_json():
    """What HiGHS does (its banner written straight to file descriptor 1) cannot reach a --json answer."""
    script = (
        "import os, sys\n"
        "from aieco.cli.base import stdout_for_json\n"
        "with stdout_for_json() as out:\n"
        "    os.write(1, b'Running HiGHS 1.x banner\\n')\n"
        "    print('a print')\n"
        "    out.write('{\"answer\": 1}\\n')\n"
        "print('after')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == '{"answer": 1}\nafter\n'
    assert "HiGHS" in done.stderr and "a print" in done.stderr
