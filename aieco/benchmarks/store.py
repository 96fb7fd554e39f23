"""Store throughput: inserting and reading records and artifacts."""

from __future__ import annotations

import tempfile

import numpy as np

from aieco.benchmarks import Figure, measure
from aieco.records import StageRecord, utc_now
from aieco.store import Store


def run(quick: bool = False) -> list[Figure]:
    n = 2_000 if quick else 20_000
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(tmp + "/ws")
        now = utc_now()
        records = [
            StageRecord.create(
                analysis_id="bench",
                stage=f"s{i}",
                status="completed",
                input_digest=str(i),
                started_at=now,
                ended_at=now,
            )
            for i in range(n)
        ]
        with measure() as m:
            store.put_many(records)
        with measure() as r:
            got = store.find(StageRecord, analysis_id="bench")
        assert len(got) == n
        arr = np.random.default_rng(0).normal(size=(2_000, 1_000))
        with measure() as a:
            d = store.put_array(arr)
            store.get_array(d)
        store.close()
    return [
        Figure(name="insert_records_per_s", value=n / m["seconds"], unit="records/s", better="higher"),
        Figure(name="read_records_per_s", value=n / r["seconds"], unit="records/s", better="higher"),
        Figure(name="artifact_16mb_roundtrip", value=a["seconds"], unit="s"),
    ]
