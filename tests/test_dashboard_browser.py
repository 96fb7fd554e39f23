"""End to end in a real browser: `streamlit run app.py` driven by Playwright in Debian's Chromium.

The server runs on 127.0.0.1 with AIECO_WORKSPACE pointing at a prepared workspace;
screenshots of every step are saved in the test's temporary folder.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from dashboard_demo import demo_workspace

from aieco.records import Report
from aieco.store import Store

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium "
                                                     "(`apt-get install chromium`; .ci/run installs it)"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_serving(url: str, proc: subprocess.Popen, log: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"streamlit exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"streamlit did not answer on {url} within {timeout} s:\n{log.read_text()}")


class Server:
    """`streamlit run app.py` on a free 127.0.0.1 port over ``workspace``."""

    def __init__(self, workspace: Path, log: Path, *, build_demo: bool):
        self.url = f"http://127.0.0.1:{_free_port()}"
        env = {**os.environ, "AIECO_WORKSPACE": str(workspace), "PYTHONPATH": str(ROOT),
               "AIECO_DASHBOARD__BUILD_DEMO_ON_FIRST_LAUNCH": str(build_demo).lower()}
        self.log = log
        with log.open("w") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", self.url.rsplit(":", 1)[1],
                 "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats",
                 "false", "--server.fileWatcherType", "none"],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)

    def __enter__(self) -> Server:
        _wait_until_serving(self.url, self.proc, self.log)
        return self

    def __exit__(self, *exc) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture
def server(tmp_path: Path, tmp_path_factory):
    """The demo workspace, built and run offline by the library, served by `streamlit run app.py`."""
    workspace = demo_workspace(tmp_path_factory)
    with Store(workspace) as store:
        reports = [r for r in store.all(Report) if r.status == "passed"]
    assert reports, "the demo wrote no passed report"
    ids = {"report_title": reports[0].title}
    with Server(workspace, tmp_path / "streamlit.log", build_demo=False) as srv:
        yield srv.url, ids, tmp_path


def test_report_number_leads_to_its_model_run_export_and_graph_page_draws(server):
    from playwright.sync_api import expect, sync_playwright

    url, ids, tmp_path = server
    shots = tmp_path / "screenshots"
    shots.mkdir()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url, wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Request", exact=True)).to_be_visible(timeout=30_000)
            page.screenshot(path=shots / "01_request.png", full_page=True)

            # The demo report: its numbers are links to their ModelRun and output point.
            page.get_by_role("link", name="Reports").click()
            expect(page.get_by_role("heading", name=ids["report_title"])).to_be_visible(timeout=30_000)
            number = page.get_by_role("button", name="→ run_").first
            expect(number).to_be_visible()
            run_id = number.inner_text().rsplit("→", 1)[1].strip()
            number.click()
            expect(page.get_by_role("heading", name="ModelRun")).to_be_visible(timeout=20_000)
            expect(page.get_by_text("Relations and quotes")).to_be_visible(timeout=20_000)
            expect(page.get_by_text("→ point pt_").first).to_be_visible()
            page.screenshot(path=shots / "02_report_trace.png", full_page=True)

            # Export the HTML report: every number in it links to its output point in its run's section.
            with page.expect_download(timeout=60_000) as download:
                page.get_by_role("button", name="HTML").click()
            exported = tmp_path / "report.html"
            download.value.save_as(exported)
            html = exported.read_text(encoding="utf-8")
            assert ids["report_title"] in html
            assert '<a class="num" href="#pt-' in html and f'id="run-{run_id}"' in html

            # The channel graph page draws its relations.
            page.get_by_role("link", name="Channel graph").click()
            expect(page.get_by_role("heading", name="Channel graph", exact=True)).to_be_visible(timeout=20_000)
            graph = page.frame_locator("iframe").first  # the pyvis page, embedded with its resources in line
            canvas = graph.locator("canvas").first
            expect(canvas).to_be_visible(timeout=30_000)
            box = canvas.bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 300
            page.wait_for_timeout(2_000)  # let the physics layout settle before the screenshot
            page.screenshot(path=shots / "03_channel_graph.png", full_page=True)
        finally:
            browser.close()
    assert sorted(p.name for p in shots.iterdir()) == ["01_request.png", "02_report_trace.png",
                                                        "03_channel_graph.png"]


def test_first_launch_builds_the_demo_with_progress_then_shows_it(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    shots = tmp_path / "screenshots"
    shots.mkdir()
    with Server(tmp_path / "fresh", tmp_path / "streamlit.log", build_demo=True) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(srv.url, wait_until="domcontentloaded")
            expect(page.get_by_text("Building the demo workspace (first launch)")).to_be_visible(timeout=30_000)
            expect(page.get_by_role("link", name="Reports")).to_be_visible()  # the menu is there while it builds
            page.screenshot(path=shots / "01_building.png", full_page=True)
            expect(page.get_by_role("heading", name="Request", exact=True)).to_be_visible(timeout=180_000)
            expect(page.get_by_text("Analyses", exact=True)).to_be_visible(timeout=30_000)
            expect(page.get_by_text("stopped at stage").first).to_be_visible(timeout=30_000)  # market illiquidity
            page.wait_for_timeout(2_000)
            page.screenshot(path=shots / "02_demo_ready.png", full_page=True)
        finally:
            browser.close()
