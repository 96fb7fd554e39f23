"""FE-QAR: penalised fixed-effects quantile autoregression (Koenker 2004), Eq. (bankfeqar).

All quantile levels τ_1 … τ_K are estimated jointly with bank fixed effects α_i shared
across quantiles and an L1 penalty λ Σ|α_i|:

    min  Σ_k w_k Σ_{i,t} ρ_{τ_k}(y_it − α_i − μ_k − x_it'β_k) + λ Σ_i |α_i|

as ONE linear program (variables β_k free, α_i = α⁺ − α⁻, residuals u = u⁺ − u⁻ ≥ 0).
Quantile weights are equal (w_k = 1).

The fit solves the LP's dual, which has the block structure of the problem: one bounded
variable d_km ∈ [τ_k − 1, τ_k] per quantile and observation, and only K·(1 + k) + N rows

    max  Σ_{k,m} y_m d_km   s.t.  X1' d_k = 0 (each k),   −λ ≤ Σ_k Σ_{m ∈ bank i} d_km ≤ λ (each i),

with a primal–dual interior-point method (Mehrotra predictor–corrector for bounded
variables, as Koenker's Frisch–Newton ``rq.fit.fnb``); each step solves one dense system of
that small size. β_k and α_i are the dual values of those rows. The answer is accepted only
when the primal objective of (β, α), computed directly, equals the dual objective within
``GAP_TOL`` (a certificate of optimality); otherwise the primal LP is solved by HiGHS as
before. Where the optimum is not unique, the interior-point method returns a point inside
the optimal face rather than a vertex: the objective is the same, the parameters may differ
from a simplex/crossover vertex along that face.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import highspy
import numpy as np
import pandas as pd
import scipy.linalg as sla
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from aieco.errors import InputError, StageStopped


@dataclass(frozen=True)
class FEQARResults:
    """Fitted FE-QAR component model."""

    component: str
    regressors: list[str]
    quantiles: np.ndarray  # shape (K,)
    params: pd.DataFrame  # rows = quantile levels, columns = 'intercept' + regressors
    fixed_effects: pd.Series  # alpha_i, index = bank_id
    penalty: float
    objective: float
    nobs: int
    crossing_share: float  # share of in-sample rows whose fitted quantiles are not monotone
    crossing_max: float  # largest decrease between adjacent fitted quantiles

    def predict_quantiles(self, bank_ids: np.ndarray, X: np.ndarray) -> np.ndarray:
        """Fitted quantiles, shape (m, K), for rows ``X`` (m, k) of banks ``bank_ids`` (m,)."""
        coef = self.params.to_numpy()
        return self.fixed_effects.reindex(bank_ids).to_numpy()[:, None] + coef[:, 0][None, :] + X @ coef[:, 1:].T


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
    rows_q = np.repeat(np.arange(K), n)  # quantile of each row
    rows = np.arange(K * n)
    obs = np.tile(np.arange(n), K)
    # β blocks: row (k, m) holds X1[m, :] in columns k·p … k·p + p − 1
    r_beta = np.repeat(rows, p)
    c_beta = (rows_q[:, None] * p + np.arange(p)[None, :]).ravel()
    v_beta = X1[obs].ravel()
    r_all = np.concatenate([r_beta, rows, rows, rows, rows])
    c_all = np.concatenate([c_beta, a_pos + bank_codes[obs], a_neg + bank_codes[obs], u_pos + rows, u_neg + rows])
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


def solve_lp(
    cost: np.ndarray,
    A: sp.csc_matrix,
    rhs: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    *,
    threads: int | None = None,
) -> tuple[np.ndarray, float]:
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
        raise StageStopped(
            f"FE-QAR linear program not solved to optimality: {h.modelStatusToString(status)}", stage="bank_fit"
        )
    x = np.asarray(h.getSolution().col_value)
    return x, float(h.getInfo().objective_function_value)


#: Largest relative gap between the primal objective of the returned (β, α) and the dual objective.
GAP_TOL = 1e-9
IPM_MAX_ITER = 200


def feqar_objective(
    y: np.ndarray,
    X: np.ndarray,
    bank_codes: np.ndarray,
    quantiles: np.ndarray,
    penalty: float,
    coef: np.ndarray,
    alpha: np.ndarray,
) -> float:
    """The joint objective Σ_k Σ_m ρ_τk(y_m − α_i − (1, x_m)'β_k) + λ Σ_i |α_i| at (coef (K, 1 + k), alpha)."""
    resid = y[:, None] - alpha[bank_codes][:, None] - coef[:, 0][None, :] - X @ coef[:, 1:].T
    rho = np.where(resid >= 0, quantiles[None, :] * resid, (quantiles[None, :] - 1.0) * resid)
    return float(rho.sum() + penalty * np.abs(alpha).sum())


def solve_feqar_dual(
    y: np.ndarray, X: np.ndarray, bank_codes: np.ndarray, n_banks: int, quantiles: np.ndarray, penalty: float
) -> tuple[np.ndarray, np.ndarray, float] | None:
    """(coef (K, 1 + k), alpha (N,), objective) from the dual by interior point; None without a certificate."""
    n, k = X.shape
    K, p = quantiles.size, k + 1
    X1 = np.hstack([np.ones((n, 1)), X])
    obs = np.tile(np.arange(n), K)
    q_of = np.repeat(np.arange(K), n)
    cols = np.arange(K * n)
    # rows: [X1' d_k = 0 for each k (K·p)] [Σ d over bank i − s_i = 0 (N)]; columns: [d (K·n)] [s (N)]
    slack = penalty > 0  # λ = 0: the bank rows are equalities Σ d = 0 and need no slack
    n_slack = n_banks if slack else 0
    rows = [(q_of[:, None] * p + np.arange(p)[None, :]).ravel(), K * p + bank_codes[obs]]
    cidx = [np.repeat(cols, p), cols]
    vals = [X1[obs].ravel(), np.ones(K * n)]
    if slack:
        rows.append(K * p + np.arange(n_banks))
        cidx.append(K * n + np.arange(n_banks))
        vals.append(-np.ones(n_banks))
    A = sp.csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cidx))), shape=(K * p + n_banks, K * n + n_slack)
    )
    lower = np.concatenate([np.repeat(quantiles - 1.0, n), np.full(n_slack, -penalty)])
    upper = np.concatenate([np.repeat(quantiles, n), np.full(n_slack, penalty)])
    cost = np.concatenate([-np.tile(y, K), np.zeros(n_slack)])
    with threadpool_limits(1):  # small dense systems: threads only contend
        solved = _bounded_ipm(A, -(A @ lower), cost, upper - lower)
    if solved is None:
        return None
    x, dual = solved
    dual_objective = -float(cost @ (x + lower))
    coef, alpha = -dual[: K * p].reshape(K, p), -dual[K * p :]
    objective = feqar_objective(y, X, bank_codes, quantiles, penalty, coef, alpha)
    if not np.isfinite(objective) or abs(objective - dual_objective) > GAP_TOL * max(1.0, abs(objective)):
        return None
    return coef, alpha, objective


