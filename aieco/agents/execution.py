"""Execution agent: confirms the execution plan the registry fixes.

The registry decides which specifications are compatible with a model request; every
compatible one runs, each as its own ModelRun, and none is chosen as the winner
(paper §3.3). The agent states the plan; the program accepts it only when it names
exactly the compatible models and the registered seed, so the agent can neither drop
a model nor pick a seed after seeing results.
"""

from __future__ import annotations

from pydantic import Field

from aieco.llm.base import Prompt, Task
from aieco.records import FrozenModel

PROMPT = Prompt(
    name="execution",
    version="2",
    system=(
        "You are the execution agent of an evidence-traceable scenario analysis. Registered quantitative "
        "models run under program control; you confirm which compatible models run and with which seed."
    ),
    instructions=(
        "Return every compatible model id exactly as listed, and the registered seed. Do not drop, add or rank models."
    ),
)


class ExecutionInput(FrozenModel):
    request_id: str
    compatible: list[str] = Field(description="Model ids the registry found compatible.")
    refused: dict[str, list[str]] = Field(default_factory=dict, description="Incompatible model id → reasons.")
    seed: int


class ExecutionPlan(FrozenModel):
    model_ids: list[str]
    seed: int


def offline(inputs: ExecutionInput) -> ExecutionPlan:
    return ExecutionPlan(model_ids=sorted(inputs.compatible), seed=inputs.seed)


TASK: Task[ExecutionInput, ExecutionPlan] = Task(
    name="plan_execution", prompt=PROMPT, input_schema=ExecutionInput, output_schema=ExecutionPlan, offline=offline
)


def plan_problems(plan: ExecutionPlan, inputs: ExecutionInput) -> list[str]:
    problems = []
    if sorted(plan.model_ids) != sorted(inputs.compatible):
        problems.append(
            f"the plan runs {sorted(plan.model_ids)}, but every compatible model {sorted(inputs.compatible)} must run"
        )
    if plan.seed != inputs.seed:
        problems.append("the plan's seed differs from the registered seed of the request")
    return problems
