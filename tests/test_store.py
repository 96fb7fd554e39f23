import os
import subprocess
import sys
from datetime import UTC, date, datetime

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aieco.errors import InputError, IntegrityError
from aieco.records import (
    RECORD_TYPES,
    LLMCall,
    ModelOutputPoint,
    ModelRun,
    ObservedValue,
    OutputTest,
    Relation,
    Source,
    StageRecord,
)
from aieco.store import Store

T0 = datetime(2024, 12, 31, 12, tzinfo=UTC)

safe_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    quote=safe_text,
    conf=st.floats(0, 1),
    sign=st.sampled_from(["+", "-", "ambiguous"]),
    attrs=st.lists(safe_text, max_size=3),
    pub=st.one_of(st.none(), st.dates()),
)
def test_relation_round_trip(store, quote, conf, sign, attrs, pub):
    r = Relation.create(
        src_var="a",
        dst_var="b",
        sign=sign,
        quote=quote,
        location_id="l",
        source_id="s",
        confidence=conf,
        unresolved_attributes=attrs,
        publication_date=pub,
    )
    store.put(r)
    assert store.get(Relation, r.relation_id) == r


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    value=st.floats(allow_nan=False, allow_infinity=False),
    period=st.text(min_size=1, max_size=8),
    release=st.one_of(st.none(), st.dates()),
)
def test_observed_value_round_trip(store, value, period, release):
    o = ObservedValue.create(
        variable="real_gdp",
        value=value,
        unit="EUR mn",
        frequency="Q",
        jurisdiction="EA",
        reference_period=period,
        release_date=release,
    )
    store.put(o)
    assert store.get(ObservedValue, o.observation_id) == o


def test_put_is_idempotent_and_find_filters(store):
    s = Source.create(
        path="x.pdf",
        sha256="0" * 64,
        publisher="ECB",
        title="t",
        publication_date=date(2024, 5, 1),
        retrieved_at=T0,
        role="generation",
        kind="pdf",
    )
    assert store.put(s) is True
    assert store.put(s) is False
    assert store.count(Source) == 1
    assert store.find(Source, publisher="ECB") == [s]
    assert store.find(Source, publisher="BIS") == []
    with pytest.raises(InputError, match="no field"):
        store.find(Source, colour="red")


def _append_only_rows():
    run = ModelRun.create(
        analysis_id="an",
        model_id="m",
        spec_id="s",
        request_digest="r",
        input_digests={},
        code_digest="c",
        config_digest="k",
        env_digest="e",
        seed=1,
        started_at=T0,
        ended_at=T0,
        status="completed",
    )
    return [
        run,
        ModelOutputPoint.create(
            run_id=run.run_id,
            variable="gdp",
            unit="%",
            transformation="annual_growth",
            period="2025",
            value=-1.0,
            artifact_digest="d",
            table_name="t",
            row="2025",
            column="gdp",
        ),
        LLMCall.create(
            analysis_id="an",
            stage="s",
            task="t",
            sequence=0,
            prompt_version="p@1",
            backend="offline",
            requested_model="m",
            request_payload={},
            request_digest="d",
            status="ok",
            started_at=T0,
            ended_at=T0,
        ),
        StageRecord.create(
            analysis_id="an", stage="s", status="completed", input_digest="i", started_at=T0, ended_at=T0
        ),
        OutputTest.create(
            analysis_id="an",
            claim_id="c",
            phase="registered",
            variable="gdp",
            unit="%",
            horizon="2025",
            transformation="annual_growth",
            model_id="m",
        ),
    ]


@pytest.mark.parametrize("record", _append_only_rows(), ids=lambda r: r.table)
@pytest.mark.parametrize("op", ["UPDATE", "DELETE"])
def test_append_only_tables_refuse_update_and_delete(store, record, op):
    cls = type(record)
    assert cls.append_only
    store.put(record)
    sql = (
        f'UPDATE {cls.table} SET "{cls.id_field}" = "{cls.id_field}"' if op == "UPDATE" else f"DELETE FROM {cls.table}"
    )
    with pytest.raises(IntegrityError, match=cls.table):
        store.execute_raw(sql)
    assert store.count(cls) == 1


