"""Graph construction conditions built on the same eligible passages (§5.2, appendix "Comparison Design").

A comparison of G0, G1 and G2 is fair only when every condition read the same eligible
passages. Each build is therefore recorded — the passages it read and its workload
(requests, candidates, accepted relations) — as a JSON artifact listed in the workspace's
``graph_builds/<condition>.txt`` (one artifact digest per line, append-only). A condition's
input is the eligible passage set at the cutoff intersected with what its builds read; the
comparison refuses conditions whose inputs differ, and a condition that is missing is built
over exactly the eligible passages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import pandas as pd

from aieco.errors import IntegrityError
from aieco.evaluation.comparison import GRAPH_CONDITIONS, graph_condition
from aieco.extraction.build import BuildReport, build_relations
from aieco.records import Relation, Role, SourceLocation, digest
from aieco.sources.eligibility import eligible_locations
from aieco.store import Store

BUILD_DIR = "graph_builds"
ProgressFn = Callable[[str, int, int], None]


def eligible_passages(store: Store, cutoff: date) -> list[SourceLocation]:
    """Eligible generation passages at the cutoff: the text every condition is built from."""
    return eligible_locations(store, cutoff=cutoff, roles=[Role.generation], kinds=("passage",)).eligible


def passages_digest(location_ids: Sequence[str] | set[str]) -> str:
    return digest(sorted(location_ids))


def record_build(store: Store, report: BuildReport, locations: Sequence[SourceLocation]) -> str:
    """Store one build (passages read + workload) and list it under its condition; returns the digest."""
    ids = sorted({loc.location_id for loc in locations if loc.kind == "passage" and loc.text.strip()})
    d = store.put_json(
        {
            "condition": report.condition,
            "passages": ids,
            "passages_digest": passages_digest(ids),
            "report": report.model_dump(mode="json"),
        },
        "graph_build",
    )
    pointer = store.path / BUILD_DIR / f"{report.condition}.txt"
    listed = pointer.read_text().split() if pointer.is_file() else []
    if d not in listed:  # the list only grows; the store records each version's digest for the audit
        store.write_file(pointer, "".join(x + "\n" for x in [*listed, d]).encode())
    return d


def recorded_builds(store: Store, condition: str) -> list[dict[str, Any]]:
    """Every recorded build of ``condition``, oldest first."""
    pointer = store.path / BUILD_DIR / f"{condition}.txt"
    if not pointer.is_file():
        return []
    return [store.get_json(d) for d in pointer.read_text().split()]


def build_condition(
    store: Store, condition: str, locations: Sequence[SourceLocation], progress: ProgressFn | None = None, **kwargs: Any
) -> BuildReport:
    """``build_relations`` over ``locations``, recorded with the passages it read."""
    report = build_relations(store, condition=condition, locations=locations, progress=progress, **kwargs)
    record_build(store, report, locations)
    return report


@dataclass(frozen=True)
class ConditionInput:
    """What one graph condition was built from, and what building it cost."""

    condition: str
    origin: str  # built (by this evaluation) | recorded | unrecorded (relations without a build record)
    eligible: int  # eligible passages at the cutoff
    read: int | None  # eligible passages the condition's builds read (None: unrecorded)
    passages_digest: str | None  # digest of those passages (None: unrecorded)
    workload: dict[str, int]

    @property
    def input_coverage(self) -> float | None:
        """Share of the eligible passages the condition's builds read."""
        if self.read is None:
            return None
        return self.read / self.eligible if self.eligible else 1.0


WORKLOAD = ("sentences", "requests", "candidates", "dropped_by_cap", "proposed", "accepted")


def prepare_conditions(
    store: Store,
    conditions: Sequence[str],
    cutoff: date,
    *,
    build_missing: bool = True,
    progress: ProgressFn | None = None,
) -> list[ConditionInput]:
    """Each executable condition's input, building a condition without relations over the eligible passages.

    A condition that already has relations is not rebuilt (another backend's relations are
    never mixed with offline ones); its recorded builds tell which passages it read.
    """
    eligible = eligible_passages(store, cutoff)
    eligible_ids = {loc.location_id for loc in eligible}
    out = []
    for name in conditions:
        if not graph_condition(name).executable:
            continue
        origin = "recorded"
        if not store.count(Relation, graph_condition=name) and not recorded_builds(store, name) and build_missing:
            build_condition(store, name, eligible, progress=progress)
            origin = "built"
        builds = recorded_builds(store, name)
        if not builds:
            out.append(ConditionInput(name, "unrecorded", len(eligible_ids), None, None, {}))
            continue
        read = set().union(*(set(b["passages"]) for b in builds)) & eligible_ids
        latest = builds[-1]["report"]
        out.append(
            ConditionInput(
                name, origin, len(eligible_ids), len(read), passages_digest(read), {k: int(latest[k]) for k in WORKLOAD}
            )
        )
    return out


def require_same_passages(inputs: Sequence[ConditionInput]) -> None:
    """Refuse a comparison of conditions built from different eligible passages."""
    known = {i.condition: i.passages_digest for i in inputs if i.passages_digest is not None}
    if len(set(known.values())) > 1:
        detail = ", ".join(
            f"{c}: {d[:12]} ({i.read} passages)"
            for (c, d), i in zip(known.items(), [i for i in inputs if i.passages_digest is not None], strict=True)
        )
        raise IntegrityError(
            f"graph conditions were built from different eligible passages ({detail}); a comparison cannot mix them",
            fix="rebuild the differing condition over the eligible passages (aieco graph build --condition …)",
        )


def inputs_table(inputs: Sequence[ConditionInput], relations: dict[str, int]) -> pd.DataFrame:
    """Input coverage and workload per condition; G3–G5 listed as specified configurations (not run)."""
    by_name = {i.condition: i for i in inputs}
    rows = []
    for name, spec in GRAPH_CONDITIONS.items():
        i = by_name.get(name)
        row: dict[str, Any] = {
            "condition": name,
            "status": (
                "not run: specified configuration" if not spec.executable else i.origin if i else "not requested"
            ),
            "eligible_passages": i.eligible if i else None,
            "passages_read": i.read if i else None,
            "input_coverage": i.input_coverage if i else None,
            "passages_digest": i.passages_digest if i else None,
            "relations_in_graph": relations.get(name) if i else None,
        }
        for k in WORKLOAD:
            row[k] = i.workload.get(k) if i else None
        row["description"] = spec.description
        rows.append(row)
    return pd.DataFrame(rows)
