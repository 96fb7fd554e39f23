"""Words for the ids a person reads: stage names, risk names, variable ids inside a reason.

Pure functions over strings and label mappings (no store): the views pass the labels they read.
The id stays one click away where it is shown (an expander, a column at the table's end).
"""

from __future__ import annotations

import re

# What a stored transformation measures, units in words, and an axis title from both: the library's, so the
# dashboard's charts and the exported report's images say the same.
from aieco.reporting.figures import TRANSFORMATIONS, UNITS, measure

__all__ = ["TRANSFORMATIONS", "UNITS", "in_words", "measure", "risk_label", "stage_label", "words"]


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
