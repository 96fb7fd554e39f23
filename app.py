"""aieco dashboard entry point (Streamlit). Thin view over the library."""

import streamlit as st

from aieco.audit import run_audit
from aieco.config import get_settings
from aieco.errors import AiecoError
from aieco.store import open_store

st.set_page_config(page_title="aieco", layout="wide")
st.title("aieco")
st.caption("Evidence-traceable economic and financial scenario analysis")

workspace = get_settings().workspace
try:
    store = open_store(workspace)
    try:
        counts = store.table_counts()
        audit = run_audit(store)
    finally:
        store.close()
except AiecoError as exc:
    st.error(str(exc))
    st.stop()

st.subheader(f"Workspace `{workspace}`")
st.dataframe([{"table": k, "rows": v} for k, v in counts.items()], hide_index=True)
if audit["clean"]:
    st.success(f"Audit clean ({audit['checked']} records and artifacts checked)")
else:
    st.error(f"Audit found {len(audit['mismatches'])} mismatch(es)")
    st.dataframe(audit["mismatches"], hide_index=True)
