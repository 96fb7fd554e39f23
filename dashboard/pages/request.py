"""Request: build, save and load an AnalysisRequest, launch it with live progress; past analyses."""

from pathlib import Path

import streamlit as st

from aieco import views
from aieco.analysis.pipeline import analyze
from aieco.config import get_settings
from aieco.records import Movement, Role
from aieco.request import dumps_request, load_request, parse_request
from dashboard import jobs
from dashboard.request_form import from_tables, to_tables
from dashboard.state import get_state
from dashboard.workspace import open_workspace, page_workspace, shown_errors

state = get_state()
st.header("Request")


def demo_requests() -> list[Path]:
    import aieco.demo

    folder = Path(aieco.demo.__file__).parent / "requests"
    return sorted(folder.glob("*.toml")) if folder.is_dir() else []


def load_into_draft(path: Path) -> None:
    state.request_draft = load_request(path).as_dict()


def request_form(ws) -> None:
    with st.expander("Load a request", expanded=not state.request_draft):
        demos = demo_requests()
        if demos:
            chosen = st.selectbox("Demo request", demos, format_func=lambda p: p.name)
            if st.button("Load demo request"):
                load_into_draft(chosen)
        upload = st.file_uploader("Request TOML", type=["toml"])
        if upload is not None and st.button("Load uploaded request"):
            target = ws.path / "requests" / Path(upload.name).name
            ws.store.write_file(target, upload.getvalue())  # recorded: the audit checks every workspace file
            load_into_draft(target)
    if not state.request_draft and demo_requests():
        load_into_draft(demo_requests()[0])
    draft = state.request_draft or {"cutoff": get_settings().scenario.cutoff.isoformat(), "risks": []}
    risks, channels = to_tables(draft)
    variables = ws.view(views.variable_ids)
    movements = [m.value for m in Movement]
    var_column = (st.column_config.SelectboxColumn(options=sorted(set(variables) | set(channels["source"].dropna())
                                                                  | set(channels["target"].dropna())))
                  if variables else st.column_config.TextColumn())

    with st.form("request_form"):
        st.subheader("Analysis request")
        title = st.text_input("Title", draft.get("title", ""))
        a, b, c = st.columns(3)
        cutoff = a.date_input("Information cutoff", value=draft["cutoff"], format="YYYY-MM-DD")
        roles = b.multiselect("Allowed source roles", [r.value for r in Role],
                              default=draft.get("allowed_roles", ["generation", "methods"]))
        horizon = c.text_input("Horizon", draft.get("horizon", "2025-2027"))
        a, b, c = st.columns(3)
        jurisdictions = a.text_input("Jurisdictions (comma separated)", ", ".join(draft.get("jurisdictions", ["EA"])))
        models = b.text_input("Models (comma separated)", ", ".join(draft.get("models", ["macro_var"])))
        backend = c.selectbox("LLM backend", ["offline", "openai", "replay"],
                              index=["offline", "openai", "replay"].index(draft.get("backend", "offline")))
        st.markdown("**Risks**")
        risks = st.data_editor(risks, num_rows="dynamic", hide_index=True, width="stretch", key="risk_editor")
        st.markdown("**Channel queries** (registered movement of the source, expected movement of the target)")
        channels = st.data_editor(
            channels, num_rows="dynamic", hide_index=True, width="stretch", key="channel_editor",
            column_config={"movement": st.column_config.SelectboxColumn(options=movements),
                           "expected": st.column_config.SelectboxColumn(options=movements),
                           "source": var_column, "target": var_column,
                           "max_len": st.column_config.NumberColumn(min_value=1, max_value=10, step=1),
                           "top_k": st.column_config.NumberColumn(min_value=1, step=1)})
        submitted = st.form_submit_button("Check request", type="primary")
    if submitted:
        base = {**draft, "title": title, "cutoff": cutoff.isoformat() if cutoff else None, "allowed_roles": roles,
                "horizon": horizon, "backend": backend,
                "jurisdictions": [j.strip() for j in jurisdictions.split(",") if j.strip()],
                "models": [m.strip() for m in models.split(",") if m.strip()]}
        state.request_draft = parse_request(from_tables(base, risks, channels), where="request form").as_dict()
        st.success("The request is valid.")

    request = parse_request(state.request_draft, where="request form") if state.request_draft else None
    if request is None:
        return
    st.caption(f"Analysis id `{request.analysis_id}` (the digest of the request)")
    a, b = st.columns(2)
    a.download_button("Save request as TOML", dumps_request(request), file_name="request.toml",
                      mime="application/toml", icon=":material/download:")
    if b.button("Launch analysis", type="primary", icon=":material/play_arrow:"):
        jobs.start(request.analysis_id, ws.path, lambda store, job: analyze(store, request, progress=job.progress))
        state.analysis_id = request.analysis_id


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
        st.dataframe(analyses, hide_index=True, width="stretch")
        labels = dict(zip(analyses["analysis_id"], analyses["label"], strict=True))
        for _, stop in ws.view(views.stops_frame).iterrows():
            st.warning(f"{labels[stop['analysis_id']]}: {stop['status']} at stage **{stop['stage']}** — "
                       f"{stop['reason']}")
