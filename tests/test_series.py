"""Series loader: every real format in ../shared/data/macro, the BoE sheet, and bad input."""

from __future__ import annotations

from datetime import date, timedelta

import pandas as pd
import pytest

from aieco.errors import InputError
from aieco.records import ReleaseRule
from aieco.sources.series import (
    load_series,
    observations_frame,
    parse_period,
    period_end,
    publication_lags,
    quarterly_averages,
)


def by_period(records, variable=None):
    return {r.reference_period: r for r in records if variable is None or r.variable == variable}


@pytest.mark.parametrize(
    "name, variable, frequency, first, value, last",
    [
        ("fred/CLVMEURSCAB1GQEA19.csv", "real_gdp", "Q", "1995Q1", 1836118.5, "2023Q4"),
        ("fred/CP0000EZ19M086NEST.csv", "inflation", "M", "1996-01", 70.4, "2023-12"),
        ("fred/IRLTLT01EZM156N.csv", "long_term_rate", "M", "1970-01", 7.7526, "2021-02"),
        ("fred/LRHUTTTTEZM156S.csv", "unemployment", "M", "1990-07", 7.58981635694048, "2021-01"),
        ("fred/QXMN628BIS.csv", "house_prices", "Q", "1975Q1", 12.5977, "2020Q3"),
        ("fred/eurostoxx50_monthly_kwantumlink.csv", "equity_prices", "M", "1986-12", 900.82, "2021-03"),
        ("ecb_M_U2_EUR_DS_EI_DJES50I_HSTA.csv", "equity_prices", "M", "1994-01", 1423.210476190476, "2024-01"),
        ("bis_rpp_nominal_index.csv", "house_prices", "Q", "1975Q1", 12.5845, "2025Q4"),
        ("cepremap_EA_SW_rawdata.csv", "real_gdp", "Q", "1970Q1", 960568.948878671, "2023Q4"),
        ("cepremap_EA_CMR_rawdata.csv", "long_term_rate", "Q", "1980Q1", 12.0299635472498, "2023Q2"),
        ("ecb_awm19up18.csv", "unemployment", "Q", "1970Q1", None, "2017Q4"),
        ("ecb_rpp_2018.xlsx", "house_prices", "Q", "2000Q1", 64.8607135546723, "2017Q4"),
    ],
)
def test_each_real_format(shared_data, name, variable, frequency, first, value, last):
    records = load_series(shared_data / "macro" / name)
    mine = [r for r in records if r.variable == variable]
    assert mine, f"no {variable} in {name}"
    periods = sorted(r.reference_period for r in mine)
    assert periods[0] == first and periods[-1] <= last
    assert all(r.frequency == frequency for r in mine)
    # these files state no release date: the documented lag dates them (rule lag), or nothing does
    lags = publication_lags()
    for r in records:
        lag = lags.lag_days(r.variable, r.series_key)
        if lag is None:
            assert r.release_date is None and r.release_rule is None
        else:
            assert r.release_rule is ReleaseRule.lag
            assert r.release_date == period_end(r.reference_period, r.frequency) + timedelta(days=lag)
    assert all(r.jurisdiction.startswith("EA") for r in mine)
    if value is not None:
        assert by_period(mine)[first].value == pytest.approx(value)
    assert all(r.series_key for r in mine)


def test_decimal_comma_newest_first_file(shared_data):
    records = by_period(load_series(shared_data / "macro" / "fred" / "eurostoxx50_monthly_kwantumlink.csv"))
    assert records["2021-03"].value == pytest.approx(3813.2931)


def test_bis_long_format_keeps_only_the_euro_area(shared_data):
    records = load_series(shared_data / "macro" / "bis_rpp_nominal_index.csv")
    assert {r.series_key for r in records} == {"BIS.RPP.N.XM"} and {r.jurisdiction for r in records} == {"EA"}


