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
    def last_message(self) -> str:
        if not self.events:
            return "starting"
        last = self.events[-1]
        return f"{last['stage']}: {last['event']}" if last["event"] else last["stage"]

    @property
    def fraction(self) -> float:
        counted = [e for e in self.events if e["total"] is not None]
        if not counted:
            return 0.0
        last = counted[-1]
        finished = last["index"] + (last["event"] != "started")
        return min(finished / max(last["total"], 1), 1.0)


_JOBS: dict[str, Job] = {}
_LOCK = threading.Lock()


def start(analysis_id: str, workspace: Path, run: Callable[[Store, Job], Any]) -> Job:
    """Run ``run(store, job)`` in a thread unless this job id is already running.

    ``run`` reports through ``job.progress`` (the pipeline's callback) or ``job.note``.
    """
    with _LOCK:
        job = _JOBS.get(analysis_id)
        if job is not None and not job.done:
            return job
        job = Job(analysis_id)
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
