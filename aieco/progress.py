"""Sub-step progress of long loops (bank fits, simulations, parsing, extraction), for whoever listens.

The long loops of the library call :func:`report` as they go; it does nothing unless a
caller installed a reporter for the current context with :func:`reporting` (the
dashboard's first-launch build, the CLI's progress bar). The reporter is held in a
:class:`contextvars.ContextVar`, so it follows the code that installed it — one
analysis thread's reports never reach another thread's listener — and costs one
context-variable lookup when nobody listens.

``report(step, done, total, label)``: ``step`` names the loop ("bank fit", "simulation",
"PDF parsing" …), ``done`` of ``total`` items are finished, ``label`` says which item
(a model id, a file name); ``done == total`` closes the step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Reporter = Callable[[str, int, int, str], None]
"""reporter(step, done, total, label)."""

_REPORTER: ContextVar[Reporter | None] = ContextVar("aieco_progress_reporter", default=None)


def report(step: str, done: int, total: int, label: str = "") -> None:
    """Tell the installed reporter that ``done`` of ``total`` items of ``step`` are finished (no-op
    when none is installed)."""
    reporter = _REPORTER.get()
    if reporter is not None:
        reporter(step, done, total, label)


def listening() -> bool:
    """True when a reporter is installed (a loop may skip building a costly label otherwise)."""
    return _REPORTER.get() is not None


@contextmanager
def reporting(reporter: Reporter | None) -> Iterator[None]:
    """Send :func:`report` calls made in this context (this thread, below this call) to ``reporter``."""
    token = _REPORTER.set(reporter)
    try:
        yield
    finally:
        _REPORTER.reset(token)
