"""`evaluate` on a small workspace: records before scoring, stops, refusals, tables."""

from __future__ import annotations

from datetime import date

import pytest

from aieco.errors import IntegrityError, StageStopped
from aieco.evaluation.run import evaluate
from aieco.records import Derivation, EvaluationRecord, Path, Relation, Source, StageRecord, utc_now

CHAIN = [("tariffs", "trade_volumes", "-"), ("trade_volumes", "real_gdp", "+")]


def _source(store, name, published):
    src = Source.create(
        path=f"{name}.txt",
        sha256=name * 8,
        publisher="demo",
        title=name,
        publication_date=published,
        retrieved_at=utc_now(),
        role="generation",
        kind="text",
    )
    store.put(src)
    return src


def _relation(store, src, key, condition="G0"):
    rel = Relation.create(
        src_var=key[0],
        dst_var=key[1],
        sign=key[2],
        quote=f"{key}",
        location_id=f"loc_{src.title}",
        source_id=src.source_id,
        publication_date=src.publication_date,
        role="generation",
        confidence=0.9,
        graph_condition=condition,
    )
    store.put(rel)
    return rel


def _path(store, analysis, keys, rank, condition="G0"):
    p = Path.create(
        analysis_id=analysis,
        query_id="tf1",
        risk="trade_fragmentation",
        variables=[keys[0][0]] + [k[1] for k in keys],
        signs=[k[2] for k in keys],
        relation_ids=["r"] * len(keys),
        evidence=[["r"]] * len(keys),
        composed_sign="-",
        score=1.0,
        mean_confidence=0.9,
        n_docs=1,
        rank=rank,
        graph_condition=condition,
    )
    store.put(p)
    return p


@pytest.fixture
def workspace(store):
    d1, d2 = _source(store, "d1", date(2023, 5, 1)), _source(store, "d2", date(2024, 3, 1))
    late = _source(store, "late", date(2025, 2, 1))
    _relation(store, d1, CHAIN[0])
    _relation(store, d2, CHAIN[1])
    _relation(store, late, ("geopolitical_risk", "uncertainty", "+"))  # after the cutoff: not in the graph
    best = _path(store, "an_1", CHAIN, rank=1)
    _path(store, "an_1", [("tariffs", "real_gdp", "-")], rank=2)
    store.put(
        Derivation.create(
            analysis_id="an_1",
            risk="trade_fragmentation",
            assessed=[{"path_id": best.path_id, "outcome": "accepted"}],
            restriction_ids=[],
            status="accepted",
            registration_digest="x",
        )
    )
    now = utc_now()
    store.put(
        StageRecord.create(
            analysis_id="an_1", stage="paths", status="completed", input_digest="i", started_at=now, ended_at=now
        )
    )
    return store


def test_evaluate_registers_then_scores(workspace):
    res = evaluate(workspace, n_orderings=200, workers=1)
    recs = workspace.find(EvaluationRecord)
    assert {r.phase for r in recs} == {"registered", "result"}
    assert res.record.registration_id == res.registration.evaluation_id
    assert res.record.graph_digest == res.registration.graph_digest
    r = res.measures.risks
    # Graph holds b01, b02 of the trade risk's distinct relations b01-b08, b13, b14: 2 of 10.
    assert r.loc["trade_fragmentation", "relation_coverage"] == pytest.approx(2 / 10)
    assert res.measures.channels.loc["tf1", "exact_selected_path_recovery"] == 1.0
    assert res.measures.channels.loc["tf4", "selected_ordered_recall"] == 0.0
    # Every enumerated path of the graph search: tf1's one path is benchmark variant 1.
    assert res.measures.channels.loc["tf1", "all_paths_best_ordered_recall"] == 1.0
    assert res.measures.channels.loc["tf1", "first_ranked_ordered_recall"] == 1.0
    assert res.measures.channels.loc["tf4", "endpoint_path_availability"] == 0.0
    assert r.loc["market_illiquidity", "relation_coverage"] == 0.0
    assert res.contribution is not None and len(res.contribution.documents) == 2  # the late source is out
    tables = workspace.get_tables(res.record.result_digest)
    assert {"risks", "channels", "contribution", "agreement", "graph_conditions", "retrieval_conditions"} <= set(tables)
    assert res.agreement.n_repetitions == 1


def test_invalid_benchmark_is_recorded_as_a_stop(workspace, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[benchmark]\nname="b"\n'
        '[[relation]]\nid="r1"\nsrc="tariffs"\ndst="trade_volumes"\nsign="-"\nlocation="p"\n'
        '[[relation]]\nid="r2"\nsrc="real_gdp"\ndst="unemployment"\nsign="-"\nlocation="p"\n'
        '[[channel]]\nrisk="x"\nid="c"\nsource="tariffs"\ntarget="unemployment"\n'
        'variants=[["r1","r2"]]\n'
    )
    with pytest.raises(StageStopped, match="disconnected"):
        evaluate(workspace, bad, n_orderings=10, workers=1)
    recs = {r.phase: r for r in workspace.find(EvaluationRecord)}
    assert recs["registered"].benchmark_path == str(bad)
    assert recs["result"].status == "stopped" and "disconnected" in recs["result"].reason


def test_unknown_vocabulary_variable_stops(workspace, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[benchmark]\nname="b"\n[[relation]]\nid="r1"\nsrc="tariffs"\ndst="moon_phase"\nsign="+"\n'
        'location="p"\n[[channel]]\nrisk="x"\nid="c"\nsource="tariffs"\ntarget="moon_phase"\n'
        'variants=[["r1"]]\n'
    )
    with pytest.raises(StageStopped, match="'moon_phase' is not in the controlled vocabulary"):
        evaluate(workspace, bad, n_orderings=10, workers=1)


def test_paths_from_another_graph_are_refused(workspace):
    _path(workspace, "an_1", CHAIN[:1], rank=3, condition="G2")
    with pytest.raises(IntegrityError, match="produced under graph G2, not G0"):
        evaluate(workspace, analysis_ids=["an_1"], n_orderings=10, workers=1)
