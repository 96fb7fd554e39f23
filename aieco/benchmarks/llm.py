"""LLM request throughput: one stage's requests against a local OpenAI-compatible stub.

The stub listens on 127.0.0.1 only and answers every ``POST /v1/responses`` after a fixed
latency (200 ms) with a valid structured answer. The same requests are sent once through
``LLMClient.run_many`` at ``settings.llm.concurrency`` and once one at a time (the peer), each
into its own workspace; the ratio is the speed-up, and the records of both runs are compared.
"""

from __future__ import annotations

import json
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from aieco.benchmarks import Figure
from aieco.config import get_settings
from aieco.llm.base import LLMClient, Prompt, Task
from aieco.records import LLMCall, canonical_json
from aieco.store import Store

LATENCY_S = 0.2
MODEL = "bench-model"


class _Word(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    word: str


class _Shout(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    upper: str


TASK = Task(
    name="bench_shout",
    prompt=Prompt(name="bench_shout", version="1", system="Shout.", instructions="Return the word in capitals."),
    input_schema=_Word,
    output_schema=_Shout,
    offline=lambda i: _Shout(upper=i.word.upper()),
)


class _Stub:
    """A stdlib HTTP server on 127.0.0.1 answering the Responses API after ``latency`` seconds."""

    def __init__(self, latency: float):
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server API)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                time.sleep(latency)
                text = body["input"][0]["content"]
                word = json.loads(text[text.index("{") :])["word"]
                reply = json.dumps(
                    {
                        "id": "resp_bench",
                        "object": "response",
                        "created_at": 0,
                        "model": body["model"],
                        "status": "completed",
                        "error": None,
                        "incomplete_details": None,
                        "output": [
                            {
                                "type": "message",
                                "id": "msg",
                                "role": "assistant",
                                "status": "completed",
                                "content": [
                                    {
                                        "type": "output_text",
                                        "annotations": [],
                                        "text": canonical_json({"upper": word.upper()}),
                                    }
                                ],
                            }
                        ],
                        "usage": {"input_tokens": 50, "output_tokens": 10, "total_tokens": 60},
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


def _send(base_url: str, folder: Path, words: list[str], concurrency: int) -> tuple[float, list[tuple]]:
    from aieco.llm.openai_backend import OpenAIBackend

    with Store(folder) as store:
        client = LLMClient(
            store,
            OpenAIBackend(base_url=base_url, api_key="bench-stub-key"),
            "bench_llm",
            model=MODEL,
            budget=len(words),
        )
        t0 = time.perf_counter()
        client.run_many(TASK, [_Word(word=w) for w in words], stage="bench", concurrency=concurrency)
        seconds = time.perf_counter() - t0
        records = [
            (c.call_id, c.sequence, c.status, c.cost_usd, canonical_json(c.parsed))
            for c in store.find(LLMCall, analysis_id="bench_llm")
        ]
    return seconds, records


def run(quick: bool = False) -> list[Figure]:
    n = get_settings().llm.concurrency
    words = [f"word{i:03d}" for i in range(16 if quick else 48)]
    with tempfile.TemporaryDirectory() as tmp, _Stub(LATENCY_S) as url:
        concurrent_s, concurrent_records = _send(url, Path(tmp) / "concurrent", words, n)
        sequential_s, sequential_records = _send(url, Path(tmp) / "sequential", words, 1)
    return [
        Figure(
            name="llm_requests_per_s_concurrent", value=len(words) / concurrent_s, unit="requests/s", better="higher"
        ),
        Figure(
            name="llm_requests_per_s_sequential_peer",
            value=len(words) / sequential_s,
            unit="requests/s",
            better="higher",
        ),
        Figure(
            name="llm_speedup_vs_sequential", value=sequential_s / concurrent_s, unit="x", better="higher", target=2.0
        ),
        Figure(name="llm_concurrency", value=float(n), unit="requests in flight", better="higher"),
        Figure(name="llm_stub_latency", value=LATENCY_S * 1000, unit="ms"),
        Figure(
            name="llm_records_identical",
            value=float(concurrent_records == sequential_records),
            unit="bool",
            better="higher",
            target=1.0,
        ),
    ]
