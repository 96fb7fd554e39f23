"""Evaluation: benchmark measures per risk, graph and retrieval conditions, source contribution, agreement.

The page shows stored evaluation records (``aieco evaluate``) and runs a new one; every
number comes from the evaluation's stored result tables, nothing is recomputed here.
"""

import math

import pandas as pd
import streamlit as st

from aieco.config import get_settings
from aieco.evaluation.run import evaluate
from aieco.store import Store
from dashboard import evaluation_views, graph_views, scenario_views
from dashboard.shell import inside_app
from dashboard.state import get_state
from dashboard.tables import show_figure, show_table
from dashboard.workspace import page_workspace, shown_errors

inside_app()  # a deep link started this file on its own: run the whole app instead

state = get_state()

st.header("Evaluation")
st.caption(
    "Benchmark mechanisms scored against the channel graph and the selected paths (paper §5.2–5.3): "
    "coverage and ordered recall per initiating risk, graph and retrieval conditions, source "
    "contribution and agreement across repetitions."
)


@st.cache_data(show_spinner=False, max_entries=64)
def evaluation_view(name: str, workspace: str, workspace_digest: str, args: tuple, _store: Store):
    # Same rule as Workspace.view, for dashboard.evaluation_views: workspace and its digest are the cache key.
    return getattr(evaluation_views, name)(_store, *args)


SHARE = st.column_config.ProgressColumn(min_value=0.0, max_value=1.0, format="%.3f")
NUMBER = st.column_config.NumberColumn(format="%.3f")


def measure_columns(frame: pd.DataFrame, config=NUMBER) -> dict:
    """Three-decimal display of every float column (NaN stays blank: not computed / not applicable)."""
    return {c: config for c in frame.columns if pd.api.types.is_float_dtype(frame[c])}


def statistic(value) -> str:
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{float(value):.3f}"


