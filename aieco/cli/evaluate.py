"""`aieco evaluate`: score the workspace's graph and paths against a benchmark."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import pandas as pd

from aieco.cli.base import CliState, common, emit, main, pass_state


def _fmt(df: pd.DataFrame) -> str:
    return df.to_string(float_format=lambda v: f"{v:.3f}", na_rep="—")


def _retrieval_lines(table: pd.DataFrame, inputs: pd.DataFrame) -> list[str]:
    measures = [c for c in table.columns if c not in ("condition", "risk", "accepted_as_agent_result")]
    recorded = table.dropna(subset=measures, how="all")
    lines = [
        "Retrieval conditions under the same byte budget (columns: condition, risk; "
        "selected-path measures need an analysis run under the condition):"
    ]
    lines.append(_fmt(recorded.set_index(["condition", "risk"]).T) if len(recorded) else "  (no candidate paths)")
    if len(inputs):
        lines += [
            "",
            "Retrieval inputs (passages and paths serialised under each condition's share of the budget):",
            _fmt(inputs.drop(columns="reason").set_index(["condition", "risk"]).T),
        ]
        for r in inputs[inputs["reason"] != ""].itertuples():
            lines.append(f"  {r.condition} / {r.risk}: {r.status}: {r.reason}")
    return lines


@main.command()
@click.option(
    "--benchmark",
    "benchmark",
    type=click.Path(path_type=Path),
    default=None,
    help="Benchmark TOML (default: the demo's aieco/demo/benchmark.toml).",
)
@click.option("--condition", default="G0", show_default=True, help="Graph condition evaluated.")
@click.option(
    "--conditions",
    default="G0,G1,G2",
    show_default=True,
    help="Graph conditions compared on the same eligible passages (missing ones are built; "
    "G3–G5 are listed as specified configurations).",
)
@click.option(
    "--direct-backend",
    type=click.Choice(["offline", "openai", "replay"]),
    default="offline",
    show_default=True,
    help="Backend of the Direct comparator (offline: recorded as not applicable).",
)
@click.option("--orderings", default=50_000, show_default=True, help="Random source orderings.")
@click.option("--seed", type=int, default=None, help="Seed of the orderings (default: settings).")
@click.option("--workers", default=2, show_default=True, help="Processes for the orderings.")
@common
@pass_state
def evaluate(
    state: CliState,
    benchmark: Path | None,
    condition: str,
    conditions: str,
    direct_backend: str,
    orderings: int,
    seed: int | None,
    workers: int,
) -> None:
    """Benchmark measures per risk and condition, source contribution and agreement."""
    from tqdm import tqdm

    from aieco.evaluation.run import evaluate as run_evaluation

    with (
        state.store(create=False) as store,
        tqdm(total=0, unit="block", desc="orderings", disable=state.json, file=sys.stderr) as bar,
    ):

        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()

        names = [c.strip() for c in conditions.split(",") if c.strip()]
        res = run_evaluation(
            store,
            benchmark,
            condition=condition,
            conditions=names,
            direct_backend=direct_backend,
            n_orderings=orderings,
            seed=seed,
            workers=workers,
            progress=progress,
        )
    tables = res.tables()
    data = {
        "evaluation_id": res.record.evaluation_id,
        "registration_id": res.registration.evaluation_id,
        "benchmark": res.benchmark.name,
        "digests": {
            k: getattr(res.record, k)
            for k in ("benchmark_digest", "graph_digest", "manifest_digest", "config_digest", "result_digest")
        },
        # NaN (not computed / not applicable) becomes null in JSON.
        "tables": {
            name: df.astype(object).where(df.notna(), None).to_dict(orient="records") for name, df in tables.items()
        },
    }

    def human(_: dict) -> str:
        risks = tables["risks"].set_index("risk")
        out = [
            f"evaluation {res.record.evaluation_id} — benchmark {res.benchmark.name}, graph {condition}",
            "",
            "Measures per initiating risk (mean: descriptive average over risks):",
            _fmt(risks.T),
            "",
            "Per channel:",
            _fmt(tables["channels"].set_index("channel").drop(columns="risk").T),
            "",
            "Graph construction conditions (columns: condition, risk):",
            _fmt(tables["graph_conditions"].set_index(["condition", "risk"]).T),
            "",
            "Graph condition inputs and workload (same eligible passages; G3–G5 specified, not run):",
            _fmt(tables["graph_inputs"].drop(columns=["description", "passages_digest"]).set_index("condition").T),
            "",
            *_retrieval_lines(tables["retrieval_conditions"], tables["retrieval_inputs"]),
        ]
        if "direct_comparator" in tables:
            d = tables["direct_comparator"]
            out += [
                "",
                "Direct comparator (LLM only; never accepted as an agent result, never a model run):",
                _fmt(d.pivot_table(index=["risk", "variable"], columns="year", values="value"))
                if len(d)
                else "  (no values returned)",
            ]
        if "contribution" in tables:
            c = tables["contribution"]
            c = c[c.risk == "mean"]
            c = c.assign(document=c["title"].str.slice(0, 40) + " (" + c["document"].str.slice(-6) + ")")
            c = c.pivot(index="document", columns="measure", values=["leave_one_out", "average_marginal"])
            out += [
                "",
                f"Source contribution (mean over risks; {res.contribution.n_orderings} orderings, "
                f"seed {res.contribution.seed}):",
                _fmt(c),
            ]
        out += ["", "Agreement across repetitions:", _fmt(tables["agreement"].T)]
        out += ["", *[f"note: {n}" for n in res.notes]]
        return "\n".join(out)

    emit(state, data, human)
