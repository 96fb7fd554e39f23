"""Relation and path measures against the benchmark (appendix "Evaluation Measures").

Pure functions over signed relation keys ``(src, dst, sign)``: no store, no graph
library. A path is an ordered list of keys; a graph, for these measures, is the set of
distinct signed relations it contains.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from aieco.evaluation.benchmark import Benchmark, BenchmarkChannel, RelationKey

PATH_MEASURES = ("ordered_precision", "ordered_recall", "relation_precision", "relation_recall", "exact")

#: Column order of the per-channel and per-risk tables.
MEASURE_COLUMNS = (
    "candidate_pair_coverage",
    "relation_coverage",
    "benchmark_match_fraction",
    "endpoint_path_availability",
    "complete_sequence_presence",
    "exact_selected_path_recovery",
    "selected_ordered_precision",
    "selected_ordered_recall",
    "first_ranked_ordered_recall",
    "top5_best_ordered_recall",
    "all_paths_best_ordered_recall",
    "top5_best_ordered_precision",
    "all_paths_best_ordered_precision",
)


def lcs_length(g: Sequence[RelationKey], p: Sequence[RelationKey]) -> int:
    """Length of the longest common subsequence of two relation sequences.

    Parameters
    ----------
    g, p : sequences of hashable relation keys, lengths m and n.

    Returns
    -------
    int
        LCS(g, p), computed by the O(m·n) dynamic programme.
    """
    if not g or not p:
        return 0
    prev = [0] * (len(p) + 1)
    for a in g:
        cur = [0]
        for j, b in enumerate(p, start=1):
            cur.append(prev[j - 1] + 1 if a == b else max(prev[j], cur[j - 1]))
        prev = cur
    return prev[-1]


def ordered_scores(g: Sequence[RelationKey], p: Sequence[RelationKey] | None) -> tuple[float, float]:
    """Ordered precision LCS/n and recall LCS/m (Eq. orderedrecall); zero when p is absent.

    Parameters
    ----------
    g : benchmark variant (g_1 … g_m), m ≥ 1.
    p : predicted path (p_1 … p_n), or None / empty when no path was predicted.

    Returns
    -------
    (precision, recall) : floats in [0, 1].
    """
    if not p:
        return 0.0, 0.0
    k = lcs_length(g, p)
    return k / len(p), k / len(g)


def relation_overlap(g: Sequence[RelationKey], p: Sequence[RelationKey] | None) -> tuple[float, float]:
    """Relation precision and recall of a path by multiset overlap (order ignored); zero when absent."""
    if not p:
        return 0.0, 0.0
    common = sum((Counter(g) & Counter(p)).values())
    return common / len(p), common / len(g)


@dataclass(frozen=True)
class PathScore:
    """Scores of one predicted path against a channel: best over its accepted variants."""

    ordered_precision: float = 0.0
    ordered_recall: float = 0.0
    relation_precision: float = 0.0
    relation_recall: float = 0.0
    exact: float = 0.0

    def best(self, other: PathScore) -> PathScore:
        """Measure-wise maximum (best attainable in a candidate set)."""
        return PathScore(*(max(getattr(self, m), getattr(other, m)) for m in PATH_MEASURES))


def channel_score(variants: Sequence[Sequence[RelationKey]], p: Sequence[RelationKey] | None) -> PathScore:
    """The channel score: for each measure the best over the accepted variants (§5.2)."""
    out = PathScore()
    for g in variants:
        op, orc = ordered_scores(g, p)
        rp, rr = relation_overlap(g, p)
        # Exact completion: equality of the complete signed ordered sequence.
        exact = float(p is not None and list(p) == list(g))
        out = out.best(PathScore(op, orc, rp, rr, exact))
    return out


def best_attainable(variants: Sequence[Sequence[RelationKey]], paths: Iterable[Sequence[RelationKey]]) -> PathScore:
    """Best score attainable in a candidate set of paths (all enumerated, or the top 5)."""
    out = PathScore()
    for p in paths:
        out = out.best(channel_score(variants, p))
    return out


def relation_coverage(benchmark: set[RelationKey], graph: set[RelationKey]) -> float:
    """Share of distinct benchmark relations whose ordered endpoints and sign are in the graph."""
    return len(benchmark & graph) / len(benchmark) if benchmark else 0.0


def benchmark_match_fraction(graph: set[RelationKey], benchmark: set[RelationKey]) -> float:
    """Matching distinct relations over distinct extracted signed relations (not a precision)."""
    return len(graph & benchmark) / len(graph) if graph else 0.0


def candidate_pair_coverage(benchmark: set[RelationKey], passage_variables: Iterable[set[str]]) -> float:
    """Share of benchmark relations whose two variables occur together in one eligible passage.

    An upper bound for a sentence-level candidate screen, not evidence of a sign.
    """
    if not benchmark:
        return 0.0
    pairs = {frozenset((s, d)) for s, d, _ in benchmark}
    found: set[frozenset[str]] = set()
    for vs in passage_variables:
        if len(vs) >= 2:
            found |= {pr for pr in pairs - found if pr <= vs}
    return sum(frozenset((s, d)) in found for s, d, _ in benchmark) / len(benchmark)


def endpoint_path_available(graph: Iterable[RelationKey], source: str, target: str, max_len: int) -> bool:
    """Whether a directed path of at most ``max_len`` relations connects the endpoints.

    A shortest walk never repeats a variable, so breadth-first distance decides whether an
    admissible (simple) path exists; with source == target it finds the shortest return.
    """
    adj: dict[str, set[str]] = {}
    for s, d, _ in graph:
        adj.setdefault(s, set()).add(d)
    frontier, depth, seen = deque([source]), 0, {source}
    while frontier and depth < max_len:
        depth += 1
        for _ in range(len(frontier)):
            for nxt in adj.get(frontier.popleft(), ()):
                if nxt == target:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
    return False


def complete_sequence_present(variants: Sequence[Sequence[RelationKey]], graph: set[RelationKey]) -> bool:
    """Whether every relation of at least one accepted variant is in the graph."""
    return any(set(g) <= graph for g in variants)


@dataclass(frozen=True)
class ChannelPrediction:
    """What retrieval produced for one benchmark channel."""

    all_paths: list[list[RelationKey]] = field(default_factory=list)
    top_paths: list[list[RelationKey]] = field(default_factory=list)
    first_ranked: list[RelationKey] | None = None
    selected: list[RelationKey] | None = None


def score_channel(
    benchmark: Benchmark,
    channel: BenchmarkChannel,
    graph: set[RelationKey],
    prediction: ChannelPrediction,
    max_len: int,
) -> dict[str, float]:
    """Path measures of one channel (relation-level measures are per risk)."""
    variants = benchmark.variant_keys(channel)
    sel = channel_score(variants, prediction.selected)
    top = best_attainable(variants, prediction.top_paths)
    every = best_attainable(variants, prediction.all_paths)
    return {
        "endpoint_path_availability": float(endpoint_path_available(graph, channel.source, channel.target, max_len)),
        "complete_sequence_presence": float(complete_sequence_present(variants, graph)),
        "exact_selected_path_recovery": sel.exact,
        "selected_ordered_precision": sel.ordered_precision,
        "selected_ordered_recall": sel.ordered_recall,
        "first_ranked_ordered_recall": channel_score(variants, prediction.first_ranked).ordered_recall,
        "top5_best_ordered_recall": top.ordered_recall,
        "all_paths_best_ordered_recall": every.ordered_recall,
        "top5_best_ordered_precision": top.ordered_precision,
        "all_paths_best_ordered_precision": every.ordered_precision,
    }


@dataclass(frozen=True)
class MeasureTables:
    """Per-channel and per-risk measure tables, with the descriptive mean over risks."""

    channels: pd.DataFrame
    risks: pd.DataFrame

    @property
    def mean(self) -> pd.Series:
        return self.risks.drop(index="mean", errors="ignore").mean(numeric_only=True)


def score_benchmark(
    benchmark: Benchmark,
    graph: set[RelationKey],
    predictions: Mapping[str, ChannelPrediction],
    passage_variables: Sequence[set[str]] | None = None,
    max_len: int = 5,
) -> MeasureTables:
    """Every measure per channel and per initiating risk, plus a descriptive mean row.

    Parameters
    ----------
    benchmark : the validated benchmark.
    graph : distinct signed relations of the evaluated graph (accepted, '+'/'-').
    predictions : channel id -> paths retrieved for it (missing = nothing retrieved).
    passage_variables : vocabulary variables found in each eligible passage; None when
        candidate-pair coverage cannot be computed (reported as NaN).
    max_len : most relations in an admissible path.
    """
    rows = []
    for c in benchmark.channels:
        row = {"risk": c.risk, "channel": c.id}
        row |= score_channel(benchmark, c, graph, predictions.get(c.id, ChannelPrediction()), max_len)
        rows.append(row)
    channels = pd.DataFrame(rows).set_index("channel")
    risk_rows = []
    for risk in benchmark.risks:
        keys = benchmark.relation_keys(risk)
        mean = channels[channels["risk"] == risk].drop(columns="risk").mean()
        risk_rows.append(
            {
                "risk": risk,
                "candidate_pair_coverage": (
                    candidate_pair_coverage(keys, passage_variables) if passage_variables is not None else float("nan")
                ),
                "relation_coverage": relation_coverage(keys, graph),
                "benchmark_match_fraction": benchmark_match_fraction(graph, keys),
                **mean.to_dict(),
            }
        )
    risks = pd.DataFrame(risk_rows).set_index("risk")[list(MEASURE_COLUMNS)]
    # The primary unit is the initiating risk: the mean is descriptive, over risks.
    risks.loc["mean"] = risks.mean(numeric_only=True)
    return MeasureTables(channels=channels, risks=risks)
