import json
from datetime import date

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from rank_bm25 import BM25Okapi

from aieco import retrieval
from aieco.cli import main
from aieco.demo.build import build_demo_sources
from aieco.records import Source, SourceLocation, canonical_json
from aieco.retrieval import HybridIndex, search, serialize_records, tokenize
from aieco.sources.registry import ingest
from aieco.store import Store

CUTOFF = date(2024, 12, 31)


@pytest.fixture(scope="module")
def demo_manifest(tmp_path_factory):
    return build_demo_sources(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def demo_ws(demo_manifest, tmp_path_factory):
    ws = tmp_path_factory.mktemp("ws") / "ws"
    with Store(ws) as store:
        report = ingest(store, demo_manifest)
        assert report.ok, report.failures
    return ws


def test_rrf_fuses_two_rankings_as_hand_computed():
    # Six passages whose TF-IDF matrix has well-separated leading singular values, so the
    # two-component LSA subspace is unique and the rankings do not depend on the LAPACK build
    # (a corpus with tied singular values made the second component arbitrary).
    texts = [
        "tariffs trade volumes",
        "trade credit house prices mortgage",
        "tariffs tariffs import prices",
        "weather report rain",
        "mortgage lending banks credit",
        "banks funding liquidity",
    ]
    from sklearn.feature_extraction.text import TfidfVectorizer

    tfidf = TfidfVectorizer(analyzer=lambda toks: toks).fit_transform([tokenize(t) for t in texts]).toarray()
    sv = np.linalg.svd(tfidf, compute_uv=False)
    assert sv[0] - sv[1] > 0.05 * sv[0] and sv[1] - sv[2] > 0.05 * sv[0], "the test's premise: no tie"

    index = HybridIndex.build("k", list("abcdef"), texts, n_components=2)
    bm = index.bm25_ranking(tokenize("tariffs"), 50)
    lsa = index.lsa_ranking(tokenize("tariffs"), 50)
    assert bm == [2, 0]  # only the passages with the term; the one with it twice first
    expected: dict[int, float] = {}
    for ranking in (bm, lsa):
        for r, pos in enumerate(ranking, start=1):
            expected[pos] = expected.get(pos, 0) + 1 / (60 + r)
    fused = index.rank("tariffs", candidates=50, top_k=20, rrf_k=60)
    assert dict(fused) == pytest.approx(expected)
    assert {p for p, _ in fused[:2]} == {0, 2}
    # the weather passage shares no term with any other: no LSA similarity, however small
    assert 3 not in lsa and 3 not in dict(fused)


def test_a_passage_outside_the_lsa_subspace_gets_no_direction():
    # a row of rounding-level length is zero, not an arbitrary unit vector
    m = np.array([[3.0, 4.0], [1e-17, -2e-17], [0.0, 0.0]])
    unit = retrieval._unit_rows(m)
    np.testing.assert_allclose(unit[0], [0.6, 0.8])
    assert not unit[1].any() and not unit[2].any()


def test_bm25_ranking_matches_rank_bm25_directly():
    rng = np.random.default_rng(7)
    words = ["rates", "house", "prices", "tariffs", "trade", "liquidity", "banks", "funding"]
    texts = [" ".join(rng.choice(words, size=rng.integers(3, 12))) for _ in range(40)]
    index = HybridIndex.build("k", [f"l{i:02d}" for i in range(40)], texts, n_components=5)
    for query in (["house", "prices"], ["tariffs", "tariffs", "banks"], ["absent"]):
        oracle = BM25Okapi([tokenize(t) for t in texts]).get_scores(query)
        np.testing.assert_allclose(index.bm25.scores(query), oracle, rtol=1e-12, atol=1e-12)
    got = index.bm25_ranking(["house", "prices"], 10)
    oracle = BM25Okapi([tokenize(t) for t in texts]).get_scores(["house", "prices"])
    np.testing.assert_allclose([oracle[i] for i in got], sorted(oracle[oracle > 0], reverse=True)[:10])


def test_lsa_candidates_are_limited_per_ranker():
    texts = [f"house prices {i}" for i in range(80)]
    index = HybridIndex.build("k", [f"l{i:02d}" for i in range(80)], texts, n_components=4)
    assert len(index.lsa_ranking(["house"], 50)) == 50 and len(index.bm25_ranking(["house"], 50)) == 50
    assert len(index.rank("house prices", candidates=50, top_k=20, rrf_k=60)) == 20


def test_demo_search_returns_quoted_page_located_passages_before_the_cutoff(demo_ws):
    with Store(demo_ws) as store:
        hits = search(store, "house prices financing costs", as_of=CUTOFF)
        assert 5 <= len(hits) <= 20 and [h.rank for h in hits] == list(range(1, len(hits) + 1))
        assert all(h.publication_date <= CUTOFF for h in hits)
        top = " ".join(h.quote for h in hits[:3]).lower()
        assert "house prices" in top and "financing costs" in top
        for h in hits:
            loc = store.require(SourceLocation, h.location_id)
            assert h.page == loc.page and h.quote == loc.text
            src = store.require(Source, h.source_id)
            assert src.illustrative and "Illustrative" in src.note
        # the post-cutoff review mentions the same words but is not eligible
        later = search(store, "house prices financing costs", as_of=date(2025, 12, 31))
        assert any(h.publication_date > CUTOFF for h in later)


def test_development_chapter_is_not_retrieved_for_generation(demo_ws):
    with Store(demo_ws) as store:
        hits = search(store, "2018 stress test market liquidity equity prices CET1 ratio", as_of=CUTOFF)
        assert not any("2018 adverse scenario, lower market liquidity" in h.quote for h in hits)
        dev = search(store, "2018 stress test market liquidity equity prices", as_of=CUTOFF, roles=["development"])
        assert any("lower market liquidity lowered equity prices" in h.quote for h in dev)
        assert {h.page for h in dev} == {3}


def test_index_is_persisted_and_reused_by_another_process(demo_ws, monkeypatch):
    with Store(demo_ws) as store:
        first = search(store, "tariffs trade volumes", as_of=CUTOFF)
        retrieval._MEMORY.clear()
        monkeypatch.setattr(HybridIndex, "build", classmethod(lambda *a, **k: pytest.fail("index rebuilt")))
        second = search(store, "tariffs trade volumes", as_of=CUTOFF)
    assert [h.location_id for h in first] == [h.location_id for h in second]


def test_cli_search_json_shape(demo_ws):
    res = CliRunner().invoke(
        main, ["-w", str(demo_ws), "search", "tariffs import prices", "--as-of", "2024-12-31", "--json"]
    )
    assert res.exit_code == 0, res.output
    hits = json.loads(res.output)
    assert set(hits[0]) == {
        "rank",
        "score",
        "location_id",
        "source_id",
        "title",
        "publisher",
        "publication_date",
        "page",
        "sheet",
        "cell",
        "quote",
    }
    assert "tariffs" in hits[0]["quote"].lower()
    bad = CliRunner().invoke(main, ["-w", str(demo_ws), "search", "x", "--as-of", "31/12/2024"])
    assert bad.exit_code == 2 and "YYYY-MM-DD" in bad.output


def test_demo_build_is_byte_for_byte_reproducible(demo_manifest, tmp_path):
    again = build_demo_sources(tmp_path)
    for f in demo_manifest.parent.iterdir():
        assert (again.parent / f.name).read_bytes() == f.read_bytes(), f.name


def test_demo_workbook_has_history_baseline_adverse(demo_ws):
    with Store(demo_ws) as store:
        (wb,) = [s for s in store.all(Source) if s.kind.value == "xlsx"]
        assert wb.role.value == "evaluation" and wb.publication_date.year == 2025 and wb.illustrative
        cells = store.find(SourceLocation, source_id=wb.source_id)
        assert {c.sheet for c in cells} == {"History", "Baseline", "Adverse"}
        (gdp,) = [
            c for c in cells if c.sheet == "Adverse" and c.row_label == "Real GDP growth" and c.column_label == "2025"
        ]
        assert gdp.value == -2.1 and gdp.scenario_label == "adverse"


records = st.lists(st.dictionaries(st.text(min_size=1, max_size=5), st.text(max_size=40), max_size=4), max_size=30)


@given(records, st.integers(0, 2_000))
def test_serializer_truncates_only_at_record_boundaries(recs, budget):
    out = serialize_records(recs, budget=budget)
    assert out.bytes == len(out.text.encode()) <= budget
    lines = out.text.split("\n")[:-1] if out.text else []
    assert out.lines() == lines  # no record contains a character splitlines() breaks on
    assert [json.loads(line) for line in lines] == recs[: out.included]
    assert out.included + out.omitted == len(recs)
    if out.omitted:  # the next record would not have fitted
        nxt = len((canonical_json(recs[out.included]).translate(retrieval._LINE_BREAKS_ESCAPED) + "\n").encode())
        assert out.bytes + nxt > budget


def test_serializer_default_budget_is_12000_bytes():
    out = serialize_records([{"quote": "x" * 990}] * 20)
    assert out.budget == 12_000 and out.included == 11 and out.omitted == 9


def test_serializer_keeps_one_record_per_line_with_unicode_line_breaks():
    recs = [{"text": "a\u2028b"}, {"text": "c\x85d\u2029"}, {"text": "e\nf"}]
    out = serialize_records(recs)
    assert len(out.lines()) == 3 and [json.loads(x) for x in out.lines()] == recs


def test_cold_cli_search_imports_only_the_search_path(demo_ws):
    """A new process answering `aieco search` from a saved index loads no pandas, scikit-learn or
    SciPy (they were most of its start-up) and answers as the in-process search does."""
    import subprocess
    import sys
    from pathlib import Path

    with Store(demo_ws) as store:
        expected = [h.location_id for h in search(store, "tariffs import prices", as_of=CUTOFF)]  # saves the scope
    code = (
        "import sys, json\n"
        "from aieco.cli import main\n"
        f"main(['-w', {str(demo_ws)!r}, 'search', 'tariffs import prices', '--as-of', '2024-12-31', '--json'],"
        " standalone_mode=False)\n"
        "print(json.dumps(sorted(m for m in ('pandas', 'sklearn', 'scipy', 'aieco.analysis', 'aieco.models')"
        " if m in sys.modules)))\n"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env={"PYTHONPATH": str(root)}
    )
    assert out.returncode == 0, out.stderr
    hits_line, loaded_line = out.stdout.strip().splitlines()
    assert json.loads(loaded_line) == []
    assert [h["location_id"] for h in json.loads(hits_line)] == expected


@settings(max_examples=40, deadline=None)
@given(
    shape=st.lists(st.integers(0, 5), min_size=0, max_size=3),
    dtype=st.sampled_from(["<f8", "<f4", "<i8", "<i4", ">f8", "uint8"]),
    fortran=st.booleans(),
)
def test_stored_arrays_are_read_without_copy_exactly_as_numpy_loads_them(tmp_path_factory, shape, dtype, fortran):
    from aieco.retrieval import _stored_array

    rng = np.random.default_rng(len(shape))
    a = (rng.random(shape) * 100).astype(dtype)
    a = np.asfortranarray(a) if fortran else a
    with Store(tmp_path_factory.mktemp("arr") / "ws") as store:
        d = store.put_array(a)
        got, want = _stored_array(store, d), store.get_array(d)
    assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
