"""The offline report writer: connected prose with NUM tokens and citations, never a digit."""

import re

import pytest
from reporting_world import ANALYSIS, HORIZON, RISK, VALUES, YEARS, build_world

from aieco.reporting.claims import passed_claims
from aieco.reporting.contract import TOKEN_RE, check_numeric_contract
from aieco.reporting.render import check_report_draft, render_report
from aieco.reporting.schema import ClaimBrief, RelationBrief, ReportContext, ReportDraft, SentenceDraft
from aieco.reporting.writer import write_report

LABEL = {"house_prices": "house prices", "real_gdp": "real GDP growth", "unemployment": "the unemployment rate"}


def _context(w) -> ReportContext:
    rels = [
        RelationBrief(
            relation_id=r.relation_id,
            src_var=r.src_var,
            dst_var=r.dst_var,
            src_label=r.src_var.replace("_", " "),
            dst_label=r.dst_var.replace("_", " "),
            sign=r.sign.value,
        )
        for k, r in w.relations.items()
        if k != "rejected"
    ]
    claims = []
    for var, values in VALUES.items():
        for period, value in [*zip(YEARS, values, strict=True), (HORIZON, sum(values) / 3)]:
            claims.append(
                ClaimBrief(
                    claim_id=w.cid(var, period),
                    variable=var,
                    label=LABEL[var],
                    period=period,
                    unit="percent",
                    transformation="annual_log_change",
                    sign=(value > 0) - (value < 0),
                )
            )
    return ReportContext(
        analysis_id=ANALYSIS,
        risk=RISK,
        risk_label="property-market correction",
        paths=[[rels[0].relation_id, rels[1].relation_id], [rels[2].relation_id]],
        relations=rels,
        claims=claims,
    )


def test_writer_output_passes_the_contract_and_renders(store):
    w = build_world(store)
    draft = write_report(_context(w))
    for s in draft.sentences:
        assert not any(c.isdigit() for c in TOKEN_RE.sub("", s.template)), s.template
    assert check_report_draft(store, ANALYSIS, draft) == []
    assert check_report_draft(store, ANALYSIS, draft, phase="execution") == []
    out = render_report(store, ANALYSIS, draft)
    assert out.report.status == "passed"
    assert set(out.report.claim_ids) == set(passed_claims(store, ANALYSIS))
    assert "-5.4%" in out.report.rendered and "(ESRB, Adverse scenario 2018, p. 5)" in out.report.rendered


def test_writer_prose_is_connected_and_varied(store):
    w = build_world(store)
    draft = write_report(_context(w))
    paragraphs = [s.paragraph for s in draft.sentences]
    assert paragraphs[:3] == ["channel:1"] * 2 + ["channel:2"]
    channel = [s for s in draft.sentences if s.paragraph.startswith("channel:")]
    assert all(s.kind.value == "qualitative" and s.cited_relation_ids for s in channel)
    scenario = [s for s in draft.sentences if s.paragraph == "scenario"]
    assert scenario[0].kind.value == "temporal" and "{{DATE:horizon}}" in scenario[0].template
    annual = [s for s in draft.sentences if s.paragraph == "annual"]
    assert annual and {s.kind.value for s in annual} == {"numerical"}
    assert all(len(s.claim_ids) <= 3 for s in draft.sentences)
    openings = {" ".join(TOKEN_RE.sub("#", s.template).split()[:2]) for s in draft.sentences}
    assert len(openings) >= 5, openings
    joiners = {m for s in draft.sentences for m in re.findall(r", together with| as well as| and ", s.template)}
    assert joiners and ", together with" not in joiners


