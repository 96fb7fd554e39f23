"""The real default workspace: what the README's first command opens.

``build_default(workspace, progress)`` builds it from the package alone — no ``../shared`` —
from real inputs only, each shipped with a provenance file:

* corpus (``corpus/``, PROVENANCE.md and one provenance file per ECB page): the ESRB adverse
  macro-financial scenario for the 2018 EU-wide stress test (published 2018-01-16), brief verbatim
  excerpts of the BIS Quarterly Review, March 2024, and the opening paragraphs of ECB publication
  pages of 2020–2024 (``tools/default_corpus.py --pages``); ingested with their publication dates,
  relations read by the offline extractor (graph condition G0);
* macro series (``aieco/data/real``, one PROVENANCE file per extract): euro-area real GDP
  (real-time vintages), HICP, unemployment, the 10-year yield, BIS residential property prices
  and the EURO STOXX 50, stored as ObservedValues with provenance ``real``, release dates and
  the rule that gave them;
* official projections (``aieco/data/official``, PROVENANCE file): Eurosystem/ECB staff
  projections and ECB SPF rounds, each value with its publication date and source quote,
  stored as baseline ``modelled`` ObservedValues (evidence about the outlook, never history);
* banks (``aieco/models/bank/eba_data``, PROVENANCE.md per exercise): the EBA 2016 and 2021
  EU-wide stress-test extracts, bank by bank.

``run_default(store)`` runs ``requests/euro_area_2024.toml``: cutoff 2024-12-31, euro area,
horizon 2025–2027, the paper's three risks. A part the real inputs cannot support stops with
its recorded reason; nothing falls back to the synthetic demo (``aieco demo``), which stays a
fast test fixture. Every step is idempotent: a second build changes no id.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from aieco.store import Store

HERE = Path(__file__).parent
CORPUS_MANIFEST = HERE / "corpus" / "sources.toml"
DEFAULT_REQUEST = HERE / "requests" / "euro_area_2024.toml"

Step = Callable[[str], None]


def build_default(workspace: str | Path | Store, progress: Step | None = None) -> dict[str, Any]:
    """Real corpus → ingest → graph (G0) → real macro series → real EBA bank data; returns the counts."""
    store = workspace if isinstance(workspace, Store) else Store(workspace)
    # one build of a workspace at a time (the dashboard's first launch racing `aieco default`):
    # the second waits, then finds every step done (each is idempotent)
    with store.run_lock("default-build", on_wait=progress and (lambda: progress("waiting for another build"))):
        return _build_default(store, progress)


def _build_default(store: Store, progress: Step | None) -> dict[str, Any]:
    from aieco.errors import InputError
    from aieco.evaluation.conditions import build_condition
    from aieco.records import SourceLocation
    from aieco.sources.registry import ingest

    say = progress or (lambda _m: None)
    say("ingesting the real corpus: ESRB 2018 adverse scenario, BIS Quarterly Review excerpts, ECB publication pages")
    report = ingest(store, CORPUS_MANIFEST)
    if not report.ok:
        raise InputError(f"the default corpus did not ingest cleanly: {report.failures}", where=str(CORPUS_MANIFEST))
    say("extracting relations from the real documents (offline reader) and building the G0 graph")
    graph = build_condition(store, "G0", store.find(SourceLocation, kind="passage")).model_dump(mode="json")
    say("loading the real euro-area series (ECB, Eurostat, BIS) with their release dates")
    observations = load_real_macro(store)
    say("loading the official euro-area projections (Eurosystem/ECB staff, ECB SPF) as dated evidence")
    official = load_official_projections(store)
    say("loading the real EBA 2016 and 2021 stress-test bank data")
    bank = load_real_banks(store)
    return {
        "manifest": str(CORPUS_MANIFEST),
        "ingest": report.counts,
        "graph": graph,
        "observations": observations,
        "official_projections": official,
        "bank_values": bank,
    }


def load_real_macro(store: Store) -> int:
    """Store the real series shipped in ``aieco/data/real`` (provenance real); how many were new."""
    from aieco.sources.series.pack import load_real_pack

    return load_real_pack(store)


def load_official_projections(store: Store) -> int:
    """Store the shipped official projections (``aieco/data/official``; scenario baseline, status
    modelled, released on their publication dates); how many were new."""
    from aieco.sources.official import load_official

    return load_official(store)


def load_real_banks(store: Store) -> int:
    """Store the bundled real EBA stress-test extracts (provenance real); how many were new."""
    from aieco.models.bank.eba_application import import_eba_exercises

    return import_eba_exercises(store)


def run_default(store: Store, *, backend: str = "offline", progress: Any = None) -> Any:
    """Run the default request on the workspace ``build_default`` wrote."""
    from aieco.analysis.pipeline import analyze
    from aieco.request import load_request

    return analyze(store, load_request(DEFAULT_REQUEST), backend=backend, progress=progress)
