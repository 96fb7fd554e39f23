"""Issue 35, items 4 and 5: an audit that cannot be silenced and does not cry wolf.

The audit opens the workspace read-only and never migrates; it checks indexes as well as
tables, columns and triggers; an anchor kept outside the database exposes a database restored
from an older copy; a file written for a transaction still under way is not a finding.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from aieco.analysis.runner import Stage, run_stages
from aieco.audit import run_audit
from aieco.cli import main
from aieco.store import ANCHOR_NAME, Store


def _write(store: Store, n: int, tag: str = "a") -> None:
    """n completed toy stages (each an artifact and a StageRecord)."""
    stages = [Stage(f"{tag}{i}", lambda ctx, i=i: {"value": i, "tag": tag}) for i in range(n)]
    run_stages(store, f"an_{tag}", stages, {"input": tag})


def _audit(ws: Path, *extra: str) -> tuple[int, dict]:
    res = CliRunner().invoke(main, ["-w", str(ws), "--json", "audit", *extra], catch_exceptions=False)
    return res.exit_code, json.loads(res.output)


@pytest.fixture
def ws(tmp_path) -> Path:
    path = tmp_path / "ws"
    with Store(path) as store:
        _write(store, 3)
    return path


def _files(ws: Path) -> dict[Path, int]:
    # SQLite may open an empty -wal and a -shm beside a WAL database it reads: not writes
    return {p: p.stat().st_mtime_ns for p in ws.rglob("*") if p.is_file() and not p.name.endswith(("-shm", "-wal"))}


def test_a_clean_workspace_audits_clean_and_the_audit_writes_nothing(ws):
    before = _files(ws)
    code, body = _audit(ws)
    assert code == 0 and body["clean"], body["mismatches"]
    assert _files(ws) == before
    wal = ws / "aieco.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0


def test_the_audit_never_migrates_a_deleted_migration_record_is_reported(ws):
    with sqlite3.connect(ws / "aieco.db") as db:
        db.execute("DELETE FROM _sqlite_migrations WHERE name = 'm003_lookup_indexes'")
    code, body = _audit(ws)
    assert code == 1
    assert any("m003_lookup_indexes" in m["detail"] and "not recorded" in m["detail"] for m in body["mismatches"])
    with sqlite3.connect(ws / "aieco.db") as db:  # still missing: the audit repaired nothing
        assert not db.execute("SELECT 1 FROM _sqlite_migrations WHERE name = 'm003_lookup_indexes'").fetchall()


def test_a_planted_unique_index_is_reported(ws):
    with sqlite3.connect(ws / "aieco.db") as db:
        db.execute("CREATE UNIQUE INDEX planted ON review_decisions (relation_id)")
    code, body = _audit(ws)
    assert code == 1 and any(m["id"] == "planted" and "unexpected index" in m["detail"] for m in body["mismatches"])


def test_a_dropped_lookup_index_is_reported(ws):
    with sqlite3.connect(ws / "aieco.db") as db:
        db.execute("DROP INDEX idx_stage_records_stage")
    code, body = _audit(ws)
    assert code == 1 and any(m["id"] == "idx_stage_records_stage" for m in body["mismatches"])


def test_a_database_restored_from_an_older_copy_is_found_with_the_anchor(ws, tmp_path):
    backup = tmp_path / "backup"
    shutil.copytree(ws, backup)  # the store was closed: the WAL is checkpointed into the file
    with Store(ws) as store:
        _write(store, 2, tag="b")
    kept = tmp_path / "kept-anchor.json"  # the user's copy, outside the workspace
    shutil.copy(ws / ANCHOR_NAME, kept)
    assert _audit(ws, "--anchor", str(kept))[0] == 0
    shutil.rmtree(ws)
    shutil.copytree(backup, ws)  # the older workspace put back
    code, body = _audit(ws)
    assert code == 0, body["mismatches"]  # on its own the older copy is self-consistent
    code, body = _audit(ws, "--anchor", str(kept))
    assert code == 1
    assert any("restored from an older copy" in m["detail"] for m in body["mismatches"]), body["mismatches"]


def test_a_keyed_anchor_refuses_a_forged_one(ws, tmp_path, monkeypatch):
    monkeypatch.setenv("AIECO_ANCHOR_KEY", "a secret kept apart")
    with Store(ws) as store:
        _write(store, 1, tag="c")
    anchor = json.loads((ws / ANCHOR_NAME).read_text())
    assert anchor["hmac"]
    kept = tmp_path / "anchor.json"
    kept.write_text(json.dumps(anchor))
    assert _audit(ws, "--anchor", str(kept))[0] == 0
    anchor["heads"]["stage_records"][0] -= 1  # a forger's anchor for a database with a row fewer
    kept.write_text(json.dumps(anchor))
    code, body = _audit(ws, "--anchor", str(kept))
    assert code == 1 and any("HMAC does not match" in m["detail"] for m in body["mismatches"])


def test_an_artifact_written_for_a_transaction_under_way_is_not_a_finding_but_an_old_stray_is(ws):
    from aieco.records import sha256_hex

    data = b"written before its row commits"
    stray = ws / "artifacts" / sha256_hex(data)[:2] / sha256_hex(data)
    stray.parent.mkdir(exist_ok=True)
    stray.write_bytes(data)
    future = time.time() + 60
    os.utime(stray, (future, future))  # after the last commit the snapshot sees
    with Store(ws, read_only=True) as store:
        assert run_audit(store)["clean"]
    past = time.time() - 3600
    os.utime(stray, (past, past))  # older than the last commit: nobody is about to register it
    with Store(ws, read_only=True) as store:
        result = run_audit(store)
    assert any("no registered artifact" in m["detail"] for m in result["mismatches"])


def test_any_other_file_planted_after_the_last_commit_is_still_found(ws):
    (ws / "reports").mkdir(exist_ok=True)
    (ws / "reports" / "extra.html").write_text("<p>planted</p>")
    (ws / "artifacts" / ("f" * 64)).write_bytes(b"not named by its digest")
    with Store(ws, read_only=True) as store:
        found = {m["id"] for m in run_audit(store)["mismatches"]}
    assert {"reports/extra.html", f"artifacts/{'f' * 64}"} <= found


def test_an_interrupted_artifact_write_leaves_no_file_and_a_killed_ones_leftover_is_inert(ws, monkeypatch):
    """Ctrl-C inside put_artifact (found by the kill test): the temporary file is removed; one a
    SIGKILL leaves (never renamed, never read) is not reported."""
    import aieco.store

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    with Store(ws) as store:
        monkeypatch.setattr(aieco.store.os, "replace", interrupted)
        with pytest.raises(KeyboardInterrupt):
            store.put_artifact(b"never finished")
        monkeypatch.undo()
    assert not [p for p in ws.rglob(".tmp-*")]
    (ws / "artifacts" / ".tmp-left-by-a-kill").write_bytes(b"partial")
    with Store(ws, read_only=True) as store:
        assert run_audit(store)["clean"]
