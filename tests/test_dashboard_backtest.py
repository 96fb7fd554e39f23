"""The Evaluation page's track record (issue 33) under Streamlit's AppTest."""

from __future__ import annotations

from datetime import date

from test_dashboard_apptest import open_page, use_workspace  # noqa: F401  (fixture)

from aieco.evaluation.backtest import BacktestConfig, run_backtest
from aieco.sources.series import observations_frame
from aieco.sources.series.pack import pack_observations
from aieco.store import Store


def test_evaluation_page_shows_the_backtest_scores_chart_and_stops(tmp_path, use_workspace):  # noqa: F811
    obs = observations_frame(pack_observations())
    cfg = BacktestConfig(vintage_policy="approximate", lags=2, sample_start="2000Q1", min_obs=60, draws=300, seed=3)
    cutoffs = [date(2013, 12, 31), date(2016, 12, 31), date(2019, 12, 31)]
    with Store(tmp_path / "ws") as store:
        res = run_backtest(store, obs, obs, cutoffs, cfg, official_note="official projections: none in this test")
    use_workspace(tmp_path / "ws")
    at = open_page("Evaluation")
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any(s.value.startswith("Track record") for s in at.subheader)
    assert len(at.get("plotly_chart")) == 2  # RMSE by horizon, forecasts against the outcome
    frames = [df.value for df in at.dataframe]
    scores = next(f for f in frames if "rmse" in f.columns)
    assert set(scores["method"]) == set(res.scores["method"])
    cutoffs_shown = next(f for f in frames if "reason" in f.columns)
    stop = cutoffs_shown[cutoffs_shown["cutoff"] == "2013-12-31"].iloc[0]
    assert stop["status"] == "stopped" and "real_gdp" in stop["reason"]  # a stop is shown with its reason
    assert any("stopped" in w.value for w in at.warning)


def test_evaluation_page_shows_the_adverse_track_record_and_its_stops(tmp_path, use_workspace):  # noqa: F811
    """A backtest with adverse paths (here a fixture frame in the shape of adverse_at_cutoffs, values invented
    for the page test): the chart, the scores and every risk's stop with its reason."""
    import pandas as pd

    from aieco.analysis.track_record import COLUMNS

    obs = observations_frame(pack_observations())
    cfg = BacktestConfig(vintage_policy="approximate", lags=2, sample_start="2000Q1", min_obs=60, draws=300, seed=3)
    head = {"cutoff": "2019-06-30", "risk": "trade_fragmentation", "analysis_id": "an_fixture", "status": "completed",
            "stage": "", "reason": "", "run_id": "run_fixture"}  # fmt: skip
    rows = [head | {"variable": v, "target_year": y, "adverse": -1.0 + i, "baseline": 1.0 + i}
            for i, v in enumerate(("real_gdp", "inflation", "unemployment")) for y in (2020, 2021, 2022)]  # fmt: skip
    rows.append({"cutoff": "2019-06-30", "risk": "property_correction", "analysis_id": "an_fixture",
                 "status": "stopped", "stage": "graph_search", "reason": "no admissible path (fixture)",
                 "run_id": None, "variable": None, "target_year": None, "adverse": None, "baseline": None})  # fmt: skip
    with Store(tmp_path / "ws") as store:
        run_backtest(store, obs, obs, [date(2019, 6, 30)], cfg, adverse=pd.DataFrame(rows, columns=COLUMNS))
    use_workspace(tmp_path / "ws")
    at = open_page("Evaluation")
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any(s.value.startswith("Each risk's adverse path") for s in at.subheader)
    frames = [df.value for df in at.dataframe]
    scores = next(f for f in frames if "beyond_share" in f.columns)
    assert set(scores["risk"]) == {"trade_fragmentation"}
    programs = next(f for f in frames if "analysis_id" in f.columns and "stage" in f.columns)
    stop = programs[programs["risk"] == "property_correction"].iloc[0]
    assert stop["stage"] == "graph_search" and "fixture" in stop["reason"]
    assert any("1 of 2 risk analyses stopped" in w.value for w in at.warning)
    assert len(at.get("plotly_chart")) == 3  # RMSE, forecasts against the outcome, the adverse paths
