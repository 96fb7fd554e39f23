"""Bank capital page: the CET1 depletion of every bank of one run against the stated CET1 threshold.

Reads the run's own tables (per-bank ``depletion`` and the cross-bank figures of
:mod:`aieco.models.bank.outputs`), so the chart shows exactly the numbers the report's bank
paragraph cites; the provenance of the bank data is in the title and the caption.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from aieco.models.bank import outputs as bank_outputs
from aieco.records import ModelRun
from aieco.store import Store

DEPLETION_COLUMNS = [
    "bank",
    "depletion_pp",
    "start_ratio_pct",
    "min_ratio_pct",
    "headroom_pp",
    "below_threshold",
    "threshold_pct",
    "provenance",
    "model_id",
    "run_id",
]


def depletion_across_banks(store: Store, run_id: str) -> pd.DataFrame:
    """One row per bank of a projection run: depletion (pp; the bank's median simulated depletion, or
    the real model's point), starting and minimum ratio (%), headroom above the threshold (pp), and
    whether the minimum is below it. Empty when the run stored no per-bank depletion table."""
    run = store.get(ModelRun, run_id)
    tables = store.get_tables(run.output_digest) if run is not None and run.output_digest else {}
    per_bank = tables.get("depletion")
    if per_bank is None or "start_ratio" not in per_bank.columns:
        return pd.DataFrame(columns=DEPLETION_COLUMNS)
    point = "p50" if "p50" in per_bank.columns else "predicted"
    cross = tables.get(bank_outputs.TABLE)
    threshold = (
        float(cross.loc[bank_outputs.ROW, "threshold"])
        if cross is not None and "threshold" in cross.columns
        else float(run.diagnostics.get("cet1_threshold", bank_outputs.CET1_THRESHOLD))
    )
    d = per_bank[point].astype(float)
    start = per_bank["start_ratio"].astype(float)
    frame = pd.DataFrame(
        {
            "bank": [str(b) for b in per_bank.index],
            "depletion_pp": d.to_numpy(),
            "start_ratio_pct": start.to_numpy(),
            "min_ratio_pct": (start - d).to_numpy(),
            "headroom_pp": (start - threshold).to_numpy(),
            "below_threshold": ((start - d) < threshold).to_numpy(),
            "threshold_pct": threshold,
            "provenance": str(run.diagnostics.get("provenance") or "undeclared"),
            "model_id": run.model_id,
            "run_id": run.run_id,
        }
    )
    return frame.sort_values(["depletion_pp", "bank"], ascending=[False, True]).reset_index(drop=True)[
        DEPLETION_COLUMNS
    ]


def depletion_chart(frame: pd.DataFrame) -> go.Figure:
    """Sorted bars of each bank's CET1 depletion (pp) with its headroom above the CET1 threshold
    (a bank whose bar passes its marker ends below the threshold) and the cross-bank median and
    5–95 % band as lines."""
    fig = go.Figure()
    if frame.empty:
        fig.update_layout(title="CET1 depletion across banks: no per-bank depletion in this run")
        return fig
    threshold = float(frame["threshold_pct"].iloc[0])
    prov = str(frame["provenance"].iloc[0])
    tag = "" if prov == "real" else f" — {prov.upper()} banks, not real institutions"
    colours = ["#b22222" if b else "#1f4e79" for b in frame["below_threshold"]]
    fig.add_trace(
        go.Bar(
            x=frame["bank"],
            y=frame["depletion_pp"],
            marker={"color": colours},
            name="CET1 depletion (pp): start minus minimum ratio; red = ends below the threshold",
            hovertemplate="%{x}: %{y:.2f} pp<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=frame["bank"],
            y=frame["headroom_pp"],
            mode="markers",
            marker={"symbol": "line-ew-open", "size": 14, "color": "#333333"},
            name=f"headroom above the {threshold:.1f} % CET1 threshold (pp)",
            hovertemplate="%{x}: headroom %{y:.2f} pp<extra></extra>",
        )
    )
    q05, q50, q95 = (frame["depletion_pp"].quantile(q) for q in (0.05, 0.5, 0.95))
    for value, label, dash in ((q50, "median across banks", "solid"), (q05, "5 %", "dot"), (q95, "95 %", "dot")):
        fig.add_trace(
            go.Scatter(
                x=[frame["bank"].iloc[0], frame["bank"].iloc[-1]],
                y=[value, value],
                mode="lines",
                line={"color": "#e08a00", "dash": dash, "width": 1.5},
                name=f"{label}: {value:.1f} pp",
                hoverinfo="skip",
            )
        )
    below = int(frame["below_threshold"].sum())
    fig.update_layout(
        title=f"CET1 depletion across {len(frame)} banks; {below} end below the {threshold:.1f} % threshold{tag}",
        yaxis_title="percentage points (pp)",
        xaxis={"type": "category", "title": "bank (sorted by depletion)", "showticklabels": len(frame) <= 60},
        legend={"orientation": "h", "y": -0.3},
        height=460,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
    )
    return fig
