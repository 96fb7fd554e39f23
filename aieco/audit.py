"""Audit of a workspace: recompute digests and re-check stored identities.

The checks are an explicit tuple (:data:`CHECKS`), not filled by import side effects.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aieco.errors import InputError
from aieco.records import Analysis, Claim, Report, StageRecord
from aieco.reporting.audit import audit_claims
from aieco.review import audit_reviews, superseding_decisions
from aieco.store import Store

Check = Callable[[Store, str | None], list[dict[str, str]]]

#: Checks run after the store's own digest audit: fn(store, analysis_id) -> mismatches.
CHECKS: tuple[Check, ...] = (audit_claims, audit_reviews)


def read_anchor(path: Path) -> dict[str, Any]:
    """An anchor file (``anchor.json`` as a workspace writes it after every transaction)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"anchor file {path} does not exist", fix="pass a copy of a workspace's anchor.json") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"anchor file {path} is not JSON ({exc})", fix="pass a copy of anchor.json") from None
    if not isinstance(doc, dict):
        raise InputError(f"anchor file {path} is not an aieco anchor", fix="pass a copy of anchor.json")
    return doc


def run_audit(store: Store, analysis_id: str | None = None, *, anchor: dict[str, Any] | None = None) -> dict[str, Any]:
    """Every mismatch in ``store`` (optionally focused on one analysis's claims), read in one snapshot;
    with ``anchor``, the chains are also checked against heads kept outside the database."""
    with store.snapshot():
        return _audit(store, analysis_id, anchor)


def _audit(store: Store, analysis_id: str | None, anchor: dict[str, Any] | None) -> dict[str, Any]:
    if analysis_id is not None and not _known(store, analysis_id):
        raise InputError(
            f"no analysis {analysis_id} in workspace {store.path}: nothing to audit",
            fix="list the analyses with `aieco report list` or run `aieco audit` without an id",
        )
    mismatches = store.audit()
    if anchor is not None:
        mismatches += store.audit_anchor(anchor)
    for check in CHECKS:
        try:
            mismatches.extend(check(store, analysis_id))
        except Exception as exc:  # noqa: BLE001  (a tampered workspace may break a check: that is a finding)
            mismatches.append(
                {
                    "kind": "audit",
                    "id": getattr(check, "__name__", "check"),
                    "detail": f"check could not run on this workspace: {type(exc).__name__}: {exc}",
                }
            )
    checked = sum(store.table_counts().values()) + len(store.artifact_digests())
    reports = store.find(Report, **({"analysis_id": analysis_id} if analysis_id else {}))
    superseded = [
        {"report_id": r.report_id, "decisions": ids} for r in reports if (ids := superseding_decisions(store, r))
    ]
    return {
        "workspace": str(store.path),
        "analysis_id": analysis_id,
        "checked": checked,
        "mismatches": mismatches,
        "superseded": superseded,  # reports a later review took relations from: shown, not a mismatch
        "clean": not mismatches,
    }


def _known(store: Store, analysis_id: str) -> bool:
    """Whether any record of the workspace belongs to ``analysis_id``."""
    if store.get(Analysis, analysis_id) is not None:
        return True
    return any(store.find(cls, analysis_id=analysis_id, limit=1) for cls in (StageRecord, Claim, Report))
