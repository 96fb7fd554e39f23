"""Channel graph: the as-of edge set A(t) — filtered by risk, channel and review status — with a click on a relation
opening its quote and page."""

import streamlit as st

from aieco.records import Role
from dashboard import views
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.tables import show_figure, show_table
from dashboard.workspace import page_workspace, shown_errors

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Channel graph")


def review_controls(ws, relation) -> None:
    """The analyst's review of one relation: accept, reject or correct its sign (ReviewDecision records)."""
    try:
        from aieco.review import review_relation, review_state
    except ImportError:  # the review library (issue #15) is not in this build yet
        st.caption(f"Validation: **{relation['review_decision']}** (analyst review arrives with issue #15)")
        return
    rid = relation["relation_id"]
    st.caption(
        f"Validation: **{relation['review_decision']}** · analyst review: **{review_state(ws.store, rid) or 'in use'}**"
    )
    if relation["review_decision"] != "accepted":
        return
    with st.form(f"review_{rid}", border=False):
        a, b, c = st.columns([2, 1, 3])
        action = a.segmented_control(
            "Decision", ["accept", "reject", "correct"], default="accept", key=f"review_action_{rid}"
        )
        sign = b.selectbox("Corrected sign", ["", "+", "-"], help="only for 'correct'", key=f"review_sign_{rid}")
        note = c.text_input("Note", key=f"review_note_{rid}")
        if st.form_submit_button("Record decision", icon=":material/rate_review:"):
            with shown_errors():
                decision = review_relation(ws.store, rid, action or "accept", sign=sign or None, note=note)
                ws.refresh()
                st.success(f"Recorded: {decision.action} by {decision.analyst}")


with page_workspace() as ws:
    conditions = ws.view(views.graph_conditions)
    if not conditions:
        st.info("No relations yet — run `aieco graph build` (or `aieco demo`) to extract them.")
        st.stop()
    labels = ws.view(views.variable_labels)
    cutoff = ws.view(views.analysis_cutoff, state.analysis_id)
    a, b, c = st.columns(3)
    risk = a.selectbox("Risk", ["every risk", *ws.view(views.risks)], format_func=lambda r: r.replace("_", " "))
    channels = ws.view(views.channel_relation_ids, state.analysis_id, risk) if risk != "every risk" else {}
    channel = b.selectbox(
        "Channel",
        ["every channel", *channels],
        disabled=not channels,
        help="The channel queries of the risk; a channel shows the relations of its paths",
    )
    review = (
        c.segmented_control("Review status", ["accepted", "rejected", "all"], default="accepted", key="graph_review")
        or "accepted"
    )
    a, b, c = st.columns(3)
    as_of = a.date_input(
        "As of (publication date)",
        value=cutoff,
        format="YYYY-MM-DD",
        key=f"as_of_{cutoff}",
        help="A(t): relations whose source was published on or before this date; "
        "defaults to the selected analysis's information cutoff",
    )
    condition = b.selectbox("Graph condition", conditions)
    roles = c.multiselect("Source roles", [r.value for r in Role], default=["generation"])
    ids = ws.view(views.graph_relations, as_of=as_of, condition=condition, roles=tuple(roles), review=review)
    if risk != "every risk":
        used = set(channels[channel]) if channel in channels else set(ws.view(views.risk_relation_ids, risk))
        ids = [i for i in ids if i in used]
    relations = ws.view(views.relations_frame, relation_ids=ids)
    if relations.empty:
        st.info("No relation passes these filters" + (f" (as of {as_of})." if as_of else "."))
        st.stop()
    st.caption(
        f"{len(relations)} relations between {relations[['src_var', 'dst_var']].stack().nunique()} variables"
        + (f", published on or before {as_of}" if as_of else ", every publication date")
        + ". Arrows are coloured by sign; each marker on an arrow is one relation (shape = evidence "
        "class) — click it for its quote and page."
    )
    st.caption(views.provenance_badge(ws.view(views.provenance_of_analysis, None)))
    figure = ws.view(views.channel_graph_of, tuple(relations["relation_id"]))
    event = show_figure(
        figure, key="channel_graph", name=f"channel_graph_{risk}", on_select="rerun", selection_mode="points"
    )
    points = event.selection.points if event and event.selection else []
    picked = None
    for p in points:
        trace = figure.data[p["curve_number"]]
        if trace.customdata is not None:
            picked = trace.customdata[p["point_index"]][0]
            break

    st.subheader("Relations")
    table = relations.assign(
        **{
            "from": relations["src_var"].map(lambda v: labels.get(v, v)),
            "to": relations["dst_var"].map(lambda v: labels.get(v, v)),
        }
    )
    chosen = show_table(
        table[
            [
                "from",
                "sign",
                "to",
                "evidence_class",
                "verb",
                "title",
                "publisher",
                "publication_date",
                "page",
                "confidence",
                "review_decision",
                "relation_id",
            ]
        ],
        key="relation_table",
        name="relations",
        on_select="rerun",
        selection_mode="single-row",
    )
    rows = chosen.selection.rows if chosen else []
    if rows:
        picked = relations.iloc[rows[0]]["relation_id"]
    if picked is not None:
        rel = relations[relations["relation_id"] == picked].iloc[0]
        with st.container(border=True, key="relation_detail"):
            st.markdown(
                f"**{labels.get(rel['src_var'], rel['src_var'])} {rel['sign']}→ "
                f"{labels.get(rel['dst_var'], rel['dst_var'])}** · {rel['evidence_class']}"
            )
            st.text(f"“{rel['quote']}”")  # as text: a quote never fetches images or links
            where = f"p. {rel['page']}" if rel["page"] is not None else (rel["cell"] or "")
            st.caption(f"{rel['title']} — {rel['publisher']}, {rel['publication_date']}, {where}")
            review_controls(ws, rel)
            with st.expander("Ids"):
                st.markdown(
                    f"relation `{rel['relation_id']}` · location `{rel['location_id']}` · source `{rel['source_id']}`"
                )
    else:
        st.caption("Click a relation marker on the graph, or a row of the table, for its quote, source and page.")

    st.subheader("Opposing relations")
    opposing = ws.view(views.opposing_of, tuple(relations["relation_id"]))
    if opposing.empty:
        st.caption("No edge carries relations of opposite sign under these filters.")
    else:
        for _, pair in opposing.iterrows():
            left, right = st.columns(2)
            for col, side in ((left, "a"), (right, "b")):  # quotes and sources as text: nothing is fetched
                col.markdown(
                    f"**{labels.get(pair['src_var'], pair['src_var'])} {pair[f'sign_{side}']}→ "
                    f"{labels.get(pair['dst_var'], pair['dst_var'])}**"
                )
                col.text(f"“{pair[f'quote_{side}']}”\n{pair[f'source_{side}']}")
