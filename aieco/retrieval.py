"""Hybrid retrieval over eligible source locations (paper appendix "Source Retrieval").

Eligibility is decided first (``aieco.sources.eligibility``); BM25 (rank-bm25) and LSA
(TF-IDF + TruncatedSVD, cosine) then rank the same eligible locations, each contributing
its best ``candidates_per_ranker`` (50), and reciprocal rank fusion keeps the best
``top_k`` (20). An index is cached per eligible-set digest, in memory and as store
artifacts, so a later process reuses it. ``serialize_records`` packs evidence under the
byte budget (12,000 bytes), truncating only at record boundaries.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import numpy as np
import sklearn
from pydantic import BaseModel, ConfigDict, Field
from rank_bm25 import BM25Okapi
from scipy import sparse
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer
from threadpoolctl import threadpool_limits

from aieco.config import get_settings
from aieco.errors import IntegrityError
from aieco.records import Role, Source, SourceLocation, canonical_json, digest
from aieco.sources.eligibility import eligible_locations
from aieco.store import Store

#: Bump when tokenisation or the index layout changes: part of every index key.
INDEX_VERSION = "hybrid-1"
#: Indexes kept in memory (most recently used last).
MEMORY_CACHE_SIZE = 4
_TOKEN = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
_MEMORY: OrderedDict[str, HybridIndex] = OrderedDict()


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens without English stop words (one tokeniser for both rankers)."""
    return [t for t in _TOKEN.findall(text.lower()) if t not in ENGLISH_STOP_WORDS]


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
    """rank-bm25's Okapi BM25 as a sparse term × document weight matrix.

    ``BM25Okapi.get_scores`` loops in Python over every document for each query term;
    the same weights, computed once from its fitted state, make a query a sparse row sum.
    """

    terms: dict[str, int]
    weights: sparse.csr_matrix  # (terms, documents)

    @classmethod
    def from_okapi(cls, bm25: BM25Okapi) -> BM25Matrix:
        """Weights w(t, d) = idf(t) f (k1 + 1) / (f + k1 (1 - b + b |d| / avgdl)), f = count of t in d."""
        norm = bm25.k1 * (1 - bm25.b + bm25.b * np.asarray(bm25.doc_len, dtype=float) / bm25.avgdl)
        terms: dict[str, int] = {}
        rows, cols, vals = [], [], []
        for d, freqs in enumerate(bm25.doc_freqs):
            for t, f in freqs.items():
                rows.append(terms.setdefault(t, len(terms)))
                cols.append(d)
                vals.append((bm25.idf.get(t) or 0.0) * f * (bm25.k1 + 1) / (f + norm[d]))
        weights = sparse.csr_matrix((vals, (rows, cols)), shape=(len(terms), len(bm25.doc_freqs)))
        return cls(terms=terms, weights=weights)

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """BM25 score of every document (a repeated query term counts again, as in rank-bm25)."""
        rows = [self.terms[t] for t in query_tokens if t in self.terms]
        if not rows:
            return np.zeros(self.weights.shape[1])
        return np.asarray(self.weights[rows].sum(axis=0)).ravel()


def _bm25(tokens: list[list[str]]) -> BM25Matrix | None:
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

    @classmethod
    def build(cls, key: str, ids: Sequence[str], texts: Sequence[str], n_components: int,
              tokens: list[list[str]] | None = None) -> HybridIndex:
        """Fit BM25 and LSA on ``texts`` (same order as ``ids``)."""
        tokens = tokens if tokens is not None else [tokenize(t) for t in texts]
        bm25 = _bm25(tokens)
        vocabulary: dict[str, int] = {}
        idf = np.zeros(0)
        components = np.zeros((0, 0))
        embeddings = np.zeros((len(ids), 0))
        if any(tokens):
            vec = TfidfVectorizer(analyzer=lambda toks: toks)
            x = vec.fit_transform(tokens)
            vocabulary = {t: int(i) for t, i in vec.vocabulary_.items()}
            idf = vec.idf_
            k = min(n_components, x.shape[0] - 1, x.shape[1] - 1)
            if k >= 1:
                svd = TruncatedSVD(n_components=k, random_state=0)
                # C order, as they are stored and reloaded, so a reloaded index scores bit for bit alike
                embeddings = np.ascontiguousarray(_unit_rows(svd.fit_transform(x)))
                components = np.ascontiguousarray(svd.components_)
        return cls(key=key, ids=list(ids), bm25=bm25, vocabulary=vocabulary, idf=idf, components=components,
                   embeddings=embeddings)

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
        with threadpool_limits(limits=1, user_api="blas"):
            q = self.components @ (x / norm)
            qn = np.linalg.norm(q)
            if qn == 0:
                return []
            cosines = self.embeddings @ (q / qn)
        return _top(cosines, n, positive=True)

    def rank(self, query: str, *, candidates: int, top_k: int, rrf_k: int) -> list[tuple[int, float]]:
        """Reciprocal rank fusion of the two rankings: (position, fused score), best first.

        RRF score of a document d: sum over rankers of 1 / (rrf_k + rank_r(d)), ranks from 1.
        Ties are broken by location id so the order is deterministic.
        """
        tokens = tokenize(query)
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
            "key": self.key, "version": INDEX_VERSION, "ids": self.ids,
            "vocabulary": sorted(self.vocabulary, key=self.vocabulary.__getitem__),
            "idf": store.put_array(self.idf), "components": store.put_array(self.components),
            "embeddings": store.put_array(self.embeddings),
        }
        d = store.put_json(manifest, "retrieval_index")
        store.write_file(_pointer_path(store, self.key), d.encode())
        return d

    @classmethod
    def load(cls, store: Store, key: str, tokens: list[list[str]]) -> HybridIndex | None:
        """The index saved under ``key`` (BM25 rebuilt from ``tokens``), or None if absent or stale."""
        pointer = _pointer_path(store, key)
        if not pointer.is_file():
            return None
        try:
            manifest = store.get_json(pointer.read_text().strip())
        except IntegrityError:
            return None  # a missing or altered artifact: rebuild rather than trust it
        if manifest.get("key") != key or manifest.get("version") != INDEX_VERSION:
            return None
        return cls(key=key, ids=manifest["ids"], bm25=_bm25(tokens),
                   vocabulary={t: i for i, t in enumerate(manifest["vocabulary"])},
                   idf=store.get_array(manifest["idf"]), components=store.get_array(manifest["components"]),
                   embeddings=store.get_array(manifest["embeddings"]))


