"""Dashboard latency measured from the browser, on the default workspace (built by `aieco demo`).

A real Chromium (Playwright) drives `streamlit run app.py` on 127.0.0.1 over
settings.workspace; when that workspace is empty the demo is built in a scratch folder
first, as the app's first launch does. Figures:

* ``page_switch_p95``: click a page in the menu → that page is drawn: its run has finished
  (the app's script state, no running indicator, no stale element), every plotly chart and
  data table on it is drawn, and a rerun the page triggers by itself has finished too
  (:func:`aieco.benchmarks.browser.drawn_at`); p95 over every page, several rounds;
* ``number_click_p95``: click a number of the report → its chain is on screen, drawn the same way;
* ``peer_health_roundtrip_p95``: the server's health endpoint from the same machine in
  the same run (the floor any interaction pays), for reading the two above;
* CPU-time context: the CPU seconds the Streamlit server (its process tree) and the browser
  (Chromium's processes, with the driver) spent per interaction, and the load average —
  on a loaded machine the wall-clock figures wait for the CPU; these say how much work the
  interaction itself cost; per page too (``page_switch_{server,browser}_cpu_mean_<page>``, the
  browser's share without this process's own /proc reading), to see which page costs the most.

Re-measure on an idle machine with ``python -m aieco bench dashboard --json`` (workspace from
``-w``/``$AIECO_WORKSPACE`` when it holds records, else the demo built in a scratch folder;
``workspace_is_demo`` says which).

Target from the issue: page switch and number click ≤ 0.5 s at p95.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path

from aieco.benchmarks import Figure
from aieco.benchmarks.browser import Server, browser_page, dashboard_pages, drawn_at, page_clock
from aieco.config import get_settings
from aieco.inventory import is_empty
from aieco.store import Store

TARGET_S = 0.5
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def tree_cpu_seconds(root: int) -> float:
    """User + system CPU seconds of process ``root`` and its descendants (Linux /proc; NaN elsewhere)."""
    proc = Path("/proc")
    if not proc.is_dir():
        return float("nan")
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        pid = int(entry.name)
        parent[pid] = int(fields[1])
        cpu[pid] = (int(fields[11]) + int(fields[12])) / _TICK
    children: dict[int, list[int]] = {}
    for pid, pp in parent.items():
        children.setdefault(pp, []).append(pid)
    total, stack = 0.0, [root]
    while stack:
        pid = stack.pop()
        total += cpu.get(pid, 0.0)
        stack += children.get(pid, [])
    return total


def p95(values: list[float]) -> float:
    """The 95th percentile (inclusive method; the maximum below 20 values)."""
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def number_labels(page) -> list[str]:
    """The labels of the report's number buttons ('−1.409 % · Real GDP 2025' …)."""
    buttons = page.locator("[data-testid='stBaseButton-tertiary']", has_text=" · ")
    # the icon is a font ligature: its name ('link') is part of the button's text
    labels = [b.inner_text().strip().removeprefix("link").strip() for b in buttons.all()]
    return list(dict.fromkeys(labels))


def run(quick: bool = False, workspace: str | None = None) -> list[Figure]:
    """Measure over ``workspace`` (default: settings.workspace) when it holds records, else over
    the demo built in a scratch folder (figure ``workspace_is_demo`` says which)."""
    workspace = Path(workspace or get_settings().workspace)
    if (workspace / "aieco.db").exists():
        with Store(workspace) as store:
            if not is_empty(store):
                return [*measure(workspace, rounds=2 if quick else 5), _demo_flag(False)]
    from aieco.demo import build_demo, run_demo

    with tempfile.TemporaryDirectory() as tmp:
        with Store(Path(tmp) / "ws") as store:
            build_demo(store)
            run_demo(store)
        return [*measure(Path(tmp) / "ws", rounds=2 if quick else 5), _demo_flag(True)]


def _demo_flag(demo: bool) -> Figure:
    """1 when the figures are of the synthetic demo built in a scratch folder (the workspace was empty)."""
    return Figure(name="workspace_is_demo", value=float(demo), unit="flag")


