"""Graph conditions G0–G2 compared on the same eligible passages (§5.2, appendix "Comparison Design")."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner
from dashboard_demo import demo_workspace

from aieco.cli import main
from aieco.config import get_settings
from aieco.errors import IntegrityError
from aieco.evaluation.conditions import (
    ConditionInput,
    build_condition,
    eligible_passages,
    recorded_builds,
    require_same_passages,
)
from aieco.evaluation.run import evaluate
from aieco.records import Relation
from aieco.store import Store


@pytest.fixture
def demo_copy(tmp_path_factory, tmp_path):
    """A private copy of the session's demo workspace (built and run once): evaluations add records."""
    target = tmp_path / "ws"
    shutil.copytree(demo_workspace(tmp_path_factory), target)
    with Store(target) as store:
        yield store


def test_missing_conditions_are_built_on_the_eligible_passages(demo_copy):
    assert not demo_copy.count(Relation, graph_condition="G1")
    res = evaluate(demo_copy, n_orderings=200, workers=1)
    inputs = res.graph_inputs.set_index("condition")
    assert list(inputs.index) == ["G0", "G1", "G2", "G3", "G4", "G5"]
    assert inputs.loc["G0", "status"] == "recorded"  # built by build_demo, not rebuilt
    assert inputs.loc["G1", "status"] == inputs.loc["G2", "status"] == "built"
    assert (inputs.loc[["G3", "G4", "G5"], "status"] == "not run: specified configuration").all()
    n = len(eligible_passages(demo_copy, get_settings().scenario.cutoff))
    assert (inputs.loc[["G0", "G1", "G2"], "passages_read"] == n).all()
    assert inputs.loc[["G0", "G1", "G2"], "passages_digest"].nunique() == 1
    assert (inputs.loc[["G0", "G1", "G2"], "input_coverage"] == 1.0).all()
    # G1 makes one decomposition request per batch of passages on top of the extraction batches
    assert inputs.loc["G1", "requests"] > inputs.loc["G0", "requests"]
    assert (inputs.loc[["G1", "G2"], "accepted"] > 0).all()
    table = res.graph_conditions
    assert set(table["condition"]) == {"G0", "G1", "G2"}
    g1 = table[table.condition == "G1"].set_index("risk")
    assert g1["relation_coverage"].notna().all() and g1["first_ranked_ordered_recall"].notna().all()
    # selections were made on G0 only: the other graphs have no selected-path measures
    assert g1["exact_selected_path_recovery"].isna().all()
    # a second evaluation finds the recorded builds and builds nothing
    before = demo_copy.count(Relation)
    again = evaluate(demo_copy, n_orderings=200, workers=1)
    assert demo_copy.count(Relation) == before
    assert again.graph_inputs.set_index("condition").loc["G1", "status"] == "recorded"
    assert len(recorded_builds(demo_copy, "G1")) == 1


