from datetime import date

from aieco.records import Exclusion, ExclusionReason, Role, Source, SourceLocation, utc_now
from aieco.sources.eligibility import eligible_locations


def add_source(store, name, published, role="generation", jurisdiction="EA", override_pages=()):
    src = Source.create(path=name, sha256=name, publisher="P", title=name, publication_date=published,
                        retrieved_at=utc_now(), role=role, jurisdiction=jurisdiction, kind="pdf")
    locs = [SourceLocation.create(source_id=src.source_id, kind="passage", page=p, text=f"{name} page {p}",
                                  parser_version="pdf-1",
                                  role_override=Role.development if p in override_pages else None)
            for p in (1, 2, 3)]
    store.put_many([src, *locs])
    return src, locs


def test_each_location_is_decided_with_one_reason(store):
    add_source(store, "ok", date(2024, 6, 1), override_pages=(3,))
    add_source(store, "late", date(2025, 1, 1))
    add_source(store, "undated", None)
    add_source(store, "methods", date(2023, 1, 1), role="methods")
    add_source(store, "uk", date(2024, 1, 1), jurisdiction="UK")
    eligible, exclusions = eligible_locations(store, cutoff=date(2024, 12, 31), roles=["generation"],
                                              jurisdictions=["EA", "EU"])
    assert sorted(loc.text for loc in eligible) == ["ok page 1", "ok page 2"]
    by_text = {store.get(SourceLocation, e.location_id).text: e.reason for e in exclusions}
    assert by_text == {
        "ok page 3": ExclusionReason.role,  # the location override beats the source role
        **{f"late page {p}": ExclusionReason.after_cutoff for p in (1, 2, 3)},
        **{f"undated page {p}": ExclusionReason.unknown_date for p in (1, 2, 3)},
        **{f"methods page {p}": ExclusionReason.role for p in (1, 2, 3)},
        **{f"uk page {p}": ExclusionReason.scope for p in (1, 2, 3)},
    }
    assert all(e.detail for e in exclusions)  # every exclusion says why
    assert store.count(Exclusion) == 0  # nothing stored without an analysis id


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
    assert len(stored) == 3 == len(exclusions)
    assert all(e.reason is ExclusionReason.after_cutoff and "2025-01-01" in e.detail for e in stored)
