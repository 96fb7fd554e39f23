"""The child process of the kill-and-resume tests (tests/test_reliability_resume.py).

Each child is a separate process forked from a fork server that has imported the third-party
numerical stack once (numpy, pandas, scipy, scikit-learn, statsmodels: most of a fresh
interpreter's start-up); the child imports aieco itself, opens the workspace, runs the analysis
and is killed by the signal it is told to send itself, as a process started from the shell would be.
Nothing here imports pytest.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

#: What the fork server imports before forking any child (third-party only: aieco is imported by each
#: child, so a resume registers its models and loads its settings as a new process does).
PRELOAD = [
    "numpy",
    "pandas",
    "scipy.linalg",
    "scipy.optimize",
    "scipy.stats",
    "sklearn.cluster",
    "statsmodels.tsa.api",
    "pydantic",
    "sqlite_utils",
    "networkx",
]


def _run(env: dict[str, str], log: str, out: str, argv: list[str]) -> None:
    """Runs in the child: the environment given, stderr to ``log``, the last line of stdout to ``out``."""
    import json
    import signal
    import threading
    import time

    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    for std in (1, 2):  # progress and tracebacks to the log, as a shell would capture them
        os.dup2(fd, std)
    os.environ.clear()
    os.environ.update(env)

    from aieco.analysis.pipeline import analyze
    from aieco.request import load_request
    from aieco.store import Store

    if argv[0] == "build_demo":
        from aieco.demo import build_demo

        build_demo(argv[1])
        return
    ws, request, target, when, sig, delay = argv
    sig, delay, times = int(sig), float(delay), {}
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C, even when started in the background
    sent, lock, timers = [], threading.Lock(), []

    def kill(where: str) -> None:
        """Send the signal once, saying where it landed ('inside' the target stage or at its 'end')."""
        with lock:
            if sent:
                return
            sent.append(where)
        Path(out + ".kill").write_text(where, encoding="utf-8")
        os.kill(os.getpid(), sig)

    def progress(stage, event, i, n):
        now = time.monotonic()
        if event == "started":
            times[stage] = [now, None]
            if stage == target and when == "inside":
                timer = threading.Timer(delay, kill, ("inside",))
                timer.daemon = True
                timer.start()
                timers.append(timer)
        elif event == "completed":
            times[stage][1] = now
            if stage == target and when == "after":
                kill("after")
            elif stage == target and when == "inside":
                # faster here than in the reference run: the stage ended before its timer. Kill at its end, so
                # that the kill never lands in a later stage (that would skip the stages between)
                for timer in timers:
                    timer.cancel()
                kill("end")

    with Store(ws) as store:
        outcome = analyze(store, load_request(request), progress=progress)
    Path(out).write_text(json.dumps({"times": times, "outcome": outcome.as_json()}) + "\n", encoding="utf-8")


class Done:
    """What a child left: its exit code (-N when killed by signal N), stderr, its one JSON line and where its
    kill landed ('after' the target stage, 'inside' it, at its 'end' when it finished before the timer; '' when
    not killed)."""

    def __init__(self, returncode: int, stderr: str, stdout: str, kill: str = ""):
        self.returncode, self.stderr, self.stdout, self.kill = returncode, stderr, stdout, kill


def run_child(env: dict[str, str], folder: Path, *argv: str, timeout: float = 600) -> Done:
    """Fork one child from the preloaded fork server, wait for it (at most ``timeout`` s), return what it left."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    folder.mkdir(parents=True, exist_ok=True)
    log, out = folder / "child.stderr", folder / "child.json"
    marker = folder / "child.json.kill"
    out.unlink(missing_ok=True)
    marker.unlink(missing_ok=True)
    proc = ctx.Process(target=_run, args=(env, str(log), str(out), list(argv)))
    proc.start()
    proc.join(timeout)
    if proc.is_alive():
        proc.kill()
        proc.join()
        raise TimeoutError(f"child {argv} still running after {timeout} s")
    stdout = out.read_text(encoding="utf-8") if out.exists() else ""
    kill = marker.read_text(encoding="utf-8") if marker.exists() else ""
    return Done(proc.exitcode, log.read_text(encoding="utf-8", errors="replace"), stdout, kill)
