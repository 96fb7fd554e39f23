"""The `openai` backend: the official client against any OpenAI-compatible endpoint.

Structured output is asked for in the first mode the endpoint supports, found on the first
call and kept for the backend's life (each call records its ``structured_mode``):

1. ``responses_json_schema``: the Responses API with a strict JSON schema (``text.format``);
   an endpoint without it answers HTTP 404/405 on ``/responses``;
2. ``chat_json_schema``: Chat Completions ``response_format`` json_schema, strict;
3. ``chat_json_object_schema``: ``response_format: {"type": "json_object", "schema": …}``,
   the grammar-constrained form of llama.cpp's server, which refuses mode 2 (HTTP 400/422/500).

A response body that is not a JSON object is recorded as ``unparseable_response``. Temperature comes from the
settings (0), the client never retries (``max_retries=0``: a repair would be an extra,
counted request), and ``store=False`` keeps the exchange out of the provider's store.
The API key is read from the environment by this module only and never enters a
payload or a record.
"""

from __future__ import annotations

import copy
import json
import os
import threading
from typing import Any

import openai
from pydantic import BaseModel

from aieco.config import get_settings, register_secret
from aieco.errors import InputError
from aieco.llm.base import BackendAnswer, Task
from aieco.records import canonical_json

#: Structured-output modes, best first, and the HTTP statuses that mean "not supported here".
MODES = ("responses_json_schema", "chat_json_schema", "chat_json_object_schema")
_UNSUPPORTED = {
    "responses_json_schema": (404, 405),
    "chat_json_schema": (400, 404, 422, 500, 501),
    "chat_json_object_schema": (),
}

#: Keywords strict structured outputs refuse; pydantic writes them for defaults and titles.
_DROPPED_KEYWORDS = ("default", "title", "examples")


def strict_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic JSON schema made acceptable to strict structured outputs.

    Every object lists all its properties as required and forbids others; optional
    fields keep their ``null`` alternative, so nothing is lost.
    """
    out = copy.deepcopy(schema)

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in _DROPPED_KEYWORDS:
                node.pop(key, None)
            if node.get("type") == "object" or "properties" in node:
                props = node.get("properties", {})
                node["required"] = sorted(props)
                node["additionalProperties"] = False
                for value in props.values():
                    walk(value)
            for key in ("items", "anyOf", "allOf", "oneOf", "$defs", "prefixItems"):
                child = node.get(key)
                if isinstance(child, list):
                    for c in child:
                        walk(c)
                elif isinstance(child, dict):
                    if key == "$defs":
                        for c in child.values():
                            walk(c)
                    else:
                        walk(child)
        elif isinstance(node, list):
            for c in node:
                walk(c)

    walk(out)
    return out


def user_message(payload: dict[str, Any]) -> str:
    """The task instructions followed by the structured input, as canonical JSON."""
    return f"{payload['prompt']['instructions']}\n\nInput (JSON):\n{canonical_json(payload['input'])}"


def _responses_text(body: dict[str, Any]) -> tuple[str | None, str]:
    texts, refusal = [], ""
    for item in body.get("output") or []:
        for part in item.get("content") or []:
            if part.get("type") == "output_text":
                texts.append(part.get("text", ""))
            elif part.get("type") == "refusal":
                refusal = part.get("refusal", "") or "refused"
    return ("".join(texts) if texts else None), refusal


def output_text_of(raw: str) -> str | None:
    """The model's output text inside a recorded provider body (None if it holds none)."""
    try:
        body = json.loads(raw)
    except json.JSONDecodeError:
        return None
    if not isinstance(body, dict):
        return None
    if body.get("object") == "response":
        return _responses_text(body)[0]
    if body.get("object") == "chat.completion":
        choices = body.get("choices") or [{}]
        return (choices[0].get("message") or {}).get("content")
    return None


