"""Analyses launched from the dashboard run in a background thread, so the page never freezes.

The worker opens its own Store in its own thread (sqlite3 connections are tied to their
thread) and records the pipeline's progress events; the Request page polls them, and
the stage records in the store, from a fragment that reruns every second.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aieco.errors import AiecoError
from aieco.progress import reporting
from aieco.store import Store


@dataclass
class Job:
    """One launched analysis: its progress events and, once done, its outcome or error."""

    analysis_id: str
    events: list[dict[str, Any]] = field(default_factory=list)
    #: Sub-steps of long loops (bank fits, simulations, parsing …) reported through aieco.progress.
    substeps: list[dict[str, Any]] = field(default_factory=list)
    outcome: Any = None
    error: str | None = None
    done: bool = False
    #: How many stage sequences the job runs (an analysis: the shared stages, then one program per risk,
    #: per repetition); None when unknown, and the bar then follows the running sequence alone.
    sequences: int | None = None

    def progress(self, stage: str, event: str, index: int, total: int) -> None:
        """The pipeline's progress callback: progress(stage, event, index, total)."""
        self.events.append({"stage": stage, "event": event, "index": index, "total": total, "at": time.monotonic()})

    def substep(self, step: str, done: int, total: int, label: str) -> None:
        """The aieco.progress reporter of the job's thread: report(step, done, total, label)."""
        at = time.monotonic()
        self.substeps.append(
            {"step": step, "done": done, "total": total, "label": label, "at": at, "event": len(self.events)}
        )

    def note(self, message: str) -> None:
        """A step message without a count (e.g. the demo builder's)."""
        self.events.append({"stage": message, "event": "", "index": None, "total": None, "at": time.monotonic()})

    @property
    def last_event(self) -> tuple[str, str]:
        """(stage, event) of the latest report; ('starting', '') before any."""
        return (self.events[-1]["stage"], self.events[-1]["event"]) if self.events else ("starting", "")

    @property
    def last_message(self) -> str:
        if not self.events:
            return "starting"
        last = self.events[-1]
        return f"{last['stage']}: {last['event']}" if last["event"] else last["stage"]

    @property
    def fraction(self) -> float:
        """Share of the job done: 1 once it is over; else the finished share of its stage sequences."""
        if self.done:
            return 1.0
        shares = sequence_shares(self.events)
        if not shares:
            return 0.0
        if self.sequences is None:
            return shares[-1]
        return min(sum(shares) / max(self.sequences, len(shares)), 1.0)


def sequence_shares(events: list[dict[str, Any]]) -> list[float]:
    """The finished share of each stage sequence the events report, in order.

    The runner counts stages within one sequence (``index`` of ``total``); a sequence is the
    shared stages or one risk's program (stage names ``risk/stage``), and a new one starts when
    that prefix changes. A stop or failure ends its sequence: nothing after it runs.
    """
    shares: list[float] = []
    key = None
    for e in events:
        if e["total"] is None:
            continue
        k = e["stage"].split("/")[0] if "/" in e["stage"] else ""
        if k != key or not shares:
            shares.append(0.0)
            key = k
        if e["event"] in ("stopped", "failed"):
            shares[-1] = 1.0
        else:
            finished = e["index"] + (e["event"] not in ("started", "waiting"))
            shares[-1] = min(finished / max(e["total"], 1), 1.0)
    return shares


_JOBS: dict[str, Job] = {}
_LOCK = threading.Lock()


def start(analysis_id: str, workspace: Path, run: Callable[[Store, Job], Any], *, sequences: int | None = None) -> Job:
    """Run ``run(store, job)`` in a thread unless this job id is already running.

    ``run`` reports through ``job.progress`` (the pipeline's callback) or ``job.note``;
    ``sequences`` is how many stage sequences it will report (see :attr:`Job.fraction`).
    """
    with _LOCK:
        job = _JOBS.get(analysis_id)
        if job is not None and not job.done:
            return job
        job = Job(analysis_id, sequences=sequences)
        _JOBS[analysis_id] = job

    def work() -> None:
        try:
            with Store(workspace) as store, reporting(job.substep):
                job.outcome = run(store, job)
        except AiecoError as exc:
            job.error = str(exc)
        except BaseException as exc:
            job.error = f"unexpected {type(exc).__name__}: {exc}"
            raise  # not swallowed: the thread's excepthook logs the traceback
        finally:
            job.done = True

    threading.Thread(target=work, name=f"aieco-analysis-{analysis_id}", daemon=True).start()
    return job


def get(analysis_id: str | None) -> Job | None:
    with _LOCK:
        return _JOBS.get(analysis_id) if analysis_id else None
