"""`aieco bench backtest_dask` (issue 33): the backtest sequential against Dask in one run, on a LocalCluster
bound to 127.0.0.1, with the speedup computed from the two measured wall times."""

from __future__ import annotations

import pytest


def test_the_section_measures_both_runs_and_their_ratio():
    from aieco.benchmarks import run_section

    out = run_section("backtest_dask", quick=True)
    figures = {f["name"]: f for f in out["figures"]}
    seq, dask = figures["backtest_4_cutoffs_sequential_s"], figures["backtest_4_cutoffs_dask_s"]
    assert seq["value"] > 0 and dask["value"] > 0
    speedup = figures["backtest_dask_speedup"]
    assert speedup["value"] == pytest.approx(seq["value"] / dask["value"])
    assert speedup["target"] == 1.6 and speedup["met"] == (speedup["value"] >= 1.6)
    assert figures["dask_workers"]["value"] >= 1 and "load_average_1min_at_start" in figures
