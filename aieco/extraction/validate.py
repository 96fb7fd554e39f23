"""Validation of a proposed relation before it is written (paper §3.2, "Knowledge Base Construction").

A relation is written only when its location is registered, its endpoints are two distinct
vocabulary variables, its quote occurs in the location text (:func:`aieco.quotes.quote_occurs`: up to whitespace,
line-break hyphenation, ligatures and typography) and
its sign and evidence class are in the allowed sets. A quote that stops mid-sentence is extended to
the end of its sentence in the location text (``complete_quote``), and a quote that does not
name both of the relation's variables (a vocabulary synonym counts) is refused
(``quote_lacks_variable``): the quote must state what the relation says. A quote whose sentence
runs past the end of its passage (a page break) is refused (``quote_incomplete``). A rejected candidate is
kept as a Relation with ``review_decision="rejected"`` and its reason.
"""

from __future__ import annotations

import re
from datetime import date

from aieco.extraction.schemas import ProposedRelation
from aieco.quotes import locate_quote, quote_occurs
from aieco.records import EvidenceClass, Relation, Role, Sign, Source, SourceLocation
from aieco.vocab import Vocabulary

ALLOWED_SIGNS = frozenset(s.value for s in Sign)
ALLOWED_CLASSES = frozenset(c.value for c in EvidenceClass)
#: The end of a sentence: a full stop, question or exclamation mark, maybe a closing quote or bracket and a
#: footnote number, followed by a space or the end of the text.
SENTENCE_END = re.compile(r"[.!?][\"')\]\u2019\u201d]*(?:\[\d{1,3}\]|\d{1,2})?(?=\s|$)")


def complete_quote(quote: str, text: str) -> str:
    """``quote`` extended to the end of its sentence in ``text`` (unchanged when it already ends one,
    or when it is not found: validation then refuses it)."""
    own = quote.rstrip()
    if not own or _ends_sentence(own):
        return quote
    span = locate_quote(quote, text)
    if span is None:
        return quote
    m = SENTENCE_END.search(text, span[1])
    stop = m.end() if m else len(text.rstrip())
    rest = " ".join(text[span[1] : stop].split())
    if not rest:
        return quote
    return own + ("" if rest[0] in ".,;:!?)]\u2019\u201d" else " ") + rest


def _ends_sentence(text: str) -> bool:
    ends = [m.end() for m in SENTENCE_END.finditer(text)]
    return bool(ends) and ends[-1] == len(text)


def lacking_variables(p: ProposedRelation, vocab: Vocabulary) -> list[str]:
    """The relation's variables its quote does not name (synonyms count)."""
    named = set(vocab.variables_in(p.quote))
    return [v for v in dict.fromkeys((p.src_var, p.dst_var)) if v not in named]


def rejection_reason(p: ProposedRelation, location: SourceLocation | None, vocab: Vocabulary) -> str | None:
    """Why ``p`` cannot be written, or None when it passes every check."""
    if location is None:
        return "location_not_registered"
    for end in (p.src_var, p.dst_var):
        if end not in vocab:
            return f"unknown_variable: {end}"
    if p.src_var == p.dst_var:
        return "same_variable"
    if not p.quote.strip() or not quote_occurs(p.quote, location.text):
        return "quote_not_found"
    if not _ends_sentence(p.quote.rstrip()):
        return "quote_incomplete: its sentence continues beyond the passage (e.g. across a page break)"
    missing = lacking_variables(p, vocab)
    if missing:
        return "quote_lacks_variable: " + ", ".join(missing)
    if p.sign not in ALLOWED_SIGNS:
        return f"sign_not_allowed: {p.sign}"
    if p.evidence_class not in ALLOWED_CLASSES:
        return f"evidence_class_not_allowed: {p.evidence_class}"
    return None


def effective_role(source: Source | None, location: SourceLocation | None) -> Role:
    """The location's role override beats the source role (chunk-level eligibility)."""
    if location is not None and location.role_override is not None:
        return location.role_override
    return source.role if source is not None else Role.generation


def to_relation(
    p: ProposedRelation,
    *,
    location_id: str,
    location: SourceLocation | None,
    source: Source | None,
    vocab: Vocabulary,
    condition: str,
    extractor: str,
    extra_reason: str | None = None,
    reader: str | None = None,
) -> Relation:
    """The Relation record of a proposal, accepted or rejected with its reason."""
    if location is not None:
        p = p.model_copy(update={"quote": complete_quote(p.quote, location.text)})
    reason = rejection_reason(p, location, vocab) or extra_reason
    sign = p.sign if p.sign in ALLOWED_SIGNS else Sign.ambiguous.value
    ec = p.evidence_class if p.evidence_class in ALLOWED_CLASSES else EvidenceClass.unknown.value
    unresolved = [f for f in ("horizon", "sector", "regime", "empirical_basis") if getattr(p, f) is None]
    pub: date | None = source.publication_date if source is not None else None
    return Relation.create(
        src_var=p.src_var,
        dst_var=p.dst_var,
        sign=sign,
        evidence_class=ec,
        verb=p.verb,
        quote=p.quote,
        location_id=location_id,
        source_id=location.source_id if location is not None else "",
        publication_date=pub,
        role=effective_role(source, location),
        horizon=p.horizon,
        jurisdiction=p.jurisdiction or (source.jurisdiction if source is not None else None),
        sector=p.sector,
        regime=p.regime,
        empirical_basis=p.empirical_basis,
        confidence=min(1.0, max(0.0, p.confidence)),
        graph_condition=condition,
        extractor=extractor,
        reader=reader if reader is not None else p.reader,
        review_decision="rejected" if reason else "accepted",
        rejection_reason=reason,
        unresolved_attributes=unresolved,
    )