def test_realtime_vintage_file_states_release_dates(shared_data):
    records = load_series(shared_data / "macro" / "vintages" / "ea_gdp_realtime_vintages_long.csv")
    first = [r for r in records if r.reference_period == "1980Q1"]
    # pub_date is the first day of the publication quarter: public by that quarter's end
    assert [(r.release_date, r.value) for r in first[:2]] == [
        (date(2002, 12, 31), 1090100.0),
        (date(2003, 3, 31), 1090353.0),
    ]
    assert max(r.release_date for r in records) == date(2024, 12, 31)
    assert {r.vintage for r in first[:1]} == {"2002Q4"} and {r.release_rule for r in records} == {ReleaseRule.file}


def test_dated_cepremap_copy_takes_its_date_from_the_file_name(shared_data):
    records = load_series(shared_data / "macro" / "vintages" / "cepremap_EA_SW_rawdata_commit_e8ce132_2024-02-21.csv")
    gdp = by_period(records, "real_gdp")
    assert gdp["2023Q3"].value == 2764790.0 and gdp["2023Q3"].release_date == date(2024, 2, 21)
    assert "2023Q4" not in gdp


def test_bis_by_commit_columns_are_vintages(shared_data):
    records = load_series(shared_data / "macro" / "vintages" / "bis_rpp_XM_nominal_by_commit.csv")
    assert {r.release_date for r in records} == {
        date(2017, 12, 22),
        date(2018, 11, 20),
        date(2025, 2, 4),
        date(2026, 5, 19),
    }
    q = [r for r in records if r.reference_period == "1975Q1"]
    assert sorted((r.release_date, r.value) for r in q) == [(date(2025, 2, 4), 12.6236), (date(2026, 5, 19), 12.5845)]


def test_boe_macroeconomic_variables_sheet(shared_data):
    path = shared_data / "scenarios" / "boe-2025-bank-capital-stress-test-scenarios.xlsx"
    records = load_series(path, release_date="2025-03-24")
    gdp = {(r.reference_period, r.scenario): r for r in records if r.variable == "real_gdp"}
    assert gdp[("2000Q1", None)].value == 74.3 and gdp[("2024Q4", None)].value == 100
    assert gdp[("2025Q1", "adverse")].value == 99.5 and gdp[("2029Q4", "adverse")].value == 99.7
    assert gdp[("2025Q1", "adverse")].status.value == "modelled"
    unemployment = by_period([r for r in records if r.variable == "unemployment"])
    assert unemployment["2024Q3"].value == 6.3
    assert {r.release_date for r in records} == {date(2025, 3, 24)}
    assert {r.variable for r in records} >= {"real_gdp", "inflation", "unemployment", "house_prices", "policy_rate"}


def test_demo_long_file_round_trip():
    from aieco.demo.macro import DATA_FILE, load_demo_observations

    records = load_series(DATA_FILE)
    frame = observations_frame(records)
    demo = load_demo_observations()
    assert len(frame) == len(demo)
    assert frame["value"].tolist() == demo["value"].tolist()
    assert frame["release_date"].tolist() == demo["release_date"].tolist()


def test_quarterly_averages_need_three_months():
    frame = pd.DataFrame(
        {
            "variable": ["u"] * 4,
            "reference_period": ["2020-01", "2020-02", "2020-03", "2020-04"],
            "value": [6.0, 7.0, 8.0, 9.0],
            "unit": "%",
            "frequency": "M",
            "jurisdiction": "EA",
            "release_date": [None] * 4,
            "vintage": [None] * 4,
            "series_key": "k",
            "transformation": "level",
            "scenario": None,
        }
    )
    q = quarterly_averages(frame)
    assert q[["reference_period", "value", "frequency"]].values.tolist() == [["2020Q1", 7.0, "Q"]]
    assert q["release_date"].isna().all()


@pytest.mark.parametrize(
    "text, freq, expected",
    [
        ("1995-04-01", "Q", "1995Q2"),
        ("1975-12-31", "Q", "1975Q4"),
        ("2000-Q1", "Q", "2000Q1"),
        ("Q3 2024", "Q", "2024Q3"),
        ("1970Q1", "Q", "1970Q1"),
        ("2021Mar", "M", "2021-03"),
        ("1996-01-01", "M", "1996-01"),
    ],
)
def test_parse_period(text, freq, expected):
    assert parse_period(text, freq, where="x") == expected


