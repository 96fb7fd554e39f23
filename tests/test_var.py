"""VAR(2): statsmodels oracle, bootstrap reproducibility, level reconstruction, stops."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from statsmodels.tsa.api import VAR

from aieco.demo.macro import load_demo_observations
from aieco.errors import InputError, StageStopped
from aieco.models import transforms as tf
from aieco.models import var
from aieco.models.var import (
    VARIABLES,
    annual_paths,
    fit_var,
    last_observed_annual,
    model_variables,
    range_failures,
    simulate,
)


@pytest.fixture(scope="module")
def levels() -> pd.DataFrame:
    obs = load_demo_observations()
    return obs.pivot(index="reference_period", columns="variable", values="value")[list(VARIABLES)]


@pytest.fixture(scope="module")
def fit(levels):
    return fit_var(levels, estimator="ols")  # the statsmodels oracle is OLS


def test_demo_data_is_labelled_synthetic():
    obs = load_demo_observations()
    assert obs["series_key"].str.startswith("SYNTHETIC").all()
    assert obs["note"].str.contains("synthetic").all()
    assert obs["reference_period"].min() == "2000Q1" and obs["reference_period"].max() == "2024Q3"
    assert obs["release_date"].notna().all()


def test_model_variables_hand_computed():
    lv = pd.DataFrame(
        {v: [100.0, 110.0, 110.0, 121.0, 200.0] for v in VARIABLES},
        index=["2000Q1", "2000Q2", "2000Q3", "2000Q4", "2001Q1"],
    )
    x = model_variables(lv)
    assert x["real_gdp"].iloc[1] == pytest.approx(100 * np.log(1.1))
    assert x["real_gdp"].iloc[2] == 0.0
    assert x["inflation"].iloc[4] == pytest.approx(100 * np.log(2.0))
    assert np.isnan(x["inflation"].iloc[3])
    assert x["unemployment"].iloc[4] == 200.0 - 121.0  # unemployment enters as its quarterly change (pp)
    assert np.isnan(x["unemployment"].iloc[0])
    assert x["long_term_rate"].iloc[4] == 200.0  # the long rate as its level


def test_coefficients_equal_statsmodels_fit(levels, fit):
    x = model_variables(levels)
    x = x[x.index >= pd.Period("2000Q1", freq="Q")].dropna()
    oracle = VAR(x.to_numpy()).fit(2, trend="c")
    np.testing.assert_allclose(fit.params, oracle.params, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(fit.resid, oracle.resid, rtol=1e-10, atol=1e-12)
    assert fit.nobs == len(x) == 95  # 2001Q1 (first y/y HICP) to 2024Q3
    assert fit.endpoint == "2024Q3"
    assert fit.stable and fit.max_modulus == pytest.approx(np.abs(oracle.roots).min() ** -1, rel=1e-8)


def test_too_few_observations_stop(levels):
    short = levels.loc[:"2020Q4"]  # 2001Q1–2020Q4 = 80 complete quarters: enough
    assert fit_var(short).nobs == 80
    with pytest.raises(StageStopped, match="at least 80"):
        fit_var(levels.loc[:"2020Q3"])


def test_gap_inside_sample_stops(levels):
    gappy = levels.copy()
    gappy.loc["2010Q2", "house_prices"] = np.nan
    with pytest.raises(StageStopped, match="missing quarter"):
        fit_var(gappy)


def test_non_positive_level_is_refused(levels):
    bad = levels.copy()
    bad.loc["2010Q2", "real_gdp"] = 0.0
    with pytest.raises(InputError, match="positive level"):
        fit_var(bad)


def test_missing_variable_is_refused(levels):
    with pytest.raises(InputError, match="lacks house_prices"):
        fit_var(levels.drop(columns="house_prices"))


def test_unstable_var_stops_before_simulating(fit):
    explosive = dataclasses.replace(fit, coefs=fit.coefs * 3.0, eigenvalues=fit.eigenvalues * 3.0)
    assert not explosive.stable
    with pytest.raises(StageStopped, match="not stable"):
        simulate(explosive, draws=10, seed=1)


def test_bootstrap_reproducible_by_seed_and_distinct_across_seeds(fit):
    a = simulate(fit, draws=2_000, seed=11)
    b = simulate(fit, draws=2_000, seed=11)
    c = simulate(fit, draws=2_000, seed=12)
    np.testing.assert_array_equal(a.levels, b.levels)
    assert not np.allclose(a.levels[:, ~a.observed], c.levels[:, ~c.observed])


def test_vectorised_simulation_equals_a_loop_over_one_draw(fit):
    sim = simulate(fit, draws=50, seed=5)
    steps = (pd.Period("2027Q4", freq="Q") - pd.Period(fit.endpoint, freq="Q")).n
    picks = np.random.default_rng(5).integers(0, fit.resid.shape[0], size=(steps, 50))
    d = 17  # one trajectory, rebuilt quarter by quarter with statsmodels' layout
    hist = [fit.data[-2], fit.data[-1]]
    for h in range(steps):
        hist.append(fit.intercept + fit.coefs[0] @ hist[-1] + fit.coefs[1] @ hist[-2] + fit.resid[picks[h, d]])
    x = np.array(hist[2:])
    gdp_level = fit.levels["real_gdp"].iloc[-1] * np.exp(np.cumsum(x[:, 0]) / 100)
    assert sim.levels[d, -1, 0] == pytest.approx(gdp_level[-1], rel=1e-10)
    assert sim.levels[d, -1, 5] == pytest.approx(x[-1, 5], rel=1e-10)
    # unemployment enters as quarterly changes: its level is the endpoint level plus their sum
    assert sim.levels[d, -1, 4] == pytest.approx(fit.levels["unemployment"].iloc[-1] + x[:, 4].sum(), rel=1e-10)


def test_zero_residuals_reproduce_statsmodels_forecast_and_levels(fit, levels):
    calm = dataclasses.replace(fit, resid=np.zeros_like(fit.resid))
    sim = simulate(calm, draws=3, seed=0)
    x = model_variables(levels)
    x = x[x.index >= pd.Period("2000Q1", freq="Q")].dropna()
    oracle = VAR(x.to_numpy()).fit(2, trend="c")
    fc = oracle.forecast(x.to_numpy()[-2:], steps=13)  # 2024Q4 … 2027Q4
    q = list(sim.quarters)
    # GDP: P_t = P_{t-1} exp(ℓ_t/100)
    assert sim.levels[0, q.index("2024Q4"), 0] == pytest.approx(
        levels.loc["2024Q3", "real_gdp"] * np.exp(fc[0, 0] / 100), rel=1e-10
    )
    # HICP: H_t = H_{t-4} exp(π_t/100)
    assert sim.levels[0, q.index("2024Q4"), 3] == pytest.approx(
        levels.loc["2023Q4", "inflation"] * np.exp(fc[0, 3] / 100), rel=1e-10
    )
    assert sim.levels[0, q.index("2025Q4"), 3] == pytest.approx(
        levels.loc["2023Q4", "inflation"] * np.exp(fc[0, 3] / 100) * np.exp(fc[4, 3] / 100), rel=1e-10
    )
    # unemployment: u_t = u_{t-1} + Δu_t
    assert sim.levels[2, -1, 4] == pytest.approx(levels.loc["2024Q3", "unemployment"] + fc[:, 4].sum(), rel=1e-10)


def test_observed_and_simulated_status(fit, levels):
    sim = simulate(fit, draws=5, seed=3)
    assert sim.quarters[0] == "2024Q1" and sim.quarters[-1] == "2027Q4"
    assert sim.status()[:4] == ["observed", "observed", "observed", "simulated"]
    np.testing.assert_allclose(sim.levels[4, 1], levels.loc["2024Q2"].to_numpy())
    path = sim.trajectory(5)
    assert path.loc["2024Q3", "status"] == "observed" and path.loc["2027Q4", "status"] == "simulated"


def test_annual_aggregation_agrees_with_independent_definitions(fit):
    sim = simulate(fit, draws=20, seed=9)
    annual = annual_paths(sim)
    assert annual.shape == (20, 3, 6)
    frame = pd.DataFrame(sim.levels[7], index=pd.PeriodIndex(sim.quarters, freq="Q"), columns=list(VARIABLES))
    yearly_mean = frame.groupby(frame.index.year).mean()
    for j, v in enumerate(VARIABLES):
        if v in ("unemployment", "long_term_rate"):
            expected = yearly_mean.loc[2025:2027, v].to_numpy()
        else:  # ratio of annual averages (GDP: four-quarter sums; HICP, equity, house: average index)
            expected = 100 * (yearly_mean.loc[2025:2027, v].to_numpy() / yearly_mean.loc[2024:2026, v].to_numpy() - 1)
        np.testing.assert_allclose(annual[7, :, j], expected, rtol=1e-12)
    # and with the transforms module applied to the quarterly path
    np.testing.assert_allclose(annual[7, :, 0], tf.annual_growth(sim.levels[7, :, 0]), rtol=1e-12)


def test_range_failures_are_counted():
    annual = np.zeros((3, 3, 6))
    annual[:, :, 4] = 8.0  # unemployment inside [0, 30]
    annual[1, 2, 0] = -25.0  # GDP growth below −20
    annual[2, 0, 5] = 20.5  # long rate above 20
    ok, failures = range_failures(annual)
    assert ok.tolist() == [True, False, False]
    assert failures == {
        "real_gdp": 1,
        "equity_prices": 0,
        "house_prices": 0,
        "inflation": 0,
        "unemployment": 0,
        "long_term_rate": 1,
    }


def test_last_observed_annual_uses_complete_observed_years(levels):
    year, values = last_observed_annual(levels)
    assert year == 2023  # 2024 has only three quarters
    quarters = [f"2023Q{i}" for i in range(1, 5)]
    assert values["unemployment"] == pytest.approx(levels.loc[quarters, "unemployment"].mean())
    prev = [f"2022Q{i}" for i in range(1, 5)]
    assert values["inflation"] == pytest.approx(
        100 * (levels.loc[quarters, "inflation"].sum() / levels.loc[prev, "inflation"].sum() - 1)
    )


def test_last_observed_annual_takes_each_variables_own_last_year(levels):
    cut = levels.copy()
    cut.loc[[q for q in cut.index if str(q) >= "2023Q1"], "long_term_rate"] = np.nan  # the rate ends in 2022
    year, values = last_observed_annual(cut)
    assert year == 2022
    assert values["long_term_rate"] == pytest.approx(
        cut.loc[[f"2022Q{i}" for i in range(1, 5)], "long_term_rate"].mean()
    )
    quarters = [f"2023Q{i}" for i in range(1, 5)]
    assert values["unemployment"] == pytest.approx(cut.loc[quarters, "unemployment"].mean())  # still 2023


def test_ragged_edge_conditioning_matches_an_independent_regression(fit, levels):
    """Quarter 2024Q4 with GDP and unemployment observed: those take their values in every draw; the
    free variables move by the OLS regression of the free residuals on the observed ones (oracle:
    np.linalg.lstsq, not the covariance formula the kernel uses)."""
    g, du = 0.8, -0.3  # observed GDP log change (×100) and unemployment change (pp) in 2024Q4
    row = np.full(6, np.nan)
    row[0], row[4] = g, du
    cond = dataclasses.replace(fit, conditions=row[None, :], ragged_edge="condition")
    draws = 40
    sim = simulate(cond, draws=draws, seed=21)
    q = list(sim.quarters).index("2024Q4")
    np.testing.assert_allclose(sim.levels[:, q, 0], levels.loc["2024Q3", "real_gdp"] * np.exp(g / 100), rtol=1e-12)
    np.testing.assert_allclose(sim.levels[:, q, 4], levels.loc["2024Q3", "unemployment"] + du, rtol=1e-12)
    steps = (pd.Period("2027Q4", freq="Q") - pd.Period(fit.endpoint, freq="Q")).n
    picks = np.random.default_rng(21).integers(0, fit.resid.shape[0], size=(steps, draws))
    obs, free = [0, 4], [1, 2, 3, 5]
    beta = np.linalg.lstsq(fit.resid[:, obs], fit.resid[:, free], rcond=None)[0]  # (2, 4)
    for d in (0, 7, 39):
        mean = fit.intercept + fit.coefs[0] @ fit.data[-1] + fit.coefs[1] @ fit.data[-2]
        u = fit.resid[picks[0, d]]
        target = np.array([g, du]) - mean[obs]
        x_free = mean[free] + u[free] + (target - u[obs]) @ beta
        # equity (qoq log change) rebuilt from its 2024Q3 level
        eq = levels.loc["2024Q3", "equity_prices"] * np.exp(x_free[0] / 100)
        assert sim.levels[d, q, 1] == pytest.approx(eq, rel=1e-10)
        assert sim.levels[d, q, 5] == pytest.approx(x_free[3], rel=1e-10)


def test_unregistered_ragged_edge_treatment_is_refused(levels):
    with pytest.raises(InputError, match="ragged-edge treatment"):
        fit_var(levels, ragged_edge="nowcast")


def test_conditions_hold_only_values_observed_after_the_endpoint(levels):
    short = levels.copy()
    short.loc["2024Q3", "long_term_rate"] = np.nan  # the long rate ends one quarter early
    f = fit_var(short, ragged_edge="condition")
    assert f.endpoint == "2024Q2" and f.conditions.shape == (1, 6)
    assert np.isnan(f.conditions[0, 5]) and not np.isnan(f.conditions[0, :5]).any()
    assert fit_var(short).conditions is None  # 'none' keeps nothing


# --- the Minnesota prior (the default estimator) -------------------------------------------------


def _minnesota(levels, tightness, cross=0.5):
    from aieco.config import get_settings

    settings = get_settings().scenario
    data = fit_var(levels, estimator="ols").data
    own = np.array([var.MINNESOTA_OWN_LAG_MEAN[v] for v in VARIABLES])
    return data, var.minnesota_var(data, settings.var_lags, tightness=tightness, cross=cross, own_lag_mean=own)


def test_minnesota_posterior_equals_least_squares_on_prior_dummy_rows(levels):
    """Independent oracle: the posterior mean is OLS on the data stacked with one dummy row per
    coefficient, sqrt(precision)·σ_i on the left and sqrt(precision)·σ_i·prior mean on the right."""
    data, (intercept, coefs, _resid, _keep) = _minnesota(levels, tightness=0.2)
    lags, k = coefs.shape[0], coefs.shape[1]
    y, x, _ = var._regressors(data, lags, None)
    n = x.shape[1]
    for i in range(k):
        sigma = np.empty(k)
        for j in range(k):
            xj = np.hstack([x[:, :1]] + [x[:, 1 + m * k + j : 2 + m * k + j] for m in range(lags)])
            e = y[:, j] - xj @ np.linalg.lstsq(xj, y[:, j], rcond=None)[0]
            sigma[j] = np.sqrt(e @ e / len(e))
        rows, rhs = [], []
        for lag in range(1, lags + 1):
            for j in range(k):
                sd = 0.2 / lag if i == j else 0.2 * 0.5 * sigma[i] / (lag * sigma[j])
                row = np.zeros(n)
                row[1 + (lag - 1) * k + j] = sigma[i] / sd
                rows.append(row)
                mean = var.MINNESOTA_OWN_LAG_MEAN[VARIABLES[i]] if (i == j and lag == 1) else 0.0
                rhs.append(sigma[i] / sd * mean)
        beta = np.linalg.lstsq(np.vstack([x, rows]), np.concatenate([y[:, i], rhs]), rcond=None)[0]
        np.testing.assert_allclose(intercept[i], beta[0], rtol=1e-8, atol=1e-10)
        for lag in range(lags):
            np.testing.assert_allclose(coefs[lag][i], beta[1 + lag * k : 1 + (lag + 1) * k], rtol=1e-8, atol=1e-10)


def test_minnesota_limits_are_ols_and_the_prior(levels, fit):
    _, (intercept, coefs, _r, _k) = _minnesota(levels, tightness=1e6)
    np.testing.assert_allclose(coefs, fit.coefs, atol=1e-6)  # a flat prior: least squares
    np.testing.assert_allclose(intercept, fit.intercept, atol=1e-5)
    _, (_i, tight, _r, _k) = _minnesota(levels, tightness=1e-6)
    expected = np.zeros_like(tight)
    for i, v in enumerate(VARIABLES):
        expected[0][i, i] = var.MINNESOTA_OWN_LAG_MEAN[v]  # a dogmatic prior: random walk or white noise
    np.testing.assert_allclose(tight, expected, atol=1e-6)


def test_minnesota_is_the_default_and_recorded(levels, fit):
    bayes = fit_var(levels)
    assert bayes.prior["estimator"] == "minnesota" and bayes.prior["tightness"] == 0.2
    assert fit.prior == {"estimator": "ols"}
    assert not np.allclose(bayes.coefs, fit.coefs)  # shrinkage moves the coefficients
    # cross-variable loadings shrink towards zero on the whole
    off = ~np.eye(len(VARIABLES), dtype=bool)
    assert np.abs(bayes.coefs[0][off]).sum() < np.abs(fit.coefs[0][off]).sum()


def test_unknown_estimator_is_refused_naming_the_setting(levels):
    with pytest.raises(InputError, match="not registered") as err:
        fit_var(levels, estimator="lasso")
    assert "scenario.var_estimator" in str(err.value.where)
