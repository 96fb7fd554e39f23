"""Bank models: FE-QAR joint fit (5 components × 19 quantiles, 40 banks × 16 half-years) and
the CET1 projection (25,000 paths × 40 banks × 6 half-years), each with its peer in the same run.

FE-QAR's peer is the joint primal LP solved by HiGHS (interior point + crossover), the
estimator shipped before the dual interior point (quick: one component). The projection's
peer is ``numpy_projection``: a plain numpy implementation with the same random streams, whose
ratio paths must equal the shipped projection's exactly. Peak memory is measured in
separate runs (tracemalloc's hooks would slow the timed ones).
"""

from __future__ import annotations

import resource
import time

import numpy as np
import pandas as pd

from aieco.benchmarks import Figure, measure
from aieco.config import get_settings
from aieco.demo import bank as demo
from aieco.models.bank.accounting import ComponentModel, project_cet1
from aieco.models.bank.feqar import fit_feqar, fit_feqar_lp
from aieco.models.bank.panel import COMPONENTS, build_panel, half_index, halfyear_macro, scenario_from_annual_path
from aieco.models.bank.spec import EA_MAPPING_NOTE

ANNUAL = pd.DataFrame(
    {
        "real_gdp": [-2.0, -0.5, 1.0],
        "inflation": [3.0, 2.5, 2.0],
        "unemployment": [7.5, 8.0, 7.8],
        "long_term_rate": [3.5, 3.8, 3.6],
        "equity_prices": [-25.0, -5.0, 5.0],
        "house_prices": [-6.0, -3.0, 0.0],
    },
    index=[2025, 2026, 2027],
)


def numpy_projection(
    models: dict[str, ComponentModel],
    start: pd.DataFrame,
    scenario: pd.DataFrame,
    *,
    paths: int,
    seed: int,
    crossing_counts: dict[str, int] | None = None,
) -> np.ndarray:
    """The peer: CET1 ratio paths (banks, paths, 1 + H) by a plain per-bank numpy loop, same RNG streams.

    Every bank of ``start`` is projected (the benchmark's banks all are); the crossing count is
    made on the first 1,000 paths as in the shipped projection (per component into
    ``crossing_counts`` when given: paths whose fitted quantiles are not increasing).
    """
    periods = sorted(set(scenario["period"]), key=half_index)
    macro_vars = list(next(iter(models.values())).macro_variables)
    seeds = np.random.SeedSequence(seed).spawn(len(start))
    H = len(periods)
    out = np.empty((len(start), paths, H + 1))
    crossings = dict.fromkeys(COMPONENTS, 0)
    for ib, (b, row) in enumerate(start.iterrows()):
        rng = np.random.default_rng(seeds[ib])
        x = (
            scenario[scenario["country"] == row["macro_country"]]
            .set_index("period")
            .loc[periods, macro_vars]
            .to_numpy(dtype=float)
        )
        capital = [np.full(paths, float(row["cet1_capital"]))]
        rwa = [np.full(paths, float(row["rwa"]))]
        lags = {c: np.full(paths, float(row[c])) for c in COMPONENTS}
        for h in range(H):
            ratio_lag = 100 * capital[h] / rwa[h]
            log_rwa_lag = np.log(rwa[h])
            for c in COMPONENTS:
                coef = models[c].coef
                base = float(models[c].fixed_effects.loc[b]) + coef[:, 0] + coef[:, 4:] @ x[h]
                m = min(paths, 1000)  # the crossing count the shipped projection also makes
                q = (
                    base
                    + np.multiply.outer(lags[c][:m], coef[:, 1])
                    + np.multiply.outer(ratio_lag[:m], coef[:, 2])
                    + np.multiply.outer(log_rwa_lag[:m], coef[:, 3])
                )
                crossings[c] += int((q[:, 1:] < q[:, :-1]).any(axis=1).sum())
                k = rng.integers(0, coef.shape[0], size=paths)
                lags[c] = base[k] + coef[k, 1] * lags[c] + coef[k, 2] * ratio_lag + coef[k, 3] * log_rwa_lag
            net = lags["n"] - lags["l"] - lags["o"] + lags["a"]
            capital.append(capital[h] + net / 100 * rwa[h])
            rwa.append(rwa[h] * np.exp(lags["g"] / 100))
        out[ib] = 100 * np.column_stack(capital) / np.column_stack(rwa)
    if crossing_counts is not None:
        crossing_counts.update(crossings)
    return out


