"""Source layer throughput: PDF ingest pages/s and hybrid-retrieval query latency.

Ingest runs over the real PDFs in ``../shared/data/docs`` (quick: the two shortest).
Query latency is measured on an index of at least 5,000 passages: the real passages
ingested, topped up with passages re-assembled (seeded) from their sentences.
"""

from __future__ import annotations

import re
import resource
import tempfile
import time
from pathlib import Path

import numpy as np

from aieco.benchmarks import Figure
from aieco.config import get_settings
from aieco.errors import InputError
from aieco.records import SourceLocation
from aieco.retrieval import HybridIndex
from aieco.sources.pdf import parse_pdf
from aieco.sources.registry import ingest
from aieco.store import Store

SHARED_DOCS = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "docs"
BIS_PDF = "bis-quarterly-review-2024.pdf"
MIN_PASSAGES = 5_000
QUERIES = (
    "house prices financing costs",
    "tariffs trade volumes real GDP",
    "market liquidity volatility",
    "bank funding costs lending standards",
    "long-term interest rates mortgage rates",
    "energy prices inflation",
    "credit losses CET1 ratio",
    "unemployment adverse scenario",
    "equity prices geopolitical risk",
    "policy rate inflation expectations",
    "commercial real estate exposures",
    "sovereign bond yields spreads",
)


def run(quick: bool = False) -> list[Figure]:
    pdfs = sorted(SHARED_DOCS.resolve().glob("*.pdf"), key=lambda p: p.stat().st_size) if SHARED_DOCS.exists() else []
    if not pdfs:
        raise InputError(f"no PDFs in {SHARED_DOCS}", fix="the sources benchmark needs ../shared/data/docs")
    if quick:
        pdfs = pdfs[:2]
    with tempfile.TemporaryDirectory() as tmp:
        manifest = Path(tmp) / "manifest.toml"
        manifest.write_text(
            "".join(
                f'[[source]]\npath = "{p}"\ntitle = "{p.stem}"\npublisher = "bench"\npublication_date = 2024-01-01\n'
                f'role = "generation"\n\n'
                for p in pdfs
            )
        )
        with Store(Path(tmp) / "ws") as store:
            t0, c0 = time.perf_counter(), _cpu_seconds()  # not measure(): tracemalloc slows the parser
            report = ingest(store, manifest, allow_outside=[SHARED_DOCS.resolve()])
            ingest_s, ingest_cpu_s = time.perf_counter() - t0, _cpu_seconds() - c0
            if not report.ok:
                raise InputError(f"benchmark ingest failed: {[f.reason for f in report.failures]}")
            pages = sum(f.pages for f in report.files)
            passages = [loc.text for loc in store.find(SourceLocation, kind="passage") if loc.text.strip()]
    bis = _bis_figures(quick)
    texts = top_up(passages, MIN_PASSAGES, np.random.default_rng(20241231))
    ids = [f"p{i:06d}" for i in range(len(texts))]
    r = get_settings().retrieval
    t0 = time.perf_counter()
    index = HybridIndex.build("bench", ids, texts, r.lsa_components)
    build_s = time.perf_counter() - t0
    latencies = []
    for _ in range(3 if quick else 10):
        for q in QUERIES:
            t0 = time.perf_counter()
            index.rank(q, candidates=r.candidates_per_ranker, top_k=r.top_k, rrf_k=r.rrf_k)
            latencies.append((time.perf_counter() - t0) * 1000)
    return [
        *bis,
        Figure(name="ingest_pdf_pages_per_s", value=pages / ingest_s, unit="pages/s", target=10, better="higher"),
        # CPU-time throughput (all processes): what free cores would achieve when the machine is busy
        Figure(name="ingest_pdf_pages_per_cpu_s", value=pages / ingest_cpu_s, unit="pages/CPU-s", better="higher"),
        Figure(name="ingest_pdf_pages", value=pages, unit="pages", better="higher"),
        Figure(name="index_passages", value=len(texts), unit="passages", better="higher"),
        Figure(name="index_build_s", value=build_s, unit="s"),
        Figure(name="query_latency_p50_ms", value=float(np.percentile(latencies, 50)), unit="ms"),
        Figure(name="query_latency_p95_ms", value=float(np.percentile(latencies, 95)), unit="ms", target=50),
    ]


