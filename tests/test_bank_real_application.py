"""Real banks in real analyses: workspace EBA records, the real-data gate, the cross-bank outputs or a stop."""

from __future__ import annotations

from datetime import date, timedelta

import numpy as np
import pytest

from aieco.asof import AsOf
from aieco.errors import InputError, StageStopped
from aieco.models.bank.eba_application import (
    OUTPUT_VARIABLES,
    bank_observations,
    import_eba_exercises,
    project_real_banks,
)
from aieco.models.bank.eba_extract import TR2024_BANKS
from aieco.models.bank.eba_models import DIRECT_ID, MODEL_ID
from aieco.models.bank.outputs import FIGURES
from aieco.records import ModelOutputPoint, Provenance, RunStatus, ValidationGate
from aieco.store import Store


@pytest.fixture(scope="module")
def real_ws(tmp_path_factory):
    path = tmp_path_factory.mktemp("real") / "ws"
    with Store(path) as store:
        assert import_eba_exercises(store) > 9000
        assert import_eba_exercises(store) == 0  # content-addressed: a second import adds nothing
    return path


@pytest.fixture
def strict_gates(monkeypatch):
    """Gate thresholds no real-data model meets (Spearman 0.99), for the stop path; restored after."""
    from aieco.config import get_settings

    monkeypatch.setenv("AIECO_BANK__SPEARMAN_MIN", "0.99")
    get_settings.cache_clear()
    yield
    monkeypatch.delenv("AIECO_BANK__SPEARMAN_MIN")
    get_settings.cache_clear()


def _copy(real_ws, tmp_path):
    import shutil

    shutil.copytree(real_ws, tmp_path / "ws")
    return tmp_path / "ws"


def test_records_are_real_and_cut_at_the_release_date(real_ws):
    with Store(real_ws) as store:
        all_obs = bank_observations(store)
        assert set(all_obs["exercise"]) == {"ST2016", "ST2021", "TR"}
        assert all_obs["bank_id"].str.len().eq(20).all()  # LEIs
        early = bank_observations(store, AsOf.at(date(2018, 12, 31)))
        assert set(early["exercise"]) == {"ST2016"}
        assert bank_observations(store, AsOf.at(date(2016, 7, 26))).empty  # before the 2016 dictionary's stamp


def test_transparency_values_follow_the_vintage_policy(real_ws):
    """The 2024 transparency values are dated by the lag rule (PROVENANCE.md): strict refuses them,
    approximate admits them from their lag date on, and never before."""
    from aieco.models.bank.eba_extract import transparency_release_date

    release = transparency_release_date()
    with Store(real_ws) as store:
        tr = bank_observations(store).query("exercise == 'TR'")
        assert set(tr["release_rule"]) == {"lag"} and set(tr["release_date"]) == {release}
        assert set(tr["reference_period"]) == {"2023H2"}
        cut = date(2024, 12, 31)
        assert "TR" in set(bank_observations(store, AsOf.at(cut, "approximate"))["exercise"])
        assert set(bank_observations(store, AsOf.at(cut, "strict"))["exercise"]) == {"ST2016", "ST2021"}
        assert "TR" not in set(
            bank_observations(store, AsOf.at(release - timedelta(days=1), "approximate"))["exercise"]
        )
        with pytest.raises(InputError, match="vintage policy 'loose' is not one of"):
            bank_observations(store, AsOf.at(cut, "loose"))


def test_each_bank_starts_from_its_latest_admissible_actuals(real_ws):
    from aieco.models.bank.eba_application import starting_points

    with Store(real_ws) as store:
        tr_banks = set(bank_observations(store).query("exercise == 'TR'")["bank_id"])
        st21 = set(bank_observations(store).query("exercise == 'ST2021'")["bank_id"])
        st16 = set(bank_observations(store).query("exercise == 'ST2016'")["bank_id"])
        approx = {
            (p["exercise"], p["actual_year"]): p["banks"]
            for p in starting_points(bank_observations(store, AsOf.at(date(2024, 12, 31), "approximate")))
        }
        strict = {
            (p["exercise"], p["actual_year"]): p["banks"]
            for p in starting_points(bank_observations(store, AsOf.at(date(2024, 12, 31), "strict")))
        }
    assert approx == {
        ("tr", 2023): len(tr_banks),
        ("st2021", 2020): len(st21 - tr_banks),
        ("st2016", 2015): len(st16 - st21 - tr_banks),
    }
    assert strict == {("st2021", 2020): len(st21), ("st2016", 2015): len(st16 - st21)}


def test_failed_real_gates_stop_the_bank_conclusions_with_their_reasons(real_ws, tmp_path, strict_gates):
    ws = _copy(real_ws, tmp_path)
    with Store(ws) as store:
        with pytest.raises(StageStopped, match=r"no real-data bank model passed its validation gate.*Spearman") as e:
            project_real_banks(store, "a-real", as_of=AsOf.at(date(2024, 12, 31)), seed=0, draws=50)
        assert MODEL_ID in e.value.reason and DIRECT_ID in e.value.reason
        for m in (MODEL_ID, DIRECT_ID):  # a gate per model
            gates = store.find(ValidationGate, model_id=m)
            assert len(gates) == 1 and not gates[0].passed
            assert gates[0].fit_provenance == gates[0].validation_provenance == Provenance.real


