"""The dashboard in a real browser: `streamlit run app.py` on 127.0.0.1 and Debian's Chromium via Playwright.

Shared by `aieco bench dashboard` and the browser tests (tests/test_dashboard_browser.py).
The app lives beside the package (``app.py`` at the repository root); both need it there.
Nothing here imports streamlit: the server is a subprocess.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from aieco.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app.py"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-default-apps",
]
LOCAL_PREFIXES = ("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:", "about:", "javascript:")


def dashboard_pages() -> list[str]:
    """The dashboard's page titles in menu order, read from ``dashboard/navigation.py`` (the one page list).

    Read from ``python -m dashboard.navigation`` in a child process, as the server runs: the library
    never imports the dashboard package.
    """
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    args = [sys.executable, "-m", "dashboard.navigation"]  # prints the titles as JSON
    out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise InputError(
            f"the dashboard's page list could not be read: {out.stderr.strip()[-300:]}",
            where=str(ROOT / "dashboard" / "navigation.py"),
            fix="run from a checkout of the repository",
        )
    return json.loads(out.stdout)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`streamlit run app.py` on a free 127.0.0.1 port over ``workspace``; its output goes to ``log``."""

    def __init__(self, workspace: Path, log: Path, *, build_demo: bool, env: dict[str, str] | None = None):
        if not APP.is_file():
            raise InputError(f"the dashboard app is not at {APP}", fix="run from a checkout of the repository")
        self.url = f"http://127.0.0.1:{_free_port()}"
        self.log = log
        self.workspace = workspace
        env = {
            **os.environ,
            "AIECO_WORKSPACE": str(workspace),
            "PYTHONPATH": str(ROOT),
            "AIECO_DASHBOARD__BUILD_DEMO_ON_FIRST_LAUNCH": str(build_demo).lower(),
            **(env or {}),
        }
        with log.open("w") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "streamlit",
                    "run",
                    str(APP),
                    "--server.port",
                    self.url.rsplit(":", 1)[1],
                    "--server.address",
                    "127.0.0.1",
                    "--server.headless",
                    "true",
                    "--browser.gatherUsageStats",
                    "false",
                    "--server.fileWatcherType",
                    "none",
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def wait_until_serving(self, timeout: float = 90.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with {self.proc.returncode}:\n{self.log.read_text()}")
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"streamlit did not answer on {self.url} within {timeout} s:\n{self.log.read_text()}")

    def tracebacks(self) -> list[str]:
        """Every traceback the server logged (none is acceptable)."""
        text = self.log.read_text(errors="replace")
        return [block.split("\n\n", 1)[0] for block in text.split("Traceback (most recent call last):")[1:]]

    def deprecations(self) -> list[str]:
        text = self.log.read_text(errors="replace")
        return [line for line in text.splitlines() if "deprecat" in line.lower() or "will be removed" in line]

    def __enter__(self) -> Server:
        self.wait_until_serving()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)


@contextmanager
def browser_page(width: int = 1400, height: int = 1000) -> Iterator[tuple[Any, list[str]]]:
    """A Chromium page and the list of every request it made to an address other than 127.0.0.1."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise InputError(f"Chromium is not installed at {CHROMIUM}", fix="apt-get install chromium")
    outside: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
            page = context.new_page()
            page.on("request", lambda r: None if r.url.startswith(LOCAL_PREFIXES) else outside.append(r.url))
            yield page, outside
        finally:
            browser.close()


SETTLED_JS = """() => !document.querySelector('[data-testid="stStatusWidget"]')
  && document.querySelectorAll('[data-stale="true"]').length === 0"""

# The page as the user sees it when a run is over: the script is not running (the app root's
# state, set when the server's "finished" message arrived), no running indicator, no stale
# element, no placeholder of an element whose code is still loading (a chart's first draw),
# every plotly chart drawn (its SVG is in the page: plotly loads and draws after
# the element arrives) and every data table drawn (its canvas is in the page).
DRAWN_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-testid="stStatusWidget"]')) return false;
  if (document.querySelector('[data-stale="true"]')) return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;  // an element still loading its code
  for (const c of document.querySelectorAll('[data-testid="stPlotlyChart"]'))
    if (!c.querySelector('.js-plotly-plot .main-svg')) return false;
  for (const d of document.querySelectorAll('[data-testid="stDataFrame"]'))
    if (!d.querySelector('canvas')) return false;
  return true;
}"""

# Polled in the page: the time (performance.now(), ms) since which the page has been drawn
# without interruption, once that has lasted ``quiet`` ms; false before. A run that the page
# itself triggers right after drawing (a widget reporting its state) interrupts it.
_DRAWN_SINCE_JS = (
    """(quiet) => {
  const drawn = ("""
    + DRAWN_JS
    + """)();
  const now = performance.now();
  if (!drawn) { window.__aiecoDrawnSince = null; return false; }
  if (window.__aiecoDrawnSince == null) window.__aiecoDrawnSince = now;
  return now - window.__aiecoDrawnSince >= quiet ? window.__aiecoDrawnSince : false;
}"""
)


def settle(page: Any, timeout_ms: float = 60_000, stable_ms: float = 0) -> None:
    """Wait until the app finished its run: no running indicator, no stale element.

    Streamlit shows its running indicator only after a short delay, so right after a click
    the page can look settled before its run starts; ``stable_ms`` > 0 checks again after
    that long (for screenshots; the bench waits for a page-specific element instead).
    """
    page.wait_for_function(SETTLED_JS, timeout=timeout_ms, polling=25)
    if stable_ms:
        page.wait_for_timeout(stable_ms)
        page.wait_for_function(SETTLED_JS, timeout=timeout_ms, polling=25)


def page_clock(page: Any) -> float:
    """The page's clock (``performance.now()``, ms), to time an interaction against :func:`drawn_at`."""
    return page.evaluate("() => performance.now()")


def drawn_at(page: Any, quiet_ms: float = 300, timeout_ms: float = 60_000) -> float:
    """The page's clock (ms) when the page was last fully drawn (:data:`DRAWN_JS`) and stayed so.

    Call it once the interaction's own run is visible (e.g. the new page's heading is on
    screen): before that the old page still counts as drawn. It returns after ``quiet_ms``
    without a change, so a run the page triggers by itself right after drawing (a widget
    reporting its state) counts in the interaction's time; the quiet wait does not.
    """
    page.evaluate("() => { window.__aiecoDrawnSince = null; }")
    return page.wait_for_function(_DRAWN_SINCE_JS, arg=quiet_ms, timeout=timeout_ms, polling=10).json_value()
