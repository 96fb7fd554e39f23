"""Half-year bank panel for the component models (appendix "Bank Models and External Validation").

Raw bank data arrive as reporting-date rows: end-of-period CET1 capital and RWA, and
year-to-date flows (June = first half, December = cumulative full year). The builder

* converts December cumulative flows into second-half flows,
* expresses the components n (pre-provision net revenue), ℓ (credit losses), o (residual
  charges) and a (capital adjustments not explained by profit) in percent of RWA at the
  beginning of the half-year, and g = 100·log RWA growth,
* forms lags only between consecutive observed half-years,
* attaches the bank's COUNTRY half-year macro values (never a euro-area series in its place
  unless an explicit country mapping is supplied, which is recorded as an assumption),
* drops banks with fewer than ``min_obs`` complete observations, recording the reason.

The macro transforms (:func:`halfyear_macro`) are the same for estimation and projection.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from aieco.errors import InputError
from aieco.models import transforms

COMPONENTS: tuple[str, ...] = ("n", "l", "o", "a", "g")
COMPONENT_LABELS = {
    "n": "pre-provision net revenue, % of beginning RWA",
    "l": "credit losses, % of beginning RWA",
    "o": "residual charges, % of beginning RWA",
    "a": "capital adjustments not explained by profit, % of beginning RWA",
    "g": "100 x log RWA growth",
}
MACRO_VARIABLES: tuple[str, ...] = (
    "real_gdp",
    "inflation",
    "unemployment",
    "long_term_rate",
    "equity_prices",
    "house_prices",
)
CONTROLS: tuple[str, ...] = ("cet1_ratio_lag", "log_rwa_lag")
QUARTERLY_LEVELS: tuple[str, ...] = (
    "real_gdp_level",
    "hicp",
    "unemployment",
    "long_term_rate",
    "equity_index",
    "house_index",
)
RAW_COLUMNS: tuple[str, ...] = (
    "bank_id",
    "country",
    "period_end",
    "cet1_capital",
    "rwa",
    "ppnr_ytd",
    "credit_losses_ytd",
    "residual_charges_ytd",
)


# --------------------------------------------------------------------------- periods


def half_label(t: int) -> str:
    """Half-year index ``t = 2·year + (half − 1)`` → ``'2016H1'``."""
    return f"{t // 2}H{t % 2 + 1}"


def half_index(label: str) -> int:
    """``'2016H2'`` → ``2·2016 + 1``; refuses anything else."""
    try:
        year, half = str(label).upper().split("H")
        h = int(half)
        if h not in (1, 2):
            raise ValueError
        return 2 * int(year) + h - 1
    except ValueError as exc:
        raise InputError(
            f"half-year label {label!r} is not of the form YYYYH1/YYYYH2",
            where="period",
            fix="write half-years as e.g. 2016H1",
        ) from exc


def _quarter_index(label: str) -> int:
    try:
        year, q = str(label).upper().split("Q")
        qi = int(q)
        if qi not in (1, 2, 3, 4):
            raise ValueError
        return 4 * int(year) + qi - 1
    except ValueError as exc:
        raise InputError(
            f"quarter label {label!r} is not of the form YYYYQn", where="quarter", fix="write quarters as e.g. 2016Q1"
        ) from exc


# --------------------------------------------------------------------------- macro transforms


def halfyear_macro(quarterly: pd.DataFrame) -> pd.DataFrame:
    """Country half-year macro regressors from quarterly levels (same for estimation and projection).

    Definitions (appendix "Numerical Definitions and Temporal Aggregation"):
    real_gdp — % change of the half-year sum of quarterly GDP over the preceding half-year's sum;
    inflation — % change of the half-year average HICP over the same half-year a year earlier;
    unemployment, long_term_rate — half-year averages of the quarterly values (%);
    equity_prices, house_prices — % change of the half-year average index over the preceding
    half-year's average (ratios of registered index levels).

    Parameters
    ----------
    quarterly : DataFrame
        Columns ``country``, ``quarter`` ('2016Q1') and :data:`QUARTERLY_LEVELS`; positive levels.

    Returns
    -------
    DataFrame
        Columns ``country``, ``period`` ('2016H1'), ``t`` and :data:`MACRO_VARIABLES`; a half-year
        whose two quarters or whose comparison half-year is missing is absent.
    """
    missing = [c for c in ("country", "quarter", *QUARTERLY_LEVELS) if c not in quarterly.columns]
    if missing:
        raise InputError(
            f"quarterly macro levels lack columns {missing}",
            where="macro history",
            fix=f"supply columns country, quarter, {', '.join(QUARTERLY_LEVELS)}",
        )
    q = quarterly.copy()
    q["qi"] = [_quarter_index(x) for x in q["quarter"]]
    for col in ("real_gdp_level", "hicp", "equity_index", "house_index"):
        if (q[col].astype(float) <= 0).any():
            raise InputError(
                f"quarterly {col} has non-positive levels", where="macro history", fix="supply positive index levels"
            )
    q["t"] = q["qi"] // 2
    agg = (
        q.groupby(["country", "t"])
        .agg(
            nq=("qi", "nunique"),
            gdp_sum=("real_gdp_level", "sum"),
            hicp_avg=("hicp", "mean"),
            unemployment=("unemployment", "mean"),
            long_term_rate=("long_term_rate", "mean"),
            equity_avg=("equity_index", "mean"),
            house_avg=("house_index", "mean"),
        )
        .reset_index()
    )
    agg = agg[agg["nq"] == 2]
    out = []
    for country, g in agg.groupby("country"):
        g = g.set_index("t").sort_index()
        prev = g.reindex(g.index - 1)
        year_ago = g.reindex(g.index - 2)
        frame = pd.DataFrame(
            {
                "country": country,
                "t": g.index,
                "real_gdp": 100 * (g["gdp_sum"].to_numpy() / prev["gdp_sum"].to_numpy() - 1),
                "inflation": 100 * (g["hicp_avg"].to_numpy() / year_ago["hicp_avg"].to_numpy() - 1),
                "unemployment": g["unemployment"].to_numpy(),
                "long_term_rate": g["long_term_rate"].to_numpy(),
                "equity_prices": 100 * (g["equity_avg"].to_numpy() / prev["equity_avg"].to_numpy() - 1),
                "house_prices": 100 * (g["house_avg"].to_numpy() / prev["house_avg"].to_numpy() - 1),
            }
        )
        out.append(frame.dropna())
    result = pd.concat(out, ignore_index=True) if out else pd.DataFrame(columns=["country", "t", *MACRO_VARIABLES])
    result["period"] = [half_label(int(t)) for t in result["t"]]
    return result[["country", "period", "t", *MACRO_VARIABLES]].reset_index(drop=True)


# --------------------------------------------------------------------------- the panel


@dataclass(frozen=True)
class BankPanel:
    """Complete half-year observations plus what was dropped and assumed."""

    data: pd.DataFrame
    dropped: pd.DataFrame
    last_state: pd.DataFrame
    assumptions: list[str] = field(default_factory=list)
    macro_variables: tuple[str, ...] = MACRO_VARIABLES

    @property
    def banks(self) -> list[str]:
        return sorted(self.data["bank_id"].unique())

    def regressors(self, component: str) -> list[str]:
        """Regressor names of Eq. (bankfeqar) for ``component``: lag, controls, macro."""
        return [f"{component}_lag", *CONTROLS, *self.macro_variables]


def _halfyear_flows(raw: pd.DataFrame) -> pd.DataFrame:
    """Year-to-date flows → half-year flows (December cumulative minus June)."""
    df = raw.copy()
    dates = pd.to_datetime(df["period_end"], errors="coerce")
    if dates.isna().any():
        bad = df.loc[dates.isna(), "period_end"].iloc[0]
        raise InputError(
            f"period_end {bad!r} is not a date",
            where="bank panel period_end",
            fix="use ISO dates YYYY-06-30 or YYYY-12-31",
        )
    if not dates.dt.month.isin([6, 12]).all():
        bad = df.loc[~dates.dt.month.isin([6, 12]), "period_end"].iloc[0]
        raise InputError(
            f"period_end {bad!r} is not a June or December reporting date",
            where="bank panel period_end",
            fix="supply half-year reporting dates only",
        )
    df["year"] = dates.dt.year
    df["half"] = np.where(dates.dt.month == 6, 1, 2)
    df["t"] = 2 * df["year"] + df["half"] - 1
    if df.duplicated(["bank_id", "t"]).any():
        dup = df.loc[df.duplicated(["bank_id", "t"]), ["bank_id", "period_end"]].iloc[0].tolist()
        raise InputError(
            f"bank {dup[0]} reports {dup[1]} twice", where="bank panel", fix="keep one row per bank and reporting date"
        )
    june = df[df["half"] == 1].set_index(["bank_id", "year"])
    for flow in ("ppnr", "credit_losses", "residual_charges"):
        ytd = df[f"{flow}_ytd"].astype(float)
        key = pd.MultiIndex.from_arrays([df["bank_id"], df["year"]])
        june_ytd = june[f"{flow}_ytd"].astype(float).reindex(key).to_numpy()
        # December figures are cumulative over the year: the second half is December minus June;
        # without the June report the second-half flow is unknown.
        df[flow] = np.where(df["half"] == 1, ytd, ytd.to_numpy() - june_ytd)
    return df


def build_panel(
    raw: pd.DataFrame,
    macro: pd.DataFrame,
    *,
    min_obs: int = 8,
    country_map: Mapping[str, str] | None = None,
    start: str | None = None,
    end: str | None = None,
) -> BankPanel:
    """Build the estimation panel of component rates, lags, controls and country macro values.

    Parameters
    ----------
    raw : DataFrame
        One row per bank and reporting date with :data:`RAW_COLUMNS` (EUR mn; flows year-to-date).
    macro : DataFrame
        Half-year country macro values from :func:`halfyear_macro` (``country``, ``period``, ...).
    min_obs : int
        Least complete observations per bank (settings.bank.min_obs).
    country_map : mapping, optional
        Explicit substitutions ``{bank country: macro series country}`` (e.g. ``{"PT": "EA"}``);
        each one used is recorded in ``assumptions``. Without it a missing country stops the build.
    start, end : str, optional
        First and last half-year of the estimation sample ('2016H1').

    Returns
    -------
    BankPanel
        ``data``: complete observations (bank_id, country, macro_country, period, t, the
        components, their lags, controls, macro variables); ``dropped``: bank_id, country,
        complete_obs, reason; ``last_state``: the last reported half-year of each kept bank.
    """
    missing = [c for c in RAW_COLUMNS if c not in raw.columns]
    if missing:
        raise InputError(
            f"bank panel lacks columns {missing}", where="bank panel", fix=f"supply columns {', '.join(RAW_COLUMNS)}"
        )
    no_country = raw["country"].isna() | (raw["country"].astype(str).str.strip() == "")
    if no_country.any():
        bank = raw.loc[no_country, "bank_id"].iloc[0]
        raise InputError(
            f"bank {bank} has no country",
            where="bank panel country",
            fix="give every bank the country whose macro scenario applies to it",
        )
    if (raw.groupby("bank_id")["country"].nunique() > 1).any():
        raise InputError(
            "a bank is mapped to more than one country", where="bank panel country", fix="keep one country per bank"
        )
    for col in ("cet1_capital", "rwa"):
        if (raw[col].astype(float) <= 0).any():
            bank = raw.loc[raw[col].astype(float) <= 0, "bank_id"].iloc[0]
            raise InputError(
                f"bank {bank} reports non-positive {col}",
                where=f"bank panel {col}",
                fix="positive CET1 capital and RWA are required",
            )
    df = _halfyear_flows(raw).sort_values(["bank_id", "t"]).reset_index(drop=True)

    grp = df.groupby("bank_id", sort=False)
    prev_t = grp["t"].shift(1)
    consecutive = (df["t"] - prev_t) == 1
    rwa_prev = grp["rwa"].shift(1).where(consecutive)
    cap_prev = grp["cet1_capital"].shift(1).where(consecutive)
    df["n"] = 100 * df["ppnr"] / rwa_prev
    df["l"] = 100 * df["credit_losses"] / rwa_prev
    df["o"] = 100 * df["residual_charges"] / rwa_prev
    # The capital change not explained by profit, so Eq. (cet1capital) holds exactly in history.
    df["a"] = 100 * (df["cet1_capital"] - cap_prev) / rwa_prev - (df["n"] - df["l"] - df["o"])
    df["g"] = 100 * np.log(df["rwa"] / rwa_prev)
    for comp in COMPONENTS:
        df[f"{comp}_lag"] = grp[comp].shift(1).where(consecutive)
    df["cet1_ratio_lag"] = 100 * cap_prev / rwa_prev
    df["log_rwa_lag"] = np.log(rwa_prev)
    df["period"] = [half_label(int(t)) for t in df["t"]]

    assumptions: list[str] = []
    mapping = dict(country_map or {})
    df["macro_country"] = [mapping.get(c, c) for c in df["country"]]
    for c in sorted(set(df["country"])):
        if c in mapping and mapping[c] != c:
            assumptions.append(f"bank country {c} uses the {mapping[c]} macro series (explicit country_map)")
    available = set(macro["country"])
    absent = sorted(set(df["macro_country"]) - available)
    if absent:
        raise InputError(
            f"no macro history for countries {absent}",
            where="macro history",
            fix="supply each bank country's half-year series, or an explicit country_map "
            "(recorded as an assumption) — a euro-area series never stands in silently",
        )
    m = macro[["country", "t", *MACRO_VARIABLES]].rename(columns={"country": "macro_country"})
    df = df.merge(m, on=["macro_country", "t"], how="left")

    lo = half_index(start) if start else -np.inf
    hi = half_index(end) if end else np.inf
    in_sample = (df["t"] >= lo) & (df["t"] <= hi)
    needed = [*COMPONENTS, *(f"{c}_lag" for c in COMPONENTS), *CONTROLS, *MACRO_VARIABLES]
    finite = np.isfinite(df[needed].to_numpy(dtype=float)).all(axis=1)
    df["complete"] = finite & in_sample

    counts = df.groupby("bank_id").agg(country=("country", "first"), complete_obs=("complete", "sum"))
    short = counts[counts["complete_obs"] < min_obs]
    dropped = pd.DataFrame(
        {
            "bank_id": short.index.astype(str),
            "country": short["country"].to_numpy(),
            "complete_obs": short["complete_obs"].astype(int).to_numpy(),
            "reason": [
                f"{int(k)} complete half-year observations, fewer than the {min_obs} required"
                for k in short["complete_obs"]
            ],
        }
    )
    keep = ~df["bank_id"].isin(short.index)
    data = df[keep & df["complete"]]
    cols = [
        "bank_id",
        "country",
        "macro_country",
        "period",
        "t",
        *COMPONENTS,
        *(f"{c}_lag" for c in COMPONENTS),
        *CONTROLS,
        *MACRO_VARIABLES,
    ]
    data = data[cols].reset_index(drop=True)
    if data.empty:
        raise InputError(
            "no bank has enough complete observations",
            where="bank panel",
            fix=f"supply at least {min_obs} consecutive complete half-years per bank",
        )

    last = df[keep].sort_values("t").groupby("bank_id").tail(1).set_index("bank_id").sort_index()
    last_state = pd.DataFrame(
        {
            "country": last["country"],
            "macro_country": last["macro_country"],
            "period": last["period"],
            "t": last["t"],
            "cet1_capital": last["cet1_capital"].astype(float),
            "rwa": last["rwa"].astype(float),
            **{comp: last[comp].astype(float) for comp in COMPONENTS},
        }
    )
    incomplete_last = ~np.isfinite(last_state[list(COMPONENTS)].to_numpy(dtype=float)).all(axis=1)
    if incomplete_last.any():
        assumptions.append(
            "banks whose last half-year lacks components start projections from their "
            "last complete half-year: " + ", ".join(last_state.index[incomplete_last])
        )
        fallback = data.sort_values("t").groupby("bank_id").tail(1).set_index("bank_id")
        for b in last_state.index[incomplete_last]:
            for comp in COMPONENTS:
                last_state.loc[b, comp] = float(fallback.loc[b, comp])
    return BankPanel(data=data, dropped=dropped, last_state=last_state, assumptions=assumptions)


# --------------------------------------------------------------------------- scenario inputs
# The annual → quarterly disaggregation of the appendix "Annual official paths and half-year
# inputs" comes from aieco.models.transforms; the half-year step reuses halfyear_macro.

ANNUAL_AVERAGE_LEVELS = {
    "real_gdp": "real_gdp_level",
    "inflation": "hicp",
    "equity_prices": "equity_index",
    "house_prices": "house_index",
}
ANNUAL_RATES = {"unemployment": "unemployment", "long_term_rate": "long_term_rate"}


def scenario_from_annual_path(
    annual: pd.DataFrame,
    countries: list[str],
    mapping_note: str,
    *,
    history: pd.DataFrame | None = None,
    horizon_start: int = 2025,
) -> pd.DataFrame:
    """Half-year country scenario values from an annual path (2025–2027 growth rates and levels).

    Parameters
    ----------
    annual : DataFrame
        Index: years; columns :data:`MACRO_VARIABLES` — real_gdp, inflation, equity_prices,
        house_prices as annual % changes of annual averages; unemployment and long_term_rate as
        annual % levels. A row for the year before ``horizon_start`` (e.g. 2024) is optional: when
        present the rate variables are applied to each country as changes from that year.
    countries : list of str
        Bank countries to receive the path.
    mapping_note : str
        The explicit assumption that maps the path onto the countries (e.g. "euro-area VAR path
        applied to every bank country"); required and returned in ``attrs['assumptions']``.
    history : DataFrame
        Quarterly country levels (:func:`halfyear_macro` input) through the last quarter before
        the path; supplies each country's base levels (the workspace's, see
        ``aieco.models.bank.workspace``; there is no default).
    horizon_start : int
        First year of the path; earlier rows only serve as the base year.

    Returns
    -------
    DataFrame
        Columns country, period ('2025H1' …), t and the macro variables, built by the same
        :func:`halfyear_macro` used for estimation. ``attrs['assumptions']`` lists the recorded
        assumptions and ``attrs['quarterly']`` the constructed quarterly levels.
    """
    if not mapping_note or not mapping_note.strip():
        raise InputError(
            "an annual path applied to bank countries needs a mapping note",
            where="scenario_from_annual_path",
            fix="state how the path maps onto each country",
        )
    missing = [v for v in MACRO_VARIABLES if v not in annual.columns]
    if missing:
        raise InputError(
            f"annual path lacks variables {missing}",
            where="scenario annual path",
            fix=f"supply columns {', '.join(MACRO_VARIABLES)}",
        )
    annual = annual.copy()
    annual.index = [int(y) for y in annual.index]
    path_years = sorted(y for y in annual.index if y >= horizon_start)
    if not path_years or path_years != list(range(path_years[0], path_years[0] + len(path_years))):
        raise InputError(
            f"annual path years {sorted(annual.index)} hold no consecutive years from {horizon_start}",
            where="scenario annual path",
            fix="supply one row per year of the horizon",
        )
    base_year = path_years[0] - 1
    has_base = base_year in annual.index
    if history is None:
        raise InputError(
            "no country macro history to take the base levels from",
            where="scenario_from_annual_path",
            fix="pass the quarterly country history read from the workspace",
        )
    assumptions_extra: list[str] = []
    hist = history.copy()
    hist["qi"] = [_quarter_index(x) for x in hist["quarter"]]
    assumptions = [
        mapping_note.strip(),
        "annual GDP, HICP, equity and house price changes are changes of annual averages; "
        "within-year quarterly path P_{y,q} = P_{y-1,4} g_y^q reproduces each annual average",
        "annual unemployment and long-term rate held constant within the year",
        *assumptions_extra,
    ]
    if has_base:
        assumptions.append(f"rate variables applied to each country as changes from the path's {base_year} value")
    else:
        assumptions.append("rate variables applied to each country as the path's levels")
    rows = []
    for country in countries:
        h = hist[hist["country"] == country].sort_values("qi")
        last_year = path_years[0] - 1
        base = h[(h["qi"] >= 4 * last_year) & (h["qi"] < 4 * last_year + 4)]
        if len(base) != 4:
            raise InputError(
                f"no four quarters of {last_year} history for country {country}",
                where="scenario base levels",
                fix="supply the previous year's quarterly levels for every bank country",
            )
        quarters = [f"{y}Q{q}" for y in path_years for q in range(1, 5)]
        new = {"country": country, "quarter": quarters}
        for var, level in ANNUAL_AVERAGE_LEVELS.items():
            targets = transforms.average_level_targets(
                float(base[level].mean()), annual.loc[path_years, var].to_numpy(dtype=float)
            )
            new[level] = transforms.disaggregate_annual_average(float(base[level].iloc[-1]), targets)
        for var, level in ANNUAL_RATES.items():
            path = annual.loc[path_years, var].to_numpy(dtype=float)
            if has_base:
                path = float(base[level].mean()) + path - float(annual.loc[base_year, var])
            new[level] = transforms.constant_within_year(path)
        rows.append(pd.DataFrame(new))
    built = pd.concat(rows, ignore_index=True)
    keep_hist = hist[(hist["country"].isin(countries)) & (hist["qi"] >= 4 * (path_years[0] - 2))]
    quarterly = pd.concat([keep_hist.drop(columns="qi"), built], ignore_index=True)
    half = halfyear_macro(quarterly)
    half = half[half["t"] >= 2 * path_years[0]].reset_index(drop=True)
    half.attrs["assumptions"] = assumptions
    half.attrs["quarterly"] = built
    return half


def adverse_scenario_halfyears(adverse: pd.DataFrame, history: pd.DataFrame, countries: list[str]) -> pd.DataFrame:
    """Half-year scenario values from the country annual adverse paths (one path per country).

    Rate variables are stated as changes from 2024 in the adverse file, so the 2024 base is the
    country's own 2024 annual average (recorded by :func:`scenario_from_annual_path`).
    """
    frames, notes = [], []
    for c in countries:
        rows = adverse[adverse["country"] == c].set_index("year").sort_index()
        h = history[(history["country"] == c) & history["quarter"].str.startswith("2024")]
        base = {"unemployment": float(h["unemployment"].mean()), "long_term_rate": float(h["long_term_rate"].mean())}
        annual = pd.DataFrame(
            {
                "real_gdp": rows["real_gdp"],
                "inflation": rows["inflation"],
                "unemployment": base["unemployment"] + rows["unemployment_change"],
                "long_term_rate": base["long_term_rate"] + rows["long_term_rate_change"],
                "equity_prices": rows["equity_prices"],
                "house_prices": rows["house_prices"],
            }
        )
        annual.loc[2024] = [0.0, 0.0, base["unemployment"], base["long_term_rate"], 0.0, 0.0]
        half = scenario_from_annual_path(
            annual.sort_index(), [c], f"official adverse path of country {c}", history=history
        )
        notes.extend(half.attrs["assumptions"])
        frames.append(half)
    out = pd.concat(frames, ignore_index=True)
    out.attrs["assumptions"] = sorted(set(notes))
    return out
