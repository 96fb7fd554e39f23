"""Bench section ``backtest_dask``: the backtest part of ``executors`` alone (issue 33's speedup figure).

Ten quarterly cutoffs from 2016Q1 at the analysis's draws (``quick``: four at 2,000), sequentially in this
process, then on a Dask LocalCluster on 127.0.0.1 with one single-threaded worker per core, started and
warmed before the timed runs (its start-up is a figure of its own). Minutes, not the half hour of the whole
``executors`` section with its 200-document ingest, so the speedup can be measured when the machine is quiet.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from datetime import date
from pathlib import Path

from aieco.benchmarks import Figure
from aieco.benchmarks.executors import FULL, QUICK, _quarter_ends, _timed, backtest_speedup


def run(quick: bool = False) -> list[Figure]:
    from aieco.evaluation.backtest import BacktestConfig
    from aieco.executors import DaskExecutor
    from aieco.sources.series import observations_frame
    from aieco.sources.series.pack import pack_observations

    size = QUICK if quick else FULL
    obs = observations_frame(pack_observations())
    cfg = BacktestConfig.from_settings("approximate", 20241231, min_obs=60, draws=2000 if quick else None)
    cutoffs = _quarter_ends(date(2016, 3, 31), size["cutoffs"])
    tmp = Path(tempfile.mkdtemp(prefix="aieco-bench-backtest-dask-"))
    try:
        t0 = time.perf_counter()
        with DaskExecutor(workers=os.cpu_count() or 1) as dask:
            figures = [
                Figure(name="dask_cluster_start_s", value=time.perf_counter() - t0, unit="s"),
                Figure(name="dask_workers", value=dask.workers, unit="workers", better="higher"),
                Figure(
                    name="dask_worker_import_s", value=_timed(lambda: dask.warm("aieco.evaluation.backtest")), unit="s"
                ),
                Figure(name="load_average_1min_at_start", value=os.getloadavg()[0], unit="runnable processes"),
            ]
            return figures + backtest_speedup(dask, obs, cfg, cutoffs, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