def test_mechanism_carries_the_direction_along_the_path(store):
    w = build_world(store)
    ctx = _context(w)
    path = [w.relations[k].relation_id for k in ("rates_mortgage", "mortgage_house", "house_gdp")]
    draft = write_report(ctx.model_copy(update={"paths": [path], "claims": []}))
    steps = [s.template for s in draft.sentences if s.paragraph == "channel:1"]
    assert steps[0] == (
        "The first channel runs from the long term rate to real gdp: "
        "a rise in the long term rate raises mortgage rates."
    )
    # each later step starts from the movement the previous one gave its variable
    lead, down = r"^(The|That) (resulting )?", r" (in turn |then )?(weighs on|reduces|lowers) "
    assert re.search(lead + r"rise in mortgage rates" + down + r"house prices\.$", steps[1])
    assert re.search(lead + r"fall in house prices" + down + r"real gdp\.$", steps[2])
    # the shared rule set accepts every step (relation signs and direction words agree)
    assert check_report_draft(store, ANALYSIS, draft) == []


def test_writer_is_deterministic(store):
    w = build_world(store)
    assert write_report(_context(w)) == write_report(_context(w))


def test_writer_without_paths_cites_every_relation_once(store):
    w = build_world(store)
    ctx = _context(w).model_copy(update={"paths": [], "claims": []})
    draft = write_report(ctx)
    cited = {(s.paragraph, r) for s in draft.sentences for r in s.cited_relation_ids}
    assert sorted(r for _, r in cited) == sorted(r.relation_id for r in ctx.relations)  # one channel each


NEGATIVE = [
    "Losses reach EUR three billion.",
    "Spreads widen by twenty-five basis points.",
    "Growth is 5%.",
    "{{NUM:2025}} is the outcome.",
    "{{NUM:rel_0123456789abcdef0123}} stands.",
    "Profits halve.",
    "Two thirds of banks breach.",
    "{{DATE:2027-2025}} runs backwards.",
]


@pytest.mark.parametrize("template", NEGATIVE)
def test_generation_and_execution_checks_reject_the_same_forms(store, template):
    build_world(store)
    draft = ReportDraft(title="t", risk=RISK, sentences=[SentenceDraft(kind="temporal", template=template)])
    at_generation = {v.rule for v in check_report_draft(store, ANALYSIS, draft)}
    after_execution = {v.rule for v in check_report_draft(store, ANALYSIS, draft, phase="execution")}
    assert at_generation and at_generation == after_execution
    assert {v.rule for v in check_numeric_contract(template)} <= at_generation


def test_a_path_through_an_earlier_one_tells_only_its_new_steps(store):
    w = build_world(store)
    ctx = _context(w)
    first, second, third = (r.relation_id for r in ctx.relations)
    # The second path runs through the first one: its new relation is told as a continuation.
    draft = write_report(ctx.model_copy(update={"paths": [[first, second], [first, second, third]], "claims": []}))
    second_channel = [s for s in draft.sentences if s.paragraph == "channel:2"]
    assert len(second_channel) == 1
    assert second_channel[0].template == (
        "A second channel links the long term rate to real gdp: it follows the first channel as far as house "
        "prices, and the fall in house prices then weighs on real gdp."
    )
    assert second_channel[0].cited_relation_ids == [third]
    steps = [r for s in draft.sentences if s.paragraph.startswith("channel:") for r in s.cited_relation_ids]
    assert sorted(steps) == sorted([first, second, third])  # each step told once, each cited once
    assert check_report_draft(store, ANALYSIS, draft) == []


def test_a_path_with_a_relation_outside_the_accepted_set_is_not_told(store):
    w = build_world(store)
    ctx = _context(w)
    first = ctx.relations[0].relation_id
    draft = write_report(ctx.model_copy(update={"paths": [[first, w.relations["rejected"].relation_id]], "claims": []}))
    assert not any(s.paragraph.startswith("channel:") for s in draft.sentences)


