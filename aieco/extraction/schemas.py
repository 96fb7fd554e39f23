"""Input and output schemas of the extraction tasks (validated before any use)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class _Schema(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Statement(_Schema):
    candidate_id: str = Field(description="Identifier the answer refers back to.")
    location_id: str = Field(description="Source location the statement comes from.")
    text: str = Field(description="Statement to read.")


class ExtractionRequest(_Schema):
    statements: list[Statement]
    variables: list[str] = Field(description="Allowed variable ids of the controlled vocabulary.")


class ProposedRelation(_Schema):
    """A relation as proposed by the extractor; checked by validation before it is written."""

    candidate_id: str
    src_var: str
    dst_var: str
    sign: str = Field(description="'+', '-', 'non-monotone', 'ambiguous' or 'absent'.")
    evidence_class: str = Field("unknown", description="causal … descriptive, policy judgment, unknown.")
    verb: str = ""
    quote: str = Field(description="Exact quote from the statement.")
    confidence: float = Field(ge=0.0, le=1.0)
    horizon: str | None = None
    jurisdiction: str | None = None
    sector: str | None = None
    regime: str | None = None
    empirical_basis: str | None = None
    reader: str | None = Field(
        None, description="Left empty by a language model (the build records its backend and model)."
    )


class ExtractionResult(_Schema):
    relations: list[ProposedRelation]


class Passage(_Schema):
    location_id: str
    text: str


class DecompositionRequest(_Schema):
    passages: list[Passage]


class DecomposedStatement(_Schema):
    location_id: str
    text: str = Field(description="Short self-contained statement.")
    quote: str = Field(description="Exact span of the passage it comes from.")


class DecompositionResult(_Schema):
    statements: list[DecomposedStatement]


class VerificationItem(_Schema):
    index: int
    src_var: str
    dst_var: str
    sign: str
    quote: str


class VerificationRequest(_Schema):
    candidates: list[VerificationItem]


class Verdict(_Schema):
    index: int
    verdict: Literal["supported", "unsupported", "contradicted"]
    reason: str = ""


class VerificationResult(_Schema):
    verdicts: list[Verdict]
