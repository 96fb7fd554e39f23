"""The registered ``macro_var`` model: eligible observations + restrictions → selected path.

``run_macro_var(request, inputs, seed)`` is the execution function the registry calls.
It selects vintages at the cutoff, estimates the VAR(2), draws the trajectories,
aggregates them to annual 2025–2027 paths, checks ranges and selects the most severe
admissible path for the request's risk (Eq. restrictionseverity, Eq. scenarioset).

Output tables of a run (row and column labels are text in the stored artifact):

==========================  ===========================================================
table                       layout
==========================  ===========================================================
``selected_path``           rows years ('2025'..'2027'), columns the six variables (annual)
``selected_quarterly``      rows quarters ('2024Q1'..'2027Q4'), columns the six variables as
                            levels (GDP, HICP, equity and house price indexes; rates in %)
                            plus ``observed`` (1.0 observed, 0.0 simulated) — the bank model
                            takes the selected trajectory from here
``selection``               row the risk; simulation_id, severity, acceptance_share, admissible,
                            draws, equal_weights_id, inverse_priority_id, reference_<variable>
``fan_chart``               rows '<variable>:<year>', columns p05 p25 p50 p75 p95
``unconditional``           rows 'unconditional_<i>:<year>', columns the six variables
``unconditional_ids``       rows 'unconditional_<i>', column simulation_id
``marginal_percentiles``    rows variables, columns years (severity percentile of the selected path)
``range_failures``          row 'trajectories', columns variables (trajectories failing the range check)
``estimation``              row 'value': nobs, max_modulus, draws, synthetic (1.0/0.0)
``data_label``              row 'value', column 'label': 'synthetic' or 'observed'
``median_path``             rows variables, columns years: the unconditional median annual
                            path over all draws
``selected_deviation``      rows variables, columns years: selected path − median path (pp)
``release_rules``           rows variables: vintage_policy, series, release_rules, last_usable
``selected_quarterly_deviation``  rows quarters: selected levels vs the quarterly median (% for
                            GDP, HICP, equity and house prices; pp for rates)
``median_quarterly``        rows quarters, columns the six variables: the quarter-by-quarter
                            median of the simulated levels (the median, or baseline, path)
``horizon_summary``         rows variables, columns :data:`SUMMARY_COLUMNS`: cumulative change,
                            peak, peak-to-trough, end level of the selected and the median path
                            and the selected path's deviation from the median (levels: from the
                            common jump-off, the gap between the cumulative changes)
==========================  ===========================================================

Diagnostics of a run also record the vintage policy, the release rules per variable and
series, the last usable quarter of each variable, the pandemic treatment (impulse dummies
2020Q1–2021Q2: those quarters are left out of the residual pool), stability, and the
plausibility of the unconditional median (:data:`PLAUSIBILITY`; a failure stops the run),
and for a selection whether it is shared with another risk and why.

Output points: the selected path (statistic ``selected``, with simulation_id and risk;
these become report claims), the fan-chart quantiles (statistic ``p05``…``p95`` with
``quantile``) and the unconditional paths (statistic ``unconditional_<i>``, no risk).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from aieco.config import get_settings
from aieco.errors import StageStopped
from aieco.models import registry
from aieco.models import transforms as tf
from aieco.models.realdata import model_levels
from aieco.models.registry import ModelResult, PointRef
from aieco.models.var import (
    ANNUAL_TRANSFORMATION,
    LEVEL_VARIABLES,
    MODEL_TRANSFORMATION,
    RANGE_BOUNDS,
    VARIABLES,
    annual_paths,
    conditioned_quarters,
    fit_var,
    last_observed_annual,
    last_observed_years,
    range_failures,
    simulate,
)
from aieco.records import (
    ModelRequest,
    ModelRun,
    ModelSpecification,
    ObservedValue,
    RunStatus,
    ValueStatus,
    VariableSpec,
    digest,
    sha256_hex,
)
from aieco.scenario import selection
from aieco.sources.series import observations_frame, observed_values
from aieco.sources.series.readers import EURO_AREA_CAVEAT
from aieco.store import Store

MODEL_ID = "macro_var"
VERSION = "3"
QUANTILES = {"p05": 0.05, "p25": 0.25, "p50": 0.50, "p75": 0.75, "p95": 0.95}
#: The registered pandemic treatment of this specification (aieco.models.var.PANDEMIC_TREATMENTS).
PANDEMIC_TREATMENT = "dummies"
#: The registered ragged-edge treatment (aieco.models.var.RAGGED_EDGE_TREATMENTS): quarters after the
#: estimation end in which some variables are observed condition the simulation.
RAGGED_EDGE = "condition"
#: Plausibility of the unconditional median annual path (issue #14): a failure stops the run.
#: ``bands``: fixed bands (GDP growth, inflation); ``unemployment_within_pp``: distance from the last
#: observed quarterly rate; ``historical_bands``: variables whose median annual change must lie inside
#: the central part of the sample's own annual changes (:func:`historical_band`), here the
#: interquartile range [P25, P75] of the annual-average changes of every complete year in the
#: estimation sample — a central (median) path should make central moves by the sample's own history.
PLAUSIBILITY = {
    "bands": {"real_gdp": (-0.5, 2.5), "inflation": (0.0, 4.0)},
    "unemployment_within_pp": 1.5,
    "historical_bands": {"equity_prices": (25.0, 75.0), "house_prices": (25.0, 75.0)},
}
INPUT_UNITS = {
    "real_gdp": "EUR mn, chain-linked",
    "inflation": "index",
    "unemployment": "%",
    "long_term_rate": "%",
    "equity_prices": "index",
    "house_prices": "index",
}


def horizon_label() -> str:
    """The settings' default horizon 'YYYY-YYYY' (a request names its own)."""
    cfg = get_settings().scenario
    return f"{cfg.horizon_start}-{cfg.horizon_end}"


