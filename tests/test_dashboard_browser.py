"""The dashboard in a real browser: `streamlit run app.py` driven by Playwright in Debian's Chromium.

Two server sessions: a fresh workspace (first launch builds at server start, with
progress, pages usable meanwhile) and the demo workspace (an analyst's path through every
page: a report number and its chain, every export, the graph, a request posed and run).
Every request the browser makes must go to 127.0.0.1; the server log must hold no
traceback and no deprecation. Screenshots of every page are kept under
tests/artifacts/screenshots/ (git-ignored) for review.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest
from dashboard_demo import demo_workspace
from tests_shared import illiquidity_request

from aieco.benchmarks.browser import CHROMIUM, Server, browser_page, settle
from dashboard.navigation import PAGES as NAVIGATION

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts" / "screenshots"
PAGES = [p.title for p in NAVIGATION]  # the app's own page list, in menu order

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium "
        "(`apt-get install chromium`; .ci/run installs it)",
    ),
]


def shots(name: str) -> Path:
    folder = ARTIFACTS / name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return folder


def assert_clean(server: Server, outside: list[str]) -> None:
    assert outside == [], f"requests outside 127.0.0.1: {outside[:5]}"
    assert server.tracebacks() == [], "\n\n".join(server.tracebacks())
    assert server.deprecations() == [], server.deprecations()


CHARTS_DRAWN = """() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')]
  .filter(e => e.offsetParent !== null).every(e => e.querySelector('.js-plotly-plot .main-svg'))"""


def go_to(page, title: str) -> None:
    from playwright.sync_api import expect

    page.get_by_role("link", name=title).click()
    expect(page.get_by_role("heading", name=title, exact=True)).to_be_visible(timeout=60_000)
    settle(page, stable_ms=800)
    page.wait_for_function(CHARTS_DRAWN, timeout=60_000)  # every visible chart drawn before a screenshot


def click_first_relation(page) -> None:
    """A real mouse click on the first relation marker (plotly listens on its drag layer, not on the marker)."""
    chart = page.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    # a relation's marker (a trace of markers only), not an arrowhead at the end of an edge's line
    marker = ".js-plotly-plot .scatterlayer .trace:not(:has(.js-line)) .points path"
    box = page.locator(marker).first.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _has_sources(workspace) -> bool:
    """The default build has started: its corpus is being ingested."""
    from aieco.records import Source
    from aieco.store import Store

    if not (workspace / "aieco.db").exists():
        return False
    with Store(workspace) as store:
        return store.count(Source) > 0


def test_first_launch_builds_at_server_start_with_moving_progress_and_usable_pages(tmp_path):
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect

    folder = shots("first_launch")
    workspace = tmp_path / "fresh"
    # The panel refreshes once a second. On an idle machine the default build's sub-steps (VAR
    # simulation, bank fits) last well under a second with the default 20,000 draws, so a browser
    # could miss every one of them; 100,000 draws (an ordinary user setting) keep the simulation's
    # sub-step on screen for about two seconds.
    slower = {"AIECO_SCENARIO__VAR_DRAWS": "100000"}
    with Server(workspace, tmp_path / "streamlit.log", build_demo=True, env=slower) as srv:
        # No browser yet: the build started with the server.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not _has_sources(workspace):
            time.sleep(0.2)
        assert _has_sources(workspace), "the default build did not start with the server"
        with browser_page() as (page, outside):
            page.goto(srv.url, wait_until="domcontentloaded")
            expect(page.get_by_text("Building the default workspace (first launch)")).to_be_visible(timeout=60_000)
            expect(page.get_by_role("heading", name="Request", exact=True)).to_be_visible(timeout=60_000)
            bar = page.locator("[data-testid='stProgress']").first
            expect(bar).to_be_visible(timeout=30_000)
            page.screenshot(path=folder / "01_building.png")
            # Every text the bar shows until the build ends (the panel then goes): it must move on to other
            # steps, and show a sub-step of a long step (series read, bank data imported, bank models fitted,
            # simulated quarters …) after the stage's name, then move past it.
            substep = re.compile(r" — .+ \d+/\d+")
            texts = [bar.inner_text()]
            shot = False
            # The bar also vanishes for a moment while its fragment redraws (longer on a loaded machine), so
            # the build counts as finished only once the panel has stayed away for five seconds.
            deadline = time.monotonic() + 300
            gone_since = None
            while time.monotonic() < deadline:
                try:
                    text = bar.inner_text(timeout=1_000)
                except PlaywrightError:
                    gone_since = gone_since or time.monotonic()
                    if time.monotonic() - gone_since > 5:
                        break  # the build finished: the panel is gone
                    continue
                gone_since = None
                if text != texts[-1]:
                    texts.append(text)
                if not shot and substep.search(text):
                    page.screenshot(path=folder / "01b_substep.png")
                    shot = True
                time.sleep(0.1)
            stages = list(dict.fromkeys(t.split(" — ")[0] for t in texts))
            ended = "the panel went" if gone_since else "the 300 s deadline passed"
            assert len(stages) > 1, f"progress stuck at {texts[0]!r} ({ended})"
            subs = [i for i, t in enumerate(texts) if substep.search(t)]
            assert subs, f"no sub-step shown in the build's progress: {texts}"
            seen = texts[subs[0]].rsplit(" — ", 1)[0]  # without the ticking seconds
            assert any(t.rsplit(" — ", 1)[0] != seen for t in texts[subs[0] + 1 :]) or len(texts) == subs[0] + 1, (
                f"stuck at {seen!r}"
            )
            go_to(page, "Sources")  # pages are usable while it builds
            page.screenshot(path=folder / "02_sources_while_building.png")
            assert_clean(srv, outside)


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory):
    # a copy: posing a request here must not add an analysis to the session's shared demo workspace
    workspace = tmp_path_factory.mktemp("browser_demo") / "ws"
    shutil.copytree(demo_workspace(tmp_path_factory), workspace)
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    with Server(workspace, log, build_demo=False) as srv:
        yield srv


def test_analyst_path_through_every_page_report_chain_exports_graph(demo_server, tmp_path):
    from playwright.sync_api import expect

    folder = shots("analyst_path")
    with browser_page() as (page, outside):
        page.goto(demo_server.url, wait_until="domcontentloaded")
        expect(page.get_by_role("heading", name="Request", exact=True)).to_be_visible(timeout=120_000)
        settle(page, 120_000)
        for i, title in enumerate(PAGES, start=1):
            go_to(page, title)
            page.screenshot(
                path=folder / f"{i:02d}_{title.lower().replace(' & ', '_').replace(' ', '_')}.png", full_page=True
            )
            assert not page.get_by_test_id("stException").count(), f"exception on {title}"

        # Reports: a number opens its own chain right under it.
        go_to(page, "Reports")
        number = page.get_by_role("button", name="Real GDP 2025").first
        number.click()
        chain = page.locator(".st-key-claim_chain")
        expect(chain).to_be_visible(timeout=30_000)
        expect(chain.get_by_text("Selected path").first).to_be_visible()
        expect(chain.get_by_text("Tariffs → Trade volumes → Real GDP").first).to_be_visible()
        assert chain.bounding_box()["y"] > number.bounding_box()["y"]  # under the number, where the eye is
        chain.scroll_into_view_if_needed()
        page.screenshot(path=folder / "20_report_chain.png")

        # Every export format downloads and is what it says.
        got = {}
        for label in ["HTML", "Markdown", "LaTeX", "PDF", "JSON bundle"]:
            with page.expect_download(timeout=60_000) as download:
                page.get_by_role("button", name=label, exact=True).click()
            assert download.value.suggested_filename.startswith("scenario-report-"), download.value.suggested_filename
            path = tmp_path / download.value.suggested_filename
            download.value.save_as(path)
            got[label] = path.read_bytes()
        assert got["PDF"].startswith(b"%PDF")
        assert json.loads(got["JSON bundle"])
        for label in ["HTML", "Markdown", "LaTeX"]:
            assert b"trade fragmentation" in got[label].lower(), label

        # The embedded export: a number link scrolls inside its frame, never loads the app in it.
        page.get_by_text("The exported report with its runs").click()
        frame = page.frame_locator("iframe").first
        link = frame.locator("a.num").first
        expect(link).to_be_visible(timeout=30_000)
        link.click()
        time.sleep(1)
        assert frame.locator("[data-testid='stApp']").count() == 0
        inner = next(f for f in page.frames if f != page.main_frame)
        assert inner.url in ("about:srcdoc", "about:blank"), inner.url

        # A table's CSV and a figure's image download in the browser (no server-side renderer).
        go_to(page, "Model runs")
        with page.expect_download(timeout=30_000) as download:
            page.get_by_role("button", name="CSV", exact=True).first.click()
        assert download.value.suggested_filename.endswith(".csv")
        go_to(page, "Bank capital")
        chart = page.locator(".js-plotly-plot").first
        chart.scroll_into_view_if_needed()
        chart.hover()
        with page.expect_download(timeout=30_000) as download:
            chart.locator(".modebar-btn[data-title^='Download plot']").click()
        assert download.value.suggested_filename.endswith(".png")

        # Channel graph: a click on a relation shows its quote and page.
        go_to(page, "Channel graph")
        expect(page.get_by_text("sign · evidence class").first).to_be_visible(timeout=30_000)
        click_first_relation(page)
        detail = page.locator(".st-key-relation_detail")
        expect(detail).to_be_visible(timeout=30_000)
        expect(detail.get_by_text(" p. ").first).to_be_visible()
        page.screenshot(path=folder / "21_graph_relation.png")
    assert_clean(demo_server, outside)


def sole_evidence_relation(workspace: Path) -> tuple[str, str]:
    """A trade-fragmentation channel and a relation every one of its stored paths needs alone (the only
    evidence of one of its steps): rejecting it must leave that channel without a path."""
    from aieco.records import ChannelQuery
    from aieco.records import Path as ChannelPath
    from aieco.store import Store
    from dashboard import shared

    with Store(workspace) as store:
        labels = shared.variable_labels(store)
        for q in store.find(ChannelQuery, risk="trade_fragmentation"):
            paths = store.find(ChannelPath, query_id=q.query_id)
            needed = [{e[0] for e in p.evidence if len(e) == 1} for p in paths]
            common = set.intersection(*needed) if needed else set()
            if common:
                channel = (
                    f"{labels[q.source_var]} {q.source_movement.value} → {labels[q.target_var]} "
                    f"{q.target_movement.value}"
                )
                return channel, sorted(common)[0]
    raise AssertionError("the demo has no channel whose paths all need one relation")


MARKER_OF = """(rid) => {
  const gd = document.querySelector('.js-plotly-plot');
  for (let t = 0; t < gd.data.length; t++) {
    const cd = gd.data[t].customdata;
    if (!cd) continue;
    for (let i = 0; i < cd.length; i++) {
      if (cd[i][0] !== rid) continue;
      const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, box = gd.getBoundingClientRect();
      return {x: box.left + xa._offset + xa.l2p(gd.data[t].x[i]), y: box.top + ya._offset + ya.l2p(gd.data[t].y[i])};
    }
  }
  return null;
}"""


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label``."""
    box = page.locator("[data-testid='stSelectbox']").filter(has=page.get_by_text(label, exact=True))
    box.click()
    page.get_by_role("option", name=option, exact=True).click()
    settle(page, stable_ms=500)


