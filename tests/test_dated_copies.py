"""Dated public copies (aieco.sources.series.copies): the ``file`` release rule from a repository's history,
and the declared euro-area geography mapping that lets raw shared files be loaded one by one."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import date
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from aieco.cli import main
from aieco.errors import InputError
from aieco.records import ReleaseRule
from aieco.sources.series import load_series
from aieco.sources.series.copies import (
    FIELDS,
    DatedCopy,
    copy_of,
    dated_copies,
    git_blob_id,
    parse_copies,
    with_dated_copy,
)
from aieco.sources.series.readers import EURO_AREA_CODES

GOOD = {
    "name": "x",
    "repo": "o/r",
    "commit": "a" * 40,
    "committed": "2024-03-21T17:06:43+01:00",
    "path": "f.csv",
    "blob": "b" * 40,
    "publisher": "ECB",
    "note": "n",
}


def test_git_blob_id_is_what_git_hash_object_prints(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    for i, data in enumerate([b"", b"period,value\n2024Q1,1.5\n", bytes(range(256)) * 3]):
        f = tmp_path / f"f{i}"
        f.write_bytes(data)
        out = subprocess.run(["git", "hash-object", str(f)], capture_output=True, text=True, check=True).stdout
        assert git_blob_id(f) == out.strip()


def test_commit_date_is_the_utc_calendar_date():
    late = DatedCopy(**{**GOOD, "committed": "2024-09-05T22:30:00-04:00"})
    assert late.date == date(2024, 9, 6)  # 02:30 UTC the next day
    assert DatedCopy(**GOOD).date == date(2024, 3, 21) and DatedCopy(**GOOD).label == "o/r@aaaaaaa"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"repo": ""}, "lacks repo"),
        ({"commit": "e93f531"}, "40 lower-case hex"),
        ({"blob": "Z" * 40}, "40 lower-case hex"),
        ({"committed": "2024-03-21"}, "with offset"),
        ({"committed": "yesterday"}, "with offset"),
    ],
)
def test_a_bad_registry_entry_names_the_entry_and_field(change, message):
    with pytest.raises(InputError, match=message) as err:
        parse_copies({"copy": [GOOD, {**GOOD, "name": "y", **change}]}, "reg.toml")
    assert "#2" in err.value.where


def test_a_copy_name_used_twice_is_refused():
    with pytest.raises(InputError, match="used twice"):
        parse_copies({"copy": [GOOD, GOOD]}, "reg.toml")


def test_every_registered_copy_is_a_shared_file_byte_for_byte(shared_data):
    """Each entry names the shared file it equals; its bytes have the committed git blob id."""
    copies = dated_copies()
    assert len(copies) >= 7 and all(set(FIELDS) <= set(vars(c)) for c in copies)
    for c in copies:
        rel = c.note.split("(shared/data/")[1].rstrip(")")
        assert git_blob_id(shared_data / rel) == c.blob, c.name
        assert copy_of(shared_data / rel) == c
        assert c.date <= date(2024, 12, 31)  # every copy was public before the default cutoff


def test_a_registered_file_gives_its_values_again_dated_by_the_commit(shared_data):
    path = shared_data / "macro" / "ecb_portal" / "inflation.csv"
    own = load_series(path)
    both = with_dated_copy(path, own)
    copies = both[len(own) :]
    assert len(copies) == len(own) and {v.release_rule for v in own} == {ReleaseRule.lag}
    assert {v.release_date for v in copies} == {date(2024, 9, 5)}
    assert {v.release_rule for v in copies} == {ReleaseRule.file}
    assert {v.vintage for v in copies} == {"mthavarajah/eu-economics@a7df1f4"}
    assert [(v.reference_period, v.value) for v in copies] == [(v.reference_period, v.value) for v in own]


def test_an_unregistered_file_gets_no_copy(shared_data, tmp_path):
    changed = tmp_path / "inflation.csv"
    changed.write_bytes((shared_data / "macro" / "ecb_portal" / "inflation.csv").read_bytes() + b"\n")
    own = load_series(changed)
    assert copy_of(changed) is None and with_dated_copy(changed, own) == own


def test_true_vintages_get_no_copy(shared_data):
    path = shared_data / "macro" / "vintages" / "ea_gdp_realtime_vintages_long.csv"
    own = load_series(path)
    assert with_dated_copy(path, own) == own


def test_euro_area_codes_map_to_ea():
    assert {EURO_AREA_CODES[c] for c in ("EA19", "EA20", "U2", "I8", "I9", "XM", "EA")} == {"EA"}


#: The raw shared files that hold one of the six variables, loaded one by one with `data add`.
RAW_FILES = (
    "vintages/ea_gdp_realtime_database.xlsx",
    "fred/CP0000EZ19M086NEST.csv",
    "ecb_portal/inflation.csv",
    "ecb_portal/unemployment.csv",
    "fred/LRHUTTTTEZM156S.csv",
    "cepremap_EA_CMR_rawdata.csv",
    "fred/QXMN628BIS.csv",
    "bis_rpp_nominal_index.csv",
    "ecb_M_U2_EUR_DS_EI_DJES50I_HSTA.csv",
    "fred/eurostoxx50_monthly_kwantumlink.csv",
)


@pytest.mark.slow
def test_raw_shared_files_added_one_by_one_run_the_var_under_both_policies(shared_data, tmp_path):
    """EA19 (FRED), EA20 (ECB I9), U2 (ECB) and XM (BIS) files loaded one at a time: one EA label per
    variable, so the VAR's geography check passes, and the run records the membership caveat."""
    from aieco.models.macro import model_inputs, run_macro_var, workspace_observations
    from aieco.models.var import VARIABLES
    from aieco.records import RunStatus
    from aieco.store import open_store

    ws = tmp_path / "ws"
    for rel in RAW_FILES:
        out = CliRunner().invoke(main, ["-w", str(ws), "--json", "data", "add", str(shared_data / "macro" / rel)])
        assert out.exit_code == 0, (rel, out.output)
        assert json.loads(out.output)[0]["values"] > 0
    with open_store(ws, create=False) as store:
        frame = workspace_observations(store)
    assert set(frame["variable"]) == set(VARIABLES)
    assert frame.groupby("variable")["jurisdiction"].nunique().max() == 1 and set(frame["jurisdiction"]) == {"EA"}
    request = SimpleNamespace(risk="property_correction", horizon="2025-2027")  # what run_macro_var reads
    restrictions = [{"variable": "house_prices", "direction": -1, "priority": 1}]
    for policy, endpoint in (("approximate", "2023Q2"), ("strict", "2020Q3")):
        result = run_macro_var(
            request, model_inputs(frame, restrictions, "2024-12-31", 2_000, vintage_policy=policy), seed=3
        )
        assert result.status is RunStatus.completed, (policy, result.reason)
        d = result.diagnostics
        assert d["endpoint"] == endpoint and d["geography"]["jurisdictions"] == ["EA"]
        assert "changing composition" in d["geography"]["caveat"]
