"""Bank capital on real EBA data: load (rows/s), fit and projection times for the real bank count.

Each figure has its peer measured in the same run:
* load: ``load_eba_csv`` (encoding detection, dictionary, label resolution) against a bare
  ``pandas.read_csv`` of the same bytes;
* fit: ``fit_components`` (one least-squares solve per component, all years at once) against
  statsmodels OLS fitted equation by equation;
* projection: ``predict_depletion`` (all banks × draws in one recursion) against one recursion
  per residual draw;
* the direct depletion model (``bank_eba_depletion``): ``fit_direct`` + ``predict_direct``
  against statsmodels OLS of the same design and its prediction.
The full published files in ``../shared/data/banks`` are used when present, else the bundled extracts.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import numpy as np
import pandas as pd

from aieco.benchmarks import Figure
from aieco.models.bank.accounting import accounting_paths
from aieco.models.bank.eba import exercise_panel, load_eba_csv
from aieco.models.bank.eba_extract import bundled_exercises
from aieco.models.bank.eba_models import (
    _design,
    bank_sample,
    direct_design,
    fit_components,
    fit_direct,
    predict_depletion,
    predict_direct,
)
from aieco.models.bank.panel import COMPONENTS

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "banks"


def _files() -> dict[str, Path]:
    full = {
        "st2016": SHARED / "eba_2016_stress_test_TR_OTH.csv",
        "st2021": SHARED / "eba_2021_stress_test" / "TRA_OTH.csv",
    }
    return full if all(p.is_file() for p in full.values()) else bundled_exercises()


def _loop_projection(fit, sample, draws: int, seed: int) -> np.ndarray:
    """The peer: one recursion per residual draw (the same draws as ``predict_depletion``)."""
    comps = {c: _design(sample, c) @ fit.params[c] for c in COMPONENTS}
    rng = np.random.default_rng(seed)
    n_train = next(iter(fit.residuals.values())).shape[0]
    sims = np.empty((len(sample.banks), draws))
    for d, j in enumerate(rng.integers(0, n_train, size=draws)):
        _, _, r = accounting_paths(
            sample.start_capital, sample.start_rea, {c: comps[c] + fit.residuals[c][j] for c in COMPONENTS}
        )
        sims[:, d] = r[:, 0] - r[:, 1:].min(axis=1)
    return sims


def _statsmodels_fit(sample) -> None:
    import statsmodels.api as sm

    for c in COMPONENTS:
        X = _design(sample, c)
        for h in range(sample.comps[c].shape[1]):
            sm.OLS(sample.comps[c][:, h], X).fit()


def run(quick: bool = False) -> list[Figure]:
    files = _files()
    figures: list[Figure] = []
    samples = {}
    for name, path in files.items():
        lines = path.read_bytes().count(b"\n")
        t0 = time.perf_counter()
        data = load_eba_csv(path)
        load_s = time.perf_counter() - t0
        raw = path.read_bytes()
        t0 = time.perf_counter()
        pd.read_csv(io.BytesIO(raw), encoding=data.attrs["encoding"], dtype=str)
        peer_s = time.perf_counter() - t0
        figures += [
            Figure(name=f"eba_load_{name}_{lines}rows", value=lines / load_s, unit="rows/s", better="higher"),
            Figure(name=f"eba_load_{name}_peer_pandas_read_csv", value=lines / peer_s, unit="rows/s", better="higher"),
        ]
        samples[name] = bank_sample(exercise_panel(data), name)
    fit_on, project_on = samples["st2016"], samples["st2021"]
    reps = 3 if quick else 20
    t0 = time.perf_counter()
    for _ in range(reps):
        fit = fit_components(fit_on)
    fit_s = (time.perf_counter() - t0) / reps
    t0 = time.perf_counter()
    for _ in range(reps):
        _statsmodels_fit(fit_on)
    peer_fit_s = (time.perf_counter() - t0) / reps
    draws = 200 if quick else 2_000
    t0 = time.perf_counter()
    pred = predict_depletion(fit, project_on, draws=draws, seed=0)
    proj_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    sims = _loop_projection(fit, project_on, draws, 0)
    peer_proj_s = time.perf_counter() - t0
    lo = np.minimum(np.percentile(sims, 5.0, axis=1), pred["predicted"].to_numpy())
    assert np.allclose(lo, pred["lower"].to_numpy())  # the peer computes the same interval
    n_fit, n_proj = len(fit_on.banks), len(project_on.banks)
    figures += [
        Figure(name=f"eba_components_fit_{n_fit}banks", value=fit_s, unit="s"),
        Figure(name=f"eba_components_fit_{n_fit}banks_peer_statsmodels_ols", value=peer_fit_s, unit="s"),
        Figure(name=f"eba_projection_{n_proj}banks_{draws}draws", value=proj_s, unit="s"),
        Figure(name=f"eba_projection_{n_proj}banks_{draws}draws_peer_loop", value=peer_proj_s, unit="s"),
    ]
    import statsmodels.api as sm

    t0 = time.perf_counter()
    for _ in range(reps):
        direct = predict_direct(fit_direct(fit_on), project_on)
    direct_s = (time.perf_counter() - t0) / reps
    t0 = time.perf_counter()
    for _ in range(reps):
        peer = sm.OLS(fit_on.official_depletion, direct_design(fit_on)).fit().predict(direct_design(project_on))
    peer_direct_s = (time.perf_counter() - t0) / reps
    assert np.allclose(peer, direct["predicted"].to_numpy())  # the peer computes the same prediction
    figures += [
        Figure(name=f"eba_depletion_fit_predict_{n_fit}to{n_proj}banks", value=direct_s, unit="s"),
        Figure(
            name=f"eba_depletion_fit_predict_{n_fit}to{n_proj}banks_peer_statsmodels_ols", value=peer_direct_s, unit="s"
        ),
    ]
    return figures
