"""Issue 29 item 4: a review after a report is a workflow step, not an audit failure.

The report cited a relation an analyst then rejects: it stays as written, is listed
"superseded by review" with the decision, the audit stays clean, and re-running the request
makes a new version of the analysis that applies the decision (the old records kept).
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from reporting_world import ANALYSIS, build_world, good_draft

from aieco.analysis.pipeline import analyze
from aieco.audit import run_audit
from aieco.cli import main
from aieco.records import Analysis, Relation, StageRecord
from aieco.reporting.render import render_report
from aieco.request import load_request
from aieco.review import review_relation

DEMO = Path(__file__).resolve().parents[1] / "aieco" / "demo" / "requests" / "euro_area_risks.toml"


def test_a_rejected_cited_relation_supersedes_the_report_and_the_audit_stays_clean(store):
    w = build_world(store)
    report = render_report(store, ANALYSIS, good_draft(w)).report
    assert run_audit(store)["clean"]
    cited = report.relation_ids[0]
    decision = review_relation(store, cited, "reject", note="not what the passage says", analyst="t")
    result = run_audit(store)
    assert result["clean"], result["mismatches"]
    assert result["superseded"] == [{"report_id": report.report_id, "decisions": [decision.decision_id]}]
    res = CliRunner().invoke(main, ["-w", str(store.path), "--json", "report", "list"], catch_exceptions=False)
    [row] = [r for r in json.loads(res.output) if r["report_id"] == report.report_id]
    assert row["superseded_by"] == [decision.decision_id] and row["status"] == "passed"


def test_re_running_after_a_review_makes_a_new_analysis_version(store):
    request = load_request(DEMO)
    first = analyze(store, request)  # an empty workspace: two stages complete, eligibility stops
    old = store.find(StageRecord, analysis_id=first.analysis_id)
    rel = Relation.create(
        src_var="tariffs", dst_var="real_gdp", sign="-", quote="q", location_id="l", source_id="s", confidence=0.5
    )
    store.put(rel)
    review_relation(store, rel.relation_id, "reject", note="wrong sign", analyst="t")
    second = analyze(store, request)
    assert second.analysis_id != first.analysis_id
    assert store.find(StageRecord, analysis_id=first.analysis_id) == old  # the old version is kept as it was
    assert store.require(Analysis, second.analysis_id).request["version"] == 2
    assert analyze(store, request).analysis_id == second.analysis_id  # the same decisions: the same version