@pytest.mark.parametrize(
    ("transformation", "label", "phrase"),
    [
        ("annual_growth", "real GDP", "annual growth in real GDP at {{NUM:"),
        ("annual_average", "unemployment rate", "the annual-average unemployment rate at {{NUM:"),
        ("annual_avg_index_change", "equity prices", "the change in annual-average equity prices at {{NUM:"),
        ("annual_avg_index_growth", "consumer price inflation", "annual consumer price inflation at {{NUM:"),
        ("level", "long-term interest rate", "the long-term interest rate at {{NUM:"),
        ("annual_growth", "credit growth", "credit growth at {{NUM:"),
    ],
)
def test_numbers_are_named_by_what_they_measure(store, transformation, label, phrase):
    w = build_world(store)
    ctx = _context(w)
    claims = [
        c.model_copy(update={"transformation": transformation, "label": label})
        for c in ctx.claims
        if c.variable == "real_gdp"
    ][:1]
    draft = write_report(ctx.model_copy(update={"claims": claims, "paths": [], "relations": []}))
    numerical = [s.template for s in draft.sentences if s.kind.value == "numerical"]
    assert len(numerical) == 1 and phrase in numerical[0], numerical
    assert not any(c.isdigit() for c in TOKEN_RE.sub("", numerical[0]))


# --------------------------------------------------------------------------- scenario, provenance, bank


def _figure(variable, transformation, statistic="selected", unit="%", sign=-1):
    from aieco.records import claim_id_for

    cid = claim_id_for(
        ANALYSIS,
        RISK,
        variable,
        HORIZON,
        horizon=HORIZON,
        unit=unit,
        transformation=transformation,
        statistic=statistic,
    )
    return ClaimBrief(
        claim_id=cid,
        variable=variable,
        label=variable.replace("_", " "),
        period=HORIZON,
        unit=unit,
        transformation=transformation,
        statistic=statistic,
        sign=sign,
    )


FIGURES = [
    _figure("real_gdp", "cumulative_change"),
    _figure("real_gdp", "cumulative_change", "median", sign=1),
    _figure("real_gdp", "deviation_from_median"),
    _figure("unemployment", "peak", sign=1),
    _figure("unemployment", "peak", "median", sign=1),
    _figure("unemployment", "peak_deviation_from_median", unit="pp", sign=1),
    _figure("house_prices", "cumulative_change"),
    _figure("house_prices", "cumulative_change", "median"),
    _figure("house_prices", "deviation_from_median"),
    _figure("house_prices", "peak_to_trough"),
    _figure("equity_prices", "cumulative_change"),
    _figure("equity_prices", "cumulative_change", "median"),
    _figure("equity_prices", "deviation_from_median"),
]


def _rules_ok(draft, claims):
    from aieco.reporting.rules import ClaimFacts, direction_violations, variable_violations

    facts = {c.claim_id: ClaimFacts(c.claim_id, c.variable, c.transformation, float(c.sign or 0)) for c in claims}
    assert check_numeric_contract(draft.sentences, known_claims=set(facts), title=draft.title) == []
    assert variable_violations(draft.sentences, facts) == []
    assert direction_violations(draft.sentences, {k: (f.value, f) for k, f in facts.items()}) == []


def test_scenario_paragraph_states_each_figure_against_the_median_path():
    from aieco.reporting.schema import ProvenanceBrief

    ctx = ReportContext(
        analysis_id=ANALYSIS,
        risk=RISK,
        risk_label="property correction",
        claims=FIGURES,
        provenance=ProvenanceBrief(
            data="synthetic", evidence="illustrative", sample_start="2001Q1", sample_end="2024Q3", release_rules=["lag"]
        ),
    )
    draft = write_report(ctx)
    scenario = [s for s in draft.sentences if s.paragraph == "scenario"]
    first = scenario[0].template
    assert "computed from synthetic inputs" in first and "illustrative" in first and "not a forecast" in first
    assert "{{DATE:2001Q1}}" in first and "{{DATE:2024Q3}}" in first and "{{DATE:cutoff}}" in first
    assert "publication lags" in first
    used = {c for s in scenario for c in s.claim_ids}
    assert used == {c.claim_id for c in FIGURES}  # every figure, each once, in the scenario paragraph
    assert all("baseline" in s.template for s in scenario[1:5])
    assert not [s for s in draft.sentences if s.paragraph == "annual"]
    _rules_ok(draft, FIGURES)


