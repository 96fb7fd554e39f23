"""The input series of an analysis as its models saw them at the cutoff, and the official outlook known then.

:func:`input_series` reads the observations a ``macro_var`` run of the analysis was given (its
stored ``observations`` input: every release, before and after the cutoff), or the
workspace's stored observations when no run of the analysis got that far, and marks each
value with what the analysis's rule (:func:`aieco.models.vintages.select_as_of` at the
request's cutoff and vintage policy) made of it:

=====================  ===============================================================
status                 meaning
=====================  ===============================================================
``used``               the latest release on or before the cutoff: what the model read
``earlier vintage``    released by the cutoff, replaced by a later release by then
``after cutoff``       released after the cutoff: never reached a model
``policy``             its release rule (``lag``) is not allowed by a strict policy
``no release date``    no release date after its reference period: never usable
=====================  ===============================================================

:func:`official_outlook` lists the official projection rounds published on or before the
cutoff (the latest staff round and the latest survey round), marked as evidence about the
outlook, never as data. Pure reads of stored records; no SQL, no plotting.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pandas as pd

from aieco.records import Analysis, ModelRun
from aieco.store import Store

STATUS_WORDS = {
    "used": "used: latest release by the cutoff",
    "earlier vintage": "earlier vintage: replaced by a later release by the cutoff",
    "after cutoff": "released after the cutoff: not used",
    "policy": "release rule not allowed by the vintage policy: not used",
    "no release date": "no release date after its period: not used",
}
#: Columns of :attr:`InputSeries.observations`.
OBSERVATION_COLUMNS = [
    "variable",
    "series_key",
    "reference_period",
    "value",
    "unit",
    "frequency",
    "release_date",
    "vintage",
    "release_rule",
    "provenance",
    "status",
]
#: Columns of :attr:`InputSeries.series` (one row per provider series).
SERIES_COLUMNS = [
    "variable",
    "series_key",
    "unit",
    "frequency",
    "release_rules",
    "provenance",
    "used",
    "first_used",
    "last_used",
    "last_release_used",
    "vintages",
    "released_after_cutoff",
]


@dataclass(frozen=True)
class InputSeries:
    """An analysis's input observations, each marked with what its cutoff rule made of it."""

    analysis_id: str
    cutoff: date
    vintage_policy: str
    #: where the observations come from, in words (the run whose stored input they are, or the workspace)
    origin: str
    run_id: str | None
    observations: pd.DataFrame  # OBSERVATION_COLUMNS
    series: pd.DataFrame  # SERIES_COLUMNS


def _macro_run(store: Store, analysis_id: str) -> ModelRun | None:
    """The latest macro run of the analysis that was given observations (any status: a stop read them too)."""
    runs = [
        r
        for r in store.find(ModelRun, analysis_id=analysis_id, model_id="macro_var")
        if "observations" in r.input_digests
    ]
    return max(runs, key=lambda r: r.started_at) if runs else None


