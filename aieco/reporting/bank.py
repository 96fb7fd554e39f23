"""The report's bank claims: registered before any bank run, linked to the bank run of the selected path.

When ``cet1_ratio`` is requested and the workspace's bank models project the generated scenario
(FE-QAR on a half-year bank panel, :data:`CLAIM_MODEL`), :func:`bank_claim_specs` registers one
claim per cross-bank figure of :data:`aieco.models.bank.outputs.FIGURES` with the macro claims
(same ``model_request`` stage, before any model runs), each with its unit's rounding rule and
unit text (pp for depletion, a count for banks, % for the threshold).

The real-data model ``bank_eba_components`` takes no macro path (it describes an EBA-style
adverse exercise from each bank's starting state), so it never carries claims about the
generated scenario; on a workspace with real EBA banks the bank paragraph states why the bank
part stops instead.

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
#: Diagnostics the claim requires of that run (as its specification does).
REQUIRED_DIAGNOSTICS = ("quantile_crossing", "accounting_identities")


def real_bank_workspace(store: Store) -> bool:
    """Whether the workspace holds real bank records (then no synthetic bank model may stand in)."""
    return bool(store.find(ObservedValue, sector="banks", provenance=Provenance.real.value))


def bank_claim_specs(
    store: Store, analysis_id: str, risk: str, horizon: str, *, outcomes: Sequence[str]
) -> list[ClaimSpec]:
    """The cross-bank claims of the bank paragraph (none unless ``cet1_ratio`` is requested and a
    scenario-conditional bank model may run on the workspace's bank data)."""
    if "cet1_ratio" not in outcomes or real_bank_workspace(store):
        return []
    return [
        ClaimSpec(
            analysis_id=analysis_id,
            risk=risk,
            variable=f.variable,
            unit=f.unit,
            horizon=horizon,
            transformation=f.transformation,
            period=horizon,
            model_id=CLAIM_MODEL,
            statistic=f.statistic,
            required_diagnostics=list(REQUIRED_DIAGNOSTICS),
        )
        for f in bank_outputs.FIGURES
    ]


def claim_model_gate_failed(store: Store) -> bool:
    """The claim model was validated and no gate of it passed (its figures may not be reported)."""
    from aieco.records import ValidationGate

    gates = store.find(ValidationGate, model_id=CLAIM_MODEL)
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

    bank_tests = [t for t in tests if t.phase == "registered" and t.model_id == CLAIM_MODEL]
    if not bank_tests:
        return [], []
    run = bank_run_of(store, macro_run)
    if run is None or passing_gate(store, CLAIM_MODEL) is None:
        return [], []  # no projection, or its model may not supply conclusions: the report says why
    return claims_and_results(store, run, bank_tests)
