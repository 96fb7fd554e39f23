"""View models for the dashboard: stored records as tables and figures.

Moved here from the library (display shaping is the dashboard's; the library keeps
the pure queries in :mod:`aieco.inventory`).

Each function takes an open :class:`~aieco.store.Store` and returns plain data (pandas
DataFrames, dicts of DataFrames, plotly figures). They only read records; every number
they show is a stored value (a model output point, a record field), never recomputed.
The Streamlit pages call these and render what comes back; nothing here imports
streamlit.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from datetime import date
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from aieco.graph.build import GENERATION_ROLES, as_of_relations, load_relations
from aieco.graph.render import render as render_graph
from aieco.inventory import is_empty, workspace_digest  # noqa: F401  (re-exported for the pages)
from aieco.models.bank import outputs as bank_outputs
from aieco.records import (
    Analysis,
    ChannelQuery,
    Claim,
    Derivation,
    Exclusion,
    LLMCall,
    ModelOutputPoint,
    ModelRequest,
    ModelRun,
    ObservedValue,
    OutputTest,
    Path,
    Provenance,
    Relation,
    Report,
    ReportSentence,
    Restriction,
    Source,
    SourceLocation,
    StageRecord,
    ValidationGate,
    Variable,
    canonical_json,
)
from aieco.reporting.export import export_report
from aieco.review import citation_notes
from aieco.store import Store
from dashboard.bank_views import (  # noqa: F401  (re-exported for the Bank capital page)
    depletion_across_banks,
    left_out_banks,
    real_bank_parts,
    scenario_gate_designs,
    takes_macro_path,
)
from dashboard.labels import in_words, measure, risk_label, stage_label, words
from dashboard.report_review import report_review_notes  # noqa: F401  (a view of the Reports page)
from dashboard.scenario_views import (  # noqa: F401  (re-exported for the Model runs and Evaluation pages)
    official_table,
    rule_table,
)

DIGEST_CHARS = 12


def _short(value: str | None) -> str:
    return (value or "")[:DIGEST_CHARS]


def _frame(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=columns)


def _sources_by_id(store: Store) -> dict[str, Source]:
    return {s.source_id: s for s in store.all(Source)}


# --------------------------------------------------------------------------- analyses and stages


ANALYSIS_COLUMNS = ["analysis_id", "label", "created_at", "completed", "stopped", "failed"]
STOP_COLUMNS = ["analysis_id", "stage", "status", "reason", "ended_at"]


def _latest_attempts(store: Store, analysis_id: str) -> list[StageRecord]:
    """The last recorded attempt of each stage (a resumed analysis records a stage again)."""
    latest: dict[str, StageRecord] = {}
    for rec in store.find(StageRecord, analysis_id=analysis_id):
        latest[rec.stage] = rec
    return list(latest.values())


def analyses_frame(store: Store) -> pd.DataFrame:
    """Every analysis with how many of its stages completed, stopped and failed (latest attempts)."""
    rows = []
    for an in store.all(Analysis):
        statuses = [r.status.value for r in _latest_attempts(store, an.analysis_id)]
        rows.append(
            {
                "analysis_id": an.analysis_id,
                "label": an.label or an.analysis_id,
                "created_at": an.created_at,
                **{k: statuses.count(k) for k in ("completed", "stopped", "failed")},
            }
        )
    return _frame(rows, ANALYSIS_COLUMNS)


def stops_frame(store: Store, analysis_id: str | None = None) -> pd.DataFrame:
    """Every stage (of one analysis, or all) whose latest attempt stopped or failed, with its reason."""
    analyses = [a for a in store.all(Analysis) if analysis_id is None or a.analysis_id == analysis_id]
    rows = [
        {
            "analysis_id": an.analysis_id,
            "stage": r.stage,
            "status": r.status.value,
            "reason": r.reason,
            "ended_at": r.ended_at,
        }
        for an in analyses
        for r in _latest_attempts(store, an.analysis_id)
        if r.status.value != "completed"
    ]
    return _frame(rows, STOP_COLUMNS)


def risk_labels(store: Store, analysis_id: str | None) -> dict[str, str]:
    """Risk name → its label in the analysis's request (``market_illiquidity`` → Market illiquidity)."""
    an = store.get(Analysis, analysis_id) if analysis_id else None
    risks = an.request.get("risks", []) if an else []
    return {r["name"]: r.get("label") or r["name"] for r in risks if isinstance(r, dict) and "name" in r}


def analysis_request(store: Store, analysis_id: str | None) -> dict[str, Any]:
    """The request an analysis ran (as stored on its Analysis record); empty when unknown."""
    an = store.get(Analysis, analysis_id) if analysis_id else None
    return dict(an.request) if an else {}


def stops_in_words(store: Store, analysis_id: str) -> pd.DataFrame:
    """The analysis's stopped or failed stages as a person reads them: the stage and risk by label, the
    reason with variable ids as labels; ``stage_id`` keeps the recorded name."""
    frame = stops_frame(store, analysis_id)
    risks = risk_labels(store, analysis_id)
    variables = {**variable_labels(store), **risks}  # a reason names variables and risks by their ids
    return pd.DataFrame(
        {
            "stage": [stage_label(s, risks) for s in frame["stage"]],
            "status": frame["status"],
            "reason": [in_words(r or "", variables) for r in frame["reason"]],
            "stage_id": frame["stage"],
        }
    )


def analysis_ids(store: Store) -> list[str]:
    """Ids of every analysis that left a stage record or a model run, in insertion order."""
    seen: dict[str, None] = {}
    for an in store.all(Analysis):
        seen[an.analysis_id] = None
    for rec in store.all(StageRecord):
        seen[rec.analysis_id] = None
    for run in store.all(ModelRun):
        seen[run.analysis_id] = None
    return list(seen)


STAGE_COLUMNS = ["stage", "status", "reason", "started_at", "ended_at", "seconds", "input_digest", "output_digest"]


def stages_frame(store: Store, analysis_id: str) -> pd.DataFrame:
    """Stage attempts of one analysis in the order they were recorded."""
    rows = [
        {
            "stage": r.stage,
            "status": r.status.value,
            "reason": r.reason,
            "started_at": r.started_at,
            "ended_at": r.ended_at,
            "seconds": (r.ended_at - r.started_at).total_seconds(),
            "input_digest": _short(r.input_digest),
            "output_digest": _short(r.output_digest),
        }
        for r in store.find(StageRecord, analysis_id=analysis_id)
    ]
    return _frame(rows, STAGE_COLUMNS)


def stages_in_words(store: Store, analysis_id: str) -> pd.DataFrame:
    """:func:`stages_frame` as a person reads it: each stage by its risk's label and name in words, the
    reason with variable ids as labels; the recorded stage name stays in ``stage_id``."""
    frame = stages_frame(store, analysis_id)
    risks = risk_labels(store, analysis_id)
    variables = {**variable_labels(store), **risks}
    return frame.assign(
        stage_id=frame["stage"],
        stage=[stage_label(s, risks) for s in frame["stage"]],
        reason=[in_words(r or "", variables) for r in frame["reason"]],
    )


STATUS_COLOURS = {"completed": "#2e7d32", "stopped": "#ef6c00", "failed": "#c62828"}


def stage_timeline(store: Store, analysis_id: str) -> go.Figure:
    """Gantt-style timeline of an analysis's stage attempts, coloured by status, stages by their labels."""
    frame = stages_in_words(store, analysis_id)
    fig = go.Figure()
    for status, group in frame.groupby("status", sort=False):
        # Bars start at the stage start and last its duration (at least 1 ms, so instant stages show).
        fig.add_trace(
            go.Bar(
                name=status,
                orientation="h",
                y=group["stage"],
                base=[t.isoformat() for t in group["started_at"]],
                x=[max(s, 0.001) * 1000 for s in group["seconds"]],
                marker_color=STATUS_COLOURS.get(status, "#607d8b"),
                customdata=group[["reason"]].to_numpy(),
                hovertemplate="%{y}: %{x:.0f} ms<br>%{customdata[0]}<extra>" + status + "</extra>",
            )
        )
    fig.update_layout(
        barmode="overlay",
        xaxis={"type": "date", "title": "time (UTC)"},
        yaxis={"autorange": "reversed", "title": ""},
        height=120 + 28 * max(len(frame), 1),
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        title=f"Stages of {analysis_labels(store).get(analysis_id, analysis_id)}",
    )
    return fig


# --------------------------------------------------------------------------- sources


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


# --------------------------------------------------------------------------- relations


RELATION_COLUMNS = [
    "relation_id",
    "src_var",
    "dst_var",
    "sign",
    "evidence_class",
    "verb",
    "quote",
    "title",
    "publisher",
    "publication_date",
    "page",
    "cell",
    "role",
    "confidence",
    "graph_condition",
    "review_decision",
    "location_id",
    "source_id",
]


def relations_frame(
    store: Store,
    *,
    published_by: date | None = None,
    condition: str | None = None,
    relation_ids: list[str] | None = None,
) -> pd.DataFrame:
    """Stored relations with their quote and source, optionally filtered.

    ``published_by`` keeps relations whose source was published on or before that date;
    ``condition`` keeps one graph condition (G0, G1, …); ``relation_ids`` keeps a subset.
    """
    where: dict[str, Any] = {}
    if condition:
        where["graph_condition"] = condition
    if relation_ids is not None:
        where["relation_id"] = list(relation_ids)
    sources = _sources_by_id(store)
    locs = {}
    rows = []
    for r in store.find(Relation, **where):
        if published_by is not None and (r.publication_date is None or r.publication_date > published_by):
            continue
        if r.location_id not in locs:
            locs[r.location_id] = store.get(SourceLocation, r.location_id)
        loc = locs[r.location_id]
        s = sources.get(r.source_id)
        rows.append(
            {
                "relation_id": r.relation_id,
                "src_var": r.src_var,
                "dst_var": r.dst_var,
                "sign": r.sign.value,
                "evidence_class": r.evidence_class.value,
                "verb": r.verb,
                "quote": r.quote,
                "title": s.title if s else "",
                "publisher": s.publisher if s else "",
                "publication_date": r.publication_date,
                "page": loc.page if loc else None,
                "cell": (f"{loc.sheet}!{loc.cell}" if loc and loc.sheet else (loc.cell if loc else None)),
                "role": r.role.value,
                "confidence": r.confidence,
                "graph_condition": r.graph_condition,
                "review_decision": r.review_decision,
                "location_id": r.location_id,
                "source_id": r.source_id,
            }
        )
    return _frame(rows, RELATION_COLUMNS)


