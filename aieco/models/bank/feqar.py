"""FE-QAR: penalised fixed-effects quantile autoregression (Koenker 2004), Eq. (bankfeqar).

All quantile levels τ_1 … τ_K are estimated jointly with bank fixed effects α_i shared
across quantiles and an L1 penalty λ Σ|α_i|:

    min  Σ_k w_k Σ_{i,t} ρ_{τ_k}(y_it − α_i − μ_k − x_it'β_k) + λ Σ_i |α_i|

as ONE sparse linear program (variables β_k free, α_i = α⁺ − α⁻, residuals u = u⁺ − u⁻ ≥ 0),
solved by HiGHS with the interior-point method. Quantile weights are equal (w_k = 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import highspy
import numpy as np
import pandas as pd
import scipy.sparse as sp

from aieco.errors import InputError, StageStopped


@dataclass(frozen=True)
class FEQARResults:
    """Fitted FE-QAR component model."""

    component: str
    regressors: list[str]
    quantiles: np.ndarray        # shape (K,)
    params: pd.DataFrame         # rows = quantile levels, columns = 'intercept' + regressors
    fixed_effects: pd.Series     # alpha_i, index = bank_id
    penalty: float
    objective: float
    nobs: int
    crossing_share: float        # share of in-sample rows whose fitted quantiles are not monotone
    crossing_max: float          # largest decrease between adjacent fitted quantiles

    def predict_quantiles(self, bank_ids: np.ndarray, X: np.ndarray) -> np.ndarray:
        """Fitted quantiles, shape (m, K), for rows ``X`` (m, k) of banks ``bank_ids`` (m,)."""
        coef = self.params.to_numpy()
        return (self.fixed_effects.reindex(bank_ids).to_numpy()[:, None]
                + coef[:, 0][None, :] + X @ coef[:, 1:].T)


def quantile_crossing(fitted: np.ndarray) -> tuple[float, float]:
    """Share of rows of ``fitted`` (m, K; increasing τ) with a decrease, and the largest decrease."""
    if fitted.size == 0:
        return 0.0, 0.0
    steps = np.diff(fitted, axis=1)
    decrease = np.maximum(-steps, 0.0)
    return float((decrease > 1e-9).any(axis=1).mean()), float(decrease.max(initial=0.0))


def build_feqar_lp(
    y: np.ndarray, X: np.ndarray, bank_codes: np.ndarray, n_banks: int, quantiles: np.ndarray, penalty: float
) -> tuple[np.ndarray, sp.csc_matrix, np.ndarray, np.ndarray]:
    """The sparse LP of the joint objective: costs, equality matrix A (rows = K·n), bounds.

    Column order: [β_1 … β_K (each 1 + k, free)] [α⁺ (N)] [α⁻ (N)] [u⁺ (K·n)] [u⁻ (K·n)].
    Row (k, m): (1, x_m)'β_k + α⁺_i − α⁻_i + u⁺_km − u⁻_km = y_m.
    """
    n, k = X.shape
    K = quantiles.size
    p = k + 1
    X1 = np.hstack([np.ones((n, 1)), X])
    n_beta = K * p
    a_pos = n_beta
    a_neg = a_pos + n_banks
    u_pos = a_neg + n_banks
    u_neg = u_pos + K * n
    n_cols = u_neg + K * n
    rows_q = np.repeat(np.arange(K), n)            # quantile of each row
    rows = np.arange(K * n)
    obs = np.tile(np.arange(n), K)
    # β blocks: row (k, m) holds X1[m, :] in columns k·p … k·p + p − 1
    r_beta = np.repeat(rows, p)
    c_beta = (rows_q[:, None] * p + np.arange(p)[None, :]).ravel()
    v_beta = X1[obs].ravel()
    r_all = np.concatenate([r_beta, rows, rows, rows, rows])
    c_all = np.concatenate([c_beta, a_pos + bank_codes[obs], a_neg + bank_codes[obs],
                            u_pos + rows, u_neg + rows])
    v_all = np.concatenate([v_beta, np.ones(K * n), -np.ones(K * n), np.ones(K * n), -np.ones(K * n)])
    A = sp.csc_matrix((v_all, (r_all, c_all)), shape=(K * n, n_cols))
    cost = np.zeros(n_cols)
    cost[a_pos:u_pos] = penalty
    cost[u_pos:u_neg] = np.repeat(quantiles, n)
    cost[u_neg:] = np.repeat(1.0 - quantiles, n)
    lower = np.zeros(n_cols)
    lower[:n_beta] = -np.inf
    upper = np.full(n_cols, np.inf)
    return cost, A, lower, upper


def solve_lp(cost: np.ndarray, A: sp.csc_matrix, rhs: np.ndarray, lower: np.ndarray,
             upper: np.ndarray, *, threads: int | None = None) -> tuple[np.ndarray, float]:
    """Solve min c'x s.t. A x = rhs, lower ≤ x ≤ upper with HiGHS IPM (then crossover)."""
    inf = highspy.kHighsInf
    lp = highspy.HighsLp()
    lp.num_col_ = A.shape[1]
    lp.num_row_ = A.shape[0]
    lp.col_cost_ = cost
    lp.col_lower_ = np.where(np.isfinite(lower), lower, -inf)
    lp.col_upper_ = np.where(np.isfinite(upper), upper, inf)
    lp.row_lower_ = rhs
    lp.row_upper_ = rhs
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = A.indptr
    lp.a_matrix_.index_ = A.indices
    lp.a_matrix_.value_ = A.data
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("solver", "ipm")
    h.setOptionValue("run_crossover", "on")
    if threads:
        h.setOptionValue("threads", int(threads))
    h.passModel(lp)
    h.run()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        raise StageStopped(f"FE-QAR linear program not solved to optimality: {h.modelStatusToString(status)}",
                           stage="bank_fit")
    x = np.asarray(h.getSolution().col_value)
    return x, float(h.getInfo().objective_function_value)


