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


# ----------------------------------------------------------------------------- backtest track record


def backtest_summaries(store: Store) -> pd.DataFrame:
    """Stored backtests (``aieco backtest`` summary runs), newest first: id, cutoffs, completed, stopped."""
    from aieco.evaluation.backtest import backtest_runs

    rows = [
        {
            "run_id": r.run_id,
            "backtest_id": r.analysis_id,
            "started_at": r.started_at,
            "cutoffs": len(r.diagnostics.get("cutoffs", [])),
            "first": (r.diagnostics.get("cutoffs") or [""])[0],
            "last": (r.diagnostics.get("cutoffs") or [""])[-1],
            "completed": r.diagnostics.get("completed"),
            "stopped": r.diagnostics.get("stopped"),
            "outcome_vintage": r.diagnostics.get("outcome_vintage"),
            "official": r.diagnostics.get("official", ""),
        }
        for r in backtest_runs(store)
    ]
    return pd.DataFrame(rows, columns=["run_id", "backtest_id", "started_at", "cutoffs", "first", "last",
                                       "completed", "stopped", "outcome_vintage", "official"])  # fmt: skip


def backtest_tables(store: Store, run_id: str) -> dict[str, pd.DataFrame]:
    """The stored tables of one backtest: cutoffs (status, stage, reason), errors, scores, outcomes."""
    from aieco.evaluation.backtest import load_backtest
    from aieco.records import ModelRun

    return load_backtest(store, store.require(ModelRun, run_id))


def backtest_rmse_figure(scores: pd.DataFrame) -> go.Figure:
    """RMSE by horizon, one line per method, one panel per variable (from the stored ``scores`` table)."""
    fig = px.line(
        scores.sort_values(["variable", "method", "horizon"]),
        x="horizon",
        y="rmse",
        color="method",
        facet_col="variable",
        markers=True,
        hover_data=["n", "mean_error"],
        title="Track record: RMSE by horizon (years ahead), pp",
    )
    fig.update_xaxes(dtick=1)
    return fig


def backtest_path_figure(errors: pd.DataFrame, variable: str, horizon: int) -> go.Figure:
    """Forecasts made ``horizon`` years ahead against the outcome, by target year (stored ``errors`` table)."""
    e = errors[(errors["variable"] == variable) & (errors["horizon"] == horizon)].sort_values("target_year")
    fig = px.line(
        e,
        x="target_year",
        y="forecast",
        color="method",
        markers=True,
        hover_data=["cutoff", "error"],
        title=f"{variable}: forecasts {horizon} year(s) ahead and the outcome",
    )
    fig.add_trace(_outcome_trace(e))
    fig.update_xaxes(dtick=1)
    return fig


def _outcome_trace(rows: pd.DataFrame) -> go.Scatter:
    """The outcome as later published, one point per target year of ``rows`` (black, drawn over the paths)."""
    outcome = rows.dropna(subset=["outcome"]).drop_duplicates("target_year")
    return go.Scatter(
        x=outcome["target_year"],
        y=outcome["outcome"],
        name="outcome (latest vintage)",
        mode="lines+markers",
        line={"color": "black", "width": 3},
    )


def backtest_adverse_programs(adverse: pd.DataFrame) -> pd.DataFrame:
    """One row per cutoff and risk of a backtest's ``adverse`` table: how that risk's analysis ended."""
    cols = ["cutoff", "risk", "status", "stage", "reason", "analysis_id", "run_id"]
    return adverse.drop_duplicates(["cutoff", "risk"])[cols].reset_index(drop=True)


def backtest_adverse_figure(adverse: pd.DataFrame, risk: str, variable: str) -> go.Figure:
    """One risk's adverse path (solid) and its analysis's baseline (dotted) at every cutoff where the risk
    completed, by target year, with the outcome as later published (black)."""
    rows = adverse[(adverse["risk"] == risk) & (adverse["variable"] == variable)].sort_values(["cutoff", "target_year"])
    fig = go.Figure()
    colours = px.colors.qualitative.Plotly
    for i, (cutoff, part) in enumerate(rows.groupby("cutoff", sort=True)):
        colour = colours[i % len(colours)]
        fig.add_trace(
            go.Scatter(x=part["target_year"], y=part["adverse"], name=f"adverse at {cutoff}", mode="lines+markers",
                       line={"color": colour})
        )  # fmt: skip
        fig.add_trace(
            go.Scatter(x=part["target_year"], y=part["baseline"], name=f"baseline at {cutoff}", mode="lines",
                       line={"color": colour, "dash": "dot"})
        )  # fmt: skip
    fig.add_trace(_outcome_trace(rows))
    fig.update_layout(title=f"{risk}: {variable} under the adverse path of each cutoff, its baseline and the outcome")
    fig.update_xaxes(dtick=1, title="target year")
    return fig
