"""Consistency agent: reads the rendered report against the program's checks.

The program's rules — numeric contract, attribution, direction/sign agreement — decide;
the agent reviews the rendered sentences and may refuse the report with a stated
problem, but it can never accept a report the program refuses.
"""

from __future__ import annotations

from pydantic import Field

from aieco.llm.base import Prompt, Task
from aieco.records import FrozenModel

PROMPT = Prompt(
    name="consistency",
    version="2",
    system=(
        "You are the consistency agent of an evidence-traceable scenario analysis. You check that a rendered "
        "report states only what its cited relations and registered model outputs support."
    ),
    instructions=(
        "Read each sentence with its cited relations and claims. Accept the report unless a sentence "
        "contradicts its cited relation's direction or the sign of its rendered value; then name the "
        "sentence position and the problem. The program's own violations are listed and stand."
    ),
)


class SentenceView(FrozenModel):
    position: int
    kind: str
    rendered: str
    cited_relations: list[str] = Field(default_factory=list, description="'src -> dst (sign)' per citation.")
    claim_signs: list[int] = Field(default_factory=list, description="Sign of each rendered value.")


class ConsistencyInput(FrozenModel):
    risk: str
    sentences: list[SentenceView]
    program_violations: list[str]


class Problem(FrozenModel):
    position: int
    problem: str


class ConsistencyVerdict(FrozenModel):
    accept: bool
    problems: list[Problem] = Field(default_factory=list)


def offline(inputs: ConsistencyInput) -> ConsistencyVerdict:
    """Offline the agent adopts the program's verdict."""
    return ConsistencyVerdict(accept=not inputs.program_violations, problems=[])


TASK: Task[ConsistencyInput, ConsistencyVerdict] = Task(
    name="check_consistency",
    prompt=PROMPT,
    input_schema=ConsistencyInput,
    output_schema=ConsistencyVerdict,
    offline=offline,
)