def fit_feqar(
    data: pd.DataFrame,
    component: str,
    regressors: list[str],
    *,
    quantiles: Sequence[float] = tuple(round(0.05 * i, 2) for i in range(1, 20)),
    penalty: float = 1.0,
) -> FEQARResults:
    """Estimate Eq. (bankfeqar) for one component at all quantile levels jointly.

    Parameters
    ----------
    data : DataFrame
        Complete panel observations with ``bank_id``, ``component`` and ``regressors``.
    component : str
        Component rate column.
    regressors : list of str
        Regressor columns (lagged component, lagged CET1 ratio, log RWA, macro vector).
    quantiles : sequence of float
        Increasing levels in (0, 1); default 0.05 … 0.95 (19 levels).
    penalty : float
        λ of the L1 penalty on the fixed effects (settings.bank.qar_penalty).

    Returns
    -------
    FEQARResults
        Per-quantile intercepts μ_τ and slopes, shared α_i, and the in-sample crossing check.
    """
    tau = np.asarray(quantiles, dtype=float)
    if tau.size == 0 or np.any((tau <= 0) | (tau >= 1)) or np.any(np.diff(tau) <= 0):
        raise InputError(f"quantile levels {list(tau)} must be increasing and inside (0, 1)",
                         where="settings.bank.quantiles")
    if penalty < 0:
        raise InputError(f"FE-QAR penalty {penalty} is negative", where="settings.bank.qar_penalty")
    if data.empty:
        raise InputError(f"no observations to fit FE-QAR for component {component}", where="bank panel")
    y = data[component].to_numpy(dtype=float)
    X = data[regressors].to_numpy(dtype=float)
    banks, codes = np.unique(data["bank_id"].to_numpy(), return_inverse=True)
    cost, A, lower, upper = build_feqar_lp(y, X, codes, banks.size, tau, penalty)
    sol, objective = solve_lp(cost, A, np.tile(y, tau.size), lower, upper)
    p = X.shape[1] + 1
    coef = sol[: tau.size * p].reshape(tau.size, p)
    alpha = sol[tau.size * p: tau.size * p + banks.size] - sol[tau.size * p + banks.size: tau.size * p + 2 * banks.size]
    params = pd.DataFrame(coef, index=pd.Index(np.round(tau, 6), name="quantile"),
                          columns=["intercept", *regressors])
    fe = pd.Series(alpha, index=pd.Index(banks, name="bank_id"))
    fitted = fe.reindex(data["bank_id"].to_numpy()).to_numpy()[:, None] + coef[:, 0][None, :] + X @ coef[:, 1:].T
    share, worst = quantile_crossing(fitted)
    return FEQARResults(component=component, regressors=list(regressors), quantiles=tau, params=params,
                        fixed_effects=fe, penalty=float(penalty), objective=objective, nobs=len(y),
                        crossing_share=share, crossing_max=worst)