def as_of_relation_ids(
    store: Store, as_of: date | None, condition: str, roles: tuple[str, ...] = tuple(r.value for r in GENERATION_ROLES)
) -> list[str]:
    """Ids of the as-of edge set A(t) of a graph condition (the graph area's definition)."""
    return [
        r.relation_id
        for r in as_of_relations(load_relations(store, condition=condition), as_of, roles=roles, condition=condition)
    ]


def channel_graph_html(store: Store, relation_ids: tuple[str, ...], title: str = "Channel graph") -> str:
    """The interactive pyvis page (resources in-line, works offline) of the given relations."""
    relations = store.find(Relation, relation_id=list(relation_ids))
    sources = _sources_by_id(store)
    locations = {
        loc.location_id: loc
        for loc in store.find(SourceLocation, location_id=sorted({r.location_id for r in relations}))
    }
    return render_graph(relations, sources, locations, title=title)


def graph_conditions(store: Store) -> list[str]:
    """Graph conditions present among stored relations (G0, G1, …)."""
    return sorted({r.graph_condition for r in store.all(Relation)})


def risk_relation_ids(store: Store, risk: str) -> list[str]:
    """Relations used by the stored paths of ``risk`` (every pooled relation of every step)."""
    ids: dict[str, None] = {}
    for p in store.find(Path, risk=risk):
        for step in p.evidence:
            for rid in step:
                ids[rid] = None
        for rid in p.relation_ids:
            ids[rid] = None
    return list(ids)


def risks(store: Store) -> list[str]:
    """Risks named by stored channel queries, paths, restrictions or reports."""
    names: dict[str, None] = {}
    for cls in (ChannelQuery, Path, Restriction, Report):
        for rec in store.all(cls):
            names[rec.risk] = None
    return list(names)


OPPOSING_COLUMNS = ["src_var", "dst_var", "sign_a", "quote_a", "source_a", "sign_b", "quote_b", "source_b"]


def opposing_relations(relations: pd.DataFrame) -> pd.DataFrame:
    """Pairs of accepted relations on the same edge with opposite signs, side by side."""
    rows = []
    accepted = relations[relations["review_decision"] == "accepted"] if len(relations) else relations
    for (src, dst), group in accepted.groupby(["src_var", "dst_var"], sort=True):
        plus = group[group["sign"] == "+"]
        minus = group[group["sign"] == "-"]
        for _, a in plus.iterrows():
            for _, b in minus.iterrows():
                rows.append(
                    {
                        "src_var": src,
                        "dst_var": dst,
                        "sign_a": a["sign"],
                        "quote_a": a["quote"],
                        "source_a": f"{a['title']} ({a['publication_date']}, p. {a['page']})",
                        "sign_b": b["sign"],
                        "quote_b": b["quote"],
                        "source_b": f"{b['title']} ({b['publication_date']}, p. {b['page']})",
                    }
                )
    return _frame(rows, OPPOSING_COLUMNS)


# --------------------------------------------------------------------------- paths and restrictions


QUERY_COLUMNS = ["risk", "source", "source_movement", "target", "target_movement", "max_len", "top_k", "query_id"]


def analysis_query_ids(store: Store, analysis_id: str) -> set[str] | None:
    """The channel-query ids an analysis's request registers (None when its request cannot be read)."""
    from aieco.errors import AiecoError
    from aieco.request import parse_request

    an = store.get(Analysis, analysis_id)
    if an is None:
        return None
    try:
        req = parse_request(an.request)
        return {q.query_id for risk in req.risks for q in req.channel_queries(risk.name)}
    except (AiecoError, ValueError, KeyError, TypeError):
        return None


def queries_frame(store: Store, analysis_id: str | None = None) -> pd.DataFrame:
    """Registered channel queries (of one analysis's request, or all) with variable labels (the id last)."""
    labels = variable_labels(store)
    keep = analysis_query_ids(store, analysis_id) if analysis_id else None
    rows = [
        {
            "query_id": q.query_id,
            "risk": q.risk.replace("_", " "),
            "source": labels.get(q.source_var, q.source_var),
            "source_movement": q.source_movement.value,
            "target": labels.get(q.target_var, q.target_var),
            "target_movement": q.target_movement.value,
            "max_len": q.max_len,
            "top_k": q.top_k,
        }
        for q in store.all(ChannelQuery)
        if keep is None or q.query_id in keep
    ]
    return _frame(rows, QUERY_COLUMNS)


PATH_COLUMNS = [
    "risk",
    "query",
    "rank",
    "channel",
    "signs",
    "composed_sign",
    "score",
    "mean_confidence",
    "n_docs",
    "outcome",
    "why",
    "graph_condition",
    "path_id",
]


def paths_frame(store: Store, analysis_id: str) -> pd.DataFrame:
    """Ranked candidate paths of an analysis with S(C), composed sign and outcome.

    The outcome and its reason come from the stored Derivation of each risk, which lists
    every assessed (selected) path; a candidate the path selection left out shows as "not selected".
    """
    assessed: dict[str, dict[str, Any]] = {}
    for d in store.find(Derivation, analysis_id=analysis_id):
        for item in d.assessed:
            if "path_id" in item:
                assessed[item["path_id"]] = item
    queries = {q.query_id: q for q in store.all(ChannelQuery)}
    names = variable_labels(store)
    rows = []
    for p in store.find(Path, analysis_id=analysis_id):
        q = queries.get(p.query_id)
        label = (
            f"{names.get(q.source_var, q.source_var)} {q.source_movement.value} → "
            f"{names.get(q.target_var, q.target_var)} {q.target_movement.value}"
            if q
            else p.query_id
        )
        a = assessed.get(p.path_id, {})
        rows.append(
            {
                "risk": p.risk,
                "query": label,
                "rank": p.rank,
                "channel": " → ".join(names.get(v, v) for v in p.variables),
                "signs": " ".join(s.value for s in p.signs),
                "composed_sign": p.composed_sign.value,
                "score": p.score,
                "mean_confidence": p.mean_confidence,
                "n_docs": p.n_docs,
                "outcome": a.get("outcome", "not selected"),
                "why": a.get("reason", ""),
                "graph_condition": p.graph_condition,
                "path_id": p.path_id,
            }
        )
    frame = _frame(rows, PATH_COLUMNS)
    return frame.sort_values(["risk", "query", "rank"], kind="stable").reset_index(drop=True)


DERIVATION_COLUMNS = ["risk", "status", "reason", "restrictions", "assessed_paths", "graph_condition"]


def derivations_frame(store: Store, analysis_id: str) -> pd.DataFrame:
    rows = [
        {
            "risk": d.risk,
            "status": d.status,
            "reason": d.reason,
            "restrictions": len(d.restriction_ids),
            "assessed_paths": len(d.assessed),
            "graph_condition": d.graph_condition,
        }
        for d in store.find(Derivation, analysis_id=analysis_id)
    ]
    return _frame(rows, DERIVATION_COLUMNS)


RESTRICTION_COLUMNS = [
    "risk",
    "variable",
    "model variable",
    "direction",
    "priority",
    "derivation",
    "reference",
    "horizon",
    "aggregation",
    "supporting relations",
    "supporting_quotes",
    "restriction_id",
    "supporting_relation_ids",
    "risk_id",
    "variable_id",
]


def restrictions_frame(store: Store, analysis_id: str) -> pd.DataFrame:
    """Derived restrictions as a person reads them (risk, variables, derivation, reference and aggregation in
    words; how many relations support each, with their quotes); the ids follow in the last columns."""
    risks, variables = risk_labels(store, analysis_id), variable_labels(store)
    rows = []
    for r in store.find(Restriction, analysis_id=analysis_id):
        rels = store.find(Relation, relation_id=list(r.supporting_relation_ids))
        rows.append(
            {
                "risk": risk_label(r.risk, risks),
                "variable": variables.get(r.variable, words(r.variable)),
                "model variable": variables.get(r.model_variable, words(r.model_variable or "")),
                "direction": "increase" if r.direction == 1 else "decrease",
                "priority": r.priority,
                "derivation": words(r.derivation),
                "reference": words(r.reference),
                "horizon": r.horizon,
                "aggregation": words(r.aggregation),
                "supporting relations": len(r.supporting_relation_ids),
                "supporting_quotes": " | ".join(f"“{x.quote}”" for x in rels),
                "restriction_id": r.restriction_id,
                "supporting_relation_ids": ", ".join(r.supporting_relation_ids),
                "risk_id": r.risk,
                "variable_id": r.variable,
            }
        )
    return _frame(rows, RESTRICTION_COLUMNS)


# --------------------------------------------------------------------------- model runs


RUN_COLUMNS = [
    "run_id",
    "analysis_id",
    "model_id",
    "risk",
    "role",
    "status",
    "reason",
    "started_at",
    "seconds",
    "seed",
    "points",
    "output_digest",
    "request_digest",
    "code_digest",
    "config_digest",
    "env_digest",
    "inputs",
    "diagnostics",
    "parent_runs",
    "graph_condition",
]


