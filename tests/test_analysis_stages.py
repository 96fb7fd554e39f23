"""Stages through the runner with typed inputs: the application stage on a workspace without bank data."""

from __future__ import annotations

from datetime import date

import pandas as pd

from aieco.analysis.inputs import ProgramInputs
from aieco.analysis.outputs import ExecutionOutput
from aieco.analysis.runner import Stage, run_stages
from aieco.analysis.stages import application
from aieco.models import registry
from aieco.models.bank.panel import MACRO_VARIABLES
from aieco.models.registry import ModelResult
from aieco.records import ModelRequest, ModelRun, ModelSpecification, RunStatus, StageRecord, VariableSpec
from aieco.request import AnalysisRequest

REQUEST = AnalysisRequest.model_validate(
    {
        "cutoff": date(2024, 12, 31),
        "horizon": "2025-2027",
        "risks": [
            {
                "name": "r",
                "channels": [
                    {
                        "id": "q",
                        "source": "tariffs",
                        "movement": "increase",
                        "target": "real_gdp",
                        "expected": "decrease",
                    }
                ],
            }
        ],
    }
)


def _macro_run(store) -> ModelRun:
    path = pd.DataFrame({v: [0.0, 0.5, 1.0] for v in MACRO_VARIABLES}, index=["2025", "2026", "2027"])
    spec = ModelSpecification.create(
        model_id="macro_stub",
        version="0",
        inputs=[],
        snapshot="s",
        outputs=[VariableSpec(variable="real_gdp", unit="%", frequency="A", transformation="annual_growth")],
        entry_point="tests:none",
        min_restrictions=0,
    )
    entry = registry.register(
        spec, lambda req, inp, seed: ModelResult(status=RunStatus.completed, tables={"selected_path": path})
    )
    try:
        return registry.execute(
            store,
            entry,
            ModelRequest.create(analysis_id="an", risk="r", outputs=spec.outputs, restriction_ids=[]),
            registry.ModelInputs(),
            seed=0,
        )
    finally:
        registry.unregister("macro_stub")


def _executed(run: ModelRun) -> ExecutionOutput:
    """The execution stage's output for one completed run (what the application stage reads)."""
    return ExecutionOutput(run_ids=[run.run_id], completed=[run.run_id], status={run.run_id: "completed"})


def test_a_workspace_without_bank_data_stops_the_application_stage_with_that_reason(store):
    run = _macro_run(store)
    inputs = ProgramInputs(request=REQUEST, repetition=1, risk="r", shared={})
    stages = [Stage("r/execution", lambda ctx: _executed(run), ExecutionOutput), Stage("r/application", application)]
    out = run_stages(store, "an", stages, inputs)
    assert (out.status, out.stopped_stage) == ("stopped", "r/application")
    assert "no bank panel usable at 2024-12-31" in out.reason
    rec = store.find(StageRecord, analysis_id="an", stage="r/application")
    assert [r.status.value for r in rec] == ["stopped"] and rec[0].reason == out.reason
    assert not store.find(ModelRun, model_id=["bank_feols", "bank_feqar", "bank_feols_fit", "bank_feqar_fit"])


def test_program_inputs_digest_like_the_untyped_inputs_did():
    """Record ids stay: the typed inputs digest to the dicts the runner digested before."""
    from aieco.analysis.inputs import AnalysisInputs, settings_digest
    from aieco.analysis.runner import identity

    shared = {"request_checks": {"accepted": True}, "planning": {"x": 1}}
    base = AnalysisInputs(request=REQUEST, repetition=2)
    assert identity(base) == {"request": REQUEST.as_dict(), "repetition": 2, "settings": settings_digest()}
    program = ProgramInputs(**dict(base), risk="r", shared=shared)
    assert identity(program) == {
        "request": REQUEST.as_dict(),
        "repetition": 2,
        "settings": settings_digest(),
        "risk": "r",
        "shared": [{"accepted": True}, {"x": 1}],
    }
    assert program.seed == REQUEST.seed(2) and program.prefix == "r/"


