"""A model is added in one place: one catalog entry, made in this test alone, is all the analysis stages
(model request, execution, candidate selection, output tests, report), the report writer and the
dashboard's labels need (issue 34 item 3). The entry's input builder also
shows the request's as-of rule reaching a model unchanged (item 2)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from test_analysis_stages import REQUEST as BASE_REQUEST

from aieco.agents import report
from aieco.analysis.inputs import ProgramInputs
from aieco.analysis.outputs import (
    CandidateSelectionOutput,
    ExecutionOutput,
    GraphSearchOutput,
    ModelRequestOutput,
    OutputTestsOutput,
    PathSelectionOutput,
    ReportOutput,
    RestrictionDerivationOutput,
)
from aieco.analysis.runner import Stage, run_stages
from aieco.analysis.stages import (
    candidate_selection,
    execution_stage,
    model_request_stage,
    output_tests,
    report_stage,
)
from aieco.asof import AsOf
from aieco.errors import InputError
from aieco.llm import LLMClient, make_backend
from aieco.models import catalog, registry
from aieco.models.catalog import ModelEntry
from aieco.models.registry import ModelInputs, ModelResult, PointRef
from aieco.records import (
    Claim,
    ModelOutputPoint,
    ModelRequest,
    ModelRun,
    ModelSpecification,
    Report,
    Restriction,
    RunStatus,
    StageRecord,
    VariableSpec,
)
from aieco.request import AnalysisRequest

YEARS = ("2025", "2026", "2027")
GDP = VariableSpec(variable="real_gdp", unit="%", frequency="A", transformation="annual_growth")
REQUEST = AnalysisRequest.model_validate(
    {
        **BASE_REQUEST.model_dump(),
        "jurisdictions": ["EA"],
        "excluded_jurisdictions": ["GLOBAL"],
        "vintage_policy": "approximate",
        "models": ["toy_scenarios"],
    }
)


class ToyInputs(ModelInputs):
    as_of: AsOf
    restrictions: tuple[dict[str, Any], ...]

    def artifacts(self) -> dict[str, Any]:
        return {"cutoff": self.as_of.cutoff.isoformat(), "restrictions": list(self.restrictions)}


SEEN: list[ToyInputs] = []


def toy_run(request, inputs: ToyInputs, seed) -> ModelResult:
    """A scenario generator of the shape candidate selection and the claims read: a ``selection`` row for
    the risk and the risk's annual GDP growth, one fall per restriction below zero."""
    SEEN.append(inputs)
    falls = sum(r["direction"] == -1 for r in inputs.restrictions)
    path = pd.DataFrame({"real_gdp": [-0.5 * falls, 0.25, 1.0]}, index=list(YEARS))
    selection = pd.DataFrame({"severity": [0.5 * falls], "simulation_id": [7.0]}, index=[request.risk])
    points = [
        PointRef(
            variable="real_gdp",
            unit="%",
            transformation="annual_growth",
            period=y,
            table="path",
            row=y,
            column="real_gdp",
            statistic="selected",
            simulation_id=7,
            risk=request.risk,
        )
        for y in YEARS
    ]
    return ModelResult(status=RunStatus.completed, tables={"path": path, "selection": selection}, points=points)


def toy_specification(model_id: str = "toy_scenarios") -> ModelSpecification:
    return ModelSpecification.create(
        model_id=model_id,
        version="1",
        inputs=[],
        outputs=[GDP],
        scope="EA",
        horizon=registry.ANY_HORIZON,
        snapshot="toy",
        entry_point="tests.test_model_catalog:toy_run",
        min_restrictions=1,
    )


TOY = ModelEntry(
    model_id="toy_scenarios",
    label="Toy scenario generator",
    kind="macro",
    specification=toy_specification,
    run=toy_run,
    build_inputs=lambda ctx: ToyInputs(as_of=ctx.as_of, restrictions=ctx.restrictions),
    tables={"path": "rows years: the selected GDP path", "selection": "row the risk: severity, simulation_id"},
)


@pytest.fixture
def toy():
    SEEN.clear()
    catalog.add(TOY)  # the one place the model is added
    yield TOY
    catalog.remove(TOY.model_id)


def _restriction(store) -> Restriction:
    r = Restriction.create(
        analysis_id="an",
        risk="r",
        variable="real_gdp",
        model_variable="real_gdp",
        direction=-1,
        priority=1,
        supporting_relation_ids=[],
        derivation="target",
    )
    store.put(r)
    return r


