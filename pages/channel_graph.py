"""Channel graph: the as-of edge set A(t) — filtered by risk, channel and review status — with a click on a relation
opening its quote and page."""

import streamlit as st

from aieco.records import Role, digest
from dashboard import graph_views, shared
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.tables import show_figure, show_table
from dashboard.workspace import page_workspace, shown_errors

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Channel graph")


REVIEW_FILTER = {"in use": "accepted", "rejected": "rejected", "all": "all"}


def review_controls(ws, relation, status: str) -> None:
    """The analyst's review of one relation: accept, reject or correct its sign (ReviewDecision records
    through ``aieco.review.review_relation``); the page reruns at once to show the effect."""
    from aieco.review import review_relation

    rid = relation["relation_id"]
    st.markdown(f"Review status: **{status}**")
    reading = ws.view(graph_views.reading_of, (rid,)).get(rid, "")
    st.caption(reading[:1].upper() + reading[1:])  # who read it, and the analyst's decision in force
    if relation["review_decision"] != "accepted":
        st.caption("Rejected by validation: a review cannot admit it.")
        return
    with st.form(f"review_{rid}", border=False):
        a, b, c = st.columns([2, 1, 3])
        action = a.segmented_control(
            "Decision", ["accept", "reject", "correct"], default="accept", key=f"review_action_{rid}"
        )
        flipped = "-" if relation["sign"] == "+" else "+"
        sign = b.selectbox("Corrected sign", ["", flipped], help="only for 'correct'", key=f"review_sign_{rid}")
        note = c.text_input("Note", key=f"review_note_{rid}")
        if st.form_submit_button("Record decision", icon=":material/rate_review:"):
            with shown_errors():
                decision = review_relation(ws.store, rid, action or "accept", sign=sign or None, note=note)
                ws.refresh()
                state.review_flash = f"Recorded: {decision.action} by {decision.analyst}"
                st.rerun()  # the graph, filters and path list show the decision at once


def _path_lines(paths) -> list[str]:
    lines = []
    for channel, group in paths.groupby("channel", sort=False):
        found = group[group["path"] != "no path"]
        if found.empty:
            lines.append(f"• {channel}: no path")
            continue
        for _, p in found.iterrows():
            lines.append(f"• {channel}: #{int(p['rank'])} {p['path']} (S(C) = {p['score']:.3f})")
    return lines


def show_stored_paths(ws, analysis_id: str | None, risks: list[str]) -> None:
    """The paths the selected analysis found and the S(C) it computed, read from its records."""
    if analysis_id is None:
        return
    st.subheader("Paths the analysis found")
    st.caption(
        "As stored by the selected analysis's graph search (its as-of rule, its review decisions, its scores); "
        "never recomputed here."
    )
    blocks = []
    for name in risks:
        paths = ws.view(graph_views.stored_paths_frame, analysis_id, name)
        if not paths.empty:
            blocks.append("\n".join([name.replace("_", " ").upper(), *_path_lines(paths)]))
    if blocks:
        st.container(key="stored_paths").text("\n\n".join(blocks))
    else:
        st.info("The selected analysis stored no graph search for these risks.")


def show_current_paths(
    ws, risks: list[str], as_of, condition: str, roles: tuple[str, ...], analysis_id: str | None
) -> None:
    """The channel queries' paths on A(t) now, with the analyst's decisions applied."""
    st.subheader("Paths now, with the review decisions (what-if)")
    st.caption(
        "Each channel query of the risk searched again on the as-of graph as filtered above, with every "
        "analyst decision applied: a rejected relation's paths disappear, a corrected sign counts. At the "
        "selected analysis's cutoff the search uses that analysis's whole as-of rule (scope, exclusions, "
        "vintage policy, roles). The analyses' stored paths (above, and Paths & restrictions) stay as they were run."
    )
    blocks = []  # every risk in one text element (one element for the browser to draw, not two per risk)
    for name in risks:
        paths = ws.view(
            graph_views.current_paths, name, as_of=as_of, condition=condition, roles=roles, analysis_id=analysis_id
        )
        if paths.empty:
            continue
        blocks.append("\n".join([name.replace("_", " ").upper(), *_path_lines(paths)]))
    if blocks:
        st.container(key="current_paths").text("\n\n".join(blocks))  # as text: labels are shown as written


