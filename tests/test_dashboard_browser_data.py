"""The Data and Compare pages in a real browser (`streamlit run app.py`, Debian's headless Chromium): each
opens from the menu and draws its table and its charts, without a traceback or a request off 127.0.0.1."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from dashboard_demo import demo_workspace

from aieco.benchmarks.browser import CHROMIUM, Server, browser_page, drawn_at, settle

ARTIFACTS = Path(__file__).resolve().parents[1] / "tests" / "artifacts" / "screenshots" / "data_compare"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium (`apt-get install chromium`; .ci/run "
        "installs it)",
    ),
]


def test_data_and_compare_pages_draw_their_tables_and_charts(tmp_path_factory):
    from playwright.sync_api import expect

    workspace = tmp_path_factory.mktemp("browser_data") / "ws"
    shutil.copytree(demo_workspace(tmp_path_factory), workspace)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with Server(workspace, tmp_path_factory.mktemp("server") / "streamlit.log", build_demo=False) as srv:
        with browser_page(height=1600) as (page, outside):
            page.goto(srv.url, wait_until="domcontentloaded")
            expect(page.get_by_role("heading", name="Request", exact=True)).to_be_visible(timeout=120_000)
            settle(page, 120_000)
            for title, table_text, chart_text in (
                ("Data", "values used", "used: latest release by the cutoff"),
                ("Compare", "measure", "scenario path"),
            ):
                page.get_by_role("link", name=title).click()
                expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible(timeout=60_000)
                settle(page, stable_ms=800)
                drawn_at(page, quiet_ms=800, timeout_ms=120_000)  # every chart and table drawn, for a while
                grid = page.get_by_test_id("stDataFrame").first
                expect(grid).to_be_visible()
                # the grid draws on a canvas; its accessible table (hidden) names the columns
                headers = grid.get_by_role("columnheader", include_hidden=True).all_text_contents()
                assert table_text in headers, f"the {title} page's table lacks {table_text!r}: {headers}"
                charts = page.get_by_test_id("stPlotlyChart")
                expect(charts.first).to_be_visible(timeout=60_000)
                expect(charts.first.locator(".legend")).to_contain_text(chart_text)
                assert not page.get_by_test_id("stException").count(), f"exception on {title}"
                page.screenshot(path=ARTIFACTS / f"{title.lower()}.png", full_page=True)
            assert outside == [], f"requests outside 127.0.0.1: {outside[:5]}"
        assert srv.tracebacks() == [], "\n\n".join(srv.tracebacks())
        assert srv.deprecations() == [], srv.deprecations()
