"""The first-launch build's progress panel: every step with its time, the running one ticking."""

from __future__ import annotations

import streamlit as st

from aieco.config import get_settings
from dashboard import first_launch, jobs

STATE_ICONS = {"done": ":material/check_circle:", "running": ":material/progress_activity:",
               "stopped": ":material/block:", "failed": ":material/error:"}


def overall_fraction(job: jobs.Job) -> float:
    """Finished steps over the steps expected (build notes, shared stages, every risk's stages)."""
    from aieco.demo import DEMO_REQUEST
    from aieco.request import load_request

    n_risks = len(load_request(DEMO_REQUEST).risks)
    totals = {e["stage"].split("/")[0]: e["total"] for e in job.events if e["total"] is not None}
    per_risk = max((t for name, t in totals.items()), default=11)
    expected = 4 + 3 + n_risks * per_risk
    finished = sum(s.state != "running" for s in first_launch.steps(job))
    return min(finished / expected, 1.0)


def build_progress() -> None:
    job = jobs.get(first_launch.job_id(get_settings().workspace))
    if job is None:
        return
    if job.done:
        if job.error:
            st.error(f"The demo workspace could not be built: {job.error}")
        return
    _panel(job.analysis_id)


@st.fragment(run_every=1.0)
def _panel(job_key: str) -> None:
    job = jobs.get(job_key)
    if job is None:
        return
    if job.done:
        st.rerun()  # the whole app again: the pages now read the built workspace
    steps = first_launch.steps(job)
    current = steps[-1] if steps else None
    # Not a `with` block: leaving one would mark the status complete while the build still runs.
    box = st.status("Building the demo workspace (first launch)…", state="running", expanded=True)
    box.progress(overall_fraction(job), text=(f"{current.name} — {current.seconds:.0f} s" if current else "starting"))
    box.caption("The illustrative corpus is ingested, the G0 graph built and the demo request (three risks) run "
                "offline; this happens once. The pages below are usable meanwhile and fill in as stages finish.")
    lines = [f"{STATE_ICONS.get(s.state, '•')} {s.name} · {s.seconds:.1f} s" for s in steps[-12:]]
    box.markdown("  \n".join(lines))
