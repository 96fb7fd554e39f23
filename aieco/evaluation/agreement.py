"""Agreement across repetitions of one configuration (§5.4, appendix "Reports and Execution Records").

For a pair of repetitions, path agreement is measured over the union of the risks either
reached: a risk agrees when both reached it and selected the same set of paths; a risk
reached by only one counts as disagreement. Warning similarity is the Jaccard index of
the warning subjects. Both are averaged over all pairs, and separately over the pairs of
repetitions that completed every risk (agreement conditional on completion).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd


@dataclass(frozen=True)
class Repetition:
    """One repetition: selected path ids per reached risk, warning subjects, completion.

    ``warning_subjects`` is None when the run records no warnings to compare.
    """

    repetition_id: str
    selections: Mapping[str, frozenset[str]] = field(default_factory=dict)
    warning_subjects: frozenset[str] | None = frozenset()
    completed: bool = False


def pair_path_agreement(a: Repetition, b: Repetition) -> float:
    """Share of the risks reached by either repetition on which both selected the same paths.

    Two repetitions that reached no risk have nothing to disagree on: 1.0.
    """
    risks = set(a.selections) | set(b.selections)
    if not risks:
        return 1.0
    same = sum(r in a.selections and r in b.selections and a.selections[r] == b.selections[r] for r in risks)
    return same / len(risks)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    """|A ∩ B| / |A ∪ B|; two empty sets are identical (1.0)."""
    union = a | b
    return len(a & b) / len(union) if union else 1.0


@dataclass(frozen=True)
class AgreementResult:
    """Agreement statistics over all pairs and over pairs of completed repetitions."""

    n_repetitions: int
    n_completed: int
    n_pairs: int
    path_agreement: float | None
    warning_jaccard: float | None
    n_completed_pairs: int
    path_agreement_completed: float | None
    warning_jaccard_completed: float | None

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame([self.__dict__])


def _means(pairs: list[tuple[Repetition, Repetition]]) -> tuple[float | None, float | None]:
    if not pairs:
        return None, None
    path = sum(pair_path_agreement(a, b) for a, b in pairs) / len(pairs)
    if any(a.warning_subjects is None or b.warning_subjects is None for a, b in pairs):
        return path, None
    warn = sum(jaccard(a.warning_subjects, b.warning_subjects) for a, b in pairs) / len(pairs)
    return path, warn


def agreement(repetitions: Sequence[Repetition]) -> AgreementResult:
    """Path agreement and warning-subject Jaccard over all pairs and conditional on completion."""
    pairs = list(itertools.combinations(repetitions, 2))
    done = [r for r in repetitions if r.completed]
    done_pairs = list(itertools.combinations(done, 2))
    path, warn = _means(pairs)
    path_c, warn_c = _means(done_pairs)
    return AgreementResult(
        n_repetitions=len(repetitions),
        n_completed=len(done),
        n_pairs=len(pairs),
        path_agreement=path,
        warning_jaccard=warn,
        n_completed_pairs=len(done_pairs),
        path_agreement_completed=path_c,
        warning_jaccard_completed=warn_c,
    )


def repetitions_from_programs(programs: Sequence[Any]) -> list[Repetition]:
    """Group per-risk program outcomes (``aieco.analysis.pipeline.ProgramOutcome``) into repetitions.

    A risk is reached when its evidence selection was accepted; warning subjects are kept
    as "risk: subject"; a repetition is completed when every one of its programs completed.
    """
    by_rep: dict[int, list[Any]] = {}
    for p in programs:
        by_rep.setdefault(p.repetition, []).append(p)
    out = []
    for rep in sorted(by_rep):
        progs = by_rep[rep]
        out.append(
            Repetition(
                repetition_id=str(rep),
                selections={p.risk: frozenset(p.selected_paths) for p in progs if p.reached},
                warning_subjects=frozenset(f"{p.risk}: {w}" for p in progs for w in p.warning_subjects),
                completed=all(p.status == "completed" for p in progs),
            )
        )
    return out