def runs_frame(store: Store, analysis_id: str | None = None) -> pd.DataFrame:
    """The ModelRun table: status, digests, timing and diagnostics."""
    recs = store.find(ModelRun, analysis_id=analysis_id) if analysis_id else list(store.all(ModelRun))
    requests = {q.digest(): q for q in store.find(ModelRequest, analysis_id=sorted({r.analysis_id for r in recs}))}
    rows = [
        {
            "run_id": r.run_id,
            "analysis_id": r.analysis_id,
            "model_id": r.model_id,
            "risk": requests[r.request_digest].risk if r.request_digest in requests else None,
            "role": r.role,
            "status": r.status.value,
            "reason": r.reason,
            "started_at": r.started_at,
            "seconds": (r.ended_at - r.started_at).total_seconds(),
            "seed": r.seed,
            "points": store.count(ModelOutputPoint, run_id=r.run_id),
            "output_digest": _short(r.output_digest),
            "request_digest": _short(r.request_digest),
            "code_digest": _short(r.code_digest),
            "config_digest": _short(r.config_digest),
            "env_digest": _short(r.env_digest),
            "inputs": ", ".join(f"{k}={_short(v)}" for k, v in r.input_digests.items()),
            "diagnostics": canonical_json(r.diagnostics),
            "parent_runs": ", ".join(r.parent_runs),
            "graph_condition": r.graph_condition,
        }
        for r in recs
    ]
    return _frame(rows, RUN_COLUMNS)


def diagnostics_frame(store: Store, run_id: str) -> pd.DataFrame:
    """A run's diagnostics, one row per (flattened) key."""
    run = store.require(ModelRun, run_id)
    rows = [
        {"diagnostic": k, "value": canonical_json(v) if isinstance(v, (dict, list)) else v}
        for k, v in _flatten(run.diagnostics).items()
    ]
    return _frame(rows, ["diagnostic", "value"])


def _flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in obj.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            out.update(_flatten(v, key + "."))
        else:
            out[key] = v
    return out


POINT_COLUMNS = [
    "point_id",
    "variable",
    "unit",
    "transformation",
    "period",
    "statistic",
    "quantile",
    "simulation_id",
    "entity",
    "risk",
    "value",
    "status",
    "table_name",
    "row",
    "column",
]


def points_frame(store: Store, run_id: str) -> pd.DataFrame:
    """Every output point of a run with its artifact location (table, row, column)."""
    rows = [
        {
            "point_id": p.point_id,
            "variable": p.variable,
            "unit": p.unit,
            "transformation": p.transformation,
            "period": p.period,
            "statistic": p.statistic,
            "quantile": p.quantile,
            "simulation_id": p.simulation_id,
            "entity": p.entity,
            "risk": p.risk,
            "value": p.value,
            "status": p.status.value,
            "table_name": p.table_name,
            "row": p.row,
            "column": p.column,
        }
        for p in store.find(ModelOutputPoint, run_id=run_id)
    ]
    return _frame(rows, POINT_COLUMNS)


def output_tables(store: Store, run_id: str) -> dict[str, pd.DataFrame]:
    """The run's stored output tables (digest verified on read)."""
    run = store.require(ModelRun, run_id)
    return store.get_tables(run.output_digest) if run.output_digest else {}


_PERCENTILE = re.compile(r"^p(\d{2})$")


def with_quantiles(points: pd.DataFrame) -> pd.DataFrame:
    """Points whose statistic names a percentile (``p05`` … ``p95``) get that quantile level.

    Some models label their quantile points only by statistic; the charts band them all alike.
    """
    out = points.copy()
    missing = out["quantile"].isna()
    levels = out.loc[missing, "statistic"].str.extract(_PERCENTILE, expand=False).astype(float) / 100
    out.loc[missing, "quantile"] = levels
    return out


SELECTION_FIELDS = (
    "severity",
    "acceptance_share",
    "admissible",
    "draws",
    "simulation_id",
    "rule",
    "target_percentile",
    "scale",
)


def selection_summary(store: Store, run_id: str) -> dict[str, Any]:
    """Severity, acceptance share and the selected simulation, as the run stored them (else empty)."""
    table = output_tables(store, run_id).get("selection")
    if table is None or table.empty:
        return {}
    row = table.iloc[0]
    return {"risk": str(table.index[0]), **{k: row[k] for k in SELECTION_FIELDS if k in row.index}}


def request_of_run(store: Store, run: ModelRun) -> ModelRequest | None:
    """The ModelRequest a run executed (by the request digest the run recorded)."""
    return next(
        (r for r in store.find(ModelRequest, analysis_id=run.analysis_id) if r.digest() == run.request_digest), None
    )


def run_restrictions(store: Store, run_id: str) -> dict[str, str]:
    """Model variable → the restriction the run's request put on it, in words ("to fall (three-year mean
    over 2025-2027 below zero)"); a variable the run reports without an entry is restricted by no channel."""
    run = store.get(ModelRun, run_id)
    request = request_of_run(store, run) if run is not None else None
    out: dict[str, str] = {}
    for r in store.find(Restriction, restriction_id=list(request.restriction_ids)) if request else []:
        if r.model_variable:
            mean = "three-year mean" if r.aggregation == "three_year_mean" else r.aggregation.replace("_", " ")
            ref = "zero" if r.reference == "zero" else f"its {r.reference.replace('_', ' ')} value"
            move, side = ("rise", "above") if r.direction == 1 else ("fall", "below")
            out[r.model_variable] = f"to {move} ({mean} over {r.horizon} {side} {ref})"
    return out


def restriction_caption(variable: str, label: str, restrictions: dict[str, str], *, selected: bool = True) -> str:
    """What the run's restrictions say of one charted variable: its restriction, or that none binds it;
    ``selected`` False for a run that selected no path (no draw met the restrictions, or it stopped)."""
    if not selected:
        said = (
            f"restricted by the analysis's channels {restrictions[variable]}"
            if variable in restrictions
            else "no channel restricts it"
        )
        return f"{label}: {said}; this run selected no path, so the chart shows only the simulated distribution."
    if variable in restrictions:
        return f"{label}: restricted by the analysis's channels {restrictions[variable]}; the selected path meets it."
    return (
        f"{label}: no channel restricts it; the selected path is the model's joint response in the selected "
        "draw, not a direction the cited evidence sets."
    )


def _transformation(points: pd.DataFrame) -> str:
    """The transformation the charted points share (the most frequent, for the band and median rows)."""
    if "transformation" not in points.columns or points.empty:
        return ""
    return str(points["transformation"].mode().iloc[0])


def fan_chart(points: pd.DataFrame, variable: str, *, entity: str | None = None, title: str = "") -> go.Figure:
    """Fan chart of one variable from a run's output points.

    Quantile points (``quantile`` set) become shaded bands between symmetric quantiles
    (q, 1-q) and a median line; every other statistic (selected scenario, unconditional
    paths, single trajectories) is drawn as its own line. Values are the stored points.
    """
    sel = with_quantiles(points[points["variable"] == variable])
    if entity is not None:
        sel = sel[sel["entity"] == entity]
    # one point per period on the time axis: horizon summaries ('2025-2027': cumulative change, peak …)
    # are figures of the report, not points of a path
    sel = sel[~sel["period"].astype(str).str.contains(r"\d-\d", regex=True)]
    periods = sorted(sel["period"].unique())
    fig = go.Figure()
    quant = sel[sel["quantile"].notna()]
    levels = sorted(quant["quantile"].unique())
    for q in levels:
        if q >= 0.5:
            break
        upper = 1 - q
        if not any(abs(upper - u) < 1e-9 for u in levels):
            continue
        lo = quant[quant["quantile"] == q].set_index("period")["value"].reindex(periods)
        hi = quant[(quant["quantile"] - upper).abs() < 1e-9].set_index("period")["value"].reindex(periods)
        fig.add_trace(go.Scatter(x=periods, y=hi, mode="lines", line={"width": 0}, showlegend=False, hoverinfo="skip"))
        fig.add_trace(
            go.Scatter(
                x=periods,
                y=lo,
                mode="lines",
                line={"width": 0},
                fill="tonexty",
                fillcolor="rgba(31,78,121,0.15)",
                name=f"{q:.0%}–{upper:.0%}",
            )
        )
    median = quant[(quant["quantile"] - 0.5).abs() < 1e-9]
    if len(median):
        m = median.set_index("period")["value"].reindex(periods)
        fig.add_trace(go.Scatter(x=periods, y=m, mode="lines", line={"color": "#1f4e79"}, name="median"))
    others = sel[sel["quantile"].isna()]
    for (stat, sim), group in others.groupby(["statistic", others["simulation_id"].fillna(-1)], sort=True):
        name = _statistic_label(stat) + ("" if sim < 0 else f" (simulation {int(sim)})")
        g = group.sort_values("period")
        fig.add_trace(
            go.Scatter(
                x=g["period"],
                y=g["value"],
                mode="lines+markers",
                name=name,
                line={"width": 2.5 if stat == "selected" else 1.2, "dash": "solid" if stat == "selected" else "dot"},
            )
        )
    unit = sel["unit"].iloc[0] if len(sel) else ""
    what = measure(unit, _transformation(sel))
    fig.update_layout(
        title=title or variable,
        yaxis_title=f"{title or variable} ({what})" if what else (title or variable),  # the label, with its unit
        xaxis={"title": "period", "type": "category"},
        height=360,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        legend={"orientation": "h"},
    )
    return fig


def _statistic_label(statistic: str) -> str:
    """'selected' → 'selected scenario', 'unconditional_3' → 'unconditional path 3', others as words."""
    if statistic == "selected":
        return "selected scenario"
    head, _, tail = statistic.rpartition("_")
    if head and tail.isdigit():
        return f"{head.replace('_', ' ')} path {tail}"
    return statistic.replace("_", " ")


def model_variables(points: pd.DataFrame, *, with_entity: bool = False) -> list[str]:
    """Variables of a points table (those of entities such as banks, or those without)."""
    sel = points[points["entity"].notna()] if with_entity else points[points["entity"].isna()]
    return sorted(sel["variable"].unique())


def entities(points: pd.DataFrame) -> list[str]:
    return sorted(points["entity"].dropna().unique())


# --------------------------------------------------------------------------- bank capital


GATE_COLUMNS = [
    "model_id",
    "metric",
    "value",
    "rule",
    "threshold",
    "gate_passed",
    "fit_provenance",
    "validation_provenance",
    "detail",
    "run_id",
]


