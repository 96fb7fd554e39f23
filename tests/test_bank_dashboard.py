"""Bank capital page: the CET1 depletion of every bank against the threshold, with provenance and gate
beside it and a CSV of exactly the figures the report's bank paragraph cites."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from dashboard_demo import demo_workspace

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