def measure(workspace: Path, rounds: int) -> list[Figure]:
    pages = dashboard_pages()  # every page of the menu (dashboard/navigation.py), in its order
    with tempfile.TemporaryDirectory() as tmp, Server(workspace, Path(tmp) / "streamlit.log", build_demo=False) as srv:
        with browser_page() as (page, _outside):
            page.goto(srv.url, wait_until="domcontentloaded")
            page.get_by_role("heading", name=pages[0], exact=True).wait_for(timeout=120_000)
            drawn_at(page, timeout_ms=120_000)
            for title in pages:  # warm every page's cached views once (first loads are not interactions)
                page.get_by_role("link", name=title).click()
                page.get_by_role("heading", name=title, exact=True).wait_for(timeout=120_000)
                drawn_at(page, timeout_ms=120_000)
            per_page: dict[str, list[float]] = {title: [] for title in pages}
            page_cpu: dict[str, list[tuple[float, float]]] = {title: [] for title in pages}
            server0 = tree_cpu_seconds(srv.proc.pid)
            browser0 = tree_cpu_seconds(os.getpid()) - server0
            for _ in range(rounds):
                for title in pages:
                    s0, b0 = split_cpu(srv.proc.pid)
                    t0 = page_clock(page)
                    page.get_by_role("link", name=title).click()
                    page.get_by_role("heading", name=title, exact=True).wait_for(timeout=60_000)
                    per_page[title].append((drawn_at(page) - t0) / 1000)
                    s1, b1 = split_cpu(srv.proc.pid)
                    page_cpu[title].append((s1 - s0, b1 - b0))
            switches = [t for times in per_page.values() for t in times]
            server1 = tree_cpu_seconds(srv.proc.pid)
            browser1 = tree_cpu_seconds(os.getpid()) - server1
            page.get_by_role("link", name="Reports").click()
            page.get_by_role("heading", name="Reports", exact=True).wait_for(timeout=60_000)
            drawn_at(page)
            page.get_by_text("every analysis", exact=True).click()  # the newest analysis may have no report
            page.locator("[data-testid='stBaseButton-tertiary']", has_text=" · ").first.wait_for(timeout=60_000)
            drawn_at(page)
            clicks = []
            labels = number_labels(page)[:6]
            server2 = tree_cpu_seconds(srv.proc.pid)
            browser2 = tree_cpu_seconds(os.getpid()) - server2
            for _ in range(rounds):
                for label in labels:
                    t0 = page_clock(page)
                    page.get_by_role("button", name=label).first.click()
                    # the clicked number turns primary and its chain is drawn under it
                    page.locator("[data-testid='stBaseButton-primary']", has_text=label).first.wait_for(timeout=60_000)
                    page.locator(".st-key-claim_chain").first.wait_for(timeout=60_000)
                    clicks.append((drawn_at(page) - t0) / 1000)
            server3 = tree_cpu_seconds(srv.proc.pid)
            browser3 = tree_cpu_seconds(os.getpid()) - server3
            health = []
            for _ in range(20):
                t0 = time.perf_counter()
                with urllib.request.urlopen(srv.url + "/_stcore/health", timeout=5) as r:
                    r.read()
                health.append(time.perf_counter() - t0)
    return [
        Figure(name="page_switch_p95", value=p95(switches), unit="s", target=TARGET_S),
        Figure(name="page_switch_median", value=statistics.median(switches), unit="s"),
        Figure(name="number_click_p95", value=p95(clicks) if clicks else float("nan"), unit="s", target=TARGET_S),
        Figure(name="number_click_median", value=statistics.median(clicks) if clicks else float("nan"), unit="s"),
        Figure(name="peer_health_roundtrip_p95", value=p95(health), unit="s"),
        Figure(name="load_average_1min", value=os.getloadavg()[0], unit="processes"),  # machine contention
        Figure(name="cpu_count", value=float(os.cpu_count() or 0), unit="cores"),
        Figure(name="page_switch_server_cpu_mean", value=(server1 - server0) / len(switches), unit="CPU-s"),
        Figure(name="page_switch_browser_cpu_mean", value=(browser1 - browser0) / len(switches), unit="CPU-s"),
        Figure(
            name="number_click_server_cpu_mean",
            value=(server3 - server2) / len(clicks) if clicks else float("nan"),
            unit="CPU-s",
        ),
        Figure(
            name="number_click_browser_cpu_mean",
            value=(browser3 - browser2) / len(clicks) if clicks else float("nan"),
            unit="CPU-s",
        ),
        *(
            Figure(name=f"page_switch_median_{_slug(title)}", value=statistics.median(times), unit="s")
            for title, times in per_page.items()
        ),
        *(  # where the work of a switch goes, page by page (the browser's share excludes this process)
            Figure(
                name=f"page_switch_{side}_cpu_mean_{_slug(title)}",
                value=statistics.fmean(c[i] for c in cpu),
                unit="CPU-s",
            )
            for title, cpu in page_cpu.items()
            for i, side in enumerate(("server", "browser"))
        ),
    ]


def _slug(title: str) -> str:
    return title.lower().replace(" & ", "_").replace(" ", "_")


def split_cpu(server_pid: int) -> tuple[float, float]:
    """CPU seconds so far of the server's process tree and of the browser's (this process's
    descendants but the server; this process's own reading of /proc is left out)."""
    server = tree_cpu_seconds(server_pid)
    own = sum(os.times()[:2])
    return server, tree_cpu_seconds(os.getpid()) - server - own
