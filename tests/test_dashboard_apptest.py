"""Every dashboard page under Streamlit's AppTest, on an empty and on a populated workspace."""

from __future__ import annotations

from pathlib import Path

import pytest
from dashboard_demo import demo_workspace
from populated_workspace import build_workspace
from streamlit.testing.v1 import AppTest

from aieco.config import get_settings
from dashboard.navigation import PAGES

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")


@pytest.fixture
def use_workspace(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))  # the app imports the `dashboard` package next to app.py

    def point_at(path: Path, *, build_demo: bool = False) -> None:
        monkeypatch.setenv("AIECO_WORKSPACE", str(path))
        monkeypatch.setenv("AIECO_DASHBOARD__BUILD_DEMO_ON_FIRST_LAUNCH", str(build_demo).lower())
        get_settings.cache_clear()

    yield point_at
    get_settings.cache_clear()


@pytest.fixture(scope="module")
def populated(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("populated")
    ids = build_workspace(base / "ws", base / "sources")
    return base / "ws", ids


def open_page(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    path = next(p.path for p in PAGES if p.title == page)
    at.switch_page(path).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def widget(at: AppTest, kind: str, label: str):
    return next(w for w in (at.get(kind) if kind == "download_button" else getattr(at, kind)) if w.label == label)


PAGE_TITLES = [p.title for p in PAGES]  # the app's own page list (dashboard/navigation.py), in menu order


def test_navigation_is_the_one_page_list_of_the_pages_folder():
    # every file in pages/ is a page of the menu and every menu entry a file: adding a page is one line there
    assert sorted(p.path for p in PAGES) == sorted(f"pages/{f.name}" for f in (ROOT / "pages").glob("*.py"))
    assert len(set(PAGE_TITLES)) == len(PAGE_TITLES) and len({p.url_path for p in PAGES}) == len(PAGES)
    # the pages the issue asked for, in its order, are there (others, e.g. Evaluation, come between)
    asked = ["Request", "Sources", "Channel graph", "Paths & restrictions", "Model runs", "Bank capital", "Reports"]
    assert [t for t in PAGE_TITLES if t in asked] == asked


def test_the_bench_measures_the_pages_of_the_navigation():
    from aieco.benchmarks.browser import dashboard_pages

    assert dashboard_pages() == PAGE_TITLES


@pytest.mark.parametrize("title", PAGE_TITLES)
def test_page_on_an_empty_workspace_shows_an_honest_empty_state(title, tmp_path, use_workspace):
    use_workspace(tmp_path / "empty")
    at = open_page(title)
    assert [h.value for h in at.header] == [title]
    assert not at.error, [e.value for e in at.error]
    assert at.info, "an empty workspace must say what to run"
    assert any("aieco" in i.value for i in at.info)


@pytest.mark.parametrize("title", PAGE_TITLES)
def test_page_on_the_demo_workspace_renders_without_error(title, tmp_path_factory, use_workspace):
    use_workspace(demo_workspace(tmp_path_factory))
    at = open_page(title)
    assert [h.value for h in at.header] == [title]
    assert not at.error, [e.value for e in at.error]
    frames = [df.value for df in at.dataframe]
    present = {  # what the demo puts on each page
        "Request": lambda: any("analysis_id" in f.columns and len(f) for f in frames),
        "Sources": lambda: any("publisher" in f.columns and len(f) >= 10 for f in frames),
        "Channel graph": lambda: any("evidence_class" in f.columns and len(f) > 10 for f in frames),
        "Paths & restrictions": lambda: any("composed_sign" in f.columns and len(f) for f in frames),
        "Model runs": lambda: len(at.get("plotly_chart")) >= 1,
        "Data": lambda: any("values used" in f.columns and len(f) for f in frames) and len(at.get("plotly_chart")),
        "Compare": lambda: any("measure" in f.columns and len(f) for f in frames),
        "Bank capital": lambda: (
            len(at.get("plotly_chart")) >= 2 or any("No bank projections" in i.value for i in at.info)
        ),
        "Reports": lambda: len(at.get("download_button")) == 5,
        "Evaluation": lambda: any("rule" in f.columns and len(f) for f in frames),  # the scenario rules side by side
        "Audit": lambda: len(at.get("plotly_chart")) == 1,
    }[title]
    assert present(), f"the {title} page lacks its key element on the demo"


@pytest.mark.parametrize("title", PAGE_TITLES)
def test_page_on_a_populated_workspace_renders_its_records(title, populated, use_workspace):
    ws, ids = populated
    use_workspace(ws)
    at = open_page(title)
    for section in {"Audit": ["audit_llm_calls"], "Bank capital": ["bank_gates"]}.get(title, []):  # on demand
        at.session_state[section] = True
        at.run()
    assert [h.value for h in at.header] == [title]
    assert not at.error, [e.value for e in at.error]
    shown = " ".join(str(df.value.to_dict()) for df in at.dataframe)
    expect = {
        "Request": [ids["analysis_id"]],
        "Sources": ["Trade outlook", "after_cutoff"],
        "Channel graph": ["Trade volumes", "Liquidity review"],
        "Paths & restrictions": ["Tariffs → Trade volumes → Real GDP", "agrees with the registration"],
        "Model runs": [ids["macro_run"], "acceptance_share"],
        "Data": [],  # the populated workspace holds no observations: its empty state names the command
        "Compare": [],
        "Bank capital": ["spearman"],
        "Reports": [],
        "Evaluation": [],  # no evaluation recorded: its empty state is checked on the empty workspace
        "Audit": ["restrictions", "report_writing"],
    }[title]
    for text in expect:
        assert text in shown, f"{text!r} missing from the {title} page"


def test_request_page_shows_a_stop_with_its_stage_and_reason(populated, use_workspace):
    use_workspace(populated[0])
    at = open_page("Request")
    assert any("**restrictions** stopped" in w.value and "composes against" in w.value for w in at.warning)


def test_model_runs_page_draws_a_fan_chart_per_variable(populated, use_workspace):
    use_workspace(populated[0])
    at = open_page("Model runs")
    charts = at.get("plotly_chart")
    assert len(charts) == 1  # one aggregate variable (real_gdp) in the macro run
    assert "severity" in " ".join(str(df.value.to_dict()) for df in at.dataframe)


def test_bank_capital_page_shows_paths_distribution_and_gate(populated, use_workspace):
    use_workspace(populated[0])
    at = open_page("Bank capital")
    assert len(at.get("plotly_chart")) >= 2
    assert any("gate passed" in s.value for s in at.success)
    assert widget(at, "selectbox", "Bank").options == ["Bank A", "Bank B"]


def test_report_number_opens_its_own_chain_under_it(populated, use_workspace):
    ws, ids = populated
    use_workspace(ws)
    at = open_page("Reports")
    assert "real GDP in 2027 is" in " ".join(m.value for m in at.text)  # report prose is shown as text
    assert [b.label for b in at.get("download_button")] == ["HTML", "Markdown", "LaTeX", "PDF", "JSON bundle"]
    number = next(b for b in at.button if "Real GDP 2027" in b.label)
    assert ids["macro_run"] not in number.label  # labels, not ids, on the number
    number.click().run()
    assert not at.exception, [e.value for e in at.exception]
    text = " ".join(m.value for m in at.markdown)
    assert "Output test" in text and "Model run" in text and "Selected path" in text
    assert "Tariffs → Trade volumes → Real GDP" in text
    # quotes (shown as text) in path order, each with its source and page
    quotes = " ".join(m.value for m in at.text)
    assert quotes.index("higher tariffs reduce trade volumes") < quotes.index("trade volumes raise real GDP")
    assert ids["point_id"] in text and ids["claim_id"] in text  # ids only in the details
    assert any("p. " in c.value for c in at.caption)


def test_report_deep_link_by_claim_id(populated, use_workspace):
    ws, ids = populated
    use_workspace(ws)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.query_params["claim"] = ids["claim_id"]
    at.switch_page("pages/reports.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert ids["point_id"] in " ".join(m.value for m in at.markdown)


def test_sources_viewer_filters_passages(populated, use_workspace):
    use_workspace(populated[0])
    at = open_page("Sources")
    at.session_state["sources_passages"] = True  # the viewer opens on demand (a lazy section)
    at.run()
    at.text_input[0].input("nothing like this").run()
    passages = at.dataframe[1].value
    assert len(passages) == 0
    at.text_input[0].input("tariffs").run()
    assert len(at.dataframe[1].value) == 1


def relation_table(at):
    """The Relations table of the Channel graph page (None when no relation passes the filters)."""
    return next((f.value for f in at.dataframe if "evidence_class" in f.value.columns), None)


def test_channel_graph_filters_by_publication_date_risk_and_review(populated, use_workspace):
    import datetime as dt

    use_workspace(populated[0])
    at = open_page("Channel graph")
    as_of = widget(at, "date_input", "As of (publication date)")
    assert as_of.value == dt.date(2024, 12, 31)  # the selected analysis's cutoff
    # how far to trust the machine reading, measured on the gold set's held-back documents
    assert any("offline rule reader" in w.value and "not developed on" in w.value for w in at.warning)
    # what the selected analysis rests on, unreviewed first
    queue = next(f.value for f in at.dataframe if "used by" in f.value.columns)
    assert queue[["from", "to", "decision"]].values.tolist() == [
        ["Tariffs", "Trade volumes", "not reviewed"],
        ["Trade volumes", "Real GDP", "not reviewed"],
    ]
    as_of.set_value(None).run()
    assert len(relation_table(at)) == 4
    widget(at, "date_input", "As of (publication date)").set_value(dt.date(2024, 7, 1)).run()
    assert len(relation_table(at)) == 2  # the September review is not yet published
    widget(at, "date_input", "As of (publication date)").set_value(None).run()
    widget(at, "selectbox", "Risk").select("trade_fragmentation").run()
    assert set(relation_table(at)["from"]) == {"Tariffs", "Trade volumes"}
    at.get("segmented_control")[0].set_value("rejected").run()
    assert not at.exception
    assert relation_table(at) is None or relation_table(at)["review"].str.startswith("rejected").all()


def test_audit_page_runs_the_workspace_audit(populated, use_workspace):
    use_workspace(populated[0])
    at = open_page("Audit")
    assert at.get("plotly_chart"), "stage timeline missing"
    assert any("cost (USD)" == m.label for m in at.metric)
    at.button[0].click().run()
    assert any("Audit clean" in s.value for s in at.success)


def test_unusable_workspace_is_a_readable_error_not_a_traceback(tmp_path, use_workspace):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    use_workspace(not_a_folder)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    assert any("is a file, not a folder" in e.value and "fix:" in e.value for e in at.error)


def test_request_form_checks_a_request_and_names_the_bad_field(populated, use_workspace):
    use_workspace(populated[0])
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception
    before = next(c.value for c in at.caption if c.value.startswith("Analysis id"))
    widget(at, "text_input", "Title").input("Changed title")
    widget(at, "button", "Check request").click()
    at.run()
    assert any("valid" in s.value for s in at.success)
    after = next(c.value for c in at.caption if c.value.startswith("Analysis id"))
    assert after != before  # the analysis id is the digest of the request
    assert widget(at, "download_button", "Save request as TOML")
    widget(at, "text_input", "Horizon").input("2027-2025")
    widget(at, "button", "Check request").click()
    at.run()
    assert not at.exception
    assert any("horizon" in e.value and "fix:" in e.value for e in at.error)
    assert any("**Horizon** (`horizon`)" in e.value for e in at.error)  # the form's field, by its label


def test_request_form_has_a_widget_for_every_request_field_prefilled_from_the_selected_analysis(
    tmp_path, use_workspace
):
    from aieco.api import request_fields
    from aieco.demo import DEMO_REQUEST
    from aieco.request import AnalysisRequest, load_request
    from aieco.store import Store
    from dashboard import request_form

    posed = load_request(DEMO_REQUEST).model_copy(
        update={"title": "Posed before", "vintage_policy": "approximate", "seeds": [11, 12]}
    )
    selected = posed.analysis()
    with Store(tmp_path / "ws") as store:
        store.put(selected)  # the analysis the sidebar selects (the only one)
    use_workspace(tmp_path / "ws")
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["sidebar_analysis"] == selected.analysis_id
    shown = {
        w.label: w
        for kind in ("text_input", "date_input", "selectbox", "multiselect", "number_input")
        for w in getattr(at, kind)
    }
    shown.update({w.label: w for w in at.get("checkbox")})
    for f in request_fields(AnalysisRequest):
        if f.kind == "table":
            continue  # risks and channel queries: the two tables
        assert request_form.label(f) in shown, f"no widget for the request field {f.name}"
    # prefilled from the selected analysis, not from a demo file
    assert shown["Title"].value == "Posed before"  # not the demo file's title
    assert shown["Vintage policy"].value == "approximate"
    assert shown["Seeds (comma separated)"].value == "11, 12"
    # a field the analyst changes reaches the request checked (and launched)
    widget(at, "selectbox", "Vintage policy").select("approximate")
    widget(at, "text_input", "Seeds (comma separated)").input("7, 8")
    widget(at, "button", "Check request").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    from dashboard.state import DashboardState

    state = at.session_state["aieco_dashboard_state"]
    assert isinstance(state, DashboardState)
    assert (state.request_draft["vintage_policy"], state.request_draft["seeds"]) == ("approximate", [7, 8])
    widget(at, "text_input", "Seeds (comma separated)").input("seven")
    widget(at, "button", "Check request").click()
    at.run()
    assert any("**Seeds (comma separated)** (`seeds.0`)" in e.value for e in at.error), [e.value for e in at.error]


def test_request_check_refuses_what_the_launch_refuses_and_says_what_to_fix(tmp_path, use_workspace):
    use_workspace(tmp_path / "ws")
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    widget(at, "text_input", "Models (comma separated)").input("macro_var, no_such_model")
    widget(at, "button", "Check request").click()
    at.run()
    assert not at.exception
    assert not any("valid" in s.value for s in at.success)
    assert any("no_such_model" in e.value and "not registered" in e.value and "use one of" in e.value for e in at.error)
    assert widget(at, "button", "Launch analysis").disabled


def test_request_page_follows_a_launched_analysis_and_shows_its_stop(tmp_path, use_workspace):
    import time

    from aieco.records import StageRecord, utc_now
    from dashboard import jobs
    from dashboard.state import DashboardState

    ws = tmp_path / "ws"
    use_workspace(ws)

    def run(store, job):
        now = utc_now()
        for i, (stage, status, reason) in enumerate(
            [("eligibility", "completed", ""), ("restrictions", "stopped", "every path composes against")]
        ):
            job.progress(stage, "started", i, 2)
            store.put(
                StageRecord.create(
                    analysis_id="an_launched",
                    stage=stage,
                    status=status,
                    reason=reason,
                    input_digest=stage,
                    started_at=now,
                    ended_at=now,
                )
            )
            job.progress(stage, status, i, 2)
        return "stopped"

    job = jobs.start("an_launched", ws, run)
    deadline = time.monotonic() + 10
    while not job.done and time.monotonic() < deadline:
        time.sleep(0.01)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["aieco_dashboard_state"] = DashboardState(analysis_id="an_launched")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [s.label for s in at.status] == ["Analysis finished"]
    assert any("**restrictions** stopped: every path composes against" in w.value for w in at.warning)
    assert at.get("progress")[0].value == 100


def test_first_launch_on_an_empty_workspace_builds_the_demo_in_the_background(tmp_path, use_workspace, monkeypatch):
    import threading
    import time

    import aieco.default
    from aieco.records import Analysis, utc_now

    release = threading.Event()
    noted = threading.Event()  # the builder's first step is recorded (it runs in its own thread)
    calls = []

    def build_default(store, progress):  # stands in for the pipeline area's builder: its calls are what is tested
        calls.append(("build", threading.current_thread().name))
        progress("ingesting the real corpus")
        noted.set()
        release.wait(10)

    def run_default(store, progress):
        calls.append(("run", threading.current_thread().name))
        store.put(Analysis.create(request={"demo": True}, label="demo", created_at=utc_now()))

    monkeypatch.setattr(aieco.default, "build_default", build_default)
    monkeypatch.setattr(aieco.default, "run_default", run_default)
    use_workspace(tmp_path / "fresh", build_demo=True)
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [s.label for s in at.status] == ["Building the default workspace (first launch)…"]
    assert [h.value for h in at.header] == ["Request"]  # the pages stay usable while the demo is built
    assert noted.wait(10)
    at.run()  # the panel as it stands once the builder has reported its first step
    assert any("ingesting the real corpus" in m.value for m in at.markdown)  # every step listed
    release.set()
    from dashboard import jobs

    job = jobs.get(f"default:{(tmp_path / 'fresh').resolve()}")
    deadline = time.monotonic() + 10
    while not job.done and time.monotonic() < deadline:
        time.sleep(0.01)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [h.value for h in at.header] == ["Request"]
    assert "demo" in " ".join(str(df.value.to_dict()) for df in at.dataframe)
    assert [c[0] for c in calls] == ["build", "run"]
    assert {c[1] for c in calls} == {f"aieco-analysis-default:{(tmp_path / 'fresh').resolve()}"}


def test_request_form_launches_the_analysis_in_the_background(tmp_path, use_workspace):
    import time

    from dashboard import jobs

    use_workspace(tmp_path / "ws")
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    analysis_id = next(c.value for c in at.caption if c.value.startswith("Analysis id")).split("`")[1]
    widget(at, "button", "Launch analysis").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    job = jobs.get(analysis_id)
    assert job is not None, "the launch did not start the analysis"
    deadline = time.monotonic() + 120
    while not job.done and time.monotonic() < deadline:
        time.sleep(0.05)
    assert job.done
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert [s.label for s in at.status] == ["Analysis finished"]
    if job.error:  # a library error is shown as its message, not a traceback
        assert any(job.error in e.value for e in at.error)
    else:
        assert job.outcome.analysis_id == analysis_id
        # the status box lists the analysis's stage records
        stages = next(
            df.value for df in at.dataframe if list(df.value.columns) == ["stage", "status", "reason", "seconds"]
        )
        assert len(stages) > 0
        stopped = [p for p in job.outcome.programs if p.status != "completed"]
        from aieco.store import Store
        from dashboard import shared
        from dashboard.labels import in_words, stage_label

        with Store(tmp_path / "ws") as store:
            risks, variables = shared.risk_labels(store, analysis_id), shared.variable_labels(store)
        for p in stopped:  # each stop is shown with its stage and reason, in words (the risk's label, no ids)
            stage, reason = stage_label(p.stopped_stage, risks), in_words(p.reason, {**variables, **risks})[:30]
            assert any(stage in w.value and reason in w.value for w in at.warning), (stage, reason)
            if "/" in p.stopped_stage:  # a risk's stage: named by the risk's label, not 'risk_name/stage'
                assert not any(p.stopped_stage in w.value for w in at.warning)


def test_sources_page_checks_eligibility_as_of_a_chosen_date(populated, use_workspace):
    import datetime as dt

    use_workspace(populated[0])
    at = open_page("Sources")
    at.session_state["sources_eligibility"] = True  # the check opens on demand (a lazy section)
    at.run()
    assert any("2 locations eligible, 1 excluded as of 2024-12-31" in c.value for c in at.caption)
    excluded = next(
        df.value for df in at.dataframe if "reason" in df.value.columns and "analysis_id" not in df.value.columns
    )
    assert excluded["reason"].tolist() == ["after_cutoff"]
    widget(at, "date_input", "Information cutoff").set_value(dt.date(2025, 6, 30)).run()
    assert any("3 locations eligible, 0 excluded as of 2025-06-30" in c.value for c in at.caption)


MANIFEST = """
[[source]]
path = "note.txt"
title = "Uploaded note"
publisher = "Test Desk"
publication_date = 2024-05-02
role = "generation"
"""


def test_sources_page_ingests_an_uploaded_manifest_and_its_files(tmp_path, use_workspace):
    use_workspace(tmp_path / "ws")
    at = open_page("Sources")
    uploaders = at.get("file_uploader")
    uploaders[0].upload("manifest.toml", MANIFEST.encode(), "application/toml")
    uploaders[1].upload("note.txt", b"Higher tariffs reduce trade volumes in the euro area.", "text/plain")
    widget(at, "button", "Ingest").click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("1 registered, 0 unchanged, 0 failed" in s.value for s in at.success)
    at.run()
    assert "Uploaded note" in " ".join(str(df.value.to_dict()) for df in at.dataframe)


def test_sources_page_names_the_bad_manifest_field(tmp_path, use_workspace):
    use_workspace(tmp_path / "ws")
    at = open_page("Sources")
    uploaders = at.get("file_uploader")
    uploaders[0].upload("manifest.toml", MANIFEST.replace('"generation"', '"gossip"').encode(), "application/toml")
    uploaders[1].upload("note.txt", b"text", "text/plain")
    widget(at, "button", "Ingest").click()
    at.run()
    assert not at.exception
    assert any("gossip" in e.value and "fix:" in e.value for e in at.error)


def test_a_relative_workspace_is_the_server_folders(tmp_path, use_workspace, monkeypatch):
    monkeypatch.chdir(tmp_path)
    use_workspace(Path("rel_ws"))  # AIECO_WORKSPACE=rel_ws
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(f"`{tmp_path / 'rel_ws'}`" in c.value for c in at.sidebar.caption)
    assert (tmp_path / "rel_ws" / "aieco.db").is_file()
