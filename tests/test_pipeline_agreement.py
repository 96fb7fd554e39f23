"""Agreement across repetitions (paper §5.4), computed by hand on small cases."""

from __future__ import annotations

import pytest

from aieco.analysis.pipeline import ProgramOutcome, agreement


def prog(rep, risk, paths=None, warnings=()):
    reached = paths is not None
    return ProgramOutcome(
        analysis_id=f"an_{rep}",
        risk=risk,
        repetition=rep,
        status="completed" if reached else "stopped",
        stopped_stage=None if reached else "planning",
        reason="",
        report_id=None,
        selected_paths=tuple(paths or ()),
        warning_subjects=tuple(warnings),
        reached=reached,
    )


def test_one_repetition_has_no_agreement():
    assert agreement([prog(1, "a", ["p1"])]) is None


def test_identical_repetitions_agree_fully():
    progs = [prog(r, k, [f"{k}_p"], ["x->y"]) for r in (1, 2, 3) for k in ("a", "b")]
    g = agreement(progs)
    assert (g.pairs, g.path_agreement, g.warning_jaccard) == (3, 1.0, 1.0)


def test_unreached_risk_counts_as_disagreement_and_path_sets_compare_unordered():
    # rep1 reaches a and b; rep2 reaches a (same set, other order) and not b.
    progs = [
        prog(1, "a", ["p1", "p2"], ["u->v", "v->w"]),
        prog(1, "b", ["q1"]),
        prog(2, "a", ["p2", "p1"], ["u->v"]),
        prog(2, "b", None),
    ]
    g = agreement(progs)
    assert g.pairs == 1
    assert g.path_agreement == pytest.approx(1 / 2)  # union {a, b}: a agrees, b unreached by rep2
    assert g.warning_jaccard == pytest.approx(1 / 2)  # {(a,u->v),(a,v->w)} vs {(a,u->v)}


def test_three_repetitions_average_over_all_pairs():
    progs = [prog(1, "a", ["p1"]), prog(2, "a", ["p1"]), prog(3, "a", ["p9"])]
    g = agreement(progs)
    # pairs (1,2)=1, (1,3)=0, (2,3)=0
    assert g.pairs == 3 and g.path_agreement == pytest.approx(1 / 3)
    assert g.warning_jaccard == 1.0  # no warnings anywhere: empty sets agree


def test_nothing_reached_by_either_repetition_is_agreement():
    progs = [prog(1, "a", None), prog(2, "a", None)]
    assert agreement(progs).path_agreement == 1.0
