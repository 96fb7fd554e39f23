"""Draw the hand-check sample of the offline reader on the default corpus (issue 29; docs/corpus-reader-check.md).

The population is every relation the default workspace's graph build stores (graph condition G0, accepted or
refused by validation): all of them come from the default corpus (ESRB, BIS excerpts, ECB pages). The sample
is ``numpy.random.default_rng(SEED).choice`` of ``min(K, population)`` positions in the relation ids sorted,
without replacement, listed sorted. With no workspace given, the corpus is ingested and read into a new one
(the graph part of ``aieco default``, no model run):

    PYTHONPATH=. python3 tools/reader_check_sample.py            # builds the corpus graph in a temporary folder
    PYTHONPATH=. python3 tools/reader_check_sample.py -w WS      # an `aieco default -w WS` workspace
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from aieco.records import Relation, Source, SourceLocation
from aieco.store import Store

SEED = 20241231
K = 40


def corpus_graph(store: Store) -> None:
    """Ingest the default corpus and build its G0 relations, as ``aieco default`` does."""
    from aieco.default import CORPUS_MANIFEST
    from aieco.evaluation.conditions import build_condition
    from aieco.sources.registry import ingest

    report = ingest(store, CORPUS_MANIFEST)
    if not report.ok:
        raise SystemExit(f"the default corpus did not ingest cleanly: {report.failures}")
    build_condition(store, "G0", store.find(SourceLocation, kind="passage"))


def draw_sample(store: Store, k: int = K, seed: int = SEED) -> list[Relation]:
    """The seeded sample of the stored G0 relations, sorted by id."""
    rels = {r.relation_id: r for r in store.find(Relation, graph_condition="G0")}
    ids = sorted(rels)
    picks = np.random.default_rng(seed).choice(len(ids), min(k, len(ids)), replace=False)
    return [rels[i] for i in sorted(ids[int(p)] for p in picks)]


def _print(store: Store) -> None:
    titles = {s.source_id: f"{s.publisher}: {s.title}" for s in store.all(Source)}
    sample = draw_sample(store)
    print(f"{len(sample)} of {store.count(Relation, graph_condition='G0')} relations (seed {SEED})")
    for r in sample:
        refused = f" [refused: {r.rejection_reason}]" if r.review_decision == "rejected" else ""
        print(f"{r.relation_id}  {r.src_var} {r.sign.value} {r.dst_var}  ({r.reader}){refused}")
        print(f"    {titles.get(r.source_id, r.source_id)}")
        print(f"    “{r.quote}”")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-w", "--workspace", type=Path, help="an existing default workspace (read only)")
    args = parser.parse_args()
    if args.workspace:
        with Store(args.workspace, read_only=True) as store:
            _print(store)
        return
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "ws") as store:
        corpus_graph(store)
        _print(store)


if __name__ == "__main__":
    main()
