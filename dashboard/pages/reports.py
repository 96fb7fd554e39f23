"""Reports: framed reports whose every number leads to its ModelRun row and output point."""

import streamlit as st
import streamlit.components.v1 as components

from aieco import views
from aieco.errors import AiecoError
from dashboard.state import get_state
from dashboard.workspace import page_workspace

state = get_state()
st.header("Reports")

if "claim" in st.query_params:  # deep link: ?claim=<claim_id>
    state.claim_id = st.query_params["claim"]

with page_workspace() as ws:
    reports = ws.view(views.reports_frame)
    if reports.empty:
        st.info("No reports yet — an analysis writes one per risk that reaches the report stage "
                "(`aieco analyze` or `aieco demo`).")
        st.stop()
    labels = {r["report_id"]: f"{r['risk']} — {r['title']} ({r['status']})" for _, r in reports.iterrows()}
    ids = list(labels)
    index = ids.index(state.report_id) if state.report_id in ids else 0
    state.report_id = st.selectbox("Report", ids, index=index, format_func=labels.get)
    report = reports[reports["report_id"] == state.report_id].iloc[0]

    exports = {}
    try:
        exports = {fmt: ws.view(views.report_export, state.report_id, fmt) for fmt in views.EXPORT_FORMATS}
    except AiecoError as exc:
        st.warning(f"Export unavailable: {exc}")
    if exports:
        for col, (fmt, data) in zip(st.columns(len(exports)), exports.items(), strict=True):
            label, ext, mime = views.EXPORT_FORMATS[fmt]
            col.download_button(label, data, file_name=f"{state.report_id}.{ext}", mime=mime,
                                icon=":material/download:", key=f"export_{fmt}")

    text_col, trace_col = st.columns([3, 2])
    with text_col:
        st.subheader(report["title"])
        if report["status"] != "passed":
            st.error(f"This report failed its checks ({report['failure_rule']}); it is shown for audit only.")
        frame = st.container(border=True)  # the framed report, as in the paper's boxes
        for sentence in ws.view(views.report_sentences, state.report_id):
            frame.text(sentence["rendered"])  # as text: report prose never fetches images or links
            if sentence["status"] != "ok":
                frame.warning(sentence["failure"])
            links = frame.container(horizontal=True, gap="small") if sentence["claims"] else frame
            for c in sentence["claims"]:
                if c["missing"]:
                    links.error(f"claim {c['claim_id']} is not registered")
                    continue
                label = f"{c['value']:.{c['rounding']}f} {c['unit']} · {c['variable']} {c['period']} → {c['run_id']}"
                if links.button(label, key=f"claim_{sentence['position']}_{c['claim_id']}", type="tertiary",
                                icon=":material/link:", help="open its ModelRun and output point"):
                    state.claim_id = c["claim_id"]
    with trace_col:
        if state.claim_id is None:
            st.info("Select a number to see the ModelRun, output point, restrictions and quotes behind it.")
        else:
            trace = ws.view(views.claim_trace, state.claim_id)
            point = trace["point"]
            st.subheader("ModelRun")
            st.markdown(f"claim `{state.claim_id}` → point `{point['point_id']}` · value {point['value']!r} "
                        f"(table `{point['table_name']}`, row `{point['row']}`, column `{point['column']}`)")
            st.dataframe(trace["run"].T.rename(columns={0: "value"}), width="stretch", key="trace_run")
            st.markdown("**Inputs**")
            st.dataframe(trace["inputs"], hide_index=True, width="stretch")
            st.markdown("**Restrictions**")
            st.dataframe(trace["restrictions"], hide_index=True, width="stretch")
            st.markdown("**Relations and quotes**")
            for _, rel in trace["relations"].iterrows():
                st.text(f"{rel['src_var']} {rel['sign']}→ {rel['dst_var']} — “{rel['quote']}” "  # quotes as text
                        f"({rel['title']}, {rel['publication_date']}, p. {rel['page']})")

    if "html" in exports:
        with st.expander("The exported report with its runs, points, restrictions and sources"):
            # The export's numbers are in-page links to their output point inside their run's section.
            components.html(exports["html"].decode("utf-8"), height=640, scrolling=True)
