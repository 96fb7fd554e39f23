"""Model runs: the ModelRun table, diagnostics and fan charts of the stored output points."""

import streamlit as st

from dashboard import runs_views, scenario_views, shared
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.tables import show_figure, show_table
from dashboard.workspace import open_workspace, page_workspace, shown_errors

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Model runs")


@st.fragment
def fan_chart_of(run_id: str, variables: tuple[str, ...]) -> None:
    """One variable's fan chart at a time, the variable picked above it; a pick reruns only this part.

    Each panel of a chart costs the browser about as much as a small page, so the run's
    variables are offered one at a time rather than all drawn on every visit.
    """
    with open_workspace() as ws, shown_errors():  # a fragment rerun has no app run around it
        vlabels = ws.view(shared.variable_labels)
        key = f"fan_variable_{run_id}"
        if st.session_state.get(key) not in variables:
            st.session_state[key] = variables[0]
        variable = st.segmented_control(
            "Variable", variables, key=key, format_func=lambda v: vlabels.get(v, v), required=True
        )
        st.caption(
            "Shaded bands: quantile ranges of the simulated paths; line: median; other lines: the run's "
            "selected and reference paths. The unit is on the axis."
        )
        restrictions = ws.view(runs_views.run_restrictions, run_id)
        if restrictions:  # a macro run selected under restrictions: say whether this variable is one
            selected = bool(ws.view(runs_views.selection_summary, run_id))  # a stopped selection stored no path
            st.caption(
                runs_views.restriction_caption(
                    variable, vlabels.get(variable, variable), restrictions, selected=selected
                )
            )
        show_figure(
            ws.view(runs_views.fan_charts_of_run, run_id, (variable,)),
            name=f"fan_chart_{variable}",
            key="fan_charts",
        )


with page_workspace() as ws:
    scope = st.radio("Runs of", ["the selected analysis", "every analysis"], horizontal=True)
    runs = ws.view(runs_views.runs_frame, state.analysis_id if scope == "the selected analysis" else None)
    if runs.empty:
        st.info(
            "No model runs yet — an analysis whose restrictions survive runs every compatible model "
            "(`aieco analyze REQUEST.toml` or `aieco demo`)."
        )
        st.stop()
    labels = ws.view(runs_views.run_labels, state.analysis_id if scope == "the selected analysis" else None)
    shown = runs.assign(run=runs["run_id"].map(labels))
    picked = show_table(
        shown[
            [
                "run",
                "status",
                "reason",
                "seconds",
                "seed",
                "points",
                "graph_condition",
                "run_id",
                "output_digest",
                "diagnostics",
            ]
        ],
        key="runs_table",
        name="model_runs",
        column_config={
            "seconds": st.column_config.NumberColumn("time (s)", format="%.2f"),
            "points": st.column_config.NumberColumn("output points"),
            "graph_condition": st.column_config.TextColumn("graph condition"),
        },
        on_select="rerun",
        selection_mode="single-row",
    )
    ids = list(runs["run_id"])
    if picked and picked.selection.rows:
        state.run_id = ids[picked.selection.rows[0]]
    if state.run_id not in ids:
        state.run_id = ids[0]
    run = runs[runs["run_id"] == state.run_id].iloc[0]
    st.subheader(labels.get(run["run_id"], run["run_id"]))
    st.caption(shared.provenance_badge(ws.view(shared.provenance_of_analysis, run["analysis_id"])))
    (st.success if run["status"] == "completed" else st.warning)(
        f"status {run['status']}" + (f" — {run['reason']}" if run["reason"] else "")
    )

    selection = ws.view(runs_views.selection_summary, state.run_id)
    if selection:
        a, b, c, d = st.columns(4)
        a.metric("severity", f"{selection['severity']:.3f}" if "severity" in selection else "–")
        b.metric("acceptance share", f"{selection['acceptance_share']:.2%}" if "acceptance_share" in selection else "–")
        c.metric("admissible draws", f"{int(selection.get('admissible', 0))} / {int(selection.get('draws', 0))}")
        if selection.get("rule") == "calibrated":  # a conditional forecast: no draw is the scenario
            d.metric(
                "scenario rule",
                f"calibrated, P{100 * float(selection.get('target_percentile', 0)):.0f}",
                help="The path is the model's expected path at the target severity percentile, scaled by "
                f"{float(selection.get('scale', 1)):.2f} to the official adverse severity; the paper's rule "
                "(one draw) is on the Evaluation page.",
            )
        else:
            d.metric("selected simulation", int(selection["simulation_id"]) if "simulation_id" in selection else "–")
    points = ws.view(runs_views.points_frame, state.run_id)
    # Lazy tabs: only the open tab's content runs and is sent (a page switch draws one tab, not all four).
    charts, official, diagnostics, tables, table = st.tabs(
        ["Fan charts", "Against the official outlook", "Diagnostics", "Output tables", "Output points"],
        key="run_tabs",
        on_change="rerun",
    )
    with official:
        if official.open:
            comparison = ws.view(scenario_views.official_table, state.run_id)
            if comparison.empty:
                st.info("Only a completed macro_var run has paths to compare with the official outlook.")
            else:
                st.caption(
                    "aieco's baselines and this risk's scenario beside the official projection published by the "
                    "run's cutoff (the one the anchored baseline follows) and official adverse scenarios: those "
                    "published after the cutoff are evaluation references only and never reach the model."
                )
                for label in comparison["variable"].drop_duplicates():
                    show_figure(
                        scenario_views.official_figure(comparison, label),
                        key=f"official_{label}",
                        name=f"official_{label}",
                    )
                show_table(comparison, key="model_runs_official", name="official_comparison")
    with charts:
        if charts.open:
            variables = runs_views.model_variables(points)
            if not variables:
                st.info("This run stored no aggregate output points to chart.")
            else:
                fan_chart_of(state.run_id, tuple(variables))
    with diagnostics:
        if diagnostics.open:
            diag = ws.view(runs_views.diagnostics_frame, state.run_id)
            st.caption("Acceptance shares, severity and the other diagnostics the run recorded.")
            show_table(diag, key="model_runs_table_2", name="model_runs_2")
    with tables:
        if tables.open:
            st.caption("The run's stored output artifact (severity and acceptance share of a selection are here).")
            for name, frame in ws.view(runs_views.output_tables, state.run_id).items():
                st.markdown(f"**{name}**")
                show_table(frame, key=f"model_runs_output_{name}", name=name, hide_index=False)
    with table:
        if table.open:
            show_table(points, key="model_runs_table_4", name="model_runs_4")
