"""Views of model runs: runs, output points, fan charts, quantile ranges, validation gates and bank figures.

Read-only, like every view module (see :mod:`dashboard.shared`).
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from aieco.models.bank import outputs as bank_outputs
from aieco.records import (
    ModelOutputPoint,
    ModelRequest,
    ModelRun,
    Restriction,
    ValidationGate,
    canonical_json,
)
from aieco.store import Store
from dashboard.bank_views import takes_macro_path
from dashboard.labels import measure
from dashboard.shared import _frame, _short, _unique, _when, model_name, variable_labels

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
        f"{label}: no channel restricts it; the selected path is the model's joint response with the restricted "
        "variables (in the selected draw under the paper's rule), not a direction the cited evidence sets."
    )


def _transformation(points: pd.DataFrame) -> str:
    """The transformation the charted points share (the most frequent, for the band and median rows)."""
    if "transformation" not in points.columns or points.empty:
        return ""
    return str(points["transformation"].mode().iloc[0])


def fan_chart(
    points: pd.DataFrame, variable: str, *, entity: str | None = None, title: str = "", rule: str | None = None
) -> go.Figure:
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
        if sim < 0:
            name = _statistic_label(stat)
        elif stat == "selected" and rule == "calibrated":  # the path is a conditional forecast, not a draw
            name = f"selected scenario (conditional forecast; nearest draw {int(sim)})"
        else:
            name = _statistic_label(stat) + f" (simulation {int(sim)})"
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


def registered_models() -> list[str]:
    """Every model id the launch accepts (the shipped models, registered)."""
    from aieco.analysis.stages import register_models

    return sorted(register_models())


def fan_chart_of_run(store: Store, run_id: str, variable: str, entity: str | None = None, title: str = "") -> go.Figure:
    """:func:`fan_chart` of one variable of a stored run."""
    return fan_chart(points_frame(store, run_id), variable, entity=entity, title=title, rule=_rule_of(store, run_id))


def _rule_of(store: Store, run_id: str) -> str | None:
    """The scenario rule a macro run recorded ('calibrated' or 'paper_max'), None for other runs."""
    run = store.get(ModelRun, run_id)
    return ((run.diagnostics or {}).get("selection_rule") or {}).get("rule") if run is not None else None


def fan_charts_of_run(store: Store, run_id: str, variables: tuple[str, ...]) -> go.Figure:
    """Every variable's :func:`fan_chart` of a stored run as panels of one figure (two per row), each
    titled with the variable's label and its unit on the y axis; one legend (bands, median, paths)."""
    from plotly.subplots import make_subplots

    points = points_frame(store, run_id)
    labels = variable_labels(store)
    rule = _rule_of(store, run_id)
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
        one = fan_chart(points, variable, title=labels.get(variable, variable), rule=rule)
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
