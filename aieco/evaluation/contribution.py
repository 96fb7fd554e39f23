"""Source contribution (Eq. sourcecontribution) and average marginal contributions.

For a measure M and the graph G built from all source documents, removing document s
gives Δ_s(M) = M(G) − M(G₋ₛ). Average marginal contributions add documents in random
orders (fixed seed) and average M(prefix ∪ {s}) − M(prefix) over the orderings, which
separates documents that are substitutable in the full graph.

Two exact ways to build the graph incrementally along each ordering:

``earliest`` (default, vectorised over orderings): every measure here is monotone in the
document set, so a document's marginal contribution is non-zero only at the step where it
completes something. Along an ordering, a relation enters the graph at the earliest
position of a document stating it; a benchmark variant is complete at the latest entry of
its relations; an endpoint pair becomes reachable at the earliest bottleneck time over
walks of at most ``max_len`` relations (a min–max relaxation, one pass per hop; a walk
contains a simple path with no later relation, so this equals admissible-path
reachability). The document at that step receives the increment.

``prefix`` (reference, any set function): a graph is identified by the union of its
documents' relations as a Python int bit mask; each ordering adds one document at a time
(one OR per step) and each distinct union is scored once (memoised), so orderings share
their prefixes.

Orderings are cut into fixed blocks whose sums are added in block order, so the result
does not depend on the number of worker processes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from aieco.evaluation.benchmark import Benchmark, RelationKey
from aieco.evaluation.measures import endpoint_path_available

CONTRIBUTION_MEASURES = ("endpoint_reachability", "relation_coverage", "complete_path_recovery")
CHUNK = 2_500

ProgressFn = Callable[[int, int], None]
"""progress(chunks_done, chunks_total)."""


@dataclass(frozen=True)
class _Channel:
    source: str
    target: str
    variant_masks: tuple[int, ...]  # only variants whose every relation some document states


@dataclass(frozen=True)
class ContributionProblem:
    """Documents as bit masks over the distinct signed relations they state."""

    documents: tuple[str, ...]
    keys: tuple[RelationKey, ...]
    doc_masks: tuple[int, ...]
    risks: tuple[str, ...]
    risk_relation_masks: tuple[int, ...]
    risk_relation_counts: tuple[int, ...]
    risk_channels: tuple[tuple[_Channel, ...], ...]
    max_len: int

    @property
    def columns(self) -> list[str]:
        """Measure vector labels: per risk, then the descriptive mean over risks."""
        return [f"{r}:{m}" for r in (*self.risks, "mean") for m in CONTRIBUTION_MEASURES]

    def measure(self, mask: int) -> tuple[float, ...]:
        """M(G) for the graph holding the relations in ``mask``, as the labelled vector."""
        edges = [k for i, k in enumerate(self.keys) if mask >> i & 1]
        out: list[float] = []
        for rel_mask, n_rel, chans in zip(
            self.risk_relation_masks, self.risk_relation_counts, self.risk_channels, strict=True
        ):
            reach = sum(endpoint_path_available(edges, c.source, c.target, self.max_len) for c in chans)
            complete = sum(any(v & mask == v for v in c.variant_masks) for c in chans)
            n = len(chans)
            out += [reach / n, (rel_mask & mask).bit_count() / n_rel, complete / n]
        k = len(CONTRIBUTION_MEASURES)
        out += [sum(out[i::k]) / len(self.risks) for i in range(k)]
        return tuple(out)


def contribution_problem(
    benchmark: Benchmark, documents: Mapping[str, set[RelationKey]], max_len: int = 5
) -> ContributionProblem:
    """Index the documents' signed relations as bits and the benchmark as masks over them."""
    names = tuple(sorted(documents))
    keys = tuple(sorted(set().union(*documents.values()) if documents else set()))
    bit = {k: 1 << i for i, k in enumerate(keys)}

    def mask_of(ks: set[RelationKey] | list[RelationKey]) -> int:
        return sum(bit.get(k, 0) for k in set(ks))

    risk_masks, risk_counts, risk_chans = [], [], []
    for risk in benchmark.risks:
        rel = benchmark.relation_keys(risk)
        risk_masks.append(mask_of(rel))
        risk_counts.append(len(rel))
        chans = []
        for c in benchmark.channels_of(risk):
            variants = tuple(mask_of(v) for v in benchmark.variant_keys(c) if all(k in bit for k in v))
            chans.append(_Channel(c.source, c.target, variants))
        risk_chans.append(tuple(chans))
    return ContributionProblem(
        documents=names,
        keys=keys,
        doc_masks=tuple(mask_of(documents[d]) for d in names),
        risks=tuple(benchmark.risks),
        risk_relation_masks=tuple(risk_masks),
        risk_relation_counts=tuple(risk_counts),
        risk_channels=tuple(risk_chans),
        max_len=max_len,
    )


