"""`aieco --help` in a new process against a bare interpreter start (``python -c pass``), in the same run.

The command modules load lazily (:data:`aieco.cli.base.COMMANDS`), so ``--help`` imports click and the
command table only. Each figure is the median of interleaved runs (wall and CPU of the child process);
the peer is what any Python command pays before its first import, on this machine, now.

Target from issue 34: ``aieco --help`` under 0.25 s.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from aieco.benchmarks import Figure

ROOT = Path(__file__).resolve().parents[2]
TARGET_S = 0.25


def timed_process(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``python ARGS`` run from this checkout; a failed run raises."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"python {' '.join(args)} failed: {err.strip()[-300:]}")
    return wall, usage.ru_utime + usage.ru_stime


def run(quick: bool = False) -> list[Figure]:
    rounds = 3 if quick else 9
    helped, bare = [], []
    for _ in range(rounds):  # interleaved, so a change in the machine's load touches both alike
        helped.append(timed_process(["-m", "aieco", "--help"]))
        bare.append(timed_process(["-c", "pass"]))
    median = statistics.median
    return [
        Figure(name="cli_help_s", value=median(w for w, _ in helped), unit="s", target=TARGET_S),
        Figure(name="cli_help_cpu_s", value=median(c for _, c in helped), unit="CPU-s", target=TARGET_S),
        Figure(name="peer_python_pass_s", value=median(w for w, _ in bare), unit="s"),
        Figure(name="peer_python_pass_cpu_s", value=median(c for _, c in bare), unit="CPU-s"),
    ]
