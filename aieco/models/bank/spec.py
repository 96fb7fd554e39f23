"""Registry integration of the bank models: every fit and every projection is a ModelRun.

Registered specifications:

* ``bank_feols_fit`` / ``bank_feqar_fit`` — estimate the five component equations on the
  half-year panel (outputs: coefficient tables);
* ``bank_feols`` / ``bank_feqar`` — project CET1 ratios under a half-year country scenario
  from a fit run's stored tables (outputs: CET1 ratio and depletion per bank). With official
  starting values and outcomes among the inputs the projection is a validation run and adds
  the validation tables; :func:`run_bank_validation` stores the :class:`ValidationGate`.

Output tables of a fit run: ``params`` (rows ``component|quantile`` or ``component|mean``;
columns intercept, lag, cet1_ratio_lag, log_rwa_lag, macro variables), ``fixed_effects``
(rows bank, columns components), ``fit`` (rows component), ``start_state`` (rows bank),
``dropped`` (rows bank) and for FE-OLS ``residuals`` (rows observation, columns components;
within residuals rescaled to σ, the pool the projection resamples).
Output tables of a projection run: see :func:`aieco.models.bank.accounting.summarise_projection`,
plus ``validation`` (rows bank) and ``validation_metrics`` (row ``value``) for validation runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from aieco.asof import AsOf
from aieco.config import get_settings
from aieco.errors import InputError
from aieco.models import registry
from aieco.models.bank import outputs as bank_outputs
from aieco.models.bank.accounting import IDENTITY_TOL, ComponentModel, project_cet1, summarise_projection
from aieco.models.bank.feols import fit_feols
from aieco.models.bank.feqar import fit_feqar
from aieco.models.bank.inputs import BankFitInputs, BankProjectionInputs
from aieco.models.bank.kernel import CROSSING_SAMPLE
from aieco.models.bank.panel import (
    COMPONENTS,
    CONTROLS,
    MACRO_VARIABLES,
    adverse_scenario_halfyears,
    build_panel,
    halfyear_macro,
    scenario_from_annual_path,
)
from aieco.models.bank.validation import Thresholds, validate, validation_gate
from aieco.models.bank.workspace import ValidationInputs, read_bank_inputs, read_validation_inputs
from aieco.models.entry import ModelEntry
from aieco.models.registry import ModelResult, PointRef
from aieco.progress import report
from aieco.records import (
    ModelRequest,
    ModelRun,
    ModelSpecification,
    Provenance,
    RunStatus,
    ValidationGate,
    ValueStatus,
    VariableSpec,
    digest,
)
from aieco.store import Store

VERSION = "1"
HORIZON = "2025-2027"
SCOPE = "EA"
COEF_COLUMNS = ["intercept", "lag", *CONTROLS, *MACRO_VARIABLES]
MACRO_INPUTS = [
    VariableSpec(variable=v, unit="%", frequency="H", transformation=t, horizon=HORIZON)
    for v, t in (
        ("real_gdp", "halfyear_sum_pct_change"),
        ("inflation", "halfyear_avg_yoy_pct"),
        ("unemployment", "halfyear_avg"),
        ("long_term_rate", "halfyear_avg"),
        ("equity_prices", "halfyear_avg_pct_change"),
        ("house_prices", "halfyear_avg_pct_change"),
    )
]
PROJECTION_OUTPUTS = [
    VariableSpec(variable="cet1_ratio", unit="%", frequency="H", transformation="level", horizon=HORIZON),
    VariableSpec(
        variable="cet1_depletion", unit="pp", frequency="H", transformation="start_minus_min", horizon=HORIZON
    ),
    # the cross-bank figures of the report's bank paragraph (aieco.models.bank.outputs)
    *(
        VariableSpec(variable=f.variable, unit=f.unit, frequency="A", transformation=f.transformation, horizon=HORIZON)
        for f in bank_outputs.FIGURES
        if f.variable != "cet1_depletion"
    ),
]
FIT_OUTPUTS = [
    VariableSpec(
        variable="bank_component_coefficient",
        unit="coefficient",
        frequency="H",
        transformation="level",
        horizon=HORIZON,
    )
]
DESCRIPTIONS = {
    "feols": "FE-OLS component model (within transformation), Covas-Rump-Zakrajsek components",
    "feqar": "FE-QAR penalised fixed-effects quantile autoregression (Koenker 2004), 19 quantiles",
}


def _spec(model_id: str, kind: str, outputs: list[VariableSpec], entry: str) -> ModelSpecification:
    s = get_settings().bank
    snapshot = digest(
        {
            "model": model_id,
            "quantiles": list(s.quantiles),
            "penalty": s.qar_penalty,
            "min_obs": s.min_obs,
            "version": VERSION,
        }
    )
    return ModelSpecification.create(
        model_id=model_id,
        version=VERSION,
        description=DESCRIPTIONS[kind],
        inputs=MACRO_INPUTS,
        outputs=outputs,
        scope=SCOPE,
        horizon=registry.ANY_HORIZON,
        snapshot=snapshot,
        entry_point=entry,
        diagnostics_required=["quantile_crossing", "accounting_identities"]
        if kind == "feqar"
        else ["accounting_identities"],
        min_restrictions=0,
    )


# --------------------------------------------------------------------------- fit


_FIT_CACHE: dict[str, ModelResult] = {}


def _fit(kind: str, inputs: BankFitInputs) -> ModelResult:
    """Fit the five component equations; identical inputs in one process reuse the result
    (the estimate is deterministic), so each analysis still records its own fit ModelRun."""
    s = get_settings().bank
    key = digest(
        {
            "kind": kind,
            "panel": inputs.panel.to_csv(index=False),
            "macro": inputs.macro_history.to_csv(index=False),
            "options": inputs.options,
            "quantiles": list(s.quantiles),
            "penalty": s.qar_penalty,
            "min_obs": s.min_obs,
            "v": VERSION,
        }
    )
    if key not in _FIT_CACHE:
        _FIT_CACHE[key] = _estimate(kind, inputs)
    return _FIT_CACHE[key]


def _estimate(kind: str, inputs: BankFitInputs) -> ModelResult:
    s = get_settings().bank
    opts = dict(inputs.options)
    macro = halfyear_macro(inputs.macro_history)
    panel = build_panel(
        inputs.panel,
        macro,
        min_obs=int(opts.get("min_obs", s.min_obs)),
        country_map=opts.get("country_map"),
        start=opts.get("start"),
        end=opts.get("end"),
    )
    quantiles = tuple(opts.get("quantiles", s.quantiles))
    penalty = float(opts.get("penalty", s.qar_penalty))
    rows, params, fe, fit_rows, resid = [], [], {}, {}, {}
    for comp in COMPONENTS:
        regs = panel.regressors(comp)
        if kind == "feqar":
            res = fit_feqar(panel.data, comp, regs, quantiles=quantiles, penalty=penalty)
            for tau, coef in zip(res.quantiles, res.params.to_numpy(), strict=True):
                rows.append(f"{comp}|{tau:.2f}")
                params.append(coef)
            fit_rows[comp] = [res.crossing_share, res.crossing_max, res.objective, float(res.nobs)]
        else:
            res = fit_feols(panel.data, comp, regs)
            rows.append(f"{comp}|mean")
            params.append(np.concatenate([[0.0], res.params.to_numpy()]))
            fit_rows[comp] = [res.sigma, float(res.nobs)]
            resid[comp] = res.projection_residuals()
        fe[comp] = res.fixed_effects
    tables = {
        "params": pd.DataFrame(params, index=rows, columns=COEF_COLUMNS),
        "fixed_effects": pd.DataFrame(fe),
        "fit": pd.DataFrame.from_dict(
            fit_rows,
            orient="index",
            columns=["crossing_share", "crossing_max", "objective", "nobs"] if kind == "feqar" else ["sigma", "nobs"],
        ),
        "start_state": panel.last_state,
        "dropped": panel.dropped.set_index("bank_id")
        if len(panel.dropped)
        else pd.DataFrame(columns=["country", "complete_obs", "reason"]),
    }
    if kind == "feols":
        tables["residuals"] = pd.DataFrame(resid)
    first, last = panel.data["t"].argmin(), panel.data["t"].argmax()
    period = f"{panel.data['period'].iloc[first]}-{panel.data['period'].iloc[last]}"
    points = [
        PointRef(
            variable="bank_component_coefficient",
            unit="coefficient",
            transformation="level",
            period=period,
            table="params",
            row=r,
            column=c,
            statistic=f"{r.split('|')[0]}.{c}",
            quantile=None if r.endswith("|mean") else float(r.split("|")[1]),
            status=ValueStatus.modelled,
        )
        for r in rows
        for c in COEF_COLUMNS
        if not (kind == "feols" and c == "intercept")
    ]
    crossing = {c: v[0] for c, v in fit_rows.items()} if kind == "feqar" else {}
    diagnostics = {
        "kind": kind,
        "nobs": int(len(panel.data)),
        "banks": len(panel.banks),
        "dropped": panel.dropped.to_dict(orient="records"),
        "assumptions": panel.assumptions,
        "sample": period,
        "quantiles": list(quantiles) if kind == "feqar" else [],
        "penalty": penalty if kind == "feqar" else None,
        "quantile_crossing_share": crossing,
        "solver": "highspy ipm (crossover on)" if kind == "feqar" else "numpy lstsq on within-transformed data",
    }
    return ModelResult(status=RunStatus.completed, tables=tables, points=points, diagnostics=diagnostics)


def execute_feols_fit(request: ModelRequest, inputs: BankFitInputs, seed: int | None) -> ModelResult:
    """Registry function of ``bank_feols_fit``."""
    return _fit("feols", inputs)


def execute_feqar_fit(request: ModelRequest, inputs: BankFitInputs, seed: int | None) -> ModelResult:
    """Registry function of ``bank_feqar_fit``."""
    return _fit("feqar", inputs)


# --------------------------------------------------------------------------- projection


def models_from_tables(
    params: pd.DataFrame, fixed_effects: pd.DataFrame, residuals: pd.DataFrame | None
) -> dict[str, ComponentModel]:
    """Rebuild the component equations from a fit run's stored tables."""
    models = {}
    for comp in COMPONENTS:
        rows = [r for r in params.index if str(r).split("|")[0] == comp]
        if not rows:
            raise InputError(f"fit tables hold no parameters for component {comp}", where="params table")
        coef = params.loc[rows, COEF_COLUMNS].to_numpy(dtype=float)
        fe = fixed_effects[comp].astype(float)
        fe.index = fe.index.astype(str)
        if rows[0].endswith("|mean"):
            if residuals is None:
                raise InputError("FE-OLS projection needs the fit's residuals table", where="residuals table")
            models[comp] = ComponentModel(
                comp, MACRO_VARIABLES, coef, fe, residuals=residuals[comp].dropna().to_numpy(dtype=float)
            )
        else:
            q = np.array([float(str(r).split("|")[1]) for r in rows])
            models[comp] = ComponentModel(comp, MACRO_VARIABLES, coef, fe, quantiles=q)
    return models


