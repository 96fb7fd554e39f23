"""Restriction derivation (paper §3.3 "Model request", appendix "Definition of a Stress Scenario").

The direction a channel implies is composed by the program from the recorded relation signs:
the source moves as registered, each later variable moves by the registered movement times
the product of the signs up to it. A path is refused when a step is not monotone or when the
implied target movement contradicts the query. Accepted paths yield restrictions on variables
that map to a model variable: the source at priority 1, the target at 2, intermediates at 3.
Conflicting directions for one model variable, or fewer restrictions than the model request
needs, stop the risk program before any model call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from aieco.config import get_settings
from aieco.errors import StageStopped
from aieco.graph.paths import compose_sign
from aieco.records import ChannelQuery, Derivation, Movement, Path, Restriction
from aieco.scenario.channels import registration_digest
from aieco.store import Store
from aieco.vocab import Vocabulary, load_vocabulary

DERIVATION_KIND = {1: "registered_movement", 2: "target", 3: "intermediate"}


@dataclass(frozen=True)
class DerivationOutcome:
    """The Derivation record and the restrictions it produced (none when stopped)."""

    derivation: Derivation
    restrictions: list[Restriction]

    @property
    def stopped(self) -> bool:
        return self.derivation.status == "stopped"


def _movement(direction: int) -> str:
    return Movement.increase.value if direction > 0 else Movement.decrease.value


def assess_path(path: Path, query: ChannelQuery) -> dict[str, Any]:
    """Composed sign, implied target movement and outcome (accepted / refused) of one path."""
    composed, why = compose_sign(path.signs)
    entry: dict[str, Any] = {
        "path_id": path.path_id,
        "query_id": query.query_id,
        "variables": path.variables,
        "signs": [s.value for s in path.signs],
        "composed_sign": composed.value if composed else None,
        "implied_target_movement": None,
        "outcome": "refused",
        "reason": why,
    }
    if composed is None:
        return entry
    implied = query.source_movement.direction * (1 if composed.value == "+" else -1)
    entry["implied_target_movement"] = _movement(implied)
    if implied != query.target_movement.direction:
        moved, source = _movement(implied), query.source_movement.value
        entry["reason"] = (
            f"{_article(source)} {source} in {query.source_var} implies "
            f"{_article(moved)} {moved} in {query.target_var} through composed "
            f"sign {composed.value}, contradicting the registered {query.target_movement.value}"
        )
        return entry
    entry["outcome"], entry["reason"] = "accepted", ""
    return entry


def _article(word: str) -> str:
    """ "an increase", "a decrease"."""
    return "an" if word[:1] in "aeiou" else "a"


def derive_restrictions(
    analysis_id: str,
    risk: str,
    queries: Sequence[ChannelQuery],
    paths: Sequence[Path],
    *,
    vocab: Vocabulary | None = None,
    min_restrictions: int = 1,
    graph_condition: str = "G0",
    retrieval_condition: str = "graph",
    horizon: str | None = None,
) -> DerivationOutcome:
    """Assess every path and derive the risk program's restrictions (pure: no store).

    ``horizon`` is the request's ('YYYY-YYYY'); the settings' default when None.
    """
    vocab = vocab or load_vocabulary()
    by_query = {q.query_id: q for q in queries}
    if horizon is None:
        sc = get_settings().scenario
        horizon = f"{sc.horizon_start}-{sc.horizon_end}"
    assessed = []
    # model variable → {"direction", "priority", "support", "variable", "path_id"}
    chosen: dict[str, dict[str, Any]] = {}
    conflicts: dict[str, set[int]] = {}
    for path in paths:
        query = by_query.get(path.query_id)
        if query is None:
            assessed.append(
                {
                    "path_id": path.path_id,
                    "query_id": path.query_id,
                    "composed_sign": None,
                    "implied_target_movement": None,
                    "outcome": "refused",
                    "reason": "the path belongs to no registered query of this risk",
                }
            )
            continue
        entry = assess_path(path, query)
        assessed.append(entry)
        if entry["outcome"] != "accepted":
            continue
        direction = query.source_movement.direction
        for i, var in enumerate(path.variables):
            if i > 0:
                direction *= 1 if path.signs[i - 1].value == "+" else -1
            priority = 1 if i == 0 else 2 if i == len(path.variables) - 1 else 3
            model_var = vocab.model_variable(var)
            if model_var is None:
                continue
            # Support: the relations of the steps touching this variable (all pooled evidence).
            steps = [j for j in (i - 1, i) if 0 <= j < len(path.evidence)]
            support = sorted({rid for j in steps for rid in path.evidence[j]})
            conflicts.setdefault(model_var, set()).add(direction)
            cur = chosen.get(model_var)
            if cur is None:
                chosen[model_var] = {
                    "direction": direction,
                    "priority": priority,
                    "support": set(support),
                    "variable": var,
                    "path_id": path.path_id,
                }
            elif cur["direction"] == direction:
                cur["support"].update(support)
                if priority < cur["priority"]:
                    cur.update(priority=priority, variable=var, path_id=path.path_id)
    reg = registration_digest(queries)
    conflicting = sorted(m for m, d in conflicts.items() if len(d) > 1)
    restrictions: list[Restriction] = []
    status, reason = "accepted", ""
    if conflicting:
        status = "stopped"
        reason = f"conflicting directions for {', '.join(conflicting)} across accepted paths"
    else:
        for model_var, c in sorted(chosen.items()):
            restrictions.append(
                Restriction.create(
                    analysis_id=analysis_id,
                    risk=risk,
                    variable=c["variable"],
                    model_variable=model_var,
                    direction=c["direction"],
                    reference=vocab.reference(c["variable"]),
                    horizon=horizon,
                    priority=c["priority"],
                    supporting_relation_ids=sorted(c["support"]),
                    derivation=DERIVATION_KIND[c["priority"]],
                    path_id=c["path_id"],
                    graph_condition=graph_condition,
                    retrieval_condition=retrieval_condition,
                )
            )
        if len(restrictions) < min_restrictions:
            status = "stopped"
            refused = sum(a["outcome"] == "refused" for a in assessed)
            reason = (
                f"{len(restrictions)} restriction(s) derived, fewer than the {min_restrictions} the model "
                f"request needs ({refused} of {len(assessed)} assessed paths refused)"
            )
            restrictions = []
    derivation = Derivation.create(
        analysis_id=analysis_id,
        risk=risk,
        assessed=assessed,
        restriction_ids=[r.restriction_id for r in restrictions],
        status=status,
        reason=reason,
        registration_digest=reg,
        graph_condition=graph_condition,
    )
    return DerivationOutcome(derivation, restrictions)


def record_derivation(store: Store, outcome: DerivationOutcome) -> list[Restriction]:
    """Store the derivation and its restrictions; a stopped derivation raises StageStopped after storing."""
    store.put_many([outcome.derivation, *outcome.restrictions])
    if outcome.stopped:
        raise StageStopped(
            f"risk {outcome.derivation.risk}: {outcome.derivation.reason}", stage="restriction_derivation"
        )
    return outcome.restrictions