def test_the_direct_depletion_model_passes_its_real_gate_and_supplies_the_run(real_ws, tmp_path):
    """With the unchanged thresholds the component model fails (Spearman) and the direct model passes
    its chronological gate (fit 2016, validated 2021): the run is the direct model's."""
    ws = _copy(real_ws, tmp_path)
    with Store(ws) as store:
        run = project_real_banks(store, "a-direct", as_of=AsOf.at(date(2024, 12, 31)), seed=0, draws=50)
        assert run.status == RunStatus.completed and run.model_id == DIRECT_ID
        [comp] = store.find(ValidationGate, model_id=MODEL_ID)
        [direct] = store.find(ValidationGate, model_id=DIRECT_ID)
        assert not comp.passed and direct.passed and "fit on st2016" in direct.detail
        table = store.get_tables(run.output_digest)["depletion"]
        assert (table["lower"] <= table["predicted"]).all() and (table["predicted"] <= table["upper"]).all()
        assert run.diagnostics["interval"].startswith("5-95 % from the training residuals")


def test_one_exercise_before_the_cutoff_cannot_be_validated(real_ws, tmp_path):
    ws = _copy(real_ws, tmp_path)
    with Store(ws) as store:
        with pytest.raises(StageStopped, match="no validation gate yet"):
            project_real_banks(store, "a-2018", as_of=AsOf.at(date(2018, 12, 31)), seed=0, draws=50)


def test_synthetic_gate_does_not_authorise_real_banks(real_ws, tmp_path, strict_gates):
    ws = _copy(real_ws, tmp_path)
    with Store(ws) as store:
        store.put(
            ValidationGate.create(
                model_id=MODEL_ID,
                metrics={"mae": 0.1},
                thresholds={},
                passed=True,
                detail="synthetic",
                fit_provenance=Provenance.synthetic,
                validation_provenance=Provenance.synthetic,
            )
        )
        with pytest.raises(StageStopped, match="no real-data bank model passed"):
            project_real_banks(store, "a-syn", as_of=AsOf.at(date(2024, 12, 31)), seed=0, draws=50)


def test_passed_real_gate_gives_cross_bank_output_points(real_ws, tmp_path):
    """The outputs the report's bank section cites, checked against the run's own per-bank table."""
    ws = _copy(real_ws, tmp_path)
    with Store(ws) as store:
        # stands for a real-data gate that passed (the shipped model's gate does not)
        store.put(
            ValidationGate.create(
                model_id=MODEL_ID,
                metrics={"mae": 1.0},
                thresholds={},
                passed=True,
                detail="test",
                fit_provenance=Provenance.real,
                validation_provenance=Provenance.real,
            )
        )
        run = project_real_banks(store, "a-ok", as_of=AsOf.at(date(2024, 12, 31)), seed=0, draws=100)
        assert run.status == RunStatus.completed and run.diagnostics["provenance"] == "real"
        points = {
            (p.variable, p.statistic): p for p in store.find(ModelOutputPoint, run_id=run.run_id) if p.entity is None
        }
        assert set(points) == {(f.variable, f.statistic) for f in FIGURES}
        assert set(OUTPUT_VARIABLES) == {f.variable for f in FIGURES}
        table = store.get_tables(run.output_digest)["depletion"]
        d = table["predicted"].to_numpy(float)
        assert points["cet1_depletion", "cross_bank_p50"].value == pytest.approx(np.median(d))
        assert points["cet1_depletion", "cross_bank_p05"].value == pytest.approx(np.percentile(d, 5))
        assert points["cet1_depletion", "cross_bank_p95"].value == pytest.approx(np.percentile(d, 95))
        assert points["cet1_threshold", "value"].value == 7.0
        below = int(((table["start_ratio"] - table["predicted"]) < 7.0).sum())
        assert points["banks_below_cet1_threshold", "value"].value == below
        assert points["banks_projected", "value"].value == len(table) == table.index.nunique()
        # each bank starts from its latest admissible real actuals (default policy: approximate):
        # the six banks of the 2024 transparency extract at 2023, the other banks of the 2021
        # stress test at 2020, banks only in the 2016 stress test at 2015
        tr_banks = set(bank_observations(store).query("exercise == 'TR'")["bank_id"])
        assert set(table["start_year"]) == {2015, 2020, 2023}
        assert set(table.index[table["start_year"] == 2023]) == tr_banks
        assert set(table.loc[table["start_year"] == 2023, "start_exercise"]) == {"tr"}
        assert (table.loc[table["start_year"] == 2020].shape[0]) == 50 - len(
            tr_banks & set(bank_observations(store).query("exercise == 'ST2021'")["bank_id"])
        )
        assert run.diagnostics["fit_exercises"] == ["st2016", "st2021"]
        assert {p["exercise"] for p in run.diagnostics["starting_points"]} == {"tr", "st2021", "st2016"}


