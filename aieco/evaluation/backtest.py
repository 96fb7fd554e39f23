"""Backtest: the ``macro_var`` unconditional baseline at historical cutoffs, scored against outcomes.

For each cutoff the model's own unconditional baseline is rebuilt from what was released by
that cutoff, with the analysis's own steps (:func:`aieco.models.realdata.model_levels` under
the request's vintage policy, :func:`aieco.models.var.fit_var` with the registered pandemic
and ragged-edge treatments, :func:`~aieco.models.var.simulate`,
:func:`~aieco.models.var.annual_paths`; the median annual path over the draws is the baseline,
checked by :func:`aieco.models.macro.plausibility` — a failure is a stop, recorded with its
reason). The target years of a cutoff in year ``Y`` are ``Y+1``, ``Y+2``, ``Y+3`` (1, 2, 3 years
ahead); the current year is not scored.

Scored variables (annual, as the model aggregates them): real GDP growth (%), HICP
inflation (annual-average index growth, %), unemployment (annual average, %). Outcomes are the
latest vintage of the shipped real data (``aieco/data/real``): evaluation references only —
they never reach a forecast. Benchmarks at the same cutoff, from the same eligible data:

* ``random_walk``: each variable's last complete observed annual value, for every horizon;
* ``sample_mean``: the mean of its complete annual values from the sample start;
* official forecasts published on or before the cutoff (:mod:`aieco.sources.official`,
  ``latest_round`` per publisher), each value with its URL and publication date.

Error = forecast − outcome (pp). Scores per method, variable and horizon: ``n``, RMSE and mean
error over the cutoffs where both exist (the cutoffs differ between methods: ``n`` says how many).

:func:`forecast_at_cutoff` is the pure worker task (an executor runs it anywhere);
:func:`run_backtest` is the driver and the only writer: one ``ModelRun`` per cutoff (model
``macro_var_backtest``, role evaluation, status completed or stopped with the reason) and one
summary ``ModelRun`` (model ``macro_var_backtest_scores``) whose output tables are
``cutoffs``, ``errors``, ``scores`` and ``outcomes``, and, when the caller ran the request's analysis
at each cutoff (:mod:`aieco.analysis.track_record`), ``adverse`` and ``adverse_scores``
(:func:`adverse_scores`). Ids are content digests, so every executor gives the same ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import numpy as np
import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from aieco.errors import InputError, StageStopped
from aieco.models import conditional, macro
from aieco.models.realdata import model_levels
from aieco.models.registry import code_digest, env_digest, package_version
from aieco.models.var import (
    ANNUAL_TRANSFORMATION,
    VARIABLES,
    annual_levels,
    annual_paths,
    fit_var,
    simulate,
)
from aieco.records import (
    ModelRun,
    ModelSpecification,
    RunStatus,
    VariableSpec,
    digest,
    sha256_hex,
    utc_now,
)
from aieco.store import Store

MODEL_ID = "macro_var_backtest"
SCORES_MODEL_ID = "macro_var_backtest_scores"
VERSION = "1"
SCORED: tuple[str, ...] = ("real_gdp", "inflation", "unemployment")
HORIZONS: tuple[int, ...] = (1, 2, 3)
METHODS_NAIVE = ("random_walk", "sample_mean")
#: How official projection files may name the scored variables.
OFFICIAL_NAMES = {
    "real_gdp": "real_gdp",
    "gdp": "real_gdp",
    "real_gdp_growth": "real_gdp",
    "inflation": "inflation",
    "hicp": "inflation",
    "hicp_inflation": "inflation",
    "unemployment": "unemployment",
    "unemployment_rate": "unemployment",
}


class FrozenModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BacktestConfig(FrozenModel):
    """Every setting a cutoff's forecast uses (passed to the workers; digested into the record ids)."""

    vintage_policy: str | None = Field(description="'strict', 'approximate' (the request's) or None.")
    lags: int = Field(description="VAR lag order.")
    sample_start: str = Field(description="First quarter of the estimation sample.")
    min_obs: int = Field(description="Least complete quarterly observations.")
    draws: int = Field(description="Bootstrap trajectories per cutoff.")
    seed: int = Field(description="Seed of numpy.random.default_rng for every cutoff.")
    pandemic: str = macro.PANDEMIC_TREATMENT
    ragged_edge: str = macro.RAGGED_EDGE

    @classmethod
    def from_settings(cls, vintage_policy: str | None, seed: int, **overrides: Any) -> BacktestConfig:
        from aieco.config import get_settings

        cfg = get_settings().scenario
        values = dict(
            vintage_policy=vintage_policy,
            lags=cfg.var_lags,
            sample_start=cfg.sample_start,
            min_obs=cfg.var_min_obs,
            draws=cfg.var_draws,
            seed=seed,
        )
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