def _threshold(thresholds: dict[str, float], metric: str) -> tuple[str, float | None]:
    """The stored threshold of a metric: ``<metric>_max`` (value ≤), ``<metric>_min`` (≥) or ``<metric>``."""
    if f"{metric}_max" in thresholds:
        return "≤", thresholds[f"{metric}_max"]
    if f"{metric}_min" in thresholds:
        return "≥", thresholds[f"{metric}_min"]
    return ("", thresholds[metric]) if metric in thresholds else ("", None)


def validation_frame(store: Store) -> pd.DataFrame:
    """Validation metrics of each gate; the thresholded ones first, with their rule and the gate."""
    rows = []
    for g in store.all(ValidationGate):
        gated, other = [], []
        for metric, value in sorted(g.metrics.items()):
            rule, threshold = _threshold(g.thresholds, metric)
            (gated if threshold is not None else other).append(
                {
                    "model_id": g.model_id,
                    "metric": metric,
                    "value": value,
                    "rule": rule,
                    "threshold": threshold,
                    "gate_passed": g.passed,
                    "fit_provenance": _prov(g.fit_provenance),
                    "validation_provenance": _prov(g.validation_provenance),
                    "detail": g.detail,
                    "run_id": g.run_id,
                }
            )
        rows += gated + other
    # Per-metric verdicts are the bank area's to decide; the table shows the stored gate verdict.
    return _frame(rows, GATE_COLUMNS)


def _prov(value: Any) -> str:
    return getattr(value, "value", value) or "undeclared"


def bank_run_caption(store: Store, run_id: str) -> str:
    """Provenance of a bank run's data and the verdict of its model's gate, for the caption of each chart."""
    run = store.get(ModelRun, run_id)
    if run is None:
        return ""
    prov = run.diagnostics.get("provenance") or run.diagnostics.get("data_provenance") or "undeclared"
    if isinstance(prov, (list, tuple)):
        prov = ", ".join(map(str, prov))
    gates = store.find(ValidationGate, model_id=run.model_id)
    if not gates:
        gate = "no validation gate: no bank conclusion"
    else:
        g = next((g for g in gates if g.passed), gates[0])
        gate = (
            f"gate {'passed' if g.passed else 'failed'} (fit {_prov(g.fit_provenance)}, validation "
            f"{_prov(g.validation_provenance)})"
        )
    warn = " — SYNTHETIC banks, not real institutions" if "synthetic" in str(prov) else ""
    what = "" if takes_macro_path(run.model_id) else f" · {bank_outputs.NOT_SCENARIO_NOTE}"
    return f"Data provenance: {prov}{warn} · {model_name(run.model_id)}: {gate}{what}"


def bank_runs(store: Store) -> list[str]:
    """Runs whose output points are per entity (banks)."""
    ids: dict[str, None] = {}
    for p in store.all(ModelOutputPoint):
        if p.entity is not None:
            ids[p.run_id] = None
    return list(ids)


def quantile_ranges(
    points: pd.DataFrame,
    variable: str,
    period: str | None = None,
    *,
    label: str | None = None,
    names: dict[str, str] | None = None,
    period_label: str | None = None,
) -> go.Figure:
    """Distribution of a per-bank variable at one period: median and 5–95% range per bank.

    Banks are sorted by their stored median; the bars span their stored p05 to p95 (the
    lowest and highest quantile levels present). ``period`` defaults to the last period
    carrying quantile points (for CET1 depletion, the whole horizon). ``label``: the variable's
    label in the title; ``names``: the banks' names on the axis (ids where missing);
    ``period_label``: what the period is, in the title, where the stored span would mislead (banks
    starting from different exercises).
    """
    sel = with_quantiles(points)
    sel = sel[(sel["variable"] == variable) & sel["entity"].notna() & sel["quantile"].notna()]
    if period is None and len(sel):
        period = max(sel["period"])
    sel = sel[sel["period"] == period]
    table = sel.pivot_table(index="entity", columns="quantile", values="value", aggfunc="first")
    fig = go.Figure()
    centre = "median"
    if not table.empty:
        low, high = min(table.columns), max(table.columns)
        mid = min(table.columns, key=lambda q: abs(q - 0.5))
        # a model that stores a point and its 5–95 % bounds (no median): the point is the marker
        point = points[
            (points["variable"] == variable) & (points["statistic"] == "point") & (points["period"] == period)
        ]
        if abs(mid - 0.5) > 0.1 and len(point):
            table["point"] = point.set_index("entity")["value"].reindex(table.index).astype(float)
            mid, marker = "point", "predicted (point)"
        else:
            marker = f"{mid:.0%}"
        centre = "point" if mid == "point" else "median"
        table = table.sort_values(mid)
        fig.add_trace(
            go.Scatter(
                x=[names.get(b) or b for b in table.index] if names else table.index,
                y=table[mid],
                mode="markers",
                name=marker,
                marker={"color": "#1f4e79"},
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": table[high] - table[mid],
                    "arrayminus": table[mid] - table[low],
                    "color": "rgba(31,78,121,0.45)",
                },
            )
        )
        fig.data[0].update(hovertemplate="%{x}: %{y:.3f} (" + f"{low:.0%}–{high:.0%} range)<extra></extra>")
    unit = sel["unit"].iloc[0] if len(sel) else ""
    fig.update_layout(
        title=f"{label or variable} {period_label or f'in {period}'}: {centre} and range by bank",
        yaxis_title=unit,
        xaxis={"type": "category"},
        height=380,
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
    )
    return fig


# --------------------------------------------------------------------------- reports and claims


REPORT_COLUMNS = [
    "report_id",
    "analysis_id",
    "risk",
    "title",
    "status",
    "failure_rule",
    "claims",
    "relations",
    "graph_condition",
]


def reports_frame(store: Store) -> pd.DataFrame:
    from aieco.api import report_rows

    return _frame(report_rows(store), REPORT_COLUMNS)


def report_sentences(store: Store, report_id: str) -> list[dict[str, Any]]:
    """The report's sentences in order, each with its rendered text and its claims' points."""
    out = []
    labels = variable_labels(store)
    for s in sorted(store.find(ReportSentence, report_id=report_id), key=lambda s: s.position):
        claims = []
        for cid in s.claim_ids:
            c = store.get(Claim, cid)
            if c is None:
                claims.append({"claim_id": cid, "missing": True})
                continue
            p = store.get(ModelOutputPoint, c.point_id)
            claims.append(
                {
                    "claim_id": cid,
                    "missing": False,
                    "run_id": c.run_id,
                    "point_id": c.point_id,
                    "variable_label": labels.get(c.variable, c.variable),
                    "model_id": c.model_id,
                    "variable": c.variable,
                    "unit": c.unit,
                    "period": c.period,
                    "rounding": c.rounding,
                    "value": p.value if p else None,
                }
            )
        out.append(
            {
                "position": s.position,
                "kind": s.kind.value,
                "rendered": s.rendered or s.template,
                "status": s.status,
                "failure": s.failure,
                "claims": claims,
                "cited_relation_ids": list(s.cited_relation_ids),
            }
        )
    return out


EXPORT_FORMATS = {
    "html": ("HTML", "html", "text/html"),
    "md": ("Markdown", "md", "text/markdown"),
    "tex": ("LaTeX", "tex", "application/x-tex"),
    "pdf": ("PDF", "pdf", "application/pdf"),
    "json": ("JSON bundle", "json", "application/json"),
}


def report_export(store: Store, report_id: str, fmt: str) -> bytes:
    """The report exported by the reporting library (re-rendered from its claims first)."""
    return export_report(store, report_id, fmt)


def report_file_name(store: Store, report_id: str, fmt: str) -> str:
    """The download's file name, from the report's title (never its id)."""
    from aieco.reporting.export import export_file_name

    return export_file_name(store, report_id, fmt)


def report_of_claim(store: Store, claim_id: str) -> str | None:
    """The report whose sentences carry ``claim_id`` (the first one stored), if any."""
    for r in store.all(Report):
        if claim_id in r.claim_ids:
            return r.report_id
    return None


def claim_of_point(store: Store, point_id: str) -> str | None:
    """The claim registered on a point, if any."""
    found = store.find(Claim, point_id=point_id, limit=1)
    return found[0].claim_id if found else None


OUTPUT_TEST_COLUMNS = [
    "claim_id",
    "phase",
    "variable",
    "horizon",
    "model_id",
    "result",
    "reported_value",
    "stored_value",
    "tolerance",
    "detail",
    "run_id",
]


def output_tests_frame(store: Store, analysis_id: str) -> pd.DataFrame:
    rows = [
        {
            "claim_id": t.claim_id,
            "phase": t.phase,
            "variable": t.variable,
            "horizon": t.horizon,
            "model_id": t.model_id,
            "result": t.result,
            "reported_value": t.reported_value,
            "stored_value": t.stored_value,
            "tolerance": t.tolerance,
            "detail": t.detail,
            "run_id": t.run_id,
        }
        for t in store.find(OutputTest, analysis_id=analysis_id)
    ]
    return _frame(rows, OUTPUT_TEST_COLUMNS)


# --------------------------------------------------------------------------- LLM calls


LLM_COLUMNS = [
    "stage",
    "task",
    "sequence",
    "backend",
    "requested_model",
    "returned_model",
    "status",
    "input_tokens",
    "output_tokens",
    "cost_usd",
    "seconds",
    "error",
    "call_id",
]


def llm_calls_frame(store: Store, analysis_id: str) -> pd.DataFrame:
    """LLM calls of an analysis with tokens and cost."""
    rows = [
        {
            "stage": c.stage,
            "task": c.task,
            "sequence": c.sequence,
            "backend": c.backend,
            "requested_model": c.requested_model,
            "returned_model": c.returned_model,
            "status": c.status,
            "input_tokens": c.input_tokens,
            "output_tokens": c.output_tokens,
            "cost_usd": c.cost_usd,
            "seconds": (c.ended_at - c.started_at).total_seconds(),
            "error": c.error,
            "call_id": c.call_id,
        }
        for c in store.find(LLMCall, analysis_id=analysis_id)
    ]
    return _frame(rows, LLM_COLUMNS)


