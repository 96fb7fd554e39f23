"""One Store per script run, cached views keyed by the workspace digest, readable errors.

sqlite3 connections are tied to their thread and Streamlit reruns a script on any
thread, so the Store is opened at the start of each run and closed at its end; it is
never cached. What *is* cached (``st.cache_data``) is the plain data the view functions
return, keyed by the workspace path and :func:`aieco.inventory.workspace_digest`, so a new
record anywhere invalidates every cached view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import streamlit as st

from aieco.config import get_settings
from aieco.errors import AiecoError
from aieco.store import Store
from dashboard import views

T = TypeVar("T")


@st.cache_data(show_spinner=False, max_entries=512)
def _cached_view(name: str, workspace: str, workspace_digest: str, args: tuple, kwargs: tuple, _store: Store) -> Any:
    # workspace and workspace_digest are part of the cache key only; _store is not hashed.
    return getattr(views, name)(_store, *args, **dict(kwargs))


@dataclass
class Workspace:
    """The workspace of this script run: an open Store and its digest."""

    store: Store
    path: Path
    digest: str

    def view(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call ``dashboard.views.<fn>(store, *args, **kwargs)``, cached until the workspace changes."""
        if getattr(views, fn.__name__, None) is not fn:
            raise ValueError(f"{fn.__name__} is not a function of dashboard.views")
        return _cached_view(
            fn.__name__, str(self.path), self.digest, tuple(args), tuple(sorted(kwargs.items())), _store=self.store
        )

    def refresh(self) -> None:
        """Recompute the digest after this run wrote records (e.g. an ingest)."""
        self.digest = views.workspace_digest(self.store)


def workspace_path() -> Path:
    return Path(get_settings().workspace)


@contextmanager
def open_workspace() -> Iterator[Workspace]:
    """Open the workspace for this run; close it when the run ends."""
    store = Store(workspace_path())
    try:
        yield Workspace(store=store, path=store.path.resolve(), digest=views.workspace_digest(store))
    finally:
        store.close()


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
