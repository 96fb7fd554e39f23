"""The report's bank paragraph (issue #16 item 5): cross-bank CET1 figures as NUM claims registered
before the bank run, traced to the bank ModelRun of the selected path, recomputed from its per-bank
table, accepted by check-report and the renderer, and labelled synthetic on the demo."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from dashboard_demo import demo_workspace

from aieco.errors import InputError
from aieco.models.bank import outputs as bank_outputs
from aieco.records import (
    Claim,
    ModelOutputPoint,
    ModelRun,
    ObservedValue,
    OutputTest,
    Provenance,
    Report,
    ReportSentence,
    StageRecord,
)
from aieco.reporting.bank import CLAIM_MODEL, bank_claim_specs
from aieco.reporting.claims import unit_rule
from aieco.reporting.render import format_value, rebuild_report, stored_draft
from aieco.store import Store

_CHECK, _EXECUTION = ["-w"], ["--phase", "execution"]

# ---- the figures, by hand ---------------------------------------------------------------------


def test_cross_bank_table_by_hand():
    # depletion 0, 1, 2, 3, 4 pp; starting ratios 8, 9, 10, 7.5, 12 %: minimum ratios 8, 8, 8, 4.5, 8
    table = bank_outputs.cross_bank_table(np.array([0.0, 1, 2, 3, 4]), np.array([8.0, 9, 10, 7.5, 12]), 7.0)
    row = table.loc[bank_outputs.ROW]
    assert row["depletion_p50"] == 2.0
    assert row["depletion_p05"] == pytest.approx(0.2)  # linear: 0 + 0.05 · 4 · (1 − 0)
    assert row["depletion_p95"] == pytest.approx(3.8)
    assert row["banks_below"] == 1.0 and row["threshold"] == 7.0 and row["banks"] == 5.0
    # a bank exactly at the threshold is not below it
    edge = bank_outputs.cross_bank_table(np.array([1.0]), np.array([8.0]), 7.0)
    assert edge.loc["all", "banks_below"] == 0.0


@pytest.mark.parametrize(
    "depletion, start",
    [
        (np.array([]), np.array([])),
        (np.array([1.0, 2.0]), np.array([8.0])),
        (np.array([1.0, np.nan]), np.array([8.0, 9.0])),
        (np.array([[1.0]]), np.array([[8.0]])),
    ],
)
def test_cross_bank_table_refuses_bad_input(depletion, start):
    with pytest.raises(InputError):
        bank_outputs.cross_bank_table(depletion, start)


def test_every_figure_has_a_point_in_its_table_and_a_registered_unit_rule():
    points = bank_outputs.cross_bank_points("2025-2027")
    table = bank_outputs.cross_bank_table(np.array([1.0, 2.0]), np.array([10.0, 6.0]))
    assert [(p.variable, p.statistic) for p in points] == [(f.variable, f.statistic) for f in bank_outputs.FIGURES]
    assert all(p.column in table.columns and p.row in table.index for p in points)
    rules = {f.variable: unit_rule(f.unit) for f in bank_outputs.FIGURES}
    assert (rules["cet1_depletion"].decimals, rules["cet1_depletion"].text) == (1, " pp")
    assert (rules["banks_below_cet1_threshold"].decimals, rules["banks_projected"].decimals) == (0, 0)
    assert (rules["cet1_threshold"].decimals, rules["cet1_threshold"].text) == (1, "%")


def test_bank_claims_only_when_requested_and_on_real_banks_for_the_scenario_model(store):
    specs = bank_claim_specs(store, "an", "trade_fragmentation", "2025-2027", outcomes=["real_gdp", "cet1_ratio"])
    assert {(s.variable, s.statistic) for s in specs} == {(f.variable, f.statistic) for f in bank_outputs.FIGURES}
    assert {s.model_id for s in specs} == {CLAIM_MODEL} and {s.period for s in specs} == {"2025-2027"}
    assert not bank_claim_specs(store, "an", "trade_fragmentation", "2025-2027", outcomes=["real_gdp"])
    # real EBA banks: the claims are the scenario-conditional real-data model's (no synthetic model stands in)
    from datetime import date

    store.put(
        ObservedValue.create(
            variable="cet1_capital",
            value=1.0,
            unit="EUR mn",
            frequency="A",
            reference_period="2020",
            jurisdiction="DE",
            entity="LEI0000000000000000X",
            sector="banks",
            provenance=Provenance.real,
            release_date=date(2021, 7, 30),
        )
    )
    real = bank_claim_specs(store, "an", "trade_fragmentation", "2025-2027", outcomes=["cet1_ratio"])
    assert {s.model_id for s in real} == {"bank_eba_scenario"} and {s.period for s in real} == {"2025-2027"}
    assert {(s.variable, s.statistic) for s in real} == {(f.variable, f.statistic) for f in bank_outputs.FIGURES}
    assert not bank_claim_specs(store, "an", "trade_fragmentation", "2025-2027", outcomes=["real_gdp"])


# ---- the demo report ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return demo_workspace(tmp_path_factory)


def _bank_sentences(store, report):
    claims = {c.claim_id: c for c in store.find(Claim, analysis_id=report.analysis_id)}
    sentences = sorted(store.find(ReportSentence, report_id=report.report_id), key=lambda s: s.position)
    bank = [s for s in sentences if any(claims[c].model_id == CLAIM_MODEL for c in s.claim_ids if c in claims)]
    return sentences, bank, claims


def test_demo_report_states_the_cross_bank_figures_traced_to_the_bank_run(demo):
    with Store(demo) as store:
        reports = [r for r in store.find(Report) if r.status == "passed"]
        assert reports
        for report in reports:
            sentences, bank, claims = _bank_sentences(store, report)
            used = {c for s in bank for c in s.claim_ids}
            figures = {(claims[c].variable, claims[c].statistic): claims[c] for c in used}
            assert set(figures) == {(f.variable, f.statistic) for f in bank_outputs.FIGURES}
            macro = {claims[c].run_id for s in sentences for c in s.claim_ids if claims[c].model_id == "macro_var"}
            assert len(macro) == 1
            [run_id] = {c.run_id for c in figures.values()}
            run = store.get(ModelRun, run_id)
            # the bank run projects the selected path: its parent is the macro run of the report's figures
            assert run.model_id == CLAIM_MODEL and macro <= set(run.parent_runs)
            assert run.diagnostics["provenance"] == "synthetic"
            # registered before any run of the analysis, passed after it
            registered = {
                t.claim_id: t for t in store.find(OutputTest, analysis_id=report.analysis_id, phase="registered")
            }
            [stage] = [
                r
                for r in store.find(StageRecord, analysis_id=report.analysis_id)
                if r.stage == f"{report.risk}/model_request" and r.status.value == "completed"
            ]
            at_request = set(store.get_json(stage.output_digest)["claim_ids"])
            results = {t.claim_id: t for t in store.find(OutputTest, analysis_id=report.analysis_id, phase="result")}
            tables = store.get_tables(run.output_digest)
            per_bank = tables["depletion"]
            expected = bank_outputs.cross_bank_table(
                per_bank["p50"].to_numpy(), per_bank["start_ratio"].to_numpy(), bank_outputs.CET1_THRESHOLD
            ).loc["all"]
            # an independent recomputation of the cross-bank figures from the run's own per-bank table
            d, start = per_bank["p50"].to_numpy(), per_bank["start_ratio"].to_numpy()
            assert expected["depletion_p50"] == pytest.approx(float(np.median(d)))
            assert expected["banks_below"] == float(sum(1 for x, s in zip(d, start, strict=True) if s - x < 7.0))
            assert expected["banks"] == len(per_bank) == run.diagnostics["banks"]
            for (variable, statistic), claim in figures.items():
                test = registered[claim.claim_id]
                # registered by the model_request stage, which ended before the bank run started
                assert test.model_id == CLAIM_MODEL and claim.claim_id in at_request
                assert stage.ended_at <= run.started_at
                assert results[claim.claim_id].result == "pass", results[claim.claim_id].detail
                point = store.get(ModelOutputPoint, claim.point_id)
                assert (point.variable, point.statistic, point.run_id) == (variable, statistic, run.run_id)
                f = bank_outputs.figure(variable, statistic)
                assert point.value == pytest.approx(expected[f.column], abs=1e-12)
                assert claim.rounding == unit_rule(f.unit).decimals and claim.unit == f.unit
                text = format_value(point.value, claim.unit, claim.rounding)
                holder = next(s for s in bank if claim.claim_id in s.claim_ids)
                assert text in holder.rendered
                assert "synthetic" in holder.rendered  # beside every bank figure
            paragraph = " ".join(s.rendered for s in bank)
            assert "CET1 threshold of 7.0%" in paragraph and "median synthetic bank" in paragraph
        from aieco.audit import run_audit

        audit = run_audit(store)
        assert audit["clean"], audit["mismatches"]


def test_demo_bank_paragraph_is_accepted_by_check_report_and_the_renderer(demo, tmp_path):
    from aieco.cli import main

    with Store(demo) as store:
        report = next(r for r in store.find(Report) if r.status == "passed")
        draft, _, _ = stored_draft(report)
        rebuilt = rebuild_report(store, report.report_id)
        assert rebuilt.report.rendered == report.rendered
    bank = [s for s in draft.sentences if s.paragraph == "bank"]
    assert len(bank) >= 4 and sum(1 for s in bank if s.claim_ids) == 3
    path = tmp_path / "draft.json"
    path.write_text(draft.model_dump_json(), encoding="utf-8")
    res = CliRunner().invoke(
        main,
        [*_CHECK, str(demo), "--json", "check-report", str(path), "--analysis", report.analysis_id, *_EXECUTION],
        catch_exceptions=False,
    )
    out = json.loads(res.output)
    assert res.exit_code == 0 and out["accepted"], out["violations"]
    # a bank token moved next to another figure's name is refused by the same rules
    by_var = {}
    with Store(demo) as store:
        for s in bank:
            for c in s.claim_ids:
                by_var[store.get(Claim, c).variable] = c
    below, median = by_var["banks_below_cet1_threshold"], by_var["cet1_depletion"]
    swapped = draft.model_copy(
        update={
            "sentences": [
                s.model_copy(
                    update={"template": s.template.replace(below, "@").replace(median, below).replace("@", median)}
                )
                for s in draft.sentences
            ]
        }
    )
    path.write_text(swapped.model_dump_json(), encoding="utf-8")
    res = CliRunner().invoke(
        main,
        [*_CHECK, str(demo), "--json", "check-report", str(path), "--analysis", report.analysis_id, *_EXECUTION],
        catch_exceptions=False,
    )
    assert res.exit_code == 1 and "variable_mismatch" in {v["rule"] for v in json.loads(res.output)["violations"]}


def test_demo_output_tests_stage_lists_the_bank_claims_it_passed(demo):
    with Store(demo) as store:
        for rec in store.find(StageRecord):
            if rec.stage.endswith("/output_tests") and rec.status.value == "completed":
                passed = store.get_json(rec.output_digest)["passed"]
                models = {store.get(Claim, c).model_id for c in passed}
                assert models == {"macro_var", CLAIM_MODEL}


def test_a_figure_rounding_to_minus_zero_keeps_its_result_record_intact(store):
    """A small negative figure (e.g. the 5th-percentile depletion −0.03 pp) rounds to −0.0; the result
    record stores 0.0 so its content still matches its id after the database round trip (audit clean)."""
    import pandas as pd

    from aieco.audit import run_audit
    from aieco.models import registry
    from aieco.models.registry import ModelResult
    from aieco.records import ModelRequest, ModelSpecification, RunStatus, VariableSpec
    from aieco.reporting.claims import ClaimSpec, link_claims, register_output_tests

    f = bank_outputs.figure("cet1_depletion", "cross_bank_p05")
    out = VariableSpec(
        variable=f.variable, unit=f.unit, frequency="A", transformation=f.transformation, horizon="2025-2027"
    )

    def fn(request, inputs, seed):
        table = pd.DataFrame({f.column: [-0.03443487180394164]}, index=[bank_outputs.ROW])
        points = [p for p in bank_outputs.cross_bank_points("2025-2027") if p.statistic == f.statistic]
        return ModelResult(status=RunStatus.completed, tables={bank_outputs.TABLE: table}, points=points)

    spec = ModelSpecification.create(
        model_id="bank_negzero",
        version="1",
        description="test",
        inputs=[],
        outputs=[out],
        scope="EA",
        horizon="2025-2027",
        snapshot="s",
        entry_point="tests:none",
        diagnostics_required=[],
        min_restrictions=0,
    )
    entry = registry.register(spec, fn)
    try:
        request = ModelRequest.create(
            analysis_id="an",
            risk="trade_fragmentation",
            outputs=[out],
            restriction_ids=[],
            horizon="2025-2027",
            scope="EA",
            rationale="test",
        )
        [test] = register_output_tests(
            store,
            [
                ClaimSpec(
                    analysis_id="an",
                    risk="trade_fragmentation",
                    variable=f.variable,
                    unit=f.unit,
                    horizon="2025-2027",
                    transformation=f.transformation,
                    period="2025-2027",
                    model_id="bank_negzero",
                    statistic=f.statistic,
                )
            ],
        )
        run = registry.execute(store, entry, request, registry.ModelInputs(), seed=0)
        [result] = link_claims(store, run, [test])
    finally:
        registry.unregister("bank_negzero")
    assert result.result == "pass" and result.reported_value == 0.0
    assert str(result.reported_value) == "0.0"  # not -0.0
    assert run_audit(store)["clean"], run_audit(store)["mismatches"]


def test_real_bank_stop_says_where_each_bank_starts_within_the_numeric_contract():
    """The starting points recorded by the application stage reach the bank paragraph as DATE tokens."""
    from datetime import date

    from aieco.reporting.contract import check_numeric_contract
    from aieco.reporting.schema import BankStart, ReportContext
    from aieco.reporting.writer import _bank_paragraph

    starts = [BankStart(kind="transparency", actual_year=2023), BankStart(kind="stress test", actual_year=2020)]
    ctx = ReportContext(
        analysis_id="a",
        risk="r",
        risk_label="r",
        cutoff=date(2024, 12, 31),
        horizon="2025-2027",
        bank_requested=True,
        bank_status="gate_failed",
        bank_starts=starts,
    )
    sentences = _bank_paragraph(ctx, [])
    assert len(sentences) == 2 and "did not pass their external validation gate" in sentences[0].template
    text = sentences[1].template
    for s in starts:
        assert f"{{{{DATE:{s.actual_year}}}}}" in text
    assert "transparency exercise" in text and "stress test" in text
    assert check_numeric_contract(sentences) == []
    one = _bank_paragraph(ctx.model_copy(update={"bank_starts": starts[1:]}), [])
    assert len(one) == 2 and "where a bank reports there" not in one[1].template
    assert check_numeric_contract(one) == []
    assert len(_bank_paragraph(ctx.model_copy(update={"bank_starts": []}), [])) == 1
