"""G0 candidate screen: sentences of eligible passages naming at least two vocabulary variables."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from aieco.records import SourceLocation, make_id
from aieco.vocab import Vocabulary

# A sentence ends at . ! ? followed by space and an upper-case letter, digit or quote; common
# abbreviations do not end one.
# A footnote number glued to the full stop ("tensions.4 The …") also ends a sentence.
# A bracketed footnote mark after the full stop ("(Chart A).[1] Aggregate …", web pages) ends one too.
SENTENCE_END = re.compile(
    r"(?<=[.!?])\s+(?=[A-Z0-9\"'(‘“])|(?<=[a-z][.!?])\d{1,2}\s+(?=[A-Z])|(?<=[.!?]\[\d\])\s+(?=[A-Z])"
    r"|(?<=[.!?]\[\d\d\])\s+(?=[A-Z])"
)
ABBREVIATIONS = re.compile(r"\b(?:e\.g|i\.e|cf|etc|vs|Fig|No|pp|p|Chart|Table|Box|Mr|Ms|Dr|approx|incl)\.$")


def normalise(text: str) -> str:
    """Collapse every run of whitespace to one space (the quote test works on this form)."""
    return " ".join(text.split())


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (whitespace-normalised), each an exact substring of the normalised text."""
    norm = normalise(text)
    out: list[str] = []
    start = 0
    for m in SENTENCE_END.finditer(norm):
        piece = norm[start : m.start()]
        if ABBREVIATIONS.search(piece):
            continue
        out.append(piece)
        start = m.end()
    if start < len(norm):
        out.append(norm[start:])
    return [s for s in out if s.strip()]


class Candidate(BaseModel):
    """A sentence that names at least two distinct vocabulary variables."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    candidate_id: str = Field(description="Digest of location id and sentence.")
    location_id: str
    text: str = Field(description="The exact sentence (whitespace-normalised).")
    variables: list[str] = Field(description="Distinct vocabulary ids named, in order.")


class Screen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    candidates: list[Candidate]
    sentences: int = Field(description="Sentences read.")
    dropped_by_cap: int = Field(description="Candidates beyond the cap, not extracted.")


def candidate_for(location_id: str, text: str, variables: list[str]) -> Candidate:
    return Candidate(
        candidate_id=make_id("cand", [location_id, text]), location_id=location_id, text=text, variables=variables
    )


def rank_candidates(candidates: Sequence[Candidate], endpoints: Collection[str] = ()) -> list[Candidate]:
    """Candidates ordered by relevance to channel queries whose endpoints are ``endpoints``.

    The first copy of every sentence comes before any repeat (a corpus holding the same report
    sixteen times does not crowd out the other sentences); among first copies, relevance decides:
    2 × (query endpoints the sentence names) + 1 when it names a variable one step from a query
    (co-occurring with an endpoint in some candidate); then document order. Without endpoints:
    first copies first, then document order.
    """
    ends = set(endpoints)
    near = {v for c in candidates if ends & set(c.variables) for v in c.variables} - ends
    seen: dict[str, int] = {}
    keyed = []
    for i, c in enumerate(candidates):
        copy = seen.get(c.text, 0)
        seen[c.text] = copy + 1
        vs = set(c.variables)
        score = 2 * len(vs & ends) + min(1, len(vs & near))
        keyed.append(((copy, -score, i), c))
    return [c for _, c in sorted(keyed, key=lambda kc: kc[0])]


def apply_cap(
    candidates: Sequence[Candidate], cap: int | None, endpoints: Collection[str] = ()
) -> tuple[list[Candidate], int]:
    """The ``cap`` most relevant candidates (all when ``cap`` is None) in document order, and how many were skipped."""
    if cap is None or len(candidates) <= cap:
        return list(candidates), 0
    order = {id(c): i for i, c in enumerate(candidates)}
    kept = rank_candidates(candidates, endpoints)[:cap]
    return sorted(kept, key=lambda c: order[id(c)]), len(candidates) - cap


def screen_candidates(
    locations: Iterable[SourceLocation], vocab: Vocabulary, *, cap: int | None, endpoints: Collection[str] = ()
) -> Screen:
    """Candidate sentences; beyond ``cap`` (None: no cap) the most relevant to ``endpoints`` are kept."""
    found: list[Candidate] = []
    sentences = 0
    for loc in locations:
        for sentence in split_sentences(loc.text):
            sentences += 1
            variables = vocab.variables_in(sentence)
            if len(variables) >= 2:
                found.append(candidate_for(loc.location_id, sentence, variables))
    kept, dropped = apply_cap(found, cap, endpoints)
    return Screen(candidates=kept, sentences=sentences, dropped_by_cap=dropped)
