"""Request: build, save and load an AnalysisRequest, launch it with live progress; past analyses."""

import time
from pathlib import Path

import streamlit as st

from aieco.analysis.pipeline import analyze
from aieco.config import get_settings
from aieco.errors import InputError
from aieco.records import Movement
from aieco.request import dumps_request, load_request, parse_request, request_problems
from dashboard import analysis_views, jobs, runs_views, shared
from dashboard import request_form as form
from dashboard.gaps import show_channels_without_path
from dashboard.labels import stage_label, words
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


def new_draft(request: dict) -> None:
    """A draft from outside the form (a file, another analysis): the form's widgets start again from it."""
    state.request_draft = state.request_base = request
    state.draft_version += 1


def load_into_draft(path: Path) -> None:
    new_draft(load_request(path).as_dict())
    state.draft_of = state.analysis_id  # the loaded file stays in the form until another analysis is picked


def field_widget(f, draft, column, draft_key: str):
    """One request field's widget, chosen by the field's kind in the request model; its key follows the
    loaded draft, so another analysis or a loaded file starts the form from its values."""
    name, value, help_ = form.label(f), form.initial(f, draft), f.description or None
    column = _Keyed(column, f"request_{f.name}_{draft_key}")
    if f.kind == "date":
        return column.date_input(name, value=value, format="YYYY-MM-DD", help=help_)
    if f.kind == "choice":
        return column.selectbox(name, list(f.options), index=list(f.options).index(value), help=help_)
    if f.kind == "choices":
        return column.multiselect(name, list(f.options), default=[v for v in value or [] if v in f.options], help=help_)
    if f.kind == "bool":
        return column.checkbox(name, value=bool(value), help=help_)
    if f.kind in ("int", "float"):
        low = f.ge if f.ge is not None else (f.gt + 1 if f.gt is not None and f.kind == "int" else None)
        cast = int if f.kind == "int" else float
        return column.number_input(
            name,
            value=None if value is None else cast(value),
            min_value=None if low is None else cast(low),
            max_value=None if f.le is None else cast(f.le),
            step=1 if f.kind == "int" else None,
            help=help_,
        )
    return column.text_input(name, "" if value is None else str(value), help=help_)


