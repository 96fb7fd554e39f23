"""Path enumeration keeps only the best k while it walks: the same paths as full enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from graph_corpus import rel

from aieco.benchmarks.graph import synthetic_relations
from aieco.graph.build import relation_graph
from aieco.graph.paths import enumerate_paths
from aieco.records import ChannelQuery
from aieco.scenario.channels import demo_channel_queries
from tests.paths_reference import enumerate_paths as enumerate_all


def _query(src: str, dst: str, **kw) -> ChannelQuery:
    return ChannelQuery.create(
        risk="test", source_var=src, source_movement="increase", target_var=dst, target_movement="decrease", **kw
    )


def _same(graph, query) -> list:
    new, old = enumerate_paths(graph, query), enumerate_all(graph, query)
    assert [p.model_dump() for p in new] == [p.model_dump() for p in old]  # ids, ranks, scores, evidence
    return new


@pytest.mark.parametrize("seed", range(6))
def test_random_graphs_with_ties_give_the_same_paths(seed):
    rng = np.random.default_rng(seed)
    nodes = [f"v{i}" for i in range(8)]
    rels = []
    for u, v in itertools.permutations(nodes, 2):
        for _ in range(int(rng.integers(0, 3))):  # parallel relations, both signs, coarse confidences: ties
            rels.append(
                rel(
                    u,
                    v,
                    str(rng.choice(["+", "-", "ambiguous"])),
                    float(rng.choice([0.5, 0.6, 0.7])),
                    f"d{int(rng.integers(0, 5))}",
                )
            )
    graph = relation_graph(rels)
    for top_k, max_len in ((1, 3), (5, 4), (12, 5)):
        assert _same(graph, _query("v0", "v7", top_k=top_k, max_len=max_len))
    _same(graph, _query("v2", "v2", feedback_loop=True, max_len=4))
    _same(graph, _query("v2", "v2", max_len=4))


def test_benchmark_queries_on_2000_relations_give_the_same_paths():
    graph = relation_graph(synthetic_relations(2_000, 300))
    queries = demo_channel_queries("trade_fragmentation") + demo_channel_queries("market_illiquidity")[:1]
    for q in queries[:5]:
        assert _same(graph, q)
