"""Numerical definitions: hand-computed examples, bad input and round-trip properties."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from aieco.errors import InputError
from aieco.models import transforms as tf


def test_log_changes_zero_contraction_increase():
    # 100 → 100 (zero), 100 → 90 (−10 %), 90 → 99 (+10 %)
    got = tf.log_changes(np.array([100.0, 100.0, 90.0, 99.0]))
    assert got == pytest.approx([0.0, -10.536051565782628, 9.531017980432518], abs=1e-12)


def test_percent_change_from_summed_log_changes_is_not_the_sum():
    # −10 % then +10 %: the ordinary change is exactly −1 %, the summed log change is not
    changes = np.array([100 * math.log(0.9), 100 * math.log(1.1)])
    assert tf.percent_change_from_log_changes(changes) == pytest.approx(-1.0, abs=1e-12)
    assert changes.sum() == pytest.approx(-1.0050335853501, abs=1e-10)
    assert tf.percent_change_from_log_changes(np.zeros(4)) == 0.0
    # a large contraction: halving over two quarters
    assert tf.percent_change_from_log_changes(np.array([100 * math.log(0.5), 0.0])) == pytest.approx(-50.0)


def test_levels_from_log_changes():
    got = tf.levels_from_log_changes(200.0, np.array([0.0, 100 * math.log(0.5), 100 * math.log(3)]))
    assert got == pytest.approx([200.0, 100.0, 300.0])


@pytest.mark.parametrize(
    "previous, current, expected",
    [
        ([100, 100, 100, 100], [100, 100, 100, 100], 0.0),  # zero change
        ([100, 100, 100, 100], [101, 102, 103, 104], 2.5),  # 410 / 400 − 1
        ([100, 100, 100, 100], [50, 50, 50, 50], -50.0),  # large contraction
        ([80, 90, 110, 120], [120, 110, 90, 80], 0.0),  # same sum, different endpoints
    ],
)
def test_annual_growth_from_four_quarter_sums(previous, current, expected):
    assert tf.annual_growth(np.array(previous + current, float)) == pytest.approx([expected])


def test_annual_growth_differs_from_endpoint_change():
    levels = np.array([80, 90, 110, 120, 120, 110, 90, 80], float)
    assert tf.annual_growth(levels)[0] == pytest.approx(0.0)
    assert 100 * (levels[7] / levels[3] - 1) == pytest.approx(-33.333333333)


def test_half_year_growth_and_half_year_inflation():
    assert tf.half_year_growth(np.array([100, 100, 90, 90.0])) == pytest.approx([-10.0])
    # H1 2023 sum 200, H2 2023 210, H1 2024 220, H2 2024 231 → vs same half-year: 10 %, 10 %
    got = tf.half_year_yoy_growth(np.array([100, 100, 105, 105, 110, 110, 115.5, 115.5]))
    assert got == pytest.approx([10.0, 10.0])


def test_period_average_of_rates():
    got = tf.period_average(np.array([[6.0, 6.5, 7.0, 7.5, 3.0, 3.0, 3.0, 3.0]]), 4)
    assert got.shape == (1, 2) and got[0] == pytest.approx([6.75, 3.0])


def test_yoy_log_change_and_index_reconstruction():
    index = np.array([100.0, 101.0, 102.0, 103.0, 110.0, 101.0])
    assert tf.yoy_log_change(index) == pytest.approx([100 * math.log(1.1), 0.0])
    rebuilt = tf.index_from_yoy_log_change(index[:4], np.array([100 * math.log(1.1), 0.0, -100 * math.log(2)]))
    assert rebuilt == pytest.approx([110.0, 101.0, 51.0])


def test_annual_inflation_from_average_index_levels():
    # 2023 average 100, 2024 average 103 → 3 %; not the mean of y/y log changes
    index = np.array([99.0, 99.5, 100.5, 101.0, 101.0, 102.0, 104.0, 105.0])
    assert tf.annual_growth(index) == pytest.approx([3.0])


def test_average_level_targets():
    assert tf.average_level_targets(100.0, np.array([2.0, -50.0, 0.0])) == pytest.approx([102.0, 51.0, 51.0])


@pytest.mark.parametrize(
    "g",
    [1.0, 1.1, 0.5],  # zero change, increase, large contraction
)
def test_within_year_factor_recovers_hand_computed_root(g):
    target = 100.0 * (g + g**2 + g**3 + g**4) / 4  # e.g. g = 1.1 → A = 127.6275
    assert tf.within_year_factor(100.0, target) == pytest.approx(g, rel=1e-12)


def test_within_year_factor_hand_numbers():
    assert tf.within_year_factor(100.0, 127.6275) == pytest.approx(1.1, rel=1e-12)
    assert tf.within_year_factor(100.0, 23.4375) == pytest.approx(0.5, rel=1e-12)


def test_disaggregate_annual_average_reproduces_targets():
    path = tf.disaggregate_annual_average(100.0, np.array([127.6275, 127.6275 * 1.4641]))
    assert path[:4] == pytest.approx([110.0, 121.0, 133.1, 146.41])
    assert path.reshape(2, 4).mean(axis=1) == pytest.approx([127.6275, 127.6275 * 1.4641])
    assert path[4:] == pytest.approx(146.41 * 1.1 ** np.arange(1, 5))


def test_end_of_year_factor_and_path():
    assert tf.end_of_year_factor(100.0, 200.0) == pytest.approx(1.189207115002721)
    assert tf.end_of_year_factor(100.0, 100.0) == 1.0
    path = tf.disaggregate_end_of_year(100.0, np.array([200.0, 12.5]))
    assert path[3] == pytest.approx(200.0) and path[7] == pytest.approx(12.5)
    assert path[4] == pytest.approx(100.0)  # 200 · (1/16)^(1/4) = 200 / 2


def test_constant_within_year():
    assert tf.constant_within_year(np.array([6.5, 7.0])).tolist() == [6.5] * 4 + [7.0] * 4


@pytest.mark.parametrize(
    "call",
    [
        lambda: tf.log_changes(np.array([100.0, 0.0, 90.0])),
        lambda: tf.log_changes(np.array([100.0, -5.0])),
        lambda: tf.annual_growth(np.array([1.0, 1, 1, 1, 1, 1, 1, np.nan])),
        lambda: tf.yoy_log_change(np.array([100.0, 100, 100, 0, 100])),
        lambda: tf.within_year_factor(0.0, 100.0),
        lambda: tf.within_year_factor(100.0, -1.0),
        lambda: tf.end_of_year_factor(100.0, 0.0),
        lambda: tf.average_level_targets(0.0, np.array([1.0])),
        lambda: tf.annual_growth(np.ones(6)),
        lambda: tf.period_average(np.ones(7), 4),
    ],
)
def test_non_positive_or_malformed_input_is_refused(call):
    with pytest.raises(InputError):
        call()


positive_levels = arrays(np.float64, st.integers(2, 30), elements=st.floats(0.01, 1e6))


@settings(max_examples=60, deadline=None)
@given(positive_levels)
def test_levels_log_changes_levels_round_trip(levels):
    rebuilt = tf.levels_from_log_changes(levels[0], tf.log_changes(levels))
    assert rebuilt == pytest.approx(levels[1:], rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.integers(5, 30), elements=st.floats(0.01, 1e6)))
def test_index_yoy_index_round_trip(index):
    rebuilt = tf.index_from_yoy_log_change(index[:4], tf.yoy_log_change(index))
    assert rebuilt == pytest.approx(index[4:], rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.1, 1e4), arrays(np.float64, 3, elements=st.floats(0.05, 1e4)))
def test_disaggregation_reproduces_any_positive_annual_average(prev_q4, targets):
    path = tf.disaggregate_annual_average(prev_q4, targets)
    assert path.reshape(3, 4).mean(axis=1) == pytest.approx(targets, rel=1e-9)
    assert np.all(path > 0)
