"""The 2024 EBA transparency extract: real values read through the real SDD, its checks and its release date.

No number here is typed: every expected value is re-read from the extract's own files (the
rebuilt ``tr_oth.csv``, its verbatim ``source/`` rows, its PROVENANCE.md) or from the SDD.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest

from aieco.errors import InputError
from aieco.models.bank.eba import load_eba_csv, observed_values
from aieco.models.bank.eba_extract import (
    TR2024,
    TR2024_BANKS,
    TR2024_CONCEPTS,
    bundled_exercises,
    bundled_transparency,
    transparency_release_date,
    write_transparency_extract,
)
from aieco.models.bank.eba_items import CORE_CONCEPTS, read_dictionary
from aieco.records import ReleaseRule

EXTRACT = TR2024 / "tr_oth.csv"


def _rows() -> list[dict[str, str]]:
    with EXTRACT.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def _amount(lei: str, label: str) -> float:
    hits = [r for r in _rows() if r["LEI_Code"] == lei and r["Label"] == label]
    assert len(hits) == 1, (lei, label)
    return float(hits[0]["Amount"])


def test_bundled_lists_keep_stress_tests_and_transparency_apart():
    assert set(bundled_exercises()) == {"st2016", "st2021"}
    assert bundled_transparency() == {"tr2024": EXTRACT}


def test_items_resolve_through_the_real_sdd_labels_and_values_match_the_file():
    data = load_eba_csv(EXTRACT)
    book = data.attrs["dictionary"]
    assert book.collection == "TR"
    values = observed_values(data, TR2024_CONCEPTS)
    assert {v.variable for v in values} == set(TR2024_CONCEPTS) >= set(CORE_CONCEPTS)
    assert {v.entity for v in values} == set(TR2024_BANKS)
    by = {(v.entity, v.variable): v for v in values}
    for lei in TR2024_BANKS:
        # net interest income: the SDD has no such row, so interest income minus interest expenses
        nii = by[lei, "net_interest_income"]
        assert nii.value == pytest.approx(_amount(lei, "Interest income") - _amount(lei, "Interest expenses"))
        opex = by[lei, "operating_expenses"]
        assert opex.value == pytest.approx(_amount(lei, "(Administrative expenses)") + _amount(lei, "(Depreciation)"))
        cet1 = by[lei, "cet1_capital"]
        assert cet1.reference_period == "2023H2" and cet1.scenario is None and cet1.provenance.value == "real"
        assert cet1.location_id.startswith("tr_oth.csv:")
        line = int(cet1.location_id.split(":")[1])
        assert EXTRACT.read_text(encoding="utf-8").splitlines()[line - 1].split(",")[0] == lei


def test_cet1_ratio_equals_capital_over_exposure_for_every_bank():
    """The identity the source's rounding (6 decimals) must respect: a mistyped capital, exposure or
    ratio would break it."""
    by = {(v.entity, v.variable): v.value for v in observed_values(load_eba_csv(EXTRACT), TR2024_CONCEPTS)}
    for lei in TR2024_BANKS:
        ratio = by[lei, "cet1_capital"] / by[lei, "total_risk_exposure_amount"]
        assert abs(ratio - by[lei, "cet1_ratio"]) < 1e-6, lei
        # and the P&L holds together: profit after tax never exceeds profit before tax by more than a tax credit
        assert by[lei, "profit_before_tax"] > 0 and by[lei, "profit"] <= by[lei, "profit_before_tax"] + 1e-6


def test_rebuilding_from_the_verbatim_source_rows_gives_the_extract_byte_for_byte(tmp_path, shared_data):
    out = tmp_path / "tr2024"
    shutil.copytree(TR2024 / "source", tmp_path / "src")
    write_transparency_extract(tmp_path / "src", shared_data / "banks" / "eba_transparency_SDD.xlsx", out)
    for rel in (
        "tr_oth.csv",
        "data_dictionary_extract.csv",
        "PROVENANCE.md",
        *(f"source/{p.name}" for p in (TR2024 / "source").iterdir()),
    ):
        assert (out / rel).read_bytes() == (TR2024 / rel).read_bytes(), rel


@pytest.mark.skipif(
    not os.environ.get("AIECO_TR2024_SOURCE"), reason="AIECO_TR2024_SOURCE names no clone's data/ folder"
)
def test_rebuilding_from_the_full_source_repository_gives_the_extract(tmp_path, shared_data):
    out = tmp_path / "tr2024"
    write_transparency_extract(
        Path(os.environ["AIECO_TR2024_SOURCE"]), shared_data / "banks" / "eba_transparency_SDD.xlsx", out
    )
    assert (out / "tr_oth.csv").read_bytes() == EXTRACT.read_bytes()


def test_the_source_must_hold_every_bank_and_label(tmp_path, shared_data):
    sdd = shared_data / "banks" / "eba_transparency_SDD.xlsx"
    src = tmp_path / "src"
    shutil.copytree(TR2024 / "source", src)
    fact = (src / "fact_prudential_2024.csv").read_text(encoding="utf-8").splitlines()
    (src / "fact_prudential_2024.csv").write_text(
        "\n".join(line for line in fact if not line.startswith(TR2024_BANKS[0])) + "\n", encoding="utf-8"
    )
    with pytest.raises(InputError, match="missing banks"):
        write_transparency_extract(src, sdd, tmp_path / "out")
    shutil.copy(TR2024 / "source" / "fact_prudential_2024.csv", src / "fact_prudential_2024.csv")
    items = (src / "dim_item.csv").read_text(encoding="utf-8").replace("(Depreciation)", "(Amortisation)")
    (src / "dim_item.csv").write_text(items, encoding="utf-8")
    with pytest.raises(InputError, match=r"0 rows labelled '\(Depreciation\)'"):
        write_transparency_extract(src, sdd, tmp_path / "out")


def test_release_date_is_rederived_from_the_cited_publications_in_provenance():
    """release_date = end of the exercise's latest reference period + the longest cited delay."""
    text = (TR2024 / "PROVENANCE.md").read_text(encoding="utf-8")
    pairs = re.findall(r"published (\d{4}-\d{2}-\d{2}); latest reference period ends (\d{4}-\d{2}-\d{2})", text)
    assert len(pairs) >= 2
    lag = max((date.fromisoformat(p) - date.fromisoformat(e)).days for p, e in pairs)
    latest = date.fromisoformat(re.search(r"latest reference period\s+\((\d{4}-\d{2}-\d{2})", text).group(1))
    stated = date.fromisoformat(re.search(r"release_date: (\d{4}-\d{2}-\d{2})", text).group(1))
    assert stated == latest + timedelta(days=lag) == transparency_release_date()
    data = load_eba_csv(EXTRACT)
    assert data.attrs["release_date"] == stated and data.attrs["release_rule"] == ReleaseRule.lag
    assert {v.release_rule for v in observed_values(data)} == {ReleaseRule.lag}
    # the guide's last reference period is the one the rule starts from
    assert latest.strftime("%Y%m") in text or "June 2024" in text