def horizon_years(horizon: str | None) -> tuple[int, int]:
    """First and last scenario year of ``horizon`` ('YYYY-YYYY'); the settings' default when it names none."""
    m = re.fullmatch(r"(\d{4})-(\d{4})", horizon or "")
    if m is None:
        cfg = get_settings().scenario
        return cfg.horizon_start, cfg.horizon_end
    return int(m.group(1)), int(m.group(2))


def output_specs(horizon: str = registry.ANY_HORIZON) -> list[VariableSpec]:
    """Annual outputs: the six variables in % with their aggregation as transformation."""
    return [
        VariableSpec(variable=v, unit="%", frequency="A", transformation=ANNUAL_TRANSFORMATION[v], horizon=horizon)
        for v in VARIABLES
    ]


def specification() -> ModelSpecification:
    """The ``macro_var`` ModelSpecification (its snapshot digests the parameters)."""
    cfg = get_settings().scenario
    params = {
        "lags": cfg.var_lags,
        "draws": cfg.var_draws,
        "min_obs": cfg.var_min_obs,
        "sample_start": cfg.sample_start,
        "range_bounds": RANGE_BOUNDS,
        "quantiles": QUANTILES,
        "kmeans_groups": cfg.kmeans_groups,
        "tail_share": cfg.tail_share,
        "pandemic": PANDEMIC_TREATMENT,
        "ragged_edge": RAGGED_EDGE,
        "transformations": MODEL_TRANSFORMATION,
        "plausibility": PLAUSIBILITY,
    }
    return ModelSpecification.create(
        model_id=MODEL_ID,
        version=VERSION,
        description="Quarterly VAR(2) in six euro-area variables (GDP, equity and house prices as quarterly log "
        "changes, HICP as its annual log change, unemployment as its quarterly change, the 10-year yield), pandemic "
        "impulse dummies 2020Q1–2021Q2 kept out of the residual pool, residual bootstrap conditioned on the values "
        "observed after the estimation end (ragged edge), severity selection",
        inputs=[
            VariableSpec(variable=v, unit=INPUT_UNITS[v], frequency="Q", transformation="level") for v in VARIABLES
        ],
        # the horizon is the request's: the VAR simulates through Q4 of whatever last year it names
        outputs=output_specs(),
        scope="EA",
        horizon=registry.ANY_HORIZON,
        snapshot=digest(params),
        entry_point="aieco.models.macro:run_macro_var",
        diagnostics_required=["stability", "min_obs", "range_checks", "plausibility"],
        min_restrictions=1,
    )


def is_synthetic(observations: pd.DataFrame) -> bool:
    keys = observations.get("series_key", pd.Series(dtype=str)).fillna("").astype(str)
    notes = observations.get("note", pd.Series(dtype=str)).fillna("").astype(str)
    return bool(keys.str.upper().str.startswith("SYNTHETIC").any() or notes.str.contains("synthetic").any())


