"""What the dashboard's Evaluation page shows: stored evaluation tables and their figures.

The page calls these functions and displays the returned DataFrames and plotly figures;
it never recomputes a measure.
"""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import plotly.graph_objects as go

from aieco.records import EvaluationRecord
from aieco.store import Store


def evaluation_records(store: Store) -> pd.DataFrame:
    """Scored or stopped evaluations (result rows), newest first."""
    rows = [r.model_dump(mode="json") for r in store.find(EvaluationRecord, phase="result")]
    if not rows:
        return pd.DataFrame(columns=["evaluation_id", "status", "reason", "graph_condition", "created_at"])
    return pd.DataFrame(rows).sort_values("created_at", ascending=False).reset_index(drop=True)


def latest_evaluation(store: Store) -> EvaluationRecord | None:
    """The most recent scored evaluation, if any."""
    scored = [r for r in store.find(EvaluationRecord, phase="result") if r.status == "scored"]
    return max(scored, key=lambda r: r.created_at) if scored else None


def evaluation_tables(store: Store, evaluation_id: str | None = None) -> dict[str, pd.DataFrame]:
    """The stored result tables of one evaluation (default: the latest); empty when none."""
    rec = store.get(EvaluationRecord, evaluation_id) if evaluation_id else latest_evaluation(store)
    if rec is None or rec.result_digest is None:
        return {}
    return store.get_tables(rec.result_digest)


def risk_measure_figure(risks: pd.DataFrame) -> go.Figure:
    """Grouped bars: every measure per initiating risk (from the stored `risks` table)."""
    long = risks.melt(id_vars="risk", var_name="measure", value_name="value").dropna(subset=["value"])
    long["value"] = long["value"].astype(float)
    fig = px.bar(
        long,
        x="measure",
        y="value",
        color="risk",
        barmode="group",
        range_y=[0, 1],
        title="Benchmark measures per initiating risk",
    )
    fig.update_layout(xaxis_tickangle=-35)
    return fig


def contribution_figure(contribution: pd.DataFrame, risk: str = "mean") -> go.Figure:
    """Leave-one-out Δ_s(M) and average marginal contribution per document and measure."""
    c = contribution[contribution["risk"] == risk]
    long = c.melt(
        id_vars=["document", "measure"],
        value_vars=["leave_one_out", "average_marginal"],
        var_name="kind",
        value_name="value",
    )
    fig = px.bar(
        long,
        x="document",
        y="value",
        color="kind",
        barmode="group",
        facet_row="measure",
        title=f"Source contribution ({risk})",
    )
    fig.update_layout(xaxis_tickangle=-35)
    return fig
