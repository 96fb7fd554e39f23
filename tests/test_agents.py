"""The agents' offline implementations and the program rules that accept or refuse their answers."""

from __future__ import annotations

from datetime import date

import pytest

from aieco.agents import coordinator, evidence, execution, model_request, testing
from aieco.errors import StageStopped
from aieco.llm import LLMClient, OfflineBackend, Prompt

E = evidence


def cand(pid, qid, rank, score, rels, variables):
    return E.CandidatePath(
        path_id=pid,
        query_id=qid,
        rank=rank,
        score=score,
        variables=variables,
        signs=["+"] * len(rels),
        relation_ids=rels,
        composed_sign="+",
        n_docs=1,
    )


def rel(rid, src, dst, cls="causal"):
    return E.RelationEvidence(
        relation_id=rid, src_var=src, dst_var=dst, sign="+", evidence_class=cls, quote=f"{src} raises {dst}"
    )


EV_INPUT = E.EvidenceInput(
    risk="trade_fragmentation",
    queries=[
        E.QueryBrief(query_id="tf1", source="tariffs", movement="increase", target="real_gdp", expected="decrease"),
        E.QueryBrief(query_id="tf3", source="tariffs", movement="increase", target="inflation", expected="increase"),
        E.QueryBrief(query_id="tf9", source="tariffs", movement="increase", target="house_prices", expected="decrease"),
    ],
    candidates=[
        cand("path_a", "tf1", 2, 0.80, ["rel_1", "rel_2"], ["tariffs", "trade_volumes", "real_gdp"]),
        cand("path_b", "tf1", 1, 0.91, ["rel_3", "rel_2"], ["tariffs", "trade_volumes", "real_gdp"]),
        cand("path_c", "tf3", 1, 0.70, ["rel_4", "rel_5"], ["tariffs", "import_prices", "inflation"]),
    ],
    relations=[
        rel("rel_1", "tariffs", "trade_volumes"),
        rel("rel_2", "trade_volumes", "real_gdp", "descriptive"),
        rel("rel_3", "tariffs", "trade_volumes"),
        rel("rel_4", "tariffs", "import_prices", "descriptive"),
        rel("rel_5", "import_prices", "inflation"),
    ],
)


def test_evidence_offline_is_the_graph_baseline_highest_score():
    sel = E.offline(EV_INPUT)
    assert [(s.query_id, s.path_id, s.relation_ids) for s in sel.selections] == [
        ("tf1", "path_b", ["rel_3", "rel_2"]),
        ("tf3", "path_c", ["rel_4", "rel_5"]),
    ]  # tf9: no candidate
    assert [w.subject for w in sel.warnings] == ["trade_volumes->real_gdp", "tariffs->import_prices"]
    assert E.citation_problems(sel, EV_INPUT) == []


@pytest.mark.parametrize(
    "selection, problem",
    [
        (E.Selection(query_id="tf1", path_id="path_b", relation_ids=["rel_3", "rel_1"]), "differ from the declared"),
        (E.Selection(query_id="tf1", path_id="path_b", relation_ids=["rel_2", "rel_3"]), "differ from the declared"),
        (E.Selection(query_id="tf1", path_id="path_x", relation_ids=["rel_3", "rel_2"]), "not a declared candidate"),
        (E.Selection(query_id="tf1", path_id="path_c", relation_ids=["rel_4", "rel_5"]), "declared for query tf3"),
        (E.Selection(query_id="tf7", path_id="path_b", relation_ids=["rel_3", "rel_2"]), "unknown channel query"),
        # one character off, as in the paper's Run 5 stop
        (E.Selection(query_id="tf1", path_id="path_b", relation_ids=["rel_3", "rel_Z"]), "differ from the declared"),
    ],
)
def test_evidence_citation_must_match_a_declared_path_exactly(selection, problem):
    problems = E.citation_problems(E.PathSelection(selections=[selection]), EV_INPUT)
    assert len(problems) == 1 and problem in problems[0]


def test_two_paths_for_one_query_is_refused():
    s = E.Selection(query_id="tf1", path_id="path_b", relation_ids=["rel_3", "rel_2"])
    assert "more than one" in E.citation_problems(E.PathSelection(selections=[s, s]), EV_INPUT)[0]


CO_INPUT = coordinator.CoordinatorInput(
    application="stress_scenario",
    jurisdictions=["EA"],
    sectors=["banks"],
    horizon="2025-2027",
    cutoff=date(2024, 12, 31),
    outcomes=["cet1_ratio"],
    allowed_roles=["generation", "methods"],
    risks=[
        coordinator.RiskBrief(
            name="property_correction",
            label="",
            description="",
            channels=[
                coordinator.ChannelBrief(
                    id="pc1", source="long_term_rate", movement="increase", target="house_prices", expected="decrease"
                ),
                coordinator.ChannelBrief(
                    id="pc2", source="house_prices", movement="decrease", target="real_gdp", expected="decrease"
                ),
            ],
        )
    ],
)