def test_variables_no_channel_restricts_are_named_once_without_a_number():
    base = dict(analysis_id=ANALYSIS, risk=RISK, risk_label="property correction", claims=FIGURES)
    assert not [s for s in write_report(ReportContext(**base)).sentences if "restricts" in s.template]
    one = write_report(ReportContext(**base, unrestricted_variables=["equity_prices"]))
    said = [s for s in one.sentences if "restricts" in s.template]
    assert [s.template for s in said] == [
        "No channel of this scenario restricts equity prices: its path is the model's conditional response given "
        "the restricted variables, not a direction the cited evidence sets."
    ]
    assert said[0].paragraph == "scenario" and not said[0].claim_ids and not said[0].cited_relation_ids
    two = write_report(ReportContext(**base, unrestricted_variables=["equity_prices", "house_prices"]))
    (text,) = [s.template for s in two.sentences if "restricts" in s.template]
    assert "restricts equity prices and house prices: their paths are" in text
    _rules_ok(two, FIGURES)


def test_without_recorded_provenance_the_report_says_so():
    draft = write_report(ReportContext(analysis_id=ANALYSIS, risk=RISK, risk_label="x", claims=FIGURES[:1]))
    assert "provenance of the inputs is not recorded" in draft.sentences[0].template


@pytest.mark.parametrize(
    "status, phrase",
    [
        ("not_run", "no bank capital model ran"),
        ("stopped", "stopped before producing figures"),
        ("gate_failed", "external validation gate"),
        ("no_claims", "no cross-bank figure"),
        ("not_scenario", "takes no macro path"),
    ],
)
def test_bank_paragraph_says_why_it_is_absent(status, phrase):
    ctx = ReportContext(analysis_id=ANALYSIS, risk=RISK, risk_label="x", bank_requested=True, bank_status=status)
    bank = [s for s in write_report(ctx).sentences if s.paragraph == "bank"]
    assert len(bank) == 1 and phrase in bank[0].template and "absent" in bank[0].template
    assert check_numeric_contract(bank[0].template) == []


def _bank_claims():
    from aieco.models.bank.outputs import FIGURES as BANK

    return [_figure(f.variable, f.transformation, f.statistic, unit=f.unit, sign=1) for f in BANK]


@pytest.mark.parametrize("provenance", ["synthetic", "illustrative", "real", "undeclared"])
def test_bank_paragraph_consumes_cross_bank_figures(provenance):
    claims = _bank_claims()
    ctx = ReportContext(
        analysis_id=ANALYSIS,
        risk=RISK,
        risk_label="x",
        bank_requested=True,
        bank_status="present",
        claims=claims,
        bank_provenance=provenance,
        bank_model="bank_feqar",
    )
    draft = write_report(ctx)
    bank = [s for s in draft.sentences if s.paragraph == "bank"]
    # every cross-bank figure once, in connected sentences of one paragraph
    assert sorted(c for s in bank for c in s.claim_ids) == sorted(c.claim_id for c in claims)
    text = " ".join(s.template for s in bank)
    assert "median" in text and "CET1 threshold of" in text and "fixed-effects quantile model" in text
    numbers = [s for s in bank if s.claim_ids]
    assert len(numbers) == 3 and all(s.kind.value == "numerical" for s in numbers)
    if provenance in ("synthetic", "illustrative"):
        # the data's provenance stands beside every bank figure, and the paragraph opens and closes with it
        assert all(provenance in s.template for s in numbers)
        assert "not from real institutions" in bank[0].template and "not a conclusion" in bank[-1].template
    elif provenance == "real":
        assert "real banks" in bank[0].template and not any("synthetic" in s.template for s in bank)
    else:
        assert "provenance is not recorded" in bank[0].template
    _rules_ok(draft, claims)
    assert "negative depletion" not in text  # every figure positive here
    low = next(c for c in claims if c.statistic == "cross_bank_p05").model_copy(update={"sign": -1})
    negative = [low if c.statistic == "cross_bank_p05" else c for c in claims]
    draft = write_report(ctx.model_copy(update={"claims": negative}))
    text = " ".join(s.template for s in draft.sentences if s.paragraph == "bank")
    assert "a negative depletion meaning that the ratio of such a bank stays above its starting level" in text
    _rules_ok(draft, negative)