def _bounded_ipm(
    A: sp.csr_matrix, b: np.ndarray, c: np.ndarray, u: np.ndarray, tol: float = 1e-11
) -> tuple[np.ndarray, np.ndarray] | None:
    """min c'x s.t. A x = b, 0 ≤ x ≤ u (u > 0) by Mehrotra's predictor–corrector; (x, y) with A'y + s − v = c.

    None when it does not converge within IPM_MAX_ITER steps.
    """
    n = A.shape[1]
    At = A.T.tocsr()
    x = u / 2
    w = u - x
    y = np.zeros(A.shape[0])
    s = np.maximum(c, 0.0) + 1.0
    v = s - c
    norm_b, norm_c = 1.0 + np.linalg.norm(b), 1.0 + np.linalg.norm(c)
    for _ in range(IPM_MAX_ITER):
        rp = b - A @ x
        rd = c - At @ y - s + v
        gap = x @ s + w @ v
        if (
            np.linalg.norm(rp) <= tol * norm_b
            and np.linalg.norm(rd) <= tol * norm_c
            and gap <= tol * (1.0 + abs(c @ x))
        ):
            return x, y
        theta = 1.0 / (s / x + v / w)
        M = (A @ sp.diags(theta) @ At).toarray()
        try:
            factor = sla.cho_factor(M, lower=True, check_finite=False)
        except np.linalg.LinAlgError:  # near the optimum Θ spans many magnitudes
            M[np.diag_indices_from(M)] += 1e-12 * np.abs(np.diag(M)).max()
            try:
                factor = sla.cho_factor(M, lower=True, check_finite=False)
            except np.linalg.LinAlgError:
                return None

        # predictor (affine scaling), then the centred corrector with the second-order term
        state = (A, At, factor, theta, rp, rd, x, w, s, v)
        dx, dy, ds, dv = _newton(*state, -x * s, -w * v)
        ap, ad = _max_step(x, dx, w, -dx), _max_step(s, ds, v, dv)
        mu = gap / (2 * n)
        mu_aff = ((x + ap * dx) @ (s + ad * ds) + (w - ap * dx) @ (v + ad * dv)) / (2 * n)
        sigma = (mu_aff / mu) ** 3
        dx, dy, ds, dv = _newton(*state, sigma * mu - x * s - dx * ds, sigma * mu - w * v + dx * dv)
        ap = min(1.0, 0.99995 * _max_step(x, dx, w, -dx, cap=np.inf))
        ad = min(1.0, 0.99995 * _max_step(s, ds, v, dv, cap=np.inf))
        x, w, y, s, v = x + ap * dx, w - ap * dx, y + ad * dy, s + ad * ds, v + ad * dv
    return None


