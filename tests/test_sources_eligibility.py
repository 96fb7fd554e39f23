from datetime import date

from aieco.records import Exclusion, ExclusionReason, Role, Source, SourceLocation, utc_now
from aieco.sources.eligibility import eligible_locations, is_excluded


def add_source(store, name, published, role="generation", jurisdiction="EA", override_pages=()):
    src = Source.create(
        path=name,
        sha256=name,
        publisher="P",
        title=name,
        publication_date=published,
        retrieved_at=utc_now(),
        role=role,
        jurisdiction=jurisdiction,
        kind="pdf",
        role_overrides=[{"pages": ",".join(map(str, override_pages)), "role": "development"}] if override_pages else [],
    )
    locs = [
        SourceLocation.create(
            source_id=src.source_id,
            kind="passage",
            page=p,
            text=f"{name} page {p}",
            parser_version="pdf-1",
            role_override=Role.development if p in override_pages else None,
        )
        for p in (1, 2, 3)
    ]
    store.put_many([src, *locs])
    return src, locs


def test_each_location_is_decided_with_one_reason(store):
    ok, ok_locs = add_source(store, "ok", date(2024, 6, 1), override_pages=(3,))
    late, _ = add_source(store, "late", date(2025, 1, 1))
    undated, _ = add_source(store, "undated", None)
    methods, _ = add_source(store, "methods", date(2023, 1, 1), role="methods")
    uk, _ = add_source(store, "uk", date(2024, 1, 1), jurisdiction="UK")
    eligible, exclusions = eligible_locations(
        store, cutoff=date(2024, 12, 31), roles=["generation"], jurisdictions=["EA", "EU"]
    )
    assert sorted(loc.text for loc in eligible) == ["ok page 1", "ok page 2"]
    got = {(e.source_id, e.location_id): e.reason for e in exclusions}
    assert got == {
        (ok.source_id, ok_locs[2].location_id): ExclusionReason.role,  # the location override beats the source role
        (late.source_id, None): ExclusionReason.after_cutoff,
        (undated.source_id, None): ExclusionReason.unknown_date,
        (methods.source_id, None): ExclusionReason.role,
        (uk.source_id, None): ExclusionReason.scope,
    }
    assert all(e.detail for e in exclusions)  # every exclusion says why
    # every location is either eligible or covered by exactly one exclusion
    for loc in store.all(SourceLocation):
        covered = [e for e in exclusions if e.source_id == loc.source_id and e.location_id in (None, loc.location_id)]
        assert (loc in eligible) != bool(covered) and len(covered) <= 1
        assert (is_excluded(exclusions, loc) is not None) == bool(covered)
    assert store.count(Exclusion) == 0  # nothing stored without an analysis id


def test_override_can_admit_a_location_of_a_disallowed_source(store):
    src, locs = add_source(store, "dev", date(2024, 6, 1), role="methods", override_pages=(2,))
    eligible, exclusions = eligible_locations(store, cutoff=date(2024, 12, 31), roles=["development"])
    assert [loc.text for loc in eligible] == ["dev page 2"]
    assert {e.location_id for e in exclusions} == {locs[0].location_id, locs[2].location_id}


def test_cutoff_day_itself_is_eligible(store):
    add_source(store, "edge", date(2024, 12, 31))
    eligible, _ = eligible_locations(store, cutoff=date(2024, 12, 31), roles=["generation"])
    assert len(eligible) == 3
    eligible, exclusions = eligible_locations(store, cutoff=date(2024, 12, 30), roles=["generation"])
    assert not eligible and {e.reason for e in exclusions} == {ExclusionReason.after_cutoff}


def test_development_override_is_eligible_when_development_is_allowed(store):
    add_source(store, "ok", date(2024, 6, 1), override_pages=(3,))
    eligible, _ = eligible_locations(store, cutoff=date(2024, 12, 31), roles=["development"])
    assert [loc.text for loc in eligible] == ["ok page 3"]


def test_exclusions_are_stored_once_per_analysis(store):
    add_source(store, "late", date(2025, 1, 1))
    for _ in range(2):
        _, exclusions = eligible_locations(store, cutoff=date(2024, 12, 31), roles=["generation"], analysis_id="an_1")
    stored = store.find(Exclusion, analysis_id="an_1")
    assert len(stored) == 1 == len(exclusions) and stored[0].location_id is None
    assert all(e.reason is ExclusionReason.after_cutoff and "2025-01-01" in e.detail for e in stored)
