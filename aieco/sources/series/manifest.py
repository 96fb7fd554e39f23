"""``[[series]]`` entries of a source manifest and :func:`add_series`, which loads files in
one transaction (every file parsed before anything is written; one bad file writes nothing).

A ``[[series]]`` table names a file and, where the file does not say them, its metadata::

    [[series]]
    path = "data/stoxx50e_daily.csv"
    variable = "equity_prices"
    unit = "index points"
    frequency = "D"
    map = { period = "Date", value = "Close" }   # a generic CSV
    release_date = "2024-12-31"                  # optional: the date the file states (rule file)
    provenance = "real"                          # real / synthetic / illustrative
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from aieco.errors import InputError
from aieco.records import ObservedValue
from aieco.sources.series.loader import load_series
from aieco.store import Store

SERIES_FIELDS = {
    "path",
    "variable",
    "unit",
    "frequency",
    "jurisdiction",
    "release_date",
    "map",
    "provenance",
    "title",
    "publisher",
    "note",
}


@dataclass(frozen=True)
class SeriesEntry:
    """One series file to load and the metadata it needs."""

    path: Path
    variable: str | None = None
    unit: str | None = None
    frequency: str | None = None
    jurisdiction: str | None = None
    release_date: date | None = None
    mapping: dict[str, str] = field(default_factory=dict)
    provenance: str | None = None

    def load(self) -> list[ObservedValue]:
        """The file's values; a registered dated public copy adds them again dated by its commit
        (:mod:`aieco.sources.series.copies`), unless the caller stated the release date."""
        from aieco.sources.series.copies import with_dated_copy

        values = load_series(
            self.path,
            release_date=self.release_date,
            variable=self.variable,
            unit=self.unit,
            frequency=self.frequency,
            jurisdiction=self.jurisdiction,
            mapping=self.mapping or None,
            provenance=self.provenance,
        )
        return values if self.release_date is not None else with_dated_copy(self.path, values)


def series_entries(manifest_path: str | Path, allow_outside: Sequence[str | Path] = ()) -> list[SeriesEntry]:
    """The ``[[series]]`` tables of a manifest (paths relative to the manifest).

    Like a source path, a series path must resolve (symlinks followed) inside the manifest's
    folder or inside one of ``allow_outside``.
    """
    manifest = Path(manifest_path)
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(
            f"manifest {manifest} not found", where=str(manifest), fix="pass the path of an existing manifest"
        ) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(
            f"manifest {manifest} is not valid TOML: {exc}", where=str(manifest), fix="correct the TOML syntax"
        ) from None
    raw = data.get("series", [])
    if not isinstance(raw, list):
        raise InputError(
            f"manifest {manifest}: 'series' must be an array of tables",
            where=str(manifest),
            fix="write one [[series]] table per file",
        )
    out = []
    for i, item in enumerate(raw, start=1):
        where = f"{manifest} [[series]] #{i}"
        unknown = set(item) - SERIES_FIELDS
        if unknown or "path" not in item:
            raise InputError(
                f"{where}: " + (f"unknown field(s) {', '.join(sorted(unknown))}" if unknown else "no path"),
                where=where,
                fix=f"use the fields {', '.join(sorted(SERIES_FIELDS))}",
            )
        released = item.get("release_date")
        try:
            released = date.fromisoformat(str(released)) if released else None
        except ValueError:
            raise InputError(
                f"{where}: release_date {released!r} is not a date", where=where, fix="write YYYY-MM-DD"
            ) from None
        base = manifest.resolve().parent
        file = (base / item["path"]).resolve()
        allowed = [base, *(Path(d).resolve() for d in allow_outside)]
        if not any(d == file or d in file.parents for d in allowed):
            raise InputError(
                f"{where}: path {item['path']!r} resolves to {file}, outside the manifest's folder {base}",
                where=where,
                fix="move the file into that folder or pass --allow-outside DIR for the folder holding it",
            )
        out.append(
            SeriesEntry(
                path=(base / item["path"]),
                variable=item.get("variable"),
                unit=item.get("unit"),
                frequency=item.get("frequency"),
                jurisdiction=item.get("jurisdiction"),
                release_date=released,
                mapping=dict(item.get("map", {})),
                provenance=item.get("provenance"),
            )
        )
    return out


@dataclass(frozen=True)
class SeriesLoad:
    """What one file gave: values, new rows, and the count per (variable, release rule)."""

    path: str
    values: int
    new: int
    by_rule: dict[str, int]


def add_series(store: Store, entries: Sequence[SeriesEntry]) -> list[SeriesLoad]:
    """Parse every entry, then store all values in one transaction (nothing written on any error)."""
    parsed: list[tuple[SeriesEntry, list[ObservedValue]]] = [(e, e.load()) for e in entries]
    problems = value_problems(store, parsed)
    if problems:
        raise InputError(
            f"{len(problems)} problem(s) in the series, nothing written: " + "; ".join(problems[:10]),
            where=", ".join(str(e.path) for e in entries),
            fix="name a vocabulary variable (aieco vocab), give each period one value per release, "
            "and a release date on or after the end of its reference period",
        )
    out = []
    with store.transaction():
        for entry, values in parsed:
            new = store.put_many(values)
            rules = Counter(f"{v.variable}:{v.release_rule.value if v.release_rule else 'none'}" for v in values)
            out.append(
                SeriesLoad(path=str(entry.path), values=len(values), new=new, by_rule=dict(sorted(rules.items())))
            )
    return out


def value_problems(store: Store, parsed: Sequence[tuple[SeriesEntry, list[ObservedValue]]]) -> list[str]:
    """What refuses a load: a variable named for a file that is not in the vocabulary, a release date
    after today or before its reference period ended, two values for one period and release (in the files, or against
    the workspace)."""
    from aieco.sources.series.lags import period_end
    from aieco.vocab import load_vocabulary

    vocab = load_vocabulary()
    problems: list[str] = []
    seen: dict[tuple[Any, ...], tuple[float, str]] = {}
    stored: dict[str, dict[tuple[Any, ...], float]] = {}
    for entry, values in parsed:
        if entry.variable is not None and entry.variable not in vocab:  # the readers' own series map to ids
            problems.append(f"{entry.path}: variable {entry.variable!r} is not in the vocabulary")
        today = datetime.now(UTC).date()
        for v in values:
            if v.release_date is not None and v.release_date > today:
                problems.append(
                    f"{entry.path}: {v.variable} {v.reference_period} is dated released {v.release_date}, after "
                    f"today ({today}): a release date in the future is a typo or a forecast, not a release"
                )
            if v.release_date is not None and v.release_date < period_end(v.reference_period, v.frequency):
                problems.append(
                    f"{entry.path}: {v.variable} {v.reference_period} is dated released {v.release_date}, "
                    "before its reference period ended"
                )
            key = _value_key(v)
            if key in seen and seen[key][0] != v.value:
                problems.append(
                    f"{entry.path}: {v.variable} {v.reference_period} (release {v.release_date}) has two values, "
                    f"{seen[key][0]!r} (in {seen[key][1]}) and {v.value!r}"
                )
            seen.setdefault(key, (v.value, str(entry.path)))
            if v.variable not in stored:
                stored[v.variable] = {_value_key(o): o.value for o in store.find(ObservedValue, variable=v.variable)}
            old = stored[v.variable].get(key)
            if old is not None and old != v.value:
                problems.append(
                    f"{entry.path}: {v.variable} {v.reference_period} (release {v.release_date}) is {v.value!r}, "
                    f"the workspace already holds {old!r} for it"
                )
    return problems


def _value_key(v: ObservedValue) -> tuple[Any, ...]:
    """What one value answers: this series's variable, measure, place and period, as released on this
    date (two providers' series of one variable may differ: they have their own series keys)."""
    return (
        v.series_key,
        v.variable,
        v.transformation,
        v.unit,
        v.frequency,
        v.jurisdiction,
        v.sector,
        v.entity,
        v.scenario,
        v.reference_period,
        v.release_date,
        v.vintage,
        v.status,
    )


def entry_from_options(path: Path, options: dict[str, Any]) -> SeriesEntry:
    """A SeriesEntry from CLI options (``--map period=Date`` pairs already split)."""
    released = options.get("release_date")
    return SeriesEntry(
        path=path,
        variable=options.get("variable"),
        unit=options.get("unit"),
        frequency=options.get("frequency"),
        jurisdiction=options.get("jurisdiction"),
        release_date=date.fromisoformat(released) if released else None,
        mapping=options.get("mapping") or {},
        provenance=options.get("provenance"),
    )
