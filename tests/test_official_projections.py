"""Official euro-area projections: the shipped table, its quotes, the cutoff rule, the records and the CLI."""

from __future__ import annotations

import csv
import json
import re
from datetime import date, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from aieco.cli import main
from aieco.errors import InputError
from aieco.models.macro import workspace_observations
from aieco.records import ObservedValue, ReleaseRule, ValueStatus
from aieco.sources.official import (
    COLUMNS,
    SHIPPED,
    latest_round,
    latest_stored_round,
    load_official,
    projection_values,
    read_projections,
    rounds_of,
    stored_projections,
)
from aieco.store import open_store

SHARED_HEADLINES = (
    Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "scenarios" / "official_headlines.csv"
)
RAW = list(csv.DictReader(SHIPPED.open(encoding="utf-8", newline="")))
# first word of a table row per variable (ECB tables: "Real GDP", "HICP"; Reuters tables: "GDP growth", "Inflation")
ROW_LABELS = {"real_gdp": ("Real", "GDP"), "inflation": ("HICP", "Inflation"), "unemployment": ("Unemployment",)}


def test_the_shipped_file_re_reads_to_every_row():
    rows = read_projections()
    assert len(rows) == len(RAW) > 0
    for proj, raw in zip(rows, RAW, strict=True):
        assert proj.value == float(raw["value"])
        assert proj.target_year == int(raw["target_year"])
        assert proj.publication_date.isoformat() == raw["publication_date"]
        assert proj.url.startswith("https://www.ecb.europa.eu/")
    assert SHIPPED.with_name("projections.PROVENANCE.md").exists()


def _numbers(text: str) -> list[float]:
    return [
        float(n.replace(",", ".")) for n in re.findall(r"(?<![\d.,])-?\d+(?:[.,]\d+)?", text.replace("\u2212", "-"))
    ]


@pytest.mark.parametrize("raw", RAW, ids=lambda r: f"{r['publisher']}:{r['round']}:{r['variable']}:{r['target_year']}")
def test_every_value_occurs_in_its_quote(raw):
    assert float(raw["value"]) in _numbers(raw["quote"])
    # a table fragment (a line of years, then labelled rows): the value sits in the target year's column
    lines = [ln.replace("|", " ").split() for ln in raw["quote"].splitlines()]
    header = next((ln for ln in lines if len(ln) >= 2 and all(re.fullmatch(r"(19|20)\d\d", t) for t in ln)), None)
    if header is not None:
        row = next(ln for ln in lines if ln and ln[0].rstrip("*") in ROW_LABELS[raw["variable"]])
        cells = [t for t in row if not t.startswith("(") and _numbers(t)]
        assert _numbers(cells[header.index(raw["target_year"])]) == [float(raw["value"])]


@pytest.mark.parametrize(
    ("publisher", "cutoff", "expected_round"),
    [("Eurosystem staff", "2024-12-31", "2024-12"), ("ECB", "2024-12-31", "2024Q4")],
)
def test_the_2024_rounds_match_the_shared_headlines(publisher, cutoff, expected_round):
    """The shared evaluation file's official baseline rows (another reading of the same publications)."""
    if not SHARED_HEADLINES.exists():
        pytest.skip(f"{SHARED_HEADLINES} is absent (shared data not mounted)")
    shared = {
        (r["variable"], int(r["period"])): float(r["value"])
        for r in csv.DictReader(SHARED_HEADLINES.open(encoding="utf-8"))
        if r["publisher"] == publisher and r["scenario"] == "baseline"
    }
    ours = latest_round(read_projections(), cutoff, "ECB SPF" if publisher == "ECB" else publisher)
    assert ours is not None and ours.round == expected_round
    assert shared and {k: ours.value(*k) for k in shared} == shared


