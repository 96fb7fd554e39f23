"""Official euro-area projections as dated evidence: the shipped table → records.

``aieco/data/official/projections.csv`` holds, one row per value, the annual projections the
Eurosystem/ECB staff and the ECB Survey of Professional Forecasters (SPF) published, each with
its publication date, round, the canonical ECB address and the verbatim text it was copied
from (``quote``; ``read_at`` names the stored page the text was read on, which may be a
mirror of the ECB page). See ``projections.PROVENANCE.md``.

===========================  ============================================================
function                     what it does
===========================  ============================================================
:func:`read_projections`     the file → validated :class:`OfficialProjection` rows; a bad
                             row raises :class:`InputError` naming file, row and field
:func:`latest_round`         the latest round published on or before a cutoff
                             (``publication_date <= cutoff``), optionally of one publisher
:func:`projection_values`    rows → :class:`ObservedValue` records (frequency ``A``,
                             scenario ``baseline``, status ``modelled``, release rule
                             ``vintage``): never history, so no model reads them as data
:func:`stored_projections`    a workspace's official projection records
:func:`latest_stored_round`  the same cutoff rule over stored records (``release_date``)
:func:`load_official`        store the shipped rows in a workspace (one transaction)
===========================  ============================================================

Projections are evidence about the outlook known at a date, not observations: the converted
records carry ``scenario="baseline"`` and ``status=modelled``, which the VAR's history
(``workspace_observations``: ``scenario is None`` and status ``observed``) leaves out.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import Field, ValidationError

from aieco.errors import InputError
from aieco.records import FrozenModel, ObservedValue, Provenance, ReleaseRule, ValueStatus

if TYPE_CHECKING:
    from aieco.store import Store

SHIPPED = Path(__file__).resolve().parents[1] / "data" / "official" / "projections.csv"
COLUMNS = (
    "publisher",
    "title",
    "publication_date",
    "round",
    "variable",
    "target_year",
    "value",
    "unit",
    "url",
    "read_at",
    "quote",
)
#: Publisher → the series key prefix of its records (``EUROSYSTEM_STAFF:2024-12``).
PUBLISHERS: dict[str, str] = {
    "Eurosystem staff": "EUROSYSTEM_STAFF",
    "ECB staff": "ECB_STAFF",
    "ECB SPF": "ECB_SPF",
}
#: Variable → (unit, transformation of the stored record).
VARIABLES: dict[str, tuple[str, str]] = {
    "real_gdp": ("% change, annual average", "annual_average_growth"),
    "inflation": ("% change, annual average", "annual_average_rate"),
    "unemployment": ("% of labour force", "annual_average"),
}
CANONICAL = "https://www.ecb.europa.eu/"
JURISDICTION = "EA"
# staff rounds are named by month (2024-12), SPF rounds by quarter (2024Q4)
ROUND = {"staff": re.compile(r"(\d{4})-(0[1-9]|1[0-2])"), "spf": re.compile(r"(\d{4})Q([1-4])")}


class OfficialProjection(FrozenModel):
    """One published projection value: who, when, which round, which variable and year."""

    publisher: Literal["Eurosystem staff", "ECB staff", "ECB SPF"] = Field(
        description="Eurosystem staff (June, December), ECB staff (March, September) or ECB SPF (survey)."
    )
    title: str = Field(min_length=1, description="Title of the publication.")
    publication_date: date = Field(description="Day the round was published (its release date).")
    round: str = Field(description="Round label: YYYY-MM for staff projections, YYYYQn for SPF rounds.")
    variable: Literal["real_gdp", "inflation", "unemployment"] = Field(
        description="real_gdp: annual average real GDP growth; inflation: annual average HICP inflation; "
        "unemployment: annual average unemployment rate."
    )
    target_year: int = Field(description="The calendar year the value projects.")
    value: float = Field(allow_inf_nan=False, description="The published value, in unit.")
    unit: str = Field(description="'% change, annual average' or '% of labour force'.")
    url: str = Field(description="Canonical publisher address (ecb.europa.eu).")
    read_at: str = Field(description="Address of the stored page the quote was read on (may be a mirror).")
    quote: str = Field(min_length=1, description="Verbatim text the value was copied from.")
    row: int = Field(0, description="First line of the row in its file (the header is line 1); 0 if not from a file.")

    @property
    def series_key(self) -> str:
        """Publisher and round, e.g. ``EUROSYSTEM_STAFF:2024-12``."""
        return f"{PUBLISHERS[self.publisher]}:{self.round}"


class OfficialRound(FrozenModel):
    """All values of one published round."""

    publisher: str = Field(description="Publisher of the round.")
    round: str = Field(description="Round label (YYYY-MM or YYYYQn).")
    title: str = Field(description="Title of the publication.")
    publication_date: date = Field(description="Day the round was published.")
    url: str = Field(description="Canonical publisher address.")
    projections: tuple[OfficialProjection, ...] = Field(description="The round's values, by variable and year.")

    @property
    def series_key(self) -> str:
        return self.projections[0].series_key

    def value(self, variable: str, year: int) -> float | None:
        """The round's value for ``variable`` in ``year``; None when it published none."""
        return next((p.value for p in self.projections if p.variable == variable and p.target_year == year), None)

    def years(self, variable: str) -> tuple[int, ...]:
        return tuple(sorted(p.target_year for p in self.projections if p.variable == variable))


