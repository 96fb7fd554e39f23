"""The cross-bank CET1 figures, named in one place for the models, the claims and the report.

Every bank projection run (FE-OLS and FE-QAR on a workspace's half-year panel, and the real-data
model ``bank_eba_components``) writes the same table :data:`TABLE` with one row ``all`` and the
columns of :data:`FIGURES`, and the same output points; the report registers its bank claims
from :data:`FIGURES` before the run (:mod:`aieco.reporting.bank`) and names them in prose with
:data:`OUTPUT_LABELS` (:mod:`aieco.reporting.rules`).

Definitions (per bank i, point projection):

* depletion d_i = CET1 ratio at the start − the minimum projected CET1 ratio (pp);
* ``cet1_depletion`` cross_bank_p05 / p50 / p95: the 5th, 50th and 95th percentiles of d_i
  across banks (numpy's linear interpolation);
* ``banks_below_cet1_threshold``: the number of banks whose minimum projected ratio
  (start − d_i) is below ``cet1_threshold``;
* ``cet1_threshold``: the stated threshold (%), by default :data:`CET1_THRESHOLD`;
* ``banks_projected``: the number of banks in the distribution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from aieco.errors import InputError
from aieco.models.registry import PointRef
from aieco.records import ValueStatus

#: CET1 ratio threshold (%) for the count of banks below it: the 4.5 % CET1 minimum of Art. 92 CRR
#: plus the 2.5 % capital conservation buffer of Art. 129 CRD.
CET1_THRESHOLD = 7.0
THRESHOLD_NOTE = "CET1 minimum 4.5 % (Art. 92 CRR) plus conservation buffer 2.5 % (Art. 129 CRD)"
#: What the figures of a bank model that takes no macro path are (see
#: :func:`aieco.models.catalog.takes_macro_path`), stated wherever they are shown.
NOT_SCENARIO_NOTE = (
    "predicted CET1 depletion under an EBA-style adverse exercise from each bank's starting position "
    "(the model takes no macro path) — not an outcome of this analysis's scenario"
)
#: The short form for labels (run pickers).
NOT_SCENARIO_TAG = "not scenario-conditional"

DEPLETION = "cet1_depletion"
BELOW = "banks_below_cet1_threshold"
THRESHOLD = "cet1_threshold"
PROJECTED = "banks_projected"
#: Output table of the cross-bank figures (one row, :data:`ROW`).
TABLE = "cross_bank"
ROW = "all"


@dataclass(frozen=True)
class Figure:
    """One cross-bank figure: its output point's fields and its column in :data:`TABLE`."""

    variable: str
    statistic: str
    unit: str
    transformation: str
    column: str
    description: str


FIGURES: tuple[Figure, ...] = (
    Figure(DEPLETION, "cross_bank_p50", "pp", "start_minus_min", "depletion_p50", "median across banks of depletion"),
    Figure(DEPLETION, "cross_bank_p05", "pp", "start_minus_min", "depletion_p05", "5th percentile across banks"),
    Figure(DEPLETION, "cross_bank_p95", "pp", "start_minus_min", "depletion_p95", "95th percentile across banks"),
    Figure(BELOW, "value", "count", "count_below_threshold", "banks_below", "banks whose minimum ratio is below"),
    Figure(THRESHOLD, "value", "%", "level", "threshold", "the stated CET1 ratio threshold"),
    Figure(PROJECTED, "value", "count", "count", "banks", "number of banks projected"),
)
VARIABLES = tuple(dict.fromkeys(f.variable for f in FIGURES))
#: How the report names each figure (the attribution rule matches a NUM token to the nearest name).
OUTPUT_LABELS: dict[str, tuple[str, ...]] = {
    DEPLETION: ("cet1 depletion", "depletion of the cet1 ratio", "cet1 ratio depletion"),
    BELOW: ("banks below the threshold", "banks below that threshold", "banks below it"),
    THRESHOLD: ("cet1 threshold", "threshold of"),
    PROJECTED: ("banks projected", "projected banks", "banks in the projection"),
}


def figure(variable: str, statistic: str = "value") -> Figure:
    for f in FIGURES:
        if f.variable == variable and f.statistic == statistic:
            return f
    raise KeyError(f"no cross-bank figure {variable} {statistic}")


def cross_bank_table(depletion: np.ndarray, start_ratio: np.ndarray, threshold: float = CET1_THRESHOLD) -> pd.DataFrame:
    """The one-row table of :data:`FIGURES` from per-bank depletion (pp) and starting ratios (%)."""
    d = np.asarray(depletion, dtype=float)
    start = np.asarray(start_ratio, dtype=float)
    if d.ndim != 1 or d.shape != start.shape or not len(d):
        raise InputError(
            f"cross-bank figures need one depletion and one starting ratio per bank (got {d.shape} and {start.shape})",
            where="cross-bank CET1 figures",
        )
    if not (np.isfinite(d).all() and np.isfinite(start).all() and np.isfinite(threshold)):
        raise InputError("cross-bank figures need finite depletion, starting ratios and threshold", where=TABLE)
    p05, p50, p95 = np.percentile(d, [5, 50, 95])
    row = {
        "depletion_p50": float(p50),
        "depletion_p05": float(p05),
        "depletion_p95": float(p95),
        "banks_below": float(np.sum(start - d < threshold)),
        "threshold": float(threshold),
        "banks": float(len(d)),
    }
    return pd.DataFrame([row], index=[ROW])


def cross_bank_points(period: str) -> list[PointRef]:
    """The output points of :data:`FIGURES` over ``period`` (the horizon the projection serves)."""
    return [
        PointRef(
            variable=f.variable,
            unit=f.unit,
            transformation=f.transformation,
            period=period,
            table=TABLE,
            row=ROW,
            column=f.column,
            statistic=f.statistic,
            status=ValueStatus.modelled,
        )
        for f in FIGURES
    ]
