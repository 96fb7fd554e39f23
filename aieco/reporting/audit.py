"""Claim re-resolution for ``aieco audit`` (one of ``aieco.audit.CHECKS``).

Every claim is re-resolved from the stored artifacts exactly as the renderer does it; an
altered output hash, table, row, column, unit, transformation, run id or value gives one
mismatch ``{kind: "claim:<field>", id, detail}``. Every passed report is re-rendered and
compared with its stored text.
"""

from __future__ import annotations

from aieco.errors import IntegrityError
from aieco.records import Claim, Report
from aieco.reporting.render import inspect_claim, rebuild_report
from aieco.store import Store


def audit_claims(store: Store, analysis_id: str | None) -> list[dict[str, str]]:
    """Mismatches of every claim (and passed report) of ``analysis_id`` (all when None)."""
    where = {"analysis_id": analysis_id} if analysis_id else {}
    problems = []
    for claim in store.find(Claim, **where):
        _, found = inspect_claim(store, claim)
        problems += [{"kind": f"claim:{name}", "id": claim.claim_id, "detail": detail} for name, detail in found]
    for report in store.find(Report, status="passed", **where):
        try:
            rebuild_report(store, report.report_id)
        except IntegrityError as exc:
            problems.append({"kind": "report", "id": report.report_id, "detail": exc.message})
    return problems
