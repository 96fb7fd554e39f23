"""`aieco bank …`: bank capital projections and external validation."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import pandas as pd

from aieco.cli.base import CliState, common, emit, main, pass_state
from aieco.errors import InputError


@main.group()
def bank() -> None:
    """Bank capital: FE-OLS / FE-QAR CET1 projections and external validation."""


def _gate_rows(gates) -> list[dict]:
    return [{"gate_id": g.gate_id, "model_id": g.model_id, "run_id": g.run_id, "passed": g.passed,
             "detail": g.detail, "metrics": g.metrics, "thresholds": g.thresholds} for g in gates]


@bank.command("run")
@click.option("--macro-run", "macro_run", help="Run id of a macro_var run holding the selected annual path.")
@click.option("--annual", "annual_csv", type=click.Path(exists=True, path_type=Path),
              help="CSV of an annual path: column year plus real_gdp, inflation, unemployment, long_term_rate, "
                   "equity_prices, house_prices.")
@click.option("--risk", default=None, help="Risk whose selected path to use (macro run with several risks).")
@click.option("--analysis", "analysis_id", default="bank-demo", show_default=True)
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--paths", default=None, type=int, help="Paths per bank (default settings.bank.projection_paths).")
@common
@pass_state
def bank_run(state: CliState, macro_run: str | None, annual_csv: Path | None, risk: str | None,
             analysis_id: str, seed: int, paths: int | None) -> None:
    """Fit FE-OLS and FE-QAR on the demo panel and project CET1 under a selected macro path."""
    from aieco.models.bank.spec import run_bank_models

    if bool(macro_run) == bool(annual_csv):
        raise InputError("give exactly one of --macro-run and --annual", where="aieco bank run",
                         fix="select the macro scenario to project under")
    from tqdm import tqdm

    source: str | pd.DataFrame = macro_run or pd.read_csv(annual_csv).set_index("year")
    with state.store() as store, tqdm(total=2, desc="bank models", unit="model", file=sys.stderr) as bar:
        runs = run_bank_models(store, analysis_id, source, seed, paths, risk=risk,
                               progress=lambda msg: (bar.set_postfix_str(msg), bar.update(1)))
    data = {"runs": [{"run_id": r.run_id, "model_id": r.model_id, "status": r.status.value, "reason": r.reason}
                     for r in runs]}
    emit(state, data, "\n".join(f"{r['model_id']:<16} {r['status']:<10} {r['run_id']}" for r in data["runs"]))


@bank.command("validate")
@click.option("--eba", "eba_csv", type=click.Path(exists=True, path_type=Path),
              help="EBA stress-test CSV (e.g. eba_2016_stress_test_TR_OTH.csv): validate simple comparators "
                   "against the official adverse depletion.")
@click.option("--analysis", "analysis_id", default="bank-validation", show_default=True)
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--paths", default=None, type=int, help="Paths per bank for the demo validation.")
@click.option("--reps", default=None, type=int, help="Country-cluster bootstrap replications.")
@common
@pass_state
def bank_validate(state: CliState, eba_csv: Path | None, analysis_id: str, seed: int, paths: int | None,
                  reps: int | None) -> None:
    """Store validation gates: the EBA comparators (--eba) or both models on the workspace's exercise."""
    from aieco.asof import AsOf
    from aieco.errors import InputError
    from aieco.models.bank.spec import run_bank_validation, run_eba_validation, validation_scenario
    from aieco.models.bank.workspace import read_bank_inputs, read_validation_inputs

    with state.store() as store:
        if eba_csv:
            gates = run_eba_validation(store, str(eba_csv), seed=seed, reps=reps)
        else:
            exercise = read_validation_inputs(store, AsOf(cutoff=None))
            if exercise is None:
                raise InputError("the workspace holds no official-style adverse exercise (official_* and adverse_* "
                                 "ObservedValues)", where=str(store.path),
                                 fix="build the demo workspace (aieco demo) or pass --eba with an EBA CSV")
            data = read_bank_inputs(store, AsOf(cutoff=None))
            _, gates = run_bank_validation(store, analysis_id, exercise.official,
                                           validation_scenario(exercise, data.history), seed, paths,
                                           bootstrap_reps=reps, panel=data.panel, macro_history=data.history)
    rows = _gate_rows(gates)
    emit(state, {"gates": rows}, "\n".join(
        f"{r['model_id']:<22} {'PASS' if r['passed'] else 'FAIL'}  MAE {r['metrics']['mae']:.2f} pp  "
        f"Spearman {r['metrics']['spearman']:.2f}  coverage {r['metrics']['coverage']:.2f}  ({r['detail']})"
        for r in rows))
