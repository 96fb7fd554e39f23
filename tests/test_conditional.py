"""Anchored baselines (aieco.models.conditional) and the calibrated scenario rule (issue #28)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aieco.errors import InputError
from aieco.models import macro
from aieco.models.conditional import Anchor, anchor_shift, deterministic_levels, severity_path, usable_anchors
from aieco.models.var import VARIABLES, annual_levels, annual_paths, fit_var, simulate
from aieco.scenario import selection


def _levels(seed: int = 3, quarters: int = 100) -> pd.DataFrame:
    """A stationary synthetic economy in levels (GDP, equity, houses, HICP index, rates)."""
    rng = np.random.default_rng(seed)
    idx = pd.period_range("2000Q1", periods=quarters, freq="Q")
    k = len(VARIABLES)
    x = np.zeros((quarters, k))
    mean = np.array([0.4, 1.0, 0.8, 2.0, 0.0, 3.0])
    for t in range(1, quarters):
        x[t] = mean + 0.5 * (x[t - 1] - mean) + rng.normal(0, [0.5, 4.0, 1.0, 0.3, 0.15, 0.3])
    lv = pd.DataFrame(index=idx.astype(str), columns=list(VARIABLES), dtype=float)
    lv["real_gdp"] = 100 * np.exp(np.cumsum(x[:, 0]) / 100)
    lv["equity_prices"] = 100 * np.exp(np.cumsum(x[:, 1]) / 100)
    lv["house_prices"] = 100 * np.exp(np.cumsum(x[:, 2]) / 100)
    lv["inflation"] = 100 * np.exp(np.cumsum(x[:, 3] / 4) / 100)
    lv["unemployment"] = 8 + np.cumsum(x[:, 4]) * 0.1
    lv["long_term_rate"] = x[:, 5]
    return lv


@pytest.fixture(scope="module")
def fit():
    return fit_var(_levels(), min_obs=40)


def test_anchored_central_path_meets_the_anchors_and_the_others_follow(fit):
    years = range(2025, 2028)
    anchors = [Anchor("real_gdp", 2025, 0.2), Anchor("real_gdp", 2026, 2.5), Anchor("inflation", 2027, 1.0)]
    result, sim = anchor_shift(fit, anchors, first_year=2025, horizon_end=2027, draws=2000, seed=1)
    # the baseline is the point forecast with the anchor shift (no resampled residual)
    annual = annual_levels(deterministic_levels(fit, result.shift, 2025, 2027)[None], sim.quarters, years)
    assert annual["real_gdp"][0, 0] == pytest.approx(0.2, abs=0.01)
    assert annual["real_gdp"][0, 1] == pytest.approx(2.5, abs=0.01)
    assert annual["inflation"][0, 2] == pytest.approx(1.0, abs=0.01)
    assert result.max_gap < 0.01
    # the unanchored variables move with the anchors (the model's joint dynamics), not left at the unconditional
    unconditional = simulate(fit, draws=2000, seed=1, horizon_end=2027, first_year=2025)
    base = annual_levels(deterministic_levels(fit, 0 * result.shift, 2025, 2027)[None], sim.quarters, years)
    assert not np.allclose(annual["unemployment"], base["unemployment"], atol=1e-3)
    # the draws keep the model's own dispersion around the anchored centre
    spread_a = annual_paths(sim, years)[:, 1, 0].std()
    spread_u = annual_paths(unconditional, years)[:, 1, 0].std()
    assert spread_a == pytest.approx(spread_u, rel=0.05)


def test_no_anchor_in_the_horizon_is_the_unconditional_simulation(fit):
    result, sim = anchor_shift(
        fit, [Anchor("real_gdp", 2019, 1.0)], first_year=2025, horizon_end=2027, draws=500, seed=4
    )
    plain = simulate(fit, draws=500, seed=4, horizon_end=2027, first_year=2025)
    assert result.anchors == () and np.array_equal(sim.levels, plain.levels)


def test_an_anchor_outside_the_vocabulary_is_refused():
    with pytest.raises(InputError, match="not a model variable"):
        usable_anchors([Anchor("gdp", 2025, 1.0)], 2025, 2027)
    # equity and house prices are model variables but no staff projection anchors them
    assert usable_anchors([Anchor("equity_prices", 2025, 1.0)], 2025, 2027) == ()


RECESSION = [selection.Restriction(variable="real_gdp", direction=-1, priority=1)]


def _zero_shift(fit):
    from aieco.models.var import simulation_steps

    return np.zeros((simulation_steps(fit, 2027), len(VARIABLES)))


def test_the_severity_path_is_deterministic_and_deeper_with_the_target(fit):
    shift = _zero_shift(fit)
    gdp = VARIABLES.index("real_gdp")
    paths = [severity_path(fit, shift, RECESSION, [1.0], z, first_year=2025, horizon_end=2027) for z in (0.5, 1.6, 3.0)]
    means = [p.annual[:, gdp].mean() for p in paths]
    assert means[0] > means[1] > means[2]
    again = severity_path(fit, shift, RECESSION, [1.0], 1.6, first_year=2025, horizon_end=2027)
    assert np.array_equal(again.levels, paths[1].levels)  # no draw, no seed: the same path every time
    assert all(p.direction_ok == {"real_gdp": True} for p in paths)
    # z = 0 is the baseline itself
    flat = severity_path(fit, shift, RECESSION, [1.0], 0.0, first_year=2025, horizon_end=2027)
    base = deterministic_levels(fit, shift, 2025, 2027)
    np.testing.assert_allclose(flat.levels, base)


def test_the_severity_path_matches_the_draws_conditional_mean(fit):
    """The linear-Gaussian conditional expectation agrees with the bootstrap draws near the same severity."""
    shift = _zero_shift(fit)
    sim = simulate(fit, draws=20_000, seed=5, horizon_end=2027, first_year=2025)
    annual = annual_paths(sim, range(2025, 2028))
    gdp = VARIABLES.index("real_gdp")
    score = -annual[:, :, gdp].mean(axis=1)
    z = (score - score.mean()) / score.std()
    near = np.abs(z - 1.5) < 0.1
    path = severity_path(fit, shift, RECESSION, [1.0], 1.5, first_year=2025, horizon_end=2027)
    assert path.annual[:, gdp].mean() == pytest.approx(annual[near][:, :, gdp].mean(), abs=0.15)


def test_different_restrictions_give_different_paths(fit):
    shift = _zero_shift(fit)
    a = severity_path(fit, shift, RECESSION, [1.0], 1.6, first_year=2025, horizon_end=2027)
    equity = [selection.Restriction(variable="equity_prices", direction=-1, priority=1)]
    b = severity_path(fit, shift, equity, [1.0], 1.6, first_year=2025, horizon_end=2027)
    assert not np.allclose(a.annual, b.annual)
    assert (b.sd >= 0).all() and b.sd[:, VARIABLES.index("equity_prices")].max() > 0


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(0.2, 5.0), min_size=16, max_size=16),
    st.lists(st.floats(0.2, 5.0), min_size=16, max_size=16),
)
def test_every_reported_deviation_has_the_sign_of_its_level_difference(sel, base):
    """Property (issue #28): the sign of each deviation equals the sign of the level difference at its date."""
    quarters = [str(q) for q in pd.period_range("2024Q1", "2027Q4", freq="Q")]
    s = pd.DataFrame({v: np.cumsum(sel) + 50 for v in VARIABLES}, index=quarters)
    m = pd.DataFrame({v: np.cumsum(base) + 50 for v in VARIABLES}, index=quarters)
    summary = macro.horizon_summary(s, m, 2025, 2027)
    for v in VARIABLES:
        assert np.sign(round(summary.loc[v, "deviation_from_median"], 12)) == np.sign(
            round(s.loc["2027Q4", v] - m.loc["2027Q4", v], 12)
        )
        assert np.sign(round(summary.loc[v, "peak_deviation_from_median"], 12)) == np.sign(
            round(summary.loc[v, "peak"] - summary.loc[v, "peak_median"], 12)
        )


def test_equity_below_its_baseline_is_reported_below_it():
    """Regression (issue #28): paths that do not share their jump-off were re-based to a common 2024Q4, so an
    equity path 16.6 % below the baseline at 2027Q4 was reported 15.5 % above it."""
    quarters = [str(q) for q in pd.period_range("2024Q1", "2027Q4", freq="Q")]
    baseline = pd.DataFrame({v: np.linspace(100, 112, 16) for v in VARIABLES}, index=quarters)
    selected = baseline.copy()
    # the selected path starts far lower (a simulated jump-off) but recovers part of the gap: lower at 2027Q4
    selected["equity_prices"] = np.concatenate([np.linspace(100, 60, 4), np.linspace(62, 93.4, 12)])
    summary = macro.horizon_summary(selected, baseline, 2025, 2027)
    level_gap = 100 * (selected.loc["2027Q4", "equity_prices"] / baseline.loc["2027Q4", "equity_prices"] - 1)
    assert level_gap < 0
    assert summary.loc["equity_prices", "deviation_from_median"] == pytest.approx(level_gap)
    # the cumulative change compounds the annual-average changes of the same path
    annual = macro.annual_of(selected[list(VARIABLES)].to_numpy(), quarters, ["2025", "2026", "2027"])
    compounded = 100 * (np.prod(1 + annual[:, VARIABLES.index("equity_prices")] / 100) - 1)
    assert summary.loc["equity_prices", "cumulative_change"] == pytest.approx(compounded)