def _projection(inputs: BankProjectionInputs, seed: int | None) -> ModelResult:
    s = get_settings().bank
    opts = dict(inputs.options)
    models = models_from_tables(inputs.params, inputs.fixed_effects, inputs.residuals)
    start = inputs.start_state.copy()
    start.index = start.index.astype(str)
    official = inputs.official
    if official is not None:
        # validation: every model starts from the same official capital and RWA
        off = official.set_index(official["bank_id"].astype(str))
        common = start.index.intersection(off.index)
        start = start.loc[common]
        start["cet1_capital"] = off.loc[common, "cet1_capital"].astype(float)
        start["rwa"] = off.loc[common, "rwa"].astype(float)
    paths = int(opts.get("paths", s.projection_paths))
    threshold = float(opts.get("threshold", bank_outputs.CET1_THRESHOLD))
    proj = project_cet1(models, start, inputs.scenario, paths=paths, seed=int(seed or 0))
    tables = summarise_projection(proj)
    points = []
    for b in proj.banks:
        for per in proj.periods[1:]:
            for stat in ("mean", "p05", "p50", "p95"):
                points.append(
                    PointRef(
                        variable="cet1_ratio",
                        unit="%",
                        transformation="level",
                        period=per,
                        table="cet1_ratio",
                        row=f"{b}|{per}",
                        column=stat,
                        statistic=stat,
                        entity=b,
                    )
                )
        for stat in ("mean", "p05", "p50", "p95"):
            points.append(
                PointRef(
                    variable="cet1_depletion",
                    unit="pp",
                    transformation="start_minus_min",
                    period=f"{proj.periods[1]}-{proj.periods[-1]}",
                    table="depletion",
                    row=b,
                    column=stat,
                    statistic=stat,
                    entity=b,
                )
            )
    # the cross-bank distribution of the banks' median depletion over the scenario's horizon
    tables[bank_outputs.TABLE] = bank_outputs.cross_bank_table(
        tables["depletion"]["p50"].to_numpy(), tables["depletion"]["start_ratio"].to_numpy(), threshold
    )
    points += bank_outputs.cross_bank_points(_scenario_horizon(inputs.scenario))
    diagnostics: dict[str, Any] = {
        "paths": paths,
        "banks": len(proj.banks),
        # a completed projection passed Eqs. (cet1capital)-(rwarecursion) on every path (else it stops)
        "accounting_identities": {"passed": True, "max_error": proj.identity_max_error, "tolerance": IDENTITY_TOL},
        "quantile_crossing": {"share_of_checked_paths": dict(proj.crossing_share), "checked_per_bank": CROSSING_SAMPLE},
        "cet1_threshold": threshold,
        "threshold_note": bank_outputs.THRESHOLD_NOTE,
        "provenance": str(opts.get("provenance", "undeclared")),
        "cross_bank": "percentiles across banks of each bank's median simulated depletion",
        "periods": proj.periods,
        "quantile_crossing_share": proj.crossing_share,
        "identity_max_error": proj.identity_max_error,
        "skipped": proj.skipped,
        "scenario_assumptions": list(opts.get("scenario_assumptions", [])),
        "interval": "p05-p95 of simulated depletion",
    }
    if official is not None:
        pred = tables["depletion"]
        predictions = pd.DataFrame(
            {
                "bank_id": pred.index,
                "country": start.loc[pred.index, "country"].to_numpy(),
                "predicted": pred["p50"].to_numpy(),
                "lower": pred["p05"].to_numpy(),
                "upper": pred["p95"].to_numpy(),
            }
        )
        thresholds = Thresholds(s.mae_max, s.spearman_min, s.coverage_min)
        table, metrics, passed = validate(
            predictions,
            official,
            thresholds=thresholds,
            reps=int(opts.get("bootstrap_reps", s.bootstrap_reps)),
            seed=int(seed or 0),
        )
        tables["validation"] = table
        tables["validation_metrics"] = pd.DataFrame([metrics], index=["value"])
        diagnostics.update({"validation_passed": passed, "validation_metrics": metrics})
        points += [
            PointRef(
                variable=f"validation_{k}",
                unit="pp" if k in ("mae", "rmse") else "ratio",
                transformation="level",
                period=f"{proj.periods[1]}-{proj.periods[-1]}",
                table="validation_metrics",
                row="value",
                column=k,
                statistic=k,
                status=ValueStatus.modelled,
            )
            for k in ("mae", "rmse", "spearman", "top_quartile_recall", "coverage")
        ]
    return ModelResult(status=RunStatus.completed, tables=tables, points=points, diagnostics=diagnostics)


