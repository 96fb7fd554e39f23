"""Testing agent: names the numerical conclusions to register before the model runs.

For each requested output the agent names the periods to test. The rounding rule and
tolerance are fixed by the program (Eq. outputtest); the agent cannot loosen them, and
may only name requested outputs and years inside the horizon.
"""

from __future__ import annotations

from pydantic import Field

from aieco.llm.base import Prompt, Task
from aieco.records import FrozenModel

PROMPT = Prompt(
    name="testing",
    version="2",
    system=(
        "You are the testing agent of an evidence-traceable scenario analysis. Before any model runs, you "
        "register the numerical conclusions a report may later state, so that each can be tested."
    ),
    instructions=(
        "For each requested output, list the periods (years of the horizon, or the horizon itself) at "
        "which its value should be registered as a claim. Use the variables and periods given."
    ),
)


class OutputBrief(FrozenModel):
    variable: str
    unit: str
    transformation: str


class TestingInput(FrozenModel):
    risk: str
    outputs: list[OutputBrief]
    periods: list[str] = Field(description="Admissible periods: the horizon years.")
    model_ids: list[str]


class ClaimChoice(FrozenModel):
    variable: str
    period: str


class TestPlan(FrozenModel):
    claims: list[ClaimChoice]


def offline(inputs: TestingInput) -> TestPlan:
    return TestPlan(claims=[ClaimChoice(variable=o.variable, period=p) for o in inputs.outputs for p in inputs.periods])


TASK: Task[TestingInput, TestPlan] = Task(
    name="register_tests", prompt=PROMPT, input_schema=TestingInput, output_schema=TestPlan, offline=offline
)


def plan_problems(plan: TestPlan, inputs: TestingInput) -> list[str]:
    variables = {o.variable for o in inputs.outputs}
    problems = [
        f"claim on {c.variable} {c.period}: not a requested output" for c in plan.claims if c.variable not in variables
    ]
    problems += [
        f"claim on {c.variable} {c.period}: period outside the horizon"
        for c in plan.claims
        if c.period not in inputs.periods
    ]
    pairs = [(c.variable, c.period) for c in plan.claims]
    if len(set(pairs)) != len(pairs):
        problems.append("a claim is named twice")
    if not plan.claims:
        problems.append("no claim registered")
    return problems
