"""The Evaluation page under Streamlit's AppTest: empty state, Run evaluation, the stored tables and plots."""

from __future__ import annotations

import shutil

import pytest
from dashboard_demo import demo_workspace
from test_dashboard_apptest import open_page, use_workspace, widget  # noqa: F401  (fixture)

from aieco.evaluation.views import evaluation_records
from aieco.store import Store


@pytest.fixture
def demo_copy(tmp_path_factory, tmp_path):
    """A private copy of the shared demo workspace (the page writes evaluation records into it)."""
    ws = tmp_path / "ws"
    shutil.copytree(demo_workspace(tmp_path_factory), ws)
    return ws


def frames(at) -> list:
    return [df.value for df in at.dataframe]


def test_empty_workspace_says_what_to_run_and_offers_no_run(tmp_path, use_workspace):  # noqa: F811
    use_workspace(tmp_path / "empty")
    at = open_page("Evaluation")
    assert [h.value for h in at.header] == ["Evaluation"]
    assert not at.error
    infos = " ".join(i.value for i in at.info)
    assert "No evaluation yet" in infos and "aieco evaluate" in infos
    assert "No channel graph to evaluate" in infos
    assert not [b for b in at.button if b.label == "Run evaluation"]
    assert not at.get("plotly_chart")


def test_run_evaluation_records_it_and_shows_every_table(demo_copy, use_workspace):  # noqa: F811
    use_workspace(demo_copy)
    at = open_page("Evaluation")
    assert any("No evaluation yet" in i.value for i in at.info)
    widget(at, "number_input", "Source orderings").set_value(2_000)
    widget(at, "button", "Run evaluation").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    assert at.get("progress")[0].value == 100
    with Store(demo_copy) as store:
        records = evaluation_records(store)
    assert list(records["status"]) == ["scored"]
    new = records["evaluation_id"][0]
    assert any(new in s.value and "scored and recorded" in s.value for s in at.success)

    at.run()  # the page as it reads back from the store
    assert not at.exception and not at.error
    assert widget(at, "selectbox", "Evaluation").value == new
    assert [t.label for t in at.tabs] == ["Measures per risk", "Conditions", "Source contribution", "Agreement"]
    shown = frames(at)
    per_risk = next(f for f in shown if f.index.name == "measure")
    assert list(per_risk.columns) == ["trade_fragmentation", "property_correction", "market_illiquidity", "mean"]
    # The demo corpus states 8 of the 10 trade benchmark relations (test_evaluation_demo.py).
    assert per_risk.loc["relation_coverage", "trade_fragmentation"] == pytest.approx(0.8)
    assert any("channel" in f.columns and "tf1" in set(f["channel"]) for f in shown)
    graphs = next(f for f in shown if "condition" in f.columns and "candidate_pair_coverage" in f.columns)
    assert set(graphs["condition"]) == {"G0"}
    retrieval = next(f for f in shown if "accepted_as_agent_result" in f.columns)
    assert not retrieval[retrieval["condition"] == "direct"]["accepted_as_agent_result"].any()
    contribution = next(f for f in shown if {"leave_one_out", "average_marginal"} <= set(f.columns))
    assert set(contribution["measure"]) == {"endpoint_reachability", "relation_coverage", "complete_path_recovery"}
    assert len(at.get("plotly_chart")) == 2  # measures per risk, source contribution
    assert {m.label for m in at.metric} >= {"repetitions", "path agreement", "warning Jaccard"}
    assert next(m for m in at.metric if m.label == "repetitions").value == "1"
    assert next(m for m in at.metric if m.label == "path agreement").value == "—"  # one repetition: no pair

    widget(at, "selectbox", "Initiating risk").select("market_illiquidity").run()
    assert not at.exception
    chosen = next(f for f in frames(at) if {"leave_one_out", "average_marginal"} <= set(f.columns))
    assert len(chosen) == len(contribution)  # same documents and measures, another risk's values


def test_invalid_benchmark_is_a_readable_stop_and_recorded(demo_copy, tmp_path, use_workspace):  # noqa: F811
    bad = tmp_path / "bench.toml"
    bad.write_text("name = 'broken'\n[[channel]]\nid = 'x'\n")
    use_workspace(demo_copy)
    at = open_page("Evaluation")
    widget(at, "text_input", "Benchmark file").input(str(bad))
    widget(at, "number_input", "Source orderings").set_value(500)
    widget(at, "button", "Run evaluation").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.error, "the stop must be shown"
    at.run()
    assert any("stopped before scoring" in e.value for e in at.error)

    widget(at, "text_input", "Benchmark file").input(str(tmp_path / "missing.toml"))
    widget(at, "button", "Run evaluation").click()
    at.run()
    assert not at.exception
    assert any("not found" in e.value and "fix:" in e.value for e in at.error)
