"""Passage-constrained relation graph and the Hybrid union (hand-made graphs and paths)."""

from __future__ import annotations

from datetime import date

from aieco.graph.build import relation_graph
from aieco.graph.constrained import hybrid_union, passage_constrained, required_direction, risk_query_text
from aieco.graph.paths import enumerate_paths
from aieco.records import ChannelQuery, Movement, Relation
from aieco.vocab import load_vocabulary


def _rel(src, dst, sign, loc, conf=0.9):
    return Relation.create(
        src_var=src,
        dst_var=dst,
        sign=sign,
        quote=f"{src} {dst}",
        location_id=loc,
        source_id=f"src_{loc}",
        publication_date=date(2024, 1, 1),
        role="generation",
        confidence=conf,
    )


def _query():
    return ChannelQuery.create(
        risk="r",
        source_var="tariffs",
        source_movement=Movement.increase,
        target_var="real_gdp",
        target_movement=Movement.decrease,
        max_len=5,
        top_k=5,
    )


# tariffs -(-)-> trade_volumes -(+)-> real_gdp from passages p1, p2; a direct tariffs -(+)-> real_gdp from p3
CHAIN = [_rel("tariffs", "trade_volumes", "-", "p1"), _rel("trade_volumes", "real_gdp", "+", "p2")]
DIRECT = _rel("tariffs", "real_gdp", "+", "p3", conf=0.99)


def test_passage_constrained_keeps_only_relations_of_the_retrieved_passages():
    g = relation_graph([*CHAIN, DIRECT])
    sub = passage_constrained(g, ["p1", "p2"])
    assert sorted(k for _, _, k in sub.edges(keys=True)) == sorted(r.relation_id for r in CHAIN)
    assert passage_constrained(g, ["p1"]).number_of_edges() == 1
    assert passage_constrained(g, []).number_of_edges() == 0
    paths = enumerate_paths(sub, _query(), retrieval_condition="document")
    assert [p.variables for p in paths] == [["tariffs", "trade_volumes", "real_gdp"]]
    assert paths[0].retrieval_condition == "document" and required_direction(paths) == "-"


def test_hybrid_stops_when_the_required_directions_conflict():
    full = enumerate_paths(relation_graph([*CHAIN, DIRECT]), _query())
    only_direct = enumerate_paths(relation_graph([DIRECT]), _query())
    doc = enumerate_paths(relation_graph(CHAIN), _query(), retrieval_condition="document")
    # graph evidence: the one-step '+' path ranks first (shorter, more confident); document: the '-' chain
    assert required_direction(full) == "+" and required_direction(doc) == "-"
    out = hybrid_union(doc, full, top_k=5)
    assert out.paths == [] and "conflict" in out.conflict and "'-'" in out.conflict and "'+'" in out.conflict
    assert "tariffs → real_gdp" in out.conflict
    assert hybrid_union(doc, only_direct, top_k=5).conflict is not None


def test_hybrid_union_without_conflict_dedups_reranks_and_marks_hybrid():
    doc = enumerate_paths(relation_graph(CHAIN), _query(), retrieval_condition="document")
    graph = enumerate_paths(relation_graph([*CHAIN, _rel("tariffs", "real_gdp", "-", "p4", conf=0.2)]), _query())
    out = hybrid_union(doc, graph, top_k=5)
    assert out.conflict is None
    assert sorted(len(p.variables) for p in out.paths) == [2, 3]  # the shared chain is kept once
    assert [p.rank for p in out.paths] == [1, 2]
    assert all(p.retrieval_condition == "hybrid" for p in out.paths)
    assert [p.score for p in out.paths] == sorted((p.score for p in out.paths), reverse=True)
    assert len(hybrid_union(doc, graph, top_k=1).paths) == 1
    # one representation empty: the other's direction stands
    assert hybrid_union([], graph, top_k=5).conflict is None


def test_risk_query_text_uses_labels_once():
    vocab = load_vocabulary()
    text = risk_query_text("trade fragmentation", "", ["tariffs", "real_gdp", "tariffs"], vocab)
    assert text.startswith("trade fragmentation ") and text.count(vocab.get("tariffs").label) == 1
