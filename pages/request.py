"""Request: build, save and load an AnalysisRequest, launch it with live progress; past analyses."""

import time
from pathlib import Path

import streamlit as st

from aieco.analysis.pipeline import analyze
from aieco.config import get_settings
from aieco.errors import InputError
from aieco.records import Movement, Role
from aieco.request import dumps_request, load_request, parse_request, request_problems
from dashboard import jobs, views
from dashboard.gaps import show_channels_without_path
from dashboard.request_form import from_tables, to_tables
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.tables import lazy_section, show_table
from dashboard.workspace import open_workspace, page_workspace, shown_errors

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Request")


def demo_requests() -> list[Path]:
    import aieco.demo

    folder = Path(aieco.demo.__file__).parent / "requests"
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def load_into_draft(path: Path) -> None:
    state.request_draft = load_request(path).as_dict()


def request_form(ws) -> None:
    # drawn only while open: a collapsed expander would still send and draw its uploader and picker
    with lazy_section("Load a request (demo or TOML file)", key="load_request") as open_:
        if open_:
            demos = demo_requests()
            if demos:
                chosen = st.selectbox("Demo request", demos, format_func=lambda p: p.name)
                if st.button("Load demo request"):
                    load_into_draft(chosen)
            upload = st.file_uploader(
                "Request TOML", type=["toml"], help="Loaded into the form as soon as it is uploaded"
            )
            if upload is not None and upload.file_id != state.loaded_upload:
                state.loaded_upload = upload.file_id
                target = ws.path / "requests" / Path(upload.name).name
                ws.store.write_file(target, upload.getvalue())  # recorded: the audit checks every workspace file
                load_into_draft(target)
    if not state.request_draft and demo_requests():
        load_into_draft(demo_requests()[0])
    draft = state.request_draft or {"cutoff": get_settings().scenario.cutoff.isoformat(), "risks": []}
    risks, channels = to_tables(draft)
    variables = ws.view(views.variable_ids)
    movements = [m.value for m in Movement]
    var_column = (
        st.column_config.SelectboxColumn(
            options=sorted(set(variables) | set(channels["source"].dropna()) | set(channels["target"].dropna()))
        )
        if variables
        else st.column_config.TextColumn()
    )

    with st.form("request_form"):
        st.subheader("Analysis request")
        title = st.text_input("Title", draft.get("title", ""))
        a, b, c = st.columns(3)
        cutoff = a.date_input("Information cutoff", value=draft["cutoff"], format="YYYY-MM-DD")
        roles = b.multiselect(
            "Allowed source roles",
            [r.value for r in Role],
            default=draft.get("allowed_roles", ["generation", "methods"]),
        )
        horizon = c.text_input("Horizon", draft.get("horizon", "2025-2027"))
        a, b, c = st.columns(3)
        jurisdictions = a.text_input("Jurisdictions (comma separated)", ", ".join(draft.get("jurisdictions", ["EA"])))
        models = b.text_input("Models (comma separated)", ", ".join(draft.get("models", ["macro_var"])))
        backend = c.selectbox(
            "LLM backend",
            ["offline", "openai", "replay"],
            index=["offline", "openai", "replay"].index(draft.get("backend", "offline")),
        )
        st.markdown("**Risks**")
        risks = st.data_editor(risks, num_rows="dynamic", hide_index=True, width="stretch", key="risk_editor")
        st.markdown("**Channel queries** (registered movement of the source, expected movement of the target)")
        channels = st.data_editor(
            channels,
            num_rows="dynamic",
            hide_index=True,
            width="stretch",
            key="channel_editor",
            column_config={
                "movement": st.column_config.SelectboxColumn(options=movements),
                "expected": st.column_config.SelectboxColumn(options=movements),
                "source": var_column,
                "target": var_column,
                "max_len": st.column_config.NumberColumn(min_value=1, max_value=10, step=1),
                "top_k": st.column_config.NumberColumn(min_value=1, step=1),
            },
        )
        submitted = st.form_submit_button("Check request", type="primary")
    if submitted:
        base = {
            **draft,
            "title": title,
            "cutoff": cutoff.isoformat() if cutoff else None,
            "allowed_roles": roles,
            "horizon": horizon,
            "backend": backend,
            "jurisdictions": [j.strip() for j in jurisdictions.split(",") if j.strip()],
            "models": [m.strip() for m in models.split(",") if m.strip()],
        }
        edited = from_tables(base, risks, channels)
        try:
            state.request_draft = parse_request(edited, where="request form").as_dict()
        except InputError as exc:
            st.error(f"**The request cannot be launched.** {exc}")
            return
    request = parse_request(state.request_draft, where="request form") if state.request_draft else None
    if request is None:
        return
    problems = request_problems(request, views.registered_models())
    if problems:
        st.error("**Fix before launching:**\n\n" + "\n".join(f"- {p}" for p in problems))
    elif submitted:
        st.success(
            "The request is valid: it passes every check the launch makes (vocabulary, models, dates, channels)."
        )
    st.caption(f"Analysis id `{request.analysis_id}` (the digest of the request)")
    a, b = st.columns(2)
    a.download_button(
        "Save request as TOML",
        dumps_request(request),
        file_name="request.toml",
        mime="application/toml",
        icon=":material/download:",
        on_click="ignore",
    )
    if b.button("Launch analysis", type="primary", icon=":material/play_arrow:", disabled=bool(problems)):
        jobs.start(request.analysis_id, ws.path, lambda store, job: analyze(store, request, progress=job.progress))
        state.analysis_id = request.analysis_id
        wait_for_record(ws.path, request.analysis_id)
        st.rerun()  # the sidebar and the Analyses table list the new analysis at once


