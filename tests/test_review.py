"""Analyst review: append-only ReviewDecision records that the graph, paths, reports and audit obey."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from click.testing import CliRunner
from graph_corpus import register_documents

from aieco.audit import run_audit
from aieco.cli import main
from aieco.errors import InputError
from aieco.extraction.build import build_relations
from aieco.graph.build import as_of_graph, load_relations
from aieco.graph.paths import enumerate_paths
from aieco.records import Relation, Restriction, ReviewDecision, utc_now
from aieco.review import effective_relations, review_relation, review_state, review_table
from aieco.scenario.channels import channel_query
from aieco.store import Store

CUTOFF = date(2024, 12, 31)


@pytest.fixture
def built(tmp_path):
    store = Store(tmp_path / "ws")
    register_documents(store)
    build_relations(store)
    yield store
    store.close()


def _one(store, src, dst, sign=None) -> Relation:
    rels = [
        r
        for r in store.find(Relation, src_var=src, dst_var=dst, review_decision="accepted")
        if sign is None or r.sign.value == sign
    ]
    assert len(rels) == 1, rels
    return rels[0]


def _findings(store):
    """Audit findings other than the test corpus's absent source files."""
    return [m for m in run_audit(store)["mismatches"] if m["kind"] != "source_file"]


def _paths(store, q):
    return enumerate_paths(as_of_graph(store, CUTOFF), q, analysis_id="t")


def test_a_rejected_relation_never_enters_a_path_and_audit_covers_the_decision(built):
    q = channel_query("property_correction", "long_term_rate", "increase", "house_prices", "decrease")
    before = _paths(built, q)
    assert before and all(p.composed_sign.value == "-" for p in before)
    mortgage = _one(built, "mortgage_rates", "house_prices", "-")
    assert any(mortgage.relation_id in p.relation_ids for p in before)
    d = review_relation(built, mortgage.relation_id, "reject", note="reads a level", analyst="ana")
    assert d.analyst == "ana" and d.decided_at.tzinfo is not None and d.note == "reads a level"
    after = _paths(built, q)
    assert all(mortgage.relation_id not in p.relation_ids for p in after)
    assert after != before
    assert review_state(built, mortgage.relation_id) == "rejected"
    # both records stay; the relation itself is unchanged
    assert built.get(Relation, mortgage.relation_id) == mortgage
    assert _findings(built) == []
    assert built.count(ReviewDecision) == 1


def test_a_correction_keeps_both_records_and_paths_use_the_corrected_one(built):
    orig = _one(built, "mortgage_rates", "house_prices", "-")
    d = review_relation(built, orig.relation_id, "correct", sign="+", note="test", analyst="ana")
    fixed = built.get(Relation, d.corrected_relation_id)
    assert fixed is not None and fixed.sign.value == "+" and fixed.quote == orig.quote
    assert fixed.location_id == orig.location_id and built.get(Relation, orig.relation_id) == orig
    used = {r.relation_id for r in load_relations(built)}
    assert fixed.relation_id in used and orig.relation_id not in used
    q = channel_query("property_correction", "long_term_rate", "increase", "house_prices", "decrease")
    paths = _paths(built, q)
    assert all(orig.relation_id not in p.relation_ids for p in paths)
    # a later accept of the original puts it back and retires the correction
    review_relation(built, orig.relation_id, "accept", analyst="bo", decided_at=utc_now() + timedelta(seconds=1))
    used = {r.relation_id for r in load_relations(built)}
    assert orig.relation_id in used and fixed.relation_id not in used
    assert review_state(built, fixed.relation_id) == "superseded"
    rows = {r["relation_id"]: r for r in review_table(built)}
    assert rows[orig.relation_id]["decision"] == "accept" and rows[orig.relation_id]["decisions"] == 2
    assert rows[fixed.relation_id]["is_correction"] and not rows[fixed.relation_id]["in_use"]
    assert _findings(built) == []


def test_variables_can_be_corrected(built):
    orig = _one(built, "mortgage_rates", "house_prices", "-")
    d = review_relation(built, orig.relation_id, "correct", src_var="long_term_rate", analyst="ana")
    fixed = built.get(Relation, d.corrected_relation_id)
    assert (fixed.src_var, fixed.dst_var, fixed.sign.value) == ("long_term_rate", "house_prices", "-")


@pytest.mark.parametrize(
    "kwargs, what",
    [
        (dict(relation_id="rel_nope", action="reject"), "unknown relation"),
        (dict(action="correct"), "needs a new sign"),
        (dict(action="correct", sign="-"), "changes nothing"),
        (dict(action="correct", src_var="gdp_of_mars"), "unknown variable"),
        (dict(action="correct", src_var="house_prices"), "two distinct variables"),
        (dict(action="reject", sign="+"), "go with a correction"),
        (dict(action="maybe"), "unknown review action"),
    ],
)
def test_bad_review_is_an_input_error_and_writes_nothing(built, kwargs, what):
    orig = _one(built, "mortgage_rates", "house_prices", "-")
    kwargs = {"relation_id": orig.relation_id, "analyst": "ana", **kwargs}
    n = built.count(Relation)
    with pytest.raises(InputError, match=what):
        review_relation(built, **kwargs)
    assert built.count(ReviewDecision) == 0 and built.count(Relation) == n


