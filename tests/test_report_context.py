"""The report agent's context: refused paths are never told, bank status and provenance come from records."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from aieco.agents.report import _refused_paths, bank_status
from aieco.records import Derivation, RunStatus
from aieco.reporting.schema import ClaimBrief


def test_refused_paths_come_from_the_derivation_record(store):
    store.put(
        Derivation.create(
            analysis_id="an_ctx",
            risk="trade_fragmentation",
            restriction_ids=[],
            status="accepted",
            registration_digest="d",
            assessed=[
                {
                    "path_id": "pth_ok",
                    "query_id": "q1",
                    "composed_sign": "-",
                    "implied_target_movement": "down",
                    "outcome": "accepted",
                    "reason": "",
                },
                {
                    "path_id": "pth_bad",
                    "query_id": "q2",
                    "composed_sign": "+",
                    "implied_target_movement": None,
                    "outcome": "refused",
                    "reason": "contradicts the registered expectation",
                },
            ],
        )
    )
    assert _refused_paths(store, "an_ctx", "trade_fragmentation") == {"pth_bad"}
    assert _refused_paths(store, "an_ctx", "other_risk") == set()


def _run(model_id, status, reason=""):
    return SimpleNamespace(model_id=model_id, status=status, reason=reason)


CET1 = ClaimBrief(
    claim_id="clm.x.cet1_depletion.y1_y3.00000000",
    variable="cet1_depletion",
    label="cet1",
    period="2025-2027",
    unit="pp",
    transformation="start_minus_min",
    statistic="p50",
)


@pytest.mark.parametrize(
    "runs, claims, status",
    [
        ([_run("macro_var", RunStatus.completed)], [], "not_run"),
        ([_run("bank_feols", RunStatus.stopped, "no panel")], [], "stopped"),
        ([_run("bank_feols", RunStatus.completed, "validation gate failed")], [], "gate_failed"),
        ([_run("bank_feols", RunStatus.completed)], [], "no_claims"),
        ([_run("bank_feols", RunStatus.completed)], [CET1], "present"),
        # a passed real-data gate runs the real model, which takes no macro path: no scenario outcome
        ([_run("bank_eba_components", RunStatus.completed)], [], "not_scenario"),
        ([_run("bank_eba_depletion", RunStatus.completed)], [], "not_scenario"),
        # a model that follows the scenario beside it: its figures could be claims
        ([_run("bank_eba_depletion", RunStatus.completed), _run("bank_feols", RunStatus.completed)], [], "no_claims"),
    ],
)
def test_bank_status(runs, claims, status):
    assert bank_status(runs, claims) == status


def test_bank_status_when_every_bank_model_failed_its_gate_before_any_run():
    """A real-data bank model that fails its gate stops before any run: the report says gate_failed."""
    runs = [_run("macro_var", RunStatus.completed)]
    assert bank_status(runs, [], gates_failed=True) == "gate_failed"
    assert bank_status(runs, [], gates_failed=False) == "not_run"
    assert bank_status([_run("bank_feols", RunStatus.completed)], [CET1], gates_failed=True) == "present"


def test_bank_runs_whose_claim_model_failed_its_gate_report_the_gate(store):
    """FE runs completed but FE-QAR, which carries the bank claims, failed its gate: no figure, and the
    report says it is the gate (not a missing registration)."""
    from aieco.records import Provenance, ValidationGate
    from aieco.reporting.bank import CLAIM_MODEL, claim_model_gate_failed

    assert not claim_model_gate_failed(store)  # never validated: not a failed gate
    store.put(
        ValidationGate.create(
            model_id=CLAIM_MODEL,
            metrics={"mae": 3.0},
            thresholds={"mae_max": 2.0},
            passed=False,
            detail="MAE above threshold",
            fit_provenance=Provenance.synthetic,
            validation_provenance=Provenance.synthetic,
        )
    )
    assert claim_model_gate_failed(store)
    runs = [_run("bank_feqar", RunStatus.completed)]
    assert bank_status(runs, [], gates_failed=claim_model_gate_failed(store)) == "gate_failed"
    assert bank_status(runs, [], gates_failed=False) == "no_claims"


def test_takes_macro_path_reads_the_registry_specification():
    """The predicate behind 'not_scenario' (report) and 'not scenario-conditional' (dashboard): a model
    takes a macro path when its specification declares input variables — read from the spec, not the name."""
    from aieco.errors import InputError
    from aieco.models import catalog
    from aieco.models.catalog import specification, takes_macro_path
    from aieco.records import ModelSpecification, VariableSpec

    assert takes_macro_path("macro_var") and takes_macro_path("bank_feols") and takes_macro_path("bank_feqar_fit")
    assert not takes_macro_path("bank_eba_depletion") and not takes_macro_path("bank_eba_components")
    assert not takes_macro_path("bank_eba_components:2016->2021")  # a validation variant of the model
    assert specification("bank_eba_depletion").inputs == []
    out = [VariableSpec(variable="cet1_depletion", unit="pp", frequency="A", transformation="start_minus_min")]
    for inputs, expected in (([], False), (out, True)):
        spec = ModelSpecification.create(
            model_id="bank_test_predicate",
            version="1",
            inputs=inputs,
            outputs=out,
            snapshot="s",
            entry_point="aieco.models.macro:run_macro_var",
        )
        # a bank model because its catalog entry says so (kind), whatever its name
        catalog.add(
            catalog.ModelEntry(
                model_id="bank_test_predicate",
                label="Test predicate",
                kind="bank",
                specification=lambda spec=spec: spec,
                run=lambda request, inputs, seed: None,
            )
        )
        try:
            assert takes_macro_path("bank_test_predicate") is expected
            runs = [_run("bank_test_predicate", RunStatus.completed)]
            assert (bank_status(runs, []) == "not_scenario") is not expected
        finally:
            catalog.remove("bank_test_predicate")
    with pytest.raises(InputError, match="no model 'bank_unknown'"):
        takes_macro_path("bank_unknown")