def test_conditions_from_different_passages_are_refused(demo_copy):
    passages = eligible_passages(demo_copy, get_settings().scenario.cutoff)
    build_condition(demo_copy, "G2", passages[: len(passages) // 2])
    with pytest.raises(IntegrityError, match="different eligible passages"):
        evaluate(demo_copy, n_orderings=200, workers=1)
    # without G2 the comparison of G0 and G1 proceeds
    res = evaluate(demo_copy, conditions=["G0", "G1"], n_orderings=200, workers=1)
    assert set(res.graph_conditions["condition"]) == {"G0", "G1"}


def test_require_same_passages_hand_made():
    a = ConditionInput("G0", "recorded", 3, 3, "d1", {})
    b = ConditionInput("G1", "built", 3, 2, "d2", {})
    unknown = ConditionInput("G2", "unrecorded", 3, None, None, {})
    require_same_passages([a, unknown])  # an unrecorded condition cannot be checked, so is not refused
    with pytest.raises(IntegrityError, match="G1: d2"):
        require_same_passages([a, b])
    assert a.input_coverage == 1.0 and unknown.input_coverage is None


def test_cli_conditions_json(demo_copy):
    out = CliRunner().invoke(
        main,
        [
            "evaluate",
            "-w",
            str(demo_copy.path),
            "--conditions",
            "G0,G1",
            "--orderings",
            "100",
            "--workers",
            "1",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert {r["condition"] for r in data["tables"]["graph_conditions"]} == {"G0", "G1"}
    inputs = {r["condition"]: r for r in data["tables"]["graph_inputs"]}
    assert inputs["G2"]["status"] == "not requested" and inputs["G1"]["status"] == "built"
    bad = CliRunner().invoke(main, ["evaluate", "-w", str(demo_copy.path), "--condition", "G4", "--json"])
    assert bad.exit_code != 0 and "specified configuration" in bad.output


def test_cli_retrieval_condition_tables_json(demo_copy):
    out = CliRunner().invoke(
        main,
        ["evaluate", "-w", str(demo_copy.path), "--conditions", "G0", "--orderings", "100", "--workers", "1", "--json"],
    )
    assert out.exit_code == 0, out.output
    tables = json.loads(out.output)["tables"]
    rows = {(r["condition"], r["risk"]): r for r in tables["retrieval_conditions"]}
    assert {c for c, _ in rows} == {"direct", "document", "graph", "hybrid"}
    # GraphRAG: the demo analysis selected under it; the others were not run as analyses
    assert rows[("graph", "trade_fragmentation")]["exact_selected_path_recovery"] == 1.0
    assert rows[("document", "trade_fragmentation")]["exact_selected_path_recovery"] is None
    for rc in ("graph", "document", "hybrid"):
        assert rows[(rc, "mean")]["all_paths_best_ordered_recall"] is not None
    # the passage-constrained graph loses relations the full graph has: never better over all paths
    for risk in ("trade_fragmentation", "property_correction", "market_illiquidity"):
        assert (
            rows[("document", risk)]["all_paths_best_ordered_recall"]
            <= rows[("graph", risk)]["all_paths_best_ordered_recall"]
        )
    assert all(v is None for k, v in rows[("direct", "mean")].items() if k.startswith(("selected", "all_", "top5")))
    assert rows[("direct", "mean")]["accepted_as_agent_result"] is False
    budget = get_settings().retrieval.byte_budget
    inputs = {(r["condition"], r["risk"]): r for r in tables["retrieval_inputs"]}
    for risk in ("trade_fragmentation", "property_correction"):
        doc, hyb, grf = inputs[("document", risk)], inputs[("hybrid", risk)], inputs[("graph", risk)]
        assert (doc["document_bytes"], hyb["document_bytes"], hyb["graph_bytes"], grf["graph_bytes"]) == (
            budget,
            budget // 2,
            budget // 2,
            budget,
        )
        assert 0 < doc["passages_retrieved"] <= get_settings().retrieval.top_k
        assert doc["bytes_used"] <= budget and hyb["bytes_used"] <= budget
        assert doc["relations_searched"] < grf["relations_searched"]
        d = inputs[("direct", risk)]
        assert d["status"] == "not applicable" and "offline backend has no LLM" in d["reason"]


def test_a_hybrid_conflict_leaves_its_risk_unscored():
    from aieco.evaluation.benchmark import Benchmark, BenchmarkChannel, BenchmarkRelation
    from aieco.evaluation.comparison import compare_retrieval_conditions
    from aieco.evaluation.measures import ChannelPrediction

    ab, bc = ("a", "b", "+"), ("b", "c", "-")
    bench = Benchmark(
        name="t",
        relations={
            "x": BenchmarkRelation(id="x", src="a", dst="b", sign="+", location="p1"),
            "y": BenchmarkRelation(id="y", src="b", dst="c", sign="-", location="p1"),
        },
        channels=[
            BenchmarkChannel(risk=r, id=f"c{r}", source="a", target="c", variants=[["x", "y"]]) for r in ("r1", "r2")
        ],
        digest="d",
    )
    pred = {
        f"c{r}": ChannelPrediction(all_paths=[[ab, bc]], top_paths=[[ab, bc]], first_ranked=[ab, bc])
        for r in ("r1", "r2")
    }
    t = compare_retrieval_conditions(
        bench, {ab, bc}, {"graph": pred, "hybrid": pred}, stopped={"hybrid": {"r1"}}, selected=set()
    )
    t = t.set_index(["condition", "risk"])
    assert t.loc[("graph", "r1"), "all_paths_best_ordered_recall"] == 1.0
    assert t.loc[("hybrid", "r1")].drop("accepted_as_agent_result").isna().all()
    assert t.loc[("hybrid", "r2"), "all_paths_best_ordered_recall"] == 1.0
    assert t.loc[("hybrid", "mean"), "all_paths_best_ordered_recall"] == 1.0  # over the scored risk only
