"""Data: the input series of the selected analysis, as its models saw them at the cutoff, with the official outlook."""

import streamlit as st

from dashboard import data_page, shared
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.workspace import page_workspace

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Data")

with page_workspace() as ws:
    if state.analysis_id is None:
        st.info("No analysis yet: run one (`aieco default`, `aieco analyze REQUEST.toml`) to see its input series.")
    else:
        label = ws.view(shared.analysis_labels).get(state.analysis_id, state.analysis_id)
        data_page.render(ws, state.analysis_id, label, ws.view(shared.variable_labels))
