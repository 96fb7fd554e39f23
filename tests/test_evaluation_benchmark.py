"""Structural validation of benchmark paths before scoring."""

from __future__ import annotations

import copy

import pytest

from aieco.errors import InputError, StageStopped
from aieco.evaluation.benchmark import demo_benchmark_path, load_benchmark, validate_benchmark

BASE = {
    "benchmark": {"name": "t"},
    "relation": [
        {"id": "r1", "src": "a", "dst": "b", "sign": "+", "location": "p1"},
        {"id": "r2", "src": "b", "dst": "c", "sign": "-", "location": "p1"},
        {"id": "r3", "src": "x", "dst": "c", "sign": "+", "location": "p2"},
    ],
    "channel": [
        {"risk": "r", "id": "c1", "source": "a", "target": "c", "variants": [["r1", "r2"]]},
        {"risk": "r", "id": "c2", "source": "a", "target": "b", "variants": [["r1"]]},
    ],
}


def bad(**changes):
    raw = copy.deepcopy(BASE)
    for k, v in changes.items():
        raw[k] = v
    return raw


def test_valid_benchmark_counts_a_shared_edge_once():
    b = validate_benchmark(BASE)
    assert b.risks == ["r"]
    # r1 is shared by c1 and c2: one distinct signed relation.
    assert b.relation_keys("r") == {("a", "b", "+"), ("b", "c", "-")}
    assert b.digest == validate_benchmark(copy.deepcopy(BASE)).digest


def test_disconnected_path_stops_with_reason():
    raw = bad(channel=[{"risk": "r", "id": "c1", "source": "a", "target": "c", "variants": [["r1", "r3"]]}])
    with pytest.raises(StageStopped, match="disconnected — r1 ends at b but r3 starts at x") as e:
        validate_benchmark(raw)
    assert e.value.stage == "benchmark_validation"


def test_shared_edge_declared_twice_is_refused():
    rels = BASE["relation"] + [{"id": "r9", "src": "a", "dst": "b", "sign": "+", "location": "p7"}]
    with pytest.raises(StageStopped, match="r1 and r9 are the same signed relation"):
        validate_benchmark(bad(relation=rels))


def test_distinct_signed_relations_on_same_endpoints_are_allowed():
    rels = BASE["relation"] + [{"id": "r9", "src": "a", "dst": "b", "sign": "-", "location": "p7"}]
    chans = BASE["channel"] + [{"risk": "q", "id": "c9", "source": "a", "target": "b", "variants": [["r9"]]}]
    b = validate_benchmark(bad(relation=rels, channel=chans))
    assert b.relation_keys() == {("a", "b", "+"), ("a", "b", "-"), ("b", "c", "-")}


@pytest.mark.parametrize(
    "channel, reason",
    [
        ({"risk": "r", "id": "c1", "source": "a", "target": "c", "variants": [["r1", "r1"]]}, "occurs twice"),
        (
            {"risk": "r", "id": "c1", "source": "b", "target": "c", "variants": [["r1", "r2"]]},
            "not at the channel source",
        ),
        (
            {"risk": "r", "id": "c1", "source": "a", "target": "b", "variants": [["r1", "r2"]]},
            "not at the channel target",
        ),
        ({"risk": "r", "id": "c1", "source": "a", "target": "c", "variants": [["r1", "zz"]]}, "unknown relation"),
        ({"risk": "r", "id": "c1", "source": "a", "target": "c", "variants": [[]]}, "empty path"),
        ({"risk": "r", "id": "c1", "source": "a", "target": "c", "variants": []}, "no variants"),
    ],
)
def test_invalid_channels_stop(channel, reason):
    with pytest.raises(StageStopped, match=reason):
        validate_benchmark(bad(channel=[channel]))


def test_bad_relations_stop():
    with pytest.raises(StageStopped, match="sign 'ambiguous'"):
        validate_benchmark(bad(relation=[{"id": "r1", "src": "a", "dst": "b", "sign": "ambiguous", "location": "p"}]))
    with pytest.raises(StageStopped, match="two distinct variables"):
        validate_benchmark(bad(relation=[{"id": "r1", "src": "a", "dst": "a", "sign": "+", "location": "p"}]))
    with pytest.raises(StageStopped, match="field relation"):
        validate_benchmark(bad(relation=[{"id": "r1", "src": "a", "dst": "b", "sign": "+"}]))
    with pytest.raises(StageStopped, match="not in the controlled vocabulary"):
        validate_benchmark(BASE, vocabulary={"a", "b"})
    with pytest.raises(StageStopped, match="no \\[\\[channel\\]\\]"):
        validate_benchmark(bad(channel=[]))
    with pytest.raises(StageStopped, match="\\[benchmark\\]"):
        validate_benchmark({"relation": []})


def test_repeated_variable_needs_feedback_loop():
    rels = BASE["relation"] + [{"id": "r4", "src": "c", "dst": "a", "sign": "+", "location": "p"}]
    loop = {"risk": "r", "id": "c1", "source": "a", "target": "a", "variants": [["r1", "r2", "r4"]]}
    with pytest.raises(StageStopped, match="repeats a variable"):
        validate_benchmark(bad(relation=rels, channel=[loop]))
    assert validate_benchmark(bad(relation=rels, channel=[loop | {"feedback_loop": True}]))


def test_load_errors_name_the_file(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_benchmark(tmp_path / "missing.toml")
    p = tmp_path / "b.toml"
    p.write_text("[benchmark\nname=1")
    with pytest.raises(InputError, match="not valid TOML"):
        load_benchmark(p)


def test_demo_benchmark_is_valid_and_covers_three_risks():
    b = load_benchmark(demo_benchmark_path())
    assert b.risks == ["trade_fragmentation", "property_correction", "market_illiquidity"]
    # real_gdp -> unemployment is one relation shared by both trade and property channels.
    shared = ("real_gdp", "unemployment", "-")
    assert shared in b.relation_keys("trade_fragmentation") and shared in b.relation_keys("property_correction")
