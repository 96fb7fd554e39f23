"""Horizon summaries (cumulative change, peak-to-trough, peak, end level, deviation from the median
path): hand-computed cases, properties, bad input, and an independent recomputation from a macro run's
stored tables with the claims linked through OutputTests."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aieco.errors import InputError
from aieco.models import transforms as tf


@pytest.mark.parametrize(
    "path, kind, cumulative, trough, top, end",
    [
        ([100.0, 110.0, 99.0, 104.5], "level", 4.5, -10.0, 110.0, 104.5),  # 99/110 - 1 = -10 %
        ([100.0, 90.0, 81.0], "level", -19.0, -19.0, 100.0, 81.0),
        ([100.0, 101.0, 102.0], "level", 2.0, 0.0, 102.0, 102.0),
        ([6.5, 7.25, 8.0, 7.5], "rate", 1.0, -0.5, 8.0, 7.5),  # pp
    ],
)
def test_hand_computed_summaries(path, kind, cumulative, trough, top, end):
    assert tf.cumulative_change(np.array(path), kind) == pytest.approx(cumulative)
    assert tf.peak_to_trough(np.array(path), kind) == pytest.approx(trough)
    assert tf.peak(np.array(path)) == pytest.approx(top)
    assert tf.end_level(np.array(path)) == pytest.approx(end)


def test_deviation_from_median_hand_computed():
    assert tf.deviation_from_median(95.0, 100.0, "level") == pytest.approx(-5.0)
    assert tf.deviation_from_median(np.array([8.4, 7.0]), np.array([7.9, 7.0]), "rate") == pytest.approx([0.5, 0.0])


@pytest.mark.parametrize(
    "call",
    [
        lambda: tf.cumulative_change(np.array([100.0, -1.0]), "level"),
        lambda: tf.cumulative_change(np.array([100.0, 101.0]), "growth"),
        lambda: tf.peak_to_trough(np.array([]), "rate"),
        lambda: tf.deviation_from_median(1.0, 0.0, "level"),
    ],
)
def test_bad_input_is_refused(call):
    with pytest.raises(InputError):
        call()


levels = st.lists(st.floats(1.0, 1e4, allow_nan=False), min_size=2, max_size=16)


@settings(max_examples=60, deadline=None)
@given(levels)
def test_properties_against_a_loop(path):
    x = np.array(path)
    # independent recomputation with plain Python
    top, worst = path[0], 0.0
    for v in path:
        top = max(top, v)
        worst = min(worst, 100.0 * (v / top - 1.0))
    assert tf.peak_to_trough(x, "level") == pytest.approx(worst, abs=1e-9)
    assert tf.peak_to_trough(x, "level") <= 0.0
    assert tf.cumulative_change(x, "level") == pytest.approx(100.0 * (path[-1] / path[0] - 1.0))
    assert tf.deviation_from_median(x, x, "level") == pytest.approx(np.zeros_like(x))
    assert tf.peak(x) >= tf.end_level(x)


def test_vectorised_over_draws_equals_row_by_row():
    rng = np.random.default_rng(3)
    paths = 100.0 * np.exp(np.cumsum(rng.normal(0, 0.02, size=(5, 13)), axis=1))
    for f in (
        lambda p: tf.cumulative_change(p, "level"),
        lambda p: tf.peak_to_trough(p, "level"),
        tf.peak,
        tf.end_level,
    ):
        assert np.allclose(f(paths), [f(row) for row in paths])


# --------------------------------------------------------------------------- a macro run


@pytest.fixture(scope="module")
def macro_run(tmp_path_factory):
    from aieco.demo.macro import load_demo_observations
    from aieco.store import Store
    from tests.macro_helpers import run_macro_scenario

    store = Store(tmp_path_factory.mktemp("summary") / "ws")
    restrictions = [
        {"variable": "house_prices", "direction": -1, "priority": 1, "reference": "zero", "restriction_id": "rst_h"}
    ]
    run = [
        r
        for r in run_macro_scenario(
            store,
            "an_summary",
            "property_correction",
            restrictions,
            load_demo_observations(),
            "2024-12-31",
            seed=11,
            draws=400,
            horizon="2025-2027",
        )
        if r.model_id == "macro_var"
    ][0]
    yield store, run
    store.close()


def test_stored_summary_recomputes_from_the_stored_paths(macro_run):
    """Every horizon figure recomputes from the stored quarterly levels with its stated measure
    (issue #28): cumulative = compounded annual averages, deviations = levels at the same date,
    the baseline's peak read at the selected peak's quarter."""
    store, run = macro_run
    tables = store.get_tables(run.output_digest)
    sel, med, summary = tables["selected_quarterly"], tables["median_quarterly"], tables["horizon_summary"]
    annual = tables["selected_path"]
    window = [q for q in sel.index if "2024Q4" <= q <= "2027Q4"]
    assert window[0] == "2024Q4" and window[-1] == "2027Q4" and len(window) == 13
    for v, kind in (
        ("real_gdp", "level"),
        ("house_prices", "level"),
        ("equity_prices", "level"),
        ("unemployment", "rate"),
    ):
        s = [float(sel.loc[q, v]) for q in window]
        m = [float(med.loc[q, v]) for q in window]

        def avg(frame, year, v=v):
            return float(frame.loc[f"{year}Q1" : f"{year}Q4", v].astype(float).mean())

        if kind == "level":
            change = 100.0 * (avg(sel, 2027) / avg(sel, 2024) - 1.0)
            cum_med = 100.0 * (avg(med, 2027) / avg(med, 2024) - 1.0)
            dev = 100.0 * (s[-1] / m[-1] - 1.0)  # the same date, no re-basing
            # cumulative equals the compounded annual figures of the report
            compounded = 100.0 * (np.prod([1 + float(annual.loc[str(y), v]) / 100 for y in (2025, 2026, 2027)]) - 1)
            assert change == pytest.approx(compounded, abs=1e-9)
            assert summary.loc[v, "cumulative_change_median"] == pytest.approx(cum_med, abs=1e-9)
        else:
            change, dev = avg(sel, 2027) - avg(sel, 2024), s[-1] - m[-1]
        assert summary.loc[v, "cumulative_change"] == pytest.approx(change, abs=1e-9)
        assert summary.loc[v, "deviation_from_median"] == pytest.approx(dev, abs=1e-9)
        assert np.sign(summary.loc[v, "deviation_from_median"]) == np.sign(s[-1] - m[-1])
        at = int(np.argmax(s[1:])) + 1
        assert summary.loc[v, "peak"] == pytest.approx(s[at])
        assert summary.loc[v, "peak_median"] == pytest.approx(m[at])
        assert summary.loc[v, "end_level_median"] == pytest.approx(m[-1])
    fan = tables["fan_chart"]
    assert not math.isnan(med.loc["2027Q4", "house_prices"])
    assert fan.loc["house_prices:2027", "p05"] <= fan.loc["house_prices:2027", "p95"]


def test_scenario_figures_link_as_passing_claims(macro_run):
    from aieco.models import macro
    from aieco.reporting.claims import ClaimSpec, link_claims, register_output_tests

    store, run = macro_run
    spec = macro.specification()
    specs = [
        ClaimSpec(
            analysis_id="an_summary",
            risk="property_correction",
            variable=v,
            horizon="2025-2027",
            model_id=spec.model_id,
            required_diagnostics=list(spec.diagnostics_required),
            **macro.scenario_figure_fields(v, col, "2025-2027"),
        )
        for v, col in macro.SCENARIO_FIGURES
    ]
    tests = register_output_tests(store, specs)
    results = link_claims(store, run, tests)
    assert [r.detail for r in results if r.result != "pass"] == []
    summary = store.get_tables(run.output_digest)["horizon_summary"]
    by_claim = {r.claim_id: r for r in results}
    for s, (v, col) in zip(specs, macro.SCENARIO_FIGURES, strict=True):
        r = by_claim[s.claim_id]
        assert r.stored_value == pytest.approx(summary.loc[v, col])
        assert r.reported_value == round(summary.loc[v, col], 1)  # % and pp: one decimal
