"""Pipeline timings: `aieco default` from an empty workspace (the real default workspace, in its
own process: wall, CPU and peak RSS), then the synthetic `aieco demo` from empty in this process
(the second line) and an analysis on an existing one.

No tracemalloc: its allocation hooks would slow the VAR bootstrap the figures are meant to measure.
"""

from __future__ import annotations

import resource
import tempfile
import time
from pathlib import Path

from aieco.benchmarks import Figure
from aieco.store import Store


def run(quick: bool = False) -> list[Figure]:
    from aieco.analysis.pipeline import analyze
    from aieco.benchmarks.summary import run_process
    from aieco.demo import DEMO_REQUEST, build_demo, run_demo
    from aieco.request import load_request

    with tempfile.TemporaryDirectory() as tmp:
        default = run_process(["-w", f"{tmp}/default", "default", "--json"])
    default_figures = [
        Figure(name="default_workspace_from_empty", value=default["wall"], unit="s", target=20.0),
        Figure(name="default_workspace_from_empty_cpu", value=default["cpu"], unit="CPU-s", target=20.0),
        Figure(name="default_workspace_peak_rss", value=default["rss_mib"] or float("nan"), unit="MiB", target=400.0),
        Figure(name="default_workspace_exit_code", value=float(default["code"]), unit="code"),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), time.process_time()
        store = Store(Path(tmp) / "ws")
        build_demo(store)
        t1 = time.perf_counter()
        outcome = run_demo(store)
        t2, c2 = time.perf_counter(), time.process_time()
        demo_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # this process so far: the demo
        completed = sum(p.status == "completed" for p in outcome.programs)
        # a new analysis on the existing workspace: another seed makes another request id
        request = load_request(DEMO_REQUEST)
        request = request.model_copy(update={"seeds": [request.seeds[0] + 1]})
        t3 = time.perf_counter()
        analyze(store, request)
        t4 = time.perf_counter()
        analyze(store, request)  # everything completed: the resume finds every stage
        t5 = time.perf_counter()
        store.close()
    return [
        *default_figures,
        Figure(name="demo_from_empty_workspace", value=t2 - t0, unit="s", target=20.0),
        # CPU seconds of all threads (the machine is shared; imports are outside both figures)
        Figure(name="demo_from_empty_workspace_cpu", value=c2 - c0, unit="CPU-s"),
        Figure(name="demo_peak_rss", value=demo_rss, unit="MiB", target=400.0),
        Figure(name="demo_build_workspace", value=t1 - t0, unit="s"),
        Figure(name="demo_first_analysis", value=t2 - t1, unit="s"),
        Figure(name="demo_programs_completed", value=float(completed), unit="risk programs", better="higher"),
        Figure(name="analysis_on_existing_workspace", value=t4 - t3, unit="s", target=30.0),
        Figure(name="analysis_resume_all_completed", value=t5 - t4, unit="s"),
    ]
