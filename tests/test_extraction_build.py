"""Validation and build_relations: what is written, what is rejected and why, G0/G1/G2, recorded calls."""

from __future__ import annotations

from datetime import date

import pytest
from graph_corpus import register_documents

from aieco.errors import InputError
from aieco.extraction.build import build_relations
from aieco.extraction.schemas import ProposedRelation
from aieco.extraction.validate import effective_role, rejection_reason, to_relation
from aieco.records import LLMCall, Relation, Role, Source, SourceLocation, Variable, utc_now
from aieco.vocab import load_vocabulary

LOC = SourceLocation.create(
    source_id="src_a",
    kind="passage",
    page=3,
    parser_version="t",
    text="Higher   tariffs\nreduce trade volumes. Other text.",
)


def proposal(**kw) -> ProposedRelation:
    base = dict(
        candidate_id="c",
        src_var="tariffs",
        dst_var="trade_volumes",
        sign="-",
        evidence_class="descriptive",
        quote="Higher tariffs reduce trade volumes.",
        confidence=0.7,
    )
    return ProposedRelation(**(base | kw))


@pytest.mark.parametrize(
    "change, reason",
    [
        ({}, None),
        ({"src_var": "moonshine"}, "unknown_variable: moonshine"),
        ({"dst_var": "tariffs"}, "same_variable"),
        ({"quote": "Higher tariffs raise trade volumes."}, "quote_not_found"),
        ({"quote": "  "}, "quote_not_found"),
        ({"sign": "up"}, "sign_not_allowed: up"),
        ({"evidence_class": "vibes"}, "evidence_class_not_allowed: vibes"),
    ],
)
def test_validation_reasons(change, reason):
    assert rejection_reason(proposal(**change), LOC, load_vocabulary()) == reason


def test_unregistered_location_is_rejected():
    assert rejection_reason(proposal(), None, load_vocabulary()) == "location_not_registered"


def test_rejected_relation_keeps_its_reason_and_a_storable_sign():
    r = to_relation(
        proposal(sign="up"),
        location_id=LOC.location_id,
        location=LOC,
        source=None,
        vocab=load_vocabulary(),
        condition="G0",
        extractor="t",
    )
    assert r.review_decision == "rejected" and r.rejection_reason == "sign_not_allowed: up"
    assert r.sign.value == "ambiguous"


def test_location_role_override_beats_source_role():
    src = Source.create(
        path="a",
        sha256="0" * 64,
        publisher="p",
        title="t",
        publication_date=date(2024, 1, 1),
        retrieved_at=utc_now(),
        role="generation",
        kind="text",
    )
    assert effective_role(src, LOC) is Role.generation
    assert effective_role(src, LOC.model_copy(update={"role_override": Role.development})) is Role.development


def test_build_g0_writes_relations_with_dates_roles_and_recorded_calls(store):
    register_documents(store)
    report = build_relations(store)
    assert report.candidates > 0 and report.accepted == report.proposed and report.rejected == {}
    assert report.requests == store.count(LLMCall, analysis_id="knowledge-base-G0")
    assert store.count(Relation) == report.accepted
    assert store.count(Variable) == len(load_vocabulary())
    calls = store.find(LLMCall, analysis_id="knowledge-base-G0")
    assert {c.backend for c in calls} == {"offline"} and {c.task for c in calls} == {"relation_extraction"}
    # Eligibility fields are copied at extraction: the development chapter keeps its override.
    dev = [r for r in store.find(Relation) if r.role is Role.development]
    assert [(r.src_var, r.dst_var) for r in dev] == [("house_prices", "real_gdp")]
    late = [r for r in store.find(Relation) if r.publication_date == date(2025, 5, 1)]
    assert late and all(r.role is Role.evaluation for r in late)
    # Co-occurrence without a relation yields nothing.
    assert not [r for r in store.find(Relation) if "Chapter 2" in r.quote]
    # Re-running is idempotent: same ids, nothing new.
    again = build_relations(store)
    assert again.stored == 0 and again.accepted == report.accepted


def test_build_respects_the_candidate_cap(store, monkeypatch):
    import aieco.extraction.build as b
    from aieco.config import GraphSettings

    register_documents(store)

    class S:
        graph = GraphSettings(candidate_cap=3, batch_size=2)

    monkeypatch.setattr(b, "get_settings", lambda: S)
    report = build_relations(store)
    assert report.candidates == 3 and report.dropped_by_cap > 0 and report.requests == 2


def test_opposing_signs_stay_separate(store):
    register_documents(store)
    build_relations(store)
    vol_eq = {r.sign.value for r in store.find(Relation, src_var="volatility", dst_var="equity_prices")}
    assert vol_eq == {"+", "-"}


def test_co_movement_is_never_a_channel(store):
    # "went hand in hand with" describes an association: no relation, whatever the movements.
    docs = [
        (
            "Markets",
            date(2024, 6, 1),
            "generation",
            [(1, "In 2024 higher volatility went hand in hand with higher equity prices.", None)],
        )
    ]
    register_documents(store, docs)
    report = build_relations(store)
    assert report.candidates == 1 and report.proposed == 0 and store.count(Relation) == 0


