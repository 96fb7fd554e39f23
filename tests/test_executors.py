"""Executors: local, processes and Dask give the sequential run's records; a killed worker writes nothing half.

The Dask tests start a LocalCluster of 2 worker processes on 127.0.0.1 (no other address).
"""

from __future__ import annotations

import os
import signal
import tomllib

import pytest

from aieco.benchmarks.copies import write_copies
from aieco.errors import InputError
from aieco.executors import DaskExecutor, LocalExecutor, ProcessExecutor, WorkerLost, make_executor
from aieco.extraction.build import build_relations
from aieco.records import Relation, Source, SourceLocation
from aieco.sources.registry import ingest
from aieco.store import Store

pytest.importorskip("distributed")


def square_plus(shared, x):
    return x * x + shared


def touch(folder, x):
    """A task that leaves a mark when it runs."""
    from pathlib import Path

    (Path(folder) / f"ran-{x}").write_text("")
    return x


@pytest.fixture(scope="module")
def dask2():
    with DaskExecutor(workers=2) as ex:
        yield ex


def ids(store: Store) -> tuple[set[str], set[str]]:
    return {s.source_id for s in store.all(Source)}, {loc.location_id for loc in store.all(SourceLocation)}


@pytest.mark.parametrize("spec", ["nonsense", "dask://nohost", "dask://h:port", ""])
def test_a_bad_executor_spec_names_the_option_and_the_fix(spec):
    if spec == "":
        assert isinstance(make_executor(spec), LocalExecutor)
        return
    with pytest.raises(InputError) as err:
        make_executor(spec)
    assert "--executor" in str(err.value) and "fix" in str(err.value)


def test_every_executor_returns_every_result_once(dask2):
    want = {i: i * i + 3 for i in range(7)}
    with ProcessExecutor(2) as procs:
        for ex in (LocalExecutor(), procs, dask2):
            got = dict(ex.map_unordered(square_plus, range(7), shared=3))
            assert got == want, ex.name
    # a second map of the same shared data on the same cluster (it once raced the release of the first)
    assert dict(dask2.map_unordered(square_plus, range(7), shared=3)) == want
    assert dask2.describe()["scheduler"].startswith("tcp://127.0.0.1:")
    assert dask2.workers == 2


def test_distributed_executors_start_every_task_before_the_first_result_is_asked_for(tmp_path, dask2):
    """The backtest reads its outcomes while the workers compute: map_unordered submits at once."""
    import time

    with ProcessExecutor(2) as procs:
        for ex in (procs, dask2):
            folder = tmp_path / ex.name
            folder.mkdir()
            arriving = ex.map_unordered(touch, range(4), shared=str(folder))
            deadline = time.monotonic() + 60
            while len(list(folder.iterdir())) < 4 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert sorted(p.name for p in folder.iterdir()) == [f"ran-{i}" for i in range(4)], ex.name
            assert sorted(arriving) == [(i, i) for i in range(4)], ex.name


def test_the_local_cluster_turns_off_two_worker_defaults_that_cost_cpu(dask2):
    """No statistical profiler, no eager malloc trim (docs/dask.md); the BLAS stays single-threaded."""
    env = dask2.client.run(lambda: {k: os.environ.get(k) for k in ("MALLOC_TRIM_THRESHOLD_", "OMP_NUM_THREADS")})
    assert all(e == {"MALLOC_TRIM_THRESHOLD_": None, "OMP_NUM_THREADS": "1"} for e in env.values()), env

    def profiling():
        import dask

        return dask.config.get("distributed.worker.profile.enabled")

    assert set(dask2.client.run(profiling).values()) == {False}


def test_ingest_on_dask_gives_the_sequential_record_ids(tmp_path, dask2):
    manifest = write_copies(tmp_path / "corpus", 3)
    with Store(tmp_path / "seq") as seq, Store(tmp_path / "dask") as dist:
        a = ingest(seq, manifest, workers=1)
        b = ingest(dist, manifest, executor=dask2)
        assert a.ok and b.ok and b.counts["registered"] == 3
        assert ids(seq) == ids(dist)
        assert len(ids(seq)[1]) == 3 * a.files[0].locations  # 22 pages in 2 page ranges each, merged whole


