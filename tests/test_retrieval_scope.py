"""`search` from a saved scope index (cold CLI path) ranks exactly as deciding eligibility afresh."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest

from aieco import retrieval
from aieco.records import Source, SourceLocation, sha256_hex, utc_now
from aieco.retrieval import HybridIndex, search
from aieco.store import Store

QUERIES = [
    "tariffs trade volumes",
    "house prices mortgage rates",
    "bank funding costs lending",
    "energy prices inflation expectations",
    "absentword",
]
WORDS = [
    "tariffs",
    "trade",
    "volumes",
    "house",
    "prices",
    "mortgage",
    "rates",
    "bank",
    "funding",
    "costs",
    "lending",
    "energy",
    "inflation",
    "expectations",
    "liquidity",
    "equity",
    "spreads",
    "yields",
]


def _corpus(store: Store, seed: int, n_sources: int, per_source: int, published: date = date(2024, 1, 1)) -> None:
    rng = np.random.default_rng(seed)
    records: list = []
    for s in range(n_sources):
        src = Source.create(
            path=f"/corpus/{seed}-{s}.pdf",
            sha256=sha256_hex(f"{seed}-{s}"),
            publisher="test",
            title=f"doc {seed}-{s}",
            publication_date=published,
            retrieved_at=utc_now(),
            role="generation" if s % 3 else "development",
            jurisdiction="EA" if s % 2 else "US",
            kind="pdf",
        )
        records.append(src)
        for k in range(per_source):
            text = " ".join(rng.choice(WORDS, size=int(rng.integers(4, 15))))
            records.append(
                SourceLocation.create(
                    source_id=src.source_id,
                    kind="passage",
                    page=1 + k // 5,
                    ordinal=k % 5,
                    text=text,
                    parser_version="test",
                )
            )
    store.put_many(records)


def _key(hits):
    return [(h.rank, h.location_id, h.score, h.quote) for h in hits]


SCOPES = [
    dict(as_of=date(2024, 12, 31)),
    dict(as_of=date(2024, 12, 31), roles=["generation", "development"]),
    dict(as_of=date(2024, 12, 31), jurisdictions=["ea"]),
    dict(as_of=date(2023, 6, 30)),
]


@pytest.mark.parametrize("scope", SCOPES)
def test_saved_scope_ranks_exactly_as_the_in_memory_path(tmp_path, scope, monkeypatch):
    with Store(tmp_path / "ws") as store:
        _corpus(store, 1, 9, 30)
        fresh = {q: _key(search(store, q, **scope, analysis_id="an_fresh")) for q in QUERIES}  # full eligibility
        first = {q: _key(search(store, q, **scope)) for q in QUERIES}  # full path, saves the scope pointer
    retrieval._MEMORY.clear()  # a new process
    monkeypatch.setattr(HybridIndex, "build", classmethod(lambda *a, **k: pytest.fail("index rebuilt")))
    monkeypatch.setattr(retrieval, "eligible_locations", lambda *a, **k: pytest.fail("eligibility re-decided"))
    with Store(tmp_path / "ws") as store:
        cold = {q: _key(search(store, q, **scope)) for q in QUERIES}
    assert cold == first == fresh
    assert any(cold[q] for q in QUERIES) or scope["as_of"] < date(2024, 1, 1)


def test_a_new_source_changes_the_scope_and_its_passages_are_found(tmp_path):
    with Store(tmp_path / "ws") as store:
        _corpus(store, 2, 4, 20)
        before = search(store, "liquidity spreads", as_of=date(2024, 12, 31))
        _corpus(store, 3, 3, 20)  # more sources: another scope key, decided afresh
        after = search(store, "liquidity spreads", as_of=date(2024, 12, 31))
        fresh = search(store, "liquidity spreads", as_of=date(2024, 12, 31), analysis_id="an_x")
    assert _key(after) == _key(fresh) != _key(before)
    assert {h.source_id for h in after} - {h.source_id for h in before}


def test_a_pointer_to_a_missing_index_falls_back_to_the_full_path(tmp_path):
    with Store(tmp_path / "ws") as store:
        _corpus(store, 4, 4, 20)
        good = search(store, "house prices", as_of=date(2024, 12, 31))
        for pointer in (store.path / "index").glob("scope-*.txt"):
            pointer.write_text("0" * 32)
        retrieval._MEMORY.clear()
        again = search(store, "house prices", as_of=date(2024, 12, 31))
    assert _key(again) == _key(good)
