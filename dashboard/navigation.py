"""The dashboard's pages, in menu order. Adding a page is one line here plus its file in pages/.

The one page list: the app's menu, the tests and ``aieco bench dashboard`` read it (the bench, which
may not import the dashboard, through ``python -m dashboard.navigation``: the titles as JSON).
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True)
class PageEntry:
    path: str  # relative to the repository root; st.navigation in app.py disables pages/ auto-discovery
    title: str
    icon: str

    @property
    def url_path(self) -> str:
        """The deep link of the page (``/reports``, ``/channel_graph`` …)."""
        return self.path.rsplit("/", 1)[-1].removesuffix(".py")


PAGES: tuple[PageEntry, ...] = (
    PageEntry("pages/request.py", "Request", ":material/edit_note:"),
    PageEntry("pages/sources.py", "Sources", ":material/library_books:"),
    PageEntry("pages/channel_graph.py", "Channel graph", ":material/hub:"),
    PageEntry("pages/paths.py", "Paths & restrictions", ":material/route:"),
    PageEntry("pages/model_runs.py", "Model runs", ":material/monitoring:"),
    PageEntry("pages/data.py", "Data", ":material/timeline:"),
    PageEntry("pages/bank_capital.py", "Bank capital", ":material/account_balance:"),
    PageEntry("pages/reports.py", "Reports", ":material/description:"),
    PageEntry("pages/compare.py", "Compare", ":material/compare_arrows:"),
    PageEntry("pages/evaluation.py", "Evaluation", ":material/query_stats:"),
    PageEntry("pages/audit.py", "Audit", ":material/fact_check:"),
)


#: The app's root URL runs the first page through this hidden entry, so the first page keeps its own
#: deep link (``/request``): Streamlit serves its default page at the root only.
HOME_URL_PATH = "home"


if __name__ == "__main__":
    print(json.dumps([p.title for p in PAGES]))
