"""The registered ``macro_var`` model: eligible observations + restrictions → a risk's scenario.

``run_macro_var(request, inputs, seed)`` is the execution function the registry calls.
It selects vintages at the cutoff, estimates the VAR(2), anchors the baseline to the latest
official staff projection in ``inputs.anchors`` (:mod:`aieco.models.conditional`; none: the
unconditional point forecast), draws the trajectories around it and builds the risk's path by
the run's rule: ``calibrated`` (the conditional forecast at the target severity percentile, on
the official severity scale, :func:`calibrated_headline`) or ``paper_max`` (the single most
severe admissible draw, Eq. restrictionseverity, Eq. scenarioset).

Output tables of a run (row and column labels are text in the stored artifact):

==========================  ===========================================================
table                       layout
==========================  ===========================================================
``selected_path``           rows years ('2025'..'2027'), columns the six variables (annual):
                            the risk's scenario path
``selected_quarterly``      rows quarters ('2024Q1'..'2027Q4'), columns the six variables as
                            levels (GDP, HICP, equity and house price indexes; rates in %)
                            plus ``observed`` (1.0 observed, 0.0 simulated) — the bank model
                            takes the scenario from here
``selected_bands``          calibrated rule: rows '<variable>:<year>', columns p05 p50 p95 (the
                            conditional covariance given the severity)
``selection``               row the risk; rule, target_percentile, z, scale, severity,
                            acceptance_share, admissible, draws, simulation_id (paper_max: the
                            selected draw; calibrated: the admissible draw nearest the path)
``rule_comparison``         rows the two rules, columns headline figures on the same draws
``anchors``                 rows '<variable>:<year>': anchored value, the baseline's, source
``fan_chart``               rows '<variable>:<year>', columns p05 p25 p50 p75 p95 of the draws
``unconditional``           rows 'unconditional_<i>:<year>', columns the six variables
``unconditional_ids``       rows 'unconditional_<i>', column simulation_id
``marginal_percentiles``    rows variables, columns years (severity percentile of the path)
``range_failures``          row 'trajectories', columns variables (trajectories failing the range check)
``estimation``              row 'value': nobs, max_modulus, draws, synthetic (1.0/0.0)
``data_label``              row 'value', column 'label': 'synthetic' or 'observed'
``median_path``             rows variables, columns years: the baseline (anchored point forecast,
                            else the unconditional one), annual
``unconditional_path``      rows variables, columns years: the unconditional point forecast
``selected_deviation``      rows variables, columns years: scenario − baseline (pp)
``release_rules``           rows variables: vintage_policy, series, release_rules, last_usable
``selected_quarterly_deviation``  rows quarters: scenario levels vs the baseline at the same quarter
                            (% for GDP, HICP, equity and house prices; pp for rates)
``median_quarterly``        rows quarters, columns the six variables: the baseline's levels
``unconditional_quarterly`` rows quarters: the unconditional point forecast's levels
``observed_quarters``       rows quarters, column observed (1.0 where the quarter is data)
``horizon_summary``         rows variables, columns :data:`SUMMARY_COLUMNS` (:func:`horizon_summary`)
``peak_quarters``           rows variables: the quarter of the scenario's peak
==========================  ===========================================================

Diagnostics of a run also record the vintage policy, the release rules per variable and
series, the last usable quarter of each variable, the pandemic treatment (impulse dummies
2020Q1–2021Q2: those quarters are left out of the residual pool), stability, the baseline
(anchored or unconditional, with its source), the rule and the severity scale, and the
plausibility of the baseline (:data:`PLAUSIBILITY`; a failure stops the run).

Output points: the scenario path (statistic ``selected``, with simulation_id and risk;
these become report claims), the fan-chart quantiles (statistic ``p05``…``p95`` with
``quantile``) and the unconditional paths (statistic ``unconditional_<i>``, no risk).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import numpy as np
import pandas as pd
from pydantic import Field

from aieco.asof import AsOf
from aieco.config import get_settings
from aieco.errors import StageStopped
from aieco.models import conditional, registry
from aieco.models import transforms as tf
from aieco.models.entry import InputContext, ModelEntry
from aieco.models.realdata import model_levels
from aieco.models.registry import ModelInputs, ModelResult, PointRef
from aieco.models.var import (
    ANNUAL_TRANSFORMATION,
    LEVEL_VARIABLES,
    MODEL_TRANSFORMATION,
    RANGE_BOUNDS,
    VARIABLES,
    annual_levels,
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
VERSION = "4"
QUANTILES = {"p05": 0.05, "p25": 0.25, "p50": 0.50, "p75": 0.75, "p95": 0.95}
#: The registered pandemic treatment of this specification (aieco.models.var.PANDEMIC_TREATMENTS).
PANDEMIC_TREATMENT = "dummies"
#: The registered ragged-edge treatment (aieco.models.var.RAGGED_EDGE_TREATMENTS): quarters after the
#: estimation end in which some variables are observed condition the simulation.
RAGGED_EDGE = "condition"
#: Plausibility of the unconditional median annual path (issue #14): a failure stops the run.
#: ``bands``: fixed bands (GDP growth, inflation); ``unemployment_within_pp``: distance from the last
#: observed quarterly rate; ``historical_bands``: variables whose median annual change must lie inside
#: the range of the sample's own annual changes (:func:`historical_band`), here from the smallest to
#: the largest annual-average change of every complete year in the estimation sample — a central
#: (median) path must not forecast a move more extreme than any year the sample has seen. (The
#: interquartile range, used before, refused central paths that start away from the centre: house
#: prices falling for a year after a rate rise at the 2023-06-30 cutoff, rising 6 % in 2022 at the
#: 2021-12-31 cutoff — the situations a forecast is made for; the range still refuses the OLS VAR's
#: 26–39 % a year equity paths at the early cutoffs.)
PLAUSIBILITY = {
    "bands": {"real_gdp": (-0.5, 2.5), "inflation": (0.0, 4.0)},
    "unemployment_within_pp": 1.5,
    "historical_bands": {"equity_prices": (0.0, 100.0), "house_prices": (0.0, 100.0)},
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
        "estimator": cfg.var_estimator,
        "minnesota": {"tightness": cfg.minnesota_tightness, "cross": cfg.minnesota_cross},
        "draws": cfg.var_draws,
        "min_obs": cfg.var_min_obs,
        "sample_start": cfg.sample_start,
        "sample_start_earliest": cfg.sample_start_earliest,
        "range_bounds": RANGE_BOUNDS,
        "quantiles": QUANTILES,
        "kmeans_groups": cfg.kmeans_groups,
        "tail_share": cfg.tail_share,
        "pandemic": PANDEMIC_TREATMENT,
        "ragged_edge": RAGGED_EDGE,
        "transformations": MODEL_TRANSFORMATION,
        "plausibility": PLAUSIBILITY,
        "selection": cfg.selection,
        "severity": [cfg.severity_percentile, cfg.severity_scale],
        "anchor_baseline": cfg.anchor_baseline,
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


class MacroVarInputs(ModelInputs):
    """What one ``macro_var`` run reads (built by :func:`model_inputs`; the registry stores :meth:`artifacts`)."""

    observations: pd.DataFrame = Field(description="Long frame of quarterly/monthly levels with release dates.")
    restrictions: tuple[dict[str, Any], ...] = Field(description="Restriction payloads (JSON; 'years' if timed).")
    as_of: AsOf | None = Field(
        description="The request's as-of rule (cutoff, scope, vintage policy); None: observations already eligible."
    )
    taken: dict[str, dict[str, Any]] = Field(default_factory=dict, description="Paths other risks selected.")
    draws: int | None = Field(None, description="Bootstrap draws (None: the settings').")
    anchors: tuple[dict[str, Any], ...] = Field((), description="Official projection rows the baseline is anchored to.")
    anchor_note: str = Field("", description="Why there is no anchor.")
    severity_reference: dict[str, Any] | None = Field(None, description="The official adverse GDP deviation.")
    selection: str | None = Field(None, description="Selection rule (None: the settings').")
    severity_percentile: float | None = Field(None, description="Target percentile (None: the settings').")

    def artifacts(self) -> dict[str, Any]:
        """The stored inputs under the names and forms every ``macro_var`` run has stored (input digests stable):
        the as-of rule as its cutoff (ISO text) and vintage policy, the optional entries only when set."""
        out: dict[str, Any] = {
            "observations": self.observations,
            "restrictions": [dict(r) for r in self.restrictions],
            "cutoff": self.as_of.cutoff.isoformat() if self.as_of and self.as_of.cutoff else None,
            "vintage_policy": self.as_of.vintage_policy if self.as_of else None,
            "taken": {k: dict(v) for k, v in self.taken.items()},
        }
        optional = {
            "draws": self.draws,
            "anchors": [dict(a) for a in self.anchors],
            "anchor_note": self.anchor_note,
            "severity_reference": self.severity_reference,
            "selection": self.selection,
            "severity_percentile": self.severity_percentile,
        }
        return {**out, **{k: v for k, v in optional.items() if v}}


def run_macro_var(request: ModelRequest, inputs: MacroVarInputs, seed: int | None) -> ModelResult:
    """Execution function of ``macro_var`` (see the module docstring for the output tables).

    ``inputs``: :class:`MacroVarInputs` — the observations (long DataFrame of quarterly levels with
    release dates), the restriction payloads and the request's :class:`~aieco.asof.AsOf` (cutoff and
    vintage policy; None when the observations are already eligible). The horizon is the
    request's (``request.horizon``): the simulation runs through Q4 of its last year and the
    points are tagged with its years; the estimation ends at the latest common eligible quarter.
    The diagnostics record the horizon, the estimation end and the cutoff used.
    """
    cfg = get_settings().scenario
    first_year, last_year_h = horizon_years(request.horizon)
    observations = inputs.observations
    cutoff = inputs.as_of.cutoff if inputs.as_of else None
    policy = inputs.as_of.vintage_policy if inputs.as_of else None
    draws = int(inputs.draws or cfg.var_draws)
    diagnostics: dict[str, Any] = {
        "cutoff": cutoff.isoformat() if cutoff else None,
        "draws": draws,
        "vintage_policy": policy,
        "pandemic": PANDEMIC_TREATMENT,
        "ragged_edge": RAGGED_EDGE,
        "transformations": dict(MODEL_TRANSFORMATION),
        "observations_digest": sha256_hex(observations.to_csv(index=False)),
    }
    try:
        built = model_levels(observations, inputs.as_of, VARIABLES)
    except StageStopped as stop:
        return ModelResult(status=RunStatus.stopped, tables={}, points=[], diagnostics=diagnostics, reason=stop.reason)
    synthetic = is_synthetic(built.eligible)
    levels = built.levels
    diagnostics.update({"release_rules": built.rules, "last_usable": built.last_usable})
    geo = sorted(map(str, set(built.eligible["jurisdiction"]))) if "jurisdiction" in built.eligible else []
    # the declared euro-area mapping joins memberships: say so on the run
    diagnostics["geography"] = {"jurisdictions": geo, "caveat": EURO_AREA_CAVEAT if "EA" in geo else None}
    try:
        fit = fit_var(levels, pandemic=PANDEMIC_TREATMENT, ragged_edge=RAGGED_EDGE)
    except StageStopped as stop:
        return ModelResult(status=RunStatus.stopped, tables={}, points=[], diagnostics=diagnostics, reason=stop.reason)
    diagnostics.update(
        {
            "stability": {"max_modulus": fit.max_modulus, "stable": fit.stable},
            "estimator": fit.prior,
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
    rule = str(inputs.selection or cfg.selection)
    target = float(inputs.severity_percentile or cfg.severity_percentile)
    diagnostics["selection_rule"] = {"rule": rule, "severity_percentile": target}
    # The unconditional simulation: the model's own baseline, always kept beside an anchored one.
    sim_u = simulate(fit, draws=draws, seed=seed, horizon_end=last_year_h, first_year=first_year)
    annual_u = annual_paths(sim_u, range(first_year, last_year_h + 1))
    unconditional_levels = conditional.deterministic_levels(
        fit, np.zeros((sim_u.model.shape[1], len(VARIABLES))), first_year, last_year_h
    )
    anchors = [conditional.Anchor(str(a["variable"]), int(a["year"]), float(a["value"])) for a in inputs.anchors]
    sim, anchor_table = sim_u, None
    if anchors:
        anchored, sim = conditional.anchor_shift(
            fit, anchors, first_year=first_year, horizon_end=last_year_h, draws=draws, seed=seed
        )
        anchor_table = anchors_table(inputs.anchors, anchored)
        diagnostics["baseline"] = {
            "kind": "anchored",
            "anchors": len(anchored.anchors),
            "max_gap_pp": anchored.max_gap,
            "iterations": anchored.iterations,
            "achieved": anchored.achieved,
            "source": anchor_source(inputs.anchors),
        }
    else:
        diagnostics["baseline"] = {
            "kind": "unconditional",
            "why": inputs.anchor_note or "no official projection was supplied for this cutoff",
        }
    annual = annual_paths(sim, range(first_year, last_year_h + 1)) if sim is not sim_u else annual_u
    # The baseline is the point forecast (the path with the anchor shift and no resampled residual): exact on
    # the anchors and the same for every seed and draw count; the draws give the fan around it.
    baseline_shift = sim.shift if sim.shift is not None else np.zeros((sim.model.shape[1], len(VARIABLES)))
    baseline_levels = conditional.deterministic_levels(fit, baseline_shift, first_year, last_year_h)
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
    tables["median_quarterly"] = pd.DataFrame(baseline_levels, index=list(sim.quarters), columns=list(VARIABLES))
    tables["unconditional_quarterly"] = pd.DataFrame(
        unconditional_levels, index=list(sim.quarters), columns=list(VARIABLES)
    )
    tables["observed_quarters"] = pd.DataFrame({"observed": sim.observed.astype(float)}, index=list(sim.quarters))
    if anchor_table is not None:
        tables["anchors"] = anchor_table
    distribution = common_points(tables, years, request.risk)
    base_annual = annual_of(baseline_levels, sim.quarters, years)
    uncond_annual = annual_of(unconditional_levels, sim.quarters, years)
    # rows variables, columns years (shaped unlike the selected path, as marginal_percentiles)
    tables["median_path"] = pd.DataFrame(base_annual.T, index=list(VARIABLES), columns=years)
    tables["unconditional_path"] = pd.DataFrame(uncond_annual.T, index=list(VARIABLES), columns=years)
    plausible = plausibility(uncond_annual, years, levels, fit.quarters)
    diagnostics["plausibility"] = plausible
    if not plausible["passed"] and not anchors:
        return ModelResult(
            status=RunStatus.stopped,
            tables=tables,
            points=distribution,
            diagnostics=diagnostics,
            reason="implausible unconditional median path: " + "; ".join(plausible["failures"]),
        )
    if anchors:
        # The baseline used is the anchored one: its anchored variables are the official outlook by construction
        # (a 4 % recovery year is outside the unconditional band, and right); the others must pass the checks.
        # Exempt are the anchored (variable, year) pairs only: an anchor before the horizon (a stale round)
        # leaves that variable's horizon years to the checks.
        anchored = {(str(a["variable"]), str(a["year"])) for a in inputs.anchors}
        checked = plausibility(base_annual, years, levels, fit.quarters)
        failures = [f for f in checked["failures"] if tuple(f.split()[1:3]) not in anchored]
        diagnostics["plausibility"] = {
            **checked,
            "passed": not failures,
            "failures": failures,
            "baseline": "anchored",
            "anchored_variables": sorted({v for v, _ in anchored}),
            "anchored_years": sorted(f"{v}:{y}" for v, y in anchored),
            "unconditional": {"passed": plausible["passed"], "failures": plausible["failures"]},
        }
        if failures:
            return ModelResult(
                status=RunStatus.stopped,
                tables=tables,
                points=distribution,
                diagnostics=diagnostics,
                reason="implausible anchored baseline (variables the official projection does not anchor): "
                + "; ".join(failures),
            )
    try:
        if rule == "paper_max":
            chosen = selection.select_for_risk(
                request.risk,
                annual,
                VARIABLES,
                inputs.restrictions,
                last_obs,
                range_ok,
                taken=taken_ids(inputs.taken),
                years=years,
            )
            headline = sim.levels[chosen.simulation_id - 1]
            scale = {"factor": 1.0, "why": "the paper's rule: one draw, unscaled"}
        else:
            chosen, headline, scale, bands = calibrated_headline(
                fit,
                sim,
                annual,
                request.risk,
                inputs.restrictions,
                last_obs,
                range_ok,
                years,
                target,
                inputs,
                baseline_shift,
            )
    except StageStopped as stop:
        diagnostics["acceptance_share"] = None
        return ModelResult(
            status=RunStatus.stopped, tables=tables, points=distribution, diagnostics=diagnostics, reason=stop.reason
        )
    diagnostics["acceptance_share"] = chosen.acceptance_share
    sid = chosen.simulation_id
    signature = selection.restriction_signature(inputs.restrictions)
    shared = getattr(chosen, "shared_with", "") or same_restrictions(inputs.taken, signature, request.risk)
    diagnostics["selected"] = {
        "risk": request.risk,
        "simulation_id": sid,
        "signature": signature,
        "shared_with": shared,
        "rule": rule,
        "target_percentile": target if rule == "calibrated" else None,
        "z": getattr(chosen, "z", None),
        "scale": scale,
    }
    selected_annual = annual_of(headline, sim.quarters, years)
    tables["selected_path"] = pd.DataFrame(selected_annual, index=years, columns=list(VARIABLES))
    tables["selected_deviation"] = pd.DataFrame((selected_annual - base_annual).T, index=list(VARIABLES), columns=years)
    quarterly = pd.DataFrame(headline, index=list(sim.quarters), columns=list(VARIABLES))
    quarterly["observed"] = sim.observed.astype(float)
    tables["selected_quarterly"] = quarterly
    tables["selected_quarterly_deviation"] = level_deviation(headline, baseline_levels, sim.quarters)
    if rule == "calibrated":
        tables["selected_bands"] = bands
    row = {
        "simulation_id": sid,
        "severity": chosen.severity,
        "acceptance_share": chosen.acceptance_share,
        "admissible": chosen.admissible,
        "draws": draws,
        "rule": rule,
        "target_percentile": target if rule == "calibrated" else float("nan"),
        "z": float(getattr(chosen, "z", float("nan"))),
        "scale": scale["factor"],
        "equal_weights_id": chosen.sensitivity["equal"] if rule == "paper_max" else sid,
        "inverse_priority_id": chosen.sensitivity["inverse_priority"] if rule == "paper_max" else sid,
        "shared_with": shared,
    }
    row.update({f"reference_{v}": r for v, r in chosen.references.items()})
    tables["selection"] = pd.DataFrame([row], index=[request.risk])
    # rows variables, columns years: kept apart from (and shaped unlike) the selected path
    tables["marginal_percentiles"] = pd.DataFrame(
        path_percentiles(annual, selected_annual).T, index=list(VARIABLES), columns=years
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
    tables["peak_quarters"] = peak_quarters(quarterly, int(years[0]), int(years[-1]))
    tables["rule_comparison"] = rule_comparison(
        rule,
        headline,
        fit,
        sim,
        annual,
        request.risk,
        inputs,
        last_obs,
        range_ok,
        years,
        target,
        baseline_shift,
        tables["median_quarterly"],
    )
    points += summary_points(sid, request.risk, f"{years[0]}-{years[-1]}")
    return ModelResult(status=RunStatus.completed, tables=tables, points=points + distribution, diagnostics=diagnostics)


#: Figures compared across the two rules (variable, ``horizon_summary`` column).
RULE_FIGURES = (
    ("real_gdp", "cumulative_change"),
    ("real_gdp", "deviation_from_median"),
    ("unemployment", "peak"),
    ("house_prices", "deviation_from_median"),
    ("equity_prices", "deviation_from_median"),
    ("inflation", "peak"),
)


def rule_comparison(
    rule, headline, fit, sim, annual, risk, inputs, last_obs, range_ok, years, target, shift, baseline
) -> pd.DataFrame:
    """Rows the two rules (the run's and the other), columns headline figures: the paper's single most severe
    draw beside the calibrated conditional forecast, on the same simulation set (the Evaluation page's side by
    side). The other rule's stop is a row with its reason."""
    first, last = int(years[0]), int(years[-1])
    paths: dict[str, Any] = {rule: headline}
    other = "paper_max" if rule == "calibrated" else "calibrated"
    try:
        if other == "paper_max":
            chosen = selection.select_for_risk(
                risk, annual, VARIABLES, inputs.restrictions, last_obs, range_ok, years=years
            )
            paths[other] = sim.levels[chosen.simulation_id - 1]
        else:
            paths[other] = calibrated_headline(
                fit, sim, annual, risk, inputs.restrictions, last_obs, range_ok, years, target, inputs, shift
            )[1]
    except StageStopped as stop:
        paths[other] = stop.reason
    rows = {}
    for name in ("calibrated", "paper_max"):
        path = paths[name]
        if isinstance(path, str):
            rows[name] = {"stopped": path}
            continue
        frame = pd.DataFrame(path, index=list(sim.quarters), columns=list(VARIABLES))
        summary = horizon_summary(frame, baseline, first, last)
        rows[name] = {f"{v}:{c}": float(summary.loc[v, c]) for v, c in RULE_FIGURES} | {"stopped": ""}
    return pd.DataFrame.from_dict(rows, orient="index")


def annual_of(levels: np.ndarray, quarters: Sequence[str], years: Sequence[str]) -> np.ndarray:
    """Annual figures (len(years), 6) of one quarterly level path (Q, 6)."""
    annual = annual_levels(np.asarray(levels, float)[None], tuple(quarters), range(int(years[0]), int(years[-1]) + 1))
    return np.stack([annual[v][0] for v in VARIABLES], axis=-1)


def level_deviation(selected: np.ndarray, baseline: np.ndarray, quarters: Sequence[str]) -> pd.DataFrame:
    """The selected levels against the baseline at the same quarter: % for levels, pp for rates."""
    out = pd.DataFrame(index=list(quarters), columns=list(VARIABLES), dtype=float)
    for j, v in enumerate(VARIABLES):
        out[v] = (
            100.0 * (selected[:, j] / baseline[:, j] - 1.0) if v in LEVEL_VARIABLES else selected[:, j] - baseline[:, j]
        )
    return out


def path_percentiles(annual: np.ndarray, path: np.ndarray) -> np.ndarray:
    """Severity percentile (years, k) of one annual path against the simulation set (Eq. severitypercentile)."""
    cdf = (annual <= path[None, :, :]).mean(axis=0)
    adverse_up = np.array([selection.ADVERSE_DIRECTION[v] == 1 for v in VARIABLES])
    return np.where(adverse_up[None, :], cdf, 1.0 - cdf)


def same_restrictions(taken: Any, signature: str, risk: str) -> str:
    """Why this risk's path equals another's: the same restriction set (empty when none shares it)."""
    owners = sorted(
        {o["risk"] for o in taken_ids(taken).values() if o.get("signature") == signature and o["risk"] != risk}
    )
    return f"same restrictions as {', '.join(owners)} ({signature}): the same path" if owners else ""


@dataclass(frozen=True)
class ConditionalChoice:
    """The calibrated rule's record: the path's severity and the draws' admissibility diagnostics."""

    simulation_id: int  # the admissible draw nearest the path (a diagnostic; the path is no draw)
    severity: float  # the path's severity in standard deviations of the risk's score (z · λ)
    z: float
    acceptance_share: float
    admissible: int
    references: dict[str, float]
    shared_with: str = ""


def calibrated_headline(fit, sim, annual, risk, restrictions, last_obs, range_ok, years, target, inputs, shift):
    """The calibrated rule: the conditional forecast of the risk's restricted variables at the target severity
    percentile (:func:`aieco.models.conditional.severity_path`), on the official severity scale
    (:func:`severity_factor`). Returns (ConditionalChoice, headline levels (Q, k), scale, bands table)."""
    from statistics import NormalDist

    rs = [selection.Restriction.from_record(r) for r in restrictions]
    if not rs:
        raise StageStopped(f"risk {risk} has no restriction to select a path with", stage="selection")
    relative = selection.adverse_to_median(annual, VARIABLES, rs) & range_ok
    if not relative.any():
        raise StageStopped(
            f"no simulated path satisfies every restriction of risk {risk} relative to the baseline (each restricted "
            "variable on its restriction's side of the median path over the horizon, range checks passed); the "
            "restrictions contradict each other or the model never produces them; the risk program stops",
            stage="selection",
        )
    first, last = int(years[0]), int(years[-1])
    z_target = NormalDist().inv_cdf(target)
    linear = conditional.linearised_annual(fit, shift, first, last)  # one linearisation for every path below
    scale = severity_factor(fit, shift, z_target, first, last, inputs, linear)
    weights = [selection.WEIGHTINGS["primary"](np.array([float(r.priority)]))[0] for r in rs]
    refs = selection.reference_values(rs, last_obs)
    # The paper's admissibility holds for the scenario too: every restriction on its reference (zero growth, the
    # last observed level) on the horizon mean and in every year the evidence times. A path at the calibrated
    # severity that misses one is made more severe, step by step, up to three times the calibrated z.
    z = z_target * scale["factor"]
    for step in (1.0, 1.25, 1.5, 2.0, 2.5, 3.0):
        path = conditional.severity_path(
            fit, shift, rs, weights, z * step, first_year=first, horizon_end=last, linear=linear
        )
        if selection.satisfied_every_year(path.annual[None], VARIABLES, rs, refs, years)[0]:
            break
    else:
        raise StageStopped(
            f"the conditional path of risk {risk} does not satisfy its restrictions on their references (the "
            "horizon mean and every year the evidence times) even at three times the calibrated severity; the risk "
            "program stops",
            stage="selection",
        )
    scale = {**scale, "raised_for_restrictions": step}
    against = [v for v, ok in path.direction_ok.items() if not ok]
    if against:
        raise StageStopped(
            f"the restrictions of risk {risk} pull against each other under the model's covariance: at the target "
            f"severity {', '.join(against)} would move against {'its' if len(against) == 1 else 'their'} "
            "restriction relative to the baseline; the risk program stops",
            stage="selection",
        )
    # the draws' admissibility (the paper's rule) is kept as a diagnostic of how common such paths are
    ok = selection.satisfied_every_year(annual, VARIABLES, rs, refs, years)
    admissible = ok & selection.adverse_to_median(annual, VARIABLES, rs) & range_ok
    spread = annual.std(axis=0)
    spread[spread == 0] = 1.0
    gap = (((annual - path.annual[None]) / spread[None]) ** 2).sum(axis=(1, 2))
    nearest = int(np.argmin(np.where(admissible, gap, np.inf) if admissible.any() else gap)) + 1
    bands = {}
    for j, v in enumerate(VARIABLES):
        for t, y in enumerate(years):
            centre, sd = float(path.annual[t, j]), float(path.sd[t, j])
            bands[f"{v}:{y}"] = [centre - 1.6449 * sd, centre, centre + 1.6449 * sd]
    choice = ConditionalChoice(
        simulation_id=nearest,
        severity=float(path.z),
        z=float(z_target),
        acceptance_share=float(ok.mean()),
        admissible=int(admissible.sum()),
        references=refs,
    )
    table = pd.DataFrame.from_dict(bands, orient="index", columns=["p05", "p50", "p95"])
    return choice, path.levels, scale, table


#: The generic recession the official-severity factor is measured on: real GDP below zero, priority 1.
GENERIC_RECESSION = (selection.Restriction(variable="real_gdp", direction=-1, priority=1),)


def severity_factor(fit, shift, z_target: float, first: int, last: int, inputs, linear=None) -> dict[str, Any]:
    """One factor λ for every risk of a run: the official adverse GDP deviation from baseline
    (``inputs.severity_reference``, the latest official adverse scenario published by the cutoff) over
    the GDP deviation of the generic GDP-down conditional forecast at the target percentile, both as the
    level deviation from baseline in Q4 of the reference's last scenario year.

    Why: official adverse scenarios are calibrated on historical crises, far in the tail of a VAR fitted to
    2000–2024, whose residual bootstrap treats shocks as independent quarter by quarter. Scaling keeps each
    risk's own shape and relative severity (λ is common to all risks) and puts the scenario set on the
    official severity scale. λ = 1 when ``severity_scale`` is 'none' or no reference exists at the cutoff
    (said so)."""
    cfg = get_settings().scenario
    ref = inputs.severity_reference
    mode = str(cfg.severity_scale)
    if mode == "none":
        return {"factor": 1.0, "why": "severity_scale = 'none': the model's own deviations"}
    if not ref:
        return {"factor": 1.0, "why": "no official adverse scenario with a GDP deviation was published by the cutoff"}
    generic = conditional.severity_path(
        fit, shift, GENERIC_RECESSION, [1.0], z_target, first_year=first, horizon_end=last, linear=linear
    )
    base = conditional.deterministic_levels(fit, shift, first, last)
    quarters = conditional.levels_window(fit, np.zeros((1, shift.shape[0], shift.shape[1])), first, last)[0]
    year = first + min(int(ref.get("years") or (last - first + 1)), last - first + 1) - 1
    q = list(quarters).index(f"{year}Q4")
    j = VARIABLES.index("real_gdp")
    model_dev = 100.0 * (generic.levels[q, j] / base[q, j] - 1.0)
    official = float(ref["value"])
    if not model_dev < 0 or not official < 0:
        return {"factor": 1.0, "why": f"no scaling: model deviation {model_dev:.2f}, official {official:.2f}"}
    factor = float(np.clip(official / model_dev, 0.25, 6.0))
    return {
        "factor": factor,
        "model_gdp_deviation": float(model_dev),
        "official_gdp_deviation": official,
        "at": f"{year}Q4",
        "reference": {k: ref.get(k) for k in ("publisher", "title", "published", "measure", "source")},
        "why": "official adverse GDP deviation over the generic GDP-down scenario's at the target percentile",
    }


def anchors_table(rows: Sequence[Mapping[str, Any]], result: conditional.AnchorResult) -> pd.DataFrame:
    """Rows '<variable>:<year>': the anchored value, what the baseline reaches, and the source."""
    used = {f"{a.variable}:{a.year}" for a in result.anchors}
    out = {}
    for r in rows:
        key = f"{r['variable']}:{int(r['year'])}"
        if key in used:
            out[key] = {
                "value": float(r["value"]),
                "baseline": result.achieved.get(key, float("nan")),
                "publisher": str(r.get("publisher", "")),
                "round": str(r.get("round", "")),
                "published": str(r.get("published", "")),
                "url": str(r.get("url", "")),
            }
    return pd.DataFrame.from_dict(out, orient="index")


def anchor_source(rows: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Publisher, round, publication date and URL of the anchoring projection (the first row's)."""
    if not rows:
        return {}
    r = rows[0]
    return {k: str(r.get(k, "")) for k in ("publisher", "round", "published", "url", "title")}


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
                what = "lowest to highest" if tuple(q) == (0.0, 100.0) else f"P{q[0]:g}–P{q[1]:g} range"
                failures.append(
                    f"median {v} {y} = {x:.2f} outside [{lo:.2f}, {hi:.2f}], the {what} of its "
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


def taken_ids(taken: Any) -> dict[int, dict[str, str]]:
    """``inputs.taken`` (JSON: {id text: {risk, signature}}) → {id: {...}}."""
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
    """Horizon figures of the selected path and of the baseline path, each with its stated measure.

    Rows the six variables, columns :data:`SUMMARY_COLUMNS`; both frames hold quarterly levels
    from Q1 of ``first_year - 1`` at least. Measures (issue #28, consistent arithmetic):

    * ``cumulative_change``: the compounded annual-average change over the horizon years — the
      ratio of the last year's annual average to the annual average of the year before the
      horizon (% for levels), so it equals the compounded annual figures of the report; for
      rates the change of the annual average (pp).
    * ``deviation_from_median``: the selected level against the baseline level **at the same
      date**, the horizon's last quarter (% for levels, pp for rates); its sign is the sign of
      the level difference at that date.
    * ``peak``: the selected path's highest quarterly value in the horizon; ``peak_median``: the
      baseline **at that same quarter**; ``peak_deviation_from_median``: their difference.
    * ``peak_to_trough``: the largest fall from a running peak, quarterly, from the jump-off
      (the quarter before the horizon) to the horizon's end.
    * ``end_level``: the value in the horizon's last quarter.
    """
    first, last = f"{first_year - 1}Q4", f"{last_year}Q4"
    rows = {}
    for v in VARIABLES:
        kind = SUMMARY_KIND[v]
        sel = selected.loc[first:last, v].to_numpy(dtype=float)
        med = median.loc[first:last, v].to_numpy(dtype=float)
        cum = []
        for path in (selected[v], median[v]):
            avg_end = float(path.loc[f"{last_year}Q1" : f"{last_year}Q4"].astype(float).mean())
            avg_start = float(path.loc[f"{first_year - 1}Q1" : f"{first_year - 1}Q4"].astype(float).mean())
            cum.append(100.0 * (avg_end / avg_start - 1.0) if kind == "level" else avg_end - avg_start)
        horizon_sel, horizon_med = sel[1:], med[1:]
        at = int(np.argmax(horizon_sel))  # the selected peak's quarter; the baseline is read there
        rows[v] = {
            "cumulative_change": cum[0],
            "cumulative_change_median": cum[1],
            "deviation_from_median": float(tf.deviation_from_median(sel[-1], med[-1], kind)),
            "peak": float(horizon_sel[at]),
            "peak_median": float(horizon_med[at]),
            "peak_deviation_from_median": float(tf.deviation_from_median(horizon_sel[at], horizon_med[at], kind)),
            "peak_to_trough": float(tf.peak_to_trough(sel, kind)),
            "peak_to_trough_median": float(tf.peak_to_trough(med, kind)),
            "end_level": float(tf.end_level(sel)),
            "end_level_median": float(tf.end_level(med)),
        }
    return pd.DataFrame.from_dict(rows, orient="index")[list(SUMMARY_COLUMNS)]


def peak_quarters(selected: pd.DataFrame, first_year: int, last_year: int) -> pd.DataFrame:
    """Rows variables: the quarter of the selected path's peak in the horizon (where ``peak`` is read)."""
    block = selected.loc[f"{first_year}Q1" : f"{last_year}Q4", list(VARIABLES)].astype(float)
    return pd.DataFrame({"peak_quarter": [str(block[v].idxmax()) for v in VARIABLES]}, index=list(VARIABLES))


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


def scenario_figures(horizon: str) -> list[tuple[str, dict[str, str]]]:
    """The scenario paragraph's figures over ``horizon`` (:data:`SCENARIO_FIGURES`) as (variable, ClaimSpec
    fields) pairs: the catalog entry's ``scenario_figures`` hook."""
    return [(v, scenario_figure_fields(v, col, horizon)) for v, col in SCENARIO_FIGURES]


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
    as_of: AsOf | Any,
    draws: int | None = None,
    *,
    vintage_policy: str | None = None,
    taken: Mapping[str, Mapping[str, str]] | None = None,
    anchors: Sequence[Mapping[str, Any]] | None = None,
    anchor_note: str | None = None,
    severity_reference: Mapping[str, Any] | None = None,
    selection_rule: str | None = None,
    severity_percentile: float | None = None,
) -> MacroVarInputs:
    """The inputs of a ``macro_var`` run (what the execution stage hands the registry).

    ``observations``: the long frame of :func:`workspace_observations`; ``restrictions``:
    Restriction records or dicts (a ``years`` entry: the horizon years the evidence times);
    ``as_of``: the request's :class:`~aieco.asof.AsOf` (cutoff and vintage policy, passed on unchanged),
    or a bare cutoff (date or ISO text, with ``vintage_policy``: :meth:`AsOf.at`), or None when the
    observations are already eligible; ``draws`` overrides the settings;
    ``taken``: paths other risks already selected (:func:`taken_selections`); ``anchors``: the
    official projection the baseline is anchored to (:func:`official_anchors`), ``anchor_note``
    why there is none; ``severity_reference``: the official adverse GDP deviation
    (:func:`severity_reference`); ``selection_rule`` and ``severity_percentile`` override the settings.
    """
    from aieco.models.vintages import as_of_rule

    return MacroVarInputs(
        observations=observations,
        restrictions=tuple(restriction_payload(restrictions)),
        as_of=None if as_of is None else as_of_rule(as_of, vintage_policy),
        taken={str(k): dict(v) for k, v in (taken or {}).items()},
        draws=int(draws) if draws else None,
        anchors=tuple(dict(a) for a in anchors or ()),
        anchor_note=anchor_note or "",
        severity_reference=dict(severity_reference) if severity_reference else None,
        selection=selection_rule or None,
        severity_percentile=float(severity_percentile) if severity_percentile else None,
    )


#: Publishers whose projections anchor the baseline, in order of preference (the EBA takes its baseline
#: from the Eurosystem/ECB staff projections); survey rounds (SPF) are evaluation references only.
ANCHOR_PUBLISHERS = ("EUROSYSTEM_STAFF", "ECB_STAFF")
#: Publishers that complete a staff round for a variable it lacks (the latest round by the cutoff).
SUPPLEMENT_PUBLISHERS = ("ECB_SPF",)


def _stored_rounds(store: Store, when: date | None, jurisdiction: str, publishers: Sequence[str]) -> dict[str, list]:
    """Series key → the annual baseline projections of ``publishers`` released by ``when`` (anchorable variables)."""
    rounds: dict[str, list[ObservedValue]] = {}
    for r in store.find(ObservedValue, scenario="baseline"):
        if (
            r.series_key.split(":", 1)[0].upper() in publishers
            and r.status is ValueStatus.modelled
            and r.frequency == "A"
            and r.jurisdiction == jurisdiction
            and r.variable in conditional.ANCHORABLE
            and r.release_date is not None
            and (when is None or r.release_date <= when)
        ):
            rounds.setdefault(r.series_key, []).append(r)
    return rounds


def _latest(rounds: Mapping[str, Sequence[ObservedValue]]) -> str:
    return max(rounds, key=lambda k: (max(r.release_date for r in rounds[k]), k))


def _anchor_row(r: ObservedValue, key: str, shipped: Mapping[tuple, Any]) -> dict[str, Any]:
    year = int(str(r.reference_period)[:4])
    p = shipped.get((key, r.variable, year))
    publisher, _, round_ = key.partition(":")
    return {
        "variable": r.variable,
        "year": year,
        "value": float(r.value),
        "publisher": publisher,
        "round": round_,
        "published": r.release_date.isoformat(),
        "url": getattr(p, "url", ""),
        "title": getattr(p, "title", ""),
        "observation_id": r.observation_id,
    }


def official_anchors(store: Store, cutoff: date | None, jurisdiction: str = "EA") -> tuple[list[dict[str, Any]], str]:
    """The latest staff projection published on or before ``cutoff`` as anchor rows, and a note.

    Reads the workspace's official projections (ObservedValue records with ``scenario='baseline'``,
    status modelled, annual, series key ``PUBLISHER:ROUND``; ``aieco data load-official``). A variable the
    staff round lacks (most stored staff rounds give GDP and HICP only) is completed by the latest survey
    round published by the cutoff that projects it for a year after the cutoff's year (a round that only
    nowcasts the current year says nothing about the horizon: at 2021-12-31 the 2021Q4 SPF values stored
    are for 2021 only, so the 2021Q3 round's 2023 value is used); each row names its publisher and round.
    Returns ([], why) when no staff projection was published by the cutoff.
    """
    from aieco.sources.official import read_projections

    rounds = _stored_rounds(store, cutoff, jurisdiction, ANCHOR_PUBLISHERS)
    if not rounds:
        return [], (
            f"no Eurosystem/ECB staff projection for {jurisdiction} published by {cutoff} is in the workspace "
            "(load them with `aieco data load-official`); the baseline is the VAR's unconditional point forecast"
        )
    shipped = {(p.series_key, p.variable, p.target_year): p for p in read_projections()}
    key = _latest(rounds)
    rows = [_anchor_row(r, key, shipped) for r in sorted(rounds[key], key=lambda r: (r.variable, r.reference_period))]
    surveys = _stored_rounds(store, cutoff, jurisdiction, SUPPLEMENT_PUBLISHERS)
    have = {row["variable"] for row in rows}
    for variable in conditional.ANCHORABLE:
        with_it = {k: [r for r in v if r.variable == variable] for k, v in surveys.items()}
        ahead = cutoff.year if cutoff is not None else -1
        with_it = {k: v for k, v in with_it.items() if any(int(str(r.reference_period)[:4]) > ahead for r in v)}
        if variable in have or not with_it:
            continue
        skey = _latest(with_it)
        rows += [_anchor_row(r, skey, shipped) for r in sorted(with_it[skey], key=lambda r: r.reference_period)]
    return rows, ""


def severity_reference(cutoff: date | None) -> dict[str, Any] | None:
    """The latest official adverse scenario published on or before ``cutoff`` with a real GDP deviation
    from its baseline level (``aieco/data/official/adverse_references.csv``), or None."""
    from aieco.sources.official_adverse import read_adverse_references

    when = cutoff
    rows = [
        r
        for r in read_adverse_references()
        if r["variable"] == "real_gdp"
        and r["measure"] == "deviation from baseline level"
        and (when is None or r["published"] <= when)
    ]
    if not rows:
        return None
    best = max(rows, key=lambda r: r["published"])
    return {**best, "published": best["published"].isoformat(), "years": best["horizon_years"]}


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


def build_inputs(ctx: InputContext) -> MacroVarInputs:
    """The inputs of one ``macro_var`` run in an analysis: the workspace's observations, the timed
    restrictions, the request's AsOf (unchanged), the paths other risks already selected, the official
    anchors and severity reference published by the cutoff, and the request's selection rule.

    Raises
    ------
    StageStopped
        When the workspace holds no quarterly observed values of a model variable.
    """
    cfg = get_settings().scenario
    observations = workspace_observations(ctx.store)
    missing = sorted(set(VARIABLES) - set(observations["variable"]))
    if missing:
        raise StageStopped(
            f"no quarterly observed values in the workspace for {', '.join(missing)}; "
            "load the data before the analysis",
            stage="execution",
        )
    taken = taken_selections(ctx.store, sha256_hex(observations.to_csv(index=False)), ctx.seed, cfg.var_draws)
    # only other risks' selections bind (aieco.scenario.selection); this risk's own earlier
    # run (an attempt killed before its stage completed) must not change the run's inputs and ids
    taken = {sid: who for sid, who in taken.items() if who.get("risk") != ctx.risk}
    anchors, anchor_note = ([], "anchoring is switched off (scenario.anchor_baseline)")
    if cfg.anchor_baseline:
        anchors, anchor_note = official_anchors(ctx.store, ctx.as_of.cutoff, ctx.request.jurisdictions[0])
    return model_inputs(
        observations,
        ctx.restrictions,
        ctx.as_of,
        taken=taken,
        anchors=anchors,
        anchor_note=anchor_note,
        severity_reference=severity_reference(ctx.as_of.cutoff),
        selection_rule=ctx.request.selection,
        severity_percentile=ctx.request.severity_percentile,
    )


#: ``macro_var`` in the catalog (aieco.models.catalog); the tables listed are those other stages read.
ENTRY = ModelEntry(
    model_id=MODEL_ID,
    label="VAR scenario generator",
    kind="macro",
    specification=specification,
    run=run_macro_var,
    build_inputs=build_inputs,
    scenario_figures=scenario_figures,
    tables={
        "selection": "row the risk: severity, simulation_id, rule … (candidate selection reads it)",
        "selected_path": "rows years, columns the six variables: the risk's annual scenario path",
        "selected_quarterly": "rows quarters: the scenario's levels (the bank models take the path from here)",
        "median_quarterly": "rows quarters: the baseline's levels",
        "horizon_summary": "rows variables, columns SUMMARY_COLUMNS: the report's scenario figures",
    },
)
