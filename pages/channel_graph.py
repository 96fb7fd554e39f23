"""Channel graph: signed relations filtered by risk, as-of date and graph condition."""

import streamlit as st

from aieco import views
from dashboard.workspace import page_workspace

st.header("Channel graph")

with page_workspace() as ws:
    conditions = ws.view(views.graph_conditions)
    if not conditions:
        st.info("No relations yet — run `aieco graph build` (or `aieco demo`) to extract them.")
        st.stop()
    left, mid, right = st.columns(3)
    risk_names = ws.view(views.risks)
    risk = left.selectbox("Risk", ["all relations", *risk_names])
    as_of = mid.date_input("Published on or before", value=None, format="YYYY-MM-DD")
    condition = right.selectbox("Graph condition", conditions)
    relations = ws.view(views.relations_frame, published_by=as_of, condition=condition)
    if risk != "all relations":
        used = set(ws.view(views.risk_relation_ids, risk))
        relations = relations[relations["relation_id"].isin(used)].reset_index(drop=True)
    st.caption(f"{len(relations)} relations between {relations[['src_var', 'dst_var']].stack().nunique()} "
               "variables")

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
            st.markdown(f"> {rel['quote']}")
            where = f"p. {rel['page']}" if rel["page"] is not None else (rel["cell"] or "")
            st.caption(f"{rel['title']} — {rel['publisher']}, {rel['publication_date']}, {where} "
                       f"(location `{rel['location_id']}`)")
    else:
        st.caption("Select a relation to see its quote, source and page.")

    st.subheader("Opposing relations")
    opposing = views.opposing_relations(relations)
    if opposing.empty:
        st.caption("No edge carries relations of opposite sign under these filters.")
    else:
        for _, pair in opposing.iterrows():
            a, b = st.columns(2)
            a.markdown(f"**{pair['src_var']} {pair['sign_a']}→ {pair['dst_var']}**\n\n> {pair['quote_a']}\n\n"
                       f"{pair['source_a']}")
            b.markdown(f"**{pair['src_var']} {pair['sign_b']}→ {pair['dst_var']}**\n\n> {pair['quote_b']}\n\n"
                       f"{pair['source_b']}")
