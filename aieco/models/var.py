"""The macro-financial model: a quarterly VAR(2) with a residual bootstrap (Eq. varscenario), estimated
under a Minnesota prior by default (:data:`VAR_ESTIMATORS`; OLS selectable).

The model is separate from its results, as in statsmodels: :func:`fit_var` takes a frame
of quarterly levels and returns a frozen :class:`VARFit`; :func:`simulate` draws
trajectories from it and returns a frozen :class:`Simulation`; :func:`annual_paths`
turns the reconstructed levels into the annual 2025–2027 variables of the paper.

Model variables (in this order), built from the registered levels:

=================  =====================================  ==========================
variable           level registered in the input frame     model variable x_t
=================  =====================================  ==========================
real_gdp           real GDP level (chain-linked)           100·log(Y_t/Y_{t-1})
equity_prices      equity index level                      100·log(E_t/E_{t-1})
house_prices       residential property price index        100·log(P_t/P_{t-1})
inflation          HICP index level (quarterly average)    100·log(H_t/H_{t-4})
unemployment       unemployment rate (%)                    u_t − u_{t-1} (pp)
long_term_rate     10-year government bond yield (%)        the rate
=================  =====================================  ==========================

Why unemployment enters as its quarterly change (specification version 3): over the
2000–2023 sample the euro-area unemployment rate declined structurally (from about 10 % to
6.5 %). In levels, the VAR's intercept pulls it back towards an implied mean of about 8.5 %,
and over a three-year horizon that pull — through the cross-equation dynamics — dominated the
median path (unemployment drifting up, the yield rising, equity prices falling every year).
In changes, the forecast converges to the sample's mean change instead. The 10-year yield
stays in levels: its implied mean (about 3 %) is close to where it ended, and in changes it
would be a random walk whose bootstrap tails reach deeply negative yields by 2027 (a selected
path with a −2 % yield was seen with that variant). ``docs/default-workspace.md`` records the
three specifications compared and their median and selected paths.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from aieco.config import get_settings
from aieco.errors import InputError, StageStopped
from aieco.models import transforms as tf
from aieco.progress import report

VARIABLES: tuple[str, ...] = (
    "real_gdp",
    "equity_prices",
    "house_prices",
    "inflation",
    "unemployment",
    "long_term_rate",
)
#: How each level enters the VAR.
MODEL_TRANSFORMATION = {
    "real_gdp": "qoq_log",
    "equity_prices": "qoq_log",
    "house_prices": "qoq_log",
    "inflation": "yoy_log",
    "unemployment": "diff",
    "long_term_rate": "rate",
}
RATE_VARIABLES = ("unemployment", "long_term_rate")
#: Annual aggregation of each variable (appendix "Numerical Definitions and Temporal Aggregation").
ANNUAL_TRANSFORMATION = {
    "real_gdp": "annual_growth",
    "inflation": "annual_avg_index_growth",
    "unemployment": "annual_average",
    "long_term_rate": "annual_average",
    "equity_prices": "annual_avg_index_change",
    "house_prices": "annual_avg_index_change",
}
#: Configured annual range checks (appendix "The Macro-Financial Model"), in % or % change.
RANGE_BOUNDS = {
    "real_gdp": (-20.0, 20.0),
    "inflation": (-5.0, 20.0),
    "unemployment": (0.0, 30.0),
    "long_term_rate": (-2.0, 20.0),
    "equity_prices": (-80.0, 50.0),
    "house_prices": (-60.0, 40.0),
}
LEVEL_VARIABLES = ("real_gdp", "equity_prices", "house_prices", "inflation")


def quarter_index(labels) -> pd.PeriodIndex:
    """Parse quarter labels ('2024Q3', '2024-Q3', Period) into a quarterly PeriodIndex."""
    if isinstance(labels, pd.PeriodIndex) and labels.freqstr.startswith("Q"):
        return labels
    text = [str(x) for x in labels]
    if all(len(t) in (6, 7) and t[:4].isdigit() and t[-2] == "Q" and t[-1] in "1234" for t in text):
        # the usual 'YYYYQn' / 'YYYY-Qn' labels: built from fields (string parsing is slow)
        return pd.PeriodIndex.from_fields(year=[int(t[:4]) for t in text], quarter=[int(t[-1]) for t in text], freq="Q")
    try:
        return pd.PeriodIndex([str(x).replace("-Q", "Q") for x in labels], freq="Q")
    except (ValueError, TypeError) as exc:
        raise InputError(
            f"quarter labels cannot be parsed: {exc}",
            where="observations index",
            fix="label quarters as YYYYQn, e.g. 2024Q3",
        ) from exc


def model_variables(levels: pd.DataFrame) -> pd.DataFrame:
    """Transform a frame of quarterly levels into the six VAR variables.

    Parameters
    ----------
    levels : DataFrame, index quarters, columns ``VARIABLES``
        Positive levels of GDP, equity, house prices and HICP; unemployment and the long
        rate in %. Missing quarters are NaN.

    Returns
    -------
    DataFrame
        Same index; quarterly log changes (×100), y/y log HICP change (×100), the quarterly
        change of unemployment (pp) and the long rate. A value is NaN where a needed level is
        missing.
    """
    missing = [v for v in VARIABLES if v not in levels.columns]
    if missing:
        raise InputError(
            f"the level frame lacks {', '.join(missing)}",
            where="observations",
            fix=f"supply quarterly observations of {', '.join(VARIABLES)}",
        )
    idx = quarter_index(levels.index)
    frame = levels.copy()
    frame.index = idx
    full = pd.period_range(idx.min(), idx.max(), freq="Q")
    frame = frame.reindex(full)
    out = pd.DataFrame(index=full, columns=list(VARIABLES), dtype=float)
    for v in LEVEL_VARIABLES:
        s = frame[v].astype(float)
        if (s.dropna() <= 0).any():
            bad = s[s <= 0].index[0]
            raise InputError(
                f"{v} must be a positive level; {bad} holds {s[bad]}",
                where=f"observations {v}",
                fix="register index or GDP levels, not changes",
            )
        lag = 4 if v == "inflation" else 1
        out[v] = 100.0 * (np.log(s) - np.log(s.shift(lag)))
    for v in RATE_VARIABLES:
        rate = frame[v].astype(float)
        out[v] = rate.diff() if MODEL_TRANSFORMATION[v] == "diff" else rate
    return out


@dataclass(frozen=True, eq=False)
class VARFit:
    """Estimated VAR(p): intercept ``c`` (k,), lag matrices ``coefs`` (p, k, k), residuals (T-p, k)."""

    variables: tuple[str, ...]
    quarters: tuple[str, ...]  # estimation sample (including the p presample quarters)
    data: np.ndarray  # (T, k) model variables over the sample
    intercept: np.ndarray  # (k,)
    coefs: np.ndarray  # (p, k, k)
    resid: np.ndarray  # (T-p, k)
    levels: pd.DataFrame  # registered levels up to the endpoint, for reconstruction
    eigenvalues: np.ndarray  # companion-matrix eigenvalues
    pandemic: str = "none"  # the registered pandemic treatment (PANDEMIC_TREATMENTS)
    dummied: tuple[str, ...] = ()  # quarters given an impulse dummy (left out of the residual pool)
    ragged_edge: str = "none"  # the registered treatment of quarters after the endpoint (RAGGED_EDGE_TREATMENTS)
    #: model variables observed after the endpoint (rows: the quarters endpoint+1 …, NaN where not
    #: observed); the simulation is conditioned on them when ``ragged_edge == 'condition'``
    conditions: np.ndarray | None = None
    #: the estimator (:data:`VAR_ESTIMATORS`) and, for ``minnesota``, its hyperparameters
    prior: dict | None = None

    @property
    def lags(self) -> int:
        return self.coefs.shape[0]

    @property
    def nobs(self) -> int:
        """Complete quarterly observations in the sample (presample included)."""
        return len(self.quarters)

    @property
    def endpoint(self) -> str:
        return self.quarters[-1]

    @property
    def max_modulus(self) -> float:
        return float(np.max(np.abs(self.eigenvalues)))

    @property
    def stable(self) -> bool:
        return self.max_modulus < 1.0

    @property
    def params(self) -> np.ndarray:
        """Coefficients in statsmodels' layout: (1 + k·p, k), intercept first."""
        return np.vstack([self.intercept[None, :], *[a.T for a in self.coefs]])


