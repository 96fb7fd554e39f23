"""Where pure tasks run: in this process, in local processes, or on a Dask cluster.

An :class:`Executor` maps a pure function over items and yields ``(index, result)`` pairs as
they finish. Workers only compute: the caller (the driver) alone writes the SQLite store, so
the store keeps a single writer and a task lost with its worker leaves nothing written.

=============================  ===============================================================
spec                           executor
=============================  ===============================================================
``local``                      :class:`LocalExecutor`: in this process, in item order
``processes``                  :class:`ProcessExecutor`: ``concurrent.futures`` process pool
                               (spawned, ``workers`` processes)
``dask``                       :class:`DaskExecutor` on a ``LocalCluster`` bound to 127.0.0.1
                               (``workers`` worker processes, one thread each)
``dask://host:port``           :class:`DaskExecutor` on the scheduler at ``tcp://host:port``
=============================  ===============================================================

A function sent to ``processes`` or ``dask`` must be importable by name on the workers
(a module-level function of an installed ``aieco``); its arguments and result must pickle.
``shared`` is one object every task receives as its first argument: Dask scatters it once
to every worker instead of sending it with each task.

Errors: :class:`WorkerLost` (an :class:`~aieco.errors.AiecoError`) when the cluster gives up on a
task whose worker died; any exception a task raises is re-raised in the driver unchanged.
"""

from __future__ import annotations

import multiprocessing
import os
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from aieco.errors import AiecoError, InputError

EXECUTOR_NAMES = ("local", "processes", "dask")


class WorkerLost(AiecoError):
    """A worker died while it held a task and the cluster gave the task up."""

    kind = "worker_lost"


def _import(*modules: str) -> int:
    import importlib

    for name in modules:
        importlib.import_module(name)
    return len(modules)


def _call(fn: Callable[..., Any], shared: Any, item: Any) -> Any:
    return fn(item) if shared is None else fn(shared, item)


class LocalExecutor:
    """Every task in this process, in item order (the sequential reference)."""

    name = "local"

    def __init__(self) -> None:
        self.workers = 1

    def map_unordered(
        self, fn: Callable[..., Any], items: Iterable[Any], *, shared: Any = None
    ) -> Iterator[tuple[int, Any]]:
        for i, item in enumerate(items):
            yield i, _call(fn, shared, item)

    def close(self) -> None:
        return None

    def warm(self, *modules: str) -> None:
        """Import ``modules`` where the tasks will run (a long-lived cluster has them imported already)."""
        _import(*modules)

    def run_everywhere(self, fn: Callable[..., Any], *args: Any) -> None:
        """Call ``fn(*args)`` once where the tasks run."""
        fn(*args)

    def describe(self) -> dict[str, Any]:
        return {"executor": self.name, "workers": self.workers}

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Arrivals:
    """Results of tasks already submitted, as ``(index, result)`` pairs in order of arrival.

    The tasks run from the moment :meth:`~DaskExecutor.map_unordered` returns, so the caller can do work of
    its own before it asks for the first result. :meth:`close` cancels what has not finished; so does the
    end of the results, or an error a task raised. A caller that leaves early for a reason of its own calls
    :meth:`close` (Dask also forgets the tasks of results nobody holds any more).
    """

    def __init__(self, results: Iterator[tuple[int, Any]], cancel: Callable[[], None]) -> None:
        self._results = results
        self._cancel = cancel

    def __iter__(self) -> Arrivals:
        return self

    def __next__(self) -> tuple[int, Any]:
        try:
            return next(self._results)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self._cancel()


