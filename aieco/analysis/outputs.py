"""The typed outputs of the analysis stages (frozen pydantic models), one per stage.

A stage returns its output model (or a :class:`aieco.analysis.runner.StageResult` carrying
it with the domain records the stage produced); the runner stores ``to_json()`` as the
stage's output artifact and gives later stages the typed model back — freshly run or
re-hydrated from the stored artifact on resume (``from_json``), so both see the same value.

The JSON of every model is the shape the stages returned before they were typed (field
names, order and the keys left out when empty), so output digests, StageRecord input
digests and resume of existing workspaces are unchanged. Each model names its stage in
``stage`` (the risk-stage name without the ``risk/`` prefix), which is how
``aieco.analysis.stages.earlier(ctx, GraphSearchOutput)`` finds it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field, model_serializer

from aieco.agents.coordinator import CoordinatorPlan
from aieco.agents.evidence import PathSelection
from aieco.records import FrozenModel


class StageOutput(FrozenModel):
    """Base of the stage outputs: ``stage`` names the stage; ``omit_empty`` fields are left out
    of the JSON when None or empty (they were optional keys of the untyped output)."""

    stage: ClassVar[str] = ""
    omit_empty: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _omit(self, handler: Any) -> Any:
        data = handler(self)
        for name in self.omit_empty:
            if data.get(name) in (None, [], {}, ""):
                data.pop(name, None)
        return data

    def to_json(self) -> Any:
        return self.model_dump(mode="json")

    @classmethod
    def from_json(cls, obj: Any) -> StageOutput:
        return cls.model_validate(obj)


# --------------------------------------------------------------------------- analysis-wide stages


class RequestChecksOutput(StageOutput):
    stage: ClassVar[str] = "request_checks"

    accepted: bool
    risks: list[str]
    models: list[str]
    request_digest: str
    settings_digest: str


class PlanningOutput(CoordinatorPlan, StageOutput):
    """The coordinator agent's accepted plan (its JSON is the agent's answer as parsed)."""

    stage: ClassVar[str] = "planning"


class EligibilityOutput(StageOutput):
    stage: ClassVar[str] = "eligibility"

    eligible: int = Field(description="Number of eligible source locations.")
    eligible_digest: str = Field(description="Digest of the sorted eligible location ids.")
    excluded: dict[str, int] = Field(description="Exclusion reason → number of exclusions.")
    sources: int = Field(description="Number of sources with an eligible location.")


# --------------------------------------------------------------------------- risk stages


class RetrievalOutput(StageOutput):
    stage: ClassVar[str] = "retrieval"
    omit_empty: ClassVar[tuple[str, ...]] = ("risk_query", "risk_passages")

    passages: dict[str, list[str]] = Field(description="Channel id → ranked eligible location ids.")
    risk_query: str | None = Field(None, description="Document RAG: the risk's query text.")
    risk_passages: list[str] | None = Field(None, description="Document RAG: its top eligible location ids.")


class ChannelWithoutPath(FrozenModel):
    """A registered channel query of the risk for which the graph search found no admissible path."""

    channel_id: str = Field(description="The request's channel id (e.g. 'tf2').")
    query_id: str
    source: str = Field(description="Vocabulary id of the channel's source variable.")
    target: str = Field(description="Vocabulary id of the channel's target variable.")
    reason: str = Field(description="Why no path was admissible, as a sentence.")


class GraphSearchOutput(StageOutput):
    """Paths per channel in A(t). ``channels_without_path`` names every channel query with no
    admissible path and why; the risk goes on with the others and stops only when none has one."""

    stage: ClassVar[str] = "graph_search"
    omit_empty: ClassVar[tuple[str, ...]] = ("unsupported_queries", "channels_without_path")

    paths: dict[str, list[str]] = Field(description="Channel id → path ids, best first (empty: no path).")
    queries: dict[str, str] = Field(description="Channel id → ChannelQuery id.")
    graph_edges: int
    graph_digest: str = Field(description="Digest of the relation ids of the graph searched.")
    unsupported_queries: list[str] | None = Field(
        None, description="Document RAG: channels the retrieved passages do not connect (kept for old records)."
    )
    channels_without_path: list[ChannelWithoutPath] = Field(
        default_factory=list, description="Channels with no admissible path, each with its reason."
    )

    def channels_with_paths(self) -> list[str]:
        return [c for c, ids in self.paths.items() if ids]


class PathSelectionOutput(PathSelection, StageOutput):
    """The evidence agent's accepted selection (its JSON is the agent's answer as parsed)."""

    stage: ClassVar[str] = "path_selection"


class RestrictionDerivationOutput(StageOutput):
    stage: ClassVar[str] = "restriction_derivation"

    derivation_id: str
    restriction_ids: list[str]
    registration_digest: str


class ModelRequestOutput(StageOutput):
    stage: ClassVar[str] = "model_request"

    request_id: str
    test_ids: list[str] = Field(description="Registered OutputTest ids, fixed before any model runs.")
    claim_ids: list[str]


class ExecutionOutput(StageOutput):
    stage: ClassVar[str] = "execution"

    run_ids: list[str]
    completed: list[str]
    status: dict[str, str] = Field(description="Run id → run status.")


class ApplicationOutput(StageOutput):
    stage: ClassVar[str] = "application"
    omit_empty: ClassVar[tuple[str, ...]] = ("real_banks", "fe_models")

    bank_runs: dict[str, dict[str, str]] = Field(description="Macro run id → {bank run id: status}.")
    gates: list[str]
    may_supply_conclusions: dict[str, bool]
    real_banks: dict[str, Any] | None = Field(None, description="The real-bank part (None: no real bank data).")
    fe_models: str | None = None


class Candidate(FrozenModel):
    run_id: str
    severity: float
    simulation_id: int


class CandidateSelectionOutput(StageOutput):
    stage: ClassVar[str] = "candidate_selection"

    run_id: str
    severity: float
    simulation_id: int
    candidates: list[Candidate]


class OutputTestsOutput(StageOutput):
    stage: ClassVar[str] = "output_tests"

    passed: list[str] = Field(description="Claim ids whose OutputTest passed.")
    result_ids: list[str]


class ReportOutput(StageOutput):
    stage: ClassVar[str] = "report"

    report_id: str


class ConsistencyOutput(StageOutput):
    stage: ClassVar[str] = "consistency"

    report_id: str
    accepted: bool


OUTPUTS: tuple[type[StageOutput], ...] = (
    RequestChecksOutput,
    PlanningOutput,
    EligibilityOutput,
    RetrievalOutput,
    GraphSearchOutput,
    PathSelectionOutput,
    RestrictionDerivationOutput,
    ModelRequestOutput,
    ExecutionOutput,
    ApplicationOutput,
    CandidateSelectionOutput,
    OutputTestsOutput,
    ReportOutput,
    ConsistencyOutput,
)
"""Every stage output model, in the order of the stages."""


class StoredPath(FrozenModel):
    """One channel's path as an analysis found and scored it (a channel without a path: ``rank`` None)."""

    channel_id: str
    query_id: str
    source_var: str
    source_movement: str
    target_var: str
    target_movement: str
    rank: int | None = None
    path_id: str | None = None
    variables: tuple[str, ...] = ()
    signs: tuple[str, ...] = ()
    composed_sign: str = ""
    score: float | None = Field(None, description="S(C) as stored on the Path record (Eq. channelscore).")
    relation_ids: tuple[str, ...] = ()