def execute_feols(request: ModelRequest, inputs: BankProjectionInputs, seed: int | None) -> ModelResult:
    """Registry function of ``bank_feols`` (projection)."""
    return _projection(inputs, seed)


def execute_feqar(request: ModelRequest, inputs: BankProjectionInputs, seed: int | None) -> ModelResult:
    """Registry function of ``bank_feqar`` (projection)."""
    return _projection(inputs, seed)


#: The bank models as an explicit tuple: (model id, registry function); see ``aieco.models.catalog``.
BANK_MODELS: tuple[tuple[str, registry.ModelFn], ...] = (
    ("bank_feols_fit", execute_feols_fit),
    ("bank_feqar_fit", execute_feqar_fit),
    ("bank_feols", execute_feols),
    ("bank_feqar", execute_feqar),
)
_KINDS = {
    "bank_feols_fit": ("feols", FIT_OUTPUTS),
    "bank_feqar_fit": ("feqar", FIT_OUTPUTS),
    "bank_feols": ("feols", PROJECTION_OUTPUTS),
    "bank_feqar": ("feqar", PROJECTION_OUTPUTS),
}


def bank_specification(model_id: str) -> ModelSpecification:
    """The registered specification of one of :data:`BANK_MODELS`."""
    kind, outputs = _KINDS[model_id]
    fn = dict(BANK_MODELS)[model_id]
    return _spec(model_id, kind, outputs, f"{__name__}:{fn.__name__}")


