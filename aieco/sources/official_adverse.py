"""Official adverse scenarios' real GDP headline figures (``aieco/data/official/adverse_references.csv``).

The calibrated scenario rule measures severity on the scale of the latest official adverse scenario
published by the cutoff (:func:`aieco.models.macro.severity_reference`); rows published later are
evaluation references only.
"""

from __future__ import annotations

import csv
from datetime import date
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from aieco.errors import InputError

FIELDS = (
    "publisher",
    "title",
    "published",
    "exercise",
    "scenario",
    "jurisdiction",
    "variable",
    "measure",
    "period",
    "value",
    "unit",
    "source",
)


def default_path() -> Path:
    return Path(str(resources.files("aieco") / "data" / "official" / "adverse_references.csv"))


@lru_cache(maxsize=4)
def read_adverse_references(path: str | None = None) -> tuple[dict[str, Any], ...]:
    """Rows with ``published`` as a date, ``value`` as a float and ``horizon_years`` (the scenario year of
    ``period``'s end counted from the exercise year: EBA 2018 with period 2020 → 3)."""
    file = Path(path) if path else default_path()
    with file.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = [f for f in FIELDS if f not in (reader.fieldnames or [])]
        if missing:
            raise InputError(f"{file} lacks columns {', '.join(missing)}", where=str(file), fix=f"columns: {FIELDS}")
        out = []
        for n, row in enumerate(reader, start=2):
            try:
                published = date.fromisoformat(row["published"])
                value = float(row["value"])
                first = int(row["exercise"].split()[-1])
                last = int(row["period"].split("-")[-1])
            except (ValueError, IndexError) as exc:
                raise InputError(
                    f"{file} line {n}: {exc}",
                    where=f"{file}:{n}",
                    fix="published as YYYY-MM-DD, value a number, exercise 'NAME YYYY', period 'YYYY' or 'YYYY-YYYY'",
                ) from exc
            out.append({**row, "published": published, "value": value, "horizon_years": last - first + 1})
    return tuple(out)