class CutoffForecast(FrozenModel):
    """What one cutoff gives: the baseline and the naive benchmarks, or a stop with its stage and reason."""

    cutoff: date
    status: RunStatus
    stage: str = ""
    reason: str = ""
    years: list[int] = Field(description="Target years (cutoff year + 1, 2, 3).")
    baseline: dict[str, dict[int, float]] = Field(default_factory=dict, description="Median annual path.")
    random_walk: dict[str, dict[int, float]] = Field(default_factory=dict)
    sample_mean: dict[str, dict[int, float]] = Field(default_factory=dict)
    diagnostics: dict[str, Any] = Field(default_factory=dict)


# ----------------------------------------------------------------------------- cutoffs


def cutoff_dates(spec: str, every: str = "year") -> list[date]:
    """Cutoffs 'START..END' (ISO dates, both included), one per year (same month and day) or per quarter end."""
    m = re.fullmatch(r"\s*(\d{4}-\d{2}-\d{2})\s*\.\.\s*(\d{4}-\d{2}-\d{2})\s*", spec or "")
    if m is None:
        raise InputError(
            f"--cutoffs {spec!r} is not a range START..END", where="--cutoffs", fix="e.g. 2012-12-31..2023-12-31"
        )
    try:
        start, end = date.fromisoformat(m.group(1)), date.fromisoformat(m.group(2))
    except ValueError as exc:
        raise InputError(f"--cutoffs {spec!r}: {exc}", where="--cutoffs", fix="write real dates YYYY-MM-DD") from None
    if end < start:
        raise InputError(f"--cutoffs {spec!r} ends before it starts", where="--cutoffs", fix="write START..END")
    if every == "year":
        out = []
        for y in range(start.year, end.year + 1):
            try:
                d = start.replace(year=y)
            except ValueError:  # 29 February
                d = date(y, 2, 28)
            if d <= end:
                out.append(d)
        return out
    if every == "quarter":
        ends = pd.period_range(pd.Period(start, freq="Q"), pd.Period(end, freq="Q"), freq="Q")
        return [q.end_time.date() for q in ends if start <= q.end_time.date() <= end]
    raise InputError(f"--every {every!r}", where="--every", fix="use year or quarter")


# ----------------------------------------------------------------------------- pure steps


def annual_history(levels: pd.DataFrame) -> pd.DataFrame:
    """Observed annual values (rows years, columns :data:`VARIABLES`) in the model's annual units.

    A year counts for a variable when its four quarters and the previous year's four are
    observed (the same rule as :func:`aieco.models.var.last_observed_years`); other cells are NaN.
    Each cell is aggregated by :func:`aieco.models.var.annual_levels`, one variable at a time.
    """
    lv = levels[list(VARIABLES)].copy()
    lv.index = pd.PeriodIndex([pd.Period(str(q), freq="Q") for q in lv.index], freq="Q")
    lv = lv[~lv.index.duplicated(keep="last")].sort_index()
    out: dict[int, dict[str, float]] = {}
    for y in sorted({p.year for p in lv.index}):
        quarters = pd.period_range(f"{y - 1}Q1", f"{y}Q4", freq="Q")
        window = lv.reindex(quarters)
        complete = [v for v in VARIABLES if window[v].notna().all()]
        if not complete:
            continue
        # only complete columns are read; the others are filled so the shared aggregation can run
        block = window.ffill().bfill().fillna(1.0).to_numpy(float)[None, :, :]
        annual = annual_levels(block, tuple(str(q) for q in quarters), range(y, y + 1))
        out[y] = {v: float(annual[v][0, 0]) for v in complete}
    return pd.DataFrame.from_dict(out, orient="index", columns=list(VARIABLES)).sort_index()


