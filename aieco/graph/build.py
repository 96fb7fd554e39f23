"""The relation graph: a networkx MultiDiGraph over variables, and the as-of edge set A(t).

A(t) keeps accepted relations whose source was published on or before t (an unknown date is
excluded), whose effective role is allowed and whose jurisdiction is in the requested scope —
the rule of :class:`aieco.asof.AsOf`, the same one source eligibility uses.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from datetime import date

import networkx as nx

from aieco.asof import AsOf
from aieco.records import Relation, Role
from aieco.store import Store

GENERATION_ROLES = (Role.generation,)


def load_relations(store: Store, *, condition: str | None = None, accepted_only: bool = True) -> list[Relation]:
    """Stored relations of a graph condition (all conditions when None).

    With ``accepted_only`` the analyst's review decisions apply (aieco.review): a rejected
    relation is left out and a corrected one is replaced by its correction.
    """
    from aieco.review import effective_relations

    where: dict[str, object] = {}
    if condition is not None:
        where["graph_condition"] = condition
    if accepted_only:
        where["review_decision"] = "accepted"
    relations = store.find(Relation, order_by="relation_id", **where)
    return effective_relations(store, relations) if accepted_only else relations


def as_of_relations(
    relations: Iterable[Relation],
    as_of: AsOf | date | None,
    *,
    roles: Collection[Role | str] = GENERATION_ROLES,
    scope: Collection[str] | None = None,
    condition: str | None = None,
) -> list[Relation]:
    """The as-of edge set A(t): accepted, dated on or before the cutoff, allowed role, in scope.

    ``as_of`` is the request's :class:`AsOf` (then ``roles`` and ``scope`` are ignored) or a
    cutoff date (None: no date limit) combined with ``roles`` and ``scope``.
    """
    rule = as_of if isinstance(as_of, AsOf) else AsOf(cutoff=as_of, roles=roles, scope=scope)
    out = []
    for r in relations:
        if r.review_decision != "accepted" or (condition is not None and r.graph_condition != condition):
            continue
        if rule.admits(published=r.publication_date, jurisdiction=r.jurisdiction, role=r.role):
            out.append(r)
    return out


def relation_graph(relations: Iterable[Relation]) -> nx.MultiDiGraph:
    """Variables as nodes, one edge per relation keyed by its relation id."""
    g = nx.MultiDiGraph()
    for r in relations:
        g.add_edge(
            r.src_var,
            r.dst_var,
            key=r.relation_id,
            relation=r,
            sign=r.sign,
            confidence=r.confidence,
            source_id=r.source_id,
        )
    return g


def as_of_graph(
    relations: Store | Iterable[Relation],
    as_of: AsOf | date | None,
    *,
    roles: Collection[Role | str] = GENERATION_ROLES,
    scope: Collection[str] | None = None,
    condition: str | None = "G0",
) -> nx.MultiDiGraph:
    """The graph of A(t), from a store or from relation records."""
    if isinstance(relations, Store):
        relations = load_relations(relations, condition=condition)
    return relation_graph(as_of_relations(relations, as_of, roles=roles, scope=scope, condition=condition))