@pytest.mark.parametrize(
    ("cutoff", "publisher", "expected"),
    [
        ("2019-12-31", "Eurosystem staff", "EUROSYSTEM_STAFF:2019-12"),
        ("2024-12-31", "Eurosystem staff", "EUROSYSTEM_STAFF:2024-12"),
        ("2024-12-31", None, "EUROSYSTEM_STAFF:2024-12"),
        ("2024-12-31", ("Eurosystem staff", "ECB staff"), "EUROSYSTEM_STAFF:2024-12"),
        ("2024-12-11", ("Eurosystem staff", "ECB staff"), "ECB_STAFF:2024-09"),
        ("2024-12-31", "ECB SPF", "ECB_SPF:2024Q4"),
    ],
)
def test_latest_round_at_a_cutoff(cutoff, publisher, expected):
    chosen = latest_round(read_projections(), cutoff, publisher)
    assert chosen is not None and chosen.series_key == expected
    assert chosen.publication_date <= date.fromisoformat(cutoff)


@pytest.mark.parametrize(
    ("cutoff", "expected", "years"),
    [
        ("2019-12-31", "ECB_SPF:2019Q3", (2019, 2020, 2021)),
        ("2021-12-31", "ECB_SPF:2021Q4", (2021,)),
        ("2023-06-30", "ECB_SPF:2023Q2", (2023, 2024, 2025)),
        ("2024-06-30", "ECB_SPF:2024Q2", (2024, 2026)),
        ("2024-12-31", "EUROSYSTEM_STAFF:2024-12", (2024, 2025, 2026, 2027)),
    ],
)
def test_the_latest_unemployment_projection_at_a_cutoff(cutoff, expected, years):
    """The round an unemployment anchor comes from (staff or survey) and the years it covers."""
    unemployment = [p for p in read_projections() if p.variable == "unemployment"]
    chosen = latest_round(unemployment, cutoff)
    assert chosen is not None and chosen.series_key == expected
    assert chosen.years("unemployment") == years


# plausible ranges per variable, % (2012-2027 euro area: GDP -8.7 in 2020, HICP 8.4 in 2022, unemployment 12.x)
PLAUSIBLE = {"real_gdp": (-10.0, 10.0), "inflation": (-1.0, 10.0), "unemployment": (5.0, 13.0)}


def test_every_value_is_in_the_plausible_range_of_its_variable():
    """A value outside its variable's range is a misread column, a dropped sign or a unit confusion."""
    out = [
        (p.series_key, p.variable, p.target_year, p.value)
        for p in read_projections()
        if not PLAUSIBLE[p.variable][0] <= p.value <= PLAUSIBLE[p.variable][1]
    ]
    assert out == []


def test_latest_round_takes_a_round_published_on_the_cutoff_and_not_the_day_after():
    rows = read_projections()
    for r in rounds_of(rows):
        same = latest_round(rows, r.publication_date, r.publisher)
        before = latest_round(rows, r.publication_date - timedelta(days=1), r.publisher)
        assert same is not None and same.series_key == r.series_key
        assert before is None or before.publication_date < r.publication_date
    first = min(p.publication_date for p in rows)
    assert latest_round(rows, first - timedelta(days=1)) is None


def test_latest_round_takes_a_datetime_cutoff():
    from datetime import datetime

    chosen = latest_round(read_projections(), datetime(2024, 12, 12, 23, 59), "Eurosystem staff")
    assert chosen is not None and chosen.round == "2024-12"


def test_latest_round_refuses_an_unknown_publisher():
    with pytest.raises(InputError, match="unknown publisher"):
        latest_round(read_projections(), "2024-12-31", "IMF")