def _bis_figures(quick: bool, peer_pages: int | None = None) -> list[Figure]:
    """Ingest of bis-quarterly-review-2024.pdf (processes, as ``aieco sources ingest``) against plain
    pdfplumber text extraction of the same pages in one process (quick: the peer reads 15 pages;
    ``peer_pages`` caps the pages the peer reads, its rate is per page). Also the PDF parser's own
    CPU throughput (one process, the whole file), apart from worker start-up and store writes."""
    import pdfplumber

    path = (SHARED_DOCS / BIS_PDF).resolve()
    if not path.exists():
        return []
    with tempfile.TemporaryDirectory() as tmp:
        manifest = Path(tmp) / "manifest.toml"
        manifest.write_text(
            f'[[source]]\npath = "{path}"\ntitle = "bench"\npublisher = "bench"\n'
            'publication_date = 2024-01-01\nrole = "generation"\n'
        )
        with Store(Path(tmp) / "ws") as store:
            t0, c0 = time.perf_counter(), _cpu_seconds()
            report = ingest(store, manifest, allow_outside=[SHARED_DOCS.resolve()])
            seconds, cpu = time.perf_counter() - t0, _cpu_seconds() - c0
    if not report.ok:
        raise InputError(f"benchmark ingest failed: {[f.reason for f in report.failures]}")
    pages = report.files[0].pages
    peer_pages = min(pages, peer_pages or (15 if quick else pages))
    settings = get_settings().sources
    c0 = time.process_time()  # the parser alone: one process, no worker start-up, no store writes
    parse_pdf(path, "bench", parser_version=settings.pdf_parser_version, max_passage_chars=settings.max_passage_chars)
    parse_cpu = time.process_time() - c0
    t0, c0 = time.perf_counter(), _cpu_seconds()
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages[:peer_pages]:
            page.extract_text()
            page.close()
    peer_rate, peer_cpu_rate = (peer_pages / (time.perf_counter() - t0), peer_pages / (_cpu_seconds() - c0))
    return [
        Figure(name="ingest_bis_pages_per_s", value=pages / seconds, unit="pages/s", target=50, better="higher"),
        Figure(name="ingest_bis_pages_per_cpu_s", value=pages / cpu, unit="pages/CPU-s", better="higher"),
        Figure(name="parse_bis_pages_per_cpu_s", value=pages / parse_cpu, unit="pages/CPU-s", better="higher"),
        Figure(name="pdfplumber_text_peer_bis_pages_per_s", value=peer_rate, unit="pages/s", better="higher"),
        Figure(
            name="pdfplumber_text_peer_bis_pages_per_cpu_s", value=peer_cpu_rate, unit="pages/CPU-s", better="higher"
        ),
        Figure(
            name="ingest_bis_over_pdfplumber_peer_speed",
            value=(pages / seconds) / peer_rate,
            unit="x",
            better="higher",
            target=1.0,
        ),
    ]


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the ingest worker processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def top_up(passages: list[str], n: int, rng: np.random.Generator) -> list[str]:
    """The real passages plus passages of 2–6 real sentences drawn at random, until there are ``n``."""
    sentences = [s for p in passages for s in re.split(r"(?<=[.!?])\s+", " ".join(p.split())) if len(s) > 20]
    out = list(passages)
    while len(out) < n and sentences:
        k = int(rng.integers(2, 7))
        out.append(" ".join(sentences[i] for i in rng.integers(0, len(sentences), size=k)))
    return out