def test_stored_paths_are_the_graph_search_records_with_their_scores(store):
    """The dashboard's read of an analysis's paths: the graph search stage's own Path records and S(C), per
    channel best first, and a channel without a path as such — never recomputed from the graph."""
    from aieco.analysis.outputs import GraphSearchOutput, stored_paths
    from aieco.analysis.stages import graph_search
    from aieco.records import Path, Relation, Role, Source, SourceLocation, utc_now

    def relation(src: str, dst: str, sign: str) -> Relation:
        source = Source.create(
            path=src,
            sha256=src + dst,
            publisher="P",
            title=f"{src} and {dst}",
            publication_date=date(2024, 3, 1),
            retrieved_at=utc_now(),
            role="generation",
            jurisdiction="EA",
            kind="pdf",
        )
        loc = SourceLocation.create(
            source_id=source.source_id, kind="passage", page=1, text=f"{src} moves {dst}", parser_version="pdf-1"
        )
        rel = Relation.create(
            src_var=src,
            dst_var=dst,
            sign=sign,
            quote=f"{src} moves {dst}",
            location_id=loc.location_id,
            source_id=source.source_id,
            publication_date=source.publication_date,
            role=Role.generation,
            jurisdiction="EA",
            confidence=0.9,
        )
        store.put_many([source, loc, rel])
        return rel

    first, second = relation("tariffs", "trade_volumes", "-"), relation("trade_volumes", "real_gdp", "+")
    base = REQUEST.model_dump()
    none = {
        "id": "none",
        "source": "house_prices",
        "movement": "decrease",
        "target": "real_gdp",
        "expected": "decrease",
    }
    base["risks"][0]["channels"].append(none)
    request = AnalysisRequest.model_validate(base)
    planning = {"programs": [], "outcomes": [], "admissible_roles": ["generation"]}
    inputs = ProgramInputs(request=request, repetition=1, risk="r", shared={"planning": planning})
    out = run_stages(store, "an", [Stage("r/graph_search", graph_search, GraphSearchOutput)], inputs)
    assert out.status == "completed", out.reason
    [path] = store.find(Path, analysis_id="an")
    rows = stored_paths(store, "an", "r")
    assert [(r.channel_id, r.rank, r.path_id) for r in rows] == [("none", None, None), ("q", 1, path.path_id)]
    got = rows[1]
    assert got.variables == ("tariffs", "trade_volumes", "real_gdp") and got.composed_sign == "-"
    assert got.score == path.score and got.relation_ids == (first.relation_id, second.relation_id)
    assert (got.source_var, got.source_movement, got.target_movement) == ("tariffs", "increase", "decrease")
    assert stored_paths(store, "an", "other_risk") == []  # no graph search recorded for it

    # The Channel graph page shows these stored rows; a later review changes the what-if, never them.
    from aieco.review import review_relation
    from dashboard import graph_views

    frame = graph_views.stored_paths_frame(store, "an", "r")
    assert list(frame["rank"].fillna(0)) == [0, 1] and list(frame["path"])[0] == "no path"
    assert frame["score"].iloc[1] == path.score and frame["composed_sign"].iloc[1] == "-"
    review_relation(store, second.relation_id, "reject", analyst="tester")
    assert graph_views.stored_paths_frame(store, "an", "r").equals(frame)
    what_if = graph_views.current_paths(store, "r", as_of=None, condition="G0", roles=("generation",))
    assert set(what_if["path"]) == {"no path"}


def test_the_as_of_rule_of_a_stored_analysis_is_its_request_s_with_the_planned_roles(store):
    """What a dashboard view of an analysis's A(t) must use: cutoff, scope, exclusions and vintage policy of
    the stored request and the roles its planning stage admitted — not a date and roles alone."""
    import pytest

    from aieco.analysis.inputs import AnalysisInputs
    from aieco.analysis.outputs import PlanningOutput, analysis_as_of
    from aieco.errors import InputError

    base = REQUEST.model_dump()
    request = AnalysisRequest.model_validate(
        {**base, "excluded_jurisdictions": ["GLOBAL"], "vintage_policy": "approximate"}
    )
    analysis = request.analysis()
    store.put(analysis)
    assert analysis_as_of(store, analysis.analysis_id) == request.as_of()  # no plan yet: the request's roles
    plan = PlanningOutput(programs=[], outcomes=[], admissible_roles=["generation"])
    run_stages(
        store,
        analysis.analysis_id,
        [Stage("planning", lambda ctx: plan, PlanningOutput)],
        AnalysisInputs(request=request),
    )
    got = analysis_as_of(store, analysis.analysis_id)
    assert got == request.as_of(["generation"]) and got.roles != request.as_of().roles
    assert (got.scope, got.exclude, got.vintage_policy) == (("EA",), ("GLOBAL",), "approximate")
    with pytest.raises(InputError, match="no analysis 'an_missing'"):
        analysis_as_of(store, "an_missing")
