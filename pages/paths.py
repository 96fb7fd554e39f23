"""Paths & restrictions: ranked candidate paths per channel query and the derived restrictions."""

import streamlit as st

from dashboard import analysis_views, shared
from dashboard.gaps import show_channels_without_path
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.tables import lazy_section, show_table
from dashboard.workspace import page_workspace

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Paths & restrictions")

with page_workspace() as ws:
    queries = ws.view(analysis_views.queries_frame, state.analysis_id)
    if queries.empty:
        st.info("No channel queries registered yet — they come with an analysis request (`aieco analyze`).")
    else:  # on demand: a data table costs the browser about as much as a small page
        of = " of the selected analysis" if state.analysis_id else ""
        with lazy_section(f"Registered channel queries{of} — {len(queries)}", key="paths_queries") as open_:
            if open_:
                show_table(queries, key="paths_table_1", name="paths_1")

    if state.analysis_id is None:
        st.info("No analysis yet — run `aieco analyze REQUEST.toml` (or `aieco demo`).")
        st.stop()
    st.caption(f"Analysis: {ws.view(shared.analysis_labels).get(state.analysis_id, state.analysis_id)}")
    paths = ws.view(analysis_views.paths_frame, state.analysis_id)
    st.subheader("Candidate paths")
    show_channels_without_path(ws, state.analysis_id, key="paths")
    if paths.empty:
        st.info("This analysis has no stored paths (it stopped before path enumeration, or found none).")
    else:
        # One table for every (risk, channel) group, grouped by its first column: one grid for the
        # browser to draw instead of one per group.
        groups = paths["risk"].str.replace("_", " ") + " · " + paths["query"].astype(str)
        shown = paths.drop(columns=["risk", "query"]).assign(group=groups.to_numpy())
        show_table(
            shown[["group", *[c for c in shown.columns if c != "group"]]],
            key="paths_candidates",
            name=f"paths_{state.analysis_id}",
            column_config={
                "group": st.column_config.TextColumn("risk · channel", pinned=True),
                "score": st.column_config.NumberColumn("S(C)", format="%.3f"),
            },
        )

    st.subheader("Derivations")
    derivations = ws.view(analysis_views.derivations_frame, state.analysis_id)
    if derivations.empty:
        st.info("No restriction derivation stored for this analysis.")
    else:
        for _, d in derivations.iterrows():
            (st.success if d["status"] == "accepted" else st.warning)(
                f"{d['risk']}: {d['status']} — {d['restrictions']} restrictions from {d['assessed_paths']} "
                f"assessed paths. {d['reason']}"
            )

    st.subheader("Restrictions")
    restrictions = ws.view(analysis_views.restrictions_frame, state.analysis_id)
    if restrictions.empty:
        st.info("No restrictions for this analysis.")
    else:
        show_table(
            restrictions,
            key="paths_table_3",
            name="paths_3",
            column_config={
                "supporting_quotes": st.column_config.TextColumn("supporting quotes", width="large"),
                "supporting relations": st.column_config.NumberColumn(help="Relations the restriction rests on"),
            },
        )