def run_macro_var(request: ModelRequest, inputs: Mapping[str, Any], seed: int | None) -> ModelResult:
    """Execution function of ``macro_var`` (see the module docstring for the output tables).

    ``inputs``: ``observations`` (long DataFrame of quarterly levels with release dates),
    ``restrictions`` (list of restriction dicts or records), ``cutoff`` (ISO date or None
    when the observations are already eligible), optional ``draws``. The horizon is the
    request's (``request.horizon``): the simulation runs through Q4 of its last year and the
    points are tagged with its years; the estimation ends at the latest common eligible quarter.
    The diagnostics record the horizon, the estimation end and the cutoff used.
    """
    cfg = get_settings().scenario
    first_year, last_year_h = horizon_years(request.horizon)
    observations: pd.DataFrame = inputs["observations"]
    cutoff = inputs.get("cutoff")
    policy = inputs.get("vintage_policy")
    draws = int(inputs.get("draws") or cfg.var_draws)
    diagnostics: dict[str, Any] = {
        "cutoff": str(cutoff) if cutoff else None,
        "draws": draws,
        "vintage_policy": policy,
        "pandemic": PANDEMIC_TREATMENT,
        "ragged_edge": RAGGED_EDGE,
        "transformations": dict(MODEL_TRANSFORMATION),
        "observations_digest": sha256_hex(observations.to_csv(index=False)),
    }
    try:
        built = model_levels(observations, cutoff, VARIABLES, policy)
    except StageStopped as stop:
        return ModelResult(status=RunStatus.stopped, tables={}, points=[], diagnostics=diagnostics, reason=stop.reason)
    synthetic = is_synthetic(built.eligible)
    levels = built.levels
    diagnostics.update({"release_rules": built.rules, "last_usable": built.last_usable})
    geo = sorted(map(str, set(built.eligible["jurisdiction"]))) if "jurisdiction" in built.eligible else []
    # the declared euro-area mapping joins memberships: say so on the run
    diagnostics["geography"] = {"jurisdictions": geo, "caveat": EURO_AREA_CAVEAT if "EA" in geo else None}
    fit = fit_var(levels, pandemic=PANDEMIC_TREATMENT, ragged_edge=RAGGED_EDGE)
    diagnostics.update(
        {
            "stability": {"max_modulus": fit.max_modulus, "stable": fit.stable},
            "min_obs": {"nobs": fit.nobs, "required": cfg.var_min_obs, "sample": f"{fit.quarters[0]}–{fit.endpoint}"},
            "endpoint": fit.endpoint,
            "data": "synthetic" if synthetic else "observed",
            "pandemic_dummies": list(fit.dummied),
            "residual_pool": int(fit.resid.shape[0]),
            "horizon": f"{first_year}-{last_year_h}",
            "estimation_end": fit.endpoint,
            "simulated_to": f"{last_year_h}Q4",
            "conditioned_on": conditioned_quarters(fit),
        }
    )
    sim = simulate(fit, draws=draws, seed=seed, horizon_end=last_year_h, first_year=first_year)
    annual = annual_paths(sim, range(first_year, last_year_h + 1))
    range_ok, failures = range_failures(annual)
    diagnostics["range_checks"] = {
        "failures": failures,
        "passed_share": float(range_ok.mean()),
        "bounds": {v: list(b) for v, b in RANGE_BOUNDS.items()},
    }
    last_year, last_obs = last_observed_annual(levels)
    diagnostics["reference_year"] = last_year
    diagnostics["reference_years"] = last_observed_years(levels)
    years = [str(y) for y in range(first_year, last_year_h + 1)]
    tables = common_tables(sim, annual, failures, fit, synthetic, years, seed)
    tables["release_rules"] = release_rules_table(built, policy)
    distribution = common_points(tables, years, request.risk)
    median = np.median(annual, axis=0)
    # rows variables, columns years (shaped unlike the selected path, as marginal_percentiles)
    tables["median_path"] = pd.DataFrame(median.T, index=list(VARIABLES), columns=years)
    plausible = plausibility(median, years, levels, fit.quarters)
    diagnostics["plausibility"] = plausible
    if not plausible["passed"]:
        return ModelResult(
            status=RunStatus.stopped,
            tables=tables,
            points=distribution,
            diagnostics=diagnostics,
            reason="implausible unconditional median path: " + "; ".join(plausible["failures"]),
        )
    try:
        chosen = selection.select_for_risk(
            request.risk,
            annual,
            VARIABLES,
            inputs["restrictions"],
            last_obs,
            range_ok,
            taken=taken_ids(inputs.get("taken")),
            years=years,
        )
    except StageStopped as stop:
        diagnostics["acceptance_share"] = None
        return ModelResult(
            status=RunStatus.stopped, tables=tables, points=distribution, diagnostics=diagnostics, reason=stop.reason
        )
    diagnostics["acceptance_share"] = chosen.acceptance_share
    sid = chosen.simulation_id
    diagnostics["selected"] = {
        "risk": request.risk,
        "simulation_id": sid,
        "signature": selection.restriction_signature(inputs["restrictions"]),
        "shared_with": chosen.shared_with,
    }
    tables["selected_path"] = pd.DataFrame(annual[sid - 1], index=years, columns=list(VARIABLES))
    tables["selected_deviation"] = pd.DataFrame((annual[sid - 1] - median).T, index=list(VARIABLES), columns=years)
    quarterly = sim.trajectory(sid)
    quarterly["observed"] = (quarterly.pop("status") == "observed").astype(float)
    tables["selected_quarterly"] = quarterly
    tables["selected_quarterly_deviation"] = quarterly_deviation(sim, sid)
    row = {
        "simulation_id": sid,
        "severity": chosen.severity,
        "acceptance_share": chosen.acceptance_share,
        "admissible": chosen.admissible,
        "draws": draws,
        "equal_weights_id": chosen.sensitivity["equal"],
        "inverse_priority_id": chosen.sensitivity["inverse_priority"],
        "shared_with": chosen.shared_with,
    }
    row.update({f"reference_{v}": r for v, r in chosen.references.items()})
    tables["selection"] = pd.DataFrame([row], index=[request.risk])
    # rows variables, columns years: kept apart from (and shaped unlike) the selected path
    tables["marginal_percentiles"] = pd.DataFrame(
        selection.marginal_percentiles(annual, VARIABLES, sid).T, index=list(VARIABLES), columns=years
    )
    points = [
        PointRef(
            variable=v,
            unit="%",
            transformation=ANNUAL_TRANSFORMATION[v],
            period=y,
            table="selected_path",
            row=y,
            column=v,
            statistic="selected",
            simulation_id=sid,
            risk=request.risk,
            status=ValueStatus.simulated,
        )
        for y in years
        for v in VARIABLES
    ]
    tables["horizon_summary"] = horizon_summary(
        quarterly[list(VARIABLES)], tables["median_quarterly"], int(years[0]), int(years[-1])
    )
    points += summary_points(sid, request.risk, f"{years[0]}-{years[-1]}")
    return ModelResult(status=RunStatus.completed, tables=tables, points=points + distribution, diagnostics=diagnostics)