def test_g1_statements_keep_exact_passage_quotes(store):
    locs = register_documents(store)
    report = build_relations(store, condition="G1")
    rels = store.find(Relation, graph_condition="G1")
    assert report.accepted == len(rels) > 0
    texts = {loc.location_id: " ".join(loc.text.split()) for loc in locs}
    for r in rels:
        assert r.quote in texts[r.location_id]
    assert {c.task for c in store.find(LLMCall, analysis_id="knowledge-base-G1")} == {
        "passage_decomposition",
        "relation_extraction",
    }


def test_g2_rejects_what_verification_does_not_support(store):
    from aieco.extraction import build as b
    from aieco.extraction.schemas import ExtractionResult
    from aieco.extraction.tasks import EXTRACTION_TASK, extract_offline
    from aieco.llm.base import LLMClient, OfflineBackend

    register_documents(store)

    def flip_first(request):  # a wrong extractor: tariffs → import prices with the opposite sign
        out = extract_offline(request)
        return ExtractionResult(
            relations=[
                r.model_copy(update={"sign": "-"}) if (r.src_var, r.dst_var) == ("tariffs", "import_prices") else r
                for r in out.relations
            ]
        )

    task = type(EXTRACTION_TASK)(
        name=EXTRACTION_TASK.name,
        prompt=EXTRACTION_TASK.prompt,
        input_schema=EXTRACTION_TASK.input_schema,
        output_schema=EXTRACTION_TASK.output_schema,
        offline=flip_first,
    )
    original = b.EXTRACTION_TASK
    b.EXTRACTION_TASK = task
    try:
        client = LLMClient(store, OfflineBackend(), "kb-test", budget=1000)
        report = build_relations(store, condition="G2", client=client)
    finally:
        b.EXTRACTION_TASK = original
    assert report.rejected == {"not_verified": 1}
    bad = store.find(Relation, review_decision="rejected")
    assert len(bad) == 1 and bad[0].rejection_reason.startswith("not_verified: contradicted")


def test_g2_verifies_every_g1_candidate(store):
    locs = register_documents(store)
    g1 = build_relations(store, condition="G1")
    g2 = build_relations(store, condition="G2")
    assert g2.candidates == g1.candidates and g2.sentences == g1.sentences
    assert {c.task for c in store.find(LLMCall, analysis_id="knowledge-base-G2")} == {
        "passage_decomposition",
        "relation_extraction",
        "relation_verification",
    }
    texts = {loc.location_id: " ".join(loc.text.split()) for loc in locs}
    for r in store.find(Relation, graph_condition="G2"):
        assert r.quote in texts[r.location_id]


def test_unknown_condition_is_refused(store):
    with pytest.raises(InputError, match="G7"):
        build_relations(store, condition="G7")


def test_build_over_the_shared_pdfs_finishes_and_reports_counts(store, shared_data):
    import pdfplumber

    docs = sorted((shared_data / "docs").glob("*.pdf"))
    assert docs
    sources, locations = [], []
    for k, pdf_path in enumerate(docs):
        src = Source.create(
            path=str(pdf_path),
            sha256=f"{k:064d}",
            publisher="shared",
            title=pdf_path.stem,
            publication_date=date(2018 + k, 1, 1),
            retrieved_at=utc_now(),
            role="generation",
            kind="pdf",
        )
        sources.append(src)
        with pdfplumber.open(pdf_path) as pdf:
            for page_no, page in enumerate(pdf.pages[:12], start=1):
                text = page.extract_text() or ""
                for i, para in enumerate(p for p in text.split("\n\n") if p.strip()):
                    locations.append(
                        SourceLocation.create(
                            source_id=src.source_id,
                            kind="passage",
                            page=page_no,
                            ordinal=i,
                            text=para,
                            parser_version="test-pdf",
                        )
                    )
    store.put_many(sources + locations)
    report = build_relations(store)
    assert report.locations == len(locations) and report.sentences > 100
    assert report.candidates > 20 and report.proposed >= report.accepted > 0
    print(report.model_dump())


def test_build_on_an_empty_workspace_reports_zeros(store):
    report = build_relations(store)
    assert (report.locations, report.candidates, report.requests, report.accepted) == (0, 0, 0, 0)
    assert store.count(LLMCall) == 0


def test_non_passage_and_blank_locations_are_not_read(store):
    cell = SourceLocation.create(
        source_id="s",
        kind="sheet_cell",
        sheet="A",
        cell="B2",
        value=1.0,
        text="Higher tariffs reduce trade volumes.",
        parser_version="t",
    )
    blank = SourceLocation.create(source_id="s", kind="passage", text="   ", parser_version="t")
    report = build_relations(store, locations=[cell, blank])
    assert report.locations == 0 and report.proposed == 0


def test_relations_from_an_unregistered_location_are_rejected(store):
    loose = SourceLocation.create(
        source_id="src_nowhere", kind="passage", text="Higher tariffs reduce trade volumes.", parser_version="t"
    )
    report = build_relations(store, locations=[loose])
    assert report.accepted == 0 and report.rejected == {"location_not_registered": 1}
    [r] = store.find(Relation)
    assert r.review_decision == "rejected" and r.rejection_reason == "location_not_registered"
