"""Source eligibility for a request, decided per location before retrieval (paper §2.2).

A location is eligible when its source has a known publication date on or before the
cutoff, its source's jurisdiction is in scope, and its effective role (the location's
role override, else the source role) is allowed — all decided by one :class:`aieco.asof.AsOf`.
The first reason that applies is recorded, in the order ``unknown_date``, ``after_cutoff``, ``scope``, ``role``.
A reason
that holds for every location of a source (its date, its scope, or a disallowed source
role with no location overrides) is recorded once for the source (``location_id`` None);
a role decided by a location's override is recorded for that location. With an analysis
id the exclusions are stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from aieco.asof import AsOf
from aieco.records import Exclusion, ExclusionReason, Role, Source, SourceLocation
from aieco.store import Store


@dataclass(frozen=True)
class Eligibility:
    """The eligible locations of a request and the exclusions, in store order."""

    eligible: list[SourceLocation] = field(default_factory=list)
    exclusions: list[Exclusion] = field(default_factory=list)

    def __iter__(self):  # unpack as ``eligible, exclusions = eligible_locations(...)``
        return iter((self.eligible, self.exclusions))


def effective_role(location: SourceLocation, source: Source) -> Role:
    """The location's role override beats the source role."""
    return location.role_override or source.role


def source_exclusion(source: Source, as_of: AsOf) -> tuple[ExclusionReason, str] | None:
    """The reason every location of ``source`` is excluded, or None when locations must be decided one by one."""
    why = as_of.date_reason(source.publication_date) or as_of.scope_reason(source.jurisdiction)
    if why is not None:
        return why
    # ingest records every page/sheet override on the source, so without one no location can differ
    if not source.role_overrides:
        return as_of.role_reason(source.role)
    return None


def location_exclusion(location: SourceLocation, source: Source, as_of: AsOf) -> tuple[ExclusionReason, str] | None:
    """The role reason a location of an otherwise admissible source is excluded, or None."""
    where = "location override" if location.role_override else "source role"
    return as_of.role_reason(effective_role(location, source), where)


def eligible_locations(
    store: Store,
    *,
    cutoff: date | None = None,
    roles: Iterable[Role | str] = (),
    jurisdictions: Iterable[str] | None = None,
    analysis_id: str | None = None,
    kinds: Iterable[str] | None = None,
    as_of: AsOf | None = None,
    write: bool = True,
) -> Eligibility:
    """Split the registered locations into eligible ones and exclusions (stored if ``analysis_id``
    and ``write``; the analysis stage returns them unstored and the stage runner stores them).

    The rule is ``as_of`` (or one built from ``cutoff``, ``roles`` and ``jurisdictions``).
    ``kinds`` restricts the eligible list and the per-location exclusions to location
    kinds (e.g. ``("passage",)``); by default every kind is decided.
    """
    if as_of is None:
        if cutoff is None:
            raise ValueError("eligible_locations needs a cutoff or an AsOf")
        as_of = AsOf(cutoff=cutoff, roles=roles, scope=jurisdictions)
    exclusions: list[Exclusion] = []
    open_sources: dict[str, Source] = {}
    for source in store.all(Source):
        why = source_exclusion(source, as_of)
        if why is None:
            open_sources[source.source_id] = source
        else:
            exclusions.append(
                Exclusion.create(
                    analysis_id=analysis_id or "",
                    source_id=source.source_id,
                    location_id=None,
                    reason=why[0],
                    detail=why[1],
                )
            )
    where = {"kind": list(kinds)} if kinds is not None else {}
    eligible = []
    for loc in store.find(SourceLocation, source_id=sorted(open_sources), **where) if open_sources else []:
        why = location_exclusion(loc, open_sources[loc.source_id], as_of)
        if why is None:
            eligible.append(loc)
        else:
            exclusions.append(
                Exclusion.create(
                    analysis_id=analysis_id or "",
                    source_id=loc.source_id,
                    location_id=loc.location_id,
                    reason=why[0],
                    detail=why[1],
                )
            )
    if analysis_id is not None and write and exclusions:
        store.put_many(exclusions)
    return Eligibility(eligible=eligible, exclusions=exclusions)


def is_excluded(exclusions: Iterable[Exclusion], location: SourceLocation) -> Exclusion | None:
    """The exclusion that covers ``location`` (its own, or its whole source's), or None."""
    for e in exclusions:
        if e.source_id == location.source_id and e.location_id in (None, location.location_id):
            return e
    return None
