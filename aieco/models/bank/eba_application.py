"""Real banks in real analyses: EBA bank data in the workspace, its gate, and the cross-bank CET1 outputs.

* :func:`import_eba_exercises` stores each EBA stress-test and transparency value as an
  :class:`ObservedValue` (entity = LEI, provenance real, release date and rule from the file).
* :func:`bank_observations` reads those records back, keeping only values released on or before
  the analysis cutoff under the request's vintage policy — nothing is read from the demo.
  Stress tests (with an adverse scenario) fit and validate the model; actual-only exercises
  (transparency) only supply starting points.
* :func:`project_real_banks` runs model ``bank_eba_components`` (see
  :mod:`~aieco.models.bank.eba_models`) from each bank's latest admissible real actuals
  (:func:`latest_actuals`, :func:`starting_points`), only when a gate
  fitted and validated on real data has passed; otherwise it raises :class:`StageStopped` with
  the gate's reason. Its ModelRun's output points are the cross-bank distribution of CET1
  depletion and the count of banks whose projected CET1 ratio falls below a stated threshold
  (:data:`OUTPUT_VARIABLES`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from aieco.asof import AsOf
from aieco.errors import InputError, StageStopped
from aieco.models import registry
from aieco.models.bank import eba_scenario as scenario
from aieco.models.bank import outputs as bank_outputs
from aieco.models.bank.eba import load_eba_csv, observed_values
from aieco.models.bank.eba_extract import bundled_exercises, bundled_transparency
from aieco.models.bank.eba_items import CONCEPTS
from aieco.models.bank.eba_models import (
    DIRECT_ID,
    MODEL_ID,
    BankSample,
    bank_sample,
    concat_samples,
    fit_components,
    fit_direct,
    predict_depletion,
    predict_direct,
    start_sample,
)
from aieco.models.bank.inputs import RealBankInputs, ScenarioBankInputs
from aieco.models.entry import ModelEntry
from aieco.models.registry import ModelResult, PointRef
from aieco.progress import report
from aieco.records import (
    ModelRequest,
    ModelRun,
    ModelSpecification,
    ObservedValue,
    Provenance,
    RunStatus,
    ValueStatus,
    VariableSpec,
    digest,
)
from aieco.store import Store

VERSION = "3"
#: CET1 ratio threshold (%) for the count of banks below it (:mod:`aieco.models.bank.outputs`).
CET1_THRESHOLD = bank_outputs.CET1_THRESHOLD
#: ModelOutputPoint variables of a ``bank_eba_components`` run: the cross-bank figures of
#: :data:`aieco.models.bank.outputs.FIGURES` (entity None) and the per-bank depletion.
OUTPUT_VARIABLES = {
    **{v: "cross-bank figure (aieco.models.bank.outputs)" for v in bank_outputs.VARIABLES},
    bank_outputs.DEPLETION: "per bank (entity = LEI): projected CET1 depletion, point and 5-95 % interval (pp); "
    "across banks (entity None): percentiles cross_bank_p05, cross_bank_p50, cross_bank_p95",
}
OUTPUTS = [
    VariableSpec(variable=f.variable, unit=f.unit, frequency="A", transformation=f.transformation, horizon="3y")
    for f in bank_outputs.FIGURES
    if f.statistic in ("value", "cross_bank_p50")
]
NEEDED = tuple(c.name for c in CONCEPTS)


def import_eba_exercises(store: Store, paths: Iterable[Path] | None = None, *, encoding: str | None = None) -> int:
    """Store every resolved value of the EBA files (default: the bundled real extracts of the 2016
    and 2021 stress tests and of the 2024 transparency exercise).

    Returns the number of new :class:`ObservedValue` records.
    """
    files = list(paths) if paths else [*bundled_exercises().values(), *bundled_transparency().values()]
    written = 0
    for i, path in enumerate(files):
        report("importing EBA bank data", i, len(files), Path(path).name)
        data = load_eba_csv(Path(path), encoding=encoding)
        if data.attrs.get("release_date") is None:
            raise InputError(
                f"{Path(path).name}: no release date can be read from its dictionary or PROVENANCE",
                where=str(path),
                fix="keep the EBA data dictionary workbook beside the CSV",
            )
        book = data.attrs["dictionary"]
        names = []
        for c in CONCEPTS:
            try:
                book.resolve(c)
                names.append(c.name)
            except InputError:  # e.g. transparency templates report no 'net of dividends' profit
                continue
        written += store.put_many(observed_values(data, tuple(names)))
    report("importing EBA bank data", len(files), len(files), "")
    return written


def bank_observations(store: Store, as_of: AsOf | None = None) -> pd.DataFrame:
    """Real bank ObservedValues of the workspace usable at ``as_of``, as a long table (None: every value).

    The one release rule of observed values decides (:meth:`aieco.asof.AsOf.usable`): released on or
    before the cutoff (a value without a release date is refused whenever a cutoff is given) and dated
    by a rule the request's vintage policy accepts (strict refuses the ``lag``-dated transparency values).
    """
    rows = [
        v
        for v in store.find(ObservedValue, sector="banks", provenance=Provenance.real.value)
        if v.entity and v.variable in NEEDED
    ]
    if as_of is not None:
        rows = [v for v in rows if as_of.usable(v.release_date, v.release_rule.value if v.release_rule else None)]
    if not rows:
        return pd.DataFrame(
            columns=["bank_id", "country", "exercise", "scenario_kind", "year", "variable", "value", "observation_id"]
        )
    return pd.DataFrame(
        {
            "bank_id": [v.entity for v in rows],
            "country": [v.jurisdiction for v in rows],
            "exercise": [v.vintage or "" for v in rows],
            "scenario_kind": [v.scenario or "actual" for v in rows],
            "year": [int(str(v.reference_period)[:4]) for v in rows],
            "variable": [v.variable for v in rows],
            "value": [v.value for v in rows],
            "observation_id": [v.observation_id for v in rows],
            "release_date": [v.release_date for v in rows],
            "release_rule": [v.release_rule.value if v.release_rule else None for v in rows],
            "reference_period": [v.reference_period for v in rows],
        }
    )


def panels_from_observations(obs: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Exercise name → panel in :func:`~aieco.models.bank.eba.exercise_panel` form."""
    out = {}
    for ex, part in obs.groupby("exercise"):
        # half-year records (transparency exercises): the year-end report stands for the year
        part = part[~part["reference_period"].astype(str).str.endswith("H1")] if "reference_period" in part else part
        wide = part.pivot_table(
            index=["bank_id", "scenario_kind", "year"], columns="variable", values="value", aggfunc="first"
        )
        wide.attrs["meta"] = part.groupby("bank_id")[["country"]].first().assign(bank_name="")
        out[str(ex).lower()] = wide
    return out


