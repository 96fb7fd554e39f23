"""Comparison design: conditions as configurations, one byte budget, no mixing of graphs."""

from __future__ import annotations

import math

import pytest

from aieco.errors import InputError, IntegrityError
from aieco.evaluation.benchmark import validate_benchmark
from aieco.evaluation.comparison import (
    GRAPH_CONDITIONS,
    RETRIEVAL_CONDITIONS,
    byte_allocation,
    compare_graph_conditions,
    compare_retrieval_conditions,
    conditions_table,
    require_same_graph,
)
from aieco.evaluation.measures import ChannelPrediction
from aieco.records import Restriction

BENCH = validate_benchmark(
    {
        "benchmark": {"name": "c"},
        "relation": [
            {"id": "r1", "src": "a", "dst": "b", "sign": "+", "location": "p"},
            {"id": "r2", "src": "b", "dst": "c", "sign": "-", "location": "p"},
        ],
        "channel": [{"risk": "r", "id": "c1", "source": "a", "target": "c", "variants": [["r1", "r2"]]}],
    }
)
AB, BC = ("a", "b", "+"), ("b", "c", "-")


def test_every_retrieval_condition_shares_one_budget():
    assert byte_allocation("hybrid", 12_000) == {"documents": 6_000, "graph": 6_000}
    assert byte_allocation("document", 12_000) == {"documents": 12_000, "graph": 0}
    assert byte_allocation("graph", 12_000) == {"documents": 0, "graph": 12_000}
    for name in RETRIEVAL_CONDITIONS:
        assert sum(byte_allocation(name, 12_000).values()) <= 12_000
    assert not RETRIEVAL_CONDITIONS["direct"].accepted_as_agent_result
    with pytest.raises(InputError, match="unknown retrieval condition"):
        byte_allocation("oracle", 100)


def test_graph_conditions_g3_to_g5_are_specified_not_executable():
    t = conditions_table()
    assert list(t.index) == ["G0", "G1", "G2", "G3", "G4", "G5"]
    assert t.loc[["G0", "G1", "G2"], "executable"].all() and not t.loc[["G3", "G4", "G5"], "executable"].any()
    assert GRAPH_CONDITIONS["G2"].verification and not GRAPH_CONDITIONS["G1"].verification


def test_records_of_another_graph_are_refused():
    r = Restriction.create(
        analysis_id="a",
        risk="r",
        variable="real_gdp",
        direction=-1,
        priority=1,
        supporting_relation_ids=["rel_1"],
        derivation="target",
        graph_condition="G2",
    )
    require_same_graph([r], "G2")
    with pytest.raises(IntegrityError, match="restrictions .* produced under graph G2, not G0"):
        require_same_graph([r], "G0")


def test_graph_condition_table_per_risk():
    t = compare_graph_conditions(BENCH, {"G0": {AB}, "G2": {AB, BC}}, {"G0": {"c1": ChannelPrediction(selected=[AB])}})
    g0 = t[(t.condition == "G0") & (t.risk == "r")].iloc[0]
    g2 = t[(t.condition == "G2") & (t.risk == "r")].iloc[0]
    assert g0.relation_coverage == 0.5 and g2.relation_coverage == 1.0
    assert g0.selected_ordered_recall == 0.5
    assert math.isnan(g2.selected_ordered_recall)  # no paths scored under G2: not zero
    assert g2.complete_sequence_presence == 1.0


def test_retrieval_table_marks_conditions_without_paths():
    t = compare_retrieval_conditions(BENCH, {AB, BC}, {"graph": {"c1": ChannelPrediction(selected=[AB, BC])}})
    graph = t[(t.condition == "graph") & (t.risk == "r")].iloc[0]
    assert graph.exact_selected_path_recovery == 1.0
    direct = t[(t.condition == "direct") & (t.risk == "r")].iloc[0]
    assert math.isnan(direct.selected_ordered_recall) and not direct.accepted_as_agent_result