def _newton(
    A: sp.csr_matrix,
    At: sp.csr_matrix,
    factor: Any,
    theta: np.ndarray,
    rp: np.ndarray,
    rd: np.ndarray,
    x: np.ndarray,
    w: np.ndarray,
    s: np.ndarray,
    v: np.ndarray,
    r_xs: np.ndarray,
    r_wv: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One Newton direction (dx, dy, ds, dv; dw = −dx) for complementarity targets r_xs, r_wv."""
    rt = rd - r_xs / x + r_wv / w
    dy = sla.cho_solve(factor, rp + A @ (theta * rt), check_finite=False)
    dx = theta * (At @ dy - rt)
    return dx, dy, (r_xs - s * dx) / x, (r_wv + v * dx) / w


def _max_step(a: np.ndarray, da: np.ndarray, b: np.ndarray, db: np.ndarray, cap: float = 1.0) -> float:
    """Largest t ≤ cap keeping a + t·da ≥ 0 and b + t·db ≥ 0."""
    t = cap
    for z, dz in ((a, da), (b, db)):
        neg = dz < 0
        if neg.any():
            t = min(t, float(np.min(-z[neg] / dz[neg])))
    return t


def fit_feqar_lp(
    y: np.ndarray, X: np.ndarray, bank_codes: np.ndarray, n_banks: int, quantiles: np.ndarray, penalty: float
) -> tuple[np.ndarray, np.ndarray, float]:
    """(coef, alpha, objective) from the primal LP solved by HiGHS (interior point, then crossover)."""
    cost, A, lower, upper = build_feqar_lp(y, X, bank_codes, n_banks, quantiles, penalty)
    sol, objective = solve_lp(cost, A, np.tile(y, quantiles.size), lower, upper)
    K, p = quantiles.size, X.shape[1] + 1
    coef = sol[: K * p].reshape(K, p)
    alpha = sol[K * p : K * p + n_banks] - sol[K * p + n_banks : K * p + 2 * n_banks]
    return coef, alpha, objective


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
        raise InputError(
            f"quantile levels {list(tau)} must be increasing and inside (0, 1)", where="settings.bank.quantiles"
        )
    if penalty < 0:
        raise InputError(f"FE-QAR penalty {penalty} is negative", where="settings.bank.qar_penalty")
    if data.empty:
        raise InputError(f"no observations to fit FE-QAR for component {component}", where="bank panel")
    y = data[component].to_numpy(dtype=float)
    X = data[regressors].to_numpy(dtype=float)
    banks, codes = np.unique(data["bank_id"].to_numpy(), return_inverse=True)
    solved = solve_feqar_dual(y, X, codes, banks.size, tau, penalty)
    if solved is not None:
        coef, alpha, objective = solved
    else:  # no certificate from the dual interior point: the primal LP by HiGHS
        coef, alpha, objective = fit_feqar_lp(y, X, codes, banks.size, tau, penalty)
    params = pd.DataFrame(coef, index=pd.Index(np.round(tau, 6), name="quantile"), columns=["intercept", *regressors])
    fe = pd.Series(alpha, index=pd.Index(banks, name="bank_id"))
    fitted = fe.reindex(data["bank_id"].to_numpy()).to_numpy()[:, None] + coef[:, 0][None, :] + X @ coef[:, 1:].T
    share, worst = quantile_crossing(fitted)
    return FEQARResults(
        component=component,
        regressors=list(regressors),
        quantiles=tau,
        params=params,
        fixed_effects=fe,
        penalty=float(penalty),
        objective=objective,
        nobs=len(y),
        crossing_share=share,
        crossing_max=worst,
    )
