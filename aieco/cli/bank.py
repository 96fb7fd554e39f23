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
    return [
        {
            "gate_id": g.gate_id,
            "model_id": g.model_id,
            "run_id": g.run_id,
            "passed": g.passed,
            "detail": g.detail,
            "metrics": g.metrics,
            "thresholds": g.thresholds,
            "fit_provenance": g.fit_provenance.value if g.fit_provenance else "undeclared",
            "validation_provenance": g.validation_provenance.value if g.validation_provenance else "undeclared",
        }
        for g in gates
    ]


@bank.command("run")
@click.option("--macro-run", "macro_run", help="Run id of a macro_var run holding the selected annual path.")
@click.option(
    "--annual",
    "annual_csv",
    type=click.Path(exists=True, path_type=Path),
    help="CSV of an annual path: column year plus real_gdp, inflation, unemployment, long_term_rate, "
    "equity_prices, house_prices.",
)
@click.option("--risk", default=None, help="Risk whose selected path to use (macro run with several risks).")
@click.option("--analysis", "analysis_id", default="bank-demo", show_default=True)
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--paths", default=None, type=int, help="Paths per bank (default settings.bank.projection_paths).")
@common
@pass_state
def bank_run(
    state: CliState,
    macro_run: str | None,
    annual_csv: Path | None,
    risk: str | None,
    analysis_id: str,
    seed: int,
    paths: int | None,
) -> None:
    """Fit FE-OLS and FE-QAR on the demo panel and project CET1 under a selected macro path."""
    from aieco.models.bank.spec import run_bank_models

    if bool(macro_run) == bool(annual_csv):
        raise InputError(
            "give exactly one of --macro-run and --annual",
            where="aieco bank run",
            fix="select the macro scenario to project under",
        )
    from tqdm import tqdm

    source: str | pd.DataFrame = macro_run or pd.read_csv(annual_csv).set_index("year")
    with state.store() as store, tqdm(total=2, desc="bank models", unit="model", file=sys.stderr) as bar:
        runs = run_bank_models(
            store,
            analysis_id,
            source,
            seed,
            paths,
            risk=risk,
            progress=lambda msg: (bar.set_postfix_str(msg), bar.update(1)),
        )
    data = {
        "runs": [
            {"run_id": r.run_id, "model_id": r.model_id, "status": r.status.value, "reason": r.reason} for r in runs
        ]
    }
    emit(state, data, "\n".join(f"{r['model_id']:<16} {r['status']:<10} {r['run_id']}" for r in data["runs"]))


@bank.command("validate")
@click.option(
    "--eba",
    "eba_csv",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="EBA stress-test CSV with its data dictionary beside it (repeatable). Default: the real 2016 and "
    "2021 EBA extracts shipped with aieco.",
)
@click.option("--encoding", default=None, help="Text encoding of the --eba CSV (default: detected).")
@click.option(
    "--workspace-exercise",
    "demo",
    is_flag=True,
    help="Validate FE-OLS and FE-QAR on the workspace's official-style exercise instead (the demo's is synthetic).",
)
@click.option("--analysis", "analysis_id", default="bank-validation", show_default=True)
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("--paths", default=None, type=int, help="Paths per bank for the demo validation.")
@click.option("--reps", default=None, type=int, help="Country-cluster bootstrap replications.")
@common
@pass_state
def bank_validate(
    state: CliState,
    eba_csv: tuple[Path, ...],
    encoding: str | None,
    demo: bool,
    analysis_id: str,
    seed: int,
    paths: int | None,
    reps: int | None,
) -> None:
    """Accounting check and validation gates on real EBA stress tests (or the workspace's own exercise)."""
    if demo and eba_csv:
        raise InputError("give --workspace-exercise or --eba, not both", where="aieco bank validate")
    if demo:
        from aieco.asof import AsOf
        from aieco.models.bank.spec import run_bank_validation, single_provenance, validation_scenario
        from aieco.models.bank.workspace import read_bank_inputs, read_validation_inputs

        with state.store() as store:
            exercise = read_validation_inputs(store, AsOf(cutoff=None))
            if exercise is None:
                raise InputError(
                    "the workspace holds no official-style adverse exercise (official_* and adverse_* ObservedValues)",
                    where=str(store.path),
                    fix="build the demo workspace (aieco demo), or validate on the real EBA exercises "
                    "(aieco bank validate without --workspace-exercise)",
                )
            data = read_bank_inputs(store, AsOf(cutoff=None))
            prov = (single_provenance(data.provenance), single_provenance(exercise.provenance))
            _, gates = run_bank_validation(
                store,
                analysis_id,
                exercise.official,
                validation_scenario(exercise, data.history),
                seed,
                paths,
                bootstrap_reps=reps,
                panel=data.panel,
                macro_history=data.history,
                provenance=prov,
            )
        rows = _gate_rows(gates)
        label = "/".join(sorted({p.value if p else "undeclared" for p in prov}))
        warn = (
            "SYNTHETIC banks — these gates never authorise a conclusion about a real bank\n"
            if "synthetic" in label
            else ""
        )
        emit(state, {"provenance": label, "gates": rows}, warn + _gate_text(rows))
        return
    from aieco.models.bank.eba_validation import accounting_rows, validate_eba_exercises

    with state.store() as store:
        result = validate_eba_exercises(store, list(eba_csv) or None, seed=seed, reps=reps, encoding=encoding)
    rows = _gate_rows(result.gates)
    acc = accounting_rows(result.accounting)
    data = {
        "provenance": "real",
        "exercises": [
            {
                "name": e.name,
                "file": e.file,
                "encoding": e.encoding,
                "release_date": e.release_date,
                "start_year": e.start_year,
                "banks": len(e.outcomes),
            }
            for e in result.exercises
        ],
        "accounting": acc,
        "gates": rows,
        "scenario_model": _scenario_summary(rows) or {"skipped": result.scenario_skipped},
    }
    lines = [
        "Real EBA stress tests: "
        + "; ".join(f"{e['name']} ({e['file']}, {e['banks']} banks, {e['encoding']})" for e in data["exercises"]),
        "",
        "CET1 accounting recursion vs official ratio paths (end of horizon, pp)",
        f"{'exercise':<8} {'scenario':<9} {'step':<14} {'banks':>5} {'MAE':>6} {'MAE path':>8} {'max':>6}  worst bank",
    ]
    lines += [
        f"{r['exercise']:<8} {r['scenario']:<9} {r['step']:<14} {r['n_banks']:>5} {r['mae_end']:>6.3f} "
        f"{r['mae_path']:>8.3f} {r['max_abs_end']:>6.2f}  {r['worst_bank_name']} ({r['worst_error']:+.2f})"
        for r in acc
    ]
    lines += ["", "Model validation gates (CET1 depletion under the official adverse scenario)", _gate_text(rows)]
    if result.scenario_skipped:
        lines.append(result.scenario_skipped)
    emit(state, data, "\n".join(lines))


