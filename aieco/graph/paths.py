"""Channel paths: enumeration for a ChannelQuery, grouping, the score S(C) and sign composition.

Paths are directed, hold at most ``max_len`` relations and never repeat a variable, except one
terminal return to the start when the query declares a feedback loop. Relations between the
same two variables with the same sign are pooled into one step, so a path is identified by
its ordered variables and signs (paths with another sign pattern stay distinct). The pooled
step is represented by its most confident relation (smallest id on ties).
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from aieco.config import GraphSettings, get_settings
from aieco.records import ChannelQuery, Path, Relation, Sign

COMPOSABLE = {Sign.positive: 1, Sign.negative: -1}


def compose_sign(signs: Sequence[Sign | str]) -> tuple[Sign | None, str]:
    """Product of the relation signs; None with the reason when a step is not monotone."""
    product = 1
    for i, s in enumerate(signs, start=1):
        s = Sign(s)
        if s not in COMPOSABLE:
            return None, f"relation {i} has sign {s.value}: the path is not composable"
        product *= COMPOSABLE[s]
    if not signs:
        return None, "empty path"
    return (Sign.positive if product > 0 else Sign.negative), ""


def channel_score(confidences: Sequence[float], n_docs: int, settings: GraphSettings | None = None) -> float:
    """Eq. (channelscore): S(C) = mean q_l + 0.05 n_doc(C) - 0.03 (L - 1).

    Parameters
    ----------
    confidences : extraction confidence q_l of each of the L relations, in [0, 1].
    n_docs : number of distinct documents attached to the path's relations.
    """
    s = settings or get_settings().graph
    length = len(confidences)
    return sum(confidences) / length + s.doc_bonus * n_docs - s.length_penalty * (length - 1)


@dataclass(frozen=True)
class _Step:
    dst: str
    sign: Sign
    relations: tuple[Relation, ...]  # pooled, representative first
    documents: frozenset[str]
    symbol: str  # the sign's value, kept as a plain string for fast ranking
    confidence: float  # the representative's confidence q_l

    @property
    def representative(self) -> Relation:
        return self.relations[0]


def _steps(graph: nx.MultiDiGraph) -> dict[str, list[_Step]]:
    pooled: dict[tuple[str, str, Sign], list[Relation]] = defaultdict(list)
    for u, v, data in graph.edges(data=True):
        pooled[(u, v, Sign(data["sign"]))].append(data["relation"])
    out: dict[str, list[_Step]] = defaultdict(list)
    for (u, v, sign), rels in sorted(pooled.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2].value)):
        rels = sorted(rels, key=lambda r: (-r.confidence, r.relation_id))
        out[u].append(_Step(v, sign, tuple(rels), frozenset(r.source_id for r in rels), sign.value, rels[0].confidence))
    return out


def _distance_to(graph: nx.MultiDiGraph, target: str) -> dict[str, int]:
    if target not in graph:
        return {}
    return nx.single_source_shortest_path_length(graph.reverse(copy=False), target)


def enumerate_paths(
    graph: nx.MultiDiGraph,
    query: ChannelQuery,
    *,
    analysis_id: str = "",
    graph_condition: str = "G0",
    retrieval_condition: str = "graph",
    settings: GraphSettings | None = None,
) -> list[Path]:
    """The top-k admissible paths of ``query`` ranked by S(C); empty when none is admissible."""
    s = settings or get_settings().graph
    max_len = min(query.max_len, s.max_path_length)
    src, dst = query.source_var, query.target_var
    if src not in graph or dst not in graph:
        return []
    steps = _steps(graph)
    dist = _distance_to(graph, dst)
    loop = query.feedback_loop and src == dst
    k = query.top_k or s.top_paths
    # The best k so far, sorted by (−S(C), relations, variables, signs): fewer relations first on ties,
    # then the ordered variables and signs (deterministic). A path whose (−S(C), relations) is worse
    # than the k-th's is dropped before its lists are built.
    scored: list[tuple] = []
    variables: list[str] = [src]
    chosen: list[_Step] = []
    doc_uses: dict[str, int] = {}  # documents of the chosen steps, with their use counts
    visited = {src}

    confidences: list[float] = []  # of the chosen steps
    bonus, penalty = s.doc_bonus, s.length_penalty

    def found(step: _Step) -> None:
        n_docs = len(doc_uses)
        for d in step.documents:
            if d not in doc_uses:
                n_docs += 1
        length = len(chosen) + 1
        # channel_score, inlined (the same operations in the same order)
        score = sum([*confidences, step.confidence]) / length + bonus * n_docs - penalty * (length - 1)
        if len(scored) == k and (-score, length) > scored[-1][:2]:
            return
        entry = (
            -score,
            length,
            [*variables, step.dst],
            [*(st.symbol for st in chosen), step.symbol],
            [*chosen, step],
            n_docs,
        )
        if len(scored) == k and entry[:4] > scored[-1][:4]:
            return
        bisect.insort(scored, entry, key=lambda t: t[:4])
        del scored[k:]

    def walk(node: str) -> None:
        remaining = max_len - len(chosen)
        for step in steps.get(node, ()):
            v = step.dst
            if v == dst and (v not in visited or (loop and v == src)):
                found(step)
                continue
            if v in visited or remaining <= 1 or dist.get(v, max_len + 1) > remaining - 1:
                continue
            visited.add(v)
            variables.append(v)
            chosen.append(step)
            confidences.append(step.confidence)
            for d in step.documents:
                doc_uses[d] = doc_uses.get(d, 0) + 1
            walk(v)
            for d in step.documents:
                doc_uses[d] -= 1
                if not doc_uses[d]:
                    del doc_uses[d]
            confidences.pop()
            chosen.pop()
            variables.pop()
            visited.discard(v)

    if src != dst or loop:
        walk(src)
    out = []
    for rank, (neg_score, _, variables, _, chosen, n_docs) in enumerate(scored, start=1):
        signs = [st.sign for st in chosen]
        composed, _ = compose_sign(signs)
        out.append(
            Path.create(
                analysis_id=analysis_id,
                query_id=query.query_id,
                risk=query.risk,
                variables=variables,
                signs=signs,
                relation_ids=[st.representative.relation_id for st in chosen],
                evidence=[sorted(r.relation_id for r in st.relations) for st in chosen],
                # A non-composable path records its first non-monotone, ambiguous or absent step's sign.
                composed_sign=composed or next(x for x in signs if x not in COMPOSABLE),
                score=-neg_score,
                mean_confidence=sum(st.representative.confidence for st in chosen) / len(chosen),
                n_docs=n_docs,
                rank=rank,
                graph_condition=graph_condition,
                retrieval_condition=retrieval_condition,
            )
        )
    return out


def graph_baseline(paths: Sequence[Path]) -> Path | None:
    """The paper's graph baseline: the path with the highest S(C) (rank 1), without asking an LLM."""
    return min(paths, key=lambda p: p.rank) if paths else None


