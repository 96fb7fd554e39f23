"""Structured report objects: what the report Task reads and writes (LLM or offline).

A report is a title and a list of sentences; each sentence has a kind, a template in
which numbers appear only as ``{{NUM:claim_id}}`` and dates only as ``{{DATE:…}}``, the
relations it cites (its attribution) and the claims it uses. Citations are structured
fields, not tokens, so a relation id can never stand where a number belongs.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import Field

from aieco.records import FrozenModel, SentenceKind


class SentenceDraft(FrozenModel):
    """One report sentence before rendering."""

    kind: SentenceKind = Field(description="qualitative | numerical | temporal")
    template: str = Field(description="Text; numbers only as {{NUM:claim_id}}, dates only as {{DATE:…}}.")
    cited_relation_ids: list[str] = Field(default_factory=list, description="Accepted relations the sentence cites.")
    claim_ids: list[str] = Field(default_factory=list, description="Claims whose NUM tokens the sentence holds.")
    paragraph: str = Field(
        "",
        description="Paragraph the sentence belongs to: 'channel:<n>', 'scenario', "
        "'annual', 'bank' (exports break paragraphs where it changes).",
    )


class ReportDraft(FrozenModel):
    """The output schema of the report Task: a structured, unrendered report."""

    title: str = Field(description="Report title; no numbers.")
    risk: str = Field(description="Risk program the report is about.")
    sentences: list[SentenceDraft] = Field(min_length=1)


class RelationBrief(FrozenModel):
    """An accepted relation the writer may cite."""

    relation_id: str
    src_var: str
    dst_var: str
    src_label: str
    dst_label: str
    sign: Literal["+", "-"]
    reference: str = Field("", description="Short reference, e.g. '(ESRB, Adverse scenario 2018, p. 5)'.")
    quote: str = Field("", description="The quoted source passage supporting the relation.")


class ClaimBrief(FrozenModel):
    """A registered, passed claim the writer may place as a NUM token."""

    claim_id: str
    variable: str
    label: str = Field(description="Readable variable name, e.g. 'house prices'.")
    period: str = Field(description="2025, 2026, 2025-2027 …")
    unit: str
    transformation: str
    sign: Literal[-1, 0, 1] | None = Field(None, description="Sign of the value (no magnitude).")
    statistic: str = Field(
        "selected",
        description="selected (the scenario path), median (the baseline path), "
        "or a cross-bank statistic (p05, p50, p95, below_threshold …).",
    )


class ProvenanceBrief(FrozenModel):
    """The inputs' provenance as recorded (ObservedValue.provenance, Source.illustrative, run diagnostics)."""

    data: Literal["real", "synthetic", "illustrative", "mixed"] = Field(description="Model input data.")
    evidence: Literal["real", "synthetic", "illustrative", "mixed"] = Field(description="Cited source passages.")
    sample_start: str | None = Field(None, description="First estimation quarter, YYYYQn.")
    sample_end: str | None = Field(None, description="Last estimation quarter, YYYYQn.")
    estimator: Literal["minnesota", "ols"] | None = Field(
        None, description="How the VAR's coefficients were estimated (run diagnostics 'estimator')."
    )
    release_rules: list[Literal["vintage", "lag", "file"]] = Field(
        default_factory=list, description="How release dates of the inputs were obtained."
    )
    baseline: Literal["anchored", "unconditional"] | None = Field(
        None, description="Whether the run's baseline is anchored to an official projection (run diagnostics)."
    )
    baseline_publisher: str | None = Field(None, description="Who published the anchoring projection.")
    anchored_variables: list[str] = Field(default_factory=list, description="Variables the projection anchors.")
    selection_rule: Literal["calibrated", "paper_max"] | None = Field(None, description="The run's scenario rule.")
    severity_scaled: bool = Field(False, description="Deviations scaled to an official adverse scenario's severity.")
    last_observed: dict[str, str] = Field(
        default_factory=dict, description="Variable → its last quarter observed by the cutoff (YYYYQn), taken as data."
    )


class ChannelGap(FrozenModel):
    """A registered channel of the risk for which the sources support no admissible path."""

    src_var: str
    dst_var: str
    src_label: str = Field(description="Readable name of the channel's source variable.")
    dst_label: str = Field(description="Readable name of the channel's target variable.")


class BankStart(FrozenModel):
    """Where real banks' starting points come from: an exercise kind and its actual year-end."""

    kind: Literal["stress test", "transparency"]
    actual_year: int = Field(description="Year-end of the actual figures the banks start from.")


class ReportContext(FrozenModel):
    """The input schema of the report Task."""

    analysis_id: str
    risk: str
    risk_label: str = Field(description="Readable risk name, e.g. 'property-market correction'.")
    cutoff: date | None = None
    horizon: str = "2025-2027"
    paths: list[list[str]] = Field(default_factory=list, description="Selected paths as ordered relation ids.")
    path_directions: list[Literal[-1, 1]] = Field(
        default_factory=list,
        description="Registered movement of each path's source variable (+1 rise, -1 fall); "
        "missing entries count as a rise.",
    )
    relations: list[RelationBrief] = Field(default_factory=list)
    claims: list[ClaimBrief] = Field(default_factory=list)
    provenance: ProvenanceBrief | None = Field(None, description="Where the inputs come from (records, not prose).")
    channels_without_path: list[ChannelGap] = Field(
        default_factory=list,
        description="Registered channels with no admissible path at the cutoff: said, never told as a mechanism.",
    )
    unrestricted_variables: list[str] = Field(
        default_factory=list,
        description="Model variables with figures that no derived restriction constrains: their paths are the "
        "model's joint response with the restricted variables, not a direction the evidence sets.",
    )
    bank_requested: bool = Field(False, description="cet1_ratio is among the requested outcomes.")
    bank_status: Literal["present", "not_run", "stopped", "gate_failed", "no_claims", "not_scenario"] = Field(
        "not_run", description="Why the bank paragraph has figures or not."
    )
    bank_provenance: Literal["real", "synthetic", "illustrative", "mixed", "undeclared"] | None = Field(
        None, description="Provenance of the bank data behind the bank figures (the bank run's record)."
    )
    bank_model: str | None = Field(None, description="Model id of the bank run the bank figures come from.")
    bank_starts: list[BankStart] = Field(
        default_factory=list,
        description="Real banks only: the exercises and actual year-ends the banks start from under the cutoff "
        "(the application stage's record), newest first.",
    )
