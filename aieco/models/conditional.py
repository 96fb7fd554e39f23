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

from aieco.errors import InputError
from aieco.models.var import (
    VARIABLES,
    Simulation,
    VARFit,
    annual_levels,
    central_levels,
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
    iterations : Gauss-Newton steps on the deterministic path, then as many on the central path
    tolerance : pp; the central path is corrected until every anchor is met this closely
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
    big = np.kron(np.eye(steps), cov)  # Σ_U: shocks independent over quarters, Σ within

    def step(gap: np.ndarray, jac: np.ndarray) -> np.ndarray:
        # minimum Σ_U-norm change of the stacked shocks that closes the linearised gap
        return (big @ jac.T @ np.linalg.pinv(jac @ big @ jac.T, rcond=1e-10) @ gap).reshape(steps, k)

    done = 0
    for _ in range(iterations):  # the deterministic (mean-shock) path first: cheap and smooth
        values, jac = _jacobian(fit, shift, anchors, first_year, horizon_end, eps)
        shift = shift + step(target - values, jac)
        done += 1
    sim = simulate(fit, draws=draws, seed=seed, horizon_end=horizon_end, first_year=first_year, shift=shift)
    for _ in range(iterations):  # then the central path of the draws (the median, not the mean shock)
        centre = central_levels(fit, sim)[None, :, :]
        gap = target - _annual_values(centre, sim.quarters, anchors)[0]
        if np.max(np.abs(gap)) <= tolerance:
            break
        _, jac = _jacobian(fit, shift, anchors, first_year, horizon_end, eps)
        shift = shift + step(gap, jac)
        sim = simulate(fit, draws=draws, seed=seed, horizon_end=horizon_end, first_year=first_year, shift=shift)
        done += 1
    centre = central_levels(fit, sim)[None, :, :]
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
