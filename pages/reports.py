"""Reports: framed reports whose every number opens, right under it, the chain that produced it."""

import streamlit as st

from aieco.errors import AiecoError
from dashboard import reports_views, shared
from dashboard.gaps import show_channels_without_path
from dashboard.report_review import report_review_notes, superseded_label, superseded_message
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.tables import markdown_table, show_table
from dashboard.workspace import open_workspace, page_workspace, shown_errors

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Reports")

if "claim" in st.query_params:  # deep link: ?claim=<claim_id>
    state.claim_id = st.query_params["claim"]


def show_chain(ws, claim_id: str) -> None:
    """claim → OutputTest → ModelRun (inputs with provenance) → restrictions → path → quotes and pages."""
    chain = ws.view(reports_views.claim_chain, claim_id)
    c, run = chain["claim"], chain["run"]
    box = st.container(border=True, key="claim_chain")
    box.markdown(
        f"#### {c['value']:.{c['rounding']}f} {c['unit']} — {c['variable']}, {c['period']} "
        f"({c['statistic']}{', ' + c['entity'] if c['entity'] else ''})"
    )
    box.caption(shared.provenance_badge(chain["provenance"]))
    tests = chain["tests"]
    results = tests[tests["phase"] == "result"]
    verdict = results["result"].iloc[-1] if len(results) else "no result recorded"
    vlabels = ws.view(shared.variable_labels)
    box.markdown(
        f"**1 · Output test** — {verdict}: reported value equals the stored output point "
        f"(table {str(c['table']).replace('_', ' ')}, row {vlabels.get(str(c['row']), c['row'])}, "
        f"column {str(c['column']).replace('_', ' ')})."
    )
    box.markdown(f"**2 · Model run** — {run['label']} · {run['status']} · seed {run['seed']}")
    # the chain's small tables as markdown (one element each, not a data grid); their CSVs are in "Ids"
    box.markdown(markdown_table(chain["inputs"]))
    lead = "constrained by" if chain["own_restrictions"] else "no restriction on this variable; the run's restrictions"
    box.markdown(f"**3 · Restrictions** — {lead}:")
    box.markdown(markdown_table(chain["restrictions"].drop(columns=["restriction_id"])))
    steps = chain["chain"]
    if steps.empty:
        box.info("No selected path supports these restrictions.")
    for path, group in steps.groupby("path", sort=False):
        box.markdown(f"**4 · Selected path** — {path}")
        for _, s in group.iterrows():
            sign = {"+": "raises", "-": "lowers"}.get(s["sign"], s["sign"])
            box.markdown(
                f"Step {s['step']}: *{s['from']}* {sign} *{s['to']}* ({s['evidence_class']})"
                + ("" if s["representative"] else " — pooled evidence")
            )
            box.text(f"“{s['quote']}”")  # as text: a quote never fetches images or links
            box.caption(f"{s['source']} — {s['publisher']}, {s['publication_date']}, p. {s['page']} · {s['reading']}")
    ids = box.expander(
        "Ids and CSVs (claim, point, run, inputs, restrictions, relations)", key="chain_ids", on_change="rerun"
    )
    with ids:
        st.markdown(
            f"claim `{c['claim_id']}` · point `{c['point_id']}` · run `{run['run_id']}` · "
            f"output `{run['output_digest']}` · code `{run['code_digest']}`"
        )
        if ids.open:  # lazy: the two tables are drawn only when asked for, not on every number click
            show_table(chain["inputs"], key="chain_inputs", name="model_run_inputs")
            show_table(chain["restrictions"], key="chain_restrictions", name="restrictions")
            show_table(tests, key="chain_tests", name="output_tests")
            show_table(steps[["step", "relation_id", "representative"]], key="chain_relations", name="chain_relations")


def toggle_claim(claim_id: str) -> None:
    state.claim_id = None if state.claim_id == claim_id else claim_id


