"""Layer contracts (STYLE.md §1), checked by import-linter on every test run."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_hold():
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    out = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "broken" not in out.stdout.split("Contracts:")[-1].replace("0 broken", "")


def test_dashboard_files_do_no_sql_or_model_work():
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "dashboard").glob("*.py"))]
    assert len(files) > 10, "the dashboard's pages/ and dashboard/ folders are missing"
    for f in files:
        if f.exists():
            text = f.read_text()
            for banned in (
                "import sqlite3",
                "import sqlite_utils",
                "from sqlite_utils",
                "import statsmodels",
                "import highspy",
            ):
                assert banned not in text, f"{f.name} contains {banned!r}"


def test_the_library_never_imports_the_dashboard_package():
    for f in sorted((ROOT / "aieco").rglob("*.py")):
        text = f.read_text()
        assert "from dashboard" not in text and "import dashboard" not in text, f"{f} imports the dashboard"


MAX_DASHBOARD_MODULE_LINES = 800


def test_no_dashboard_module_exceeds_800_lines():
    """A view module per dashboard area (issue 34): no file of the app, its pages or dashboard/ grows past 800 lines."""
    files = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "dashboard").glob("*.py"))]
    sizes = {f.relative_to(ROOT).as_posix(): len(f.read_text().splitlines()) for f in files}
    assert len(sizes) > 10
    too_long = {name: n for name, n in sizes.items() if n > MAX_DASHBOARD_MODULE_LINES}
    assert not too_long, f"split these by area (limit {MAX_DASHBOARD_MODULE_LINES} lines): {too_long}"


def import_cycles(package: str) -> tuple[list[list[str]], int]:
    """The strongly connected components of more than one module in ``package``'s import graph (grimp, as
    import-linter builds it: every import, function-level ones too), and the graph's number of edges."""
    import grimp
    import networkx as nx

    graph = grimp.build_graph(package, cache_dir=None)
    edges = nx.DiGraph()
    edges.add_nodes_from(graph.modules)
    for module in graph.modules:
        edges.add_edges_from((module, m) for m in graph.find_modules_directly_imported_by(module) if m in graph.modules)
    return [sorted(c) for c in nx.strongly_connected_components(edges) if len(c) > 1], edges.number_of_edges()


@pytest.mark.parametrize(("package", "min_edges"), [("aieco", 500), ("tools", 5)])
def test_no_import_cycle_among_the_modules_of(package, min_edges):
    """E.g. the former sources.series readers ↔ formats and extraction gold → tasks → learned → gold."""
    cycles, n_edges = import_cycles(package)
    assert n_edges > min_edges, f"{package}'s import graph was not built"
    assert not cycles, f"import cycles among {package} modules: {cycles}"


def test_the_cycle_check_finds_a_cycle_through_a_function_level_import(tmp_path, monkeypatch):
    pkg = tmp_path / "cyclepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from cyclepkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from cyclepkg.a import g\n")
    (pkg / "c.py").write_text("from cyclepkg import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles("cyclepkg")[0] == [["cyclepkg.a", "cyclepkg.b"]]
