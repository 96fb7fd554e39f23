"""Choosing a backend by name: offline (default), openai, replay."""

from __future__ import annotations

from pathlib import Path

from aieco.errors import InputError
from aieco.llm.base import Backend, OfflineBackend
from aieco.store import Store

BACKENDS = ("offline", "openai", "replay")


def make_backend(
    name: str, *, store: Store | None = None, replay_from: Path | Store | None = None, base_url: str | None = None
) -> Backend:
    """The backend called ``name``; replay reads recorded calls from ``replay_from`` (default ``store``)."""
    if name == "offline":
        return OfflineBackend()
    if name == "openai":
        from aieco.llm.openai_backend import OpenAIBackend

        return OpenAIBackend(base_url=base_url)
    if name == "replay":
        from aieco.llm.replay import ReplayBackend

        source = replay_from if replay_from is not None else store
        if source is None:
            raise InputError(
                "the replay backend needs a workspace holding recorded calls",
                fix="pass the recorded workspace (--replay-from DIR)",
            )
        return ReplayBackend(source if isinstance(source, Store) else Store(source, create=False))
    raise InputError(f"unknown LLM backend {name!r}", where="backend", fix=f"choose one of {', '.join(BACKENDS)}")
