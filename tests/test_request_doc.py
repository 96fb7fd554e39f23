"""docs/request.md documents every request field as the pydantic model defines it (it cannot drift)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from aieco.api import request_fields, request_reference
from aieco.config import get_settings
from aieco.request import AnalysisRequest, ChannelQuerySpec, RiskSpec, parse_request

DOC = Path(__file__).resolve().parents[1] / "docs" / "request.md"
MARKED = re.compile(r"<!-- generated: aieco.api.request_reference\(\) -->\n\n(.*)\n<!-- end generated -->", re.S)


@pytest.fixture
def default_settings(monkeypatch):
    """Defaults read from settings as shipped (no AIECO_ override of seed, model or byte budget)."""
    for name in [n for n in os.environ if n.startswith("AIECO_")]:
        monkeypatch.delenv(name)
    get_settings.cache_clear()
    yield
    monkeypatch.undo()
    get_settings.cache_clear()


def test_docs_request_md_holds_the_reference_generated_from_the_model(default_settings):
    found = MARKED.search(DOC.read_text(encoding="utf-8"))
    assert found, "docs/request.md lost its generated section markers"
    assert found.group(1) == request_reference(), (
        "docs/request.md differs from the request model: regenerate its Fields section with "
        '`python -c "from aieco.api import request_reference; print(request_reference())"`'
    )


@pytest.mark.parametrize("model", [AnalysisRequest, RiskSpec, ChannelQuerySpec])
def test_every_field_of_every_request_table_is_documented_with_a_meaning(model):
    text = DOC.read_text(encoding="utf-8")
    for name, info in model.model_fields.items():
        row = next((line for line in text.splitlines() if line.startswith(f"| `{name}` |")), None)
        assert row is not None, f"{model.__name__}.{name} is not documented"
        assert info.description and row.rstrip(" |").endswith(" ".join(info.description.split())[-20:]), (
            f"{model.__name__}.{name} has no description in the model (Field(description=…))"
        )


def test_field_kinds_are_read_from_the_model():
    fields = {f.name: f for f in request_fields()}
    assert fields["cutoff"].kind == "date" and fields["cutoff"].required
    assert fields["vintage_policy"].kind == "choice" and fields["vintage_policy"].options == ("strict", "approximate")
    assert fields["allowed_roles"].kind == "choices" and "evaluation" in fields["allowed_roles"].options
    assert (fields["seeds"].kind, fields["seeds"].item) == ("list", "int")
    assert (fields["repetitions"].ge, fields["repetitions"].le) == (1, 50)
    assert fields["risks"].kind == "table" and fields["risks"].model is RiskSpec
    channels = {f.name: f for f in request_fields(ChannelQuerySpec)}
    assert channels["feedback_loop"].kind == "bool" and channels["feedback_loop"].default is False


def test_the_documented_example_is_a_valid_request():
    import tomllib

    example = re.search(r"## A complete example\n\n```toml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    request = parse_request(tomllib.loads(example.group(1)), where="docs/request.md")
    assert request.vintage_policy == "approximate" and request.seeds == [7]
