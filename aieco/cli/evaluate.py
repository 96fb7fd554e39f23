"""`aieco evaluate`: score the workspace's graph and paths against a benchmark."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import pandas as pd

from aieco.cli.base import CliState, common, emit, main, pass_state


def _fmt(df: pd.DataFrame) -> str:
    return df.to_string(float_format=lambda v: f"{v:.3f}", na_rep="—")


def _retrieval_lines(table: pd.DataFrame) -> list[str]:
    measures = [c for c in table.columns if c not in ("condition", "risk", "accepted_as_agent_result")]
    recorded = table.dropna(subset=measures, how="all")
    missing = sorted(set(table["condition"]) - set(recorded["condition"]))
    lines = ["Retrieval conditions (columns: condition, risk):"]
    lines.append(_fmt(recorded.set_index(["condition", "risk"]).T) if len(recorded) else "  (no recorded paths)")
    if missing:
        lines.append(f"  no recorded paths under: {', '.join(missing)} (direct numbers are never accepted)")
    return lines


@main.command()
@click.option("--benchmark", "benchmark", type=click.Path(path_type=Path), default=None,
              help="Benchmark TOML (default: the demo's aieco/demo/benchmark.toml).")
@click.option("--condition", default="G0", show_default=True, help="Graph condition evaluated.")
@click.option("--orderings", default=50_000, show_default=True, help="Random source orderings.")
@click.option("--seed", type=int, default=None, help="Seed of the orderings (default: settings).")
@click.option("--workers", default=2, show_default=True, help="Processes for the orderings.")
@common
@pass_state
def evaluate(state: CliState, benchmark: Path | None, condition: str, orderings: int, seed: int | None,
             workers: int) -> None:
    """Benchmark measures per risk and condition, source contribution and agreement."""
    from tqdm import tqdm

    from aieco.evaluation.run import evaluate as run_evaluation

    with state.store(create=False) as store, tqdm(total=0, unit="block", desc="orderings",
                                                  disable=state.json, file=sys.stderr) as bar:
        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.n = done
            bar.refresh()

        res = run_evaluation(store, benchmark, condition=condition, n_orderings=orderings, seed=seed,
                             workers=workers, progress=progress)
    tables = res.tables()
    data = {
        "evaluation_id": res.record.evaluation_id,
        "registration_id": res.registration.evaluation_id,
        "benchmark": res.benchmark.name,
        "digests": {k: getattr(res.record, k) for k in ("benchmark_digest", "graph_digest", "manifest_digest",
                                                         "config_digest", "result_digest")},
        # NaN (not computed / not applicable) becomes null in JSON.
        "tables": {name: df.astype(object).where(df.notna(), None).to_dict(orient="records")
                   for name, df in tables.items()},
    }

    def human(_: dict) -> str:
        risks = tables["risks"].set_index("risk")
        out = [f"evaluation {res.record.evaluation_id} — benchmark {res.benchmark.name}, graph {condition}",
               "", "Measures per initiating risk (mean: descriptive average over risks):", _fmt(risks.T), "",
               "Per channel:", _fmt(tables["channels"].set_index("channel").drop(columns="risk").T), "",
               "Graph construction conditions (columns: condition, risk):",
               _fmt(tables["graph_conditions"].set_index(["condition", "risk"]).T), "",
               *_retrieval_lines(tables["retrieval_conditions"])]
        if "contribution" in tables:
            c = tables["contribution"]
            c = c[c.risk == "mean"]
            c = c.assign(document=c["title"].str.slice(0, 40) + " (" + c["document"].str.slice(-6) + ")")
            c = c.pivot(index="document", columns="measure", values=["leave_one_out", "average_marginal"])
            out += ["", f"Source contribution (mean over risks; {res.contribution.n_orderings} orderings, "
                        f"seed {res.contribution.seed}):", _fmt(c)]
        out += ["", "Agreement across repetitions:", _fmt(tables["agreement"].T)]
        out += ["", *[f"note: {n}" for n in res.notes]]
        return "\n".join(out)

    emit(state, data, human)
