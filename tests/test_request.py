"""AnalysisRequest: TOML load/save, validation errors naming file and field, analysis ids."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from aieco.errors import InputError
from aieco.records import Movement
from aieco.request import AnalysisRequest, dumps_request, load_request, parse_request, save_request

DEMO = Path(__file__).resolve().parents[1] / "aieco" / "demo" / "requests" / "euro_area_risks.toml"

MINIMAL = """
cutoff = 2024-12-31
[[risks]]
name = "property_correction"
  [[risks.channels]]
  id = "pc1"
  source = "long_term_rate"
  movement = "increase"
  target = "house_prices"
  expected = "decrease"
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "req.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_demo_request_holds_the_three_risks_and_their_channels():
    r = load_request(DEMO)
    assert [x.name for x in r.risks] == ["trade_fragmentation", "property_correction", "market_illiquidity"]
    assert r.cutoff == date(2024, 12, 31) and r.years == (2025, 2027)
    mi = {c.id: (c.source, c.movement, c.target, c.expected) for c in r.risk("market_illiquidity").channels}
    assert mi == {
        "mi1": ("market_liquidity", Movement.decrease, "equity_prices", Movement.decrease),
        "mi2": ("market_liquidity", Movement.decrease, "long_term_rate", Movement.increase),
    }
    assert [c.id for c in r.risk("trade_fragmentation").channels] == ["tf1", "tf2", "tf3", "tf4"]


def test_minimal_request_takes_the_paper_defaults(tmp_path):
    r = load_request(write(tmp_path, MINIMAL))
    assert (r.backend, r.graph_condition, r.retrieval_condition, r.repetitions) == ("offline", "G0", "graph", 1)
    assert r.byte_budget == 12_000 and r.model_snapshot == "gpt-4o-2024-08-06"
    assert r.channel_queries("property_correction")[0].max_len == 5


def test_save_and_load_round_trip_keeps_the_analysis_id(tmp_path):
    r = load_request(DEMO)
    back = load_request(save_request(r, tmp_path / "copy.toml"))
    assert back == r and back.analysis_id == r.analysis_id


def test_analysis_id_is_the_digest_of_the_request():
    r = load_request(DEMO)
    assert r.analysis_id == r.analysis().analysis_id  # stable across calls (created_at not in the id)
    other = r.model_copy(update={"cutoff": date(2023, 12, 31)})
    assert other.analysis_id != r.analysis_id
    assert r.analysis().request["cutoff"] == "2024-12-31"


@settings(max_examples=25, deadline=None)
@given(
    reps=st.integers(1, 50), seeds=st.lists(st.integers(0, 2**31), min_size=1, max_size=4), budget=st.integers(1, 10**6)
)
def test_round_trip_property(reps, seeds, budget):
    r = parse_request({**load_request(DEMO).as_dict(), "repetitions": reps, "seeds": seeds, "byte_budget": budget})
    import tomllib

    assert parse_request(tomllib.loads(dumps_request(r))) == r
    assert r.seed(reps) == seeds[(reps - 1) % len(seeds)]


@pytest.mark.parametrize(
    "edit, field",
    [
        (
            lambda t: t.replace('movement = "increase"', 'movement = "up"'),
            "risks[0] (property_correction).channels[0] (pc1).movement",
        ),
        (lambda t: t.replace("cutoff = 2024-12-31", 'cutoff = "soon"'), "cutoff"),
        (lambda t: t.replace("cutoff = 2024-12-31", 'cutoff = 2024-12-31\nhorizon = "2027-2025"'), "horizon"),
        (lambda t: t.replace("cutoff = 2024-12-31", 'cutoff = 2024-12-31\nbackend = "claude"'), "backend"),
        (
            lambda t: t.replace("cutoff = 2024-12-31", 'cutoff = 2024-12-31\nallowed_roles = ["rumour"]'),
            "allowed_roles[0]",
        ),
        (lambda t: t.replace("cutoff = 2024-12-31", 'cutoff = 2024-12-31\ncolour = "blue"'), "colour"),
        (lambda t: t.replace('name = "property_correction"', 'name = "Property Correction"'), "risks[0]"),
        (lambda t: t.replace('target = "house_prices"', 'target = "long_term_rate"'), "channels[0]"),
        (lambda t: t.replace("cutoff = 2024-12-31\n", ""), "cutoff"),
    ],
)
def test_bad_field_is_named_with_file_and_fix(tmp_path, edit, field):
    path = write(tmp_path, edit(MINIMAL))
    with pytest.raises(InputError) as e:
        load_request(path)
    msg = str(e.value)
    assert field in msg and str(path) in msg and "fix:" in msg


def test_bad_files(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        load_request(tmp_path / "absent.toml")
    with pytest.raises(InputError, match="not valid TOML"):
        load_request(write(tmp_path, "cutoff = = 1"))
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(InputError, match="UTF-8"):
        load_request(tmp_path / "bin.toml")


def test_repeated_risk_and_query_ids_are_refused():
    base = load_request(DEMO).as_dict()
    with pytest.raises(InputError, match="risk names repeat: trade_fragmentation"):
        parse_request({**base, "risks": [base["risks"][0], base["risks"][0]]})
    risk = dict(base["risks"][0], channels=[base["risks"][0]["channels"][0]] * 2)
    with pytest.raises(InputError, match="channel query ids repeat: tf1"):
        parse_request({**base, "risks": [risk]})


def test_request_is_frozen():
    r = load_request(DEMO)
    with pytest.raises(ValidationError):
        r.cutoff = date(2020, 1, 1)  # type: ignore[misc]
    assert isinstance(r, AnalysisRequest)


def test_request_problems_name_each_refusal_and_its_fix():
    from aieco.request import request_problems

    base = load_request(DEMO)
    assert request_problems(base, ["macro_var", "bank_feols", "bank_feqar"]) == []
    data = base.as_dict()
    data["models"] = ["macro_var", "no_such_model"]
    data["horizon"] = "2024-2026"
    data["risks"][0]["channels"][0]["target"] = "not_a_variable"
    problems = request_problems(parse_request(data), ["macro_var"])
    assert len(problems) == 3
    assert "'not_a_variable' is not a vocabulary variable" in problems[0]
    assert "no_such_model" in problems[1] and "use one of ['macro_var']" in problems[1]
    assert "horizon 2024-2026 starts before the information cutoff 2024-12-31" in problems[2]
