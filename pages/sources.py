"""Sources: the registry, eligibility and exclusions, the passage and cell viewer, ingest."""

from pathlib import Path

import streamlit as st

from aieco.config import get_settings
from aieco.records import Role, digest
from aieco.sources.eligibility import eligible_locations
from aieco.sources.registry import ingest
from dashboard import shared, sources_views
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.tables import lazy_section, show_table
from dashboard.workspace import page_workspace

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Sources")


def passages(ws, registry) -> None:
    """The passage and cell viewer of one source, filtered by the words a passage contains."""
    titles = dict(zip(registry["source_id"], registry["title"], strict=True))
    ids = list(titles)
    index = ids.index(state.source_id) if state.source_id in ids else 0
    source_names = ws.view(shared.source_labels)
    state.source_id = st.selectbox("Source", ids, index=index, format_func=lambda s: source_names.get(s, s))
    locations = ws.view(sources_views.locations_frame, state.source_id)
    if locations.empty:
        st.info("This source has no parsed locations.")
        return
    text = st.text_input("Filter passages", placeholder="words the passage contains")
    shown = locations[locations["text"].str.contains(text, case=False, regex=False)] if text else locations
    show_table(
        shown.dropna(axis=1, how="all"),
        key="sources_table_2",
        name="sources_2",
        column_config={"text": st.column_config.TextColumn(width="large")},
    )


def eligibility(ws) -> None:
    """Which locations an analysis with this cutoff and these roles could use, and why the others not."""
    a, b = st.columns(2)
    cutoff = a.date_input("Information cutoff", value=get_settings().scenario.cutoff, format="YYYY-MM-DD")
    roles = b.multiselect("Allowed roles", [r.value for r in Role], default=["generation", "methods"])
    eligible, excluded = eligible_locations(ws.store, cutoff=cutoff, roles=roles)
    st.caption(f"{len(eligible)} locations eligible, {len(excluded)} excluded as of {cutoff}.")
    frame = sources_views.exclusion_records_frame(ws.store, excluded)
    if not frame.empty:
        st.caption(", ".join(f"{reason}: {n}" for reason, n in frame["reason"].value_counts().items()))
        show_table(frame.drop(columns=["analysis_id"]), key="sources_table_3", name="sources_3")


with page_workspace() as ws:
    registry = ws.view(sources_views.sources_frame)
    if registry.empty:
        st.info("No sources yet — run `aieco ingest MANIFEST` (or `aieco demo`) to register some.")
    else:
        st.caption(f"{len(registry)} registered sources; illustrative (synthetic) material is flagged.")
        show_table(
            registry,
            key="sources_table_1",
            name="sources_1",
            column_config={"illustrative": st.column_config.CheckboxColumn("synthetic")},
        )

        # The viewer and the eligibility check open on demand: a data table costs the browser about as
        # much as a small page, and eligibility is computed afresh for the chosen date.
        with lazy_section("Passages and cells of a source", key="sources_passages") as open_:
            if open_:
                passages(ws, registry)
        with lazy_section("Eligibility as of a date", key="sources_eligibility") as open_:
            if open_:
                eligibility(ws)

    st.subheader("Add sources")
    with st.form("ingest_form", clear_on_submit=True):
        st.caption(
            "Upload a manifest (TOML, `[[source]]` entries with title, publisher, publication_date, "
            "role) and the files it names."
        )
        manifest = st.file_uploader("Manifest", type=["toml"])
        files = st.file_uploader("Files", accept_multiple_files=True, type=["pdf", "xlsx", "csv", "txt", "md"])
        go = st.form_submit_button("Ingest", icon=":material/upload:")
    if go and manifest is not None:
        folder = ws.path / "uploads" / digest([manifest.getvalue().hex(), *(f.name for f in files or [])])[:16]
        for f in [manifest, *(files or [])]:  # recorded in the store: the audit checks every workspace file
            ws.store.write_file(folder / Path(f.name).name, f.getvalue())
        bar = st.progress(0.0, text="ingesting")
        result = ingest(
            ws.store,
            folder / Path(manifest.name).name,
            progress=lambda done, total, path: bar.progress(done / total, text=path),
        )
        ws.refresh()
        counts = result.counts
        (st.success if result.ok else st.warning)(
            f"{counts['registered']} registered, {counts['unchanged']} unchanged, {counts['failed']} failed"
        )
        for failure in result.failures:
            st.error(f"{failure.path}: {failure.reason}")

    st.subheader("Exclusions recorded by analyses")
    exclusions = ws.view(sources_views.exclusions_frame)
    if exclusions.empty:
        st.info(
            "No exclusions recorded yet: they are written when an analysis applies its cutoff, "
            "roles and scope to the sources."
        )
    else:
        groups = ws.view(sources_views.exclusion_groups)
        analysis_names = ws.view(shared.analysis_labels)
        group = st.selectbox(
            "Analysis or eligibility check",
            groups,
            format_func=lambda g: analysis_names.get(g, f"eligibility check {g}"),
            index=groups.index(state.analysis_id) if state.analysis_id in groups else 0,
        )
        chosen = ws.view(sources_views.exclusions_frame, group)
        st.caption(", ".join(f"{reason}: {n}" for reason, n in chosen["reason"].value_counts().items()))
        show_table(chosen, key="sources_table_4", name="sources_4")
