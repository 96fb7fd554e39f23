"""Shared view helpers of the dashboard: labels of analyses, variables, models and sources, and provenance.

The dashboard's view modules, one per area (``analysis_views``, ``sources_views``, ``graph_views``,
``runs_views``, ``reports_views``, with ``bank_views``, ``scenario_views`` and ``evaluation_views``),
follow one rule: each function takes an open :class:`~aieco.store.Store` and returns plain data (pandas
DataFrames, dicts, plotly figures). They only read records; every number they show is a stored value (a
model output point, a record field), never recomputed. The pages call them through
:meth:`dashboard.workspace.Workspace.view` and render what comes back; nothing here imports streamlit.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Any

import pandas as pd

from aieco.models import catalog
from aieco.records import (
    Analysis,
    ModelRun,
    ObservedValue,
    Provenance,
    Relation,
    Restriction,
    Source,
    StageRecord,
    Variable,
)
from aieco.store import Store

DIGEST_CHARS = 12


def _short(value: str | None) -> str:
    return (value or "")[:DIGEST_CHARS]


def _frame(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=columns)


def _sources_by_id(store: Store) -> dict[str, Source]:
    return {s.source_id: s for s in store.all(Source)}


def risk_labels(store: Store, analysis_id: str | None) -> dict[str, str]:
    """Risk name → its label in the analysis's request (``market_illiquidity`` → Market illiquidity)."""
    an = store.get(Analysis, analysis_id) if analysis_id else None
    risks = an.request.get("risks", []) if an else []
    return {r["name"]: r.get("label") or r["name"] for r in risks if isinstance(r, dict) and "name" in r}


def analysis_request(store: Store, analysis_id: str | None) -> dict[str, Any]:
    """The request an analysis ran (as stored on its Analysis record); empty when unknown."""
    an = store.get(Analysis, analysis_id) if analysis_id else None
    return dict(an.request) if an else {}


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


def variable_ids(store: Store) -> list[str]:
    """Controlled-vocabulary variable ids stored in the workspace, sorted."""
    return sorted(v.variable_id for v in store.all(Variable))


def _when(value: Any) -> str:
    """A stored timestamp as the analyst reads it (UTC, to the minute)."""
    if value is None:
        return ""
    return pd.Timestamp(value).strftime("%Y-%m-%d %H:%M UTC")


def analysis_labels(store: Store) -> dict[str, str]:
    """Each analysis as 'title · cutoff … · run …', newest first (a backtest's analyses last); ids only where
    no record says more.

    Two analyses with the same title and cutoff still differ by the time they ran; should
    that tie too, the id's first characters tell them apart, so every label is unique.
    """
    records = {an.analysis_id: an for an in store.all(Analysis)}
    ordered = sorted(
        analysis_ids(store), key=lambda a: records[a].created_at.isoformat() if a in records else "", reverse=True
    )
    # the analyses a backtest ran at its cutoffs (aieco.analysis.track_record) come after the analyst's own,
    # so a backtest never changes which analysis the dashboard opens on
    ordered.sort(key=lambda a: a in records and records[a].request.get("application") == "backtest")
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


#: What the registered models are called where the analyst reads them (the id stays in the details).
def model_name(model_id: str) -> str:
    """The model's readable name ('VAR scenario generator') from its catalog entry; unknown ids as they are."""
    return catalog.label(model_id)


def source_labels(store: Store) -> dict[str, str]:
    """Each source as 'title — publisher, date'."""
    return _unique({s.source_id: f"{s.title} — {s.publisher}, {s.publication_date}" for s in store.all(Source)})


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
