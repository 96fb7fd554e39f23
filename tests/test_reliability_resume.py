"""Issue 35, item 2: an analysis killed at any stage boundary, or inside any stage, resumes to the same report.

The kill tests chain: a child process runs the demo analysis (one risk, small draws) and is
killed (SIGKILL, or SIGINT as Ctrl-C does) at the first kill point; the next child resumes and
is killed at the next point, and so on, until a last child finishes. The report must be the one
an uninterrupted run writes, and ``aieco audit`` (a command-line process) must be clean. The
children are forked from a server that has imported the numerical stack once (tests/resume_child.py):
each is still its own process, killed by a real signal, importing aieco and opening the store anew.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from resume_child import run_child

from aieco.analysis.runner import Stage, run_stages
from aieco.records import StageRecord, StageStatus

REPO = Path(__file__).resolve().parents[1]

SMALL = {
    "AIECO_SCENARIO__VAR_DRAWS": "500",
    "AIECO_BANK__PROJECTION_PATHS": "200",
    "AIECO_BANK__QUANTILES": "[0.1, 0.5, 0.9]",
    "AIECO_BANK__BOOTSTRAP_REPS": "50",
}


def _child(env: dict[str, str], ws: Path, request: Path, target: str = "", when: str = "", sig: int = 0, delay=0.0):
    """One analysis child on ``ws``, killed (``sig``) at ``target`` ('' = never), 'after' the stage or 'inside' it
    ``delay`` s after it started; its last stdout line is {times: {stage: [started, ended]}, outcome}."""
    return run_child(env, ws.parent / f"{ws.name}-child", str(ws), str(request), target, when, str(sig), str(delay))


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """A built demo workspace, a one-risk request and an uninterrupted reference run (in a copy)."""
    from aieco.demo import DEMO_REQUEST, build_demo
    from aieco.request import load_request, parse_request, save_request
    from aieco.store import Store

    root = tmp_path_factory.mktemp("resume")
    env = {**os.environ, **SMALL, "PYTHONPATH": str(REPO)}
    data = load_request(DEMO_REQUEST).as_dict()
    data["risks"] = [r for r in data["risks"] if r["name"] == "trade_fragmentation"]
    request = save_request(parse_request(data), root / "request.toml")
    base = root / "base"
    built = run_child(env, root / "build", "build_demo", str(base))
    assert built.returncode == 0, built.stderr[-3000:]
    assert build_demo  # built in a child with the same settings as every run below
    ref = root / "reference"
    shutil.copytree(base, ref)
    done = _child(env, ref, request)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    program = result["outcome"]["analyses"][0]
    assert program["status"] == "completed", program
    with Store(ref) as store:
        from aieco.records import Report

        report = store.require(Report, program["report_id"])
    return {"env": env, "base": base, "request": request, "times": result["times"], "report": report, "root": root}


def _audit(env: dict[str, str], ws: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "aieco", "audit", "-w", str(ws), "--json"], env=env, capture_output=True, text=True
    )


@pytest.mark.slow
@pytest.mark.timeout(2400)  # about 15 children, each resuming the analysis, on a shared machine
@pytest.mark.parametrize("when", ["after", "inside"], ids=["boundary", "inside"])
def test_a_kill_at_every_stage_resumes_to_the_same_report(demo, when):
    """Each chain kills at every stage, SIGKILL and SIGINT (Ctrl-C) in turn, so both signals land at boundaries and
    inside stages (one chain per kind of kill point: each child resumes the whole analysis, so a chain per signal
    doubled the test's time for no other case)."""
    from aieco.records import Report
    from aieco.store import Store

    ws = demo["root"] / when
    shutil.copytree(demo["base"], ws)
    killed, where, signals = [], [], []
    for n, (stage, (start, end)) in enumerate(demo["times"].items()):
        sig = (signal.SIGKILL, signal.SIGINT)[n % 2]
        delay = (end - start) / 2  # halfway through the stage as the reference run timed it (else at its end)
        run = _child(demo["env"], ws, demo["request"], stage, when, sig, delay)
        if run.returncode == 0:  # the stage ended before the timer (a stage of a few ms): nothing to resume
            assert when == "inside", run.stdout[-2000:]
            break
        assert run.returncode in (-sig, 1), (stage, run.returncode, run.stderr[-2000:])
        killed.append(stage)
        where.append(run.kill)
        signals.append(sig)
        with Store(ws) as store:  # a stop is a result: never one with an empty reason
            assert all(r.reason.strip() for r in store.find(StageRecord) if r.status != StageStatus.completed)
    assert len(killed) >= (len(demo["times"]) if when == "after" else 5), killed
    # every kill landed in its own target stage (none skipped the stages after it), and some mid-stage
    assert set(where) <= ({"after"} if when == "after" else {"inside", "end"}), where
    if when == "inside":
        assert "inside" in where, list(zip(killed, where, strict=True))
    assert {signal.SIGKILL, signal.SIGINT} <= set(signals), signals
    final = _child(demo["env"], ws, demo["request"])
    assert final.returncode == 0, final.stderr[-3000:]
    program = json.loads(final.stdout.strip().splitlines()[-1])["outcome"]["analyses"][0]
    assert program["status"] == "completed", (killed, program)
    assert program["report_id"] == demo["report"].report_id
    with Store(ws) as store:
        report = store.require(Report, program["report_id"])
        assert report.rendered == demo["report"].rendered
        assert [r.report_id for r in store.find(Report)] == [report.report_id]
    audit = _audit(demo["env"], ws)
    assert audit.returncode == 0, audit.stdout[-3000:]


def test_the_analysis_registers_the_models_whichever_stages_run(store):
    """Killed after model_request, a resume reloads every stage that registered models: the analysis
    registers them itself."""
    from aieco.analysis.pipeline import analyze
    from aieco.demo import DEMO_REQUEST
    from aieco.models import registry
    from aieco.request import load_request

    for entry in registry.registered():
        registry.unregister(entry.spec.model_id)
    seen = []

    def progress(stage, event, i, n):
        if event == "started":
            seen.append((stage, {e.spec.model_id for e in registry.registered()}))

    request = load_request(DEMO_REQUEST).model_copy(update={"outcomes": ["moon_phase"]})  # stops at once
    analyze(store, request, progress=progress)
    assert seen and all("macro_var" in models for _, models in seen)  # before the first stage ran


def test_a_stop_or_failure_without_a_reason_is_recorded_with_one(store):
    def silent(ctx):
        ctx.stop("")

    out = run_stages(store, "an_silent", [Stage("quiet", silent)], {"x": 1})
    assert out.reason == "stage quiet stopped without giving a reason"
    assert store.find(StageRecord, analysis_id="an_silent")[0].reason == out.reason
