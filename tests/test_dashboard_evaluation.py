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


def test_evaluation_page_shows_measures_conditions_contribution_and_plots(tmp_path_factory, tmp_path,
                                                                         use_workspace):  # noqa: F811
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