def release_rules_table(built: Any, policy: str | None) -> pd.DataFrame:
    """Rows variables: the vintage policy, the provider series and release rules used, the last usable quarter
    (what a report states next to the data it rests on)."""
    rows = {}
    for v in VARIABLES:
        series = built.rules.get(v, {})
        rows[v] = {
            "vintage_policy": policy or "as given",
            "series": "; ".join(sorted(series)),
            "release_rules": ", ".join(sorted({r for rules in series.values() for r in rules})),
            "last_usable": built.last_usable.get(v, ""),
        }
    return pd.DataFrame.from_dict(rows, orient="index")


def historical_band(levels: pd.DataFrame, variable: str, sample: Sequence[str], q: tuple[float, float]):
    """The ``q`` percentiles of ``variable``'s annual-average changes (%) over the complete years of
    the estimation ``sample`` (quarter labels), computed as the projections are (ratio of annual
    averages); returns (low, high, the annual changes by year)."""
    lv = levels.copy()
    lv.index = pd.PeriodIndex([pd.Period(str(x), freq="Q") for x in lv.index], freq="Q")
    have = set(pd.PeriodIndex([pd.Period(x, freq="Q") for x in sample], freq="Q"))
    years = sorted({p.year for p in have})
    changes = {}
    for y in years:
        this = [pd.Period(f"{y}Q{i}", freq="Q") for i in range(1, 5)]
        prev = [pd.Period(f"{y - 1}Q{i}", freq="Q") for i in range(1, 5)]
        if all(p in have for p in this) and all(p in lv.index for p in prev):
            a, b = lv.loc[this, variable].astype(float), lv.loc[prev, variable].astype(float)
            if a.notna().all() and b.notna().all():
                changes[y] = 100.0 * (a.mean() / b.mean() - 1.0)
    if not changes:
        return float("nan"), float("nan"), changes
    lo, hi = np.percentile(list(changes.values()), q)
    return float(lo), float(hi), changes