def test_the_real_scenario_bank_model_states_its_assumptions_without_a_number():
    """bank_eba_scenario on real banks: the figures, then the model's stated assumptions (no digit, no token)."""
    claims = _bank_claims()
    ctx = ReportContext(
        analysis_id=ANALYSIS,
        risk=RISK,
        risk_label="x",
        bank_requested=True,
        bank_status="present",
        claims=claims,
        bank_provenance="real",
        bank_model="bank_eba_scenario",
    )
    draft = write_report(ctx)
    bank = [s for s in draft.sentences if s.paragraph == "bank"]
    assert "severity-scaled model of EBA stress-test CET1 depletion" in " ".join(s.template for s in bank)
    said = bank[-1]
    assert "proportional to the scenario's fall in real GDP" in said.template and "left out" in said.template
    assert not said.claim_ids and check_numeric_contract(said.template) == []
    assert sorted(c for s in bank for c in s.claim_ids) == sorted(c.claim_id for c in claims)
    _rules_ok(draft, claims)
    feqar = write_report(ctx.model_copy(update={"bank_model": "bank_feqar"}))
    assert not any("proportional to the scenario" in s.template for s in feqar.sentences)


def test_bank_paragraph_names_each_figure_so_a_swapped_token_is_refused():
    """The attribution rule ties each bank token to its own figure: swapping two tokens is refused."""
    from aieco.reporting.rules import ClaimFacts, variable_violations

    claims = _bank_claims()
    ctx = ReportContext(
        analysis_id=ANALYSIS,
        risk=RISK,
        risk_label="x",
        bank_requested=True,
        bank_status="present",
        claims=claims,
        bank_provenance="synthetic",
    )
    draft = write_report(ctx)
    by = {(c.variable, c.statistic): c.claim_id for c in claims}
    below, median = by["banks_below_cet1_threshold", "value"], by["cet1_depletion", "cross_bank_p50"]
    swapped = [
        s.model_copy(update={"template": s.template.replace(below, "@").replace(median, below).replace("@", median)})
        for s in draft.sentences
    ]
    facts = {c.claim_id: ClaimFacts(c.claim_id, c.variable, c.transformation, 1.0) for c in claims}
    assert {v.rule for v in variable_violations(swapped, facts)} == {"variable_mismatch"}


def test_no_bank_paragraph_unless_requested():
    draft = write_report(ReportContext(analysis_id=ANALYSIS, risk=RISK, risk_label="x", claims=FIGURES[:1]))
    assert not [s for s in draft.sentences if s.paragraph == "bank"]


def test_a_registered_fall_starts_the_channel_with_a_fall(store):
    w = build_world(store)
    ctx = _context(w)
    path = [w.relations[k].relation_id for k in ("mortgage_house", "house_gdp")]
    draft = write_report(ctx.model_copy(update={"paths": [path], "path_directions": [-1], "claims": []}))
    steps = [s.template for s in draft.sentences if s.paragraph == "channel:1"]
    assert re.search(r": a fall in mortgage rates (raises|pushes up|lifts) house prices\.$", steps[0])
    assert re.search(r"rise in house prices (in turn |then )?(raises|pushes up|lifts) real gdp", steps[1])
    assert check_report_draft(store, ANALYSIS, draft) == []