# --------------------------------------------------------------------------- vocabulary


def variable_ids(store: Store) -> list[str]:
    """Controlled-vocabulary variable ids stored in the workspace, sorted."""
    return sorted(v.variable_id for v in store.all(Variable))


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


# --------------------------------------------------------------------------- labels (ids only in details)


def _when(value: Any) -> str:
    """A stored timestamp as the analyst reads it (UTC, to the minute)."""
    if value is None:
        return ""
    return pd.Timestamp(value).strftime("%Y-%m-%d %H:%M UTC")


def analysis_labels(store: Store) -> dict[str, str]:
    """Each analysis as 'title · cutoff … · run …', newest first; ids only where no record says more.

    Two analyses with the same title and cutoff still differ by the time they ran; should
    that tie too, the id's first characters tell them apart, so every label is unique.
    """
    records = {an.analysis_id: an for an in store.all(Analysis)}
    ordered = sorted(
        analysis_ids(store), key=lambda a: records[a].created_at.isoformat() if a in records else "", reverse=True
    )
    labels = {}
    for a in ordered:
        an = records.get(a)
        if an is None:
            labels[a] = f"analysis {a}"
            continue
        title = an.request.get("title") or an.label or a
        labels[a] = f"{title} · cutoff {an.request.get('cutoff', '?')} · run {_when(an.created_at)}"
    return _unique(labels)


def _unique(labels: dict[str, str]) -> dict[str, str]:
    counts: dict[str, int] = defaultdict(int)
    for label in labels.values():
        counts[label] += 1
    return {k: (f"{v} [{_short(k)}]" if counts[v] > 1 else v) for k, v in labels.items()}


def analysis_cutoff(store: Store, analysis_id: str | None) -> date | None:
    """The information cutoff of an analysis's request (the dashboard's default 'as of')."""
    an = store.get(Analysis, analysis_id) if analysis_id else None
    raw = an.request.get("cutoff") if an else None
    return date.fromisoformat(str(raw)) if raw else None


def variable_labels(store: Store) -> dict[str, str]:
    """Vocabulary labels by variable id: the workspace's stored variables over the packaged vocabulary."""
    from aieco.vocab import load_vocabulary

    packaged = {k: v.label for k, v in load_vocabulary().variables.items()}
    return packaged | {v.variable_id: v.label for v in store.all(Variable)}


def report_labels(store: Store, analysis_id: str | None = None) -> dict[str, str]:
    """One unique entry per report: risk — title · analysis · status (of one analysis, or all)."""
    analyses = analysis_labels(store)
    reports = [r for r in store.all(Report) if analysis_id is None or r.analysis_id == analysis_id]
    labels = {
        r.report_id: (
            f"{r.risk.replace('_', ' ')} — {r.title} · {r.status}"
            + ("" if analysis_id else f" · {analyses.get(r.analysis_id, r.analysis_id)}")
        )
        for r in reports
    }
    return _unique(labels)


#: What the registered models are called where the analyst reads them (the id stays in the details).
MODEL_NAMES = {
    "macro_var": "VAR scenario generator",
    "bank_feols_fit": "Bank FE-OLS fit",
    "bank_feols": "Bank CET1 projection (FE-OLS)",
    "bank_feqar_fit": "Bank FE-QAR fit",
    "bank_feqar": "Bank CET1 projection (FE-QAR)",
    "bank_eba_components": "Bank CET1 depletion (EBA components)",
    "bank_eba_depletion": "Bank CET1 depletion (EBA direct)",
    "bank_eba_scenario": "Bank CET1 depletion under the scenario (EBA severity-scaled)",
}


def model_name(model_id: str) -> str:
    """The model's readable name ('VAR scenario generator'); unknown ids as they are."""
    base, _, variant = model_id.partition(":")  # e.g. bank_eba_components:2016->2021
    name = MODEL_NAMES.get(base, base)
    return f"{name} ({variant})" if variant else name


def run_labels(store: Store, analysis_id: str | None = None) -> dict[str, str]:
    """Each run as 'model · risk · role · started' (unique); a run of a model that takes no macro path
    ends '· not scenario-conditional'."""
    frame = runs_frame(store, analysis_id)
    labels = {
        r["run_id"]: " · ".join(
            x
            for x in (
                model_name(r["model_id"]),
                (r["risk"] or "").replace("_", " "),
                r["role"],
                _when(r["started_at"]),
                "" if takes_macro_path(r["model_id"]) else bank_outputs.NOT_SCENARIO_TAG,
            )
            if x
        )
        for _, r in frame.iterrows()
    }
    return _unique(labels)


def scenario_note(store: Store, run_id: str) -> str:
    """What a bank run's figures are when its model takes no macro path (else empty): not an outcome
    of the analysis's scenario, and, under a passed real-data gate, real-data model outputs with caveats."""
    run = store.get(ModelRun, run_id)
    if run is None or takes_macro_path(run.model_id):
        return ""
    note = bank_outputs.NOT_SCENARIO_NOTE[0].upper() + bank_outputs.NOT_SCENARIO_NOTE[1:] + "."
    real = [
        g
        for g in store.find(ValidationGate, model_id=run.model_id)
        if g.passed and _prov(g.fit_provenance) == "real" and _prov(g.validation_provenance) == "real"
    ]
    if real:
        note += (
            " The figures are real-data model outputs under a passed real-data validation gate "
            "(its caveats: docs/bank-validation.md)."
        )
    return note


def source_labels(store: Store) -> dict[str, str]:
    """Each source as 'title — publisher, date'."""
    return _unique({s.source_id: f"{s.title} — {s.publisher}, {s.publication_date}" for s in store.all(Source)})


# --------------------------------------------------------------------------- provenance


def provenance_of_analysis(store: Store, analysis_id: str | None) -> dict[str, str]:
    """What the analysis's numbers and sentences rest on: evidence and data provenance, in words.

    Evidence: ``illustrative`` when any source its relations quote is flagged
    illustrative, else ``real``. Data: the declared provenance of the stored observations
    (``synthetic``/``real``/``illustrative``); observations that declare none are reported
    as ``undeclared`` rather than guessed.
    """
    restrictions = store.find(Restriction, analysis_id=analysis_id) if analysis_id else []
    relation_ids = [rid for r in restrictions for rid in r.supporting_relation_ids]
    sources = _sources_by_id(store)
    used = {r.source_id for r in store.find(Relation, relation_id=relation_ids)} if relation_ids else set(sources)
    evidence = (
        "illustrative" if any(sources[s].illustrative for s in used if s in sources) else ("real" if used else "none")
    )
    declared = {p.value: store.count(ObservedValue, provenance=p.value) for p in Provenance}
    kinds = [k for k, n in declared.items() if n]
    if store.count(ObservedValue) > sum(declared.values()):
        kinds.append("undeclared")
    return {"evidence": evidence, "data": " + ".join(kinds) if kinds else "none"}


def provenance_badge(prov: dict[str, str]) -> str:
    """The provenance line shown beside every chart and number."""
    warn = prov["evidence"] != "real" or prov["data"] != "real"
    return (
        ("⚠ " if warn else "")
        + f"Provenance — evidence: **{prov['evidence']}**, model data: **{prov['data']}**"
        + (" (not real-world results)" if warn else "")
    )


# --------------------------------------------------------------------------- the chain behind one number


CHAIN_COLUMNS = [
    "path",
    "step",
    "from",
    "sign",
    "to",
    "evidence_class",
    "quote",
    "source",
    "publisher",
    "publication_date",
    "page",
    "representative",
    "relation_id",
    "reading",
]


#: What a model run's inputs are, where the analyst reads the chain (the raw key stays in the details).
INPUT_LABELS = {
    "observations": "Macro observations released by the cutoff",
    "restrictions": "Sign restrictions from the channel paths",
    "cutoff": "Information cutoff",
    "vintage_policy": "Vintage policy (strict or approximate release dates)",
    "taken": "Scenarios already selected for other risks (excluded)",
    "draws": "Number of simulated draws",
    "macro_history": "Macro history for the bank fit",
    "panel": "Bank panel (CET1 capital, RWA, income)",
    "options": "Model options",
    "official": "Official stress-test starting figures per bank",
    "params": "Fitted coefficients",
    "fixed_effects": "Bank fixed effects",
    "residuals": "Fit residuals (for resampling)",
    "scenario": "Macro scenario per country and period",
    "start_state": "Each bank's starting state",
    "seed": "Random seed",
    "horizon": "Projection horizon",
    "settings": "Settings",
    "request": "Model request",
    "graph": "Channel graph",
    "relations": "Relations",
}


def input_label(key: str) -> str:
    """The readable name of a model run's input ('taken' → 'Scenarios already selected …'); others in words."""
    return INPUT_LABELS.get(key, key.replace("_", " ").capitalize())


