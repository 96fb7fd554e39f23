"""Candidate paths of each retrieval condition under the same byte budget (§5.2–5.3, "Comparison Design").

GraphRAG: the paths enumerated in A(t). Document RAG: the top eligible passages for the
risk's query text (from the benchmark: its name and channel endpoints), serialised under
the budget, and the paths of the passage-constrained relation graph — the relations
extracted from exactly those passages. Hybrid: half the budget to each representation and
the non-conflicting union of their paths; a conflict stops the risk with its reason.
Direct: an LLM asked for annual paths without retrieval or model — never an agent result;
with the offline backend it is not applicable (there is no LLM to ask).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

import pandas as pd

from aieco.config import get_settings
from aieco.evaluation.benchmark import Benchmark
from aieco.evaluation.comparison import RETRIEVAL_CONDITIONS, byte_allocation
from aieco.evaluation.direct import DIRECT_OFFLINE
from aieco.graph.build import relation_graph
from aieco.graph.constrained import hybrid_union, passage_constrained, risk_query_text
from aieco.graph.paths import enumerate_paths
from aieco.records import ChannelQuery, Movement, Path, Relation, Role
from aieco.retrieval import rank_locations, serialize_records
from aieco.sources.eligibility import eligible_locations
from aieco.store import Store
from aieco.vocab import load_vocabulary

#: top_k that keeps every enumerated path (the enumeration ranks, nothing is cut).
ALL_PATHS = 10**9


@dataclass
class RetrievalCandidates:
    """Per retrieval condition: candidate paths per benchmark channel, and what each risk was given."""

    paths: dict[str, dict[str, list[Path]]] = field(default_factory=dict)
    inputs: list[dict] = field(default_factory=list)

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.inputs)


def _queries(benchmark: Benchmark, risk: str, max_len: int) -> dict[str, ChannelQuery]:
    return {
        c.id: ChannelQuery.create(
            risk=c.risk,
            source_var=c.source,
            source_movement=Movement.increase,
            target_var=c.target,
            target_movement=Movement.increase,
            max_len=max_len,
            top_k=ALL_PATHS,
            feedback_loop=c.feedback_loop,
        )
        for c in benchmark.channels_of(risk)
    }


def retrieval_candidates(
    store: Store,
    benchmark: Benchmark,
    relations: Sequence[Relation],
    *,
    cutoff: date,
    graph_condition: str,
    max_len: int,
    direct_backend: str = "offline",
) -> RetrievalCandidates:
    """Every enumerated path of each benchmark channel under GraphRAG, Document RAG and Hybrid.

    The graph is A(t) of ``graph_condition`` (``relations``); passages are the eligible
    generation locations at ``cutoff``. Returns the paths per condition and channel, and one
    input row per (condition, risk): passages retrieved and serialised, bytes used of the
    condition's share of the budget, relations in the graph searched, and any stop.
    """
    s = get_settings()
    budget = s.retrieval.byte_budget
    vocab = load_vocabulary()
    graph = relation_graph(relations)
    eligible = eligible_locations(store, cutoff=cutoff, roles=[Role.generation]).eligible
    out = RetrievalCandidates(paths={"graph": {}, "document": {}, "hybrid": {}})
    for risk in benchmark.risks:
        queries = _queries(benchmark, risk, max_len)
        kw = {"graph_condition": graph_condition}
        by_graph = {cid: enumerate_paths(graph, q, **kw) for cid, q in queries.items()}
        text = risk_query_text(
            risk.replace("_", " "), "", [v for c in benchmark.channels_of(risk) for v in (c.source, c.target)], vocab
        )
        top = [loc for loc, _ in rank_locations(eligible, text, top_k=s.retrieval.top_k, store=store)]
        doc_graph = passage_constrained(graph, [loc.location_id for loc in top])
        by_doc = {
            cid: enumerate_paths(doc_graph, q, retrieval_condition="document", **kw) for cid, q in queries.items()
        }
        out.paths["graph"].update(by_graph)
        out.paths["document"].update(by_doc)
        for rc in ("graph", "document", "hybrid"):
            share = byte_allocation(rc, budget)
            packed = serialize_records(
                ({"location_id": loc.location_id, "text": loc.text} for loc in top), budget=share["documents"]
            )
            searched = by_doc if rc == "document" else by_graph
            graph_packed = serialize_records(
                (p for ps in searched.values() for p in ps if p.rank <= s.graph.top_paths), budget=share["graph"]
            )
            row = {
                "condition": rc,
                "risk": risk,
                "status": "scored",
                "reason": "",
                "accepted_as_agent_result": RETRIEVAL_CONDITIONS[rc].accepted_as_agent_result,
                "document_bytes": share["documents"],
                "graph_bytes": share["graph"],
                "passages_retrieved": len(top) if share["documents"] else 0,
                "passages_serialised": packed.included if share["documents"] else 0,
                "bytes_used": (packed.bytes if share["documents"] else 0)
                + (graph_packed.bytes if share["graph"] else 0),
                "paths_serialised": graph_packed.included if share["graph"] else 0,
                "relations_searched": (doc_graph if rc == "document" else graph).number_of_edges(),
            }
            if rc == "hybrid":
                conflicts = []
                for cid in queries:
                    u = hybrid_union(by_doc[cid], by_graph[cid], top_k=ALL_PATHS)
                    out.paths["hybrid"][cid] = u.paths
                    if u.conflict:
                        conflicts.append(u.conflict)
                if conflicts:  # the risk stops: no hybrid candidate is scored
                    row.update(status="stopped", reason="; ".join(conflicts))
                    for cid in queries:
                        out.paths["hybrid"][cid] = []
            out.inputs.append(row)
        out.inputs.append(
            {
                "condition": "direct",
                "risk": risk,
                "accepted_as_agent_result": False,
                # with an LLM backend the evaluation records the comparator call (evaluation.direct)
                "status": "not applicable" if direct_backend == "offline" else "not run",
                "reason": DIRECT_OFFLINE if direct_backend == "offline" else "",
                "document_bytes": 0,
                "graph_bytes": 0,
                "passages_retrieved": 0,
                "passages_serialised": 0,
                "bytes_used": 0,
                "paths_serialised": 0,
                "relations_searched": 0,
            }
        )
    return out
