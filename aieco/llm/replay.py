"""The `replay` backend: answers from recorded LLMCall rows, matched by request digest.

The recorded rows may live in the same workspace or in another one. Rows with the same
request digest are consumed in the order they were written, so repeated identical
requests (repetitions) get their own recorded answers. A request with no recorded
answer stops the stage: replay never invents a response.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from pydantic import BaseModel

from aieco.llm.base import BackendAnswer, Task
from aieco.llm.openai_backend import output_text_of
from aieco.records import LLMCall
from aieco.store import Store


class ReplayBackend:
    """Replays recorded answers (from offline or openai calls) for identical requests."""

    name = "replay"

    def __init__(self, recorded: Store):
        self.recorded = recorded
        self._used: dict[str, int] = defaultdict(int)

    def complete(self, task: Task[Any, Any], payload: dict[str, Any], inputs: BaseModel) -> BackendAnswer:
        from aieco.records import digest

        req = digest(payload)
        rows = [
            c
            for c in self.recorded.find(LLMCall, request_digest=req)
            if c.backend != "replay" and c.status != "budget_exceeded"
        ]
        i = self._used[req]
        if i >= len(rows):
            return BackendAnswer(
                raw_response="",
                output_text="",
                returned_model=None,
                status="replay_missing",
                error=f"no recorded answer for request {req[:16]}… of task {task.name} (in {self.recorded.path})",
            )
        self._used[req] = i + 1
        call = rows[i]
        text = output_text_of(call.raw_response)
        return BackendAnswer(
            raw_response=call.raw_response,
            output_text=text,
            returned_model=call.returned_model,
            input_tokens=call.input_tokens,
            output_tokens=call.output_tokens,
            # a recorded refusal is replayed as the same refusal
            status=call.status if call.status in ("http_error", "timeout", "connection_error", "refused") else "ok",
            error=call.error if call.status != "ok" else "",
            truncated=call.status == "truncated",
        )
