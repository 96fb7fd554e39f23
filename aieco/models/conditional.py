"""Conditional forecasts of the VAR: a baseline anchored to an official outlook.

Official exercises take their baseline from the official projections known at the cutoff (the
EBA uses the Eurosystem/ECB staff projections) and build adverse scenarios as deviations from
it. :func:`anchor_shift` finds the shock sequence that brings the VAR's central path to the
anchored annual figures — the most likely shocks under the residual covariance that meet the
conditions (Waggoner & Zha 1999; the centre of Bańbura, Giannone & Lenza 2015's conditional
forecast) — and the simulation adds it to every resampled residual vector, so the draws keep
the model's own dispersion around an anchored centre. The variables that are not anchored
follow from the model given the anchored ones.

Anchors are annual figures in the units of :data:`aieco.models.var.ANNUAL_TRANSFORMATION`
(GDP: annual-average growth in %; inflation: annual-average HICP inflation in %; unemployment:
annual average in %). The problem is nonlinear only through the level reconstruction and the
annual averaging, so a few Gauss-Newton steps on the minimum-norm solution
:math:`\\Delta u = \\Sigma_U J'(J \\Sigma_U J')^{+} e` converge to rounding level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from aieco.errors import InputError, StageStopped
from aieco.models.var import (
    VARIABLES,
    Simulation,
    VARFit,
    annual_levels,
    levels_window,
    propagate,
    simulate,
    simulation_steps,
)

#: Variables an official projection can anchor (annual-average definitions of the VAR's outputs).
ANCHORABLE = ("real_gdp", "inflation", "unemployment")


@dataclass(frozen=True)
class Anchor:
    """One anchored annual figure: ``variable`` in ``year`` equals ``value`` (annual definition, %)."""

    variable: str
    year: int
    value: float


@dataclass(frozen=True, eq=False)
class AnchorResult:
    """The shock shift (steps, k) and how closely the central path meets each anchor."""

    shift: np.ndarray
    anchors: tuple[Anchor, ...]
    achieved: dict[str, float] = field(default_factory=dict)  # 'variable:year' → central-path value
    iterations: int = 0

    @property
    def max_gap(self) -> float:
        """Largest absolute gap (pp) between an anchor and the central path's value."""
        gaps = [abs(self.achieved[f"{a.variable}:{a.year}"] - a.value) for a in self.anchors]
        return max(gaps, default=0.0)


def usable_anchors(anchors: Sequence[Anchor], first_year: int, horizon_end: int) -> tuple[Anchor, ...]:
    """The anchors inside the horizon on anchorable variables (one per variable and year)."""
    out: dict[tuple[str, int], Anchor] = {}
    for a in anchors:
        if a.variable not in VARIABLES:
            raise InputError(f"anchor variable {a.variable!r} is not a model variable", where="anchors")
        if a.variable in ANCHORABLE and first_year <= a.year <= horizon_end:
            out[(a.variable, a.year)] = a
    return tuple(out[key] for key in sorted(out))


def _annual_values(levels: np.ndarray, quarters: tuple[str, ...], anchors: Sequence[Anchor]) -> np.ndarray:
    """(n, len(anchors)) annual values of paths given as levels (n, Q, k)."""
    years = sorted({a.year for a in anchors})
    first = int(quarters[0][:4]) + 1
    annual = annual_levels(levels, quarters, range(first, years[-1] + 1))
    return np.stack([annual[a.variable][:, a.year - first] for a in anchors], axis=1)