def test_coordinator_plan_follows_the_request_and_cannot_widen_it():
    plan = coordinator.offline(CO_INPUT)
    assert plan.programs[0].targets == ["house_prices", "real_gdp"]
    assert plan.programs[0].source_variables == ["house_prices", "long_term_rate"]
    assert coordinator.plan_problems(plan, CO_INPUT) == []
    wide = plan.model_copy(update={"admissible_roles": ["generation", "evaluation"]})
    assert "roles ['evaluation']" in coordinator.plan_problems(wide, CO_INPUT)[0]
    invented = coordinator.CoordinatorPlan(
        programs=[
            coordinator.RiskPlan(
                risk="property_correction", source_variables=["policy_rate"], targets=["credit_losses"]
            )
        ],
        outcomes=[],
        admissible_roles=["generation"],
    )
    probs = coordinator.plan_problems(invented, CO_INPUT)
    assert any("credit_losses" in p for p in probs) and any("policy_rate" in p for p in probs)
    missing = coordinator.CoordinatorPlan(programs=[], outcomes=[], admissible_roles=["generation"])
    assert "differ from the request" in coordinator.plan_problems(missing, CO_INPUT)[0]


def test_execution_plan_must_run_every_compatible_model_with_the_registered_seed():
    inp = execution.ExecutionInput(request_id="mreq_1", compatible=["macro_var", "other"], seed=7)
    assert execution.plan_problems(execution.offline(inp), inp) == []
    dropped = execution.ExecutionPlan(model_ids=["macro_var"], seed=7)
    assert "every compatible model" in execution.plan_problems(dropped, inp)[0]
    reseeded = execution.ExecutionPlan(model_ids=["other", "macro_var"], seed=8)
    assert execution.plan_problems(reseeded, inp) == ["the plan's seed differs from the registered seed of the request"]


def test_testing_plan_names_requested_outputs_inside_the_horizon():
    inp = testing.TestingInput(
        risk="r",
        outputs=[testing.OutputBrief(variable="real_gdp", unit="percent", transformation="annual_growth")],
        periods=["2025", "2026", "2027"],
        model_ids=["macro_var"],
    )
    plan = testing.offline(inp)
    assert [(c.variable, c.period) for c in plan.claims] == [
        ("real_gdp", "2025"),
        ("real_gdp", "2026"),
        ("real_gdp", "2027"),
    ]
    assert testing.plan_problems(plan, inp) == []
    bad = testing.TestPlan(
        claims=[
            testing.ClaimChoice(variable="house_prices", period="2025"),
            testing.ClaimChoice(variable="real_gdp", period="2031"),
        ]
    )
    assert len(testing.plan_problems(bad, inp)) == 2
    assert testing.plan_problems(testing.TestPlan(claims=[]), inp) == ["no claim registered"]


def test_model_request_offline_rationale_has_no_digit_and_requests_offered_outputs():
    inp = model_request.ModelRequestInput(
        risk="property_correction",
        restrictions=[
            model_request.RestrictionBrief(
                restriction_id="rst_1", variable="house_prices", model_variable="house_prices", direction=-1, priority=2
            )
        ],
        offered=[
            model_request.OfferedOutput(
                model_id="macro_var", variable=v, unit="percent", frequency="A", transformation="annual_log_change"
            )
            for v in ("house_prices", "real_gdp")
        ]
        + [
            model_request.OfferedOutput(
                model_id="bank_only", variable="cet1_ratio", unit="percent", frequency="H", transformation="level"
            )
        ],
    )
    draft = model_request.offline(inp)
    assert [o.variable for o in draft.outputs] == ["house_prices", "real_gdp"]
    assert model_request.contract(model_request.TASK, draft) is None
    assert model_request.unknown_outputs(draft, inp) == []
    bad = draft.model_copy(update={"rationale": "Three years, i.e. ３ years"})  # a full-width digit counts
    assert "contract violation" in model_request.contract(model_request.TASK, bad)


def test_a_refused_agent_answer_is_recorded_before_the_stop(store):
    silly = model_request.TASK.__class__(
        name="model_request",
        prompt=Prompt(name="model_request", version="x", system="", instructions=""),
        input_schema=model_request.ModelRequestInput,
        output_schema=model_request.ModelRequestDraft,
        offline=lambda i: model_request.ModelRequestDraft(outputs=[], rationale="Over 3 years."),
    )
    client = LLMClient(store, OfflineBackend(), "an_x", validators=[model_request.contract])
    with pytest.raises(StageStopped, match="contract violation"):
        client.run(silly, model_request.ModelRequestInput(risk="r", restrictions=[], offered=[]), stage="mr")
