"""The shared real-data folder for module-scoped fixtures (skips when absent); a workspace built once per run."""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

SHARED_DATA = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data").resolve()


def shared_data_dir() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder {SHARED_DATA} is absent")
    return SHARED_DATA


def illiquidity_request(title: str) -> str:
    """A one-risk request TOML (market illiquidity, one channel) that stops before any model call on the
    demo workspace: a quick analysis to pose in a test."""
    return f"""
title = "{title}"
cutoff = 2024-12-31
horizon = "2025-2027"
jurisdictions = ["EA"]
models = ["macro_var"]
backend = "offline"

[[risks]]
name = "market_illiquidity"
label = "Market illiquidity"
description = "A drop in market liquidity."

[[risks.channels]]
id = "mi1"
source = "market_liquidity"
movement = "decrease"
target = "equity_prices"
expected = "decrease"
"""


T = TypeVar("T")


def once_per_run(tmp_path_factory, name: str, make: Callable[[Path], T]) -> T:
    """``make(folder)`` once per test run, its (picklable) result returned to every caller.

    Under pytest-xdist the workers of one run share one basetemp parent: the first worker to ask makes
    it under a file lock while any other waits, then loads the pickled result. Without xdist it is made
    in a new temp folder (call it from a session-scoped fixture, or cache it, to make it once).
    """
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return make(tmp_path_factory.mktemp(name))
    shared = tmp_path_factory.getbasetemp().parent  # this run's folder, one per run
    folder, result = shared / name, shared / f"{name}.pickle"
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if result.exists():
            return pickle.loads(result.read_bytes())
        folder.mkdir()
        made = make(folder)
        result.write_bytes(pickle.dumps(made))
        return made
