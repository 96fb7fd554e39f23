"""aieco dashboard entry point: `streamlit run app.py`.

Opens the workspace once per script run (settings.workspace, default ``store/``),
builds the demo workspace on first launch when it is empty, offers the analysis
selector shared by every page, and runs the selected page. Pages are listed in
``dashboard/navigation.py``.
"""

import streamlit as st

from aieco import views
from aieco.errors import AiecoError
from dashboard.navigation import PAGES
from dashboard.state import get_state
from dashboard.workspace import Workspace, bound, open_workspace, workspace_path

try:  # the demo builder belongs to the pipeline area; the app works without it
    from aieco.demo import build_demo
except ImportError:
    build_demo = None

st.set_page_config(page_title="aieco", page_icon=":material/hub:", layout="wide")


def ensure_demo(ws: Workspace) -> None:
    """Build the demo workspace on first launch (an empty workspace) with a progress indicator."""
    if not views.is_empty(ws.store):
        return
    if build_demo is None:
        st.sidebar.info("This workspace is empty. The demo builder (`aieco demo`) is not available "
                        "in this version yet; ingest sources on the Sources page.")
        return
    with st.status("Building the demo workspace (first launch)…", expanded=True) as status:
        bar = st.progress(0.0)

        def progress(stage: str, event: str, index: int, total: int) -> None:
            bar.progress(min((index + (event != "started")) / max(total, 1), 1.0), text=f"{stage}: {event}")

        build_demo(ws.store, progress=progress)
        ws.refresh()
        status.update(label="Demo workspace ready", state="complete", expanded=False)


def select_analysis(ws: Workspace) -> None:
    state = get_state()
    ids = ws.view(views.analysis_ids)
    if not ids:
        state.analysis_id = None
        return
    index = ids.index(state.analysis_id) if state.analysis_id in ids else 0
    state.analysis_id = st.sidebar.selectbox("Analysis", ids, index=index, key="sidebar_analysis")


try:
    with open_workspace() as ws, bound(ws):
        ensure_demo(ws)
        st.sidebar.caption(f"Workspace `{ws.path}`")
        select_analysis(ws)
        page = st.navigation([st.Page(p.path, title=p.title, icon=p.icon) for p in PAGES])
        page.run()
except AiecoError as exc:
    st.error(f"{exc}\n\nWorkspace: `{workspace_path()}`")
