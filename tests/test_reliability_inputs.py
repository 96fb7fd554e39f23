"""Issue 35, item 1: stage input digests cover what determines a result, and nothing else.

Opening a workspace another way (``-w X`` or ``AIECO_WORKSPACE=X``), with other parallelism or
timeouts, resumes the analysis; a setting that can change a result makes another analysis with
its own ids; records under one analysis id never come from two sets of inputs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from aieco.analysis.inputs import settings_digest
from aieco.analysis.pipeline import analyze
from aieco.analysis.runner import Stage, run_stages
from aieco.config import get_settings, result_settings
from aieco.errors import IntegrityError
from aieco.records import Analysis, StageRecord, StageStatus
from aieco.request import load_request

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "aieco" / "demo" / "requests" / "euro_area_risks.toml"


@pytest.fixture
def env(monkeypatch):
    """Set AIECO_ variables for one test (the settings are re-read on every change)."""

    def setenv(**values: str) -> None:
        for k, v in values.items():
            monkeypatch.setenv(k, v)
        get_settings.cache_clear()

    yield setenv
    get_settings.cache_clear()


@pytest.mark.parametrize(
    "name, value",
    [
        ("AIECO_WORKSPACE", "/elsewhere/store"),
        ("AIECO_STORE__BUSY_TIMEOUT_MS", "5"),
        ("AIECO_LLM__CONCURRENCY", "1"),
        ("AIECO_LLM__TIMEOUT_S", "3"),
        ("AIECO_BANK__PROJECTION_THREADS", "1"),
        ("AIECO_SOURCES__INGEST_WORKERS", "1"),
        ("AIECO_DASHBOARD__BUILD_DEMO_ON_FIRST_LAUNCH", "false"),
    ],
)
def test_a_setting_that_cannot_change_a_result_changes_no_digest_and_no_id(env, name, value):
    request = load_request(DEMO)
    before = settings_digest(), request.analysis_id
    env(**{name: value})
    assert settings_digest() == before[0]
    assert request.analysis_id == before[1]


def test_a_result_setting_is_in_the_digest_and_makes_another_analysis(env):
    request = load_request(DEMO)
    before = settings_digest(), request.analysis_id
    env(AIECO_RETRIEVAL__TOP_K="7")
    assert settings_digest() != before[0]
    assert request.analysis_id != before[1]
    assert request.analysis().request["settings"] == {"retrieval.top_k": 7}
    assert "retrieval.top_k" in result_settings(get_settings()) and "workspace" not in result_settings(get_settings())


def test_the_same_workspace_opened_through_the_environment_resumes(store, env):
    first = analyze(store, load_request(DEMO))  # an empty workspace: two stages complete, eligibility stops
    before = store.find(StageRecord, analysis_id=first.analysis_id)
    assert [r.stage for r in before] == ["request_checks", "planning", "eligibility"]
    env(AIECO_WORKSPACE=str(store.path))
    again = analyze(store, load_request(DEMO))
    assert again.analysis_id == first.analysis_id
    after = store.find(StageRecord, analysis_id=first.analysis_id)
    assert after[:3] == before and [r.stage for r in after[3:]] == ["eligibility"]  # only the stop re-ran


def test_a_changed_result_setting_leaves_the_old_analysis_untouched(store, env):
    request = load_request(DEMO)
    first = analyze(store, request)
    old = store.find(StageRecord, analysis_id=first.analysis_id)
    env(AIECO_RETRIEVAL__TOP_K="7")
    second = analyze(store, request)
    assert second.analysis_id != first.analysis_id
    assert store.find(StageRecord, analysis_id=first.analysis_id) == old
    assert [r.stage for r in store.find(StageRecord, analysis_id=second.analysis_id)] == [r.stage for r in old]


def test_records_made_from_other_inputs_get_a_new_version(store, env, monkeypatch):
    """A default changed with the code keeps the analysis id but not the inputs: a new version, not a
    second set of records under the old id."""
    import aieco.config

    request = load_request(DEMO)
    first = analyze(store, request)
    old = store.find(StageRecord, analysis_id=first.analysis_id)
    env(AIECO_RETRIEVAL__TOP_K="7")
    monkeypatch.setattr(aieco.config, "changed_result_settings", lambda settings=None: {})  # as if a default
    assert request.analysis_id == first.analysis_id
    second = analyze(store, request)
    assert second.analysis_id != first.analysis_id
    assert store.find(StageRecord, analysis_id=first.analysis_id) == old
    assert store.require(Analysis, second.analysis_id).request["version"] == 2
    third = analyze(store, request)  # the same inputs again find their version
    assert third.analysis_id == second.analysis_id


def test_the_runner_never_completes_a_stage_twice_from_other_inputs(store):
    stages = [Stage("one", lambda ctx: {"x": 1})]
    run_stages(store, "an_test", stages, {"input": 1})
    with pytest.raises(IntegrityError, match="already completed from other inputs"):
        run_stages(store, "an_test", stages, {"input": 2})
    records = store.find(StageRecord, analysis_id="an_test")
    assert [r.status for r in records] == [StageStatus.completed, StageStatus.failed]


@pytest.mark.slow
def test_two_default_builds_racing_on_one_folder_leave_one_analysis_and_a_clean_audit(tmp_path):
    """The dashboard's first launch (settings workspace) racing `aieco default -w` on the same folder."""
    ws = tmp_path / "ws"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "aieco", "default", "--json"]
    racers = [
        subprocess.Popen([*cmd, "-w", str(ws)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE),
        subprocess.Popen(cmd, env={**env, "AIECO_WORKSPACE": str(ws)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE),
    ]
    for p in racers:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err.decode()[-2000:]
    audit = subprocess.run([*cmd[:3], "audit", "-w", str(ws), "--json"], env=env, capture_output=True, text=True)
    assert audit.returncode == 0, audit.stdout[-2000:]
    from aieco.records import ModelRun, Report
    from aieco.store import Store

    with Store(ws) as store:
        assert len(store.find(Analysis)) == 1
        # one report per completed risk, however the two builds interleaved
        done = {r.risk for r in store.find(Report)}
        assert len(store.find(Report)) == len(done) >= 1
        runs = [r for r in store.find(ModelRun) if r.model_id == "macro_var"]
        assert len({(r.analysis_id, r.request_digest) for r in runs}) == len(runs)
