"""Bank capital: CET1 ratio paths and depletion distributions per bank; the validation gate."""

import streamlit as st

from dashboard import bank_views, runs_views, shared
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.tables import lazy_section, show_figure, show_table
from dashboard.workspace import page_workspace

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()
st.header("Bank capital")

with page_workspace() as ws:
    # Real banks under each risk's selected scenario: the run, or the stop with the gate's figures.
    parts = ws.view(bank_views.real_bank_parts, state.analysis_id)  # the selected analysis's risks only
    if not parts.empty:
        st.subheader("Real banks under each risk's scenario")
        for part in parts.itertuples():
            head = f"**{part.risk}** — {shared.model_name(part.model)}: {part.banks_in_scope} banks in scope"
            if part.status == "completed":
                st.success(f"{head}; projection run(s) {part.run_ids} (choose one below)")
            else:
                st.error(f"{head}; stopped: {part.reason}")
            if part.banks_left_out:
                with lazy_section(
                    f"{part.banks_left_out} banks left out of {part.risk}, with the reason", key=f"left_{part.Index}"
                ) as open_:
                    if open_:
                        show_table(
                            ws.view(bank_views.left_out_banks, part.analysis_id, part.risk),
                            key=f"left_table_{part.Index}",
                            name=f"banks_left_out_{part.analysis_id}_{part.risk.replace(' ', '_')}",
                        )
    run_ids = ws.view(runs_views.bank_runs)
    if not run_ids:
        st.info(
            "No bank projections yet — the bank capital models run after an accepted macro scenario "
            "(`aieco analyze` or `aieco demo`)."
        )
    else:
        runs = ws.view(runs_views.runs_frame).set_index("run_id")
        labels = ws.view(runs_views.run_labels)
        # generation runs (the analysis's projections) before validation runs
        run_ids = sorted(run_ids, key=lambda r: runs.loc[r, "role"] != "generation")
        run_id = st.selectbox("Projection run", run_ids, format_func=lambda r: labels.get(r, r))
        st.caption(shared.provenance_badge(ws.view(shared.provenance_of_analysis, runs.loc[run_id, "analysis_id"])))
        # a model that takes no macro path (registry specification): its figures are no scenario outcome
        not_scenario = ws.view(runs_views.scenario_note, run_id)
        if not_scenario:
            st.warning(not_scenario)
        points = ws.view(runs_views.points_frame, run_id)
        banks = runs_views.entities(points)
        variables = runs_views.model_variables(points, with_entity=True)
        names = ws.view(runs_views.bank_labels_of_run, run_id)  # bank names; the LEI/id in the details
        vocabulary = ws.view(shared.variable_labels)
        vlabel = {v: bank_views.bank_variable_label(v, vocabulary) for v in variables}
        left, right = st.columns(2)
        bank = left.selectbox("Bank", banks, format_func=lambda b: names.get(b, b))
        variable = right.selectbox(
            "Variable",
            variables,
            index=variables.index("cet1_ratio") if "cet1_ratio" in variables else 0,
            format_func=lambda v: vlabel.get(v, v),
        )
        shown_as, bank_name = vlabel[variable], names.get(bank, bank)
        st.caption(f"Details: bank id (LEI) `{bank}` · variable `{variable}` · run `{run_id}`")
        caption = ws.view(runs_views.bank_run_caption, run_id)
        if runs_views.path_periods(points, variable, bank):
            show_figure(
                ws.view(runs_views.fan_chart_of_run, run_id, variable, entity=bank, title=f"{shown_as} — {bank_name}"),
                name=f"bank_{variable}_{bank}",
                key="bank_fan",
            )
        else:  # one figure per bank over the whole horizon: no path to draw
            st.markdown(f"**{shown_as} — {bank_name}**")
            figures = ws.view(runs_views.bank_figures, run_id, bank, variable)
            show_table(figures, key="bank_figures", name=f"bank_{variable}_{bank}")
        st.caption(caption)
        # The depletion distribution of every bank (start minus minimum CET1 ratio), when the run stored it.
        depletion = "cet1_depletion" if "cet1_depletion" in variables else variable
        show_figure(
            ws.view(runs_views.quantile_ranges_of_run, run_id, depletion),
            name=f"bank_{depletion}_distribution",
            key="bank_dist",
        )
        st.caption(caption)

        # Every bank's CET1 depletion against the stated threshold: the figures the report's bank paragraph cites.
        st.subheader("CET1 depletion across banks")
        across = ws.view(bank_views.depletion_across_banks, run_id)
        show_figure(bank_views.depletion_chart(across), name=f"bank_depletion_across_{run_id}", key="bank_across")
        st.caption(caption)
        if not across.empty:  # the chart above shows every bank; the table and its CSV open on demand
            with lazy_section(f"Table of the {len(across)} banks, with CSV", key="bank_across_section") as open_:
                if open_:
                    show_table(
                        bank_views.depletion_table(across),
                        key="bank_across_table",
                        name=f"cet1_depletion_across_banks_{run_id}",
                    )

        # The same model, bank and variable under every risk of the analysis, side by side.
        same = [
            r
            for r in run_ids
            if runs.loc[r, "model_id"] == runs.loc[run_id, "model_id"]
            and runs.loc[r, "analysis_id"] == runs.loc[run_id, "analysis_id"]
            and runs.loc[r, "role"] == "generation"
        ]
        if len(same) > 1:  # on demand: each chart costs the browser about as much as a small page
            with lazy_section(
                f"Risks side by side — {shown_as}, {bank_name}, under {len(same)} risks", key="bank_side_by_side"
            ) as open_:
                for col, r in zip(st.columns(len(same)) if open_ else [], same, strict=False):
                    with col:
                        title = f"{(runs.loc[r, 'risk'] or '').replace('_', ' ')}: {shown_as} — {bank_name}"
                        show_figure(
                            ws.view(runs_views.fan_chart_of_run, r, variable, entity=bank, title=title),
                            name=f"bank_{variable}_{bank}_{runs.loc[r, 'risk']}",
                            key=f"bank_side_{r}",
                        )
                        st.caption(ws.view(runs_views.bank_run_caption, r))

    st.subheader("External validation")
    designs = ws.view(bank_views.scenario_gate_designs)
    if not designs.empty:
        st.markdown(
            "**Scenario-conditional real-bank model**: MAE of CET1 depletion (pp) against three benchmarks "
            "(no change, the training mean, and the training mean per unit of GDP severity scaled to the target's "
            "severity), out of exercise and over every fold seed of the bank-clustered CV"
        )
        show_table(designs, key="scenario_designs", name="bank_eba_scenario_designs")
    gates = ws.view(runs_views.validation_frame)
    if gates.empty:
        st.info("No validation gate recorded yet: bank conclusions are shown only for models that pass it.")
    else:
        # one box for the passed gates and one for the failed ones (one element each, not one per model)
        verdict = gates.groupby("model_id", sort=False)["gate_passed"].first().astype(bool)
        if verdict.any():
            st.success(
                "\n".join(
                    f"- {shared.model_name(m)}: gate passed — may supply bank conclusions"
                    for m in verdict.index[verdict]
                )
            )
        if not verdict.all():
            st.error(
                "\n".join(
                    f"- {shared.model_name(m)}: gate failed — bank conclusions withheld"
                    for m in verdict.index[~verdict]
                )
            )
        details = ["model_id", "detail", "run_id"]  # ids last, beside the model's name
        shown = gates.assign(model=gates["model_id"].map(shared.model_name))
        # the verdicts above stay on the page; the metric table opens on demand (a data table costs
        # the browser about as much as a small page)
        label = f"Gate metrics of {gates['model_id'].nunique()} models against their thresholds"
        with lazy_section(label, key="bank_gates") as open_:
            if open_:
                show_table(
                    shown[["model", *[c for c in gates.columns if c not in details], *details]],
                    key="gates",
                    name="validation_gates",
                )