def run(quick: bool = False) -> list[Figure]:
    s = get_settings().bank
    history = demo.load_demo_macro()
    panel = build_panel(
        demo.load_demo_panel(), halfyear_macro(history), min_obs=s.min_obs, start="2017H1", end="2024H2"
    )
    tau = np.asarray(s.quantiles)
    t0, c0 = time.perf_counter(), time.process_time()
    results = {
        c: fit_feqar(panel.data, c, panel.regressors(c), quantiles=s.quantiles, penalty=s.qar_penalty)
        for c in COMPONENTS
    }
    fit_s, fit_cpu = time.perf_counter() - t0, time.process_time() - c0
    peer_components = COMPONENTS[:1] if quick else COMPONENTS
    t0, c0 = time.perf_counter(), time.process_time()
    peer_objective = {}
    for c in peer_components:
        y = panel.data[c].to_numpy(dtype=float)
        X = panel.data[panel.regressors(c)].to_numpy(dtype=float)
        banks, codes = np.unique(panel.data["bank_id"].to_numpy(), return_inverse=True)
        peer_objective[c] = fit_feqar_lp(y, X, codes, banks.size, tau, s.qar_penalty)[2]
    peer_fit_s = (time.perf_counter() - t0) * len(COMPONENTS) / len(peer_components)
    peer_fit_cpu = (time.process_time() - c0) * len(COMPONENTS) / len(peer_components)
    gap = max(abs(results[c].objective - v) / max(1.0, abs(v)) for c, v in peer_objective.items())
    models = {c: ComponentModel.from_feqar(r, panel.macro_variables) for c, r in results.items()}
    scenario = scenario_from_annual_path(ANNUAL, sorted(set(panel.data["country"])), EA_MAPPING_NOTE, history=history)
    paths = 2_500 if quick else s.projection_paths
    shipped, peer, shipped_cpu, peer_cpu = [], [], [], []
    for _ in range(2):  # alternate, keep the faster of each: the machine is shared
        t0, c0 = time.perf_counter(), time.process_time()
        out = project_cet1(models, panel.last_state, scenario, paths=paths, seed=0)
        shipped.append(time.perf_counter() - t0)
        shipped_cpu.append(time.process_time() - c0)
        t0, c0 = time.perf_counter(), time.process_time()
        reference = numpy_projection(models, panel.last_state, scenario, paths=paths, seed=0)
        peer.append(time.perf_counter() - t0)
        peer_cpu.append(time.process_time() - c0)
    assert out.ratio.shape == (len(panel.banks), paths, 7)
    with measure() as fit_mem:
        fit_feqar(
            panel.data, COMPONENTS[0], panel.regressors(COMPONENTS[0]), quantiles=s.quantiles, penalty=s.qar_penalty
        )
    with measure() as proj_mem:
        project_cet1(models, panel.last_state, scenario, paths=paths, seed=0)
    label = f"{paths}paths_{len(panel.banks)}banks_6h"
    return [
        Figure(name="feqar_fit_5x19_40banks_16h", value=fit_s, unit="s", target=4.0),
        Figure(name="feqar_fit_joint_lp_peer" + ("_from_1_component" if quick else ""), value=peer_fit_s, unit="s"),
        Figure(name="feqar_fit_over_lp_peer", value=fit_s / peer_fit_s, unit="x", target=1.0),
        # CPU seconds (HiGHS may use a second thread): what an unloaded machine would show
        Figure(name="feqar_fit_cpu", value=fit_cpu, unit="CPU-s", target=4.0),
        Figure(name="feqar_fit_joint_lp_peer_cpu", value=peer_fit_cpu, unit="CPU-s"),
        Figure(name="feqar_objective_max_relative_gap_to_lp", value=gap, unit="relative", target=1e-8),
        Figure(name="feqar_fit_peak_memory_1_component", value=fit_mem["peak_mib"], unit="MiB"),
        Figure(name=f"projection_{label}", value=min(shipped), unit="s", target=10.0 if not quick else None),
        Figure(name=f"projection_numpy_peer_{label}", value=min(peer), unit="s"),
        Figure(name="projection_over_numpy_peer", value=min(shipped) / min(peer), unit="x", target=0.5),
        # CPU seconds of all threads: the work itself, whatever the machine's load
        Figure(name="projection_cpu_over_numpy_peer_cpu", value=min(shipped_cpu) / min(peer_cpu), unit="x"),
        Figure(
            name="projection_identical_to_peer",
            value=float(np.array_equal(out.ratio, reference)),
            unit="bool",
            better="higher",
            target=1.0,
        ),
        Figure(name="projection_peak_memory", value=proj_mem["peak_mib"], unit="MiB"),
        Figure(name="process_peak_rss", value=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, unit="MiB"),
        Figure(name="panel_observations", value=float(len(panel.data)), unit="rows", better="higher"),
    ]
