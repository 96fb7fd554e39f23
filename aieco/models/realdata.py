"""Real euro-area model inputs: the six quarterly series assembled from what was known at a cutoff.

:func:`build_real_dataset` loads the public files (``../shared/data/macro``) with
:mod:`aieco.sources.series` — every value with its release date and rule — and returns
them as one long frame; :func:`model_levels` is the pure step every model run takes:
vintages at the cutoff under the vintage policy, monthly → quarterly averages, the
HICP index extended by the published annual rates, back-casts spliced to the recent
series, one quarterly level per variable.

=================  ==========================================  ================================
variable           recent series (preferred)                    back-cast / extension
=================  ==========================================  ================================
real_gdp           real-time GDP database (true vintages)       —
inflation          FRED HICP index 2015=100 (monthly)           ECB ICP ANR annual rates extend
                                                                the index: H_t = H_{t-12}(1+r_t)
unemployment       ECB LFSI.M.I9 (monthly, from 2010)           FRED LRHUTTTTEZM156S before 2010,
                                                                shifted by the mean overlap gap
long_term_rate     CEPREMAP longrate (quarterly)                —
house_prices       BIS RPP nominal XM (policy approximate);     —
                   BIS stored copies and the FRED copy of the
                   BIS series (file dates, strict)
equity_prices      ECB EURO STOXX 50 monthly average; its       —
                   copy dated 2021-04-25 (strict)
=================  ==========================================  ================================

Files whose bytes equal a registered dated public copy (``aieco/data/dated_copies.toml``,
:mod:`aieco.sources.series.copies`) also give their values with the copy's commit date
(rule ``file``): the dates the ``strict`` policy accepts.

All values are labelled jurisdiction ``EA`` by the readers' declared mapping
(``readers.EURO_AREA_CODES``): the back-casts cover the euro area of 19 members (FRED EA19),
the recent ECB series the 20 (``I9``), ECB ``U2`` and BIS ``XM`` the changing composition; the
splice adjustment absorbs the level difference over their overlap, and every run records the
caveat (``readers.EURO_AREA_CAVEAT``). Splices use eligible values only (selected at
the cutoff first), so nothing released after the cutoff shapes an adjustment. A spliced
quarter keeps the latest release date and the weakest release rule (lag < file <
vintage) of the values it is built from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from aieco.asof import AsOf
from aieco.errors import InputError, StageStopped
from aieco.models.vintages import as_of_rule, quarterly_levels, release_rules, select_as_of
from aieco.sources.series import load_series, observations_frame, observed_values, quarterly_averages
from aieco.sources.series.copies import with_dated_copy
from aieco.store import Store

#: variable → (file under macro/, series-key prefix) in preference order.
REAL_FILES: dict[str, list[tuple[str, str]]] = {
    "real_gdp": [("vintages/ea_gdp_realtime_database.xlsx", "RTDB.gdp_ea")],
    "inflation": [
        ("fred/CP0000EZ19M086NEST.csv", "FRED.CP0000EZ19M086NEST"),
        ("ecb_portal/inflation.csv", "ECB.ICP.M.U2.N.000000.4.ANR"),
    ],
    "unemployment": [
        ("ecb_portal/unemployment.csv", "ECB.LFSI.M.I9"),
        ("fred/LRHUTTTTEZM156S.csv", "FRED.LRHUTTTTEZM156S"),
    ],
    "long_term_rate": [("cepremap_EA_CMR_rawdata.csv", "CEPREMAP.longrate")],
    "house_prices": [
        ("bis_rpp_nominal_index.csv", "BIS.RPP.N.XM"),
        ("vintages/bis_rpp_XM_nominal_by_commit.csv", "BIS.RPP.N.XM"),
        ("fred/QXMN628BIS.csv", "FRED.QXMN628BIS"),  # a dated public copy (2021-04-25): strict
    ],
    "equity_prices": [
        ("ecb_M_U2_EUR_DS_EI_DJES50I_HSTA.csv", "ECB.M.U2.EUR.DS.EI.DJES50I.HSTA"),
        ("fred/eurostoxx50_monthly_kwantumlink.csv", "KWANTUMLINK.EUROSTOXX50"),  # dated copy (2021-04-25): strict
    ],
}
RULE_ORDER = {"lag": 0, "file": 1, "vintage": 2}
SPLICE_KEY = "SPLICE"


def build_real_dataset(shared_data_dir: str | Path) -> pd.DataFrame:
    """Every value of the registered files for the six variables (long frame with release dates and rules)."""
    macro = Path(shared_data_dir) / "macro"
    if not macro.is_dir():
        raise InputError(
            f"{macro} is not a folder", where=str(macro), fix="pass the shared data folder that contains macro/"
        )
    frames = []
    for variable, files in REAL_FILES.items():
        for name, prefix in files:
            records = [
                r
                for r in load_series(macro / name)
                if r.variable == variable and r.series_key.startswith(prefix.split(".")[0])
            ]
            # a registered dated public copy of the file adds the values dated by its commit (rule file)
            frames.append(observations_frame(with_dated_copy(macro / name, records)))
    frame = pd.concat(frames, ignore_index=True)
    return frame  # the readers label every euro-area code EA (readers.EURO_AREA_CODES)


def store_real_observations(store: Store, shared_data_dir: str | Path) -> int:
    """Store :func:`build_real_dataset` as ObservedValue records (provenance real); returns the new rows."""
    return store.put_many(observed_values(build_real_dataset(shared_data_dir)))


@dataclass(frozen=True)
class ModelLevels:
    """Quarterly levels for the model and what they were built from."""

    levels: pd.DataFrame  # rows quarter labels, columns the variables
    rules: dict[str, dict[str, list[str]]]  # variable → series → release rules used
    last_usable: dict[str, str]  # variable → last quarter with a usable value
    eligible: pd.DataFrame  # the quarterly long frame the levels come from


def weakest(rules: Sequence[str]) -> str:
    return min(rules, key=lambda r: RULE_ORDER.get(r, 1))


def _monthly_series(frame: pd.DataFrame, prefix: str) -> pd.DataFrame:
    rows = frame[frame["series_key"].fillna("").str.startswith(prefix)]
    return rows.set_index("reference_period").sort_index()


def extend_index_by_rates(index: pd.DataFrame, rates: pd.DataFrame) -> pd.DataFrame:
    """Monthly index rows extended past their end by annual rates: H_t = H_{t-12}·(1 + r_t/100)."""
    if index.empty or rates.empty:
        return index
    out = index.copy()
    out["series_key"] = f"{SPLICE_KEY}.{index['series_key'].iloc[0]}+{rates['series_key'].iloc[0]}"
    last = pd.Period(out.index.max(), freq="M")
    for period in sorted(p for p in rates.index if pd.Period(p, freq="M") > last):
        base = str(pd.Period(period, freq="M") - 12)
        if base not in out.index:
            break
        r = rates.loc[period]
        row = out.loc[base].copy()
        row["value"] = float(out.loc[base, "value"]) * (1.0 + float(r["value"]) / 100.0)
        row["release_date"], row["release_rule"] = (
            r["release_date"],
            weakest([r["release_rule"], out.loc[base, "release_rule"]]),
        )
        row["transformation"] = "level"
        out.loc[period] = row
    return out


def splice_back(recent: pd.DataFrame, older: pd.DataFrame, *, additive: bool) -> pd.DataFrame:
    """Recent series where it exists; before, the older series shifted (additive) or scaled by the
    mean gap over their overlap."""
    if older.empty:
        return recent
    if recent.empty:
        return older
    overlap = recent.index.intersection(older.index)
    if len(overlap) == 0:
        raise StageStopped(
            f"cannot splice {older['series_key'].iloc[0]} to {recent['series_key'].iloc[0]}: "
            "no overlapping period among the values usable at the cutoff",
            stage="inputs",
        )
    a, b = recent.loc[overlap, "value"].astype(float), older.loc[overlap, "value"].astype(float)
    before = older[older.index < recent.index.min()].copy()
    before["value"] = (
        before["value"].astype(float) + float((a - b).mean())
        if additive
        else before["value"].astype(float) * float((a / b).mean())
    )
    key = f"{SPLICE_KEY}.{recent['series_key'].iloc[0]}<{older['series_key'].iloc[0]}"
    both = pd.concat([before, recent]).sort_index()
    both["series_key"] = key
    return both


def model_levels(
    observations: pd.DataFrame, as_of: AsOf | date | str | None, variables: Sequence[str], policy: str | None = None
) -> ModelLevels:
    """The quarterly model levels known at the cutoff of ``as_of`` (see the module docstring).

    ``as_of``: the request's AsOf (cutoff and vintage policy), a bare date or ISO text with ``policy``
    (:func:`aieco.models.vintages.as_of_rule`), or None when the observations are already eligible.
    A frame with one quarterly series per variable (the demo) passes through unchanged
    apart from the vintage selection.
    """
    if as_of is not None:
        eligible = select_as_of(observations, as_of_rule(as_of, policy), required=variables)
    else:
        eligible = observations.copy()
        if "release_rule" not in eligible.columns:
            eligible["release_rule"] = "file"
    if "series_key" not in eligible.columns:
        eligible["series_key"] = ""
    eligible["series_key"] = eligible["series_key"].fillna("")
    eligible["release_rule"] = eligible["release_rule"].fillna("file")
    used = release_rules(eligible[eligible["variable"].isin(list(variables))])
    parts = []
    for v in variables:
        mine = eligible[eligible["variable"] == v]
        if "frequency" in mine.columns and (mine["frequency"] == "M").any():
            monthly = mine[mine["frequency"] == "M"]
            series = assemble_monthly(v, monthly)
            q = quarterly_averages(series.reset_index())
            quarters = _quarters_of(series.index)
            by_quarter = weakest_by_quarter(series, quarters)
            q = q.assign(release_rule=[by_quarter.get(p, "file") for p in q["reference_period"]])
            mine = pd.concat([mine[mine["frequency"] != "M"], q], ignore_index=True)
        if mine["series_key"].nunique() > 1:
            mine = splice_quarterly(v, mine)
        parts.append(mine)
    quarterly = pd.concat(parts, ignore_index=True) if parts else eligible.iloc[0:0]
    levels = quarterly_levels(quarterly, variables)
    last = {v: str(levels[v].dropna().index.max()) for v in variables if levels[v].notna().any()}
    return ModelLevels(levels=levels, rules=used, last_usable=last, eligible=quarterly)


def weakest_by_quarter(monthly: pd.DataFrame, quarters: list[str] | None = None) -> dict[str, str]:
    """Quarter label → the weakest release rule of its months (``quarters``: each month's quarter, if known).

    One pass over the months (the per-quarter lookup it replaces was quadratic in the sample length and
    took most of ``model_levels``' time)."""
    quarters = _quarters_of(monthly.index) if quarters is None else quarters
    rules: dict[str, list[str]] = {}
    for quarter, rule in zip(quarters, monthly["release_rule"].astype(str), strict=True):
        rules.setdefault(quarter, []).append(rule)
    return {quarter: weakest(found) for quarter, found in rules.items()}


def _quarters_of(months: pd.Index) -> list[str]:
    """The quarter label ('2024Q1') of each monthly period label (one conversion, not one per month and quarter)."""
    return [str(q) for q in pd.PeriodIndex([pd.Period(p, freq="M") for p in months]).asfreq("Q")]


def assemble_monthly(variable: str, monthly: pd.DataFrame) -> pd.DataFrame:
    """One monthly series of ``variable``: rates extend an index, back-casts are spliced."""
    levels = monthly[monthly.get("transformation", pd.Series("level", monthly.index)).fillna("level") == "level"]
    rates = monthly[monthly.get("transformation", pd.Series("level", monthly.index)).fillna("level") == "yoy_rate"]
    keys = [k for k in dict.fromkeys(levels["series_key"])]
    if len(keys) > 2:
        raise InputError(
            f"{variable} has {len(keys)} monthly series ({', '.join(keys)})",
            where="observations",
            fix="register one recent series and at most one back-cast per variable",
        )
    ordered = sorted(keys, key=lambda k: _monthly_series(levels, k).index.max(), reverse=True)
    series = _monthly_series(levels, ordered[0]) if ordered else pd.DataFrame()
    if len(ordered) == 2:
        series = splice_back(
            series, _monthly_series(levels, ordered[1]), additive=variable in ("unemployment", "long_term_rate")
        )
    if not rates.empty:
        series = extend_index_by_rates(series, _monthly_series(rates, rates["series_key"].iloc[0]))
    series = series[~series.index.duplicated(keep="last")]
    series.index.name = "reference_period"
    return series


def splice_quarterly(variable: str, quarterly: pd.DataFrame) -> pd.DataFrame:
    """Several quarterly series for one variable: the one reaching furthest, with each older series
    spliced on before it (shifted for rates, scaled for levels, by the mean gap over the overlap)."""
    stats = quarterly.groupby("series_key")["reference_period"].agg(["max", "count"])
    order = list(stats.sort_values(["max", "count"], ascending=False).index)
    out = quarterly[quarterly["series_key"] == order[0]].set_index("reference_period").sort_index()
    for key in order[1:]:
        older = quarterly[quarterly["series_key"] == key].set_index("reference_period").sort_index()
        if older.index.min() >= out.index.min():
            continue  # adds nothing before the recent series starts
        out = splice_back(out, older, additive=variable in ("unemployment", "long_term_rate"))
    out.index.name = "reference_period"
    return out.reset_index()


def overlap_gap(levels: pd.DataFrame) -> float:
    """Largest absolute quarter-on-quarter log change (×100) of a level frame (a splice sanity check)."""
    x = np.log(levels.astype(float)).diff().abs() * 100.0
    return float(np.nanmax(x.to_numpy())) if x.notna().any().any() else 0.0
