"""Bank capital page: the CET1 depletion of every bank of one run against the stated CET1 threshold.

Reads the run's own tables (per-bank ``depletion`` and the cross-bank figures of
:mod:`aieco.models.bank.outputs`), so the chart shows exactly the numbers the report's bank
paragraph cites; the provenance of the bank data is in the title and the caption.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path

import pandas as pd
import plotly.graph_objects as go

from aieco.models.bank import outputs as bank_outputs
from aieco.models.bank.eba_items import read_text
from aieco.records import ModelRun
from aieco.store import Store

#: The EBA stress-test extracts packaged with the bank models (LEI → bank name, as published).
EBA_DATA = Path(bank_outputs.__file__).resolve().parent / "eba_data"
#: Input tables of bank runs that may name their banks (the synthetic panel does: bank_id, bank_name).
_NAMED_INPUTS = ("panel", "official", "start_state")


@functools.cache
def packaged_bank_names() -> dict[str, str]:
    """LEI → bank name from the packaged EBA stress-test files (the newest exercise's spelling wins),
    then, for banks only in the transparency extract, from its source bank table (``dim_bank.csv``)."""
    names: dict[str, str] = {}
    for path in sorted(EBA_DATA.glob("*/*.csv")):
        text, _ = read_text(path, None)  # the files' own encodings (latin-1 names in 2016)
        header = pd.read_csv(io.StringIO(text), nrows=0).columns
        lei = next((c for c in header if c.lower() in ("lei_code", "lei")), None)
        if lei is None or "Bank_name" not in header:
            continue
        frame = pd.read_csv(io.StringIO(text), usecols=[lei, "Bank_name"], dtype=str).dropna().drop_duplicates(lei)
        names |= dict(zip(frame[lei].str.strip(), frame["Bank_name"].str.strip(), strict=True))
    # transparency-only banks: the extract's source bank table (LEI, Bank; see its PROVENANCE.md)
    for path in sorted(EBA_DATA.glob("*/source/dim_bank.csv")):
        frame = pd.read_csv(path, dtype=str)
        if not {"LEI", "Bank"} <= set(frame.columns):
            continue
        frame = frame[["LEI", "Bank"]].dropna()
        for lei, name in zip(frame["LEI"].str.strip(), frame["Bank"].str.split().str.join(" "), strict=True):
            names.setdefault(lei, name)
    return names


def bank_names(store: Store, run_id: str) -> dict[str, str]:
    """Bank id (LEI or synthetic id) → name, from the tables the run and its parent runs were given
    (a panel with ``bank_id`` and ``bank_name``; a synthetic bank of a panel without names is
    'Synthetic bank <id>'), else from the packaged EBA files. Banks without a known name are left
    out (shown by their id)."""
    names: dict[str, str] = {}
    pending = [run_id]
    seen: set[str] = set()
    while pending:
        rid = pending.pop()
        run = store.get(ModelRun, rid) if rid not in seen else None
        seen.add(rid)
        if run is None:
            continue
        pending += run.parent_runs
        for key in _NAMED_INPUTS:
            digest = run.input_digests.get(key)
            if digest is None:
                continue
            for frame in store.get_tables(digest).values():
                if {"bank_id", "bank_name"} <= set(frame.columns):
                    named = frame[frame["bank_name"].astype(str).str.strip() != ""].drop_duplicates("bank_id")
                    names |= dict(zip(named["bank_id"].astype(str), named["bank_name"].astype(str), strict=True))
                elif {"bank_id", "data_status"} <= set(frame.columns):
                    # a panel without names: its synthetic banks are called so where the analyst reads them
                    fake = frame.loc[frame["data_status"].astype(str) == "synthetic", "bank_id"].astype(str).unique()
                    names |= {b: f"Synthetic bank {b}" for b in fake if b not in names}
    packaged = packaged_bank_names()
    return packaged | names if packaged else names


#: Bank output variables the vocabulary does not name (the id stays in the details).
BANK_VARIABLE_LABELS = {
    "cet1_ratio": "CET1 ratio",
    "cet1_depletion": "CET1 depletion (start minus minimum ratio)",
    "validation_mae": "Validation: mean absolute error",
    "validation_rmse": "Validation: root mean squared error",
    "validation_spearman": "Validation: Spearman rank correlation",
    "validation_top_quartile_recall": "Validation: top-quartile recall",
    "validation_coverage": "Validation: interval coverage",
}


def takes_macro_path(model_id: str) -> bool:
    """:func:`aieco.models.catalog.takes_macro_path`; a model this process does not know (registered
    elsewhere) is taken to follow the scenario, as its runs were recorded."""
    from aieco.errors import InputError
    from aieco.models.catalog import takes_macro_path as library_predicate

    try:
        return library_predicate(model_id)
    except InputError:
        return True


def bank_variable_label(variable: str, vocabulary: dict[str, str]) -> str:
    """A bank output variable's label: the bank page's own name, else the vocabulary's, else in words."""
    return BANK_VARIABLE_LABELS.get(variable) or vocabulary.get(variable) or variable.replace("_", " ")


def bank_label(names: dict[str, str], bank: str) -> str:
    """A bank as the analyst reads it: its name, else its id."""
    return names.get(bank) or bank


def unique_bank_labels(names: dict[str, str], banks: list[str]) -> dict[str, str]:
    """Each bank's label, its id appended where two banks share a name."""
    labels = {b: bank_label(names, b) for b in banks}
    counts = pd.Series(list(labels.values())).value_counts()
    return {b: (f"{lab} ({b})" if counts[lab] > 1 else lab) for b, lab in labels.items()}


DEPLETION_COLUMNS = [
    "bank_name",
    "bank",
    "depletion_pp",
    "start_ratio_pct",
    "min_ratio_pct",
    "headroom_pp",
    "below_threshold",
    "threshold_pct",
    "provenance",
    "what",
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
    banks = [str(b) for b in per_bank.index]
    labels = unique_bank_labels(bank_names(store, run_id), banks)
    frame = pd.DataFrame(
        {
            "bank_name": [labels[b] for b in banks],
            "bank": banks,
            "depletion_pp": d.to_numpy(),
            "start_ratio_pct": start.to_numpy(),
            "min_ratio_pct": (start - d).to_numpy(),
            "headroom_pp": (start - threshold).to_numpy(),
            "below_threshold": ((start - d) < threshold).to_numpy(),
            "threshold_pct": threshold,
            "provenance": str(run.diagnostics.get("provenance") or "undeclared"),
            "what": bank_outputs.NOT_SCENARIO_NOTE
            if not takes_macro_path(run.model_id)
            else "outcome of this analysis's scenario",
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
    if "model_id" in frame.columns and not takes_macro_path(str(frame["model_id"].iloc[0])):
        tag += "<br><sup>" + bank_outputs.NOT_SCENARIO_NOTE.replace(" — ", "<br>— ") + "</sup>"
    colours = ["#b22222" if b else "#1f4e79" for b in frame["below_threshold"]]
    fig.add_trace(
        go.Bar(
            x=_names(frame),
            y=frame["depletion_pp"],
            marker={"color": colours},
            name="CET1 depletion (pp): start minus minimum ratio; red = ends below the threshold",
            hovertemplate="%{x}: %{y:.2f} pp<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=_names(frame),
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
                x=[_names(frame).iloc[0], _names(frame).iloc[-1]],
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
        height=480 if "<br>" in tag else 460,
        margin={"l": 10, "r": 10, "t": 90 if "<br>" in tag else 50, "b": 10},
    )
    return fig


def _names(frame: pd.DataFrame) -> pd.Series:
    """The bars' categories: bank names (unique per run), ids for a frame without them."""
    return frame["bank_name"] if "bank_name" in frame.columns else frame["bank"]


def depletion_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The across-banks table as shown: the bank's name first, its id (LEI) and the run in the details."""
    details = ["bank", "model_id", "run_id"]
    shown = frame[[c for c in frame.columns if c not in details] + details]
    return shown.rename(columns={"bank_name": "bank", "bank": "bank_id (LEI or id)"})


# --------------------------------------------------------------------------- real banks under each risk's scenario

#: Columns of :func:`real_bank_parts` (one row per analysis and risk).
REAL_PART_COLUMNS = [
    "risk",
    "status",
    "model",
    "banks_in_scope",
    "banks_left_out",
    "reason",
    "run_ids",
    "analysis_id",
]
#: Columns of :func:`scenario_gate_designs` (one row per validation design of the scenario model).
DESIGN_COLUMNS = [
    "design",
    "passed",
    "mae_pp",
    "no_change_mae_pp",
    "train_mean_mae_pp",
    "scaled_constant_mae_pp",
    "spearman",
    "spearman_min",
    "coverage",
    "gate_id",
]


def _real_part(store: Store, record) -> dict | None:
    from aieco.records import StageStatus

    if record.status is not StageStatus.completed or not record.output_digest:
        return None
    return (store.get_json(record.output_digest) or {}).get("real_banks") or None


def real_bank_parts(store: Store, analysis_id: str | None = None) -> pd.DataFrame:
    """The real-bank part of each risk of ``analysis_id`` (None: of every analysis) — the application stage's
    record: completed with its runs under the risk's macro runs, or stopped with the reason and the gate's
    figures."""
    from aieco.records import StageRecord

    rows = []
    for rec in store.find(StageRecord, **({"analysis_id": analysis_id} if analysis_id else {})):
        if not str(rec.stage).endswith("/application"):
            continue
        real = _real_part(store, rec)
        if real is None:
            continue
        scope = real.get("scope") or {}
        runs = real.get("runs") or {}
        rows.append(
            {
                "risk": str(rec.stage).rpartition("/")[0].replace("_", " "),
                "status": real.get("status"),
                "model": real.get("model_id"),
                "banks_in_scope": scope.get("banks_in_scope"),
                "banks_left_out": len(scope.get("left_out") or []),
                "reason": real.get("reason") or "",
                "run_ids": ", ".join(v["run_id"] for v in runs.values() if v.get("run_id")),
                "analysis_id": rec.analysis_id,
            }
        )
    return pd.DataFrame(rows, columns=REAL_PART_COLUMNS)


def left_out_banks(store: Store, analysis_id: str, risk: str) -> pd.DataFrame:
    """Every bank the request's scope left out, named, with its country, starting point and reason."""
    from aieco.records import StageRecord

    stage = f"{risk.replace(' ', '_')}/application"
    for rec in store.find(StageRecord, analysis_id=analysis_id):
        if rec.stage == stage and (real := _real_part(store, rec)):
            left = pd.DataFrame(
                (real.get("scope") or {}).get("left_out") or [],
                columns=["bank_id", "country", "start_exercise", "start_year", "reason"],
            )
            labels = unique_bank_labels(packaged_bank_names(), list(left["bank_id"]))
            return left.assign(bank_name=[labels[b] for b in left["bank_id"]])[
                ["bank_name", "country", "start_exercise", "start_year", "reason", "bank_id"]
            ]
    return pd.DataFrame(columns=["bank_name", "country", "start_exercise", "start_year", "reason", "bank_id"])


def scenario_gate_designs(store: Store) -> pd.DataFrame:
    """The scenario model's validation designs: its MAE against the three benchmarks' MAE, Spearman, verdict."""
    from aieco.models.bank.eba_scenario import MODEL_ID
    from aieco.records import ValidationGate

    rows = []
    for g in store.all(ValidationGate):
        if not g.model_id.startswith(MODEL_ID + ":"):
            continue
        m = g.metrics
        rows.append(
            {
                "design": g.model_id.partition(":")[2],
                "passed": g.passed,
                "mae_pp": m.get("mae"),
                "no_change_mae_pp": m.get("no_change_mae"),
                "train_mean_mae_pp": m.get("train_mean_mae"),
                "scaled_constant_mae_pp": m.get("scaled_constant_mae"),
                "spearman": m.get("spearman"),
                "spearman_min": g.thresholds.get("spearman_min"),
                "coverage": m.get("coverage"),
                "gate_id": g.gate_id,
            }
        )
    return pd.DataFrame(rows, columns=DESIGN_COLUMNS)
