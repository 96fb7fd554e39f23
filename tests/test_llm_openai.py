"""The openai backend through the official client against a real local HTTP peer."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel, ConfigDict

from aieco.agents import model_request
from aieco.errors import InputError, StageStopped
from aieco.llm import LLMClient, OfflineBackend, Prompt, Task, make_backend
from aieco.llm.openai_backend import OpenAIBackend, strict_schema
from aieco.records import LLMCall, canonical_json, digest
from tests.openai_stub_server import StubServer, chat_body, error_body, responses_body

MODEL = "gpt-4o-2024-08-06"
KEY = "sk-test-secret-never-stored"
RESPONSES, CHAT = "/v1/responses", "/v1/chat/completions"


class Echo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    word: str
    note: str | None = None


class Answer(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    upper: str
    length: int


ECHO = Task(
    name="shout",
    prompt=Prompt(
        name="shout", version="1", system="You shout.", instructions="Return the word in capitals and its length."
    ),
    input_schema=Echo,
    output_schema=Answer,
    offline=lambda i: Answer(upper=i.word.upper(), length=len(i.word)),
)

MR_INPUT = model_request.ModelRequestInput(
    risk="trade_fragmentation",
    restrictions=[
        model_request.RestrictionBrief(
            restriction_id="rst_1", variable="real_gdp", model_variable="real_gdp", direction=-1, priority=2
        )
    ],
    offered=[
        model_request.OfferedOutput(
            model_id="macro_var", variable="real_gdp", unit="percent", frequency="A", transformation="annual_growth"
        )
    ],
)


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with StubServer() as s:
        yield s


def client(store, server, **kw) -> LLMClient:
    return LLMClient(store, OpenAIBackend(base_url=server.base_url), "an_test", model=MODEL, **kw)


def ok(payload: dict, model: str = MODEL) -> tuple[int, dict]:
    return 200, responses_body(canonical_json(payload), model)


def only_call(store) -> LLMCall:
    calls = store.find(LLMCall, analysis_id="an_test")
    assert len(calls) == 1
    return calls[0]


def test_success_through_responses_api_is_recorded_in_full(store, server):
    server.queue(RESPONSES, ok({"upper": "TARIFF", "length": 6}))
    out = client(store, server).run(ECHO, Echo(word="tariff"), stage="s")
    assert out == Answer(upper="TARIFF", length=6)
    path, body = server.requests[0]
    assert server.paths() == [RESPONSES]
    assert body["model"] == MODEL and body["temperature"] == 0 and body["store"] is False
    fmt = body["text"]["format"]
    assert fmt["type"] == "json_schema" and fmt["strict"] is True and fmt["name"] == "shout"
    assert fmt["schema"]["additionalProperties"] is False and fmt["schema"]["required"] == ["length", "upper"]
    assert '"word":"tariff"' in body["input"][0]["content"]
    call = only_call(store)
    assert (call.status, call.requested_model, call.returned_model) == ("ok", MODEL, MODEL)
    assert (call.input_tokens, call.output_tokens) == (100, 50)
    assert call.cost_usd == pytest.approx((100 * 2.5 + 50 * 10.0) / 1e6)
    assert call.parsed == {"upper": "TARIFF", "length": 6}
    assert json.loads(call.raw_response)["object"] == "response"
    assert call.request_digest == digest(call.request_payload)
    assert call.prompt_version == "shout@1" and call.backend == "openai"


def test_api_key_never_reaches_a_record(store, server):
    server.queue(RESPONSES, ok({"upper": "A", "length": 1}), (500, error_body("boom")))
    c = client(store, server)
    c.run(ECHO, Echo(word="a"), stage="s")
    with pytest.raises(StageStopped):
        c.run(ECHO, Echo(word="b"), stage="s")
    dumped = canonical_json([x.model_dump(mode="json") for x in store.all(LLMCall)])
    assert KEY not in dumped


def test_schema_violation_stops_and_is_recorded(store, server):
    server.queue(RESPONSES, ok({"upper": "A"}))
    with pytest.raises(StageStopped) as e:
        client(store, server).run(ECHO, Echo(word="a"), stage="s")
    assert "violates its schema" in e.value.reason and e.value.stage == "s"
    call = only_call(store)
    assert call.status == "schema_violation" and call.parsed is None and "length" in call.error


def test_wrong_returned_model_stops(store, server):
    server.queue(RESPONSES, ok({"upper": "A", "length": 1}, model="gpt-4o-mini"))
    with pytest.raises(StageStopped) as e:
        client(store, server).run(ECHO, Echo(word="a"), stage="s")
    assert "gpt-4o-mini" in e.value.reason and MODEL in e.value.reason
    call = only_call(store)
    assert call.status == "model_mismatch" and call.returned_model == "gpt-4o-mini"


@pytest.mark.parametrize("status", [429, 500])
def test_http_error_is_not_retried_and_stops(store, server, status):
    server.queue(RESPONSES, (status, error_body("rate limited" if status == 429 else "internal")))
    with pytest.raises(StageStopped) as e:
        client(store, server).run(ECHO, Echo(word="a"), stage="s")
    assert server.paths() == [RESPONSES]  # exactly one request: the client never retries
    assert f"HTTP {status}" in e.value.reason
    call = only_call(store)
    assert call.status == "http_error" and call.parsed is None and f"HTTP {status}" in call.error


def test_truncated_responses_output_stops_even_when_parseable(store, server):
    server.queue(
        RESPONSES,
        (
            200,
            responses_body(
                canonical_json({"upper": "A", "length": 1}), MODEL, status="incomplete", reason="max_output_tokens"
            ),
        ),
    )
    with pytest.raises(StageStopped) as e:
        client(store, server).run(ECHO, Echo(word="a"), stage="s")
    assert "truncated" in e.value.reason
    call = only_call(store)
    assert call.status == "truncated" and "max_output_tokens" in call.error and call.output_tokens == 50


def test_truncated_chat_output_stops(store, server):
    server.missing.add(RESPONSES)
    server.queue(CHAT, (200, chat_body('{"upper": "A", "len', MODEL, finish_reason="length")))
    with pytest.raises(StageStopped) as e:
        client(store, server).run(ECHO, Echo(word="a"), stage="s")
    assert "truncated" in e.value.reason
    assert only_call(store).status == "truncated"


def test_digit_in_rationale_is_refused_by_the_contract(store, server):
    draft = {
        "outputs": [{"variable": "real_gdp", "unit": "percent", "frequency": "A", "transformation": "annual_growth"}],
        "rationale": "Output falls over the 2025-2027 horizon.",
    }
    server.queue(RESPONSES, ok(draft))
    c = client(store, server, validators=[model_request.contract])
    with pytest.raises(StageStopped) as e:
        c.run(model_request.TASK, MR_INPUT, stage="model_request")
    assert "contract violation" in e.value.reason and "'2'" in e.value.reason
    call = only_call(store)
    assert call.status == "contract_violation" and call.parsed["rationale"].startswith("Output falls")


def test_rationale_in_words_passes_the_contract(store, server):
    draft = {
        "outputs": [{"variable": "real_gdp", "unit": "percent", "frequency": "A", "transformation": "annual_growth"}],
        "rationale": "Output falls over the scenario horizon.",
    }
    server.queue(RESPONSES, ok(draft))
    out = client(store, server, validators=[model_request.contract]).run(
        model_request.TASK, MR_INPUT, stage="model_request"
    )
    assert out.rationale == draft["rationale"]


def test_missing_responses_api_falls_back_to_chat_completions(store, server):
    server.missing.add(RESPONSES)
    server.queue(
        CHAT,
        (200, chat_body(canonical_json({"upper": "B", "length": 1}), MODEL)),
        (200, chat_body(canonical_json({"upper": "C", "length": 1}), MODEL)),
    )
    c = client(store, server)
    assert c.run(ECHO, Echo(word="b"), stage="s").upper == "B"
    assert c.run(ECHO, Echo(word="c"), stage="s").upper == "C"
    # the missing endpoint is asked once, then the backend remembers
    assert server.paths() == [RESPONSES, CHAT, CHAT]
    body = server.requests[1][1]
    rf = body["response_format"]
    assert rf["type"] == "json_schema" and rf["json_schema"]["strict"] is True
    assert body["temperature"] == 0 and body["messages"][0]["role"] == "system"
    calls = store.find(LLMCall, analysis_id="an_test")
    assert [c.status for c in calls] == ["ok", "ok"] and calls[0].input_tokens == 100
    assert json.loads(calls[0].raw_response)["object"] == "chat.completion"


def test_request_budget_stops_before_sending(store, server):
    server.queue(RESPONSES, ok({"upper": "A", "length": 1}))
    c = client(store, server, budget=1)
    c.run(ECHO, Echo(word="a"), stage="s")
    with pytest.raises(StageStopped) as e:
        c.run(ECHO, Echo(word="b"), stage="s")
    assert "budget" in e.value.reason
    assert server.paths() == [RESPONSES]
    assert [c.status for c in store.find(LLMCall, analysis_id="an_test")] == ["ok", "budget_exceeded"]


def test_cost_budget_stops(store, server):
    server.queue(RESPONSES, ok({"upper": "A", "length": 1}))
    c = client(store, server, cost_budget_usd=0.0001)
    c.run(ECHO, Echo(word="a"), stage="s")  # costs 0.00075 USD
    with pytest.raises(StageStopped) as e:
        c.run(ECHO, Echo(word="b"), stage="s")
    assert "cost budget" in e.value.reason and len(server.requests) == 1


def test_rerun_reuses_an_accepted_answer_and_retries_a_refused_one(store, server):
    server.queue(RESPONSES, (500, error_body("down")), ok({"upper": "A", "length": 1}))
    with pytest.raises(StageStopped):
        client(store, server).run(ECHO, Echo(word="a"), stage="s")
    assert client(store, server).run(ECHO, Echo(word="a"), stage="s").upper == "A"
    assert client(store, server).run(ECHO, Echo(word="a"), stage="s").upper == "A"  # resumed, not re-sent
    assert len(server.requests) == 2
    assert [(c.sequence, c.status) for c in store.find(LLMCall, analysis_id="an_test")] == [
        (0, "http_error"),
        (1, "ok"),
    ]


def test_replay_reproduces_recorded_calls_including_refusals(store, server, tmp_path):
    server.queue(RESPONSES, ok({"upper": "A", "length": 1}), (429, error_body("slow down")))
    c = client(store, server)
    c.run(ECHO, Echo(word="a"), stage="s")
    with pytest.raises(StageStopped) as first:
        c.run(ECHO, Echo(word="b"), stage="s")
    replay = LLMClient(store, make_backend("replay", store=store), "an_replay", model=MODEL)
    assert replay.run(ECHO, Echo(word="a"), stage="s") == Answer(upper="A", length=1)
    with pytest.raises(StageStopped) as again:
        replay.run(ECHO, Echo(word="b"), stage="s")
    assert again.value.reason == first.value.reason
    with pytest.raises(StageStopped) as missing:
        replay.run(ECHO, Echo(word="never asked"), stage="s")
    assert "no recorded answer" in missing.value.reason
    assert len(server.requests) == 2
    replayed = store.find(LLMCall, analysis_id="an_replay")
    assert [x.status for x in replayed] == ["ok", "http_error", "replay_missing"]
    assert (replayed[0].input_tokens, replayed[0].cost_usd) == (100, 0.0)  # recorded tokens, no new spend
    assert replayed[0].raw_response == store.find(LLMCall, analysis_id="an_test")[0].raw_response


def test_replay_of_offline_calls(store):
    off = LLMClient(store, OfflineBackend(), "an_off", model=MODEL)
    assert off.run(ECHO, Echo(word="abc"), stage="s").length == 3
    rep = LLMClient(store, make_backend("replay", store=store), "an_rep", model=MODEL)
    assert rep.run(ECHO, Echo(word="abc"), stage="s") == Answer(upper="ABC", length=3)


def test_missing_key_and_unknown_backend_are_input_errors(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(InputError) as e:
        OpenAIBackend(base_url="http://127.0.0.1:9/v1")
    assert "OPENAI_API_KEY" in str(e.value)
    with pytest.raises(InputError):
        make_backend("anthropic")


def test_strict_schema_requires_every_property_and_keeps_nullability():
    s = strict_schema(Echo.model_json_schema())
    assert s["required"] == ["note", "word"] and s["additionalProperties"] is False
    assert {"type": "null"} in s["properties"]["note"]["anyOf"] and "default" not in s["properties"]["note"]
    nested = strict_schema(model_request.ModelRequestDraft.model_json_schema())
    assert nested["$defs"]["RequestedOutput"]["additionalProperties"] is False
