"""Numerical definitions and temporal aggregation (paper appendix of that name).

Every function is pure and works along the last axis, so the same code aggregates one
observed series and 20,000 simulated trajectories (shape ``(draws, quarters)``).
Levels of GDP and price indexes must be positive; a non-positive level raises
:class:`~aieco.errors.InputError` because its logarithm or ratio has no meaning.
"""

from __future__ import annotations

import numpy as np

from aieco.errors import InputError


def require_positive(levels: np.ndarray, name: str = "levels") -> np.ndarray:
    """Return ``levels`` as a float array, refusing non-positive or missing values."""
    arr = np.asarray(levels, dtype=float)
    if arr.size and not np.all(arr > 0):
        bad = np.argwhere(~(arr > 0))[0].tolist()
        raise InputError(
            f"{name} must be positive levels; found {arr[tuple(bad)]!r} at index {bad}",
            where=name,
            fix="pass index or GDP levels (not changes) and drop missing quarters",
        )
    return arr


def log_changes(levels: np.ndarray) -> np.ndarray:
    """Quarterly log changes :math:`\\ell_t = 100\\log(P_t/P_{t-1})`.

    Parameters
    ----------
    levels : array, shape (..., T)
        Positive levels :math:`P_t`.

    Returns
    -------
    array, shape (..., T-1)
        Log changes in percentage points (100 × natural log).
    """
    p = require_positive(levels)
    return 100.0 * np.diff(np.log(p), axis=-1)


def levels_from_log_changes(start: np.ndarray | float, changes: np.ndarray) -> np.ndarray:
    """Rebuild levels :math:`P_t = P_{t-1}\\exp(\\ell_t/100)` from a positive starting level.

    Parameters
    ----------
    start : float or array, shape (...)
        Level :math:`P_0` before the first change.
    changes : array, shape (..., n)
        Log changes :math:`\\ell_1..\\ell_n` (×100).

    Returns
    -------
    array, shape (..., n)
        Levels :math:`P_1..P_n` (the start level is not repeated).
    """
    p0 = require_positive(start, "start level")
    return np.asarray(p0)[..., None] * np.exp(np.cumsum(np.asarray(changes, dtype=float), axis=-1) / 100.0)


def percent_change_from_log_changes(changes: np.ndarray) -> np.ndarray:
    """Ordinary percentage change over an interval, :math:`100(\\exp(\\sum\\ell_t/100)-1)`.

    The sum of log changes is the log change over the interval; it is converted here,
    never labelled as an ordinary percentage (appendix "Log changes and percentage changes").

    Parameters
    ----------
    changes : array, shape (..., n)
        Log changes (×100) of the quarters :math:`a+1..b`.

    Returns
    -------
    array, shape (...)
        Percentage change between quarters a and b (%).
    """
    return 100.0 * np.expm1(np.sum(np.asarray(changes, dtype=float), axis=-1) / 100.0)


