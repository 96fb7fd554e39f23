"""Knowledge graph: relation build time (demo and shared corpora) and path enumeration speed.

Enumeration is timed on a synthetic relation table of at least 2,000 relations over the
vocabulary's variables (seeded), five channel queries, target ≤ 50 ms for the slowest; the peer
is networkx listing the same queries' simple paths. Relation build is also timed on 1×…16× the
demo corpus (log-log slope against requests, and the 16× build with the re-reading ``spent()``).
"""

from __future__ import annotations

import itertools
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import networkx as nx
import numpy as np

from aieco.benchmarks import Figure
from aieco.config import get_settings
from aieco.extraction.build import build_relations
from aieco.graph.build import relation_graph
from aieco.graph.paths import enumerate_paths
from aieco.llm.base import LLMClient, OfflineBackend
from aieco.records import LLMCall, Relation, Source, SourceLocation, sha256_hex, utc_now
from aieco.scenario.channels import demo_channel_queries
from aieco.store import Store
from aieco.vocab import load_vocabulary

SHARED_DOCS = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "docs"


def synthetic_relations(n: int, pairs: int, seed: int = 0) -> list[Relation]:
    """``n`` relations on ``pairs`` distinct variable pairs of the vocabulary, random signs and documents."""
    rng = np.random.default_rng(seed)
    ids = sorted(load_vocabulary().variables)
    all_pairs = list(itertools.permutations(ids, 2))
    chosen = [all_pairs[i] for i in rng.choice(len(all_pairs), size=pairs, replace=False)]
    out = []
    for k in range(n):
        u, v = chosen[int(rng.integers(pairs))]
        out.append(
            Relation.create(
                src_var=u,
                dst_var=v,
                sign="+" if rng.random() < 0.6 else "-",
                quote=f"synthetic {k}",
                location_id=f"loc_syn{k}",
                source_id=f"src_syn{int(rng.integers(60))}",
                publication_date=date(2024, 1, 1),
                confidence=float(rng.uniform(0.3, 0.95)),
                extractor="synthetic",
            )
        )
    return out


def _pdf_locations(store: Store, pages: int | None) -> int:
    import pdfplumber

    sources, locations = [], []
    for k, pdf_path in enumerate(sorted(SHARED_DOCS.glob("*.pdf"))):
        src = Source.create(
            path=str(pdf_path),
            sha256=f"{k:064d}",
            publisher="shared",
            title=pdf_path.stem,
            publication_date=date(2024, 1, 1),
            retrieved_at=utc_now(),
            role="generation",
            kind="pdf",
        )
        sources.append(src)
        with pdfplumber.open(pdf_path) as pdf:
            for page_no, page in enumerate(pdf.pages[:pages], start=1):
                locations.append(
                    SourceLocation.create(
                        source_id=src.source_id,
                        kind="passage",
                        page=page_no,
                        text=page.extract_text() or "",
                        parser_version="bench",
                    )
                )
    store.put_many(sources + locations)
    return len(locations)


def _demo_build(tmp: str) -> list[Figure]:
    try:  # the demo corpus and ingest belong to the sources area
        from aieco.demo.build import build_demo_sources
        from aieco.sources.registry import ingest
    except ImportError:
        return []
    store = Store(tmp + "/demo")
    ingest(store, build_demo_sources(Path(tmp) / "demo-src"))
    t0 = time.perf_counter()
    report = build_relations(store)
    seconds = time.perf_counter() - t0
    store.close()
    return [
        Figure(name="build_relations_demo_corpus", value=seconds, unit="s"),
        Figure(name="demo_relations_accepted", value=report.accepted, unit="relations", better="higher"),
    ]


def _replicated_corpus(store: Store, sources: list[Source], locations: list[SourceLocation], copies: int) -> int:
    """``copies`` copies of the corpus as distinct sources (new digests) and locations in ``store``."""
    out: list[Source | SourceLocation] = []
    for j in range(copies):
        new_id = {}
        for src in sources:
            fields = src.model_dump(exclude={"source_id"}) | {"sha256": sha256_hex(f"{src.sha256}-{j}")}
            copy = Source.create(**fields)
            new_id[src.source_id] = copy.source_id
            out.append(copy)
        out += [
            SourceLocation.create(**(loc.model_dump(exclude={"location_id"}) | {"source_id": new_id[loc.source_id]}))
            for loc in locations
        ]
    store.put_many(out)
    return sum(isinstance(r, SourceLocation) for r in out)


