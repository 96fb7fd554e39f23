"""Vintage selection at a cutoff: real-time GDP file, dated CEPREMAP copies, stops and refusals."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pandas as pd
import pytest

from aieco.errors import InputError, StageStopped
from aieco.models.vintages import quarterly_levels, select_as_of
from aieco.sources.series import PublicationLags, load_series, observations_frame, publication_lags

SHARED_DATA = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data").resolve()


@pytest.fixture(scope="module")
def realtime(shared_data_module):
    path = shared_data_module / "macro" / "vintages" / "ea_gdp_realtime_vintages_long.csv"
    return observations_frame(load_series(path))


@pytest.fixture(scope="module")
def shared_data_module():
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder {SHARED_DATA} is absent")
    return SHARED_DATA


def value_of(frame, period, variable="real_gdp"):
    row = frame[(frame["reference_period"] == period) & (frame["variable"] == variable)]
    assert len(row) <= 1
    return None if row.empty else float(row["value"].iloc[0])


def with_flash(realtime):
    """The real file plus the Q4-2024 flash estimate as released on 30 January 2025."""
    flash = realtime.iloc[[-1]].copy()
    flash[["reference_period", "value", "release_date", "vintage"]] = ["2024Q4", 2836000.0, "2025-01-30", "2025-01-30"]
    return pd.concat([realtime, flash], ignore_index=True)


def test_q4_2024_flash_is_not_eligible_at_end_2024(realtime):
    eligible = select_as_of(with_flash(realtime), "2024-12-31", required=["real_gdp"])
    assert value_of(eligible, "2024Q4") is None
    assert value_of(eligible, "2024Q3") == 2832045.6  # the October 2024 release
    assert value_of(select_as_of(with_flash(realtime), "2025-01-30"), "2024Q4") == 2836000.0  # released that day


def test_latest_release_on_or_before_the_cutoff_per_period(realtime):
    # 1980Q1 was published 1,090,100 (vintage 2002q4) then 1,090,353 (vintage 2003q1); the long
    # file dates a vintage by its quarter, so each counts as public at that quarter's end
    assert value_of(select_as_of(realtime, "2002-12-31"), "1980Q1") == 1090100.0
    assert value_of(select_as_of(realtime, "2003-03-30"), "1980Q1") == 1090100.0
    assert value_of(select_as_of(realtime, "2003-03-31"), "1980Q1") == 1090353.0
    eligible = select_as_of(realtime, "2024-12-31")
    assert not eligible.duplicated(["variable", "reference_period"]).any()
    assert eligible["release_date"].max() == date(2024, 12, 31)
    assert set(eligible["release_rule"]) == {"file"}


def test_missing_required_vintage_stops_without_fallback(realtime):
    with pytest.raises(StageStopped) as info:
        select_as_of(realtime, "2001-12-31", required=["real_gdp"])
    assert "required vintage missing" in info.value.reason and "2002-12-31" in info.value.reason
    assert "later download is not used" in info.value.reason


def test_unknown_release_date_is_never_eligible(shared_data_module):
    path = shared_data_module / "macro" / "fred" / "CLVMEURSCAB1GQEA19.csv"
    fred = observations_frame(load_series(path, lags=PublicationLags(())))  # no lag table: no date
    assert fred["release_date"].isna().all() and fred["release_rule"].isna().all()
    assert select_as_of(fred, "2030-01-01").empty
    with pytest.raises(StageStopped, match="no observation with a stated release date"):
        select_as_of(fred, "2030-01-01", required=["real_gdp"])


def test_lag_rule_dates_a_series_without_vintages_and_only_approximate_uses_it(shared_data_module):
    fred = observations_frame(load_series(shared_data_module / "macro" / "fred" / "CLVMEURSCAB1GQEA19.csv"))
    row = fred[fred["reference_period"] == "2023Q3"].iloc[0]
    lag = publication_lags().lag_days("real_gdp")
    assert row["release_rule"] == "lag" and row["release_date"] == (date(2023, 9, 30) + timedelta(days=lag)).isoformat()
    released = row["release_date"]
    assert value_of(select_as_of(fred, released, policy="approximate"), "2023Q3") == float(row["value"])
    day_before = (date.fromisoformat(released) - timedelta(days=1)).isoformat()
    assert value_of(select_as_of(fred, day_before, policy="approximate"), "2023Q3") is None
    assert select_as_of(fred, "2030-01-01", policy="strict").empty
    with pytest.raises(StageStopped, match="strict vintage policy: real_gdp has no true vintage"):
        select_as_of(fred, "2030-01-01", required=["real_gdp"], policy="strict")
    with pytest.raises(InputError, match="vintage policy 'loose'"):
        select_as_of(fred, "2030-01-01", policy="loose")


def test_inconsistent_geography_is_refused(realtime):
    other = realtime.iloc[[0]].copy()
    other["jurisdiction"] = "EA20"
    with pytest.raises(InputError, match="inconsistent geography.*real_gdp: EA, EA20"):
        select_as_of(pd.concat([realtime, other]), "2024-12-31")


def test_dated_cepremap_copies_revise_real_gdp(shared_data_module):
    folder = shared_data_module / "macro" / "vintages"
    records = []
    for path in sorted(folder.glob("cepremap_EA_SW_rawdata_commit_*.csv")):
        records += [r for r in load_series(path) if r.variable == "real_gdp"]
    frame = observations_frame(records)
    # Feb-21 copy: 2023Q3 = 2,764,790; Mar-08 copy revises it to 2,767,809.2; Mar-21 adds 2023Q4
    early = select_as_of(frame, "2024-03-01")
    assert value_of(early, "2023Q3") == 2764790.0 and value_of(early, "2023Q4") is None
    mid = select_as_of(frame, "2024-03-08")
    assert value_of(mid, "2023Q3") == 2767809.2 and value_of(mid, "2023Q4") is None
    assert value_of(mid, "2023Q2") == 2769572.7  # revised from 2,768,259.4
    late = select_as_of(frame, "2024-03-31")
    assert value_of(late, "2023Q4") == 2766310.6


def test_quarterly_levels_refuses_two_series_for_one_variable():
    frame = pd.DataFrame(
        {
            "variable": ["real_gdp", "real_gdp"],
            "reference_period": ["2020Q1", "2020Q1"],
            "value": [1.0, 2.0],
            "release_date": ["2020-05-01", "2020-05-01"],
            "jurisdiction": ["EA", "EA"],
            "series_key": ["A", "B"],
            "frequency": ["Q", "Q"],
        }
    )
    eligible = select_as_of(frame, "2020-12-31")
    with pytest.raises(InputError, match="more than one value for 2020Q1"):
        quarterly_levels(eligible, ["real_gdp"])
    assert quarterly_levels(eligible.iloc[[0]], ["real_gdp"]).loc["2020Q1", "real_gdp"] == 1.0


def test_missing_columns_and_monthly_rows_are_refused():
    with pytest.raises(InputError, match="lack the column"):
        select_as_of(pd.DataFrame({"variable": ["x"], "value": [1.0]}), "2020-01-01")
    monthly = pd.DataFrame(
        {
            "variable": ["u"],
            "reference_period": ["2020-01"],
            "value": [7.0],
            "release_date": ["2020-02-01"],
            "jurisdiction": ["EA"],
            "frequency": ["M"],
        }
    )
    with pytest.raises(InputError, match="frequency M"):
        quarterly_levels(monthly, ["u"])


def test_realtime_workbook_exact_dates_against_the_long_file(shared_data_module):
    folder = shared_data_module / "macro" / "vintages"
    workbook = observations_frame(load_series(folder / "ea_gdp_realtime_database.xlsx"))
    long_file = observations_frame(load_series(folder / "ea_gdp_realtime_vintages_long.csv"))
    # vintages before 2015 state only their quarter: public by its end (rule file), never its start
    early = workbook[workbook["vintage"] == "2010q1"]
    assert set(early["release_date"]) == {date(2010, 3, 31).isoformat()} and set(early["release_rule"]) == {"file"}
    late = workbook[workbook["vintage"] == "2024q4"]
    assert set(late["release_date"]) == {"2024-12-13"} and set(late["release_rule"]) == {"vintage"}
    # the 2024q4 vintage was released on 13 December 2024; the long file states only its quarter
    # (pub_date 2024-10-01), so neither gives 2024Q3 at end-November (no look-ahead)
    wb_nov = select_as_of(workbook, "2024-11-30")
    assert value_of(wb_nov, "2024Q3") is None and value_of(wb_nov, "2024Q2") is not None
    assert value_of(select_as_of(long_file, "2024-11-30"), "2024Q3") is None
    assert value_of(select_as_of(long_file, "2024-12-31"), "2024Q3") == 2832045.6
    wb_end = select_as_of(workbook, "2024-12-31")
    assert value_of(wb_end, "2024Q3") == 2832045.6 and value_of(wb_end, "2024Q4") is None
