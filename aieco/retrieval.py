"""Hybrid retrieval over eligible source locations (paper appendix "Source Retrieval").

Eligibility is decided first (``aieco.sources.eligibility``); BM25 (rank-bm25) and LSA
(TF-IDF + TruncatedSVD, cosine) then rank the same eligible locations, each contributing
its best ``candidates_per_ranker`` (50), and reciprocal rank fusion keeps the best
``top_k`` (20). An index is cached per eligible-set digest, in memory and as store
artifacts (BM25 weights and LSA arrays), so a later process reuses it without re-reading or
re-tokenising the locations; ``search`` also records which index serves a scope (cutoff,
roles, jurisdictions over the registered sources), so a cold ``aieco search`` loads that index
and only the hits' records. ``serialize_records`` packs evidence under the
byte budget (12,000 bytes), truncating only at record boundaries.
"""

from __future__ import annotations

import importlib.metadata
import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from aieco.asof import AsOf
from aieco.config import get_settings
from aieco.errors import IntegrityError
from aieco.records import Role, Source, SourceLocation, canonical_json, digest
from aieco.sources.eligibility import eligible_locations
from aieco.store import Store

if TYPE_CHECKING:
    from rank_bm25 import BM25Okapi

#: scikit-learn (and SciPy, rank-bm25) are imported only to build an index: a query on a saved
#: index needs numpy alone, which keeps a cold ``aieco search`` process short.
SKLEARN_VERSION = importlib.metadata.version("scikit-learn")

#: Bump when tokenisation or the index layout changes: part of every index key.
INDEX_VERSION = "hybrid-4"
#: Indexes kept in memory (most recently used last).
MEMORY_CACHE_SIZE = 4
_TOKEN = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
_MEMORY: OrderedDict[str, HybridIndex] = OrderedDict()
#: What a scope pointer holds when nothing in the scope is indexable.
_EMPTY_SCOPE = "empty"


def tokenize(text: str, stop_words: frozenset[str] | None = None) -> list[str]:
    """Lower-case word tokens without English stop words (one tokeniser for both rankers).

    ``stop_words`` defaults to scikit-learn's English list; a saved index carries its own copy,
    so a query on it does not import scikit-learn.
    """
    stop = english_stop_words() if stop_words is None else stop_words
    return [t for t in _TOKEN.findall(text.lower()) if t not in stop]


@cache
def english_stop_words() -> frozenset[str]:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS)


def indexable(location: SourceLocation) -> bool:
    """Passages with text, and table/sheet cells holding at least three words of text."""
    if not location.text.strip():
        return False
    if location.kind == "passage":
        return True
    return isinstance(location.value, str) and len(_TOKEN.findall(location.text.lower())) >= 3


def document_text(location: SourceLocation) -> str:
    """What the rankers read: the passage, or a cell with its sheet and labels."""
    if location.kind == "passage":
        return location.text
    parts = [location.sheet, location.row_label, location.column_label, location.text]
    return " ".join(p for p in parts if p)


# --------------------------------------------------------------------------- the index


