"""One interface for structured LLM tasks, and the recording client.

A :class:`Task` names a versioned :class:`Prompt`, an input and an output pydantic schema
and a deterministic offline implementation. :class:`LLMClient` sends a task to a
backend, validates the answer against the output schema before anyone can use it, and
writes every attempt as an append-only ``LLMCall``. A refusal (schema violation, wrong
model, HTTP error, budget) is recorded first and then raised as ``StageStopped``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aieco.config import get_settings, redact
from aieco.errors import BudgetStopped, StageStopped
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

    def complete(self, task: Task[Any, Any], payload: dict[str, Any], inputs: BaseModel) -> BackendAnswer: ...


class OfflineBackend:
    """Deterministic answers from each task's own offline implementation."""

    name = "offline"

    def complete(self, task: Task[Any, Any], payload: dict[str, Any], inputs: BaseModel) -> BackendAnswer:
        out = task.offline(inputs)
        return BackendAnswer(raw_response=canonical_json(out.model_dump(mode="json")), returned_model=payload["model"])


def build_payload(task: Task[Any, Any], inputs: BaseModel, model: str) -> dict[str, Any]:
    """The provider-neutral request; its digest identifies the call (no secrets in it)."""
    return {
        "model": model,
        "task": task.name,
        "prompt": {
            "name": task.prompt.name,
            "version": task.prompt.version,
            "system": task.prompt.system,
            "instructions": task.prompt.instructions,
        },
        "input": inputs.model_dump(mode="json"),
        "output_schema": task.output_schema.model_json_schema(),
        "temperature": get_settings().llm.temperature,
        "max_output_tokens": get_settings().llm.max_output_tokens,
    }


@dataclass(frozen=True)
class _Prepared:
    """One request ready to send: its LLMCall fields, payload, and why the budget refuses it (if so)."""

    base: dict[str, Any]
    payload: dict[str, Any]
    over: str | None