def test_review_a_relation_on_the_graph_and_see_its_effect(demo_server):
    from playwright.sync_api import expect

    folder = shots("review")
    channel, relation = sole_evidence_relation(demo_server.workspace)
    with browser_page() as (page, outside):
        page.goto(demo_server.url, wait_until="domcontentloaded")
        expect(page.get_by_role("heading", name="Request", exact=True)).to_be_visible(timeout=120_000)
        settle(page, 120_000)
        go_to(page, "Channel graph")
        choose(page, "Risk", "trade fragmentation")
        paths = page.locator(".st-key-current_paths")
        expect(paths).to_contain_text(channel, timeout=30_000)
        before = paths.inner_text()
        old = [line for line in before.splitlines() if line.startswith(f"• {channel}:")]
        assert old and all("no path" not in line for line in old), before
        choose(page, "Channel", channel)  # the graph shows this channel's relations
        page.wait_for_function(CHARTS_DRAWN, timeout=60_000)
        point = page.evaluate(MARKER_OF, relation)
        assert point is not None, f"relation {relation} is not on the graph"
        page.mouse.click(point["x"], point["y"])
        detail = page.locator(".st-key-relation_detail")
        expect(detail).to_be_visible(timeout=30_000)
        expect(detail.get_by_text("Review status: in use")).to_be_visible()
        expect(detail).to_contain_text(relation)  # ids in the details expander's text
        page.screenshot(path=folder / "01_relation_in_use.png", full_page=True)

        detail.get_by_role("radio", name="reject", exact=True).click()  # a segmented control's option
        detail.get_by_role("button", name="Record decision").click()
        expect(page.get_by_text("Recorded: reject")).to_be_visible(timeout=60_000)
        settle(page, stable_ms=500)
        # in use no more: the graph in use hides it, and the channel's paths are gone
        expect(page.get_by_text("The relation opened last is rejected by analyst")).to_be_visible(timeout=30_000)
        expect(paths).to_contain_text(f"• {channel}: no path", timeout=30_000)
        after = paths.inner_text()
        assert not any(line in after for line in old), after
        page.screenshot(path=folder / "02_after_reject.png", full_page=True)

        page.get_by_role("radio", name="rejected", exact=True).click()  # the review-status filter
        settle(page, stable_ms=500)
        expect(detail.get_by_text("Review status: rejected by analyst")).to_be_visible(timeout=30_000)
        page.screenshot(path=folder / "03_rejected_filter.png", full_page=True)
    assert_clean(demo_server, outside)


