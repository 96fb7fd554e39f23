"""CET1 accounting recursions and the simulated projection of bank capital.

Eq. (cet1capital)  C_t = C_{t−1} + (n_t − ℓ_t − o_t + a_t)/100 · RWA_{t−1}
Eq. (rwarecursion) RWA_t = RWA_{t−1} · exp(g_t/100)
Eq. (cet1ratio)    CET1Ratio_t = 100 · C_t / RWA_t

Every path's RWA must be positive and finite, and both recursions must hold on every path,
before any ratio is formed; a violation stops the run with its reason.

Each component follows its fitted model: FE-QAR draws one quantile level per component,
half-year and path (crossing fitted quantiles are rearranged into increasing order, which
leaves the distribution of a uniformly drawn level unchanged, see ``_draw_component``);
FE-OLS adds a residual resampled from the within residuals. The lagged component, lagged
CET1 ratio and log RWA are propagated along each path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from aieco.errors import InputError, StageStopped
from aieco.models.bank.feols import FEOLSResults
from aieco.models.bank.feqar import FEQARResults
from aieco.models.bank.panel import COMPONENTS, CONTROLS, half_index, half_label

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
    quantiles: np.ndarray | None = None     # FE-QAR levels; None for FE-OLS
    residuals: np.ndarray | None = None     # FE-OLS residual pool

    @classmethod
    def from_feqar(cls, res: FEQARResults, macro_variables: tuple[str, ...]) -> ComponentModel:
        cols = ["intercept", f"{res.component}_lag", *CONTROLS, *macro_variables]
        return cls(res.component, tuple(macro_variables), res.params[cols].to_numpy(), res.fixed_effects,
                   quantiles=res.quantiles)

    @classmethod
    def from_feols(cls, res: FEOLSResults, macro_variables: tuple[str, ...]) -> ComponentModel:
        cols = [f"{res.component}_lag", *CONTROLS, *macro_variables]
        coef = np.concatenate([[0.0], res.params[cols].to_numpy()])[None, :]
        return cls(res.component, tuple(macro_variables), coef, res.fixed_effects,
                   residuals=res.projection_residuals())


@dataclass(frozen=True)
class Projection:
    """Simulated CET1 paths for a set of banks under one country scenario."""

    banks: list[str]
    periods: list[str]              # start period then the projected half-years
    ratio: np.ndarray               # CET1 ratio %, shape (banks, paths, 1 + H)
    depletion: np.ndarray           # start ratio minus the minimum projected ratio, pp, (banks, paths)
    crossing_share: dict[str, float]  # share of checked paths (first CROSSING_SAMPLE) with crossing quantiles
    identity_max_error: float
    skipped: dict[str, str]


def verify_recursions(capital: np.ndarray, rwa: np.ndarray, comps: Mapping[str, np.ndarray],
                      where: str) -> float:
    """Check positive RWA and Eqs. (cet1capital)–(rwarecursion) on every path; return the largest error.

    ``capital`` and ``rwa`` have shape (paths, 1 + H); each component (paths, H).
    """
    if not np.isfinite(rwa).all() or not (rwa > 0).all():
        bad = np.argwhere(~np.isfinite(rwa) | (rwa <= 0))[0]
        raise StageStopped(f"{where}: RWA not positive and finite on path {bad[0]} at step {bad[1]}",
                           stage="bank_projection")
    if not np.isfinite(capital).all():
        bad = np.argwhere(~np.isfinite(capital))[0]
        raise StageStopped(f"{where}: CET1 capital not finite on path {bad[0]} at step {bad[1]}",
                           stage="bank_projection")
    net = comps["n"] - comps["l"] - comps["o"] + comps["a"]
    cap_err = np.abs(capital[:, 1:] - capital[:, :-1] - net / 100 * rwa[:, :-1]) / rwa[:, :-1]
    rwa_err = np.abs(np.log(rwa[:, 1:] / rwa[:, :-1]) * 100 - comps["g"]) / 100
    worst = float(max(cap_err.max(initial=0.0), rwa_err.max(initial=0.0)))
    if not np.isfinite(worst) or worst > IDENTITY_TOL:
        raise StageStopped(f"{where}: accounting identity violated (largest relative error {worst:.3g})",
                           stage="bank_projection")
    return worst


CROSSING_SAMPLE = 1_000  # paths per bank, half-year and component on which crossing is counted


def _draw_component(model: ComponentModel, base: np.ndarray, lag: np.ndarray, ratio_lag: np.ndarray,
                    log_rwa_lag: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, int, int]:
    """One half-year draw of a component on every path.

    Returns the values, and the number of crossing rows among the checked paths and that number
    of paths. FE-QAR: a quantile level is drawn uniformly from the K levels. Where fitted
    quantiles cross, the monotone rearrangement (sorting the K fitted values) defines the
    quantile function; the k-th smallest of K values with k uniform is a uniformly drawn one of
    the K values, so drawing the level on the unsorted curve gives exactly the same distribution
    and the sort is needed only to count crossings.
    """
    c = model.coef
    # the macro part is common to all paths: base[k] = α_i + μ_k + γ_k'x_t
    if model.quantiles is None:
        mean = base[0] + c[0, 1] * lag + c[0, 2] * ratio_lag + c[0, 3] * log_rwa_lag
        return mean + rng.choice(model.residuals, size=lag.size), 0, 0
    m = min(lag.size, CROSSING_SAMPLE)
    q = (base + np.multiply.outer(lag[:m], c[:, 1]) + np.multiply.outer(ratio_lag[:m], c[:, 2])
         + np.multiply.outer(log_rwa_lag[:m], c[:, 3]))
    n_cross = int((q[:, 1:] < q[:, :-1]).any(axis=1).sum())
    k = rng.integers(0, c.shape[0], size=lag.size)
    return base[k] + c[k, 1] * lag + c[k, 2] * ratio_lag + c[k, 3] * log_rwa_lag, n_cross, m


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
    skipped: dict[str, str] = {}
    banks = []
    for b, row in start.iterrows():
        if half_index(row["period"]) != first_t - 1:
            skipped[str(b)] = (f"last observed half-year {row['period']} does not precede the scenario's "
                               f"first half-year {periods[0]}")
            continue
        country = row["macro_country"]
        have = scenario[scenario["country"] == country]
        if len(set(have["period"]) & set(periods)) < H:
            raise InputError(f"scenario lacks half-years for country {country} (bank {b})",
                             where="bank scenario",
                             fix="supply every bank country's scenario, or record an explicit mapping")
        missing_fe = [c for c in COMPONENTS if b not in models[c].fixed_effects.index]
        if missing_fe:
            skipped[str(b)] = f"no fitted fixed effect for components {missing_fe}"
            continue
        banks.append(str(b))
    if not banks:
        raise StageStopped("no bank can be projected: " + "; ".join(f"{b}: {r}" for b, r in skipped.items()),
                           stage="bank_projection")

    seeds = np.random.SeedSequence(seed).spawn(len(banks))
    ratio_out = np.empty((len(banks), paths, H + 1))
    crossings = dict.fromkeys(COMPONENTS, 0)
    checked = dict.fromkeys(COMPONENTS, 0)
    worst = 0.0
    for ib, b in enumerate(banks):
        rng = np.random.default_rng(seeds[ib])
        row = start.loc[b]
        x = (scenario[scenario["country"] == row["macro_country"]].set_index("period")
             .loc[periods, list(macro_vars)].to_numpy(dtype=float))
        capital = np.empty((paths, H + 1))
        rwa = np.empty((paths, H + 1))
        capital[:, 0] = float(row["cet1_capital"])
        rwa[:, 0] = float(row["rwa"])
        lags = {c: np.full(paths, float(row[c])) for c in COMPONENTS}
        drawn = {c: np.empty((paths, H)) for c in COMPONENTS}
        for h in range(H):
            ratio_lag = 100 * capital[:, h] / rwa[:, h]
            with np.errstate(invalid="ignore", divide="ignore"):
                log_rwa_lag = np.log(rwa[:, h])
            for c in COMPONENTS:
                m = models[c]
                base = float(m.fixed_effects.loc[b]) + m.coef[:, 0] + m.coef[:, 4:] @ x[h]
                with np.errstate(invalid="ignore", over="ignore"):  # non-finite paths stop below
                    value, n_cross, n_checked = _draw_component(m, base, lags[c], ratio_lag, log_rwa_lag, rng)
                crossings[c] += n_cross
                checked[c] += n_checked
                drawn[c][:, h] = value
                lags[c] = value
            # Eq. (cet1capital) and Eq. (rwarecursion)
            net = drawn["n"][:, h] - drawn["l"][:, h] - drawn["o"][:, h] + drawn["a"][:, h]
            with np.errstate(invalid="ignore", over="ignore"):
                capital[:, h + 1] = capital[:, h] + net / 100 * rwa[:, h]
                rwa[:, h + 1] = rwa[:, h] * np.exp(drawn["g"][:, h] / 100)
        worst = max(worst, verify_recursions(capital, rwa, drawn, where=f"bank {b}"))
        ratio_out[ib] = 100 * capital / rwa  # Eq. (cet1ratio), only after the checks
        if progress:
            progress(ib + 1, len(banks))
    depletion = ratio_out[:, :, 0] - ratio_out[:, :, 1:].min(axis=2)
    share = {c: crossings[c] / checked[c] if checked[c] else 0.0 for c in COMPONENTS}
    start_label = half_label(first_t - 1)
    return Projection(banks=banks, periods=[start_label, *periods], ratio=ratio_out, depletion=depletion,
                      crossing_share=share, identity_max_error=worst, skipped=skipped)


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
    depletion = pd.DataFrame(np.column_stack([proj.ratio[:, 0, 0], proj.depletion.mean(axis=1), dq]),
                             index=proj.banks, columns=["start_ratio", "mean", *(f"p{p:02d}" for p in probs)])
    dist = pd.DataFrame(np.percentile(proj.depletion, np.arange(1, 100), axis=1).T, index=proj.banks,
                        columns=[f"q{p:02d}" for p in range(1, 100)])
    k = min(sample_paths, proj.ratio.shape[1])
    sample = pd.DataFrame(proj.ratio[:, :k, :].reshape(-1, len(proj.periods)),
                          index=[f"{b}|{s}" for b in proj.banks for s in range(k)], columns=proj.periods)
    return {"cet1_ratio": ratio, "depletion": depletion, "depletion_distribution": dist,
            "cet1_ratio_paths": sample}


def accounting_paths(start_capital: np.ndarray, start_rwa: np.ndarray, comps: Mapping[str, np.ndarray],
                     *, where: str = "accounting") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
