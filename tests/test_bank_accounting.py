"""CET1 recursions, identity checks and the simulated projection."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aieco.errors import InputError, StageStopped
from aieco.models.bank.accounting import ComponentModel, project_cet1, summarise_projection, verify_recursions
from aieco.models.bank.panel import COMPONENTS, MACRO_VARIABLES

K = len(MACRO_VARIABLES)


def _deterministic_models(values: dict[str, float], banks=("B1",)) -> dict[str, ComponentModel]:
    """FE-OLS-form models whose every draw equals ``values`` (zero slopes, zero residuals)."""
    fe = pd.Series(0.0, index=list(banks))
    out = {}
    for c in COMPONENTS:
        coef = np.zeros((1, 4 + K))
        coef[0, 0] = values[c]
        out[c] = ComponentModel(c, MACRO_VARIABLES, coef, fe, residuals=np.zeros(3))
    return out


def _scenario(countries=("DE",), periods=("2025H1", "2025H2", "2026H1")):
    rows = [{"country": c, "period": p, **dict.fromkeys(MACRO_VARIABLES, 1.0)} for c in countries for p in periods]
    return pd.DataFrame(rows)


def _start(banks=("B1",), cap=100.0, rwa=1000.0, period="2024H2"):
    return pd.DataFrame(
        {
            "macro_country": "DE",
            "country": "DE",
            "period": period,
            "cet1_capital": cap,
            "rwa": rwa,
            **dict.fromkeys(COMPONENTS, 0.0),
        },
        index=list(banks),
    )


def test_hand_computed_recursion():
    # n=2, l=0.5, o=0.3, a=-0.2 → net 1 % of beginning RWA; g = 100·log(1.02)
    models = _deterministic_models({"n": 2.0, "l": 0.5, "o": 0.3, "a": -0.2, "g": 100 * np.log(1.02)})
    proj = project_cet1(models, _start(), _scenario(), paths=3, seed=0)
    c1, r1 = 100 + 0.01 * 1000, 1000 * 1.02
    c2, r2 = c1 + 0.01 * r1, r1 * 1.02
    assert proj.ratio[0, 0, 1] == pytest.approx(100 * c1 / r1)
    assert proj.ratio[0, 0, 2] == pytest.approx(100 * c2 / r2)
    assert proj.periods == ["2024H2", "2025H1", "2025H2", "2026H1"]
    ratios = [10.0, 100 * c1 / r1, 100 * c2 / r2]
    assert proj.depletion[0, 0] == pytest.approx(10.0 - min(ratios[1:] + [100 * (c2 + 0.01 * r2) / (r2 * 1.02)]))


def test_identity_violation_stops():
    cap = np.array([[100.0, 111.0]])
    rwa = np.array([[1000.0, 1000.0]])
    comps = {c: np.zeros((1, 1)) for c in COMPONENTS}
    comps["n"][:] = 1.0  # implies capital 110, not 111
    with pytest.raises(StageStopped, match="identity"):
        verify_recursions(cap, rwa, comps, "bank X")
    with pytest.raises(StageStopped, match="RWA"):
        verify_recursions(cap, np.array([[1000.0, -1.0]]), comps, "bank X")


def test_explosive_growth_stops_before_ratios():
    models = _deterministic_models({"n": 0, "l": 0, "o": 0, "a": 0, "g": 1e6})
    with pytest.raises(StageStopped, match="RWA not positive and finite"):
        project_cet1(models, _start(), _scenario(), paths=2, seed=0)


@settings(max_examples=25, deadline=None)
@given(st.floats(-3, 3), st.floats(-1, 2), st.floats(-10, 10), st.integers(0, 10_000))
def test_projection_satisfies_identities_property(n, loss, g, seed):
    fe = pd.Series([0.1, -0.1], index=["B1", "B2"])
    taus = np.linspace(0.05, 0.95, 19)
    models = {}
    for c, level in zip(COMPONENTS, (n, loss, 0.2, 0.0, g), strict=True):
        coef = np.zeros((19, 4 + K))
        coef[:, 0] = level + np.linspace(-0.5, 0.5, 19)
        coef[:, 1] = 0.3
        coef[:, 2] = -0.01
        models[c] = ComponentModel(c, MACRO_VARIABLES, coef, fe, quantiles=taus)
    proj = project_cet1(models, _start(("B1", "B2")), _scenario(), paths=50, seed=seed)
    assert proj.identity_max_error <= 1e-9
    assert np.isfinite(proj.ratio).all()
    np.testing.assert_allclose(proj.depletion, proj.ratio[:, :, 0] - proj.ratio[:, :, 1:].min(axis=2))


def test_quantile_draws_cover_levels_and_rearrange_crossing():
    fe = pd.Series([0.0], index=["B1"])
    taus = np.array([0.25, 0.5, 0.75])
    models = _deterministic_models(dict.fromkeys(COMPONENTS, 0.0))
    coef = np.zeros((3, 4 + K))
    coef[:, 0] = [3.0, 1.0, 2.0]  # crossing curves: rearranged to 1, 2, 3
    models["n"] = ComponentModel("n", MACRO_VARIABLES, coef, fe, quantiles=taus)
    proj = project_cet1(models, _start(), _scenario(periods=("2025H1",)), paths=3000, seed=1)
    net = (proj.ratio[0, :, 1] * 1000 / 100 - 100) / 10  # capital change / RWA in %
    values, counts = np.unique(np.round(net, 9), return_counts=True)
    assert values.tolist() == [1.0, 2.0, 3.0]
    assert counts.min() > 900  # one level drawn uniformly per path
    assert proj.crossing_share["n"] == 1.0


def test_seeded_projection_is_reproducible_and_summarised():
    fe = pd.Series([0.0], index=["B1"])
    models = _deterministic_models(dict.fromkeys(COMPONENTS, 0.5))
    models["l"] = ComponentModel("l", MACRO_VARIABLES, np.zeros((1, 4 + K)), fe, residuals=np.array([-1.0, 1.0]))
    a = project_cet1(models, _start(), _scenario(), paths=200, seed=7)
    b = project_cet1(models, _start(), _scenario(), paths=200, seed=7)
    np.testing.assert_array_equal(a.ratio, b.ratio)
    tables = summarise_projection(a, sample_paths=5)
    assert tables["cet1_ratio"].shape == (4, 6) and tables["cet1_ratio_paths"].shape == (5, 4)
    assert tables["depletion"].loc["B1", "p50"] == pytest.approx(np.median(a.depletion[0]))
    assert list(tables["depletion_distribution"].columns)[:2] == ["q01", "q02"]


def test_projection_input_errors():
    models = _deterministic_models(dict.fromkeys(COMPONENTS, 0.0))
    with pytest.raises(InputError, match="not consecutive"):
        project_cet1(models, _start(), _scenario(periods=("2025H1", "2026H1")), paths=2, seed=0)
    with pytest.raises(InputError, match="scenario lacks"):
        project_cet1(models, _start(), _scenario(countries=("FR",)), paths=2, seed=0)
    with pytest.raises(StageStopped, match="does not precede"):
        project_cet1(models, _start(period="2023H2"), _scenario(), paths=2, seed=0)
    with pytest.raises(InputError, match="lacks fitted components"):
        project_cet1({"n": models["n"]}, _start(), _scenario(), paths=2, seed=0)
