"""`aieco bench var`: VAR(2) estimation, 20,000 bootstrap trajectories, annual paths, selection.

On the real euro-area dataset (``../shared/data/macro`` assembled at the 2024-12-31 cutoff,
approximate vintage policy) when the shared data folder is present, else on the synthetic
demo data — the figure names say which. The references are statsmodels' ``VAR.fit`` on
the same sample and ``VARResults.simulate_var`` called once per trajectory; the latter is
measured on a subset of trajectories (500, or 50 with --quick) and extrapolated linearly
to the full number, which the figure's name says.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
from statsmodels.tsa.api import VAR

from aieco.benchmarks import Figure, measure
from aieco.config import get_settings
from aieco.demo.macro import load_demo_observations
from aieco.errors import StageStopped
from aieco.models.macro import PANDEMIC_TREATMENT, RAGGED_EDGE, unconditional_severity_features
from aieco.models.realdata import build_real_dataset, model_levels
from aieco.models.var import VARIABLES, annual_paths, fit_var, last_observed_annual, range_failures, simulate
from aieco.models.vintages import quarterly_levels, select_as_of
from aieco.scenario import selection

#: Three risk programs of the demo, as restrictions on the six model variables.
RISKS = {
    "trade_fragmentation": [
        {"variable": "real_gdp", "direction": -1, "priority": 1},
        {"variable": "equity_prices", "direction": -1, "priority": 2},
        {"variable": "inflation", "direction": 1, "priority": 2},
        {"variable": "unemployment", "direction": 1, "priority": 2},
    ],
    "property_correction": [
        {"variable": "long_term_rate", "direction": 1, "priority": 1},
        {"variable": "house_prices", "direction": -1, "priority": 2},
        {"variable": "real_gdp", "direction": -1, "priority": 2},
        {"variable": "unemployment", "direction": 1, "priority": 2},
    ],
    "equity_correction": [
        {"variable": "equity_prices", "direction": -1, "priority": 1},
        {"variable": "real_gdp", "direction": -1, "priority": 3},
    ],
}


def run(quick: bool = False) -> list[Figure]:
    cfg = get_settings().scenario
    draws = 2_000 if quick else cfg.var_draws
    subset = 50 if quick else 500
    levels, label = benchmark_levels(cfg.cutoff)
    with measure() as memory:  # tracemalloc slows numpy: memory in one pass, time in another
        pipeline(levels, draws, cfg.seed)
    t0, c0 = time.perf_counter(), time.process_time()
    fit, sim, sim_seconds = pipeline(levels, draws, cfg.seed)
    total, total_cpu = time.perf_counter() - t0, time.process_time() - c0
    steps = len(sim.quarters) - int(sim.observed.sum())
    t0 = time.perf_counter()
    fit_var(levels, pandemic=PANDEMIC_TREATMENT, ragged_edge=RAGGED_EDGE)
    own_fit = time.perf_counter() - t0
    t0 = time.perf_counter()
    results = VAR(fit.data).fit(fit.lags, trend="c")
    peer_fit = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(subset):
        results.simulate_var(steps=steps, initial_values=fit.data[-fit.lags :], rng=np.random.RandomState(i))
    per_trajectory = (time.perf_counter() - t0) / subset
    reference = per_trajectory * draws
    return [
        Figure(
            name=f"var_{label}_estimate_simulate_{draws}_aggregate_select_3_risks", value=total, unit="s", target=1.0
        ),
        Figure(
            name=f"var_{label}_estimate_simulate_{draws}_aggregate_select_3_risks_cpu_time",
            value=total_cpu,
            unit="CPU-s",
            target=1.0,
        ),
        Figure(name=f"var_{label}_estimate_ols_with_pandemic_dummies", value=own_fit, unit="s"),
        Figure(name=f"statsmodels_var_fit_{label}_same_sample", value=peer_fit, unit="s"),
        Figure(name=f"var_simulate_{draws}_trajectories_vectorised", value=sim_seconds, unit="s"),
        Figure(
            name=f"statsmodels_simulate_var_per_trajectory_{subset}_measured_extrapolated_to_{draws}",
            value=reference,
            unit="s",
        ),
        Figure(
            name="speedup_vectorised_vs_statsmodels_simulate_var_loop",
            value=reference / sim_seconds,
            unit="x",
            better="higher",
        ),
        Figure(name="peak_python_memory_var_pipeline", value=memory["peak_mib"], unit="MiB"),
    ]


def shared_data_dir() -> Path:
    """``$AIECO_SHARED_DATA`` or ``../shared/data`` beside the repository."""
    return Path(os.environ.get("AIECO_SHARED_DATA") or Path(__file__).resolve().parents[2] / ".." / "shared" / "data")


def benchmark_levels(cutoff) -> tuple[pd.DataFrame, str]:
    """Real levels at the cutoff when the shared data are present, else the synthetic demo's."""
    shared = shared_data_dir()
    if (shared / "macro").is_dir():
        return model_levels(build_real_dataset(shared), cutoff, VARIABLES, "approximate").levels, "real"
    eligible = select_as_of(load_demo_observations(), cutoff, required=VARIABLES)
    return quarterly_levels(eligible, VARIABLES), "synthetic_demo"


def pipeline(levels, draws: int, seed: int):
    """Estimation, simulation, annual aggregation, range checks, selection for three risks, comparator."""
    fit = fit_var(levels, pandemic=PANDEMIC_TREATMENT, ragged_edge=RAGGED_EDGE)
    t0 = time.perf_counter()
    sim = simulate(fit, draws=draws, seed=seed)
    sim_seconds = time.perf_counter() - t0
    annual = annual_paths(sim)
    ok, _ = range_failures(annual)
    _, last = last_observed_annual(levels)
    taken: dict[int, dict[str, str]] = {}
    for risk, rs in RISKS.items():
        try:
            chosen = selection.select_for_risk(risk, annual, VARIABLES, rs, last, ok, taken=taken)
            taken[chosen.simulation_id] = {"risk": risk, "signature": selection.restriction_signature(rs)}
        except StageStopped:
            pass  # an empty admissible set is a result; the work was done
    cfg = get_settings().scenario
    features = unconditional_severity_features(sim, annual, cfg.horizon_start, cfg.horizon_end)
    selection.unconditional_comparator(features, seed=seed)
    return fit, sim, sim_seconds