def companion_eigenvalues(coefs: np.ndarray) -> np.ndarray:
    """Eigenvalues of the VAR companion matrix; all inside the unit circle ⇔ stable."""
    p, k, _ = coefs.shape
    comp = np.zeros((k * p, k * p))
    comp[:k, :] = np.hstack(list(coefs))
    comp[k:, :-k] = np.eye(k * (p - 1))
    return np.linalg.eigvals(comp)


#: Registered treatments of the pandemic quarters (chosen by the model specification, recorded on the run).
#: ``dummies``: one impulse dummy per quarter 2020Q1–2021Q2 in every equation, so those quarters
#: neither shape the coefficients' fit nor enter the residual pool the bootstrap resamples
#: (their residuals are zero by construction and are left out); ``none``: plain OLS.
PANDEMIC_TREATMENTS = {
    "dummies": ("2020Q1", "2020Q2", "2020Q3", "2020Q4", "2021Q1", "2021Q2"),
    "none": (),
}


#: Registered treatments of the ragged edge: quarters after the estimation endpoint (the last quarter
#: in which all six variables are usable) in which some variables are already observed at the cutoff.
#: ``condition``: the simulation is conditioned on every observed model variable, quarter by quarter —
#: the observed variables take their observed values and the bootstrap residual of the others is
#: shifted by its linear projection on the observed variables' residual surprise (the Gaussian
#: conditional mean under the residual covariance, applied to each resampled residual vector), so no
#: value known at the cutoff is thrown away; ``none``: the simulation starts from the endpoint alone.
RAGGED_EDGE_TREATMENTS = ("condition", "none")


