"""Plausibility diagnostics of the unconditional median path (aieco.models.macro.plausibility)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from aieco.models.macro import PLAUSIBILITY, historical_band, plausibility
from aieco.models.var import VARIABLES


def _levels(equity_by_year: dict[int, float]) -> pd.DataFrame:
    """Quarterly levels with a constant equity index within each year (so annual averages are exact)."""
    quarters = [f"{y}Q{q}" for y in sorted(equity_by_year) for q in range(1, 5)]
    frame = pd.DataFrame(1.0, index=quarters, columns=list(VARIABLES))
    frame["equity_prices"] = [equity_by_year[int(q[:4])] for q in quarters]
    frame["house_prices"] = [100.0 * 1.03 ** (int(q[:4]) - 2000) for q in quarters]
    frame["unemployment"] = 7.0
    return frame


def test_historical_band_is_the_interquartile_range_of_annual_average_changes():
    # equity annual averages 100, 110, 99, 99, 118.8: changes +10 %, -10 %, 0 %, +20 % (by hand)
    lv = _levels({2000: 100.0, 2001: 110.0, 2002: 99.0, 2003: 99.0, 2004: 118.8})
    sample = [q for q in lv.index if q >= "2001Q1"]  # complete sample years 2001–2004
    lo, hi, changes = historical_band(lv, "equity_prices", sample, (25.0, 75.0))
    assert changes == pytest.approx({2001: 10.0, 2002: -10.0, 2003: 0.0, 2004: 20.0})
    assert (lo, hi) == pytest.approx(tuple(np.percentile([10.0, -10.0, 0.0, 20.0], [25, 75])))
    assert (lo, hi) == pytest.approx((-2.5, 12.5))


def test_a_median_equity_path_outside_its_band_fails_and_names_the_rule():
    lv = _levels({2000: 100.0, 2001: 110.0, 2002: 99.0, 2003: 99.0, 2004: 118.8})
    sample = [q for q in lv.index if q >= "2001Q1"]
    median = np.zeros((3, 6))
    idx = {v: i for i, v in enumerate(VARIABLES)}
    median[:, idx["real_gdp"]] = 1.0
    median[:, idx["inflation"]] = 2.0
    median[:, idx["unemployment"]] = 7.0
    median[:, idx["house_prices"]] = 3.0  # the band of a constant 3 % is [3, 3]
    median[:, idx["equity_prices"]] = [5.0, -12.0, 19.5]
    out = plausibility(median, ["2025", "2026", "2027"], lv, sample)
    assert PLAUSIBILITY["historical_bands"]["equity_prices"] == (0.0, 100.0)  # the sample's whole range
    assert not out["passed"]
    assert out["failures"] == [
        "median equity_prices 2026 = -12.00 outside [-10.00, 20.00], the lowest to highest of its annual changes "
        "over the 4 complete sample years"
    ]
    assert out["historical_bands"]["equity_prices"]["band"] == pytest.approx([-10.0, 20.0])
    median[1, idx["equity_prices"]] = -9.0  # a fall deeper than the interquartile range but seen in the sample
    assert plausibility(median, ["2025", "2026", "2027"], lv, sample)["passed"]


def test_without_a_sample_the_historical_checks_are_skipped_and_say_so():
    lv = _levels({2000: 100.0, 2001: 110.0})
    median = np.zeros((1, 6))
    median[0, 4] = 7.0
    out = plausibility(median, ["2025"], lv)
    assert out["historical_bands"]["equity_prices"] == {"skipped": "no estimation sample given"}
    assert set(PLAUSIBILITY["historical_bands"]) == {"equity_prices", "house_prices"}
