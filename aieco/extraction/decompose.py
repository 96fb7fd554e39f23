"""G1: split a passage into short self-contained statements, each keeping its exact quote (after ATOM)."""

from __future__ import annotations

import re

from aieco.extraction.schemas import DecomposedStatement, DecompositionRequest, DecompositionResult
from aieco.extraction.screen import split_sentences

# Clause boundaries that separate independent statements; a relative clause ("which …") stays
# with its antecedent so the statement remains self-contained.
CLAUSE_SPLIT = re.compile(r";\s+|,\s+(?=(?:while|whereas|but|although)\b)|\s+(?=(?:whereas|although)\b)")
LEADING_CONJUNCTION = re.compile(r"^(?:while|whereas|but|although|and)\s+", re.IGNORECASE)


def decompose_passage(text: str) -> list[tuple[str, str]]:
    """(statement, quote) pairs; every quote is an exact span of the whitespace-normalised passage."""
    out = []
    for sentence in split_sentences(text):
        start = 0
        pieces = []
        for m in CLAUSE_SPLIT.finditer(sentence):
            pieces.append(sentence[start : m.start()])
            start = m.end()
        pieces.append(sentence[start:])
        for quote in pieces:
            quote = quote.strip()
            if len(quote.split()) < 3:
                continue
            statement = LEADING_CONJUNCTION.sub("", quote).rstrip(".;, ")
            statement = statement[:1].upper() + statement[1:] + "."
            out.append((statement, quote))
    return out


def decompose_offline(request: DecompositionRequest) -> DecompositionResult:
    """Offline implementation of the G1 task."""
    return DecompositionResult(
        statements=[
            DecomposedStatement(location_id=p.location_id, text=s, quote=q)
            for p in request.passages
            for s, q in decompose_passage(p.text)
        ]
    )
