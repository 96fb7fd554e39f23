"""Observed values and data vintages: what was known at the cutoff.

For a provider series and reference period, the input selector keeps the latest release
on or before the cutoff (appendix "Observed Values and Data Vintages"). No look-ahead: a
value is usable at cutoff t only if its release date is ≤ t **and** after the end of its
reference period (a release dated inside or before its own period is an impossible date,
e.g. a file's download date stamped on later quarters). A value whose release date is
unknown is not eligible; a later download never stands in for a missing archival
release; one variable may not mix geographies.

Vintage policy (``AnalysisRequest.vintage_policy``):

=================  ==================================================================
``strict``         only release dates that show the value was demonstrably public by
                   then: rule ``vintage`` (the publisher's true release date, e.g. the
                   real-time GDP workbook's vintage dates) or ``file`` (a date the
                   file or its copy states: a dated public copy — a commit in a public
                   repository whose bytes equal the file, registered in
                   ``aieco/data/dated_copies.toml`` — a stored version, a publication
                   quarter's end). Such a date may be later than the true release,
                   never earlier. Values dated by the ``lag`` rule are not used: a lag
                   is a documented estimate of when a publisher releases, not evidence
                   that this value was public. A required variable with none left
                   stops the stage with the reason.
``approximate``    also ``lag``-dated values (reference period end + the documented
                   publication lag, :mod:`aieco.sources.series.lags`), for series
                   that have no dated vintage. Used only when the request asks.
=================  ==================================================================

A value with a release date but no recorded rule (older workspaces) counts as ``file``.

Observations travel as a long DataFrame with at least the columns ``variable``,
``reference_period``, ``value``, ``release_date`` (ISO text, date or None) and
``jurisdiction``; ``series_key`` identifies the provider series when present.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from functools import lru_cache

import pandas as pd

from aieco.asof import POLICIES, POLICY_RULES, AsOf  # noqa: F401 (the policies live with the as-of rule)
from aieco.errors import InputError, StageStopped

REQUIRED_COLUMNS = ("variable", "reference_period", "value", "release_date", "jurisdiction")


@lru_cache(maxsize=65536)
def reference_end(reference_period: str, frequency: str | None) -> date:
    """Last day of a reference period; the frequency is read from the label when not given."""
    from aieco.sources.series.lags import period_end

    s = str(reference_period)
    if not frequency or frequency != frequency:  # None or NaN
        if "Q" in s:
            frequency = "Q"
        elif "H" in s:
            frequency = "H"
        elif len(s) == 7:
            frequency = "M"
        elif len(s) == 10:
            frequency = "D"
        else:
            frequency = "A"
    return period_end(s, str(frequency))


def release_rules(eligible: pd.DataFrame) -> dict[str, dict[str, list[str]]]:
    """Variable → provider series → the release rules its eligible values carry (for the run record)."""
    rule = eligible["release_rule"] if "release_rule" in eligible.columns else pd.Series("file", eligible.index)
    rule = rule.where(rule.notna() & (rule != ""), "file")
    key = eligible["series_key"].fillna("") if "series_key" in eligible.columns else pd.Series("", eligible.index)
    out: dict[str, dict[str, list[str]]] = {}
    for (v, k), r in pd.DataFrame({"v": eligible["variable"], "k": key, "r": rule}).groupby(["v", "k"])["r"]:
        out.setdefault(str(v), {})[str(k)] = sorted(set(map(str, r)))
    return out


def _as_date(value) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


def check_columns(observations: pd.DataFrame) -> None:
    missing = [c for c in REQUIRED_COLUMNS if c not in observations.columns]
    if missing:
        raise InputError(
            f"observations lack the column(s) {', '.join(missing)}",
            where="observations",
            fix=f"supply the columns {', '.join(REQUIRED_COLUMNS)}",
        )


def check_geography(observations: pd.DataFrame) -> None:
    """Refuse a variable observed for more than one jurisdiction (e.g. EA19 and EA20 mixed)."""
    geo = observations.groupby("variable")["jurisdiction"].unique()
    mixed = {v: sorted(map(str, g)) for v, g in geo.items() if len(g) > 1}
    if mixed:
        detail = "; ".join(f"{v}: {', '.join(g)}" for v, g in mixed.items())
        raise InputError(
            f"inconsistent geography for one variable ({detail})",
            where="observations jurisdiction",
            fix="keep one geographic membership per variable (register the others as separate variables)",
        )


def as_of_rule(as_of: AsOf | date | str, policy: str | None = None) -> AsOf:
    """``as_of`` itself when it is an AsOf (it carries its vintage policy: a second one is refused), else
    the rule of a bare cutoff and policy (:meth:`AsOf.at`, which checks the policy name)."""
    if isinstance(as_of, AsOf):
        if policy is not None:
            raise InputError(
                "a vintage policy was given beside an AsOf",
                where="vintage_policy",
                fix="the AsOf carries its own vintage_policy (AsOf.of_request or AsOf.at)",
            )
        return as_of
    return AsOf.at(as_of, policy)


def select_as_of(
    observations: pd.DataFrame, as_of: AsOf | date | str, required: Sequence[str] = (), policy: str | None = None
) -> pd.DataFrame:
    """The eligible observations at the cutoff: per series and period, the latest release ≤ cutoff
    that falls after the end of its reference period and whose release rule the vintage policy accepts.

    Parameters
    ----------
    observations : DataFrame (long format, see module docstring)
    as_of : the request's AsOf (cutoff and vintage policy; the release rule is ``AsOf.usable``), or
        a bare date or ISO text with ``policy`` (:func:`as_of_rule`)
    required : variables that must have at least one eligible value
    policy : with a bare date only: 'strict', 'approximate' or None (every release rule; callers that
        already chose their inputs)

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
    rule = as_of_rule(as_of, policy)
    cutoff, policy = rule.cutoff, rule.vintage_policy
    frame = observations.copy()
    if "series_key" not in frame.columns:
        frame["series_key"] = ""
    frame["series_key"] = frame["series_key"].fillna("")
    check_geography(frame)
    released = frame["release_date"].map(lambda d: None if d is None or pd.isna(d) or d == "" else _as_date(d))
    frame["release_date"] = released
    if "release_rule" not in frame.columns:
        frame["release_rule"] = None
    frame["release_rule"] = frame["release_rule"].where(
        frame["release_rule"].notna() & (frame["release_rule"] != ""), None
    )
    frame.loc[released.notna() & frame["release_rule"].isna(), "release_rule"] = "file"
    freq = frame["frequency"] if "frequency" in frame.columns else pd.Series(None, frame.index)
    ends = [
        reference_end(str(p), f if isinstance(f, str) else None)
        for p, f in zip(frame["reference_period"], freq, strict=True)
    ]
    after_period = pd.Series(
        [d is not None and d > e for d, e in zip(released, ends, strict=True)], index=frame.index, dtype=bool
    )
    rules = rule.release_rules
    allowed = frame["release_rule"].isin(rules) if rules is not None else pd.Series(True, frame.index)
    known = released.notna() & after_period & allowed
    eligible = frame[known & released.map(rule.released)]
    eligible = eligible.sort_values(["variable", "series_key", "reference_period", "release_date"])
    latest = eligible.groupby(["variable", "series_key", "reference_period"], sort=True).tail(1)
    for v in required:
        if not (latest["variable"] == v).any():
            later = frame[(frame["variable"] == v) & known]
            mine = frame[frame["variable"] == v]
            if (
                policy == "strict"
                and not (
                    mine["release_rule"].isin(POLICY_RULES["strict"]) & mine["release_date"].map(rule.released)
                ).any()
            ):
                rules = sorted(set(mine["release_rule"].dropna())) or ["none"]
                raise StageStopped(
                    f"strict vintage policy: {v} has no true vintage (rule vintage or file) released "
                    f"on or before {cutoff} (its values carry release rule(s) {', '.join(rules)}); "
                    "ask for vintage_policy = 'approximate' to use documented publication lags",
                    stage="inputs",
                )
            if later.empty:
                why = "no observation with a stated release date after its reference period"
            else:
                why = f"its earliest release is {min(later['release_date'])}, after the cutoff"
            raise StageStopped(
                f"required vintage missing: no release of {v} on or before {cutoff} ({why}); "
                "a later download is not used in its place",
                stage="inputs",
            )
    return latest.reset_index(drop=True)


def quarterly_levels(eligible: pd.DataFrame, variables: Sequence[str]) -> pd.DataFrame:
    """Pivot eligible quarterly observations to a frame (rows quarters, columns ``variables``).

    Refuses two provider series or two values for one variable and quarter.
    """
    check_columns(eligible)
    frame = eligible[eligible["variable"].isin(list(variables))]
    if "frequency" in frame.columns and (frame["frequency"] != "Q").any():
        bad = frame[frame["frequency"] != "Q"].iloc[0]
        raise InputError(
            f"{bad['variable']} {bad['reference_period']} has frequency {bad['frequency']}",
            where="observations frequency",
            fix="aggregate monthly series to quarterly averages first",
        )
    dup = frame.duplicated(["variable", "reference_period"], keep=False)
    if dup.any():
        row = frame[dup].iloc[0]
        raise InputError(
            f"{row['variable']} has more than one value for {row['reference_period']} (several series or vintages)",
            where="observations",
            fix="select vintages with select_as_of and register one provider series per variable",
        )
    wide = frame.pivot(index="reference_period", columns="variable", values="value").astype(float)
    return wide.reindex(columns=list(variables)).sort_index()
