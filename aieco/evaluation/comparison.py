"""Comparison design (§5.2–5.3, appendix "Comparison Design"): conditions and their contrasts.

Graph construction conditions G0–G5 and retrieval conditions Direct / Document RAG /
GraphRAG / Hybrid are configurations, so a comparison names what differs. Every
downstream record carries the condition that produced it; a comparison refuses records
produced under another graph rather than relabelling them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field

from aieco.errors import InputError, IntegrityError
from aieco.evaluation.benchmark import Benchmark, RelationKey
from aieco.evaluation.measures import ChannelPrediction, score_benchmark
from aieco.records import Record

#: Measure columns that score retrieved paths (the rest describe the graph itself).
PATH_PREFIXES = ("selected_", "exact_", "first_", "top5_", "all_")


class GraphCondition(BaseModel):
    """How a knowledge graph is constructed."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str
    decomposition: bool = Field(False, description="Passages split into short statements before extraction.")
    verification: bool = Field(False, description="A separate verification request per candidate.")
    official_expansion: bool = Field(False, description="Collection expanded with further official sources.")
    academic_studies: bool = Field(False, description="Academic studies added to the collection.")
    verified_ranking: bool = Field(False, description="Paths ranked by verification and independent support.")
    executable: bool = Field(True, description="Has an execution path here; False = specified comparison only.")


GRAPH_CONDITIONS: dict[str, GraphCondition] = {
    c.name: c
    for c in (
        GraphCondition(
            name="G0",
            description="Relations extracted from full candidate sentences "
            "(≥ 2 vocabulary variables; at most 600 candidates in batches of 8).",
        ),
        GraphCondition(
            name="G1",
            description="Each passage decomposed into short statements; one extraction request per passage.",
            decomposition=True,
        ),
        GraphCondition(
            name="G2",
            description="G1 candidates, each checked by a separate verification request.",
            decomposition=True,
            verification=True,
        ),
        GraphCondition(
            name="G3",
            description="G2 on a collection expanded with further official sources.",
            decomposition=True,
            verification=True,
            official_expansion=True,
            executable=False,
        ),
        GraphCondition(
            name="G4",
            description="G3 plus academic studies.",
            decomposition=True,
            verification=True,
            official_expansion=True,
            academic_studies=True,
            executable=False,
        ),
        GraphCondition(
            name="G5",
            description="G4 with paths ranked by verification status and support from independent sources.",
            decomposition=True,
            verification=True,
            official_expansion=True,
            academic_studies=True,
            verified_ranking=True,
            executable=False,
        ),
    )
}


