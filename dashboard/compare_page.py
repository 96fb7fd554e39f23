"""Compare page: scenarios of two or more analyses (or of one request run with other seeds or selection
rules) side by side — what their requests differ in, their horizon figures in one table, and each
variable's annual paths overlaid.

Every scenario is named by its analysis's title, its risk and, where the analyses differ in it,
the seed or selection rule; ids stay in the details table. The numbers come from
:mod:`aieco.analysis.compare` (each run's stored tables); this module only labels and draws them.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from aieco.analysis.compare import ScenarioRun, headline_table, paths_long, request_differences, scenario_runs
from aieco.models.var import ANNUAL_TRANSFORMATION
from dashboard.data_page import library_view
from dashboard.labels import measure, risk_label, words
from dashboard.tables import lazy_section, show_figure, show_table

_COLOURS = ("#1f4e79", "#c00000", "#2e7d32", "#e08a00", "#6a1b9a", "#00838f", "#5d4037", "#ad1457")


def analysis_tags(analysis_ids: Sequence[str], differences: pd.DataFrame) -> dict[str, str]:
    """A short name per analysis for column headers and legends: the request fields it differs in
    ('cutoff 2023-06-30; seeds [7]'), else its place in the choice ('analysis 2')."""
    tags = {}
    for i, a in enumerate(analysis_ids, start=1):
        said = [f"{_singular(row['field'])} {str(row[a]).strip('[]')}" for _, row in differences.iterrows()]
        said = said if a in differences else []
        tags[a] = "; ".join(said) or f"analysis {i}"
    repeated = {t for t in tags.values() if list(tags.values()).count(t) > 1}
    return {a: f"{t} (analysis {i})" if t in repeated else t for i, (a, t) in enumerate(tags.items(), start=1)}


def _singular(field: str) -> str:
    """'seeds' → 'seed', 'graph_condition' → 'graph condition' (a tag names one value)."""
    return words(field).removesuffix("s") if field in ("seeds", "models") else words(field)


def scenario_names(runs: Sequence[ScenarioRun], tags: dict[str, str], risks: dict[str, str]) -> list[str]:
    """Each scenario's label: its risk, after its analysis's tag when several analyses are compared, with its
    seed when the seeds differ; unique (a count is appended to a repeat)."""
    several = len({r.analysis_id for r in runs}) > 1
    # seeds differing between analyses are in their tags; a repeated request runs several seeds itself
    seeds = any(len({r.seed for r in runs if r.analysis_id == a}) > 1 for a in {r.analysis_id for r in runs})
    names = []
    for r in runs:
        name = risk_label(r.risk, risks)
        if several:
            name = f"{tags.get(r.analysis_id, r.analysis_id)} — {name}"
        if seeds:
            name += f" · seed {r.seed}"
        names.append(name)
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if names.count(n) == 1 else f"{n} ({seen[n]})")
    return out


def paths_figure(paths: pd.DataFrame, variable: str, label: str) -> go.Figure:
    """One variable's annual scenario paths (solid) and baselines (dotted), one colour per scenario."""
    fig = go.Figure()
    mine = paths[paths["variable"] == variable]
    for i, (scenario, g) in enumerate(mine.groupby("scenario", sort=False)):
        colour = _COLOURS[i % len(_COLOURS)]
        for path, dash in (("scenario path", "solid"), ("baseline", "dot")):
            p = g[g["path"] == path].sort_values("year")
            if p.empty:
                continue
            fig.add_trace(
                go.Scatter(
                    x=p["year"].astype(str),
                    y=p["value"],
                    mode="lines+markers",
                    name=f"{scenario}: {path}",
                    legendgroup=scenario,
                    line={"color": colour, "dash": dash, "width": 2 if dash == "solid" else 1.2},
                    hovertemplate=f"{scenario} ({path}) %{{x}}: %{{y:.2f}}<extra></extra>",
                )
            )
    # one year axis for every scenario, in calendar order (analyses of different cutoffs cover different years)
    years = sorted({str(y) for y in mine["year"]})
    fig.update_layout(
        title=label,
        xaxis={"title": "year", "type": "category", "categoryorder": "array", "categoryarray": years},
        yaxis_title=measure("%", ANNUAL_TRANSFORMATION.get(variable, "")),
        showlegend=True,  # also with one trace: the legend says what the line is
        legend={"orientation": "h", "y": -0.25},
        height=420,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
    )
    return fig


