"""`aieco search` on a 50,000-location workspace: a cold CLI process and warm in-process queries.

The workspace holds the passages and cells of the shared PDFs, registered again as distinct
sources (new digests) until there are 50,000 locations (quick: 10,000). The first search
builds and saves the index. Then:

* cold: ``python -m aieco search …`` in a new process (interpreter start and imports included),
  the median of three runs, and the same process running ``--version`` (start-up alone;
  ``--help`` imports every command module);
* warm: the same queries in this process through ``retrieval.search``;
* peer: the full path in this process (eligibility decided over every location, with an
  analysis id, index from memory), the path every query took before scopes were saved.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import numpy as np

from aieco.benchmarks import Figure
from aieco.errors import InputError
from aieco.records import Source, SourceLocation, sha256_hex
from aieco.retrieval import search
from aieco.sources.registry import ingest
from aieco.store import Store

SHARED_DOCS = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "docs"
QUERIES = (
    "house prices financing costs",
    "tariffs trade volumes real GDP",
    "bank funding costs lending standards",
    "energy prices inflation",
    "credit losses CET1 ratio",
    "sovereign bond yields spreads",
)
CUTOFF = date(2024, 12, 31)


def _workspace(folder: Path, target: int) -> int:
    pdfs = sorted(SHARED_DOCS.resolve().glob("*.pdf")) if SHARED_DOCS.exists() else []
    if not pdfs:
        raise InputError(f"no PDFs in {SHARED_DOCS}", fix="the search benchmark needs ../shared/data/docs")
    manifest = folder / "manifest.toml"
    manifest.write_text(
        "".join(
            f'[[source]]\npath = "{p}"\ntitle = "{p.stem}"\npublisher = "bench"\npublication_date = 2024-01-01\n'
            f'role = "generation"\n\n'
            for p in pdfs
        )
    )
    with Store(folder / "ws") as store:
        report = ingest(store, manifest, allow_outside=[SHARED_DOCS.resolve()])
        if not report.ok:
            raise InputError(f"benchmark ingest failed: {[f.reason for f in report.failures]}")
        sources, locations = store.find(Source), store.find(SourceLocation)
        copy = 0
        while store.count(SourceLocation) < target:
            copy += 1
            out: list[Source | SourceLocation] = []
            for src in sources:
                new = Source.create(
                    **(src.model_dump(exclude={"source_id"}) | {"sha256": sha256_hex(f"{src.sha256}-{copy}")})
                )
                out.append(new)
                out += [
                    SourceLocation.create(**(loc.model_dump(exclude={"location_id"}) | {"source_id": new.source_id}))
                    for loc in locations
                    if loc.source_id == src.source_id
                ]
            store.put_many(out)
        return store.count(SourceLocation)


def _cli(ws: Path, *args: str) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one ``python -m aieco`` process."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "aieco", "-w", str(ws), *args],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def run(quick: bool = False) -> list[Figure]:
    from aieco import retrieval

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        n = _workspace(folder, 10_000 if quick else 50_000)
        ws = folder / "ws"
        with Store(ws) as store:
            t0 = time.perf_counter()
            first = search(store, QUERIES[0], as_of=CUTOFF)  # builds and saves the index and the scope
            build_s = time.perf_counter() - t0
        retrieval._MEMORY.clear()
        cold = [_cli(ws, "search", q, "--as-of", CUTOFF.isoformat(), "--json") for q in QUERIES[:3]]
        startup = [_cli(ws, "--version") for _ in range(3)]
        warm, warm_cpu, peer = [], [], []
        with Store(ws) as store:
            search(store, QUERIES[0], as_of=CUTOFF)  # load once
            for _ in range(2 if quick else 5):
                for q in QUERIES:
                    t0, c0 = time.perf_counter(), time.process_time()
                    hits = search(store, q, as_of=CUTOFF)
                    warm.append(time.perf_counter() - t0)
                    warm_cpu.append(time.process_time() - c0)
                    if q == QUERIES[0]:
                        assert [h.location_id for h in hits] == [h.location_id for h in first]
            for q in QUERIES[: 2 if quick else 4]:
                t0 = time.perf_counter()
                full = search(store, q, as_of=CUTOFF, analysis_id="bench_search_peer")
                peer.append(time.perf_counter() - t0)
                assert [h.location_id for h in full] == [h.location_id for h in search(store, q, as_of=CUTOFF)]
    cold_s, warm_ms, peer_ms = (
        float(np.median([w for w, _ in cold])),
        1000 * float(np.median(warm)),
        1000 * float(np.median(peer)),
    )
    cold_cpu, startup_s = float(np.median([c for _, c in cold])), float(np.median([w for w, _ in startup]))
    return [
        Figure(name="search_workspace_locations", value=float(n), unit="locations", better="higher"),
        Figure(name="search_first_query_builds_index", value=build_s, unit="s"),
        Figure(name="cli_search_cold_process", value=cold_s, unit="s", target=1.0),
        Figure(name="cli_search_cold_process_cpu", value=cold_cpu, unit="CPU-s", target=1.0),
        Figure(name="cli_startup_version_cold_process", value=startup_s, unit="s"),
        Figure(
            name="cli_startup_version_cold_process_cpu", value=float(np.median([c for _, c in startup])), unit="CPU-s"
        ),
        Figure(name="cli_search_cold_minus_startup", value=cold_s - startup_s, unit="s"),
        Figure(name="search_warm_query", value=warm_ms, unit="ms", target=20.0),
        Figure(name="search_warm_query_cpu", value=1000 * float(np.median(warm_cpu)), unit="CPU-ms", target=20.0),
        Figure(name="search_full_eligibility_peer", value=peer_ms, unit="ms"),
        Figure(name="search_warm_over_full_peer", value=warm_ms / peer_ms, unit="x", target=1.0),
    ]
