"""The CET1 projection kernel: one bank's simulated paths, laid out half-year by half-year.

Arrays are (half-years, paths) so each half-year is one contiguous row; every draw is
computed in place from small per-level tables (``np.take``) instead of gathering rows of the
coefficient matrix (``mode="clip"`` skips the bounds check; every drawn level is in range).
The random stream and every floating-point operation are the same, in
the same order, as the plain formulation

    value = base[k] + c[k, 1]·lag + c[k, 2]·ratio_lag + c[k, 3]·log_rwa_lag

so the paths are bit-identical to it (tests compare with a plain numpy implementation).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

#: Paths per bank, half-year and component on which quantile crossing is counted.
CROSSING_SAMPLE = 1_000


@dataclass(frozen=True)
class ComponentTables:
    """One component's fitted equation as contiguous per-level tables (FE-QAR: K levels; FE-OLS: 1)."""

    intercept: np.ndarray  # (K,)
    lag: np.ndarray  # (K,) slope on the lagged component
    ratio: np.ndarray  # (K,) slope on the lagged CET1 ratio
    log_rwa: np.ndarray  # (K,) slope on lagged log RWA
    macro: np.ndarray  # (K, m) slopes on the macro variables
    quantile: bool  # FE-QAR (draw a level) or FE-OLS (add a resampled residual)
    residuals: np.ndarray | None

    @classmethod
    def of(cls, coef: np.ndarray, quantiles: np.ndarray | None, residuals: np.ndarray | None) -> ComponentTables:
        c = np.asarray(coef, dtype=float)
        # the macro slopes stay a view of ``coef``: the product with x is then the same BLAS call as before
        return cls(
            np.ascontiguousarray(c[:, 0]),
            np.ascontiguousarray(c[:, 1]),
            np.ascontiguousarray(c[:, 2]),
            np.ascontiguousarray(c[:, 3]),
            c[:, 4:],
            quantiles is not None,
            residuals,
        )


@dataclass
class BankPaths:
    """One bank's simulated paths, (half-years, paths) each."""

    capital: np.ndarray  # (1 + H, paths)
    rwa: np.ndarray  # (1 + H, paths)
    drawn: dict[str, np.ndarray]  # component → (H, paths) with keep_draws, else the last two half-years
    crossings: dict[str, int]
    checked: dict[str, int]
    worst: float = 0.0  # largest relative error of the recursions, computed half-year by half-year