_LABELS = {
    "bank_feols_fit": "Bank FE-OLS fit",
    "bank_feols": "Bank CET1 projection (FE-OLS)",
    "bank_feqar_fit": "Bank FE-QAR fit",
    "bank_feqar": "Bank CET1 projection (FE-QAR)",
}
_TABLES = {
    "fit": {"params": "rows component|quantile, columns coefficients", "fixed_effects": "rows banks"},
    "projection": {"cet1_ratio": "rows bank|period", "depletion": "rows banks", bank_outputs.TABLE: "cross-bank"},
}
#: The FE bank models in the catalog (aieco.models.catalog): run by the application stage on a macro run's path.
ENTRIES = tuple(
    ModelEntry(
        model_id=model_id,
        label=_LABELS[model_id],
        kind="bank",
        specification=partial(bank_specification, model_id),
        run=fn,
        tables=_TABLES["fit" if model_id.endswith("_fit") else "projection"],
    )
    for model_id, fn in BANK_MODELS
)


def register_bank_models() -> dict[str, registry.RegisteredModel]:
    """Register the four bank specifications; returns them by model id."""
    return {model_id: registry.register(bank_specification(model_id), fn) for model_id, fn in BANK_MODELS}


# --------------------------------------------------------------------------- orchestration

EA_MAPPING_NOTE = (
    "euro-area annual scenario path applied to every bank country (explicit assumption: the "
    "macro engine projects one euro-area geography; country levels start from each country's "
    "own history)"
)


