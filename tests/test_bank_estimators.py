"""FE-OLS and FE-QAR: oracle comparisons and recovery of a known data-generating process."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from sklearn.linear_model import QuantileRegressor

from aieco.errors import InputError
from aieco.models.bank.feols import fit_feols, within_transform
from aieco.models.bank.feqar import build_feqar_lp, fit_feqar, quantile_crossing


def _panel(rng, banks=12, periods=10, k=3, noise="normal", fe_scale=1.0):
    bank_ids = np.repeat([f"b{i:02d}" for i in range(banks)], periods)
    alpha = fe_scale * rng.normal(size=banks)
    X = rng.normal(size=(banks * periods, k))
    beta = np.array([0.5, -1.0, 0.25][:k])
    e = rng.normal(size=banks * periods) if noise == "normal" else rng.standard_t(5, size=banks * periods)
    y = np.repeat(alpha, periods) + X @ beta + e
    d = pd.DataFrame(X, columns=[f"x{j}" for j in range(k)])
    d["y"], d["bank_id"] = y, bank_ids
    return d, beta, pd.Series(alpha, index=[f"b{i:02d}" for i in range(banks)])


def test_within_transform_hand_example():
    v = np.array([[1.0], [3.0], [10.0], [14.0]])
    out = within_transform(v, np.array(["a", "a", "b", "b"]))
    assert out[:, 0].tolist() == [-1.0, 1.0, -2.0, 2.0]


def test_feols_equals_statsmodels_with_bank_dummies():
    rng = np.random.default_rng(1)
    d, _, _ = _panel(rng)
    res = fit_feols(d, "y", ["x0", "x1", "x2"])
    dummies = pd.get_dummies(d["bank_id"], dtype=float)
    ols = sm.OLS(d["y"], pd.concat([d[["x0", "x1", "x2"]], dummies], axis=1)).fit()
    np.testing.assert_allclose(res.params.to_numpy(), ols.params[["x0", "x1", "x2"]].to_numpy(), atol=1e-10)
    np.testing.assert_allclose(res.fixed_effects.to_numpy(), ols.params[dummies.columns].to_numpy(), atol=1e-10)
    assert res.sigma == pytest.approx(np.sqrt(ols.scale), rel=1e-10)


def test_feols_refuses_collinear_and_empty():
    rng = np.random.default_rng(2)
    d, _, _ = _panel(rng)
    d["const_in_bank"] = d["bank_id"].str[1:].astype(int)  # no within-bank variation
    with pytest.raises(InputError, match="collinear"):
        fit_feols(d, "y", ["x0", "const_in_bank"])
    with pytest.raises(InputError):
        fit_feols(d.iloc[:0], "y", ["x0"])


def test_lp_is_sparse_with_expected_shape():
    rng = np.random.default_rng(3)
    n, k, N, K = 50, 3, 5, 19
    cost, A, lower, upper = build_feqar_lp(
        rng.normal(size=n), rng.normal(size=(n, k)), rng.integers(0, N, size=n), N, np.linspace(0.05, 0.95, K), 1.0
    )
    assert A.shape == (K * n, K * (k + 1) + 2 * N + 2 * K * n)
    assert A.nnz == K * n * (k + 1 + 4)  # β row entries, α⁺, α⁻, u⁺, u⁻
    assert np.isinf(lower[: K * (k + 1)]).all() and (lower[K * (k + 1) :] == 0).all()


def test_feqar_large_penalty_equals_sklearn_quantile_regression():
    rng = np.random.default_rng(4)
    d, _, _ = _panel(rng, noise="t")
    taus = [0.1, 0.25, 0.5, 0.75, 0.9]
    res = fit_feqar(d, "y", ["x0", "x1", "x2"], quantiles=taus, penalty=1e6)
    assert np.abs(res.fixed_effects.to_numpy()).max() < 1e-9
    X = d[["x0", "x1", "x2"]].to_numpy()
    for tau in taus:
        sk = QuantileRegressor(quantile=tau, alpha=0, solver="highs").fit(X, d["y"].to_numpy())
        np.testing.assert_allclose(res.params.loc[tau].to_numpy(), np.r_[sk.intercept_, sk.coef_], atol=1e-6)


def test_feqar_recovers_known_dgp():
    # y = α_i + x'β + e, e ~ N(0, 0.5²): every quantile slope equals β, and
    # μ_τ + α_i equals α_i + 0.5·Φ⁻¹(τ). Tolerance 0.1 on slopes at the median, 0.2 in the tails.
    rng = np.random.default_rng(5)
    banks, periods = 20, 30
    alpha = rng.normal(size=banks)
    X = rng.normal(size=(banks * periods, 2))
    y = np.repeat(alpha, periods) + X @ np.array([0.8, -0.5]) + 0.5 * rng.normal(size=banks * periods)
    d = pd.DataFrame(X, columns=["x0", "x1"])
    d["y"], d["bank_id"] = y, np.repeat([f"b{i:02d}" for i in range(banks)], periods)
    res = fit_feqar(d, "y", ["x0", "x1"], quantiles=[0.1, 0.5, 0.9], penalty=1.0)
    np.testing.assert_allclose(res.params.loc[0.5, ["x0", "x1"]].to_numpy(), [0.8, -0.5], atol=0.1)
    for tau in (0.1, 0.9):
        np.testing.assert_allclose(res.params.loc[tau, ["x0", "x1"]].to_numpy(), [0.8, -0.5], atol=0.2)
    # fixed effects recovered up to the common shift absorbed by μ_τ
    fe = res.fixed_effects.to_numpy() + res.params.loc[0.5, "intercept"]
    assert np.corrcoef(fe, alpha)[0, 1] > 0.97
    assert np.abs(fe - alpha).mean() < 0.2
    spread = res.params.loc[0.9, "intercept"] - res.params.loc[0.1, "intercept"]
    assert spread == pytest.approx(2 * 0.5 * 1.2816, abs=0.2)


def test_feqar_penalty_shrinks_fixed_effects():
    rng = np.random.default_rng(6)
    d, _, _ = _panel(rng, banks=8, periods=8)
    small = fit_feqar(d, "y", ["x0"], quantiles=[0.25, 0.5, 0.75], penalty=0.01)
    big = fit_feqar(d, "y", ["x0"], quantiles=[0.25, 0.5, 0.75], penalty=50.0)
    assert np.abs(big.fixed_effects).sum() < np.abs(small.fixed_effects).sum()


def test_quantile_crossing_check():
    share, worst = quantile_crossing(np.array([[1.0, 2.0, 3.0], [1.0, 0.5, 2.0]]))
    assert share == 0.5 and worst == pytest.approx(0.5)


@pytest.mark.parametrize("taus", [[0.5, 0.4], [0.0, 0.5], [1.2]])
def test_feqar_bad_quantiles(taus):
    rng = np.random.default_rng(7)
    d, _, _ = _panel(rng, banks=3, periods=4)
    with pytest.raises(InputError):
        fit_feqar(d, "y", ["x0"], quantiles=taus)


def test_feols_projection_residuals_have_the_corrected_spread():
    rng = np.random.default_rng(8)
    d, _, _ = _panel(rng)
    res = fit_feols(d, "y", ["x0", "x1", "x2"])
    pool = res.projection_residuals()
    assert np.sqrt(np.mean(pool**2)) == pytest.approx(res.sigma)
    assert np.corrcoef(pool, res.resid)[0, 1] == pytest.approx(1.0)