def simulate_bank(
    tables: Mapping[str, ComponentTables],
    components: Sequence[str],
    fixed_effects: Mapping[str, float],
    x: np.ndarray,
    capital0: float,
    rwa0: float,
    lags0: Mapping[str, float],
    paths: int,
    rng: np.random.Generator,
    *,
    keep_draws: bool = False,
) -> BankPaths:
    """Simulate ``paths`` paths of one bank over the half-years of ``x`` (H, m macro values).

    The generator is used exactly as the plain formulation uses it: per half-year, per
    component in ``components`` order, one ``integers(0, K, paths)`` (FE-QAR) or one
    ``choice(residuals, paths)`` (FE-OLS). The recursions' relative errors are measured as each
    half-year is written, with the expressions of ``verify_recursions``; only the last two
    half-years of draws are kept unless ``keep_draws`` (to report where a check failed).
    """
    H = x.shape[0]
    capital = np.empty((H + 1, paths))
    rwa = np.empty((H + 1, paths))
    capital[0] = capital0
    rwa[0] = rwa0
    rows = H if keep_draws else min(H, 2)
    drawn = {c: np.empty((rows, paths)) for c in components}
    worst = 0.0
    err = np.empty(paths)
    crossings = dict.fromkeys(components, 0)
    checked = dict.fromkeys(components, 0)
    m = min(paths, CROSSING_SAMPLE)
    ratio_lag = np.empty(paths)
    log_rwa_lag = np.empty(paths)
    tmp = np.empty(paths)
    K_max = max(t.intercept.size for t in tables.values())
    # crossing check laid out (levels, paths): adjacent levels are contiguous rows, so the
    # comparison and the any-over-levels are row operations (same products and sums as (paths, levels))
    q = np.empty((K_max, m))
    q_tmp = np.empty((K_max, m))
    below = np.empty((K_max - 1, m), dtype=bool) if K_max > 1 else np.empty((0, m), dtype=bool)
    crossed = np.empty(m, dtype=bool)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):  # non-finite paths stop in verification
        for h in range(H):
            np.multiply(100, capital[h], out=ratio_lag)
            np.divide(ratio_lag, rwa[h], out=ratio_lag)
            np.log(rwa[h], out=log_rwa_lag)
            for comp in components:
                t = tables[comp]
                lag = np.full(paths, lags0[comp]) if h == 0 else drawn[comp][(h - 1) % rows]
                base = fixed_effects[comp] + t.intercept + t.macro @ x[h]
                out = drawn[comp][h % rows]
                if not t.quantile:
                    mean = base[0] + t.lag[0] * lag + t.ratio[0] * ratio_lag + t.log_rwa[0] * log_rwa_lag
                    np.add(mean, rng.choice(t.residuals, size=paths), out=out)
                    continue
                K = base.size
                qm, qt = q[:K], q_tmp[:K]
                np.multiply.outer(t.lag, lag[:m], out=qt)
                np.add(base[:, None], qt, out=qm)
                np.multiply.outer(t.ratio, ratio_lag[:m], out=qt)
                qm += qt
                np.multiply.outer(t.log_rwa, log_rwa_lag[:m], out=qt)
                qm += qt
                if K > 1:
                    np.less(qm[1:], qm[:-1], out=below[: K - 1])
                    np.logical_or.reduce(below[: K - 1], axis=0, out=crossed)
                    crossings[comp] += int(np.count_nonzero(crossed))
                checked[comp] += m
                k = rng.integers(0, K, size=paths)
                np.take(base, k, out=out, mode="clip")
                np.take(t.lag, k, out=tmp, mode="clip")
                tmp *= lag
                out += tmp
                np.take(t.ratio, k, out=tmp, mode="clip")
                tmp *= ratio_lag
                out += tmp
                np.take(t.log_rwa, k, out=tmp, mode="clip")
                tmp *= log_rwa_lag
                out += tmp
            # Eq. (cet1capital) and Eq. (rwarecursion), each followed by its check
            r = h % rows
            net = np.subtract(drawn["n"][r], drawn["l"][r], out=tmp)
            net -= drawn["o"][r]
            net += drawn["a"][r]
            net /= 100
            net *= rwa[h]
            np.add(capital[h], net, out=capital[h + 1])
            np.subtract(capital[h + 1], capital[h], out=err)
            err -= net
            np.abs(err, out=err)
            err /= rwa[h]  # |C_t − C_{t−1} − net/100 · RWA_{t−1}| / RWA_{t−1}
            worst = max(worst, float(err.max(initial=0.0)))
            np.divide(drawn["g"][r], 100, out=tmp)
            np.exp(tmp, out=tmp)
            np.multiply(rwa[h], tmp, out=rwa[h + 1])
            np.divide(rwa[h + 1], rwa[h], out=err)
            np.log(err, out=err)
            err *= 100
            err -= drawn["g"][r]
            np.abs(err, out=err)
            # |100 · log(RWA_t / RWA_{t−1}) − g_t| / 100: the largest then divided (rounding is monotone)
            worst = max(worst, float(err.max(initial=0.0)) / 100)
    return BankPaths(capital, rwa, drawn, crossings, checked, worst)


def recursion_error(paths: BankPaths) -> float | None:
    """Largest relative error of Eqs. (cet1capital)–(rwarecursion) over all paths, or None when
    some RWA is not positive and finite or some capital not finite (the caller reports where)."""
    # by reductions (no temporaries): a NaN makes min/max NaN and every comparison false
    rwa, capital = paths.rwa, paths.capital
    if not (rwa.min() > 0 and rwa.max() < np.inf and capital.min() > -np.inf and capital.max() < np.inf):
        return None
    return paths.worst
