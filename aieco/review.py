"""Analyst review of relations: accept, reject or correct, as append-only ReviewDecision records.

The library entry points (the CLI ``aieco review`` and the dashboard's Channel graph page call
these):

* :func:`review_relation` — record one decision (and, for a correction, the corrected Relation);
* :func:`review_table` — every relation with its current review state, for display;
* :func:`effective_relations` — the relations the as-of graph and path search may use:
  a rejected relation is left out, a corrected one is replaced by its correction;
* :func:`review_state` — "rejected", "corrected" or None for one relation (the report stage
  refuses to cite a relation whose state is not None).

Nothing is overwritten: the original relation, the decision and the corrected relation all
stay; the latest decision on a relation (by time, then id) is the one in force.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Iterable
from datetime import datetime
from typing import Any, Literal

from aieco.errors import InputError
from aieco.records import Relation, Report, Restriction, ReviewDecision, Sign, utc_now
from aieco.store import Store
from aieco.vocab import load_vocabulary

Action = Literal["accept", "reject", "correct"]
REVIEW_EXTRACTOR = "analyst-review"


def default_analyst() -> str:
    """$AIECO_ANALYST, else the login name."""
    name = os.environ.get("AIECO_ANALYST")
    if name:
        return name
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def _latest(decisions: Iterable[ReviewDecision]) -> dict[str, ReviewDecision]:
    out: dict[str, ReviewDecision] = {}
    for d in sorted(decisions, key=lambda d: (d.decided_at, d.decision_id)):
        out[d.relation_id] = d
    return out


def review_relation(
    store: Store,
    relation_id: str,
    action: Action,
    *,
    sign: str | None = None,
    src_var: str | None = None,
    dst_var: str | None = None,
    note: str = "",
    analyst: str | None = None,
    decided_at: datetime | None = None,
) -> ReviewDecision:
    """Record one analyst decision on ``relation_id`` and return it.

    ``action`` is "accept", "reject" or "correct"; a correction gives a new ``sign`` and/or new
    ``src_var``/``dst_var`` and writes the corrected Relation (same quote, location and source).
    Raises InputError (nothing written) for an unknown relation, a relation rejected by
    validation, an unknown variable or sign, or a correction that changes nothing.
    """
    rel = store.get(Relation, relation_id)
    if rel is None:
        raise InputError(
            f"unknown relation {relation_id!r}",
            where="review",
            fix="take the id from `aieco paths --json` or the Channel graph page",
        )
    if rel.review_decision != "accepted":
        raise InputError(
            f"relation {relation_id} was rejected by validation ({rel.rejection_reason}); a review cannot admit it",
            where="review",
            fix="review an accepted relation",
        )
    if action not in ("accept", "reject", "correct"):
        raise InputError(f"unknown review action {action!r}", where="review", fix="accept, reject or correct")
    analyst = (analyst or default_analyst()).strip()
    if not analyst:
        raise InputError("the analyst is empty", where="review", fix="pass --analyst NAME or set $AIECO_ANALYST")
    when = decided_at or utc_now()
    corrected: Relation | None = None
    new_sign: Sign | None = None
    if action == "correct":
        if sign is None and src_var is None and dst_var is None:
            raise InputError(
                "a correction needs a new sign or new variables",
                where="review",
                fix="use --sign + or -, or --vars SRC DST",
            )
        vocab = load_vocabulary()
        for v in (src_var, dst_var):
            if v is not None and v not in vocab:
                raise InputError(f"unknown variable {v!r}", where="review", fix="run `aieco vocab` for the ids")
        if sign is not None:
            try:
                new_sign = Sign(sign)
            except ValueError as exc:
                raise InputError(
                    f"unknown sign {sign!r}", where="review", fix=f"use one of {', '.join(s.value for s in Sign)}"
                ) from exc
        src, dst = src_var or rel.src_var, dst_var or rel.dst_var
        if src == dst:
            raise InputError(
                f"a relation needs two distinct variables, not {src} → {dst}",
                where="review",
                fix="name a different source or target",
            )
        final_sign = new_sign or rel.sign
        if (src, dst, final_sign) == (rel.src_var, rel.dst_var, rel.sign):
            raise InputError("the correction changes nothing", where="review", fix="use --accept instead")
        fields = rel.model_dump()
        fields.pop("relation_id")
        fields.update(
            src_var=src,
            dst_var=dst,
            sign=final_sign,
            extractor=f"{REVIEW_EXTRACTOR}:{relation_id}",
            verb=f"{rel.verb} (corrected by {analyst})".strip(),
            reader=f"analyst:{analyst}",
        )
        corrected = Relation.create(**fields)
    elif sign is not None or src_var is not None or dst_var is not None:
        raise InputError(
            f"--sign/--vars go with a correction, not with {action}",
            where="review",
            fix="give either --accept, --reject, or the correction alone",
        )
    decision = ReviewDecision.create(
        relation_id=relation_id,
        action=action,
        sign=new_sign,
        src_var=src_var,
        dst_var=dst_var,
        corrected_relation_id=corrected.relation_id if corrected else None,
        note=note,
        analyst=analyst,
        decided_at=when,
    )
    with store.transaction():
        if corrected is not None:
            store.put(corrected)
        store.put(decision)
    return decision


def effective_relations(store: Store, relations: Iterable[Relation]) -> list[Relation]:
    """``relations`` as the analyst's decisions leave them: rejected and corrected ones out,
    a correction in only while it is the decision in force on its original."""
    decisions = store.find(ReviewDecision)
    relations = list(relations)
    if not decisions:
        return relations
    latest = _latest(decisions)
    correction_of = {d.corrected_relation_id: d.relation_id for d in decisions if d.corrected_relation_id}
    out = []
    for r in relations:
        original = correction_of.get(r.relation_id)
        if original is not None:
            in_force = latest.get(original)
            if in_force is None or in_force.corrected_relation_id != r.relation_id:
                continue
        d = latest.get(r.relation_id)
        if d is not None and d.action in ("reject", "correct"):
            continue
        out.append(r)
    return out


def is_correction(extractor: str) -> bool:
    """A Relation's ``extractor`` names an analyst's correction (written by :func:`review_relation`)."""
    return extractor.startswith(f"{REVIEW_EXTRACTOR}:")


def backend_of(extractor: str) -> str | None:
    """The LLM backend named at the end of a Relation's ``extractor`` ("extraction@v3/offline", or with the offline
    reader after it: "extraction@v3/offline/reader=combined"), if any."""
    head, _, tail = extractor.rpartition("/")
    if tail.startswith("reader="):
        extractor = head
    _, slash, backend = extractor.rpartition("/")
    return backend if slash and not is_correction(extractor) else None


def offline_reader_of(extractor: str) -> str:
    """The offline reader (rules, learned or combined) named in an ``extractor``; the rules when none is named."""
    _, _, tail = extractor.rpartition("/")
    return tail.removeprefix("reader=") if tail.startswith("reader=") else "rules"


#: How each backend's reading is named where a reader of a report sees it.
READ_BY = {"offline": "the offline rule reader", "openai": "an LLM (openai backend)", "replay": "a replayed LLM answer"}
#: The offline reader other than the rules, named in the same place.
OFFLINE_READ_BY = {
    "learned": "the offline learned reader",
    "combined": "the offline rule and learned readers combined",
    "strict": "the offline rule and learned readers combined (strict: rule readings the classifier rules out dropped)",
}


def citation_notes(
    store: Store, relation_ids: Iterable[str], decisions: list[ReviewDecision] | None = None
) -> dict[str, str]:
    """For each relation a report cites: who read it and what an analyst decided on it, as of now.

    "read by the offline rule reader; not reviewed by an analyst", "…; accepted by ana on 2025-01-03",
    "…; rejected by ana on 2025-01-03 (note)" (a rejection after the report was written), or for an
    analyst's correction "an analyst's correction (ana, 2025-01-03) of relation rel_…". ``decisions``:
    every ReviewDecision, when the caller has read them already.
    """
    ids = list(dict.fromkeys(relation_ids))
    rels = {r.relation_id: r for r in store.find(Relation, relation_id=ids)} if ids else {}
    decisions = store.find(ReviewDecision) if decisions is None else decisions
    latest = _latest(decisions)
    made_by = {d.corrected_relation_id: d for d in decisions if d.corrected_relation_id}
    out = {}
    for rid in ids:
        r = rels.get(rid)
        if r is None:
            continue
        if is_correction(r.extractor):
            d = made_by.get(rid)
            who = f" ({d.analyst}, {d.decided_at.date().isoformat()})" if d else ""
            out[rid] = f"an analyst's correction{who} of relation {r.extractor.split(':', 1)[1]}"
            continue
        backend = backend_of(r.extractor)
        by = READ_BY.get(backend, f"the {backend} backend")
        if backend == "offline":
            by = OFFLINE_READ_BY.get(offline_reader_of(r.extractor), by)
        read = f"read by {by}" if backend else "reader not recorded"
        d = latest.get(rid)
        if d is None:
            out[rid] = f"{read}; not reviewed by an analyst"
            continue
        when = d.decided_at.date().isoformat()
        done = {"accept": "accepted", "reject": "rejected", "correct": "corrected"}[d.action]
        extra = f" to {d.corrected_relation_id}" if d.action == "correct" and d.corrected_relation_id else ""
        note = f" ({d.note})" if d.note else ""
        out[rid] = f"{read}; {done}{extra} by {d.analyst} on {when}{note}"
    return out


def review_queue(store: Store, analysis_id: str) -> list[dict[str, Any]]:
    """The relations an analysis rests on, the ones no analyst has decided on first.

    A relation counts when a stored restriction of the analysis names it as support or one of its
    reports cites it; each row lists those uses. Order: not reviewed, then rejected or corrected
    since (the analysis used a relation that is out of use now: rerun it), then accepted or an
    analyst's own correction ("correction"); within each, the relation with more uses first.
    """
    uses: dict[str, list[str]] = {}
    for x in store.find(Restriction, analysis_id=analysis_id):
        for rid in x.supporting_relation_ids:
            uses.setdefault(rid, []).append(f"restriction on {x.variable} ({x.risk})")
    for rep in store.find(Report, analysis_id=analysis_id):
        for rid in rep.relation_ids:
            uses.setdefault(rid, []).append(f"cited in report {rep.report_id} ({rep.status})")
    if not uses:
        return []
    decisions = store.find(ReviewDecision)
    latest = _latest(decisions)
    notes = citation_notes(store, uses, decisions)
    rank = {None: 0, "reject": 1, "correct": 1, "accept": 2, "correction": 2}
    rows = []
    for rel in store.find(Relation, relation_id=list(uses)):
        d = latest.get(rel.relation_id)
        own = is_correction(rel.extractor)  # an analyst's correction needs no review
        rows.append(
            {
                "relation_id": rel.relation_id,
                "src_var": rel.src_var,
                "sign": rel.sign.value,
                "dst_var": rel.dst_var,
                "quote": rel.quote,
                "decision": d.action if d else ("correction" if own else None),
                "reader": rel.reader or "not recorded",
                "reading": notes.get(rel.relation_id, ""),
                "uses": sorted(set(uses[rel.relation_id])),
            }
        )
    rows.sort(key=lambda r: (rank[r["decision"]], -len(r["uses"]), r["relation_id"]))
    return rows


def decisions_digest(store: Store) -> str:
    """Digest of the decisions in force (relation -> latest decision id); "" when nothing was reviewed.

    Part of an analysis's inputs: a decision made after an analysis ran makes the re-run another
    version of the analysis, which applies it, instead of resuming from outputs made without it.
    """
    from aieco.records import digest

    decisions = store.find(ReviewDecision)
    if not decisions:
        return ""
    return digest({rid: d.decision_id for rid, d in sorted(_latest(decisions).items())})


def superseding_decisions(store: Store, report: Report) -> list[str]:
    """The decisions in force, made after ``report``, that take a relation it cites out of use: the
    report stays as it was written and is shown "superseded by review"; re-running its request
    makes a new version of the analysis that applies them."""
    decisions = store.find(ReviewDecision)
    if not decisions:
        return []
    latest = _latest(decisions)
    return sorted(
        latest[rid].decision_id
        for rid in report.relation_ids
        if rid in latest and latest[rid].action in ("reject", "correct") and review_state(store, rid) is not None
    )


def review_state(store: Store, relation_id: str) -> str | None:
    """ "rejected" or "corrected" when the decision in force takes the relation out of use, else None
    (also "superseded" for a correction that a later decision on its original replaced)."""
    decisions = store.find(ReviewDecision)
    if not decisions:
        return None
    latest = _latest(decisions)
    d = latest.get(relation_id)
    if d is not None and d.action == "reject":
        return "rejected"
    if d is not None and d.action == "correct":
        return "corrected"
    for x in decisions:
        if x.corrected_relation_id == relation_id:
            in_force = latest.get(x.relation_id)
            if in_force is None or in_force.corrected_relation_id != relation_id:
                return "superseded"
    return None


def review_table(store: Store, relation_ids: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """One row per relation (all, or ``relation_ids``): the relation, its decision in force and state."""
    where = {"relation_id": list(relation_ids)} if relation_ids is not None else {}
    rels = store.find(Relation, order_by="relation_id", **where)
    decisions = store.find(ReviewDecision)
    latest = _latest(decisions)
    counts: dict[str, int] = {}
    for d in decisions:
        counts[d.relation_id] = counts.get(d.relation_id, 0) + 1
    used = {r.relation_id for r in effective_relations(store, [r for r in rels if r.review_decision == "accepted"])}
    rows = []
    for r in rels:
        d = latest.get(r.relation_id)
        rows.append(
            {
                "relation_id": r.relation_id,
                "src_var": r.src_var,
                "dst_var": r.dst_var,
                "sign": r.sign.value,
                "quote": r.quote,
                "source_id": r.source_id,
                "location_id": r.location_id,
                "validation": r.review_decision,
                "in_use": r.relation_id in used,
                "decision": d.action if d else None,
                "corrected_relation_id": d.corrected_relation_id if d else None,
                "analyst": d.analyst if d else None,
                "decided_at": d.decided_at.isoformat() if d else None,
                "note": d.note if d else "",
                "decisions": counts.get(r.relation_id, 0),
                "is_correction": is_correction(r.extractor),
            }
        )
    return rows


def audit_reviews(store: Store, analysis_id: str | None = None) -> list[dict[str, str]]:
    """Audit check: every decision names a stored relation; a correction's relation exists, carries
    the corrected fields and the original's quote and location; an accept or reject names none."""
    problems: list[dict[str, str]] = []
    for d in store.find(ReviewDecision):
        rel = store.get(Relation, d.relation_id)
        if rel is None:
            problems.append(
                {
                    "kind": "review_decisions",
                    "id": d.decision_id,
                    "detail": f"decides on relation {d.relation_id}, which is not stored",
                }
            )
            continue
        if d.action != "correct":
            if d.corrected_relation_id or d.sign or d.src_var or d.dst_var:
                problems.append(
                    {
                        "kind": "review_decisions",
                        "id": d.decision_id,
                        "detail": f"an {d.action} decision carries correction fields",
                    }
                )
            continue
        fix = store.get(Relation, d.corrected_relation_id) if d.corrected_relation_id else None
        if fix is None:
            problems.append(
                {
                    "kind": "review_decisions",
                    "id": d.decision_id,
                    "detail": f"the corrected relation {d.corrected_relation_id} is not stored",
                }
            )
            continue
        want = (d.src_var or rel.src_var, d.dst_var or rel.dst_var, d.sign or rel.sign)
        if (fix.src_var, fix.dst_var, fix.sign) != want or (fix.quote, fix.location_id) != (rel.quote, rel.location_id):
            problems.append(
                {
                    "kind": "review_decisions",
                    "id": d.decision_id,
                    "detail": "the corrected relation does not match the decision or its original's quote",
                }
            )
    return problems