def _scenario_summary(rows: list[dict]) -> dict | None:
    """The scenario-conditional model's verdict: overall gate, then each design with its three benchmarks."""
    from aieco.models.bank.eba_scenario import BENCHMARKS, MODEL_ID

    overall = next((r for r in rows if r["model_id"] == MODEL_ID), None)
    if overall is None:
        return None
    designs = [
        {
            "design": r["model_id"].partition(":")[2],
            "passed": r["passed"],
            "mae": r["metrics"]["mae"],
            "spearman": r["metrics"]["spearman"],
            "coverage": r["metrics"]["coverage"],
            "benchmarks": {b: r["metrics"][f"{b}_mae"] for b in BENCHMARKS},
        }
        for r in rows
        if r["model_id"].startswith(MODEL_ID + ":")
    ]
    return {
        "model_id": MODEL_ID,
        "passed": overall["passed"],
        "detail": overall["detail"],
        "cv_seeds_passed": overall["metrics"]["cv_seeds_passed"],
        "cv_seeds": overall["metrics"]["cv_seeds"],
        "cv_stable": bool(overall["metrics"]["cv_stable"]),
        "designs": designs,
    }


def _gate_text(rows: list[dict]) -> str:
    return "\n".join(
        f"{r['model_id']:<40} {'PASS' if r['passed'] else 'FAIL'}  ({r['detail']})"
        if "mae" not in r["metrics"]
        else f"{r['model_id']:<40} {'PASS' if r['passed'] else 'FAIL'}  MAE {r['metrics']['mae']:.2f} pp  "
        f"RMSE {r['metrics']['rmse']:.2f}  Spearman {r['metrics']['spearman']:.2f}  "
        f"top-quartile recall {r['metrics']['top_quartile_recall']:.2f}  coverage {r['metrics']['coverage']:.2f}  "
        f"[fit {r['fit_provenance']}, validation {r['validation_provenance']}]  ({r['detail']})"
        for r in rows
    )


@bank.command("import")
@click.option(
    "--eba",
    "eba_csv",
    multiple=True,
    type=click.Path(exists=True, path_type=Path),
    help="EBA stress-test CSV with its data dictionary beside it (repeatable). Default: the real 2016 and "
    "2021 EBA extracts shipped with aieco.",
)
@click.option("--encoding", default=None, help="Text encoding of the --eba CSV (default: detected).")
@common
@pass_state
def bank_import(state: CliState, eba_csv: tuple[Path, ...], encoding: str | None) -> None:
    """Store real EBA bank values in the workspace (ObservedValue per bank, item, year and scenario)."""
    from aieco.models.bank.eba_application import bank_observations, import_eba_exercises

    with state.store() as store:
        written = import_eba_exercises(store, list(eba_csv) or None, encoding=encoding)
        obs = bank_observations(store)
    data = {
        "written": written,
        "observations": len(obs),
        "banks": int(obs["bank_id"].nunique()),
        "exercises": sorted(obs["exercise"].unique().tolist()),
        "provenance": "real",
    }
    emit(
        state,
        data,
        f"{written} new real bank values; the workspace holds {data['observations']} for "
        f"{data['banks']} banks ({', '.join(data['exercises'])})",
    )
