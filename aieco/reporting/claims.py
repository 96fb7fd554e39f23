"""Claims and OutputTests: numerical conclusions fixed before the run, linked after it.

A claim is registered before any model output exists (Eq. outputtest): its test
``τ_k = (v_k, u_k, h_k, a_k, m_k, ρ_k, ε_k)`` with required diagnostics and input versions
is stored as an append-only ``OutputTest`` with ``phase="registered"``. After the model
runs, :func:`link_claims` finds the run's output point for each registered test, writes
the ``Claim`` (claim_id → run, artifact digest, table, row, column) and a second
``OutputTest`` with ``phase="result"`` holding the pass/fail decision of Eq. outputtestpass.

Claim ids have the form ``clm.<risk>.<variable>.<period tag>.<8 hex>`` (see
:func:`aieco.records.claim_id_for`): readable, stable across re-runs, and free of calendar
years, so a year inside a ``{{NUM:…}}`` token is always an error.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from aieco.config import get_settings
from aieco.errors import InputError
from aieco.models.registry import ANY_HORIZON
from aieco.records import (
    Claim,
    ModelOutputPoint,
    ModelRun,
    ModelSpecification,
    OutputTest,
    RunStatus,
    claim_id_for,
)
from aieco.store import Store

#: Eq. outputtestpass: tolerance of the unrounded comparison between a claim and its source.
UNROUNDED_TOLERANCE = 1e-10


@dataclass(frozen=True)
class UnitRule:
    """How a unit's numbers are read: decimals of Round_ρ and the text after the number."""

    decimals: int
    text: str


#: Registered rounding rules and unit texts: one decimal for % and pp (what a reader can
#: use), none for basis points and counts. A unit not listed falls back to
#: ``settings.report.rounding`` decimals and prints its own name.
UNIT_RULES: dict[str, UnitRule] = {
    "%": UnitRule(1, "%"),
    "percent": UnitRule(1, "%"),
    "per cent": UnitRule(1, "%"),
    "pct": UnitRule(1, "%"),
    "pp": UnitRule(1, " pp"),
    "percentage points": UnitRule(1, " pp"),
    "percentage point": UnitRule(1, " pp"),
    "bp": UnitRule(0, " bp"),
    "bps": UnitRule(0, " bp"),
    "basis points": UnitRule(0, " bp"),
    "index": UnitRule(1, ""),
    "level": UnitRule(2, ""),
    "ratio": UnitRule(2, ""),
    "number": UnitRule(2, ""),
    "count": UnitRule(0, ""),
    "banks": UnitRule(0, ""),
}


def unit_rule(unit: str) -> UnitRule:
    """The registered rule of ``unit`` (case and spacing ignored), else the settings' fallback."""
    rule = UNIT_RULES.get(unit.strip().lower())
    if rule is not None:
        return rule
    return UnitRule(get_settings().report.rounding, f" {unit}" if unit.strip() else "")