class ProcessExecutor(LocalExecutor):
    """A spawned ``concurrent.futures`` process pool (never fork a process holding SQLite and threads)."""

    name = "processes"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"))

    def map_unordered(self, fn: Callable[..., Any], items: Iterable[Any], *, shared: Any = None) -> Arrivals:
        """Submit every task now; the results arrive as they finish."""
        futures = {self._pool.submit(_call, fn, shared, item): i for i, item in enumerate(items)}

        def cancel() -> None:
            for future in futures:
                future.cancel()

        return Arrivals(((futures[f], f.result()) for f in as_completed(futures)), cancel)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor(LocalExecutor):
    """Tasks on a Dask distributed cluster: a LocalCluster on 127.0.0.1, or the scheduler at ``address``."""

    name = "dask"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        from distributed import Client, LocalCluster

        self.address = address
        self._cluster = None
        if address is None:
            import dask

            # Two worker defaults cost the coarse, CPU-bound tasks here CPU on this 2-core machine (a user's
            # own cluster keeps its own settings): the statistical profiler, which samples the running task
            # every 10 ms for the dashboard's profile page, and MALLOC_TRIM_THRESHOLD_=65536, which hands
            # freed memory back to the system at once, so the VAR's bootstrap arrays are paged in again
            # at every draw (about 7 % more CPU per forecast, measured in one process with and without it)
            spawn_env = {
                k: v
                for k, v in dask.config.get("distributed.nanny.pre-spawn-environ", {}).items()
                if k != "MALLOC_TRIM_THRESHOLD_"
            }
            settings = {"distributed.worker.profile.enabled": False, "distributed.nanny.pre-spawn-environ": spawn_env}
            with dask.config.set(settings):
                self._cluster = LocalCluster(
                    n_workers=workers or os.cpu_count() or 1,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address="127.0.0.1:0",  # any free port, loopback only
                )
            self.client = Client(self._cluster)
        else:
            self.client = Client(address)
        self.workers = len(self.client.scheduler_info(n_workers=-1)["workers"])

    def map_unordered(self, fn: Callable[..., Any], items: Iterable[Any], *, shared: Any = None) -> Arrivals:
        """Scatter ``shared`` and submit every task now; the results arrive as they finish."""
        items = list(items)
        if not items:
            return Arrivals(iter(()), lambda: None)
        token = uuid.uuid4().hex[:12]  # fresh keys: results are never taken from an earlier map
        # a fresh key per map (hash=False): a second map of equal data never races the release of the first
        payload = self.client.scatter(shared, broadcast=True, hash=False) if shared is not None else None
        futures = [
            self.client.submit(
                _call, fn, payload, item, key=f"{getattr(fn, '__name__', 'task')}-{token}-{i}", pure=False
            )
            for i, item in enumerate(items)
        ]
        return Arrivals(self._arrivals(futures, len(items)), lambda: self.client.cancel(futures))

    def _arrivals(self, futures: list[Any], n: int) -> Iterator[tuple[int, Any]]:
        from distributed import as_completed as dask_completed
        from distributed.client import FutureCancelledError

        try:
            from distributed import KilledWorker
        except ImportError:  # older layouts
            from distributed.scheduler import KilledWorker

        index = {f.key: i for i, f in enumerate(futures)}
        for future in dask_completed(futures):
            try:
                result = future.result()
            except (KilledWorker, FutureCancelledError) as exc:
                raise WorkerLost(
                    f"task {index[future.key] + 1} of {n} was lost with its worker ({exc})",
                    where=f"dask executor {self.address or 'LocalCluster'}",
                    fix="nothing of that task was written; run the command again (finished work is kept)",
                ) from exc
            yield index[future.key], result

    def warm(self, *modules: str) -> None:
        self.client.run(_import, *modules)

    def run_everywhere(self, fn: Callable[..., Any], *args: Any) -> None:
        """Call ``fn(*args)`` once on every worker (e.g. a first task that fills the workers' lazy imports)."""
        self.client.run(fn, *args)

    def worker_pids(self) -> dict[str, int]:
        """Worker address → process id (tests kill one)."""
        return self.client.run(os.getpid)

    def describe(self) -> dict[str, Any]:
        return {"executor": self.name, "workers": self.workers, "scheduler": self.client.scheduler.address}

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(spec: str | None, workers: int | None = None) -> LocalExecutor:
    """The executor a ``--executor`` value names (see the module docstring); ``None`` is ``local``."""
    spec = (spec or "local").strip()
    if spec == "local":
        return LocalExecutor()
    if spec == "processes":
        return ProcessExecutor(workers)
    if spec == "dask":
        return DaskExecutor(None, workers)
    if spec.startswith("dask://"):
        hostport = spec.removeprefix("dask://")
        host, _, port = hostport.rpartition(":")
        if not host or not port.isdigit():
            raise InputError(
                f"--executor {spec!r} does not name a scheduler as dask://host:port",
                where="--executor",
                fix="e.g. --executor dask://127.0.0.1:8786 (the address dask-scheduler prints)",
            )
        return DaskExecutor(f"tcp://{host}:{port}", workers)
    raise InputError(
        f"unknown executor {spec!r}",
        where="--executor",
        fix="use local, processes, dask, or dask://host:port",
    )
