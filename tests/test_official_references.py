"""Official adverse references (aieco/data/official/adverse_references.csv) and the comparison of a run's
paths with the official outlook (aieco.evaluation.references)."""

from __future__ import annotations

import csv
from datetime import date

import pytest

from aieco.models import macro
from aieco.sources.official_adverse import read_adverse_references


def test_the_shipped_rows_are_the_shared_headline_rows(shared_data):
    shared = [
        r
        for r in csv.DictReader((shared_data / "scenarios" / "official_headlines.csv").open(newline=""))
        if r["scenario"] in ("adverse", "adverse-baseline")
    ]
    shipped = read_adverse_references()
    assert len(shipped) == len(shared)
    for a, b in zip(shipped, shared, strict=True):
        assert a["published"].isoformat() == b["published"] and a["value"] == float(b["value"])
        assert {k: a[k] for k in b if k not in ("published", "value")} == {
            k: b[k] for k in b if k not in ("published", "value")
        }


def test_the_severity_reference_is_the_latest_published_by_the_cutoff():
    ref = macro.severity_reference(date(2024, 12, 31))
    assert ref["exercise"] == "EBA 2018" and ref["value"] == -8.3 and ref["years"] == 3
    # the EBA 2025 figure (published 2025-01-20) never reaches a 2024 analysis, only a later one
    assert macro.severity_reference(date(2025, 1, 19))["exercise"] == "EBA 2018"
    assert macro.severity_reference(date(2025, 1, 20))["exercise"] == "EBA 2025"
    assert macro.severity_reference(date(2017, 12, 31)) is None


def test_a_bad_reference_file_names_its_line(tmp_path):
    from aieco.errors import InputError

    bad = tmp_path / "refs.csv"
    bad.write_text(
        "publisher,title,published,exercise,scenario,jurisdiction,variable,measure,period,value,unit,source\n"
        "EBA,t,2018-13-40,EBA 2018,adverse,EU,real_gdp,deviation from baseline level,2020,-8.3,%,s\n"
    )
    with pytest.raises(InputError, match=":2"):
        read_adverse_references(str(bad))


@pytest.fixture(scope="module")
def real_run(tmp_path_factory):
    """A macro_var run on the shipped real data and official projections at the default cutoff."""
    from aieco.default import load_official_projections, load_real_macro
    from aieco.records import RunStatus
    from aieco.store import Store
    from tests.macro_helpers import run_macro_scenario

    store = Store(tmp_path_factory.mktemp("refs") / "ws")
    load_real_macro(store)
    load_official_projections(store)
    anchors, _ = macro.official_anchors(store, date(2024, 12, 31), "EA")
    runs = run_macro_scenario(
        store,
        "an_refs",
        "trade_fragmentation",
        [
            {"variable": "real_gdp", "direction": -1, "priority": 2},
            {"variable": "unemployment", "direction": 1, "priority": 2},
        ],
        macro.workspace_observations(store),
        "2024-12-31",
        seed=3,
        draws=2000,
        vintage_policy="approximate",
        anchors=anchors,
        severity_reference=macro.severity_reference(date(2024, 12, 31)),
    )
    run = [r for r in runs if r.model_id == "macro_var"][0]
    assert run.status is RunStatus.completed, run.reason
    yield store, run
    store.close()


def test_the_anchored_baseline_equals_the_december_staff_projection(real_run):
    from aieco.evaluation.references import official_comparison

    store, run = real_run
    table = official_comparison(store, run).set_index(["variable", "period"])
    for year, value in (("2025", 1.1), ("2026", 1.4), ("2027", 1.3)):  # official_headlines.csv, Dec 2024 round
        row = table.loc[("real_gdp", year)]
        assert row["official_projection"] == value
        assert row["baseline_anchored"] == pytest.approx(value, abs=0.01)
        assert "EUROSYSTEM_STAFF 2024-12" in row["projection_source"]
    # the EBA 2025 adverse figures are shown, marked: published after the cutoff
    assert table.loc[("real_gdp", "2025"), "adverse_timing"] == "after cutoff: evaluation only"
    assert table.loc[("real_gdp", "2025-2027"), "official_adverse"] == -6.3


def test_the_trade_fragmentation_path_is_within_the_issue_bounds(real_run):
    """Issue #28's bounds: cumulative GDP 2025-2027 between -3 % and -9.5 % (0.5x-1.5x the EBA 2025 adverse, used
    for evaluation only), the deepest annual fall in 2025 or 2026, every deviation's sign that of its levels."""
    store, run = real_run
    tables = store.get_tables(run.output_digest)
    cum = tables["horizon_summary"].loc["real_gdp", "cumulative_change"]
    assert -9.5 <= cum <= -3.0
    growth = tables["selected_path"]["real_gdp"]
    assert str(growth.idxmin()) in ("2025", "2026")
    sel, base = tables["selected_quarterly"], tables["median_quarterly"]
    for v in ("real_gdp", "equity_prices", "house_prices", "unemployment"):
        gap = float(sel.loc["2027Q4", v]) - float(base.loc["2027Q4", v])
        assert (tables["horizon_summary"].loc[v, "deviation_from_median"] > 0) == (gap > 0)


def test_dashboard_views_of_the_official_outlook_and_the_two_rules(real_run):
    from dashboard import scenario_views

    store, run = real_run
    table = scenario_views.official_table(store, run.run_id)
    assert "official projection at the cutoff" in table.columns and "Real GDP" in set(table["variable"])
    fig = scenario_views.official_figure(table, "Real GDP")
    names = [t.name for t in fig.data]
    assert "official adverse, published after the cutoff (evaluation only)" in names
    assert fig.layout.yaxis.title.text == "annual-average growth, %"
    rules = scenario_views.rule_table(store, run.analysis_id)
    assert len(rules) == 2 and rules["rule"].str.contains("this run").sum() == 1
    cum = rules.set_index("rule")["real GDP, cumulative change (%)"]
    assert cum.notna().all()  # both rules produce a path on the same set
    assert scenario_views.official_table(store, "run_nope").empty