def _write(tmp_path: Path, first: dict[str, str] | None = None, **change: str) -> Path:
    good = {
        "publisher": "Eurosystem staff",
        "title": "Eurosystem staff macroeconomic projections for the euro area, December 2024",
        "publication_date": "2024-12-12",
        "round": "2024-12",
        "variable": "real_gdp",
        "target_year": "2025",
        "value": "1.1",
        "unit": "% change, annual average",
        "url": "https://www.ecb.europa.eu/press/projections/html/index.en.html",
        "read_at": "https://www.ecb.europa.eu/press/projections/html/index.en.html",
        "quote": "growth is projected to be 0.7% in 2024, 1.1% in 2025",
    }
    path = tmp_path / "p.csv"
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerow({**good, **(first or {})})
        w.writerow({**good, **change})
    return path


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"target_year": "2026", "value": "1.4"}, "value"),  # 1.4 is not in the quote
        ({"publisher": "IMF staff", "target_year": "2024", "value": "0.7"}, "publisher"),
        ({"publication_date": "12/12/2024", "target_year": "2024", "value": "0.7"}, "publication_date"),
        ({"url": "https://example.org/x", "target_year": "2024", "value": "0.7"}, "url"),
        ({"unit": "%", "target_year": "2024", "value": "0.7"}, "unit"),
        ({"round": "2024Q4", "target_year": "2024", "value": "0.7"}, "round"),
        ({"value": "1.1"}, "target_year"),  # the same round, variable and year twice
        ({"publication_date": "2024-12-13", "target_year": "2024", "value": "0.7"}, "publication_date"),
    ],
)
def test_a_bad_row_is_refused_naming_file_row_and_field(tmp_path, change, field):
    path = _write(tmp_path, **change)
    with pytest.raises(InputError) as err:
        read_projections(path)
    text = str(err.value)
    assert "p.csv row 3" in text and f"field {field!r}" in text and "fix:" in text


def test_a_bad_file_writes_nothing(tmp_path):
    path = _write(tmp_path, target_year="2026", value="1.4")
    with open_store(tmp_path / "ws") as store:
        with pytest.raises(InputError):
            load_official(store, path)
        assert store.count(ObservedValue) == 0


def test_records_are_dated_baseline_evidence_never_model_history(tmp_path):
    rows = read_projections()
    values = projection_values(rows)
    assert len(values) == len(rows)
    for proj, rec in zip(rows, values, strict=True):
        assert rec.frequency == "A" and rec.scenario == "baseline" and rec.status is ValueStatus.modelled
        assert rec.release_date == proj.publication_date and rec.release_rule is ReleaseRule.vintage
        assert rec.reference_period == str(proj.target_year) and rec.series_key == proj.series_key
        assert rec.provenance is not None and rec.provenance.value == "real"
    with open_store(tmp_path / "ws") as store:
        assert load_official(store) == len(rows)
        assert load_official(store) == 0
        assert len(stored_projections(store)) == len(rows)
        assert workspace_observations(store).empty  # the VAR's history reads none of them
        stored = stored_projections(store)
    for cutoff in ("2019-12-31", "2024-12-11", "2024-12-31", date(2016, 10, 21)):
        chosen = latest_round(rows, cutoff)
        assert chosen is not None
        same = latest_stored_round(stored, cutoff)
        assert {v.series_key for v in same} == {chosen.series_key} and len(same) == len(chosen.projections)
    assert latest_stored_round(stored, "2012-01-01") == []


def test_cli_loads_the_projections(tmp_path):
    ws = tmp_path / "ws"
    out = CliRunner().invoke(main, ["-w", str(ws), "--json", "data", "load-official"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.output)
    assert result["new"] == len(RAW)
    assert "EUROSYSTEM_STAFF:2024-12" in {r["series_key"] for r in result["rounds"]}
    again = CliRunner().invoke(main, ["-w", str(ws), "--json", "data", "load-official"])
    assert json.loads(again.output)["new"] == 0
    with open_store(ws, create=False) as store:
        assert {r.series_key for r in stored_projections(store)} == {p.series_key for p in read_projections()}


def test_a_row_whose_quote_spans_lines_is_named_by_its_first_line(tmp_path):
    path = _write(tmp_path, first={"quote": "growth is projected\nto be 0.7% in 2024, 1.1% in 2025"}, value="1.4")
    assert path.read_text(encoding="utf-8").count("\n") == 4  # header, a two-line row, the bad row
    with pytest.raises(InputError, match=r"p\.csv row 4, field 'value'"):
        read_projections(path)
