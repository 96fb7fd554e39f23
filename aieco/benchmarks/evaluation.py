"""Source contribution over 50,000 random orderings (paper §5.2), target ≤ 60 s.

Until the demo workspace's graph is available, the graph is synthetic but of the demo's
size: the demo benchmark's relations that the demo corpus states, spread over documents
(some in two), plus noise documents of random signed relations among the demo's
vocabulary ids. The figure names say so.
"""

from __future__ import annotations

import numpy as np

from aieco.benchmarks import Figure, measure
from aieco.evaluation.benchmark import RelationKey, demo_benchmark_path, load_benchmark
from aieco.evaluation.contribution import source_contribution

VARIABLES = ("tariffs", "trade_volumes", "import_prices", "geopolitical_risk", "uncertainty", "volatility",
             "equity_prices", "real_gdp", "unemployment", "inflation", "long_term_rate", "mortgage_rates",
             "house_prices", "household_wealth", "consumption", "credit_losses", "market_liquidity", "fire_sales",
             "bank_funding_costs", "lending_standards", "policy_rate", "energy_prices", "cet1_ratio")
#: Benchmark relations the demo corpus does not state (docs/demo-channels.md).
NOT_IN_CORPUS = {"b13", "b14", "b17", "b18", "b19", "b20"}


def synthetic_documents(n_documents: int, seed: int = 0) -> dict[str, set[RelationKey]]:
    """Benchmark relations over the first half of the documents, noise relations in all."""
    bench = load_benchmark(demo_benchmark_path())
    rng = np.random.default_rng(seed)
    docs: dict[str, set[RelationKey]] = {f"doc{i:02d}": set() for i in range(n_documents)}
    names = sorted(docs)
    stated = [r.key for rid, r in sorted(bench.relations.items()) if rid not in NOT_IN_CORPUS]
    stated += [("market_liquidity", "volatility", "-"), ("volatility", "equity_prices", "+"),
               ("market_liquidity", "long_term_rate", "+")]
    for key in stated:
        for d in rng.choice(names[: max(1, n_documents // 2)], size=rng.integers(1, 3), replace=False):
            docs[str(d)].add(key)
    for d in names:
        for _ in range(rng.integers(3, 7)):
            s, t = rng.choice(len(VARIABLES), size=2, replace=False)
            docs[d].add((VARIABLES[s], VARIABLES[t], "+" if rng.random() < 0.5 else "-"))
    return docs


def run(quick: bool = False) -> list[Figure]:
    bench = load_benchmark(demo_benchmark_path())
    n_orderings = 5_000 if quick else 50_000
    figures = []
    for n_docs in (16, 20):
        docs = synthetic_documents(n_docs)
        with measure() as m:
            source_contribution(bench, docs, n_orderings=n_orderings, seed=20241231, workers=2)
        figures.append(Figure(name=f"contribution_{n_orderings}_orderings_synthetic_{n_docs}_docs",
                              value=m["seconds"], unit="s", target=60.0))
    return figures
