"""Coordinator agent: the request → the variables, outcomes and admissible sources of each risk program.

The coordinator plans; it cannot widen the request. The program accepts a plan only when
every risk of the request appears once, every target is a registered channel target or
requested outcome, and the admissible roles are among the request's allowed roles.
"""

from __future__ import annotations

from datetime import date

from pydantic import Field

from aieco.llm.base import Prompt, Task
from aieco.records import FrozenModel

PROMPT = Prompt(
    name="coordinator",
    version="2",
    system=(
        "You are the coordinating agent of an evidence-traceable scenario analysis. You read an analysis "
        "request and plan one program per initiating risk. You never add risks, variables or sources "
        "that the request does not name."
    ),
    instructions=(
        "For every risk of the request, list its initiating (source) variables and its target "
        "variables exactly as the channel queries name them, the requested outcomes, and the source "
        "roles admissible for generation. Use the identifiers given; do not invent identifiers."
    ),
)


class ChannelBrief(FrozenModel):
    id: str
    source: str
    movement: str
    target: str
    expected: str


class RiskBrief(FrozenModel):
    name: str
    label: str
    description: str
    channels: list[ChannelBrief]


class CoordinatorInput(FrozenModel):
    application: str
    jurisdictions: list[str]
    sectors: list[str]
    horizon: str
    cutoff: date
    outcomes: list[str]
    allowed_roles: list[str]
    risks: list[RiskBrief]


class RiskPlan(FrozenModel):
    risk: str
    source_variables: list[str] = Field(description="Initiating variables of the risk's channel queries.")
    targets: list[str] = Field(description="Target variables of the risk's channel queries.")


class CoordinatorPlan(FrozenModel):
    programs: list[RiskPlan]
    outcomes: list[str]
    admissible_roles: list[str]


def offline(inputs: CoordinatorInput) -> CoordinatorPlan:
    """The plan the request itself implies."""
    programs = [
        RiskPlan(
            risk=r.name,
            source_variables=sorted({c.source for c in r.channels}),
            targets=sorted({c.target for c in r.channels}),
        )
        for r in inputs.risks
    ]
    return CoordinatorPlan(
        programs=programs, outcomes=list(inputs.outcomes), admissible_roles=list(inputs.allowed_roles)
    )


TASK: Task[CoordinatorInput, CoordinatorPlan] = Task(
    name="coordinate", prompt=PROMPT, input_schema=CoordinatorInput, output_schema=CoordinatorPlan, offline=offline
)


def plan_problems(plan: CoordinatorPlan, inputs: CoordinatorInput) -> list[str]:
    """Why the program refuses ``plan`` (empty = accepted)."""
    problems = []
    names = [p.risk for p in plan.programs]
    expected = [r.name for r in inputs.risks]
    if sorted(names) != sorted(expected):
        problems.append(f"the plan's risks {sorted(names)} differ from the request's {sorted(expected)}")
    by_name = {r.name: r for r in inputs.risks}
    for p in plan.programs:
        risk = by_name.get(p.risk)
        if risk is None:
            continue
        allowed_targets = {c.target for c in risk.channels} | set(inputs.outcomes)
        extra = sorted(set(p.targets) - allowed_targets)
        if extra:
            problems.append(f"risk {p.risk}: targets {extra} are neither channel targets nor requested outcomes")
        extra_src = sorted(set(p.source_variables) - {c.source for c in risk.channels})
        if extra_src:
            problems.append(f"risk {p.risk}: source variables {extra_src} are not registered by its channel queries")
    wider = sorted(set(plan.admissible_roles) - set(inputs.allowed_roles))
    if wider:
        problems.append(f"the plan admits roles {wider} the request does not allow")
    if not plan.admissible_roles:
        problems.append("the plan admits no source role")
    return problems