def _scaling(tmp: str, quick: bool) -> list[Figure]:
    """Relation build (screening, offline requests, validation, writes) on 1×…16× the demo corpus.

    The candidate cap is lifted so every copy is processed; the log-log slope of time against
    the number of requests is 1 for a linear build (it was 1.7 while ``spent()`` reloaded every call).
    """
    try:
        from aieco.demo.build import build_demo_sources
        from aieco.sources.registry import ingest
    except ImportError:
        return []
    base = Store(tmp + "/scaling-base")
    ingest(base, build_demo_sources(Path(tmp) / "scaling-src"))
    sources, locations = base.find(Source), base.find(SourceLocation)
    base.close()
    factors = (1, 4) if quick else (1, 2, 4, 8, 16)
    seconds, requests = [], []
    with _lifted_candidate_cap():
        for k in factors:
            with Store(f"{tmp}/scaling-{k}") as store:
                _replicated_corpus(store, sources, locations, k)
                t0 = time.perf_counter()
                report = build_relations(store)
                seconds.append(time.perf_counter() - t0)
                requests.append(report.requests)
        with Store(f"{tmp}/scaling-peer") as store:  # the largest corpus with the re-reading peer
            _replicated_corpus(store, sources, locations, factors[-1])
            peer = _ReloadingClient(store, OfflineBackend(), "knowledge-base-G0", budget=10**9)
            t0 = time.perf_counter()
            build_relations(store, client=peer)
            peer_s = time.perf_counter() - t0
    slope = float(np.polyfit(np.log(requests), np.log(seconds), 1)[0])
    return [
        Figure(name=f"build_relations_{factors[-1]}x_corpus_rereading_peer", value=peer_s, unit="s"),
        Figure(
            name=f"build_relations_{factors[-1]}x_corpus_over_peer", value=seconds[-1] / peer_s, unit="x", target=1.0
        ),
        Figure(
            name=f"build_relations_loglog_slope_{factors[0]}x_to_{factors[-1]}x_corpus",
            value=slope,
            unit="slope",
            target=1.1,
        ),
        Figure(name=f"build_relations_{factors[-1]}x_corpus", value=seconds[-1], unit="s"),
        Figure(
            name=f"build_relations_{factors[-1]}x_corpus_requests",
            value=float(requests[-1]),
            unit="requests",
            better="higher",
        ),
        Figure(
            name=f"build_relations_{factors[-1]}x_over_{factors[0]}x_time_ratio",
            value=seconds[-1] / seconds[0],
            unit="x",
        ),
    ]


def _pipeline_scaling(tmp: str, quick: bool) -> list[Figure]:
    """The whole demo pipeline (G0 graph build with the candidate cap lifted, data loads, the three
    risks' analyses) on 1×…16× the demo corpus: log-log slope of time against the corpus factor.

    One warm-up run at 1× first, so import and cache costs do not flatter the slope.
    """
    try:
        from aieco.demo import load_bank_data, load_macro_observations, run_demo
        from aieco.demo.build import build_demo_sources
        from aieco.evaluation.conditions import build_condition
        from aieco.sources.registry import ingest
    except ImportError:
        return []
    base = Store(tmp + "/pipeline-base")
    ingest(base, build_demo_sources(Path(tmp) / "pipeline-src"))
    sources, locations = base.find(Source), base.find(SourceLocation)
    base.close()
    factors = (1, 4) if quick else (1, 2, 4, 8, 16)
    seconds = []
    for run, k in enumerate((factors[0], *factors)):
        with Store(f"{tmp}/pipeline-{run}-{k}") as store:
            _replicated_corpus(store, sources, locations, k)
            t0 = time.perf_counter()
            with _lifted_candidate_cap():
                build_condition(store, "G0", store.find(SourceLocation, kind="passage"))
            load_macro_observations(store)
            load_bank_data(store)
            run_demo(store)
            if run:  # run 0 is the warm-up
                seconds.append(time.perf_counter() - t0)
    slope = float(np.polyfit(np.log(factors), np.log(seconds), 1)[0])
    return [
        Figure(
            name=f"pipeline_loglog_slope_{factors[0]}x_to_{factors[-1]}x_corpus", value=slope, unit="slope", target=1.1
        ),
        Figure(name=f"pipeline_{factors[-1]}x_corpus", value=seconds[-1], unit="s"),
        Figure(name=f"pipeline_{factors[0]}x_corpus", value=seconds[0], unit="s"),
    ]


