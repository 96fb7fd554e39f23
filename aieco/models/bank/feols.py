"""FE-OLS: the dynamic linear component model with bank fixed effects (within transformation).

The conditional mean of a component rate uses the regressors of Eq. (bankfeqar): the lagged
component, the lagged CET1 ratio and log RWA, and the current country macro vector.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from aieco.errors import InputError


@dataclass(frozen=True)
class FEOLSResults:
    """Fitted FE-OLS component model."""

    component: str
    regressors: list[str]
    params: pd.Series  # slope coefficients, index = regressors
    fixed_effects: pd.Series  # alpha_i, index = bank_id
    resid: np.ndarray  # within residuals, shape (nobs,)
    nobs: int
    sigma: float  # residual standard deviation with n - N - k degrees of freedom

    def projection_residuals(self) -> np.ndarray:
        """Within residuals rescaled to the degrees-of-freedom corrected σ (the within
        transformation shrinks their spread); the pool resampled by the FE-OLS projection."""
        rms = float(np.sqrt(np.mean(self.resid**2)))
        return self.resid * (self.sigma / rms) if rms > 0 else self.resid

    def predict(self, bank_ids: np.ndarray, X: np.ndarray) -> np.ndarray:
        """Conditional mean for rows of ``X`` (shape (m, k)) of banks ``bank_ids`` (shape (m,))."""
        return self.fixed_effects.reindex(bank_ids).to_numpy() + X @ self.params.to_numpy()


def within_transform(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Subtract each group's mean from every column of ``values`` (shape (m, k))."""
    _, inv = np.unique(groups, return_inverse=True)
    counts = np.bincount(inv)
    means = np.zeros((counts.size, values.shape[1]))
    np.add.at(means, inv, values)
    means /= counts[:, None]
    return values - means[inv]


def fit_feols(data: pd.DataFrame, component: str, regressors: list[str]) -> FEOLSResults:
    """Estimate the within (fixed-effects) regression of ``component`` on ``regressors``.

    Parameters
    ----------
    data : DataFrame
        Complete panel observations with ``bank_id``, ``component`` and ``regressors`` columns.
    component : str
        Component rate column (percent of beginning-of-half-year RWA, or 100·log RWA growth).
    regressors : list of str
        Regressor columns.

    Returns
    -------
    FEOLSResults
        Slopes from OLS on bank-demeaned data; ``alpha_i = ȳ_i − x̄_i'β``.
    """
    if data.empty:
        raise InputError(f"no observations to fit FE-OLS for component {component}", where="bank panel")
    y = data[component].to_numpy(dtype=float)
    X = data[regressors].to_numpy(dtype=float)
    banks = data["bank_id"].to_numpy()
    yw = within_transform(y[:, None], banks)[:, 0]
    Xw = within_transform(X, banks)
    if np.linalg.matrix_rank(Xw) < X.shape[1]:
        raise InputError(
            f"FE-OLS regressors for {component} are collinear after the within transformation",
            where="bank panel",
            fix="drop a regressor without within-bank variation",
        )
    beta, *_ = np.linalg.lstsq(Xw, yw, rcond=None)
    resid = yw - Xw @ beta
    frame = pd.DataFrame({"bank_id": banks, "r": y - X @ beta})
    alpha = frame.groupby("bank_id")["r"].mean()
    n_banks = alpha.size
    dof = max(len(y) - n_banks - X.shape[1], 1)
    sigma = float(np.sqrt(resid @ resid / dof))
    return FEOLSResults(
        component=component,
        regressors=list(regressors),
        params=pd.Series(beta, index=regressors),
        fixed_effects=alpha,
        resid=resid,
        nobs=len(y),
        sigma=sigma,
    )