def test_append_only_set_is_the_designed_one():
    assert {c.table for c in RECORD_TYPES if c.append_only} == {
        "model_runs",
        "model_output_points",
        "llm_calls",
        "stage_records",
        "output_tests",
        "review_decisions",
    }


def test_artifacts_are_content_addressed_and_verified(store):
    d = store.put_artifact(b"hello")
    assert d == store.put_artifact(b"hello")
    assert store.get_artifact(d) == b"hello"
    arr = np.random.default_rng(1).normal(size=(5, 3))
    np.testing.assert_array_equal(store.get_array(store.put_array(arr)), arr)
    df = pd.DataFrame({"gdp": [0.1, -2.5], "u": [6.5, 7.0]}, index=["2025", "2026"])
    back = store.get_tables(store.put_tables({"annual": df}))["annual"]
    pd.testing.assert_frame_equal(back, df)
    path = store.artifact_dir / d[:2] / d
    os.chmod(path, 0o644)
    path.write_bytes(b"tampered")
    with pytest.raises(IntegrityError, match="altered"):
        store.get_artifact(d)
    assert [p["id"] for p in store.audit() if p["kind"] == "artifact"] == [d]


def test_audit_finds_altered_rows(store):
    r = Relation.create(src_var="a", dst_var="b", sign="+", quote="q", location_id="l", source_id="s", confidence=0.5)
    store.put(r)
    assert store.audit() == []
    store.execute_raw("UPDATE relations SET sign = '-'")
    found = store.audit()
    assert found and {(p["kind"], p["id"]) for p in found} == {("relations", r.relation_id)}


def test_transaction_rolls_back_everything(store):
    rows = _append_only_rows()
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.put(rows[0])
            raise RuntimeError("boom")
    assert store.count(ModelRun) == 0


def test_workspace_that_is_a_file(tmp_path):
    f = tmp_path / "ws"
    f.write_text("x")
    with pytest.raises(InputError, match="is a file") as e:
        Store(f)
    assert "--workspace" in str(e.value)


def test_corrupt_database_file(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "aieco.db").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(InputError, match="not a usable aieco database"):
        Store(ws)
    assert (ws / "aieco.db").read_bytes() == b"this is not sqlite" * 100  # untouched
    assert not (ws / "artifacts").exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_read_only_folder(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(InputError, match="not writable|read-only"):
            Store(ro / "ws")
        assert not (ro / "ws").exists()
    finally:
        ro.chmod(0o755)


def test_read_only_folder_as_root_is_simulated(tmp_path, monkeypatch):
    """Root bypasses permissions, so check the guard through os.access."""
    ws = tmp_path / "ws"
    ws.mkdir()
    monkeypatch.setattr(os, "access", lambda *a, **k: False)
    with pytest.raises(InputError, match="read-only"):
        Store(ws)
    assert list(ws.iterdir()) == []


def test_schema_is_migrated_once_and_recorded(tmp_path):
    s = Store(tmp_path / "ws")
    names = [r["name"] for r in s.db["_sqlite_migrations"].rows]
    assert names[:2] == ["m001_initial_schema", "m002_append_only_triggers"]
    s.close()
    s2 = Store(tmp_path / "ws")
    assert [r["name"] for r in s2.db["_sqlite_migrations"].rows] == names
    s2.close()


WRITER = """
import sys
from datetime import datetime, timezone
from aieco.records import StageRecord
from aieco.store import Store
s = Store(sys.argv[1])
t = datetime.now(timezone.utc)
for i in range(1000):
    s.put(StageRecord.create(analysis_id=sys.argv[2], stage=f"s{i}", status="completed", input_digest=str(i),
                             started_at=t, ended_at=t))
"""


def test_two_processes_writing_concurrently_lose_nothing(tmp_path):
    ws = tmp_path / "ws"
    Store(ws).close()
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(ws), name]) for name in ("a", "b")]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    s = Store(ws)
    assert s.count(StageRecord, analysis_id="a") == 1000
    assert s.count(StageRecord, analysis_id="b") == 1000
    s.close()
