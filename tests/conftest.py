"""Shared fixtures: a fresh workspace per test (a copy of one new empty workspace), the shared real-data
folder, the real default workspace built once per run (copied, never rebuilt, for each module that reads it),
and the order in which pytest-xdist hands out the test files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from tests_shared import once_per_run

from aieco.config import get_settings
from aieco.store import Store

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = (ROOT / ".." / "shared" / "data").resolve()


#: The longest test files, longest first (measured on two cores). The suite runs on pytest-xdist with
#: ``--dist loadfile`` (pyproject.toml: one worker per core, each file whole on one worker); starting the
#: long files first keeps one worker from being left with a long file while the other is idle. Only the
#: order changes: every file's tests keep their order, and a file not named here keeps its place after these.
SLOWEST_FIRST = (
    "test_reliability_resume.py",
    "test_dashboard_browser.py",
    "test_pipeline_analysis.py",
    "test_cli_json.py",
    "test_pipeline_realdata.py",
    "test_extraction_gold.py",
    "test_reliability_inputs.py",
    "test_default_workspace.py",
    "test_api.py",
    "test_backtest.py",
    "test_evaluation_conditions.py",
    "test_dashboard_no_fetch.py",
    "test_executors.py",
    "test_bank_real_application.py",
    "test_bench_backtest_dask.py",
    "test_learned_reader.py",
    "test_reader_scores.py",
    "test_early_cutoffs.py",
)


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: within a file, the file's order


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


@pytest.fixture(scope="session")
def empty_workspace(tmp_path_factory) -> Path:
    """A new, migrated, empty workspace folder, made once per session: a template ``store`` copies."""
    folder = tmp_path_factory.mktemp("empty-workspace") / "ws"
    Store(folder).close()
    return folder


@pytest.fixture
def store(tmp_path: Path, empty_workspace: Path) -> Store:
    """A fresh empty workspace: a copy of the session's new one (files written now, as a new store's are),
    which opens in a tenth of the time that creating and migrating the schema takes."""
    shutil.copytree(empty_workspace, tmp_path / "ws", copy_function=shutil.copyfile)
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
    """The real default workspace as ``build_default`` leaves it, built once per run: (folder, counts).

    A template: a test copies it (``workspace_copy``) before opening it, so no test sees another's records.
    """

    def make(folder: Path) -> tuple[Path, dict]:
        from aieco.default import build_default

        with Store(folder / "ws") as store:
            return folder / "ws", build_default(store)

    return once_per_run(tmp_path_factory, "default-built", make)


@pytest.fixture(scope="session")
def default_run(default_built, tmp_path_factory) -> tuple[Path, dict, object]:
    """The built default workspace after ``run_default`` (the default request, offline), once per run:
    (folder, counts, outcome). A template, as ``default_built``."""
    built, counts = default_built

    def make(folder: Path) -> tuple[Path, dict, object]:
        from aieco.default import run_default

        shutil.copytree(built, folder / "ws")
        with Store(folder / "ws") as store:
            return folder / "ws", counts, run_default(store)

    return once_per_run(tmp_path_factory, "default-run", make)


@pytest.fixture(scope="session")
def workspace_copy(tmp_path_factory):
    """``workspace_copy(template, name)`` → a private copy of a template workspace folder (its SQLite
    file, artifacts and anchors) in a new temp folder."""

    def copy(template: Path, name: str = "ws-copy") -> Path:
        target = tmp_path_factory.mktemp(name) / "ws"
        shutil.copytree(template, target)
        return target

    return copy
