"""Retrieval conditions over the relation graph (§5.2, appendix "Comparison Design").

Document RAG hands restriction generation the top eligible passages for a risk; the
relations it can use are those extracted from exactly those passages — the
passage-constrained relation graph — from which paths are enumerated like GraphRAG's.
Hybrid RAG takes the non-conflicting union of the two representations and stops when
the directions they require for a channel query conflict.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import networkx as nx

from aieco.graph.build import relation_graph
from aieco.records import Path
from aieco.vocab import Vocabulary


def risk_query_text(label: str, description: str, variables: Sequence[str], vocab: Vocabulary) -> str:
    """A risk's query text for document retrieval: its label, description and channel endpoint labels.

    During generation these come from the request's registration, during evaluation from the
    benchmark (its risk name and channel endpoints), so the LLM never writes the query.
    """
    words = [label, description, *(vocab.get(v).label for v in variables)]
    return " ".join(dict.fromkeys(w for w in words if w))


def passage_constrained(graph: nx.MultiDiGraph, location_ids: Collection[str]) -> nx.MultiDiGraph:
    """The relations of ``graph`` extracted from one of ``location_ids`` (the retrieved passages)."""
    keep = set(location_ids)
    return relation_graph(d["relation"] for _, _, d in graph.edges(data=True) if d["relation"].location_id in keep)


def required_direction(paths: Sequence[Path]) -> str | None:
    """The direction a representation requires of a channel: the composed sign of its top-ranked path."""
    if not paths:
        return None
    return min(paths, key=lambda p: (p.rank, p.path_id)).composed_sign.value


@dataclass(frozen=True)
class HybridOutcome:
    """The union of both representations' paths for one query, or the conflict that stops it."""

    paths: list[Path]
    conflict: str | None


def hybrid_union(document: Sequence[Path], graph: Sequence[Path], *, top_k: int) -> HybridOutcome:
    """Non-conflicting union of the document (passage-constrained) and graph paths of one query.

    When both representations yield a path and their top-ranked paths compose to different
    directions, the union is refused with the reason. Otherwise paths with the same
    ordered variables and signs are kept once (the higher S(C)), the union is re-ranked by S(C) (ties: relation order),
    cut at ``top_k`` and every path is written with the hybrid retrieval condition.
    """
    d, g = required_direction(document), required_direction(graph)
    if d is not None and g is not None and d != g:
        q = (document or graph)[0]
        return HybridOutcome(
            [],
            f"hybrid retrieval: for query {q.query_id} ({q.variables[0]} → {q.variables[-1]}) "
            f"the document evidence's top path composes '{d}' but the graph evidence's "
            f"composes '{g}': their required directions conflict",
        )
    # one channel per ordered variables and signs (as the enumeration groups them), keeping the better-supported
    seen: dict[tuple, Path] = {}
    for p in [*document, *graph]:
        key = (tuple(p.variables), tuple(s.value for s in p.signs))
        if key not in seen or p.score > seen[key].score:
            seen[key] = p
    ranked = sorted(seen.values(), key=lambda p: (-p.score, p.relation_ids))[:top_k]
    return HybridOutcome(
        [
            Path.create(**{**p.model_dump(exclude={"path_id"}), "rank": i, "retrieval_condition": "hybrid"})
            for i, p in enumerate(ranked, start=1)
        ],
        None,
    )
