"""Views of one analysis: stages and stops, channel queries, paths, restrictions, LLM calls, channels without a path.

Read-only, like every view module (see :mod:`dashboard.shared`).
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from aieco.records import (
    Analysis,
    ChannelQuery,
    Derivation,
    LLMCall,
    Path,
    Relation,
    Restriction,
    StageRecord,
)
from aieco.store import Store
from dashboard.labels import in_words, risk_label, stage_label, words
from dashboard.shared import _frame, _short, analysis_labels, risk_labels, variable_labels

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
