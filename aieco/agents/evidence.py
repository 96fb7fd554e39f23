"""Evidence agent: a choice among the program's enumerated candidate paths.

The retrieval program enumerates and ranks the admissible paths (Eq. channelscore); the
agent selects at most one declared path per channel query, citing its path id and its
relation ids exactly, and names warning subjects. A selection that cites an undeclared
path, or relation ids that differ from the declared ones in any character or order,
stops the risk program (paper §5.4, Run 5). Offline, the agent is the paper's graph
baseline: the highest S(C) per query, ties resolved by rank.
"""

from __future__ import annotations

from pydantic import Field

from aieco.llm.base import Prompt, Task
from aieco.records import FrozenModel

PROMPT = Prompt(
    name="evidence",
    version="4",
    system=(
        "You are the evidence agent of an evidence-traceable scenario analysis. You choose among candidate "
        "transmission paths that a program has already enumerated from a knowledge graph of quoted, signed "
        "relations. You cannot add, edit or merge paths."
    ),
    instructions=(
        "For each channel query choose at most one of its candidate paths, using only the attached "
        "relation evidence (quotes, evidence classes, documents). Copy the path_id and its relation_ids "
        "exactly as declared, in order. List warning subjects: a short subject naming a relation step "
        "as 'source_variable->target_variable' whose evidence is weak (descriptive, single source)."
    ),
)


class RelationEvidence(FrozenModel):
    relation_id: str
    src_var: str
    dst_var: str
    sign: str
    evidence_class: str
    quote: str
    source_title: str = ""
    page: int | None = None


class CandidatePath(FrozenModel):
    path_id: str
    query_id: str
    rank: int
    score: float
    variables: list[str]
    signs: list[str]
    relation_ids: list[str]
    composed_sign: str
    n_docs: int


class QueryBrief(FrozenModel):
    query_id: str
    source: str
    movement: str
    target: str
    expected: str


class EvidenceInput(FrozenModel):
    risk: str
    queries: list[QueryBrief]
    candidates: list[CandidatePath]
    relations: list[RelationEvidence]
    passages: list[str] = Field(default_factory=list, description="Retrieved eligible passages (byte-limited).")


class Selection(FrozenModel):
    query_id: str
    path_id: str
    relation_ids: list[str]


class EvidenceWarning(FrozenModel):
    subject: str = Field(description="'source_variable->target_variable' of the step concerned.")
    note: str


class PathSelection(FrozenModel):
    selections: list[Selection]
    warnings: list[EvidenceWarning] = Field(default_factory=list)


WEAK_CLASSES = frozenset({"descriptive", "unknown", "policy judgment"})


def offline(inputs: EvidenceInput) -> PathSelection:
    """Graph baseline: the highest-scoring path of each query; warnings on weak steps."""
    relations = {r.relation_id: r for r in inputs.relations}
    selections, warnings, seen = [], [], set()
    for q in inputs.queries:
        cands = sorted((c for c in inputs.candidates if c.query_id == q.query_id), key=lambda c: (-c.score, c.rank))
        if not cands:
            continue
        best = cands[0]
        selections.append(Selection(query_id=q.query_id, path_id=best.path_id, relation_ids=list(best.relation_ids)))
        for rid in best.relation_ids:
            r = relations.get(rid)
            if r is None:
                continue
            subject = f"{r.src_var}->{r.dst_var}"
            if r.evidence_class in WEAK_CLASSES and subject not in seen:
                seen.add(subject)
                warnings.append(EvidenceWarning(subject=subject, note=f"supported by {r.evidence_class} evidence only"))
    return PathSelection(selections=selections, warnings=warnings)


TASK: Task[EvidenceInput, PathSelection] = Task(
    name="select_paths", prompt=PROMPT, input_schema=EvidenceInput, output_schema=PathSelection, offline=offline
)


def citation_problems(selection: PathSelection, inputs: EvidenceInput) -> list[str]:
    """Every selection must name a declared path of its query and copy its relation ids exactly."""
    declared = {c.path_id: c for c in inputs.candidates}
    queries = {q.query_id for q in inputs.queries}
    problems, chosen = [], set()
    for s in selection.selections:
        if s.query_id not in queries:
            problems.append(f"selection names unknown channel query {s.query_id!r}")
            continue
        if s.query_id in chosen:
            problems.append(f"channel query {s.query_id} has more than one selected path")
        chosen.add(s.query_id)
        path = declared.get(s.path_id)
        if path is None:
            problems.append(f"query {s.query_id}: path id {s.path_id!r} is not a declared candidate")
        elif path.query_id != s.query_id:
            problems.append(f"query {s.query_id}: path {s.path_id} was declared for query {path.query_id}")
        elif list(s.relation_ids) != list(path.relation_ids):
            problems.append(
                f"query {s.query_id}: cited relation ids {s.relation_ids} differ from the declared "
                f"{path.relation_ids} of path {s.path_id}"
            )
    return problems