def claim_chain(store: Store, claim_id: str) -> dict[str, Any]:
    """The chain behind one reported number, in reading order.

    claim → its OutputTests → the ModelRun (inputs with provenance) → the restrictions on
    the claim's own variable (else every restriction of the run's request, said so) → the
    selected path each restriction came from, step by step → the quote and page of every
    relation pooled on that step.
    """
    claim = store.require(Claim, claim_id)
    point = store.require(ModelOutputPoint, claim.point_id)
    run = store.require(ModelRun, claim.run_id)
    labels = variable_labels(store)
    request = request_of_run(store, run)
    restrictions = store.find(Restriction, restriction_id=list(request.restriction_ids)) if request else []
    own = [r for r in restrictions if claim.variable in (r.variable, r.model_variable)]
    chosen = own or restrictions
    tests = [
        {
            "phase": t.phase,
            "result": t.result,
            "reported_value": t.reported_value,
            "stored_value": t.stored_value,
            "tolerance": t.tolerance,
            "detail": t.detail,
            "test_id": t.test_id,
        }
        for t in store.find(OutputTest, claim_id=claim_id)
    ]
    prov = provenance_of_analysis(store, run.analysis_id)

    def input_provenance(name: str) -> str:
        if name in ("restrictions", "graph", "relations"):
            return prov["evidence"]
        if name in ("cutoff", "horizon", "seed", "settings", "request"):
            return "request parameter"
        return prov["data"]

    inputs = [
        {"input": input_label(k), "provenance": input_provenance(k), "key": k, "digest": _short(v)}
        for k, v in run.input_digests.items()
    ]
    restriction_rows = [
        {
            "variable": labels.get(r.variable, r.variable),
            "direction": "increase" if r.direction == 1 else "decrease",
            "priority": r.priority,
            "horizon": r.horizon,
            "aggregation": r.aggregation,
            "derivation": r.derivation,
            "restriction_id": r.restriction_id,
        }
        for r in chosen
    ]
    paths = store.find(Path, path_id=sorted({r.path_id for r in chosen if r.path_id}))
    supporting = {rid for r in chosen for rid in r.supporting_relation_ids}
    steps = []
    for p in paths:
        chain = " → ".join(labels.get(v, v) for v in p.variables)
        for i, pooled in enumerate(p.evidence or [[rid] for rid in p.relation_ids]):
            rep = p.relation_ids[i] if i < len(p.relation_ids) else None
            ids = [rid for rid in pooled if rid in supporting or rid == rep]
            frame = relations_frame(store, relation_ids=ids)
            frame = frame.sort_values("relation_id", key=lambda s: s != rep, kind="stable")
            for _, rel in frame.iterrows():
                steps.append(
                    {
                        "path": chain,
                        "step": i + 1,
                        "from": labels.get(rel["src_var"], rel["src_var"]),
                        "sign": rel["sign"],
                        "to": labels.get(rel["dst_var"], rel["dst_var"]),
                        "evidence_class": rel["evidence_class"],
                        "quote": rel["quote"],
                        "source": rel["title"],
                        "publisher": rel["publisher"],
                        "publication_date": rel["publication_date"],
                        "page": rel["page"],
                        "representative": rel["relation_id"] == rep,
                        "relation_id": rel["relation_id"],
                    }
                )
    reading = citation_notes(store, [step["relation_id"] for step in steps])
    for step in steps:
        step["reading"] = reading.get(step["relation_id"], "")
    runs = run_labels(store, run.analysis_id)
    return {
        "claim": {
            "claim_id": claim.claim_id,
            "variable": labels.get(claim.variable, claim.variable),
            "variable_id": claim.variable,
            "period": claim.period,
            "unit": claim.unit,
            "statistic": claim.statistic,
            "entity": claim.entity,
            "rounding": claim.rounding,
            "value": point.value,
            "point_id": point.point_id,
            "table": point.table_name,
            "row": point.row,
            "column": point.column,
        },
        "own_restrictions": bool(own),
        "tests": pd.DataFrame(
            tests, columns=["phase", "result", "reported_value", "stored_value", "tolerance", "detail", "test_id"]
        ),
        "run": {
            "label": runs.get(run.run_id, run.run_id),
            "run_id": run.run_id,
            "model_id": run.model_id,
            "status": run.status.value,
            "seed": run.seed,
            "started_at": _when(run.started_at),
            "output_digest": _short(run.output_digest),
            "code_digest": _short(run.code_digest),
        },
        "provenance": prov,
        "inputs": pd.DataFrame(inputs, columns=["input", "provenance", "key", "digest"]),
        "restrictions": pd.DataFrame(
            restriction_rows,
            columns=["variable", "direction", "priority", "horizon", "aggregation", "derivation", "restriction_id"],
        ),
        "chain": _frame(steps, CHAIN_COLUMNS),
    }


# --------------------------------------------------------------------------- the channel graph as a figure


EVIDENCE_SYMBOLS = {
    "causal": "diamond",
    "structural": "square",
    "predictive": "circle",
    "accounting": "cross",
    "institutional": "triangle-up",
    "descriptive": "circle-open",
    "policy judgment": "star",
    "unknown": "x",
}
SIGN_NAMES = {"+": "positive (+)", "-": "negative (−)", "non-monotone": "non-monotone", "ambiguous": "ambiguous"}
SIGN_COLOURS = {"+": "#1a7f37", "-": "#cf222e", "non-monotone": "#9a6700", "ambiguous": "#8250df"}
GRAPH_SEED = 7


def graph_layout(edges: list[tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """Node positions in layers, left to right along the direction of transmission.

    A variable's layer is its longest distance from a variable nothing points to (cycles
    collapsed first); within a layer variables are ordered by the mean height of what
    points to them, ties by id. Deterministic: the same edges always draw the same picture.
    """
    import networkx as nx

    g = nx.DiGraph()
    g.add_edges_from(sorted(set(edges)))
    if not g.nodes:
        return {}
    cond = nx.condensation(g)
    depth: dict[int, int] = {}
    for n in nx.lexicographical_topological_sort(cond):
        depth[n] = max((depth[p] + 1 for p in cond.predecessors(n)), default=0)
    layer = {v: depth[cond.graph["mapping"][v]] for v in g.nodes}
    pos: dict[str, tuple[float, float]] = {}
    for k in range(max(layer.values()) + 1):
        members = sorted(v for v in g.nodes if layer[v] == k)

        def height(v: str) -> float:
            placed = [pos[u][1] for u in g.predecessors(v) if u in pos]
            return sum(placed) / len(placed) if placed else 0.0

        members.sort(key=lambda v: (-height(v), v))
        n = len(members)
        for i, v in enumerate(members):
            pos[v] = (float(k), (n - 1) / 2 - i + (0.25 if k % 2 else 0.0))
    return dict(sorted(pos.items()))


def _wrap(label: str, width: int = 18) -> str:
    """A node label broken into lines of about ``width`` characters (plotly's <br>)."""
    lines, line = [], ""
    for word in label.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "<br>".join([*lines, line])


def channel_graph_figure(
    relations: pd.DataFrame, labels: dict[str, str], *, highlight: tuple[str, ...] = ()
) -> go.Figure:
    """The channel graph as a plotly figure: one arrow per edge, coloured by sign, one clickable marker per relation.

    Each relation is a marker on its edge (shape = evidence class, colour = sign) whose
    ``customdata`` is its relation id, so a click on it selects that relation. The legend
    lists the signs and evidence classes present.
    """
    pos = graph_layout(list(zip(relations["src_var"], relations["dst_var"], strict=True)))
    fig = go.Figure()
    marked = set(highlight)
    # Edges as a few line traces with an arrow marker at their end (one trace per colour and width)
    # and their sign labels as one text trace: the browser draws a handful of traces instead of two
    # annotations per edge (each measured and laid out on its own), which cost most of a page switch.
    lines: dict[tuple[str, bool], tuple[list, list, list]] = {}
    label_x, label_y, label_text, label_colour = [], [], [], []
    for (src, dst), group in relations.groupby(["src_var", "dst_var"], sort=True):
        (x0, y0), (x1, y1) = pos[src], pos[dst]
        signs = sorted(set(group["sign"]))
        colour = SIGN_COLOURS.get(signs[0], "#6e7781") if len(signs) == 1 else "#6e7781"
        wide = bool(marked & set(group["relation_id"]))
        # stand off the nodes' markers: start and end a little inside the segment
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        a, b = min(0.12 / length, 0.3), max(1 - 0.16 / length, 0.7)
        xs, ys, sizes = lines.setdefault((colour, wide), ([], [], []))
        xs += [x0 + a * dx, x0 + b * dx, None]
        ys += [y0 + a * dy, y0 + b * dy, None]
        sizes += [0, 15 if wide else 12, 0]
        n = len(group)
        label_x.append(x0 + 0.5 * dx)
        label_y.append(y0 + 0.5 * dy)
        label_text.append(
            "<b>" + "/".join({"+": "+", "-": "−"}.get(s, s) for s in signs) + (f" ×{n}" if n > 1 else "") + "</b>"
        )
        label_colour.append(colour)
    for (colour, wide), (xs, ys, sizes) in lines.items():
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines+markers",
                line={"color": colour, "width": 3.5 if wide else 1.8},
                marker={"symbol": "arrow", "angleref": "previous", "size": sizes, "color": colour},
                opacity=0.8,
                hoverinfo="skip",
                showlegend=False,
                unselected={"marker": {"opacity": 1}},
            )
        )
    fig.add_trace(
        go.Scatter(
            x=label_x,
            y=label_y,
            mode="text",
            text=label_text,
            textposition="top center",
            textfont={"size": 15, "color": label_colour},
            hoverinfo="skip",
            showlegend=False,
        )
    )
    for sign in [s for s in SIGN_COLOURS if s in set(relations["sign"])]:
        for ev in [e for e in EVIDENCE_SYMBOLS if e in set(relations["evidence_class"])]:
            sel = relations[(relations["sign"] == sign) & (relations["evidence_class"] == ev)]
            if sel.empty:
                continue
            xs, ys = [], []
            for _, r in sel.iterrows():
                group = relations[(relations["src_var"] == r["src_var"]) & (relations["dst_var"] == r["dst_var"])]
                k = list(group["relation_id"]).index(r["relation_id"])
                t = (k + 1) / (len(group) + 1) * 0.5 + 0.25  # spread along the middle half of the edge
                (x0, y0), (x1, y1) = pos[r["src_var"]], pos[r["dst_var"]]
                xs.append(x0 + t * (x1 - x0))
                ys.append(y0 + t * (y1 - y0))
            fig.add_trace(
                go.Scatter(
                    x=xs,
                    y=ys,
                    mode="markers",
                    name=f"{SIGN_NAMES[sign]} · {ev}",
                    legendgroup=sign,
                    marker={
                        "symbol": EVIDENCE_SYMBOLS[ev],
                        "size": 13,
                        "color": SIGN_COLOURS[sign],
                        "line": {"width": 1, "color": "white"},
                    },
                    unselected={"marker": {"opacity": 0.6}},
                    selected={"marker": {"size": 20}},
                    customdata=sel.assign(
                        src=sel["src_var"].map(lambda v: labels.get(v, v)),
                        dst=sel["dst_var"].map(lambda v: labels.get(v, v)),
                    )[["relation_id", "src", "dst", "title", "publication_date", "page"]]
                    .astype(str)
                    .to_numpy(),
                    hovertemplate=(
                        "%{customdata[1]} → %{customdata[2]}<br>%{customdata[3]} (%{customdata[4]}, "
                        "p. %{customdata[5]})<br><i>click for the quote</i><extra></extra>"
                    ),
                )
            )
    nodes = sorted(pos)
    # The variables' labels drawn by the node trace itself, above each marker on a white halo: one
    # text layer rather than one annotation per node (each annotation is measured and laid out on its own).
    fig.add_trace(
        go.Scatter(
            x=[pos[n][0] for n in nodes],
            y=[pos[n][1] for n in nodes],
            mode="markers+text",
            name="variable",
            text=[_wrap(labels.get(n, n)) for n in nodes],
            textposition="top center",
            textfont={"size": 13, "color": "#1f2328", "shadow": "0 0 2px #fff, 0 0 3px #fff, 0 0 4px #fff"},
            unselected={"marker": {"opacity": 1}},
            marker={"size": 22, "color": "#1f4e79", "line": {"width": 2, "color": "white"}},
            hoverinfo="text",
            hovertext=[f"{labels.get(n, n)} [{n}]" for n in nodes],
            showlegend=False,
        )
    )
    depth = max((len([n for n in nodes if pos[n][0] == x]) for x in {pos[n][0] for n in nodes}), default=1)
    fig.update_layout(
        height=max(420, 125 * depth + 140),
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        plot_bgcolor="white",
        xaxis={"visible": False, "range": [-0.6, max((p[0] for p in pos.values()), default=0) + 0.6]},
        yaxis={"visible": False},
        clickmode="event+select",
        legend={
            "title": "sign · evidence class (one marker per relation)",
            "orientation": "h",
            "yanchor": "bottom",
            "y": 1.0,
            "x": 0,
        },
        dragmode="pan",
    )
    return fig


