"""The first-launch build's progress panel: every step with its time, the running one ticking."""

from __future__ import annotations

import streamlit as st

from aieco.config import get_settings
from dashboard import first_launch, jobs

#: What the first launch builds, and how to get the synthetic demo instead.
DEFAULT_CAPTION = (
    "The default workspace is built from real public data shipped in the package: the ESRB 2018 adverse "
    "scenario and brief BIS Quarterly Review (March 2024) excerpts, euro-area series from the ECB, Eurostat "
    "and the BIS, and the EBA 2016/2021 stress-test bank data; information cutoff 31 December 2024. Its "
    "request (three risks) runs offline once; a part the real data cannot support stops with its reason. "
    "The pages below are usable meanwhile. The synthetic demo: `aieco demo -w DIR`."
)

STATE_ICONS = {
    "done": ":material/check_circle:",
    "running": ":material/progress_activity:",
    "stopped": ":material/block:",
    "failed": ":material/error:",
}


def overall_fraction(job: jobs.Job) -> float:
    """Finished steps over the steps expected (build notes, shared stages, every risk's stages)."""
    from aieco.default import DEFAULT_REQUEST
    from aieco.request import load_request

    n_risks = len(load_request(DEFAULT_REQUEST).risks)
    totals = {e["stage"].split("/")[0]: e["total"] for e in job.events if e["total"] is not None}
    per_risk = max((t for name, t in totals.items()), default=11)
    expected = 4 + 3 + n_risks * per_risk
    finished = sum(s.state != "running" for s in first_launch.steps(job))
    sub = first_launch.current_substep(job)
    partial = sub["done"] / sub["total"] if sub and sub["total"] else 0.0  # the running step's share done
    return min((finished + partial) / expected, 1.0)


def build_progress() -> None:
    job = jobs.get(first_launch.job_id(get_settings().workspace))
    if job is None:
        return
    if job.done:
        if job.error:
            st.error(f"The default workspace could not be built: {job.error}")
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
    sub = first_launch.current_substep(job)
    # Not a `with` block: leaving one would mark the status complete while the build still runs.
    box = st.status("Building the default workspace (first launch)…", state="running", expanded=True)
    text = "starting"
    if current:  # the stage, its running sub-step (bank fit, simulation …), the time so far
        parts = [current.name, *([first_launch.substep_text(sub)] if sub else []), f"{current.seconds:.0f} s"]
        text = " — ".join(parts)
    box.progress(overall_fraction(job), text=text)
    box.caption(DEFAULT_CAPTION)
    lines = [f"{STATE_ICONS.get(s.state, '•')} {s.name} · {s.seconds:.1f} s" for s in steps[-12:]]
    if sub and lines:
        lines.append(f"\u2003↳ {first_launch.substep_text(sub)}")
    box.markdown("  \n".join(lines))
