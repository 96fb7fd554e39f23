from datetime import UTC, date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from aieco.errors import IntegrityError
from aieco.records import (
    RECORD_TYPES,
    ModelRun,
    Relation,
    Sign,
    Source,
    StageRecord,
    canonical_json,
    digest,
)

T0 = datetime(2024, 12, 31, 12, tzinfo=UTC)


def relation(**over):
    fields = dict(
        src_var="policy_rate",
        dst_var="house_prices",
        sign="-",
        quote="Higher rates weigh on house prices.",
        location_id="loc_1",
        source_id="src_1",
        confidence=0.7,
    )
    fields.update(over)
    return Relation.create(**fields)


def test_same_content_same_id():
    assert relation().relation_id == relation().relation_id


@pytest.mark.parametrize(
    "field,value",
    [("sign", "+"), ("quote", "Other."), ("confidence", 0.71), ("dst_var", "real_gdp"), ("graph_condition", "G1")],
)
def test_any_field_change_gives_new_id(field, value):
    assert relation(**{field: value}).relation_id != relation().relation_id


def test_source_id_comes_from_file_hash_only():
    a = Source.create(
        path="a.pdf",
        sha256="ab" * 32,
        publisher="ECB",
        title="t",
        publication_date=date(2024, 1, 1),
        retrieved_at=T0,
        role="generation",
        kind="pdf",
    )
    b = a.model_copy(update={"title": "other"})
    assert a.source_id == b.expected_id()
    c = Source.create(**{**a.model_dump(exclude={"source_id"}), "sha256": "cd" * 32})
    assert c.source_id != a.source_id


def test_model_run_id_ignores_wall_clock():
    base = dict(
        analysis_id="an_1",
        model_id="macro_var",
        spec_id="spec_1",
        request_digest="r",
        input_digests={"d": "x"},
        code_digest="c",
        config_digest="k",
        env_digest="e",
        seed=7,
        status="completed",
    )
    a = ModelRun.create(**base, started_at=T0, ended_at=T0)
    b = ModelRun.create(**base, started_at=datetime.now(UTC), ended_at=datetime.now(UTC))
    assert a.run_id == b.run_id
    assert ModelRun.create(**{**base, "seed": 8}, started_at=T0, ended_at=T0).run_id != a.run_id


def test_records_are_frozen_and_strict():
    r = relation()
    with pytest.raises(ValidationError):
        r.sign = Sign.positive  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Relation.create(
            src_var="a", dst_var="b", sign="+", quote="q", location_id="l", source_id="s", confidence=0.5, colour="red"
        )
    with pytest.raises(ValidationError):
        relation(confidence=1.5)
    with pytest.raises(ValidationError):
        relation(sign="up")


def test_verify_id_detects_tampering():
    r = relation()
    r.verify_id()
    with pytest.raises(IntegrityError):
        r.model_copy(update={"sign": Sign.positive}).verify_id()


def test_every_record_type_is_described():
    for cls in RECORD_TYPES:
        assert cls.table and cls.id_field in cls.model_fields and cls.id_prefix
        assert cls.model_config["frozen"] and cls.model_config["extra"] == "forbid"


def test_canonical_json_is_order_independent_and_refuses_nan():
    assert canonical_json({"b": 1, "a": [1.5, "x"]}) == canonical_json({"a": [1.5, "x"], "b": 1})
    assert digest({"x": 0.1}) != digest({"x": 0.1000000001})
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


@settings(max_examples=60, deadline=None)
@given(
    stage=st.text(min_size=1, max_size=30),
    reason=st.text(max_size=200),
    status=st.sampled_from(["completed", "stopped", "failed"]),
)
def test_stage_record_ids_are_deterministic(stage, reason, status):
    a = StageRecord.create(
        analysis_id="an", stage=stage, status=status, reason=reason, input_digest="i", started_at=T0, ended_at=T0
    )
    b = StageRecord.create(
        analysis_id="an", stage=stage, status=status, reason=reason, input_digest="i", started_at=T0, ended_at=T0
    )
    assert a.record_id == b.record_id
    a.verify_id()
