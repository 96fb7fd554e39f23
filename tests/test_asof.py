"""The one as-of rule (aieco.asof.AsOf): a table of cases, and eligibility and A(t) agreeing."""

from datetime import date

import pytest

from aieco.asof import AsOf, containers, normalise
from aieco.graph.build import as_of_graph
from aieco.records import ExclusionReason, Relation, Role, Source, SourceLocation, utc_now
from aieco.request import AnalysisRequest
from aieco.sources.eligibility import eligible_locations

CUT = date(2024, 12, 31)

# (scope, exclude, roles, published, jurisdiction, role) -> expected reason (None: admitted)
CASES = [
    (["EA"], [], ["generation"], date(2024, 6, 1), "EA", "generation", None),
    (["ea"], [], ["generation"], date(2024, 6, 1), "EA", "generation", None),  # case-insensitive scope
    (["EA"], [], ["generation"], date(2024, 6, 1), "ea", "generation", None),  # ... and item
    (["EA"], [], ["generation"], date(2024, 6, 1), "EU", "generation", None),  # EA admits its containers
    (["EA"], [], ["generation"], date(2024, 6, 1), "global", "generation", None),
    (["EA"], [], ["generation"], date(2024, 6, 1), "EA20", "generation", None),  # alias
    (["EA"], ["EU"], ["generation"], date(2024, 6, 1), "EU", "generation", ExclusionReason.scope),
    (["EA"], ["global"], ["generation"], date(2024, 6, 1), "GLOBAL", "generation", ExclusionReason.scope),
    (["EA"], [], ["generation"], date(2024, 6, 1), "DE", "generation", ExclusionReason.scope),  # not upward
    (["DE"], [], ["generation"], date(2024, 6, 1), "EA", "generation", None),  # a member admits the EA
    (["EA"], [], ["generation"], date(2024, 6, 1), "US", "generation", ExclusionReason.scope),
    (["EA"], [], ["generation"], date(2024, 6, 1), None, "generation", ExclusionReason.scope),
    (["EU"], [], ["generation"], date(2024, 6, 1), "EA", "generation", ExclusionReason.scope),
    (None, [], ["generation"], date(2024, 6, 1), "US", "generation", None),  # no scope: everything
    (["EA"], [], ["generation"], None, "EA", "generation", ExclusionReason.unknown_date),
    (["EA"], [], ["generation"], date(2025, 1, 1), "EA", "generation", ExclusionReason.after_cutoff),
    (["EA"], [], ["generation"], CUT, "EA", "generation", None),  # the cutoff day itself
    (["EA"], [], ["generation"], date(2025, 1, 1), "US", "methods", ExclusionReason.after_cutoff),  # order
    (["EA"], [], ["generation"], date(2024, 6, 1), "US", "methods", ExclusionReason.scope),
    (["EA"], [], ["generation"], date(2024, 6, 1), "EA", "methods", ExclusionReason.role),
    (["EA"], [], ["generation", "methods"], date(2024, 6, 1), "EA", "methods", None),
]


@pytest.mark.parametrize(("scope", "exclude", "roles", "published", "jurisdiction", "role", "expected"), CASES)
def test_as_of_rule_table(scope, exclude, roles, published, jurisdiction, role, expected):
    rule = AsOf(cutoff=CUT, roles=roles, scope=scope, exclude=exclude)
    why = rule.reason(published=published, jurisdiction=jurisdiction, role=Role(role))
    assert (why[0] if why else None) == expected
    if why:
        assert why[1]  # every exclusion says why
    assert rule.admits(published=published, jurisdiction=jurisdiction, role=Role(role)) == (expected is None)


def test_hierarchy_and_normalisation():
    assert containers("ea") == ("EA", "EU", "GLOBAL")
    assert containers("FR") == ("FR", "EA", "EU", "GLOBAL")
    assert containers("US") == ("US", "GLOBAL")
    assert normalise(" eu27_2020 ") == "EU"
    assert AsOf(cutoff=None, scope=["ea"]).admitted == frozenset({"EA", "EU", "GLOBAL"})


def test_release_rule_of_observed_values():
    rule = AsOf(cutoff=CUT)
    assert rule.released(CUT) and not rule.released(date(2025, 1, 1)) and not rule.released(None)
    assert AsOf(cutoff=None).released(date(2099, 1, 1))


