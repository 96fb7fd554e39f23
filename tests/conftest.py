"""Shared fixtures: a fresh workspace per test, the shared real-data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from aieco.store import Store

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = (ROOT / ".." / "shared" / "data").resolve()


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "ws")
    yield s
    s.close()


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder {SHARED_DATA} is absent")
    return SHARED_DATA
