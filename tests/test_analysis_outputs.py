"""Typed stage outputs, the runner's store writes, and per-channel graph search (issues #13, #19)."""

from __future__ import annotations

from datetime import date

import pytest
from graph_corpus import rel

from aieco.agents.evidence import Selection
from aieco.analysis.inputs import ProgramInputs
from aieco.analysis.outputs import (
    OUTPUTS,
    ChannelWithoutPath,
    GraphSearchOutput,
    PathSelectionOutput,
    PlanningOutput,
    RestrictionDerivationOutput,
    RetrievalOutput,
)
from aieco.analysis.runner import Stage, StageContext, StageResult, run_stages
from aieco.analysis.stages import RISK_STAGE_FUNCTIONS, earlier, graph_search, restriction_derivation, shared_stages
from aieco.errors import IntegrityError
from aieco.records import ChannelQuery, Derivation, Path, Relation, Restriction, StageRecord, StageStatus
from aieco.request import AnalysisRequest

PLAN = PlanningOutput(programs=[], outcomes=[], admissible_roles=["generation"])


def _request(channels: list[tuple[str, str, str, str]]) -> AnalysisRequest:
    return AnalysisRequest.model_validate(
        {
            "cutoff": date(2024, 12, 31),
            "horizon": "2025-2027",
            "jurisdictions": ["EA"],
            "risks": [
                {
                    "name": "r",
                    "channels": [
                        {"id": cid, "source": s, "movement": "increase", "target": t, "expected": e}
                        for cid, s, t, e in channels
                    ],
                }
            ],
        }
    )


def _program(request: AnalysisRequest) -> ProgramInputs:
    return ProgramInputs(request=request, repetition=1, risk="r", shared={"planning": PLAN})


# --------------------------------------------------------------------------- the outputs' JSON


def test_every_stage_declares_its_typed_output_and_the_names_match():
    declared = {s.name: s.output for s in shared_stages()} | {n: o for n, (_, o) in RISK_STAGE_FUNCTIONS.items()}
    assert {o.stage for o in declared.values()} == set(declared) == {o.stage for o in OUTPUTS}
    assert all(o.stage == name for name, o in declared.items())


def test_outputs_keep_the_untyped_json_shape():
    """Optional keys are left out when empty, as the untyped stages did: output digests stay."""
    plain = GraphSearchOutput(paths={"a": ["p1"]}, queries={"a": "cq_1"}, graph_edges=3, graph_digest="d")
    assert plain.to_json() == {"paths": {"a": ["p1"]}, "queries": {"a": "cq_1"}, "graph_edges": 3, "graph_digest": "d"}
    gap = ChannelWithoutPath(channel_id="b", query_id="cq_2", source="x", target="y", reason="why")
    with_gap = plain.model_copy(update={"channels_without_path": [gap]})
    assert with_gap.to_json()["channels_without_path"] == [
        {"channel_id": "b", "query_id": "cq_2", "source": "x", "target": "y", "reason": "why"}
    ]
    assert GraphSearchOutput.from_json(with_gap.to_json()) == with_gap
    assert RetrievalOutput(passages={"a": ["l1"]}).to_json() == {"passages": {"a": ["l1"]}}
    # the agents' answers keep their own JSON
    assert PLAN.to_json() == {"programs": [], "outcomes": [], "admissible_roles": ["generation"]}


def test_outputs_are_frozen():
    with pytest.raises(Exception, match="frozen"):
        RetrievalOutput(passages={}).passages = {"x": []}


# --------------------------------------------------------------------------- the runner


def _rel_records(n: int) -> list[Relation]:
    return [rel(f"v{i}", f"v{i + 1}", "+", source=f"s{i}") for i in range(n)]


def test_the_runner_writes_a_stages_records_with_its_record_and_rehydrates_typed_outputs_on_resume(store):
    calls: list[str] = []

    def first(ctx: StageContext) -> StageResult:
        calls.append("first")
        return StageResult(RetrievalOutput(passages={"a": ["l1", "l2"]}), tuple(_rel_records(2)))

    def second(ctx: StageContext) -> RetrievalOutput:
        calls.append("second")
        got = ctx.outputs["first"]
        assert isinstance(got, RetrievalOutput)  # typed, fresh or resumed
        return RetrievalOutput(passages={"b": got.passages["a"][::-1]})

    stages = [Stage("first", first, RetrievalOutput), Stage("second", second, RetrievalOutput)]
    one = run_stages(store, "an", stages, {"x": 1})
    assert one.status == "completed" and calls == ["first", "second"]
    assert {r.relation_id for r in store.find(Relation)} == {r.relation_id for r in _rel_records(2)}
    two = run_stages(store, "an", stages, {"x": 1})  # resume: nothing re-runs
    assert calls == ["first", "second"]
    assert two.outputs == one.outputs and isinstance(two.outputs["second"], RetrievalOutput)
    assert two.outputs["second"].passages == {"b": ["l2", "l1"]}
    assert len(store.find(StageRecord, analysis_id="an")) == 2


