"""The one error tree of aieco.

    AiecoError
    ├── InputError       bad file, bad request or bad workspace: names what and how to fix it
    ├── StageStopped     a rule of the algorithm stopped an analysis stage (a result, not a crash)
    │   └── BudgetStopped    the LLM request or cost budget of an analysis is spent
    └── IntegrityError   a digest, identity or append-only rule was violated

Interfaces (CLI, dashboard) catch ``AiecoError`` and show its message; nothing else is
swallowed.
"""

from __future__ import annotations

from typing import Any


class AiecoError(Exception):
    """Base of every error aieco raises on purpose."""

    kind = "error"

    def __init__(self, message: str, *, where: str | None = None, fix: str | None = None):
        self.message = message
        self.where = where
        self.fix = fix
        super().__init__(self.__str__())

    def __str__(self) -> str:
        parts = [self.message]
        if self.where:
            parts.append(f"(at {self.where})")
        text = " ".join(parts)
        if self.fix:
            text += f" — fix: {self.fix}"
        return text

    def as_dict(self) -> dict:
        return {"error": type(self).__name__, "detail": str(self)}


class InputError(AiecoError):
    """A file, request or workspace that cannot be used as given."""

    kind = "input"


class StageStopped(AiecoError):
    """A rule stopped an analysis stage; carries the stage name and the reason."""

    kind = "stopped"

    def __init__(self, reason: str, *, stage: str | None = None, where: str | None = None, records: Any = ()):
        self.stage = stage
        self.reason = reason
        # domain records the stage produced before the rule stopped it (e.g. the paths found,
        # a stopped derivation): the stage runner stores them with the stopped StageRecord
        self.records = tuple(records)
        super().__init__(reason, where=where)


class BudgetStopped(StageStopped):
    """The analysis's LLM request or cost budget is spent: nothing more may be sent (unlike a refused
    answer, asking again would not help)."""


class IntegrityError(AiecoError):
    """A stored digest, identity or append-only guarantee does not hold."""

    kind = "integrity"
