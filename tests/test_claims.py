"""Claims registered before the run, linked after it; readable, stable ids free of calendar years."""

import pytest
from reporting_world import ANALYSIS, HORIZON, RISK, SPEC, VALUES, build_world, toy_model

from aieco.errors import InputError
from aieco.models.registry import ModelInputs, execute, register, unregister
from aieco.records import Claim, ModelRequest, OutputTest, claim_id_for, period_tag
from aieco.reporting.claims import ClaimSpec, latest_results, link_claims, passed_claims, register_output_tests
from aieco.reporting.contract import CLAIM_ID_RE, YEAR_RE


@pytest.mark.parametrize(
    "period, tag",
    [
        ("2025", "y1"),
        ("2027", "y3"),
        ("2025-2027", "y1_y3"),
        ("2026Q3", "y2q3"),
        ("2025H2", "y1h2"),
        ("2024", "b1"),
        ("2025-07", "y1m7"),
    ],
)
def test_period_tags_are_relative_to_the_horizon(period, tag):
    assert period_tag(period, "2025-2027") == tag


@pytest.mark.parametrize("period", ["next year", "2025Q5", "25", ""])
def test_period_tag_refuses_unknown_forms(period):
    with pytest.raises(ValueError):
        period_tag(period, "2025-2027")


def test_claim_id_is_readable_stable_and_has_no_calendar_year():
    a = claim_id_for(
        "an_1",
        "trade_fragmentation",
        "real_gdp",
        "2027",
        horizon="2025-2027",
        unit="percent",
        transformation="annual_log_change",
    )
    assert a.startswith("clm.trade_fragmentation.real_gdp.y3.")
    assert a == claim_id_for(
        "an_1",
        "trade_fragmentation",
        "real_gdp",
        "2027",
        horizon="2025-2027",
        unit="percent",
        transformation="annual_log_change",
    )
    assert CLAIM_ID_RE.match(a) and not YEAR_RE.search(a[:-8])
    other = claim_id_for(
        "an_2",
        "trade_fragmentation",
        "real_gdp",
        "2027",
        horizon="2025-2027",
        unit="percent",
        transformation="annual_log_change",
    )
    assert other != a and other[:-8] == a[:-8]


@pytest.mark.parametrize("risk, variable", [("Trade", "real_gdp"), ("trade", "gdp_2025"), ("trade", "real gdp")])
def test_claim_spec_refuses_ids_that_would_break_the_token_grammar(risk, variable):
    spec = ClaimSpec(
        analysis_id="an",
        risk=risk,
        variable=variable,
        unit="percent",
        horizon="2025-2027",
        transformation="level",
        period="2025",
        model_id="m",
    )
    with pytest.raises(InputError):
        _ = spec.claim_id


def test_tests_are_registered_before_the_run_and_linked_after(store):
    w = build_world(store, link=False)
    registered = store.find(OutputTest, analysis_id=ANALYSIS, phase="registered")
    assert len(registered) == len(VALUES) * 4
    assert store.count(Claim) == 0 and latest_results(store, ANALYSIS) == {}
    results = link_claims(store, w.run)
    assert len(results) == len(registered) and {r.result for r in results} == {"pass"}
    claim = store.require(Claim, w.cid("house_prices", "2026"))
    assert (claim.table_name, claim.row, claim.column, claim.run_id) == ("paths", "2026", "house_prices", w.run.run_id)
    assert claim.artifact_digest == w.run.output_digest
    result = latest_results(store, ANALYSIS)[claim.claim_id]
    assert result.stored_value == -2.52712 and result.reported_value == -2.5
    assert claim.claim_id in passed_claims(store, ANALYSIS)
    claim.verify_id()


def test_the_horizon_mean_is_its_own_claim(store):
    w = build_world(store)
    claim = store.require(Claim, w.cid("real_gdp", HORIZON))
    assert (claim.table_name, claim.row) == ("means", HORIZON)
    assert latest_results(store, ANALYSIS)[claim.claim_id].stored_value == pytest.approx(sum(VALUES["real_gdp"]) / 3)


def _rerun(store, spec_changes):
    entry = register(SPEC, toy_model)
    try:
        fields = dict(
            analysis_id="an_other",
            risk=RISK,
            variable="real_gdp",
            unit="percent",
            horizon=HORIZON,
            transformation="annual_log_change",
            period="2025",
            model_id="toy_macro",
        )
        specs = [ClaimSpec(**{**fields, **spec_changes})]
        tests = register_output_tests(store, specs)
        request = ModelRequest.create(analysis_id="an_other", risk=RISK, outputs=SPEC.outputs, restriction_ids=["r"])
        run = execute(store, entry, request, ModelInputs(), seed=1)
    finally:
        unregister("toy_macro")
    return link_claims(store, run, tests)[0]


@pytest.mark.parametrize(
    "changes, word",
    [
        ({"unit": "pp"}, "unit"),
        ({"transformation": "level"}, "transformation"),
        ({"required_diagnostics": ["convergence"]}, "diagnostic"),
        ({"input_versions": {"history": "0" * 64}}, "input history"),
    ],
)
def test_a_mismatching_registration_is_linked_and_fails(store, changes, word):
    result = _rerun(store, changes)
    assert result.result == "fail" and word in result.detail
    assert result.claim_id not in passed_claims(store, "an_other")


def test_a_missing_point_fails_with_its_reason(store):
    result = _rerun(store, {"period": "2030"})
    assert result.result == "fail" and "no output point" in result.detail and result.point_id is None


def test_duplicate_registration_is_refused(store):
    spec = ClaimSpec(
        analysis_id="an",
        risk=RISK,
        variable="real_gdp",
        unit="percent",
        horizon=HORIZON,
        transformation="level",
        period="2025",
        model_id="m",
    )
    with pytest.raises(InputError):
        register_output_tests(store, [spec, spec])


def test_registered_tests_are_append_only(store):
    build_world(store)
    from aieco.errors import IntegrityError

    with pytest.raises(IntegrityError):
        store.execute_raw("UPDATE output_tests SET tolerance = 1 WHERE phase = 'registered'")


def test_a_stopped_run_releases_no_claim(store):
    from aieco.errors import StageStopped

    def stopping_model(request, inputs, seed):
        raise StageStopped("VAR unstable", stage="execution")

    entry = register(SPEC, stopping_model)
    try:
        spec = ClaimSpec(
            analysis_id="an_stop",
            risk=RISK,
            variable="real_gdp",
            unit="percent",
            horizon=HORIZON,
            transformation="annual_log_change",
            period="2025",
            model_id="toy_macro",
        )
        tests = register_output_tests(store, [spec])
        request = ModelRequest.create(analysis_id="an_stop", risk=RISK, outputs=SPEC.outputs, restriction_ids=["r"])
        run = execute(store, entry, request, ModelInputs(), seed=1)
    finally:
        unregister("toy_macro")
    assert run.status.value == "stopped"
    result = link_claims(store, run, tests)[0]
    assert result.result == "fail" and "no output point" in result.detail
    assert passed_claims(store, "an_stop") == {}
