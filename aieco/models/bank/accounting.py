"""CET1 accounting recursions and the simulated projection of bank capital.

Eq. (cet1capital)  C_t = C_{t−1} + (n_t − ℓ_t − o_t + a_t)/100 · RWA_{t−1}
Eq. (rwarecursion) RWA_t = RWA_{t−1} · exp(g_t/100)
Eq. (cet1ratio)    CET1Ratio_t = 100 · C_t / RWA_t

Every path's RWA must be positive and finite, and both recursions must hold on every path,
before any ratio is formed; a violation stops the run with its reason.

Each component follows its fitted model: FE-QAR draws one quantile level per component,
half-year and path (crossing fitted quantiles are rearranged into increasing order, which
leaves the distribution of a uniformly drawn level unchanged, see ``simulate_bank (aieco.models.bank.kernel)``);
FE-OLS adds a residual resampled from the within residuals. The lagged component, lagged
CET1 ratio and log RWA are propagated along each path.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from aieco.config import get_settings
from aieco.errors import InputError, StageStopped
from aieco.models.bank.feols import FEOLSResults
from aieco.models.bank.feqar import FEQARResults
from aieco.models.bank.kernel import BankPaths, ComponentTables, recursion_error, simulate_bank
from aieco.models.bank.panel import COMPONENTS, CONTROLS, half_index, half_label
from aieco.progress import report

IDENTITY_TOL = 1e-9  # relative tolerance of the recursions, in units of beginning RWA


@dataclass(frozen=True)
class ComponentModel:
    """One component's fitted equation in the common form used for projection.

    ``coef`` has shape (K, 1 + k): per quantile (FE-QAR) or a single row (FE-OLS) the
    intercept then the slopes on ``[lag, cet1_ratio_lag, log_rwa_lag, *macro]``.
    """

    component: str
    macro_variables: tuple[str, ...]
    coef: np.ndarray
    fixed_effects: pd.Series
    quantiles: np.ndarray | None = None  # FE-QAR levels; None for FE-OLS
    residuals: np.ndarray | None = None  # FE-OLS residual pool

    @classmethod
    def from_feqar(cls, res: FEQARResults, macro_variables: tuple[str, ...]) -> ComponentModel:
        cols = ["intercept", f"{res.component}_lag", *CONTROLS, *macro_variables]
        return cls(
            res.component,
            tuple(macro_variables),
            res.params[cols].to_numpy(),
            res.fixed_effects,
            quantiles=res.quantiles,
        )

    @classmethod
    def from_feols(cls, res: FEOLSResults, macro_variables: tuple[str, ...]) -> ComponentModel:
        cols = [f"{res.component}_lag", *CONTROLS, *macro_variables]
        coef = np.concatenate([[0.0], res.params[cols].to_numpy()])[None, :]
        return cls(res.component, tuple(macro_variables), coef, res.fixed_effects, residuals=res.projection_residuals())


@dataclass(frozen=True)
class Projection:
    """Simulated CET1 paths for a set of banks under one country scenario."""

    banks: list[str]
    periods: list[str]  # start period then the projected half-years
    ratio: np.ndarray  # CET1 ratio %, shape (banks, paths, 1 + H)
    depletion: np.ndarray  # start ratio minus the minimum projected ratio, pp, (banks, paths)
    crossing_share: dict[str, float]  # share of checked paths (first CROSSING_SAMPLE) with crossing quantiles
    identity_max_error: float
    skipped: dict[str, str]


def verify_recursions(capital: np.ndarray, rwa: np.ndarray, comps: Mapping[str, np.ndarray], where: str) -> float:
    """Check positive RWA and Eqs. (cet1capital)–(rwarecursion) on every path; return the largest error.

    ``capital`` and ``rwa`` have shape (paths, 1 + H); each component (paths, H).
    """
    if not np.isfinite(rwa).all() or not (rwa > 0).all():
        bad = np.argwhere(~np.isfinite(rwa) | (rwa <= 0))[0]
        raise StageStopped(
            f"{where}: RWA not positive and finite on path {bad[0]} at step {bad[1]}", stage="bank_projection"
        )
    if not np.isfinite(capital).all():
        bad = np.argwhere(~np.isfinite(capital))[0]
        raise StageStopped(
            f"{where}: CET1 capital not finite on path {bad[0]} at step {bad[1]}", stage="bank_projection"
        )
    net = comps["n"] - comps["l"] - comps["o"] + comps["a"]
    cap_err = np.abs(capital[:, 1:] - capital[:, :-1] - net / 100 * rwa[:, :-1]) / rwa[:, :-1]
    rwa_err = np.abs(np.log(rwa[:, 1:] / rwa[:, :-1]) * 100 - comps["g"]) / 100
    worst = float(max(cap_err.max(initial=0.0), rwa_err.max(initial=0.0)))
    if not np.isfinite(worst) or worst > IDENTITY_TOL:
        raise StageStopped(
            f"{where}: accounting identity violated (largest relative error {worst:.3g})", stage="bank_projection"
        )
    return worst


def project_cet1(
    models: Mapping[str, ComponentModel],
    start: pd.DataFrame,
    scenario: pd.DataFrame,
    *,
    paths: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> Projection:
    """Simulate CET1 ratio paths for every bank under a half-year country scenario.

    Parameters
    ----------
    models : mapping component → ComponentModel
        Fitted equations for the five components n, l, o, a, g.
    start : DataFrame
        Index bank_id; columns ``macro_country``, ``period`` (last observed half-year),
        ``cet1_capital``, ``rwa`` (EUR mn) and the last observed components (lag seeds).
    scenario : DataFrame
        Columns ``country``, ``period`` ('2025H1', …) and the macro variables; consecutive
        half-years beginning the half-year after each bank's start period.
    paths : int
        Simulated paths per bank.
    seed : int
        Seed of ``np.random.default_rng`` (one stream per bank, spawned from the seed).
    progress : callable, optional
        Called as ``progress(done_banks, total_banks)``.

    Returns
    -------
    Projection
        Ratio paths (banks, paths, 1 + H) and depletion (banks, paths) in percentage points.
    """
    missing = [c for c in COMPONENTS if c not in models]
    if missing:
        raise InputError(f"projection lacks fitted components {missing}", where="bank models")
    if paths < 1:
        raise InputError(f"paths = {paths}; at least one path is required", where="bank projection")
    macro_vars = next(iter(models.values())).macro_variables
    periods = sorted(set(scenario["period"]), key=half_index)
    ts = [half_index(p) for p in periods]
    if ts != list(range(ts[0], ts[0] + len(ts))):
        raise InputError(f"scenario half-years {periods} are not consecutive", where="bank scenario")
    first_t = ts[0]
    H = len(ts)
    # the scenario and the fitted effects read once (not per bank): plain dicts and one array per country
    by_country = {country: rows.set_index("period") for country, rows in scenario.groupby("country")}
    have_periods = {country: set(rows.index) for country, rows in by_country.items()}
    fe_of = {c: models[c].fixed_effects.to_dict() for c in COMPONENTS}
    rows = start.to_dict("index")
    skipped: dict[str, str] = {}
    banks = []
    key_of: dict[str, object] = {}
    for b, row in rows.items():
        if half_index(row["period"]) != first_t - 1:
            skipped[str(b)] = (
                f"last observed half-year {row['period']} does not precede the scenario's first half-year {periods[0]}"
            )
            continue
        country = row["macro_country"]
        if len(have_periods.get(country, set()) & set(periods)) < H:
            raise InputError(
                f"scenario lacks half-years for country {country} (bank {b})",
                where="bank scenario",
                fix="supply every bank country's scenario, or record an explicit mapping",
            )
        missing_fe = [c for c in COMPONENTS if b not in fe_of[c]]
        if missing_fe:
            skipped[str(b)] = f"no fitted fixed effect for components {missing_fe}"
            continue
        banks.append(str(b))
        key_of[str(b)] = b
    if not banks:
        raise StageStopped(
            "no bank can be projected: " + "; ".join(f"{b}: {r}" for b, r in skipped.items()), stage="bank_projection"
        )

    seeds = np.random.SeedSequence(seed).spawn(len(banks))
    ratio_out = np.empty((len(banks), paths, H + 1))
    depletion = np.empty((len(banks), paths))
    crossings = dict.fromkeys(COMPONENTS, 0)
    checked = dict.fromkeys(COMPONENTS, 0)
    worst = 0.0
    tables = {c: ComponentTables.of(models[c].coef, models[c].quantiles, models[c].residuals) for c in COMPONENTS}
    macro_of = {
        country: by_country[country].loc[periods, list(macro_vars)].to_numpy(dtype=float)
        for country in {rows[key_of[b]]["macro_country"] for b in banks}
    }
    inputs = []
    for b in banks:
        row = rows[key_of[b]]
        inputs.append(
            (
                macro_of[row["macro_country"]],
                {c: float(fe_of[c][key_of[b]]) for c in COMPONENTS},
                float(row["cet1_capital"]),
                float(row["rwa"]),
                {c: float(row[c]) for c in COMPONENTS},
            )
        )

    def simulate(ib: int) -> tuple[BankPaths, float | None]:
        x, fe, capital0, rwa0, lags0 = inputs[ib]
        sim = simulate_bank(tables, COMPONENTS, fe, x, capital0, rwa0, lags0, paths, np.random.default_rng(seeds[ib]))
        error = recursion_error(sim)
        if error is not None and error <= IDENTITY_TOL:
            # Eq. (cet1ratio), only after the checks: 100 · C / RWA, formed in place in the capital array
            # (half-years are contiguous rows), then copied once into the (paths, 1 + H) layout
            ratio = np.multiply(100, sim.capital, out=sim.capital)
            ratio /= sim.rwa
            # start ratio minus the path's lowest projected ratio (row-wise minimum)
            np.subtract(ratio[0], np.minimum.reduce(ratio[1:], axis=0), out=depletion[ib])
            ratio_out[ib] = ratio.T
            sim = BankPaths(np.empty((0, 0)), np.empty((0, 0)), {}, sim.crossings, sim.checked, error)  # the counts
        return sim, error

    # banks are independent (one random stream each): simulated in threads, collected in bank order
    workers = min(len(banks), get_settings().bank.projection_threads or os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="projection") as pool:
        for ib, (sim, error) in enumerate(pool.map(simulate, range(len(banks)))):
            b = banks[ib]
            for c in COMPONENTS:
                crossings[c] += sim.crossings[c]
                checked[c] += sim.checked[c]
            if error is None or not error <= IDENTITY_TOL:  # simulate again with every draw to report where
                x, fe, capital0, rwa0, lags0 = inputs[ib]
                sim = simulate_bank(
                    tables,
                    COMPONENTS,
                    fe,
                    x,
                    capital0,
                    rwa0,
                    lags0,
                    paths,
                    np.random.default_rng(seeds[ib]),
                    keep_draws=True,
                )
                verify_recursions(sim.capital.T, sim.rwa.T, {c: d.T for c, d in sim.drawn.items()}, where=f"bank {b}")
                raise StageStopped(
                    f"bank {b}: accounting identity violated (largest relative error {error:.3g})",
                    stage="bank_projection",
                )
            worst = max(worst, error)
            if progress:
                progress(ib + 1, len(banks))
            report("CET1 projection", ib + 1, len(banks), str(banks[ib]))
    share = {c: crossings[c] / checked[c] if checked[c] else 0.0 for c in COMPONENTS}
    start_label = half_label(first_t - 1)
    return Projection(
        banks=banks,
        periods=[start_label, *periods],
        ratio=ratio_out,
        depletion=depletion,
        crossing_share=share,
        identity_max_error=worst,
        skipped=skipped,
    )


def summarise_projection(proj: Projection, *, sample_paths: int = 100) -> dict[str, pd.DataFrame]:
    """Output tables of a projection run.

    Returns
    -------
    dict of DataFrame
        ``cet1_ratio``: rows ``bank|period``, columns mean, p05, p25, p50, p75, p95 (%);
        ``depletion``: rows bank, columns start_ratio, mean, p05, p25, p50, p75, p95 (pp);
        ``depletion_distribution``: rows bank, columns q01 … q99 (pp);
        ``cet1_ratio_paths``: rows ``bank|simulation id`` for the first ``sample_paths`` paths,
        columns the periods (%).
    """
    probs = [5, 25, 50, 75, 95]
    rows, recs = [], []
    for ib, b in enumerate(proj.banks):
        q = np.percentile(proj.ratio[ib], probs, axis=0)
        mean = proj.ratio[ib].mean(axis=0)
        for h, per in enumerate(proj.periods):
            rows.append(f"{b}|{per}")
            recs.append([mean[h], *q[:, h]])
    ratio = pd.DataFrame(recs, index=rows, columns=["mean", *(f"p{p:02d}" for p in probs)])
    dq = np.percentile(proj.depletion, probs, axis=1).T
    depletion = pd.DataFrame(
        np.column_stack([proj.ratio[:, 0, 0], proj.depletion.mean(axis=1), dq]),
        index=proj.banks,
        columns=["start_ratio", "mean", *(f"p{p:02d}" for p in probs)],
    )
    dist = pd.DataFrame(
        np.percentile(proj.depletion, np.arange(1, 100), axis=1).T,
        index=proj.banks,
        columns=[f"q{p:02d}" for p in range(1, 100)],
    )
    k = min(sample_paths, proj.ratio.shape[1])
    sample = pd.DataFrame(
        proj.ratio[:, :k, :].reshape(-1, len(proj.periods)),
        index=[f"{b}|{s}" for b in proj.banks for s in range(k)],
        columns=proj.periods,
    )
    return {"cet1_ratio": ratio, "depletion": depletion, "depletion_distribution": dist, "cet1_ratio_paths": sample}


def accounting_paths(
    start_capital: np.ndarray, start_rwa: np.ndarray, comps: Mapping[str, np.ndarray], *, where: str = "accounting"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deterministic Eqs. (cet1capital)–(cet1ratio) from given component rates.

    Parameters
    ----------
    start_capital, start_rwa : ndarray, shape (banks,)
        CET1 capital and RWA at the start (EUR mn).
    comps : mapping
        ``n``, ``l``, ``o``, ``a``, ``g``: component rates in % of beginning-of-period RWA
        (``g``: 100 × log RWA growth), each of shape (banks, H).

    Returns
    -------
    capital, rwa, ratio : ndarray, shape (banks, 1 + H)
        The recursions' paths (ratio in %), after :func:`verify_recursions` has checked them.
    """
    missing = [c for c in COMPONENTS if c not in comps]
    if missing:
        raise InputError(f"accounting recursion lacks components {missing}", where=where)
    cap0 = np.asarray(start_capital, dtype=float)
    rwa0 = np.asarray(start_rwa, dtype=float)
    H = np.asarray(comps["n"]).shape[1]
    capital = np.empty((cap0.size, H + 1))
    rwa = np.empty((cap0.size, H + 1))
    capital[:, 0], rwa[:, 0] = cap0, rwa0
    arrays = {c: np.asarray(comps[c], dtype=float) for c in COMPONENTS}
    for h in range(H):
        net = arrays["n"][:, h] - arrays["l"][:, h] - arrays["o"][:, h] + arrays["a"][:, h]
        capital[:, h + 1] = capital[:, h] + net / 100 * rwa[:, h]  # Eq. (cet1capital)
        rwa[:, h + 1] = rwa[:, h] * np.exp(arrays["g"][:, h] / 100)  # Eq. (rwarecursion)
    verify_recursions(capital, rwa, arrays, where=where)
    return capital, rwa, 100 * capital / rwa  # Eq. (cet1ratio)
