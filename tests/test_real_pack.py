"""The real euro-area series shipped in the package: provenance files, re-derivation, a plausible VAR."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aieco.cli import main
from aieco.models.macro import MODEL_ID, workspace_observations
from aieco.records import ObservedValue, RunStatus
from aieco.sources.series.pack import PACK, PACK_DIR, build_real_pack, load_real_pack, pack_observations
from aieco.store import open_store
from tests.macro_helpers import run_macro_scenario


def test_every_extract_has_a_provenance_file_and_no_forbidden_source():
    for entry in PACK:
        csv = PACK_DIR / f"{entry.name}.csv"
        text = (PACK_DIR / f"{entry.name}.PROVENANCE.md").read_text(encoding="utf-8")
        assert csv.is_file()
        for field in ("publisher:", "title:", "series key:", "extraction date", "release-date rule:", "licence:"):
            assert field in text, (entry.name, field)
        assert not any(bad in entry.source.lower() for bad in ("boe", "yahoo", "stoxx50e_daily", "stoxx600"))
    assert sum(p.stat().st_size for p in PACK_DIR.iterdir()) < 2_000_000


def test_shipped_extracts_are_what_the_shared_files_give(shared_data, tmp_path):
    # extensions come from later public copies that the shared folder may not hold
    # (tests/test_series_extensions.py rebuilds them when it does); every other source must be there
    present = tuple(e for e in PACK if (shared_data / "macro" / e.source).is_file())
    assert all(e.later_copy for e in PACK if e not in present)
    build_real_pack(shared_data, tmp_path, entries=present)
    for entry in present:
        assert (tmp_path / f"{entry.name}.csv").read_bytes() == (PACK_DIR / f"{entry.name}.csv").read_bytes()
        assert (tmp_path / f"{entry.name}.PROVENANCE.md").read_text() == (
            PACK_DIR / f"{entry.name}.PROVENANCE.md"
        ).read_text()


def test_shipped_values_keep_rules_and_provenance():
    values = pack_observations()
    assert {v.provenance.value for v in values} == {"real"}
    rules = {(v.series_key.split(".")[0], v.release_rule.value) for v in values}
    assert ("RTDB", "vintage") in rules and ("BIS", "file") in rules and ("ECB", "lag") in rules
    assert all(v.release_date is not None for v in values)


@pytest.fixture(scope="module")
def pack_ws(tmp_path_factory):
    ws = tmp_path_factory.mktemp("pack") / "ws"
    out = CliRunner().invoke(main, ["-w", str(ws), "--json", "data", "load-real"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["new"] > 5000
    return ws


def test_the_shipped_series_give_a_plausible_var_at_end_2024(pack_ws):
    with open_store(pack_ws, create=False) as store:
        assert load_real_pack(store) == 0  # loading twice adds nothing
        frame = workspace_observations(store)
        restrictions = [{"variable": "house_prices", "direction": -1, "priority": 1}]
        approx = [
            r
            for r in run_macro_scenario(
                store,
                "pack",
                "property_correction",
                restrictions,
                frame,
                "2024-12-31",
                seed=5,
                draws=5_000,
                vintage_policy="approximate",
            )
            if r.model_id == MODEL_ID
        ][0]
        assert approx.status is RunStatus.completed, approx.reason
        assert approx.diagnostics["plausibility"]["passed"]
        # the extensions (later public copies, rule lag) bring inflation, the long rate and equity to
        # 2024Q3; unemployment (ECB export to 2024-04) now ends the common sample
        last = approx.diagnostics["last_usable"]
        assert last["inflation"] == last["long_term_rate"] == last["equity_prices"] == "2024Q3"
        assert last["unemployment"] == approx.diagnostics["endpoint"] == "2024Q1"
        strict = [
            r
            for r in run_macro_scenario(
                store,
                "pack",
                "property_correction",
                restrictions,
                frame,
                "2024-12-31",
                seed=5,
                draws=5_000,
                vintage_policy="strict",
            )
            if r.model_id == MODEL_ID
        ][0]
        # strict: only true vintages (GDP) and dated public copies (rule file) — it runs end to end
        assert strict.status is RunStatus.completed, strict.reason
        d = strict.diagnostics
        assert d["vintage_policy"] == "strict" and d["plausibility"]["passed"]
        rules = {r for series in d["release_rules"].values() for rs in series.values() for r in rs}
        assert rules <= {"vintage", "file"} and "vintage" in rules and "file" in rules
        # the dated copies of house prices (2021-04-25, to 2020Q3) end the common sample
        assert d["endpoint"] == "2020Q3" and d["last_usable"]["house_prices"] == "2020Q3"
        assert d["conditioned_on"]["real_gdp"] == "2024Q3"  # later GDP vintages condition the simulation
        assert store.find(ObservedValue, variable="real_gdp")


def test_pack_dir_is_inside_the_package():
    assert PACK_DIR.parts[-3:] == ("aieco", "data", "real") and Path(PACK_DIR).is_dir()
