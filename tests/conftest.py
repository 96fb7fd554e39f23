"""Shared fixtures: a fresh workspace per test, the shared real-data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from aieco.config import get_settings
from aieco.store import Store

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = (ROOT / ".." / "shared" / "data").resolve()


def pytest_report_header(config):
    """The numerical stack's versions, so a failure on a fresh install names what it ran on."""
    import importlib.metadata as md

    names = ("numpy", "scipy", "scikit-learn", "pandas", "statsmodels", "streamlit", "pydantic")
    found = []
    for name in names:
        try:
            found.append(f"{name} {md.version(name)}")
        except md.PackageNotFoundError:
            found.append(f"{name} absent")
    return "aieco stack: " + ", ".join(found)


@pytest.fixture(scope="session", autouse=True)
def default_workspace_outside_the_repository(tmp_path_factory):
    """No test may write into the repository's own store/: the default workspace is a temp folder."""
    mp = pytest.MonkeyPatch()
    mp.setenv("AIECO_WORKSPACE", str(tmp_path_factory.mktemp("default-workspace") / "store"))
    get_settings.cache_clear()
    yield
    mp.undo()
    get_settings.cache_clear()


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
