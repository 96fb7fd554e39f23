"""Validation of a proposed relation before it is written (paper §3.2, "Knowledge Base Construction").

A relation is written only when its location is registered, its endpoints are two distinct
vocabulary variables, its quote occurs in the location text (:func:`aieco.quotes.quote_occurs`: up to whitespace,
line-break hyphenation, ligatures and typography) and
its sign and evidence class are in the allowed sets. A rejected candidate is kept as a Relation
with ``review_decision="rejected"`` and its reason.
"""

from __future__ import annotations

from datetime import date

from aieco.extraction.schemas import ProposedRelation
from aieco.quotes import quote_occurs
from aieco.records import EvidenceClass, Relation, Role, Sign, Source, SourceLocation
from aieco.vocab import Vocabulary

ALLOWED_SIGNS = frozenset(s.value for s in Sign)
ALLOWED_CLASSES = frozenset(c.value for c in EvidenceClass)


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
) -> Relation:
    """The Relation record of a proposal, accepted or rejected with its reason."""
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
        review_decision="rejected" if reason else "accepted",
        rejection_reason=reason,
        unresolved_attributes=unresolved,
    )