def is_stress_test(panel: pd.DataFrame) -> bool:
    """A panel with adverse projections (a stress test) rather than actual figures only (a transparency exercise)."""
    return "adverse" in set(panel.index.get_level_values("scenario_kind"))


def split_panels(panels: Mapping[str, pd.DataFrame]) -> tuple[dict[str, pd.DataFrame], dict[str, pd.DataFrame]]:
    """(stress tests, actual-only exercises): the first fit and validate, the second only give starting points."""
    stress = {n: p for n, p in panels.items() if is_stress_test(p)}
    return stress, {n: p for n, p in panels.items() if n not in stress}


def latest_actuals(panels: Mapping[str, pd.DataFrame]) -> tuple[BankSample, dict[str, tuple[str, int]]]:
    """Each bank's latest admissible real actual figures (one row per LEI, from the exercise whose
    actual year is the newest; a tie keeps the stress test), and bank → (exercise, actual year)."""
    stress, actual_only = split_panels(panels)
    if not stress:
        raise StageStopped(
            "the workspace holds no real EBA stress test released before the cutoff", stage="bank_projection"
        )
    name, panel = next(iter(stress.items()))
    horizon = next(iter(bank_sample(panel, name).comps.values())).shape[1]
    ordered = sorted(panels.items(), key=lambda kv: (_start_year(kv[1]), kv[0] in stress))
    samples = [bank_sample(p, n) if n in stress else start_sample(p, n, horizon=horizon) for n, p in ordered]
    samples = [s for s in samples if s.banks]
    pooled = concat_samples(samples)
    tags = [s.exercise for s in samples for _ in s.banks]
    keep: dict[str, int] = {}
    for i, b in enumerate(pooled.banks):  # later actual years overwrite earlier ones
        keep[b] = i
    idx = np.array(sorted(keep.values()))
    starts = {pooled.banks[i]: (tags[i], _start_year(panels[tags[i]])) for i in idx}
    return pooled.take(idx), starts


