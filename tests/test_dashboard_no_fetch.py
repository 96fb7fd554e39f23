"""Report sentences and quotes are shown as text: a Markdown image planted in them is never fetched.

A trap HTTP server on 127.0.0.1 serves ``/b.png``; the workspace plants
``![x](http://127.0.0.1:PORT/b.png)`` in every relation quote and in a report sentence. The
dashboard is driven in Debian's Chromium through the pages that show them (the report, the
claim's trace with its quotes, the channel graph's opposing relations). The trap must see no
request, and the browser must ask nothing of any host but the dashboard itself (icons and
fonts come from the installed package).
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from populated_workspace import build_workspace
from test_dashboard_browser import go_to

from aieco.benchmarks.browser import CHROMIUM, CHROMIUM_ARGS, Server, settle

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium "
        "(`apt-get install chromium`; .ci/run installs it)",
    ),
]


class Trap:
    """An HTTP server on 127.0.0.1 that records every request it gets."""

    def __init__(self) -> None:
        self.hits: list[str] = []
        trap = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server API)
                trap.hits.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> Trap:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_planted_markdown_image_in_quotes_and_sentences_is_never_fetched(tmp_path: Path):
    from playwright.sync_api import expect, sync_playwright

    with Trap() as trap:
        planted = f" ![x](http://127.0.0.1:{trap.port}/b.png) [link](http://127.0.0.1:{trap.port}/l)"
        ws = tmp_path / "ws"
        build_workspace(ws, tmp_path / "sources", planted=planted)
        shots = tmp_path / "screenshots"
        shots.mkdir()
        with Server(ws, tmp_path / "streamlit.log", build_demo=False) as srv, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            requested: list[str] = []
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                page.on("request", lambda r: requested.append(r.url))
                page.goto(srv.url, wait_until="domcontentloaded")
                expect(page.get_by_role("heading", name="Request", exact=True)).to_be_visible(timeout=30_000)

                settle(page, 120_000)
                go_to(page, "Reports")
                # the sentence shows the planted Markdown as literal text
                expect(page.get_by_text("![x](http://127.0.0.1:", exact=False).first).to_be_visible(timeout=30_000)
                page.get_by_role("button", name="2027").first.click()
                settle(page, 60_000)
                expect(page.get_by_text("higher tariffs reduce trade volumes ![x]", exact=False).first).to_be_visible(
                    timeout=20_000
                )
                page.wait_for_timeout(1_500)
                page.screenshot(path=shots / "01_report.png", full_page=True)

                go_to(page, "Channel graph")
                expect(page.get_by_text("Opposing relations")).to_be_visible(timeout=20_000)
                expect(page.get_by_text("volatility lowers equity prices ![x]", exact=False).first).to_be_visible(
                    timeout=20_000
                )
                page.wait_for_timeout(1_500)
                page.screenshot(path=shots / "02_graph.png", full_page=True)
            finally:
                browser.close()
        assert trap.hits == [], f"the browser fetched planted URLs: {trap.hits}"
        foreign = sorted(
            {u for u in requested if not u.startswith((srv.url, "data:", "blob:", "about:")) and "srcdoc" not in u}
        )
        assert foreign == [], f"requests to other hosts than the dashboard: {foreign}"
