"""`aieco bench scenarios`: how stable the headline scenario figures are, and how far the baseline is from the
official outlook (issue #28).

On the real euro-area data shipped in the package and the official projections (a temporary workspace at the
settings' cutoff, approximate vintage policy), ``macro_var`` runs for three restriction sets — the channels the
default analysis derives for trade fragmentation (real GDP down, unemployment up), market illiquidity (equity
down) and a property correction (house prices down, real GDP down) — under both selection rules, with five
seeds at the settings' draw count and once with 100,000 draws. Each figure is the largest move of a headline
figure (annual GDP growth and unemployment, cumulative GDP, house-price and equity changes, their deviations from
the baseline, the unemployment peak) across those runs, in pp; the target is 0.3 pp. The paper's rule (one
extreme draw) is measured beside the calibrated rule as its peer. ``--quick``: two seeds and 20,000 draws only.
"""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from aieco.benchmarks import Figure
from aieco.config import get_settings
from aieco.models import macro
from aieco.records import ModelRequest
from aieco.store import Store

#: Restriction sets of the three risks (variable, direction, priority), as the default analysis derives them.
RISKS: dict[str, list[dict[str, Any]]] = {
    "trade_fragmentation": [
        {"variable": "real_gdp", "direction": -1, "priority": 2},
        {"variable": "unemployment", "direction": 1, "priority": 2},
    ],
    "market_illiquidity": [{"variable": "equity_prices", "direction": -1, "priority": 2}],
    "property_correction": [
        {"variable": "house_prices", "direction": -1, "priority": 2},
        {"variable": "real_gdp", "direction": -1, "priority": 2},
    ],
}
#: Headline figures (table, row, column) compared across runs.
HEADLINES: tuple[tuple[str, str, str], ...] = (
    *(("selected_path", str(y), v) for v in ("real_gdp", "unemployment") for y in (2025, 2026, 2027)),
    *(
        ("horizon_summary", v, c)
        for v in ("real_gdp", "house_prices", "equity_prices")
        for c in ("cumulative_change", "deviation_from_median")
    ),
    ("horizon_summary", "unemployment", "peak"),
)


def workspace_inputs(root: Path) -> tuple[Any, str]:
    """Observations and anchors of a fresh workspace with the shipped real data and official projections."""
    from aieco.default import load_official_projections, load_real_macro

    cfg = get_settings().scenario
    with Store(root / "ws") as store:
        load_real_macro(store)
        load_official_projections(store)
        observations = macro.workspace_observations(store)
        anchors, note = macro.official_anchors(store, cfg.cutoff, "EA")
    return (observations, anchors, note), cfg.cutoff


def headline(tables: dict[str, Any]) -> np.ndarray:
    return np.array([float(tables[t].loc[r, c]) for t, r, c in HEADLINES])


def run_one(data, cutoff: date, risk: str, rule: str, seed: int, draws: int) -> dict[str, Any]:
    observations, anchors, note = data
    inputs = macro.model_inputs(
        observations,
        RISKS[risk],
        cutoff,
        draws,
        vintage_policy="approximate",
        anchors=anchors,
        anchor_note=note,
        severity_reference=macro.severity_reference(cutoff),
        selection_rule=rule,
    )
    request = ModelRequest.create(
        analysis_id="bench_scenarios",
        risk=risk,
        outputs=macro.output_specs("2025-2027"),
        restriction_ids=[],
        horizon=f"{get_settings().scenario.horizon_start}-{get_settings().scenario.horizon_end}",
    )
    result = macro.run_macro_var(request, inputs, seed)
    return {"status": result.status.value, "reason": result.reason, "tables": result.tables, "diag": result.diagnostics}


def run(quick: bool = False, risks: tuple[str, ...] | None = None) -> list[Figure]:
    cfg = get_settings().scenario
    seeds = [cfg.seed + i for i in range(2 if quick else 5)]
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as tmp:
        data, cutoff = workspace_inputs(Path(tmp))
        baseline_gap = None
        for rule in ("calibrated", "paper_max"):
            for risk in risks or tuple(RISKS):
                runs = [run_one(data, cutoff, risk, rule, s, cfg.var_draws) for s in seeds]
                if not quick:
                    runs.append(run_one(data, cutoff, risk, rule, seeds[0], 100_000))
                done = [r for r in runs if r["status"] == "completed"]
                if len(done) < len(runs):
                    figures.append(
                        Figure(
                            name=f"scenarios_{rule}_{risk}_stopped_runs",
                            value=len(runs) - len(done),
                            unit="runs",
                            target=0.0,
                        )
                    )
                    continue
                values = np.stack([headline(r["tables"]) for r in done])
                spread = values.max(axis=0) - values.min(axis=0)
                figures.append(
                    Figure(
                        name=f"scenarios_{rule}_{risk}_headline_max_move_pp",
                        value=float(spread.max()),
                        unit="pp",
                        target=0.3,
                    )
                )
                figures.append(
                    Figure(
                        name=f"scenarios_{rule}_{risk}_cumulative_gdp_change_seed{seeds[0]}_pct",
                        value=float(done[0]["tables"]["horizon_summary"].loc["real_gdp", "cumulative_change"]),
                        unit="%",
                    )
                )
                if baseline_gap is None:
                    anchors = done[0]["tables"].get("anchors")
                    if anchors is not None and len(anchors):
                        gdp = anchors[[k.startswith("real_gdp:") for k in anchors.index]]
                        baseline_gap = float((gdp["baseline"] - gdp["value"]).abs().max())
        if baseline_gap is not None:
            figures.append(
                Figure(
                    name="scenarios_anchored_baseline_gdp_gap_to_staff_projection_pp",
                    value=baseline_gap,
                    unit="pp",
                    target=0.3,
                )
            )
    return figures
