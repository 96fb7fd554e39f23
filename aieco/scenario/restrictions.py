"""Restriction derivation for one risk program, against the store (the pipeline's entry point).

The rules live in :mod:`aieco.scenario.derive` (pure); this module stores the Derivation and its
Restrictions and returns the Derivation, whose ``status`` says whether the program may go on.
"""

from __future__ import annotations

from collections.abc import Sequence

from aieco.records import ChannelQuery, Derivation, Path
from aieco.scenario.derive import derive_restrictions
from aieco.store import Store


def derive_for_risk(store: Store, *, analysis_id: str, risk: str, queries: Sequence[ChannelQuery],
                    paths: Sequence[Path], min_restrictions: int = 1, graph_condition: str = "G0",
                    retrieval_condition: str = "graph") -> Derivation:
    """Assess the selected paths, store the Derivation and its restrictions; a stop is a stored result."""
    outcome = derive_restrictions(analysis_id, risk, queries, sorted(paths, key=lambda p: (p.query_id, p.rank)),
                                  min_restrictions=min_restrictions, graph_condition=graph_condition,
                                  retrieval_condition=retrieval_condition)
    store.put_many([outcome.derivation, *outcome.restrictions])
    return outcome.derivation