REQUEST = illiquidity_request("Market illiquidity only (browser test)")


def analysis_label(workspace: Path, title: str) -> str:
    """The sidebar label of the analysis whose request has ``title``."""
    from aieco.records import Analysis
    from aieco.store import Store
    from dashboard import shared

    with Store(workspace) as store:
        labels = shared.analysis_labels(store)
        return next(labels[a.analysis_id] for a in store.all(Analysis) if a.request.get("title") == title)


SIDEBAR_PICK = "() => document.querySelector('[data-testid=stSidebar] [data-testid=stSelectbox] input')?.value"


def sidebar_stays(page, label: str) -> None:
    """The sidebar shows ``label`` and still does after the reruns a pick triggers (no snap back)."""
    page.wait_for_function(f"() => ({SIDEBAR_PICK})() === {json.dumps(label)}", timeout=30_000)
    settle(page, stable_ms=1_000)
    assert page.evaluate(SIDEBAR_PICK) == label


DEMO_TITLE = "Euro-area banks: three initiating risks, information as of 31 December 2024"


def test_pose_and_run_a_request_then_switch_analyses_with_current_status(demo_server, tmp_path):
    from playwright.sync_api import expect

    folder = shots("request")
    request = tmp_path / "illiquidity.toml"
    request.write_text(REQUEST)
    with browser_page() as (page, outside):
        page.goto(demo_server.url, wait_until="domcontentloaded")
        expect(page.get_by_role("heading", name="Request", exact=True)).to_be_visible(timeout=120_000)
        settle(page, 120_000)
        uploader = page.locator("[data-testid='stFileUploaderDropzoneInput']")
        page.get_by_text("Load a request (demo or TOML file)").click()
        expect(page.get_by_text("Request TOML")).to_be_visible(timeout=30_000)
        time.sleep(1)  # the uploader takes files once its widget is registered
        uploader.set_input_files(str(request))
        page.wait_for_function(
            "() => document.querySelector('input[aria-label=\"Title\"]')?.value"
            " === 'Market illiquidity only (browser test)'",
            timeout=30_000,
        )
        settle(page, 60_000, stable_ms=500)  # the upload's rerun draws the form again: click the settled one
        page.get_by_role("button", name="Check request").click()
        expect(page.get_by_text("The request is valid")).to_be_visible(timeout=30_000)
        page.get_by_role("button", name="Launch analysis").click()
        # the new analysis is selected in the sidebar at once, and runs to its stop
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=stSidebar] input')]"
            ".some(i => i.value.includes('Market illiquidity only'))",
            timeout=60_000,
        )
        expect(page.get_by_text("Analysis finished")).to_be_visible(timeout=180_000)
        settle(page, stable_ms=1_000)
        # the status once it ends: a full bar, and the stops listed below it (no "nothing stopped")
        bar = page.locator("[data-testid='stProgress'] [role='progressbar']").first
        assert bar.get_attribute("aria-valuenow") == "100", bar.get_attribute("aria-valuenow")
        stops = page.locator("[data-testid='stAlertContentWarning']").filter(has_text="restriction derivation")
        expect(stops.first).to_be_visible(timeout=30_000)
        expect(page.get_by_text("No stage of this analysis stopped")).to_have_count(0)
        page.screenshot(path=folder / "01_request_run.png", full_page=True)

        # switch to the demo's analysis: the pick holds, and the selected-analysis views follow it
        launched = analysis_label(demo_server.workspace, "Market illiquidity only (browser test)")
        demo = analysis_label(demo_server.workspace, DEMO_TITLE)
        sidebar_stays(page, launched)
        choose(page, "Analysis", demo)
        sidebar_stays(page, demo)
        expect(page.get_by_text(f"Stops of the selected analysis — {demo}")).to_be_visible(timeout=30_000)
        page.screenshot(path=folder / "02_switched_to_demo.png", full_page=True)
        go_to(page, "Reports")  # another page keeps the pick, and shows that analysis's report
        sidebar_stays(page, demo)
        expect(page.get_by_role("button", name="Real GDP 2025").first).to_be_visible(timeout=30_000)
        choose(page, "Analysis", launched)  # and back
        sidebar_stays(page, launched)
        go_to(page, "Request")
        expect(page.get_by_text(f"Stops of the selected analysis — {launched}")).to_be_visible(timeout=30_000)
        page.screenshot(path=folder / "03_switched_back.png", full_page=True)
    assert_clean(demo_server, outside)


