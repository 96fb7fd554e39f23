"""Channel graph: the as-of edge set A(t) by risk and graph condition, drawn with pyvis; edge details."""

import streamlit as st
import streamlit.components.v1 as components

from aieco import views
from aieco.records import Role
from dashboard.workspace import page_workspace

st.header("Channel graph")

with page_workspace() as ws:
    conditions = ws.view(views.graph_conditions)
    if not conditions:
        st.info("No relations yet — run `aieco graph build` (or `aieco demo`) to extract them.")
        st.stop()
    c1, c2, c3, c4 = st.columns(4)
    risk_names = ws.view(views.risks)
    risk = c1.selectbox("Risk", ["all relations", *risk_names])
    as_of = c2.date_input("As of (publication date)", value=None, format="YYYY-MM-DD",
                          help="A(t): relations whose source was published on or before this date")
    condition = c3.selectbox("Graph condition", conditions)
    roles = c4.multiselect("Source roles", [r.value for r in Role], default=["generation"])
    ids = ws.view(views.as_of_relation_ids, as_of, condition, tuple(roles))
    if risk != "all relations":
        used = set(ws.view(views.risk_relation_ids, risk))
        ids = [i for i in ids if i in used]
    relations = ws.view(views.relations_frame, relation_ids=ids)
    st.caption(f"{len(relations)} accepted relations between "
               f"{relations[['src_var', 'dst_var']].stack().nunique()} variables")
    if relations.empty:
        st.info("No relation passes these filters.")
        st.stop()

    html = ws.view(views.channel_graph_html, tuple(ids), f"Channel graph — {risk}")
    components.html(html, height=780, scrolling=False)

    st.subheader("Relations")
    picked = st.dataframe(
        relations[["src_var", "sign", "dst_var", "evidence_class", "verb", "title", "publication_date", "page",
                   "confidence", "review_decision"]],
        hide_index=True, width="stretch", on_select="rerun", selection_mode="single-row", key="relation_table")
    rows = picked.selection.rows if picked else []
    if rows:
        rel = relations.iloc[rows[0]]
        with st.container(border=True):
            st.markdown(f"**{rel['src_var']} {rel['sign']}→ {rel['dst_var']}** · {rel['evidence_class']} · "
                        f"`{rel['relation_id']}`")
            st.text(f"“{rel['quote']}”")  # as text: a quote never fetches images or links
            where = f"p. {rel['page']}" if rel["page"] is not None else (rel["cell"] or "")
            st.caption(f"{rel['title']} — {rel['publisher']}, {rel['publication_date']}, {where} "
                       f"(location `{rel['location_id']}`)")
    else:
        st.caption("Select a relation to see its quote, source and page (hovering an edge shows them too).")

    st.subheader("Opposing relations")
    opposing = views.opposing_relations(relations)
    if opposing.empty:
        st.caption("No edge carries relations of opposite sign under these filters.")
    else:
        for _, pair in opposing.iterrows():
            a, b = st.columns(2)
            for col, side in ((a, "a"), (b, "b")):  # quotes and sources as text: nothing is fetched
                col.markdown(f"**{pair['src_var']} {pair[f'sign_{side}']}→ {pair['dst_var']}**")
                col.text(f"“{pair[f'quote_{side}']}”\n{pair[f'source_{side}']}")