NUMBER = re.compile(r"(?<![\d.,])-?\d+(?:[.,]\d+)?")


def quoted_numbers(quote: str) -> set[float]:
    """The numbers a quote prints (decimal point or comma, e.g. '1,5 proc.' → 1.5; '−7.3' → -7.3)."""
    text = quote.replace("\u2212", "-")
    return {float(m.group().replace(",", ".")) for m in NUMBER.finditer(text)}


def _refuse(path: Path, line: int, field: str, problem: str, fix: str) -> InputError:
    return InputError(f"{path.name} row {line}, field {field!r}: {problem}", where=f"{path}:{line}", fix=fix)


def _check_row(path: Path, line: int, raw: dict[str, str]) -> OfficialProjection:
    """One CSV row → a projection, or the InputError that names the field and the fix."""
    try:
        proj = OfficialProjection.model_validate({**{k: raw[k] for k in COLUMNS}, "row": line})
    except ValidationError as exc:
        err = exc.errors()[0]
        field = str(err["loc"][0]) if err["loc"] else "?"
        raise _refuse(
            path, line, field, f"{err['msg']} (got {raw.get(field)!r})", f"correct {field} as its column describes"
        ) from None
    kind = "spf" if proj.publisher == "ECB SPF" else "staff"
    match = ROUND[kind].fullmatch(proj.round)
    if match is None:
        want = "YYYYQn" if kind == "spf" else "YYYY-MM"
        raise _refuse(path, line, "round", f"{proj.round!r} is not {want}", f"name a {proj.publisher} round {want}")
    if int(match.group(1)) != proj.publication_date.year:
        raise _refuse(
            path,
            line,
            "round",
            f"round {proj.round} was not published in {proj.publication_date.year} ({proj.publication_date})",
            "check the round label against the publication date",
        )
    unit = VARIABLES[proj.variable][0]
    if proj.unit != unit:
        raise _refuse(path, line, "unit", f"{proj.variable} is in {unit!r}, not {proj.unit!r}", f"write {unit!r}")
    if not proj.url.startswith(CANONICAL):
        raise _refuse(
            path, line, "url", f"{proj.url!r} is not an ECB address", f"give the canonical address under {CANONICAL}"
        )
    if not proj.read_at.startswith(("https://", "http://")):
        raise _refuse(path, line, "read_at", f"{proj.read_at!r} is not an address", "name the page the quote is from")
    if not proj.publication_date.year - 1 <= proj.target_year <= proj.publication_date.year + 5:
        raise _refuse(
            path,
            line,
            "target_year",
            f"{proj.target_year} is outside the horizon of a round published {proj.publication_date}",
            "check the year",
        )
    if proj.value not in quoted_numbers(proj.quote):
        raise _refuse(
            path,
            line,
            "value",
            f"{raw['value'].strip()!r} is not a number the quote prints ({proj.quote!r})",
            "copy the value exactly as the quoted text prints it",
        )
    return proj


def read_projections(path: str | Path | None = None) -> tuple[OfficialProjection, ...]:
    """Read and validate a projections table (the shipped one by default); nothing partial is returned."""
    path = Path(path) if path is not None else SHIPPED
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"projections file {path} cannot be read: {exc}", where=str(path), fix="restore it") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))  # quotes may span lines
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise InputError(
            f"{path.name} lacks the columns {', '.join(missing)}",
            where=f"{path}:1",
            fix=f"the header must name {', '.join(COLUMNS)}",
        )
    out: list[OfficialProjection] = []
    seen: dict[tuple[str, str, str, int], int] = {}
    rounds: dict[tuple[str, str], date] = {}
    end = 1  # the header's last line; a quoted field may span lines, so rows are named by their first line
    for raw in reader:
        line, end = end + 1, reader.line_num
        if None in raw or any(raw.get(c) is None for c in COLUMNS):
            raise _refuse(path, line, "?", "the row has the wrong number of fields", "quote fields holding commas")
        proj = _check_row(path, line, raw)
        key = (proj.publisher, proj.round, proj.variable, proj.target_year)
        if key in seen:
            raise _refuse(
                path,
                line,
                "target_year",
                f"{proj.publisher} {proj.round} {proj.variable} {proj.target_year} is already given on row {seen[key]}",
                "keep one value per round, variable and year",
            )
        seen[key] = line
        first = rounds.setdefault((proj.publisher, proj.round), proj.publication_date)
        if first != proj.publication_date:
            raise _refuse(
                path,
                line,
                "publication_date",
                f"{proj.publisher} {proj.round} is dated {first} on an earlier row",
                "give every row of a round the same publication date",
            )
        out.append(proj)
    if not out:
        raise InputError(f"{path.name} holds no projection", where=str(path), fix="add rows under the header")
    return tuple(out)


