"""A macro run's paths beside the official outlook known at its cutoff, and (marked) official adverse
scenarios published after it (issue #28, "Against the official references").

Rows are (variable, year) with the annual definitions of ``macro_var`` (GDP and HICP: annual-average
growth; unemployment: annual average), plus one horizon row per cumulative figure. Columns: the run's
anchored baseline, its unconditional baseline, the risk's scenario path, the official projection
published on or before the cutoff (with its publisher, round and publication date), and official adverse
figures — each with its publication date and ``timing`` ("before cutoff" may calibrate; "after cutoff:
evaluation only" never reaches a model).
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pandas as pd

from aieco.records import ModelRun
from aieco.store import Store

#: Variables compared (those official projections publish).
COMPARED = ("real_gdp", "inflation", "unemployment")
COLUMNS = (
    "variable",
    "period",
    "measure",
    "baseline_anchored",
    "baseline_unconditional",
    "scenario",
    "official_projection",
    "projection_source",
    "official_adverse",
    "adverse_source",
    "adverse_timing",
)
_MEASURE = {
    "real_gdp": "annual-average growth, %",
    "inflation": "annual-average HICP inflation, %",
    "unemployment": "annual average, % of labour force",
}


def _cutoff(run: ModelRun) -> date | None:
    text = run.diagnostics.get("cutoff")
    return date.fromisoformat(str(text)) if text else None


def official_comparison(store: Store, run: ModelRun) -> pd.DataFrame:
    """The comparison table of one completed ``macro_var`` run (empty when the run has no paths)."""
    from aieco.sources.official import latest_round, read_projections
    from aieco.sources.official_adverse import read_adverse_references

    if not run.output_digest:
        return pd.DataFrame(columns=list(COLUMNS))
    tables = store.get_tables(run.output_digest)
    base, uncond, sel = tables.get("median_path"), tables.get("unconditional_path"), tables.get("selected_path")
    if base is None:
        return pd.DataFrame(columns=list(COLUMNS))
    cutoff = _cutoff(run)
    anchors = tables.get("anchors")
    staff = latest_round(read_projections(), cutoff, ("Eurosystem staff", "ECB staff")) if cutoff else None
    adverse = [r for r in read_adverse_references() if r["measure"] in ("annual growth", "cumulative change")]
    rows: list[dict[str, Any]] = []
    for v in COMPARED:
        for y in [str(c) for c in base.columns]:
            official, source = None, ""
            key = f"{v}:{y}"
            if anchors is not None and key in anchors.index:
                a = anchors.loc[key]
                official = float(a["value"])
                source = f"{a['publisher']} {a['round']} (published {a['published']})"
            elif staff is not None and int(y) in staff.years(v):
                official = float(staff.value(v, int(y)))
                source = f"{staff.projections[0].publisher} {staff.projections[0].round}"
            adv = next((r for r in adverse if r["variable"] == v and r["period"] == y), None)
            rows.append(
                {
                    "variable": v,
                    "period": y,
                    "measure": _MEASURE[v],
                    "baseline_anchored": float(base.loc[v, y]),
                    "baseline_unconditional": float(uncond.loc[v, y]) if uncond is not None else None,
                    "scenario": float(sel.loc[y, v]) if sel is not None else None,
                    "official_projection": official,
                    "projection_source": source,
                    "official_adverse": adv["value"] if adv else None,
                    "adverse_source": f"{adv['publisher']}, {adv['title']} ({adv['published']})" if adv else "",
                    "adverse_timing": _timing(adv["published"], cutoff) if adv else "",
                }
            )
    summary = tables.get("horizon_summary")
    horizon = "-".join([str(base.columns[0]), str(base.columns[-1])])
    for adv in adverse:
        if adv["measure"] == "cumulative change" and adv["variable"] == "real_gdp" and adv["period"] == horizon:
            rows.append(
                {
                    "variable": "real_gdp",
                    "period": horizon,
                    "measure": "cumulative change of the annual average, %",
                    "baseline_anchored": float(summary.loc["real_gdp", "cumulative_change_median"])
                    if summary is not None
                    else None,
                    "baseline_unconditional": None,
                    "scenario": float(summary.loc["real_gdp", "cumulative_change"]) if summary is not None else None,
                    "official_projection": None,
                    "projection_source": "",
                    "official_adverse": adv["value"],
                    "adverse_source": f"{adv['publisher']}, {adv['title']} ({adv['published']})",
                    "adverse_timing": _timing(adv["published"], cutoff),
                }
            )
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _timing(published: date, cutoff: date | None) -> str:
    if cutoff is None:
        return "cutoff unknown"
    return "before cutoff" if published <= cutoff else "after cutoff: evaluation only"
