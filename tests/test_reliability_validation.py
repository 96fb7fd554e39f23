"""Issue 35, item 6: inputs that crashed or were accepted are refused with an error naming the field.

Settings out of bounds (draws, seeds), unknown jurisdictions, dates after today, a series
variable outside the vocabulary, two values for one period, a release before the period
ended, and one file described twice: each an InputError, nothing written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aieco.cli import main
from aieco.config import get_settings
from aieco.errors import InputError
from aieco.records import ObservedValue, Source
from aieco.request import load_request, parse_request

DEMO = Path(__file__).resolve().parents[1] / "aieco" / "demo" / "requests" / "euro_area_risks.toml"


def _cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.mark.parametrize(
    "name, value",
    [
        ("AIECO_SCENARIO__VAR_DRAWS", "-5"),
        ("AIECO_SCENARIO__VAR_DRAWS", "0"),
        ("AIECO_SCENARIO__VAR_DRAWS", "1000000000"),  # asked for 134 GiB
        ("AIECO_SCENARIO__SEED", "-1"),
        ("AIECO_BANK__PROJECTION_PATHS", "0"),
        ("AIECO_RETRIEVAL__TOP_K", "-3"),
    ],
)
def test_a_setting_out_of_bounds_names_its_variable(monkeypatch, tmp_path, name, value):
    monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    try:
        with pytest.raises(InputError, match=name):
            get_settings()
        res = _cli("--json", "vocab")  # the workspace comes from the settings
        assert res.exit_code == 2 and name in json.loads(res.output)["detail"]
    finally:
        monkeypatch.delenv(name)
        get_settings.cache_clear()


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"seeds": [-1]}, "seeds"),
        ({"seeds": [2**64]}, "seeds"),
        ({"jurisdictions": ["XX"]}, "jurisdictions"),
        ({"excluded_jurisdictions": ["QQ"]}, "excluded_jurisdictions"),
        ({"cutoff": "2031-01-01", "horizon": "2032-2034"}, "cutoff"),
    ],
)
def test_a_request_field_out_of_bounds_is_refused_by_name(changes, field):
    with pytest.raises(InputError, match=field):
        parse_request({**load_request(DEMO).as_dict(), **changes})


def test_known_jurisdictions_and_aliases_pass():
    data = load_request(DEMO).as_dict()
    for codes in (["EA"], ["ea20"], ["US"], ["de", "FR"], ["UK"], ["GLOBAL"]):
        assert parse_request({**data, "jurisdictions": codes}).jurisdictions == codes


def _manifest(folder: Path, *sources: str) -> Path:
    path = folder / "sources.toml"
    path.write_text("\n".join(sources))
    return path


def _source(path: str, title: str = "A note", date: str = "2024-03-01", jurisdiction: str = "EA") -> str:
    return (
        f'[[source]]\npath = "{path}"\ntitle = "{title}"\npublisher = "ECB"\n'
        f'publication_date = {date}\nrole = "generation"\njurisdiction = "{jurisdiction}"\n'
    )


@pytest.mark.parametrize(
    "entries, words",
    [
        ([_source("a.txt", date="2030-01-01")], "after today"),
        ([_source("a.txt", jurisdiction="XX")], "'jurisdiction' = 'XX' is not known"),
        ([_source("a.txt"), _source("b.txt", title="Another title")], "holds the same bytes as entry #1"),
    ],
    ids=["dated-2030", "unknown-jurisdiction", "same-bytes-two-descriptions"],
)
def test_a_manifest_problem_refuses_the_whole_ingest(store, tmp_path, entries, words):
    from aieco.sources.registry import ingest

    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("Higher tariffs lower real GDP in the euro area.\n")
    with pytest.raises(InputError, match=words):
        ingest(store, _manifest(tmp_path, *entries))
    assert store.count(Source) == 0


def test_the_same_bytes_described_the_same_way_twice_are_accepted(store, tmp_path):
    from aieco.sources.registry import ingest

    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_text("Higher tariffs lower real GDP in the euro area.\n")
    ingest(store, _manifest(tmp_path, _source("a.txt"), _source("b.txt")))
    assert store.count(Source) == 1


@pytest.mark.parametrize(
    "rows, options, words",
    [
        ("2024-03-31,1.0\n", ["--variable", "moon_phase"], "'moon_phase' is not in the vocabulary"),
        ("2024-03-31,1.0\n2024-03-31,2.0\n", [], "has two values"),
        ("2024-03-31,1.0\n", ["--release-date", "2024-02-01"], "before its reference period ended"),
        ("2024-03-31,1.0\n", ["--release-date", "2999-01-01"], "a release date in the future"),
    ],
    ids=["unknown-variable", "two-values-one-period", "released-before-period-end", "released-in-the-future"],
)
def test_data_add_refuses_impossible_series_and_writes_nothing(tmp_path, rows, options, words):
    csv = tmp_path / "series.csv"
    csv.write_text("Date,Close\n" + rows)
    ws = tmp_path / "ws"
    args = ["--variable", "equity_prices", "--unit", "index", "--frequency", "Q", "--release-date", "2024-05-01"]
    for i in range(0, len(options), 2):  # an option given here replaces the default one
        at = args.index(options[i]) if options[i] in args else None
        if at is None:
            args += options[i : i + 2]
        else:
            args[at + 1] = options[i + 1]
    res = _cli("-w", str(ws), "--json", "data", "add", str(csv), "--map", "period=Date", "--map", "value=Close", *args)
    assert res.exit_code == 2, res.output
    assert words in json.loads(res.output)["detail"]
    from aieco.store import Store

    with Store(ws) as store:
        assert store.count(ObservedValue) == 0


def test_data_add_of_a_clean_series_still_loads(tmp_path):
    csv = tmp_path / "series.csv"
    csv.write_text("Date,Close\n2024-03-31,1.0\n2024-06-30,2.0\n")
    ws = tmp_path / "ws"
    res = _cli(
        "-w", str(ws), "--json", "data", "add", str(csv), "--map", "period=Date", "--map", "value=Close",
        "--variable", "equity_prices", "--unit", "index", "--frequency", "Q", "--release-date", "2024-07-15",
    )  # fmt: skip
    assert res.exit_code == 0, res.output


# ------------------------------------------------------------------ report bundles (aieco report verify)


@pytest.fixture
def bundle(store):
    from reporting_world import ANALYSIS, build_world, good_draft

    from aieco.reporting.export import export_report
    from aieco.reporting.render import render_report

    report = render_report(store, ANALYSIS, good_draft(build_world(store))).report
    return json.loads(export_report(store, report.report_id, "json"))


def _resealed(content: dict) -> bytes:
    from aieco.records import canonical_json, sha256_hex

    content = {k: v for k, v in content.items() if k != "bundle_digest"}
    content["bundle_digest"] = sha256_hex(canonical_json(content))
    return canonical_json(content).encode()


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda c: c["records"][0].update(type="Weather"), "unknown type 'Weather'"),
        (lambda c: c.pop("records"), "lacks its 'records'"),
        (lambda c: c.update(report_id="rpt_00000000000000000000"), "names none of its reports"),
        (lambda c: c["artifacts"].update({next(iter(c["artifacts"])): "%%% not base64"}), "not base64"),
    ],
    ids=["unknown-type", "no-records", "changed-report-id", "artifact-not-base64"],
)
def test_a_malformed_bundle_is_an_input_error_not_a_crash(bundle, edit, words):
    from aieco.reporting.export import verify_bundle

    edit(bundle)
    with pytest.raises(InputError, match=words):
        verify_bundle(_resealed(bundle))


def test_an_edited_sentence_template_is_detected_even_when_resealed(bundle):
    from aieco.errors import IntegrityError
    from aieco.records import ReportSentence
    from aieco.reporting.export import verify_bundle

    item = next(r for r in bundle["records"] if r["type"] == "ReportSentence")
    item["data"]["template"] = item["data"]["template"].replace("house prices", "bank profits", 1) + " Indeed."
    rec = ReportSentence.model_validate(item["data"])
    item["data"]["sentence_id"] = rec.expected_id()
    rec = ReportSentence.model_validate(item["data"])
    item["id"], item["digest"] = rec.key, rec.digest()
    with pytest.raises(IntegrityError, match="differs from the draft"):
        verify_bundle(_resealed(bundle))


# ------------------------------------------------------------------ decompression bombs


def _workbook(path: Path, padding: int = 0) -> Path:
    import zipfile

    from openpyxl import Workbook

    wb = Workbook()
    wb.active.append(["period", "value"])
    wb.active.append(["2024Q1", 1.0])
    wb.save(path)
    if padding:  # a member that inflates far beyond its packed size, as a bomb's sheet does
        with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as z:
            z.writestr("xl/media/padding.bin", b"\0" * padding)
    return path


def test_a_workbook_that_inflates_a_thousandfold_is_refused_before_it_is_opened(tmp_path):
    from aieco.sources.series.readers import read_sheet
    from aieco.sources.xlsx import parse_xlsx

    bomb = _workbook(tmp_path / "bomb.xlsx", padding=40_000_000)
    assert bomb.stat().st_size < 200_000
    with pytest.raises(InputError, match="decompression bomb"):
        parse_xlsx(bomb, "src_x", parser_version="xlsx-1")
    with pytest.raises(InputError, match="decompression bomb"):
        read_sheet(bomb, "Sheet")
    fine = parse_xlsx(_workbook(tmp_path / "fine.xlsx"), "src_y", parser_version="xlsx-1")
    assert fine.pages == 1
