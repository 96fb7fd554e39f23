"""Measures against hand-made benchmark paths (appendix "Evaluation Measures")."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aieco.evaluation.benchmark import validate_benchmark
from aieco.evaluation.measures import (
    ChannelPrediction,
    benchmark_match_fraction,
    candidate_pair_coverage,
    channel_score,
    endpoint_path_available,
    lcs_length,
    ordered_scores,
    relation_coverage,
    relation_overlap,
    score_benchmark,
)

A = ("a", "b", "+")
B = ("b", "c", "-")
C = ("c", "d", "+")
X = ("a", "x", "+")
B_OTHER_SIGN = ("b", "c", "+")


def test_lcs_hand_examples():
    assert lcs_length([A, B, C], [A, X, C]) == 2
    assert lcs_length([A, B, C], [C, B, A]) == 1
    assert lcs_length([A, B, C], []) == 0
    assert lcs_length([A, B, C], [A, B, C]) == 3


def test_ordered_scores_divide_lcs_by_lengths():
    # LCS([A,B,C],[B,C]) = 2: precision 2/2, recall 2/3 (Eq. orderedrecall).
    assert ordered_scores([A, B, C], [B, C]) == (1.0, pytest.approx(2 / 3))
    assert ordered_scores([A, B, C], [A, X, C]) == (pytest.approx(2 / 3), pytest.approx(2 / 3))


def test_absent_prediction_scores_zero():
    assert ordered_scores([A, B], None) == (0.0, 0.0)
    assert ordered_scores([A, B], []) == (0.0, 0.0)
    assert relation_overlap([A, B], None) == (0.0, 0.0)
    assert channel_score([[A, B]], None).exact == 0.0


def test_order_matters_for_lcs_but_not_for_multiset_overlap():
    assert relation_overlap([A, B, C], [C, B, A]) == (1.0, 1.0)
    assert ordered_scores([A, B, C], [C, B, A]) == (pytest.approx(1 / 3), pytest.approx(1 / 3))


def test_sign_is_part_of_the_relation():
    assert ordered_scores([A, B], [A, B_OTHER_SIGN]) == (0.5, 0.5)
    assert relation_coverage({A, B}, {A, B_OTHER_SIGN}) == 0.5


def test_channel_score_is_best_over_variants_and_exact_needs_equality():
    s = channel_score([[A, B, C], [A, X]], [A, X])
    assert s.exact == 1.0 and s.ordered_recall == 1.0 and s.ordered_precision == 1.0
    s = channel_score([[A, B, C]], [A, B, C, X])
    assert s.exact == 0.0 and s.ordered_recall == 1.0 and s.ordered_precision == 0.75


def test_coverage_and_match_fraction():
    bench = {A, B, C}
    graph = {A, C, X, ("q", "r", "+")}
    assert relation_coverage(bench, graph) == pytest.approx(2 / 3)
    # Matching distinct relations / distinct extracted relations: 2 / 4.
    assert benchmark_match_fraction(graph, bench) == 0.5
    assert benchmark_match_fraction(set(), bench) == 0.0


def test_candidate_pair_coverage_needs_both_variables_in_one_passage():
    bench = {A, B, C}
    passages = [{"a", "b", "z"}, {"c"}, {"d"}, {"b", "q"}]
    # a&b together once; b&c never together; c&d never together.
    assert candidate_pair_coverage(bench, passages) == pytest.approx(1 / 3)
    assert candidate_pair_coverage(bench, passages + [{"c", "d"}]) == pytest.approx(2 / 3)
    assert candidate_pair_coverage(bench, []) == 0.0


def test_endpoint_availability_respects_max_length():
    graph = {A, B, C}
    assert endpoint_path_available(graph, "a", "d", 3)
    assert not endpoint_path_available(graph, "a", "d", 2)
    assert not endpoint_path_available(graph, "d", "a", 5)
    assert endpoint_path_available(graph | {("d", "a", "-")}, "a", "a", 4)  # terminal return


@given(st.lists(st.sampled_from([A, B, C, X]), max_size=6), st.lists(st.sampled_from([A, B, C, X]), max_size=6))
def test_lcs_bounded_by_multiset_overlap(g, p):
    common = sum(min(g.count(k), p.count(k)) for k in set(g))
    assert lcs_length(g, p) <= common
    assert lcs_length(g, p) == lcs_length(p, g)


SMALL = {
    "benchmark": {"name": "small"},
    "relation": [
        {"id": "r1", "src": "a", "dst": "b", "sign": "+", "location": "p1"},
        {"id": "r2", "src": "b", "dst": "c", "sign": "-", "location": "p1"},
        {"id": "r3", "src": "c", "dst": "d", "sign": "+", "location": "p2"},
        {"id": "r4", "src": "e", "dst": "f", "sign": "+", "location": "p3"},
    ],
    "channel": [
        {"risk": "r", "id": "c1", "source": "a", "target": "c", "variants": [["r1", "r2"]]},
        {"risk": "r", "id": "c2", "source": "a", "target": "d", "variants": [["r1", "r2", "r3"]]},
        {"risk": "s", "id": "c3", "source": "e", "target": "f", "variants": [["r4"]]},
    ],
}


def test_score_benchmark_tables_by_risk():
    bench = validate_benchmark(SMALL)
    graph = {A, B, X}
    preds = {
        "c1": ChannelPrediction(all_paths=[[A, B], [X]], top_paths=[[X], [A, B]], first_ranked=[X], selected=[A, B]),
        "c2": ChannelPrediction(all_paths=[[A, B]], top_paths=[[A, B]], first_ranked=[A, B], selected=[A, B]),
    }
    t = score_benchmark(bench, graph, preds, passage_variables=[{"a", "b"}], max_len=5)
    c = t.channels
    assert c.loc["c1", "exact_selected_path_recovery"] == 1.0
    assert c.loc["c1", "first_ranked_ordered_recall"] == 0.0
    assert c.loc["c2", "selected_ordered_recall"] == pytest.approx(2 / 3)
    assert c.loc["c2", "endpoint_path_availability"] == 0.0
    assert c.loc["c3", "selected_ordered_recall"] == 0.0  # nothing retrieved
    r = t.risks
    assert r.loc["r", "relation_coverage"] == pytest.approx(2 / 3)
    assert r.loc["r", "benchmark_match_fraction"] == pytest.approx(2 / 3)
    assert r.loc["r", "candidate_pair_coverage"] == pytest.approx(1 / 3)
    assert r.loc["r", "complete_sequence_presence"] == 0.5
    assert r.loc["s", "relation_coverage"] == 0.0
    assert r.loc["mean", "relation_coverage"] == pytest.approx(1 / 3)
    assert math.isclose(t.mean["relation_coverage"], 1 / 3)


def test_score_benchmark_without_passages_reports_nan_coverage():
    t = score_benchmark(validate_benchmark(SMALL), set(), {}, passage_variables=None)
    assert t.risks["candidate_pair_coverage"].isna().all()
    assert (t.risks["relation_coverage"] == 0).all()