def forecast_at_cutoff(observations: pd.DataFrame, task: tuple[date, BacktestConfig]) -> CutoffForecast:
    """The unconditional baseline and the naive benchmarks at one cutoff (pure; a worker task).

    ``observations``: the long frame of every release (as an analysis reads it); the vintage
    selection at ``cutoff`` happens here, exactly as in a ``macro_var`` run.
    """
    cutoff, cfg = task
    years = [cutoff.year + h for h in HORIZONS]
    base = dict(cutoff=cutoff, years=years)
    try:
        built = model_levels(observations, cutoff, VARIABLES, cfg.vintage_policy)
    except StageStopped as stop:
        return CutoffForecast(**base, status=RunStatus.stopped, stage=stop.stage or "inputs", reason=stop.reason)
    # the naive benchmarks need only the eligible data: they are scored even where the VAR stops
    history = annual_history(built.levels)
    start_year = int(cfg.sample_start[:4])
    naive = dict(
        random_walk={
            v: {y: float(history[v].dropna().iloc[-1]) for y in years} for v in SCORED if history[v].notna().any()
        },
        sample_mean={
            v: {y: float(history.loc[history.index >= start_year, v].dropna().mean()) for y in years}
            for v in SCORED
            if history.loc[history.index >= start_year, v].notna().any()
        },
    )
    diagnostics: dict[str, Any] = {"last_usable": built.last_usable, "release_rules": built.rules, "draws": cfg.draws}
    stage = "estimation"
    try:
        fit = fit_var(
            built.levels,
            lags=cfg.lags,
            sample_start=cfg.sample_start,
            min_obs=cfg.min_obs,
            pandemic=cfg.pandemic,
            ragged_edge=cfg.ragged_edge,
        )
        stage = "simulation"
        sim = simulate(fit, draws=cfg.draws, seed=cfg.seed, horizon_end=years[-1], first_year=years[0])
        annual = annual_paths(sim, range(years[0], years[-1] + 1))
    except StageStopped as stop:
        return CutoffForecast(
            **base, **naive, status=RunStatus.stopped, stage=stop.stage or stage, reason=stop.reason,
            diagnostics=diagnostics,
        )  # fmt: skip
    # The unconditional baseline is the model's point forecast (the path with no resampled residual), as in an
    # analysis (aieco.models.macro); the draws give its band, whose 5-95 % range is recorded beside it.
    point = conditional.deterministic_levels(fit, np.zeros((sim.model.shape[1], len(VARIABLES))), years[0], years[-1])
    median = conditional.annual_matrix(point[None], sim.quarters, years[0], years[-1])[0]  # (years, 6)
    band = np.percentile(annual, [5, 95], axis=0)
    col = {v: j for j, v in enumerate(VARIABLES)}
    diagnostics.update(
        {
            "estimation_end": fit.endpoint,
            "sample": f"{fit.quarters[0]}–{fit.endpoint}",
            "nobs": fit.nobs,
            "max_modulus": round(float(fit.max_modulus), 6),
            "band_5_95": {
                v: {str(y): [float(band[0, t, col[v]]), float(band[1, t, col[v]])] for t, y in enumerate(years)}
                for v in SCORED
            },
        }
    )
    plausible = macro.plausibility(median, [str(y) for y in years], built.levels, fit.quarters)
    diagnostics["plausibility"] = {"passed": plausible["passed"], "failures": plausible["failures"]}
    baseline = {v: {y: float(median[t, col[v]]) for t, y in enumerate(years)} for v in SCORED}
    if not plausible["passed"]:
        # the analysis stops here; the median is kept (scored apart as macro_var_unchecked), never hidden
        return CutoffForecast(
            **base,
            **naive,
            baseline=baseline,
            diagnostics=diagnostics,
            status=RunStatus.stopped,
            stage="plausibility",
            reason="implausible unconditional median path: " + "; ".join(plausible["failures"]),
        )
    return CutoffForecast(**base, **naive, baseline=baseline, diagnostics=diagnostics, status=RunStatus.completed)


