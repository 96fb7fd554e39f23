"""Observed values and data vintages: what was known at the cutoff.

For a provider series and reference period, the input selector keeps the latest release
on or before the cutoff (appendix "Observed Values and Data Vintages"). A value whose
release date is unknown or after the cutoff is not eligible; a later download never
stands in for a missing archival release; one variable may not mix geographies.

Observations travel as a long DataFrame with at least the columns ``variable``,
``reference_period``, ``value``, ``release_date`` (ISO text, date or None) and
``jurisdiction``; ``series_key`` identifies the provider series when present.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pandas as pd

from aieco.asof import AsOf
from aieco.errors import InputError, StageStopped

REQUIRED_COLUMNS = ("variable", "reference_period", "value", "release_date", "jurisdiction")


def _as_date(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def check_columns(observations: pd.DataFrame) -> None:
    missing = [c for c in REQUIRED_COLUMNS if c not in observations.columns]
    if missing:
        raise InputError(f"observations lack the column(s) {', '.join(missing)}", where="observations",
                         fix=f"supply the columns {', '.join(REQUIRED_COLUMNS)}")


def check_geography(observations: pd.DataFrame) -> None:
    """Refuse a variable observed for more than one jurisdiction (e.g. EA19 and EA20 mixed)."""
    geo = observations.groupby("variable")["jurisdiction"].unique()
    mixed = {v: sorted(map(str, g)) for v, g in geo.items() if len(g) > 1}
    if mixed:
        detail = "; ".join(f"{v}: {', '.join(g)}" for v, g in mixed.items())
        raise InputError(f"inconsistent geography for one variable ({detail})", where="observations jurisdiction",
                         fix="keep one geographic membership per variable (register the others as separate variables)")


def select_as_of(observations: pd.DataFrame, cutoff: AsOf | date | str,
                 required: Sequence[str] = ()) -> pd.DataFrame:
    """The eligible observations at ``cutoff``: per series and period, the latest release ≤ cutoff.

    Parameters
    ----------
    observations : DataFrame (long format, see module docstring)
    cutoff : the request's AsOf, a date or ISO text (the release rule is ``AsOf.released``)
    required : variables that must have at least one eligible value

    Returns
    -------
    DataFrame
        One row per (variable, series_key, reference_period), sorted; ``release_date`` as date.

    Raises
    ------
    InputError
        Missing columns or inconsistent geography.
    StageStopped
        A required variable has no release on or before the cutoff (no fallback to later data).
    """
    check_columns(observations)
    rule = cutoff if isinstance(cutoff, AsOf) else AsOf(cutoff=_as_date(cutoff))
    cutoff = rule.cutoff
    frame = observations.copy()
    if "series_key" not in frame.columns:
        frame["series_key"] = ""
    frame["series_key"] = frame["series_key"].fillna("")
    check_geography(frame)
    released = frame["release_date"].map(lambda d: None if d is None or pd.isna(d) or d == "" else _as_date(d))
    frame["release_date"] = released
    known = released.notna()
    eligible = frame[known & released.map(rule.released)]
    eligible = eligible.sort_values(["variable", "series_key", "reference_period", "release_date"])
    latest = eligible.groupby(["variable", "series_key", "reference_period"], sort=True).tail(1)
    for v in required:
        if not (latest["variable"] == v).any():
            later = frame[(frame["variable"] == v) & known]
            if later.empty:
                why = "no observation with a stated release date"
            else:
                why = f"its earliest release is {min(later['release_date'])}, after the cutoff"
            raise StageStopped(f"required vintage missing: no release of {v} on or before {cutoff} ({why}); "
                               "a later download is not used in its place", stage="inputs")
    return latest.reset_index(drop=True)


def quarterly_levels(eligible: pd.DataFrame, variables: Sequence[str]) -> pd.DataFrame:
    """Pivot eligible quarterly observations to a frame (rows quarters, columns ``variables``).

    Refuses two provider series or two values for one variable and quarter.
    """
    check_columns(eligible)
    frame = eligible[eligible["variable"].isin(list(variables))]
    if "frequency" in frame.columns and (frame["frequency"] != "Q").any():
        bad = frame[frame["frequency"] != "Q"].iloc[0]
        raise InputError(f"{bad['variable']} {bad['reference_period']} has frequency {bad['frequency']}",
                         where="observations frequency", fix="aggregate monthly series to quarterly averages first")
    dup = frame.duplicated(["variable", "reference_period"], keep=False)
    if dup.any():
        row = frame[dup].iloc[0]
        raise InputError(f"{row['variable']} has more than one value for {row['reference_period']} "
                         "(several series or vintages)", where="observations",
                         fix="select vintages with select_as_of and register one provider series per variable")
    wide = frame.pivot(index="reference_period", columns="variable", values="value").astype(float)
    return wide.reindex(columns=list(variables)).sort_index()