with page_workspace() as ws:
    conditions = ws.view(graph_views.graph_conditions)
    if not conditions:
        st.info("No relations yet — run `aieco graph build` (or `aieco demo`) to extract them.")
        st.stop()
    labels = ws.view(shared.variable_labels)
    cutoff = ws.view(shared.analysis_cutoff, state.analysis_id)
    a, b, c = st.columns(3)
    risk = a.selectbox("Risk", ["every risk", *ws.view(graph_views.risks)], format_func=lambda r: r.replace("_", " "))
    channels = ws.view(graph_views.channel_relation_ids, state.analysis_id, risk) if risk != "every risk" else {}
    channel = b.selectbox(
        "Channel",
        ["every channel", *channels],
        disabled=not channels,
        help="The channel queries of the risk; a channel shows the relations of its paths",
    )
    review = REVIEW_FILTER[
        c.segmented_control(
            "Review status",
            list(REVIEW_FILTER),
            default="in use",
            key="graph_review",
            help="in use: the as-of graph A(t) with the analyst's decisions applied; rejected: by validation "
            "or by the analyst (a corrected relation's original is here, its correction is in use)",
        )
        or "in use"
    ]
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
    ids = ws.view(graph_views.graph_relations, as_of=as_of, condition=condition, roles=tuple(roles), review=review)
    if risk != "every risk":
        used = set(channels[channel]) if channel in channels else set(ws.view(graph_views.risk_relation_ids, risk))
        ids = [i for i in ids if i in used]
    relations = ws.view(graph_views.relations_frame, relation_ids=ids)
    if state.review_flash:
        st.success(state.review_flash, icon=":material/rate_review:")
        state.review_flash = None
    if relations.empty:
        st.info("No relation passes these filters" + (f" (as of {as_of})." if as_of else "."))
        st.stop()
    shown_key = digest(sorted(relations["relation_id"]))[:12]
    status = ws.view(graph_views.review_status, tuple(relations["relation_id"]))
    relations = relations.assign(review=relations["relation_id"].map(status))
    st.caption(  # one caption: the count, how to read the graph, and the provenance below it
        f"{len(relations)} relation{'s' if len(relations) != 1 else ''} between "
        f"{relations[['src_var', 'dst_var']].stack().nunique()} variables"
        + (f", published on or before {as_of}" if as_of else ", every publication date")
        + ". Arrows are coloured by sign; each marker on an arrow is one relation (shape = evidence "
        "class) — click it for its quote and page.  \n"
        + shared.provenance_badge(ws.view(shared.provenance_of_analysis, None))
    )
    note = ws.view(graph_views.reader_note_of, tuple(relations["relation_id"]))
    if note:
        st.warning(note, icon=":material/fact_check:")
    figure = ws.view(graph_views.channel_graph_of, tuple(relations["relation_id"]))
    event = show_figure(
        figure,
        key=f"channel_graph_{shown_key}",  # another relation set (a filter, a review) starts a fresh selection
        name=f"channel_graph_{risk}",
        on_select="rerun",
        selection_mode="points",
    )
    points = event.selection.points if event and event.selection else []
    picked = None
    for p in points:
        trace = figure.data[p["curve_number"]]
        if trace.customdata is not None:
            picked = trace.customdata[p["point_index"]][0]
            break

    queue = ws.view(graph_views.review_queue_frame, state.analysis_id) if state.analysis_id else None
    if queue is not None and not queue.empty:
        st.subheader("Review first")
        pending = int((queue["decision"] == "not reviewed").sum())
        st.caption(
            f"The relations the selected analysis rests on — its restrictions' support and its reports' "
            f"citations: {pending} of {len(queue)} not reviewed by an analyst. Select one to read its quote "
            "and decide; a relation rejected or corrected since the analysis ran means the analysis should be "
            "run again. CLI: `aieco review-queue`."
        )
        chosen_q = show_table(
            queue.drop(columns=["reading"]),
            key=f"review_queue_{shown_key}",
            name="review_queue",
            on_select="rerun",
            selection_mode="single-row",
        )
        rows_q = chosen_q.selection.rows if chosen_q else []
        if rows_q:
            picked = queue.iloc[rows_q[0]]["relation_id"]

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
                "review",
                "relation_id",
            ]
        ],
        key=f"relation_table_{shown_key}",
        name="relations",
        on_select="rerun",
        selection_mode="single-row",
    )
    rows = chosen.selection.rows if chosen else []
    if rows:
        picked = relations.iloc[rows[0]]["relation_id"]
    if picked is not None:
        state.relation_id = picked
    hidden = state.relation_id is not None and state.relation_id not in set(relations["relation_id"])
    if hidden:  # e.g. just rejected while the filter shows relations in use
        gone = ws.view(graph_views.review_status, (state.relation_id,)).get(state.relation_id, "not shown")
        st.info(
            f"The relation opened last is {gone} and not among the relations shown; choose the review "
            "status 'rejected' or 'all' to open it again."
        )
    elif state.relation_id is not None:
        rel = relations[relations["relation_id"] == state.relation_id].iloc[0]
        with st.container(border=True, key="relation_detail"):
            st.markdown(
                f"**{labels.get(rel['src_var'], rel['src_var'])} {rel['sign']}→ "
                f"{labels.get(rel['dst_var'], rel['dst_var'])}** · {rel['evidence_class']}"
            )
            st.text(f"“{rel['quote']}”")  # as text: a quote never fetches images or links
            where = f"p. {rel['page']}" if rel["page"] is not None else (rel["cell"] or "")
            st.caption(f"{rel['title']} — {rel['publisher']}, {rel['publication_date']}, {where}")
            review_controls(ws, rel, rel["review"])
            with st.expander("Ids"):
                st.markdown(
                    f"relation `{rel['relation_id']}` · location `{rel['location_id']}` · source `{rel['source_id']}`"
                )
    else:
        st.caption("Click a relation marker on the graph, or a row of the table, for its quote, source and page.")

    shown = [risk] if risk != "every risk" else ws.view(graph_views.risks)
    show_stored_paths(ws, state.analysis_id, shown)
    show_current_paths(ws, shown, as_of, condition, tuple(roles), state.analysis_id)

    st.subheader("Opposing relations")
    opposing = ws.view(graph_views.opposing_of, tuple(relations["relation_id"]))
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
