"""Bank capital: CET1 ratio paths and depletion distributions per bank; the validation gate."""

import streamlit as st

from aieco import views
from dashboard.state import get_state
from dashboard.workspace import page_workspace

state = get_state()
st.header("Bank capital")

with page_workspace() as ws:
    run_ids = ws.view(views.bank_runs)
    if not run_ids:
        st.info("No bank projections yet — the bank capital models run after an accepted macro scenario "
                "(`aieco analyze` or `aieco demo`).")
    else:
        runs = ws.view(views.runs_frame).set_index("run_id")
        # generation runs (the analysis's projections) before validation runs
        run_ids = sorted(run_ids, key=lambda r: runs.loc[r, "role"] != "generation")
        run_id = st.selectbox("Projection run", run_ids, format_func=lambda r: (
            f"{runs.loc[r, 'model_id']} · {runs.loc[r, 'role']} · {runs.loc[r, 'risk'] or ''} · {r}"))
        points = ws.view(views.points_frame, run_id)
        banks = views.entities(points)
        variables = views.model_variables(points, with_entity=True)
        left, right = st.columns(2)
        bank = left.selectbox("Bank", banks)
        variable = right.selectbox("Variable", variables,
                                   index=variables.index("cet1_ratio") if "cet1_ratio" in variables else 0)
        caption = ws.view(views.bank_run_caption, run_id)
        st.plotly_chart(views.fan_chart(points, variable, entity=bank, title=f"{variable} — {bank}"),
                        key="bank_fan")
        st.caption(caption)
        # The depletion distribution of every bank (start minus minimum CET1 ratio), when the run stored it.
        depletion = "cet1_depletion" if "cet1_depletion" in variables else variable
        st.plotly_chart(views.quantile_ranges(points, depletion), key="bank_dist")
        st.caption(caption)

    st.subheader("External validation")
    gates = ws.view(views.validation_frame)
    if gates.empty:
        st.info("No validation gate recorded yet: bank conclusions are shown only for models that pass it.")
    else:
        for model_id, group in gates.groupby("model_id", sort=False):
            passed = bool(group["gate_passed"].iloc[0])
            (st.success if passed else st.error)(
                f"{model_id}: gate {'passed' if passed else 'failed'} — "
                + ("may supply bank conclusions" if passed else "bank conclusions withheld"))
        st.dataframe(gates, hide_index=True, width="stretch")