class OpenAIBackend:
    """Answers tasks through an OpenAI-compatible endpoint (Responses, else Chat Completions)."""

    name = "openai"
    #: requests may be sent from several threads at once (the HTTP client is thread-safe)
    concurrent = True

    def __init__(self, *, base_url: str | None = None, api_key: str | None = None, timeout_s: float | None = None):
        settings = get_settings().llm
        key = api_key or os.environ.get("OPENAI_API_KEY")
        register_secret(key)  # a key passed in is redacted like the environment's
        if not key:
            raise InputError(
                "the openai backend needs an API key",
                where="environment variable OPENAI_API_KEY",
                fix="export OPENAI_API_KEY=… (it is read from the environment and never stored), "
                "or run with --backend offline",
            )
        self.base_url = base_url or settings.base_url or os.environ.get("OPENAI_BASE_URL")
        self.client = openai.OpenAI(
            api_key=key, base_url=self.base_url, max_retries=0, timeout=timeout_s or settings.timeout_s
        )
        #: the structured-output modes still worth trying, best first (see the module docstring)
        self.modes = list(MODES)
        self._modes_lock = threading.Lock()

    @property
    def responses_missing(self) -> bool:
        return "responses_json_schema" not in self.modes

    def complete(self, task: Task[Any, Any], payload: dict[str, Any], inputs: BaseModel) -> BackendAnswer:
        schema = strict_schema(payload["output_schema"])
        while True:
            mode = self.modes[0]
            try:
                if mode == "responses_json_schema":
                    answer = self._responses(task, payload, schema)
                else:
                    answer = self._chat(task, payload, schema, mode)
                return answer.model_copy(update={"structured_mode": mode})
            except openai.APIStatusError as exc:
                if len(self.modes) == 1 or exc.status_code not in _UNSUPPORTED[mode]:
                    return _http_failure(exc).model_copy(update={"structured_mode": mode})
                with self._modes_lock:  # requests run in threads: drop each mode once
                    if self.modes[0] == mode and len(self.modes) > 1:
                        self.modes.pop(0)  # the endpoint lacks this mode: ask in the next one
            except openai.APIError as exc:
                return _transport_failure(exc).model_copy(update={"structured_mode": mode})

    def _responses(self, task: Task[Any, Any], payload: dict[str, Any], schema: dict[str, Any]) -> BackendAnswer:
        raw = self.client.responses.with_raw_response.create(
            model=payload["model"],
            instructions=payload["prompt"]["system"],
            input=[{"role": "user", "content": user_message(payload)}],
            text={"format": {"type": "json_schema", "name": task.name, "schema": schema, "strict": True}},
            temperature=payload["temperature"],
            max_output_tokens=payload["max_output_tokens"],
            store=False,
        )
        body_text = raw.text
        body = _json_body(body_text)
        if body is None:
            return _unparseable(body_text)
        text, refusal = _responses_text(body)
        usage = body.get("usage") or {}
        incomplete = body.get("status") == "incomplete"
        reason = ((body.get("incomplete_details") or {}).get("reason") or "") if incomplete else ""
        return BackendAnswer(
            raw_response=body_text,
            output_text=text if text is not None else "",
            returned_model=body.get("model"),
            input_tokens=int(usage.get("input_tokens") or 0),
            output_tokens=int(usage.get("output_tokens") or 0),
            status="refused" if refusal else "ok",
            error=refusal or (f"incomplete: {reason}" if incomplete else ""),
            truncated=incomplete,
        )

    def _chat(self, task: Task[Any, Any], payload: dict[str, Any], schema: dict[str, Any], mode: str) -> BackendAnswer:
        if mode == "chat_json_schema":
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": task.name, "schema": schema, "strict": True},
            }
        else:
            response_format = {"type": "json_object", "schema": schema}
        raw = self.client.chat.completions.with_raw_response.create(
            model=payload["model"],
            messages=[
                {"role": "system", "content": payload["prompt"]["system"]},
                {"role": "user", "content": user_message(payload)},
            ],
            response_format=response_format,  # type: ignore[arg-type]
            temperature=payload["temperature"],
            max_tokens=payload["max_output_tokens"],
            store=False,
        )
        body_text = raw.text
        body = _json_body(body_text)
        if body is None:
            return _unparseable(body_text)
        choice = (body.get("choices") or [{}])[0]
        message = choice.get("message") or {}
        usage = body.get("usage") or {}
        truncated = choice.get("finish_reason") == "length"
        refusal = message.get("refusal") or ""
        return BackendAnswer(
            raw_response=body_text,
            output_text=message.get("content") or "",
            returned_model=body.get("model"),
            input_tokens=int(usage.get("prompt_tokens") or 0),
            output_tokens=int(usage.get("completion_tokens") or 0),
            status="refused" if refusal else "ok",
            error=refusal or ("finish_reason: length" if truncated else ""),
            truncated=truncated,
        )


def _json_body(text: str) -> dict[str, Any] | None:
    """The response body as a JSON object, or None when it is not one."""
    try:
        body = json.loads(text)
    except json.JSONDecodeError:
        return None
    return body if isinstance(body, dict) else None


def _unparseable(body_text: str) -> BackendAnswer:
    return BackendAnswer(
        raw_response=body_text,
        output_text="",
        returned_model=None,
        status="unparseable_response",
        error="the endpoint's response body is not a JSON object",
    )


def _http_failure(exc: openai.APIStatusError) -> BackendAnswer:
    body = exc.response.text if exc.response is not None else ""
    return BackendAnswer(
        raw_response=body,
        output_text="",
        returned_model=None,
        status="http_error",
        error=f"HTTP {exc.status_code}: {exc.message}"[:2000],
    )


def _transport_failure(exc: openai.APIError) -> BackendAnswer:
    status = "timeout" if isinstance(exc, openai.APITimeoutError) else "connection_error"
    return BackendAnswer(
        raw_response="", output_text="", returned_model=None, status=status, error=f"{type(exc).__name__}: {exc}"[:2000]
    )
