"""Agreement across repetitions on hand-made repetitions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aieco.analysis.pipeline import ProgramOutcome
from aieco.analysis.pipeline import agreement as pipeline_agreement
from aieco.evaluation.agreement import (
    Repetition,
    agreement,
    jaccard,
    pair_path_agreement,
    repetitions_from_programs,
)

F = frozenset


def test_unreached_risk_counts_as_disagreement():
    a = Repetition("1", {"tf": F({"p1"}), "pc": F({"p2"})}, F({"gdp"}), completed=True)
    b = Repetition("2", {"tf": F({"p1"})}, F(), completed=False)
    assert pair_path_agreement(a, b) == 0.5
    assert pair_path_agreement(b, Repetition("3")) == 0.0
    assert pair_path_agreement(Repetition("3"), Repetition("4")) == 1.0


def test_selections_compare_as_sets():
    a = Repetition("1", {"tf": F({"p1", "p2"})})
    b = Repetition("2", {"tf": F({"p2", "p1"})})
    c = Repetition("3", {"tf": F({"p1"})})
    assert pair_path_agreement(a, b) == 1.0
    assert pair_path_agreement(a, c) == 0.0


def test_jaccard():
    assert jaccard(F({"a", "b"}), F({"b", "c"})) == pytest.approx(1 / 3)
    assert jaccard(F(), F()) == 1.0


def test_agreement_over_all_pairs_and_conditional_on_completion():
    full = {"tf": F({"p1"}), "pc": F({"p2"}), "mi": F({"p3"})}
    r1 = Repetition("1", full, F({"gdp", "house"}), completed=True)
    r2 = Repetition("2", full, F({"gdp", "house"}), completed=True)
    r3 = Repetition("3", {"tf": F({"p1"}), "pc": F({"p9"})}, F({"gdp"}), completed=False)
    res = agreement([r1, r2, r3])
    # Pairs: (1,2) agree on 3/3; (1,3) and (2,3): tf agrees, pc differs, mi unreached -> 1/3.
    assert res.n_pairs == 3
    assert res.path_agreement == pytest.approx((1 + 1 / 3 + 1 / 3) / 3)
    assert res.warning_jaccard == pytest.approx((1 + 0.5 + 0.5) / 3)
    assert res.n_completed == 2 and res.n_completed_pairs == 1
    assert res.path_agreement_completed == 1.0 and res.warning_jaccard_completed == 1.0


def test_fewer_than_two_repetitions_give_no_statistic():
    res = agreement([Repetition("1")])
    assert res.n_pairs == 0 and res.path_agreement is None and res.path_agreement_completed is None


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(
                st.sampled_from(["tf", "pc", "mi"]),
                st.booleans(),
                st.sets(st.sampled_from(["p1", "p2"]), max_size=2),
                st.sets(st.sampled_from(["w1", "w2"]), max_size=2),
            ),
            min_size=1,
            max_size=3,
        ),
        min_size=2,
        max_size=4,
    )
)
def test_over_all_pairs_equals_the_pipeline_statistic(reps):
    programs = []
    for k, progs in enumerate(reps, start=1):
        for risk, reached, paths, warns in {p[0]: p for p in progs}.values():
            programs.append(
                ProgramOutcome(
                    analysis_id=f"an_{k}",
                    risk=risk,
                    repetition=k,
                    status="completed" if reached else "stopped",
                    stopped_stage=None,
                    reason="",
                    report_id=None,
                    selected_paths=tuple(sorted(paths)),
                    warning_subjects=tuple(sorted(warns)),
                    reached=reached,
                )
            )
    ours = agreement(repetitions_from_programs(programs))
    theirs = pipeline_agreement(programs)
    assert ours.n_pairs == theirs.pairs
    assert ours.path_agreement == pytest.approx(theirs.path_agreement)
    assert ours.warning_jaccard == pytest.approx(theirs.warning_jaccard)