def test_a_stopped_stage_stores_the_records_it_carries_and_a_failed_one_stores_none(store):
    def stops(ctx: StageContext) -> None:
        ctx.stop("a rule", _rel_records(1))

    out = run_stages(store, "an", [Stage("s", stops, RetrievalOutput)], {})
    assert (out.status, out.reason) == ("stopped", "a rule")
    assert [r.relation_id for r in store.find(Relation)] == [_rel_records(1)[0].relation_id]

    def fails(ctx: StageContext) -> StageResult:
        return StageResult(RetrievalOutput(passages={}), tuple(_rel_records(3)))

    with pytest.raises(TypeError, match="returned RetrievalOutput, not GraphSearchOutput"):
        run_stages(store, "an2", [Stage("s", fails, GraphSearchOutput)], {})
    assert len(store.find(Relation)) == 1  # nothing of the failed stage was written
    assert [r.status for r in store.find(StageRecord, analysis_id="an2")] == [StageStatus.failed]


def test_earlier_gives_the_typed_output_by_its_model():
    inputs = _program(_request([("a", "tariffs", "real_gdp", "decrease")]))
    ctx = StageContext(store=None, analysis_id="an", inputs=inputs)
    ctx.outputs["r/retrieval"] = RetrievalOutput(passages={"a": []})
    assert earlier(ctx, RetrievalOutput).passages == {"a": []}
    ctx.outputs["r/retrieval"] = {"passages": {"a": ["l"]}}  # plain JSON is validated into the model
    assert earlier(ctx, RetrievalOutput).passages == {"a": ["l"]}


# --------------------------------------------------------------------------- channels without a path (#19)


def _graph_store(store):
    store.put_many(
        [
            rel("tariffs", "trade_volumes", "-", source="a"),
            rel("trade_volumes", "real_gdp", "+", source="a"),
            rel("real_gdp", "unemployment", "-", source="b"),
        ]
    )


def test_a_channel_without_path_is_recorded_with_its_reason_and_the_risk_goes_on(store):
    _graph_store(store)
    request = _request(
        [
            ("tf1", "tariffs", "real_gdp", "decrease"),
            ("tf2", "geopolitical_risk", "equity_prices", "decrease"),  # no relation starts there
            ("tf3", "tariffs", "inflation", "increase"),  # nothing leads into inflation
        ]
    )
    out = run_stages(store, "an", [Stage("r/graph_search", graph_search, GraphSearchOutput)], _program(request))
    assert out.status == "completed", out.reason
    found = out.outputs["r/graph_search"]
    assert isinstance(found, GraphSearchOutput)
    assert found.channels_with_paths() == ["tf1"] and found.paths["tf2"] == found.paths["tf3"] == []
    gaps = {g.channel_id: g for g in found.channels_without_path}
    assert set(gaps) == {"tf2", "tf3"}
    assert gaps["tf2"].reason == "no relation in the graph starts from geopolitical_risk"
    assert gaps["tf3"].reason == "no relation in the graph leads into inflation"
    assert (gaps["tf2"].source, gaps["tf2"].target) == ("geopolitical_risk", "equity_prices")
    assert gaps["tf2"].query_id == found.queries["tf2"]
    # the runner stored the queries and the paths found (the path of tf1), with the stage record
    assert {q.query_id for q in store.find(ChannelQuery)} == set(found.queries.values())
    [path] = store.find(Path, analysis_id="an")
    assert path.path_id in found.paths["tf1"] and path.variables == ["tariffs", "trade_volumes", "real_gdp"]
    # the stored JSON names the channels too (the dashboard reads it)
    rec = store.find(StageRecord, analysis_id="an", stage="r/graph_search")[0]
    assert [g["channel_id"] for g in store.get_json(rec.output_digest)["channels_without_path"]] == ["tf2", "tf3"]


def test_the_risk_stops_only_when_no_channel_has_a_path_and_names_each_reason(store):
    _graph_store(store)
    request = _request(
        [
            ("a", "geopolitical_risk", "equity_prices", "decrease"),
            ("b", "unemployment", "tariffs", "decrease"),  # both ends exist, no chain between them
        ]
    )
    out = run_stages(store, "an", [Stage("r/graph_search", graph_search, GraphSearchOutput)], _program(request))
    assert (out.status, out.stopped_stage) == ("stopped", "r/graph_search")
    assert out.reason == (
        "no admissible path for any channel query of r: "
        "a (geopolitical_risk → equity_prices): no relation in the graph starts from geopolitical_risk; "
        "b (unemployment → tariffs): no relation in the graph starts from unemployment"
    )
    assert len(store.find(ChannelQuery)) == 2 and not store.find(Path)  # the queries are kept with the stop


