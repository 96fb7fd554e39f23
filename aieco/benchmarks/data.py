"""`aieco bench data`: series loading (rows/s) from the real macro files, with pandas as the peer.

Every file of ``../shared/data/macro`` that holds one of the six variables is loaded with
:func:`aieco.sources.series.load_series` (parse, period and number checks, release date and
rule, record ids); the peer is ``pandas.read_csv``/``read_excel`` of the same files, which
only parses. Without the shared data folder the section reports nothing.
"""

from __future__ import annotations

import time

import pandas as pd

from aieco.benchmarks import Figure
from aieco.benchmarks.var import shared_data_dir
from aieco.errors import InputError
from aieco.sources.series import load_series


def run(quick: bool = False) -> list[Figure]:
    macro = shared_data_dir() / "macro"
    if not macro.is_dir():
        return []
    files = sorted(p for p in macro.rglob("*") if p.suffix in (".csv", ".xlsx"))
    if quick:
        files = [p for p in files if p.stat().st_size < 200_000][:8]
    t0 = time.perf_counter()
    rows = 0
    loaded = []
    for p in files:
        try:
            rows += len(load_series(p))
            loaded.append(p)
        except InputError:
            continue  # refused files (no vocabulary variable, a daily download without a mapping)
    ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    for p in loaded:
        if p.suffix == ".xlsx":
            pd.read_excel(p, sheet_name=None)
        else:
            pd.read_csv(p, sep=None, engine="python")
    peer = time.perf_counter() - t0
    return [
        Figure(
            name=f"series_load_{len(loaded)}_real_macro_files_rows_per_s",
            value=rows / ours,
            unit="rows/s",
            better="higher",
        ),
        Figure(name="series_load_values", value=float(rows), unit="rows", better="higher"),
        Figure(name="series_load_seconds", value=ours, unit="s"),
        Figure(name="pandas_parse_same_files_seconds", value=peer, unit="s"),
    ]