def stored_paths(store: Any, analysis_id: str, risk: str) -> list[StoredPath]:
    """The paths the risk's latest completed ``graph_search`` stage stored, by channel id, best first, with the
    S(C) it computed — read from the records, never recomputed (the A(t) and scores of that analysis, under
    its request's as-of rule and the review decisions it ran with). Empty when the stage never completed."""
    from aieco.records import ChannelQuery, Path, StageRecord

    done = store.find(StageRecord, analysis_id=analysis_id, stage=f"{risk}/graph_search", status="completed")
    if not done or done[-1].output_digest is None:
        return []
    out = GraphSearchOutput.from_json(store.get_json(done[-1].output_digest))
    paths = {p.path_id: p for p in store.find(Path, path_id=[i for ids in out.paths.values() for i in ids])}
    rows = []
    for channel_id, path_ids in sorted(out.paths.items()):
        q = store.get(ChannelQuery, out.queries[channel_id])
        base = {
            "channel_id": channel_id,
            "query_id": out.queries[channel_id],
            "source_var": q.source_var if q else "",
            "source_movement": q.source_movement.value if q else "",
            "target_var": q.target_var if q else "",
            "target_movement": q.target_movement.value if q else "",
        }
        found = [paths[i] for i in path_ids if i in paths]
        rows += [
            StoredPath(
                **base,
                rank=p.rank,
                path_id=p.path_id,
                variables=tuple(p.variables),
                signs=tuple(s.value for s in p.signs),
                composed_sign=p.composed_sign.value,
                score=p.score,
                relation_ids=tuple(p.relation_ids),
            )
            for p in found
        ] or [StoredPath(**base)]
    return rows


def analysis_as_of(store: Any, analysis_id: str) -> Any:
    """The as-of rule an analysis ran under, rebuilt from its stored request — cutoff, scope, exclusions,
    vintage policy — with the admissible roles of its completed planning stage (else the request's):
    what a view of that analysis's A(t) must use instead of a date and roles alone.

    Raises
    ------
    InputError
        When the workspace holds no analysis ``analysis_id``.
    """
    from aieco.errors import InputError
    from aieco.records import Analysis, StageRecord
    from aieco.request import AnalysisRequest

    an = store.get(Analysis, analysis_id)
    if an is None:
        raise InputError(f"no analysis {analysis_id!r} in the workspace", where="analysis id", fix="pick a stored one")
    request = AnalysisRequest.model_validate(an.request)
    plans = store.find(StageRecord, analysis_id=analysis_id, stage="planning", status="completed")
    roles = None
    if plans and plans[-1].output_digest is not None:
        roles = PlanningOutput.from_json(store.get_json(plans[-1].output_digest)).admissible_roles
    return request.as_of(roles)