def plausibility(
    median: np.ndarray, years: Sequence[str], levels: pd.DataFrame, sample: Sequence[str] = ()
) -> dict[str, Any]:
    """Checks of the unconditional median annual path (:data:`PLAUSIBILITY`): GDP growth and
    inflation inside their bands every year, unemployment within the band of its last observed
    quarterly value, equity and house prices inside the central part of the sample's own annual
    changes (:func:`historical_band`; skipped, and said so, without a sample)."""
    idx = {v: i for i, v in enumerate(VARIABLES)}
    last_u = levels["unemployment"].dropna()
    last_unemployment = float(last_u.iloc[-1]) if not last_u.empty else float("nan")
    failures, checks = [], {}
    for v, (lo, hi) in PLAUSIBILITY["bands"].items():
        for t, y in enumerate(years):
            x = float(median[t, idx[v]])
            checks[f"{v}:{y}"] = x
            if not lo <= x <= hi:
                failures.append(f"median {v} {y} = {x:.2f} outside [{lo}, {hi}]")
    band = PLAUSIBILITY["unemployment_within_pp"]
    for t, y in enumerate(years):
        x = float(median[t, idx["unemployment"]])
        checks[f"unemployment:{y}"] = x
        if not abs(x - last_unemployment) <= band:
            failures.append(
                f"median unemployment {y} = {x:.2f}, more than {band} pp from the last observed {last_unemployment:.2f}"
            )
    historical = {}
    for v, q in PLAUSIBILITY["historical_bands"].items():
        if not sample:
            historical[v] = {"skipped": "no estimation sample given"}
            continue
        lo, hi, changes = historical_band(levels, v, sample, q)
        historical[v] = {"band": [lo, hi], "percentiles": list(q), "years": len(changes)}
        for t, y in enumerate(years):
            x = float(median[t, idx[v]])
            checks[f"{v}:{y}"] = x
            if not lo <= x <= hi:
                failures.append(
                    f"median {v} {y} = {x:.2f} outside [{lo:.2f}, {hi:.2f}], the P{q[0]:g}–P{q[1]:g} range of its "
                    f"annual changes over the {len(changes)} complete sample years"
                )
    return {
        "passed": not failures,
        "failures": failures,
        "medians": checks,
        "last_observed_unemployment": last_unemployment,
        "historical_bands": historical,
        "bounds": PLAUSIBILITY,
    }


def quarterly_deviation(sim, simulation_id: int) -> pd.DataFrame:
    """The selected trajectory against the quarterly median over all draws: % for levels, pp for rates."""
    med = np.median(sim.levels, axis=0)
    sel = sim.levels[simulation_id - 1]
    out = pd.DataFrame(index=list(sim.quarters), columns=list(VARIABLES), dtype=float)
    for j, v in enumerate(VARIABLES):
        out[v] = 100.0 * (sel[:, j] / med[:, j] - 1.0) if v in LEVEL_VARIABLES else sel[:, j] - med[:, j]
    return out


def taken_ids(taken: Any) -> dict[int, dict[str, str]]:
    """``inputs['taken']`` (JSON: {id text: {risk, signature}}) → {id: {...}}."""
    return {int(k): dict(v) for k, v in (taken or {}).items()}


def taken_selections(
    store: Store, observations_digest: str, seed: int | None, draws: int | None
) -> dict[str, dict[str, str]]:
    """Paths already selected by completed ``macro_var`` runs on the same observations, seed and draws."""
    out: dict[str, dict[str, str]] = {}
    for run in store.find(ModelRun, model_id=MODEL_ID):
        sel = run.diagnostics.get("selected")
        if (
            run.status is RunStatus.completed
            and sel
            and run.seed == seed
            and run.diagnostics.get("observations_digest") == observations_digest
            and (draws is None or run.diagnostics.get("draws") == draws)
        ):
            out[str(sel["simulation_id"])] = {"risk": sel["risk"], "signature": sel["signature"]}
    return out