def leave_one_out(problem: ContributionProblem) -> tuple[np.ndarray, np.ndarray]:
    """M(G) and Δ_s(M) = M(G) − M(G₋ₛ) for every document s (Eq. sourcecontribution).

    Returns
    -------
    full : array (K,) — M(G) for the K labelled measures.
    delta : array (n_documents, K).
    """
    all_mask = 0
    for m in problem.doc_masks:
        all_mask |= m
    full = np.array(problem.measure(all_mask))
    delta = np.empty((len(problem.documents), full.size))
    for i in range(len(problem.documents)):
        rest = 0
        for j, m in enumerate(problem.doc_masks):
            if j != i:
                rest |= m
        delta[i] = full - np.array(problem.measure(rest))
    return full, delta


def _chunk_sums(problem: ContributionProblem, orderings: np.ndarray) -> np.ndarray:
    """Sum of marginal contributions per document over a block of orderings, shape (n, K)."""
    n_ord, n = orderings.shape
    memo: dict[int, int] = {}
    values: list[tuple[float, ...]] = []
    states = np.empty((n_ord, n + 1), dtype=np.int64)
    masks = problem.doc_masks
    for o in range(n_ord):
        mask = 0
        row = states[o]
        for k in range(n + 1):
            if k:
                mask |= masks[orderings[o, k - 1]]  # incremental: add one document's relations
            s = memo.get(mask)
            if s is None:
                s = memo[mask] = len(values)
                values.append(problem.measure(mask))
            row[k] = s
    table = np.asarray(values)
    marginal = table[states[:, 1:]] - table[states[:, :-1]]  # (n_ord, n, K)
    sums = np.zeros((n, table.shape[1]))
    np.add.at(sums, orderings.ravel(), marginal.reshape(-1, table.shape[1]))
    return sums


def _chunk_sums_earliest(problem: ContributionProblem, orderings: np.ndarray) -> np.ndarray:
    """Same as the prefix method, from the step at which each measure increment happens."""
    n_ord, n = orderings.shape
    rows = np.arange(n_ord)
    pos = np.empty_like(orderings)
    pos[rows[:, None], orderings] = np.arange(n)
    never = n
    # Entry step of each relation: earliest position of a document stating it.
    entry = np.full((len(problem.keys), n_ord), never, dtype=np.int64)
    for d, m in enumerate(problem.doc_masks):
        for i in range(len(problem.keys)):
            if m >> i & 1:
                np.minimum(entry[i], pos[:, d], out=entry[i])
    variables = sorted({v for k in problem.keys for v in k[:2]})
    index = {v: j for j, v in enumerate(variables)}
    edges = [(index[s], index[t], i) for i, (s, t, _) in enumerate(problem.keys)]
    k = len(CONTRIBUTION_MEASURES)
    sums = np.zeros((n, k * (len(problem.risks) + 1)))

    def credit(col: int, step: np.ndarray, weight: float) -> None:
        hit = step < never
        docs = orderings[rows[hit], step[hit]]
        sums[:, col] += weight * np.bincount(docs, minlength=n)

    bits = range(len(problem.keys))
    for r, (rel_mask, n_rel, chans) in enumerate(
        zip(problem.risk_relation_masks, problem.risk_relation_counts, problem.risk_channels, strict=True)
    ):
        for i in bits:
            if rel_mask >> i & 1:
                credit(k * r + 1, entry[i], 1 / n_rel)
        for c in chans:
            done = np.full(n_ord, never, dtype=np.int64)
            for v in c.variant_masks:
                np.minimum(done, entry[[i for i in bits if v >> i & 1]].max(axis=0), out=done)
            credit(k * r + 2, done, 1 / len(chans))
            credit(k * r, _reach_step(edges, entry, index, c, problem.max_len, never), 1 / len(chans))
    for j in range(k):
        sums[:, k * len(problem.risks) + j] = sums[:, j : k * len(problem.risks) : k].sum(axis=1) / len(problem.risks)
    return sums


