"""A small OpenAI-compatible HTTP server on 127.0.0.1 for tests (stdlib only).

It serves ``POST /v1/responses`` and ``POST /v1/chat/completions`` from queues of canned
replies, and keeps every request it received (path and JSON body) so a test can assert
what the official client actually sent — and that it sent it exactly once.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = tuple[int, dict[str, Any]]
Responder = Callable[[dict[str, Any]], Reply]


def responses_body(
    text: str,
    model: str,
    *,
    status: str = "completed",
    input_tokens: int = 100,
    output_tokens: int = 50,
    reason: str | None = None,
) -> dict[str, Any]:
    """A Responses API body whose single message carries ``text``."""
    return {
        "id": "resp_stub",
        "object": "response",
        "created_at": int(time.time()),
        "model": model,
        "status": status,
        "incomplete_details": {"reason": reason} if reason else None,
        "error": None,
        "output": [
            {
                "type": "message",
                "id": "msg_stub",
                "role": "assistant",
                "status": status,
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        ],
        "usage": {
            "input_tokens": input_tokens,
            "output_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens,
        },
        "parallel_tool_calls": False,
        "tool_choice": "none",
        "tools": [],
    }


def chat_body(
    text: str, model: str, *, finish_reason: str = "stop", prompt_tokens: int = 100, completion_tokens: int = 50
) -> dict[str, Any]:
    """A Chat Completions body whose first choice carries ``text``."""
    return {
        "id": "chatcmpl_stub",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "finish_reason": finish_reason,
                "message": {"role": "assistant", "content": text, "refusal": None},
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def error_body(message: str, kind: str = "server_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


class StubServer:
    """Start with ``with StubServer() as s:``; ``s.base_url`` is the ``/v1`` root."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.queues: dict[str, deque[Reply | Responder]] = {"/v1/responses": deque(), "/v1/chat/completions": deque()}
        self.fallback: dict[str, Responder] = {}
        self.missing: set[str] = set()
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server API)
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                stub.requests.append((self.path, body))
                if self.path in stub.missing or self.path not in stub.queues:
                    status, reply = 404, error_body(f"no route {self.path}", "not_found")
                else:
                    queue = stub.queues[self.path]
                    item = queue.popleft() if queue else stub.fallback.get(self.path)
                    if item is None:
                        status, reply = 500, error_body("stub has no reply queued")
                    else:
                        status, reply = item(body) if callable(item) else item
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def queue(self, path: str, *replies: Reply | Responder) -> None:
        self.queues[path].extend(replies)

    def paths(self) -> list[str]:
        return [p for p, _ in self.requests]

    def __enter__(self) -> StubServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
