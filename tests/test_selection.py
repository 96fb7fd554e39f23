"""Selection: hand-computed severity, references, tie-break, stops, comparator, percentiles."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aieco.errors import InputError, StageStopped
from aieco.records import Restriction as RestrictionRecord
from aieco.scenario import selection as sel

VARS = ["real_gdp", "equity_prices", "house_prices", "inflation", "unemployment", "long_term_rate"]


def annual_with_means(gdp, unemp, inflation=None):
    """Annual paths (draws, 3, 6) whose three-year means are the given numbers."""
    n = len(gdp)
    annual = np.zeros((n, 3, 6))
    annual[:, :, 0] = np.asarray(gdp, float)[:, None] + np.array([-0.1, 0.0, 0.1])  # mean unchanged
    annual[:, :, 4] = np.asarray(unemp, float)[:, None]
    annual[:, :, 3] = 2.0 if inflation is None else np.asarray(inflation, float)[:, None]
    annual[:, :, 1] = np.arange(n)[:, None]
    annual[:, :, 2] = np.arange(n)[:, None]
    annual[:, :, 5] = 3.0
    return annual


RESTRICTIONS = [
    {"variable": "real_gdp", "direction": -1, "priority": 1, "reference": "zero"},
    {"variable": "unemployment", "direction": 1, "priority": 3, "reference": "last_observed"},
]


def test_severity_hand_computed():
    # GDP means 1, −1, 0, 2 → μ 0.5, σ √1.25; unemployment 8, 10, 9, 9 → μ 9, σ √0.5; weights 3 and 1
    annual = annual_with_means([1, -1, 0, 2], [8, 10, 9, 9])
    rs = [sel.Restriction.from_record(r) for r in RESTRICTIONS]
    scores = sel.severity_scores(sel.three_year_means(annual), VARS, rs)
    assert scores == pytest.approx([-0.688964, 1.359784, 0.335410, -1.006231], abs=1e-6)
    equal = sel.severity_scores(sel.three_year_means(annual), VARS, rs, "equal")
    assert equal[1] == pytest.approx((1.341641 + 1.414214) / 2, abs=1e-6)
    inverse = sel.severity_scores(sel.three_year_means(annual), VARS, rs, "inverse_priority")
    assert inverse[1] == pytest.approx((1.341641 + 1.414214 / 3) / (4 / 3), abs=1e-6)


def test_selection_among_admissible_paths_with_references():
    # reference for unemployment = last eligible annual observation 8.5; GDP reference 0
    annual = annual_with_means([1, -1, -0.5, -2], [8, 10, 9, 8.4])
    chosen = sel.select_for_risk("trade", annual, VARS, RESTRICTIONS, {"unemployment": 8.5})
    # draw 1 violates GDP, draw 4 unemployment; 2 and 3 satisfy both in every year (acceptance 0.5),
    # but draw 3's GDP (−0.5) is not below the median path (−0.75): only draw 2 is admissible
    assert chosen.simulation_id == 2
    assert chosen.acceptance_share == 0.5 and chosen.admissible == 1 and chosen.shared_with == ""
    assert chosen.references == {"real_gdp": 0.0, "unemployment": 8.5}
    assert set(chosen.sensitivity) == {"primary", "equal", "inverse_priority"}


def test_range_failure_excludes_a_path_but_not_the_acceptance_share():
    annual = annual_with_means([1, -1, -1.5, -2, 0.5], [8, 10, 9.5, 8.4, 8])
    chosen = sel.select_for_risk(
        "trade", annual, VARS, RESTRICTIONS, {"unemployment": 8.5}, range_ok=np.array([True, False, True, True, True])
    )
    assert chosen.simulation_id == 3 and chosen.acceptance_share == 0.4 and chosen.admissible == 1


def test_a_restriction_must_hold_in_every_year_the_evidence_times():
    annual = annual_with_means([-1, -1, 1, 1], [9, 9, 9, 9])
    annual[0, :, 0] = [-2.0, -2.0, 1.0]  # mean −1 but growth positive in the third year
    untimed = sel.select_for_risk("trade", annual, VARS, RESTRICTIONS[:1], {})
    assert untimed.simulation_id == 1 and untimed.acceptance_share == 0.5  # the mean alone: draw 1 is worst
    every = [dict(RESTRICTIONS[0], aggregation="every_year")]
    chosen = sel.select_for_risk("trade", annual, VARS, every, {})
    assert chosen.simulation_id == 2 and chosen.acceptance_share == 0.25
    # timed to the first two years only (evidence 'within two years'): draw 1 holds there
    timed = [dict(RESTRICTIONS[0], years=["2025", "2026"])]
    assert sel.select_for_risk("trade", annual, VARS, timed, {}, years=["2025", "2026", "2027"]).simulation_id == 1


@pytest.mark.parametrize(
    ("phrases", "expected"),
    [
        ([None, None], ()),
        (["on impact"], ("2025",)),
        (["in the short term", None], ("2025",)),
        (["within two years"], ("2025", "2026")),
        (["over the next three years"], ("2025", "2026", "2027")),
        (["in the medium term", "on impact"], ("2025", "2026", "2027")),
        (["within four quarters"], ("2025",)),
    ],
)
def test_evidence_years_from_relation_horizons(phrases, expected):
    assert sel.evidence_years(phrases, ["2025", "2026", "2027"]) == expected


def test_two_risks_with_different_restrictions_get_different_paths_or_say_why():
    annual = annual_with_means([1, -1, -0.9, -2, 0.5], [8, 10, 9.9, 8.4, 8])
    first = sel.select_for_risk("trade", annual, VARS, RESTRICTIONS, {"unemployment": 8.5})
    assert first.simulation_id == 2
    taken = {2: {"risk": "trade", "signature": sel.restriction_signature(RESTRICTIONS)}}
    other = sel.select_for_risk("energy", annual, VARS, RESTRICTIONS[:1], {}, taken=taken)
    assert other.simulation_id == 4 and other.shared_with == ""  # 2 is taken; 4 is next most severe
    # the same restriction set may select the same path, and the record says why
    same = sel.select_for_risk("housing", annual, VARS, RESTRICTIONS, {"unemployment": 8.5}, taken=taken)
    assert same.simulation_id == 2 and "same restrictions as trade" in same.shared_with
    # nothing else admissible: the path is shared and the record says so
    only = sel.select_for_risk(
        "energy", annual, VARS, RESTRICTIONS, {"unemployment": 8.5}, taken={2: {"risk": "trade", "signature": "other"}}
    )
    assert only.simulation_id == 2 and "already selected for trade" in only.shared_with


def test_exact_tie_goes_to_smallest_simulation_id():
    annual = annual_with_means([1, -2, 0, -2], [8, 10, 9, 10])  # draws 2 and 4 identical
    chosen = sel.select_for_risk("trade", annual, VARS, RESTRICTIONS, {"unemployment": 8.5})
    assert chosen.simulation_id == 2
    assert sel.argmax_smallest_id(np.array([1.0, 3.0, 3.0]), np.array([True, False, True])) == 3


def test_empty_admissible_set_stops_the_risk():
    annual = annual_with_means([1, 2, 3, 4], [8, 10, 9, 9])
    with pytest.raises(StageStopped, match="no simulated path satisfies"):
        sel.select_for_risk("trade", annual, VARS, RESTRICTIONS, {"unemployment": 8.5})


def test_no_restriction_stops():
    with pytest.raises(StageStopped, match="no restriction"):
        sel.select_for_risk("trade", annual_with_means([1, -1], [8, 9]), VARS, [], {})


def test_zero_dispersion_stops():
    annual = annual_with_means([-1, -1, -1], [8, 9, 10])
    rs = [sel.Restriction.from_record(RESTRICTIONS[0])]
    with pytest.raises(StageStopped, match="zero dispersion"):
        sel.severity_scores(sel.three_year_means(annual), VARS, rs)
    with pytest.raises(StageStopped, match="adverse to the median"):  # no path below an all-equal median
        sel.select_for_risk("trade", annual, VARS, RESTRICTIONS[:1], {})


def test_missing_reference_observation_stops():
    with pytest.raises(StageStopped, match="no eligible annual observation"):
        sel.select_for_risk("trade", annual_with_means([-1, -2], [8, 9]), VARS, RESTRICTIONS, {})


def test_restriction_from_record_and_bad_restrictions():
    rec = RestrictionRecord.create(
        analysis_id="a",
        risk="r",
        variable="house_prices",
        model_variable="house_prices",
        direction=-1,
        priority=2,
        supporting_relation_ids=["rel_1"],
        derivation="target",
    )
    r = sel.Restriction.from_record(rec)
    assert (r.variable, r.direction, r.priority, r.restriction_id) == ("house_prices", -1, 2, rec.restriction_id)
    assert (
        sel.Restriction.from_record(
            {"variable": "mortgage_rates", "model_variable": "long_term_rate", "direction": 1, "priority": 3}
        ).variable
        == "long_term_rate"
    )
    with pytest.raises(InputError):
        sel.Restriction.from_record({"variable": "real_gdp", "direction": 0, "priority": 1})
    with pytest.raises(InputError):
        sel.Restriction.from_record({"variable": "real_gdp", "direction": 1, "priority": None})
    with pytest.raises(InputError, match="not a model variable"):
        sel.select_for_risk(
            "r", annual_with_means([-1, -2], [8, 9]), VARS, [{"variable": "tariffs", "direction": 1, "priority": 1}], {}
        )


def test_unconditional_comparator_picks_most_severe_member_of_each_group():
    rng = np.random.default_rng(0)
    n = 300
    features = rng.normal(0, 0.3, size=(n, 2))
    centres = {0: (8.0, 0.0), 1: (0.0, 8.0), 2: (-6.0, 14.0)}  # scores 4, 4, 4 on average
    expected = []
    for g, (a, b) in centres.items():
        ids = np.arange(10) + 10 * g
        features[ids] = np.array([a, b]) + rng.normal(0, 0.2, size=(10, 2))
        score = features[ids].mean(axis=1)
        expected.append(int(ids[np.argmax(score)]) + 1)
    got = sel.unconditional_comparator(features, groups=3, tail_share=0.10, seed=1)
    assert sorted(got) == sorted(expected)
    scores = features.mean(axis=1)
    assert [scores[i - 1] for i in got] == sorted((scores[i - 1] for i in got), reverse=True)
    assert sel.unconditional_comparator(features, groups=3, tail_share=0.10, seed=1) == got


def test_unconditional_features_are_standardised_and_adverse_oriented():
    change = np.array([[-10.0], [0.0], [10.0]])
    peaks = np.array([[5.0], [5.0], [8.0]])
    z = sel.unconditional_features(change, peaks)
    assert z[:, 0] == pytest.approx([np.sqrt(1.5), 0.0, -np.sqrt(1.5)])  # a decline is adverse
    assert z[2, 1] > 0 and z[:, 1].mean() == pytest.approx(0.0)


def test_marginal_percentiles_hand_computed():
    annual = np.zeros((4, 1, 6))
    annual[:, 0, 0] = [1.0, -2.0, 0.0, 3.0]  # GDP: decline adverse
    annual[:, 0, 4] = [7.0, 9.0, 8.0, 10.0]  # unemployment: increase adverse
    pct = sel.marginal_percentiles(annual, VARS, simulation_id=2)
    assert pct[0, 0] == pytest.approx(1 - 0.25)  # F(−2) = 1/4 → percentile 0.75
    assert pct[0, 4] == pytest.approx(0.75)  # F(9) = 3/4


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.lists(
        st.tuples(st.sampled_from(VARS), st.sampled_from([1, -1]), st.sampled_from([1, 2, 3])), min_size=1, max_size=4
    ),
)
def test_selected_path_is_admissible_and_maximal(seed, specs):
    rng = np.random.default_rng(seed)
    annual = rng.normal(size=(300, 3, 6))
    restrictions = [{"variable": v, "direction": d, "priority": q} for v, d, q in specs]
    last = dict.fromkeys(sel.LAST_OBSERVED_REFERENCE, 0.0)
    rs = [sel.Restriction.from_record(r) for r in restrictions]
    means = sel.three_year_means(annual)
    accepted = sel.satisfied_every_year(annual, VARS, rs, sel.reference_values(rs, last))
    ok = accepted & sel.adverse_to_median(annual, VARS, rs)
    if not ok.any():
        with pytest.raises(StageStopped):
            sel.select_for_risk("r", annual, VARS, restrictions, last)
        return
    chosen = sel.select_for_risk("r", annual, VARS, restrictions, last)
    scores = sel.severity_scores(means, VARS, rs)
    assert ok[chosen.simulation_id - 1]
    assert scores[chosen.simulation_id - 1] == scores[ok].max()
    assert chosen.acceptance_share == accepted.mean()