def _reach_step(
    edges: list[tuple[int, int, int]], entry: np.ndarray, index: dict[str, int], c: _Channel, max_len: int, never: int
) -> np.ndarray:
    """Earliest step at which a walk of ≤ max_len relations joins the channel's endpoints."""
    n_ord = entry.shape[1]
    if c.source not in index or c.target not in index:
        return np.full(n_ord, never, dtype=np.int64)
    arrive = np.full((len(index), n_ord), never, dtype=np.int64)
    arrive[index[c.source]] = -1  # the start is there before any document
    target, reached = index[c.target], np.full(n_ord, never, dtype=np.int64)
    for _ in range(max_len):
        nxt = arrive.copy()
        for u, v, i in edges:
            step = np.maximum(arrive[u], entry[i])  # bottleneck: the later of the walk and the relation
            np.minimum(nxt[v], step, out=nxt[v])
            if v == target:
                np.minimum(reached, step, out=reached)
        arrive = nxt
    return reached


def random_orderings(n_documents: int, n_orderings: int, seed: int) -> np.ndarray:
    """``n_orderings`` random permutations of the documents from a seeded generator."""
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.arange(n_documents), (n_orderings, 1)), axis=1)


def all_orderings(n_documents: int) -> np.ndarray:
    """Every permutation (exact average marginal contribution; small n only)."""
    if n_documents > 8:
        raise ValueError("all orderings only for at most 8 documents")
    return np.array(list(itertools.permutations(range(n_documents))), dtype=np.int64).reshape(
        math.factorial(n_documents), n_documents
    )


def average_marginal_contributions(
    problem: ContributionProblem,
    orderings: np.ndarray,
    *,
    workers: int = 2,
    method: str = "earliest",
    progress: ProgressFn | None = None,
) -> np.ndarray:
    """Mean over orderings of each document's marginal contribution, shape (n_documents, K).

    ``method`` is "earliest" (vectorised) or "prefix" (memoised prefix states); both are
    exact. Orderings are cut into fixed blocks of ``CHUNK`` whose sums are added in block
    order, so the result is identical for any number of ``workers``.
    """
    chunk_sums = {"earliest": _chunk_sums_earliest, "prefix": _chunk_sums}[method]
    n = len(problem.documents)
    if n == 0 or len(orderings) == 0:
        return np.zeros((n, len(problem.columns)))
    blocks = [orderings[i : i + CHUNK] for i in range(0, len(orderings), CHUNK)]
    results: list[np.ndarray] = []
    if workers > 1 and len(blocks) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for i, r in enumerate(pool.map(chunk_sums, itertools.repeat(problem), blocks)):
                results.append(r)
                if progress:
                    progress(i + 1, len(blocks))
    else:
        for i, b in enumerate(blocks):
            results.append(chunk_sums(problem, b))
            if progress:
                progress(i + 1, len(blocks))
    total = np.zeros_like(results[0])
    for r in results:
        total += r
    return total / len(orderings)


@dataclass(frozen=True)
class ContributionResult:
    """Leave-one-out and average marginal contributions of every source document."""

    documents: list[str]
    columns: list[str]
    full: np.ndarray
    leave_one_out: np.ndarray
    marginal: np.ndarray
    n_orderings: int
    seed: int

    def table(self) -> pd.DataFrame:
        """Long table: document, risk, measure, M(G), Δ_s(M), average marginal contribution."""
        rows = []
        for i, doc in enumerate(self.documents):
            for j, col in enumerate(self.columns):
                risk, measure = col.split(":")
                rows.append(
                    {
                        "document": doc,
                        "risk": risk,
                        "measure": measure,
                        "full_graph": self.full[j],
                        "leave_one_out": self.leave_one_out[i, j],
                        "average_marginal": self.marginal[i, j],
                    }
                )
        return pd.DataFrame(rows)


def source_contribution(
    benchmark: Benchmark,
    documents: Mapping[str, set[RelationKey]],
    *,
    n_orderings: int = 50_000,
    seed: int = 20241231,
    max_len: int = 5,
    workers: int = 2,
    progress: ProgressFn | None = None,
) -> ContributionResult:
    """Δ_s(M) and average marginal contributions over seeded random orderings, per document."""
    problem = contribution_problem(benchmark, documents, max_len=max_len)
    full, delta = leave_one_out(problem)
    orderings = random_orderings(len(problem.documents), n_orderings, seed)
    marginal = average_marginal_contributions(problem, orderings, workers=workers, progress=progress)
    return ContributionResult(
        documents=list(problem.documents),
        columns=problem.columns,
        full=full,
        leave_one_out=delta,
        marginal=marginal,
        n_orderings=n_orderings,
        seed=seed,
    )