def test_review_decisions_are_append_only(built):
    orig = _one(built, "mortgage_rates", "house_prices", "-")
    review_relation(built, orig.relation_id, "reject", analyst="ana")
    with pytest.raises(Exception, match="append-only"):
        built.db.execute("UPDATE review_decisions SET note = 'x'")


def test_audit_finds_a_decision_whose_correction_is_missing(built):
    orig = _one(built, "mortgage_rates", "house_prices", "-")
    bad = ReviewDecision.create(
        relation_id=orig.relation_id,
        action="correct",
        sign="+",
        corrected_relation_id="rel_missing",
        analyst="x",
        decided_at=utc_now(),
    )
    built.put(bad)
    assert any(m["id"] == bad.decision_id and "not stored" in m["detail"] for m in _findings(built))


def test_effective_relations_without_decisions_is_the_identity(built):
    rels = built.find(Relation)
    assert effective_relations(built, rels) == rels


def test_cli_review(built, tmp_path):
    orig = _one(built, "mortgage_rates", "house_prices", "-")
    ws = str(built.path)
    runner = CliRunner()
    out = runner.invoke(
        main, ["review", orig.relation_id, "--sign", "+", "--note", "why", "--analyst", "ana", "-w", ws, "--json"]
    )
    assert out.exit_code == 0, out.output
    assert '"action":"correct"' in out.output.replace(" ", "")
    out = runner.invoke(main, ["review", orig.relation_id, "--accept", "--reject", "-w", ws])
    assert out.exit_code != 0 and "exactly one" in out.output
    out = runner.invoke(main, ["review", "rel_unknown", "--reject", "-w", ws])
    assert out.exit_code != 0 and "unknown relation" in out.output


def test_no_report_sentence_cites_a_rejected_or_corrected_relation(built):
    from aieco.reporting.render import check_attribution
    from aieco.reporting.schema import SentenceDraft

    orig = _one(built, "mortgage_rates", "house_prices", "-")
    other = _one(built, "long_term_rate", "mortgage_rates", "+")
    draft = [
        SentenceDraft(
            kind="qualitative",
            template="Higher mortgage rates weigh on house prices.",
            cited_relation_ids=[orig.relation_id],
        ),
        SentenceDraft(
            kind="qualitative", template="Long-term rates raise mortgage rates.", cited_relation_ids=[other.relation_id]
        ),
    ]
    found, cites = check_attribution(built, draft)
    assert not found and set(cites) == {orig.relation_id, other.relation_id}
    review_relation(built, orig.relation_id, "reject", analyst="ana")
    d = review_relation(built, other.relation_id, "correct", sign="-", analyst="ana")
    found, cites = check_attribution(built, draft)
    assert [(v.rule, v.sentence) for v in found] == [("rejected_relation", 0), ("rejected_relation", 1)]
    assert "rejected" in found[0].message and "corrected" in found[1].message and not cites
    # the corrected relation itself can be cited
    fixed = [
        SentenceDraft(
            kind="qualitative",
            template="Long-term rates move mortgage rates.",
            cited_relation_ids=[d.corrected_relation_id],
        )
    ]
    assert check_attribution(built, fixed)[0] == []


def test_the_report_writer_is_never_offered_a_refused_path_or_a_reviewed_out_relation(built):
    from types import SimpleNamespace

    from aieco.agents.report import context
    from aieco.records import Derivation

    kept = _one(built, "long_term_rate", "mortgage_rates", "+")
    refused = _one(built, "house_prices", "credit_losses")
    rejected = _one(built, "mortgage_rates", "house_prices", "-")
    built.put(
        Derivation.create(
            analysis_id="an",
            risk="property_correction",
            restriction_ids=[],
            status="accepted",
            registration_digest="x",
            assessed=[{"path_id": "p_ok", "outcome": "accepted"}, {"path_id": "p_no", "outcome": "refused"}],
        )
    )
    review_relation(built, rejected.relation_id, "reject", analyst="ana")
    request = SimpleNamespace(
        risk=lambda name: SimpleNamespace(label="Property correction", channels=[]),
        cutoff=CUTOFF,
        horizon="2025-2027",
        outcomes=[],
    )
    ctx = context(
        built,
        analysis_id="an",
        request=request,
        risk="property_correction",
        claim_ids=[],
        selections=[
            {"path_id": "p_ok", "relation_ids": [kept.relation_id, rejected.relation_id]},
            {"path_id": "p_no", "relation_ids": [refused.relation_id]},
        ],
    )
    offered = {r.relation_id for r in ctx.relations}
    assert offered == {kept.relation_id}
    assert [kept.relation_id, rejected.relation_id] in ctx.paths and [refused.relation_id] not in ctx.paths


