import json
import os
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from aieco.cli import main
from aieco.records import Relation
from aieco.store import Store


def run(*args, cwd=None):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_init_then_clean_audit_json(tmp_path):
    ws = str(tmp_path / "ws")
    assert run("--workspace", ws, "init").exit_code == 0
    res = run("audit", "--json", "--workspace", ws)
    assert res.exit_code == 0
    assert json.loads(res.output)["clean"] is True


def test_audit_flags_tampered_artifact_and_row(tmp_path):
    ws = tmp_path / "ws"
    s = Store(ws)
    d = s.put_json({"x": 1})
    s.put(
        Relation.create(src_var="a", dst_var="b", sign="+", quote="q", location_id="l", source_id="s", confidence=0.5)
    )
    s.execute_raw("UPDATE relations SET quote = 'forged'")
    s.close()
    (ws / "artifacts" / d[:2] / d).write_bytes(b'{"x":2}')
    res = run("-w", str(ws), "--json", "audit")
    assert res.exit_code == 1
    kinds = {m["kind"] for m in json.loads(res.output)["mismatches"]}
    assert kinds == {"artifact", "relations"}


def test_errors_are_json_with_exit_2(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    res = run("--json", "-w", str(f), "init")
    assert res.exit_code == 2
    body = json.loads(res.output)
    assert body["error"] == "InputError" and str(f) in body["detail"]


def test_audit_of_missing_workspace_says_how_to_fix(tmp_path):
    res = run("-w", str(tmp_path / "nope"), "audit")
    assert res.exit_code == 2
    assert "aieco init" in res.output or "aieco init" in (res.stderr if hasattr(res, "stderr") else "")


def test_console_script_is_installed(tmp_path):
    exe = Path(sys.executable).parent / "aieco"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "aieco"]
    out = subprocess.run(
        cmd + ["-w", str(tmp_path / "ws"), "init", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ},
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["workspace"].endswith("ws")


def test_every_command_is_documented_in_readme():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    for name in main.list_commands(click.Context(main)):
        assert f"aieco {name}" in readme, f"`aieco {name}` is not documented in README.md"