def write(tmp_path, name, content, encoding="utf-8"):
    p = tmp_path / name
    p.write_bytes(content.encode(encoding))
    return p


def test_missing_column_names_the_file_and_fix(tmp_path):
    p = write(tmp_path, "vint.csv", "time,pub_date,val\n2020-01-01,2020-04-01,1\n")
    with pytest.raises(InputError) as info:
        load_series(p)
    assert "vint.csv lacks the column(s) value" in str(info.value) and "fix:" in str(info.value)


def test_unparseable_period_names_row_and_column(tmp_path):
    p = write(tmp_path, "CLVMEURSCAB1GQEA19.csv", "DATE,CLVMEURSCAB1GQEA19\n1995-01-01,1\nsometime,2\n")
    with pytest.raises(InputError, match=r"unparseable Q period 'sometime'.*:3 column DATE"):
        load_series(p)


def test_non_numeric_value_names_the_cell(tmp_path):
    p = write(tmp_path, "CLVMEURSCAB1GQEA19.csv", "DATE,CLVMEURSCAB1GQEA19\n1995-01-01,abc\n")
    with pytest.raises(InputError, match=r"'abc' is not a number.*:2 column CLVMEURSCAB1GQEA19"):
        load_series(p)


def test_non_utf8_file_is_refused_with_the_fix(tmp_path):
    p = write(tmp_path, "eurostoxx.csv", "Period\\Unit:;[Points ]\n2021Mär;3813,29\n", encoding="latin-1")
    with pytest.raises(InputError, match="not UTF-8") as info:
        load_series(p)
    assert "iconv" in str(info.value)


def test_unknown_layout_and_missing_file(tmp_path):
    with pytest.raises(InputError, match="unrecognised series layout"):
        load_series(write(tmp_path, "x.csv", "a,b,c\n1,2,3\n"))
    with pytest.raises(InputError, match="does not exist"):
        load_series(tmp_path / "absent.csv")


def test_unregistered_fred_series_needs_metadata(tmp_path):
    p = write(tmp_path, "XYZ.csv", "DATE,XYZ\n2020-01-01,1.5\n")
    with pytest.raises(InputError, match="not registered"):
        load_series(p)
    got = load_series(p, variable="policy_rate", unit="%", frequency="M", jurisdiction="EA")
    assert (got[0].variable, got[0].reference_period, got[0].value) == ("policy_rate", "2020-01", 1.5)


def test_workbook_without_the_sheet(tmp_path):
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active.title = "Other"
    wb.save(tmp_path / "scen.xlsx")
    with pytest.raises(InputError, match="has no sheet 'Macroeconomic variables'"):
        load_series(tmp_path / "scen.xlsx")
    (tmp_path / "broken.xlsx").write_bytes(b"not a zip")
    with pytest.raises(InputError, match="not a readable xlsx"):
        load_series(tmp_path / "broken.xlsx")


def test_realtime_workbook_triangle(shared_data):
    records = load_series(shared_data / "macro" / "vintages" / "ea_gdp_realtime_database.xlsx")
    vintages = {r.vintage: r.release_date for r in records}
    assert len(vintages) == 89  # vintages with at least one value (the long file holds the same 89)
    assert vintages["2024q4"] == date(2024, 12, 13) and vintages["2015q1"] == date(2015, 3, 27)
    assert vintages["2014q4"] == date(2015, 1, 15)  # the row of exact dates starts with this vintage
    assert vintages["2005q1"] == date(2005, 3, 31)  # only the quarter is stated: its end (rule file)
    q = by_period([r for r in records if r.vintage == "2024q4"])
    assert q["2024Q3"].value == 2832045.6


def test_awm_unemployment_share_becomes_percent(shared_data):
    values = by_period(load_series(shared_data / "macro" / "ecb_awm19up18.csv"), "unemployment")
    assert values["1995Q1"].value == pytest.approx(10.8713, abs=1e-4)  # URX 0.108713 in the file