def _start_year(panel: pd.DataFrame) -> int:
    return int(panel.xs("actual", level="scenario_kind").index.get_level_values("year").max())


def starting_points(obs: pd.DataFrame) -> list[dict[str, Any]]:
    """Where the banks' starting points come from: one entry per (exercise, actual year) with its bank count.

    Computed from the admissible observations alone, so a stopped bank stage still records it.
    """
    panels = panels_from_observations(obs)
    if not split_panels(panels)[0]:
        return []
    try:
        _, starts = latest_actuals(panels)
    except (StageStopped, InputError, KeyError):
        return []
    count: dict[tuple[str, int], int] = {}
    for ex, year in starts.values():
        count[(ex, year)] = count.get((ex, year), 0) + 1
    return [
        {
            "exercise": ex,
            "actual_year": year,
            "banks": n,
            "kind": "stress test" if is_stress_test(panels[ex]) else "transparency",
        }
        for (ex, year), n in sorted(count.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
    ]


#: Real-data bank models of an EBA-style adverse exercise (no macro path): validated in every real
#: workspace, run by :func:`project_real_banks`, never the source of an analysis's bank conclusions.
REAL_MODELS = (MODEL_ID, DIRECT_ID)
#: The scenario-conditional real-data model (:mod:`~aieco.models.bank.eba_scenario`): the only real
#: model whose runs may carry an analysis's bank claims (its parent is the selected macro run).
SCENARIO_ID = scenario.MODEL_ID
#: Every real-data model with a specification (the catalog reads it).
SPECIFIED = (*REAL_MODELS, SCENARIO_ID)


def execute_components(request: ModelRequest, inputs: RealBankInputs, seed: int | None) -> ModelResult:
    """Registry function of ``bank_eba_components``: fit on every stress test, project from the latest actuals."""
    return _execute(MODEL_ID, inputs, seed)


def execute_direct(request: ModelRequest, inputs: RealBankInputs, seed: int | None) -> ModelResult:
    """Registry function of ``bank_eba_depletion``: fit on every stress test, predict from the latest actuals."""
    return _execute(DIRECT_ID, inputs, seed)


def _execute(model_id: str, inputs: RealBankInputs, seed: int | None) -> ModelResult:
    obs = inputs.observations
    if obs.empty:
        raise InputError(f"{model_id} needs the workspace's real bank observations", where=model_id)
    opts = dict(inputs.options)
    threshold = float(opts.get("threshold", CET1_THRESHOLD))
    panels = panels_from_observations(obs)
    stress, _ = split_panels(panels)
    train = concat_samples([bank_sample(p, n) for n, p in stress.items()])
    start, starts = latest_actuals(panels)
    if model_id == DIRECT_ID:
        fit = fit_direct(train)
        pred = predict_direct(fit, start)
        interval = "5-95 % from the training residuals' percentiles"
    else:
        fit = fit_components(train)
        pred = predict_depletion(fit, start, draws=int(opts.get("draws", 1000)), seed=int(seed or 0))
        interval = "5-95 % from resampled training residual vectors"
    pred["start_exercise"] = [starts[b][0] for b in pred["bank_id"]]
    pred["start_year"] = [starts[b][1] for b in pred["bank_id"]]
    pred["min_ratio"] = pred["start_ratio"] - pred["predicted"]
    per_bank = pred.set_index("bank_id")
    cross = bank_outputs.cross_bank_table(
        per_bank["predicted"].to_numpy(), per_bank["start_ratio"].to_numpy(), threshold
    )
    period = f"{min(pred['start_year']) + 1}-{max(pred['start_year']) + 3}"
    points = _depletion_points(per_bank, period)
    diagnostics = {
        "provenance": "real",
        "fit_exercises": sorted(stress),
        "starting_points": starting_points(obs),
        "start_note": START_NOTE,
        "fit_banks": fit.n_banks,
        "banks": len(per_bank),
        "start_years": sorted(set(pred["start_year"])),
        "threshold_note": bank_outputs.THRESHOLD_NOTE,
        "cet1_threshold": threshold,
        "scenario_note": "EBA-style adverse exercise calibrated on the official stress tests; the model "
        "takes no macro path and does not condition on a generated scenario",
        "interval": interval,
    }
    return ModelResult(
        status=RunStatus.completed,
        tables={"depletion": per_bank, bank_outputs.TABLE: cross},
        points=points,
        diagnostics=diagnostics,
    )


START_NOTE = (
    "each bank starts from its latest admissible actual year-end figures; from a transparency "
    "exercise n = total operating income - administrative expenses - depreciation (the stress tests' "
    "'other income and expenses' also hold provisions), l = impairments on financial assets not at fair "
    "value, o = taxes only (the transparency templates report no dividends)"
)


def _depletion_points(per_bank: pd.DataFrame, period: str) -> list[PointRef]:
    """The cross-bank figures and each bank's depletion (point, p05, p95) over ``period``."""
    points = bank_outputs.cross_bank_points(period)
    for b in per_bank.index:
        for col, stat in (("predicted", "point"), ("lower", "p05"), ("upper", "p95")):
            points.append(
                PointRef(
                    variable="cet1_depletion",
                    unit="pp",
                    transformation="start_minus_min",
                    period=period,
                    table="depletion",
                    row=str(b),
                    column=col,
                    statistic=stat,
                    entity=str(b),
                    status=ValueStatus.modelled,
                )
            )
    return points


SCENARIO_ASSUMPTIONS = (
    "each bank's CET1 depletion is proportional to the scenario's EU-wide severity (elasticity one): the "
    "official adverse depletion of the EBA stress tests per % of their adverse cumulative fall of EU real GDP, "
    "regressed on the bank's starting state (n, l, o rates and CET1 ratio), times the selected path's own "
    "cumulative fall of real GDP over the horizon, last year against the year before the first (floored at "
    "zero); the GDP figure stands for the whole scenario; the EBA methodology (static balance sheet) is the "
    "accounting frame"
)


def execute_scenario(request: ModelRequest, inputs: ScenarioBankInputs, seed: int | None) -> ModelResult:
    """Registry function of ``bank_eba_scenario``: fit on every stress test at its severity, predict the
    banks in scope from their latest actuals at the selected path's severity."""
    obs = inputs.observations
    selected = inputs.selected_quarterly
    if obs.empty:
        raise InputError(f"{SCENARIO_ID} needs the workspace's real bank observations", where=SCENARIO_ID)
    if selected is None or selected.empty:
        raise InputError(
            f"{SCENARIO_ID} needs the macro run's selected_quarterly table",
            where=SCENARIO_ID,
            fix="run it with a completed macro_var run as its parent",
        )
    threshold = inputs.threshold
    panels = panels_from_observations(obs)
    stress, _ = split_panels(panels)
    samples = [bank_sample(p, n) for n, p in stress.items()]
    severities = scenario.exercise_severities()
    missing = [s.exercise for s in samples if s.exercise not in severities]
    if missing:
        raise InputError(f"no EU-wide severity for {missing}", where=str(scenario.SEVERITY_FILE))
    train = concat_samples(samples)
    sev = np.array([severities[s.exercise] for s in samples for _ in s.banks])
    fit = scenario.fit_scenario(train, sev)
    start, starts = latest_actuals(panels)
    scope = inputs.scope
    kept, left_out = scenario.apply_scope(start, starts, scope)
    if not kept.banks:
        raise StageStopped(
            f"no bank is in the request's scope ({len(left_out)} left out: "
            + "; ".join(f"{r['bank_id']}: {r['reason']}" for r in left_out[:5])
            + ")",
            stage="bank_projection",
        )
    severity = scenario.path_severity(selected, inputs.horizon)
    median = inputs.median_quarterly
    deviation = scenario.path_deviation(selected, median) if isinstance(median, pd.DataFrame) else None
    pred = scenario.predict_scenario(fit, kept, severity)
    pred["start_exercise"] = [starts[b][0] for b in pred["bank_id"]]
    pred["start_year"] = [starts[b][1] for b in pred["bank_id"]]
    pred["min_ratio"] = pred["start_ratio"] - pred["predicted"]
    per_bank = pred.set_index("bank_id")
    cross = bank_outputs.cross_bank_table(
        per_bank["predicted"].to_numpy(), per_bank["start_ratio"].to_numpy(), threshold
    )
    period = str(inputs.horizon or f"{min(pred['start_year']) + 1}-{max(pred['start_year']) + 3}")
    left = pd.DataFrame(left_out, columns=["bank_id", "country", "start_exercise", "start_year", "reason"]).set_index(
        "bank_id"
    )
    diagnostics = {
        "provenance": "real",
        "fit_exercises": sorted(stress),
        "exercise_severity": {s.exercise: severities[s.exercise] for s in samples},
        "severity_measure": "adverse cumulative change of EU real GDP over the exercise's three years, % (sign: "
        "positive = fall); sources in aieco/models/bank/eba_data/scenario/exercise_severity.csv",
        "scenario_severity": severity,
        "scenario_gdp_deviation_from_median": deviation,
        "assumptions": SCENARIO_ASSUMPTIONS,
        "scope": {
            "jurisdictions": list(scope.jurisdictions or []),
            "cutoff": str(scope.cutoff) if scope.cutoff else None,
            "max_start_age_years": scope.max_start_age_years,
            "euro_area_membership": str(scenario.EURO_FILE.name),
            "banks_in_scope": len(per_bank),
            "banks_left_out": len(left_out),
        },
        "start_note": START_NOTE,
        "fit_banks": fit.n_banks,
        "banks": len(per_bank),
        "start_years": sorted(set(int(y) for y in pred["start_year"])),
        "threshold_note": bank_outputs.THRESHOLD_NOTE,
        "cet1_threshold": threshold,
        "gate_id": inputs.gate_id,
        "horizon": period,
        "interval": "5-95 % from the training residuals' percentiles per unit of severity, times the severity",
    }
    return ModelResult(
        status=RunStatus.completed,
        tables={"depletion": per_bank, bank_outputs.TABLE: cross, "left_out": left},
        points=_depletion_points(per_bank, period),
        diagnostics=diagnostics,
    )


def register_component_model() -> registry.RegisteredModel:
    return register_real_model(MODEL_ID)


_REAL_SPECS = {
    MODEL_ID: (
        "Real-data CET1 component model: OLS per component and year on starting state, fitted on "
        "official EBA adverse projections; the accounting recursion gives depletion",
        "execute_components",
        ["accounting_identities"],
    ),
    DIRECT_ID: (
        "Real-data CET1 depletion model: OLS of the official EBA adverse depletion on the bank's starting "
        "rates (n, l, o) and CET1 ratio; interval from training residual percentiles",
        "execute_direct",
        [],
    ),
    SCENARIO_ID: (
        "Scenario-conditional real-data CET1 depletion model: " + SCENARIO_ASSUMPTIONS,
        "execute_scenario",
        [],
    ),
}
#: The macro path the scenario model takes (selected_quarterly of its parent macro run).
SCENARIO_INPUTS = [VariableSpec(variable="real_gdp", unit="index", frequency="Q", transformation="level", horizon="3y")]


def register_real_model(model_id: str) -> registry.RegisteredModel:
    """Register one of :data:`REAL_MODELS` (the registry keeps one entry per specification)."""
    return registry.register(real_specification(model_id), globals()[_REAL_SPECS[model_id][1]])


def real_specification(model_id: str) -> ModelSpecification:
    """The specification of one of :data:`REAL_MODELS`: no input variables, since the model takes no
    macro path (it predicts depletion under an EBA-style adverse exercise from each bank's start)."""
    description, fn, required = _REAL_SPECS[model_id]
    return ModelSpecification.create(
        model_id=model_id,
        version=VERSION,
        description=description,
        inputs=SCENARIO_INPUTS if model_id == SCENARIO_ID else [],
        outputs=OUTPUTS,
        scope="EU banks",
        # the scenario model serves the request's horizon (recorded in its run's diagnostics)
        horizon=registry.ANY_HORIZON if model_id == SCENARIO_ID else "3y",
        snapshot=digest({"model": model_id, "version": VERSION}),
        entry_point=f"{__name__}:{fn}",
        diagnostics_required=required,
        min_restrictions=0,
    )


def ensure_real_gates(store: Store, as_of: AsOf, *, seed: int, reps: int | None = None) -> list:
    """Validate the real-data model on the workspace's exercises usable at ``as_of`` (when it has no gate)."""
    from aieco.models.bank.eba_validation import exercise_from_panel, validate_eba_exercises

    panels, _ = split_panels(panels_from_observations(bank_observations(store, as_of)))
    if len(panels) < 2:
        return []  # one exercise cannot validate out of sample: the stage stops for want of a gate
    exercises = [exercise_from_panel(n, p, source=f"workspace ObservedValues ({n})") for n, p in panels.items()]
    return validate_eba_exercises(store, exercises=exercises, seed=seed, reps=reps).gates


def project_real_banks(
    store: Store,
    analysis_id: str,
    *,
    as_of: AsOf,
    seed: int,
    threshold: float = CET1_THRESHOLD,
    risk: str = "selected",
    parent_runs: list[str] | None = None,
    draws: int = 1000,
) -> ModelRun:
    """The bank stage on real data: the cross-bank CET1 outputs, or a stop with the gate's reason.

    Raises
    ------
    StageStopped
        When the workspace holds no real bank data usable at ``as_of``, or no gate fitted and
        validated on real data lets ``bank_eba_components`` supply conclusions.
    """
    from aieco.models.bank.spec import passing_gate
    from aieco.records import ValidationGate

    obs = bank_observations(store, as_of)
    if obs.empty:
        raise StageStopped(
            "the workspace holds no real bank data released by the cutoff "
            f"({as_of.cutoff}); import EBA stress tests with `aieco bank import`",
            stage="bank_projection",
        )
    # gates ensured per model: a workspace validated before a model existed still gets its gate
    if any(not store.find(ValidationGate, model_id=m) for m in REAL_MODELS):
        ensure_real_gates(store, as_of, seed=seed)
    chosen = next(((m, g) for m in REAL_MODELS if (g := passing_gate(store, m, real_banks=True)) is not None), None)
    if chosen is None:
        why = []
        for m in REAL_MODELS:
            seen = store.find(ValidationGate, model_id=m)
            why.append(
                f"{m}: "
                + (
                    "; ".join(f"{g.gate_id}: {g.detail.split('; table artifact')[0]}" for g in seen)
                    or "no validation gate yet (run `aieco bank validate`)"
                )
            )
        raise StageStopped(
            f"no real-data bank model passed its validation gate ({' | '.join(why)}); "
            "no conclusion about real banks is drawn",
            stage="bank_projection",
        )
    model_id, gate = chosen
    entry = register_real_model(model_id)
    request = ModelRequest.create(
        analysis_id=analysis_id,
        risk=risk,
        outputs=OUTPUTS,
        restriction_ids=[],
        horizon="3y",
        scope="EU banks",
        rationale="bank capital of real EBA banks",
    )
    return registry.execute(
        store,
        entry,
        request,
        RealBankInputs(
            observations=obs.drop(columns=["release_date", "release_rule"]),
            options={"threshold": threshold, "draws": draws, "gate_id": gate.gate_id},
        ),
        seed=seed,
        parent_runs=list(parent_runs or []),
        role="generation",
    )


def request_scope(as_of: AsOf) -> scenario.Scope:
    """The banks' scope of a request: the jurisdictions and cutoff of its as-of rule, the staleness limit
    from the settings."""
    from aieco.config import get_settings

    return scenario.Scope(
        tuple(as_of.scope) if as_of.scope else None, as_of.cutoff, float(get_settings().bank.max_start_age_years)
    )


def scope_preview(obs: pd.DataFrame, scope: scenario.Scope) -> dict[str, Any]:
    """Which admissible banks the request covers and every bank left out with its reason (recorded even when
    the bank stage stops)."""
    panels = panels_from_observations(obs)
    if not split_panels(panels)[0]:
        return {"banks_in_scope": 0, "left_out": []}
    try:
        start, starts = latest_actuals(panels)
    except (StageStopped, InputError, KeyError):
        return {"banks_in_scope": 0, "left_out": []}
    kept, left = scenario.apply_scope(start, starts, scope)
    count: dict[tuple[str, int], int] = {}
    for b in kept.banks:
        count[starts[b]] = count.get(starts[b], 0) + 1
    return {
        "jurisdictions": list(scope.jurisdictions or []),
        "max_start_age_years": scope.max_start_age_years,
        "banks_in_scope": len(kept.banks),
        "left_out": left,
        "starting_points": [
            {
                "exercise": ex,
                "actual_year": year,
                "banks": n,
                "kind": "stress test" if is_stress_test(panels[ex]) else "transparency",
            }
            for (ex, year), n in sorted(count.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
        ],
    }


def scenario_gate(store: Store, as_of: AsOf, *, seed: int):
    """The scenario model's overall real-data gate (validated now when the workspace has none), or None."""
    from aieco.models.bank.eba_validation import scenario_gates
    from aieco.records import ValidationGate

    gates = store.find(ValidationGate, model_id=SCENARIO_ID)
    if not gates:
        stress, _ = split_panels(panels_from_observations(bank_observations(store, as_of)))
        if len(stress) < 2:
            return []  # one exercise cannot validate out of exercise: no gate, so no conclusion
        scenario_gates(store, {n: bank_sample(p, n) for n, p in stress.items()})
        gates = store.find(ValidationGate, model_id=SCENARIO_ID)
    return gates


def project_scenario_banks(
    store: Store,
    analysis_id: str,
    macro_run_id: str,
    *,
    obs: pd.DataFrame,
    scope: scenario.Scope,
    seed: int,
    gate_id: str,
    horizon: str | None,
    risk: str = "selected",
    threshold: float = CET1_THRESHOLD,
) -> ModelRun:
    """One ``bank_eba_scenario`` run under ``macro_run_id``'s selected path (the run's parent)."""
    macro = store.get(ModelRun, macro_run_id)
    tables = store.get_tables(macro.output_digest) if macro and macro.output_digest else {}
    entry = register_real_model(SCENARIO_ID)
    request = ModelRequest.create(
        analysis_id=analysis_id,
        risk=risk,
        outputs=OUTPUTS,
        restriction_ids=[],
        horizon=horizon or "3y",
        scope="/".join(scope.jurisdictions or ()) or "EU banks",
        rationale="bank capital of real EBA banks under the analysis's selected macro path",
    )
    return registry.execute(
        store,
        entry,
        request,
        ScenarioBankInputs(
            observations=obs.drop(columns=["release_date", "release_rule"]),
            selected_quarterly=tables.get("selected_quarterly"),
            median_quarterly=tables.get("median_quarterly"),
            scope=scope,
            threshold=threshold,
            gate_id=gate_id,
            horizon=horizon,
        ),
        seed=seed,
        parent_runs=[macro_run_id],
        role="generation",
    )


def real_bank_conclusions(
    store: Store,
    analysis_id: str,
    *,
    as_of: AsOf,
    seed: int,
    parent_runs: list[str] | None = None,
    horizon: str | None = None,
    risk: str = "selected",
) -> dict[str, Any] | None:
    """The application stage's real-bank part: None when the workspace holds no real EBA bank data.

    Otherwise the scenario-conditional model ``bank_eba_scenario`` runs once per macro run of
    ``parent_runs`` (each run's parent is that macro run) when its overall real-data gate passed;
    else the stop and its reason, with the gate's figures, are the result (recorded). Either way
    ``starting_points``, ``refused_exercises`` (held but not admissible at ``as_of``: cutoff and policy) and
    ``scope`` (banks in the request's jurisdiction with fresh enough actuals, and every bank left out
    with its reason) are recorded."""
    every = bank_observations(store)
    if every.empty:
        return None
    admissible = bank_observations(store, as_of)
    refused = sorted(set(every["exercise"]) - set(admissible["exercise"]))
    scope = request_scope(as_of)
    preview = scope_preview(admissible, scope) if not admissible.empty else {"banks_in_scope": 0, "left_out": []}
    extra = {
        # where the banks in the request's scope start (the report's start sentence reads this)
        "starting_points": preview.pop("starting_points", []),
        "refused_exercises": refused,
        "scope": preview,
        "model_id": SCENARIO_ID,
    }
    if admissible.empty:
        return {
            "status": "stopped",
            "reason": f"the workspace holds no real bank data released by the cutoff ({as_of.cutoff})",
            **extra,
        }
    gates = scenario_gate(store, as_of, seed=seed)
    passed = next((g for g in gates if g.passed), None)
    if passed is None:
        detail = gates[-1].detail if gates else "no validation gate (two EBA stress tests are needed)"
        return {
            "status": "stopped",
            "reason": f"{SCENARIO_ID} did not pass its real-data validation gate; no conclusion about real banks "
            f"is drawn ({detail})",
            "gate_ids": [g.gate_id for g in gates],
            **extra,
        }
    runs = {}
    for macro_run in parent_runs or []:
        try:
            run = project_scenario_banks(
                store,
                analysis_id,
                macro_run,
                obs=admissible,
                scope=scope,
                seed=seed,
                gate_id=passed.gate_id,
                horizon=horizon,
                risk=risk,
            )
        except StageStopped as stop:
            runs[macro_run] = {"status": "stopped", "reason": stop.reason}
            continue
        runs[macro_run] = {"status": run.status.value, "run_id": run.run_id, "reason": run.reason}
    done = [r for r in runs.values() if r["status"] == RunStatus.completed.value]
    return {
        "status": "completed" if done else "stopped",
        "reason": None if done else "; ".join(f"{k}: {v['reason']}" for k, v in runs.items()) or "no macro run",
        "runs": runs,
        "run_id": done[0]["run_id"] if done else None,
        "gate_id": passed.gate_id,
        "output_variables": sorted(OUTPUT_VARIABLES),
        "provenance": "real",
        **extra,
    }


_LABELS = {
    MODEL_ID: "Bank CET1 depletion (EBA components)",
    DIRECT_ID: "Bank CET1 depletion (EBA direct)",
    SCENARIO_ID: "Bank CET1 depletion under the scenario (EBA severity-scaled)",
}
#: The real-data bank models in the catalog (aieco.models.catalog): registered by the application stage
#: only behind a passed real-data gate, never requested by an analysis directly.
ENTRIES = tuple(
    ModelEntry(
        model_id=m,
        label=_LABELS[m],
        kind="bank",
        specification=partial(real_specification, m),
        run=globals()[_REAL_SPECS[m][1]],
        tables={"depletion": "rows banks: predicted depletion and interval", bank_outputs.TABLE: "cross-bank figures"},
        analysis=False,
    )
    for m in SPECIFIED
)
