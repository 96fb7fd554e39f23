"""Report figures as PNG images: one fan chart per variable of a macro run, and the CET1 depletion
of every bank of the bank run whose figures the report cites.

Every figure is drawn from a run's stored output tables (``selected_path``, ``median_path``,
``fan_chart``; ``depletion`` and ``cross_bank``), never from retyped numbers. Each names its
run in its caption, carries its unit on the y-axis, and says on the image itself when it was
computed from synthetic or illustrative inputs. Drawn with matplotlib's Agg backend (no
display, no network), so the same bytes go into the PDF and, base64-encoded, into the HTML.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aieco.reporting.rules import variable_label

# chart, panel: aieco.reporting.export.FanChart / FanPanel (not imported: export imports this module)

if TYPE_CHECKING:
    from aieco.records import ModelRun
    from aieco.store import Store

#: What a stored transformation measures, as an axis or column reads it (the unit follows).
TRANSFORMATIONS = {
    "annual_growth": "annual growth",
    "annual_avg_index_change": "change of the annual average",
    "annual_avg_index_growth": "growth of the annual average index",
    "annual_average": "annual average",
    "cumulative_change": "cumulative change over the horizon",
    "deviation_from_median": "deviation from the median path",
    "peak_deviation_from_median": "largest deviation from the median path",
    "peak_to_trough": "peak-to-trough change",
    "start_minus_min": "fall from the start to the lowest point",
    "end_level": "level at the horizon's end",
    "level": "level",
}

#: Units in words where a bare symbol is ambiguous.
UNITS = {"%": "%", "pp": "percentage points", "index": "index", "count": "number", "ratio": "ratio"}


def measure(unit: str, transformation: str = "") -> str:
    """An axis title or column header for a stored measure: 'annual growth, %', 'level, percentage points'."""
    unit_text = UNITS.get(unit, unit)
    what = TRANSFORMATIONS.get(transformation) or transformation.replace("_", " ") if transformation else ""
    return f"{what}, {unit_text}" if what and unit_text else (what or unit_text)


#: Said on the image itself when its inputs are not published data (rule: provenance on every chart).
PROVENANCE_STAMP = {
    "synthetic": "SYNTHETIC INPUTS — illustrates the method, not a forecast",
    "illustrative": "ILLUSTRATIVE INPUTS — not published data",
}
#: Provenance words of a bank run (its ``provenance`` diagnostic) → the stamp on its chart.
BANK_STAMP = {
    "synthetic": "SYNTHETIC BANKS — not real institutions",
    "illustrative": "ILLUSTRATIVE BANKS — not real institutions",
}


def _stamp(label: str, stamps: dict[str, str]) -> str:
    """The warning an image carries: none for observed or real inputs; else its provenance in capitals."""
    if label in ("observed", "real"):
        return ""
    return stamps.get(label, f"INPUTS OF {label.upper() or 'UNRECORDED'} PROVENANCE")


def _png(fig, ax, stamp: str) -> bytes:
    """The figure as PNG bytes, its provenance stamp (if any) written above the plot."""
    if stamp:  # just above the plot, under the title: inside it would hide a path or a bar
        ax.text(0.5, 1.01, stamp, transform=ax.transAxes, ha="center", va="bottom", fontsize=6.5, color="#b00000")
        ax.set_title(ax.get_title(), fontsize=ax.title.get_fontsize(), pad=14)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=150, metadata={"Software": None})  # no version: same tables, same bytes
    return buf.getvalue()


#: Images already drawn, by the repr of what they draw (same tables, same bytes): the HTML and the PDF
#: of one report, and a dashboard's repeated exports, draw each image once per process.
_DRAWN: OrderedDict[str, bytes] = OrderedDict()
_DRAWN_MAX = 64


_DRAWN_LOCK = threading.Lock()  # the dashboard serves sessions from several threads


def _once(key: str, draw: Callable[[], bytes]) -> bytes:
    with _DRAWN_LOCK:
        if key in _DRAWN:
            _DRAWN.move_to_end(key)
            return _DRAWN[key]
    png = draw()
    with _DRAWN_LOCK:
        _DRAWN[key] = png
        while len(_DRAWN) > _DRAWN_MAX:
            _DRAWN.popitem(last=False)
    return png


def _figure(width: float, height: float):
    """A figure of its own, drawn by Agg (no pyplot: no global state, safe from several threads)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig, fig.subplots()


def fan_panel_png(chart: Any, panel: Any) -> bytes:
    """One variable of a fan chart: the 5–95 % band of the draws, the baseline (dashed) and the scenario path
    (solid), by year; the y-axis in the run's output unit and transformation."""
    return _once(repr(("fan", chart.data_label, panel)), lambda: _draw_fan_panel(chart, panel))


def _draw_fan_panel(chart: Any, panel: Any) -> bytes:
    fig, ax = _figure(4.0, 2.9)
    years = list(range(len(panel.years)))
    ax.fill_between(years, panel.p05, panel.p95, color="#9ecae1", alpha=0.7, label="5–95 % of simulated draws")
    ax.plot(years, panel.median, color="#333333", linestyle="--", linewidth=1.2, label="baseline")
    ax.plot(years, panel.selected, color="#c00000", linewidth=2.0, label="scenario path")
    lo = min(panel.p05 + panel.selected + panel.median)
    hi = max(panel.p95 + panel.selected + panel.median)
    if lo < 0 < hi:
        ax.axhline(0, color="#999999", linewidth=0.6)
    ax.set_xticks(years, panel.years)
    ax.set_ylabel(measure(panel.unit, panel.transformation), fontsize=8)
    name = variable_label(panel.variable)
    ax.set_title(name[:1].upper() + name[1:], fontsize=10)
    ax.tick_params(labelsize=8)
    # below the axes: inside, it would hide the band or a path
    ax.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3, frameon=False)
    return _png(fig, ax, _stamp(chart.data_label, PROVENANCE_STAMP))


