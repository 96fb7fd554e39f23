"""Source eligibility for a request, decided per location before retrieval (paper §2.2).

A location is eligible when its source has a known publication date on or before the
cutoff, its effective role (the location's role override, else the source role) is
allowed, and its source's jurisdiction is in scope. Each excluded location gets one
Exclusion with the first reason that applies, in the order ``unknown_date``,
``after_cutoff``, ``role``, ``scope``; with an analysis id the exclusions are stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

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


def exclusion_reason(location: SourceLocation, source: Source, *, cutoff: date, roles: frozenset[Role],
                     jurisdictions: frozenset[str] | None) -> tuple[ExclusionReason, str] | None:
    """The reason ``location`` is not eligible (with a detail), or None when it is eligible."""
    if source.publication_date is None:
        return ExclusionReason.unknown_date, "publication date unknown"
    if source.publication_date > cutoff:
        return ExclusionReason.after_cutoff, f"published {source.publication_date} after cutoff {cutoff}"
    role = effective_role(location, source)
    if role not in roles:
        where = "location override" if location.role_override else "source role"
        return ExclusionReason.role, f"{where} {role.value} not in {sorted(r.value for r in roles)}"
    if jurisdictions is not None and source.jurisdiction.upper() not in jurisdictions:
        return ExclusionReason.scope, f"jurisdiction {source.jurisdiction} not in {sorted(jurisdictions)}"
    return None


def eligible_locations(store: Store, *, cutoff: date, roles: Iterable[Role | str],
                       jurisdictions: Iterable[str] | None = None, analysis_id: str | None = None,
                       kinds: Iterable[str] | None = None) -> Eligibility:
    """Split the registered locations into eligible ones and exclusions (stored if ``analysis_id``).

    ``kinds`` restricts both lists to location kinds (e.g. ``("passage",)``); by default
    every kind is decided.
    """
    allowed = frozenset(Role(r) for r in roles)
    scope = frozenset(j.upper() for j in jurisdictions) if jurisdictions is not None else None
    sources = {s.source_id: s for s in store.all(Source)}
    where = {"kind": list(kinds)} if kinds is not None else {}
    eligible, exclusions = [], []
    for loc in store.find(SourceLocation, **where):
        source = sources.get(loc.source_id)
        if source is None:  # an orphan row (only possible by editing the database) is never eligible
            continue
        why = exclusion_reason(loc, source, cutoff=cutoff, roles=allowed, jurisdictions=scope)
        if why is None:
            eligible.append(loc)
        else:
            exclusions.append(Exclusion.create(
                analysis_id=analysis_id or "", source_id=loc.source_id, location_id=loc.location_id,
                reason=why[0], detail=why[1]))
    if analysis_id is not None and exclusions:
        store.put_many(exclusions)
    return Eligibility(eligible=eligible, exclusions=exclusions)
