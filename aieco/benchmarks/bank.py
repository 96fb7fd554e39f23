"""Bank models: FE-QAR joint fit (5 components × 19 quantiles, 40 banks × 16 half-years) and
the CET1 projection (25,000 paths × 40 banks × 6 half-years), each with peak memory."""

from __future__ import annotations

import resource

import pandas as pd

from aieco.benchmarks import Figure, measure
from aieco.config import get_settings
from aieco.demo import bank as demo
from aieco.models.bank.accounting import ComponentModel, project_cet1
from aieco.models.bank.feqar import fit_feqar
from aieco.models.bank.panel import COMPONENTS, build_panel, halfyear_macro, scenario_from_annual_path
from aieco.models.bank.spec import EA_MAPPING_NOTE

ANNUAL = pd.DataFrame({"real_gdp": [-2.0, -0.5, 1.0], "inflation": [3.0, 2.5, 2.0],
                       "unemployment": [7.5, 8.0, 7.8], "long_term_rate": [3.5, 3.8, 3.6],
                       "equity_prices": [-25.0, -5.0, 5.0], "house_prices": [-6.0, -3.0, 0.0]},
                      index=[2025, 2026, 2027])


def run(quick: bool = False) -> list[Figure]:
    s = get_settings().bank
    history = demo.load_demo_macro()
    panel = build_panel(demo.load_demo_panel(), halfyear_macro(history), min_obs=s.min_obs,
                        start="2017H1", end="2024H2")
    with measure() as fit:
        results = {c: fit_feqar(panel.data, c, panel.regressors(c), quantiles=s.quantiles, penalty=s.qar_penalty)
                   for c in COMPONENTS}
    models = {c: ComponentModel.from_feqar(r, panel.macro_variables) for c, r in results.items()}
    scenario = scenario_from_annual_path(ANNUAL, sorted(set(panel.data["country"])), EA_MAPPING_NOTE,
                                         history=history)
    paths = 2_500 if quick else s.projection_paths
    with measure() as proj:
        out = project_cet1(models, panel.last_state, scenario, paths=paths, seed=0)
    assert out.ratio.shape == (len(panel.banks), paths, 7)
    return [
        Figure(name="feqar_fit_5x19_40banks_16h", value=fit["seconds"], unit="s", target=60.0),
        Figure(name="feqar_fit_peak_memory", value=fit["peak_mib"], unit="MiB"),
        Figure(name=f"projection_{paths}paths_{len(panel.banks)}banks_6h", value=proj["seconds"], unit="s",
               target=10.0 if not quick else None),
        Figure(name="projection_peak_memory", value=proj["peak_mib"], unit="MiB"),
        Figure(name="process_peak_rss", value=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, unit="MiB"),
        Figure(name="panel_observations", value=float(len(panel.data)), unit="rows", better="higher"),
    ]
