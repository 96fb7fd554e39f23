"""Scenarios side by side: the selected macro paths of two or more analyses (or of one request run with
other seeds or selection rules), read from each run's stored tables.

:func:`scenario_runs` finds, for each analysis and risk, the latest completed ``macro_var``
generation run; :func:`headline_table` puts their horizon figures in one table (one column
per scenario); :func:`paths_long` gives every scenario's annual path and baseline by variable
and year for overlaid charts; :func:`request_differences` names the request fields in which
the analyses differ (cutoff, seed, selection rule …), so a comparison says what it compares.
Pure reads of stored records; no SQL, no plotting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from aieco.records import Analysis, ModelRequest, ModelRun, RunStatus
from aieco.store import Store

#: The horizon figures of :func:`headline_table`: ``horizon_summary`` column → (measure, unit).
HEADLINES = {
    "cumulative_change": ("cumulative change over the horizon", "%"),
    "peak_to_trough": ("peak-to-trough change", "%"),
    "peak": ("peak", "%"),
    "end_level": ("level at the horizon's end", "%"),
}
#: Which horizon figure a variable is read by (the report's scenario paragraph reads them so).
HEADLINE_OF = {
    "real_gdp": ("cumulative_change", "peak_to_trough"),
    "unemployment": ("peak",),
    "house_prices": ("cumulative_change", "peak_to_trough"),
    "equity_prices": ("cumulative_change", "peak_to_trough"),
    "inflation": ("cumulative_change",),
    "long_term_rate": ("end_level",),
}
#: Request fields a comparison names when they differ (the rest are shown only by the request itself).
COMPARED_FIELDS = (
    "cutoff",
    "horizon",
    "vintage_policy",
    "seeds",
    "repetitions",
    "selection",
    "severity_percentile",
    "models",
    "backend",
    "graph_condition",
    "retrieval_condition",
)


@dataclass(frozen=True)
class ScenarioRun:
    """One scenario to compare: an analysis's risk and the macro run that produced its selected path."""

    analysis_id: str
    risk: str
    run_id: str
    seed: int | None
    selected: pd.DataFrame  # years × variables (the run's selected_path)
    baseline: pd.DataFrame  # years × variables (its median_path, transposed to the same shape)
    summary: pd.DataFrame  # variables × horizon figures (horizon_summary)
    data_label: str  # observed | synthetic | unknown


def scenario_runs(store: Store, analysis_ids: Sequence[str]) -> list[ScenarioRun]:
    """Per analysis (in the order given), risk and seed: the latest completed macro run with a selected path."""
    out = []
    for analysis_id in analysis_ids:
        requests = {q.digest(): q.risk for q in store.find(ModelRequest, analysis_id=analysis_id)}
        latest: dict[tuple[str, int | None], ModelRun] = {}  # a repeated request: one scenario per seed
        for run in store.find(ModelRun, analysis_id=analysis_id, model_id="macro_var"):
            risk = requests.get(run.request_digest)
            if risk is None or run.role != "generation" or run.status is not RunStatus.completed:
                continue
            key = (risk, run.seed)
            if key not in latest or run.started_at > latest[key].started_at:
                latest[key] = run
        for (risk, _), run in latest.items():
            tables = store.get_tables(run.output_digest) if run.output_digest else {}
            selected = tables.get("selected_path")
            if selected is None or selected.empty:
                continue  # no admissible draw: nothing to compare
            base = tables.get("median_path")
            baseline = base.T if base is not None else pd.DataFrame(index=selected.index)
            baseline.index = [str(y) for y in baseline.index]
            label = tables.get("data_label")
            out.append(
                ScenarioRun(
                    analysis_id,
                    risk,
                    run.run_id,
                    run.seed,
                    selected.set_axis([str(y) for y in selected.index]),
                    baseline,
                    tables.get("horizon_summary", pd.DataFrame()),
                    str(label.loc["value", "label"]) if label is not None and "value" in label.index else "unknown",
                )
            )
    return out


def headline_table(runs: Sequence[ScenarioRun], names: Sequence[str], variable_label=str) -> pd.DataFrame:
    """One row per variable and horizon figure, one column per scenario (``names``, in the order of ``runs``):
    the scenario's figure over the horizon as its run stored it; '' where a run has none."""
    rows = []
    variables = list(dict.fromkeys(v for r in runs for v in r.summary.index))
    for v in variables:
        for figure in HEADLINE_OF.get(v, ("cumulative_change",)):
            what, unit = HEADLINES.get(figure, (figure.replace("_", " "), ""))
            row = {"variable": variable_label(v), "measure": what, "unit": unit}
            for r, name in zip(runs, names, strict=True):
                has = v in r.summary.index and figure in r.summary.columns
                row[name] = float(r.summary.loc[v, figure]) if has else None
            rows.append(row)
    return pd.DataFrame(rows, columns=["variable", "measure", "unit", *names])


def paths_long(runs: Sequence[ScenarioRun], names: Sequence[str]) -> pd.DataFrame:
    """Every scenario's annual selected path and baseline: one row per scenario, variable, year and path."""
    rows = []
    for r, name in zip(runs, names, strict=True):
        for path, frame in (("scenario path", r.selected), ("baseline", r.baseline)):
            for v in frame.columns:
                for year, value in frame[v].items():
                    rows.append(
                        {"scenario": name, "variable": v, "year": str(year), "path": path, "value": float(value)}
                    )
    return pd.DataFrame(rows, columns=["scenario", "variable", "year", "path", "value"])


def request_differences(store: Store, analysis_ids: Sequence[str]) -> pd.DataFrame:
    """The request fields (of :data:`COMPARED_FIELDS`) whose values differ between the analyses: one row per
    field, one column per analysis id; empty when the requests agree on all of them."""
    requests = {a: (store.get(Analysis, a).request if store.get(Analysis, a) else {}) for a in analysis_ids}
    rows = []
    for name in COMPARED_FIELDS:
        values = {a: requests[a].get(name) for a in analysis_ids}
        if len({repr(v) for v in values.values()}) > 1:
            rows.append({"field": name, **{a: "default" if v is None else str(v) for a, v in values.items()}})
    return pd.DataFrame(rows, columns=["field", *analysis_ids])
