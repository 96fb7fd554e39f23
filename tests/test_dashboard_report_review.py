"""The dashboard under AppTest: a report a later review supersedes is shown "superseded by review" with the
decision ids in the report list and the reader (issue 29 item 4), and the review queue shows who read each
relation (issue 30 item 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from populated_workspace import build_workspace
from streamlit.testing.v1 import AppTest

from aieco.config import get_settings
from aieco.records import Report
from aieco.review import review_relation
from aieco.store import Store

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    ids = build_workspace(tmp_path / "ws", tmp_path / "src")
    monkeypatch.setenv("AIECO_WORKSPACE", str(tmp_path / "ws"))
    monkeypatch.setenv("AIECO_DASHBOARD__BUILD_DEMO_ON_FIRST_LAUNCH", "false")
    get_settings.cache_clear()
    yield tmp_path / "ws", ids
    get_settings.cache_clear()


def open_page(path: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page(path).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def report_picker(at: AppTest):
    return next(w for w in at.selectbox if w.label == "Report")


def test_a_report_superseded_by_review_says_so_with_its_decision_ids(workspace):
    ws, ids = workspace
    at = open_page("pages/reports.py")
    (label,) = report_picker(at).options  # the entries as listed
    assert "superseded" not in label  # nothing reviewed yet
    assert not any("superseded by review" in w.value for w in at.warning)

    with Store(ws) as store:
        (report,) = store.find(Report, report_id=ids["report_id"])
        decision = review_relation(store, report.relation_ids[0], "reject", analyst="ana", note="misread")
    at = open_page("pages/reports.py")
    (label,) = report_picker(at).options  # the entries as listed
    assert label.endswith(f"· superseded by review ({decision.decision_id})")
    notice = " ".join(w.value for w in at.warning)
    assert "superseded by review" in notice and decision.decision_id in notice
    # the report itself is shown as it was written
    assert "real GDP in 2027 is" in " ".join(m.value for m in at.text)


def test_the_review_queue_has_a_reader_column(workspace):
    ws, ids = workspace
    at = open_page("pages/channel_graph.py")
    queue = next(f.value for f in at.dataframe if "used by" in f.value.columns)
    # the populated workspace's relations were written without a reader, as older workspaces hold them
    assert "reader" in queue.columns and set(queue["reader"]) == {"not recorded"}