def wait_for_record(workspace, analysis_id: str, seconds: float = 10.0) -> None:
    """Wait (briefly) until the launched analysis has written its Analysis record."""
    from aieco.records import Analysis
    from aieco.store import Store

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with Store(workspace) as store:
            if store.get(Analysis, analysis_id) is not None:
                return
        time.sleep(0.2)


@st.fragment(run_every=1.0)
def launch_progress(analysis_id: str) -> None:
    """Live progress of a launched analysis; reruns itself every second, the page stays usable."""
    job = jobs.get(analysis_id)
    if job is None:
        return
    label = "Analysis finished" if job.done else "Analysis running…"
    # Not a `with` block: leaving one would mark the status complete while the analysis still runs.
    box = st.status(label, state="error" if job.error else ("complete" if job.done else "running"), expanded=True)
    box.progress(job.fraction, text=job.last_message)
    if job.error:
        box.error(job.error)
    with open_workspace() as fresh, shown_errors():  # a fragment rerun gets its own connection
        stages = views.stages_frame(fresh.store, analysis_id)
    for _, s in stages[stages["status"] != "completed"].iterrows():
        box.warning(f"Stage **{s['stage']}** {s['status']}: {s['reason']}")
    box.dataframe(stages[["stage", "status", "reason", "seconds"]], hide_index=True, width="stretch")


with page_workspace() as ws:
    request_form(ws)
    if state.analysis_id and jobs.get(state.analysis_id):
        launch_progress(state.analysis_id)

    analyses = ws.view(views.analyses_frame)
    st.subheader("Analyses")
    if analyses.empty:
        st.info("No analysis yet — run `aieco analyze REQUEST.toml` (or `aieco demo`).")
    else:
        labels = ws.view(views.analysis_labels)
        shown = analyses.assign(analysis=analyses["analysis_id"].map(labels)).sort_values("created_at", ascending=False)
        show_table(
            shown[["analysis", "completed", "stopped", "failed", "analysis_id"]], key="analyses", name="analyses"
        )
        if state.analysis_id:
            st.markdown(f"**Stops of the selected analysis** — {labels.get(state.analysis_id, state.analysis_id)}")
            stops = ws.view(views.stops_frame, state.analysis_id)
            for _, stop in stops.iterrows():
                if stop["stage"].endswith("graph_search"):
                    continue  # shown per channel, with its reason, just below
                st.warning(f"**{stop['stage']}** {stop['status']} — {stop['reason']}")
            show_channels_without_path(ws, state.analysis_id, key="request")
            if stops.empty:
                st.caption("No stage of this analysis stopped.")
