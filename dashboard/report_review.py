"""Reports an analyst's later review superseded, as the Reports page shows them (issue 29 item 4).

A review decision made after a report (a rejection or correction of a relation the report cites) leaves
the report as it was written; the report list, the report reader, ``aieco report list`` and the audit all
say it is "superseded by review" and name the decisions (aieco.review.superseding_decisions). Re-running
the request makes a new version of the analysis that applies them.
"""

from __future__ import annotations

from aieco.records import Report
from aieco.review import superseding_decisions
from aieco.store import Store

#: What the Reports page says of a report a later review superseded.
SUPERSEDED = "superseded by review"


def report_review_notes(store: Store, analysis_id: str | None = None) -> dict[str, list[str]]:
    """Report id -> the decision ids that supersede it, for each superseded report (of one analysis, or all)."""
    reports = store.find(Report, analysis_id=analysis_id) if analysis_id else store.all(Report)
    out = {}
    for r in reports:
        ids = superseding_decisions(store, r)
        if ids:
            out[r.report_id] = ids
    return out


def superseded_label(label: str, decision_ids: list[str] | None) -> str:
    """A report-list entry with its review state: "… · superseded by review (rev_…)" when superseded."""
    return f"{label} · {SUPERSEDED} ({', '.join(decision_ids)})" if decision_ids else label


def superseded_message(decision_ids: list[str]) -> str:
    """The report reader's notice for a superseded report."""
    many = len(decision_ids) > 1
    return (
        f"This report is {SUPERSEDED}: decision{'s' if many else ''} {', '.join(decision_ids)} "
        f"{'take' if many else 'takes'} a relation it cites out of use since it was written. It is shown as "
        "written; re-run its request for a new version of the analysis that applies the review."
    )
