"""Views of the evidence: registered sources, their locations, and the exclusions of each analysis.

Read-only, like every view module (see :mod:`dashboard.shared`).
"""

from __future__ import annotations

from collections import defaultdict

import pandas as pd

from aieco.records import (
    Exclusion,
    Source,
    SourceLocation,
)
from aieco.store import Store
from dashboard.shared import _frame, _short, _sources_by_id

SOURCE_COLUMNS = [
    "source_id",
    "title",
    "publisher",
    "publication_date",
    "role",
    "jurisdiction",
    "kind",
    "locations",
    "pages_or_sheets",
    "sha256",
    "illustrative",
    "note",
    "path",
]


def sources_frame(store: Store) -> pd.DataFrame:
    """The source registry with each source's number of locations and pages or sheets."""
    per_source: dict[str, list[SourceLocation]] = defaultdict(list)
    for loc in store.all(SourceLocation):
        per_source[loc.source_id].append(loc)
    rows = []
    for s in store.all(Source):
        locs = per_source.get(s.source_id, [])
        pages = {loc.page for loc in locs if loc.page is not None}
        sheets = {loc.sheet for loc in locs if loc.sheet}
        where = f"{len(pages)} pages" if pages else (f"{len(sheets)} sheets" if sheets else "")
        rows.append(
            {
                "source_id": s.source_id,
                "title": s.title,
                "publisher": s.publisher,
                "publication_date": s.publication_date,
                "role": s.role.value,
                "jurisdiction": s.jurisdiction,
                "kind": s.kind.value,
                "locations": len(locs),
                "pages_or_sheets": where,
                "sha256": _short(s.sha256),
                "illustrative": s.illustrative,
                "note": s.note,
                "path": s.path,
            }
        )
    return _frame(rows, SOURCE_COLUMNS)


LOCATION_COLUMNS = [
    "location_id",
    "kind",
    "page",
    "sheet",
    "cell",
    "text",
    "value",
    "row_label",
    "column_label",
    "formula",
    "role_override",
    "warning",
]


def locations_frame(store: Store, source_id: str) -> pd.DataFrame:
    """Passages and cells of one source, in reading order."""
    rows = [
        {
            "location_id": loc.location_id,
            "kind": loc.kind,
            "page": loc.page,
            "sheet": loc.sheet,
            "cell": loc.cell,
            "text": loc.text,
            "value": None if loc.value is None else str(loc.value),
            "row_label": loc.row_label,
            "column_label": loc.column_label,
            "formula": loc.formula,
            "role_override": loc.role_override.value if loc.role_override else None,
            "warning": loc.warning,
        }
        for loc in store.find(SourceLocation, source_id=source_id)
    ]
    return _frame(rows, LOCATION_COLUMNS)


EXCLUSION_COLUMNS = ["analysis_id", "reason", "title", "publication_date", "location_id", "detail", "source_id"]


def exclusions_frame(store: Store, analysis_id: str | None = None) -> pd.DataFrame:
    """Stored exclusions (all, or of one analysis) with the source they concern."""
    recs = store.find(Exclusion, analysis_id=analysis_id) if analysis_id else list(store.all(Exclusion))
    return exclusion_records_frame(store, recs)


def exclusion_groups(store: Store) -> list[str]:
    """Distinct analysis ids (or eligibility-check ids) that recorded exclusions."""
    return list(dict.fromkeys(e.analysis_id for e in store.all(Exclusion)))


def exclusion_records_frame(store: Store, exclusions: list[Exclusion]) -> pd.DataFrame:
    """Exclusions decided in memory (e.g. an eligibility check) with the source they concern."""
    sources = _sources_by_id(store)
    rows = [
        {
            "analysis_id": e.analysis_id,
            "reason": e.reason.value,
            "title": sources[e.source_id].title if e.source_id in sources else "",
            "publication_date": sources[e.source_id].publication_date if e.source_id in sources else None,
            "location_id": e.location_id,
            "detail": e.detail,
            "source_id": e.source_id,
        }
        for e in exclusions
    ]
    return _frame(rows, EXCLUSION_COLUMNS)
