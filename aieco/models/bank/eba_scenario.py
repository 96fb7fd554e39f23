"""Bank capital under the analysis's own scenario: severity scaling of the EBA exercises' depletion.

Model ``bank_eba_scenario`` (declared before it was validated; docs/bank-validation.md):

    D_{i}(s) = s · x_i' β,    fitted by least squares of D_{i,e} / s_e on x_i

where D_{i,e} is bank i's official adverse CET1 depletion in EBA exercise e (pp: start ratio minus
the lowest projected ratio), s_e the exercise's EU-wide severity — the adverse scenario's
cumulative fall of EU real GDP over its three years (%, :func:`exercise_severities`, quoted from
public pages) — and x_i = [1, n_0, ℓ_0, o_0, CET1 ratio_0] the bank's starting state
(:func:`~aieco.models.bank.eba_models.direct_design`). Under a generated scenario, s is the
selected path's own cumulative fall of real GDP over the request's three-year horizon, the last
year's average against the year before the first (:func:`path_severity`), floored at zero (a
path along which GDP grows is given no stress depletion: the EBA baseline scenarios' mean
depletion is close to zero).

Assumptions, stated in the run diagnostics and the report: (1) a bank's depletion is
proportional to the EU-wide GDP severity (elasticity one), with the bank's starting state setting
the slope; (2) the EU-wide GDP figure stands for the whole scenario (unemployment, rates, house
and equity prices move with it as in the EBA exercises); (3) the EBA methodology (static balance
sheet, caps and floors) is the accounting frame. The validation below tests (1) out of exercise.

Validation designs, each against three benchmarks fitted on the same training banks — no change
(zero depletion), a constant at the training mean depletion, and a scaled constant
(training mean of D/s times the target severity: severity only) — are out-of-exercise (fit on
one exercise, predict the other; both directions) and bank-clustered K-fold CV on both pooled,
repeated over ``seeds`` fold assignments. A design passes when the model's MAE is below each
benchmark's MAE and its Spearman correlation reaches the floor; the CV verdict counts only when
at least ``agreement`` of the seeds agree, and the model's gate passes only when every design
passes.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from aieco.errors import InputError
from aieco.models.bank.eba_models import BankSample, concat_samples, direct_design
from aieco.models.bank.validation import depletion_metrics

MODEL_ID = "bank_eba_scenario"
DATA = Path(__file__).parent / "eba_data" / "scenario"
SEVERITY_FILE = DATA / "exercise_severity.csv"
EURO_FILE = DATA / "euro_area_entry.csv"
#: The severity measure the model uses (rows of exercise_severity.csv).
MEASURE = ("adverse", "real_gdp", "cumulative change")
BENCHMARKS = ("no_change", "train_mean", "scaled_constant")


def _rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        raise InputError(f"{path.name} is missing", where=str(path), fix="reinstall aieco (packaged data file)")
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def severity_records(path: Path | None = None) -> list[dict[str, str]]:
    """The rows of the severity file (each with URL and quote)."""
    return _rows(path or SEVERITY_FILE)


def exercise_severities(path: Path | None = None) -> dict[str, float]:
    """Exercise → EU-wide severity s_e: minus the adverse cumulative change of EU real GDP (%, positive = fall)."""
    out = {}
    path = path or SEVERITY_FILE
    for r in _rows(path):
        if (r["scenario"], r["variable"], r["measure"]) != MEASURE:
            continue
        try:
            out[r["exercise"].lower()] = -float(r["value"])
        except ValueError as exc:
            raise InputError(f"{path.name}: value {r['value']!r} is not a number", where=str(path)) from exc
    return out


def euro_area_entry(path: Path | None = None) -> dict[str, date]:
    """Country code → the date it adopted the euro (European Commission / Eurostat pages, cited per row)."""
    return {r["country"].upper(): date.fromisoformat(r["entry_date"]) for r in _rows(path or EURO_FILE)}


def euro_area_member(country: str, on: date | None) -> bool:
    """Whether ``country`` is a euro-area member on ``on`` (None: today's membership)."""
    entry = euro_area_entry().get((country or "").upper())
    return entry is not None and (on is None or entry <= on)


# --------------------------------------------------------------------------- scope


@dataclass(frozen=True)
class Scope:
    """Which banks a request covers: its jurisdictions, its cutoff and the staleness limit (years)."""

    jurisdictions: tuple[str, ...] | None
    cutoff: date | None
    max_start_age_years: float


def scope_reason(country: str, actual_year: int, scope: Scope) -> str | None:
    """Why a bank is left out of the request (None: it is in)."""
    juris = {j.upper() for j in scope.jurisdictions or ()}
    code = (country or "").upper()
    if juris and not (juris & {"EU", "GLOBAL", "EU27", "EU27_2020"}):
        in_ea = bool(juris & {"EA", "EA19", "EA20"}) and euro_area_member(code, scope.cutoff)
        if not (in_ea or code in juris):
            where = "a euro-area member" if juris & {"EA", "EA19", "EA20"} else "/".join(sorted(juris))
            return f"country {code or 'unknown'} is not {where} at the cutoff {scope.cutoff}"
    if scope.cutoff is not None:
        age = (scope.cutoff - date(actual_year, 12, 31)).days / 365.25
        if age > scope.max_start_age_years:
            return (
                f"latest admissible actuals are year-end {actual_year}, {age:.1f} years before the cutoff "
                f"(limit {scope.max_start_age_years:g} years, settings.bank.max_start_age_years)"
            )
    return None


def apply_scope(
    sample: BankSample, starts: Mapping[str, tuple[str, int]], scope: Scope
) -> tuple[BankSample, list[dict[str, str | int]]]:
    """The banks a request covers, and every bank left out with its reason."""
    keep, left = [], []
    for i, (b, c) in enumerate(zip(sample.banks, sample.country, strict=True)):
        ex, year = starts[b]
        why = scope_reason(str(c), int(year), scope)
        if why is None:
            keep.append(i)
        else:
            left.append({"bank_id": b, "country": str(c), "start_exercise": ex, "start_year": int(year), "reason": why})
    return sample.take(np.array(keep, dtype=int)), left


# --------------------------------------------------------------------------- severity of a path


def _year_mean(quarterly: pd.DataFrame, year: int) -> float:
    rows = [q for q in quarterly.index if str(q).startswith(f"{year}Q")]
    if len(rows) != 4:
        raise InputError(
            f"the macro path holds {len(rows)} quarters of {year}; the severity needs all four",
            where="selected_quarterly",
            fix="run macro_var over the request's horizon (its selected_quarterly starts the year before it)",
        )
    return float(quarterly.loc[rows, "real_gdp"].astype(float).mean())


def path_severity(quarterly: pd.DataFrame, horizon: str | None = None) -> float:
    """The selected path's cumulative fall of real GDP over the three-year horizon (%).

    Measured as the EBA states its exercises' severity (e.g. "cumulative change 2021-2023"): the
    annual average of the horizon's last year against the year before its first, s = −100 ·
    (Ȳ_last / Ȳ_base − 1), whether the base year's quarters are observed or simulated.
    ``quarterly``: the macro run's ``selected_quarterly`` (index 'YYYYQn', column ``real_gdp``);
    ``horizon``: 'YYYY-YYYY' (default: the table's second to last year).
    """
    if "real_gdp" not in quarterly.columns:
        raise InputError(
            "the macro path lacks column real_gdp",
            where="selected_quarterly",
            fix="run model macro_var (it stores selected_quarterly with real_gdp)",
        )
    years = sorted({int(str(q)[:4]) for q in quarterly.index})
    first, last = (int(y) for y in horizon.split("-")) if horizon else (years[0] + 1, years[-1])
    return float(-100.0 * (_year_mean(quarterly, last) / _year_mean(quarterly, first - 1) - 1.0))


def path_deviation(selected: pd.DataFrame, median: pd.DataFrame) -> float | None:
    """The selected path's real GDP deviation from the median path in the last quarter (%), or None."""
    if "real_gdp" not in selected or "real_gdp" not in median or selected.index[-1] not in median.index:
        return None
    q = selected.index[-1]
    return float(100.0 * (selected.loc[q, "real_gdp"] / median.loc[q, "real_gdp"] - 1.0))


# --------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class ScenarioFit:
    """Least-squares coefficients of depletion per unit of severity (pp per % GDP fall) and training residuals."""

    beta: np.ndarray  # (5,)
    residuals: np.ndarray  # (N_train,) per unit of severity
    n_banks: int


def fit_scenario(sample: BankSample, severity: np.ndarray) -> ScenarioFit:
    """Least squares of D_{i,e} / s_e on :func:`direct_design` (``severity``: s_e per row of ``sample``, %)."""
    severity = np.asarray(severity, float)
    ok = np.isfinite(sample.official_depletion) & (severity > 0)
    if ok.sum() < 8:
        raise InputError(
            f"only {int(ok.sum())} banks with an official depletion and a positive severity",
            where=MODEL_ID,
            fix="fit on a full EBA stress test with its severity in exercise_severity.csv",
        )
    X, y = direct_design(sample)[ok], sample.official_depletion[ok] / severity[ok]
    beta, *_ = np.linalg.lstsq(X, y, rcond=None)
    return ScenarioFit(beta, y - X @ beta, int(ok.sum()))


def predict_scenario(
    fit: ScenarioFit, sample: BankSample, severity: float | np.ndarray, probs: tuple[float, float] = (5.0, 95.0)
) -> pd.DataFrame:
    """Depletion (pp) at ``severity`` (floored at zero): point s·x'β, interval s·(x'β + residual percentiles)."""
    s = np.maximum(np.broadcast_to(np.asarray(severity, float), (len(sample.banks),)), 0.0)
    unit = direct_design(sample) @ fit.beta
    lo, hi = np.percentile(fit.residuals, probs)
    point = s * unit
    return pd.DataFrame(
        {
            "bank_id": sample.banks,
            "country": sample.country,
            "predicted": point,
            "lower": np.minimum(s * (unit + lo), point),
            "upper": np.maximum(s * (unit + hi), point),
            "start_ratio": sample.start_ratio,
            "severity": s,
        }
    )


def benchmark_predictions(
    train_depletion: np.ndarray, train_severity: np.ndarray, test_severity: np.ndarray
) -> dict[str, np.ndarray]:
    """The three benchmarks for the test rows, from the training banks only."""
    test_severity = np.asarray(test_severity, float)
    ok = np.isfinite(train_depletion) & (train_severity > 0)
    per_unit = float(np.mean(train_depletion[ok] / train_severity[ok]))
    return {
        "no_change": np.zeros_like(test_severity),
        "train_mean": np.full_like(test_severity, float(np.mean(train_depletion[ok]))),
        "scaled_constant": per_unit * test_severity,
    }


def score(official: np.ndarray, pred: pd.DataFrame, bench: Mapping[str, np.ndarray], spearman_min: float) -> dict:
    """The model's measures, each benchmark's MAE and Spearman, and the design's verdict (``passed`` 1/0)."""
    m = depletion_metrics(
        official, pred["predicted"].to_numpy(float), pred["lower"].to_numpy(), pred["upper"].to_numpy()
    )
    for name, b in bench.items():
        bm = depletion_metrics(official, b, b, b)
        m[f"{name}_mae"], m[f"{name}_spearman"] = bm["mae"], bm["spearman"]
    beats = all(m["mae"] < m[f"{n}_mae"] for n in bench)
    m["beats_benchmarks"] = float(beats)
    m["passed"] = float(beats and m["spearman"] >= spearman_min)
    return m


def out_of_exercise(
    train: BankSample, test: BankSample, s_train: float, s_test: float, spearman_min: float
) -> tuple[pd.DataFrame, dict]:
    """Fit on one exercise, predict the other at its own severity; predictions and scores."""
    fit = fit_scenario(train, np.full(len(train.banks), s_train))
    pred = predict_scenario(fit, test, s_test)
    bench = benchmark_predictions(train.official_depletion, np.full(len(train.banks), s_train), pred["severity"])
    pred = pred.assign(official_depletion=test.official_depletion, **{f"bench_{k}": v for k, v in bench.items()})
    return pred, score(test.official_depletion, pred, bench, spearman_min)


def _folds(pooled: BankSample, seed: int, folds: int) -> np.ndarray:
    """Fold of each row, by bank LEI (the assignment of :func:`~aieco.models.bank.eba_models.bank_clustered_cv`)."""
    leis = sorted(set(pooled.banks))
    order = np.random.default_rng(seed).permutation(len(leis))
    fold_of = {lei: int(order[i] % folds) for i, lei in enumerate(leis)}
    return np.array([fold_of[b] for b in pooled.banks])


def cv_benchmarks(
    samples: Sequence[BankSample], severities: Mapping[str, float], *, seed: int, folds: int
) -> dict[str, np.ndarray]:
    """The three benchmarks of every held-out row, in the row order of ``bank_clustered_cv`` (fold by fold)."""
    pooled = concat_samples(list(samples))
    sev = np.array([severities[s.exercise] for s in samples for _ in s.banks], float)
    fold = _folds(pooled, seed, folds)
    parts = []
    for k in range(folds):
        tr, te = np.flatnonzero(fold != k), np.flatnonzero(fold == k)
        parts.append(benchmark_predictions(pooled.official_depletion[tr], sev[tr], sev[te]))
    return {b: np.concatenate([p[b] for p in parts]) for b in BENCHMARKS}


def clustered_cv(
    samples: Sequence[BankSample], severities: Mapping[str, float], *, seed: int, folds: int, spearman_min: float
) -> tuple[pd.DataFrame, dict]:
    """Bank-clustered K-fold CV on the pooled exercises (a bank in both exercises is in one fold)."""
    pooled = concat_samples(list(samples))
    tags = np.array([s.exercise for s in samples for _ in s.banks])
    sev = np.array([severities[t] for t in tags], float)
    fold = _folds(pooled, seed, folds)
    parts = []
    for k in range(folds):
        tr, te = np.flatnonzero(fold != k), np.flatnonzero(fold == k)
        fit = fit_scenario(pooled.take(tr), sev[tr])
        pred = predict_scenario(fit, pooled.take(te), sev[te])
        bench = benchmark_predictions(pooled.official_depletion[tr], sev[tr], sev[te])
        parts.append(
            pred.assign(
                exercise=tags[te],
                official_depletion=pooled.official_depletion[te],
                **{f"bench_{b}": v for b, v in bench.items()},
            )
        )
    cv = pd.concat(parts, ignore_index=True)
    bench = {b: cv[f"bench_{b}"].to_numpy(float) for b in BENCHMARKS}
    return cv, score(cv["official_depletion"].to_numpy(float), cv, bench, spearman_min)


@dataclass(frozen=True)
class DesignResult:
    """One validation design of the scenario model: its gate id, scores and held-out predictions."""

    model_id: str
    design: str
    metrics: dict
    predictions: pd.DataFrame


def validate_scenario_model(
    samples: Mapping[str, BankSample],
    severities: Mapping[str, float],
    *,
    spearman_min: float,
    seeds: int,
    agreement: int,
    folds: int = 5,
) -> tuple[list[DesignResult], dict]:
    """Every design of the scenario model and the overall verdict (``passed`` 1/0 with its parts).

    Raises
    ------
    InputError
        When an exercise has no severity in the severity file, or fewer than two exercises are given.
    """
    names = sorted(samples)
    missing = [n for n in names if n not in severities]
    if missing:
        raise InputError(
            f"no EU-wide severity for exercise(s) {missing}",
            where=str(SEVERITY_FILE),
            fix="add the exercise's adverse cumulative EU real GDP change with its URL and quote",
        )
    if len(names) < 2:
        raise InputError("the scenario model needs two EBA exercises to validate out of exercise", where=MODEL_ID)
    results = []
    for a in names:
        for b in names:
            if a == b:
                continue
            pred, m = out_of_exercise(samples[a], samples[b], severities[a], severities[b], spearman_min)
            results.append(DesignResult(f"{MODEL_ID}:{a}->{b}", f"{a}->{b}", m, pred))
    cv_pass = []
    for seed in range(seeds):
        pred, m = clustered_cv(
            [samples[n] for n in names], severities, seed=seed, folds=folds, spearman_min=spearman_min
        )
        results.append(DesignResult(f"{MODEL_ID}:cv:seed{seed}", f"cv seed {seed}", m, pred))
        cv_pass.append(bool(m["passed"]))
    n_pass = sum(cv_pass)
    cv_stable = n_pass >= agreement or (seeds - n_pass) >= agreement
    oos = [r for r in results if "->" in r.design]
    summary = {
        "cv_seeds": float(seeds),
        "cv_seeds_passed": float(n_pass),
        "cv_agreement_min": float(agreement),
        "cv_stable": float(cv_stable),
        "cv_passed": float(n_pass >= agreement),
        "out_of_exercise_passed": float(all(r.metrics["passed"] for r in oos)),
    }
    for r in oos:
        for k in ("mae", "spearman", "coverage", *(f"{b}_mae" for b in BENCHMARKS)):
            summary[f"{r.design}:{k}"] = float(r.metrics[k])
    cvs = [r.metrics for r in results if r.design.startswith("cv")]
    for k in ("mae", "spearman", *(f"{b}_mae" for b in BENCHMARKS)):
        summary[f"cv:{k}_min"] = float(min(m[k] for m in cvs))
        summary[f"cv:{k}_max"] = float(max(m[k] for m in cvs))
    summary["passed"] = float(summary["out_of_exercise_passed"] and summary["cv_passed"])
    return results, summary


def verdict_detail(results: Sequence[DesignResult], summary: Mapping[str, float], spearman_min: float) -> str:
    """One sentence per failed condition, with the figures (what the stop shows)."""
    parts = []
    for r in results:
        if "->" not in r.design or r.metrics["passed"]:
            continue
        m = r.metrics
        bench = ", ".join(f"{b} {m[f'{b}_mae']:.2f}" for b in BENCHMARKS)
        parts.append(
            f"{r.design}: MAE {m['mae']:.2f} pp against benchmarks {bench}; Spearman {m['spearman']:.2f} "
            f"(floor {spearman_min:g})"
        )
    parts.append(
        f"bank-clustered CV: {int(summary['cv_seeds_passed'])} of {int(summary['cv_seeds'])} fold seeds pass "
        f"(need {int(summary['cv_agreement_min'])}); MAE {summary['cv:mae_min']:.2f}-{summary['cv:mae_max']:.2f} pp "
        f"against train_mean {summary['cv:train_mean_mae_min']:.2f}-{summary['cv:train_mean_mae_max']:.2f} and "
        f"scaled_constant {summary['cv:scaled_constant_mae_min']:.2f}-{summary['cv:scaled_constant_mae_max']:.2f}"
    )
    head = "all designs pass" if summary["passed"] else "gate failed"
    return f"{head}: " + "; ".join(parts)
