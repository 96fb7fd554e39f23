"""First launch: the default workspace is built when the server starts, in a background job.

``start_default_build()`` is called from the ASGI lifespan of ``app.py`` (so the build
starts with `streamlit run app.py`, before any browser connects) and, as a fallback, by
the app on its first run (e.g. under AppTest, which has no server). The job is shared by
every session; pages stay usable while it runs and show its progress.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from aieco.config import get_settings
from aieco.inventory import is_empty
from aieco.store import Store
from dashboard import jobs


def job_id(workspace: Path) -> str:
    return f"default:{Path(workspace).resolve()}"


def build_and_run_default(store: Store, job: jobs.Job):
    """The real default workspace from the package alone (aieco.default); then its three risks."""
    from aieco.default import build_default, run_default

    build_default(store, progress=job.note)
    return run_default(store, progress=job.progress)


def start_default_build(workspace: Path | None = None) -> jobs.Job | None:
    """Start building the real default workspace in ``workspace`` (default: settings) when it is
    empty and the setting allows."""
    settings = get_settings()
    workspace = Path(workspace or settings.workspace).resolve()
    existing = jobs.get(job_id(workspace))
    if existing is not None:
        return existing
    if not settings.dashboard.build_demo_on_first_launch or workspace in _NOT_EMPTY:
        return None
    with Store(workspace) as store:
        if not is_empty(store):
            _NOT_EMPTY.add(workspace)  # records are never deleted: no need to open it again on every rerun
            return None
    return jobs.start(job_id(workspace), workspace, build_and_run_default)


#: Workspaces found holding records (checked once per server process, not on every script run).
_NOT_EMPTY: set[Path] = set()


def current_substep(job: jobs.Job) -> dict | None:
    """The latest sub-step (bank fit, simulation quarter, parsed file …) of the running step, if it
    reported one since it started."""
    if not job.substeps:
        return None
    last = job.substeps[-1]
    return last if last["event"] == len(job.events) else None


def substep_text(sub: dict) -> str:
    """'VAR simulation 12/20 (20000 draws)'."""
    label = f" ({sub['label']})" if sub["label"] else ""
    return f"{sub['step']} {sub['done']}/{sub['total']}{label}"


@dataclass(frozen=True)
class Step:
    """One step of the build as the progress panel lists it."""

    name: str
    state: str  # done | running | stopped | failed
    seconds: float


def steps(job: jobs.Job) -> list[Step]:
    """Every step the job reported, in order, with how long it took (the running one: so far)."""
    out: list[Step] = []
    opened: dict[str, float] = {}
    notes: set[str] = set()
    for e in job.events:
        name, event = e["stage"], e["event"]
        if event in ("", "started"):
            if out and out[-1].state == "running" and (event == "" or out[-1].name in notes):
                last = out[-1]  # a note's step ends when the next step starts (a stage ends on its own event)
                out[-1] = Step(last.name, "done", e["at"] - opened[last.name])
            if event == "":
                notes.add(name)
            opened[name] = e["at"]
            out.append(Step(name, "running", 0.0))
        else:
            start = opened.get(name, e["at"])
            state = {"completed": "done", "skipped": "done"}.get(event, event)
            for i in range(len(out) - 1, -1, -1):
                if out[i].name == name:
                    out[i] = Step(name, state, e["at"] - start)
                    break
    if out and out[-1].state == "running":
        if job.done:
            out[-1] = Step(out[-1].name, "done", time.monotonic() - opened[out[-1].name])
        else:
            out[-1] = Step(out[-1].name, "running", time.monotonic() - opened[out[-1].name])
    for i, s in enumerate(out[:-1]):
        if s.state == "running":  # a note followed by a counted stage: the note's step is over
            out[i] = Step(s.name, "done", s.seconds)
    return out
