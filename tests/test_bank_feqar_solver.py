"""FE-QAR: the dual interior-point fit reaches the optimum of the joint primal LP (HiGHS)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import aieco.models.bank.feqar as feqar
from aieco.config import get_settings
from aieco.demo import bank as demo
from aieco.models.bank.panel import build_panel, halfyear_macro

TAUS = np.array([round(0.05 * i, 2) for i in range(1, 20)])


def _arrays(d: pd.DataFrame, component: str, regressors: list[str]):
    y = d[component].to_numpy(dtype=float)
    X = d[regressors].to_numpy(dtype=float)
    banks, codes = np.unique(d["bank_id"].to_numpy(), return_inverse=True)
    return y, X, codes, banks.size


def _random_panel(seed: int, banks: int, periods: int, k: int, ties: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(banks * periods, k))
    y = np.repeat(rng.normal(size=banks), periods) + X @ rng.normal(size=k) + rng.standard_t(4, size=banks * periods)
    if ties:  # rounded data: many tied residuals, a non-unique optimum
        X, y = np.round(X), np.round(y)
    d = pd.DataFrame(X, columns=[f"x{j}" for j in range(k)])
    d["y"], d["bank_id"] = y, np.repeat([f"b{i:02d}" for i in range(banks)], periods)
    return d


def _check_same_optimum(
    d: pd.DataFrame, component: str, regressors: list[str], taus: np.ndarray, penalty: float, *, unique: bool
) -> None:
    y, X, codes, n_banks = _arrays(d, component, regressors)
    lp_coef, lp_alpha, lp_objective = feqar.fit_feqar_lp(y, X, codes, n_banks, taus, penalty)
    solved = feqar.solve_feqar_dual(y, X, codes, n_banks, taus, penalty)
    assert solved is not None, "the interior point gave no optimality certificate"
    coef, alpha, objective = solved
    # the same optimal value, evaluated independently at both solutions
    assert objective == pytest.approx(lp_objective, rel=1e-9, abs=1e-9)
    assert feqar.feqar_objective(y, X, codes, taus, penalty, lp_coef, lp_alpha) == pytest.approx(lp_objective, rel=1e-9)
    if unique:
        # the same slopes and fitted quantiles; μ_k and α_i may trade a common shift c (α_i + c, μ_k − c) at
        # no cost when as many α_i are positive as negative, so they are compared through μ_k + α_i
        np.testing.assert_allclose(coef[:, 1:], lp_coef[:, 1:], atol=1e-6)
        np.testing.assert_allclose(coef[:, :1] + alpha[None, :], lp_coef[:, :1] + lp_alpha[None, :], atol=1e-6)
    res = feqar.fit_feqar(d, component, regressors, quantiles=taus, penalty=penalty)
    np.testing.assert_array_equal(res.params.to_numpy(), coef)
    assert res.objective == objective


@pytest.mark.parametrize(
    "seed,banks,periods,k,penalty",
    [(11, 6, 12, 2, 1.0), (12, 10, 8, 3, 0.3), (13, 4, 20, 1, 5.0), (14, 8, 10, 3, 0.0), (15, 5, 9, 2, 1e4)],
)
def test_dual_interior_point_matches_the_primal_lp(seed, banks, periods, k, penalty):
    d = _random_panel(seed, banks, periods, k)
    _check_same_optimum(d, "y", [f"x{j}" for j in range(k)], TAUS[::3], penalty, unique=True)


def test_non_unique_optimum_still_has_the_lp_optimal_value():
    d = _random_panel(21, 6, 8, 2, ties=True)
    _check_same_optimum(d, "y", ["x0", "x1"], TAUS[::2], 1.0, unique=False)


def test_demo_panel_component_matches_the_shipped_lp():
    s = get_settings().bank
    panel = build_panel(
        demo.load_demo_panel(), halfyear_macro(demo.load_demo_macro()), min_obs=s.min_obs, start="2017H1", end="2024H2"
    )
    # component n has a unique optimum on the demo panel (all 19 levels, 40 banks, 16 half-years)
    _check_same_optimum(panel.data, "n", panel.regressors("n"), np.asarray(s.quantiles), s.qar_penalty, unique=True)


def test_without_a_certificate_the_primal_lp_is_solved(monkeypatch):
    d = _random_panel(31, 5, 10, 2)
    y, X, codes, n_banks = _arrays(d, "y", ["x0", "x1"])
    lp_coef, lp_alpha, lp_objective = feqar.fit_feqar_lp(y, X, codes, n_banks, TAUS[::4], 1.0)
    monkeypatch.setattr(feqar, "IPM_MAX_ITER", 2)  # cannot converge: no certificate
    assert feqar.solve_feqar_dual(y, X, codes, n_banks, TAUS[::4], 1.0) is None
    res = feqar.fit_feqar(d, "y", ["x0", "x1"], quantiles=TAUS[::4], penalty=1.0)
    np.testing.assert_array_equal(res.params.to_numpy(), lp_coef)
    np.testing.assert_array_equal(res.fixed_effects.to_numpy(), lp_alpha)
    assert res.objective == lp_objective


def test_objective_hand_example():
    # two observations of one bank, τ = 0.25 and 0.75, no regressors: residuals y − α − μ_k
    y, X, codes = np.array([1.0, 3.0]), np.zeros((2, 0)), np.array([0, 0])
    coef, alpha = np.array([[2.0], [2.0]]), np.array([0.5])
    # residuals −1.5, 0.5 at both levels: τ=.25: .75·1.5 + .25·.5 = 1.25; τ=.75: .25·1.5 + .75·.5 = .75; + 2·|.5|
    value = feqar.feqar_objective(y, X, codes, np.array([0.25, 0.75]), 2.0, coef, alpha)
    assert value == pytest.approx(1.25 + 0.75 + 1.0)
