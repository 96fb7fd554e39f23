"""The report's bank claims: registered before any bank run, linked to the bank run of the selected path.

When ``cet1_ratio`` is requested and the workspace's bank models project the generated scenario
(FE-QAR on a half-year bank panel, :data:`CLAIM_MODEL`), :func:`bank_claim_specs` registers one
claim per cross-bank figure of :data:`aieco.models.bank.outputs.FIGURES` with the macro claims
(same ``model_request`` stage, before any model runs), each with its unit's rounding rule and
unit text (pp for depletion, a count for banks, % for the threshold).

On a workspace with real EBA banks the claims are registered for ``bank_eba_scenario`` (the
scenario-conditional real-data model, :mod:`aieco.models.bank.eba_scenario`) and link only to its
run under the selected macro run, only when its real-data gate passed; the adverse-exercise
models ``bank_eba_components`` and ``bank_eba_depletion`` take no macro path and never carry them.

:func:`bank_claims_and_results` links the registered bank tests to the completed bank run whose parent
is the selected macro run; with no such run (the bank stage stopped), or when the model has not
passed its external validation gate, nothing is linked and the report says why.
"""

from __future__ import annotations

from collections.abc import Sequence

from aieco.models.bank import outputs as bank_outputs
from aieco.records import Claim, ModelRun, ObservedValue, OutputTest, Provenance, RunStatus
from aieco.reporting.claims import ClaimSpec, claims_and_results
from aieco.store import Store

#: The bank model whose projection under the selected scenario carries the report's bank claims.
CLAIM_MODEL = "bank_feqar"
#: On a workspace with real banks: the scenario-conditional real-data model (eba_scenario).
REAL_CLAIM_MODEL = "bank_eba_scenario"
#: Diagnostics the claim requires of that run (as its specification does).
REQUIRED_DIAGNOSTICS = ("quantile_crossing", "accounting_identities")


def real_bank_workspace(store: Store) -> bool:
    """Whether the workspace holds real bank records (then no synthetic bank model may stand in)."""
    return bool(store.find(ObservedValue, sector="banks", provenance=Provenance.real.value))


def claim_model(store: Store) -> str:
    """The bank model whose run carries the bank claims: the scenario-conditional real-data model
    on a workspace with real banks (:data:`REAL_CLAIM_MODEL`), else :data:`CLAIM_MODEL`."""
    return REAL_CLAIM_MODEL if real_bank_workspace(store) else CLAIM_MODEL


def bank_claim_specs(
    store: Store, analysis_id: str, risk: str, horizon: str, *, outcomes: Sequence[str]
) -> list[ClaimSpec]:
    """The cross-bank claims of the bank paragraph (none unless ``cet1_ratio`` is requested), for the
    workspace's scenario-conditional bank model (:func:`claim_model`)."""
    if "cet1_ratio" not in outcomes:
        return []
    model = claim_model(store)
    required = [] if model == REAL_CLAIM_MODEL else list(REQUIRED_DIAGNOSTICS)
    return [
        ClaimSpec(
            analysis_id=analysis_id,
            risk=risk,
            variable=f.variable,
            unit=f.unit,
            horizon=horizon,
            transformation=f.transformation,
            period=horizon,
            model_id=model,
            statistic=f.statistic,
            required_diagnostics=required,
        )
        for f in bank_outputs.FIGURES
    ]


def claim_model_gate_failed(store: Store) -> bool:
    """The claim model was validated and no gate of it passed (its figures may not be reported)."""
    from aieco.records import ValidationGate

    gates = store.find(ValidationGate, model_id=claim_model(store))
    return bool(gates) and not any(g.passed for g in gates)


def bank_run_of(store: Store, macro_run: ModelRun, model_id: str = CLAIM_MODEL) -> ModelRun | None:
    """The latest completed generation run of ``model_id`` applied to ``macro_run``'s selected path."""
    runs = [
        r
        for r in store.find(ModelRun, analysis_id=macro_run.analysis_id, model_id=model_id)
        if macro_run.run_id in r.parent_runs and r.role == "generation" and r.status is RunStatus.completed
    ]
    return runs[-1] if runs else None


def bank_claims_and_results(
    store: Store, macro_run: ModelRun, tests: Sequence[OutputTest]
) -> tuple[list[Claim], list[OutputTest]]:
    """The Claims and result OutputTests of linking the registered bank tests to the bank run of
    ``macro_run`` (read only: the output_tests stage returns them and the runner stores them).

    Both lists are empty when there are no bank tests, no completed bank run of the path, or the
    claim model has not passed its gate.
    """
    from aieco.models.bank.spec import passing_gate

    model = claim_model(store)
    bank_tests = [t for t in tests if t.phase == "registered" and t.model_id == model]
    if not bank_tests:
        return [], []
    run = bank_run_of(store, macro_run, model)
    if run is None or passing_gate(store, model, real_banks=model == REAL_CLAIM_MODEL) is None:
        return [], []  # no projection, or its model may not supply conclusions: the report says why
    return claims_and_results(store, run, bank_tests)
