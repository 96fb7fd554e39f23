"""Two processes running the same analysis at once write one stage record per stage."""

from __future__ import annotations

import multiprocessing as mp
import time
from pathlib import Path

import pytest

from aieco.analysis.runner import Stage, run_stages
from aieco.errors import IntegrityError
from aieco.records import StageRecord, StageStatus, utc_now
from aieco.store import Store

STAGES = ("first", "second", "third")


def _slow(ctx):
    time.sleep(0.3)  # long enough for the other process to arrive while this one runs
    return {"stage": ctx.stage, "n": len(ctx.outputs)}


def _worker(ws: str, start, events) -> None:
    with Store(ws) as store:
        start.wait()
        run_stages(
            store,
            "an_concurrent",
            [Stage(n, _slow) for n in STAGES],
            {"x": 1},
            progress=lambda stage, event, i, total: events.put((stage, event)),
        )


def test_two_processes_running_one_analysis_write_one_record_per_stage(tmp_path: Path):
    ws = tmp_path / "ws"
    Store(ws).close()
    ctx = mp.get_context("fork")
    start, events = ctx.Barrier(2), ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(str(ws), start, events)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    seen = []
    while not events.empty():
        seen.append(events.get())
    with Store(ws) as store:
        records = store.find(StageRecord, analysis_id="an_concurrent")
        assert sorted(r.stage for r in records) == sorted(STAGES)
        assert {r.status for r in records} == {StageStatus.completed}
        assert store.audit() == []
    # the second process waited for the first, then resumed after the stages it completed
    assert [e for _, e in seen].count("waiting") == 1
    assert [e for _, e in seen].count("skipped") == len(STAGES)


def test_the_store_refuses_a_second_completed_record_of_a_stage(store):
    def rec(status, reason=""):
        return StageRecord.create(
            analysis_id="an_x",
            stage="s",
            status=status,
            reason=reason,
            input_digest="d",
            output_digest="o",
            started_at=utc_now(),
            ended_at=utc_now(),
        )

    store.put(rec(StageStatus.completed))
    with pytest.raises(IntegrityError, match="already completed"):
        store.put(rec(StageStatus.completed))
    store.put(rec(StageStatus.stopped, "a rerun may stop again"))
    store.put(rec(StageStatus.stopped, "a rerun may stop again"))
    assert store.count(StageRecord, analysis_id="an_x") == 3
