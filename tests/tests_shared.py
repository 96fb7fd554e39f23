"""The shared real-data folder for module-scoped fixtures (skips when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data").resolve()


def shared_data_dir() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder {SHARED_DATA} is absent")
    return SHARED_DATA
