"""Anchored baselines (aieco.models.conditional) and the calibrated scenario rule (issue #28)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aieco.errors import InputError, StageStopped
from aieco.models import macro
from aieco.models.conditional import Anchor, anchor_shift, usable_anchors
from aieco.models.var import VARIABLES, annual_levels, annual_paths, central_levels, fit_var, simulate
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


def _annual_of_central(fit, sim, years):
    central = central_levels(fit, sim)[None]
    return annual_levels(central, sim.quarters, years)


def test_anchored_central_path_meets_the_anchors_and_the_others_follow(fit):
    years = range(2025, 2028)
    anchors = [Anchor("real_gdp", 2025, 0.2), Anchor("real_gdp", 2026, 2.5), Anchor("inflation", 2027, 1.0)]
    result, sim = anchor_shift(fit, anchors, first_year=2025, horizon_end=2027, draws=2000, seed=1)
    annual = _annual_of_central(fit, sim, years)
    assert annual["real_gdp"][0, 0] == pytest.approx(0.2, abs=0.01)
    assert annual["real_gdp"][0, 1] == pytest.approx(2.5, abs=0.01)
    assert annual["inflation"][0, 2] == pytest.approx(1.0, abs=0.01)
    assert result.max_gap < 0.01
    # the unanchored variables move with the anchors (the model's joint dynamics), not left at the unconditional
    unconditional = simulate(fit, draws=2000, seed=1, horizon_end=2027, first_year=2025)
    base = _annual_of_central(fit, unconditional, years)
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


def _set(seed: int, draws: int = 4000):
    # GDP growth centred at zero: about half the draws satisfy 'GDP falls', so every target's window is admissible
    rng = np.random.default_rng(seed)
    annual = rng.normal(0, 1, size=(draws, 3, len(VARIABLES)))
    annual[:, :, VARIABLES.index("unemployment")] += 6.5
    return annual


RECESSION = [{"variable": "real_gdp", "direction": -1, "priority": 1}]
LAST = {"unemployment": 6.5, "inflation": 2.0, "long_term_rate": 3.0}


def test_calibrated_window_is_admissible_and_around_the_target():
    annual = _set(1)
    chosen = selection.calibrated_select(
        "r", annual, VARIABLES, RECESSION, LAST, target=0.9, half_width=0.025, min_members=50
    )
    members = chosen.members
    assert members.sum() >= 50
    means = annual.mean(axis=1)[:, VARIABLES.index("real_gdp")]
    assert (means[members] < 0).all()  # every member satisfies the restriction
    pct = chosen.percentiles[members]
    assert pct.min() >= chosen.window[0] - 1e-12 and pct.max() <= chosen.window[1] + 1e-12
    assert 0.85 < np.median(pct) < 0.95
    assert members[chosen.representative_id - 1]


def test_a_target_below_the_admissible_draws_takes_the_least_severe_admissible_ones():
    annual = _set(5)
    annual[:, :, VARIABLES.index("real_gdp")] += 1.0  # few draws fall: all lie in the upper tail
    chosen = selection.calibrated_select(
        "r", annual, VARIABLES, RECESSION, LAST, target=0.5, half_width=0.02, min_members=50
    )
    assert chosen.members.sum() == 50 and chosen.window[1] > 0.52  # widened, and recorded as widened


def test_a_higher_target_is_more_severe():
    annual = _set(2)
    gdp = VARIABLES.index("real_gdp")
    medians = []
    for target in (0.8, 0.9, 0.97):
        c = selection.calibrated_select(
            "r", annual, VARIABLES, RECESSION, LAST, target=target, half_width=0.02, min_members=50
        )
        medians.append(np.median(annual[c.members].mean(axis=1)[:, gdp]))
    assert medians[0] > medians[1] > medians[2]


def test_two_risks_with_different_restrictions_get_different_members():
    annual = _set(3)
    a = selection.calibrated_select(
        "a", annual, VARIABLES, RECESSION, LAST, target=0.9, half_width=0.03, min_members=50
    )
    other = [{"variable": "equity_prices", "direction": -1, "priority": 1}]
    b = selection.calibrated_select("b", annual, VARIABLES, other, LAST, target=0.9, half_width=0.03, min_members=50)
    overlap = (a.members & b.members).sum() / a.members.sum()
    assert overlap < 0.5


def test_no_admissible_draw_stops_and_bad_targets_are_refused():
    annual = _set(4)
    impossible = [{"variable": "unemployment", "direction": 1, "priority": 1}]
    with pytest.raises(StageStopped):
        selection.calibrated_select(
            "r", annual, VARIABLES, impossible, {"unemployment": 50.0}, target=0.9, half_width=0.02, min_members=5
        )
    with pytest.raises(InputError, match="severity target"):
        selection.calibrated_select("r", annual, VARIABLES, RECESSION, LAST, target=1.2, half_width=0.02, min_members=5)


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