def _pointer_path(store: Store, key: str):
    return store.path / "index" / f"{key}.txt"


def _unit_rows(m: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1.0, norms)


def _top(scores: np.ndarray, n: int, *, positive: bool) -> list[int]:
    idx = np.flatnonzero(scores > 0) if positive else np.arange(len(scores))
    if len(idx) > n:
        idx = idx[np.argpartition(-scores[idx], n - 1)[:n]]
    return [int(i) for i in sorted(idx, key=lambda i: (-scores[i], i))]


def index_key(location_ids: Iterable[str], n_components: int) -> str:
    """Digest of the eligible set and everything that shapes the index."""
    return digest({"version": INDEX_VERSION, "ids": sorted(location_ids), "lsa_components": n_components,
                   "sklearn": sklearn.__version__})[:32]


def index_for(locations: Sequence[SourceLocation], store: Store | None = None) -> HybridIndex:
    """The index over ``locations``: from memory, else from the store, else built (and saved)."""
    n_components = get_settings().retrieval.lsa_components
    key = index_key((loc.location_id for loc in locations), n_components)
    if key in _MEMORY:
        _MEMORY.move_to_end(key)
        if store is not None and not _pointer_path(store, key).is_file():
            _MEMORY[key].save(store)  # built for another workspace with the same locations: persist it here too
        return _MEMORY[key]
    ordered = sorted(locations, key=lambda loc: loc.location_id)
    texts = [document_text(loc) for loc in ordered]
    tokens = [tokenize(t) for t in texts]
    index = HybridIndex.load(store, key, tokens) if store is not None else None
    if index is None:
        index = HybridIndex.build(key, [loc.location_id for loc in ordered], texts, n_components, tokens)
        if store is not None:
            index.save(store)
    _MEMORY[key] = index
    while len(_MEMORY) > MEMORY_CACHE_SIZE:
        _MEMORY.popitem(last=False)
    return index


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


def rank_locations(locations: Sequence[SourceLocation], query: str, *, top_k: int | None = None,
                   store: Store | None = None) -> list[tuple[SourceLocation, float]]:
    """Hybrid ranking of already-eligible ``locations`` for ``query``: (location, fused score), best first."""
    r = get_settings().retrieval
    docs = [loc for loc in locations if indexable(loc)]
    if not docs or not query.strip():
        return []
    index = index_for(docs, store)
    by_id = {loc.location_id: loc for loc in docs}
    ranked = index.rank(query, candidates=r.candidates_per_ranker, top_k=top_k or r.top_k, rrf_k=r.rrf_k)
    return [(by_id[index.ids[pos]], score) for pos, score in ranked]


def search(store: Store, query: str, *, as_of: date, roles: Iterable[Role | str] = ("generation",),
           jurisdictions: Iterable[str] | None = None, top_k: int | None = None,
           analysis_id: str | None = None) -> list[Hit]:
    """Eligible locations for (as_of, roles, jurisdictions), ranked for ``query``; top_k default 20."""
    eligible, _ = eligible_locations(store, cutoff=as_of, roles=roles, jurisdictions=jurisdictions,
                                     analysis_id=analysis_id)
    ranked = rank_locations(eligible, query, top_k=top_k, store=store)
    sources = {s.source_id: s for s in store.find(Source, source_id=sorted({loc.source_id for loc, _ in ranked}))}
    hits = []
    for rank, (loc, score) in enumerate(ranked, start=1):
        src = sources[loc.source_id]
        hits.append(Hit(rank=rank, score=score, location_id=loc.location_id, source_id=loc.source_id,
                        title=src.title, publisher=src.publisher, publication_date=src.publication_date,
                        page=loc.page, sheet=loc.sheet, cell=loc.cell, quote=loc.text))
    return hits


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
    return SerializedEvidence(text="".join(lines), included=len(lines), omitted=len(records) - len(lines),
                              bytes=used, budget=budget)
