"""Validation of bank capital on real EBA stress tests: the accounting check and the real-data model gates.

``validate_eba_exercises`` loads one or more stress-test files (by default the real extracts
shipped with aieco, 2016 and 2021), runs the accounting check of
:mod:`~aieco.models.bank.eba_accounting` on each, fits :mod:`~aieco.models.bank.eba_models` and
validates it on outcomes the fit did not see, and stores one :class:`ValidationGate` per model
and design with the provenance of its fit and validation data. Only the chronological
out-of-sample gate (fit on the earlier exercise, validate on the later one) carries the model id
``bank_eba_components`` that can authorise conclusions; the reverse and the cross-validation
gates are recorded under ``bank_eba_components:<design>``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from aieco.config import get_settings
from aieco.errors import InputError
from aieco.models.bank.eba import (
    eba_bank_outcomes,
    eba_comparators,
    exercise_panel,
    load_eba_csv,
    outcomes_from_panel,
)
from aieco.models.bank.eba_accounting import validate_accounting
from aieco.models.bank.eba_extract import bundled_exercises
from aieco.models.bank.eba_models import (
    DIRECT_ID,
    MODEL_ID,
    BankSample,
    bank_clustered_cv,
    bank_sample,
    fit_and_predict,
)
from aieco.models.bank.eba_scenario import benchmark_predictions, cv_benchmarks, exercise_severities
from aieco.models.bank.validation import Thresholds, validate, validation_gate
from aieco.progress import report
from aieco.records import Provenance, ValidationGate
from aieco.store import Store


@dataclass(frozen=True)
class Exercise:
    """One loaded EBA stress test."""

    name: str
    file: str
    encoding: str
    release_date: str | None
    start_year: int
    panel: pd.DataFrame
    outcomes: pd.DataFrame


@dataclass
class EbaValidation:
    """Everything ``aieco bank validate`` reports."""

    exercises: list[Exercise]
    accounting: pd.DataFrame
    accounting_banks: pd.DataFrame
    gates: list[ValidationGate] = field(default_factory=list)
    predictions: dict[str, pd.DataFrame] = field(default_factory=dict)
    #: Why the scenario-conditional model was not validated (empty when it was).
    scenario_skipped: str = ""


#: Real-data bank models validated on the EBA exercises (docs/bank-validation.md).
REAL_MODELS = (MODEL_ID, DIRECT_ID)


def load_exercise(path: Path, *, encoding: str | None = None, name: str | None = None) -> Exercise:
    """Read a stress-test file with its dictionaries and derive its panel and official outcomes."""
    data = load_eba_csv(Path(path), encoding=encoding)
    book = data.attrs.get("dictionary")
    if book is None:
        raise InputError(
            f"{Path(path).name} has no data dictionary beside it",
            where=str(path),
            fix="keep the EBA data dictionary next to the CSV",
        )
    if not (data["scenario_kind"] == "adverse").any():
        raise InputError(
            f"{Path(path).name} holds no adverse projections (actual figures only, e.g. a transparency "
            "exercise): there is no official stress outcome to validate against",
            where=str(path),
            fix="validate on an EBA stress-test file; store transparency data with `aieco bank import --eba`, "
            "where they give banks their starting points",
        )
    panel = exercise_panel(data)
    outcomes = eba_bank_outcomes(data)
    return Exercise(
        name or book.collection.lower(),
        Path(path).name,
        data.attrs["encoding"],
        str(data.attrs["release_date"]) if data.attrs.get("release_date") else None,
        int(outcomes["start_year"].iloc[0]),
        panel,
        outcomes,
    )


def exercise_from_panel(name: str, panel: pd.DataFrame, *, source: str) -> Exercise:
    """An exercise rebuilt from workspace records (``source`` names them)."""
    outcomes = outcomes_from_panel(panel)
    return Exercise(name, source, "", None, int(outcomes["start_year"].iloc[0]), panel, outcomes)


def _gate(
    store: Store,
    model_id: str,
    preds: pd.DataFrame,
    official: np.ndarray,
    thresholds: Thresholds,
    *,
    reps: int,
    seed: int,
    detail: str,
    benchmarks: dict[str, np.ndarray] | None = None,
) -> ValidationGate:
    off = pd.DataFrame({"bank_id": preds["bank_id"], "official_depletion": official})
    p = preds.assign(bank_id=preds["bank_id"])
    table, metrics, passed = validate(
        p[["bank_id", "country", "predicted", "lower", "upper"]], off, thresholds=thresholds, reps=reps, seed=seed
    )
    # the benchmarks' MAE beside the model's (recorded; this gate's verdict stays its thresholds')
    for name, b in (benchmarks or {}).items():
        metrics[f"{name}_mae"] = float(np.abs(np.asarray(b, float) - official).mean())
    digest = store.put_tables({"validation": table.reset_index()})
    gate = validation_gate(model_id, None, metrics, thresholds, passed)
    gate = ValidationGate.create(
        **{
            **gate.model_dump(exclude={"gate_id"}),
            "detail": f"{gate.detail}; {detail}; table artifact {digest}",
            "fit_provenance": Provenance.real,
            "validation_provenance": Provenance.real,
        }
    )
    store.put(gate)
    return gate


def _unique_by_bank(preds: pd.DataFrame, official: np.ndarray) -> tuple[pd.DataFrame, np.ndarray]:
    """Pooled designs hold a bank once per exercise: make the ids unique for the merge."""
    tag = preds["exercise"] if "exercise" in preds else ""
    return preds.assign(bank_id=preds["bank_id"] + "@" + tag), official


def validate_eba_exercises(
    store: Store,
    paths: Iterable[Path] | None = None,
    *,
    seed: int = 0,
    reps: int | None = None,
    encoding: str | None = None,
    draws: int = 500,
    exercises: list[Exercise] | None = None,
) -> EbaValidation:
    """Accounting check and real-data model gates on EBA stress tests (default: the bundled 2016 and 2021;
    ``exercises``: already loaded, e.g. from workspace records)."""
    s = get_settings().bank
    thresholds = Thresholds(s.mae_max, s.spearman_min, s.coverage_min)
    reps = int(reps or s.bootstrap_reps)
    if exercises:
        exercises = list(exercises)
    elif paths:
        exercises = [load_exercise(Path(p), encoding=encoding) for p in paths]
    else:
        exercises = [load_exercise(p, name=n) for n, p in bundled_exercises().items()]
    exercises.sort(key=lambda e: e.start_year)
    names = [e.name for e in exercises]
    if len(set(names)) != len(names):
        raise InputError(f"the same exercise was given twice ({names})", where="aieco bank validate")
    acc, acc_banks = zip(*(validate_accounting(e.panel, exercise=e.name) for e in exercises), strict=True)
    result = EbaValidation(exercises, pd.concat(acc, ignore_index=True), pd.concat(acc_banks, ignore_index=True))
    samples: dict[str, BankSample] = {e.name: bank_sample(e.panel, e.name) for e in exercises}
    for e in exercises:  # the simple comparators, per exercise
        official = e.outcomes.reset_index()[["bank_id", "official_depletion"]]
        for cname, preds in eba_comparators(e.outcomes).items():
            result.gates.append(
                _gate(
                    store,
                    f"eba_{cname}",
                    preds,
                    official["official_depletion"].to_numpy(),
                    thresholds,
                    reps=reps,
                    seed=seed,
                    detail=f"comparator on {e.name} ({e.file})",
                )
            )
    pairs = [(i, j) for i in range(len(exercises)) for j in range(len(exercises)) if i != j]
    sev = exercise_severities()  # the benchmarks' severities (recorded beside each gate's own verdict)
    n_fits = len(REAL_MODELS) * (len(pairs) + 1)  # every ordered pair, then the clustered CV, per model
    done = 0
    for mid in REAL_MODELS:
        for i, j in pairs:
            fit_ex, val_ex = exercises[i], exercises[j]
            report("bank model fit and validation", done, n_fits, f"{mid}: {fit_ex.name} → {val_ex.name}")
            done += 1
            preds = fit_and_predict(mid, samples[fit_ex.name], samples[val_ex.name], draws=draws, seed=seed)
            # the chronological design (fit on the earlier exercise) carries the bare model id: only it
            # may authorise conclusions
            model_id = (
                mid if (i, j) == (len(exercises) - 2, len(exercises) - 1) else f"{mid}:{fit_ex.name}->{val_ex.name}"
            )
            key = f"{fit_ex.name}->{val_ex.name}"
            result.predictions[key if mid == MODEL_ID else f"{mid}:{key}"] = preds
            train_d = samples[fit_ex.name].official_depletion
            bench = (
                benchmark_predictions(
                    train_d, np.full(len(train_d), sev[fit_ex.name]), np.full(len(preds), sev[val_ex.name])
                )
                if fit_ex.name in sev and val_ex.name in sev
                else None
            )
            result.gates.append(
                _gate(
                    store,
                    model_id,
                    preds,
                    samples[val_ex.name].official_depletion,
                    thresholds,
                    reps=reps,
                    seed=seed,
                    benchmarks=bench,
                    detail=f"fit on {fit_ex.name} ({len(samples[fit_ex.name].banks)} banks, adverse), validated on "
                    f"{val_ex.name} ({len(preds)} banks) official adverse depletion",
                )
            )
        report("bank model fit and validation", done, n_fits, f"{mid}: bank-clustered cross-validation")
        done += 1
        cv = bank_clustered_cv(list(samples.values()), seed=seed, draws=max(draws // 2, 50), model_id=mid)
        result.predictions["cv" if mid == MODEL_ID else f"{mid}:cv"] = cv
        p, off = _unique_by_bank(cv, cv["official_depletion"].to_numpy())
        cv_bench = (
            cv_benchmarks(list(samples.values()), sev, seed=seed, folds=5) if all(n in sev for n in samples) else None
        )
        result.gates.append(
            _gate(
                store,
                f"{mid}:cv",
                p,
                off,
                thresholds,
                reps=reps,
                seed=seed,
                detail=f"bank-clustered 5-fold cross-validation on {'+'.join(names)} ({len(cv)} bank-exercises)",
                benchmarks=cv_bench,
            )
        )
    report("bank model fit and validation", n_fits, n_fits, "done")
    if len(samples) < 2 or any(n not in sev for n in samples):
        result.scenario_skipped = (
            f"bank_eba_scenario not validated: it needs two EBA stress tests with a cited EU-wide severity "
            f"(given {sorted(samples)}; severities for {sorted(sev)})"
        )
    else:
        result.gates += scenario_gates(store, samples, result)
    return result


def scenario_gates(store: Store, samples: dict[str, BankSample], result: EbaValidation | None = None) -> list:
    """The scenario-conditional model's gates: one per design (benchmark figures in its metrics) and the
    overall gate ``bank_eba_scenario`` (passes only when every out-of-exercise design and a stable CV pass)."""
    from aieco.models.bank import eba_scenario as sc

    s = get_settings().bank
    designs, summary = sc.validate_scenario_model(
        samples, sc.exercise_severities(), spearman_min=s.spearman_min, seeds=s.cv_seeds, agreement=s.cv_agreement_min
    )
    thresholds = {
        "spearman_min": s.spearman_min,
        "cv_seeds": float(s.cv_seeds),
        "cv_agreement_min": float(s.cv_agreement_min),
        "beat_benchmarks": float(len(sc.BENCHMARKS)),
    }
    gates = []
    for d in designs:
        if result is not None:
            result.predictions[d.model_id] = d.predictions
        digest = store.put_tables({"validation": d.predictions})
        m = d.metrics
        why = ", ".join(f"{b} MAE {m[f'{b}_mae']:.3f}" for b in sc.BENCHMARKS)
        gate = ValidationGate.create(
            model_id=d.model_id,
            metrics=m,
            thresholds=thresholds,
            passed=bool(m["passed"]),
            detail=f"{d.design}: MAE {m['mae']:.3f} pp against {why}; Spearman {m['spearman']:.3f}; "
            f"table artifact {digest}",
            fit_provenance=Provenance.real,
            validation_provenance=Provenance.real,
        )
        store.put(gate)
        gates.append(gate)
    overall = ValidationGate.create(
        model_id=sc.MODEL_ID,
        metrics=summary,
        thresholds=thresholds,
        passed=bool(summary["passed"]),
        detail=sc.verdict_detail(designs, summary, s.spearman_min),
        fit_provenance=Provenance.real,
        validation_provenance=Provenance.real,
    )
    store.put(overall)
    return [*gates, overall]


def accounting_rows(summary: pd.DataFrame) -> list[dict]:
    cols = [
        "exercise",
        "scenario",
        "step",
        "n_banks",
        "mae_end",
        "mae_path",
        "max_abs_end",
        "worst_bank",
        "worst_bank_name",
        "worst_error",
        "mean_residual_pct_rea",
        "items_added",
        "lacks",
    ]
    return [
        {
            k: (float(v) if isinstance(v, (np.floating, float)) else (int(v) if isinstance(v, np.integer) else v))
            for k, v in row.items()
        }
        for row in summary[cols].to_dict(orient="records")
    ]