def test_bank_page_caption_states_provenance_and_gate(real_ws, tmp_path):
    from dashboard import runs_views

    ws = _copy(real_ws, tmp_path)
    with Store(ws) as store:
        store.put(
            ValidationGate.create(
                model_id=MODEL_ID,
                metrics={"mae": 1.0},
                thresholds={},
                passed=True,
                detail="test",
                fit_provenance=Provenance.real,
                validation_provenance=Provenance.real,
            )
        )
        run = project_real_banks(store, "a-cap", as_of=AsOf.at(date(2024, 12, 31)), seed=0, draws=20)
        caption = runs_views.bank_run_caption(store, run.run_id)
        assert caption.startswith("Data provenance: real ·") and "gate passed (fit real, validation real)" in caption
        assert "SYNTHETIC" not in caption
        frame = runs_views.validation_frame(store)
        assert set(frame["fit_provenance"]) == {"real"}


def test_real_bank_conclusions_record_the_result_and_the_starting_points(real_ws, tmp_path):
    from aieco.models.bank.eba_application import real_bank_conclusions

    with Store(tmp_path / "empty") as store:
        assert real_bank_conclusions(store, "a", as_of=AsOf.at(date(2024, 12, 31)), seed=0) is None  # no real bank data
    ws = _copy(real_ws, tmp_path)
    with Store(ws) as store:
        out = real_bank_conclusions(store, "a", as_of=AsOf.at(date(2016, 1, 1)), seed=0)
        assert out["status"] == "stopped" and "no real bank data released by the cutoff" in out["reason"]
        out = real_bank_conclusions(store, "a", as_of=AsOf.at(date(2024, 12, 31), "approximate"), seed=0)
        # the scenario-conditional model supplies the conclusions (tests/test_bank_scenario.py); either way the
        # record says where each bank in scope starts, and which exercises the cutoff and policy refused
        assert out["model_id"] == "bank_eba_scenario"
        assert out["starting_points"] == [
            {"exercise": "tr", "actual_year": 2023, "banks": len(TR2024_BANKS), "kind": "transparency"}
        ]
        assert out["refused_exercises"] == []
        out = real_bank_conclusions(store, "a", as_of=AsOf.at(date(2024, 12, 31), "strict"), seed=0)
        # strict refuses the transparency values; the stress tests' actuals (2020, 2015) are older than the limit
        assert out["refused_exercises"] == ["TR"] and out["starting_points"] == []
        assert out["scope"]["banks_in_scope"] == 0 and all(
            "years before the cutoff" in r["reason"] for r in out["scope"]["left_out"]
        )


def test_real_bank_conclusions_record_the_stop_with_the_starting_points(real_ws, tmp_path, strict_gates):
    from aieco.models.bank.eba_application import real_bank_conclusions

    ws = _copy(real_ws, tmp_path)
    with Store(ws) as store:
        out = real_bank_conclusions(store, "a", as_of=AsOf.at(date(2024, 12, 31), "approximate"), seed=0)
    assert out["status"] == "stopped" and "Spearman" in out["reason"] and out["model_id"] == "bank_eba_scenario"
    assert out["starting_points"][0]["kind"] == "transparency"


def test_analysis_on_a_real_workspace_never_touches_the_demo_bank_panel(real_ws, tmp_path, monkeypatch):
    """The application stage on a workspace holding only real EBA banks: every demo loader raises if called."""
    import aieco.demo
    import aieco.demo.bank as demo_bank
    from aieco.analysis.inputs import ProgramInputs
    from aieco.analysis.outputs import ExecutionOutput
    from aieco.analysis.runner import Stage, run_stages
    from aieco.analysis.stages import application
    from aieco.records import ModelRun, StageRecord
    from tests.test_analysis_stages import REQUEST, _executed, _macro_run

    def forbidden(*args, **kwargs):
        raise AssertionError("the demo bank data were read on a non-demo workspace")

    for name in ("load_demo_panel", "load_demo_macro", "load_demo_official", "load_demo_adverse", "demo_bank_records"):
        monkeypatch.setattr(demo_bank, name, forbidden)
    monkeypatch.setattr(aieco.demo, "load_bank_data", forbidden)
    ws = _copy(real_ws, tmp_path)
    with Store(ws) as store:
        run = _macro_run(store)
        inputs = ProgramInputs(request=REQUEST, repetition=1, risk="r", shared={})
        stages = [
            Stage("r/execution", lambda ctx: _executed(run), ExecutionOutput),
            Stage("r/application", application),
        ]
        out = run_stages(store, "an", stages, inputs)
        assert out.status != "stopped", out.reason
        rec = store.find(StageRecord, analysis_id="an", stage="r/application")[0]
        output = store.get_json(rec.output_digest)
        real = output["real_banks"]
        assert "FE-OLS/FE-QAR not run" in output["fe_models"] and "no bank panel" in output["fe_models"]
        # the scenario-conditional real model decides (its gate fails on the two exercises: a recorded stop)
        assert real["model_id"] == "bank_eba_scenario" and real["status"] == "stopped"
        assert not store.find(ModelRun, model_id=["bank_feols", "bank_feqar", "bank_feols_fit", "bank_feqar_fit"])
