"""Which channel of a risk had no path, and why — shown on the analysis pages, for the selected analysis."""

from __future__ import annotations

import streamlit as st

from dashboard import analysis_views
from dashboard.tables import show_table


def show_channels_without_path(ws, analysis_id: str | None, *, risk: str | None = None, key: str) -> None:
    """The risks' channels without an admissible path (of one risk when ``risk`` is given), with the
    reason graph search recorded and whether the risk went on with its other channels."""
    if analysis_id is None:
        return
    gaps = ws.view(analysis_views.channels_without_path, analysis_id)
    if risk is not None:
        gaps = gaps[gaps["risk"] == risk.replace("_", " ")]
    if gaps.empty:
        return
    with st.container(border=True, key=f"no_path_{key}"):
        st.markdown(f"**Channels without a path** ({len(gaps)})")
        for _, g in gaps.iterrows():
            st.markdown(f":material/link_off: **{g['risk']}** · {g['channel']} — {g['risk_status']}")
            st.text(f"why: {g['why']}")  # as text: reasons are shown as recorded
        ids = st.expander("Ids and CSV", key=f"no_path_ids_{key}", on_change="rerun")
        if ids.open:  # lazy: the table is drawn only when asked for, not on every visit of the page
            with ids:
                show_table(gaps, key=f"no_path_table_{key}", name="channels_without_path")
