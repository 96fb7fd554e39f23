"""The LLM report writer gets the offline writer's schema: the same ReportContext in, the same
ReportDraft out, through the openai backend against the local stub on 127.0.0.1; its draft
passes the same checks (and a draft breaking the direction rule is refused by them)."""

from __future__ import annotations

import json

import pytest
from reporting_world import ANALYSIS, build_world
from test_render_writer import _context

from aieco.agents.report import PROMPT, TASK, draft_problems
from aieco.llm import LLMClient
from aieco.llm.openai_backend import OpenAIBackend, strict_schema
from aieco.records import canonical_json
from aieco.reporting.schema import ReportContext, ReportDraft
from aieco.reporting.writer import write_report
from tests.openai_stub_server import StubServer, responses_body

MODEL = "gpt-4o-2024-08-06"
RESPONSES = "/v1/responses"


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-secret")
    with StubServer() as s:
        yield s


def _ask(store, server, reply: ReportDraft, ctx: ReportContext) -> tuple[ReportDraft, dict]:
    server.queue(RESPONSES, (200, responses_body(canonical_json(reply.model_dump(mode="json")), MODEL)))
    client = LLMClient(store, OpenAIBackend(base_url=server.base_url), ANALYSIS, model=MODEL)
    got = client.run(TASK, ctx, stage="report")
    assert server.base_url.startswith("http://127.0.0.1")
    return got, server.requests[-1][1]


def test_llm_writer_gets_the_offline_writers_input_and_output_schema(store, server):
    w = build_world(store)
    ctx = _context(w)
    offline = write_report(ctx)
    got, body = _ask(store, server, offline, ctx)
    assert got == offline
    # the output schema is the offline writer's return type, strict
    fmt = body["text"]["format"]
    assert fmt["name"] == "write_report" and fmt["strict"] is True
    assert fmt["schema"] == strict_schema(ReportDraft.model_json_schema())
    assert TASK.offline is write_report and TASK.output_schema is ReportDraft and TASK.input_schema is ReportContext
    # the input is the very context the offline writer reads, nothing dropped
    sent = json.loads(body["input"][0]["content"].split("Input (JSON):\n", 1)[1])
    assert sent == ctx.model_dump(mode="json") and ReportContext.model_validate(sent) == ctx
    # the instructions ask for the paragraphs the offline writer writes, in its order
    labels = list(dict.fromkeys(s.paragraph.split(":")[0] for s in offline.sentences))
    assert labels == ["channel", "scenario", "annual"]
    at = [PROMPT.instructions.index(f"'{x}" if x != "channel" else "'channel:<n>'") for x in labels]
    assert at == sorted(at)
    assert draft_problems(store, ANALYSIS, got, ctx) == []


def test_an_llm_draft_against_a_cited_relation_is_refused_by_the_same_rules(store, server):
    w = build_world(store)
    ctx = _context(w)
    offline = write_report(ctx)
    # the model writes the first step's effect with the wrong sign ("raises" for a relation with sign -)
    first = offline.sentences[1]
    assert "weighs on" in first.template or "reduces" in first.template or "lowers" in first.template
    wrong = first.model_copy(
        update={
            "template": first.template.replace("weighs on", "lifts")
            .replace("reduces", "lifts")
            .replace("lowers", "lifts")
        }
    )
    draft = offline.model_copy(update={"sentences": [offline.sentences[0], wrong, *offline.sentences[2:]]})
    got, _ = _ask(store, server, draft, ctx)
    problems = draft_problems(store, ANALYSIS, got, ctx)
    assert problems and all("relation_direction" in p for p in problems)
    assert any("sentence 1" in p and "lifts" in p for p in problems)
