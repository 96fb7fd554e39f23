"""Panel builder, macro transforms and annual → half-year scenario construction."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from aieco.demo import bank as demo
from aieco.errors import InputError
from aieco.models.bank.panel import (
    MACRO_VARIABLES,
    build_panel,
    half_index,
    half_label,
    halfyear_macro,
    scenario_from_annual_path,
)


def _quarterly(countries=("DE",), years=range(2014, 2020)):
    rows = []
    for c in countries:
        for y in years:
            for q in range(1, 5):
                k = (y - 2014) * 4 + q
                rows.append(
                    {
                        "country": c,
                        "quarter": f"{y}Q{q}",
                        "real_gdp_level": 100 + k,
                        "hicp": 100 * 1.005**k,
                        "unemployment": 5 + 0.1 * k,
                        "long_term_rate": 1.0,
                        "equity_index": 100 + 2 * k,
                        "house_index": 100.0,
                    }
                )
    return pd.DataFrame(rows)


def _raw(n_years=6, bank="B1", country="DE", start=2014):
    """A bank with constant flows: PPNR 10, losses 2, residual 1 per half-year; RWA grows 1 %."""
    rows, cap, rwa = [], 100.0, 1000.0
    for y in range(start, start + n_years):
        for h, end in ((1, "06-30"), (2, "12-31")):
            rwa_prev = rwa
            rwa = rwa * 1.01
            cap = cap + 10 - 2 - 1 + 0.5 * rwa_prev / 100  # a = 0.5 % of beginning RWA
            rows.append(
                {
                    "bank_id": bank,
                    "country": country,
                    "period_end": f"{y}-{end}",
                    "cet1_capital": cap,
                    "rwa": rwa,
                    "ppnr_ytd": 10.0 * h,
                    "credit_losses_ytd": 2.0 * h,
                    "residual_charges_ytd": 1.0 * h,
                }
            )
    return pd.DataFrame(rows)


def test_half_labels_round_trip():
    assert half_label(half_index("2016H2")) == "2016H2"
    assert half_index("2017H1") - half_index("2016H2") == 1
    with pytest.raises(InputError):
        half_index("2016Q1")


def test_halfyear_macro_hand_computed():
    m = halfyear_macro(_quarterly()).set_index(["country", "period"])
    # 2015H1 = quarters k=5,6 → GDP sum 105+106 vs 2014H2 = 103+104
    assert m.loc[("DE", "2015H1"), "real_gdp"] == pytest.approx(100 * (211 / 207 - 1))
    # inflation: average HICP vs the same half-year a year earlier = 1.005^4 − 1 exactly
    assert m.loc[("DE", "2015H1"), "inflation"] == pytest.approx(100 * (1.005**4 - 1))
    assert m.loc[("DE", "2015H1"), "unemployment"] == pytest.approx(5 + 0.1 * 5.5)
    assert ("DE", "2014H1") not in m.index  # no preceding half-year
    with pytest.raises(InputError):
        halfyear_macro(_quarterly().drop(columns="hicp"))


def test_components_from_cumulative_december_flows():
    macro = halfyear_macro(_quarterly())
    p = build_panel(_raw(), macro, min_obs=2)
    row = p.data.set_index("period").loc["2016H2"]
    rwa_prev = 1000 * 1.01**5  # RWA at the end of 2016H1 (the 5th half-year since 2014H1's start)
    assert row["n"] == pytest.approx(100 * 10 / rwa_prev)  # December YTD 20 minus June 10
    assert row["l"] == pytest.approx(100 * 2 / rwa_prev)
    assert row["o"] == pytest.approx(100 * 1 / rwa_prev)
    assert row["a"] == pytest.approx(0.5)
    assert row["g"] == pytest.approx(100 * np.log(1.01))
    raw = _raw().set_index("period_end")
    assert row["cet1_ratio_lag"] == pytest.approx(100 * raw.loc["2016-06-30", "cet1_capital"] / rwa_prev)
    assert row["log_rwa_lag"] == pytest.approx(np.log(rwa_prev))
    assert row["n_lag"] == pytest.approx(100 * 10 / (1000 * 1.01**4))


def test_lags_only_between_consecutive_half_years():
    raw = _raw()
    raw = raw[raw["period_end"] != "2016-12-31"]
    p = build_panel(raw, halfyear_macro(_quarterly()), min_obs=1)
    periods = set(p.data["period"])
    # 2016H2 missing: 2017H1 has no rates (no beginning RWA), 2017H2 has no lag
    assert "2017H1" not in periods and "2017H2" not in periods and "2018H1" in periods


def test_missing_june_leaves_second_half_unknown():
    raw = _raw()
    raw = raw[raw["period_end"] != "2017-06-30"]
    p = build_panel(raw, halfyear_macro(_quarterly()), min_obs=1)
    assert "2017H2" not in set(p.data["period"])


def test_short_banks_dropped_with_reason():
    raw = pd.concat([_raw(), _raw(n_years=3, bank="B2", start=2017)])
    p = build_panel(raw, halfyear_macro(_quarterly()), min_obs=8)
    assert p.banks == ["B1"]
    assert p.dropped["bank_id"].tolist() == ["B2"]
    assert "fewer than the 8 required" in p.dropped["reason"].iloc[0]


def test_country_required_and_never_silently_substituted():
    raw = _raw(country="PT")
    with pytest.raises(InputError, match="no macro history"):
        build_panel(raw, halfyear_macro(_quarterly()), min_obs=2)
    p = build_panel(raw, halfyear_macro(_quarterly()), min_obs=2, country_map={"PT": "DE"})
    assert any("PT uses the DE macro series" in a for a in p.assumptions)
    raw.loc[0, "country"] = ""
    with pytest.raises(InputError, match="no country"):
        build_panel(raw, halfyear_macro(_quarterly()), min_obs=2)


@pytest.mark.parametrize("column,value", [("rwa", -1.0), ("period_end", "2016-03-31"), ("period_end", "nodate")])
def test_bad_raw_input(column, value):
    raw = _raw()
    raw.loc[3, column] = value
    with pytest.raises(InputError):
        build_panel(raw, halfyear_macro(_quarterly()), min_obs=2)


def test_scenario_from_annual_path_matches_annual_growth():
    hist = _quarterly(countries=("DE", "FR"), years=range(2022, 2025))
    annual = pd.DataFrame(
        {
            "real_gdp": [0.0, 2.0, 1.0, -1.0],
            "inflation": [0.0, 3.0, 2.0, 2.0],
            "unemployment": [6.0, 7.0, 8.0, 8.0],
            "long_term_rate": [2.0, 3.0, 3.0, 3.0],
            "equity_prices": [0.0, -10.0, 0.0, 5.0],
            "house_prices": [0.0, 1.0, 1.0, 1.0],
        },
        index=[2024, 2025, 2026, 2027],
    )
    s = scenario_from_annual_path(annual, ["DE", "FR"], "EA path applied to DE and FR", history=hist)
    assert sorted(set(s["period"])) == ["2025H1", "2025H2", "2026H1", "2026H2", "2027H1", "2027H2"]
    assert "EA path applied to DE and FR" in s.attrs["assumptions"]
    built = s.attrs["quarterly"]
    de = built[built["country"] == "DE"]
    base = hist[(hist["country"] == "DE") & hist["quarter"].str.startswith("2024")]
    assert de["real_gdp_level"].iloc[:4].mean() == pytest.approx(base["real_gdp_level"].mean() * 1.02)
    # rates shift by the path's change from 2024 on top of the country's own 2024 average
    assert de["unemployment"].iloc[0] == pytest.approx(base["unemployment"].mean() + 1.0)
    with pytest.raises(InputError):
        scenario_from_annual_path(annual, ["DE"], "  ", history=hist)
    with pytest.raises(InputError):
        scenario_from_annual_path(annual, ["IT"], "note", history=hist)


def test_demo_panel_is_synthetic_and_builds():
    raw = demo.load_demo_panel()
    assert (raw["data_status"] == "synthetic").all()
    p = build_panel(raw, halfyear_macro(demo.load_demo_macro()))
    assert len(p.banks) == 40 and set(p.dropped["bank_id"]) == {"FR90", "IT90"}
    assert set(p.data["country"]) >= {"DE", "FR", "IT", "ES", "NL"}
    assert p.data[list(MACRO_VARIABLES)].notna().all().all()
    assert p.data["period"].min() == "2016H1" and p.data["period"].max() == "2024H2"


def test_history_components_reproduce_reported_capital_through_the_recursions():
    """Eqs. (cet1capital)–(rwarecursion) applied to the built components give back the reported
    CET1 capital and RWA of every consecutive demo half-year (the panel's rates are exact)."""
    raw = demo.load_demo_panel()
    p = build_panel(raw, halfyear_macro(demo.load_demo_macro()))
    reported = raw.assign(period=[f"{d[:4]}H{1 if d[5:7] == '06' else 2}" for d in raw["period_end"]])
    reported = reported.set_index(["bank_id", "period"])
    for bank_id, g in p.data.groupby("bank_id"):
        for _, row in g.iterrows():
            prev = half_label(int(row["t"]) - 1)
            c0, r0 = reported.loc[(bank_id, prev), ["cet1_capital", "rwa"]]
            c1, r1 = reported.loc[(bank_id, row["period"]), ["cet1_capital", "rwa"]]
            assert c0 + (row["n"] - row["l"] - row["o"] + row["a"]) / 100 * r0 == pytest.approx(c1, rel=1e-12)
            assert r0 * np.exp(row["g"] / 100) == pytest.approx(r1, rel=1e-12)
            assert row["cet1_ratio_lag"] == pytest.approx(100 * c0 / r0, rel=1e-12)
