"""The real demo workspace (built and run offline by the library), built once per test session."""

from __future__ import annotations

from pathlib import Path

from aieco.demo import build_demo, run_demo
from aieco.store import Store

_BUILT: dict[str, Path] = {}


def demo_workspace(tmp_path_factory) -> Path:
    """Build the demo workspace on first use and return its folder (shared by the dashboard tests)."""
    if "demo" not in _BUILT:
        workspace = tmp_path_factory.mktemp("demo") / "ws"
        with Store(workspace) as store:
            build_demo(store)
            run_demo(store)
        _BUILT["demo"] = workspace
    return _BUILT["demo"]