class _Keyed:
    """A column whose widget calls all carry one key."""

    def __init__(self, column, key: str):
        self.column, self.key = column, key

    def __getattr__(self, name):
        method = getattr(self.column, name)
        return lambda *a, **kw: method(*a, key=self.key, **kw)


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
    if state.analysis_id and state.draft_of != state.analysis_id:  # the form follows the selected analysis
        loaded = form.request_of_analysis(ws.view(shared.analysis_request, state.analysis_id))
        if loaded is not None:
            new_draft(loaded)
        state.draft_of = state.analysis_id  # tried once per pick: a later edit is never overwritten
    if not state.request_draft and demo_requests():
        load_into_draft(demo_requests()[0])
    draft = state.request_draft or {"cutoff": get_settings().scenario.cutoff.isoformat(), "risks": []}
    if state.analysis_id and form.request_of_analysis(ws.view(shared.analysis_request, state.analysis_id)) == draft:
        st.caption("Prefilled from the selected analysis's request; change any field and check it again.")
    # the widgets and tables start from the draft as loaded (they keep their own edits across checks: the
    # tables' edits are recorded against these rows, so the rows must not change under them)
    base_draft = state.request_base or draft
    risks, channels = form.to_tables(base_draft)
    variables = ws.view(shared.variable_ids)
    movements = [m.value for m in Movement]
    var_column = (
        st.column_config.SelectboxColumn(
            options=sorted(set(variables) | set(channels["source"].dropna()) | set(channels["target"].dropna()))
        )
        if variables
        else st.column_config.TextColumn()
    )
    channel_config = {
        "movement": st.column_config.SelectboxColumn(options=movements),
        "expected": st.column_config.SelectboxColumn(options=movements),
        "source": var_column,
        "target": var_column,
    }
    for name, f in form.channel_fields().items():
        if name in channel_config:
            channel_config[name].update(label=words(name), help=f.description or None)
            continue
        if f.kind == "int":
            channel_config[name] = st.column_config.NumberColumn(
                words(name), min_value=f.ge, max_value=f.le, step=1, help=f.description
            )
        elif f.kind == "bool":
            channel_config[name] = st.column_config.CheckboxColumn(words(name), help=f.description)
        elif f.kind == "choice":
            channel_config[name] = st.column_config.SelectboxColumn(
                words(name), options=list(f.options), help=f.description
            )
    # widgets keep the analyst's edits across checks; a draft loaded from outside starts them afresh
    tables_key = str(state.draft_version)

    with st.form("request_form"):
        st.subheader("Analysis request")
        fields = form.form_fields()
        values = {}
        for i in range(0, len(fields), 3):
            for f, column in zip(fields[i : i + 3], st.columns(3), strict=False):
                values[f.name] = field_widget(f, base_draft, column, tables_key)
        st.markdown("**Risks**")
        risks = st.data_editor(
            risks, num_rows="dynamic", hide_index=True, width="stretch", key=f"risk_editor_{tables_key}"
        )
        st.markdown("**Channel queries** (registered movement of the source, expected movement of the target)")
        channels = st.data_editor(
            channels,
            num_rows="dynamic",
            hide_index=True,
            width="stretch",
            key=f"channel_editor_{tables_key}",
            column_config=channel_config,
        )
        submitted = st.form_submit_button("Check request", type="primary")
    if submitted:
        base = {**draft, **{f.name: form.request_value(f, values[f.name]) for f in fields}}
        base = {k: v for k, v in base.items() if v is not None}  # a field left empty takes its default
        edited = form.from_tables(base, risks, channels)
        try:
            state.request_draft = parse_request(edited, where="request form").as_dict()
        except InputError as exc:
            problems = form.field_problems(exc)
            listed = "\n".join(f"- {p}" for p in problems)
            st.error(f"**The request cannot be launched.** Fix the field(s) named:\n\n{listed}\n\n{exc}")
            return
    request = parse_request(state.request_draft, where="request form") if state.request_draft else None
    if request is None:
        return
    problems = request_problems(request, runs_views.registered_models())
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
        jobs.start(
            request.analysis_id,
            ws.path,
            lambda store, job: analyze(store, request, progress=job.progress),
            sequences=request.repetitions * (1 + len(request.risks)),  # shared stages, then each risk's program
        )
        state.analysis_id = state.draft_of = request.analysis_id
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
    if job.done and analysis_id not in state.shown_finished:
        # once, when it ends: the whole page again, so the Analyses table, the sidebar and the stops
        # below read the finished analysis instead of what they read when it was launched
        state.shown_finished.add(analysis_id)
        st.rerun(scope="app")
    label = "Analysis finished" if job.done else "Analysis running…"
    # Not a `with` block: leaving one would mark the status complete while the analysis still runs.
    box = st.status(label, state="error" if job.error else ("complete" if job.done else "running"), expanded=True)
    stage, event = job.last_event
    with open_workspace() as fresh, shown_errors():  # a fragment rerun gets its own connection
        stages = analysis_views.stages_in_words(fresh.store, analysis_id)
        named = stage_label(stage, shared.risk_labels(fresh.store, analysis_id))
    box.progress(job.fraction, text=f"{named}: {event}" if event else named)
    if job.error:
        box.error(job.error)
    for _, s in stages[stages["status"] != "completed"].iterrows():
        box.warning(f"**{s['stage']}** {s['status']}: {s['reason']}")
    box.dataframe(
        stages[["stage", "status", "reason", "seconds"]],
        hide_index=True,
        width="stretch",
        column_config={"seconds": st.column_config.NumberColumn("time (s)", format="%.2f")},
    )


with page_workspace() as ws:
    request_form(ws)
    if state.analysis_id and jobs.get(state.analysis_id):
        launch_progress(state.analysis_id)

    analyses = ws.view(analysis_views.analyses_frame)
    st.subheader("Analyses")
    if analyses.empty:
        st.info("No analysis yet — run `aieco analyze REQUEST.toml` (or `aieco demo`).")
    else:
        labels = ws.view(shared.analysis_labels)
        shown = analyses.assign(analysis=analyses["analysis_id"].map(labels)).sort_values("created_at", ascending=False)
        show_table(
            shown[["analysis", "completed", "stopped", "failed", "analysis_id"]], key="analyses", name="analyses"
        )
        if state.analysis_id:
            st.markdown(f"**Stops of the selected analysis** — {labels.get(state.analysis_id, state.analysis_id)}")
            stops = ws.view(analysis_views.stops_in_words, state.analysis_id)
            for _, stop in stops.iterrows():
                if stop["stage_id"].endswith("graph_search"):
                    continue  # shown per channel, with its reason, just below
                st.warning(f"**{stop['stage']}** {stop['status']} — {stop['reason']}")
            show_channels_without_path(ws, state.analysis_id, key="request")
            if stops.empty:
                st.caption("No stage of this analysis stopped.")