def outcomes_table(observations: pd.DataFrame, policy: str | None = "approximate") -> tuple[pd.DataFrame, str]:
    """Outcomes as later published: annual values of the latest vintage (rows years) and that vintage's date."""
    released = pd.to_datetime(observations["release_date"], errors="coerce").dropna()
    if released.empty:
        raise InputError("the outcome data carry no release dates", where="outcomes", fix="load the real data pack")
    latest = released.max().date()
    built = model_levels(observations, latest, VARIABLES, policy)
    return annual_history(built.levels)[list(SCORED)], latest.isoformat()


def official_forecasts(
    projections: Iterable[Any] | None, cutoffs: Sequence[date], latest_round: Callable
) -> pd.DataFrame:
    """Official projections published on or before each cutoff: one row per cutoff, publisher, variable and year.

    ``projections``: :func:`aieco.sources.official.read_projections` records (publisher, publication_date,
    round, variable, target_year, value, url); ``latest_round(projections, cutoff, publisher)`` returns the
    publisher's latest round published on or before ``cutoff`` (its ``projections``), or None.
    """
    cols = ["cutoff", "method", "variable", "target_year", "forecast", "publication_date", "round", "url"]
    projections = list(projections or [])
    rows = []
    for cutoff in cutoffs:
        for publisher in sorted({p.publisher for p in projections}):
            found = latest_round(projections, cutoff, publisher)
            for p in found.projections if found is not None else ():
                variable = OFFICIAL_NAMES.get(str(p.variable).strip().lower())
                published = pd.Timestamp(p.publication_date).date()
                if variable is None or published > cutoff:
                    continue  # never a forecast published after the cutoff
                if int(p.target_year) - cutoff.year not in HORIZONS:
                    continue
                rows.append(
                    {
                        "cutoff": cutoff,
                        "method": f"official:{publisher}",
                        "variable": variable,
                        "target_year": int(p.target_year),
                        "forecast": float(p.value),
                        "publication_date": published.isoformat(),
                        "round": str(p.round),
                        "url": str(p.url),
                    }
                )
    return pd.DataFrame(rows, columns=cols)


def forecast_rows(forecasts: Iterable[CutoffForecast]) -> pd.DataFrame:
    """Model and naive forecasts as long rows (cutoff, method, variable, target_year, forecast).

    ``macro_var``: the baseline of cutoffs whose run completed (what an analysis would have used);
    ``macro_var_unchecked``: the baseline of every cutoff that reached a median, including those the
    plausibility check stopped (labelled apart, so the stops are scored, not hidden).
    """
    rows = []
    for f in forecasts:
        methods = [("random_walk", f.random_walk), ("sample_mean", f.sample_mean)]
        if f.baseline:
            methods.append(("macro_var_unchecked", f.baseline))
            if f.status is RunStatus.completed:
                methods.append(("macro_var", f.baseline))
        for method, paths in methods:
            for v, by_year in paths.items():
                for y in f.years:
                    rows.append({"cutoff": f.cutoff, "method": method, "variable": v, "target_year": y,
                                 "forecast": by_year[y]})  # fmt: skip
    return pd.DataFrame(rows, columns=["cutoff", "method", "variable", "target_year", "forecast"])


