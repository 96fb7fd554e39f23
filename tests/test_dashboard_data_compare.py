"""The Data and Compare pages under Streamlit's AppTest: on the demo workspace they show their tables and
charts with labels and units; on an empty workspace they say what to run."""

from __future__ import annotations

import json

import pytest
from dashboard_demo import demo_workspace
from test_dashboard_apptest import open_page, use_workspace  # noqa: F401  (use_workspace is a fixture)

from aieco.records import Analysis
from aieco.store import Store

pytestmark = pytest.mark.slow


def _figures(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def _title(fig: dict) -> str:
    title = fig["layout"].get("title", {})
    return title.get("text", "") if isinstance(title, dict) else str(title)


@pytest.mark.parametrize("title", ["Data", "Compare"])
def test_new_pages_on_an_empty_workspace_say_what_to_run(title, tmp_path, use_workspace):  # noqa: F811
    use_workspace(tmp_path / "empty")
    at = open_page(title)
    assert [h.value for h in at.header] == [title]
    assert not at.error, [e.value for e in at.error]
    assert any("aieco" in i.value for i in at.info)


def test_data_page_plots_each_input_series_of_the_selected_analysis(tmp_path_factory, use_workspace):  # noqa: F811
    workspace = demo_workspace(tmp_path_factory)
    use_workspace(workspace)
    at = open_page("Data")
    assert not at.error and not at.exception, [e.value for e in at.error]
    series = next(df.value for df in at.dataframe if "values used" in df.value.columns)
    assert len(series) >= 1 and (series["values used"] > 0).all()
    assert not set(series["variable"]) & {"real_gdp", "unemployment"}  # labels, not ids
    figures = _figures(at)
    assert figures, "no series chart"
    for fig in figures:
        assert fig["layout"]["yaxis"]["title"]["text"]  # the unit on the axis
        assert "SYNTHETIC" in _title(fig)  # the demo's series are synthetic: every chart says so
        assert fig["data"][0]["name"] == "used: latest release by the cutoff" and fig["data"][0]["y"]
    # another variable: its own charts
    box = next(s for s in at.selectbox if s.label == "Variable")
    other = next(o for o in box.options if o != box.value)
    box.select(other).run()
    assert not at.exception
    assert all(_title(f).startswith(other) for f in _figures(at))


def test_compare_page_puts_scenarios_side_by_side_with_labels(tmp_path_factory, use_workspace):  # noqa: F811
    workspace = demo_workspace(tmp_path_factory)
    use_workspace(workspace)
    with Store(workspace) as store:
        risks = {r["name"]: r["label"] for a in store.all(Analysis) for r in a.request["risks"]}
    at = open_page("Compare")
    assert not at.error and not at.exception, [e.value for e in at.error]
    table = next(df.value for df in at.dataframe if "measure" in df.value.columns)
    scenarios = [c for c in table.columns if c not in ("variable", "measure", "unit")]
    assert scenarios and all(s in risks.values() for s in scenarios)  # the risks' labels, not their ids
    assert table[scenarios].notna().any().all()
    figures = _figures(at)
    assert len(figures) == 2  # real GDP and the unemployment rate by default
    for fig in figures:
        assert fig["layout"]["yaxis"]["title"]["text"].endswith("%")
        assert "SYNTHETIC" in _title(fig)  # the demo's inputs are synthetic: every chart says so
        assert {t["name"].split(": ")[0] for t in fig["data"]} == set(scenarios)
    assert any("synthetic" in w.value for w in at.warning)  # the demo's inputs are synthetic: said once, above


def test_compare_paths_share_one_year_axis_in_calendar_order():
    """Two analyses with different horizons (cutoffs 2023-06-30 and 2021-12-31) on one axis: 2022 … 2026 in
    order, each scenario's points at their own years (a category axis in order of appearance put 2022 after
    2026)."""
    import pandas as pd

    from dashboard.compare_page import paths_figure

    rows = [
        {"scenario": s, "variable": "real_gdp", "path": path, "year": y, "value": v}
        for s, years in (("late", (2024, 2025, 2026)), ("early", (2022, 2023, 2024)))
        for path in ("scenario path", "baseline")
        for y, v in zip(years, (1.0, 2.0, 3.0), strict=True)
    ]
    fig = paths_figure(pd.DataFrame(rows), "real_gdp", "Real GDP").to_dict()
    assert list(fig["layout"]["xaxis"]["categoryarray"]) == ["2022", "2023", "2024", "2025", "2026"]
    early = next(t for t in fig["data"] if t["name"] == "early: scenario path")
    assert list(early["x"]) == ["2022", "2023", "2024"]