def no_path_reason(graph: nx.MultiDiGraph, query: ChannelQuery, settings: GraphSettings | None = None) -> str:
    """Why ``query`` has no admissible path in ``graph``, as a sentence (the first rule that fails).

    The rules are those of :func:`enumerate_paths`: both endpoints must carry a relation, a
    chain of relations must lead from the source to the target, and the shortest such chain
    must hold at most the query's maximum number of relations.
    """
    s = settings or get_settings().graph
    max_len = min(query.max_len, s.max_path_length)
    src, dst = query.source_var, query.target_var
    if src == dst and not query.feedback_loop:
        return f"the query starts and ends at {src} without declaring a feedback loop"
    if src not in graph or graph.out_degree(src) == 0:
        return f"no relation in the graph starts from {src}"
    if dst not in graph or graph.in_degree(dst) == 0:
        return f"no relation in the graph leads into {dst}"
    if src == dst:
        loops = [len(nx.shortest_path(graph, u, src)) for _, u in graph.out_edges(src) if nx.has_path(graph, u, src)]
        if not loops:
            return f"no chain of relations returns from {src} to itself"
        if min(loops) > max_len:
            return f"the shortest return to {src} holds {min(loops)} relations, more than the maximum {max_len}"
        return f"no return to {src} of at most {max_len} relations avoids repeating a variable"
    if not nx.has_path(graph, src, dst):
        return f"no chain of relations leads from {src} to {dst}"
    shortest = nx.shortest_path_length(graph, src, dst)
    if shortest > max_len:
        return f"the shortest chain from {src} to {dst} holds {shortest} relations, more than the maximum {max_len}"
    return f"no chain from {src} to {dst} of at most {max_len} relations avoids repeating a variable"
