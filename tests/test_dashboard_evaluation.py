"""The Evaluation page (issue 10 item 6) under Streamlit's AppTest."""

from __future__ import annotations

import shutil

from dashboard_demo import demo_workspace
from test_dashboard_apptest import open_page, use_workspace  # noqa: F401  (fixture)

from aieco.evaluation.run import evaluate
from aieco.records import EvaluationRecord
from aieco.store import Store


def test_evaluation_page_on_an_empty_workspace_says_what_to_run(tmp_path, use_workspace):  # noqa: F811
    use_workspace(tmp_path / "empty")
    at = open_page("Evaluation")
    assert [h.value for h in at.header] == ["Evaluation"]
    assert not at.error, [e.value for e in at.error]
    assert any("aieco" in i.value for i in at.info)


def _demo_copy(tmp_path_factory, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(demo_workspace(tmp_path_factory), ws)
    return ws


def test_evaluation_page_shows_measures_conditions_contribution_and_plots(tmp_path_factory, tmp_path, use_workspace):  # noqa: F811
    ws = _demo_copy(tmp_path_factory, tmp_path)
    with Store(ws) as store:
        evaluate(store, n_orderings=500, workers=1)
    use_workspace(ws)
    at = open_page("Evaluation")
    assert not at.error, [e.value for e in at.error]
    columns = [set(df.value.columns) | {df.value.index.name} for df in at.dataframe]
    assert any({"risk"} & c or "relation_coverage" in c for c in columns), columns
    assert len(at.get("plotly_chart")) >= 2
    assert [t.label for t in at.tabs] == ["Measures per risk", "Conditions", "Source contribution", "Agreement"]
    markdown = " ".join(m.value for m in at.markdown)
    assert "Graph construction conditions" in markdown and "Retrieval conditions" in markdown
    assert any("Δ_s(M)" in c.value for c in at.caption), "the source-contribution tab shows its definition"


def test_run_evaluation_button_stores_an_evaluation_record(tmp_path_factory, tmp_path, use_workspace):  # noqa: F811
    ws = _demo_copy(tmp_path_factory, tmp_path)
    use_workspace(ws)
    at = open_page("Evaluation")
    assert not at.error, [e.value for e in at.error]
    next(n for n in at.number_input if n.label == "Source orderings").set_value(200)
    next(b for b in at.button if b.label == "Run evaluation").click()
    at.run(timeout=300)
    assert not at.exception and not at.error, [e.value for e in at.error]
    with Store(ws) as store:
        assert store.count(EvaluationRecord) >= 1


def test_run_evaluation_shows_the_recorded_tables_and_agreement(tmp_path_factory, tmp_path, use_workspace):  # noqa: F811
    ws = _demo_copy(tmp_path_factory, tmp_path)
    use_workspace(ws)
    at = open_page("Evaluation")
    next(n for n in at.number_input if n.label == "Source orderings").set_value(2_000)
    next(b for b in at.button if b.label == "Run evaluation").click()
    at.run(timeout=300)
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.get("progress")[0].value == 100
    with Store(ws) as store:
        scored = [r for r in store.find(EvaluationRecord, phase="result") if r.status == "scored"]
    assert len(scored) == 1
    assert any(scored[0].evaluation_id in s.value and "scored and recorded" in s.value for s in at.success)
    at.run()  # read back from the store
    assert not at.exception and not at.error
    assert next(s for s in at.selectbox if s.label == "Evaluation").value == scored[0].evaluation_id
    frames = [df.value for df in at.dataframe]
    per_risk = next(f for f in frames if f.index.name == "measure")
    assert list(per_risk.columns) == ["trade_fragmentation", "property_correction", "market_illiquidity", "mean"]
    # The demo corpus states 8 of the 10 trade benchmark relations (test_evaluation_demo.py).
    assert per_risk.loc["relation_coverage", "trade_fragmentation"] == 0.8
    retrieval = next(f for f in frames if "accepted_as_agent_result" in f.columns)
    assert not retrieval[retrieval["condition"] == "direct"]["accepted_as_agent_result"].any()
    contribution = next(f for f in frames if {"leave_one_out", "average_marginal"} <= set(f.columns))
    assert set(contribution["measure"]) == {"endpoint_reachability", "relation_coverage", "complete_path_recovery"}
    assert next(m for m in at.metric if m.label == "repetitions").value == "1"
    assert next(m for m in at.metric if m.label == "path agreement").value == "—"  # one repetition: no pair
    next(s for s in at.selectbox if s.label == "Initiating risk").select("market_illiquidity").run()
    assert not at.exception


def test_invalid_benchmark_is_a_readable_stop_and_recorded(tmp_path_factory, tmp_path, use_workspace):  # noqa: F811
    bad = tmp_path / "bench.toml"
    bad.write_text("name = 'broken'\n[[channel]]\nid = 'x'\n")
    ws = _demo_copy(tmp_path_factory, tmp_path)
    use_workspace(ws)
    at = open_page("Evaluation")
    next(t for t in at.text_input if t.label == "Benchmark file").input(str(bad))
    next(b for b in at.button if b.label == "Run evaluation").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.error, "the stop must be shown"
    at.run()
    assert any("stopped before scoring" in e.value for e in at.error)
    next(t for t in at.text_input if t.label == "Benchmark file").input(str(tmp_path / "missing.toml"))
    next(b for b in at.button if b.label == "Run evaluation").click()
    at.run()
    assert not at.exception
    assert any("not found" in e.value and "fix:" in e.value for e in at.error)