def common_points(tables: dict[str, pd.DataFrame], years: Sequence[str], risk: str) -> list[PointRef]:
    """Fan-chart quantiles (statistic p05…p95, ``quantile`` set) and the unconditional paths
    (statistic ``unconditional_<i>``, no risk: their ids are neutral)."""
    points = [
        PointRef(
            variable=v,
            unit="%",
            transformation=ANNUAL_TRANSFORMATION[v],
            period=y,
            table="fan_chart",
            row=f"{v}:{y}",
            column=name,
            statistic=name,
            quantile=q,
            risk=risk,
        )
        for v in VARIABLES
        for y in years
        for name, q in QUANTILES.items()
    ]
    ids = tables["unconditional_ids"]["simulation_id"]
    for label, sid in ids.items():
        points += [
            PointRef(
                variable=v,
                unit="%",
                transformation=ANNUAL_TRANSFORMATION[v],
                period=y,
                table="unconditional",
                row=f"{label}:{y}",
                column=v,
                statistic=str(label),
                simulation_id=int(sid),
            )
            for v in VARIABLES
            for y in years
        ]
    return points


def common_tables(
    sim, annual: np.ndarray, failures: dict[str, int], fit, synthetic: bool, years: Sequence[str], seed: int | None
) -> dict[str, pd.DataFrame]:
    """Tables every run carries, whether or not its risk selects a path."""
    qs = np.quantile(annual, list(QUANTILES.values()), axis=0)  # (5, years, k)
    fan = pd.DataFrame(
        [[qs[i, t, j] for i in range(len(QUANTILES))] for j in range(len(VARIABLES)) for t in range(len(years))],
        index=[f"{v}:{y}" for v in VARIABLES for y in years],
        columns=list(QUANTILES),
    )
    features = unconditional_severity_features(sim, annual, int(years[0]), int(years[-1]))
    ids = selection.unconditional_comparator(features, seed=get_settings().scenario.seed)
    uncond = pd.DataFrame(
        [annual[sid - 1, t] for sid in ids for t in range(len(years))],
        index=[f"unconditional_{i + 1}:{y}" for i in range(len(ids)) for y in years],
        columns=list(VARIABLES),
    )
    return {
        "fan_chart": fan,
        # the median (baseline) path: quarter by quarter median of the simulated levels
        "median_quarterly": pd.DataFrame(
            np.median(sim.levels, axis=0), index=list(sim.quarters), columns=list(VARIABLES)
        ),
        "unconditional": uncond,
        "unconditional_ids": pd.DataFrame(
            {"simulation_id": ids}, index=[f"unconditional_{i + 1}" for i in range(len(ids))]
        ),
        "range_failures": pd.DataFrame([failures], index=["trajectories"]),
        "estimation": pd.DataFrame(
            [{"nobs": fit.nobs, "max_modulus": fit.max_modulus, "draws": sim.draws, "synthetic": float(synthetic)}],
            index=["value"],
        ),
        "data_label": pd.DataFrame({"label": ["synthetic" if synthetic else "observed"]}, index=["value"]),
    }


#: How each variable changes: ratios in % for levels, differences in pp for rates.
SUMMARY_KIND = {
    "real_gdp": "level",
    "inflation": "level",
    "equity_prices": "level",
    "house_prices": "level",
    "unemployment": "rate",
    "long_term_rate": "rate",
}
#: ``horizon_summary`` columns: (transformation, statistic, unit of a level variable, unit of a rate).
SUMMARY_COLUMNS = {
    "cumulative_change": ("cumulative_change", "selected", "%", "pp"),
    "cumulative_change_median": ("cumulative_change", "median", "%", "pp"),
    "deviation_from_median": ("deviation_from_median", "selected", "%", "pp"),
    "peak": ("peak", "selected", "index", "%"),
    "peak_median": ("peak", "median", "index", "%"),
    "peak_deviation_from_median": ("peak_deviation_from_median", "selected", "%", "pp"),
    "peak_to_trough": ("peak_to_trough", "selected", "%", "pp"),
    "peak_to_trough_median": ("peak_to_trough", "median", "%", "pp"),
    "end_level": ("end_level", "selected", "index", "%"),
    "end_level_median": ("end_level", "median", "index", "%"),
}