def period_sum_growth(levels: np.ndarray, per: int) -> np.ndarray:
    """Growth of period sums: :math:`100(\\sum_{q} Y_{y,q} / \\sum_{q} Y_{y-1,q} - 1)`.

    ``per=4`` gives annual GDP growth and annual inflation from annual-average index
    levels; ``per=2`` gives half-year growth (sum of two quarters against the preceding
    half-year). Sums and averages give the same ratio.

    Parameters
    ----------
    levels : array, shape (..., n*per)
        Positive quarterly levels, starting at the first quarter of a period.
    per : int
        Quarters per period (4 = year, 2 = half-year).

    Returns
    -------
    array, shape (..., n-1)
        Growth of each period over the preceding one (%).
    """
    p = require_positive(levels)
    if p.shape[-1] % per:
        raise InputError(
            f"{p.shape[-1]} quarters do not form whole periods of {per}",
            fix="start at the first quarter of a period and end at the last",
        )
    sums = p.reshape(*p.shape[:-1], p.shape[-1] // per, per).sum(axis=-1)
    return 100.0 * (sums[..., 1:] / sums[..., :-1] - 1.0)


def annual_growth(levels: np.ndarray) -> np.ndarray:
    """Annual growth from four-quarter level sums (GDP; annual-average index change) in %."""
    return period_sum_growth(levels, 4)


def half_year_growth(levels: np.ndarray) -> np.ndarray:
    """Half-year growth from two-quarter level sums against the preceding half-year (%)."""
    return period_sum_growth(levels, 2)


def half_year_yoy_growth(levels: np.ndarray) -> np.ndarray:
    """Half-year inflation: average index of a half-year against the same half-year a year earlier (%).

    Parameters
    ----------
    levels : array, shape (..., 2*n)
        Positive quarterly index levels starting at a first half-year (Q1).

    Returns
    -------
    array, shape (..., n-2)
        Growth of half-year h over half-year h-2 (%).
    """
    p = require_positive(levels)
    if p.shape[-1] % 2:
        raise InputError(
            f"{p.shape[-1]} quarters do not form whole half-years", fix="start at Q1 or Q3 and end at Q2 or Q4"
        )
    sums = p.reshape(*p.shape[:-1], p.shape[-1] // 2, 2).sum(axis=-1)
    return 100.0 * (sums[..., 2:] / sums[..., :-2] - 1.0)


def period_average(values: np.ndarray, per: int) -> np.ndarray:
    """Period averages of rates (unemployment, interest rates); shape (..., n*per) → (..., n)."""
    v = np.asarray(values, dtype=float)
    if v.shape[-1] % per:
        raise InputError(
            f"{v.shape[-1]} quarters do not form whole periods of {per}",
            fix="start at the first quarter of a period and end at the last",
        )
    return v.reshape(*v.shape[:-1], v.shape[-1] // per, per).mean(axis=-1)


def yoy_log_change(index: np.ndarray) -> np.ndarray:
    """Year-on-year log change :math:`\\pi_t = 100\\log(H_t/H_{t-4})` of a quarterly index.

    Parameters
    ----------
    index : array, shape (..., T)
        Positive quarterly-average index levels :math:`H_t`.

    Returns
    -------
    array, shape (..., T-4)
        :math:`\\pi_5..\\pi_T` in percentage points (×100 log).
    """
    h = np.log(require_positive(index, "index"))
    return 100.0 * (h[..., 4:] - h[..., :-4])


def index_from_yoy_log_change(base: np.ndarray, changes: np.ndarray) -> np.ndarray:
    """Reconstruct an index by :math:`H_t = H_{t-4}\\exp(\\pi_t/100)`.

    Parameters
    ----------
    base : array, shape (..., 4)
        The four quarters :math:`H_{-3}..H_0` preceding the first change.
    changes : array, shape (..., n)
        Year-on-year log changes :math:`\\pi_1..\\pi_n`.

    Returns
    -------
    array, shape (..., n)
        Index levels :math:`H_1..H_n`.
    """
    b = require_positive(base, "base index")
    pi = np.asarray(changes, dtype=float)
    n = pi.shape[-1]
    shape = np.broadcast_shapes(b.shape[:-1], pi.shape[:-1])
    out = np.empty((*shape, n + 4))
    out[..., :4] = b
    factors = np.exp(pi / 100.0)
    for t in range(n):  # each quarter depends on the one four quarters earlier
        out[..., t + 4] = out[..., t] * factors[..., t]
    return out[..., 4:]


def average_level_targets(last_average: float, growth: np.ndarray) -> np.ndarray:
    """Annual-average level targets :math:`A_y = A_{y-1}(1 + g^a_y/100)` from annual growth rates.

    Parameters
    ----------
    last_average : float
        The last observed annual average :math:`A_{y_0}` (positive).
    growth : array, shape (n,)
        Annual growth rates :math:`g^a_{y_0+1}..g^a_{y_0+n}` (%).

    Returns
    -------
    array, shape (n,)
        Targets :math:`A_{y_0+1}..A_{y_0+n}`.
    """
    a0 = float(require_positive(np.asarray([last_average]), "last annual average")[0])
    return a0 * np.cumprod(1.0 + np.asarray(growth, dtype=float) / 100.0)


def within_year_factor(previous_q4: float, annual_average: float) -> float:
    """The unique positive root g of :math:`P_{y-1,4}(g+g^2+g^3+g^4) = 4A_y`.

    The left side is strictly increasing in g > 0 and runs from 0 to infinity, so a
    positive target has exactly one positive root.

    Parameters
    ----------
    previous_q4 : float
        Level at the end of the preceding year, :math:`P_{y-1,4}` (> 0).
    annual_average : float
        Target annual average :math:`A_y` (> 0).

    Returns
    -------
    float
        Quarterly factor g (> 0).
    """
    p, a = require_positive(np.asarray([previous_q4, annual_average]), "disaggregation inputs")
    roots = np.roots([1.0, 1.0, 1.0, 1.0, -4.0 * a / p])
    real = roots[(np.abs(roots.imag) < 1e-9) & (roots.real > 0)].real
    g = float(real[0])
    # Polish the root with Newton steps so P(g+g²+g³+g⁴) reproduces 4A to machine precision.
    for _ in range(3):
        f = g + g**2 + g**3 + g**4 - 4.0 * a / p
        g -= f / (1 + 2 * g + 3 * g**2 + 4 * g**3)
    return g


def disaggregate_annual_average(previous_q4: float, annual_averages: np.ndarray) -> np.ndarray:
    """Quarterly path :math:`P_{y,q} = P_{y-1,4} g_y^q` reproducing each annual average.

    Parameters
    ----------
    previous_q4 : float
        Level in Q4 of the year before the first target.
    annual_averages : array, shape (n,)
        Targets :math:`A_y`, one per year.

    Returns
    -------
    array, shape (4n,)
        Quarterly levels; the mean of each block of four equals its target.
    """
    out, p = [], float(previous_q4)
    for a in np.asarray(annual_averages, dtype=float):
        g = within_year_factor(p, a)
        quarters = p * g ** np.arange(1, 5)
        out.append(quarters)
        p = float(quarters[-1])
    return np.concatenate(out) if out else np.empty(0)


def end_of_year_factor(previous_q4: float, current_q4: float) -> float:
    """Quarterly factor :math:`(P_{y,4}/P_{y-1,4})^{1/4}` for an end-of-year index target."""
    p, c = require_positive(np.asarray([previous_q4, current_q4]), "end-of-year levels")
    return float((c / p) ** 0.25)


def disaggregate_end_of_year(previous_q4: float, year_end_levels: np.ndarray) -> np.ndarray:
    """Quarterly path with constant factor within each year, hitting each end-of-year target.

    Parameters
    ----------
    previous_q4 : float
        Level in Q4 of the year before the first target.
    year_end_levels : array, shape (n,)
        End-of-year targets :math:`P_{y,4}`.

    Returns
    -------
    array, shape (4n,)
        Quarterly levels.
    """
    out, p = [], float(previous_q4)
    for target in np.asarray(year_end_levels, dtype=float):
        g = end_of_year_factor(p, target)
        out.append(p * g ** np.arange(1, 5))
        p = float(target)
    return np.concatenate(out) if out else np.empty(0)


def constant_within_year(annual_values: np.ndarray) -> np.ndarray:
    """Hold annual unemployment or interest-rate targets constant within the year; (n,) → (4n,)."""
    return np.repeat(np.asarray(annual_values, dtype=float), 4)


# --------------------------------------------------------------------------- horizon summaries
#
# Figures a reader compares with the baseline: the change over the whole horizon, the
# largest fall from a running peak, the peak itself, the end-of-horizon level and the
# deviation from the median (baseline) path. ``kind`` says how a variable changes:
# ``"level"`` (GDP, price indexes: changes are ratios, in %) or ``"rate"`` (unemployment,
# interest rates: changes are differences, in percentage points).

SUMMARY_KINDS = ("level", "rate")


def _kind(kind: str) -> str:
    if kind not in SUMMARY_KINDS:
        raise InputError(f"unknown summary kind {kind!r}", fix=f"use one of {SUMMARY_KINDS}")
    return kind


def _path(values: np.ndarray, kind: str) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if arr.shape[-1] < 1:
        raise InputError("a horizon summary needs at least one quarter", fix="pass the horizon's quarters")
    return require_positive(arr, "level path") if _kind(kind) == "level" else arr


def cumulative_change(path: np.ndarray, kind: str) -> np.ndarray:
    """Change from the first to the last value of ``path`` along the last axis.

    The first value is the quarter before the horizon (the jump-off), the last the horizon's
    final quarter: ``100 (x_T / x_0 - 1)`` in % for levels, ``x_T - x_0`` in pp for rates.
    """
    x = _path(path, kind)
    return 100.0 * (x[..., -1] / x[..., 0] - 1.0) if kind == "level" else x[..., -1] - x[..., 0]


def peak_to_trough(path: np.ndarray, kind: str) -> np.ndarray:
    """The largest fall from a running peak along the last axis (≤ 0; 0 when never falling).

    ``min_t 100 (x_t / max_{s≤t} x_s - 1)`` in % for levels, ``min_t (x_t - max_{s≤t} x_s)``
    in pp for rates.
    """
    x = _path(path, kind)
    running = np.maximum.accumulate(x, axis=-1)
    fall = 100.0 * (x / running - 1.0) if kind == "level" else x - running
    return fall.min(axis=-1)


def peak(path: np.ndarray) -> np.ndarray:
    """Highest value along the last axis (peak unemployment, peak long-term rate)."""
    return np.asarray(path, dtype=float).max(axis=-1)


def end_level(path: np.ndarray) -> np.ndarray:
    """The value in the last period along the last axis (end-of-horizon level)."""
    return np.asarray(path, dtype=float)[..., -1]


def deviation_from_median(value: np.ndarray, median: np.ndarray, kind: str) -> np.ndarray:
    """How far ``value`` lies from the median (baseline) ``median``, elementwise.

    ``100 (value / median - 1)`` in % for levels, ``value - median`` in pp for rates.
    """
    v, m = np.asarray(value, dtype=float), np.asarray(median, dtype=float)
    if _kind(kind) == "level":
        v, m = require_positive(v, "value"), require_positive(m, "median")
    return 100.0 * (v / m - 1.0) if kind == "level" else v - m