def test_an_older_workspace_gains_the_append_only_review_table(tmp_path):
    s = Store(tmp_path / "old")
    s.db.execute("DROP TABLE review_decisions")  # a workspace from before review decisions existed
    s.close()
    s = Store(tmp_path / "old")
    assert s.db["review_decisions"].exists()
    s.db.execute(
        "INSERT INTO review_decisions (decision_id, relation_id, action, note, analyst, decided_at) "
        "VALUES ('rev_x', 'rel_x', 'reject', '', 'a', '2024-01-01T00:00:00+00:00')"
    )
    with pytest.raises(Exception, match="append-only"):
        s.db.execute("DELETE FROM review_decisions")
    s.close()


def test_citation_notes_say_who_read_a_relation_and_what_an_analyst_decided(built):
    from datetime import UTC, datetime

    from aieco.review import citation_notes

    orig = _one(built, "mortgage_rates", "house_prices", "-")
    other = built.find(Relation, src_var="tariffs", dst_var="trade_volumes", review_decision="accepted")[0]
    assert citation_notes(built, [orig.relation_id]) == {
        orig.relation_id: "read by the offline rule reader; not reviewed by an analyst"
    }
    when = datetime(2025, 1, 3, 9, 30, tzinfo=UTC)
    d = review_relation(
        built, orig.relation_id, "correct", sign="+", note="reads a fall", analyst="ana", decided_at=when
    )
    review_relation(built, other.relation_id, "reject", analyst="bo", decided_at=when)
    notes = citation_notes(built, [orig.relation_id, d.corrected_relation_id, other.relation_id, "rel_missing"])
    assert notes == {
        orig.relation_id: f"read by the offline rule reader; corrected to {d.corrected_relation_id} by ana on "
        "2025-01-03 (reads a fall)",
        d.corrected_relation_id: f"an analyst's correction (ana, 2025-01-03) of relation {orig.relation_id}",
        other.relation_id: "read by the offline rule reader; rejected by bo on 2025-01-03",
    }
    later = datetime(2025, 1, 4, tzinfo=UTC)
    review_relation(built, other.relation_id, "accept", analyst="cy", decided_at=later)
    assert citation_notes(built, [other.relation_id])[other.relation_id].endswith("accepted by cy on 2025-01-04")


def test_review_queue_lists_what_an_analysis_rests_on_unreviewed_first(tmp_path):
    from populated_workspace import build_workspace

    from aieco.review import review_queue

    ids = build_workspace(tmp_path / "ws", tmp_path / "src")
    with Store(tmp_path / "ws") as store:
        rows = review_queue(store, ids["analysis_id"])
        # the restriction on real GDP rests on tariffs → trade volumes → real GDP
        assert [(r["src_var"], r["dst_var"]) for r in rows] == [
            ("tariffs", "trade_volumes"),
            ("trade_volumes", "real_gdp"),
        ]
        assert all(r["decision"] is None and "not reviewed" in r["reading"] for r in rows)
        assert all(any(u.startswith("restriction on real_gdp") for u in r["uses"]) for r in rows)
        # more uses first: the report cites only the first step
        assert [len(r["uses"]) for r in rows] == [2, 1]
        assert rows[0]["uses"][0] == f"cited in report {ids['report_id']} (passed)"
        first = rows[0]["relation_id"]
        review_relation(store, first, "accept", analyst="ana")
        after = review_queue(store, ids["analysis_id"])
        assert [r["relation_id"] for r in after][-1] == first  # accepted ones go last
        assert after[-1]["decision"] == "accept" and "accepted by ana" in after[-1]["reading"]
        review_relation(store, first, "reject", analyst="bo", decided_at=utc_now() + timedelta(seconds=1))
        again = review_queue(store, ids["analysis_id"])
        # rejected since the analysis ran: listed after the unreviewed one, before any accepted
        assert [r["decision"] for r in again] == [None, "reject"]
        assert review_queue(store, "an_nothing") == []
        # a later analysis resting on an analyst's correction: the correction needs no review of its own
        fix = review_relation(store, again[0]["relation_id"], "correct", sign="-", analyst="cy")
        store.put(
            Restriction.create(
                analysis_id="an_later",
                risk="trade_fragmentation",
                variable="real_gdp",
                model_variable="real_gdp",
                direction=-1,
                priority=1,
                supporting_relation_ids=[fix.corrected_relation_id],
                derivation="target",
            )
        )
        (row,) = review_queue(store, "an_later")
        assert row["decision"] == "correction" and row["reading"].startswith("an analyst's correction (cy, ")


def test_cli_review_queue(tmp_path):
    from populated_workspace import build_workspace

    ids = build_workspace(tmp_path / "ws", tmp_path / "src")
    out = CliRunner().invoke(main, ["review-queue", "-w", str(tmp_path / "ws")])
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"{ids['analysis_id']}: 2 of 2 relations not reviewed")
    assert "higher tariffs reduce trade volumes" in out.output and "aieco review RELATION_ID" in out.output
    bad = CliRunner().invoke(main, ["review-queue", "-w", str(tmp_path / "ws"), "--analysis", "an_nope"])
    assert bad.exit_code != 0 and "no analysis 'an_nope'" in bad.output and "fix:" in bad.output
