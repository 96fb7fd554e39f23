"""The request form's tables: an AnalysisRequest mapping shown as editable rows and back.

Only reshaping: validation stays with the library's ``parse_request``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

RISK_COLUMNS = ["name", "label", "description"]
CHANNEL_COLUMNS = ["risk", "id", "source", "movement", "target", "expected", "max_len", "top_k"]


def to_tables(request: dict[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Risks and channel queries of a request mapping as two tables."""
    risks = [{c: r.get(c, "") for c in RISK_COLUMNS} for r in request.get("risks", [])]
    channels = [
        {"risk": r["name"], **{c: q.get(c) for c in CHANNEL_COLUMNS[1:]}}
        for r in request.get("risks", [])
        for q in r.get("channels", [])
    ]
    return pd.DataFrame(risks, columns=RISK_COLUMNS), pd.DataFrame(channels, columns=CHANNEL_COLUMNS)


def from_tables(base: dict[str, Any], risks: pd.DataFrame, channels: pd.DataFrame) -> dict[str, Any]:
    """``base`` with its risks replaced by the edited tables (empty rows dropped)."""
    out = dict(base)
    out["risks"] = []
    for _, r in risks.iterrows():
        name = (r["name"] or "").strip() if isinstance(r["name"], str) else ""
        if not name:
            continue
        rows = channels[channels["risk"] == name]
        queries = []
        for _, q in rows.iterrows():
            query = {c: q[c] for c in CHANNEL_COLUMNS[1:] if not _missing(q[c])}
            for c in ("max_len", "top_k"):
                if c in query:
                    query[c] = int(query[c])
            queries.append(query)
        out["risks"].append(
            {"name": name, "label": _text(r["label"]), "description": _text(r["description"]), "channels": queries}
        )
    return out


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v) or (isinstance(v, str) and not v.strip())


def _text(v: Any) -> str:
    return "" if _missing(v) else str(v)
