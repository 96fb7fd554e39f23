"""Issue 35, item 7: an endpoint that echoes the API key never gets it stored or printed.

A local OpenAI-compatible server answers 401 with the key in its error message and body; the
LLMCall (raw response, error), the stage reason and the CLI's JSON carry ``[redacted]`` instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aieco.analysis.pipeline import analyze
from aieco.config import REDACTED, redact
from aieco.records import LLMCall, StageRecord
from aieco.request import load_request
from tests.openai_stub_server import StubServer, error_body

DEMO = Path(__file__).resolve().parents[1] / "aieco" / "demo" / "requests" / "euro_area_risks.toml"
KEY = "sk-live-0123456789abcdef-echoed"


def _echo_key(body: dict) -> tuple[int, dict]:
    return 401, error_body(f"Incorrect API key provided: {KEY}. You can find your key at …", "invalid_request_error")


@pytest.fixture
def echoing(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with StubServer() as server:
        server.fallback["/v1/responses"] = _echo_key
        server.fallback["/v1/chat/completions"] = _echo_key
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        yield server


def test_a_key_echoed_by_the_endpoint_is_never_stored(store, echoing):
    out = analyze(store, load_request(DEMO), backend="openai")
    assert echoing.requests  # the endpoint was asked
    assert {p.stopped_stage for p in out.programs} == {"planning"}
    assert all(KEY not in p.reason and REDACTED in p.reason for p in out.programs)
    calls = store.find(LLMCall, analysis_id=out.analysis_id)
    assert calls and all(KEY not in c.raw_response and KEY not in c.error for c in calls)
    assert any(REDACTED in c.raw_response for c in calls) and any(REDACTED in c.error for c in calls)
    for r in store.find(StageRecord, analysis_id=out.analysis_id):
        assert KEY not in r.reason
    db = (store.path / "aieco.db").read_bytes()
    assert KEY.encode() not in db


def test_a_key_echoed_by_the_endpoint_is_never_printed(tmp_path, echoing):
    from aieco.cli import main

    res = CliRunner().invoke(
        main,
        ["-w", str(tmp_path / "ws"), "--json", "analyze", str(DEMO), "--backend", "openai"],
        catch_exceptions=False,
    )
    assert KEY not in res.output and REDACTED in res.output
    body = json.loads(res.output.splitlines()[0])  # then the stop, on stderr
    assert {a["stopped_stage"] for a in body["analyses"]} == {"planning"}


def test_redaction_reaches_nested_values_and_leaves_other_text(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-abcdef")
    assert redact({"a": ["x sk-abcdef y", 3], "b": ("sk-abcdef",)}) == {"a": [f"x {REDACTED} y", 3], "b": (REDACTED,)}
    assert redact("nothing secret") == "nothing secret"
    monkeypatch.setenv("OPENAI_API_KEY", "sk")  # too short to be told from ordinary text: not a secret
    assert redact("sky") == "sky"
