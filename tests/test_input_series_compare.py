"""The Data page's and the Compare view's library reads: each input value marked by the cutoff rule, the
official rounds known at the cutoff, and scenarios side by side read from the runs' stored tables."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from dashboard_demo import demo_workspace

from aieco.analysis.compare import headline_table, paths_long, request_differences, scenario_runs
from aieco.analysis.input_series import input_series, official_outlook
from aieco.errors import InputError
from aieco.records import Analysis, ModelRun, ObservedValue, ReleaseRule
from aieco.sources.official import latest_round, load_official, read_projections
from aieco.store import Store

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def _analysis(store: Store, cutoff: str, **request) -> str:
    an = Analysis.create(request={"cutoff": cutoff, "title": "t", **request}, label="t", created_at=T0)
    store.put(an)
    return an.analysis_id


def _value(period: str, value: float, released: str | None, rule: str = "vintage", vintage: str | None = None):
    return ObservedValue.create(
        variable="real_gdp",
        value=value,
        unit="EUR mn",
        frequency="Q",
        jurisdiction="EA",
        reference_period=period,
        release_date=date.fromisoformat(released) if released else None,
        vintage=vintage or released,
        series_key="GDP",
        release_rule=ReleaseRule(rule),
    )


def test_each_input_value_is_marked_by_the_cutoff_rule_of_its_analysis(store):
    store.put_many(
        [
            _value("2024Q1", 100.0, "2024-05-15"),  # first release: replaced by the August vintage
            _value("2024Q1", 101.0, "2024-08-15"),  # latest release by the cutoff: used
            _value("2024Q1", 102.0, "2025-02-15"),  # a revision after the cutoff: never used
            _value("2024Q2", 103.0, "2024-09-01", rule="lag"),  # a lag date: not allowed under strict
            _value("2024Q3", 104.0, "2024-09-15"),  # released before its quarter ended: never usable
        ]
    )
    strict = input_series(store, _analysis(store, "2024-12-31"))
    assert strict.cutoff == date(2024, 12, 31) and strict.vintage_policy == "strict" and strict.run_id is None
    status = {(r.reference_period, r.value): r.status for r in strict.observations.itertuples()}
    assert status == {
        ("2024Q1", 100.0): "earlier vintage",
        ("2024Q1", 101.0): "used",
        ("2024Q1", 102.0): "after cutoff",
        ("2024Q2", 103.0): "policy",
        ("2024Q3", 104.0): "no release date",
    }
    [series] = strict.series.to_dict("records")
    assert (series["used"], series["last_used"], series["released_after_cutoff"]) == (1, "2024Q1", 1)
    assert series["last_release_used"] == date(2024, 8, 15) and series["vintages"] == 5
    # the same values under the approximate policy: the lag date makes 2024Q2 usable
    loose = input_series(store, _analysis(store, "2024-12-31", vintage_policy="approximate"))
    assert loose.observations.set_index("reference_period").loc["2024Q2", "status"] == "used"
    with pytest.raises(InputError, match="no analysis an_nope"):
        input_series(store, "an_nope")


def test_the_official_outlook_is_the_latest_staff_and_survey_rounds_published_by_the_cutoff(store):
    load_official(store)
    shipped = read_projections()
    for cutoff in (date(2024, 12, 31), date(2024, 6, 30)):
        frame = official_outlook(store, cutoff)
        assert (frame["published"] <= cutoff).all()
        staff = latest_round(shipped, cutoff, publisher=["Eurosystem staff", "ECB staff"])
        spf = latest_round(shipped, cutoff, publisher="ECB SPF")
        for rnd in (staff, spf):
            mine = frame[(frame["publisher"] == rnd.publisher) & (frame["round"] == rnd.round)]
            assert len(mine) == len(rnd.projections)
            for p in rnd.projections:  # every value as the shipped file states it
                row = mine[(mine["variable"] == p.variable) & (mine["year"] == str(p.target_year))]
                assert list(row["value"]) == [p.value]
        assert set(frame["round"]) == {staff.round, spf.round}
    assert official_outlook(store, date(1999, 1, 1)).empty  # nothing published yet: nothing listed


def test_request_differences_name_only_the_fields_that_differ(store):
    a = _analysis(store, "2024-12-31", seeds=[1], selection="calibrated")
    b = _analysis(store, "2024-12-31", seeds=[2], selection="calibrated")
    diff = request_differences(store, [a, b])
    assert list(diff["field"]) == ["seeds"] and list(diff[a]) == ["[1]"] and list(diff[b]) == ["[2]"]
    assert request_differences(store, [a, a]).empty


def test_scenarios_side_by_side_are_read_from_each_runs_stored_tables(tmp_path_factory):
    with Store(demo_workspace(tmp_path_factory)) as store:
        ids = [a.analysis_id for a in store.all(Analysis)]
        runs = scenario_runs(store, ids)
        assert runs, "the demo completes at least one risk"
        names = [f"{r.risk} {i}" for i, r in enumerate(runs)]
        table = headline_table(runs, names).set_index(["variable", "measure"])
        paths = paths_long(runs, names)
        for r, name in zip(runs, names, strict=True):
            tables = store.get_tables(store.require(ModelRun, r.run_id).output_digest)
            summary = tables["horizon_summary"]
            assert (
                table.loc[("real_gdp", "cumulative change over the horizon"), name]
                == summary.loc["real_gdp", "cumulative_change"]
            )
            assert table.loc[("unemployment", "peak"), name] == summary.loc["unemployment", "peak"]
            mine = paths[(paths["scenario"] == name) & (paths["path"] == "scenario path")]
            gdp = mine[mine["variable"] == "real_gdp"].set_index("year")["value"]
            assert list(gdp) == [float(x) for x in tables["selected_path"]["real_gdp"]]
            base = paths[
                (paths["scenario"] == name) & (paths["path"] == "baseline") & (paths["variable"] == "real_gdp")
            ]
            assert list(base["value"]) == [float(x) for x in tables["median_path"].loc["real_gdp"]]
