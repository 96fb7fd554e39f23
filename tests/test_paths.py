"""Path enumeration, grouping, the score S(C) and sign composition."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from graph_corpus import rel

from aieco.graph.build import relation_graph
from aieco.graph.paths import channel_score, compose_sign, enumerate_paths
from aieco.records import ChannelQuery, Sign


def query(src: str, dst: str, **kw) -> ChannelQuery:
    return ChannelQuery.create(
        risk="r", source_var=src, source_movement="increase", target_var=dst, target_movement="decrease", **kw
    )


@pytest.mark.parametrize(
    "signs, expected",
    [
        (["+"], "+"),
        (["-"], "-"),
        (["+", "+"], "+"),
        (["+", "-"], "-"),
        (["-", "+"], "-"),
        (["-", "-"], "+"),
        (["-", "-", "-"], "-"),
        (["-", "+", "-", "+", "-"], "-"),
        (["-", "-", "+", "+"], "+"),
    ],
)
def test_composition_table(signs, expected):
    assert compose_sign(signs) == (Sign(expected), "")


@pytest.mark.parametrize("bad", ["non-monotone", "ambiguous", "absent"])
def test_non_monotone_steps_are_not_composable(bad):
    composed, reason = compose_sign(["+", bad, "-"])
    assert composed is None and f"relation 2 has sign {bad}" in reason


def test_score_formula_by_hand():
    # Eq. (channelscore): mean(0.8, 0.6, 0.7) = 0.7; + 0.05 * 2 docs = 0.1; - 0.03 * (3 - 1) = 0.06.
    assert channel_score([0.8, 0.6, 0.7], 2) == pytest.approx(0.74)
    assert channel_score([0.9], 1) == pytest.approx(0.95)


def test_enumeration_ranks_groups_and_scores():
    rels = [
        rel("tariffs", "trade_volumes", "-", 0.8, "d1"),
        rel("tariffs", "trade_volumes", "-", 0.6, "d2"),
        rel("trade_volumes", "real_gdp", "+", 0.7, "d1"),
        rel("trade_volumes", "real_gdp", "-", 0.9, "d3"),  # another sign pattern: a distinct path
        rel("tariffs", "real_gdp", "-", 0.5, "d4"),
    ]
    paths = enumerate_paths(relation_graph(rels), query("tariffs", "real_gdp"), analysis_id="a")
    got = [(p.variables, [s.value for s in p.signs], round(p.score, 6), p.n_docs, p.rank) for p in paths]
    # (-,-): mean(0.8, 0.9) + 0.05*3 (d1, d2, d3) - 0.03 = 0.97
    # (-,+): mean(0.8, 0.7) + 0.05*2 (d1, d2) - 0.03 = 0.82
    # direct (-): 0.5 + 0.05 = 0.55
    assert got == [
        (["tariffs", "trade_volumes", "real_gdp"], ["-", "-"], 0.97, 3, 1),
        (["tariffs", "trade_volumes", "real_gdp"], ["-", "+"], 0.82, 2, 2),
        (["tariffs", "real_gdp"], ["-"], 0.55, 1, 3),
    ]
    grouped = paths[1]
    assert len(grouped.evidence[0]) == 2  # both tariffs → trade relations pooled in one step
    assert grouped.relation_ids[0] == rels[0].relation_id  # the most confident one represents the step
    assert grouped.composed_sign is Sign.negative and paths[0].composed_sign is Sign.positive


def test_top_k_and_max_len():
    rels = [rel("a_var", f"m{i}", "+", 0.5 + i / 100, f"d{i}") for i in range(8)]
    rels += [rel(f"m{i}", "z_var", "+", 0.5, f"e{i}") for i in range(8)]
    g = relation_graph(rels)
    paths = enumerate_paths(g, query("a_var", "z_var"))
    assert len(paths) == 5 and [p.rank for p in paths] == [1, 2, 3, 4, 5]
    assert [p.variables[1] for p in paths] == ["m7", "m6", "m5", "m4", "m3"]
    assert enumerate_paths(g, query("a_var", "z_var", max_len=1)) == []


def test_no_repeated_variables_and_feedback_loop_rule():
    rels = [
        rel("house_prices", "credit_losses", "-"),
        rel("credit_losses", "lending_standards", "+"),
        rel("lending_standards", "house_prices", "-"),
        rel("lending_standards", "credit_losses", "+"),
        rel("credit_losses", "real_gdp", "-"),
    ]
    g = relation_graph(rels)
    # A loop back to the start is admissible only when the query declares a feedback loop.
    assert enumerate_paths(g, query("house_prices", "house_prices")) == []
    loops = enumerate_paths(g, query("house_prices", "house_prices", feedback_loop=True))
    assert [p.variables for p in loops] == [["house_prices", "credit_losses", "lending_standards", "house_prices"]]
    # credit_losses → lending_standards → credit_losses repeats an intermediate variable: never a path.
    for p in enumerate_paths(g, query("house_prices", "real_gdp"), settings=None):
        assert len(set(p.variables)) == len(p.variables)


def test_enumeration_matches_networkx_simple_paths():
    rng = np.random.default_rng(7)
    nodes = [f"v{i}" for i in range(9)]
    rels = []
    for k, (u, v) in enumerate(itertools.permutations(nodes, 2)):
        if rng.random() < 0.45:
            rels.append(rel(u, v, "+", float(rng.uniform(0.3, 0.9)), f"d{k % 4}"))
    g = relation_graph(rels)
    q = query("v0", "v8", top_k=10_000, max_len=4)
    ours = {tuple(p.variables) for p in enumerate_paths(g, q)}
    oracle = {tuple(p) for p in nx.all_simple_paths(nx.DiGraph(g), "v0", "v8", cutoff=4)}
    assert ours == oracle and len(ours) > 5


def test_unknown_endpoint_gives_no_path():
    g = relation_graph([rel("tariffs", "trade_volumes", "-")])
    assert enumerate_paths(g, query("tariffs", "cet1_ratio")) == []


def test_the_graph_search_enumerates_in_a_of_t():
    """As the graph_search stage does it: A(t) from the request's AsOf, then enumerate_paths per query
    (the stage's per-channel records and stops: tests/test_analysis_outputs.py)."""
    from datetime import date

    from aieco.asof import AsOf
    from aieco.graph.build import as_of_graph

    relations = [
        rel("tariffs", "real_gdp", "-", source="early", published=date(2024, 5, 1)),
        rel("tariffs", "trade_volumes", "-", source="late", published=date(2025, 3, 1)),
        rel("trade_volumes", "real_gdp", "+", source="late", published=date(2025, 3, 1)),
        rel("tariffs", "real_gdp", "+", source="us", jurisdiction="US"),
    ]
    q = query("tariffs", "real_gdp")
    graph = as_of_graph(relations, AsOf(cutoff=date(2024, 12, 31), roles=["generation"], scope=["ea"]), condition="G0")
    found = enumerate_paths(graph, q, analysis_id="a")
    assert [p.variables for p in found] == [["tariffs", "real_gdp"]] and found[0].signs == [Sign.negative]
    assert enumerate_paths(as_of_graph(relations, None, condition="G0"), query("tariffs", "cet1_ratio")) == []


def test_non_composable_path_records_its_offending_sign():
    g = relation_graph([rel("tariffs", "trade_volumes", "-"), rel("trade_volumes", "real_gdp", "absent")])
    [p] = enumerate_paths(g, query("tariffs", "real_gdp"))
    assert p.composed_sign is Sign.absent
