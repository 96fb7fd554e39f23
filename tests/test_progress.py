"""Sub-step progress (aieco.progress): a no-op by default, in order during small runs, per context,
and what the dashboard's first-launch job and the CLI bar make of it."""

from __future__ import annotations

import threading
import time

import pandas as pd
import pytest
from graph_corpus import register_documents
from sources_files import manifest, text_pdf

from aieco.demo.macro import load_demo_observations
from aieco.extraction.build import build_relations
from aieco.models.var import VARIABLES, fit_var, simulate
from aieco.progress import listening, report, reporting
from aieco.sources.registry import ingest


class Recorder:
    def __init__(self):
        self.calls: list[tuple[str, int, int, str]] = []

    def __call__(self, step: str, done: int, total: int, label: str) -> None:
        self.calls.append((step, done, total, label))

    def of(self, step: str) -> list[tuple[int, int, str]]:
        return [(d, t, label) for s, d, t, label in self.calls if s == step]


@pytest.fixture(scope="module")
def fit():
    obs = load_demo_observations()
    levels = obs.pivot(index="reference_period", columns="variable", values="value")[list(VARIABLES)]
    return fit_var(levels)


def test_report_is_a_no_op_without_a_reporter():
    assert not listening()
    report("anything", 1, 2, "x")  # nothing installed: nothing happens, nothing raises


def test_var_simulation_reports_every_quarter_in_order(fit):
    rec = Recorder()
    with reporting(rec):
        assert listening()
        simulate(fit, draws=50, seed=3, horizon_end=2027, first_year=2025)
    assert not listening()  # the reporter is gone after the block
    seen = rec.of("VAR simulation")
    total = seen[0][1]
    assert [d for d, _, _ in seen] == list(range(1, total + 1))  # every quarter once, in order
    assert {t for _, t, _ in seen} == {total} and {lab for _, _, lab in seen} == {"50 draws"}
    end = pd.Period(fit.endpoint, freq="Q")
    assert total == (pd.Period("2027Q4", freq="Q") - end).n  # hand count: endpoint → 2027Q4


def test_ingest_reports_each_parsed_file_in_order(tmp_path, store):
    for name, text in (("a.pdf", "Higher tariffs reduce trade volumes."), ("b.pdf", "Lower rates lift prices.")):
        text_pdf(tmp_path / name, [[text]])
    entries = [
        {"path": n, "title": f"T {n}", "publisher": "P", "publication_date": "2024-01-31", "role": "generation"}
        for n in ("a.pdf", "b.pdf")
    ]
    rec = Recorder()
    with reporting(rec):
        result = ingest(store, manifest(tmp_path / "m.toml", entries), workers=1)
    assert result.ok
    seen = rec.of("parsing sources")
    assert [(d, t) for d, t, _ in seen] == [(1, 2), (2, 2)]
    assert {lab for _, _, lab in seen} == {"a.pdf", "b.pdf"}


def test_extraction_reports_its_steps_until_done(store):
    register_documents(store)
    rec = Recorder()
    with reporting(rec):
        build_relations(store)
    seen = rec.of("relation extraction")
    assert seen, rec.calls[:5]
    done = [d for d, _, _ in seen]
    assert done == sorted(done) and done[-1] == seen[-1][1]  # monotone, ends at its total
    assert {lab for _, _, lab in seen} == {"G0"}


def test_a_reporter_reaches_only_its_own_context():
    rec, other = Recorder(), Recorder()
    ready, go = threading.Event(), threading.Event()

    def elsewhere():
        with reporting(other):
            ready.set()
            go.wait(5)
            report("theirs", 1, 1)

    t = threading.Thread(target=elsewhere)
    t.start()
    ready.wait(5)
    with reporting(rec):
        report("mine", 1, 2, "a")
        go.set()
        t.join(5)
        report("mine", 2, 2, "b")
    assert rec.calls == [("mine", 1, 2, "a"), ("mine", 2, 2, "b")]
    assert other.calls == [("theirs", 1, 1, "")]
    report("after", 1, 1)  # outside both blocks: reaches nobody
    assert len(rec.calls) == 2 and len(other.calls) == 1


def test_first_launch_job_records_substeps_of_its_running_step(tmp_path):
    from dashboard import first_launch, jobs

    seen_mid: list = []

    def run(_store, job):
        job.progress("risk/application", "started", 0, 2)
        report("bank model fit and projection", 0, 2, "bank_feols")
        report("bank model fit and projection", 1, 2, "bank_feqar")
        seen_mid.append(first_launch.current_substep(job))
        job.progress("risk/application", "completed", 0, 2)
        return "ok"

    job = jobs.start("progress-test", tmp_path / "ws", run)
    deadline = time.monotonic() + 30
    while not job.done and time.monotonic() < deadline:
        time.sleep(0.05)
    assert job.error is None and job.outcome == "ok"
    assert [(s["step"], s["done"], s["label"]) for s in job.substeps] == [
        ("bank model fit and projection", 0, "bank_feols"),
        ("bank model fit and projection", 1, "bank_feqar"),
    ]
    assert first_launch.substep_text(seen_mid[0]) == "bank model fit and projection 1/2 (bank_feqar)"
    assert first_launch.current_substep(job) is None  # the step it belonged to is over


def test_cli_bar_only_on_a_terminal(capsys):
    from aieco.cli.analyze import StageProgress

    bar = StageProgress(enabled=True)  # pytest's stderr is not a TTY: no bar, nothing written
    bar("request_checks", "started", 0, 3)
    bar.substep("VAR simulation", 1, 10, "")
    bar.close()
    assert not bar.enabled and capsys.readouterr().err == ""


def test_build_steps_time_each_note_until_the_next_step_starts():
    """Hand-timed events: two notes, then a counted stage; every step gets its own duration."""
    from dashboard import first_launch, jobs

    job = jobs.Job("steps-test", done=True)
    job.events = [
        {"stage": "ingesting", "event": "", "index": None, "total": None, "at": 10.0},
        {"stage": "loading banks", "event": "", "index": None, "total": None, "at": 12.5},
        {"stage": "request_checks", "event": "started", "index": 0, "total": 3, "at": 20.0},
        {"stage": "request_checks", "event": "completed", "index": 0, "total": 3, "at": 21.0},
    ]
    got = [(s.name, s.state, round(s.seconds, 3)) for s in first_launch.steps(job)]
    assert got == [("ingesting", "done", 2.5), ("loading banks", "done", 7.5), ("request_checks", "done", 1.0)]


def test_cli_bar_on_a_terminal_shows_the_substep_after_the_stage(monkeypatch):
    import io
    import sys

    from aieco.cli.analyze import StageProgress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    bar = StageProgress(enabled=True)
    bar.substep("parsing sources", 1, 2, "a.pdf")  # before any stage (building a workspace): its own bar
    bar("request_checks", "started", 0, 3)
    bar.substep("VAR simulation", 4, 18, "20000 draws")
    text = err.getvalue()
    bar.close()
    assert "parsing sources 1/2 a.pdf" in text
    assert "request_checks" in text and "VAR simulation 4/18 20000 draws" in text
    assert text.index("parsing sources") < text.index("VAR simulation")