class ClaimSpec(BaseModel):
    """One numerical conclusion as registered before the run (Eq. outputtest)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    analysis_id: str
    risk: str | None = Field(None, description="Risk program the claim belongs to.")
    variable: str = Field(description="Output variable v_k (model variable id).")
    unit: str = Field(description="Unit u_k, e.g. 'percent'.")
    horizon: str = Field(description="Horizon h_k, e.g. '2025-2027'.")
    transformation: str = Field(description="Transformation or aggregation a_k, e.g. 'annual_log_change'.")
    period: str = Field(description="Period the value refers to: 2025, 2025-2027, 2025Q3, 2025H2.")
    model_id: str = Field(description="Model specification m_k.")
    rounding: int = Field(
        ge=0, le=12, description="ρ_k: decimals of Round(z); default: the unit's registered rule (UNIT_RULES)."
    )
    tolerance: float = Field(default_factory=lambda: get_settings().report.tolerance, ge=0.0, description="ε_k.")
    statistic: str = Field("value", description="Which statistic of the run: value | selected | median …")
    entity: str | None = Field(None, description="Bank or other entity, if any.")
    required_diagnostics: list[str] = Field(default_factory=list)
    input_versions: dict[str, str] = Field(default_factory=dict, description="Input name → digest.")

    @model_validator(mode="before")
    @classmethod
    def _unit_rounding(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("rounding") is None and isinstance(data.get("unit"), str):
            data = {**data, "rounding": unit_rule(data["unit"]).decimals}
        return data

    @property
    def claim_id(self) -> str:
        try:
            return claim_id_for(
                self.analysis_id,
                self.risk,
                self.variable,
                self.period,
                horizon=self.horizon,
                unit=self.unit,
                transformation=self.transformation,
                statistic=self.statistic,
                entity=self.entity,
            )
        except ValueError as exc:
            raise InputError(
                str(exc),
                where=f"claim {self.variable} {self.period}",
                fix="use vocabulary ids for risk and variable and a year/quarter/half period",
            ) from exc


def register_output_tests(store: Store, specs: Iterable[ClaimSpec]) -> list[OutputTest]:
    """Store one ``phase="registered"`` OutputTest per claim, before the model runs."""
    tests = output_tests_for(specs)
    store.put_many(tests)
    return tests


def output_tests_for(specs: Iterable[ClaimSpec]) -> list[OutputTest]:
    """The ``phase="registered"`` OutputTests of ``specs`` (not stored; one per claim id)."""
    tests = []
    for spec in specs:
        tests.append(
            OutputTest.create(
                analysis_id=spec.analysis_id,
                claim_id=spec.claim_id,
                phase="registered",
                variable=spec.variable,
                unit=spec.unit,
                horizon=spec.horizon,
                transformation=spec.transformation,
                model_id=spec.model_id,
                rounding=spec.rounding,
                tolerance=spec.tolerance,
                required_diagnostics=spec.required_diagnostics,
                input_versions=spec.input_versions,
                detail=_spec_detail(spec),
            )
        )
    ids = [t.claim_id for t in tests]
    if len(set(ids)) != len(ids):
        raise InputError("two registered claims share one claim id", fix="register each numerical claim once")
    return tests


def _spec_detail(spec: ClaimSpec) -> str:
    # The registered test must remember the fields that select the output point.
    return f"risk={spec.risk or ''};period={spec.period};statistic={spec.statistic};entity={spec.entity or ''}"


def _selection(test: OutputTest) -> dict[str, str]:
    return dict(part.split("=", 1) for part in test.detail.split(";") if "=" in part)


def registered_tests(store: Store, analysis_id: str) -> list[OutputTest]:
    return store.find(OutputTest, analysis_id=analysis_id, phase="registered")


def latest_results(store: Store, analysis_id: str) -> dict[str, OutputTest]:
    """The latest ``phase="result"`` OutputTest of each claim of ``analysis_id``."""
    out: dict[str, OutputTest] = {}
    for test in store.find(OutputTest, analysis_id=analysis_id, phase="result"):
        out[test.claim_id] = test  # insertion order: the last one wins
    return out


def output_test_failures(
    test: OutputTest,
    run: ModelRun,
    spec: ModelSpecification | None,
    point: ModelOutputPoint,
    reported: float,
    source_value: float,
) -> list[str]:
    """Why the claim fails Eq. outputtestpass (empty list = pass).

    Parameters
    ----------
    test : the registered test τ_k.
    run, spec, point : the linked run, its specification and output point (subscript r).
    reported : z_k, the value the report uses (the claim's rounded value), in ``test.unit``.
    source_value : z̃_{r,k} as re-read from the run's stored artifact, in ``point.unit``.
    """
    why = []
    for name, want, have in (
        ("variable", test.variable, point.variable),
        ("unit", test.unit, point.unit),
        ("transformation", test.transformation, point.transformation),
        ("model id", test.model_id, run.model_id),
    ):
        if want != have:
            why.append(f"{name} {have!r} differs from the registered {want!r}")
    horizon = spec.horizon if spec is not None else None
    if horizon == ANY_HORIZON:  # the model simulates the request's horizon: the run records the one it used
        horizon = run.diagnostics.get("horizon")
    if test.horizon != horizon:
        why.append(f"horizon {horizon!r} differs from the registered {test.horizon!r}")
    if run.status is not RunStatus.completed:
        why.append(f"run {run.run_id} is {run.status.value}, not completed")
    for name, version in sorted(test.input_versions.items()):
        if run.input_digests.get(name) != version:
            why.append(f"input {name} version {run.input_digests.get(name)!r} differs from the registered {version!r}")
    for name in test.required_diagnostics:
        if not diagnostic_passed(run.diagnostics.get(name)):
            why.append(f"required diagnostic {name!r} is missing or failed")
    if not math.isfinite(source_value) or abs(source_value - point.value) > UNROUNDED_TOLERANCE:
        why.append(f"stored value {source_value!r} differs from the output point's {point.value!r}")
    # Eq. outputtestpass: |z − Round_ρ(z̃)| ≤ ε
    if not abs(reported - round(source_value, test.rounding)) <= test.tolerance:
        why.append(f"reported {reported!r} differs from Round_{test.rounding}({source_value!r})")
    return why


def diagnostic_passed(value: Any) -> bool:
    """Whether a required diagnostic holds.

    ``True``/numbers pass, ``None``/``False`` fail. A dict passes through its verdict when it
    states one — ``passed``, ``stable`` or ``ok`` — or ``nobs >= required``; a dict without a
    verdict (e.g. range-check counts) passes by being present, since the model computed it.
    """
    if isinstance(value, dict):
        for key in ("passed", "stable", "ok"):
            if key in value:
                return bool(value[key])
        if "nobs" in value and "required" in value:
            return value["nobs"] is not None and value["required"] is not None and value["nobs"] >= value["required"]
        return True
    return value is not None and value is not False


def find_point(points: Sequence[ModelOutputPoint], test: OutputTest) -> ModelOutputPoint | None:
    """The run's output point a registered test refers to (variable, unit, transformation, period…)."""
    sel = _selection(test)
    hits = [
        p
        for p in points
        if p.variable == test.variable
        and p.period == sel.get("period")
        and p.statistic == sel.get("statistic", "value")
        and (p.entity or "") == sel.get("entity", "")
        and (not p.risk or not sel.get("risk") or p.risk == sel.get("risk"))
    ]
    exact = [p for p in hits if p.unit == test.unit and p.transformation == test.transformation]
    # A point with the right variable but another unit or transformation is still linked, so
    # the result records why it fails instead of silently finding nothing.
    return (exact or hits or [None])[0]


def link_claims(store: Store, run: ModelRun, tests: Sequence[OutputTest] | None = None) -> list[OutputTest]:
    """Link registered tests of ``run``'s model to its points; write Claims and results.

    Returns the ``phase="result"`` OutputTests (pass or fail, with reasons in ``detail``).
    """
    claims, results = claims_and_results(store, run, tests)
    with store.transaction():
        # A claim row is written once; a later run of the same analysis cannot repoint it.
        store.put_many(c for c in claims if store.get(Claim, c.claim_id) is None)
        store.put_many(results)
    return results


def claims_and_results(
    store: Store, run: ModelRun, tests: Sequence[OutputTest] | None = None
) -> tuple[list[Claim], list[OutputTest]]:
    """The Claims and ``phase="result"`` OutputTests of linking ``run`` to its registered tests
    (read only: the analysis stage returns them and the stage runner stores them; an existing
    claim id is never re-written, so a later run cannot repoint it)."""
    tests = [
        t
        for t in (tests if tests is not None else registered_tests(store, run.analysis_id))
        if t.phase == "registered" and t.model_id == run.model_id
    ]
    spec = store.get(ModelSpecification, run.spec_id)
    points = store.find(ModelOutputPoint, run_id=run.run_id)
    tables = store.get_tables(run.output_digest) if run.output_digest else {}
    claims, results = [], []
    for test in tests:
        sel = _selection(test)
        point = find_point(points, test)
        if point is None:
            results.append(
                _result(
                    test,
                    run,
                    None,
                    None,
                    None,
                    "fail",
                    f"run {run.run_id} has no output point for {test.variable} {sel.get('period')}",
                )
            )
            continue
        try:
            source_value = float(tables[point.table_name].loc[point.row, point.column])
        except KeyError:
            source_value = math.nan
        # + 0.0 turns a rounded -0.0 into 0.0: SQLite stores no negative zero, so the record's
        # content digest would no longer match its id after a round trip
        reported = round(source_value, test.rounding) + 0.0 if math.isfinite(source_value) else math.nan
        why = output_test_failures(test, run, spec, point, reported, source_value)
        claim = Claim.create(
            analysis_id=test.analysis_id,
            risk=sel.get("risk") or None,
            point_id=point.point_id,
            run_id=run.run_id,
            model_id=run.model_id,
            artifact_digest=point.artifact_digest,
            table_name=point.table_name,
            row=point.row,
            column=point.column,
            variable=test.variable,
            unit=test.unit,
            transformation=test.transformation,
            period=sel.get("period", point.period),
            rounding=test.rounding,
            tolerance=test.tolerance,
            horizon=test.horizon,
            statistic=sel.get("statistic", "value"),
            entity=sel.get("entity") or None,
        )
        if claim.claim_id != test.claim_id:
            why.append(f"claim id {claim.claim_id} differs from the registered {test.claim_id}")
        claims.append(claim)
        results.append(
            _result(
                test,
                run,
                point,
                reported if math.isfinite(reported) else None,
                source_value if math.isfinite(source_value) else None,
                "fail" if why else "pass",
                "; ".join(why),
            )
        )
    return claims, results


def _result(
    test: OutputTest,
    run: ModelRun,
    point: ModelOutputPoint | None,
    reported: float | None,
    stored: float | None,
    result: str,
    detail: str,
) -> OutputTest:
    fields = test.model_dump(
        exclude={"test_id", "phase", "result", "run_id", "point_id", "reported_value", "stored_value", "detail"}
    )
    return OutputTest.create(
        **fields,
        phase="result",
        result=result,
        run_id=run.run_id,
        point_id=point.point_id if point else None,
        reported_value=reported,
        stored_value=stored,
        detail=detail or "passed",
    )


def passed_claims(store: Store, analysis_id: str) -> dict[str, Claim]:
    """Claims of ``analysis_id`` whose latest result passed and whose row agrees with it."""
    out = {}
    for claim_id, test in latest_results(store, analysis_id).items():
        claim = store.get(Claim, claim_id)
        if test.result == "pass" and claim is not None and claim.run_id == test.run_id:
            out[claim_id] = claim
    return out
