"""One Store per script run, cached views keyed by the workspace digest, readable errors.

Streamlit reruns the whole page script on every interaction, on any thread. Opening a
Store checks the database (``PRAGMA quick_check`` reads every page) and its schema, so a
run borrows an already opened Store from a small pool instead: one Store is used by one
run at a time (never shared between threads at once), and is returned when the run ends.
SQLite in WAL mode shows every committed write to the next read, so a pooled Store never
shows stale records; a replaced database file (another inode) is opened afresh.

The view functions' results are cached in memory (``st.cache_resource``: no pickling
on each read), keyed by the workspace path and :func:`aieco.inventory.workspace_digest`
(the tables' chain heads), so a new record anywhere invalidates every cached view. A
cached DataFrame is handed out as a copy (copy-on-write: cheap), so a page cannot change
what another run reads.
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd
import streamlit as st

from aieco import inventory
from aieco.config import get_settings
from aieco.errors import AiecoError
from aieco.store import Store

T = TypeVar("T")

#: The modules whose functions ``Workspace.view`` caches: they take a Store and only read records.
VIEW_MODULES = (
    "dashboard.shared",
    "dashboard.analysis_views",
    "dashboard.sources_views",
    "dashboard.graph_views",
    "dashboard.runs_views",
    "dashboard.reports_views",
    "dashboard.bank_views",
    "dashboard.scenario_views",
    "dashboard.report_review",
)


@st.cache_resource(show_spinner=False, max_entries=512)
def _cached_view(
    module: str, name: str, workspace: str, workspace_digest: str, args: tuple, kwargs: tuple, _store: Store
) -> Any:
    # workspace and workspace_digest are part of the cache key only; _store is not hashed.
    return getattr(importlib.import_module(module), name)(_store, *args, **dict(kwargs))


def _handed_out(value: Any) -> Any:
    """A cached value as a run may use it: frames copied (copy-on-write), containers rebuilt."""
    if isinstance(value, pd.DataFrame):
        return value.copy()
    if isinstance(value, dict):
        return {k: _handed_out(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_handed_out(v) for v in value]
    return value


_POOL: dict[tuple[str, int], list[Store]] = {}
_POOL_LOCK = threading.Lock()
_POOL_SIZE = 4


def _db_inode(path: Path) -> int:
    try:
        return os.stat(path / "aieco.db").st_ino
    except OSError:  # no database yet, or the path is not a folder (the Store says so, readably)
        return 0


@contextmanager
def _pooled_store(path: Path) -> Iterator[Store]:
    key = (str(path.resolve()), _db_inode(path))
    with _POOL_LOCK:
        idle = _POOL.get(key)
        store = idle.pop() if idle else None
    if store is None:
        store = Store(path)
        key = (str(path.resolve()), _db_inode(path))  # the file exists now
    healthy = False
    try:
        yield store
        healthy = not store.db.conn.in_transaction
    finally:
        with _POOL_LOCK:
            idle = _POOL.setdefault(key, [])
            if healthy and len(idle) < _POOL_SIZE:
                idle.append(store)
                store = None
        if store is not None:
            store.close()


@dataclass
class Workspace:
    """The workspace of this script run: an open Store and its digest."""

    store: Store
    path: Path
    digest: str

    def view(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call a dashboard view ``fn(store, *args, **kwargs)``, cached until the workspace changes."""
        module = getattr(fn, "__module__", "")
        if module not in VIEW_MODULES or getattr(importlib.import_module(module), fn.__name__, None) is not fn:
            raise ValueError(f"{fn.__name__} is not a view function of {', '.join(VIEW_MODULES)}")
        return _handed_out(
            _cached_view(
                module,
                fn.__name__,
                str(self.path),
                self.digest,
                tuple(args),
                tuple(sorted(kwargs.items())),
                _store=self.store,
            )
        )

    def refresh(self) -> None:
        """Recompute the digest after this run wrote records (e.g. an ingest)."""
        self.digest = inventory.workspace_digest(self.store)


def workspace_path() -> Path:
    """The workspace folder, absolute (AIECO_WORKSPACE=ws_demo means the server's folder's ws_demo)."""
    return Path(get_settings().workspace).absolute()


@contextmanager
def open_workspace() -> Iterator[Workspace]:
    """The workspace for this run (a Store borrowed from the pool, returned when the run ends)."""
    with _pooled_store(workspace_path()) as store:
        yield Workspace(store=store, path=store.path.resolve(), digest=inventory.workspace_digest(store))


@contextmanager
def shown_errors() -> Iterator[None]:
    """Show a library error (``AiecoError``) as a readable message instead of a traceback."""
    try:
        yield
    except AiecoError as exc:
        st.error(str(exc))


_RUN_WORKSPACE: ContextVar[Workspace | None] = ContextVar("aieco_run_workspace", default=None)


@contextmanager
def bound(ws: Workspace) -> Iterator[Workspace]:
    """Make this run's workspace available to the page that ``app.py`` runs."""
    token = _RUN_WORKSPACE.set(ws)
    try:
        yield ws
    finally:
        _RUN_WORKSPACE.reset(token)


def running_under_app() -> bool:
    """True inside a run that ``app.py`` (the shell) started."""
    return _RUN_WORKSPACE.get() is not None


@contextmanager
def page_workspace() -> Iterator[Workspace]:
    """The workspace for a page, with library errors shown as readable messages.

    Under ``app.py`` this is the workspace it opened for the run. A page run on its
    own (Streamlit's pages/ folder mode, e.g. a deep link before ``st.navigation``
    registered the pages) opens and closes its own, once, for the run.
    """
    ws = _RUN_WORKSPACE.get()
    with shown_errors():
        if ws is not None:
            yield ws
        else:
            with open_workspace() as own, bound(own):
                yield own
