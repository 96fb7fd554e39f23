"""The dashboard's pages, in menu order. Adding a page is one line here plus its file."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageEntry:
    path: str  # relative to the repository root (not pages/: Streamlit would also serve that folder on its own)
    title: str
    icon: str


PAGES: tuple[PageEntry, ...] = (
    PageEntry("dashboard/pages/request.py", "Request", ":material/edit_note:"),
    PageEntry("dashboard/pages/sources.py", "Sources", ":material/library_books:"),
    PageEntry("dashboard/pages/channel_graph.py", "Channel graph", ":material/hub:"),
    PageEntry("dashboard/pages/paths.py", "Paths & restrictions", ":material/route:"),
    PageEntry("dashboard/pages/model_runs.py", "Model runs", ":material/monitoring:"),
    PageEntry("dashboard/pages/bank_capital.py", "Bank capital", ":material/account_balance:"),
    PageEntry("dashboard/pages/reports.py", "Reports", ":material/description:"),
    PageEntry("dashboard/pages/evaluation.py", "Evaluation", ":material/query_stats:"),
    PageEntry("dashboard/pages/audit.py", "Audit", ":material/fact_check:"),
)