def summary_unit(variable: str, column: str) -> str:
    _, _, level_unit, rate_unit = SUMMARY_COLUMNS[column]
    return rate_unit if SUMMARY_KIND[variable] == "rate" else level_unit


def horizon_summary(selected: pd.DataFrame, median: pd.DataFrame, first_year: int, last_year: int) -> pd.DataFrame:
    """Horizon figures of the selected path and of the median (baseline) path.

    Rows the six variables, columns :data:`SUMMARY_COLUMNS`. The window runs from the
    quarter before the horizon (jump-off) to the horizon's last quarter; peaks, troughs and
    end levels use the horizon quarters, changes start at the jump-off. The deviation of a
    level variable from the median compares the two paths from the same jump-off (the
    simulation starts after the estimation sample, so the selected path and the median need
    not share their jump-off level): ``100 ((1 + c_sel/100) / (1 + c_med/100) - 1)`` with the
    cumulative changes ``c``; rates compare end levels in pp.
    """
    first, last = f"{first_year - 1}Q4", f"{last_year}Q4"
    rows = {}
    for v in VARIABLES:
        kind = SUMMARY_KIND[v]
        sel = selected.loc[first:last, v].to_numpy(dtype=float)
        med = median.loc[first:last, v].to_numpy(dtype=float)
        # Levels (GDP, price indexes) are compared from the common jump-off: the median path is
        # re-based to the selected path's jump-off, so the deviation is the gap between the two
        # cumulative changes, (1 + c_sel) / (1 + c_med) - 1. Rates are compared as levels (pp).
        ends = (sel[-1] / sel[0], med[-1] / med[0]) if kind == "level" else (sel[-1], med[-1])
        rows[v] = {
            "cumulative_change": float(tf.cumulative_change(sel, kind)),
            "cumulative_change_median": float(tf.cumulative_change(med, kind)),
            "deviation_from_median": float(tf.deviation_from_median(*ends, kind)),
            "peak": float(tf.peak(sel[1:])),
            "peak_median": float(tf.peak(med[1:])),
            "peak_deviation_from_median": float(tf.deviation_from_median(tf.peak(sel[1:]), tf.peak(med[1:]), kind)),
            "peak_to_trough": float(tf.peak_to_trough(sel, kind)),
            "peak_to_trough_median": float(tf.peak_to_trough(med, kind)),
            "end_level": float(tf.end_level(sel)),
            "end_level_median": float(tf.end_level(med)),
        }
    return pd.DataFrame.from_dict(rows, orient="index")[list(SUMMARY_COLUMNS)]


def summary_points(simulation_id: int, risk: str, horizon: str) -> list[PointRef]:
    """Output points of ``horizon_summary`` (period: the horizon, e.g. '2025-2027')."""
    return [
        PointRef(
            variable=v,
            unit=summary_unit(v, col),
            transformation=tr,
            period=horizon,
            table="horizon_summary",
            row=v,
            column=col,
            statistic=stat,
            simulation_id=simulation_id if stat == "selected" else None,
            risk=risk,
            status=ValueStatus.simulated,
        )
        for v in VARIABLES
        for col, (tr, stat, _, _) in SUMMARY_COLUMNS.items()
    ]


#: Horizon figures the scenario paragraph states, each against the median path: registered
#: as claims beside the annual ones (variable, column of ``horizon_summary``).
SCENARIO_FIGURES: tuple[tuple[str, str], ...] = (
    ("real_gdp", "cumulative_change"),
    ("real_gdp", "cumulative_change_median"),
    ("real_gdp", "deviation_from_median"),
    ("real_gdp", "peak_to_trough"),
    ("unemployment", "peak"),
    ("unemployment", "peak_median"),
    ("unemployment", "peak_deviation_from_median"),
    ("house_prices", "cumulative_change"),
    ("house_prices", "cumulative_change_median"),
    ("house_prices", "deviation_from_median"),
    ("house_prices", "peak_to_trough"),
    ("equity_prices", "cumulative_change"),
    ("equity_prices", "cumulative_change_median"),
    ("equity_prices", "deviation_from_median"),
    ("long_term_rate", "end_level"),
    ("long_term_rate", "end_level_median"),
)