def test_scenario_paragraph_reads_as_prose_with_one_name_per_variable():
    """Pins the read-through fixes: the claim's label names the variable (the annual profile
    says "residential property prices", so the scenario paragraph does too), the level gap is
    measured from the same starting point as the two cumulative changes, no "figures below",
    and house and equity prices are not told with the same sentence."""
    from aieco.reporting.schema import ProvenanceBrief

    labels = {
        "real_gdp": "real GDP",
        "unemployment": "unemployment rate",
        "house_prices": "residential property prices",
        "equity_prices": "equity prices",
    }
    figures = [f.model_copy(update={"label": labels[f.variable]}) for f in FIGURES]
    ctx = ReportContext(
        analysis_id=ANALYSIS,
        risk=RISK,
        risk_label="property correction",
        claims=figures,
        provenance=ProvenanceBrief(data="real", evidence="real", sample_start="2000Q1", sample_end="2023Q2"),
    )
    scenario = [s.template for s in write_report(ctx).sentences if s.paragraph == "scenario"]
    text = " ".join(scenario)
    assert (
        "figures below" not in text
        and "The figures that follow are model projections computed from published data" in scenario[0]
    )
    assert "house prices" not in text.replace("residential property prices", "")
    assert "away from the baseline level at that date" in scenario[1]
    assert scenario[2].startswith("The unemployment rate peaks at {{NUM:")
    hp = next(t for t in scenario if "residential property prices change" in t)
    eq = next(t for t in scenario if "equity prices" in t)
    assert hp.split("{{")[0] != eq.split("{{")[0]  # varied openings
    for t in scenario:
        assert not re.search(r"\ba [aeiou]", t), t  # no "a increase"
        assert ", together with" not in t and "  " not in t
    _rules_ok(write_report(ctx), figures)


def test_annual_lists_join_three_items_with_commas_and_and(store):
    w = build_world(store)
    draft = write_report(_context(w))
    annual = [s.template for s in draft.sentences if s.paragraph == "annual"]
    for t in annual:
        assert "together with" not in t
        if t.count("{{NUM:") == 3:
            assert re.search(r"\}\}, [^{]+\{\{NUM:[^}]+\}\} and [^{]+\{\{NUM:[^}]+\}\}\.$", t), t


def test_annual_profile_reads_activity_first_then_prices():
    claims = [
        ClaimBrief(
            claim_id=c.claim_id,
            variable=v,
            label=v.replace("_", " "),
            period="2025",
            unit="%",
            transformation="annual_growth",
            sign=1,
        )
        for c, v in zip(
            FIGURES, ("equity_prices", "house_prices", "inflation", "real_gdp", "unemployment"), strict=False
        )
    ]
    draft = write_report(ReportContext(analysis_id=ANALYSIS, risk=RISK, risk_label="x", claims=claims))
    text = " ".join(s.template for s in draft.sentences if s.paragraph == "annual")
    order = [text.index(w) for w in ("real gdp", "unemployment", "inflation", "house prices", "equity prices")]
    assert order == sorted(order)


def test_registered_channels_without_a_path_are_said_not_told(store):
    from aieco.reporting.schema import ChannelGap

    w = build_world(store)
    gaps = [
        ChannelGap(
            src_var="geopolitical_risk",
            dst_var="equity_prices",
            src_label="geopolitical risk",
            dst_label="equity prices",
        ),
        ChannelGap(src_var="tariffs", dst_var="inflation", src_label="tariffs", dst_label="consumer price inflation"),
    ]
    draft = write_report(_context(w).model_copy(update={"channels_without_path": gaps}))
    [said] = [s for s in draft.sentences if s.paragraph == "channel:none"]
    assert said.template == (
        "The request also registers channels from geopolitical risk to equity prices and from tariffs to consumer "
        "price inflation, but the relations read from this workspace's documents published on or before "
        "{{DATE:cutoff}} form no admissible path for them, so "
        "they play no part in this scenario."
    )
    assert not said.cited_relation_ids and said.kind.value == "temporal"
    order = [s.paragraph for s in draft.sentences]
    assert order.index("channel:none") > max(
        i for i, p in enumerate(order) if p.startswith("channel:") and p != "channel:none"
    )
    assert check_report_draft(store, ANALYSIS, draft) == []
    one = write_report(_context(w).model_copy(update={"channels_without_path": gaps[:1]}))
    [said] = [s for s in one.sentences if s.paragraph == "channel:none"]
    assert said.template.startswith("The request also registers a channel from geopolitical risk to equity prices,")
    assert "path for it, so it plays no part" in said.template