def annual_path_from_run(store: Store, run_id: str, risk: str | None = None) -> pd.DataFrame:
    """The selected annual path (years × macro variables) from a ``macro_var`` run's output tables.

    Reads ``selected_path`` (rows years, columns the six variables) when present; otherwise a
    wide table of that shape or a long table with columns variable, period/year, value (and
    optionally risk). With ``selected_quarterly`` present, a base-year row (2024) carries the
    euro-area annual averages of unemployment and the long-term rate.
    """
    run = store.get(ModelRun, run_id)
    if run is None or not run.output_digest:
        raise InputError(
            f"macro run {run_id} not found or has no output",
            where="macro run",
            fix="pass the run id of a completed macro_var run",
        )
    tables = store.get_tables(run.output_digest)
    found = _find_annual_path(tables, risk)
    if found is None:
        raise InputError(
            f"macro run {run_id} holds no annual path table with {', '.join(MACRO_VARIABLES)} "
            f"for consecutive years (tables: {', '.join(tables)})",
            where="macro run output",
            fix="select a risk (risk=...) or pass the annual path DataFrame directly",
        )
    quarterly = tables.get("selected_quarterly")
    first_year = min(found.index)
    base_year = first_year - 1
    if quarterly is not None and base_year not in found.index:
        # the euro-area base-year averages of the rate variables, so each country receives the
        # path's changes on top of its own level (scenario_from_annual_path records this)
        block = quarterly[[str(i).startswith(str(base_year)) for i in quarterly.index]]
        if len(block) == 4 and {"unemployment", "long_term_rate"} <= set(block.columns):
            base = dict.fromkeys(MACRO_VARIABLES, 0.0)
            base.update({v: float(block[v].astype(float).mean()) for v in ("unemployment", "long_term_rate")})
            found = pd.concat([pd.DataFrame([base], index=[base_year]), found]).sort_index()
    found.attrs["horizon_start"] = int(first_year)  # the run's first scenario year (the request's)
    return found


def _consecutive(years: list[int]) -> bool:
    """At least one year, one row per year, no gap (the path's horizon is the request's)."""
    ys = sorted(int(y) for y in years)
    return bool(ys) and ys == list(range(ys[0], ys[0] + len(ys)))


def _find_annual_path(tables: dict[str, pd.DataFrame], risk: str | None) -> pd.DataFrame | None:
    preferred = [n for n in ("selected_path",) if n in tables]
    others = [n for n in sorted(tables) if n not in preferred and n != "marginal_percentiles"]
    for t in (tables[n] for n in preferred + others):
        if set(MACRO_VARIABLES) <= set(t.columns):
            frame = t
            if "risk" in t.columns and risk is not None:
                frame = t[t["risk"] == risk]
            if "year" in frame.columns:
                frame = frame.set_index("year")
            try:
                years = [int(str(i)[:4]) for i in frame.index]
            except ValueError:
                continue
            out = frame[list(MACRO_VARIABLES)].astype(float)
            out.index = years
            if len(set(years)) == len(years) and _consecutive(years):
                return out
        if {"variable", "value"} <= set(t.columns) and ({"period"} & set(t.columns) or {"year"} & set(t.columns)):
            frame = t if risk is None or "risk" not in t.columns else t[t["risk"] == risk]
            col = "year" if "year" in frame.columns else "period"
            wide = frame.assign(year=[int(str(p)[:4]) for p in frame[col]]).pivot_table(
                index="year", columns="variable", values="value", aggfunc="first"
            )
            if set(MACRO_VARIABLES) <= set(wide.columns) and _consecutive(list(wide.index)):
                return wide[list(MACRO_VARIABLES)].astype(float)
    return None


