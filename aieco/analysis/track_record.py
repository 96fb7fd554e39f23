"""Each risk's adverse path at the cutoffs of a backtest: the request's own analysis, run at every cutoff.

``aieco backtest --adverse`` scores the unconditional baseline on workers (:mod:`aieco.evaluation.backtest`)
and, in the calling process, runs the request's analysis at every cutoff with everything an analysis does
at that date: the as-of graph of the relations whose sources were published by then, the channel
queries, the evidence agent, the restriction derivation, and the ``macro_var`` run with the official
anchors known then. The horizon is the three years after the cutoff's year (the years the backtest
scores). A risk whose evidence at that cutoff supports no admissible path stops where the analysis stops,
with its stage and reason; the stop is a row of the result, never a gap.

Each cutoff is one analysis of its own (its id follows the request with that cutoff and horizon), stored
as any analysis is, so its paths, quotes and runs can be opened like the request's own. Running the
backtest again resumes those analyses with the same ids.

The rows returned (:data:`COLUMNS`) carry, per cutoff, risk, scored variable and target year, the risk's
adverse path (``selected_path`` of its ``macro_var`` run) and that analysis's baseline (``median_path``:
the anchored baseline); :func:`aieco.evaluation.backtest.adverse_scores` sets them against the outcomes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

import pandas as pd

from aieco.evaluation.backtest import SCORED
from aieco.evaluation.run import stage_output
from aieco.records import ModelRun
from aieco.store import Store

COLUMNS = [
    "cutoff",
    "risk",
    "analysis_id",
    "status",
    "stage",
    "reason",
    "run_id",
    "variable",
    "target_year",
    "adverse",
    "baseline",
]


def request_at(request: Any, cutoff: date) -> Any:
    """The request as it would have been posed at ``cutoff``: that cutoff, and the three years after its year.

    Its application (``backtest``) and title say it belongs to a backtest, so the dashboard's analysis list
    tells it from the analyst's own and lists it after them.
    """
    fields = request.model_dump(mode="json")
    title = request.title or "analysis"
    fields.update(
        application="backtest",
        cutoff=cutoff.isoformat(),
        horizon=f"{cutoff.year + 1}-{cutoff.year + 3}",
        title=f"{title} (backtest at {cutoff.isoformat()})",
    )
    return type(request).model_validate(fields)


def _execution_run(store: Store, analysis_id: str, risk: str) -> ModelRun | None:
    """The completed ``macro_var`` run of one risk program (its execution stage's latest completed output)."""
    out = stage_output(store, analysis_id, f"{risk}/execution")
    if out is None:
        return None
    runs = store.find(ModelRun, run_id=list(out.get("completed", [])))
    return next((r for r in runs if r.model_id == "macro_var" and r.output_digest), None)


def _path_rows(store: Store, run: ModelRun, head: dict[str, Any], years: Sequence[int]) -> list[dict[str, Any]]:
    """One row per scored variable and year: the selected (adverse) path beside the analysis's baseline."""
    tables = store.get_tables(run.output_digest or "")
    adverse, baseline = tables["selected_path"], tables["median_path"]
    adverse.index = [str(i) for i in adverse.index]
    baseline.columns = [str(c) for c in baseline.columns]
    rows = []
    for v in SCORED:
        for y in years:
            rows.append(
                head
                | {
                    "variable": v,
                    "target_year": int(y),
                    "adverse": float(adverse.loc[str(y), v]),
                    "baseline": float(baseline.loc[v, str(y)]),
                }
            )
    return rows


def adverse_at_cutoffs(
    store: Store,
    request: Any,
    cutoffs: Sequence[date],
    *,
    analyze: Callable[..., Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Run ``request``'s analysis at every cutoff and collect each risk's adverse path or its stop.

    ``analyze``: the analysis entry point (default :func:`aieco.analysis.pipeline.analyze`; first
    repetition only). Returns the long frame of :data:`COLUMNS`: completed risks give one row per
    scored variable and target year; a stopped or failed risk gives one row with its stage and reason.
    """
    if analyze is None:
        from aieco.analysis.pipeline import analyze

    rows: list[dict[str, Any]] = []
    for n, cutoff in enumerate(cutoffs, start=1):
        at = request_at(request, cutoff).model_copy(update={"repetitions": 1})
        outcome = analyze(store, at)
        years = [cutoff.year + h for h in (1, 2, 3)]
        for program in outcome.programs:
            head = {
                "cutoff": cutoff.isoformat(),
                "risk": program.risk,
                "analysis_id": program.analysis_id,
                "status": program.status,
                "stage": program.stopped_stage or "",
                "reason": program.reason or "",
            }
            run = _execution_run(store, program.analysis_id, program.risk)
            if run is None:
                if program.status == "completed":  # completed without a macro run: say so, never a silent gap
                    head |= {"status": "stopped", "stage": "execution", "reason": "no completed macro_var run"}
                rows.append(head | {"run_id": None, "variable": None, "target_year": None})
                continue
            rows += _path_rows(store, run, head | {"run_id": run.run_id}, years)
        if progress is not None:
            progress(n, len(cutoffs))
    return pd.DataFrame(rows, columns=COLUMNS)
