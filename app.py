"""aieco dashboard entry point: `streamlit run app.py`.

Two roles in one file, as Streamlit's ``st.App`` expects:

* imported by `streamlit run` as an ASGI module (``__name__ != "__main__"``), it defines
  ``app`` whose lifespan starts building the default workspace when the server starts
  (on an empty workspace, when settings allow), before any browser connects;
* run as the app script (``__name__ == "__main__"``), it opens the workspace once per
  script run, registers the menu over the top-level ``pages/`` with ``st.navigation``
  (which disables Streamlit's own pages/ discovery, so deep links such as
  ``/reports?claim=…`` run inside this menu), shows the build's progress while it runs,
  offers the analysis selector shared by every page, and runs the selected page.
"""

from contextlib import asynccontextmanager
from pathlib import Path

import streamlit as st

from dashboard import first_launch
from dashboard.navigation import PAGES
from dashboard.state import get_state

ICON = Path(__file__).parent / "dashboard" / "assets" / "icon.png"


@asynccontextmanager
async def lifespan(_app):
    first_launch.start_default_build()
    yield


def build_panel() -> None:
    """The first-launch build's progress, above every page while it runs."""
    from dashboard.progress import build_progress

    build_progress()


def select_analysis(ws) -> None:
    from dashboard import views

    state = get_state()
    labels = ws.view(views.analysis_labels)
    if not labels:
        state.analysis_id = None
        return
    ids = list(labels)
    if state.analysis_id not in ids:
        state.analysis_id = ids[0]  # the newest
    if st.session_state.get("sidebar_analysis") != state.analysis_id:
        st.session_state["sidebar_analysis"] = state.analysis_id  # a page (e.g. Launch) selected another
    state.analysis_id = st.sidebar.selectbox("Analysis", ids, format_func=labels.get, key="sidebar_analysis")


def main() -> None:
    from aieco.errors import AiecoError
    from dashboard.workspace import bound, open_workspace, workspace_path

    st.set_page_config(page_title="aieco", page_icon=str(ICON), layout="wide")
    first_launch.start_default_build()  # no-op when the server's lifespan already started it
    try:
        with open_workspace() as ws, bound(ws):
            # The menu is registered on every run, also while the demo is being built.
            page = st.navigation([st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path)
                                  for p in PAGES])
            build_panel()
            st.sidebar.caption(f"Workspace `{ws.path}`")
            select_analysis(ws)
            page.run()
    except AiecoError as exc:
        st.error(f"{exc}\n\nWorkspace: `{workspace_path()}`")


if __name__ == "__main__":
    main()
else:  # imported by `streamlit run` (ASGI mode): the server with the first-launch lifespan
    app = st.App(__file__, lifespan=lifespan)
