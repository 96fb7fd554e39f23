"""`aieco backtest REQUEST.toml --cutoffs START..END`: the baseline's track record at historical cutoffs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.errors import InputError

EXECUTOR_HELP = (
    "Where the work runs: local (this process), processes, dask (a LocalCluster on 127.0.0.1) or dask://host:port."
)


def executor_option(fn):
    """``--executor`` and ``--workers`` (shared by backtest, ingest and graph build)."""
    fn = click.option("--workers", type=click.IntRange(min=1), default=None, help="Workers for processes/dask.")(fn)
    return click.option("--executor", "executor", default=None, help=EXECUTOR_HELP + " Default: local.")(fn)


@main.command()
@click.argument("request_file", type=click.Path(path_type=Path, exists=True, dir_okay=False))
@click.option("--cutoffs", required=True, help="Cutoff range START..END, e.g. 2012-12-31..2023-12-31.")
@click.option("--every", type=click.Choice(["year", "quarter"]), default="year", show_default=True)
@click.option(
    "--draws", type=click.IntRange(min=100), default=None, help="Trajectories per cutoff (default: settings)."
)
@click.option(
    "--min-obs",
    "min_obs",
    type=click.IntRange(min=8),
    default=None,
    help="Least complete quarters for the VAR (default: settings, as an analysis); recorded on every run.",
)
@click.option(
    "--adverse",
    is_flag=True,
    default=False,
    help="Also run the request's analysis at every cutoff (in this process) and set each risk's adverse path, "
    "where that cutoff's evidence supports one, against the outcomes.",
)
@executor_option
@common
@pass_state
def backtest(
    state: CliState,
    request_file: Path,
    cutoffs: str,
    every: str,
    draws: int | None,
    min_obs: int | None,
    executor: str | None,
    workers: int | None,
    adverse: bool,
) -> None:
    """Score the model's unconditional baseline at each cutoff against later-published outcomes.

    Each cutoff sees only what was released by then (the request's vintage policy); errors of annual GDP
    growth, HICP inflation and unemployment 1-3 years ahead, with random-walk, sample-mean and official
    benchmarks. Stops are recorded with their reason. With --adverse, each cutoff is also analysed as the
    request would have been then (its evidence, restrictions and scenario), and each risk's adverse path, or
    its stop, is set against the outcomes: how often the outcome went beyond it.
    """
    from aieco.evaluation.backtest import BacktestConfig, cutoff_dates, official_from, run_backtest
    from aieco.executors import make_executor
    from aieco.models.macro import workspace_observations
    from aieco.records import digest
    from aieco.request import load_request
    from aieco.sources.series import observations_frame
    from aieco.sources.series.pack import pack_observations

    request = load_request(request_file)
    dates = cutoff_dates(cutoffs, every)
    cfg = BacktestConfig.from_settings(request.vintage_policy, request.seeds[0], draws=draws, min_obs=min_obs)
    officials, note = official_from(dates)
    with state.store() as store:
        observations = workspace_observations(store)
        if observations.empty:
            raise InputError(
                f"workspace {state.workspace} holds no observed series for the model",
                where="--workspace",
                fix="run `aieco data load-real` (or `aieco default`) in this workspace first",
            )
        outcomes = observations_frame(pack_observations())
        paths = None
        if adverse:
            from aieco.analysis.track_record import adverse_at_cutoffs

            paths = adverse_at_cutoffs(
                store,
                request,
                dates,
                progress=lambda done, total: print(f"\ranalyses {done}/{total}", end="", file=sys.stderr),
            )
            print("", file=sys.stderr)
        with make_executor(executor, workers) as ex:
            result = run_backtest(
                store,
                observations,
                outcomes,
                dates,
                cfg,
                executor=ex,
                officials=officials,
                official_note=note,
                request_digest=digest(request.model_dump(mode="json")),
                progress=lambda done, total: print(f"\rcutoffs {done}/{total}", end="", file=sys.stderr),
                adverse=paths,
            )
        print("", file=sys.stderr)
    emit(state, result.as_json() | {"executor": executor or "local"}, lambda r: human(r))


def human(r: dict) -> str:
    lines = [
        f"backtest {r['backtest_id']} (summary run {r['summary_run_id']}), outcomes: vintage {r['outcome_vintage']}"
    ]
    for c in r["cutoffs"]:
        tail = f"estimated to {c['estimation_end']}" if c["status"] == "completed" else f"{c['stage']}: {c['reason']}"
        lines.append(f"  {c['cutoff']}  {c['status']:<9} {tail}")
    lines.append(r["official"])
    lines.append(f"  {'method':<26} {'variable':<13} {'h':>2} {'n':>3} {'RMSE':>7} {'mean err':>9}")
    for s in r["scores"]:
        lines.append(
            f"  {s['method']:<26} {s['variable']:<13} {s['horizon']:>2} {s['n']:>3} "
            f"{s['rmse']:>7.2f} {s['mean_error']:>9.2f}"
        )
    if "adverse" in r:
        lines.append("each risk's adverse path at the cutoffs (the request's analysis at each cutoff):")
        for a in r["adverse"]:
            tail = f"analysis {a['analysis_id']}, run {a['run_id']}" if a["run_id"] else f"{a['stage']}: {a['reason']}"
            lines.append(f"  {a['cutoff']}  {a['risk']:<22} {a['status']:<9} {tail}")
        lines.append(
            f"  {'risk':<22} {'variable':<13} {'h':>2} {'n':>3} {'beyond':>7} {'adv-base':>9} {'outc-base':>10}"
        )
        for s in r["adverse_scores"]:
            lines.append(
                f"  {s['risk']:<22} {s['variable']:<13} {s['horizon']:>2} {s['n']:>3} {s['beyond_share']:>7.2f} "
                f"{s['mean_deviation']:>9.2f} {s['mean_outcome_gap']:>10.2f}"
            )
        if not r["adverse_scores"]:
            lines.append("  no adverse path has an outcome yet")
    return "\n".join(lines)
