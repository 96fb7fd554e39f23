"""Scenario selection from a common simulation set (appendices "Scenario Construction and
Evaluation", "Selection of Several Scenarios", "Severity of Individual Variables",
"Consistency of the Joint Scenario").

Inputs are arrays of annual paths ``(draws, years, variables)`` and restriction records;
simulation ids are 1..N (row i holds id i+1), so an exact tie in the severity score is
broken by the smallest id simply by taking the first maximum.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from sklearn.cluster import KMeans
from threadpoolctl import threadpool_limits

from aieco.config import get_settings
from aieco.errors import InputError, StageStopped

#: References of the restrictions: zero for growth and asset-price changes, the last
#: eligible annual observation for inflation, unemployment and the long rate.
ZERO_REFERENCE = frozenset({"real_gdp", "equity_prices", "house_prices"})
LAST_OBSERVED_REFERENCE = frozenset({"inflation", "unemployment", "long_term_rate"})
#: Adverse direction of each annual variable, for marginal severity percentiles.
ADVERSE_DIRECTION = {
    "real_gdp": -1,
    "equity_prices": -1,
    "house_prices": -1,
    "inflation": 1,
    "unemployment": 1,
    "long_term_rate": 1,
}

WEIGHTINGS = {
    "primary": lambda q: 4.0 - q,  # Eq. (restrictionseverity): weights 4 − q_r
    "equal": lambda q: np.ones_like(q, dtype=float),
    "inverse_priority": lambda q: 1.0 / q,
}


@dataclass(frozen=True)
class Restriction:
    """What selection needs of a restriction record (variable, direction d_r, priority q_r)."""

    variable: str
    direction: int
    priority: int
    reference: str = "zero"
    restriction_id: str = ""
    years: tuple[str, ...] = ()  # horizon years the evidence times ("all": every year); () = the mean only

    @classmethod
    def from_record(cls, r: Any) -> Restriction:
        """Accept a ``records.Restriction``, a dict of its fields, or this class."""
        if isinstance(r, Restriction):
            return r
        get = r.get if isinstance(r, Mapping) else (lambda k, d=None: getattr(r, k, d))
        variable = get("model_variable") or get("variable")
        try:
            direction, priority = int(get("direction")), int(get("priority"))
        except (TypeError, ValueError) as exc:
            raise InputError(
                f"restriction on {variable!r} lacks an integer direction or priority",
                where="restrictions",
                fix="give direction 1/-1 and priority 1/2/3",
            ) from exc
        if direction not in (1, -1) or priority not in (1, 2, 3):
            raise InputError(
                f"restriction on {variable!r}: direction {direction}, priority {priority}",
                where="restrictions",
                fix="direction must be 1 or -1 and priority 1, 2 or 3",
            )
        years = tuple(str(y) for y in (get("years") or ()))
        if get("aggregation") == "every_year":
            years = ("all",)
        return cls(
            variable=str(variable),
            direction=direction,
            priority=priority,
            reference=str(get("reference", "zero") or "zero"),
            restriction_id=str(get("restriction_id", "") or ""),
            years=years,
        )


@dataclass(frozen=True)
class RiskSelection:
    """The selection for one risk: the chosen path, its score, the diagnostics."""

    risk: str
    simulation_id: int  # 1-based
    severity: float
    acceptance_share: float  # share of draws satisfying all restrictions (joint consistency)
    admissible: int  # draws satisfying all restrictions and the range checks
    references: dict[str, float]
    sensitivity: dict[str, int] = field(default_factory=dict)  # weighting → selected id
    shared_with: str = ""  # why another risk's path was selected (empty: distinct)


def three_year_means(annual: np.ndarray) -> np.ndarray:
    """Mean over the horizon years: (draws, years, k) → (draws, k)."""
    return np.asarray(annual, float).mean(axis=1)


def reference_values(restrictions: Sequence[Restriction], last_observed: Mapping[str, float]) -> dict[str, float]:
    """Reference of each restricted variable: 0 or its last eligible annual observation."""
    refs = {}
    for r in restrictions:
        if r.variable in ZERO_REFERENCE:
            refs[r.variable] = 0.0
        elif r.variable in LAST_OBSERVED_REFERENCE:
            if r.variable not in last_observed:
                raise StageStopped(
                    f"no eligible annual observation of {r.variable} for its reference", stage="selection"
                )
            refs[r.variable] = float(last_observed[r.variable])
        else:
            raise InputError(
                f"restriction variable {r.variable!r} is not a model variable",
                where="restrictions",
                fix=f"use one of {sorted(ADVERSE_DIRECTION)}",
            )
    return refs


def satisfied(
    means: np.ndarray, variables: Sequence[str], restrictions: Sequence[Restriction], refs: Mapping[str, float]
) -> np.ndarray:
    """Boolean (draws,): every restriction d_r(x̄_j − ref_j) > 0 holds."""
    ok = np.ones(means.shape[0], dtype=bool)
    for r in restrictions:
        j = list(variables).index(r.variable)
        ok &= r.direction * (means[:, j] - refs[r.variable]) > 0
    return ok


def severity_scores(
    means: np.ndarray, variables: Sequence[str], restrictions: Sequence[Restriction], weighting: str = "primary"
) -> np.ndarray:
    """Severity :math:`S_{s,k}` of Eq. (restrictionseverity) for every draw.

    Parameters
    ----------
    means : array, shape (N, k)
        Three-year means :math:`\\bar x_{s,j}` of the annual variables.
    variables : names of the k columns
    restrictions : the risk's R_k ≥ 1 restrictions
    weighting : 'primary' (4 − q), 'equal' or 'inverse_priority' (1/q)

    Returns
    -------
    array, shape (N,)
        Weighted mean of :math:`d_r(\\bar x_{s,j(r)} - \\mu_{j(r)})/\\sigma_{j(r)}`, with μ and σ
        the mean and standard deviation over the common simulation set.

    Raises
    ------
    StageStopped
        No restriction, or a restricted variable with zero standard deviation.
    """
    if not restrictions:
        raise StageStopped("the severity score needs at least one restriction", stage="selection")
    mu, sigma = means.mean(axis=0), means.std(axis=0)
    q = np.array([r.priority for r in restrictions], dtype=float)
    w = WEIGHTINGS[weighting](q)
    total = np.zeros(means.shape[0])
    for wr, r in zip(w, restrictions, strict=True):
        j = list(variables).index(r.variable)
        if not sigma[j] > 0:
            raise StageStopped(
                f"{r.variable} has zero dispersion over the simulation set; the severity score is undefined",
                stage="selection",
            )
        total += wr * r.direction * (means[:, j] - mu[j]) / sigma[j]
    return total / w.sum()


def argmax_smallest_id(scores: np.ndarray, admissible: np.ndarray) -> int:
    """1-based id of the admissible draw with the highest score; an exact tie → smallest id."""
    masked = np.where(admissible, scores, -np.inf)
    return int(np.argmax(masked)) + 1  # argmax returns the first of equal maxima


#: Evidence horizon phrases (the extractor's ``Relation.horizon``) → how many horizon years they time.
HORIZON_YEARS = (
    (
        r"on impact|short[- ](?:run|term)|near[- ](?:run|term)|shorter[- ](?:run|term)|"
        r"within (?:a|one|1|two|2|three|3|four|4) quarters?|over (?:the next )?(?:one|1) years?|"
        r"within (?:a|one|1) years?",
        1,
    ),
    (r"(?:within|over) (?:the next )?(?:two|2) years?", 2),
    (r".", 3),  # medium or long run, three or more years: every horizon year
)


def evidence_years(phrases: Sequence[str | None], years: Sequence[str]) -> tuple[str, ...]:
    """The horizon years the evidence times: the union over the supporting relations' horizon
    phrases (the first year for 'on impact'/'short term', two for 'within two years', all for
    medium/long run); () when no relation states a horizon."""
    import re

    n = 0
    for phrase in phrases:
        if not phrase:
            continue
        n = max(n, next(k for pat, k in HORIZON_YEARS if re.search(pat, phrase.lower())))
    return tuple(years[:n])


def restriction_years(r: Restriction, years: Sequence[str]) -> list[int]:
    """Indices of the horizon years a restriction must hold in (beyond its three-year mean)."""
    if "all" in r.years:
        return list(range(len(years)))
    return [i for i, y in enumerate(years) if y in r.years]


def satisfied_every_year(
    annual: np.ndarray,
    variables: Sequence[str],
    restrictions: Sequence[Restriction],
    refs: Mapping[str, float],
    years: Sequence[str] | None = None,
) -> np.ndarray:
    """Boolean (draws,): d_r(x̄_j − ref_j) > 0 on the three-year mean and d_r(x_{t,j} − ref_j) > 0 in
    every year t the evidence times (``Restriction.years``)."""
    years = list(years) if years is not None else [str(i) for i in range(annual.shape[1])]
    ok = satisfied(three_year_means(annual), variables, restrictions, refs)
    for r in restrictions:
        idx = restriction_years(r, years)
        if idx:
            j = list(variables).index(r.variable)
            ok &= (r.direction * (annual[:, idx, j] - refs[r.variable]) > 0).all(axis=1)
    return ok


def adverse_to_median(annual: np.ndarray, variables: Sequence[str], restrictions: Sequence[Restriction]) -> np.ndarray:
    """Boolean (draws,): over the horizon, every restricted variable lies on the restriction's side
    of the median path (over the simulation set): d_r(mean_t x_{t,j} − mean_t med_{t,j}) > 0."""
    median = np.median(annual, axis=0)  # (years, k)
    ok = np.ones(annual.shape[0], dtype=bool)
    for r in restrictions:
        j = list(variables).index(r.variable)
        ok &= r.direction * (annual[:, :, j].mean(axis=1) - median[:, j].mean()) > 0
    return ok


def restriction_signature(restrictions: Sequence[Any]) -> str:
    """The restriction set as text (variable, direction, priority), order-free: equal sets, equal text."""
    rs = [Restriction.from_record(r) for r in restrictions]
    return ";".join(sorted(f"{r.variable}:{r.direction:+d}:{r.priority}:{','.join(r.years)}" for r in rs))


def select_for_risk(
    risk: str,
    annual: np.ndarray,
    variables: Sequence[str],
    restrictions: Sequence[Any],
    last_observed: Mapping[str, float],
    range_ok: np.ndarray | None = None,
    taken: Mapping[int, Mapping[str, str]] | None = None,
    years: Sequence[str] | None = None,
) -> RiskSelection:
    """Select :math:`s_k^* \\in \\arg\\max_{s\\in\\mathcal A_k} S_{s,k}` (Eq. scenarioset).

    Admissible: every restriction holds on the three-year mean and in every horizon year the
    evidence times (``years`` labels the columns of ``annual``), every restricted variable is
    adverse to the median path over the horizon, and the range checks pass. ``taken`` maps
    simulation ids already selected for other risks of the same simulation set to
    ``{"risk", "signature"}``: a risk with a different restriction set does not take one of
    them; when nothing else is admissible it may, and ``RiskSelection.shared_with`` says why.

    Raises StageStopped when the admissible set is empty (the risk program stops).
    """
    rs = [Restriction.from_record(r) for r in restrictions]
    if not rs:
        raise StageStopped(f"risk {risk} has no restriction to select a path with", stage="selection")
    means = three_year_means(annual)
    refs = reference_values(rs, last_observed)
    ok = satisfied_every_year(annual, variables, rs, refs, years)
    acceptance = float(ok.mean())
    admissible = ok & adverse_to_median(annual, variables, rs) & (np.ones_like(ok) if range_ok is None else range_ok)
    if not admissible.any():
        raise StageStopped(
            f"no simulated path satisfies every restriction of risk {risk} (on the mean and in "
            f"every year the evidence times) and is adverse to the median path (acceptance share "
            f"{acceptance:.4f}); the risk program stops",
            stage="selection",
        )
    signature = restriction_signature(rs)
    blocked = np.zeros_like(admissible)
    for sid, other in (taken or {}).items():
        if other.get("risk") != risk and other.get("signature") != signature and 1 <= sid <= len(blocked):
            blocked[sid - 1] = True
    shared = ""
    if (admissible & ~blocked).any():
        admissible = admissible & ~blocked
    elif blocked.any():
        owners = sorted({o["risk"] for s, o in (taken or {}).items() if blocked[s - 1] and admissible[s - 1]})
        shared = (
            f"every admissible path of {risk} was already selected for {', '.join(owners)}; the selection is shared"
        )
    chosen = {name: argmax_smallest_id(severity_scores(means, variables, rs, name), admissible) for name in WEIGHTINGS}
    primary = severity_scores(means, variables, rs, "primary")
    sid = chosen["primary"]
    if not shared and taken and sid in taken and taken[sid].get("risk") != risk:
        shared = f"same restrictions as {taken[sid]['risk']} ({signature}): the same path is the most severe"
    return RiskSelection(
        risk=risk,
        simulation_id=sid,
        severity=float(primary[sid - 1]),
        acceptance_share=acceptance,
        admissible=int(admissible.sum()),
        references=refs,
        sensitivity=chosen,
        shared_with=shared,
    )


def unconditional_features(levels_change: np.ndarray, peaks: np.ndarray) -> np.ndarray:
    """Adverse-oriented standardised features: declines of level changes, increases of peaks.

    Parameters
    ----------
    levels_change : array (N, a)
        Cumulative changes of GDP and the relevant price indexes over the horizon (%).
    peaks : array (N, b)
        Peak annual inflation, unemployment and long-term rate.

    Returns
    -------
    array (N, a+b)
        z-scores signed so that larger is more adverse.
    """
    raw = np.hstack([-np.asarray(levels_change, float), np.asarray(peaks, float)])
    sd = raw.std(axis=0)
    sd[sd == 0] = 1.0
    return (raw - raw.mean(axis=0)) / sd


def unconditional_comparator(
    features: np.ndarray, *, groups: int | None = None, tail_share: float | None = None, seed: int = 0
) -> list[int]:
    """Most adverse decile → k-means into three groups → most severe member of each.

    Parameters
    ----------
    features : array (N, m)
        Standardised features, larger = more adverse (see :func:`unconditional_features`).

    Returns
    -------
    list of 1-based simulation ids, ordered by decreasing severity (the neutral ids
    ``unconditional_1..3`` follow this order, not any risk).
    """
    cfg = get_settings().scenario
    groups = groups or cfg.kmeans_groups
    tail_share = tail_share or cfg.tail_share
    score = features.mean(axis=1)  # equal adverse weights
    n_tail = max(groups, int(np.ceil(tail_share * len(score))))
    order = np.lexsort((np.arange(len(score)), -score))  # most severe first, ties by smallest id
    tail = order[:n_tail]
    with threadpool_limits(limits=1):  # a few thousand points: threads only add contention
        labels = KMeans(n_clusters=groups, n_init=10, random_state=seed).fit_predict(features[tail])
    picks = []
    for g in range(groups):
        members = tail[labels == g]
        best = members[np.lexsort((members, -score[members]))][0]
        picks.append(int(best))
    picks.sort(key=lambda i: (-score[i], i))
    return [i + 1 for i in picks]


def marginal_percentiles(annual: np.ndarray, variables: Sequence[str], simulation_id: int) -> np.ndarray:
    """Severity percentile of each value of one path against the simulation set (Eq. severitypercentile).

    Returns
    -------
    array (years, k)
        :math:`F(z)` where an increase is adverse, :math:`1-F(z)` where a decline is, with F
        the empirical distribution over the common simulation set for that variable and year.
    """
    z = annual[simulation_id - 1]
    cdf = (annual <= z[None, :, :]).mean(axis=0)
    adverse_up = np.array([ADVERSE_DIRECTION[v] == 1 for v in variables])
    return np.where(adverse_up[None, :], cdf, 1.0 - cdf)
