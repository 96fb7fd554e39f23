"""Scenario views: a macro run's paths against the official outlook, and the two selection rules side by side.

Thin readers over the library (``aieco.evaluation.references``, the run's ``rule_comparison`` table);
figures are plotly, built from the returned frames only.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from aieco.evaluation.references import official_comparison
from aieco.records import ModelRun, RunStatus
from aieco.store import Store

VARIABLE_LABELS = {"real_gdp": "Real GDP", "inflation": "HICP inflation", "unemployment": "Unemployment rate"}
#: Readable headers of the comparison table (units in the measure column).
HEADERS = {
    "variable": "variable",
    "period": "year",
    "measure": "measure (unit)",
    "baseline_anchored": "aieco baseline (anchored)",
    "baseline_unconditional": "aieco baseline (unconditional)",
    "scenario": "this risk's scenario",
    "official_projection": "official projection at the cutoff",
    "projection_source": "projection: publisher, round",
    "official_adverse": "official adverse scenario",
    "adverse_source": "adverse: publisher, publication",
    "adverse_timing": "adverse: published",
}
#: Readable names of the rule comparison's figures.
RULE_FIGURE_LABELS = {
    "real_gdp:cumulative_change": "real GDP, cumulative change (%)",
    "real_gdp:deviation_from_median": "real GDP vs baseline, end of horizon (%)",
    "unemployment:peak": "unemployment peak (%)",
    "house_prices:deviation_from_median": "house prices vs baseline, end of horizon (%)",
    "equity_prices:deviation_from_median": "equity prices vs baseline, end of horizon (%)",
    "inflation:peak": "HICP index peak (index)",
}
RULE_LABELS = {
    "calibrated": "calibrated (conditional forecast)",
    "paper_max": "paper's rule (most severe draw)",
}


def official_table(store: Store, run_id: str) -> pd.DataFrame:
    """The run's comparison with the official outlook, readable headers (empty for other runs)."""
    run = store.get(ModelRun, run_id)
    if run is None or run.model_id != "macro_var" or run.status is not RunStatus.completed:
        return pd.DataFrame(columns=list(HEADERS.values()))
    frame = official_comparison(store, run)
    frame["variable"] = frame["variable"].map(lambda v: VARIABLE_LABELS.get(v, v))
    return frame.rename(columns=HEADERS)


def official_figure(table: pd.DataFrame, variable_label: str) -> go.Figure:
    """One variable's annual paths: aieco baselines and scenario as lines, official figures as markers (open
    markers: official adverse figures published after the cutoff, evaluation only)."""
    rows = table[(table["variable"] == variable_label) & table["year"].str.fullmatch(r"\d{4}")]
    years = list(rows["year"])
    fig = go.Figure()
    for column, dash in (
        ("aieco baseline (anchored)", "solid"),
        ("aieco baseline (unconditional)", "dot"),
        ("this risk's scenario", "dash"),
    ):
        fig.add_trace(go.Scatter(x=years, y=rows[column], name=column, mode="lines+markers", line={"dash": dash}))
    fig.add_trace(
        go.Scatter(
            x=years, y=rows["official projection at the cutoff"], name="official projection at the cutoff",
            mode="markers", marker={"size": 11, "symbol": "diamond"},
        )
    )  # fmt: skip
    after = rows["adverse: published"].eq("after cutoff: evaluation only")
    before = rows["adverse: published"].eq("before cutoff")
    for mask, name, symbol in (
        (before, "official adverse (published by the cutoff)", "x"),
        (after, "official adverse, published after the cutoff (evaluation only)", "circle-open"),
    ):
        if mask.any():
            fig.add_trace(
                go.Scatter(
                    x=rows.loc[mask, "year"], y=rows.loc[mask, "official adverse scenario"], name=name,
                    mode="markers", marker={"size": 11, "symbol": symbol},
                )
            )  # fmt: skip
    unit = str(rows["measure (unit)"].iloc[0]) if len(rows) else ""
    fig.update_layout(
        title=f"{variable_label}: aieco against the official outlook",
        xaxis_title="year",
        xaxis={"type": "category"},
        yaxis_title=unit,
        height=360,
        margin={"t": 50, "b": 40, "l": 60, "r": 20},
        legend={"orientation": "h", "y": -0.25},
    )
    return fig


def rule_table(store: Store, analysis_id: str | None) -> pd.DataFrame:
    """Rows (risk, rule): the headline figures of both selection rules on each completed macro run."""
    runs = store.find(ModelRun, model_id="macro_var", analysis_id=analysis_id) if analysis_id else []
    frames = []
    for run in runs:
        if run.status is not RunStatus.completed or not run.output_digest:
            continue
        tables = store.get_tables(run.output_digest)
        comparison = tables.get("rule_comparison")
        if comparison is None:
            continue
        risk = str(tables["selection"].index[0]) if "selection" in tables else ""
        used = str((run.diagnostics.get("selected") or {}).get("rule", ""))
        frame = comparison.rename(columns=RULE_FIGURE_LABELS).copy()
        frame.insert(0, "rule", [RULE_LABELS.get(i, i) + (" — this run" if i == used else "") for i in frame.index])
        frame.insert(0, "risk", risk.replace("_", " "))
        frame.insert(2, "run", run.run_id)
        frames.append(frame.reset_index(drop=True))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
