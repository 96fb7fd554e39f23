"""External validation of bank models against official adverse outcomes.

Measures (appendix "Numerical Scenarios and Bank Outcomes"): MAE and RMSE of CET1 depletion,
Spearman rank correlation, top-quartile recall and interval coverage. The gate requires
MAE ≤ 2 pp, Spearman ≥ 0.5 and coverage ≥ 0.75 (settings.bank), all three. The no-change
comparator predicts zero depletion from the same starting state; the model is compared with
it by a bootstrap that resamples countries (clusters) with replacement.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

from aieco.errors import InputError
from aieco.records import ValidationGate

PREDICTION_COLUMNS = ("bank_id", "country", "predicted", "lower", "upper")
OFFICIAL_COLUMNS = ("bank_id", "official_depletion")


@dataclass(frozen=True)
class Thresholds:
    mae_max: float = 2.0
    spearman_min: float = 0.5
    coverage_min: float = 0.75


def top_quartile_recall(official: np.ndarray, predicted: np.ndarray) -> float:
    """Share of the banks in the official top depletion quartile that the prediction also puts there."""
    k = max(int(np.ceil(len(official) / 4)), 1)
    top_off = set(np.argsort(-official, kind="stable")[:k])
    top_pred = set(np.argsort(-predicted, kind="stable")[:k])
    return len(top_off & top_pred) / k


def depletion_metrics(
    official: np.ndarray, predicted: np.ndarray, lower: np.ndarray, upper: np.ndarray
) -> dict[str, float]:
    """MAE, RMSE (pp), Spearman, top-quartile recall and interval coverage of CET1 depletion."""
    err = predicted - official
    if np.ptp(predicted) == 0 or np.ptp(official) == 0:
        rho = 0.0  # a constant prediction (e.g. no change) carries no ranking information
    else:
        rho = float(spearmanr(official, predicted).statistic)
    return {
        "n_banks": float(len(official)),
        "mae": float(np.abs(err).mean()),
        "rmse": float(np.sqrt((err**2).mean())),
        "spearman": rho,
        # a constant prediction ranks nothing, so it recalls nothing
        "top_quartile_recall": 0.0 if np.ptp(predicted) == 0 else top_quartile_recall(official, predicted),
        "coverage": float(((official >= lower) & (official <= upper)).mean()),
    }


def cluster_bootstrap_vs_no_change(
    official: np.ndarray, predicted: np.ndarray, clusters: np.ndarray, *, reps: int, seed: int
) -> dict[str, float]:
    """Bootstrap (countries resampled with replacement) of MAE and RMSE differences, model − no change.

    Returns the point differences, their 2.5/97.5 percentiles and the share of replications
    in which the model's MAE is below the no-change MAE.
    """
    rng = np.random.default_rng(seed)
    labels, codes = np.unique(clusters, return_inverse=True)
    members = [np.flatnonzero(codes == c) for c in range(labels.size)]
    abs_m, abs_0 = np.abs(predicted - official), np.abs(official)
    sq_m, sq_0 = (predicted - official) ** 2, official**2
    d_mae, d_rmse = np.empty(reps), np.empty(reps)
    for r in range(reps):
        idx = np.concatenate([members[c] for c in rng.integers(0, labels.size, size=labels.size)])
        d_mae[r] = abs_m[idx].mean() - abs_0[idx].mean()
        d_rmse[r] = np.sqrt(sq_m[idx].mean()) - np.sqrt(sq_0[idx].mean())
    return {
        "mae_diff": float(abs_m.mean() - abs_0.mean()),
        "mae_diff_lo": float(np.percentile(d_mae, 2.5)),
        "mae_diff_hi": float(np.percentile(d_mae, 97.5)),
        "rmse_diff": float(np.sqrt(sq_m.mean()) - np.sqrt(sq_0.mean())),
        "rmse_diff_lo": float(np.percentile(d_rmse, 2.5)),
        "rmse_diff_hi": float(np.percentile(d_rmse, 97.5)),
        "share_model_better": float((d_mae < 0).mean()),
        "clusters": float(labels.size),
        "reps": float(reps),
    }


def validate(
    predictions: pd.DataFrame, official: pd.DataFrame, *, thresholds: Thresholds, reps: int, seed: int
) -> tuple[pd.DataFrame, dict[str, float], bool]:
    """Compare predicted with official depletion for the same banks.

    Parameters
    ----------
    predictions : DataFrame
        :data:`PREDICTION_COLUMNS`: point prediction and interval of CET1 depletion (pp).
    official : DataFrame
        :data:`OFFICIAL_COLUMNS`: official adverse depletion (start minus minimum ratio, pp).
    thresholds : Thresholds
        settings.bank values.
    reps : int
        Country-cluster bootstrap replications (settings.bank.bootstrap_reps).
    seed : int
        Bootstrap seed.

    Returns
    -------
    table, metrics, passed
        ``table``: one row per bank (bank_id index) with country, official, predicted, lower,
        upper, error, covered; ``metrics``: model measures, no-change measures (``no_change_*``)
        and the bootstrap comparison (``boot_*``); ``passed``: all three thresholds met.
    """
    for frame, cols, name in (
        (predictions, PREDICTION_COLUMNS, "predictions"),
        (official, OFFICIAL_COLUMNS, "official"),
    ):
        missing = [c for c in cols if c not in frame.columns]
        if missing:
            raise InputError(
                f"validation {name} lack columns {missing}",
                where=f"validation {name}",
                fix=f"supply columns {', '.join(cols)}",
            )
    merged = predictions.merge(official[list(OFFICIAL_COLUMNS)], on="bank_id", how="inner")
    if len(merged) < 4:
        raise InputError(
            f"only {len(merged)} banks are in both the predictions and the official outcomes",
            where="validation",
            fix="validate on at least four common banks",
        )
    if merged[["predicted", "lower", "upper", "official_depletion"]].isna().any().any():
        raise InputError("validation inputs contain missing values", where="validation")
    off = merged["official_depletion"].to_numpy(float)
    pred = merged["predicted"].to_numpy(float)
    lo, hi = merged["lower"].to_numpy(float), merged["upper"].to_numpy(float)
    metrics = depletion_metrics(off, pred, lo, hi)
    zero = np.zeros_like(off)
    metrics.update({f"no_change_{k}": v for k, v in depletion_metrics(off, zero, zero, zero).items() if k != "n_banks"})
    boot = cluster_bootstrap_vs_no_change(off, pred, merged["country"].to_numpy(), reps=reps, seed=seed)
    metrics.update({f"boot_{k}": v for k, v in boot.items()})
    passed = (
        metrics["mae"] <= thresholds.mae_max
        and metrics["spearman"] >= thresholds.spearman_min
        and metrics["coverage"] >= thresholds.coverage_min
    )
    table = merged.set_index("bank_id")[["country", "official_depletion", "predicted", "lower", "upper"]].copy()
    table["error"] = table["predicted"] - table["official_depletion"]
    table["covered"] = ((off >= lo) & (off <= hi)).astype(float)
    return table, metrics, passed


def validation_gate(
    model_id: str, run_id: str | None, metrics: dict[str, float], thresholds: Thresholds, passed: bool
) -> ValidationGate:
    """The stored gate: may this model supply bank conclusions under generated scenarios?"""
    failed = []
    if metrics["mae"] > thresholds.mae_max:
        failed.append(f"MAE {metrics['mae']:.3f} pp > {thresholds.mae_max}")
    if metrics["spearman"] < thresholds.spearman_min:
        failed.append(f"Spearman {metrics['spearman']:.3f} < {thresholds.spearman_min}")
    if metrics["coverage"] < thresholds.coverage_min:
        failed.append(f"coverage {metrics['coverage']:.3f} < {thresholds.coverage_min}")
    detail = "all three conditions met" if passed else "; ".join(failed)
    return ValidationGate.create(
        model_id=model_id,
        run_id=run_id,
        metrics=metrics,
        thresholds={
            "mae_max": thresholds.mae_max,
            "spearman_min": thresholds.spearman_min,
            "coverage_min": thresholds.coverage_min,
        },
        passed=passed,
        detail=detail,
    )