class RetrievalCondition(BaseModel):
    """Which evidence representation reaches restriction generation, and its share of the byte budget."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    description: str
    document_share: float = Field(ge=0.0, le=1.0)
    graph_share: float = Field(ge=0.0, le=1.0)
    accepted_as_agent_result: bool = Field(True, description="Direct LLM numbers are never accepted.")
    stop_on_conflict: bool = Field(False, description="Hybrid stops when the two representations conflict.")


RETRIEVAL_CONDITIONS: dict[str, RetrievalCondition] = {
    c.name: c
    for c in (
        RetrievalCondition(
            name="direct",
            description="LLM asked for annual paths without retrieval or model; an experimental comparator only.",
            document_share=0.0,
            graph_share=0.0,
            accepted_as_agent_result=False,
        ),
        RetrievalCondition(
            name="document", description="Document RAG: ranked eligible passages.", document_share=1.0, graph_share=0.0
        ),
        RetrievalCondition(
            name="graph",
            description="GraphRAG: enumerated signed paths with quotes.",
            document_share=0.0,
            graph_share=1.0,
        ),
        RetrievalCondition(
            name="hybrid",
            description="Half the budget to each representation; stops on conflicting directions.",
            document_share=0.5,
            graph_share=0.5,
            stop_on_conflict=True,
        ),
    )
}


def byte_allocation(condition: str, budget: int) -> dict[str, int]:
    """Bytes of evidence each representation may use under the common budget."""
    c = retrieval_condition(condition)
    return {"documents": int(budget * c.document_share), "graph": int(budget * c.graph_share)}


def graph_condition(name: str) -> GraphCondition:
    if name not in GRAPH_CONDITIONS:
        raise InputError(f"unknown graph condition {name!r}", fix=f"choose one of {', '.join(GRAPH_CONDITIONS)}")
    return GRAPH_CONDITIONS[name]


def retrieval_condition(name: str) -> RetrievalCondition:
    if name not in RETRIEVAL_CONDITIONS:
        raise InputError(
            f"unknown retrieval condition {name!r}", fix=f"choose one of {', '.join(RETRIEVAL_CONDITIONS)}"
        )
    return RETRIEVAL_CONDITIONS[name]


def require_same_graph(records: Iterable[Record], condition: str) -> None:
    """Refuse any downstream record produced under another graph condition."""
    for r in records:
        got = getattr(r, "graph_condition", condition)
        if got != condition:
            raise IntegrityError(
                f"{r.table} {r.key} was produced under graph {got}, not {condition}; a comparison cannot mix them",
                fix=f"re-run the downstream stages with graph {condition} (relabelling is not allowed)",
            )


def conditions_table() -> pd.DataFrame:
    """Graph conditions as configurations (G3–G5: specified, not executable here)."""
    return pd.DataFrame([c.model_dump() for c in GRAPH_CONDITIONS.values()]).set_index("name")


def compare_graph_conditions(
    benchmark: Benchmark,
    graphs: Mapping[str, set[RelationKey]],
    predictions: Mapping[str, Mapping[str, ChannelPrediction]],
    passage_variables: Sequence[set[str]] | None = None,
    max_len: int = 5,
    selected: Collection[str] | None = None,
) -> pd.DataFrame:
    """Per-risk measures for each graph condition on the same eligible passages.

    Returns a long table: condition, risk, then every measure column. A condition without
    candidate paths reports its path measures as NaN (not zero): nothing was retrieved to
    score; a condition outside ``selected`` (default: all) has NaN selected-path measures.
    """
    frames = []
    for name, graph in graphs.items():
        t = score_benchmark(benchmark, graph, predictions.get(name, {}), passage_variables, max_len).risks
        if name not in predictions:
            t.loc[:, [c for c in t.columns if c.startswith(PATH_PREFIXES)]] = float("nan")
        elif selected is not None and name not in selected:
            t.loc[:, [c for c in t.columns if c.startswith(("selected_", "exact_"))]] = float("nan")
        frames.append(t.reset_index().assign(condition=name))
    return _stack(frames, "condition")


def compare_retrieval_conditions(
    benchmark: Benchmark,
    graph: set[RelationKey],
    predictions: Mapping[str, Mapping[str, ChannelPrediction]],
    max_len: int = 5,
    stopped: Mapping[str, Collection[str]] | None = None,
    selected: Collection[str] | None = None,
) -> pd.DataFrame:
    """Per-risk path measures for each retrieval condition over one graph.

    A condition without candidate paths (Direct, which derives no channel) has NaN path
    measures: not applicable, rather than zero; so has a risk in ``stopped[condition]`` (a
    Hybrid conflict), and the descriptive mean is then over the risks scored. A condition
    outside ``selected`` (default: all; those with an analysis) has NaN selected-path
    measures. Direct is marked as never accepted as an agent result.
    """
    frames = []
    for name in RETRIEVAL_CONDITIONS:
        t = score_benchmark(benchmark, graph, predictions.get(name, {}), None, max_len).risks
        t = t[[c for c in t.columns if c.startswith(PATH_PREFIXES)]].copy()
        if name not in predictions:
            t.loc[:, :] = float("nan")
        elif stopped and stopped.get(name):
            t.loc[[r for r in stopped[name] if r in t.index], :] = float("nan")
            t.loc["mean"] = t.drop(index="mean").mean()
        if selected is not None and name not in selected:
            t.loc[:, [c for c in t.columns if c.startswith(("selected_", "exact_"))]] = float("nan")
        frames.append(
            t.reset_index().assign(
                condition=name, accepted_as_agent_result=RETRIEVAL_CONDITIONS[name].accepted_as_agent_result
            )
        )
    return _stack(frames, "condition")


def _stack(frames: list[pd.DataFrame], key: str) -> pd.DataFrame:
    if not frames:
        return pd.DataFrame()
    out = pd.concat(frames, ignore_index=True)
    return out[[key, *[c for c in out.columns if c != key]]]