@st.fragment
def report_body(report_id: str) -> None:
    """The framed report and the chain of the clicked number; a click reruns only this part."""
    with open_workspace() as ws, shown_errors():  # a fragment rerun has no app run around it
        frame = st.container(border=True)  # the framed report, as in the paper's boxes
        plain: list[str] = []  # consecutive sentences without a number or failure: one text element
        for sentence in ws.view(reports_views.report_sentences, report_id):
            if sentence["status"] == "ok" and not sentence["claims"]:
                plain.append(sentence["rendered"])
                continue
            with frame:
                if plain:
                    st.text("\n\n".join(plain))  # as text: report prose never fetches images or links
                    plain = []
                st.text(sentence["rendered"])
                if sentence["status"] != "ok":
                    st.warning(sentence["failure"])
                if not sentence["claims"]:
                    continue
                # the number buttons without a tooltip each: the caption above says what a click does
                links = st.container(horizontal=True, gap="small")
                opened = None
                for c in sentence["claims"]:
                    if c["missing"]:
                        links.error(f"claim {c['claim_id']} is not registered")
                        continue
                    label = f"{c['value']:.{c['rounding']}f} {c['unit']} · {c['variable_label']} {c['period']}"
                    chosen = c["claim_id"] == state.claim_id
                    links.button(
                        label,
                        key=f"claim_{sentence['position']}_{c['claim_id']}",
                        type="primary" if chosen else "tertiary",
                        icon=":material/link:",
                        on_click=toggle_claim,
                        args=(c["claim_id"],),
                    )
                    if chosen:
                        opened = c["claim_id"]
                if opened:
                    show_chain(ws, opened)
        if plain:
            frame.text("\n\n".join(plain))


with page_workspace() as ws:
    scope = st.radio("Reports of", ["the selected analysis", "every analysis"], horizontal=True, key="report_scope")
    labels = ws.view(reports_views.report_labels, state.analysis_id if scope == "the selected analysis" else None)
    superseded = ws.view(report_review_notes)  # report id -> the later review decisions that supersede it
    labels = {rid: superseded_label(label, superseded.get(rid)) for rid, label in labels.items()}
    if not labels:
        st.info(
            "No reports yet — an analysis writes one per risk that reaches the report stage "
            "(`aieco analyze` or `aieco demo`)."
            + (" Choose 'every analysis' to see other analyses' reports." if scope == "the selected analysis" else "")
        )
        st.stop()
    ids = list(labels)
    if state.claim_id and state.report_id not in ids:  # a deep link: open the report that holds the claim
        holder = ws.view(reports_views.report_of_claim, state.claim_id)
        state.report_id = holder if holder in ids else state.report_id
    if state.report_id not in ids:
        state.report_id = ids[0]
    if st.session_state.get("report_picker") not in ids or st.session_state.get("report_picker") != state.report_id:
        st.session_state["report_picker"] = state.report_id
    picked = st.selectbox("Report", ids, format_func=labels.get, key="report_picker")
    if picked != state.report_id:
        state.report_id, state.claim_id = picked, None
    reports = ws.view(reports_views.reports_frame)
    report = reports[reports["report_id"] == state.report_id].iloc[0]

    exports = {}
    try:
        exports = {
            fmt: ws.view(reports_views.report_export, state.report_id, fmt) for fmt in reports_views.EXPORT_FORMATS
        }
    except AiecoError as exc:
        st.warning(f"Export unavailable: {exc}")
    if exports:
        row = st.container(horizontal=True, gap="small")
        for fmt, data in exports.items():
            label, _ext, mime = reports_views.EXPORT_FORMATS[fmt]
            row.download_button(
                label,
                data,
                file_name=ws.view(reports_views.report_file_name, state.report_id, fmt),
                mime=mime,
                icon=":material/download:",
                key=f"export_{fmt}",
                on_click="ignore",
            )

    st.subheader(report["title"])
    st.caption(shared.provenance_badge(ws.view(shared.provenance_of_analysis, report["analysis_id"])))
    if report["status"] != "passed":
        st.error(f"This report failed its checks ({report['failure_rule']}); it is shown for audit only.")
    if state.report_id in superseded:
        st.warning(superseded_message(superseded[state.report_id]), icon=":material/rate_review:")
    show_channels_without_path(ws, report["analysis_id"], risk=report["risk"], key="report")
    st.caption("Click a number to open, right under it, the chain that produced it.")
    report_body(state.report_id)

    if "html" in exports:
        export = st.expander(
            "The exported report with its runs, points, restrictions and sources", key="export_view", on_change="rerun"
        )
        if export.open:  # lazy: the whole export is laid out in its frame only when asked for
            with export:
                st.caption("As downloaded; its number links scroll within this frame.")
                st.iframe(reports_views.embeddable_export(exports["html"].decode("utf-8")), height=640)