def rounds_of(projections: Iterable[OfficialProjection]) -> tuple[OfficialRound, ...]:
    """The projections grouped by publisher and round, oldest publication first."""
    groups: dict[tuple[str, str], list[OfficialProjection]] = {}
    for p in projections:
        groups.setdefault((p.publisher, p.round), []).append(p)
    out = []
    for (publisher, label), rows in groups.items():
        rows.sort(key=lambda p: (p.variable, p.target_year))
        first = rows[0]
        out.append(
            OfficialRound(
                publisher=publisher,
                round=label,
                title=first.title,
                publication_date=first.publication_date,
                url=first.url,
                projections=tuple(rows),
            )
        )
    order = list(PUBLISHERS)
    return tuple(sorted(out, key=lambda r: (r.publication_date, order.index(r.publisher), r.round)))


def latest_round(
    projections: Iterable[OfficialProjection], cutoff: date | str, publisher: str | Sequence[str] | None = None
) -> OfficialRound | None:
    """The latest round published on or before ``cutoff`` (``publication_date <= cutoff``).

    ``publisher`` keeps one publisher (or several); None considers all. Two rounds published the
    same day: staff projections before the SPF (the order of ``PUBLISHERS``). None when nothing
    was published by the cutoff — the caller then says so instead of anchoring.
    """
    day = _cutoff_date(cutoff)
    wanted = None if publisher is None else {publisher} if isinstance(publisher, str) else set(publisher)
    unknown = (wanted or set()) - set(PUBLISHERS)
    if unknown:
        raise InputError(
            f"unknown publisher {sorted(unknown)}", where="publisher", fix=f"use one of {', '.join(PUBLISHERS)}"
        )
    known = [
        r for r in rounds_of(projections) if r.publication_date <= day and (wanted is None or r.publisher in wanted)
    ]
    if not known:
        return None
    order = list(PUBLISHERS)
    return max(known, key=lambda r: (r.publication_date, -order.index(r.publisher)))


def _cutoff_date(cutoff: date | str) -> date:
    if isinstance(cutoff, datetime):  # a datetime (or pandas Timestamp) is a date too, but does not compare with one
        return cutoff.date()
    if isinstance(cutoff, date):
        return cutoff
    try:
        return date.fromisoformat(str(cutoff))
    except ValueError:
        raise InputError(f"cutoff {cutoff!r} is not a date", where="cutoff", fix="write YYYY-MM-DD") from None


def projection_values(projections: Iterable[OfficialProjection], *, source: str | None = None) -> list[ObservedValue]:
    """Each projection as an :class:`ObservedValue`: released on its publication date (rule ``vintage``),
    scenario ``baseline``, status ``modelled``, provenance real, series key ``PUBLISHER:ROUND``."""
    where = source or f"aieco/data/official/{SHIPPED.name}"
    out = []
    for p in projections:
        unit, transformation = VARIABLES[p.variable]
        out.append(
            ObservedValue.create(
                variable=p.variable,
                value=p.value,
                unit=unit,
                frequency="A",
                jurisdiction=JURISDICTION,
                reference_period=str(p.target_year),
                release_date=p.publication_date,
                vintage=p.round,
                series_key=p.series_key,
                transformation=transformation,
                scenario="baseline",
                location_id=f"{where}:{p.row}" if p.row else None,
                status=ValueStatus.modelled,
                release_rule=ReleaseRule.vintage,
                provenance=Provenance.real,
            )
        )
    return out


def stored_projections(store: Store) -> list[ObservedValue]:
    """The official projection records of a workspace (the series keys of :data:`PUBLISHERS`)."""
    prefixes = tuple(f"{k}:" for k in PUBLISHERS.values())
    return [
        r
        for r in store.find(ObservedValue, frequency="A", scenario="baseline", status=ValueStatus.modelled.value)
        if r.series_key.startswith(prefixes)
    ]


def latest_stored_round(
    values: Iterable[ObservedValue], cutoff: date | str, publisher: str | Sequence[str] | None = None
) -> list[ObservedValue]:
    """The stored records (:func:`stored_projections`) of the latest round released on or before ``cutoff``,
    by the rule of :func:`latest_round`; empty when none was."""
    day = _cutoff_date(cutoff)
    wanted = set(PUBLISHERS) if publisher is None else {publisher} if isinstance(publisher, str) else set(publisher)
    prefixes = {PUBLISHERS[p]: i for i, p in enumerate(PUBLISHERS) if p in wanted}
    rounds: dict[str, list[ObservedValue]] = {}
    for v in values:
        prefix = v.series_key.partition(":")[0]
        if prefix in prefixes and v.release_date is not None and v.release_date <= day:
            rounds.setdefault(v.series_key, []).append(v)
    if not rounds:
        return []
    key = max(rounds, key=lambda k: (rounds[k][0].release_date, -prefixes[k.partition(":")[0]]))
    return sorted(rounds[key], key=lambda v: (v.variable, v.reference_period))


def load_official(store: Store, path: str | Path | None = None) -> int:
    """Store a projections table (the shipped one by default) in a workspace; returns the new rows.

    The whole file is validated before anything is written.
    """
    values = projection_values(read_projections(path), source=None if path is None else str(path))
    with store.transaction():
        return store.put_many(values)
