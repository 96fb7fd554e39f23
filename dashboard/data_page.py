"""Data page: each input series of the selected analysis as its models saw it at the cutoff.

One chart per provider series of the chosen variable: the values used at the cutoff (the
latest release of each period on or before it) as a line, the values released after the
cutoff as grey crosses marked "not used", and the cutoff as a vertical line; the official
projections published by the cutoff are drawn on a series in the same kind of unit (a
percentage) and listed in a table in every case, marked as evidence, never data. The numbers
come from :mod:`aieco.analysis.input_series`; this module only draws and labels them.
"""

from __future__ import annotations

from datetime import date

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from aieco.analysis.compare import request_differences, scenario_runs
from aieco.analysis.input_series import STATUS_WORDS, InputSeries, input_series, official_outlook
from dashboard.tables import lazy_section, show_figure, show_table


@st.cache_resource(show_spinner=False, max_entries=64)
def _cached(name: str, workspace: str, digest: str, args: tuple, _store) -> object:
    # workspace and digest are the cache key (a changed workspace recomputes); _store is not hashed
    return _LIBRARY[name](_store, *args)


#: The library reads these pages cache (``ws.view`` serves only ``dashboard.workspace.VIEW_MODULES``).
_LIBRARY = {f.__name__: f for f in (input_series, official_outlook, scenario_runs, request_differences)}


def library_view(ws, fn, *args):
    """``fn(store, *args)`` for a library read of :data:`_LIBRARY`, cached until the workspace changes; frames
    handed out as copies."""
    out = _cached(fn.__name__, str(ws.path), ws.digest, tuple(args), _store=ws.store)
    return out.copy() if isinstance(out, pd.DataFrame) else out


#: Provenance that is not published data: said in the chart's title (never only in a caption).
_NOT_REAL = {"synthetic": "SYNTHETIC data", "illustrative": "ILLUSTRATIVE data"}


def period_start(period: str, frequency: str) -> pd.Timestamp:
    """The first day of a reference period: '2024Q3', '2024-07', '2024H2' or '2024'."""
    text = str(period)
    if frequency == "H" or (len(text) == 6 and text[4] == "H"):
        return pd.Timestamp(int(text[:4]), 1 if text[-1] == "1" else 7, 1)
    freq = {"Q": "Q", "M": "M", "A": "Y", "D": "D"}.get(frequency, "D")
    return pd.Period(text.replace("-Q", "Q"), freq=freq).start_time


def _provenance_tag(frame: pd.DataFrame) -> str:
    kinds = {str(p) for p in frame["provenance"] if isinstance(p, str) and p}
    tags = [_NOT_REAL[k] for k in sorted(kinds) if k in _NOT_REAL]
    if not kinds:
        tags.append("provenance not declared")
    return " — " + ", ".join(tags) if tags else ""


def _comparable(series_unit: str, projection_unit: str) -> bool:
    """A projection is drawn on a series only when both are percentages (a rate or a change)."""
    return series_unit.lstrip().startswith("%") and projection_unit.lstrip().startswith("%")


def series_figure(frame: pd.DataFrame, cutoff: date, title: str, projections: pd.DataFrame | None = None) -> go.Figure:
    """One provider series: used values (line), values released after the cutoff (grey crosses, not used),
    the cutoff (dotted line) and, where the units agree, the official projections published by then."""
    unit = ", ".join(sorted(set(map(str, frame["unit"]))))
    x = [period_start(p, f) for p, f in zip(frame["reference_period"], frame["frequency"], strict=True)]
    frame = frame.assign(x=x)
    used = frame[frame["status"] == "used"].sort_values("x")
    later = frame[frame["status"] == "after cutoff"].sort_values("x")
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=used["x"],
            y=used["value"],
            mode="lines",
            name="used: latest release by the cutoff",
            line={"color": "#1f4e79", "width": 1.6},
            customdata=used[["reference_period", "release_date", "vintage"]].astype(str),
            hovertemplate="%{customdata[0]}: %{y} · released %{customdata[1]} · vintage %{customdata[2]}"
            "<extra></extra>",
        )
    )
    if not later.empty:
        fig.add_trace(
            go.Scatter(
                x=later["x"],
                y=later["value"],
                mode="markers",
                name="released after the cutoff: not used",
                marker={"symbol": "x", "color": "#999999", "size": 6},
                customdata=later[["reference_period", "release_date"]].astype(str),
                hovertemplate="%{customdata[0]}: %{y} · released %{customdata[1]} (after the cutoff)<extra></extra>",
            )
        )
    if projections is not None and not projections.empty:
        for (publisher, round_, published), g in projections.groupby(["publisher", "round", "published"], sort=False):
            if not _comparable(unit, str(g["unit"].iloc[0])):
                continue
            fig.add_trace(
                go.Scatter(
                    x=[pd.Timestamp(int(y), 7, 1) for y in g["year"]],  # an annual figure drawn at mid-year
                    y=g["value"],
                    mode="markers+lines",
                    line={"dash": "dot", "width": 1},
                    marker={"symbol": "diamond", "size": 8},
                    name=f"official projection: {publisher} {round_} (published {published}; evidence, not data)",
                    hovertemplate="%{x|%Y}: %{y} " + str(g["unit"].iloc[0]) + "<extra></extra>",
                )
            )
    cut = pd.Timestamp(cutoff)
    fig.add_vline(x=cut, line={"dash": "dot", "color": "#b22222", "width": 1})
    fig.add_annotation(x=cut, y=1.0, yref="paper", text=f"cutoff {cutoff}", showarrow=False, xanchor="right")
    fig.update_layout(
        title=title + _provenance_tag(frame),
        xaxis_title="reference period",
        yaxis_title=unit,
        showlegend=True,  # also with one trace: the legend says what the line is
        legend={"orientation": "h", "y": -0.25},
        height=420,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
    )
    return fig


