"""The app's shell: workspace per run, the menu over pages/, the build panel, the analysis picker.

``app.py`` calls :func:`main`. A page file calls :func:`inside_app` first: when Streamlit
runs that file on its own (a deep link such as ``/reports?claim=…`` opened before this
session ran ``app.py``, when Streamlit still serves the ``pages/`` folder itself), the
whole app runs instead — menu, workspace, selected page — and the page's own run stops.
"""

from pathlib import Path

import streamlit as st

from dashboard import first_launch
from dashboard.navigation import HOME_URL_PATH, PAGES
from dashboard.state import get_state

ICON = Path(__file__).parent / "assets" / "icon.png"


def build_panel() -> None:
    """The first-launch build's progress, above every page while it runs."""
    from dashboard.progress import build_progress

    build_progress()


def _picked() -> None:
    """The analyst chose an analysis in the sidebar: it becomes the selected one (before the script reruns)."""
    get_state().analysis_id = st.session_state.get("sidebar_analysis")


def select_analysis(ws) -> None:
    """The sidebar's analysis picker, shared by every page.

    The picker writes the state through its ``on_change`` callback, which Streamlit runs before
    the script; a page that selects another analysis (a launch) writes the state only. So when
    the widget and the state differ here, the state is the newer choice and the widget follows
    it — never the other way round, which would undo the analyst's pick.
    """
    from dashboard import shared

    state = get_state()
    labels = ws.view(shared.analysis_labels)
    if not labels:
        state.analysis_id = None
        return
    ids = list(labels)
    if state.analysis_id not in ids:
        state.analysis_id = ids[0]  # the newest
    if st.session_state.get("sidebar_analysis") != state.analysis_id:
        st.session_state["sidebar_analysis"] = state.analysis_id
    st.sidebar.selectbox("Analysis", ids, format_func=labels.get, key="sidebar_analysis", on_change=_picked)


def main() -> None:
    from aieco.errors import AiecoError
    from dashboard.tables import figure_format_picker
    from dashboard.workspace import bound, open_workspace, workspace_path

    st.set_page_config(page_title="aieco", page_icon=str(ICON), layout="wide")
    first_launch.start_default_build()  # no-op when the server's lifespan already started it
    try:
        with open_workspace() as ws, bound(ws):
            # The menu is registered on every run, also while the demo is being built.
            first = PAGES[0]
            home = st.Page(  # the root URL: the first page, without taking its deep link away
                first.path,
                title=first.title,
                icon=first.icon,
                url_path=HOME_URL_PATH,
                default=True,
                visibility="hidden",
            )
            pages = [st.Page(p.path, title=p.title, icon=p.icon, url_path=p.url_path) for p in PAGES]
            page = st.navigation([home, *pages])
            build_panel()
            st.sidebar.caption(f"Workspace `{ws.path}`")
            select_analysis(ws)
            figure_format_picker()
            page.run()
    except AiecoError as exc:
        st.error(f"{exc}\n\nWorkspace: `{workspace_path()}`")


def inside_app() -> None:
    """Run the whole app instead of this page when the page was started on its own."""
    from dashboard.workspace import running_under_app

    if not running_under_app():
        main()
        st.stop()
