"""`evaluate` on the demo workspace's G0 graph against the demo benchmark."""

from __future__ import annotations

import pytest

from aieco.demo import build_demo
from aieco.evaluation.run import evaluate


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory):
    from aieco.store import Store

    store = Store(tmp_path_factory.mktemp("demo") / "ws")
    build_demo(store)
    yield store
    store.close()


def test_demo_benchmark_measures_are_informative(demo_store):
    res = evaluate(demo_store, n_orderings=2_000, workers=1)
    r = res.measures.risks
    # The corpus states every benchmark relation except b13, b14 (trade) and b17, b18 (property);
    # for market illiquidity it states liquidity -> volatility (-) and volatility -> equity (-, trade
    # passages) but not liquidity -> long-term rate with the benchmark's sign.
    assert r.loc["trade_fragmentation", "relation_coverage"] == pytest.approx(8 / 10)
    assert r.loc["property_correction", "relation_coverage"] == pytest.approx(7 / 9)
    assert r.loc["market_illiquidity", "relation_coverage"] == pytest.approx(2 / 3)
    assert 0 < r.loc["mean", "benchmark_match_fraction"] < 1
    assert r["candidate_pair_coverage"].notna().all()
    c = res.measures.channels
    assert c.loc["mi2", "complete_sequence_presence"] == 0.0 and c.loc["mi2", "all_paths_best_ordered_recall"] == 0.0
    assert c.loc["tf1", "all_paths_best_ordered_recall"] == 1.0
    # Without analyses nothing was selected: selected-path measures are zero, not missing.
    assert (c["exact_selected_path_recovery"] == 0).all()
    assert res.contribution is not None and len(res.contribution.documents) >= 3