def observations_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One variable's observations as shown: status in words, newest period first, the series key last."""
    shown = frame.assign(status=frame["status"].map(STATUS_WORDS).fillna(frame["status"]))
    shown = shown.sort_values(["reference_period", "release_date"], ascending=False, na_position="last")
    columns = ["reference_period", "value", "unit", "release_date", "vintage", "release_rule", "status", "provenance"]
    return shown[[*columns, "series_key"]].rename(columns={"series_key": "series (provider key)"})


def series_table(view: InputSeries, labels: dict[str, str]) -> pd.DataFrame:
    """The series summary as shown: the variable's label first, the provider key last."""
    frame = view.series.assign(variable=view.series["variable"].map(lambda v: labels.get(v, v)))
    frame = frame.rename(
        columns={
            "used": "values used",
            "first_used": "first period used",
            "last_used": "last period used",
            "last_release_used": "latest release used",
            "released_after_cutoff": "releases after the cutoff (not used)",
            "release_rules": "release rule(s)",
        }
    )
    return frame[[c for c in frame.columns if c != "series_key"] + ["series_key"]]


def outlook_table(outlook: pd.DataFrame, labels: dict[str, str]) -> pd.DataFrame:
    return outlook.assign(variable=outlook["variable"].map(lambda v: labels.get(v, v)))


def render(ws, analysis_id: str, analysis_label: str, labels: dict[str, str]) -> None:
    """The page body for one analysis (the page file picks the analysis and passes its label)."""
    view = library_view(ws, input_series, analysis_id)
    st.markdown(
        f"**{analysis_label}** — information cutoff **{view.cutoff}**, vintage policy **{view.vintage_policy}**. "
        f"Read from {view.origin}."
    )
    if view.run_id:
        st.caption(f"Details: analysis `{analysis_id}` · macro run `{view.run_id}`")
    if view.series.empty:
        st.info("This analysis has no input series: its workspace stores no observations (`aieco data add`).")
        return
    st.subheader("Input series")
    show_table(series_table(view, labels), key="data_series", name=f"input_series_{analysis_id}")
    outlook = library_view(ws, official_outlook, view.cutoff)
    variables = list(dict.fromkeys(view.series["variable"]))
    variable = st.selectbox("Variable", variables, format_func=lambda v: labels.get(v, v), key="data_variable")
    obs = view.observations[view.observations["variable"] == variable]
    mine = outlook[outlook["variable"] == variable]
    for key, frame in obs.groupby("series_key", sort=True):
        title = f"{labels.get(variable, variable)} — {key or 'unnamed series'}"
        show_figure(series_figure(frame, view.cutoff, title, mine), key=f"data_chart_{key}", name=f"series_{key}")
    counts = obs["status"].value_counts()
    st.caption(
        "; ".join(f"{STATUS_WORDS.get(s, s)}: {n}" for s, n in counts.items())
        + ". Crosses are values released after the cutoff: shown, never given to a model."
    )
    with lazy_section(
        f"Observations of {labels.get(variable, variable)} with release dates and vintages", key="data_obs"
    ) as open_:
        if open_:
            show_table(observations_table(obs), key="data_obs_table", name=f"observations_{variable}_{analysis_id}")
    st.subheader("Official projections available at the cutoff")
    if outlook.empty:
        st.info(
            "No official projection published by the cutoff is stored in this workspace "
            "(`aieco data load-official` stores the shipped Eurosystem/ECB staff and SPF rounds)."
        )
    else:
        st.caption(
            "Published on or before the cutoff: evidence about the outlook known then, never model data. "
            "Drawn on a series above only where both are percentages."
        )
        show_table(outlook_table(outlook, labels), key="data_outlook", name=f"official_projections_{view.cutoff}")