def test_graph_build_on_dask_gives_the_sequential_relation_ids(tmp_path, dask2):
    from aieco.default import __file__ as default_init  # the real corpus manifest

    manifest = os.path.join(os.path.dirname(default_init), "corpus", "sources.toml")
    with Store(tmp_path / "seq") as seq, Store(tmp_path / "dask") as dist:
        assert ingest(seq, manifest, workers=1).ok and ingest(dist, manifest, workers=1).ok
        a = build_relations(seq, condition="G0", max_candidates=40)
        b = build_relations(dist, condition="G0", max_candidates=40, executor=dask2)
        assert a.model_dump(exclude={"seconds"}) == b.model_dump(exclude={"seconds"})
        assert a.accepted > 0
        assert {r.relation_id for r in seq.all(Relation)} == {r.relation_id for r in dist.all(Relation)}


def test_a_worker_killed_mid_ingest_leaves_whole_sources_and_the_rerun_completes(tmp_path):
    """allowed-failures 0: the task on the killed worker is given up (WorkerLost) instead of retried."""
    import dask

    manifest = write_copies(tmp_path / "corpus", 6)
    with Store(tmp_path / "seq") as seq:
        assert ingest(seq, manifest, workers=1).ok
        want = ids(seq)
        per_source = {s: seq.count(SourceLocation, source_id=s) for s in want[0]}
    killed: list[int] = []
    with Store(tmp_path / "dist") as store:
        with dask.config.set({"distributed.scheduler.allowed-failures": 0}), DaskExecutor(workers=2) as ex:
            pids = list(ex.worker_pids().values())

            def kill_after_first(done, _total, _path):
                if done == 1 and not killed:
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(pids[0])

            with pytest.raises(WorkerLost) as err:
                ingest(store, manifest, executor=ex, progress=kill_after_first)
            assert "run the command again" in str(err.value)
        assert killed
        written = {s.source_id for s in store.all(Source)}
        assert written < want[0]  # the run stopped before the end …
        for sid in written:  # … and every source it wrote is whole
            assert store.count(SourceLocation, source_id=sid) == per_source[sid]
        with DaskExecutor(workers=2) as ex:
            again = ingest(store, manifest, executor=ex)
        assert again.ok and again.counts["unchanged"] == len(written)
        assert ids(store) == want


def test_cli_ingest_and_graph_build_with_an_executor_give_the_sequential_ids(tmp_path):
    import json

    from click.testing import CliRunner

    from aieco.cli import main
    from aieco.default import __file__ as default_init

    manifest = os.path.join(os.path.dirname(default_init), "corpus", "sources.toml")
    runner = CliRunner()
    relations = []
    for name, extra in (("seq", ["--executor", "local"]), ("procs", ["--executor", "processes", "--workers", "2"])):
        ws = str(tmp_path / name)
        out = runner.invoke(main, ["-w", ws, "--json", "ingest", manifest, *extra])
        assert out.exit_code == 0, out.output
        listed = tomllib.loads(open(manifest, encoding="utf-8").read())["source"]
        assert json.loads(out.stdout)["counts"]["registered"] == len(listed)
        out = runner.invoke(main, ["-w", ws, "--json", "graph", "build", "--max-candidates", "40", *extra])
        assert out.exit_code == 0, out.output
        with Store(ws) as store:
            relations.append({r.relation_id for r in store.all(Relation)})
    assert relations[0] and relations[0] == relations[1]
    bad = runner.invoke(main, ["-w", str(tmp_path / "x"), "ingest", manifest, "--executor", "dask://nowhere"])
    assert bad.exit_code != 0 and "dask://host:port" in bad.output


def test_ingest_on_an_executor_writes_in_manifest_order(tmp_path):
    """Record ids alone are not enough: later stages read the store in insertion order (graph build's candidate
    cap breaks ties by it), so an executor must write files in the order the sequential ingest does."""
    from aieco.default import __file__ as default_init
    from aieco.sources.registry import ingest

    manifest = os.path.join(os.path.dirname(default_init), "corpus", "sources.toml")
    orders = []
    for name, spec in (("seq", "local"), ("procs", "processes")):
        with Store(tmp_path / name) as store:
            executor = make_executor(spec, workers=2)
            try:
                assert ingest(store, manifest, executor=executor).ok
            finally:
                executor.close()
            orders.append(
                ([s.source_id for s in store.all(Source)], [x.location_id for x in store.all(SourceLocation)])
            )
    assert orders[0] == orders[1]
