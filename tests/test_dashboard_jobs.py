"""Background analyses (dashboard.jobs) and the request form's tables (dashboard.request_form)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from aieco.errors import InputError
from aieco.records import StageRecord, utc_now

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def importable(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))


def wait(job, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not job.done and time.monotonic() < deadline:
        time.sleep(0.01)
    assert job.done


def test_job_runs_in_its_own_thread_with_its_own_store_and_reports_progress(tmp_path):
    import threading

    from dashboard import jobs

    seen = {}

    def run(store, job):
        seen["thread"] = threading.current_thread().name
        job.note("opening")
        job.progress("eligibility", "started", 0, 2)
        now = utc_now()
        store.put(
            StageRecord.create(
                analysis_id="an_job",
                stage="eligibility",
                status="completed",
                input_digest="x",
                started_at=now,
                ended_at=now,
            )
        )
        job.progress("eligibility", "completed", 0, 2)
        return "finished"

    job = jobs.start("an_job", tmp_path / "ws", run)
    wait(job)
    assert (job.outcome, job.error) == ("finished", None)
    assert seen["thread"] == "aieco-analysis-an_job"
    assert [e["event"] for e in job.events] == ["", "started", "completed"]
    assert job.fraction == 1.0  # over: the bar is full, whatever the last stage reported
    assert job.last_message == "eligibility: completed"
    assert jobs.get("an_job") is job
    from aieco.store import Store

    with Store(tmp_path / "ws") as store:
        assert store.count(StageRecord, analysis_id="an_job") == 1


def test_progress_counts_every_stage_sequence_and_a_stop_ends_its_own():
    from dashboard.jobs import Job

    job = Job("an_seq", sequences=3)  # the shared stages, then two risks' programs
    for i in range(2):
        job.progress(("request_checks", "eligibility")[i], "completed", i, 2)
    assert job.fraction == 2 / 2 / 3
    job.progress("trade/retrieval", "started", 0, 4)
    job.progress("trade/retrieval", "completed", 0, 4)
    job.progress("trade/graph_search", "stopped", 1, 4)  # this risk's program ends here
    assert job.fraction == 2 / 3
    job.progress("property/retrieval", "completed", 0, 4)
    job.progress("property/graph_search", "started", 1, 4)
    assert job.fraction == (1 + 1 + 1 / 4) / 3
    job.done = True
    assert job.fraction == 1.0


def test_library_error_in_a_job_becomes_its_message(tmp_path):
    from dashboard import jobs

    def run(store, job):
        raise InputError("request file x.toml does not exist", fix="pass a request")

    job = jobs.start("an_err", tmp_path / "ws", run)
    wait(job)
    assert job.error == "request file x.toml does not exist — fix: pass a request"


def test_request_tables_round_trip():
    from dashboard.request_form import from_tables, to_tables

    request = {
        "title": "t",
        "cutoff": "2024-12-31",
        "risks": [
            {
                "name": "tf",
                "label": "Trade",
                "description": "",
                "channels": [
                    {
                        "id": "tf1",
                        "source": "tariffs",
                        "movement": "increase",
                        "target": "real_gdp",
                        "expected": "decrease",
                        "max_len": 5,
                        "top_k": 5,
                    }
                ],
            },
            {"name": "pc", "label": "Property", "description": "d", "channels": []},
        ],
    }
    risks, channels = to_tables(request)
    assert risks["name"].tolist() == ["tf", "pc"]
    assert channels.iloc[0]["risk"] == "tf"
    assert from_tables(request, risks, channels) == request


def test_request_tables_drop_blank_rows():
    import pandas as pd

    from dashboard.request_form import CHANNEL_COLUMNS, RISK_COLUMNS, from_tables

    risks = pd.DataFrame([{"name": "tf", "label": None, "description": None}, {"name": None}], columns=RISK_COLUMNS)
    channels = pd.DataFrame(
        [
            {
                "risk": "tf",
                "id": "q",
                "source": "a",
                "movement": "increase",
                "target": "b",
                "expected": "decrease",
                "max_len": 3.0,
                "top_k": None,
            }
        ],
        columns=CHANNEL_COLUMNS,
    )
    out = from_tables({}, risks, channels)
    assert out["risks"] == [
        {
            "name": "tf",
            "label": "",
            "description": "",
            "channels": [
                {"id": "q", "source": "a", "movement": "increase", "target": "b", "expected": "decrease", "max_len": 3}
            ],
        }
    ]