def test_the_reason_names_a_missing_chain_and_a_chain_too_long():
    from aieco.graph.build import relation_graph
    from aieco.graph.paths import no_path_reason

    g = relation_graph([rel("a_var", "b_var"), rel("c_var", "d_var"), *(rel(f"x{i}", f"x{i + 1}") for i in range(7))])

    def q(src: str, dst: str) -> ChannelQuery:
        return ChannelQuery.create(
            risk="r", source_var=src, source_movement="increase", target_var=dst, target_movement="increase"
        )

    assert no_path_reason(g, q("a_var", "d_var")) == "no chain of relations leads from a_var to d_var"
    assert no_path_reason(g, q("x0", "x7")) == (
        "the shortest chain from x0 to x7 holds 7 relations, more than the maximum 5"
    )


def _select_first_paths(ctx: StageContext) -> PathSelectionOutput:
    """The evidence agent's choice, as its offline baseline makes it: the first path of each channel."""
    found = earlier(ctx, GraphSearchOutput)
    return PathSelectionOutput(
        selections=[
            Selection(query_id=cid, path_id=ids[0], relation_ids=ctx.read.require(Path, ids[0]).relation_ids)
            for cid, ids in found.paths.items()
            if ids
        ]
    )


@pytest.mark.parametrize("expected, status", [("decrease", "completed"), ("increase", "stopped")])
def test_the_channels_with_paths_go_on_to_derivation_which_stops_by_its_own_rule(store, expected, status):
    """One channel has no path; the other's path goes on. Its composed direction either supports a
    restriction (the program goes on) or contradicts the registration, and then derivation stops
    before any model call (fewer restrictions than the model needs), naming the channel without a path."""
    _graph_store(store)
    request = _request(
        [("tf1", "tariffs", "real_gdp", expected), ("tf2", "geopolitical_risk", "equity_prices", "decrease")]
    ).model_copy(update={"models": ["macro_var"]})
    stages = [
        Stage("r/graph_search", graph_search, GraphSearchOutput),
        Stage("r/path_selection", _select_first_paths, PathSelectionOutput),
        Stage("r/restriction_derivation", restriction_derivation, RestrictionDerivationOutput),
    ]
    out = run_stages(store, "an", stages, _program(request))
    assert out.status == status, out.reason
    [derivation] = store.find(Derivation, analysis_id="an")
    if status == "completed":
        [restriction] = store.find(Restriction, analysis_id="an")
        assert (restriction.model_variable, restriction.direction) == ("real_gdp", -1)
        assert out.outputs["r/restriction_derivation"].restriction_ids == [restriction.restriction_id]
    else:
        assert out.stopped_stage == "r/restriction_derivation" and derivation.status == "stopped"
        assert out.reason.endswith("; channels without a path: tf2") and "0 restriction(s) derived" in out.reason
        assert not store.find(Restriction, analysis_id="an")


def test_a_stored_output_that_does_not_match_its_model_is_an_integrity_error(store):
    run_stages(store, "an", [Stage("s", lambda ctx: {"passages": "not a dict"})], {})
    with pytest.raises(IntegrityError, match="stage s does not match RetrievalOutput"):
        run_stages(store, "an", [Stage("s", lambda ctx: None, RetrievalOutput)], {})


def test_document_rag_names_the_channel_the_retrieved_passages_do_not_connect(store):
    _graph_store(store)  # tariffs → trade_volumes → real_gdp from passage loc_a; real_gdp → unemployment from loc_b
    request = _request(
        [("tf1", "tariffs", "real_gdp", "decrease"), ("tf4", "tariffs", "unemployment", "increase")]
    ).model_copy(update={"retrieval_condition": "document"})
    retrieved = RetrievalOutput(passages={"tf1": ["loc_a"], "tf4": ["loc_a"]}, risk_query="q", risk_passages=["loc_a"])
    stages = [
        Stage("r/retrieval", lambda ctx: retrieved, RetrievalOutput),
        Stage("r/graph_search", graph_search, GraphSearchOutput),
    ]
    out = run_stages(store, "an", stages, _program(request))
    assert out.status == "completed", out.reason
    found = out.outputs["r/graph_search"]
    assert found.channels_with_paths() == ["tf1"] and found.unsupported_queries == ["tf4"]
    [gap] = found.channels_without_path
    assert (gap.channel_id, gap.reason) == (
        "tf4",
        "no relation in the graph leads into unemployment (in the passage-constrained relation graph)",
    )
    assert found.graph_edges == 2  # the passage-constrained graph the paths were enumerated in
