"""Words for the ids a person reads: stage names, risk names, variable ids inside a reason.

Pure functions over strings and label mappings (no store): the views pass the labels they read.
The id stays one click away where it is shown (an expander, a column at the table's end).
"""

from __future__ import annotations

import re


def words(identifier: str) -> str:
    """``restriction_derivation`` → ``restriction derivation`` (an id without a stored label)."""
    return identifier.replace("_", " ")


def risk_label(risk: str, risks: dict[str, str]) -> str:
    """A risk's label from its request (``Market illiquidity``), else its name in words."""
    return risks.get(risk) or words(risk).capitalize()


def stage_label(stage: str, risks: dict[str, str] | None = None) -> str:
    """``market_illiquidity/restriction_derivation`` → ``Market illiquidity — restriction derivation``;
    a shared stage (``eligibility``) → ``eligibility``."""
    risk, _, name = stage.rpartition("/")
    return f"{risk_label(risk, risks or {})} — {words(name)}" if risk else words(name)


#: A record id in parentheses inside a reason ("(derivation drv_116b5b8f483782ee88d3)"): the id is one
#: click away in the details, not part of the sentence a person reads.
_ID_ASIDE = re.compile(r"\s*\((?:[a-z ]+ )?[a-z]{2,5}_[0-9a-f]{12,}\)")


def in_words(text: str, labels: dict[str, str]) -> str:
    """``text`` with each vocabulary id (``house_prices``) written as its label (House prices) and record
    ids in parentheses left out."""
    text = _ID_ASIDE.sub("", text)
    return re.sub(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+\b", lambda m: labels.get(m.group(0), m.group(0)), text)


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
    what = TRANSFORMATIONS.get(transformation) or words(transformation) if transformation else ""
    return f"{what}, {unit_text}" if what and unit_text else (what or unit_text)