def ols_var(
    data: np.ndarray, lags: int, dummies: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """OLS of a VAR(p) with an intercept and optional impulse dummies.

    Parameters
    ----------
    data : array (T, k)
    lags : p
    dummies : bool array (T,) or None — rows (of the T) given their own impulse dummy

    Returns
    -------
    intercept (k,), coefs (p, k, k), resid (T-p-d, k) without the dummied rows, and the
    boolean mask (T-p,) of equation rows kept in the residual pool.
    """
    y, x, keep = _regressors(data, lags, dummies)
    beta = np.linalg.lstsq(x, y, rcond=None)[0]
    intercept, coefs = _split(beta, lags, data.shape[1])
    return intercept, coefs, (y - x @ beta)[keep], keep


#: Registered estimators of the VAR's coefficients (the model specification records the one used).
#: ``minnesota``: the posterior mean under Litterman's Minnesota prior (a Bayesian VAR as in Bańbura,
#: Giannone & Reichlin 2010): each coefficient is shrunk towards a prior mean — 1 on the first own
#: lag of a variable that enters in levels (inflation y/y, the long rate: a random walk), 0 on the
#: first own lag of a quarterly change (white noise) and 0 on every other lag — with prior standard
#: deviation ``tightness/l`` on own lags and ``tightness·cross·σ_i/(l·σ_j)`` on lags of other
#: variables (σ from univariate AR(p) fits); the intercept and any impulse dummy are left free.
#: Why: with six variables, two lags and about 80 quarters, OLS gives the equity equation loadings of
#: ±10 on a quarterly unemployment change and lets a near-unit-root long rate set equity's implied
#: mean; early cutoffs then forecast equity 26–39 % a year (cutoffs 2019-12-31, 2021-12-31,
#: 2023-06-30). Shrinkage keeps what the data say strongly and drops what they say by accident.
#: ``ols``: equation-by-equation least squares (the paper's estimator, selectable).
VAR_ESTIMATORS = ("minnesota", "ols")
#: Prior means of the first own lag under ``minnesota`` (1: a persistent level, 0: a change).
MINNESOTA_OWN_LAG_MEAN = {v: 1.0 if MODEL_TRANSFORMATION[v] in ("rate", "yoy_log") else 0.0 for v in VARIABLES}


def _regressors(data: np.ndarray, lags: int, dummies: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Left-hand side (T-p, k), regressors [1, lag 1, …, lag p, dummies] and the rows kept in the residual pool."""
    t, _k = data.shape
    y = data[lags:]
    x = np.hstack([np.ones((t - lags, 1))] + [data[lags - i - 1 : t - i - 1] for i in range(lags)])
    keep = np.ones(t - lags, dtype=bool)
    if dummies is not None and dummies[lags:].any():
        rows = np.flatnonzero(dummies[lags:])
        d = np.zeros((t - lags, len(rows)))
        d[rows, np.arange(len(rows))] = 1.0
        x = np.hstack([x, d])
        keep[rows] = False
    return y, x, keep


def _split(beta: np.ndarray, lags: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    return beta[0], np.stack([beta[1 + i * k : 1 + (i + 1) * k].T for i in range(lags)])


def minnesota_var(
    data: np.ndarray,
    lags: int,
    dummies: np.ndarray | None = None,
    *,
    tightness: float,
    cross: float,
    own_lag_mean: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Posterior mean of a VAR(p) under the Minnesota prior (see :data:`VAR_ESTIMATORS`), same returns as
    :func:`ols_var`.

    Equation i's coefficients b_i solve (X'X + σ_i² Ω_i⁻¹) b_i = X'y_i + σ_i² Ω_i⁻¹ b0_i, the
    Gaussian posterior mean with the residual variance fixed at σ_i² (Litterman 1986); intercept
    and dummies have zero prior precision.
    """
    y, x, keep = _regressors(data, lags, dummies)
    k = data.shape[1]
    n_dummies = x.shape[1] - 1 - k * lags
    sigma = np.empty(k)
    for j in range(k):  # univariate AR(p) residual scale of each variable
        xj = np.hstack(
            [x[:, :1]] + [x[:, 1 + i * k + j : 2 + i * k + j] for i in range(lags)] + [x[:, x.shape[1] - n_dummies :]]
        )
        e = (y[:, j] - xj @ np.linalg.lstsq(xj, y[:, j], rcond=None)[0])[keep]
        sigma[j] = max(float(np.sqrt(e @ e / len(e))), 1e-12)
    beta = np.zeros((x.shape[1], k))
    xtx = x.T @ x
    for i in range(k):
        precision = np.zeros(x.shape[1])
        prior = np.zeros(x.shape[1])
        for lag in range(1, lags + 1):
            sd = tightness * cross * sigma[i] / (lag * sigma)
            sd[i] = tightness / lag
            precision[1 + (lag - 1) * k : 1 + lag * k] = 1.0 / sd**2
        prior[1 + i] = own_lag_mean[i]
        penalty = sigma[i] ** 2 * precision
        beta[:, i] = np.linalg.solve(xtx + np.diag(penalty), x.T @ y[:, i] + penalty * prior)
    intercept, coefs = _split(beta, lags, k)
    return intercept, coefs, (y - x @ beta)[keep], keep


def fit_var(
    levels: pd.DataFrame,
    *,
    lags: int | None = None,
    sample_start: str | None = None,
    min_obs: int | None = None,
    pandemic: str = "none",
    ragged_edge: str = "none",
    estimator: str | None = None,
) -> VARFit:
    """Estimate the VAR(p) by OLS from 2000Q1 to the latest quarter in which all six are usable.

    Parameters
    ----------
    levels : DataFrame
        Eligible quarterly levels (see :func:`model_variables`), index quarter labels.
    lags, sample_start, min_obs : optional
        Defaults from ``Settings.scenario`` (2, '2000Q1', 80).
    pandemic : a key of :data:`PANDEMIC_TREATMENTS` ('dummies' or 'none')
    ragged_edge : one of :data:`RAGGED_EDGE_TREATMENTS` ('condition' or 'none'); with 'condition'
        the model variables observed after the endpoint are kept on the fit (``conditions``)
    estimator : one of :data:`VAR_ESTIMATORS`; default ``Settings.scenario.var_estimator``

    Returns
    -------
    VARFit

    Raises
    ------
    StageStopped
        Fewer than ``min_obs`` complete quarters, or a gap inside the sample.
    """
    cfg = get_settings().scenario
    lags = lags or cfg.var_lags
    start = pd.Period(sample_start or cfg.sample_start, freq="Q")
    min_obs = cfg.var_min_obs if min_obs is None else min_obs
    x_all = model_variables(levels)
    x = x_all[x_all.index >= start]
    complete = x.dropna()
    if not complete.empty and len(x[x.index <= complete.index.max()]) < min_obs:
        # An early cutoff leaves fewer than min_obs quarters after the configured start: reach back, no further
        # than the earliest start setting, to the quarter that gives min_obs (the run records its sample).
        earliest = pd.Period(cfg.sample_start_earliest, freq="Q")
        back = max(earliest, complete.index.max() - (min_obs - 1))
        if back < start:
            x = x_all[x_all.index >= back]
            complete = x.dropna()
    if complete.empty:
        raise StageStopped(f"no quarter from {start} has all six model variables", stage="estimation")
    end = complete.index.max()  # the latest common eligible quarter
    sample = x[x.index <= end]
    first = complete.index.min()
    sample = sample[sample.index >= first]
    if sample.isna().any().any():
        gap = sample[sample.isna().any(axis=1)].index[0]
        raise StageStopped(f"the estimation sample {first}–{end} has a missing quarter ({gap})", stage="estimation")
    if len(sample) < min_obs:
        raise StageStopped(
            f"{len(sample)} complete quarterly observations ({first}–{end}); at least {min_obs} are required — "
            f"fix: a later cutoff, or an earlier scenario.sample_start_earliest (now {cfg.sample_start_earliest}; "
            "AIECO_SCENARIO__SAMPLE_START_EARLIEST) where all six series reach back",
            stage="estimation",
        )
    if pandemic not in PANDEMIC_TREATMENTS:
        raise InputError(
            f"pandemic treatment {pandemic!r} is not registered",
            where="model specification",
            fix=f"use one of {', '.join(PANDEMIC_TREATMENTS)}",
        )
    dummy_quarters = {pd.Period(q, freq="Q") for q in PANDEMIC_TREATMENTS[pandemic]}
    mask = np.array([q in dummy_quarters for q in sample.index])
    estimator = estimator or cfg.var_estimator
    if estimator not in VAR_ESTIMATORS:
        raise InputError(
            f"VAR estimator {estimator!r} is not registered",
            where="scenario.var_estimator",
            fix=f"use one of {', '.join(VAR_ESTIMATORS)}",
        )
    dummies = mask if mask.any() else None
    prior: dict[str, object] = {"estimator": estimator}
    if estimator == "minnesota":
        own = np.array([MINNESOTA_OWN_LAG_MEAN[v] for v in VARIABLES])
        intercept, coefs, resid, _keep = minnesota_var(
            sample.to_numpy(),
            lags,
            dummies,
            tightness=cfg.minnesota_tightness,
            cross=cfg.minnesota_cross,
            own_lag_mean=own,
        )
        prior.update(
            tightness=cfg.minnesota_tightness,
            cross=cfg.minnesota_cross,
            own_lag_mean=dict(MINNESOTA_OWN_LAG_MEAN),
        )
    else:
        intercept, coefs, resid, _keep = ols_var(sample.to_numpy(), lags, dummies)
    if ragged_edge not in RAGGED_EDGE_TREATMENTS:
        raise InputError(
            f"ragged-edge treatment {ragged_edge!r} is not registered",
            where="model specification",
            fix=f"use one of {', '.join(RAGGED_EDGE_TREATMENTS)}",
        )
    after = x[x.index > end]
    seen = after.notna().any(axis=1)
    conditions = None
    if ragged_edge == "condition" and seen.any():
        conditions = after.loc[: seen[seen].index.max()].to_numpy(dtype=float)
    lv = levels.copy()
    lv.index = quarter_index(lv.index)
    lv = lv[lv.index <= end].sort_index()
    return VARFit(
        variables=VARIABLES,
        quarters=tuple(str(q) for q in sample.index),
        data=sample.to_numpy(),
        intercept=intercept,
        coefs=coefs,
        resid=resid,
        levels=lv,
        eigenvalues=companion_eigenvalues(coefs),
        pandemic=pandemic,
        dummied=tuple(str(q) for q in sample.index[mask]),
        ragged_edge=ragged_edge,
        conditions=conditions,
        prior=prior,
    )


def conditioned_quarters(fit: VARFit) -> dict[str, str]:
    """Variable → the last quarter after the endpoint on which the simulation is conditioned."""
    if fit.conditions is None:
        return {}
    end = pd.Period(fit.endpoint, freq="Q")
    out = {}
    for j, v in enumerate(fit.variables):
        rows = np.flatnonzero(~np.isnan(fit.conditions[:, j]))
        if rows.size:
            out[v] = str(end + int(rows.max()) + 1)
    return out


def conditional_projection(resid: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """The matrix B (k_free × k_obs) with E[u_free | u_obs] = B u_obs under the residual covariance."""
    cov = resid.T @ resid / resid.shape[0]
    free = ~observed
    return cov[np.ix_(free, observed)] @ np.linalg.inv(cov[np.ix_(observed, observed)])


@dataclass(frozen=True, eq=False)
class Simulation:
    """Bootstrap trajectories with reconstructed quarterly levels.

    ``levels`` has shape (draws, len(quarters), 6) in ``VARIABLES`` order and covers the
    quarters from Q1 of the year before the horizon through the last horizon quarter;
    ``observed[t]`` is True where quarter t is an eligible observation (same in every draw).
    ``model`` holds the simulated model variables after the estimation endpoint, shape
    (draws, steps, 6).
    ``shift`` is the mean shock shift every draw received (steps, 6), zero for an
    unconditional simulation (:func:`aieco.models.conditional.anchor_shift`).
    Simulation ids are 1..draws (row i holds id i+1).
    """

    quarters: tuple[str, ...]
    levels: np.ndarray
    observed: np.ndarray
    endpoint: str
    seed: int | None
    model: np.ndarray | None = None
    shift: np.ndarray | None = None

    @property
    def draws(self) -> int:
        return self.levels.shape[0]

    def status(self) -> list[str]:
        return ["observed" if o else "simulated" for o in self.observed]

    def trajectory(self, simulation_id: int) -> pd.DataFrame:
        """Quarterly levels of one trajectory (rows quarters, columns variables, plus 'status')."""
        frame = pd.DataFrame(self.levels[simulation_id - 1], index=list(self.quarters), columns=list(VARIABLES))
        frame["status"] = self.status()
        return frame


def simulation_steps(fit: VARFit, horizon_end: int) -> int:
    """Quarters from the estimation endpoint (excluded) through Q4 of ``horizon_end``."""
    end = pd.Period(fit.endpoint, freq="Q")
    last = pd.Period(f"{horizon_end}Q4", freq="Q")
    steps = (last - end).n
    if steps <= 0:
        raise InputError(
            f"the estimation endpoint {end} is not before the horizon end {last}",
            fix="choose a later horizon or an earlier cutoff",
        )
    return steps


def propagate(fit: VARFit, shocks: np.ndarray, progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """Run the VAR recursion from the endpoint with the given shocks.

    Parameters
    ----------
    fit : VARFit
    shocks : array (steps, n, k)
        The residual of every quarter after the endpoint, for n paths at once.
    progress : callable(done, total), optional

    Returns
    -------
    array (n, steps, k)
        Model variables; quarters of the ragged edge (``fit.conditions``) take their observed
        values, the other variables' shocks move by their projection on the observed surprise.
    """
    steps, n, k = shocks.shape
    p = fit.lags
    x = np.empty((steps + p, n, k))
    x[:p] = fit.data[-p:][:, None, :]
    coef_t = [a.T for a in fit.coefs]
    cond = fit.conditions if fit.conditions is not None else np.empty((0, k))
    # Small (draws × 6)·(6 × 6) products: BLAS threads only add contention on a few cores.
    with threadpool_limits(limits=1, user_api="blas"):
        for h in range(steps):  # loop over quarters; draws are vectorised
            t = h + p
            val = fit.intercept + shocks[h]
            for lag in range(p):
                val = val + x[t - 1 - lag] @ coef_t[lag]
            if h < len(cond) and not np.isnan(cond[h]).all():
                seen = ~np.isnan(cond[h])
                surprise = cond[h, seen] - val[:, seen]  # observed minus this draw's value
                if not seen.all():
                    val[:, ~seen] += surprise @ conditional_projection(fit.resid, seen).T
                val[:, seen] = cond[h, seen]
            x[t] = val
            if progress:
                progress(h + 1, steps)
    return np.transpose(x[p:], (1, 0, 2))


def levels_window(
    fit: VARFit, model: np.ndarray, first_year: int, horizon_end: int
) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """Quarterly levels from Q1 of ``first_year - 1`` through Q4 of ``horizon_end``.

    Parameters
    ----------
    model : array (n, steps, k)
        Simulated model variables after the endpoint (:func:`propagate`).

    Returns
    -------
    quarters, levels (n, Q, k), observed (Q,) — observed quarters are the eligible levels.
    """
    end = pd.Period(fit.endpoint, freq="Q")
    last = pd.Period(f"{horizon_end}Q4", freq="Q")
    n, steps, k = model.shape
    # Reconstruct levels from the last observed levels (appendix "Numerical Definitions").
    lv = fit.levels
    out = np.empty((n, steps, k))
    for j, v in enumerate(fit.variables):
        if v == "inflation":
            base = lv[v].reindex(pd.period_range(end - 3, end, freq="Q")).to_numpy(float)
            out[:, :, j] = tf.index_from_yoy_log_change(base, model[:, :, j])
        elif v in LEVEL_VARIABLES:
            out[:, :, j] = tf.levels_from_log_changes(np.full(n, float(lv[v].loc[end])), model[:, :, j])
        elif MODEL_TRANSFORMATION[v] == "diff":  # a rate: its endpoint level plus the cumulated changes
            out[:, :, j] = float(lv[v].loc[end]) + np.cumsum(model[:, :, j], axis=1)
        else:
            out[:, :, j] = model[:, :, j]
    window_start = pd.Period(f"{first_year - 1}Q1", freq="Q")
    window = pd.period_range(window_start, last, freq="Q")
    levels = np.empty((n, len(window), k))
    observed = np.zeros(len(window), dtype=bool)
    for i, q in enumerate(window):
        if q <= end:
            row = lv.reindex([q])[list(fit.variables)].to_numpy(float)[0]
            if np.isnan(row).any():
                raise StageStopped(
                    f"level of quarter {q} needed for the annual {first_year - 1} denominator is missing",
                    stage="simulation",
                )
            levels[:, i, :] = row
            observed[i] = True
        else:
            levels[:, i, :] = out[:, (q - end).n - 1, :]
    return tuple(str(q) for q in window), levels, observed


def simulate(
    fit: VARFit,
    *,
    draws: int | None = None,
    seed: int | None = None,
    horizon_end: int | None = None,
    first_year: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    shift: np.ndarray | None = None,
) -> Simulation:
    """Draw trajectories by resampling whole residual vectors (Eq. varscenario).

    Each quarter after the estimation endpoint through Q4 of ``horizon_end`` is simulated
    for all draws at once: ``x_h = c + A_1 x_{h-1} + A_2 x_{h-2} + u_h`` with ``u_h`` a
    residual row drawn with replacement, so contemporaneous dependence is preserved.
    Quarters after the endpoint in which some model variables are observed (``fit.conditions``,
    the ragged edge) are conditioned on them: the observed variables take their observed
    values, the others' residuals move by their projection on the observed surprise
    (:func:`conditional_projection`).

    Parameters
    ----------
    fit : VARFit
        Must be stable (companion eigenvalues inside the unit circle).
    draws : int, optional
        Number of trajectories N (default 20,000).
    seed : int, optional
        Seed of ``numpy.random.default_rng``.
    horizon_end, first_year : int, optional
        Last horizon year (2027) and first horizon year (2025); levels are kept from Q1 of
        ``first_year - 1`` so that annual denominators exist.
    progress : callable(done, total), optional
        Called after each simulated quarter.
    shift : array (steps, k), optional
        A shock shift added to every draw's resampled residual (a conditional forecast's
        centre, :mod:`aieco.models.conditional`); None or zeros: the unconditional simulation.

    Returns
    -------
    Simulation
    """
    cfg = get_settings().scenario
    draws = draws or cfg.var_draws
    horizon_end = horizon_end or cfg.horizon_end
    first_year = first_year or cfg.horizon_start
    if not fit.stable:
        raise StageStopped(
            f"the estimated VAR is not stable (largest companion eigenvalue modulus "
            f"{fit.max_modulus:.4f} ≥ 1); no trajectories drawn",
            stage="simulation",
        )
    steps = simulation_steps(fit, horizon_end)
    k = len(fit.variables)
    shift = np.zeros((steps, k)) if shift is None else np.asarray(shift, float)
    if shift.shape != (steps, k):
        raise InputError(f"shock shift has shape {shift.shape}, expected {(steps, k)}", where="simulate(shift=…)")
    rng = np.random.default_rng(seed)
    # Whole residual vectors drawn with replacement: one index per (quarter, draw).
    picks = rng.integers(0, fit.resid.shape[0], size=(steps, draws))

    def tick(done: int, total: int) -> None:
        if progress:
            progress(done, total)
        report("VAR simulation", done, total, f"{draws} draws")

    model = propagate(fit, fit.resid[picks] + shift[:, None, :], tick)
    quarters, levels, observed = levels_window(fit, model, first_year, horizon_end)
    return Simulation(
        quarters=quarters,
        levels=levels,
        observed=observed,
        endpoint=fit.endpoint,
        seed=seed,
        model=model,
        shift=shift,
    )


def annual_levels(levels: np.ndarray, quarters: tuple[str, ...], years: range) -> dict[str, np.ndarray]:
    """Annual variables for ``years`` from quarterly levels covering Q1 of ``years[0]-1`` onwards.

    Parameters
    ----------
    levels : array, shape (draws, Q, 6)
    quarters : labels of the Q columns
    years : the annual horizon, e.g. range(2025, 2028)

    Returns
    -------
    dict variable → array (draws, len(years)) in the units of ``ANNUAL_TRANSFORMATION``.
    """
    first = quarters.index(f"{years[0] - 1}Q1")
    last = quarters.index(f"{years[-1]}Q4")
    block = levels[:, first : last + 1, :]
    out = {}
    for j, v in enumerate(VARIABLES):
        series = block[:, :, j]
        if v in LEVEL_VARIABLES:
            out[v] = tf.annual_growth(series)  # ratio of annual sums = ratio of annual averages
        else:
            out[v] = tf.period_average(series, 4)[:, 1:]
    return out


def annual_paths(sim: Simulation, years: range | None = None) -> np.ndarray:
    """Annual paths, shape (draws, len(years), 6) in ``VARIABLES`` order."""
    cfg = get_settings().scenario
    years = years or range(cfg.horizon_start, cfg.horizon_end + 1)
    annual = annual_levels(sim.levels, sim.quarters, years)
    return np.stack([annual[v] for v in VARIABLES], axis=-1)


def range_failures(annual: np.ndarray) -> tuple[np.ndarray, dict[str, int]]:
    """Range checks of annual paths.

    Parameters
    ----------
    annual : array, shape (draws, years, 6)

    Returns
    -------
    passed : bool array (draws,)
        True where every variable and year lies inside its configured interval.
    failures : dict variable → number of trajectories failing that variable's check
    """
    ok = np.ones(annual.shape[0], dtype=bool)
    failures = {}
    for j, v in enumerate(VARIABLES):
        lo, hi = RANGE_BOUNDS[v]
        bad = ((annual[:, :, j] < lo) | (annual[:, :, j] > hi)).any(axis=1)
        failures[v] = int(bad.sum())
        ok &= ~bad
    return ok, failures


def last_observed_annual(levels: pd.DataFrame) -> tuple[int, dict[str, float]]:
    """The last complete observed year of each variable and its annual value under the projected
    definitions; the year returned is the latest in which all six are complete.

    The reference for inflation, unemployment and the long rate (appendix "Scenario
    Construction and Evaluation") is the variable's last eligible annual observation: with
    real data the series end in different quarters, so each variable's own last complete
    year counts (a level variable also needs the preceding year).
    """
    years = last_observed_years(levels)
    missing = [v for v in VARIABLES if v not in years]
    if missing:
        raise StageStopped(
            f"no complete observed year (with its preceding year) of {', '.join(missing)} for the reference values",
            stage="selection",
        )
    lv = levels.copy()
    lv.index = quarter_index(lv.index)
    values = {}
    for v, y in years.items():
        quarters = pd.period_range(f"{y - 1}Q1", f"{y}Q4", freq="Q")
        # only column v is read; the others are filled (1.0 where a column has no value in the window)
        block = lv[list(VARIABLES)].reindex(quarters).ffill().bfill().fillna(1.0).to_numpy(float)[None, :, :]
        # only column v is read; the others are filled so the shared aggregation can run
        annual = annual_levels(block, tuple(str(q) for q in quarters), range(y, y + 1))
        values[v] = float(annual[v][0, 0])
    return min(years.values()), values


def last_observed_years(levels: pd.DataFrame) -> dict[str, int]:
    """Variable → its last year with four observed quarters (and four in the preceding year)."""
    idx = quarter_index(levels.index)
    frame = pd.DataFrame(levels.to_numpy(), index=idx, columns=levels.columns)
    frame = frame[~frame.index.duplicated(keep="last")]
    years = frame.index.year
    out = {}
    for v in VARIABLES:
        counts = frame[v].notna().groupby(years).sum()
        full = set(counts.index[counts.to_numpy() == 4])
        done = [y for y in full if y - 1 in full]
        if done:
            out[v] = int(max(done))
    return out