def test_pose_a_request_from_the_form_with_approximate_vintages_and_a_seed_and_read_its_report(demo_server):
    """The form starts from the selected analysis's request; the vintage policy and the seed are form fields."""
    from playwright.sync_api import expect

    folder = shots("request_form")
    title = "Demo risks, approximate vintages, seed 7 (browser test)"
    with browser_page() as (page, outside):
        page.goto(f"{demo_server.url}/request", wait_until="domcontentloaded")  # the page's own deep link
        expect(page.get_by_role("heading", name="Request", exact=True)).to_be_visible(timeout=120_000)
        settle(page, 120_000)
        expect(page.get_by_text("Page not found")).to_have_count(0)
        demo = analysis_label(demo_server.workspace, DEMO_TITLE)
        choose(page, "Analysis", demo)
        sidebar_stays(page, demo)
        title_box = page.locator("input[aria-label='Title']")
        expect(title_box).to_have_value(DEMO_TITLE, timeout=30_000)  # prefilled from the selected analysis
        title_box.fill(title)
        choose(page, "Vintage policy", "approximate")
        page.locator("input[aria-label='Seeds (comma separated)']").fill("7")
        page.screenshot(path=folder / "01_form.png", full_page=True)
        settle(page, 60_000, stable_ms=500)  # the field edits' reruns draw the form again: click the settled one
        page.get_by_role("button", name="Check request").click()
        expect(page.get_by_text("The request is valid")).to_be_visible(timeout=30_000)
        page.get_by_role("button", name="Launch analysis").click()
        expect(page.get_by_text("Analysis finished")).to_be_visible(timeout=300_000)
        settle(page, stable_ms=1_000)
        page.screenshot(path=folder / "02_launched.png", full_page=True)
        launched = analysis_label(demo_server.workspace, title)
        sidebar_stays(page, launched)
        go_to(page, "Reports")
        expect(page.get_by_role("button", name="Real GDP 2025").first).to_be_visible(timeout=60_000)
        page.screenshot(path=folder / "03_report.png", full_page=True)
    from aieco.records import Analysis
    from aieco.store import Store

    with Store(demo_server.workspace) as store:
        posed = next(a for a in store.all(Analysis) if a.request.get("title") == title)
    assert (posed.request["vintage_policy"], posed.request["seeds"]) == ("approximate", [7])
    assert_clean(demo_server, outside)
