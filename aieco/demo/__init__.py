"""The embedded demo: build a workspace from nothing and run its analysis request.

``build_demo(workspace, progress)`` writes the illustrative corpus (aieco.demo.build),
ingests it, builds the G0 knowledge graph and loads the synthetic macro dataset;
``run_demo(store)`` runs ``requests/euro_area_risks.toml`` — trade fragmentation,
property-market correction and market illiquidity — end to end. Every step is
idempotent: a second build finds everything in place and changes no id.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from aieco.store import Store

REQUESTS = Path(__file__).parent / "requests"
DEMO_REQUEST = REQUESTS / "euro_area_risks.toml"
REAL_REQUEST = REQUESTS / "euro_area_risks_real.toml"  # the same risks on the real series (vintage policy approximate)
CORPUS_DIR = "demo_corpus"

Step = Callable[[str], None]


def build_demo(
    workspace: str | Path | Store, progress: Step | None = None, *, macro: str = "synthetic"
) -> dict[str, Any]:
    """Corpus → ingest → graph (G0) → macro observations → bank data, in ``workspace``; returns the counts.

    ``macro``: ``synthetic`` (the shipped synthetic dataset), ``real`` (the real euro-area
    extracts shipped in ``aieco/data/real``, provenance real; analyse them with
    ``REAL_REQUEST``, whose vintage policy is approximate) or ``none`` (load series with
    ``aieco data add``). The bank data are the synthetic demo tables in every case.
    """
    from aieco.demo.build import build_demo_sources
    from aieco.evaluation.conditions import build_condition
    from aieco.records import SourceLocation
    from aieco.sources.registry import ingest

    say = progress or (lambda _m: None)
    store = workspace if isinstance(workspace, Store) else Store(workspace)
    say("writing the illustrative demo corpus")
    manifest = build_demo_sources(store.path / CORPUS_DIR)
    for written in sorted((store.path / CORPUS_DIR).rglob("*")):  # the audit checks every workspace file
        if written.is_file():
            store.record_file(written)
    say(f"ingesting {manifest}")
    report = ingest(store, manifest)
    if not report.ok:
        from aieco.errors import InputError

        raise InputError(f"the demo corpus did not ingest cleanly: {report.failures}", where=str(manifest))
    say("extracting relations and building the G0 graph")
    # recorded with the passages it read, so graph conditions can be compared on the same passages
    graph = build_condition(store, "G0", store.find(SourceLocation, kind="passage")).model_dump(mode="json")
    observations = 0
    if macro == "synthetic":
        say("loading the synthetic macro dataset")
        observations = load_macro_observations(store)
    elif macro == "real":
        from aieco.sources.series.pack import load_real_pack

        say("loading the real euro-area series shipped in aieco/data/real")
        observations = load_real_pack(store)
    elif macro != "none":
        from aieco.errors import InputError

        raise InputError(
            f"macro data {macro!r} is not one of synthetic, real, none",
            where="build_demo",
            fix="pass macro='synthetic', 'real' or 'none'",
        )
    say("loading the synthetic bank panel, country histories and validation exercise")
    bank = load_bank_data(store)
    return {
        "manifest": str(manifest),
        "ingest": report.counts,
        "graph": graph,
        "observations": observations,
        "bank_values": bank,
    }


def load_macro_observations(store: Store) -> int:
    """Store the shipped synthetic quarterly dataset (series keys SYNTHETIC.…) as ObservedValues."""
    from aieco.demo.macro import load_demo_observations
    from aieco.models.macro import store_observations

    return store_observations(store, load_demo_observations().assign(provenance="synthetic"))


def load_bank_data(store: Store) -> int:
    """Store the synthetic demo bank tables as ObservedValues (provenance synthetic); how many were new."""
    from aieco.demo.bank import demo_bank_records

    return store.put_many(demo_bank_records())


def run_demo(store: Store, *, backend: str = "offline", progress: Any = None, macro: str = "synthetic") -> Any:
    """Run the demo request (``REAL_REQUEST`` for real series); market illiquidity stops before any
    model call, as in the paper."""
    from aieco.analysis.pipeline import analyze
    from aieco.request import load_request

    request = REAL_REQUEST if macro == "real" else DEMO_REQUEST
    return analyze(store, load_request(request), backend=backend, progress=progress)
