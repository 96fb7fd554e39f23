"""Series as first-class inputs: publisher formats, release rules, the lag table, `aieco data add`."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from aieco.cli import main
from aieco.errors import InputError
from aieco.models.vintages import select_as_of
from aieco.records import ObservedValue, ReleaseRule
from aieco.sources.series import load_series, observations_frame, period_end, publication_lags
from aieco.sources.series.lags import parse_lag_table
from aieco.store import open_store

MACRO_FILES = {
    # file → the six-variable content it must load, or the reason it is refused
    "bis_rpp_nominal_index.csv": "house_prices",
    "bis_rpp_real_index.csv": "house_prices",
    "cepremap_EA_CMR_rawdata.csv": "long_term_rate",
    "cepremap_EA_Finance_rawdata.csv": "house_prices",
    "cepremap_EA_SW_rawdata.csv": "real_gdp",
    "ecb_M_U2_EUR_DS_EI_DJES50I_HSTA.csv": "equity_prices",
    "ecb_awm19up18.csv": "unemployment",
    "ecb_portal/inflation.csv": "inflation",
    "ecb_portal/real_GDP.csv": "real_gdp",
    "ecb_portal/unemployment.csv": "unemployment",
    "ecb_rpp_2018.xlsx": "house_prices",
    "fred/CLVMEURSCAB1GQEA19.csv": "real_gdp",
    "fred/CP0000EZ19M086NEST.csv": "inflation",
    "fred/IRLTLT01EZM156N.csv": "long_term_rate",
    "fred/LRHUTTTTEZM156S.csv": "unemployment",
    "fred/QXMN628BIS.csv": "house_prices",
    "fred/eurostoxx50_monthly_kwantumlink.csv": "equity_prices",
    "vintages/bis_rpp_XM_nominal_by_commit.csv": "house_prices",
    "vintages/ea_gdp_realtime_database.xlsx": "real_gdp",
    "vintages/ea_gdp_realtime_vintages_long.csv": "real_gdp",
    "ecb_portal/government_debt.csv": "refused: maps to no vocabulary variable",
    "equity/stoxx50e_daily.csv": "refused: daily price download",
    "equity/stoxx600_daily.csv": "refused: daily price download",
}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(MACRO_FILES))
def test_every_macro_file_loads_or_is_refused_with_a_reason(shared_data, name):
    expected = MACRO_FILES[name]
    if expected.startswith("refused: "):
        with pytest.raises(InputError, match=expected.removeprefix("refused: ")):
            load_series(shared_data / "macro" / name)
        return
    records = load_series(shared_data / "macro" / name)
    mine = [r for r in records if r.variable == expected]
    assert mine and all(r.provenance.value == "real" for r in records)
    assert all(
        r.release_rule is not None and r.release_date > period_end(r.reference_period, r.frequency) for r in mine
    )


def test_every_macro_file_with_a_six_variable_is_covered(shared_data):
    files = {str(p.relative_to(shared_data / "macro")) for p in (shared_data / "macro").rglob("*.*")}
    assert files - set(MACRO_FILES) == {
        "vintages/cepremap_EA_SW_rawdata_commit_1e5fdda_2024-03-08.csv",
        "vintages/cepremap_EA_SW_rawdata_commit_e8ce132_2024-02-21.csv",
        "vintages/cepremap_EA_SW_rawdata_commit_e93f531_2024-03-21.csv",
    }


def test_ecb_portal_key_in_header(shared_data):
    records = load_series(shared_data / "macro" / "ecb_portal" / "unemployment.csv")
    first = min(records, key=lambda r: r.reference_period)
    assert first.series_key == "ECB.LFSI.M.I9.S.UNEHRT.TOTAL0.15_74.T" and first.reference_period == "2010-01"
    assert first.value == pytest.approx(10.243995) and first.jurisdiction == "EA" and first.frequency == "M"
    # the declared euro-area mapping labels I9 (EA20) as EA; the provider's code stays in the series key
    infl = load_series(shared_data / "macro" / "ecb_portal" / "inflation.csv")
    assert {r.transformation for r in infl} == {"yoy_rate"} and {r.jurisdiction for r in infl} == {"EA"}


SDMX = """KEY,FREQ,REF_AREA,ICP_ITEM,TIME_PERIOD,OBS_VALUE,OBS_STATUS
ICP.M.U2.N.000000.4.ANR,M,U2,000000,2024-10,2.0,A
ICP.M.U2.N.000000.4.ANR,M,U2,000000,2024-11,2.2,A
ICP.M.U2.N.000000.4.ANR,M,U2,000000,2024-12,,A
"""
SDMX_ESTAT = """DATAFLOW,LAST UPDATE,freq,unit,s_adj,na_item,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG
ESTAT:NAMQ_10_GDP(1.0),15/01/25 23:00:00,Q,CLV10_MEUR,SCA,B1GQ,EA20,2024-Q2,2900000.5,
ESTAT:NAMQ_10_GDP(1.0),15/01/25 23:00:00,Q,CLV10_MEUR,SCA,B1GQ,EA20,2024-Q3,2911000.0,p
ESTAT:NAMQ_10_GDP(1.0),15/01/25 23:00:00,Q,CLV10_MEUR,SCA,B1GQ,DE,2024-Q3,800000.0,
"""
TSV = (
    "freq,s_adj,age,unit,sex,geo\\TIME_PERIOD\t2024-10 \t2024-11 \t2024-12 \n"
    "M,SA,TOTAL,PC_ACT,T,EA20\t6.3 \t6.2 p\t: \n"
    "M,SA,TOTAL,PC_ACT,T,DE\t3.4 \t3.4 \t3.4 \n"
)


def test_sdmx_csv_ecb_key(tmp_path):
    records = load_series(write(tmp_path, "icp.csv", SDMX))
    assert [(r.reference_period, r.value, r.transformation) for r in records] == [
        ("2024-10", 2.0, "yoy_rate"),
        ("2024-11", 2.2, "yoy_rate"),
    ]
    # no date in the file: the documented HICP lag (rule lag)
    lag = publication_lags().lag_days("inflation")
    assert records[0].release_date == date(2024, 10, 31) + timedelta(days=lag)
    assert records[0].release_rule is ReleaseRule.lag


def test_sdmx_csv_eurostat_last_update_is_a_file_date(tmp_path):
    records = load_series(write(tmp_path, "namq.csv", SDMX_ESTAT))
    assert [(r.reference_period, r.value, r.jurisdiction) for r in records] == [
        ("2024Q2", 2900000.5, "EA"),
        ("2024Q3", 2911000.0, "EA"),
    ]  # Germany left out; EA20 is labelled EA by the declared euro-area mapping
    assert {r.release_date for r in records} == {date(2025, 1, 15)}
    assert {r.release_rule for r in records} == {ReleaseRule.file} and records[0].variable == "real_gdp"


def test_eurostat_tsv_flags_and_missing(tmp_path):
    records = load_series(write(tmp_path, "une_rt_m.tsv", TSV))
    assert [(r.reference_period, r.value) for r in records] == [("2024-10", 6.3), ("2024-11", 6.2)]
    assert records[0].variable == "unemployment" and records[0].series_key == "ESTAT.une_rt_m.M.SA.TOTAL.PC_ACT.T.EA20"


def test_generic_csv_with_a_mapping(tmp_path):
    path = write(tmp_path, "mine.csv", "when,level,pub\n2024-01,101.5,2024-02-20\n2024-02,102.0,2024-03-19\n")
    records = load_series(
        path,
        mapping={"period": "when", "value": "level", "release_date": "pub"},
        variable="house_prices",
        unit="index",
        frequency="M",
    )
    assert [(r.reference_period, r.value, r.release_date) for r in records] == [
        ("2024-01", 101.5, date(2024, 2, 20)),
        ("2024-02", 102.0, date(2024, 3, 19)),
    ]
    assert {r.release_rule for r in records} == {ReleaseRule.file}


@pytest.mark.parametrize(
    ("name", "text", "kwargs", "match"),
    [
        ("icp.csv", SDMX.replace("2.2,A", "two,A"), {}, r"icp.csv:3 column OBS_VALUE"),
        ("icp.csv", SDMX.replace("2024-11", "2024-13"), {}, r"icp.csv:3 column TIME_PERIOD"),
        ("une_rt_m.tsv", TSV.replace("6.2 p", "x6 p"), {}, r"une_rt_m.tsv:2 column 2024-11"),
        ("une_rt_m.tsv", TSV.replace("M,SA,TOTAL,PC_ACT,T,EA20", "M,SA,EA20"), {}, r"une_rt_m.tsv:2 column 1"),
        ("other.csv", SDMX.replace("ICP.M.U2.N.000000.4.ANR", "XYZ.M.U2.Q"), {}, "maps to no vocabulary variable"),
        (
            "mine.csv",
            "when,level\n2024-01,abc\n",
            {
                "mapping": {"period": "when", "value": "level"},
                "variable": "house_prices",
                "unit": "i",
                "frequency": "M",
            },
            r"mine.csv:2 column level",
        ),
        (
            "mine.csv",
            "when,level\n2024-01,1\n",
            {
                "mapping": {"period": "date", "value": "level"},
                "variable": "house_prices",
                "unit": "i",
                "frequency": "M",
            },
            r"lacks the column\(s\) date",
        ),
    ],
)
def test_bad_files_name_file_column_and_row(tmp_path, name, text, kwargs, match):
    with pytest.raises(InputError, match=match):
        load_series(write(tmp_path, name, text), **kwargs)


def test_lag_table_is_documented_and_gdp_lag_rederived_from_the_workbook(shared_data):
    table = publication_lags()
    six = ["real_gdp", "inflation", "unemployment", "long_term_rate", "house_prices", "equity_prices"]
    for v in six:
        entry = table.entry(v)
        assert entry is not None and entry.source and entry.derivation and entry.lag_days >= 1
    records = load_series(shared_data / "macro" / "vintages" / "ea_gdp_realtime_database.xlsx")
    latest: dict[str, tuple[date, str]] = {}
    for r in records:
        if r.release_rule is ReleaseRule.vintage:
            d, p = latest.get(r.vintage, (r.release_date, r.reference_period))
            latest[r.vintage] = (d, max(p, r.reference_period))
    lags = [(d - period_end(p, "Q")).days for d, p in latest.values()]
    assert len(lags) == 41 and max(lags) == table.lag_days("real_gdp") and min(lags) == 61
    # the house-price lag: the 2017-12-22 stored copy holds 2017Q2 and not 2017Q3
    bis = [
        r
        for r in load_series(shared_data / "macro" / "vintages" / "bis_rpp_XM_nominal_by_commit.csv")
        if r.release_date == date(2017, 12, 22)
    ]
    last = max(r.reference_period for r in bis)
    assert last == "2017Q2" and (date(2017, 12, 22) - period_end(last, "Q")).days == table.lag_days("house_prices")


def test_lag_table_refuses_undocumented_or_zero_lags():
    with pytest.raises(InputError, match="lacks source"):
        parse_lag_table({"real_gdp": {"lag_days": 10, "derivation": "x"}}, "t.toml")
    with pytest.raises(InputError, match="not a positive integer"):
        parse_lag_table({"real_gdp": {"lag_days": 0, "source": "s", "derivation": "d"}}, "t.toml")


# --------------------------------------------------------------------------- no look-ahead


@st.composite
def vintages(draw):
    """Random releases of quarterly values: some dated inside or before their own quarter."""
    rows = []
    for q in draw(
        st.lists(
            st.sampled_from([f"{y}Q{i}" for y in (2022, 2023, 2024) for i in (1, 2, 3, 4)]), min_size=1, max_size=12
        )
    ):
        end = period_end(q, "Q")
        for offset in draw(st.lists(st.integers(-200, 400), min_size=1, max_size=3)):
            rows.append(
                {
                    "variable": "real_gdp",
                    "reference_period": q,
                    "value": float(offset),
                    "release_date": (end + timedelta(days=offset)).isoformat(),
                    "jurisdiction": "EA",
                    "frequency": "Q",
                    "series_key": "S",
                    "release_rule": draw(st.sampled_from(["vintage", "file", "lag"])),
                }
            )
    return pd.DataFrame(rows)


@settings(max_examples=60, deadline=None)
@given(frame=vintages(), cutoff_offset=st.integers(0, 1200), policy=st.sampled_from(["strict", "approximate"]))
def test_no_value_released_after_the_cutoff_or_before_its_period_ended(frame, cutoff_offset, policy):
    cutoff = date(2022, 1, 1) + timedelta(days=cutoff_offset)
    eligible = select_as_of(frame, cutoff, policy=policy)
    for _, row in eligible.iterrows():
        assert row["release_date"] <= cutoff
        assert row["release_date"] > period_end(row["reference_period"], "Q")
        assert policy == "approximate" or row["release_rule"] != "lag"
    # and it is the latest such release of its period (nothing usable was passed over)
    usable = frame[
        [
            (
                date.fromisoformat(d) <= cutoff
                and date.fromisoformat(d) > period_end(p, "Q")
                and (policy == "approximate" or r != "lag")
            )
            for d, p, r in zip(frame["release_date"], frame["reference_period"], frame["release_rule"], strict=True)
        ]
    ]
    assert set(eligible["reference_period"]) == set(usable["reference_period"])
    for q, group in usable.groupby("reference_period"):
        assert eligible.loc[eligible["reference_period"] == q, "release_date"].iloc[0] == max(
            date.fromisoformat(d) for d in group["release_date"]
        )


# --------------------------------------------------------------------------- CLI


def test_data_add_loads_files_and_reports_rules(tmp_path, shared_data):
    ws = tmp_path / "ws"
    out = CliRunner().invoke(
        main,
        [
            "-w",
            str(ws),
            "--json",
            "data",
            "add",
            str(shared_data / "macro" / "ecb_portal" / "unemployment.csv"),
            str(shared_data / "macro" / "vintages" / "bis_rpp_XM_nominal_by_commit.csv"),
        ],
    )
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    # the ECB file is byte-identical to a copy committed 2024-09-05 (aieco/data/dated_copies.toml):
    # its 172 values come with their lag dates and again with the copy's date (rule file)
    assert rows[0]["by_rule"] == {"unemployment:file": 172, "unemployment:lag": 172}
    assert rows[1]["by_rule"] == {"house_prices:file": 702}
    with open_store(ws, create=False) as store:
        assert len(store.find(ObservedValue, variable="unemployment")) == 2 * 172


def test_data_add_writes_nothing_when_one_file_is_bad(tmp_path, shared_data):
    ws = tmp_path / "ws"
    bad = write(tmp_path, "bad.csv", SDMX.replace("2.2,A", "two,A"))
    out = CliRunner().invoke(
        main, ["-w", str(ws), "data", "add", str(shared_data / "macro" / "ecb_portal" / "unemployment.csv"), str(bad)]
    )
    assert out.exit_code == 2 and "bad.csv:3 column OBS_VALUE" in out.output
    with open_store(ws) as store:
        assert store.find(ObservedValue) == []


def test_data_add_manifest_series_entries(tmp_path, shared_data):
    src = shared_data / "macro" / "equity" / "stoxx50e_daily.csv"
    manifest = write(
        tmp_path,
        "m.toml",
        f"""