def render(ws, analysis_ids: list[str], titles: dict[str, str], labels: dict[str, str]) -> None:
    """The page body for the chosen analyses (the page file offers the picker)."""
    runs = library_view(ws, scenario_runs, tuple(analysis_ids))
    if not runs:
        st.info(
            "None of the chosen analyses has a completed scenario (a macro run with a selected path): a stopped "
            "risk has nothing to compare. See Request for each stop and its reason."
        )
        return
    risks = {}
    for a in analysis_ids:
        request = _request_of(ws.store, a)
        risks |= {r["name"]: r.get("label") or "" for r in request.get("risks", []) if isinstance(r, dict)}
    risks = {k: v for k, v in risks.items() if v}
    differences = library_view(ws, request_differences, tuple(analysis_ids))
    tags = analysis_tags(analysis_ids, differences)
    names = scenario_names(runs, tags, risks)
    if len(analysis_ids) > 1:
        st.subheader("The analyses compared")
        st.markdown("\n".join(f"- **{tags[a]}**: {titles.get(a, a)}" for a in analysis_ids))
        if differences.empty:
            st.caption("Their requests agree on cutoff, horizon, vintage policy, seeds, selection and models.")
        else:
            shown = differences.assign(field=differences["field"].map(words)).rename(
                columns={a: tags[a] for a in analysis_ids}
            )
            show_table(shown, key="compare_differences", name="request_differences")
    synthetic = [n for r, n in zip(runs, names, strict=True) if r.data_label != "observed"]
    if synthetic:
        st.warning(
            "Computed from synthetic or unrecorded inputs (illustrates the method, not a forecast): "
            + "; ".join(synthetic)
        )
    st.subheader("Headline figures over the horizon")
    table = headline_table(runs, names, variable_label=lambda v: labels.get(v, v))
    show_table(table.round(2), key="compare_headlines", name="compare_headline_figures")
    st.subheader("Paths by variable")
    st.caption(
        "Solid: each scenario's selected path; dotted: the same run's baseline. Annual values; unit on the axis."
    )
    paths = paths_long(runs, names)
    variables = list(dict.fromkeys(paths["variable"]))
    chosen = st.multiselect(
        "Variables",
        variables,
        default=[v for v in ("real_gdp", "unemployment") if v in variables] or variables[:2],
        format_func=lambda v: labels.get(v, v),
        key="compare_variables",
    )
    tag = " — includes SYNTHETIC inputs, not a forecast" if synthetic else ""  # said on every chart
    for v in chosen:
        fig = paths_figure(paths, v, labels.get(v, v) + tag)
        show_figure(fig, key=f"compare_paths_{v}", name=f"compare_{v}")
    details = pd.DataFrame(
        {
            "scenario": names,
            "analysis_id": [r.analysis_id for r in runs],
            "risk": [r.risk for r in runs],
            "seed": [r.seed for r in runs],
            "run_id": [r.run_id for r in runs],
            "data": [r.data_label for r in runs],
        }
    )
    with lazy_section("Scenario ids (analysis, risk, seed, run)", key="compare_ids_section") as open_:
        if open_:  # a collapsed expander would still draw its table in the browser
            show_table(details, key="compare_ids", name="compare_scenarios")


def _request_of(store, analysis_id: str) -> dict:
    from aieco.records import Analysis

    an = store.get(Analysis, analysis_id)
    return an.request if an else {}