@contextmanager
def _lifted_candidate_cap() -> Iterator[None]:
    """Run the block with the G0 candidate cap lifted (through the environment, as a user would)."""
    key = "AIECO_GRAPH__CANDIDATE_CAP"
    before = os.environ.get(key)
    os.environ[key] = str(10**9)
    get_settings.cache_clear()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = before
        get_settings.cache_clear()


class _ReloadingClient(LLMClient):
    """The peer: ``spent()`` re-reads every recorded call of the analysis before each request."""

    def spent(self) -> tuple[int, float]:
        calls = [
            c
            for c in self.store.find(LLMCall, analysis_id=self.analysis_id, backend=self.backend.name)
            if c.status != "budget_exceeded"
        ]
        return len(calls), sum(c.cost_usd for c in calls)


def run(quick: bool = False) -> list[Figure]:
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as tmp:
        figures += _demo_build(tmp)
        figures += _scaling(tmp, quick)
        if SHARED_DOCS.is_dir():
            store = Store(tmp + "/shared")
            _pdf_locations(store, 10 if quick else None)
            t0 = time.perf_counter()
            report = build_relations(store)
            figures += [
                Figure(name="build_relations_shared_pdfs", value=time.perf_counter() - t0, unit="s"),
                Figure(name="shared_pdf_candidates", value=report.candidates, unit="sentences", better="higher"),
                Figure(name="shared_pdf_relations_accepted", value=report.accepted, unit="relations", better="higher"),
            ]
            store.close()
    figures += path_figures(quick)
    return figures


def path_figures(quick: bool = False) -> list[Figure]:
    """Path enumeration on 2,000 synthetic relations: per query wall and CPU time, networkx as the peer."""
    relations = synthetic_relations(2_000, 300)
    graph = relation_graph(relations)
    queries = demo_channel_queries("trade_fragmentation") + demo_channel_queries("market_illiquidity")[:1]
    wall, cpu, peer = [], [], []
    simple = nx.DiGraph(graph)
    for q in queries[:5]:
        runs, cpu_runs, peer_runs = [], [], []
        for _ in range(3 if quick else 7):
            t0, c0 = time.perf_counter(), time.process_time()
            enumerate_paths(graph, q)
            runs.append(time.perf_counter() - t0)
            cpu_runs.append(time.process_time() - c0)
            # peer: networkx listing the simple paths of the pooled graph (no signs, scores or ranking)
            t0 = time.perf_counter()
            sum(1 for _ in nx.all_simple_paths(simple, q.source_var, q.target_var, cutoff=q.max_len))
            peer_runs.append(time.perf_counter() - t0)
        wall.append(float(np.median(runs)))
        cpu.append(float(np.median(cpu_runs)))
        peer.append(float(np.median(peer_runs)))
    # Wall time is the figure with the target; CPU time shows the share lost to a busy machine.
    return [
        Figure(
            name="enumerate_paths_per_query_2000_relations", value=1000 * float(np.mean(wall)), unit="ms", target=200.0
        ),
        Figure(name="enumerate_paths_slowest_query_2000_relations", value=1000 * max(wall), unit="ms", target=50.0),
        Figure(name="enumerate_paths_slowest_query_cpu_2000_relations", value=1000 * max(cpu), unit="ms", target=50.0),
        Figure(name="networkx_simple_paths_peer_slowest_query", value=1000 * max(peer), unit="ms"),
        Figure(name="enumerate_paths_over_networkx_peer", value=sum(wall) / sum(peer), unit="x"),
        Figure(
            name="enumerate_paths_per_query_cpu_2000_relations",
            value=1000 * float(np.mean(cpu)),
            unit="ms",
            target=200.0,
        ),
    ]