def test_a_model_added_by_one_catalog_entry_runs_through_the_stages_into_claims(store, toy):
    rst = _restriction(store)
    derived = RestrictionDerivationOutput(
        derivation_id="drv", restriction_ids=[rst.restriction_id], registration_digest=""
    )
    searched = GraphSearchOutput(paths={}, queries={}, graph_edges=0, graph_digest="")
    stages = [
        Stage("r/graph_search", lambda ctx: searched, GraphSearchOutput),
        Stage("r/path_selection", lambda ctx: PathSelectionOutput(selections=[]), PathSelectionOutput),
        Stage("r/restriction_derivation", lambda ctx: derived, RestrictionDerivationOutput),
        Stage("r/model_request", model_request_stage, ModelRequestOutput),
        Stage("r/execution", execution_stage, ExecutionOutput),
        Stage("r/candidate_selection", candidate_selection, CandidateSelectionOutput),
        Stage("r/output_tests", output_tests, OutputTestsOutput),
        Stage("r/report", report_stage, ReportOutput),
    ]
    client = LLMClient(store, make_backend("offline", store=store), "an")
    out = run_stages(store, "an", stages, ProgramInputs(request=REQUEST, risk="r", shared={}), client=client)
    assert out.status == "completed", out.reason

    [run] = store.find(ModelRun, analysis_id="an")
    assert (run.model_id, run.status) == ("toy_scenarios", RunStatus.completed)
    # the input builder received the request's one as-of rule, scope, exclusions and policy included
    [inputs] = SEEN
    assert inputs.as_of == REQUEST.as_of()
    assert (inputs.as_of.scope, inputs.as_of.exclude, inputs.as_of.vintage_policy) == (
        ("EA",),
        ("GLOBAL",),
        "approximate",
    )
    assert store.get_json(run.input_digests["cutoff"]) == "2024-12-31"
    assert out.outputs["r/candidate_selection"].run_id == run.run_id
    claims = store.find(Claim, analysis_id="an")
    assert sorted((c.model_id, c.period, store.get(ModelOutputPoint, c.point_id).value) for c in claims) == [
        ("toy_scenarios", "2025", -0.5),
        ("toy_scenarios", "2026", 0.25),
        ("toy_scenarios", "2027", 1.0),
    ]
    assert [r.status.value for r in store.find(StageRecord, analysis_id="an")] == ["completed"] * 8
    # the report renders the toy's figures from their claims
    rendered = store.get(Report, out.outputs["r/report"].report_id)
    assert rendered.status == "passed" and sorted(rendered.claim_ids) == sorted(c.claim_id for c in claims)
    assert "In 2025, the model puts annual growth in real GDP at -0.5%" in rendered.rendered
    assert "only values released by 31 December 2024 enter it" in rendered.rendered


def test_the_report_and_the_labels_read_the_model_from_its_entry(toy):
    assert catalog.label("toy_scenarios") == "Toy scenario generator"
    assert catalog.label("toy_scenarios:variant") == "Toy scenario generator (variant)"
    assert catalog.kind("toy_scenarios") == "macro" and catalog.entry("toy_scenarios").tables["selection"]
    assert "toy_scenarios" in catalog.register_shipped()
    assert catalog.label("never_added") == "never_added" and catalog.kind("never_added") is None


def test_the_report_tells_bank_runs_by_kind_not_by_name(store):
    """A bank-kind model whose id does not start with 'bank_' is the report's bank run; a macro one is not."""
    spec = toy_specification("capital_toy")
    entry = ModelEntry(
        model_id="capital_toy", label="Toy capital", kind="bank", specification=lambda: spec, run=toy_run
    )
    catalog.add(entry)
    try:
        run = registry.execute(
            store,
            registry.RegisteredModel(spec, lambda req, inp, seed: ModelResult(status=RunStatus.stopped, reason="x")),
            ModelRequest.create(analysis_id="an", risk="r", outputs=[GDP], restriction_ids=[]),
            ModelInputs(),
            seed=0,
        )
        assert report.bank_status([run], []) == "stopped"
    finally:
        catalog.remove("capital_toy")
    assert report.bank_status([run], []) == "not_run"  # unknown to the catalog: not a bank model


def test_an_id_aieco_ships_cannot_be_added_again():
    with pytest.raises(InputError, match="'macro_var' is shipped"):
        catalog.add(
            ModelEntry(model_id="macro_var", label="x", kind="macro", specification=toy_specification, run=toy_run)
        )


def test_every_shipped_model_has_a_label_kind_and_specification():
    for e in catalog.shipped():
        assert e.label and e.kind in ("macro", "bank") and e.specification().model_id == e.model_id
    assert {e.model_id for e in catalog.shipped() if e.build_inputs} == {"macro_var"}