@pytest.mark.parametrize(
    ("policy", "rule", "usable"),
    [
        ("strict", "vintage", True),
        ("strict", "file", True),
        ("strict", "lag", False),  # a documented lag is no evidence that the value was public
        ("strict", None, False),
        ("approximate", "lag", True),
        ("approximate", None, False),
        (None, "lag", True),  # no policy: the caller already chose its values
        (None, None, True),
    ],
)
def test_the_vintage_policy_lives_in_the_as_of_rule(policy, rule, usable):
    as_of = AsOf.at(CUT, policy)
    assert as_of.usable(CUT, rule) is usable
    assert not as_of.usable(date(2025, 1, 1), rule)  # after the cutoff whatever its rule


def test_the_request_builds_one_as_of_rule_with_its_scope_exclusions_and_vintage_policy():
    req = AnalysisRequest.model_validate(
        {
            "cutoff": CUT,
            "jurisdictions": ["ea"],
            "excluded_jurisdictions": ["GLOBAL"],
            "vintage_policy": "approximate",
            "risks": [
                {
                    "name": "r",
                    "channels": [
                        {"id": "q", "source": "a", "movement": "increase", "target": "b", "expected": "decrease"}
                    ],
                }
            ],
        }
    )
    as_of = req.as_of()
    assert (as_of.cutoff, as_of.scope, as_of.exclude, as_of.vintage_policy) == (
        CUT,
        ("EA",),
        ("GLOBAL",),
        "approximate",
    )


def test_a_bare_cutoff_is_parsed_and_its_policy_checked_in_one_place():
    from aieco.errors import InputError

    assert AsOf.at("2024-12-31", "strict") == AsOf(cutoff=CUT, vintage_policy="strict")
    with pytest.raises(InputError, match="vintage policy 'loose' is not one of strict, approximate"):
        AsOf.at(CUT, "loose")
    with pytest.raises(InputError, match="cutoff '31/12/2024' is not a date"):
        AsOf.at("31/12/2024")


def _world(store):
    """Four sources (EA, EU, GLOBAL, US), one passage and one accepted relation each."""
    rels = []
    for i, jur in enumerate(("EA", "EU", "GLOBAL", "US")):
        src = Source.create(
            path=jur,
            sha256=jur,
            publisher="P",
            title=jur,
            publication_date=date(2024, 3, 1),
            retrieved_at=utc_now(),
            role="generation",
            jurisdiction=jur,
            kind="pdf",
        )
        loc = SourceLocation.create(
            source_id=src.source_id, kind="passage", page=1, text=f"{jur} text", parser_version="pdf-1"
        )
        rel = Relation.create(
            src_var=f"v{i}",
            dst_var=f"w{i}",
            sign="+",
            quote=f"{jur} text",
            location_id=loc.location_id,
            source_id=src.source_id,
            publication_date=src.publication_date,
            role=Role.generation,
            jurisdiction=jur,
            confidence=0.9,
        )
        store.put_many([src, loc, rel])
        rels.append(rel)
    return rels


def _request(**kw):
    return AnalysisRequest.model_validate(
        {
            "cutoff": CUT,
            "allowed_roles": ["generation"],
            "risks": [
                {
                    "name": "r",
                    "channels": [
                        {
                            "id": "q",
                            "source": "gdp",
                            "movement": "decrease",
                            "target": "unemployment",
                            "expected": "increase",
                        }
                    ],
                }
            ],
            **kw,
        }
    )


@pytest.mark.parametrize(
    ("scope", "excluded", "seen"),
    [
        (["ea"], [], {"EA", "EU", "GLOBAL"}),
        (["EA"], ["eu"], {"EA", "GLOBAL"}),
        (["US"], [], {"US", "GLOBAL"}),
    ],
)
def test_eligibility_and_graph_see_the_same_jurisdictions(store, scope, excluded, seen):
    _world(store)
    rule = _request(jurisdictions=scope, excluded_jurisdictions=excluded).as_of()
    eligible = eligible_locations(store, as_of=rule)
    graph = as_of_graph(store, rule, condition="G0")
    by_source = {s.source_id: s.jurisdiction for s in store.all(Source)}
    assert {by_source[loc.source_id] for loc in eligible.eligible} == seen
    assert {d["relation"].jurisdiction for _, _, d in graph.edges(data=True)} == seen
    assert {by_source[e.source_id] for e in eligible.exclusions} == {"EA", "EU", "GLOBAL", "US"} - seen
    assert all(e.reason == ExclusionReason.scope and e.detail for e in eligible.exclusions)


def test_request_without_exclusions_keeps_its_analysis_id():
    req = _request()
    assert "excluded_jurisdictions" not in req.as_dict()
    assert "excluded_jurisdictions" in _request(excluded_jurisdictions=["EU"]).as_dict()
