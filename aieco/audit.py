"""Audit of a workspace: recompute digests and re-check stored identities.

The checks are an explicit tuple (:data:`CHECKS`), not filled by import side effects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aieco.reporting.audit import audit_claims
from aieco.store import Store

Check = Callable[[Store, str | None], list[dict[str, str]]]

#: Checks run after the store's own digest audit: fn(store, analysis_id) -> mismatches.
CHECKS: tuple[Check, ...] = (audit_claims,)


def run_audit(store: Store, analysis_id: str | None = None) -> dict[str, Any]:
    """Every mismatch in ``store`` (optionally focused on one analysis's claims)."""
    mismatches = store.audit()
    for check in CHECKS:
        mismatches.extend(check(store, analysis_id))
    checked = sum(store.table_counts().values()) + len(store.artifact_digests())
    return {"workspace": str(store.path), "analysis_id": analysis_id, "checked": checked,
            "mismatches": mismatches, "clean": not mismatches}
