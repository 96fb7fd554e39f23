"""Concurrent requests of one stage (LLMClient.run_many) against the local stub server:
the same records, ids, order and costs as one request at a time; O(1) running totals."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
from pydantic import BaseModel, ConfigDict

from aieco.config import get_settings
from aieco.errors import StageStopped
from aieco.llm import LLMClient, OfflineBackend, Prompt, Task
from aieco.llm.openai_backend import OpenAIBackend
from aieco.records import LLMCall, canonical_json
from aieco.store import Store
from tests.openai_stub_server import StubServer, responses_body

MODEL = "gpt-4o-2024-08-06"
RESPONSES = "/v1/responses"


class Echo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    word: str


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

WORDS = [f"word{i:02d}{'x' * (i % 7)}" for i in range(23)]


class Replier:
    """Answers each request from its input after a random delay, so answers arrive out of order;
    token counts depend on the word, so every call has its own cost. Counts requests in flight."""

    def __init__(self, seed: int, bad: set[str] = frozenset()):
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.bad = bad
        self.active = self.peak = 0

    def __call__(self, body: dict) -> tuple[int, dict]:
        with self.lock:
            self.active += 1
            self.peak = max(self.peak, self.active)
            delay = self.rng.uniform(0.0, 0.03)
        time.sleep(delay)
        text = body["input"][0]["content"]
        word = json.loads(text[text.index("{") :])["word"]
        with self.lock:
            self.active -= 1
        out = {"upper": word.upper(), "length": len(word)} if word not in self.bad else {"upper": word}
        return 200, responses_body(
            canonical_json(out), MODEL, input_tokens=100 + len(word), output_tokens=7 * len(word)
        )


@pytest.fixture
def concurrency(monkeypatch):
    def set_to(n: int) -> None:
        monkeypatch.setenv("AIECO_LLM__CONCURRENCY", str(n))
        get_settings.cache_clear()

    yield set_to
    monkeypatch.delenv("AIECO_LLM__CONCURRENCY", raising=False)
    get_settings.cache_clear()


def _records(store: Store) -> list[tuple]:
    return [
        (
            c.call_id,
            c.stage,
            c.sequence,
            c.request_digest,
            c.status,
            c.input_tokens,
            c.output_tokens,
            c.cost_usd,
            canonical_json(c.parsed),
        )
        for c in store.find(LLMCall, analysis_id="an_c")
    ]


def _run(
    tmp_path, name: str, n: int, concurrency, monkeypatch, replier: Replier, words=WORDS, **kw
) -> tuple[Store, list | StageStopped, tuple[int, float], int]:
    concurrency(n)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    store = Store(tmp_path / name)
    with StubServer() as server:
        server.fallback[RESPONSES] = replier
        client = LLMClient(store, OpenAIBackend(base_url=server.base_url), "an_c", model=MODEL, **kw)
        try:
            out: list | StageStopped = client.run_many(ECHO, [Echo(word=w) for w in words], stage="s")
        except StageStopped as exc:
            out = exc
        sent = len(server.requests)
    return store, out, client.spent(), sent


def test_concurrent_run_records_exactly_what_a_sequential_run_records(tmp_path, concurrency, monkeypatch):
    seq_store, seq_out, seq_spent, seq_sent = _run(tmp_path, "seq", 1, concurrency, monkeypatch, Replier(1))
    replier = Replier(2)
    par_store, par_out, par_spent, par_sent = _run(tmp_path, "par", 6, concurrency, monkeypatch, replier)
    assert par_out == seq_out == [Answer(upper=w.upper(), length=len(w)) for w in WORDS]
    assert _records(par_store) == _records(seq_store)  # ids, order, statuses, tokens, costs
    assert [c.sequence for c in par_store.find(LLMCall, analysis_id="an_c")] == list(range(len(WORDS)))
    assert par_spent == seq_spent and par_spent[0] == len(WORDS) == par_sent == seq_sent
    expected_cost = sum(c.cost_usd for c in seq_store.find(LLMCall, analysis_id="an_c"))
    assert par_spent[1] == expected_cost > 0
    assert 1 < replier.peak <= 6  # really concurrent, and bounded by the setting


def test_resume_reuses_accepted_answers_and_sends_only_the_rest(tmp_path, concurrency, monkeypatch):
    store, _, _, _ = _run(tmp_path, "ws", 4, concurrency, monkeypatch, Replier(3), words=WORDS[:10])
    # a second client on the same analysis: the first ten are resumed, only the new ones are sent
    store.close()
    concurrency(4)
    store = Store(tmp_path / "ws")
    with StubServer() as server:
        server.fallback[RESPONSES] = Replier(4)
        client = LLMClient(store, OpenAIBackend(base_url=server.base_url), "an_c", model=MODEL)
        assert client.spent()[0] == 10
        out = client.run_many(ECHO, [Echo(word=w) for w in WORDS], stage="s")
        assert len(server.requests) == len(WORDS) - 10
    assert out == [Answer(upper=w.upper(), length=len(w)) for w in WORDS]
    assert client.spent()[0] == len(WORDS)


def test_request_budget_stops_at_the_same_request_with_the_same_records(tmp_path, concurrency, monkeypatch):
    seq_store, seq_out, seq_spent, seq_sent = _run(tmp_path, "seq", 1, concurrency, monkeypatch, Replier(5), budget=9)
    par_store, par_out, par_spent, par_sent = _run(tmp_path, "par", 5, concurrency, monkeypatch, Replier(6), budget=9)
    assert isinstance(seq_out, StageStopped) and isinstance(par_out, StageStopped)
    assert str(par_out) == str(seq_out) and "request budget of 9" in str(par_out)
    assert _records(par_store) == _records(seq_store)
    assert [c.status for c in par_store.find(LLMCall, analysis_id="an_c")] == ["ok"] * 9 + ["budget_exceeded"]
    assert par_sent == seq_sent == 9 and par_spent == seq_spent


def test_a_refused_answer_stops_the_stage_after_recording_what_was_sent(tmp_path, concurrency, monkeypatch):
    bad = {WORDS[4]}
    seq_store, seq_out, _, seq_sent = _run(tmp_path, "seq", 1, concurrency, monkeypatch, Replier(7, bad))
    par_store, par_out, par_spent, par_sent = _run(tmp_path, "par", 3, concurrency, monkeypatch, Replier(8, bad))
    assert isinstance(seq_out, StageStopped) and isinstance(par_out, StageStopped)
    assert str(par_out) == str(seq_out)
    seq_recs, par_recs = _records(seq_store), _records(par_store)
    assert seq_sent == 5 and [r[4] for r in seq_recs][-1] != "ok"
    # the sequential records come first, in the same order; requests already in flight follow
    assert par_recs[:5] == seq_recs
    assert len(par_recs) == par_sent <= 5 + 2 and par_spent[0] == par_sent


def test_offline_backend_runs_one_request_at_a_time_with_identical_records(tmp_path, concurrency):
    out = {}
    for n in (1, 8):
        concurrency(n)
        with Store(tmp_path / f"off{n}") as store:
            client = LLMClient(store, OfflineBackend(), "an_c", model=MODEL)
            out[n] = (client.run_many(ECHO, [Echo(word=w) for w in WORDS], stage="s"), _records(store))
    assert out[1] == out[8]


def test_spent_is_a_running_total_equal_to_the_recorded_calls(tmp_path):
    with Store(tmp_path / "ws") as store:
        client = LLMClient(store, OfflineBackend(), "an_c", model=MODEL, budget=5)
        for k, w in enumerate(WORDS[:5]):
            client.run(ECHO, Echo(word=w), stage="s")
            assert client.spent() == (k + 1, 0.0)
        with pytest.raises(StageStopped, match="request budget of 5"):
            client.run(ECHO, Echo(word=WORDS[5]), stage="s")
        calls = store.find(LLMCall, analysis_id="an_c")
        assert [c.status for c in calls] == ["ok"] * 5 + ["budget_exceeded"]
        assert client.spent() == (5, 0.0)  # the refused attempt sent nothing
        # a fresh client reads the same totals back from the store once
        assert LLMClient(store, OfflineBackend(), "an_c", model=MODEL).spent() == (5, 0.0)


def test_graph_build_through_the_openai_backend_is_the_same_concurrent_or_not(tmp_path, concurrency, monkeypatch):
    """A G2 build (decomposition, extraction, verification stages) against a stub that answers each
    task with its offline implementation after a random delay: identical relations and LLM records."""
    from aieco.demo.build import build_demo_sources
    from aieco.extraction.build import build_relations
    from aieco.extraction.tasks import DECOMPOSITION_TASK, EXTRACTION_TASK, VERIFICATION_TASK
    from aieco.records import Relation
    from aieco.sources.registry import ingest

    tasks = {t.name: t for t in (DECOMPOSITION_TASK, EXTRACTION_TASK, VERIFICATION_TASK)}
    rng = random.Random(3)
    lock = threading.Lock()

    def offline_answer(body: dict) -> tuple[int, dict]:
        task = tasks[body["text"]["format"]["name"]]
        text = body["input"][0]["content"]
        inputs = task.input_schema.model_validate_json(text[text.index("Input (JSON):\n") + 14 :])
        with lock:
            delay = rng.uniform(0.0, 0.02)
        time.sleep(delay)
        return 200, responses_body(
            canonical_json(task.offline(inputs).model_dump(mode="json")),
            MODEL,
            input_tokens=len(text) // 4,
            output_tokens=37,
        )

    manifest = build_demo_sources(tmp_path / "demo")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = {}
    for n in (1, 4):
        concurrency(n)
        with Store(tmp_path / f"ws{n}") as store, StubServer() as server:
            assert ingest(store, manifest).ok
            server.fallback[RESPONSES] = offline_answer
            client = LLMClient(store, OpenAIBackend(base_url=server.base_url), "kb-G2", model=MODEL, budget=10_000)
            report = build_relations(store, condition="G2", client=client)
            calls = [(c.call_id, c.stage, c.sequence, c.status, c.cost_usd) for c in store.find(LLMCall)]
            relations = [(r.relation_id, r.review_decision, r.rejection_reason) for r in store.find(Relation)]
            out[n] = (report.model_dump(exclude={"seconds"}), calls, relations, client.spent())
    assert out[1] == out[4]
    assert out[1][0]["requests"] > 3 and {c[1] for c in out[1][1]} == {
        "decomposition",
        "relation_extraction",
        "verification",
    }
