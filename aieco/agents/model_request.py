"""Model request agent: restrictions and registered specifications → a structured ModelRequest.

The agent chooses the outputs to request among those the registered specifications
offer and writes a short rationale. The rationale is free text and may contain no
digit: horizons, values and counts travel only in structured fields (paper §5.4, Run 4).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from aieco.llm.base import Prompt, Task

PROMPT = Prompt(
    name="model_request",
    version="3",
    system=(
        "You are the model request agent of an evidence-traceable scenario analysis. You translate "
        "directional restrictions into a structured request for registered quantitative models. "
        "You never state numbers: values come only from model runs."
    ),
    instructions=(
        "Choose the outputs to request from the offered model outputs (copy variable, unit, frequency "
        "and transformation exactly) and write a one-sentence rationale in words alone. The rationale "
        "must not contain any digit, year, horizon or quantity written with digits."
    ),
)


class OfferedOutput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    model_id: str
    variable: str
    unit: str
    frequency: str
    transformation: str


class RestrictionBrief(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    restriction_id: str
    variable: str
    model_variable: str | None
    direction: int
    priority: int


class ModelRequestInput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    risk: str
    restrictions: list[RestrictionBrief]
    offered: list[OfferedOutput] = Field(description="Outputs of the registered specifications.")


class RequestedOutput(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    variable: str
    unit: str
    frequency: str
    transformation: str


class ModelRequestDraft(BaseModel):
    """The agent's structured answer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    outputs: list[RequestedOutput] = Field(description="Requested outputs, copied from the offered ones.")
    rationale: str = Field(description="One sentence in words alone; no digits.")


def offline(inputs: ModelRequestInput) -> ModelRequestDraft:
    """Request every output of the specifications that serve the restricted variables."""
    restricted = {r.model_variable for r in inputs.restrictions if r.model_variable}
    models = sorted({o.model_id for o in inputs.offered if o.variable in restricted})
    outs, seen = [], set()
    for o in inputs.offered:
        key = (o.variable, o.unit, o.frequency, o.transformation)
        if o.model_id in models and key not in seen:
            seen.add(key)
            outs.append(
                RequestedOutput(
                    variable=o.variable, unit=o.unit, frequency=o.frequency, transformation=o.transformation
                )
            )
    names = ", ".join(sorted(restricted)) or "no model variable"
    return ModelRequestDraft(
        outputs=outs,
        rationale=f"The {inputs.risk.replace('_', ' ')} channels restrict "
        f"{names.replace('_', ' ')}; the request asks the registered "
        f"models for their annual scenario outputs.",
    )


TASK: Task[ModelRequestInput, ModelRequestDraft] = Task(
    name="model_request",
    prompt=PROMPT,
    input_schema=ModelRequestInput,
    output_schema=ModelRequestDraft,
    offline=offline,
)

_DIGIT = re.compile(r"\d")


def contract(task: Task[Any, Any], parsed: BaseModel) -> str | None:
    """The model request contract: a digit in the free-text rationale is refused."""
    if task.name != TASK.name:
        return None
    assert isinstance(parsed, ModelRequestDraft)
    m = _DIGIT.search(parsed.rationale)
    if m:
        return (
            f"contract violation: the rationale contains the digit {m.group()!r} at position {m.start()}; "
            f"free text may not state numbers"
        )
    return None


def unknown_outputs(draft: ModelRequestDraft, inputs: ModelRequestInput) -> list[str]:
    """Requested outputs no registered specification offers."""
    offered = {(o.variable, o.unit, o.frequency, o.transformation) for o in inputs.offered}
    return [o.variable for o in draft.outputs if (o.variable, o.unit, o.frequency, o.transformation) not in offered]