[[series]]
path = "{src}"
variable = "equity_prices"
unit = "index points"
frequency = "D"
map = {{ period = "Date", value = "Close" }}
""",
    )
    ws = tmp_path / "ws"
    args = ["-w", str(ws), "--json", "data", "add", "--manifest", str(manifest)]
    out = CliRunner().invoke(main, args)  # the series file lies outside the manifest's folder
    assert out.exit_code == 2 and "outside the manifest's folder" in out.output and "--allow-outside" in out.output
    with open_store(ws) as store:
        assert store.find(ObservedValue) == []
    out = CliRunner().invoke(main, [*args, "--allow-outside", str(src.parent)])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)[0]["by_rule"].keys() == {"equity_prices:lag"}
    bad = write(tmp_path, "b.toml", '[[series]]\npath = "x.csv"\ncolour = "red"\n')
    out = CliRunner().invoke(main, ["-w", str(ws), "data", "add", "--manifest", str(bad)])
    assert out.exit_code == 2 and "unknown field(s) colour" in out.output


def test_frame_round_trip_keeps_rule_and_provenance(shared_data):
    records = load_series(shared_data / "macro" / "fred" / "QXMN628BIS.csv")[:5]
    frame = observations_frame(records)
    assert set(frame["release_rule"]) == {"lag"} and set(frame["provenance"]) == {"real"}


def test_ingest_loads_series_entries_of_a_source_manifest(tmp_path, shared_data):
    manifest = write(
        tmp_path,
        "m.toml",
        f"""
[[series]]
path = "{shared_data / "macro" / "ecb_portal" / "inflation.csv"}"
""",
    )
    ws = tmp_path / "ws"
    folder = shared_data / "macro" / "ecb_portal"
    out = CliRunner().invoke(main, ["-w", str(ws), "--json", "ingest", str(manifest), "--allow-outside", str(folder)])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["series"][0]["by_rule"] == {"inflation:file": 172, "inflation:lag": 172}
