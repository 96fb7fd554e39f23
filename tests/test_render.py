"""The renderer: token resolution with checks, dates, attribution, direction consistency, stored failures."""

from datetime import date

import pytest
from reporting_world import ANALYSIS, RISK, build_world, good_draft

from aieco.errors import IntegrityError, StageStopped
from aieco.records import Report, ReportSentence, Source, SourceKind, SourceLocation, utc_now
from aieco.reporting.claims import passed_claims
from aieco.reporting.render import (
    check_report_draft,
    direction_violations,
    format_value,
    rebuild_report,
    render_date,
    render_report,
    resolve_claim,
    short_reference,
)
from aieco.reporting.schema import ReportDraft, SentenceDraft

LABELS = {"house_prices": ["house prices", "property markets"], "real_gdp": ["real gdp"]}


@pytest.mark.parametrize(
    "value, unit, rounding, text",
    [
        (-1.14241, "percent", 3, "-1.142%"),
        (5.1701, "percent", 3, "5.170%"),
        (-0.0004, "percent", 3, "0.000%"),
        (2.5, "pp", 1, "2.5 pp"),
        (25.0, "bp", 0, "25 bp"),
        (1.23456, "EUR bn", 2, "1.23 EUR bn"),
        (3.14159, "index", 2, "3.14"),
        (-46.2641, "%", 1, "-46.3%"),
        (0.04, "pp", 1, "0.0 pp"),
    ],
)
def test_format_value(value, unit, rounding, text):
    assert format_value(value, unit, rounding) == text


@pytest.mark.parametrize(
    "value, text",
    [
        ("2025", "2025"),
        ("2025-2027", "2025–2027"),
        ("2025Q3", "Q3 2025"),
        ("cutoff", "31 December 2024"),
        ("horizon", "2025–2027"),
        ("horizon_end", "2027"),
    ],
)
def test_render_date(value, text):
    assert render_date(value, date(2024, 12, 31), "2025-2027") == text


def test_short_reference_from_source_and_location():
    src = Source.create(
        path="x.pdf",
        sha256="0" * 64,
        publisher="ESRB",
        publication_date=date(2018, 1, 16),
        title="Adverse macro-financial scenario for the 2018 EU-wide stress test",
        retrieved_at=utc_now(),
        role="generation",
        kind=SourceKind.pdf,
    )
    loc = SourceLocation.create(source_id=src.source_id, kind="passage", page=5, text="t", parser_version="p")
    assert short_reference(src, loc) == "(ESRB, Adverse macro-financial scenario 2018, p. 5)"
    cell = SourceLocation.create(
        source_id=src.source_id, kind="sheet_cell", sheet="GDP", cell="C7", text="t", parser_version="p"
    )
    short = src.model_copy(update={"series": {"short_title": "Adverse scenario"}})
    assert short_reference(short, cell) == "(ESRB, Adverse scenario 2018, GDP!C7)"


def test_good_report_renders_exactly(store):
    w = build_world(store)
    out = render_report(store, ANALYSIS, good_draft(w), cutoff=date(2024, 12, 31))
    assert out.report.status == "passed" and out.violations == []
    assert out.report.rendered == (
        "Higher long-term rates feed into mortgage rates (ESRB, Adverse scenario 2018, p. 5). "
        "The projection covers 2025–2027 with data up to 31 December 2024. "
        "In 2025, house prices are projected at 5.2% and real GDP growth at 0.8%. "
        "House prices then decline by -2.5% in 2026 (ECB, FSR Nov 2023, p. 31). "
        "The unemployment rate is projected to rise to 8.2% by 2027 (ECB, FSR Nov 2023, p. 36)."
    )
    stored = store.find(ReportSentence, report_id=out.report.report_id)
    assert [s.status for s in stored] == ["ok"] * 5 and stored[2].claim_ids == good_draft(w).sentences[2].claim_ids
    nums = [g for g in out.segments[2] if g.kind == "num"]
    assert [(g.text, g.claim_id) for g in nums] == [
        ("5.2%", w.cid("house_prices", "2025")),
        ("0.8%", w.cid("real_gdp", "2025")),
    ]
    assert rebuild_report(store, out.report.report_id).report == out.report


