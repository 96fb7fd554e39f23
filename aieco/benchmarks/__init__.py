"""`aieco bench`: performance figures as JSON, never timed tests.

Each section is a module (or comma-separated modules) with ``run(quick: bool) -> list[Figure]``;
add it to SECTIONS.
"""

from __future__ import annotations

import importlib
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

SECTIONS: dict[str, str] = {
    "store": "aieco.benchmarks.store",
    "sources": "aieco.benchmarks.sources",
    "bank": "aieco.benchmarks.bank,aieco.benchmarks.bank_real",
    "var": "aieco.benchmarks.var",
    "scenarios": "aieco.benchmarks.scenarios",
    "data": "aieco.benchmarks.data",
    "pipeline": "aieco.benchmarks.pipeline",
    "dashboard": "aieco.benchmarks.dashboard",
    "reporting": "aieco.benchmarks.reporting",
    "graph": "aieco.benchmarks.graph",
    "evaluation": "aieco.benchmarks.evaluation",
    "extraction": "aieco.benchmarks.extraction",
    "llm": "aieco.benchmarks.llm",
    "search": "aieco.benchmarks.search",
    "executors": "aieco.benchmarks.executors",
    "backtest_dask": "aieco.benchmarks.backtest_dask",
    "cli": "aieco.benchmarks.cli",
}


class Figure(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    value: float
    unit: str
    target: float | None = None
    better: Literal["lower", "higher"] = "lower"

    @property
    def met(self) -> bool | None:
        if self.target is None:
            return None
        return self.value <= self.target if self.better == "lower" else self.value >= self.target


def run_section(name: str, quick: bool = False, **options: Any) -> dict[str, Any]:
    """Run one section; ``options`` (e.g. ``backend`` for ``extraction``) go to sections that take them."""
    from aieco.errors import InputError

    if name not in SECTIONS:
        raise InputError(f"unknown bench section {name!r}", fix=f"choose one of {', '.join(SECTIONS)}")
    options = {k: v for k, v in options.items() if v is not None}
    figures = [
        f
        for module in SECTIONS[name].split(",")
        for f in (
            importlib.import_module(module).run(quick=quick, **options)
            if options
            else importlib.import_module(module).run(quick=quick)
        )
    ]
    out: dict[str, Any] = {"section": name, "figures": [f.model_dump() | {"met": f.met} for f in figures]}
    if options:
        out["options"] = options
    return out


@contextmanager
def measure() -> Iterator[dict[str, float]]:
    """Wall time (s) and peak traced Python memory (MiB) of the block."""
    out: dict[str, float] = {}
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        yield out
    finally:
        out["seconds"] = time.perf_counter() - t0
        out["peak_mib"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()


def timed(fn: Callable[[], Any], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times