def scenario_figure_fields(variable: str, column: str, horizon: str) -> dict[str, str]:
    """ClaimSpec fields (unit, transformation, period, statistic) of one scenario figure over ``horizon``."""
    tr, stat, _, _ = SUMMARY_COLUMNS[column]
    return {"unit": summary_unit(variable, column), "transformation": tr, "period": horizon, "statistic": stat}


def unconditional_severity_features(sim, annual: np.ndarray, first_year: int, last_year: int) -> np.ndarray:
    """Cumulative horizon change of GDP, equity and house price levels; peak inflation,
    unemployment and long rate (appendix "The Macro-Financial Model")."""
    start = sim.quarters.index(f"{first_year - 1}Q4")
    end = sim.quarters.index(f"{last_year}Q4")
    idx = {v: i for i, v in enumerate(VARIABLES)}
    level_vars = ["real_gdp", "equity_prices", "house_prices"]
    change = np.stack(
        [100.0 * (sim.levels[:, end, idx[v]] / sim.levels[:, start, idx[v]] - 1.0) for v in level_vars], axis=1
    )
    peaks = np.stack(
        [annual[:, :, idx[v]].max(axis=1) for v in ("inflation", "unemployment", "long_term_rate")], axis=1
    )
    return selection.unconditional_features(change, peaks)


def store_observations(store: Store, observations: pd.DataFrame) -> int:
    """Store a long observations frame as ObservedValue records; returns how many were new."""
    return store.put_many(observed_values(observations))


def workspace_observations(store: Store) -> pd.DataFrame:
    """The workspace's historical quarterly and monthly observations of the six model variables (long frame).

    Scenario paths (``scenario`` set) are left out; the vintage selection at the cutoff
    happens inside the model run.
    """
    records = [
        r
        for r in store.find(ObservedValue, variable=list(VARIABLES))
        if r.scenario is None and r.status is ValueStatus.observed and r.frequency in ("Q", "M")
    ]
    frame = observations_frame(records)
    return frame.sort_values(
        ["variable", "reference_period", "release_date"], na_position="first", kind="stable"
    ).reset_index(drop=True)


def restriction_payload(restrictions: Sequence[Any]) -> list[dict[str, Any]]:
    """Restrictions as JSON-ready dicts (records are dumped, dicts kept)."""
    out = []
    for r in restrictions:
        out.append(dict(r) if isinstance(r, Mapping) else r.model_dump(mode="json"))
    return out


def model_inputs(
    observations: pd.DataFrame,
    restrictions: Sequence[Any],
    cutoff: Any,
    draws: int | None = None,
    *,
    vintage_policy: str | None = None,
    taken: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, Any]:
    """The inputs of a ``macro_var`` run (what the execution stage hands the registry).

    ``observations``: the long frame of :func:`workspace_observations`; ``restrictions``:
    Restriction records or dicts (a ``years`` entry: the horizon years the evidence times);
    ``cutoff``: the request's cutoff (date, ISO text or None when the observations are already
    eligible); ``draws`` overrides the settings; ``vintage_policy``: 'strict' or 'approximate';
    ``taken``: paths other risks already selected (:func:`taken_selections`).
    """
    inputs: dict[str, Any] = {
        "observations": observations,
        "restrictions": restriction_payload(restrictions),
        "cutoff": str(cutoff) if cutoff else None,
        "vintage_policy": vintage_policy,
        "taken": {str(k): dict(v) for k, v in (taken or {}).items()},
    }
    if draws:
        inputs["draws"] = int(draws)
    return inputs


def selected_quarterly_path(store: Store, run: ModelRun) -> pd.DataFrame:
    """The selected trajectory's quarterly levels (and observed flag) of a completed run."""
    if run.output_digest is None:
        raise StageStopped(f"run {run.run_id} has no output ({run.status.value}: {run.reason})", stage="application")
    tables = store.get_tables(run.output_digest)
    if "selected_quarterly" not in tables:
        raise StageStopped(f"run {run.run_id} selected no path ({run.reason})", stage="application")
    return tables["selected_quarterly"].astype(float)


def ensure_registered() -> registry.RegisteredModel:
    """Register ``macro_var`` (idempotent; the analysis registers every model through ``aieco.models.catalog``)."""
    return registry.register(specification(), run_macro_var)
