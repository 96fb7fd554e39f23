"""The openai backend finds the structured-output mode an endpoint supports and records it;
output that cannot be parsed is recorded as ``unparseable_response`` (stub peer on 127.0.0.1)."""

from __future__ import annotations

import pytest

from aieco.errors import StageStopped
from aieco.llm import LLMClient
from aieco.llm.openai_backend import OpenAIBackend
from aieco.records import LLMCall, canonical_json
from tests.openai_stub_server import StubServer, chat_body, error_body, responses_body
from tests.test_llm_openai import CHAT, ECHO, KEY, MODEL, RESPONSES, Echo


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with StubServer() as s:
        yield s


def calls(store) -> list[LLMCall]:
    return store.find(LLMCall, analysis_id="an_modes")


def test_a_llama_cpp_like_endpoint_is_asked_with_json_object_and_schema(store, server):
    server.missing.add(RESPONSES)
    answer = canonical_json({"upper": "A", "length": 1})
    server.queue(
        CHAT,
        (500, error_body("Unrecognized response_format type: json_schema")),
        (200, chat_body(answer, MODEL)),
        (200, chat_body(answer, MODEL)),
    )
    backend = OpenAIBackend(base_url=server.base_url)
    c = LLMClient(store, backend, "an_modes", model=MODEL)
    c.run(ECHO, Echo(word="a"), stage="s")
    c.run(ECHO, Echo(word="b"), stage="s")
    formats = [body.get("response_format") for path, body in server.requests if path == CHAT]
    assert formats[0]["type"] == "json_schema"
    assert formats[1]["type"] == formats[2]["type"] == "json_object"
    assert formats[1]["schema"]["required"] == ["length", "upper"]
    assert server.paths() == [RESPONSES, CHAT, CHAT, CHAT]  # the mode is found once, then kept
    assert [(x.status, x.structured_mode) for x in calls(store)] == [("ok", "chat_json_object_schema")] * 2


def test_the_responses_mode_is_recorded_when_the_endpoint_has_it(store, server):
    server.queue(RESPONSES, (200, responses_body(canonical_json({"upper": "A", "length": 1}), MODEL)))
    LLMClient(store, OpenAIBackend(base_url=server.base_url), "an_modes", model=MODEL).run(
        ECHO, Echo(word="a"), stage="s"
    )
    assert [x.structured_mode for x in calls(store)] == ["responses_json_schema"]


def test_an_error_in_the_last_mode_is_an_http_error_not_another_fallback(store, server):
    server.missing.add(RESPONSES)
    server.queue(CHAT, (500, error_body("no json_schema")), (500, error_body("model crashed")))
    with pytest.raises(StageStopped, match="http_error"):
        LLMClient(store, OpenAIBackend(base_url=server.base_url), "an_modes", model=MODEL).run(
            ECHO, Echo(word="a"), stage="s"
        )
    (call,) = calls(store)
    assert call.status == "http_error" and call.structured_mode == "chat_json_object_schema"
    assert "model crashed" in call.error


@pytest.mark.parametrize("text", ['{"upper": "A", "length": ', "Sure! Here is the JSON you asked for.", ""])
def test_output_text_that_is_not_json_is_an_unparseable_response(store, server, text):
    server.queue(RESPONSES, (200, responses_body(text, MODEL)))
    with pytest.raises(StageStopped, match="unparseable_response"):
        LLMClient(store, OpenAIBackend(base_url=server.base_url), "an_modes", model=MODEL).run(
            ECHO, Echo(word="a"), stage="s"
        )
    (call,) = calls(store)
    assert call.status == "unparseable_response" and call.parsed is None and call.returned_model == MODEL


def test_json_of_the_wrong_shape_is_still_a_schema_violation(store, server):
    server.queue(RESPONSES, (200, responses_body(canonical_json({"upper": "A"}), MODEL)))
    with pytest.raises(StageStopped, match="schema_violation"):
        LLMClient(store, OpenAIBackend(base_url=server.base_url), "an_modes", model=MODEL).run(
            ECHO, Echo(word="a"), stage="s"
        )
    assert [x.status for x in calls(store)] == ["schema_violation"]


def test_a_response_body_that_is_not_a_json_object_is_unparseable_not_a_model_mismatch(store, server):
    server.queue(RESPONSES, (200, "<html>gateway says hello</html>"))
    with pytest.raises(StageStopped, match="unparseable_response"):
        LLMClient(store, OpenAIBackend(base_url=server.base_url), "an_modes", model=MODEL).run(
            ECHO, Echo(word="a"), stage="s"
        )
    (call,) = calls(store)
    assert call.status == "unparseable_response" and "gateway says hello" in call.raw_response
