"""Source contribution on a three-document toy graph, computed by hand."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aieco.evaluation.benchmark import validate_benchmark
from aieco.evaluation.contribution import (
    all_orderings,
    average_marginal_contributions,
    contribution_problem,
    leave_one_out,
    random_orderings,
    source_contribution,
)

AB, BC, AD = ("a", "b", "+"), ("b", "c", "+"), ("a", "d", "+")
NOISE = ("q", "r", "-")

TOY = validate_benchmark(
    {
        "benchmark": {"name": "toy"},
        "relation": [
            {"id": "ab", "src": "a", "dst": "b", "sign": "+", "location": "p1"},
            {"id": "bc", "src": "b", "dst": "c", "sign": "+", "location": "p1"},
            {"id": "ad", "src": "a", "dst": "d", "sign": "+", "location": "p2"},
        ],
        "channel": [
            {"risk": "r", "id": "c1", "source": "a", "target": "c", "variants": [["ab", "bc"]]},
            {"risk": "r", "id": "c2", "source": "a", "target": "d", "variants": [["ad"]]},
        ],
    }
)
# D1 alone states a->d; a->b is also in D3, b->c in D2 and D3 (substitutable sources).
DOCS = {"D1": {AB, AD, NOISE}, "D2": {BC}, "D3": {AB, BC}}
COLS = ["r:endpoint_reachability", "r:relation_coverage", "r:complete_path_recovery"]


def test_leave_one_out_by_hand():
    p = contribution_problem(TOY, DOCS)
    full, delta = leave_one_out(p)
    assert p.columns[:3] == COLS
    assert full[:3].tolist() == [1.0, 1.0, 1.0]
    # Without D1: c1 reachable, c2 not (1/2); coverage {ab, bc} = 2/3; c1 complete (1/2).
    assert delta[0, :3] == pytest.approx([0.5, 1 / 3, 0.5])
    # D2 and D3 are each replaceable by the others: removing one changes nothing.
    assert delta[1, :3].tolist() == [0.0, 0.0, 0.0]
    assert delta[2, :3].tolist() == [0.0, 0.0, 0.0]


# Over the six orderings (by hand):
# coverage: ad always D1 (1/3); ab goes to whichever of D1, D3 comes first (1/6 each);
#   bc to whichever of D2, D3 comes first (1/6 each) -> D1 1/2, D2 1/6, D3 1/3.
# reachability = complete recovery: c2 (weight 1/2) always D1; c1 (weight 1/2) is completed by
#   D2 in (1,2,3), by D1 in (2,1,3), by D3 in the other four -> D1 1/2+1/12, D2 1/12, D3 1/3.
EXACT = np.array([[7 / 12, 1 / 2, 7 / 12], [1 / 12, 1 / 6, 1 / 12], [1 / 3, 1 / 3, 1 / 3]])


def test_exact_average_marginal_contributions_by_hand():
    p = contribution_problem(TOY, DOCS)
    got = average_marginal_contributions(p, all_orderings(3), workers=1)
    assert got[:, :3] == pytest.approx(EXACT)
    # The one-risk mean columns equal the risk's columns.
    assert got[:, 3:] == pytest.approx(got[:, :3])


def test_random_orderings_approach_the_exact_values():
    r = source_contribution(TOY, DOCS, n_orderings=20_000, seed=7, workers=1)
    assert r.documents == ["D1", "D2", "D3"]
    assert r.marginal[:, :3] == pytest.approx(EXACT, abs=0.01)


def test_reproducible_by_seed_and_independent_of_workers():
    a = source_contribution(TOY, DOCS, n_orderings=6_000, seed=11, workers=1)
    b = source_contribution(TOY, DOCS, n_orderings=6_000, seed=11, workers=2)
    c = source_contribution(TOY, DOCS, n_orderings=6_000, seed=12, workers=1)
    assert np.array_equal(a.marginal, b.marginal)
    assert not np.array_equal(a.marginal, c.marginal)
    assert np.array_equal(random_orderings(3, 50, 5), random_orderings(3, 50, 5))


def test_table_names_document_risk_and_measure():
    t = source_contribution(TOY, DOCS, n_orderings=100, seed=1, workers=1).table()
    assert set(t["measure"]) == {"endpoint_reachability", "relation_coverage", "complete_path_recovery"}
    row = t[(t.document == "D1") & (t.risk == "r") & (t.measure == "relation_coverage")].iloc[0]
    assert row.leave_one_out == pytest.approx(1 / 3)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sets(st.sampled_from([AB, BC, AD, NOISE])), min_size=1, max_size=5), st.integers(0, 99))
def test_marginal_contributions_add_up_to_the_full_graph(doc_sets, seed):
    docs = {f"d{i}": s for i, s in enumerate(doc_sets)}
    p = contribution_problem(TOY, docs)
    full, _ = leave_one_out(p)
    empty = np.array(p.measure(0))
    got = average_marginal_contributions(p, random_orderings(len(docs), 40, seed), workers=1)
    # Every ordering telescopes from the empty graph to the full one.
    assert got.sum(axis=0) == pytest.approx(full - empty)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_earliest_step_method_equals_memoised_prefix_method(seed):
    from aieco.benchmarks.evaluation import synthetic_documents
    from aieco.evaluation.benchmark import demo_benchmark_path, load_benchmark

    p = contribution_problem(load_benchmark(demo_benchmark_path()), synthetic_documents(9, seed), max_len=3)
    orderings = random_orderings(9, 300, seed)
    fast = average_marginal_contributions(p, orderings, workers=1, method="earliest")
    ref = average_marginal_contributions(p, orderings, workers=1, method="prefix")
    assert fast == pytest.approx(ref, abs=1e-12)
    assert np.abs(ref).sum() > 0


def test_feedback_loop_reachability_matches_between_methods():
    loop = validate_benchmark(
        {
            "benchmark": {"name": "loop"},
            "relation": [
                {"id": "ab", "src": "a", "dst": "b", "sign": "+", "location": "p"},
                {"id": "ba", "src": "b", "dst": "a", "sign": "+", "location": "p"},
            ],
            "channel": [
                {
                    "risk": "r",
                    "id": "c",
                    "source": "a",
                    "target": "a",
                    "feedback_loop": True,
                    "variants": [["ab", "ba"]],
                }
            ],
        }
    )
    docs = {"D1": {("a", "b", "+")}, "D2": {("b", "a", "+")}, "D3": {("a", "c", "-"), ("c", "a", "-")}}
    p = contribution_problem(loop, docs)
    exact = average_marginal_contributions(p, all_orderings(3), workers=1)
    assert exact == pytest.approx(average_marginal_contributions(p, all_orderings(3), workers=1, method="prefix"))
    # a returns to a once {D1, D2} or D3 is present. Step that closes the loop, by hand:
    # (D1,D2,D3): D2; (D1,D3,D2): D3; (D2,D1,D3): D1; (D2,D3,D1): D3; (D3,D1,D2), (D3,D2,D1): D3
    # -> D1 1/6, D2 1/6, D3 4/6.
    assert exact[:, 0] == pytest.approx([1 / 6, 1 / 6, 4 / 6])