@dataclass(frozen=True)
class BM25Matrix:
    """rank-bm25's Okapi BM25 as a sparse term × document weight matrix (CSR arrays).

    ``BM25Okapi.get_scores`` loops in Python over every document for each query term;
    the same weights, computed once from its fitted state, make a query a sum of rows.
    """

    terms: dict[str, int]
    data: np.ndarray  # CSR values, rows = terms
    indices: np.ndarray  # CSR column (document) of each value
    indptr: np.ndarray  # CSR row starts
    n_docs: int

    @classmethod
    def from_okapi(cls, bm25: BM25Okapi) -> BM25Matrix:
        """Weights w(t, d) = idf(t) f (k1 + 1) / (f + k1 (1 - b + b |d| / avgdl)), f = count of t in d."""
        from scipy import sparse

        norm = bm25.k1 * (1 - bm25.b + bm25.b * np.asarray(bm25.doc_len, dtype=float) / bm25.avgdl)
        terms: dict[str, int] = {}
        rows, cols, vals = [], [], []
        for d, freqs in enumerate(bm25.doc_freqs):
            for t, f in freqs.items():
                rows.append(terms.setdefault(t, len(terms)))
                cols.append(d)
                vals.append((bm25.idf.get(t) or 0.0) * f * (bm25.k1 + 1) / (f + norm[d]))
        w = sparse.csr_matrix((vals, (rows, cols)), shape=(len(terms), len(bm25.doc_freqs)))
        w.sort_indices()
        return cls(terms=terms, data=w.data, indices=w.indices, indptr=w.indptr, n_docs=w.shape[1])

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """BM25 score of every document (a repeated query term counts again, as in rank-bm25)."""
        rows = [self.terms[t] for t in query_tokens if t in self.terms]
        if not rows:
            return np.zeros(self.n_docs)
        spans = [slice(self.indptr[r], self.indptr[r + 1]) for r in rows]
        return np.bincount(
            np.concatenate([self.indices[sp] for sp in spans]),
            weights=np.concatenate([self.data[sp] for sp in spans]),
            minlength=self.n_docs,
        )


def _bm25(tokens: list[list[str]]) -> BM25Matrix | None:
    from rank_bm25 import BM25Okapi

    return BM25Matrix.from_okapi(BM25Okapi(tokens)) if any(tokens) else None


