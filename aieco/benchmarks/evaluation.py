"""Source contribution over 50,000 random orderings (paper §5.2), target ≤ 60 s.

The primary figure uses the demo workspace's G0 graph (built from nothing in a temporary
folder: corpus, ingest, extraction). A second figure stresses a larger synthetic graph:
the demo benchmark's relations the corpus states, spread over documents (some in two),
plus random signed noise relations among the demo's vocabulary ids. Names say which.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from aieco.benchmarks import Figure, measure
from aieco.evaluation.benchmark import RelationKey, demo_benchmark_path, load_benchmark
from aieco.evaluation.contribution import source_contribution

VARIABLES = (
    "tariffs",
    "trade_volumes",
    "import_prices",
    "geopolitical_risk",
    "uncertainty",
    "volatility",
    "equity_prices",
    "real_gdp",
    "unemployment",
    "inflation",
    "long_term_rate",
    "mortgage_rates",
    "house_prices",
    "household_wealth",
    "consumption",
    "credit_losses",
    "market_liquidity",
    "fire_sales",
    "bank_funding_costs",
    "lending_standards",
    "policy_rate",
    "energy_prices",
    "cet1_ratio",
)
#: Benchmark relations the demo corpus does not state (docs/demo-channels.md).
NOT_IN_CORPUS = {"b13", "b14", "b17", "b18", "b19", "b20"}


def synthetic_documents(n_documents: int, seed: int = 0) -> dict[str, set[RelationKey]]:
    """Benchmark relations over the first half of the documents, noise relations in all."""
    bench = load_benchmark(demo_benchmark_path())
    rng = np.random.default_rng(seed)
    docs: dict[str, set[RelationKey]] = {f"doc{i:02d}": set() for i in range(n_documents)}
    names = sorted(docs)
    stated = [r.key for rid, r in sorted(bench.relations.items()) if rid not in NOT_IN_CORPUS]
    stated += [
        ("market_liquidity", "volatility", "-"),
        ("volatility", "equity_prices", "+"),
        ("market_liquidity", "long_term_rate", "+"),
    ]
    for key in stated:
        for d in rng.choice(names[: max(1, n_documents // 2)], size=rng.integers(1, 3), replace=False):
            docs[str(d)].add(key)
    for d in names:
        for _ in range(rng.integers(3, 7)):
            s, t = rng.choice(len(VARIABLES), size=2, replace=False)
            docs[d].add((VARIABLES[s], VARIABLES[t], "+" if rng.random() < 0.5 else "-"))
    return docs


def demo_documents() -> dict[str, set[RelationKey]]:
    """Signed relations per source document of the demo's as-of G0 graph (built in a temporary folder)."""
    from aieco.config import get_settings
    from aieco.demo import build_demo
    from aieco.evaluation.run import evaluated_relations, relation_key
    from aieco.store import Store

    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "ws") as store:
        build_demo(store)
        docs: dict[str, set[RelationKey]] = {}
        for r in evaluated_relations(store, "G0", get_settings().scenario.cutoff):
            if r.sign.value in ("+", "-"):
                docs.setdefault(r.source_id, set()).add(relation_key(r))
    return docs


def run(quick: bool = False) -> list[Figure]:
    bench = load_benchmark(demo_benchmark_path())
    n_orderings = 5_000 if quick else 50_000
    graphs = {"demo_graph_{n}_docs": demo_documents(), "synthetic_{n}_docs": synthetic_documents(20)}
    figures = []
    for label, docs in graphs.items():
        with measure() as m:
            source_contribution(bench, docs, n_orderings=n_orderings, seed=20241231, workers=2)
        figures.append(
            Figure(
                name=f"contribution_{n_orderings}_orderings_{label.format(n=len(docs))}",
                value=m["seconds"],
                unit="s",
                target=60.0,
            )
        )
    return figures
