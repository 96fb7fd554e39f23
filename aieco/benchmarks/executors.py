"""Bench section ``executors``: sequential against Dask for the backtest, ingest and graph build.

Every Dask figure has its sequential peer measured in the same run, on the same inputs. The
Dask LocalCluster (127.0.0.1, one single-threaded worker process per core) is started once;
its start-up is its own figure and is not inside the timed runs. Ingest and graph build read
byte-distinct copies of the real ESRB document (:mod:`aieco.benchmarks.copies`).

Figures (``quick`` shrinks the sizes):

* ``backtest_<n>_cutoffs_{sequential,dask}_s`` and ``backtest_dask_speedup`` (target ≥ 1.6);
* ``ingest_<n>_docs_{sequential,dask}_s``, ``ingest_dask_speedup``, ``ingest_dask_s_per_doc``;
* ``graph_build_<n>_docs_{sequential,dask}_s`` (G0; only the candidate screen is distributed);
* ``backtest_dask_slope_8x`` and ``ingest_dask_slope_8x``: time per unit at 8× the work over time
  per unit at 1× (target ≤ 1.1);
* ``<part>_{sequential,dask}_cpu_s``: CPU-seconds of this process plus the Dask workers, and
  ``<part>_dask_speedup_on_free_cores_estimate`` (sequential CPU-s over the Dask CPU-s per worker):
  on a shared machine the wall-time speedup says how much CPU the session got, not what Dask does;
* ``dask_overhead_per_task_ms``: a no-op task's round trip through the scheduler;
* ``dask_cluster_start_s`` and ``dask_worker_import_s`` (the workers' one-time imports, done before
  the timed runs, as this process has done them before its sequential runs). Before the backtest
  pair, one untimed forecast runs in this process and on every worker (steady state on both sides).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from aieco.benchmarks import Figure
from aieco.benchmarks.copies import write_copies

QUICK = {"cutoffs": 4, "slope_base": 1, "docs": 8, "overhead_tasks": 50}
FULL = {"cutoffs": 10, "slope_base": 2, "docs": 200, "overhead_tasks": 500}


def _noop(x: int) -> int:
    return x


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _cpu_now(dask=None) -> float:
    """CPU seconds used so far by this process and, with ``dask``, by its worker processes."""
    own = time.process_time()
    return own + (sum(dask.client.run(time.process_time).values()) if dask is not None else 0.0)


def _cpu_timed(fn, dask=None) -> tuple[float, float]:
    """(wall s, CPU s of this process and the Dask workers) of ``fn()``."""
    c0 = _cpu_now(dask)
    wall = _timed(fn)
    return wall, _cpu_now(dask) - c0


def _cpu_figures(what: str, seq: tuple[float, float], dist: tuple[float, float], workers: int) -> list[Figure]:
    """CPU-seconds of both runs and the speedup they imply on ``workers`` free cores (an estimate: the Dask
    run's CPU-seconds spread evenly over the workers, against the sequential wall time)."""
    return [
        Figure(name=f"{what}_sequential_cpu_s", value=seq[1], unit="CPU-s"),
        Figure(name=f"{what}_dask_cpu_s", value=dist[1], unit="CPU-s"),
        Figure(name=f"{what}_dask_cpu_overhead", value=dist[1] / seq[1], unit="ratio"),
        Figure(
            name=f"{what}_dask_speedup_on_free_cores_estimate",
            value=seq[1] / (dist[1] / workers),
            unit="x",
            better="higher",
        ),
    ]


def _quarter_ends(first: date, n: int) -> list[date]:
    from aieco.evaluation.backtest import cutoff_dates

    return cutoff_dates(f"{first.isoformat()}..2099-12-31", "quarter")[:n]


def run(quick: bool = False) -> list[Figure]:
    from aieco.evaluation.backtest import BacktestConfig
    from aieco.sources.series import observations_frame
    from aieco.sources.series.pack import pack_observations

    size = QUICK if quick else FULL
    workers = os.cpu_count() or 1
    obs = observations_frame(pack_observations())
    # the analysis's draws; min_obs 60 so that every cutoff from 2016 on is estimated (same work per task)
    cfg = BacktestConfig.from_settings("approximate", 20241231, min_obs=60, draws=2000 if quick else None)
    cutoffs = _quarter_ends(date(2016, 3, 31), size["cutoffs"])
    tmp = Path(tempfile.mkdtemp(prefix="aieco-bench-executors-"))

    try:
        return _measure(size, workers, obs, cfg, cutoffs, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def backtest_speedup(dask, obs, cfg, cutoffs: list[date], tmp: Path) -> list[Figure]:
    """The backtest of ``cutoffs`` sequentially in this process, then on ``dask`` (same inputs, same run):
    wall and CPU seconds and the speedup (target ≥ 1.6 on this 2-core machine)."""
    from aieco.evaluation.backtest import forecast_at_cutoff, run_backtest
    from aieco.executors import LocalExecutor
    from aieco.store import Store

    def backtest(store_dir: Path, executor=None) -> tuple[float, float]:
        with Store(store_dir) as store:
            return _cpu_timed(lambda: run_backtest(store, obs, obs, cutoffs, cfg, executor=executor), executor)

    # steady state on both sides: one forecast at a cutoff outside the timed set, in this process and on every
    # worker, so that neither side's timed run pays the lazy imports and first-call caches of the forecast path
    warm_cutoff = (cutoffs[0] - timedelta(days=cutoffs[0].day), cfg)
    LocalExecutor().run_everywhere(forecast_at_cutoff, obs, warm_cutoff)
    dask.run_everywhere(forecast_at_cutoff, obs, warm_cutoff)
    seq_c = backtest(tmp / "bt-seq")
    dist_c = backtest(tmp / "bt-dask", dask)
    seq, dist = seq_c[0], dist_c[0]
    k = len(cutoffs)
    return [
        Figure(name=f"backtest_{k}_cutoffs_sequential_s", value=seq, unit="s"),
        Figure(name=f"backtest_{k}_cutoffs_dask_s", value=dist, unit="s"),
        Figure(name="backtest_dask_speedup", value=seq / dist, unit="x", target=1.6, better="higher"),
        *_cpu_figures("backtest", seq_c, dist_c, dask.workers),
    ]


def _measure(size: dict, workers: int, obs, cfg, cutoffs: list[date], tmp: Path) -> list[Figure]:
    from aieco.evaluation.backtest import run_backtest
    from aieco.executors import DaskExecutor
    from aieco.extraction.build import build_relations
    from aieco.sources.registry import ingest
    from aieco.store import Store

    figures: list[Figure] = []

    def backtest(store_dir: Path, dates: list[date], executor=None) -> tuple[float, float]:
        with Store(store_dir) as store:
            return _cpu_timed(lambda: run_backtest(store, obs, obs, dates, cfg, executor=executor), executor)

    t0 = time.perf_counter()
    with DaskExecutor(workers=workers) as dask:
        start = time.perf_counter() - t0
        figures.append(Figure(name="dask_cluster_start_s", value=start, unit="s"))
        figures.append(Figure(name="dask_workers", value=dask.workers, unit="workers", better="higher"))
        # the workers import what the tasks need once, as this process already has (a long-lived cluster would)
        warm = _timed(
            lambda: dask.warm("aieco.evaluation.backtest", "aieco.sources.registry", "aieco.extraction.build")
        )
        figures.append(Figure(name="dask_worker_import_s", value=warm, unit="s"))

        # scheduler overhead: no-op tasks, one round trip each
        n = size["overhead_tasks"]
        list(dask.map_unordered(_noop, range(10)))  # warm
        t = _timed(lambda: list(dask.map_unordered(_noop, range(n))))
        figures.append(Figure(name="dask_overhead_per_task_ms", value=1000 * t / n, unit="ms"))

        # backtest: sequential against Dask on the same cutoffs
        figures += backtest_speedup(dask, obs, cfg, cutoffs, tmp)
        # slope: time per cutoff at 1x, 2x, 4x, 8x the work (Dask)
        base = size["slope_base"]
        per_unit = {}
        for mult in (1, 2, 4, 8):
            dates = _quarter_ends(date(2016, 3, 31), base * mult)
            per_unit[mult] = backtest(tmp / f"bt-slope-{mult}", dates, dask)[0] / len(dates)
            figures.append(Figure(name=f"backtest_dask_s_per_cutoff_{mult}x", value=per_unit[mult], unit="s"))
        figures.append(Figure(name="backtest_dask_slope_8x", value=per_unit[8] / per_unit[1], unit="ratio", target=1.1))

        # ingest and graph build of real document copies
        docs = size["docs"]
        manifest = write_copies(tmp / "corpus", docs)
        with Store(tmp / "in-seq") as store:
            seq_c = _cpu_timed(lambda: ingest(store, manifest, workers=1))
        with Store(tmp / "in-dask") as store:
            dist_c = _cpu_timed(lambda: ingest(store, manifest, executor=dask), dask)
        seq, dist = seq_c[0], dist_c[0]
        figures += _cpu_figures("ingest", seq_c, dist_c, dask.workers)
        figures += [
            Figure(name=f"ingest_{docs}_docs_sequential_s", value=seq, unit="s"),
            Figure(name=f"ingest_{docs}_docs_dask_s", value=dist, unit="s"),
            Figure(name="ingest_sequential_s_per_doc", value=seq / docs, unit="s"),
            Figure(name="ingest_dask_s_per_doc", value=dist / docs, unit="s"),
            Figure(name="ingest_dask_speedup", value=seq / dist, unit="x", better="higher"),
        ]
        small = max(1, docs // 8)
        small_manifest = write_copies(tmp / "corpus-small", small)
        with Store(tmp / "in-dask-small") as store:
            dist_small = _timed(lambda: ingest(store, small_manifest, executor=dask))
        figures += [
            Figure(name=f"ingest_dask_s_per_doc_{small}_docs", value=dist_small / small, unit="s"),
            Figure(name="ingest_dask_slope_8x", value=(dist / docs) / (dist_small / small), unit="ratio", target=1.1),
        ]
        with Store(tmp / "in-seq") as store:
            seq = _timed(lambda: build_relations(store, condition="G0"))
        with Store(tmp / "in-dask") as store:
            dist = _timed(lambda: build_relations(store, condition="G0", executor=dask))
        figures += [
            Figure(name=f"graph_build_{docs}_docs_sequential_s", value=seq, unit="s"),
            Figure(name=f"graph_build_{docs}_docs_dask_s", value=dist, unit="s"),
            Figure(name="graph_build_dask_speedup", value=seq / dist, unit="x", better="higher"),
        ]
    return figures