def _fails(store, draft, rule, sentence=None, **kw):
    with pytest.raises(StageStopped) as stop:
        render_report(store, ANALYSIS, draft, **kw)
    assert rule in stop.value.reason and stop.value.stage == "report"
    report = store.find(Report, analysis_id=ANALYSIS, status="failed")[-1]
    assert report.failure_rule == rule
    if sentence is not None:
        assert report.failure_position == sentence
        failed = store.find(ReportSentence, report_id=report.report_id, position=sentence)[0]
        assert failed.status == "failed" and rule in failed.failure and failed.rendered == ""
    return report


def test_directional_sentence_without_citation_fails_with_its_position(store):
    w = build_world(store)
    d = good_draft(w)
    sentences = list(d.sentences)
    sentences[3] = sentences[3].model_copy(update={"cited_relation_ids": []})
    _fails(store, d.model_copy(update={"sentences": sentences}), "uncited_direction", sentence=3)
    found = check_report_draft(store, ANALYSIS, d.model_copy(update={"sentences": sentences}))
    v = next(v for v in found if v.rule == "uncited_direction")
    assert (v.sentence, v.text, v.offset) == (3, "decline", len("House prices then "))


def test_rejected_or_unknown_relations_do_not_attribute(store):
    w = build_world(store)
    d = good_draft(w)
    for rid, rule in ((w.relations["rejected"].relation_id, "rejected_relation"), ("rel_missing", "unknown_relation")):
        sentences = list(d.sentences)
        sentences[0] = sentences[0].model_copy(update={"cited_relation_ids": [rid]})
        _fails(store, d.model_copy(update={"sentences": sentences}), rule, sentence=0)


def test_a_number_written_outside_a_token_stops_the_report(store):
    w = build_world(store)
    d = good_draft(w)
    sentences = [*d.sentences, SentenceDraft(kind="temporal", template="Losses reach €3bn in {{DATE:2026}}.")]
    _fails(store, d.model_copy(update={"sentences": sentences}), "currency", sentence=5)


def test_a_failed_claim_is_unknown_after_execution(store):
    w = build_world(store)
    cid = w.cid("house_prices", "2025")
    store.execute_raw("DROP TRIGGER output_tests_no_delete")
    store.execute_raw("DELETE FROM output_tests WHERE claim_id = ? AND phase = 'result'", [cid])
    assert cid not in passed_claims(store, ANALYSIS)
    draft = good_draft(w)
    assert any(v.rule == "unknown_claim" for v in check_report_draft(store, ANALYSIS, draft, phase="execution"))
    assert not any(v.rule == "unknown_claim" for v in check_report_draft(store, ANALYSIS, draft))
    _fails(store, draft, "unknown_claim", sentence=2)


def test_resolution_re_reads_the_artifact(store):
    w = build_world(store)
    cid = w.cid("real_gdp", "2025")
    assert resolve_claim(store, cid, ANALYSIS).text == "0.8%"
    path = store._artifact_path(w.run.output_digest)
    path.write_bytes(path.read_bytes().replace(b"0.77549", b"0.87549"))
    with pytest.raises(IntegrityError, match="output_hash"):
        resolve_claim(store, cid, ANALYSIS)
    with pytest.raises(IntegrityError):
        resolve_claim(store, cid, "an_other")


def _draft(*sentences):
    return ReportDraft(title="Property markets", risk=RISK, sentences=list(sentences))


def test_the_papers_run7_property_report_is_caught(store):
    """Run 7: 'a broad correction …' then 'house prices are expected to return 5.2%'."""
    w = build_world(store)
    cite = [w.relations["mortgage_house"].relation_id]
    hp25, hp26, gdp25 = w.cid("house_prices", "2025"), w.cid("house_prices", "2026"), w.cid("real_gdp", "2025")
    draft = _draft(
        SentenceDraft(
            kind="qualitative",
            cited_relation_ids=cite,
            template="Higher financing costs are contributing to a broad correction in European property markets.",
        ),
        SentenceDraft(
            kind="numerical",
            claim_ids=[hp25],
            template=f"In {{{{DATE:2025}}}}, house prices are expected to return {{{{NUM:{hp25}}}}}.",
        ),
        SentenceDraft(
            kind="numerical",
            claim_ids=[gdp25],
            cited_relation_ids=cite,
            template="This decline in house prices is accompanied by a projected real GDP growth of "
            f"{{{{NUM:{gdp25}}}}} in the same year.",
        ),
        SentenceDraft(
            kind="numerical",
            claim_ids=[hp26],
            cited_relation_ids=cite,
            template="As financing conditions tighten, house prices are expected to continue their "
            f"downward trend with a return of {{{{NUM:{hp26}}}}} in {{{{DATE:2026}}}}.",
        ),
    )
    report = _fails(store, draft, "direction_inconsistent", sentence=0, labels=LABELS)
    failed = {s.position: s for s in store.find(ReportSentence, report_id=report.report_id)}
    assert failed[0].status == "failed" and "correction" in failed[0].failure
    assert failed[2].status == "failed" and "decline" in failed[2].failure
    assert failed[3].status == "ok" and failed[3].rendered.endswith("-2.5% in 2026 (ECB, FSR Nov 2023, p. 31).")