@dataclass
class HybridIndex:
    """BM25 and LSA over one list of documents, addressed by position."""

    key: str
    ids: list[str]
    bm25: BM25Matrix | None
    vocabulary: dict[str, int]
    idf: np.ndarray  # (V,) TF-IDF inverse document frequencies
    components: np.ndarray  # (k, V) TruncatedSVD right singular vectors
    embeddings: np.ndarray  # (n, k) unit-length LSA document vectors
    stop_words: frozenset[str]  # the tokeniser's stop words when the index was built

    @classmethod
    def build(
        cls,
        key: str,
        ids: Sequence[str],
        texts: Sequence[str],
        n_components: int,
        tokens: list[list[str]] | None = None,
    ) -> HybridIndex:
        """Fit BM25 and LSA on ``texts`` (same order as ``ids``)."""
        stop_words = english_stop_words()
        tokens = tokens if tokens is not None else [tokenize(t, stop_words) for t in texts]
        bm25 = _bm25(tokens)
        vocabulary: dict[str, int] = {}
        idf = np.zeros(0)
        components = np.zeros((0, 0))
        embeddings = np.zeros((len(ids), 0))
        if any(tokens):
            from sklearn.decomposition import TruncatedSVD
            from sklearn.feature_extraction.text import TfidfVectorizer

            vec = TfidfVectorizer(analyzer=lambda toks: toks)
            x = vec.fit_transform(tokens)
            vocabulary = {t: int(i) for t, i in vec.vocabulary_.items()}
            idf = vec.idf_
            k = min(n_components, x.shape[0] - 1, x.shape[1] - 1)
            if k >= 1:
                from threadpoolctl import threadpool_limits

                svd = TruncatedSVD(n_components=k, random_state=0)
                # one BLAS thread: the products are small, OpenBLAS's threads spin-wait on a busy machine
                # (a 3,000-passage build took 10–25 s instead of 1.6 s), and the index no longer depends
                # on the machine's core count
                with threadpool_limits(limits=1, user_api="blas"):
                    reduced = svd.fit_transform(x)
                # C order, as they are stored and reloaded, so a reloaded index scores bit for bit alike
                embeddings = np.ascontiguousarray(_unit_rows(reduced))
                components = np.ascontiguousarray(svd.components_)
        return cls(
            key=key,
            ids=list(ids),
            bm25=bm25,
            vocabulary=vocabulary,
            idf=idf,
            components=components,
            embeddings=embeddings,
            stop_words=stop_words,
        )

    def bm25_ranking(self, query_tokens: list[str], n: int) -> list[int]:
        """Positions of the best ``n`` documents by BM25 (score > 0), best first."""
        if self.bm25 is None or not query_tokens:
            return []
        scores = self.bm25.scores(query_tokens)
        return _top(scores, n, positive=True)

    def lsa_ranking(self, query_tokens: list[str], n: int) -> list[int]:
        """Positions of the best ``n`` documents by cosine in the LSA space (> 0), best first."""
        if self.components.size == 0:
            return []
        x = np.zeros(len(self.vocabulary))
        for t in query_tokens:
            i = self.vocabulary.get(t)
            if i is not None:
                x[i] += 1.0
        x *= self.idf  # TfidfVectorizer: raw counts × idf, then l2 normalisation
        norm = np.linalg.norm(x)
        if norm == 0:
            return []
        # one query is a few small products: BLAS threads only add wake-up latency
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1, user_api="blas"):
            q = self.components @ (x / norm)
            qn = np.linalg.norm(q)
            if qn == 0:
                return []
            cosines = self.embeddings @ (q / qn)
        # a cosine at rounding level is no similarity: counting it would rank passages by LAPACK noise
        return _top(np.where(cosines > NEGLIGIBLE_COSINE, cosines, 0.0), n, positive=True)

    def rank(self, query: str, *, candidates: int, top_k: int, rrf_k: int) -> list[tuple[int, float]]:
        """Reciprocal rank fusion of the two rankings: (position, fused score), best first.

        RRF score of a document d: sum over rankers of 1 / (rrf_k + rank_r(d)), ranks from 1.
        Ties are broken by location id so the order is deterministic.
        """
        tokens = tokenize(query, self.stop_words)
        fused: dict[int, float] = {}
        for ranking in (self.bm25_ranking(tokens, candidates), self.lsa_ranking(tokens, candidates)):
            for r, pos in enumerate(ranking, start=1):
                fused[pos] = fused.get(pos, 0.0) + 1.0 / (rrf_k + r)
        order = sorted(fused.items(), key=lambda kv: (-kv[1], self.ids[kv[0]]))
        return order[:top_k]

    # -- persistence as store artifacts (arrays as .npy, the rest as JSON) ------------------

    def save(self, store: Store) -> str:
        """Store the LSA part as artifacts and point the index key at them; returns the manifest digest."""
        manifest = {
            "key": self.key,
            "version": INDEX_VERSION,
            "ids": self.ids,
            "vocabulary": sorted(self.vocabulary, key=self.vocabulary.__getitem__),
            "idf": store.put_array(self.idf),
            "components": store.put_array(self.components),
            "embeddings": store.put_array(self.embeddings),
            "bm25": None,
            "stop_words": sorted(self.stop_words),
        }
        if self.bm25 is not None:
            b = self.bm25
            manifest["bm25"] = {
                "terms": sorted(b.terms, key=b.terms.__getitem__),
                "documents": b.n_docs,
                "data": store.put_array(b.data),
                "indices": store.put_array(b.indices),
                "indptr": store.put_array(b.indptr),
            }
        d = store.put_json(manifest, "retrieval_index")
        _write_pointer(store, _pointer_path(store, self.key), d)
        return d

    @classmethod
    def load(cls, store: Store, key: str) -> HybridIndex | None:
        """The index saved under ``key``, or None if absent, stale or altered."""
        pointer = _pointer_path(store, key)
        if not pointer.is_file():
            return None
        try:
            manifest = store.get_json(pointer.read_text().strip())
            if manifest.get("key") != key or manifest.get("version") != INDEX_VERSION:
                return None
            bm25 = None
            if manifest["bm25"] is not None:
                b = manifest["bm25"]
                bm25 = BM25Matrix(
                    terms={t: i for i, t in enumerate(b["terms"])},
                    data=_stored_array(store, b["data"]),
                    indices=_stored_array(store, b["indices"]),
                    indptr=_stored_array(store, b["indptr"]),
                    n_docs=int(b["documents"]),
                )
            return cls(
                key=key,
                ids=manifest["ids"],
                bm25=bm25,
                vocabulary={t: i for i, t in enumerate(manifest["vocabulary"])},
                idf=_stored_array(store, manifest["idf"]),
                components=_stored_array(store, manifest["components"]),
                embeddings=_stored_array(store, manifest["embeddings"]),
                stop_words=frozenset(manifest["stop_words"]),
            )
        except (IntegrityError, KeyError, TypeError, ValueError):
            return None  # a missing, altered or malformed artifact: rebuild rather than trust it