with page_workspace() as ws:
    settings = get_settings()

    def view(fn, *args):
        return evaluation_view(fn.__name__, str(ws.path), ws.digest, tuple(args), _store=ws.store)

    conditions = ws.view(graph_views.graph_conditions)
    with st.expander("Run evaluation", expanded=False, icon=":material/play_arrow:"):
        if not conditions:
            st.info("No channel graph to evaluate — build one first (`aieco graph build` or `aieco demo`).")
        else:
            a, b, c = st.columns(3)
            condition = a.selectbox(
                "Graph condition", conditions, index=conditions.index("G0") if "G0" in conditions else 0
            )
            orderings = b.number_input(
                "Source orderings",
                min_value=100,
                max_value=1_000_000,
                value=50_000,
                step=10_000,
                help="Random orderings for the average marginal contributions.",
            )
            seed = c.number_input("Seed", min_value=0, value=int(settings.scenario.seed), step=1)
            benchmark = st.text_input(
                "Benchmark file",
                placeholder="blank: the demo's aieco/demo/benchmark.toml",
                help="A benchmark TOML on the server; it is validated before scoring.",
            )
            if st.button("Run evaluation", icon=":material/query_stats:", type="primary"):
                before = set(view(evaluation_views.evaluation_records)["evaluation_id"])
                bar = st.progress(0.0, text="registering the evaluation")

                def progress(done: int, total: int) -> None:
                    bar.progress(done / max(total, 1), text=f"source orderings: block {done} of {total}")

                with shown_errors():
                    # One process: forking the multi-threaded Streamlit server is unsafe, and the
                    # blocks are identical for any number of workers (contribution.py).
                    res = evaluate(
                        ws.store,
                        benchmark.strip() or None,
                        condition=condition,
                        n_orderings=int(orderings),
                        seed=int(seed),
                        workers=1,
                        progress=progress,
                    )
                    bar.progress(1.0, text="scored")
                    new = res.record.evaluation_id
                    if new in before:
                        st.info(
                            f"Evaluation `{new}` has the same benchmark, graph, manifest, configuration and "
                            "result as an earlier one; its record is unchanged."
                        )
                    else:
                        st.success(f"Evaluation `{new}` scored and recorded.")
                ws.refresh()  # a stopped evaluation is recorded too

    rules = ws.view(scenario_views.rule_table, state.analysis_id)
    if not rules.empty:
        st.subheader("Scenario rules side by side")
        st.caption(
            "Each completed macro run of the selected analysis, under both rules on the same simulation set: the "
            "calibrated conditional forecast at the target severity (aieco's default, the same for every seed and "
            "draw count) and the paper's single most severe admissible draw (Eq. scenarioset), which moves with "
            "the seed (`aieco bench scenarios` measures both). Deviations are levels against the baseline at the "
            "horizon's last quarter."
        )
        show_table(rules, key="evaluation_rules", name="scenario_rules")

    backtests = view(evaluation_views.backtest_summaries)
    if not backtests.empty:
        st.subheader("Track record: the baseline at historical cutoffs")
        st.caption(
            "`aieco backtest`: at each cutoff the model's unconditional baseline (its point forecast) is rebuilt "
            "from what was released by then and scored against the outcome as later published, beside a "
            "random walk, the sample mean and official forecasts published before the cutoff. "
            "`macro_var` scores completed cutoffs only; `macro_var_unchecked` also those whose baseline the "
            "plausibility check stopped. Error = forecast − outcome (pp)."
        )
        labels = {
            r["run_id"]: f"{r['first']} … {r['last']} · {r['cutoffs']} cutoffs · {r['completed']} completed, "
            f"{r['stopped']} stopped · {r['run_id']}"
            for _, r in backtests.iterrows()
        }
        run_id = st.selectbox("Backtest", list(labels), format_func=labels.get)
        bt = view(evaluation_views.backtest_tables, run_id)
        chosen = backtests[backtests["run_id"] == run_id].iloc[0]
        st.caption(f"Outcomes: latest vintage {chosen['outcome_vintage']}. {chosen['official']}")
        if bt["scores"].empty:
            st.warning("No forecast of this backtest has an outcome yet: nothing to score.")
        else:
            show_figure(evaluation_views.backtest_rmse_figure(bt["scores"]), name="backtest_figure_1", key="bt_rmse")
            show_table(bt["scores"], name="backtest_1", column_config=measure_columns(bt["scores"]), key="bt_scores")
            a, b = st.columns(2)
            variable = a.selectbox("Variable", sorted(set(bt["errors"]["variable"])), key="bt_variable")
            horizon = b.selectbox("Years ahead", sorted(set(bt["errors"]["horizon"])), key="bt_horizon")
            show_figure(
                evaluation_views.backtest_path_figure(bt["errors"], variable, int(horizon)),
                name="backtest_figure_2",
                key="bt_paths",
            )
        stops = bt["cutoffs"][bt["cutoffs"]["status"] != "completed"]
        if not stops.empty:
            st.warning(f"{len(stops)} of {len(bt['cutoffs'])} cutoffs stopped; each stop and its reason:")
        show_table(bt["cutoffs"], name="backtest_2", key="bt_cutoffs")
        if "adverse" in bt:
            st.subheader("Each risk's adverse path at the cutoffs")
            st.caption(
                "`aieco backtest --adverse`: the request's analysis run at every cutoff, with the evidence, "
                "restrictions and official anchors of that date. An adverse path is not a forecast: the table "
                "gives how often the outcome went beyond it in the direction the scenario pushes (`beyond_share`), "
                "the scenario's push against the analysis's baseline (`mean_deviation`, pp) and what happened "
                "against that baseline (`mean_outcome_gap`, pp; where the baseline is anchored to the staff "
                "projection published by the cutoff, that projection's error)."
            )
            programs = evaluation_views.backtest_adverse_programs(bt["adverse"])
            done = programs[programs["run_id"].notna()]
            if done.empty:
                st.warning("No risk has an adverse path at any of these cutoffs; each stop and its reason:")
            else:
                c, d = st.columns(2)
                risk = c.selectbox("Risk", sorted(set(done["risk"])), key="bt_adverse_risk")
                scored = bt["adverse"].dropna(subset=["variable"])
                variable = d.selectbox("Variable", sorted(set(scored["variable"])), key="bt_adverse_variable")
                show_figure(
                    evaluation_views.backtest_adverse_figure(bt["adverse"], risk, variable),
                    name="backtest_figure_3",
                    key="bt_adverse",
                )
                if bt["adverse_scores"].empty:
                    st.info("No adverse path has an outcome yet: nothing to set against it.")
                else:
                    show_table(bt["adverse_scores"], name="backtest_3", key="bt_adverse_scores")
            stopped = programs[programs["run_id"].isna()]
            if not stopped.empty:
                st.warning(f"{len(stopped)} of {len(programs)} risk analyses stopped before a path; why:")
            show_table(programs, name="backtest_4", key="bt_adverse_programs")
        st.divider()

    records = view(evaluation_views.evaluation_records)
    if records.empty:
        st.info(
            "No evaluation yet — run `aieco evaluate` (or **Run evaluation** above) to score the "
            "workspace's graph and paths against a benchmark."
        )
        st.stop()

    labels = {
        r["evaluation_id"]: f"{str(r['created_at'])[:19]} · {r['graph_condition']} · {r['status']} · "
        f"{r['evaluation_id']}"
        for _, r in records.iterrows()
    }
    evaluation_id = st.selectbox("Evaluation", list(labels), format_func=labels.get)
    record = records[records["evaluation_id"] == evaluation_id].iloc[0]
    if record["status"] == "stopped":
        st.error(f"This evaluation stopped before scoring: {record['reason']}")
    with st.expander("Record: digests stored before scoring"):
        st.dataframe(record.astype(str).rename("value").to_frame(), width="stretch")
    tables = view(evaluation_views.evaluation_tables, evaluation_id)
    if not tables:
        st.stop()

    for note in tables["notes"]["note"]:
        st.warning(note)
    measures, conditions_tab, contribution_tab, agreement_tab = st.tabs(
        ["Measures per risk", "Conditions", "Source contribution", "Agreement"]
    )

    with measures:
        risks = tables["risks"]
        show_figure(evaluation_views.risk_measure_figure(risks), name="evaluation_figure_1", key="risk_measures")
        st.caption("Measures per initiating risk; *mean* is the descriptive average over risks.")
        per_risk = risks.set_index("risk").T.rename_axis("measure")
        show_table(
            per_risk,
            name="evaluation_1",
            hide_index=False,
            height=35 * (len(per_risk) + 1) + 3,  # every measure visible
            column_config=measure_columns(per_risk, SHARE),
            key="risks_table",
        )
        st.markdown("**Per benchmark channel**")
        channels = tables["channels"]
        show_table(channels, name="evaluation_2", column_config=measure_columns(channels), key="channels_table")

    with conditions_tab:
        st.markdown("**Graph construction conditions** (same eligible passages)")
        graphs = tables["graph_conditions"]
        show_table(graphs, name="evaluation_3", column_config=measure_columns(graphs), key="graph_conditions_table")
        st.markdown("**Retrieval conditions** (same byte budget)")
        retrieval = tables["retrieval_conditions"]
        scored = [c for c in retrieval.columns if c not in ("condition", "risk", "accepted_as_agent_result")]
        unrecorded = sorted(set(retrieval["condition"]) - set(retrieval.dropna(subset=scored, how="all")["condition"]))
        show_table(
            retrieval, name="evaluation_4", column_config=measure_columns(retrieval), key="retrieval_conditions_table"
        )
        if unrecorded:
            st.caption(
                f"No recorded paths under {', '.join(unrecorded)} (blank rows). Direct (LLM-only) answers "
                "are never accepted as an agent result."
            )

    with contribution_tab:
        contribution = tables.get("contribution")
        if contribution is None:
            st.info("No source contribution: the evaluated graph has no eligible relations.")
        else:
            st.caption(
                "Δ_s(M) = M(G) − M(G₋ₛ) (leave one out) and the average marginal contribution over "
                "random source orderings, per source document and measure."
            )
            scopes = ["mean", *[r for r in dict.fromkeys(contribution["risk"]) if r != "mean"]]
            scope = st.selectbox(
                "Initiating risk", scopes, format_func=lambda r: "mean over risks" if r == "mean" else r
            )
            chosen = contribution[contribution["risk"] == scope]
            figure = evaluation_views.contribution_figure(contribution, scope)
            figure.update_layout(height=260 * chosen["measure"].nunique() + 160)
            show_figure(figure, name="evaluation_figure_2", key="contribution_figure")
            shown = chosen.drop(columns="risk").sort_values(["measure", "average_marginal"], ascending=[True, False])
            show_table(shown, name="evaluation_5", column_config=measure_columns(shown), key="contribution_table")

    with agreement_tab:
        agreement = tables["agreement"].iloc[0]
        st.caption(
            "Path agreement over all pairs of repetitions (an unreached risk counts as disagreement) and "
            "conditional on completion; Jaccard similarity of warning subjects."
        )
        cols = st.columns(4)
        cols[0].metric(
            "repetitions",
            int(agreement["n_repetitions"]),
            f"{int(agreement['n_completed'])} completed",
            delta_color="off",
        )
        cols[1].metric(
            "path agreement",
            statistic(agreement["path_agreement"]),
            f"{int(agreement['n_pairs'])} pairs",
            delta_color="off",
        )
        cols[2].metric(
            "path agreement (completed)",
            statistic(agreement["path_agreement_completed"]),
            f"{int(agreement['n_completed_pairs'])} pairs",
            delta_color="off",
        )
        cols[3].metric(
            "warning Jaccard",
            statistic(agreement["warning_jaccard"]),
            f"completed: {statistic(agreement['warning_jaccard_completed'])}",
            delta_color="off",
        )
        if int(agreement["n_pairs"]) == 0:
            st.info("Agreement needs at least two repetitions: run the same request again (`aieco analyze`).")
        st.dataframe(
            tables["agreement"].T.rename(columns={0: "value"}).astype(str), width="stretch", key="agreement_table"
        )