_IN_PAGE_LINK = re.compile(r'<a ([^>]*?)href="#([^"]+)"([^>]*)>')


def embeddable_export(html: str) -> str:
    """The exported HTML made safe to show inside the app's frame.

    In-page links (a number to its output point, a citation to its note) scroll inside
    the frame instead of navigating it — an ``href="#…"`` in a frame built from a string
    resolves against the app's address and would load the dashboard inside itself; any
    other link opens in a new tab.
    """
    body = _IN_PAGE_LINK.sub(
        lambda m: (
            f'<a {m.group(1)}href="javascript:void(0)" onclick="var t=document.getElementById(\'{m.group(2)}\')'
            f"||document.getElementsByName('{m.group(2)}')[0];if(t){{t.scrollIntoView()}};return false;\""
            f"{m.group(3)}>"
        ),
        html,
    )
    return body.replace("<head>", '<head>\n<base target="_blank">', 1) if "<head>" in body else body


def channel_relation_ids(store: Store, analysis_id: str | None, risk: str) -> dict[str, list[str]]:
    """Per channel query of ``risk`` (labelled 'source movement → target movement'), the relations of its paths."""
    labels = variable_labels(store)
    queries = {q.query_id: q for q in store.find(ChannelQuery, risk=risk)}
    out: dict[str, list[str]] = {}
    paths = store.find(Path, analysis_id=analysis_id, risk=risk) if analysis_id else store.find(Path, risk=risk)
    for p in paths:
        q = queries.get(p.query_id)
        name = (
            (
                f"{labels.get(q.source_var, q.source_var)} {q.source_movement.value} → "
                f"{labels.get(q.target_var, q.target_var)} {q.target_movement.value}"
            )
            if q
            else p.query_id
        )
        ids = out.setdefault(name, [])
        for rid in [*p.relation_ids, *(r for step in p.evidence for r in step)]:
            if rid not in ids:
                ids.append(rid)
    return out


def graph_relations(
    store: Store, *, as_of: date | None, condition: str, roles: tuple[str, ...], review: str = "accepted"
) -> list[str]:
    """Relation ids shown on the graph: as of a publication date, one condition and roles, by review status.

    ``review='accepted'`` is the paper's as-of edge set A(t); ``'rejected'`` and ``'all'``
    apply the same date, role and condition rules to the rejected (or every) relation.
    """
    in_use = as_of_relation_ids(store, as_of, condition, roles)  # A(t), the analyst's decisions applied
    if review == "accepted":
        return in_use
    from aieco.asof import AsOf

    rule = AsOf(cutoff=as_of, roles=roles)  # the one as-of rule, applied to rejected relations too
    rels = load_relations(store, condition=condition, accepted_only=False)
    used = set(in_use)
    return [
        r.relation_id
        for r in rels
        if (review == "all" or r.relation_id not in used)  # rejected: by validation or by the analyst
        and rule.admits(published=r.publication_date, jurisdiction=r.jurisdiction, role=r.role)
    ]


def reader_note_of(store: Store, relation_ids: tuple[str, ...]) -> str | None:
    """How far to trust the machine reading of these relations (the offline reader's gold-set figures)."""
    from aieco.extraction.gold import reader_note
    from aieco.review import backend_of

    return reader_note(backend_of(r.extractor) for r in store.find(Relation, relation_id=list(relation_ids)))


def reading_of(store: Store, relation_ids: tuple[str, ...]) -> dict[str, str]:
    """Who read each relation and what an analyst decided on it (aieco.review.citation_notes)."""
    return citation_notes(store, relation_ids)


REVIEW_QUEUE_COLUMNS = ["from", "sign", "to", "decision", "quote", "used by", "reading", "reader", "relation_id"]


def review_queue_frame(store: Store, analysis_id: str) -> pd.DataFrame:
    """The relations an analysis rests on (aieco.review.review_queue), labelled for the page."""
    from aieco.review import review_queue

    labels = variable_labels(store)
    done = {
        "accept": "accepted",
        "reject": "rejected since",
        "correct": "corrected since",
        "correction": "an analyst's correction",
        None: "not reviewed",
    }
    rows = [
        {
            "from": labels.get(r["src_var"], r["src_var"]),
            "sign": r["sign"],
            "to": labels.get(r["dst_var"], r["dst_var"]),
            "decision": done[r["decision"]],
            "reading": r["reading"],
            "reader": r["reader"],
            "used by": "; ".join(r["uses"]),
            "quote": r["quote"],
            "relation_id": r["relation_id"],
        }
        for r in review_queue(store, analysis_id)
    ]
    return _frame(rows, REVIEW_QUEUE_COLUMNS)


def review_status(store: Store, relation_ids: tuple[str, ...]) -> dict[str, str]:
    """Each relation's review status as the analyst reads it: in use, rejected (by validation or by
    the analyst), corrected by the analyst (its correction is in use), an analyst's correction …"""
    from aieco.review import review_table

    out = {}
    for row in review_table(store, list(relation_ids)):
        if row["validation"] != "accepted":
            status = "rejected by validation"
        elif row["decision"] == "reject":
            status = "rejected by analyst"
        elif row["decision"] == "correct":
            status = "corrected by analyst"
        elif row["is_correction"]:
            status = "analyst's correction" if row["in_use"] else "superseded correction"
        elif row["decision"] == "accept":
            status = "accepted by analyst"
        else:
            status = "in use"
        out[row["relation_id"]] = status
    return out


CURRENT_PATH_COLUMNS = ["channel", "rank", "path", "composed_sign", "score", "relation_ids"]


def current_paths(
    store: Store, risk: str, *, as_of: date | None, condition: str, roles: tuple[str, ...]
) -> pd.DataFrame:
    """The risk's channel queries searched now on A(t) with the analyst's review decisions applied
    (a rejected relation's paths are gone, a corrected sign counts): the paths an analysis would find."""
    from aieco.graph.build import as_of_relations, relation_graph
    from aieco.graph.paths import enumerate_paths

    labels = variable_labels(store)
    rels = as_of_relations(load_relations(store, condition=condition), as_of, roles=roles, condition=condition)
    graph = relation_graph(rels)
    queries = {q.query_id: q for q in store.find(ChannelQuery, risk=risk)}
    rows = []
    for q in queries.values():
        channel = (
            f"{labels.get(q.source_var, q.source_var)} {q.source_movement.value} → "
            f"{labels.get(q.target_var, q.target_var)} {q.target_movement.value}"
        )
        found = enumerate_paths(graph, q, graph_condition=condition)
        if not found:
            rows.append(
                {
                    "channel": channel,
                    "rank": None,
                    "path": "no path",
                    "composed_sign": "",
                    "score": None,
                    "relation_ids": "",
                }
            )
        for p in found:
            chain = labels.get(p.variables[0], p.variables[0]) + "".join(
                f" {s.value}→ {labels.get(v, v)}" for s, v in zip(p.signs, p.variables[1:], strict=True)
            )
            rows.append(
                {
                    "channel": channel,
                    "rank": p.rank,
                    "path": chain,
                    "composed_sign": p.composed_sign.value,
                    "score": p.score,
                    "relation_ids": ", ".join(p.relation_ids),
                }
            )
    return _frame(rows, CURRENT_PATH_COLUMNS)


def registered_models() -> list[str]:
    """Every model id the launch accepts (the shipped models, registered)."""
    from aieco.analysis.stages import register_models

    return sorted(register_models())


GAP_COLUMNS = ["risk", "channel", "why", "risk_status", "channel_id", "query_id"]


