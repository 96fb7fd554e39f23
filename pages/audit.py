"""Audit: stage timeline per analysis, LLM calls with tokens and cost, audit results, exclusions."""

import streamlit as st

from aieco.audit import run_audit
from dashboard import analysis_views, reports_views, shared, sources_views
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.tables import lazy_section, show_figure, show_table
from dashboard.workspace import page_workspace

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Audit")

with page_workspace() as ws:
    if state.analysis_id is None:
        st.info("No analysis yet — run `aieco analyze REQUEST.toml` (or `aieco demo`).")
    else:
        st.caption(f"Analysis: {ws.view(shared.analysis_labels).get(state.analysis_id, state.analysis_id)}")
        stages = ws.view(analysis_views.stages_in_words, state.analysis_id)
        if stages.empty:
            st.info("No stage records for this analysis.")
        else:
            show_figure(
                ws.view(analysis_views.stage_timeline, state.analysis_id), name="audit_figure_1", key="timeline"
            )
            for _, s in stages[stages["status"] != "completed"].iterrows():
                st.warning(f"**{s['stage']}** {s['status']}: {s['reason']}")
            show_table(
                stages,
                key="audit_table_1",
                name="audit_1",
                column_config={"seconds": st.column_config.NumberColumn("time (s)", format="%.3f")},
            )

        # Secondary tables open on demand: each data table costs the browser as much as a small page.
        st.subheader("LLM calls")
        calls = ws.view(analysis_views.llm_calls_frame, state.analysis_id)
        if calls.empty:
            st.info("No LLM calls recorded for this analysis.")
        else:
            a, b, c = st.columns(3)
            a.metric("calls", len(calls))
            b.metric("tokens (in / out)", f"{calls['input_tokens'].sum()} / {calls['output_tokens'].sum()}")
            c.metric("cost (USD)", f"{calls['cost_usd'].sum():.4f}")
            with lazy_section(f"The {len(calls)} calls", key="audit_llm_calls") as open_:
                if open_:
                    show_table(calls, key="audit_table_2", name="audit_2")

        tests = ws.view(reports_views.output_tests_frame, state.analysis_id)
        with lazy_section(f"Output tests — {len(tests)}", key="audit_output_tests") as open_:
            if open_ and tests.empty:
                st.info("No output tests registered for this analysis.")
            elif open_:
                show_table(tests, key="audit_table_3", name="audit_3")

        exclusions = ws.view(sources_views.exclusions_frame, state.analysis_id)
        with lazy_section(f"Exclusions — {len(exclusions)}", key="audit_exclusions") as open_:
            if open_ and exclusions.empty:
                st.info("No exclusions recorded for this analysis.")
            elif open_:
                show_table(exclusions, key="audit_table_4", name="audit_4")

    st.subheader("Workspace audit")
    st.caption("Recomputes every artifact, record and source-file digest (`aieco audit`).")
    if st.button("Run the audit", icon=":material/verified:"):
        result = run_audit(ws.store, state.analysis_id)
        if result["clean"]:
            st.success(f"Audit clean ({result['checked']} records and artifacts checked)")
        else:
            st.error(f"Audit found {len(result['mismatches'])} mismatch(es)")
            show_table(result["mismatches"], key="audit_table_5", name="audit_5")