@pytest.mark.parametrize(
    "verb, period, bad",
    [
        ("decline by", "2025", True),
        ("decline by", "2026", False),
        ("rise by", "2025", False),
        ("rise by", "2026", True),
        ("fall to", "2025", False),
        ("rise to", "2026", False),
    ],
)
def test_direction_word_must_agree_with_the_sign(store, verb, period, bad):
    w = build_world(store)
    cid = w.cid("house_prices", period)
    d = _draft(
        SentenceDraft(
            kind="numerical",
            claim_ids=[cid],
            cited_relation_ids=[w.relations["mortgage_house"].relation_id],
            template=f"House prices {verb} {{{{NUM:{cid}}}}}.",
        )
    )
    values = {cid: (resolve_claim(store, cid).value, resolve_claim(store, cid).claim)}
    found = direction_violations(d.sentences, values)
    assert bool(found) is bad
    if bad:
        assert found[0].rule == "direction_inconsistent" and found[0].offset == len("House prices ")


def test_levels_carry_no_direction(store):
    w = build_world(store)
    cid = w.cid("unemployment", "2025")
    s = SentenceDraft(kind="numerical", claim_ids=[cid], template=f"Unemployment falls, standing at {{{{NUM:{cid}}}}}.")
    r = resolve_claim(store, cid)
    assert direction_violations([s], {cid: (r.value, r.claim)}) == []


def test_several_numbers_in_one_sentence_each_need_a_passed_test(store):
    w = build_world(store)
    d = good_draft(w)
    sentence = d.sentences[2]
    assert len(sentence.claim_ids) == 2
    cid = sentence.claim_ids[1]
    store.execute_raw("DROP TRIGGER output_tests_no_delete")
    store.execute_raw("DELETE FROM output_tests WHERE claim_id = ? AND phase = 'result'", [cid])
    _fails(store, d, "unknown_claim", sentence=2)


def test_run7_trade_text_contraction_with_positive_growth_is_caught(store):
    """Run 7 (trade): 'slow further to 0.595%, continuing the trend of economic contraction'."""
    w = build_world(store)
    cid = w.cid("real_gdp", "2027")
    s = SentenceDraft(
        kind="numerical",
        claim_ids=[cid],
        template=(
            f"By {{{{DATE:2027}}}}, real GDP growth is projected to slow further to {{{{NUM:{cid}}}}}, continuing the "
            "trend of economic contraction."
        ),
    )
    r = resolve_claim(store, cid)
    found = direction_violations([s], {cid: (r.value, r.claim)})
    assert [v.text for v in found] == ["contraction"]


@pytest.mark.parametrize(
    "publisher,title,expected",
    [
        ("ECB FSR", "ECB FSR", "(ECB FSR, 2024, p. 5)"),
        ("ECB Occasional Paper", "ECB Occasional Paper: Housing 2024", "(ECB Occasional Paper, Housing 2024, p. 5)"),
        ("BIS", "Quarterly Review, March", "(BIS, Quarterly Review, March 2024, p. 5)"),
    ],
)
def test_short_reference_does_not_repeat_the_publisher(publisher, title, expected):
    src = Source.create(
        path="x.pdf",
        sha256="1" * 64,
        publisher=publisher,
        publication_date=date(2024, 5, 1),
        title=title,
        retrieved_at=utc_now(),
        role="generation",
        kind=SourceKind.pdf,
    )
    loc = SourceLocation.create(source_id=src.source_id, kind="passage", page=5, text="t", parser_version="p")
    assert short_reference(src, loc) == expected
