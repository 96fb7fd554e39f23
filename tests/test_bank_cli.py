"""`aieco bank run` and `aieco bank validate` through the real click group."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from aieco.cli import main
from aieco.config import get_settings


@pytest.fixture
def three_quantiles(monkeypatch):
    """Keep the CLI test small: three FE-QAR levels through the settings' environment override."""
    monkeypatch.setenv("AIECO_BANK__QUANTILES", "[0.1, 0.5, 0.9]")
    get_settings.cache_clear()
    yield
    monkeypatch.delenv("AIECO_BANK__QUANTILES")
    get_settings.cache_clear()


def test_bank_run_from_annual_csv(tmp_path, three_quantiles):
    assert get_settings().bank.quantiles == (0.1, 0.5, 0.9)
    csv = tmp_path / "annual.csv"
    csv.write_text(
        "year,real_gdp,inflation,unemployment,long_term_rate,equity_prices,house_prices\n"
        "2025,-1.0,3.0,7.0,3.0,-20,-5\n2026,0.0,2.5,7.5,3.2,-5,-2\n2027,1.0,2.0,7.2,3.1,5,1\n"
    )
    from aieco.demo import load_bank_data
    from aieco.store import Store

    with Store(tmp_path / "ws") as store:  # the bank models read the workspace's bank records
        load_bank_data(store)
    out = CliRunner().invoke(
        main, ["-w", str(tmp_path / "ws"), "bank", "run", "--annual", str(csv), "--paths", "50", "--json"]
    )
    assert out.exit_code == 0, out.output
    runs = json.loads(out.stdout)["runs"]
    assert [r["model_id"] for r in runs] == ["bank_feols_fit", "bank_feols", "bank_feqar_fit", "bank_feqar"]
    assert {r["status"] for r in runs} == {"completed"}


def test_bank_run_needs_one_scenario(tmp_path):
    out = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "bank", "run", "--json"])
    assert out.exit_code == 2
    assert json.loads(out.stdout)["error"] == "InputError"


def test_bank_validate_one_eba_file(tmp_path, shared_data):
    path = shared_data / "banks" / "eba_2016_stress_test_TR_OTH.csv"
    out = CliRunner().invoke(
        main, ["-w", str(tmp_path / "ws"), "bank", "validate", "--eba", str(path), "--reps", "100", "--json"]
    )
    assert out.exit_code == 0, out.output
    body = json.loads(out.stdout)
    gates = body["gates"]
    assert {g["model_id"] for g in gates} == {
        "eba_no_change",
        "eba_baseline",
        "eba_nii_impairments",
        "bank_eba_components:cv",
        "bank_eba_depletion:cv",
    }
    assert all(not g["passed"] for g in gates if g["model_id"].startswith("eba_"))  # simple comparators fail
    assert {r["exercise"] for r in body["accounting"]} == {"st2016"}
    # one exercise cannot validate the scenario model out of exercise: said, not an error
    assert "two EBA stress tests" in body["scenario_model"]["skipped"]


def test_bank_validate_default_runs_on_both_real_exercises(tmp_path):
    """From a fresh clone: the bundled real EBA 2016 and 2021 extracts, accounting and model tables."""
    out = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "bank", "validate", "--reps", "50", "--json"])
    assert out.exit_code == 0, out.output
    body = json.loads(out.stdout)
    assert body["provenance"] == "real"
    assert [e["name"] for e in body["exercises"]] == ["st2016", "st2021"]
    assert {(r["exercise"], r["scenario"]) for r in body["accounting"]} == {
        (e, s) for e in ("st2016", "st2021") for s in ("baseline", "adverse")
    }
    model = next(g for g in body["gates"] if g["model_id"] == "bank_eba_components")
    assert "fit on st2016" in model["detail"] and "validated on st2021" in model["detail"]
    assert model["fit_provenance"] == model["validation_provenance"] == "real"
    assert set(model["metrics"]) >= {"mae", "rmse", "spearman", "top_quartile_recall", "coverage"}
    # specification E (docs/bank-validation.md): the direct depletion model, same designs and thresholds
    direct = next(g for g in body["gates"] if g["model_id"] == "bank_eba_depletion")
    assert "fit on st2016" in direct["detail"] and direct["fit_provenance"] == "real"
    assert {g["model_id"] for g in body["gates"]} >= {"bank_eba_depletion:st2021->st2016", "bank_eba_depletion:cv"}
    # every model's out-of-exercise and CV gate records the three benchmarks' MAE beside its own
    for g in body["gates"]:
        if g["model_id"].startswith(("bank_eba_components", "bank_eba_depletion")):
            assert {"no_change_mae", "train_mean_mae", "scaled_constant_mae"} <= set(g["metrics"]), g["model_id"]
    # the scenario-conditional model: both out-of-exercise designs and every CV seed against three benchmarks
    scen = body["scenario_model"]
    assert [d["design"] for d in scen["designs"][:2]] == ["st2016->st2021", "st2021->st2016"]
    assert len(scen["designs"]) == 2 + scen["cv_seeds"] and scen["cv_seeds"] >= 10
    for d in scen["designs"]:
        assert set(d["benchmarks"]) == {"no_change", "train_mean", "scaled_constant"}
        assert d["passed"] == (all(d["mae"] < b for b in d["benchmarks"].values()) and d["spearman"] >= 0.5)
    assert scen["passed"] == (all(d["passed"] for d in scen["designs"][:2]) and scen["cv_seeds_passed"] >= 9)
    text = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "bank", "validate", "--reps", "20"])
    assert text.exit_code == 0 and "CET1 accounting recursion" in text.output and "bank_eba_components" in text.output


def test_bank_run_on_a_workspace_without_bank_data_says_so(tmp_path):
    csv = tmp_path / "annual.csv"
    csv.write_text(
        "year,real_gdp,inflation,unemployment,long_term_rate,equity_prices,house_prices\n2025,-1.0,3.0,7.0,3.0,-20,-5\n"
    )
    out = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "bank", "run", "--annual", str(csv), "--json"])
    assert out.exit_code != 0
    assert "no bank panel" in out.output


def test_bank_validate_workspace_exercise_flag_is_its_own_option(tmp_path):
    """The flag that validates on the workspace's exercise no longer shadows the common -w/--workspace PATH."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # click warns about a parameter used twice
        help_text = CliRunner().invoke(main, ["bank", "validate", "--help"])
    assert help_text.exit_code == 0 and "--workspace-exercise" in help_text.output
    out = CliRunner().invoke(main, ["-w", str(tmp_path / "ws"), "bank", "validate", "--workspace-exercise", "--json"])
    assert out.exit_code != 0
    assert "holds no official-style adverse exercise" in out.output
