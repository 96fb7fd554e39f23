"""aieco dashboard entry point: `streamlit run app.py`.

Opens the workspace once per script run (settings.workspace, default ``store/``). On
first launch, when the workspace is empty, the demo is built and its request run in a
background job (one per workspace, shared by every session) while the page shows its
progress. Then the analysis selector shared by every page is offered and the selected
page runs. Pages are listed in ``dashboard/navigation.py``.
"""

from pathlib import Path

import streamlit as st

from aieco import views
from aieco.config import get_settings
from aieco.errors import AiecoError
from dashboard import jobs
from dashboard.navigation import PAGES
from dashboard.state import get_state
from dashboard.workspace import Workspace, bound, open_workspace, workspace_path

# The icon is a file of the package: a :material/…: page icon would make the browser fetch it from Google.
st.set_page_config(page_title="aieco", page_icon=str(Path(__file__).parent / "dashboard" / "icon.svg"), layout="wide")


def build_and_run_demo(store, job: jobs.Job):
    """The demo from nothing: corpus, ingest, G0 graph, macro data; then its three risks."""
    from aieco.demo import build_demo, run_demo

    build_demo(store, progress=job.note)
    return run_demo(store, progress=job.progress)


def demo_job_id(ws: Workspace) -> str:
    return f"demo:{ws.path}"


@st.fragment(run_every=1.0)
def demo_progress(job_id: str) -> None:
    job = jobs.get(job_id)
    if job is None:
        return
    if job.done:
        st.rerun()  # the whole app again: the pages now read the built workspace
    # Not a `with` block: leaving one would mark the status complete while the build still runs.
    box = st.status("Building the demo workspace (first launch)…", state="running", expanded=True)
    box.progress(job.fraction, text=job.last_message)
    box.caption("The illustrative corpus is ingested, the G0 graph built and the demo request "
                "(three risks) run offline; this happens once.")


def ensure_demo(ws: Workspace) -> None:
    """On an empty workspace, build the demo in the background and show its progress."""
    job = jobs.get(demo_job_id(ws))
    if job is not None and job.done:
        if job.error:
            st.error(f"The demo could not be built: {job.error}")
        return
    if job is None:
        if not (get_settings().dashboard.build_demo_on_first_launch and views.is_empty(ws.store)):
            return
        job = jobs.start(demo_job_id(ws), ws.path, build_and_run_demo)
    demo_progress(demo_job_id(ws))
    st.stop()


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
        # The menu is registered on every run, also while the demo is being built.
        page = st.navigation([st.Page(p.path, title=p.title, icon=p.icon) for p in PAGES])
        ensure_demo(ws)
        st.sidebar.caption(f"Workspace `{ws.path}`")
        select_analysis(ws)
        page.run()
except AiecoError as exc:
    st.error(f"{exc}\n\nWorkspace: `{workspace_path()}`")
