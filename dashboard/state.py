"""The dashboard's one typed session state (no raw ``st.session_state`` keys in pages)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import streamlit as st

_KEY = "aieco_dashboard_state"


@dataclass
class DashboardState:
    """What the analyst selected, shared across pages within one browser session."""

    analysis_id: str | None = None
    report_id: str | None = None
    claim_id: str | None = None
    run_id: str | None = None
    source_id: str | None = None
    #: The relation opened on the Channel graph page (kept while filters or a review hide it).
    relation_id: str | None = None
    #: The message of the review just recorded, shown once after the rerun that shows its effect.
    review_flash: str | None = None
    #: The request being edited on the Request page (a plain mapping, saved as TOML).
    request_draft: dict[str, Any] = field(default_factory=dict)
    #: The analysis whose request the draft was loaded from (the form follows the selected analysis).
    draft_of: str | None = None
    #: The draft as last loaded from outside the form (the widgets' and tables' starting values).
    request_base: dict[str, Any] = field(default_factory=dict)
    #: Counts drafts loaded from outside the form (the form's widget keys carry it).
    draft_version: int = 0
    #: The uploaded request file last loaded into the form (an upload is loaded once).
    loaded_upload: str | None = None
    #: Messages of the last launched analysis (stage, event) for the Request page.
    last_launch: list[dict[str, Any]] = field(default_factory=list)
    #: Launched analyses whose end the page has been redrawn for (the stops and counts are then current).
    shown_finished: set[str] = field(default_factory=set)


def get_state() -> DashboardState:
    """This session's state, created on first use."""
    if _KEY not in st.session_state:
        st.session_state[_KEY] = DashboardState()
    return st.session_state[_KEY]