def _stored_array(store: Store, digest: str) -> np.ndarray:
    """A saved ``.npy`` artifact as a read-only array over its checked bytes (no copy).

    ``Store.get_array`` copies the bytes into a new array; an index of 50,000 passages holds
    about 40 MB of LSA vectors, and the copy was a quarter of a cold ``aieco search``. The
    digest is still checked (``get_artifact``); the array is the same, bit for bit.
    """
    import io

    data = store.get_artifact(digest)
    buf = io.BytesIO(data)
    version = np.lib.format.read_magic(buf)
    if version == (1, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_1_0(buf)
    elif version == (2, 0):
        shape, fortran, dtype = np.lib.format.read_array_header_2_0(buf)
    else:
        return store.get_array(digest)
    if dtype.hasobject:
        raise ValueError(f"artifact {digest} holds objects, not numbers")
    count = int(np.prod(shape, dtype=np.int64))
    flat = np.frombuffer(data, dtype=dtype, count=count, offset=buf.tell())
    return flat.reshape(shape[::-1]).T if fortran else flat.reshape(shape)


def _pointer_path(store: Store, key: str):
    return store.path / "index" / f"{key}.txt"


#: A row of the LSA embedding shorter than this fraction of the longest is rounding noise (a
#: passage that shares no term with the kept components): it stays zero instead of being blown
#: up into an arbitrary unit direction whose cosines would depend on the LAPACK build.
NEGLIGIBLE_ROW = 1e-9
#: Cosines at or below this are rounding noise, not similarity.
NEGLIGIBLE_COSINE = 1e-9


def _unit_rows(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    if norms.size == 0:
        return m
    negligible = norms <= NEGLIGIBLE_ROW * max(float(norms.max()), np.finfo(float).tiny)
    return np.where(negligible, 0.0, m / np.where(negligible, 1.0, norms))


def _top(scores: np.ndarray, n: int, *, positive: bool) -> list[int]:
    idx = np.flatnonzero(scores > 0) if positive else np.arange(len(scores))
    if len(idx) > n:
        idx = idx[np.argpartition(-scores[idx], n - 1)[:n]]
    return [int(i) for i in sorted(idx, key=lambda i: (-scores[i], i))]


def index_key(location_ids: Iterable[str], n_components: int) -> str:
    """Digest of the eligible set and everything that shapes the index."""
    return digest(
        {
            "version": INDEX_VERSION,
            "ids": sorted(location_ids),
            "lsa_components": n_components,
            "sklearn": SKLEARN_VERSION,
        }
    )[:32]


def index_for(locations: Sequence[SourceLocation], store: Store | None = None) -> HybridIndex:
    """The index over ``locations``: from memory, else from the store, else built (and saved)."""
    n_components = get_settings().retrieval.lsa_components
    key = index_key((loc.location_id for loc in locations), n_components)
    if key in _MEMORY:
        _MEMORY.move_to_end(key)
        if store is not None and not _pointer_path(store, key).is_file():
            _MEMORY[key].save(store)  # built for another workspace with the same locations: persist it here too
        return _MEMORY[key]
    index = HybridIndex.load(store, key) if store is not None else None
    if index is None:
        ordered = sorted(locations, key=lambda loc: loc.location_id)
        index = HybridIndex.build(
            key, [loc.location_id for loc in ordered], [document_text(loc) for loc in ordered], n_components
        )
        if store is not None:
            index.save(store)
    _remember(index)
    return index


def _remember(index: HybridIndex) -> None:
    _MEMORY[index.key] = index
    _MEMORY.move_to_end(index.key)
    while len(_MEMORY) > MEMORY_CACHE_SIZE:
        _MEMORY.popitem(last=False)


# --------------------------------------------------------------------------- search


class Hit(BaseModel):
    """One retrieved location, in the shape of ``aieco search --json`` (DESIGN §5)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rank: int = Field(description="1 = best.")
    score: float = Field(description="Reciprocal-rank-fusion score.")
    location_id: str
    source_id: str
    title: str
    publisher: str
    publication_date: date | None
    page: int | None = Field(None, description="1-based PDF page (passages, PDF table cells).")
    sheet: str | None = Field(None, description="Worksheet (spreadsheet cells).")
    cell: str | None = Field(None, description="A1 coordinate, or t<table>r<row>c<col> in a PDF table.")
    quote: str = Field(description="The exact text of the location.")


def rank_locations(
    locations: Sequence[SourceLocation], query: str, *, top_k: int | None = None, store: Store | None = None
) -> list[tuple[SourceLocation, float]]:
    """Hybrid ranking of already-eligible ``locations`` for ``query``: (location, fused score), best first."""
    r = get_settings().retrieval
    docs = [loc for loc in locations if indexable(loc)]
    if not docs or not query.strip():
        return []
    index = index_for(docs, store)
    by_id = {loc.location_id: loc for loc in docs}
    ranked = index.rank(query, candidates=r.candidates_per_ranker, top_k=top_k or r.top_k, rrf_k=r.rrf_k)
    return [(by_id[index.ids[pos]], score) for pos, score in ranked]


def search(
    store: Store,
    query: str,
    *,
    as_of: AsOf | date,
    roles: Iterable[Role | str] | None = None,
    jurisdictions: Iterable[str] | None = None,
    top_k: int | None = None,
    analysis_id: str | None = None,
) -> list[Hit]:
    """Locations eligible under ``as_of``, ranked for ``query``; top_k default 20.

    ``as_of`` is the one as-of rule (:class:`aieco.asof.AsOf`: cutoff, roles, scope and
    exclusions), e.g. ``request.as_of(roles)``; a plain date is the cutoff of an AsOf built from
    ``roles`` (default generation) and ``jurisdictions``, which may be given only with a date.
    No location of a source the rule excludes (e.g. published after the cutoff) is returned.

    Without an analysis id (nothing to record), a scope searched before is served from its
    saved index: only the registered sources and the location count are read to recognise the
    scope, then the hits' own records. The ranking is the same as deciding eligibility afresh.
    """
    if isinstance(as_of, AsOf):
        if roles is not None or jurisdictions is not None:
            raise ValueError("search: give roles and jurisdictions through the AsOf, not beside it")
    else:
        as_of = AsOf(cutoff=as_of, roles=list(roles) if roles is not None else ["generation"], scope=jurisdictions)
    r = get_settings().retrieval
    scope = _scope_key(store, as_of) if analysis_id is None else None
    ranked: list[tuple[SourceLocation, float]] | None = None
    if scope is not None and query.strip():
        ranked = _rank_saved_scope(store, scope, query, top_k or r.top_k)
    if ranked is None:
        eligible, _ = eligible_locations(store, as_of=as_of, analysis_id=analysis_id)
        docs = [loc for loc in eligible if indexable(loc)]
        ranked = rank_locations(docs, query, top_k=top_k, store=store)
        if scope is not None and query.strip():
            key = index_key((loc.location_id for loc in docs), r.lsa_components) if docs else _EMPTY_SCOPE
            _write_pointer(store, _scope_path(store, scope), key)
    sources = {s.source_id: s for s in store.find(Source, source_id=sorted({loc.source_id for loc, _ in ranked}))}
    hits = []
    for rank, (loc, score) in enumerate(ranked, start=1):
        src = sources[loc.source_id]
        hits.append(
            Hit(
                rank=rank,
                score=score,
                location_id=loc.location_id,
                source_id=loc.source_id,
                title=src.title,
                publisher=src.publisher,
                publication_date=src.publication_date,
                page=loc.page,
                sheet=loc.sheet,
                cell=loc.cell,
                quote=loc.text,
            )
        )
    return hits


def _scope_key(store: Store, as_of: AsOf) -> str:
    """Digest of a search scope over the registered records.

    The store is append-only (no row is ever changed or removed) and the pointer lives in the
    store's own folder, so the numbers of sources and locations identify its registered records,
    and with the scope every eligible set.
    """
    return digest(
        {
            "version": INDEX_VERSION,
            "cutoff": as_of.cutoff.isoformat() if as_of.cutoff is not None else None,
            "roles": sorted(x.value for x in as_of.roles),
            "jurisdictions": list(as_of.scope) if as_of.scope is not None else None,
            "exclude": list(as_of.exclude),
            "sources": store.count(Source),
            "locations": store.count(SourceLocation),
            "lsa_components": get_settings().retrieval.lsa_components,
            "sklearn": SKLEARN_VERSION,
        }
    )[:32]


def _rank_saved_scope(store: Store, scope: str, query: str, top_k: int) -> list[tuple[SourceLocation, float]] | None:
    """The ranking from the index saved for ``scope``, or None when there is none."""
    pointer = _scope_path(store, scope)
    if not pointer.is_file():
        return None
    key = pointer.read_text().strip()
    if key == _EMPTY_SCOPE:
        return []
    index = _MEMORY.get(key) or HybridIndex.load(store, key)
    if index is None:
        return None
    _remember(index)
    r = get_settings().retrieval
    ranked = index.rank(query, candidates=r.candidates_per_ranker, top_k=top_k, rrf_k=r.rrf_k)
    by_id = {
        loc.location_id: loc for loc in store.find(SourceLocation, location_id=[index.ids[pos] for pos, _ in ranked])
    }
    if len(by_id) != len(ranked):
        return None  # the pointer names locations the store lacks: decide afresh
    return [(by_id[index.ids[pos]], score) for pos, score in ranked]


def _scope_path(store: Store, scope: str):
    return store.path / "index" / f"scope-{scope}.txt"


def _write_pointer(store: Store, path, text: str) -> None:
    """Write a pointer file atomically; the store records its digest (the audit checks every workspace file)."""
    store.write_file(path, text.encode())


# --------------------------------------------------------------------------- serialisation


#: Characters str.splitlines() breaks on that JSON leaves unescaped: escaped so one record stays one line.
_LINE_BREAKS_ESCAPED = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


class SerializedEvidence(BaseModel):
    """Records packed under a byte budget: one canonical JSON object per line."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    included: int = Field(description="Records that fit, from the first.")
    omitted: int = Field(description="Records left out (never partially).")
    bytes: int = Field(description="UTF-8 size of text.")
    budget: int

    def lines(self) -> list[str]:
        """One canonical JSON record per line, in order."""
        return self.text.splitlines()


def serialize_records(records: Iterable[BaseModel | dict[str, Any]], budget: int | None = None) -> SerializedEvidence:
    """Pack records, in order, as JSON lines while they fit in ``budget`` bytes (default 12,000).

    Each line is canonical JSON with U+0085/U+2028/U+2029 escaped, so ``text.splitlines()``
    gives exactly one line per record.

    Truncation happens only at record boundaries: the first record that does not fit and
    every record after it are omitted, so the rank order is kept.
    """
    budget = get_settings().retrieval.byte_budget if budget is None else budget
    lines: list[str] = []
    used = 0
    records = list(records)
    for rec in records:
        obj = rec.model_dump(mode="json") if isinstance(rec, BaseModel) else rec
        line = canonical_json(obj).translate(_LINE_BREAKS_ESCAPED) + "\n"
        size = len(line.encode("utf-8"))
        if used + size > budget:
            break
        lines.append(line)
        used += size
    return SerializedEvidence(
        text="".join(lines), included=len(lines), omitted=len(records) - len(lines), bytes=used, budget=budget
    )
