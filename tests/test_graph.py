"""The relation graph and the as-of edge set A(t)."""

from __future__ import annotations

from datetime import date

from graph_corpus import rel

from aieco.graph.build import as_of_graph, as_of_relations, load_relations, relation_graph

T = date(2024, 12, 31)


def test_a_of_t_keeps_dated_eligible_relations_only():
    keep = rel("tariffs", "trade_volumes", "-", published=date(2024, 12, 31))
    late = rel("tariffs", "trade_volumes", "-", source="late", published=date(2025, 1, 1))
    undated = rel("tariffs", "trade_volumes", "-", source="undated", published=None)
    dev = rel("tariffs", "trade_volumes", "-", source="dev", role="development")
    rejected = rel("tariffs", "real_gdp", "-", decision="rejected")
    other_scope = rel("tariffs", "real_gdp", "-", source="us", jurisdiction="US")
    g1 = rel("tariffs", "real_gdp", "-", source="g1", condition="G1")
    allr = [keep, late, undated, dev, rejected, other_scope, g1]

    def ids(rs):
        return {r.relation_id for r in rs}

    assert ids(as_of_relations(allr, T, scope={"EA"}, condition="G0")) == ids([keep])
    assert ids(as_of_relations(allr, T, roles=("generation", "development"), condition="G0")) == ids(
        [keep, dev, other_scope]
    )
    # No cutoff: dates are not checked, but role and review still are.
    no_cutoff = ids(as_of_relations(allr, None))
    assert late.relation_id in no_cutoff and rejected.relation_id not in no_cutoff


def test_multidigraph_keeps_every_relation_as_its_own_edge():
    a = rel("tariffs", "trade_volumes", "-", source="a")
    b = rel("tariffs", "trade_volumes", "+", source="b")
    g = relation_graph([a, b])
    assert g.number_of_edges("tariffs", "trade_volumes") == 2
    assert set(g["tariffs"]["trade_volumes"]) == {a.relation_id, b.relation_id}


def test_as_of_graph_from_store(store):
    store.put_many(
        [
            rel("tariffs", "trade_volumes", "-"),
            rel("x_unused", "real_gdp", "+", source="s2", published=date(2025, 2, 1)),
        ]
    )
    assert len(load_relations(store)) == 2
    g = as_of_graph(store, T)
    assert list(g.edges()) == [("tariffs", "trade_volumes")]
