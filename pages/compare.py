"""Compare: scenarios of two or more analyses (or seeds) side by side — headline figures and paths."""

import streamlit as st

from dashboard import compare_page, shared
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.workspace import page_workspace

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Compare")

with page_workspace() as ws:
    titles = ws.view(shared.analysis_labels)  # newest first
    if not titles:
        st.info("No analysis yet: run two (`aieco default`, `aieco analyze REQUEST.toml`) to compare their scenarios.")
    else:
        ids = list(titles)
        first = state.analysis_id if state.analysis_id in ids else ids[0]
        default = [first, *[a for a in ids if a != first][:1]]
        chosen = st.multiselect(
            "Analyses to compare",
            ids,
            default=default,
            format_func=titles.get,
            key="compare_analyses",
            help="Two or more analyses, or one analysis whose request ran several seeds or risks.",
        )
        if chosen:
            compare_page.render(ws, chosen, titles, ws.view(shared.variable_labels))
        else:
            st.info("Choose at least one analysis above.")
