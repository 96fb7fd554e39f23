"""One interface for structured LLM tasks, and the recording client.

A :class:`Task` names a versioned :class:`Prompt`, an input and an output pydantic schema
and a deterministic offline implementation. :class:`LLMClient` sends a task to a
backend, validates the answer against the output schema before anyone can use it, and
writes every attempt as an append-only ``LLMCall``. A refusal (schema violation, wrong
model, HTTP error, budget) is recorded first and then raised as ``StageStopped``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aieco.config import get_settings
from aieco.errors import StageStopped
from aieco.records import LLMCall, canonical_json, digest, sha256_hex, utc_now
from aieco.store import Store

I = TypeVar("I", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)


class Prompt(BaseModel):
    """A versioned prompt constant (one module per task holds one)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    version: str
    system: str
    instructions: str


@dataclass(frozen=True)
class Task(Generic[I, O]):
    """A structured LLM task."""

    name: str
    prompt: Prompt
    input_schema: type[I]
    output_schema: type[O]
    offline: Callable[[I], O]


class BackendAnswer(BaseModel):
    """What a backend returns for one request, before schema validation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    raw_response: str = Field(description="The text (JSON) the model returned.")
    returned_model: str | None
    input_tokens: int = 0
    output_tokens: int = 0
    status: str = "ok"
    error: str = ""
    truncated: bool = False


class Backend(Protocol):
    name: str

    def complete(self, task: Task[Any, Any], payload: dict[str, Any], inputs: BaseModel) -> BackendAnswer:
        ...


class OfflineBackend:
    """Deterministic answers from each task's own offline implementation."""

    name = "offline"

    def complete(self, task: Task[Any, Any], payload: dict[str, Any], inputs: BaseModel) -> BackendAnswer:
        out = task.offline(inputs)
        return BackendAnswer(raw_response=canonical_json(out.model_dump(mode="json")),
                             returned_model=payload["model"])


def build_payload(task: Task[Any, Any], inputs: BaseModel, model: str) -> dict[str, Any]:
    """The provider-neutral request; its digest identifies the call (no secrets in it)."""
    return {
        "model": model,
        "task": task.name,
        "prompt": {"name": task.prompt.name, "version": task.prompt.version,
                   "system": task.prompt.system, "instructions": task.prompt.instructions},
        "input": inputs.model_dump(mode="json"),
        "output_schema": task.output_schema.model_json_schema(),
        "temperature": get_settings().llm.temperature,
        "max_output_tokens": get_settings().llm.max_output_tokens,
    }


class LLMClient:
    """Runs tasks through one backend for one analysis and records every call."""

    def __init__(self, store: Store, backend: Backend, analysis_id: str, *, model: str | None = None,
                 budget: int | None = None,
                 validators: list[Callable[[Task[Any, Any], BaseModel], str | None]] | None = None):
        settings = get_settings().llm
        self.store = store
        self.backend = backend
        self.analysis_id = analysis_id
        self.model = model or settings.model
        self.budget = budget if budget is not None else settings.request_budget
        self.validators = validators or []
        self._sequence: dict[str, int] = {}

    def cost(self, model: str, input_tokens: int, output_tokens: int) -> float:
        s = get_settings().llm
        return (input_tokens * s.price_per_million_input.get(model, 0.0)
                + output_tokens * s.price_per_million_output.get(model, 0.0)) / 1e6

    def run(self, task: Task[I, O], inputs: I, *, stage: str) -> O:
        """Send ``task``; return the validated output or record the refusal and stop."""
        used = self.store.count(LLMCall, analysis_id=self.analysis_id, backend=self.backend.name)
        seq = self._sequence.get(stage, 0)
        self._sequence[stage] = seq + 1
        payload = build_payload(task, inputs, self.model)
        req_digest = digest(payload)
        base = dict(analysis_id=self.analysis_id, stage=stage, task=task.name, sequence=seq,
                    prompt_version=f"{task.prompt.name}@{task.prompt.version}", backend=self.backend.name,
                    requested_model=self.model, request_payload=payload, request_digest=req_digest)
        existing = self.store.get(LLMCall, LLMCall.create(**base, status="ok", started_at=utc_now(),
                                                          ended_at=utc_now()).call_id)
        if existing is None and used >= self.budget:
            self._record(base, BackendAnswer(raw_response="", returned_model=None, status="budget_exceeded",
                                             error=f"request budget of {self.budget} calls exhausted"),
                         None, utc_now())
            raise StageStopped(f"LLM request budget of {self.budget} calls exhausted at task {task.name}",
                               stage=stage)
        started = utc_now()
        answer = self.backend.complete(task, payload, inputs)
        if answer.status != "ok":
            self._record(base, answer, None, started)
            raise StageStopped(f"{task.name}: {answer.status}: {answer.error}", stage=stage)
        if answer.returned_model != self.model:
            self._record(base, answer.model_copy(update={"status": "model_mismatch"}), None, started)
            raise StageStopped(f"{task.name}: returned model {answer.returned_model!r} differs from the "
                               f"requested snapshot {self.model!r}", stage=stage)
        try:
            parsed = task.output_schema.model_validate_json(answer.raw_response)
        except ValidationError as exc:
            status = "truncated" if answer.truncated else "schema_violation"
            self._record(base, answer.model_copy(update={"status": status, "error": str(exc)[:2000]}),
                         None, started)
            raise StageStopped(f"{task.name}: response violates its schema ({status}): "
                               f"{exc.errors()[0]['msg'] if exc.errors() else exc}", stage=stage) from exc
        for check in self.validators:
            problem = check(task, parsed)
            if problem:
                self._record(base, answer.model_copy(update={"status": "contract_violation",
                                                             "error": problem}), parsed, started)
                raise StageStopped(f"{task.name}: {problem}", stage=stage)
        self._record(base, answer, parsed, started)
        return parsed

    def _record(self, base: dict[str, Any], answer: BackendAnswer, parsed: BaseModel | None,
                started: Any) -> LLMCall:
        call = LLMCall.create(
            **base, returned_model=answer.returned_model, raw_response=answer.raw_response,
            response_digest=sha256_hex(answer.raw_response),
            parsed=parsed.model_dump(mode="json") if parsed is not None else None,
            input_tokens=answer.input_tokens, output_tokens=answer.output_tokens,
            cost_usd=self.cost(answer.returned_model or self.model, answer.input_tokens, answer.output_tokens),
            status=answer.status, error=answer.error, started_at=started, ended_at=utc_now())
        self.store.put(call)
        return call
