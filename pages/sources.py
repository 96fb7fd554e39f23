"""Sources: the registry, eligibility and exclusions, the passage and cell viewer, ingest."""

import streamlit as st

from aieco import views
from dashboard.state import get_state
from dashboard.workspace import page_workspace

state = get_state()
st.header("Sources")

with page_workspace() as ws:
    registry = ws.view(views.sources_frame)
    if registry.empty:
        st.info("No sources yet — run `aieco ingest MANIFEST` (or `aieco demo`) to register some.")
    else:
        st.caption(f"{len(registry)} registered sources; illustrative (synthetic) material is flagged.")
        st.dataframe(registry, hide_index=True, width="stretch",
                     column_config={"illustrative": st.column_config.CheckboxColumn("synthetic")})

        st.subheader("Passages and cells")
        titles = dict(zip(registry["source_id"], registry["title"], strict=True))
        ids = list(titles)
        index = ids.index(state.source_id) if state.source_id in ids else 0
        state.source_id = st.selectbox("Source", ids, index=index, format_func=lambda s: f"{titles[s]} ({s})")
        locations = ws.view(views.locations_frame, state.source_id)
        if locations.empty:
            st.info("This source has no parsed locations.")
        else:
            text = st.text_input("Filter passages", placeholder="words the passage contains")
            shown = locations[locations["text"].str.contains(text, case=False, regex=False)] if text else locations
            st.dataframe(shown.dropna(axis=1, how="all"), hide_index=True, width="stretch",
                         column_config={"text": st.column_config.TextColumn(width="large")})

    st.subheader("Exclusions")
    exclusions = ws.view(views.exclusions_frame)
    if exclusions.empty:
        st.info("No exclusions recorded yet: they are written when an analysis applies its cutoff, "
                "roles and scope to the sources.")
    else:
        groups = ws.view(views.exclusion_groups)
        group = st.selectbox("Analysis or eligibility check", groups,
                             index=groups.index(state.analysis_id) if state.analysis_id in groups else 0)
        chosen = ws.view(views.exclusions_frame, group)
        st.caption(", ".join(f"{reason}: {n}" for reason, n in chosen["reason"].value_counts().items()))
        st.dataframe(chosen, hide_index=True, width="stretch")
