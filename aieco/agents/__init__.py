"""The seven agents of the paper (§5.4) as structured tasks: coordinator, evidence, model
request, execution, testing, consistency and report. Each module holds its Task, its
versioned prompt constant, its offline implementation and the program's acceptance rule."""

from __future__ import annotations

from typing import Any


def all_tasks() -> dict[str, Any]:
    """Every agent Task by task name."""
    from aieco.agents import consistency, coordinator, evidence, execution, model_request, report, testing

    modules = (coordinator, evidence, model_request, execution, testing, report, consistency)
    return {m.TASK.name: m.TASK for m in modules}
