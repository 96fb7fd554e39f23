"""The per-series publication-lag table behind the ``lag`` release rule.

``aieco/data/publication_lags.toml`` holds, per vocabulary variable, a lag in days, the
provider-key prefixes it covers, the cited source and the derivation. A value whose file
states no release date is given ``release_date = end of its reference period + lag``
(rule ``lag``); a strict vintage policy never uses such values.
"""

from __future__ import annotations

import calendar
import tomllib
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from aieco.errors import InputError

SHIPPED = Path(__file__).resolve().parents[2] / "data" / "publication_lags.toml"


@dataclass(frozen=True)
class PublicationLag:
    """One documented lag: days after the reference period ends, and where the number comes from."""

    variable: str
    lag_days: int
    series: tuple[str, ...]
    source: str
    derivation: str


@dataclass(frozen=True)
class PublicationLags:
    """The lag table: variable → lag (the first entry whose series prefixes match)."""

    entries: tuple[PublicationLag, ...]

    def lag_days(self, variable: str, series_key: str = "") -> int | None:
        for e in self.entries:
            if e.variable == variable and (not e.series or any(series_key.startswith(p) for p in e.series)):
                return e.lag_days
        return None

    def entry(self, variable: str) -> PublicationLag | None:
        return next((e for e in self.entries if e.variable == variable), None)


def parse_lag_table(data: dict[str, Any], where: str) -> PublicationLags:
    entries = []
    for variable, item in data.items():
        if not isinstance(item, dict):
            raise InputError(
                f"lag table entry {variable!r} is not a table",
                where=where,
                fix="write one [variable] table with lag_days, series, source, derivation",
            )
        missing = [k for k in ("lag_days", "source", "derivation") if not item.get(k) and item.get(k) != 0]
        if missing:
            raise InputError(
                f"lag table entry {variable!r} lacks {', '.join(missing)}",
                where=f"{where} [{variable}]",
                fix="every lag needs its cited source and derivation",
            )
        lag = item["lag_days"]
        if not isinstance(lag, int) or lag < 1:
            raise InputError(
                f"lag table entry {variable!r}: lag_days {lag!r} is not a positive integer",
                where=f"{where} [{variable}]",
                fix="a value is released after its period ends: use at least 1 day",
            )
        entries.append(
            PublicationLag(
                variable=variable,
                lag_days=lag,
                series=tuple(item.get("series", [])),
                source=str(item["source"]),
                derivation=str(item["derivation"]),
            )
        )
    return PublicationLags(tuple(entries))


@lru_cache(maxsize=4)
def publication_lags(path: str | None = None) -> PublicationLags:
    """The shipped table (or the TOML file at ``path``)."""
    if path is None:
        text = SHIPPED.read_text(encoding="utf-8")
        where = "aieco/data/publication_lags.toml"
    else:
        text, where = Path(path).read_text(encoding="utf-8"), path
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{where} is not valid TOML: {exc}", where=where, fix="correct the TOML syntax") from None
    return parse_lag_table(data, where)


def period_end(reference_period: str, frequency: str) -> date:
    """Last day of a reference period (``2024Q3`` → 2024-09-30, ``2024-02`` → 2024-02-29)."""
    s = str(reference_period)
    try:
        if frequency == "Q":
            year, q = int(s[:4]), int(s[-1])
            month = 3 * q
        elif frequency == "M":
            year, month = int(s[:4]), int(s[5:7])
        elif frequency == "H":
            year, month = int(s[:4]), 6 * int(s[-1])
        elif frequency == "A":
            year, month = int(s[:4]), 12
        elif frequency == "D":
            return date.fromisoformat(s)
        else:
            raise ValueError(frequency)
        return date(year, month, calendar.monthrange(year, month)[1])
    except (ValueError, IndexError):
        raise InputError(
            f"reference period {s!r} does not fit frequency {frequency!r}",
            where="reference_period",
            fix="use YYYYQn, YYYY-MM, YYYYHn, YYYY or YYYY-MM-DD",
        ) from None
