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

    raw_response: str = Field(description="The provider's response body as received (or the offline JSON).")
    output_text: str | None = Field(None, description="The model's output text; None = raw_response itself.")
    returned_model: str | None
    input_tokens: int = 0
    output_tokens: int = 0
    status: str = "ok"
    error: str = ""
    truncated: bool = False
    structured_mode: str = Field("", description="How the endpoint was asked for schema-valid output.")


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
                 budget: int | None = None, cost_budget_usd: float | None = None,
                 validators: list[Callable[[Task[Any, Any], BaseModel], str | None]] | None = None):
        settings = get_settings().llm
        self.store = store
        self.backend = backend
        self.analysis_id = analysis_id
        self.model = model or settings.model
        self.budget = budget if budget is not None else settings.request_budget
        self.cost_budget_usd = cost_budget_usd if cost_budget_usd is not None else settings.cost_budget_usd
        self.validators = validators or []
        self._sequence: dict[str, int] = {}

    def spent(self) -> tuple[int, float]:
        """Requests sent and USD spent so far by this analysis on this backend."""
        calls = [c for c in self.store.find(LLMCall, analysis_id=self.analysis_id, backend=self.backend.name)
                 if c.status != "budget_exceeded"]  # a refused attempt sent nothing
        return len(calls), sum(c.cost_usd for c in calls)

    def _attempt(self, base: dict[str, Any], stage: str) -> tuple[dict[str, Any], LLMCall | None]:
        """The next attempt of this stage: an earlier accepted answer is reused (resume), a
        refused one is never overwritten, so the new attempt takes the next sequence number."""
        while True:
            seq = self._sequence.get(stage, 0)
            self._sequence[stage] = seq + 1
            keyed = {**base, "sequence": seq}
            call_id = LLMCall.create(**keyed, status="ok", started_at=utc_now(), ended_at=utc_now()).call_id
            existing = self.store.get(LLMCall, call_id)
            if existing is None or existing.status == "ok":
                return keyed, existing

    def cost(self, model: str, input_tokens: int, output_tokens: int) -> float:
        s = get_settings().llm
        return (input_tokens * s.price_per_million_input.get(model, 0.0)
                + output_tokens * s.price_per_million_output.get(model, 0.0)) / 1e6

    def run(self, task: Task[I, O], inputs: I, *, stage: str) -> O:
        """Send ``task``; return the validated output or record the refusal and stop."""
        payload = build_payload(task, inputs, self.model)
        req_digest = digest(payload)
        base = dict(analysis_id=self.analysis_id, stage=stage, task=task.name,
                    prompt_version=f"{task.prompt.name}@{task.prompt.version}", backend=self.backend.name,
                    requested_model=self.model, request_payload=payload, request_digest=req_digest)
        base, existing = self._attempt(base, stage)
        if existing is not None and existing.parsed is not None:
            # resume: this exact request was answered and accepted before; never ask twice
            return task.output_schema.model_validate(existing.parsed)
        used, cost = self.spent()
        over = None
        if used >= self.budget:
            over = f"request budget of {self.budget} calls exhausted"
        elif self.cost_budget_usd is not None and cost >= self.cost_budget_usd:
            over = f"cost budget of {self.cost_budget_usd} USD exhausted ({cost:.4f} USD spent)"
        if over:
            self._record(base, BackendAnswer(raw_response="", returned_model=None, status="budget_exceeded",
                                             error=over), None, utc_now())
            raise StageStopped(f"LLM {over} at task {task.name}", stage=stage)
        started = utc_now()
        answer = self.backend.complete(task, payload, inputs)
        if answer.status != "ok":
            self._record(base, answer, None, started)
            raise StageStopped(f"{task.name}: {answer.status}: {answer.error}", stage=stage)
        if answer.truncated:
            self._record(base, answer.model_copy(update={"status": "truncated",
                                                         "error": answer.error or "output truncated"}),
                         None, started)
            raise StageStopped(f"{task.name}: truncated output ({answer.error or 'output token limit reached'}); "
                               f"the response is unusable", stage=stage)
        if answer.returned_model != self.model:
            self._record(base, answer.model_copy(update={"status": "model_mismatch"}), None, started)
            raise StageStopped(f"{task.name}: returned model {answer.returned_model!r} differs from the "
                               f"requested snapshot {self.model!r}", stage=stage)
        try:
            text = answer.output_text if answer.output_text is not None else answer.raw_response
            parsed = task.output_schema.model_validate_json(text)
        except ValidationError as exc:
            # text that is not JSON at all is unparseable; JSON of the wrong shape violates the schema
            unparseable = any(e.get("type") == "json_invalid" for e in exc.errors())
            status = "unparseable_response" if unparseable else "schema_violation"
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
            # a replayed answer costs nothing; its recorded tokens are kept for comparison
            cost_usd=0.0 if self.backend.name == "replay" else
            self.cost(answer.returned_model or self.model, answer.input_tokens, answer.output_tokens),
            status=answer.status, error=answer.error, structured_mode=answer.structured_mode,
            started_at=started, ended_at=utc_now())
        self.store.put(call)
        return call
