"""Bank capital page: the CET1 depletion of every bank against the threshold, with provenance and gate
beside it and a CSV of exactly the figures the report's bank paragraph cites."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from dashboard_demo import demo_workspace

from aieco.asof import AsOf
from aieco.config import get_settings
from aieco.models.bank import outputs as bank_outputs
from aieco.records import ModelRun
from aieco.store import Store

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return demo_workspace(tmp_path_factory)


def test_depletion_across_banks_matches_the_runs_cross_bank_figures(demo):
    from dashboard.bank_views import depletion_across_banks, depletion_chart

    with Store(demo) as store:
        runs = [r for r in store.find(ModelRun, model_id="bank_feqar") if r.role == "generation"]
        assert runs
        for run in runs:
            frame = depletion_across_banks(store, run.run_id)
            cross = store.get_tables(run.output_digest)[bank_outputs.TABLE].loc[bank_outputs.ROW]
            assert len(frame) == cross["banks"] == run.diagnostics["banks"]
            assert np.median(frame["depletion_pp"]) == pytest.approx(cross["depletion_p50"])
            assert np.percentile(frame["depletion_pp"], 95) == pytest.approx(cross["depletion_p95"])
            assert int(frame["below_threshold"].sum()) == cross["banks_below"]
            assert set(frame["threshold_pct"]) == {7.0} and set(frame["provenance"]) == {"synthetic"}
            # by hand for one bank: minimum ratio = start − depletion, headroom = start − threshold
            row = frame.iloc[0]
            assert row["min_ratio_pct"] == pytest.approx(row["start_ratio_pct"] - row["depletion_pp"])
            assert row["headroom_pp"] == pytest.approx(row["start_ratio_pct"] - 7.0)
            assert list(frame["depletion_pp"]) == sorted(frame["depletion_pp"], reverse=True)
            fig = depletion_chart(frame)
            names = [t.name for t in fig.data]
            assert any("headroom above the 7.0 % CET1 threshold" in n for n in names)
            assert any(n.startswith("median across banks") for n in names)
            assert "SYNTHETIC banks" in fig.layout.title.text and fig.layout.yaxis.title.text.endswith("(pp)")
            bars = fig.data[0]
            assert list(bars.y) == list(frame["depletion_pp"])


def test_a_run_without_per_bank_depletion_gives_an_empty_frame_and_a_titled_chart(demo):
    from dashboard.bank_views import depletion_across_banks, depletion_chart

    with Store(demo) as store:
        macro = store.find(ModelRun, model_id="macro_var")[0]
        frame = depletion_across_banks(store, macro.run_id)
    assert frame.empty
    assert "no per-bank depletion" in depletion_chart(frame).layout.title.text


def test_bank_capital_page_shows_the_depletion_chart_table_and_csv(demo, monkeypatch):
    from streamlit.testing.v1 import AppTest

    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setenv("AIECO_WORKSPACE", str(demo))
    monkeypatch.setenv("AIECO_DASHBOARD__BUILD_DEMO_ON_FIRST_LAUNCH", "false")
    get_settings.cache_clear()
    try:
        from dashboard.navigation import PAGES

        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.run()
        path = next(p.path for p in PAGES if p.title == "Bank capital")
        at.switch_page(path).run()
        assert not at.exception, [e.value for e in at.exception]
        assert "CET1 depletion across banks" in [s.value for s in at.subheader]
        assert len(at.get("plotly_chart")) >= 3
        captions = [c.value for c in at.caption]
        assert sum("SYNTHETIC banks" in c and "gate passed" in c for c in captions) >= 3  # beside every chart
        # the demo's models take the generated macro path: no 'not a scenario outcome' statement
        assert not any("not an outcome" in w.value for w in at.warning)
        assert not any("not an outcome" in c for c in captions)
        at.session_state["bank_across_section"] = True  # the table of every bank opens on demand
        at.run()
        csv = [b for b in at.get("download_button") if "bank_across_table" in str(b.proto.id)]
        assert csv
    finally:
        get_settings.cache_clear()


def test_banks_are_named_from_the_runs_own_panel_with_the_id_in_the_details(demo):
    from dashboard.bank_views import bank_names, depletion_across_banks, depletion_chart, depletion_table

    with Store(demo) as store:
        run = next(r for r in store.find(ModelRun, model_id="bank_feqar") if r.role == "generation")
        names = bank_names(store, run.run_id)
        frame = depletion_across_banks(store, run.run_id)
    # the fit's panel marks its banks synthetic (data_status): each is called so, its id beside
    assert names["DE01"] == "Synthetic bank DE01"
    assert (frame["bank_name"] == "Synthetic bank " + frame["bank"]).all()
    assert list(depletion_chart(frame).data[0].x) == list(frame["bank_name"])
    shown = depletion_table(frame)
    assert list(shown.columns)[0] == "bank"
    assert list(shown.columns)[-3:] == ["bank_id (LEI or id)", "model_id", "run_id"]
    assert list(shown["bank"]) == list(frame["bank_name"])


def test_real_banks_are_named_from_the_packaged_eba_files():
    from dashboard.bank_views import packaged_bank_names, unique_bank_labels

    names = packaged_bank_names()
    # eba_data/st2016 and st2021 list Erste Group Bank AG under this LEI
    assert names["PQOH26KWDF7CG10L6792"] == "Erste Group Bank AG"
    assert all(len(lei) == 20 for lei in names)
    # two banks of one name keep apart by their id; a bank without a name shows its id
    assert unique_bank_labels({"A": "Same", "B": "Same"}, ["A", "B", "C"]) == {
        "A": "Same (A)",
        "B": "Same (B)",
        "C": "C",
    }


# --------------------------------------------------------------------------- a model that takes no macro path


@pytest.fixture(scope="module")
def real_run(tmp_path_factory):
    """A workspace with the real EBA records and the real-data bank run (the direct depletion model,
    which passes its real-data gate and takes no macro path)."""
    from datetime import date

    from aieco.models.bank.eba_application import import_eba_exercises, project_real_banks

    path = tmp_path_factory.mktemp("real_bank") / "ws"
    with Store(path) as store:
        import_eba_exercises(store)
        run = project_real_banks(store, "an-real", as_of=AsOf.at(date(2024, 12, 31)), seed=0, draws=50)
    assert run.model_id == "bank_eba_depletion"
    return path, run.run_id


NOT_SCENARIO = "not an outcome of this analysis's scenario"


def test_a_run_without_a_macro_path_says_so_wherever_its_figures_appear(real_run):
    from dashboard import runs_views
    from dashboard.bank_views import depletion_across_banks, depletion_chart, depletion_table

    path, run_id = real_run
    with Store(path) as store:
        note = runs_views.scenario_note(store, run_id)
        label = runs_views.run_labels(store)[run_id]
        caption = runs_views.bank_run_caption(store, run_id)
        spread = runs_views.quantile_ranges_of_run(store, run_id, "cet1_depletion")
        frame = depletion_across_banks(store, run_id)
    assert NOT_SCENARIO in note and "EBA-style adverse exercise" in note
    assert "passed real-data validation gate" in note and "docs/bank-validation.md" in note
    assert label.endswith("· not scenario-conditional")
    assert NOT_SCENARIO in caption and "gate passed (fit real, validation real)" in caption
    assert NOT_SCENARIO in spread.layout.title.text
    assert NOT_SCENARIO in depletion_chart(frame).layout.title.text
    assert set(depletion_table(frame)["what"]) == {bank_outputs.NOT_SCENARIO_NOTE}  # in the CSV too


def test_a_run_without_a_time_path_gives_no_empty_chart_but_its_figures(real_run):
    """The run stores one depletion per bank over the whole horizon: no period to draw, so the page
    shows the bank's stored figures (point and 5–95 % bounds) with the bank's own horizon."""
    from aieco.records import ModelOutputPoint
    from dashboard import runs_views

    path, run_id = real_run
    with Store(path) as store:
        points = runs_views.points_frame(store, run_id)
        bank = runs_views.entities(points)[0]
        assert runs_views.path_periods(points, "cet1_depletion", bank) == []
        figures = runs_views.bank_figures(store, run_id, bank, "cet1_depletion")
        stored = {p.statistic: p.value for p in store.find(ModelOutputPoint, run_id=run_id, entity=bank)}
        start = int(store.get_tables(store.get(ModelRun, run_id).output_digest)["depletion"].loc[bank, "start_year"])
    assert list(figures["figure"]) == ["predicted (point)", "5 % bound", "95 % bound"]
    assert list(figures["value"]) == [round(stored[s], 3) for s in ("point", "p05", "p95")]
    assert set(figures["horizon"]) == {f"{start + 1}-{start + 3} (from the {start} year-end)"}
    assert set(figures["provenance"]) == {"real"} and set(figures["bank_id (LEI or id)"]) == {bank}


def test_the_spread_of_a_mixed_start_run_names_its_starting_points_and_marks_the_point(real_run):
    from dashboard import runs_views

    path, run_id = real_run
    with Store(path) as store:
        fig = runs_views.quantile_ranges_of_run(store, run_id, "cet1_depletion")
        points = runs_views.points_frame(store, run_id)
        names = runs_views.bank_labels_of_run(store, run_id)
    title = fig.layout.title.text
    assert "starting points 2015–2023 year-ends" in title and "2016-2026" not in title
    assert "point and range by bank" in title
    point = points[points["statistic"] == "point"].set_index("entity")["value"]
    by_name = {names[b]: v for b, v in point.items()}
    # the marker is each bank's predicted point (not its 5 % bound), sorted by it
    assert fig.data[0].name == "predicted (point)"
    assert list(fig.data[0].y) == [by_name[x] for x in fig.data[0].x]
    assert list(fig.data[0].y) == sorted(fig.data[0].y)


def test_every_real_bank_of_the_run_is_named_with_its_lei_in_the_details(real_run):
    from dashboard.bank_views import depletion_across_banks, depletion_table

    path, run_id = real_run
    with Store(path) as store:
        frame = depletion_across_banks(store, run_id)
    assert not (frame["bank_name"] == frame["bank"]).any()  # no LEI where a name belongs
    # transparency-only banks: named from the extract's source/dim_bank.csv
    named = dict(zip(frame["bank"], frame["bank_name"], strict=True))
    assert named["529900JG015JC10LED24"] == "AS LHV Group"
    assert named["213800HDJ876ACJXXD05"] == "AIKGROUP (CY) LIMITED"
    assert "bank_id (LEI or id)" in depletion_table(frame).columns


def test_bank_capital_page_on_a_no_macro_path_run_states_it_and_draws_no_empty_chart(real_run, monkeypatch):
    from streamlit.testing.v1 import AppTest

    path, run_id = real_run
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setenv("AIECO_WORKSPACE", str(path))
    monkeypatch.setenv("AIECO_DASHBOARD__BUILD_DEMO_ON_FIRST_LAUNCH", "false")
    get_settings.cache_clear()
    try:
        from dashboard.navigation import PAGES

        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        at.run()
        at.switch_page(next(p.path for p in PAGES if p.title == "Bank capital")).run()
        assert not at.exception, [e.value for e in at.exception]
        assert any(NOT_SCENARIO in w.value for w in at.warning)
        picker = next(s for s in at.selectbox if s.label == "Projection run")
        assert picker.value == run_id and "not scenario-conditional" in picker.format_func(run_id)
        # the spread and the across-banks chart; no per-bank path chart (its figures are a table)
        assert len(at.get("plotly_chart")) == 2
        assert any("bank_figures" in str(d.proto.id) for d in at.get("download_button"))
        assert sum(NOT_SCENARIO in c.value for c in at.caption) >= 3  # beside every chart and table
    finally:
        get_settings.cache_clear()
