"""Backtest at historical cutoffs: vintage discipline, scores, stops, records and executors."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from aieco.errors import InputError
from aieco.evaluation.backtest import (
    MODEL_ID,
    SCORES_MODEL_ID,
    BacktestConfig,
    annual_history,
    backtest_runs,
    cutoff_dates,
    forecast_at_cutoff,
    load_backtest,
    official_forecasts,
    run_backtest,
    score,
)
from aieco.models.realdata import model_levels
from aieco.models.var import VARIABLES, last_observed_annual
from aieco.records import ModelRun, RunStatus
from aieco.sources.series import observations_frame
from aieco.sources.series.pack import pack_observations
from aieco.store import Store

FIXTURE = Path(__file__).parent / "fixtures" / "official_projections_FIXTURE.csv"  # invented values


@pytest.fixture(scope="module")
def observations() -> pd.DataFrame:
    return observations_frame(pack_observations())


def cfg(**kw) -> BacktestConfig:
    values = dict(vintage_policy="approximate", lags=2, sample_start="2000Q1", min_obs=60, draws=300, seed=7)
    return BacktestConfig(**(values | kw))


def test_cutoff_ranges_by_year_and_quarter():
    assert cutoff_dates("2012-12-31..2015-12-31") == [date(y, 12, 31) for y in range(2012, 2016)]
    assert cutoff_dates("2020-02-15..2020-12-31", "quarter") == [
        date(2020, 3, 31),
        date(2020, 6, 30),
        date(2020, 9, 30),
        date(2020, 12, 31),
    ]
    for bad in ("2012..2013", "2013-12-31..2012-12-31", "2012-02-30..2013-01-01"):
        with pytest.raises(InputError) as err:
            cutoff_dates(bad)
        assert "--cutoffs" in str(err.value)


def test_scores_by_hand():
    forecasts = pd.DataFrame(
        {
            "cutoff": [date(2015, 12, 31), date(2016, 12, 31), date(2015, 12, 31), date(2016, 12, 31)],
            "method": ["m", "m", "m", "m"],
            "variable": ["real_gdp"] * 4,
            "target_year": [2016, 2017, 2017, 2018],
            "forecast": [1.0, 3.0, 2.0, 5.0],
        }
    )
    outcomes = pd.DataFrame({"real_gdp": [2.0, 1.0]}, index=[2016, 2017])  # 2018 not yet published
    errors, scores = score(forecasts, outcomes)
    assert list(errors["error"]) == [-1.0, 2.0, 1.0]  # h=1: 1-2, 3-1; h=2: 2-1; 2018 has no outcome
    h1 = scores[scores["horizon"] == 1].iloc[0]
    assert h1["n"] == 2 and h1["rmse"] == pytest.approx(np.sqrt((1 + 4) / 2)) and h1["mean_error"] == 0.5
    h2 = scores[scores["horizon"] == 2].iloc[0]
    assert h2["n"] == 1 and h2["rmse"] == 1.0


def test_annual_history_agrees_with_the_models_last_observed_year(observations):
    levels = model_levels(observations, date(2019, 12, 31), VARIABLES, "approximate").levels
    history = annual_history(levels)
    _, last = last_observed_annual(levels)
    for v, value in last.items():
        assert history[v].dropna().iloc[-1] == pytest.approx(value)


def test_a_cutoff_before_the_first_gdp_vintage_stops_with_its_reason(observations):
    f = forecast_at_cutoff(observations, (date(2012, 12, 31), cfg()))
    assert f.status is RunStatus.stopped and f.stage == "inputs"
    assert "real_gdp" in f.reason and not f.baseline


def test_too_short_a_sample_stops_at_estimation_and_keeps_the_naive_benchmarks(observations):
    f = forecast_at_cutoff(observations, (date(2016, 12, 31), cfg(min_obs=80)))
    assert f.status is RunStatus.stopped and f.stage == "estimation" and "at least 80" in f.reason
    assert set(f.random_walk) == {"real_gdp", "inflation", "unemployment"} and not f.baseline


def test_nothing_released_after_the_cutoff_changes_the_forecast(observations):
    cutoff = date(2018, 12, 31)
    later = pd.to_datetime(observations["release_date"]).dt.date > cutoff
    assert later.any()
    altered = observations.copy()
    altered.loc[later, "value"] = altered.loc[later, "value"] * 3.0
    a = forecast_at_cutoff(observations, (cutoff, cfg()))
    b = forecast_at_cutoff(altered, (cutoff, cfg()))
    assert a.baseline and a.model_dump() == b.model_dump()
    assert a.years == [2019, 2020, 2021]


def fixture_projections() -> list[SimpleNamespace]:
    """The FIXTURE rows as records with the fields of aieco.sources.official.OfficialProjection."""
    frame = pd.read_csv(FIXTURE)
    return [
        SimpleNamespace(**(r | {"publication_date": date.fromisoformat(r["publication_date"])}))
        for r in frame.to_dict(orient="records")
    ]


def fixture_latest_round(projections, cutoff: date, publisher: str):
    """Test stand-in for aieco.sources.official.latest_round (same contract: the latest round by cutoff, or None)."""
    mine = [p for p in projections if p.publisher == publisher and p.publication_date <= cutoff]
    if not mine:
        return None
    last = max(p.publication_date for p in mine)
    return SimpleNamespace(projections=[p for p in mine if p.publication_date == last])


def test_official_forecasts_come_from_the_latest_round_published_by_the_cutoff():
    got = official_forecasts(
        fixture_projections(), [date(2019, 12, 31), date(2020, 12, 31), date(2018, 12, 31)], fixture_latest_round
    )
    at_2019 = got[got["cutoff"] == date(2019, 12, 31)]
    assert sorted(zip(at_2019["variable"], at_2019["target_year"], at_2019["forecast"], strict=True)) == [
        ("inflation", 2020, 1.0),
        ("real_gdp", 2020, 1.0),
        ("real_gdp", 2021, 2.0),
    ]
    at_2020 = got[got["cutoff"] == date(2020, 12, 31)]  # the March 2020 round; 2021-2022 are 1-2 years ahead
    assert set(at_2020["round"]) == {"2020-03"} and set(at_2020["target_year"]) == {2021, 2022}
    assert (got["cutoff"] != date(2018, 12, 31)).all()  # nothing was published by then
    assert set(got["method"]) == {"official:FIXTURE"}


def test_backtest_records_and_rerun(tmp_path, observations):
    cutoffs = [date(2013, 12, 31), date(2017, 12, 31), date(2019, 12, 31)]
    officials = official_forecasts(fixture_projections(), cutoffs, fixture_latest_round)
    with Store(tmp_path / "ws") as store:
        res = run_backtest(store, observations, observations, cutoffs, cfg(), officials=officials, official_note="fx")
        counts = store.table_counts()
        again = run_backtest(store, observations, observations, cutoffs, cfg(), officials=officials, official_note="fx")
        assert store.table_counts() == counts  # same content, same ids: nothing new written
        assert [r.run_id for r in again.runs] == [r.run_id for r in res.runs]
        runs = store.find(ModelRun, model_id=MODEL_ID)
        assert len(runs) == 3 and all(r.role == "evaluation" for r in runs)
        stop = next(r for r in runs if r.diagnostics["cutoff"] == "2013-12-31")
        assert stop.status is RunStatus.stopped and stop.reason.startswith("inputs: required vintage missing")
        (summary,) = backtest_runs(store)
        assert summary.model_id == SCORES_MODEL_ID and set(summary.parent_runs) == {r.run_id for r in runs}
        tables = load_backtest(store, summary)
    scores, errors = tables["scores"], tables["errors"]
    assert {"random_walk", "sample_mean", "official:FIXTURE"} <= set(scores["method"])
    assert (errors["error"] == errors["forecast"] - errors["outcome"]).all()
    official = errors[errors["method"] == "official:FIXTURE"]
    assert set(official["url"]) == {"http://127.0.0.1/fixture"} and set(official["publication_date"]) == {"2019-12-12"}
    assert set(tables["cutoffs"]["status"]) <= {"completed", "stopped"} and len(tables["cutoffs"]) == 3


def test_dask_backtest_gives_the_sequential_record_ids(tmp_path, observations):
    pytest.importorskip("distributed")
    from aieco.executors import DaskExecutor

    cutoffs = [date(2015, 12, 31), date(2018, 12, 31), date(2021, 12, 31)]
    with Store(tmp_path / "seq") as seq, Store(tmp_path / "dask") as dist:
        a = run_backtest(seq, observations, observations, cutoffs, cfg())
        with DaskExecutor(workers=2) as ex:
            b = run_backtest(dist, observations, observations, cutoffs, cfg(), executor=ex)
        assert [r.run_id for r in a.runs] == [r.run_id for r in b.runs] and a.summary.run_id == b.summary.run_id
        assert a.scores.equals(b.scores)


def test_cli_backtest_json_and_a_missing_workspace_series(tmp_path):
    from aieco.cli import main

    request = Path(__file__).resolve().parents[1] / "aieco" / "default" / "requests" / "euro_area_2024.toml"
    runner = CliRunner()
    out = runner.invoke(main, ["-w", str(tmp_path / "empty"), "--json", "backtest", str(request),
                               "--cutoffs", "2019-12-31..2020-12-31"])  # fmt: skip
    assert out.exit_code != 0 and "aieco data load-real" in out.output
    assert runner.invoke(main, ["-w", str(tmp_path / "ws"), "data", "load-real"]).exit_code == 0
    out = runner.invoke(main, ["-w", str(tmp_path / "ws"), "--json", "backtest", str(request),
                               "--cutoffs", "2018-12-31..2020-12-31", "--draws", "300", "--min-obs", "60"])  # fmt: skip
    assert out.exit_code == 0, out.output
    import json

    data = json.loads(out.stdout)
    assert [c["cutoff"] for c in data["cutoffs"]] == ["2018-12-31", "2019-12-31", "2020-12-31"]
    assert all(c["status"] in ("completed", "stopped") for c in data["cutoffs"])
    assert {s["method"] for s in data["scores"]} >= {"random_walk", "sample_mean"}
    assert data["official"]  # says where official projections came from, or why there are none


def test_adverse_paths_are_set_against_the_outcomes_by_hand():
    """beyond: the outcome went past the adverse path in the direction the scenario pushes; stops are kept
    with their reason and never scored."""
    from aieco.evaluation.backtest import adverse_scores

    head = {"risk": "r", "analysis_id": "an_x", "status": "completed", "stage": "", "reason": "", "run_id": "run_x"}
    rows = pd.DataFrame(
        [
            head | {"cutoff": "2019-06-30", "variable": "real_gdp", "target_year": 2020, "adverse": -1.0,
                    "baseline": 1.0},
            head | {"cutoff": "2019-06-30", "variable": "real_gdp", "target_year": 2021, "adverse": 0.0,
                    "baseline": 1.5},
            head | {"cutoff": "2020-06-30", "variable": "real_gdp", "target_year": 2021, "adverse": -2.0,
                    "baseline": 2.0},
            head | {"cutoff": "2019-06-30", "variable": "unemployment", "target_year": 2020, "adverse": 9.0,
                    "baseline": 7.0},
            head | {"cutoff": "2019-06-30", "variable": "inflation", "target_year": 2022, "adverse": 3.0,
                    "baseline": 2.0},  # 2022 has no outcome yet
            {"cutoff": "2019-06-30", "risk": "q", "analysis_id": "an_y", "status": "stopped",
             "stage": "graph_search", "reason": "no admissible path", "run_id": None, "variable": None,
             "target_year": None, "adverse": None, "baseline": None},
        ]
    )  # fmt: skip
    outcomes = pd.DataFrame(
        {"real_gdp": [-6.0, 1.0], "unemployment": [8.0, 7.5], "inflation": [0.5, 2.5]}, index=[2020, 2021]
    )
    table, scores = adverse_scores(rows, outcomes)
    assert list(table["beyond"]) == [True, False, False, False, None, None]
    assert list(table["deviation"].round(2).iloc[:4]) == [-2.0, -1.5, -4.0, 2.0]
    assert table.iloc[5]["reason"] == "no admissible path"  # the stop stays, with its reason
    gdp1 = scores[(scores["variable"] == "real_gdp") & (scores["horizon"] == 1)].iloc[0]
    assert gdp1["n"] == 2 and gdp1["beyond_share"] == 0.5  # 2020 fell past the adverse; 2021 did not
    assert gdp1["mean_deviation"] == pytest.approx(-3.0) and gdp1["mean_outcome_gap"] == pytest.approx(-4.0)
    assert set(scores["risk"]) == {"r"} and "inflation" not in set(scores["variable"])


def test_adverse_backtest_runs_the_request_at_each_cutoff_on_the_real_workspace(default_run, workspace_copy):
    """--adverse: each cutoff is analysed as the request would have been then; trade fragmentation has a path
    from the ESRB 2018 text on, the other risks stop with their stage and reason, and every path row is the
    stored run's own table."""
    import json

    from aieco.cli import main
    from aieco.records import ModelRun
    from aieco.store import Store

    ws = workspace_copy(default_run[0], "adverse")
    request = Path(__file__).resolve().parents[1] / "aieco" / "default" / "requests" / "euro_area_2024.toml"
    args = ["-w", str(ws), "--json", "backtest", str(request), "--cutoffs", "2017-06-30..2019-06-30",
            "--draws", "300", "--min-obs", "60", "--adverse"]  # fmt: skip
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    by = {(a["cutoff"], a["risk"]): a for a in data["adverse"]}
    assert len(by) == 3 * 3
    early = by[("2017-06-30", "trade_fragmentation")]
    assert early["status"] == "stopped" and "no eligible source location" in early["reason"]  # nothing published yet
    tf = by[("2019-06-30", "trade_fragmentation")]
    assert tf["status"] == "completed" and tf["run_id"].startswith("run_")
    assert by[("2019-06-30", "property_correction")]["stage"] == "graph_search"
    with Store(ws) as store:
        run = store.get(ModelRun, tf["run_id"])
        assert run.model_id == "macro_var" and run.diagnostics["cutoff"] == "2019-06-30"
        from aieco.evaluation.backtest import backtest_runs, load_backtest

        summary = backtest_runs(store)[0]
        tables = load_backtest(store, summary)
        path = store.get_tables(run.output_digest)["selected_path"]
        row = tables["adverse"].query(
            "risk == 'trade_fragmentation' and variable == 'real_gdp' and target_year == 2020"
        )
        assert float(row["adverse"].iloc[0]) == pytest.approx(
            float(path.loc[path.index.astype(str) == "2020", "real_gdp"].iloc[0])
        )
        assert tf["run_id"] in summary.parent_runs
        # the analyst's own analysis stays the one the dashboard opens on; the backtest's come after it
        from dashboard.shared import analysis_labels

        labels = analysis_labels(store)
        assert next(iter(labels)) == default_run[2].analysis_id
        assert all("(backtest at " in labels[a["analysis_id"]] for a in data["adverse"])
    scores = {(s["risk"], s["variable"], s["horizon"]) for s in data["adverse_scores"]}
    assert ("trade_fragmentation", "real_gdp", 1) in scores  # 2020 has an outcome
    # a rerun resumes the same analyses: the same ids
    again = json.loads(CliRunner().invoke(main, args).stdout)
    assert [a["analysis_id"] for a in again["adverse"]] == [a["analysis_id"] for a in data["adverse"]]
