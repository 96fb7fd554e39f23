"""The Direct condition: an LLM asked for annual paths without retrieval or model (appendix "Comparison Design").

An experimental comparator only. Its numbers are never accepted as an agent result: the
analysis request refuses the condition, and here the one recorded LLM call's values are
stored as an evaluation table — never as a ModelRun, so no report can cite them. The
offline backend has no LLM to ask, so offline the condition is recorded as not applicable.
"""

from __future__ import annotations

import pandas as pd
from pydantic import Field

from aieco.config import get_settings
from aieco.errors import InputError
from aieco.evaluation.benchmark import Benchmark
from aieco.llm.base import Backend, LLMClient, Prompt, Task
from aieco.records import FrozenModel, LLMCall
from aieco.store import Store
from aieco.vocab import load_vocabulary

#: LLM calls of the comparator are recorded under this id (not an analysis: nothing downstream reads them).
DIRECT_ANALYSIS_ID = "evaluation-direct"

DIRECT_OFFLINE = (
    "the direct condition asks an LLM for annual paths without retrieval or model, and the "
    "offline backend has no LLM to ask; its numbers would never be accepted as an agent result"
)

PROMPT = Prompt(
    name="direct_comparator",
    version="1",
    system=(
        "You are asked for an adverse macro-financial scenario without any retrieved evidence and without "
        "a quantitative model. Your answer is an experimental comparator, not an analysis result."
    ),
    instructions=(
        "For every initiating risk and every listed variable, give the annual value for each listed "
        "year as a number (percent, as the variable's unit states). Use only the identifiers given."
    ),
)


class DirectRisk(FrozenModel):
    risk: str
    label: str
    channels: list[str] = Field(description="'source -> target' of each benchmark channel.")


class DirectVariable(FrozenModel):
    variable: str
    label: str
    unit: str


class DirectInput(FrozenModel):
    risks: list[DirectRisk]
    variables: list[DirectVariable]
    years: list[int]


class DirectValue(FrozenModel):
    risk: str
    variable: str
    year: int
    value: float


class DirectOutput(FrozenModel):
    values: list[DirectValue]


def _not_offline(_: DirectInput) -> DirectOutput:
    raise InputError(DIRECT_OFFLINE, where="direct comparator", fix="run it with --direct-backend openai")


TASK = Task(
    name="direct_comparator", prompt=PROMPT, input_schema=DirectInput, output_schema=DirectOutput, offline=_not_offline
)


def direct_input(benchmark: Benchmark) -> DirectInput:
    """The benchmark's risks and channel targets, and the scenario years (settings.scenario horizon)."""
    vocab = load_vocabulary()
    s = get_settings().scenario
    targets = list(dict.fromkeys(c.target for c in benchmark.channels))
    return DirectInput(
        risks=[
            DirectRisk(
                risk=r,
                label=r.replace("_", " "),
                channels=[f"{c.source} -> {c.target}" for c in benchmark.channels_of(r)],
            )
            for r in benchmark.risks
        ],
        variables=[DirectVariable(variable=v, label=vocab.get(v).label, unit=vocab.get(v).unit or "") for v in targets],
        years=list(range(s.horizon_start, s.horizon_end + 1)),
    )


def direct_comparator(store: Store, benchmark: Benchmark, backend: Backend) -> tuple[pd.DataFrame, str]:
    """One recorded LLM call for every risk's annual paths; returns (values table, LLMCall id).

    Values naming a risk, variable or year that was not asked for are dropped: the table
    holds only what the comparator was asked.
    """
    if backend.name == "offline":
        raise InputError(DIRECT_OFFLINE, where="direct comparator", fix="run it with --direct-backend openai")
    inputs = direct_input(benchmark)
    out = LLMClient(store, backend, DIRECT_ANALYSIS_ID).run(TASK, inputs, stage="direct_comparator")
    call = max(
        store.find(LLMCall, analysis_id=DIRECT_ANALYSIS_ID, stage="direct_comparator"),
        key=lambda c: (c.sequence, c.ended_at),
    )
    asked = ({r.risk for r in inputs.risks}, {v.variable for v in inputs.variables}, set(inputs.years))
    rows = [
        {**v.model_dump(), "accepted_as_agent_result": False, "llm_call_id": call.call_id}
        for v in out.values
        if v.risk in asked[0] and v.variable in asked[1] and v.year in asked[2]
    ]
    cols = ["risk", "variable", "year", "value", "accepted_as_agent_result", "llm_call_id"]
    return pd.DataFrame(rows, columns=cols), call.call_id
