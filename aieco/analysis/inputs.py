"""The typed inputs of the analysis stages (frozen pydantic models).

The analysis-wide stages see :class:`AnalysisInputs`; the stages of one risk program see
:class:`ProgramInputs`, which adds the risk and the outputs of the analysis-wide stages.
``identity()`` is what the runner digests into every StageRecord's input digest; its shape
is the one the runner used before the typed inputs, so record ids did not change.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from aieco.asof import AsOf
from aieco.config import get_settings, result_settings
from aieco.records import FrozenModel, digest
from aieco.request import AnalysisRequest


def settings_digest() -> str:
    """Digest of the settings that can change a result (``aieco.config.result_settings``): never the
    workspace, parallelism, timeouts or dashboard settings, so opening the same workspace another
    way resumes instead of re-running (no secret is a setting: keys stay in the environment)."""
    return digest(result_settings(get_settings()))


class AnalysisInputs(FrozenModel):
    """What every stage of one repetition may read: the request, the repetition, the settings digest."""

    request: AnalysisRequest
    repetition: int = Field(1, ge=1)
    settings: str = Field(default_factory=settings_digest, description="Digest of the settings in force.")
    reviews: str = Field("", description="Digest of the review decisions in force ('' = none).")

    @property
    def seed(self) -> int:
        return self.request.seed(self.repetition)

    @property
    def conditions(self) -> dict[str, str]:
        return {
            "graph_condition": self.request.graph_condition,
            "retrieval_condition": self.request.retrieval_condition,
        }

    def as_of(self, roles: Any = None) -> AsOf:
        return self.request.as_of(roles)

    def identity(self) -> dict[str, Any]:
        # the result settings' digest is part of every stage's input: a stage never resumes from
        # outputs made under other settings (and such settings also make another analysis id)
        out = {"request": self.request.as_dict(), "repetition": self.repetition, "settings": self.settings}
        # an analysis of an unreviewed workspace keeps the input digests it had before reviews existed
        return {**out, "reviews": self.reviews} if self.reviews else out


class ProgramInputs(AnalysisInputs):
    """What the stages of one risk program read besides their own earlier outputs."""

    risk: str
    shared: dict[str, Any] = Field(description="Outputs of the analysis-wide stages, by stage name, in order.")

    @property
    def prefix(self) -> str:
        """Risk stages are stored as 'risk/stage' so programs never share a record."""
        return f"{self.risk}/"

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "risk": self.risk, "shared": list(self.shared.values())}