def _request(
    analysis_id: str,
    risk: str,
    model_id: str,
    outputs: list[VariableSpec],
    conditions: Mapping[str, str] | None = None,
    horizon: str = HORIZON,
) -> ModelRequest:
    # the graph and retrieval conditions of the macro run it applies (every downstream record keeps them)
    return ModelRequest.create(
        analysis_id=analysis_id,
        risk=risk,
        outputs=outputs,
        restriction_ids=[],
        horizon=horizon,
        scope=SCOPE,
        rationale=f"bank application {model_id}",
        **dict(conditions or {}),
    )


def _scenario_horizon(scenario: pd.DataFrame) -> str:
    """'YYYY-YYYY' of a half-year scenario's periods (the horizon the bank runs serve)."""
    years = sorted({int(str(p)[:4]) for p in scenario["period"]}) if "period" in scenario.columns else []
    return f"{years[0]}-{years[-1]}" if years else HORIZON


def _fit_and_project(
    store: Store,
    analysis_id: str,
    kind: str,
    fit_inputs: BankFitInputs,
    scenario: pd.DataFrame,
    options: dict[str, Any],
    seed: int,
    parents: list[str],
    risk: str,
    official: pd.DataFrame | None = None,
    role: str = "generation",
    conditions: Mapping[str, str] | None = None,
) -> list[ModelRun]:
    entries = register_bank_models()
    fit_id, proj_id = f"bank_{kind}_fit", f"bank_{kind}"
    horizon = _scenario_horizon(scenario)
    fit = registry.execute(
        store,
        entries[fit_id],
        _request(analysis_id, risk, fit_id, FIT_OUTPUTS, conditions, horizon),
        fit_inputs,
        seed=seed,
        parent_runs=parents,
        role=role,
    )
    if fit.status != RunStatus.completed:
        return [fit]
    t = store.get_tables(fit.output_digest)
    inputs = BankProjectionInputs(
        params=t["params"],
        fixed_effects=t["fixed_effects"],
        start_state=t["start_state"],
        scenario=scenario,
        options=options,
        residuals=t.get("residuals"),
        official=official,
    )
    proj = registry.execute(
        store,
        entries[proj_id],
        _request(analysis_id, risk, proj_id, PROJECTION_OUTPUTS, conditions, horizon),
        inputs,
        seed=seed,
        parent_runs=[fit.run_id, *parents],
        role=role,
    )
    return [fit, proj]