def input_series(store: Store, analysis_id: str) -> InputSeries:
    """The analysis's input observations and series at its cutoff (see the module docstring)."""
    from aieco.errors import InputError
    from aieco.models.macro import workspace_observations
    from aieco.models.vintages import POLICY_RULES, reference_end, select_as_of

    analysis = store.get(Analysis, analysis_id)
    if analysis is None:
        raise InputError(f"no analysis {analysis_id} in this workspace", fix="choose one of `aieco analyses`")
    cutoff = date.fromisoformat(str(analysis.request["cutoff"]))
    policy = str(analysis.request.get("vintage_policy") or "strict")
    run = _macro_run(store, analysis_id)
    if run is not None:
        frame = store.get_tables(run.input_digests["observations"])["observations"]
        origin = (
            "the observations the analysis's macro model was given (every release stored, before and after the cutoff)"
        )
    else:
        frame = workspace_observations(store)
        origin = "the workspace's stored observations (no macro model run of this analysis was given any)"
    frame = frame.copy()
    for col in ("series_key", "vintage", "release_rule", "provenance"):
        if col not in frame.columns:
            frame[col] = None
    frame["series_key"] = frame["series_key"].fillna("")
    frame["release_date"] = frame["release_date"].map(
        lambda d: None if d is None or (isinstance(d, float) and d != d) or d == "" else date.fromisoformat(str(d)[:10])
    )
    if frame.empty:
        return InputSeries(
            analysis_id,
            cutoff,
            policy,
            origin,
            run.run_id if run else None,
            pd.DataFrame(columns=OBSERVATION_COLUMNS),
            pd.DataFrame(columns=SERIES_COLUMNS),
        )
    used = select_as_of(frame, cutoff, policy=policy)
    keys = set(
        zip(
            used["variable"],
            used["series_key"],
            used["reference_period"].astype(str),
            used["release_date"],
            strict=True,
        )
    )
    allowed = POLICY_RULES[policy]

    def status(row) -> str:
        released = row.release_date
        if (row.variable, row.series_key, str(row.reference_period), released) in keys:
            return "used"
        if released is None or released <= reference_end(str(row.reference_period), row.frequency):
            return "no release date"
        if released > cutoff:
            return "after cutoff"
        rule = row.release_rule if isinstance(row.release_rule, str) and row.release_rule else "file"
        return "earlier vintage" if rule in allowed else "policy"

    frame["status"] = [status(r) for r in frame.itertuples(index=False)]
    frame = frame.sort_values(["variable", "series_key", "reference_period", "release_date"], na_position="first")
    observations = frame[OBSERVATION_COLUMNS].reset_index(drop=True)
    return InputSeries(
        analysis_id, cutoff, policy, origin, run.run_id if run else None, observations, series_summary(observations)
    )


def series_summary(observations: pd.DataFrame) -> pd.DataFrame:
    """One row per provider series: unit, release rules, how many values were used and up to which period,
    the latest release used, the vintages seen, and the releases after the cutoff left out."""
    rows = []
    for (variable, key), g in observations.groupby(["variable", "series_key"], sort=True):
        used = g[g["status"] == "used"]
        rows.append(
            {
                "variable": variable,
                "series_key": key,
                "unit": ", ".join(sorted(set(map(str, g["unit"])))),
                "frequency": ", ".join(sorted(set(map(str, g["frequency"])))),
                "release_rules": ", ".join(sorted({str(r) for r in g["release_rule"] if isinstance(r, str) and r})),
                "provenance": ", ".join(sorted({str(p) for p in g["provenance"] if isinstance(p, str) and p}))
                or "undeclared",
                "used": len(used),
                "first_used": str(used["reference_period"].min()) if len(used) else "",
                "last_used": str(used["reference_period"].max()) if len(used) else "",
                "last_release_used": max((d for d in used["release_date"] if d is not None), default=None),
                "vintages": int(g["vintage"].dropna().nunique()),
                "released_after_cutoff": int((g["status"] == "after cutoff").sum()),
            }
        )
    return pd.DataFrame(rows, columns=SERIES_COLUMNS)


#: Columns of :func:`official_outlook`.
OUTLOOK_COLUMNS = ["publisher", "round", "published", "variable", "year", "value", "unit", "series_key", "status"]
#: The publisher groups of official rounds: staff projections (Eurosystem and ECB staff alternate) and the survey.
_GROUPS = (("Eurosystem staff", "ECB staff"), ("ECB SPF",))


def official_outlook(store: Store, cutoff: date) -> pd.DataFrame:
    """The official projection rounds published on or before ``cutoff``: the latest staff round and the latest
    survey round stored in the workspace, one row per variable and year (empty when none is stored)."""
    from aieco.sources.official import PUBLISHERS, latest_stored_round, stored_projections

    values = stored_projections(store)
    names = {v: k for k, v in PUBLISHERS.items()}
    rows = []
    for group in _GROUPS:
        for v in latest_stored_round(values, cutoff, publisher=list(group)):
            rows.append(
                {
                    "publisher": names.get(v.series_key.partition(":")[0], v.series_key),
                    "round": v.vintage or v.series_key.partition(":")[2],
                    "published": v.release_date,
                    "variable": v.variable,
                    "year": str(v.reference_period),
                    "value": v.value,
                    "unit": v.unit,
                    "series_key": v.series_key,
                    "status": "official projection published by the cutoff: evidence, never model data",
                }
            )
    return pd.DataFrame(rows, columns=OUTLOOK_COLUMNS)
