"""G0 candidate screen: sentences of eligible passages naming at least two vocabulary variables."""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from aieco.records import SourceLocation, make_id
from aieco.vocab import Vocabulary

# A sentence ends at . ! ? followed by space and an upper-case letter, digit or quote; common
# abbreviations do not end one.
# A footnote number glued to the full stop ("tensions.4 The …") also ends a sentence.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(‘“])|(?<=[a-z][.!?])\d{1,2}\s+(?=[A-Z])")
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
        piece = norm[start:m.start()]
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
    return Candidate(candidate_id=make_id("cand", [location_id, text]), location_id=location_id, text=text,
                     variables=variables)


def screen_candidates(locations: Iterable[SourceLocation], vocab: Vocabulary, *, cap: int) -> Screen:
    """Candidate sentences in document order, at most ``cap`` (settings.graph.candidate_cap)."""
    found: list[Candidate] = []
    sentences = 0
    for loc in locations:
        for sentence in split_sentences(loc.text):
            sentences += 1
            variables = vocab.variables_in(sentence)
            if len(variables) >= 2:
                found.append(candidate_for(loc.location_id, sentence, variables))
    return Screen(candidates=found[:cap], sentences=sentences, dropped_by_cap=max(0, len(found) - cap))
