"""The request form, read from the request's pydantic model: one widget per field, risks and channel
queries as editable tables. A field added to ``aieco.request.AnalysisRequest`` (or to a risk or a
channel query) appears in the form without a change here.

Only reshaping: validation stays with the library's ``parse_request``.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pandas as pd

from aieco.api import RequestField, request_fields
from aieco.request import AnalysisRequest, ChannelQuerySpec, RiskSpec
from dashboard.labels import words

#: Labels of the fields whose name alone does not say enough (any other field: its name in words).
LABELS = {
    "cutoff": "Information cutoff",
    "allowed_roles": "Allowed source roles",
    "backend": "LLM backend",
    "model_snapshot": "LLM model snapshot",
    "byte_budget": "Evidence byte budget",
    "seeds": "Seeds",
    "graph_condition": "Graph condition",
    "retrieval_condition": "Retrieval condition",
}


def form_fields() -> list[RequestField]:
    """The request's top-level fields the form shows as widgets (risks are the tables below them)."""
    return [f for f in request_fields(AnalysisRequest) if f.kind != "table"]


def label(f: RequestField) -> str:
    text = LABELS.get(f.name) or words(f.name).capitalize()
    return f"{text} (comma separated)" if f.kind == "list" else text


def initial(f: RequestField, draft: dict[str, Any]) -> Any:
    """The widget's starting value: the draft's (the selected analysis's request), else the default."""
    value = draft.get(f.name, f.default)
    if f.kind == "date" and isinstance(value, str):
        return date.fromisoformat(value)
    if f.kind == "list":
        return ", ".join(str(v) for v in value or [])
    if f.kind == "choice" and value not in f.options:
        return f.options[0]
    return value


def request_value(f: RequestField, value: Any) -> Any:
    """A widget's value as the request mapping holds it (pydantic converts and checks it)."""
    if f.kind == "date":
        return value.isoformat() if value else None
    if f.kind == "list":
        return [v.strip() for v in str(value or "").split(",") if v.strip()]
    if f.kind == "int" and value is not None:
        return int(value)
    return value


def _columns(model) -> list[str]:
    return [f.name for f in request_fields(model) if f.kind != "table"]


RISK_COLUMNS = _columns(RiskSpec)
CHANNEL_COLUMNS = ["risk", *_columns(ChannelQuerySpec)]


def channel_fields() -> dict[str, RequestField]:
    return {f.name: f for f in request_fields(ChannelQuerySpec)}


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
    """``base`` with its risks replaced by the edited tables (empty rows and cells dropped)."""
    kinds = {name: f.kind for name, f in channel_fields().items()}
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
            for c, v in query.items():
                if kinds.get(c) == "int":
                    query[c] = int(v)
                elif kinds.get(c) == "bool":
                    query[c] = bool(v)
            queries.append(query)
        risk = {c: _text(r[c]) for c in RISK_COLUMNS}
        out["risks"].append({**risk, "name": name, "channels": queries})
    return out


def _missing(v: Any) -> bool:
    return v is None or (isinstance(v, float) and v != v) or (isinstance(v, str) and not v.strip())


def _text(v: Any) -> str:
    return "" if _missing(v) else str(v)


def request_of_analysis(request: dict[str, Any]) -> dict[str, Any] | None:
    """An analysis's stored request as a draft: only the fields the request model has (a repetition's
    number and fields an older version wrote are left out); None when it is not a complete request."""
    from aieco.errors import InputError
    from aieco.request import parse_request

    fields = {k: v for k, v in request.items() if k in AnalysisRequest.model_fields}
    try:
        return parse_request(fields, where="the selected analysis's request").as_dict()
    except InputError:
        return None


def field_problems(exc: Exception) -> list[str]:
    """Each problem of a refused request as '**Horizon** (`horizon`): what is wrong', naming the form's
    field (a risk or channel query by its table row); empty when the refusal was not a field's."""
    from pydantic import ValidationError

    cause = exc.__cause__
    if not isinstance(cause, ValidationError):
        return []
    labels = {f.name: label(f) for f in form_fields()}
    out = []
    for err in cause.errors():
        loc = [str(p) for p in err["loc"]]
        head = loc[0] if loc else ""
        where = labels.get(head) or ("Risks table" if head == "risks" else words(head).capitalize() or "Request")
        if head == "risks" and "channels" in loc:
            where = "Channel queries table"
        path = ".".join(loc) or "(top level)"
        out.append(f"**{where}** (`{path}`): {err['msg'].removeprefix('Value error, ')}")
    return out
