"""Shared fixtures: a fresh workspace per test, the shared real-data folder, the real default workspace
built once per session (copied, never rebuilt, for each module that reads it)."""

from __future__ import annotations

import shutil
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


@pytest.fixture(scope="session")
def default_built(tmp_path_factory) -> tuple[Path, dict]:
    """The real default workspace as ``build_default`` leaves it, built once per session: (folder, counts).

    A template: a test copies it (``copy_workspace``) before opening it, so no test sees another's records.
    """
    from aieco.default import build_default

    folder = tmp_path_factory.mktemp("default-built") / "ws"
    with Store(folder) as store:
        counts = build_default(store)
    return folder, counts


@pytest.fixture(scope="session")
def default_run(default_built, tmp_path_factory) -> tuple[Path, dict, object]:
    """The built default workspace after ``run_default`` (the default request, offline), once per session:
    (folder, counts, outcome). A template, as ``default_built``."""
    from aieco.default import run_default

    built, counts = default_built
    folder = tmp_path_factory.mktemp("default-run") / "ws"
    shutil.copytree(built, folder)
    with Store(folder) as store:
        outcome = run_default(store)
    return folder, counts, outcome


@pytest.fixture(scope="session")
def workspace_copy(tmp_path_factory):
    """``workspace_copy(template, name)`` → a private copy of a template workspace folder (its SQLite
    file, artifacts and anchors) in a new temp folder."""

    def copy(template: Path, name: str = "ws-copy") -> Path:
        target = tmp_path_factory.mktemp(name) / "ws"
        shutil.copytree(template, target)
        return target

    return copy