class LLMClient:
    """Runs tasks through one backend for one analysis and records every call."""

    def __init__(
        self,
        store: Store,
        backend: Backend,
        analysis_id: str,
        *,
        model: str | None = None,
        budget: int | None = None,
        cost_budget_usd: float | None = None,
        validators: list[Callable[[Task[Any, Any], BaseModel], str | None]] | None = None,
    ):
        settings = get_settings().llm
        self.store = store
        self.backend = backend
        self.analysis_id = analysis_id
        self.model = model or settings.model
        self.budget = budget if budget is not None else settings.request_budget
        self.cost_budget_usd = cost_budget_usd if cost_budget_usd is not None else settings.cost_budget_usd
        self.validators = validators or []
        self._sequence: dict[str, int] = {}
        self._spent: tuple[int, float] | None = None  # running totals, loaded from the store once
        self._in_flight = 0  # requests sent by run_many and not yet recorded
        self.resumed = 0  # requests answered by an accepted call recorded before (not sent again)

    def spent(self) -> tuple[int, float]:
        """Requests sent and USD spent so far by this analysis on this backend.

        The recorded calls are read once (earlier runs of this analysis count); afterwards
        every call this client records updates the running totals, so the check is O(1).
        """
        if self._spent is None:
            self._spent = _count_spent(
                self.store.find(LLMCall, analysis_id=self.analysis_id, backend=self.backend.name)
            )
        return self._spent

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
        return (
            input_tokens * s.price_per_million_input.get(model, 0.0)
            + output_tokens * s.price_per_million_output.get(model, 0.0)
        ) / 1e6

    def run(self, task: Task[I, O], inputs: I, *, stage: str) -> O:
        """Send ``task``; return the validated output or record the refusal and stop."""
        prepared = self._prepare(task, inputs, stage)
        if not isinstance(prepared, _Prepared):
            return prepared
        if prepared.over:
            self._refuse_over_budget(task, prepared, stage)
        started = utc_now()
        answer = self.backend.complete(task, prepared.payload, inputs)
        return self._accept(task, prepared.base, answer, started, stage)

    def run_many(
        self,
        task: Task[I, O],
        inputs: Sequence[I],
        *,
        stage: str,
        progress: Callable[[int, int], None] | None = None,
        concurrency: int | None = None,
    ) -> list[O]:
        """Send one request per input, up to ``settings.llm.concurrency`` at a time; outputs in input order.

        Everything but the wait for the backend happens in this thread and in input order,
        exactly as ``run`` once per input would do it: sequence numbers and resumes, the
        request-budget check (requests in flight count as sent), validation, and the
        ``LLMCall`` records with their costs. Only ``backend.complete`` runs in worker
        threads, and only for a backend that declares ``concurrent = True`` (others, like
        the in-process offline and replay backends, run one request at a time).

        Two differences from a sequential run, both only on the way to a stop: a cost budget
        sees the cost of finished answers only, so up to ``concurrency − 1`` requests more may be
        sent; and after a refusal the requests already in flight are still awaited and recorded
        (they were sent and are paid for) before the first refusal is raised.
        ``progress(done, total)`` is called as each output is accepted, in input order;
        ``concurrency`` overrides the setting.
        """
        n = concurrency if concurrency is not None else get_settings().llm.concurrency
        if n <= 1 or len(inputs) <= 1 or not getattr(self.backend, "concurrent", False):
            out = []
            for k, item in enumerate(inputs):
                out.append(self.run(task, item, stage=stage))
                if progress:
                    progress(k + 1, len(inputs))
            return out
        results: list[Any] = [None] * len(inputs)
        slots: dict[int, Any] = {}  # input index → resumed output, budget refusal, or (prepared, started, future)
        failure: StageStopped | None = None
        stop = False  # nothing more is sent after a refusal or a budget stop
        submitted = finished = 0
        with ThreadPoolExecutor(max_workers=n, thread_name_prefix="llm") as pool:
            while finished < len(inputs):
                while not stop and submitted < len(inputs) and self._in_flight < n:
                    prepared = self._prepare(task, inputs[submitted], stage)
                    if isinstance(prepared, _Prepared) and not prepared.over:
                        self._in_flight += 1
                        slots[submitted] = (
                            prepared,
                            utc_now(),
                            pool.submit(self.backend.complete, task, prepared.payload, inputs[submitted]),
                        )
                    else:
                        slots[submitted] = prepared
                        stop = isinstance(prepared, _Prepared)
                    submitted += 1
                if finished >= submitted:
                    break  # stopped, and everything sent is recorded
                slot = slots.pop(finished)
                try:
                    if isinstance(slot, tuple):
                        prepared, started, future = slot
                        try:
                            answer = future.result()
                        finally:
                            self._in_flight -= 1
                        results[finished] = self._accept(task, prepared.base, answer, started, stage)
                    elif isinstance(slot, _Prepared):
                        self._refuse_over_budget(task, slot, stage)
                    else:
                        results[finished] = slot
                except StageStopped as exc:
                    failure, stop = failure or exc, True
                finished += 1
                if failure is None and progress:
                    progress(finished, len(inputs))
        if failure is not None:
            raise failure
        return results

    def _prepare(self, task: Task[I, O], inputs: I, stage: str) -> _Prepared | O:
        """The next attempt's record fields and budget verdict, or the accepted output of a resume."""
        payload = build_payload(task, inputs, self.model)
        req_digest = digest(payload)
        base = dict(
            analysis_id=self.analysis_id,
            stage=stage,
            task=task.name,
            prompt_version=f"{task.prompt.name}@{task.prompt.version}",
            backend=self.backend.name,
            requested_model=self.model,
            request_payload=payload,
            request_digest=req_digest,
        )
        base, existing = self._attempt(base, stage)
        if existing is not None and existing.parsed is not None:
            # resume: this exact request was answered and accepted before; never ask twice
            self.resumed += 1
            return task.output_schema.model_validate(existing.parsed)
        used, cost = self.spent()
        used += self._in_flight  # sent, not yet recorded (run_many)
        over = None
        if used >= self.budget:
            over = f"request budget of {self.budget} calls exhausted"
        elif self.cost_budget_usd is not None and cost >= self.cost_budget_usd:
            over = f"cost budget of {self.cost_budget_usd} USD exhausted ({cost:.4f} USD spent)"
        return _Prepared(base=base, payload=payload, over=over)

    def _refuse_over_budget(self, task: Task[Any, Any], prepared: _Prepared, stage: str) -> None:
        self._record(
            prepared.base,
            BackendAnswer(raw_response="", returned_model=None, status="budget_exceeded", error=prepared.over or ""),
            None,
            utc_now(),
        )
        raise BudgetStopped(f"LLM {prepared.over} at task {task.name}", stage=stage)

    def _accept(self, task: Task[I, O], base: dict[str, Any], answer: BackendAnswer, started: Any, stage: str) -> O:
        """Validate the backend's answer and record it; record the refusal and stop when it is unusable."""
        # an endpoint may echo the API key (a 401 body, an error message): redacted before anything
        # is recorded, raised as a stop reason or printed
        answer = answer.model_copy(
            update={
                "raw_response": redact(answer.raw_response),
                "output_text": redact(answer.output_text),
                "error": redact(answer.error),
            }
        )
        if answer.status != "ok":
            self._record(base, answer, None, started)
            raise StageStopped(f"{task.name}: {answer.status}: {answer.error}", stage=stage)
        if answer.truncated:
            self._record(
                base,
                answer.model_copy(update={"status": "truncated", "error": answer.error or "output truncated"}),
                None,
                started,
            )
            raise StageStopped(
                f"{task.name}: truncated output ({answer.error or 'output token limit reached'}); "
                f"the response is unusable",
                stage=stage,
            )
        if answer.returned_model != self.model:
            self._record(base, answer.model_copy(update={"status": "model_mismatch"}), None, started)
            raise StageStopped(
                f"{task.name}: returned model {answer.returned_model!r} differs from the "
                f"requested snapshot {self.model!r}",
                stage=stage,
            )
        try:
            text = answer.output_text if answer.output_text is not None else answer.raw_response
            parsed = task.output_schema.model_validate_json(text)
        except ValidationError as exc:
            # text that is not JSON at all is unparseable; JSON of the wrong shape violates the schema
            unparseable = any(e.get("type") == "json_invalid" for e in exc.errors())
            status = "unparseable_response" if unparseable else "schema_violation"
            self._record(base, answer.model_copy(update={"status": status, "error": str(exc)[:2000]}), None, started)
            raise StageStopped(
                f"{task.name}: response violates its schema ({status}): "
                f"{exc.errors()[0]['msg'] if exc.errors() else exc}",
                stage=stage,
            ) from exc
        for check in self.validators:
            problem = check(task, parsed)
            if problem:
                self._record(
                    base, answer.model_copy(update={"status": "contract_violation", "error": problem}), parsed, started
                )
                raise StageStopped(f"{task.name}: {problem}", stage=stage)
        self._record(base, answer, parsed, started)
        return parsed

    def _record(self, base: dict[str, Any], answer: BackendAnswer, parsed: BaseModel | None, started: Any) -> LLMCall:
        raw = redact(answer.raw_response)  # again here: every path to the store passes this way
        call = LLMCall.create(
            **base,
            returned_model=answer.returned_model,
            raw_response=raw,
            response_digest=sha256_hex(raw),
            parsed=redact(parsed.model_dump(mode="json")) if parsed is not None else None,
            input_tokens=answer.input_tokens,
            output_tokens=answer.output_tokens,
            # a replayed answer costs nothing; its recorded tokens are kept for comparison
            cost_usd=0.0
            if self.backend.name == "replay"
            else self.cost(answer.returned_model or self.model, answer.input_tokens, answer.output_tokens),
            status=answer.status,
            error=redact(answer.error),
            structured_mode=answer.structured_mode,
            started_at=started,
            ended_at=utc_now(),
        )
        used, cost = self.spent()  # loads the earlier calls before this one is written
        self.store.put(call)
        if call.status != "budget_exceeded":
            self._spent = (used + 1, cost + call.cost_usd)
        return call


def _count_spent(calls: Any) -> tuple[int, float]:
    """Number and USD cost of the calls that were sent (a budget refusal sent nothing)."""
    used, cost = 0, 0.0
    for c in calls:
        if c.status != "budget_exceeded":
            used, cost = used + 1, cost + c.cost_usd
    return used, cost