def test_a_provenance_with_an_unknown_release_rule_is_refused(tmp_path):
    folder = tmp_path / "tr"
    shutil.copytree(TR2024, folder)
    prov = folder / "PROVENANCE.md"
    prov.write_text(
        prov.read_text(encoding="utf-8").replace("release_rule: lag", "release_rule: guess"), encoding="utf-8"
    )
    with pytest.raises(InputError, match="unknown release_rule 'guess'"):
        load_eba_csv(folder / "tr_oth.csv")


def test_the_dictionary_extract_is_the_sdd_s_rows(shared_data):
    full = read_dictionary(shared_data / "banks" / "eba_transparency_SDD.xlsx")
    part = read_dictionary(TR2024 / "data_dictionary_extract.csv")
    assert part.items and all(full.items[c].label == it.label for c, it in part.items.items())
    assert {it.template for it in part.items.values()} == {"Capital", "P&L"}


def test_validate_refuses_a_transparency_file_with_a_clear_error(tmp_path):
    import json

    from click.testing import CliRunner

    from aieco.cli import main

    out = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "bank", "validate", "--eba", str(EXTRACT), "--json"])
    assert out.exit_code != 0 and "Traceback" not in out.output
    body = json.loads(out.stdout)
    assert body["error"] == "InputError" and "no adverse projections" in body["detail"]


def test_bank_import_stores_the_transparency_values(tmp_path):
    from click.testing import CliRunner

    from aieco.cli import main
    from aieco.models.bank.eba_application import bank_observations
    from aieco.store import Store

    out = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "bank", "import", "--eba", str(EXTRACT)])
    assert out.exit_code == 0, out.output
    with Store(tmp_path / "ws") as store:
        obs = bank_observations(store)
    assert set(obs["exercise"]) == {"TR"} and set(obs["bank_id"]) == set(TR2024_BANKS)
    assert set(obs["release_rule"]) == {"lag"}