def score(forecasts: pd.DataFrame, outcomes: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Errors (forecast − outcome, one row per forecast with an outcome) and scores per method, variable, horizon."""
    f = forecasts.copy()
    f["horizon"] = [int(y) - c.year for y, c in zip(f["target_year"], f["cutoff"], strict=True)]
    outcome = []
    for v, y in zip(f["variable"], f["target_year"], strict=True):
        x = outcomes[v].get(int(y), np.nan) if v in outcomes else np.nan
        outcome.append(float(x) if pd.notna(x) else np.nan)
    f["outcome"] = outcome
    f = f[f["outcome"].notna()].copy()
    f["error"] = f["forecast"] - f["outcome"]
    f["cutoff"] = [c.isoformat() for c in f["cutoff"]]
    errors = f.sort_values(["method", "variable", "horizon", "cutoff"], kind="stable").reset_index(drop=True)
    grouped = errors.groupby(["method", "variable", "horizon"], sort=True)["error"]
    scores = pd.DataFrame(
        {
            "n": grouped.size(),
            "rmse": grouped.apply(lambda e: float(np.sqrt(np.mean(np.square(e))))),
            "mean_error": grouped.mean(),
        }
    ).reset_index()
    return errors, scores


def adverse_scores(adverse: pd.DataFrame, outcomes: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each risk's adverse paths at the cutoffs (:func:`aieco.analysis.track_record.adverse_at_cutoffs`)
    set against the outcomes, and their scores per risk, variable and horizon.

    An adverse path is no forecast, so it is not scored by its error. Per row with an outcome:
    ``deviation`` = adverse − the analysis's baseline (the scenario's push), ``outcome_gap`` = outcome −
    baseline (what happened against the baseline), and ``beyond``: the outcome went past the adverse path
    in the adverse direction (below it where the scenario pushes down, above it where it pushes up).
    Scores: ``n``, the share of outcomes beyond the adverse path (``beyond_share``; a severe but plausible
    scenario is rarely exceeded), the mean deviation and the mean outcome gap. Rows of stopped risks keep
    their stage and reason in the first frame (no outcome) and are not scored.
    """
    rows = adverse.copy()
    outcome = []
    for v, y in zip(rows["variable"], rows["target_year"], strict=True):
        x = outcomes[v].get(int(y), np.nan) if isinstance(v, str) and v in outcomes and pd.notna(y) else np.nan
        outcome.append(float(x) if pd.notna(x) else np.nan)
    rows["outcome"] = outcome
    rows["horizon"] = [
        int(y) - date.fromisoformat(str(c)).year if pd.notna(y) else np.nan
        for y, c in zip(rows["target_year"], rows["cutoff"], strict=True)
    ]
    rows["deviation"] = rows["adverse"] - rows["baseline"]
    rows["outcome_gap"] = rows["outcome"] - rows["baseline"]
    push = np.sign(rows["deviation"].astype(float))
    past = (push != 0) & (np.sign((rows["outcome"] - rows["adverse"]).astype(float)) == push)
    rows["beyond"] = [bool(b) if pd.notna(o) else None for b, o in zip(past, rows["outcome"], strict=True)]
    scored = rows[rows["outcome"].notna()]
    columns = ["risk", "variable", "horizon", "n", "beyond_share", "mean_deviation", "mean_outcome_gap"]
    if scored.empty:
        return rows, pd.DataFrame(columns=columns)
    grouped = scored.astype({"horizon": int, "beyond": float}).groupby(["risk", "variable", "horizon"], sort=True)
    scores = pd.DataFrame(
        {
            "n": grouped.size(),
            "beyond_share": grouped["beyond"].mean(),
            "mean_deviation": grouped["deviation"].mean(),
            "mean_outcome_gap": grouped["outcome_gap"].mean(),
        }
    ).reset_index()
    return rows, scores[columns]


# ----------------------------------------------------------------------------- driver


@dataclass(frozen=True)
class BacktestResult:
    backtest_id: str
    runs: list[ModelRun]  # one per cutoff, in cutoff order
    summary: ModelRun
    forecasts: list[CutoffForecast]
    errors: pd.DataFrame
    scores: pd.DataFrame
    outcome_vintage: str
    official_note: str
    adverse: pd.DataFrame | None = None  # each risk's adverse path or stop per cutoff, with the outcome
    adverse_scores: pd.DataFrame | None = None

    def as_json(self) -> dict[str, Any]:
        extra: dict[str, Any] = {}
        if self.adverse is not None:
            programs = self.adverse.drop_duplicates(["cutoff", "risk"])
            extra["adverse"] = [
                {k: (None if pd.isna(v) else v) for k, v in row.items()}
                for row in programs[["cutoff", "risk", "analysis_id", "status", "stage", "reason", "run_id"]].to_dict(
                    orient="records"
                )
            ]
            extra["adverse_scores"] = (
                self.adverse_scores if self.adverse_scores is not None else pd.DataFrame()
            ).to_dict(orient="records")
        return extra | {
            "backtest_id": self.backtest_id,
            "summary_run_id": self.summary.run_id,
            "outcome_vintage": self.outcome_vintage,
            "official": self.official_note,
            "cutoffs": [
                {
                    "cutoff": f.cutoff.isoformat(),
                    "run_id": r.run_id,
                    "status": f.status.value,
                    "stage": f.stage,
                    "reason": f.reason,
                    "estimation_end": f.diagnostics.get("estimation_end"),
                }
                for f, r in zip(self.forecasts, self.runs, strict=True)
            ],
            "scores": self.scores.to_dict(orient="records"),
        }


def specification(cfg: BacktestConfig) -> ModelSpecification:
    """The backtest's ModelSpecification (its snapshot digests the configuration)."""
    return ModelSpecification.create(
        model_id=MODEL_ID,
        version=VERSION,
        description="The macro_var unconditional baseline (median annual path) rebuilt at a historical cutoff "
        "from the releases known then, with random-walk and sample-mean benchmarks",
        inputs=[
            VariableSpec(variable=v, unit=macro.INPUT_UNITS[v], frequency="Q", transformation="level")
            for v in VARIABLES
        ],  # fmt: skip
        outputs=[
            VariableSpec(variable=v, unit="%", frequency="A", transformation=ANNUAL_TRANSFORMATION[v]) for v in SCORED
        ],
        scope="EA",
        horizon="1-3 years ahead",
        snapshot=digest(cfg.model_dump(mode="json")),
        entry_point="aieco.evaluation.backtest:forecast_at_cutoff",
        diagnostics_required=["stability", "min_obs", "plausibility"],
        min_restrictions=0,
    )


def forecast_tables(f: CutoffForecast) -> dict[str, pd.DataFrame]:
    """Output tables of one cutoff's run: rows the scored variables, columns target years, per method."""
    out = {}
    for method in ("baseline", *METHODS_NAIVE):
        paths = getattr(f, method)
        if not paths:
            continue
        out[method] = pd.DataFrame(
            [[paths[v][y] for y in f.years] for v in paths], index=list(paths), columns=[str(y) for y in f.years]
        )
    return out


def run_backtest(
    store: Store,
    observations: pd.DataFrame,
    outcome_observations: pd.DataFrame,
    cutoffs: Sequence[date],
    cfg: BacktestConfig,
    *,
    executor: Any = None,
    officials: pd.DataFrame | None = None,
    official_note: str = "",
    request_digest: str = "",
    progress: Callable[[int, int], None] | None = None,
    adverse: pd.DataFrame | None = None,
) -> BacktestResult:
    """Forecast at every cutoff (on ``executor``; in this process without one), score, and store the records.

    ``adverse``: each risk's adverse path or stop at the cutoffs
    (:func:`aieco.analysis.track_record.adverse_at_cutoffs`), scored by :func:`adverse_scores` and stored
    as the summary's ``adverse`` and ``adverse_scores`` tables (its analyses become parents of the summary).

    Workers return :class:`CutoffForecast` objects; this function alone writes: each cutoff's
    run and tables in one transaction, then the summary run. Rerunning with the same inputs
    writes nothing new (ids are digests of the content).
    """
    from aieco.executors import LocalExecutor

    if not cutoffs:
        raise InputError("no cutoff to backtest", where="--cutoffs", fix="give a range such as 2015-12-31..2023-12-31")
    spec = specification(cfg)
    env_d, _ = env_digest()
    obs_digest = sha256_hex(observations.to_csv(index=False))
    same = outcome_observations is observations
    outcome_digest = obs_digest if same else sha256_hex(outcome_observations.to_csv(index=False))
    config_d = digest(cfg.model_dump(mode="json"))
    backtest_id = (
        "backtest-"
        + digest(
            {"obs": obs_digest, "outcomes": outcome_digest, "config": config_d, "cutoffs": [str(c) for c in cutoffs]}
        )[:16]
    )
    executor = executor or LocalExecutor()
    tasks = [(c, cfg) for c in cutoffs]
    base = dict(
        analysis_id=backtest_id,
        spec_id=spec.spec_id,
        request_digest=request_digest or digest({"cutoffs": [str(c) for c in cutoffs]}),
        code_digest=code_digest(forecast_at_cutoff),
        config_digest=config_d,
        env_digest=env_d,
        seed=cfg.seed,
        package_version=package_version(),
        role="evaluation",
    )
    store.put(spec)

    def write(f: CutoffForecast) -> ModelRun:
        """One cutoff's run and tables in one transaction (content ids: the same in any arrival order)."""
        tables = forecast_tables(f)
        with store.transaction():
            output = store.put_tables(tables) if tables else None
            run = ModelRun.create(
                **base,
                model_id=MODEL_ID,
                input_digests={"observations": obs_digest, "cutoff": f.cutoff.isoformat()},
                started_at=utc_now(),
                ended_at=utc_now(),
                status=f.status,
                reason=f"{f.stage}: {f.reason}" if f.reason else "",
                diagnostics={"cutoff": f.cutoff.isoformat(), "years": f.years, "stage": f.stage, **f.diagnostics},
                output_digest=output,
            )
            store.put(run)
        return store.get(ModelRun, run.run_id) or run

    # each cutoff is written as its forecast arrives, while the workers compute the others (the driver's
    # writes no longer wait for the slowest task); a lost worker leaves the cutoffs already written whole
    results: dict[int, CutoffForecast] = {}
    written: dict[int, ModelRun] = {}
    arriving = executor.map_unordered(forecast_at_cutoff, tasks, shared=observations)
    try:
        # a distributed executor has submitted every task by now: the outcomes (which need no forecast) are
        # read while the workers compute, not after them; in this process they are read first
        outcomes, vintage = outcomes_table(outcome_observations, cfg.vintage_policy or "approximate")
        for i, forecast in arriving:
            results[i] = forecast
            written[i] = write(forecast)
            if progress is not None:
                progress(len(results), len(tasks))
    finally:
        close = getattr(arriving, "close", None)
        if close is not None:
            close()
    forecasts = [results[i] for i in range(len(tasks))]
    runs = [written[i] for i in range(len(tasks))]
    rows = forecast_rows(forecasts)
    if officials is not None and not officials.empty:
        rows = pd.concat([rows, officials[rows.columns]], ignore_index=True)
    errors, scores = score(rows, outcomes)
    if officials is not None and not officials.empty:
        keys = ["cutoff", "method", "variable", "target_year"]
        meta = officials.assign(cutoff=[c.isoformat() for c in officials["cutoff"]])
        errors = errors.merge(meta[[*keys, "publication_date", "round", "url"]], on=keys, how="left")
    stops = pd.DataFrame(
        [
            {
                "cutoff": f.cutoff.isoformat(),
                "status": f.status.value,
                "stage": f.stage,
                "reason": f.reason,
                "run_id": r.run_id,
            }
            for f, r in zip(forecasts, runs, strict=True)
        ]  # fmt: skip
    )
    tables = {
        "cutoffs": stops,
        "errors": errors.astype({"cutoff": str}),
        "scores": scores,
        "outcomes": outcomes.rename(index=str),
    }
    adverse_rows = adverse_table = None
    if adverse is not None:
        adverse_rows, adverse_table = adverse_scores(adverse, outcomes)
        tables |= {"adverse": adverse_rows, "adverse_scores": adverse_table}
    with store.transaction():
        output = store.put_tables(tables)
        summary = ModelRun.create(
            **base,
            model_id=SCORES_MODEL_ID,
            input_digests={"observations": obs_digest, "outcomes": outcome_digest},
            started_at=utc_now(),
            ended_at=utc_now(),
            status=RunStatus.completed,
            reason="",
            diagnostics={
                "cutoffs": [c.isoformat() for c in cutoffs],
                "completed": sum(f.status is RunStatus.completed for f in forecasts),
                "stopped": sum(f.status is RunStatus.stopped for f in forecasts),
                "outcome_vintage": vintage,
                "official": official_note,
                "config": cfg.model_dump(mode="json"),
                **({} if adverse is None else {"adverse_analyses": sorted(set(adverse["analysis_id"].dropna()))}),
            },
            output_digest=output,
            parent_runs=[r.run_id for r in runs] + ([] if adverse is None else sorted(set(adverse["run_id"].dropna()))),
        )
        store.put(summary)
    summary = store.get(ModelRun, summary.run_id) or summary
    return BacktestResult(
        backtest_id, runs, summary, forecasts, errors, scores, vintage, official_note, adverse_rows, adverse_table
    )


def load_backtest(store: Store, run: ModelRun) -> dict[str, pd.DataFrame]:
    """The stored tables of a backtest summary run (``cutoffs``, ``errors``, ``scores``, ``outcomes``)."""
    if run.model_id != SCORES_MODEL_ID or run.output_digest is None:
        raise InputError(f"run {run.run_id} is not a backtest summary", where="run_id")
    return store.get_tables(run.output_digest)


def backtest_runs(store: Store) -> list[ModelRun]:
    """Stored backtest summary runs, newest first."""
    return sorted(store.find(ModelRun, model_id=SCORES_MODEL_ID), key=lambda r: r.started_at, reverse=True)


def official_reader() -> tuple[tuple[Any, ...] | None, Callable | None, str]:
    """The official projections (``aieco.sources.official``) and its ``latest_round``, or why there are none."""
    try:
        from aieco.sources import official  # type: ignore[attr-defined]
    except ImportError:
        return None, None, "official projections unavailable: aieco.sources.official is not installed in this build"
    projections = official.read_projections()
    rounds = len({(p.publisher, p.round) for p in projections})
    return (
        projections,
        official.latest_round,
        (f"official projections: {len(projections)} values in {rounds} rounds (aieco/data/official/projections.csv)"),
    )


def official_from(cutoffs: Sequence[date], reader: Callable = official_reader) -> tuple[pd.DataFrame | None, str]:
    """Official forecasts at ``cutoffs`` from ``reader`` (default: the shipped projections) and their origin."""
    projections, latest, note = reader()
    if projections is None or latest is None:
        return None, note
    return official_forecasts(projections, cutoffs, latest), note


def summary_table(scores: pd.DataFrame) -> pd.DataFrame:
    """Scores pivoted for reading: rows (variable, horizon), columns method → RMSE (n)."""
    if scores.empty:
        return scores
    return scores.pivot_table(index=["variable", "horizon"], columns="method", values="rmse")


def by_method(scores: pd.DataFrame) -> Mapping[str, pd.DataFrame]:
    return {m: g.drop(columns="method") for m, g in scores.groupby("method")}
