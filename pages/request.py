"""Request: the analyses of this workspace and their outcomes; the request form and launch."""

import streamlit as st

from aieco import views
from dashboard.state import get_state
from dashboard.workspace import page_workspace

state = get_state()
st.header("Request")

with page_workspace() as ws:
    analyses = ws.view(views.analyses_frame)
    st.subheader("Analyses")
    if analyses.empty:
        st.info("No analysis yet — run `aieco analyze REQUEST.toml` (or `aieco demo`).")
    else:
        st.dataframe(analyses, hide_index=True, width="stretch")
        for _, a in analyses[analyses["status"].isin(["stopped", "failed"])].iterrows():
            st.warning(f"{a['label']}: {a['status']} at stage **{a['stopped_stage']}** — {a['reason']}")