def _channel_reason(stop_reason: str, channel_id: str) -> str:
    """The part of a graph-search stop reason about one channel ('…: tf2 (a → b): why; tf3 …'),
    else the whole reason."""
    found = re.search(rf"(?:^|: |; ){re.escape(channel_id)} \([^)]*\): (.*?)(?=; [A-Za-z0-9_]+ \(|$)", stop_reason)
    return found.group(1) if found else stop_reason


def channels_without_path(store: Store, analysis_id: str) -> pd.DataFrame:
    """The channel queries of an analysis's risks for which graph search found no admissible path,
    and why, read from the risks' latest ``graph_search`` stage records.

    A completed search lists them in its output (``channels_without_path``: channel id, query,
    source, target, reason; the risk went on with its other channels). A stopped search (no
    channel had a path) gives its recorded reason for every channel of the risk. An older
    completed record without that list falls back to the queries that stored no Path.
    """
    an = store.get(Analysis, analysis_id)
    if an is None:
        return _frame([], GAP_COLUMNS)
    labels = variable_labels(store)
    latest = {r.stage: r for r in _latest_attempts(store, analysis_id)}
    with_paths = None
    rows = []

    def label(var: str) -> str:
        return labels.get(var, var)

    for risk in an.request.get("risks", []):
        name = risk["name"] if isinstance(risk, dict) else str(risk)
        channels = {c.get("id", ""): c for c in (risk.get("channels", []) if isinstance(risk, dict) else [])}
        rec = latest.get(f"{name}/graph_search")
        if rec is None or rec.status.value not in ("completed", "stopped"):
            continue
        stored = rec.output_digest and store.has_artifact(rec.output_digest)
        output = store.get_json(rec.output_digest) if stored else {}
        gaps = output.get("channels_without_path")
        if rec.status.value == "stopped":
            gaps = [
                {
                    "channel_id": cid,
                    "source": c.get("source", ""),
                    "target": c.get("target", ""),
                    "reason": _channel_reason(rec.reason, cid),
                    "query_id": "",
                }
                for cid, c in channels.items()
            ] or [{"channel_id": "", "source": "", "target": "", "reason": rec.reason, "query_id": ""}]
        elif gaps is None:  # a record written before graph search listed its channels without a path
            if with_paths is None:
                with_paths = {p.query_id for p in store.find(Path, analysis_id=analysis_id)}
            queries = output.get("queries", {})
            gaps = []
            for cid, qid in queries.items():
                q = store.get(ChannelQuery, qid)
                if qid not in with_paths and q is not None:
                    gaps.append(
                        {
                            "channel_id": cid,
                            "source": q.source_var,
                            "target": q.target_var,
                            "query_id": qid,
                            "reason": f"no admissible path of at most {q.max_len} relations in the as-of graph",
                        }
                    )
        for g in gaps:
            spec = channels.get(g.get("channel_id", ""), {})
            move_src, move_dst = spec.get("movement", ""), spec.get("expected", "")
            channel = (
                f"{label(g['source'])} {move_src} → {label(g['target'])} {move_dst}".replace("  ", " ").strip()
                if g.get("source")
                else "every channel"
            )
            rows.append(
                {
                    "risk": name.replace("_", " "),
                    "channel": channel,
                    "why": in_words(g.get("reason", ""), labels),
                    "risk_status": "went on with its other channels"
                    if rec.status.value == "completed"
                    else "stopped at graph search (no channel has a path)",
                    "channel_id": g.get("channel_id", ""),
                    "query_id": g.get("query_id", ""),
                }
            )
    return _frame(rows, GAP_COLUMNS)


# ------------------------------------------------------------- cached figures (built once per workspace state)


def channel_graph_of(store: Store, relation_ids: tuple[str, ...]) -> go.Figure:
    """:func:`channel_graph_figure` of the given relations, with the vocabulary's labels."""
    return channel_graph_figure(relations_frame(store, relation_ids=list(relation_ids)), variable_labels(store))


def opposing_of(store: Store, relation_ids: tuple[str, ...]) -> pd.DataFrame:
    """:func:`opposing_relations` among the given relations."""
    return opposing_relations(relations_frame(store, relation_ids=list(relation_ids)))


def fan_chart_of_run(store: Store, run_id: str, variable: str, entity: str | None = None, title: str = "") -> go.Figure:
    """:func:`fan_chart` of one variable of a stored run."""
    return fan_chart(points_frame(store, run_id), variable, entity=entity, title=title)


def fan_charts_of_run(store: Store, run_id: str, variables: tuple[str, ...]) -> go.Figure:
    """Every variable's :func:`fan_chart` of a stored run as panels of one figure (two per row), each
    titled with the variable's label and its unit on the y axis; one legend (bands, median, paths)."""
    from plotly.subplots import make_subplots

    points = points_frame(store, run_id)
    labels = variable_labels(store)
    cols = 2 if len(variables) > 1 else 1
    rows = -(-len(variables) // cols)
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=[labels.get(v, v) for v in variables],
        vertical_spacing=0.32 / rows if rows > 1 else 0.0,
        horizontal_spacing=0.08,
    )
    seen: set[str] = set()
    palette = ["#d62728", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"]
    colours: dict[str, str] = {}  # one colour per path name in every panel, as in the one legend
    for i, variable in enumerate(variables):
        row, col = i // cols + 1, i % cols + 1
        one = fan_chart(points, variable, title=labels.get(variable, variable))
        for trace in one.data:
            name = trace.name or ""
            trace.update(legendgroup=name, showlegend=bool(name) and name not in seen and trace.showlegend is not False)
            seen.add(name)
            if trace.line.color is None and trace.line.width != 0:
                colour = colours.setdefault(name, palette[len(colours) % len(palette)])
                trace.update(line={"color": colour}, marker={"color": colour})
            fig.add_trace(trace, row=row, col=col)
        mine = points[points["variable"] == variable]
        unit = str(mine["unit"].iloc[0]) if len(mine) else ""
        fig.update_yaxes(title_text=measure(unit, _transformation(mine)), row=row, col=col)
        fig.update_xaxes(type="category", row=row, col=col)
    fig.update_layout(
        height=300 * rows + (120 if rows == 1 else 60),
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        # below the bottom panel's period labels
        legend={"orientation": "h", "y": -0.16 if rows == 1 else -0.04, "yanchor": "top"},
    )
    return fig


def quantile_ranges_of_run(store: Store, run_id: str, variable: str) -> go.Figure:
    """:func:`quantile_ranges` of one per-bank variable of a stored run, with labels and bank names."""
    from dashboard.bank_views import bank_names, bank_variable_label, unique_bank_labels

    points = points_frame(store, run_id)
    names = unique_bank_labels(bank_names(store, run_id), entities(points))
    run = store.get(ModelRun, run_id)
    starts = sorted(int(y) for y in (run.diagnostics.get("start_years") or [])) if run is not None else []
    # banks starting from different exercises: the stored span runs from the first start to the last end
    period_label = (
        f"over the exercise horizon (starting points {starts[0]}–{starts[-1]} year-ends)" if len(starts) > 1 else None
    )
    fig = quantile_ranges(
        points,
        variable,
        label=bank_variable_label(variable, variable_labels(store)),
        names=names,
        period_label=period_label,
    )
    note = scenario_note(store, run_id)
    if note and fig.layout.title.text:
        fig.update_layout(
            title={"text": f"{fig.layout.title.text}<br><sup>{note.split('.')[0]}</sup>"}, margin_t=70, height=520
        )
    return fig


def path_periods(points: pd.DataFrame, variable: str, entity: str | None = None) -> list[str]:
    """The periods :func:`fan_chart` draws for one variable (and bank): empty for a run whose outputs
    have no time dimension (one figure per bank over the whole horizon)."""
    sel = points[points["variable"] == variable]
    if entity is not None:
        sel = sel[sel["entity"] == entity]
    return sorted(p for p in sel["period"].astype(str).unique() if not re.search(r"\d-\d", p))


def bank_figures(store: Store, run_id: str, entity: str, variable: str) -> pd.DataFrame:
    """One bank's stored figures of one variable (a run without a time path per bank): statistic,
    value, unit, period; the provenance and the ids in the details columns."""
    points = points_frame(store, run_id)
    sel = points[(points["variable"] == variable) & (points["entity"] == entity)]
    run = store.get(ModelRun, run_id)
    prov = str((run.diagnostics.get("provenance") if run is not None else None) or "undeclared")
    # the bank's own horizon where the run records its starting year (banks start from different exercises)
    per_bank = output_tables(store, run_id).get("depletion") if run is not None and run.output_digest else None
    span = sel["period"].astype(str).to_numpy()
    if per_bank is not None and "start_year" in per_bank.columns and entity in per_bank.index.astype(str):
        start = int(per_bank.loc[per_bank.index.astype(str) == entity, "start_year"].iloc[0])
        span = f"{start + 1}-{start + 3} (from the {start} year-end)"
    order = {"point": 0, "p50": 0, "mean": 1, "p05": 2, "p95": 3}
    sel = sel.assign(_o=sel["statistic"].map(lambda x: order.get(x, 9))).sort_values(["_o", "statistic"])
    return pd.DataFrame(
        {
            "figure": [_figure_label(x) for x in sel["statistic"]],
            "value": sel["value"].astype(float).round(3).to_numpy(),
            "unit": sel["unit"].to_numpy(),
            "horizon": span,
            "provenance": prov,
            "bank_id (LEI or id)": entity,
            "statistic": sel["statistic"].to_numpy(),
            "point_id": sel["point_id"].to_numpy() if "point_id" in sel.columns else "",
            "run_id": run_id,
        }
    )


def _figure_label(statistic: str) -> str:
    return {"point": "predicted (point)", "p50": "median", "p05": "5 % bound", "p95": "95 % bound"}.get(
        statistic, _statistic_label(statistic)
    )


def bank_labels_of_run(store: Store, run_id: str) -> dict[str, str]:
    """Each bank of a run (by id) as the analyst reads it: its name, the id added where names repeat."""
    from dashboard.bank_views import bank_names, unique_bank_labels

    return unique_bank_labels(bank_names(store, run_id), entities(points_frame(store, run_id)))