def _jacobian(fit: VARFit, shift: np.ndarray, anchors, first_year: int, horizon_end: int, eps: float) -> tuple:
    """Anchored values of the deterministic path with shocks ``shift`` and their numerical Jacobian
    with respect to every shock entry (one vectorised recursion of 1 + steps·k paths)."""
    steps, k = shift.shape
    n = steps * k
    shocks = np.repeat(shift[:, None, :], n + 1, axis=1)
    for i in range(n):
        shocks[i // k, i + 1, i % k] += eps
    quarters, levels, _ = levels_window(fit, propagate(fit, shocks), first_year, horizon_end)
    values = _annual_values(levels, quarters, anchors)
    jac = (values[1:] - values[0]).T / eps  # (m, n)
    return values[0], jac


def anchor_shift(
    fit: VARFit,
    anchors: Sequence[Anchor],
    *,
    first_year: int,
    horizon_end: int,
    draws: int,
    seed: int | None,
    iterations: int = 4,
    tolerance: float = 0.005,
    eps: float = 1e-3,
) -> tuple[AnchorResult, Simulation]:
    """Shock shift whose simulation's central path meets ``anchors``, and that simulation.

    Parameters
    ----------
    fit : VARFit
    anchors : annual figures (:class:`Anchor`), e.g. the latest staff projection at the cutoff
    first_year, horizon_end : the horizon (years)
    draws, seed : the simulation's (the same residual picks as the unconditional simulation)
    iterations : most Gauss-Newton steps on the deterministic path (the conditional mean forecast)
    tolerance : pp; steps stop once every anchor is met a tenth as closely
    eps : finite-difference step of the Jacobian (pp of a shock)

    Returns
    -------
    (AnchorResult, Simulation) — the simulation is run with the final shift.
    """
    anchors = usable_anchors(anchors, first_year, horizon_end)
    steps = simulation_steps(fit, horizon_end)
    k = len(fit.variables)
    shift = np.zeros((steps, k))
    if not anchors:
        return AnchorResult(shift=shift, anchors=()), simulate(
            fit, draws=draws, seed=seed, horizon_end=horizon_end, first_year=first_year
        )
    target = np.array([a.value for a in anchors])
    cov = fit.resid.T @ fit.resid / fit.resid.shape[0]
    # Only the anchored variables' own equations are shifted (add-factors, as forecasters condition): the gap
    # between the model and the official outlook is not attributed to asset-price or rate shocks, which under
    # the joint covariance are "cheap" (large variance) and would swing equity by tens of per cent; the other
    # variables respond through the VAR's dynamics.
    own = np.array([v in {a.variable for a in anchors} for v in fit.variables])
    cov = np.where(np.outer(own, own), cov, 0.0)
    big = np.kron(np.eye(steps), cov)  # Σ_U over the shifted equations: independent over quarters

    def step(gap: np.ndarray, jac: np.ndarray) -> np.ndarray:
        # minimum Σ_U-norm change of the stacked shocks that closes the linearised gap
        return (big @ jac.T @ np.linalg.pinv(jac @ big @ jac.T, rcond=1e-10) @ gap).reshape(steps, k)

    done = 0
    for _ in range(iterations):  # Gauss-Newton on the deterministic (mean-shock) path
        values, jac = _jacobian(fit, shift, anchors, first_year, horizon_end, eps)
        gap = target - values
        if np.max(np.abs(gap)) <= tolerance / 10:
            break
        shift = shift + step(gap, jac)
        done += 1
    sim = simulate(fit, draws=draws, seed=seed, horizon_end=horizon_end, first_year=first_year, shift=shift)
    centre = deterministic_levels(fit, shift, first_year, horizon_end)[None, :, :]
    achieved = _annual_values(centre, sim.quarters, anchors)[0]
    return (
        AnchorResult(
            shift=shift,
            anchors=anchors,
            achieved={f"{a.variable}:{a.year}": float(v) for a, v in zip(anchors, achieved, strict=True)},
            iterations=done,
        ),
        sim,
    )


def deterministic_levels(fit: VARFit, shocks: np.ndarray, first_year: int, horizon_end: int) -> np.ndarray:
    """Quarterly levels (Q, k) of the path with the given shocks (steps, k) and no resampled residual: with
    zero shocks the VAR's point (conditional mean) forecast, with an anchor shift the anchored baseline."""
    return levels_window(fit, propagate(fit, np.asarray(shocks, float)[:, None, :]), first_year, horizon_end)[1][0]


def annual_matrix(levels: np.ndarray, quarters: tuple[str, ...], first_year: int, horizon_end: int) -> np.ndarray:
    """Annual figures (n, years, k) of paths given as levels (n, Q, k), in ``VARIABLES`` order."""
    annual = annual_levels(levels, quarters, range(first_year, horizon_end + 1))
    return np.stack([annual[v] for v in VARIABLES], axis=-1)


def linearised_annual(
    fit: VARFit, shift: np.ndarray, first_year: int, horizon_end: int, eps: float = 1e-3
) -> tuple[np.ndarray, np.ndarray]:
    """Annual figures of the path with shocks ``shift`` (years·k,) and their Jacobian (years·k, steps·k)
    with respect to every shock entry: around the baseline, annual figures ≈ a0 + A u."""
    steps, k = shift.shape
    n = steps * k
    shocks = np.repeat(shift[:, None, :], n + 1, axis=1)
    for i in range(n):
        shocks[i // k, i + 1, i % k] += eps
    quarters, levels, _ = levels_window(fit, propagate(fit, shocks), first_year, horizon_end)
    values = annual_matrix(levels, quarters, first_year, horizon_end).reshape(n + 1, -1)
    return values[0], (values[1:] - values[0]).T / eps


@dataclass(frozen=True, eq=False)
class ConditionalPath:
    """A risk's scenario as a conditional forecast: the expected path given its severity (see
    :func:`severity_path`)."""

    shocks: np.ndarray  # (steps, k): baseline shift + the scenario's conditional shocks
    levels: np.ndarray  # (Q, k) quarterly levels
    annual: np.ndarray  # (years, k)
    sd: np.ndarray  # (years, k) conditional standard deviation of the annual figures given the severity
    z: float  # the path's severity in standard deviations of the risk's severity score
    direction_ok: dict[str, bool]  # restricted variable → moves in its restriction's direction against baseline


def severity_weights(
    cov: np.ndarray, restrictions: Sequence, years: int, k: int, weights: Sequence[float]
) -> np.ndarray:
    """The severity score as a linear form c over the stacked annual figures (years·k): Eq. (restrictionseverity),
    Σ_r w_r d_r (x̄_j(r) − μ_j)/σ_j / Σ w, with x̄ the horizon mean and σ_j its standard deviation under ``cov``."""
    c = np.zeros(years * k)
    total = float(sum(weights))
    for w, r in zip(weights, restrictions, strict=True):
        j = VARIABLES.index(r.variable)
        mean_j = np.zeros(years * k)
        mean_j[j::k] = 1.0 / years
        sd = float(np.sqrt(mean_j @ cov @ mean_j))
        if not sd > 0:
            raise InputError(f"{r.variable} has no dispersion under the model", where="severity score")
        c += (w * r.direction / sd / total) * mean_j
    return c


def severity_path(
    fit: VARFit,
    baseline_shift: np.ndarray,
    restrictions: Sequence,
    weights: Sequence[float],
    z: float,
    *,
    first_year: int,
    horizon_end: int,
    linear: tuple[np.ndarray, np.ndarray] | None = None,
) -> ConditionalPath:
    """The expected path given that the risk's severity score stands ``z`` standard deviations above its
    mean (a conditional forecast: Waggoner & Zha 1999, Bańbura, Giannone & Lenza 2015).

    Around the baseline the annual figures are linear in the stacked shocks, a ≈ a0 + A u with
    u ~ N(0, Σ_U); the severity score is S = c'a. Conditioning on S = z·sd(S) gives the shocks
    u* = Σ_U A'c z / sd(S) — the most likely shocks that produce that severity — and the conditional
    covariance of the annual figures C − Cc c'C / c'Cc. The path itself is then propagated through the
    full (nonlinear) level reconstruction, so its figures compound exactly. Deterministic given the fit:
    no draw, no seed.
    """
    steps, k = baseline_shift.shape
    years = horizon_end - first_year + 1
    # ``linear``: (a0, A) of :func:`linearised_annual` at this baseline, when the caller already has it
    a0, jac = linear if linear is not None else linearised_annual(fit, baseline_shift, first_year, horizon_end)
    resid_cov = fit.resid.T @ fit.resid / fit.resid.shape[0]
    big = np.kron(np.eye(steps), resid_cov)
    cov = jac @ big @ jac.T
    c = severity_weights(cov, restrictions, years, k, weights)
    var_s = float(c @ cov @ c)
    if not var_s > 1e-12:
        raise StageStopped(
            "the severity score has no dispersion under the model (its restrictions cancel out)", stage="selection"
        )
    u = (big @ jac.T @ c) * (z / np.sqrt(var_s))
    shocks = baseline_shift + u.reshape(steps, k)
    levels = deterministic_levels(fit, shocks, first_year, horizon_end)
    quarters = levels_window(fit, np.zeros((1, steps, k)), first_year, horizon_end)[0]
    annual = annual_matrix(levels[None], quarters, first_year, horizon_end)[0]
    cond = cov - np.outer(cov @ c, cov @ c) / var_s
    sd = np.sqrt(np.clip(np.diag(cond), 0.0, None)).reshape(years, k)
    base = a0.reshape(years, k)
    ok = {
        r.variable: bool(
            r.direction * (annual[:, VARIABLES.index(r.variable)].mean() - base[:, VARIABLES.index(r.variable)].mean())
            > 0
        )
        for r in restrictions
    }
    return ConditionalPath(shocks=shocks, levels=levels, annual=annual, sd=sd, z=float(z), direction_ok=ok)