def fan_panel_alt(chart: Any, panel: Any) -> str:
    """The image's text alternative: what it shows, in which unit, from which run."""
    return (
        f"Fan chart of {variable_label(panel.variable)} ({measure(panel.unit, panel.transformation)}), "
        f"{panel.years[0]}–{panel.years[-1]}, run {chart.run_id}"
    )


# --------------------------------------------------------------------------- banks


@dataclass(frozen=True)
class BankChart:
    """Each bank's CET1 depletion (pp) and its headroom above the threshold (pp), most depleted first."""

    run_id: str
    model_id: str
    banks: list[str]
    depletion: list[float]
    headroom: list[float]
    threshold: float
    provenance: str  # the run's ``provenance`` diagnostic: real, synthetic, illustrative or undeclared

    @property
    def below(self) -> int:
        """Banks whose minimum ratio ends below the threshold."""
        return sum(d > h for d, h in zip(self.depletion, self.headroom, strict=True))


def bank_chart(store: Store, run: ModelRun) -> BankChart | None:
    """The depletion across banks of a bank run, from its ``depletion`` table (point: the median draw,
    or the real model's prediction) and its ``cross_bank`` threshold; None for a run without them."""
    from aieco.models.bank import outputs as bank_outputs

    if not run.output_digest:
        return None
    tables = store.get_tables(run.output_digest)
    per_bank = tables.get("depletion")
    if per_bank is None or "start_ratio" not in per_bank.columns:
        return None
    point = "p50" if "p50" in per_bank.columns else "predicted"
    if point not in per_bank.columns:
        return None
    cross = tables.get(bank_outputs.TABLE)
    threshold = (
        float(cross.loc[bank_outputs.ROW, "threshold"])
        if cross is not None and "threshold" in cross.columns and bank_outputs.ROW in cross.index
        else float(run.diagnostics.get("cet1_threshold", bank_outputs.CET1_THRESHOLD))
    )
    rows = sorted(
        (
            (str(b), float(d), float(s) - threshold)
            for b, d, s in zip(per_bank.index, per_bank[point], per_bank["start_ratio"], strict=True)
        ),
        key=lambda r: (-r[1], r[0]),
    )
    return BankChart(
        run.run_id,
        run.model_id,
        [r[0] for r in rows],
        [r[1] for r in rows],
        [r[2] for r in rows],
        threshold,
        str(run.diagnostics.get("provenance") or "undeclared"),
    )


def bank_chart_png(chart: BankChart) -> bytes:
    """Sorted bars of each bank's CET1 depletion (pp), red where the bank ends below the threshold, with its
    headroom above the threshold as a marker (a bar passing its marker ends below)."""
    return _once(repr(("bank", chart)), lambda: _draw_bank_chart(chart))


def _draw_bank_chart(chart: BankChart) -> bytes:
    fig, ax = _figure(8.0, 3.4)
    x = list(range(len(chart.banks)))
    colours = ["#b22222" if d > h else "#1f4e79" for d, h in zip(chart.depletion, chart.headroom, strict=True)]
    ax.bar(x, chart.depletion, color=colours, width=0.8, label="CET1 depletion: start minus minimum ratio")
    ax.scatter(
        x,
        chart.headroom,
        marker="_",
        s=60,
        color="#333333",
        linewidths=1.5,
        label=f"headroom above the {chart.threshold:.1f} % CET1 threshold",
    )
    ax.set_ylabel("percentage points (pp)", fontsize=8)
    if len(chart.banks) <= 25:
        ax.set_xticks(x, chart.banks, rotation=60, ha="right", fontsize=6)
        ax.set_xlabel("bank (sorted by depletion)", fontsize=8)
    else:  # too many to name legibly: the bank table of the dashboard names each
        ax.set_xticks([])
        ax.set_xlabel(f"{len(chart.banks)} banks, sorted by depletion (each bar one bank)", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.set_title(
        f"CET1 depletion across {len(chart.banks)} banks; {chart.below} end below the {chart.threshold:.1f} % "
        "threshold",
        fontsize=9,
    )
    ax.legend(fontsize=6.5, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, frameon=False)
    return _png(fig, ax, _stamp(chart.provenance, BANK_STAMP))


def bank_caption(chart: BankChart) -> str:
    """What the bank chart shows, from which run, and what its banks are."""
    what = {
        "real": "banks as published by the EBA",
        "synthetic": "synthetic banks — illustrates the method, not real institutions",
        "illustrative": "illustrative banks — not real institutions",
    }.get(chart.provenance, "banks of undeclared provenance")
    return (
        f"CET1 depletion of each bank (percentage points; the median simulated draw, or the model's point) with "
        f"its headroom above the {chart.threshold:.1f} % threshold, run {chart.run_id} ({chart.model_id}); {what}."
    )