def run_bank_models(
    store: Store,
    analysis_id: str,
    macro_run_id_or_annual_path: str | pd.DataFrame,
    seed: int,
    paths: int | None = None,
    *,
    risk: str | None = None,
    panel: pd.DataFrame | None = None,
    macro_history: pd.DataFrame | None = None,
    mapping_note: str = EA_MAPPING_NOTE,
    fit_options: Mapping[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
    conditions: Mapping[str, str] | None = None,
    as_of: AsOf | None = None,
) -> list[ModelRun]:
    """Fit both bank models and project CET1 under the selected macro scenario.

    Returns the ModelRuns ``[bank_feols_fit, bank_feols, bank_feqar_fit, bank_feqar]`` (a fit
    that does not complete is returned without its projection). ``progress(message)`` is called
    after each model. Without ``panel`` / ``macro_history`` the workspace's bank records released
    by ``as_of`` are read (:func:`aieco.models.bank.workspace.read_bank_inputs`; none stops with
    that reason). ``conditions`` (graph_condition, retrieval_condition) are written on every
    request and run, as on the macro run applied.
    """
    panel, history = _bank_data(store, as_of, panel, macro_history)
    if isinstance(macro_run_id_or_annual_path, str):
        annual = annual_path_from_run(store, macro_run_id_or_annual_path, risk)
        parents = [macro_run_id_or_annual_path]
    else:
        annual, parents = macro_run_id_or_annual_path, []
    countries = sorted(set(panel["country"]))
    scenario = scenario_from_annual_path(
        annual, countries, mapping_note, history=history, horizon_start=int(annual.attrs.get("horizon_start", 2025))
    )
    options = {
        "paths": int(paths or get_settings().bank.projection_paths),
        "scenario_assumptions": scenario.attrs["assumptions"],
    }
    if "data_status" in panel.columns:  # the bank records' own provenance, stated beside every bank figure
        prov = single_provenance(tuple(sorted(set(panel["data_status"].astype(str)))))
        options["provenance"] = prov.value if prov else "undeclared"
    fit_inputs = BankFitInputs(panel=panel, macro_history=history, options=dict(fit_options or {}))
    runs: list[ModelRun] = []
    for n, kind in enumerate(("feols", "feqar")):
        report("bank model fit and projection", n, 2, f"bank_{kind}")
        runs += _fit_and_project(
            store,
            analysis_id,
            kind,
            fit_inputs,
            scenario.drop(columns="t"),
            options,
            seed,
            parents,
            risk or "selected",
            conditions=conditions,
        )
        if progress:
            progress(f"bank {kind}: fit and projection done")
    report("bank model fit and projection", 2, 2, "bank_feqar")
    return runs


def run_bank_validation(
    store: Store,
    analysis_id: str,
    official: pd.DataFrame,
    official_scenario: pd.DataFrame,
    seed: int,
    paths: int | None = None,
    *,
    panel: pd.DataFrame | None = None,
    macro_history: pd.DataFrame | None = None,
    fit_options: Mapping[str, Any] | None = None,
    bootstrap_reps: int | None = None,
    kinds: tuple[str, ...] = ("feols", "feqar"),
    as_of: AsOf | None = None,
    provenance: tuple[Provenance | None, Provenance | None] = (None, None),
) -> tuple[list[ModelRun], list[ValidationGate]]:
    """External validation: the models ``kinds`` from the official starting values under the official
    adverse country scenario; stores one :class:`ValidationGate` per model as soon as that model is
    validated (so an interrupted run keeps the gates it finished). ``provenance`` is that of the
    panel and the official outcomes (the demo's are synthetic).

    ``official``: bank_id, country, cet1_capital, rwa, official_depletion (pp);
    ``official_scenario``: half-year country values (country, period, macro variables).
    Panel and history default to the workspace's (as in :func:`run_bank_models`);
    ``provenance`` (fit data, validation outcomes) is written on each gate.
    """
    panel, history = _bank_data(store, as_of, panel, macro_history)
    s = get_settings().bank
    options = {
        "paths": int(paths or s.projection_paths),
        "bootstrap_reps": int(bootstrap_reps or s.bootstrap_reps),
        "scenario_assumptions": list(official_scenario.attrs.get("assumptions", [])),
    }
    fit_inputs = BankFitInputs(panel=panel, macro_history=history, options=dict(fit_options or {}))
    runs, gates = [], []
    scen = official_scenario.drop(columns=[c for c in ("t",) if c in official_scenario.columns])
    for n, kind in enumerate(kinds):
        report("bank model validation", n, len(kinds), f"bank_{kind}")
        pair = _fit_and_project(
            store,
            analysis_id,
            kind,
            fit_inputs,
            scen,
            options,
            seed,
            [],
            "official_adverse",
            official=official,
            role="validation",
        )
        runs += pair
        proj = pair[-1]
        if proj.model_id == f"bank_{kind}" and proj.status == RunStatus.completed:
            metrics = proj.diagnostics["validation_metrics"]
            gate = validation_gate(
                proj.model_id,
                proj.run_id,
                metrics,
                Thresholds(s.mae_max, s.spearman_min, s.coverage_min),
                bool(proj.diagnostics["validation_passed"]),
            )
            if any(provenance):
                gate = ValidationGate.create(
                    **{
                        **gate.model_dump(exclude={"gate_id"}),
                        "fit_provenance": provenance[0],
                        "validation_provenance": provenance[1],
                    }
                )
            store.put(gate)
            gates.append(gate)
    report("bank model validation", len(kinds), len(kinds), f"bank_{kinds[-1]}" if kinds else "")
    return runs, gates


def _bank_data(
    store: Store, as_of: AsOf | None, panel: pd.DataFrame | None, history: pd.DataFrame | None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    if panel is not None and history is not None:
        return panel, history
    data = read_bank_inputs(store, as_of or AsOf(cutoff=None))
    return (data.panel if panel is None else panel), (data.history if history is None else history)


def single_provenance(values: tuple[str, ...]) -> Provenance | None:
    """The one provenance of a set of records (a mix is reported as the weakest: illustrative > synthetic)."""
    for p in (Provenance.illustrative, Provenance.synthetic, Provenance.real):
        if p.value in values:
            return p
    return None


def validation_scenario(inputs: ValidationInputs, history: pd.DataFrame) -> pd.DataFrame:
    """The half-year country scenario of the workspace's official-style adverse exercise."""
    return adverse_scenario_halfyears(inputs.adverse, history, sorted(set(inputs.official["country"])))


def run_eba_validation(
    store: Store, path: str, *, seed: int, reps: int | None = None, encoding: str | None = None
) -> list[ValidationGate]:
    """Validate the simple comparators of :func:`eba_comparators` against official EBA adverse depletion.

    Each comparator's per-bank validation table is stored as an artifact (digest named in the
    gate's detail) and its :class:`ValidationGate` is stored with model id ``eba_<comparator>``.
    """
    from pathlib import Path

    from aieco.models.bank.eba import eba_bank_outcomes, eba_comparators, load_eba_csv

    s = get_settings().bank
    outcomes = eba_bank_outcomes(load_eba_csv(Path(path), encoding=encoding))
    official = outcomes.reset_index()[["bank_id", "official_depletion"]]
    thresholds = Thresholds(s.mae_max, s.spearman_min, s.coverage_min)
    gates = []
    for name, preds in eba_comparators(outcomes).items():
        table, metrics, passed = validate(
            preds, official, thresholds=thresholds, reps=int(reps or s.bootstrap_reps), seed=seed
        )
        table_digest = store.put_tables({"validation": table, "outcomes": outcomes})
        gate = validation_gate(f"eba_{name}", None, metrics, thresholds, passed)
        gate = ValidationGate.create(
            **{
                **gate.model_dump(exclude={"gate_id"}),
                "detail": f"{gate.detail}; source {Path(path).name}; table artifact {table_digest}",
            }
        )
        store.put(gate)
        gates.append(gate)
    return gates


def passing_gate(store: Store, model_id: str, *, real_banks: bool = False) -> ValidationGate | None:
    """A stored gate that lets ``model_id`` supply bank conclusions, or None.

    With ``real_banks`` only a gate fitted and validated on real data counts: a gate on
    synthetic (or undeclared) data never authorises a conclusion about a real bank.
    """
    return next(
        (
            g
            for g in store.find(ValidationGate, model_id=model_id)
            if g.passed
            and (not real_banks or (g.fit_provenance == Provenance.real and g.validation_provenance == Provenance.real))
        ),
        None,
    )


def ensure_validation_gates(
    store: Store, analysis_id: str, *, seed: int, paths: int | None = None, as_of: AsOf | None = None
) -> tuple[list[ModelRun], list[ValidationGate]]:
    """Each bank model's validation gate, running the external validation for every model that has none.

    Checked per model (not "any gate exists"): a validation killed after FE-OLS's gate was stored
    runs FE-QAR's alone on the next call. The validation uses the workspace's official-style
    adverse exercise (:func:`aieco.models.bank.workspace.read_validation_inputs`); its runs and
    gates are stored with the provenance of the fit data and of the outcomes, and a model whose
    gate fails may not supply bank conclusions. A workspace without such an exercise gets no gate
    (so no bank conclusion).
    """
    have = {kind: store.find(ValidationGate, model_id=f"bank_{kind}") for kind in ("feols", "feqar")}
    missing = tuple(kind for kind, gates in have.items() if not gates)
    existing = [g for gates in have.values() for g in gates]
    if not missing:
        return [], existing
    as_of = as_of or AsOf(cutoff=None)
    exercise = read_validation_inputs(store, as_of)
    if exercise is None:
        return [], existing
    data = read_bank_inputs(store, as_of)
    runs, new = run_bank_validation(
        store,
        analysis_id,
        exercise.official,
        validation_scenario(exercise, data.history),
        seed,
        paths,
        panel=data.panel,
        macro_history=data.history,
        kinds=missing,
        provenance=(single_provenance(data.provenance), single_provenance(exercise.provenance)),
    )
    return runs, existing + new
