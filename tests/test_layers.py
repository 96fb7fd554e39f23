"""Layer contracts (STYLE.md §1), checked by import-linter on every test run."""

import shutil
import subprocess
import sys
from pathlib import Path

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
