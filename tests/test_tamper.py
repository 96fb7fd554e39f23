"""The mutation suite: tampering an auditor would try, each found by `aieco audit` naming the record.

A small, fully linked workspace (tests/populated_workspace.py, plus the vocabulary, a graph-build
list and an exported report) is copied for every mutation. Each mutation works on the files as
an attacker would: a plain ``sqlite3`` connection with no aieco pragmas, dropping the
append-only triggers first where they stand in the way, or an edit of a file on disk. The audit
must exit 1 and print a MISMATCH line that names the record, table, trigger or file.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from aieco.cli import main
from aieco.records import LLMCall, canonical_json
from aieco.reporting.export import export_report
from aieco.store import Store
from aieco.vocab import load_vocabulary
from tests.populated_workspace import build_workspace

APPEND_ONLY = ["model_runs", "model_output_points", "output_tests", "llm_calls", "stage_records", "artifacts"]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("tamper")
    ws = root / "ws"
    ids = build_workspace(ws, ws / "sources")
    with Store(ws) as store:
        store.put_many(load_vocabulary().variables.values())
        store.write_file("graph_builds/G0.txt", (store.put_json({"condition": "G0"}, "graph_build") + "\n").encode())
        store.write_file(f"reports/{ids['report_id']}.html", export_report(store, ids["report_id"], "html"))
        for f in sorted((ws / "sources").iterdir()):
            store.record_file(f)
    assert audit(ws)[0] == 0, audit(ws)[1]
    return ws, ids


def audit(ws: Path, *args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["audit", "--workspace", str(ws), *args])
    return res.exit_code, res.output


@pytest.fixture
def ws(pristine, tmp_path) -> Path:
    target = tmp_path / "ws"
    shutil.copytree(pristine[0], target)
    return target


def sql(ws: Path, *statements: str, params: list | None = None) -> None:
    conn = sqlite3.connect(ws / "aieco.db", isolation_level=None)
    try:
        for s in statements:
            conn.execute(s, params or []) if "?" in s else conn.execute(s)
    finally:
        conn.close()


def one(ws: Path, query: str) -> str:
    conn = sqlite3.connect(ws / "aieco.db")
    try:
        return conn.execute(query).fetchone()[0]
    finally:
        conn.close()


def unlock(table: str) -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {table}_no_update", f"DROP TRIGGER IF EXISTS {table}_no_delete"]


def edit(table: str, assignment: str, where: str = "1") -> Callable[[Path, dict], str]:
    """UPDATE one row (append-only triggers dropped first); names the edited row's id."""

    def apply(ws: Path, ids: dict) -> str:
        pk = one(ws, f"SELECT name FROM pragma_table_info('{table}') WHERE pk = 1")
        key = one(ws, f'SELECT "{pk}" FROM {table} WHERE {where} ORDER BY rowid LIMIT 1')
        sql(ws, *unlock(table), f"UPDATE {table} SET {assignment} WHERE \"{pk}\" = '{key}'")
        return key

    return apply


def delete(table: str, which: str = "first") -> Callable[[Path, dict], str]:
    """DELETE the first or the last row (triggers dropped first); names the table (its chain)."""

    def apply(ws: Path, ids: dict) -> str:
        order = "ASC" if which == "first" else "DESC"
        sql(
            ws,
            *unlock(table),
            f"DELETE FROM {table} WHERE rowid = (SELECT rowid FROM {table} ORDER BY rowid {order} LIMIT 1)",
        )
        return table

    return apply


def reorder(table: str) -> Callable[[Path, dict], str]:
    """Delete the first two rows and insert them back swapped (valid ids, valid row digests)."""

    def apply(ws: Path, ids: dict) -> str:
        conn = sqlite3.connect(ws / "aieco.db", isolation_level=None)
        cur = conn.execute(f"SELECT * FROM {table} ORDER BY rowid LIMIT 2")
        names = [d[0] for d in cur.description]
        first, second = cur.fetchall()
        for s in unlock(table) + [f"DROP TRIGGER IF EXISTS {table}_no_replace"]:
            conn.execute(s)
        conn.execute(f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} ORDER BY rowid LIMIT 2)")
        marks = ", ".join("?" for _ in names)
        for row in (second, first):
            conn.execute(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})", row)
        conn.close()
        return table

    return apply


def replace_row(table: str) -> Callable[[Path, dict], str]:
    """INSERT OR REPLACE an existing key with a changed last column (the no_replace trigger dropped)."""

    def apply(ws: Path, ids: dict) -> str:
        conn = sqlite3.connect(ws / "aieco.db", isolation_level=None)
        cur = conn.execute(f"SELECT * FROM {table} ORDER BY rowid LIMIT 1")
        names = [d[0] for d in cur.description]
        row = list(cur.fetchone())
        key = row[[n for n in names].index(one(ws, f"SELECT name FROM pragma_table_info('{table}') WHERE pk = 1"))]
        conn.execute(f"DROP TRIGGER {table}_no_replace")
        conn.execute("DROP TRIGGER IF EXISTS stage_records_one_per_attempt")
        i = names.index("created_at" if "created_at" in names else names[-3])
        row[i] = "2030-01-01T00:00:00+00:00" if isinstance(row[i], str) else (row[i] or 0) + 1
        conn.execute(f"INSERT OR REPLACE INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})", row)
        conn.close()
        return key

    return apply


def forged_llm_call(ws: Path, ids: dict) -> str:
    """A new llm_calls row with a correct content-digest id, appended outside the store."""
    from datetime import UTC, datetime

    call = LLMCall.create(
        analysis_id=ids["analysis_id"],
        stage="report",
        task="report_writing",
        sequence=9,
        prompt_version="t1",
        backend="openai",
        requested_model="gpt-x",
        returned_model="gpt-x",
        request_payload={"x": 2},
        request_digest="e",
        status="ok",
        started_at=datetime(2026, 1, 5, tzinfo=UTC),
        ended_at=datetime(2026, 1, 5, tzinfo=UTC),
    )
    row = call.model_dump(mode="json")
    row = {k: (canonical_json(v) if isinstance(v, (dict, list)) else v) for k, v in row.items()}
    sql(ws, f"INSERT INTO llm_calls ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", params=list(row.values()))
    return call.call_id


def file_edit(rel: Callable[[dict], str], old: bytes | None = None, new: bytes = b"x") -> Callable[[Path, dict], str]:
    def apply(ws: Path, ids: dict) -> str:
        p = ws / rel(ids)
        data = p.read_bytes()
        p.write_bytes(data.replace(old, new, 1) if old is not None and old in data else data + new)
        return rel(ids)

    return apply


def exported_number(ws: Path, ids: dict) -> str:
    rel = f"reports/{ids['report_id']}.html"
    p = ws / rel
    text = p.read_text(encoding="utf-8")
    digits = [i for i, ch in enumerate(text) if ch.isdigit() and text[i - 1] in ".-" and i > 0]
    i = digits[-1]
    p.write_text(text[:i] + str((int(text[i]) + 1) % 10) + text[i + 1 :], encoding="utf-8")
    return rel


def artifact_file(ws: Path, ids: dict) -> str:
    d = one(ws, "SELECT digest FROM artifacts ORDER BY rowid LIMIT 1")
    p = ws / "artifacts" / d[:2] / d
    p.write_bytes(p.read_bytes() + b" ")
    return d


def artifact_gone(ws: Path, ids: dict) -> str:
    d = one(ws, "SELECT digest FROM artifacts ORDER BY rowid DESC LIMIT 1")
    (ws / "artifacts" / d[:2] / d).unlink()
    return d


RESTORE: list[tuple[Path, bytes]] = []


def source_file(ws: Path, ids: dict) -> str:
    """Sources are registered by absolute path (the pristine copy's): restored after the audit."""
    p = Path(one(ws, "SELECT path FROM sources ORDER BY rowid LIMIT 1"))
    RESTORE.append((p, p.read_bytes()))
    p.write_text(p.read_text() + " tampered")
    return one(ws, "SELECT source_id FROM sources ORDER BY rowid LIMIT 1")


def stray_file(ws: Path, ids: dict) -> str:
    (ws / "reports" / "extra.html").write_text("<p>planted</p>")
    return "reports/extra.html"


def removed_file(ws: Path, ids: dict) -> str:
    (ws / "graph_builds" / "G0.txt").unlink()
    return "graph_builds/G0.txt"


def rerecorded_file(ws: Path, ids: dict) -> str:
    """Change an export and also patch its recorded digest (trigger dropped)."""
    import hashlib

    rel = f"reports/{ids['report_id']}.html"
    p = ws / rel
    p.write_bytes(p.read_bytes() + b"<p>added</p>")
    sha = hashlib.sha256(p.read_bytes()).hexdigest()
    sql(ws, *unlock("workspace_files"), f"UPDATE workspace_files SET sha256 = '{sha}' WHERE path = '{rel}'")
    key = one(ws, f"SELECT file_id FROM workspace_files WHERE path = '{rel}'")
    return key


def head_altered(ws: Path, ids: dict) -> str:
    sql(ws, "UPDATE chain_heads SET row_count = row_count + 1 WHERE table_name = 'claims'")
    return "claims"


def head_and_tail_deleted(ws: Path, ids: dict) -> str:
    """Delete the last stage record and move the head back to the row before it."""
    prev = one(ws, "SELECT prev_digest FROM stage_records ORDER BY rowid DESC LIMIT 1")
    sql(
        ws,
        *unlock("stage_records"),
        "DELETE FROM stage_records WHERE rowid = (SELECT MAX(rowid) FROM stage_records)",
        f"UPDATE chain_heads SET row_count = row_count - 1, head = '{prev}' WHERE table_name = 'stage_records'",
    )
    # the deleted row's stage is no longer listed; the trigger drop names what was done
    return "stage_records_no_delete"


MUTATIONS: dict[str, Callable[[Path, dict], str]] = {
    # the 13 that passed the old audit
    "llm_calls.raw_response": edit("llm_calls", "raw_response = 'forged'"),
    "llm_calls.parsed": edit("llm_calls", 'parsed = \'{"sign":"+"}\''),
    "llm_calls.request_payload": edit("llm_calls", "request_payload = '{\"x\":2}'"),
    "llm_calls.returned_model": edit("llm_calls", "returned_model = 'other-model'"),
    "llm_calls.status": edit("llm_calls", "status = 'schema_violation'"),
    "llm_calls delete": delete("llm_calls"),
    "stage_records delete first": delete("stage_records", "first"),
    "stage_records delete last": delete("stage_records", "last"),
    "variables.label": edit("variables", "label = 'renamed'"),
    "claims.tolerance": edit("claims", "tolerance = 0.5"),
    "artifacts.size": edit("artifacts", "size = size + 1"),
    "model_runs.started_at": edit("model_runs", "started_at = '2020-01-01T00:00:00+00:00'"),
    "exported report number": exported_number,
    "graph_builds/G0.txt": file_edit(lambda ids: "graph_builds/G0.txt", new=b"0" * 64 + b"\n"),
    # replacement, forgery, schema
    "model_runs replace": replace_row("model_runs"),
    "model_output_points replace": replace_row("model_output_points"),
    "output_tests replace": replace_row("output_tests"),
    "llm_calls replace": replace_row("llm_calls"),
    "stage_records replace": replace_row("stage_records"),
    "artifacts replace": replace_row("artifacts"),
    "forged llm_calls row": forged_llm_call,
    "drop table stage_records": lambda ws, ids: (sql(ws, "DROP TABLE stage_records"), "stage_records")[1],
    "drop trigger llm_calls_no_update": lambda ws, ids: (
        sql(ws, "DROP TRIGGER llm_calls_no_update"),
        "llm_calls_no_update",
    )[1],
    "drop trigger model_runs_no_replace": lambda ws, ids: (
        sql(ws, "DROP TRIGGER model_runs_no_replace"),
        "model_runs_no_replace",
    )[1],
    "weakened trigger": lambda ws, ids: (
        sql(
            ws,
            "DROP TRIGGER claims_no_replace",
            "CREATE TRIGGER claims_no_replace BEFORE INSERT ON claims WHEN 0 BEGIN SELECT RAISE(ABORT, 'x'); END",
        ),
        "claims_no_replace",
    )[1],
    "planted trigger": lambda ws, ids: (
        sql(ws, "CREATE TRIGGER sneaky AFTER INSERT ON claims BEGIN SELECT 1; END"),
        "sneaky",
    )[1],
    "planted view": lambda ws, ids: (sql(ws, "CREATE VIEW claims_v AS SELECT * FROM claims"), "claims_v")[1],
    "added column": lambda ws, ids: (sql(ws, "ALTER TABLE reports ADD COLUMN note TEXT"), "reports")[1],
    # edits of every kind of record
    "relations.sign": edit("relations", "sign = CASE sign WHEN '+' THEN '-' ELSE '+' END"),
    "reordered relations": reorder("relations"),
    "reordered stage_records": reorder("stage_records"),
    "sources.title": edit("sources", "title = 'Another title'"),
    "source_locations.text": edit("source_locations", "text = 'forged quote'"),
    "exclusions.reason": edit("exclusions", "reason = 'scope'"),
    "paths.score": edit("paths", "score = 0.99"),
    "restrictions.direction": edit("restrictions", "direction = -direction"),
    "derivations.status": edit("derivations", "status = 'stopped', reason = 'forged'"),
    "model_output_points.value": edit("model_output_points", "value = value + 1"),
    "output_tests.result": edit("output_tests", "result = 'pass'", "phase = 'registered'"),
    "reports.rendered": edit("reports", "rendered = 'Real GDP rises.'"),
    "report_sentences.rendered": edit("report_sentences", "rendered = 'Real GDP rises.'"),
    "validation_gates.passed": edit("validation_gates", "passed = 0"),
    "analyses.created_at": edit("analyses", "created_at = '2001-01-01T00:00:00+00:00'"),
    "stage_records.status": edit("stage_records", "status = 'completed', reason = ''", "status = 'stopped'"),
    "model_specifications.version": edit("model_specifications", "version = 'v9'"),
    "model_requests.rationale": edit("model_requests", "rationale = 'changed'"),
    "chain head altered": head_altered,
    "tail deleted and head moved back": head_and_tail_deleted,
    "artifact bytes": artifact_file,
    "artifact removed": artifact_gone,
    "source file bytes": source_file,
    "stray workspace file": stray_file,
    "workspace file removed": removed_file,
    "export and its recorded digest": rerecorded_file,
    "edit, then make the upgrade run again": lambda ws, ids: (
        sql(
            ws,
            *unlock("llm_calls"),
            "UPDATE llm_calls SET raw_response = 'laundered'",
            "DELETE FROM _sqlite_migrations WHERE name = 'm004_hash_chains'",
        ),
        one(ws, "SELECT call_id FROM llm_calls LIMIT 1"),
    )[1],
}


def test_the_suite_has_at_least_35_mutations():
    assert len(MUTATIONS) >= 35


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_mutation_is_found_naming_the_record(pristine, ws, name):
    try:
        named = MUTATIONS[name](ws, pristine[1])
        code, out = audit(ws)
    finally:
        while RESTORE:
            path, data = RESTORE.pop()
            path.write_bytes(data)
    assert code == 1, f"{name}: audit exit {code}\n{out}"
    hits = [line for line in out.splitlines() if "MISMATCH" in line and named in line]
    assert hits, f"{name}: no MISMATCH line names {named}\n{out}"


@pytest.mark.parametrize("table", APPEND_ONLY)
def test_insert_or_replace_is_refused_in_append_only_tables(pristine, ws, table):
    conn = sqlite3.connect(ws / "aieco.db", isolation_level=None)
    cur = conn.execute(f"SELECT * FROM {table} ORDER BY rowid LIMIT 1")
    names = [d[0] for d in cur.description]
    row = cur.fetchone()
    for verb in ("INSERT OR REPLACE", "REPLACE", "INSERT OR IGNORE", "INSERT"):
        with pytest.raises(sqlite3.DatabaseError, match="refused"):
            conn.execute(f"{verb} INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})", row)
    conn.close()
    assert audit(ws)[0] == 0


def test_store_put_of_an_existing_id_is_a_no_op_and_keeps_the_chain(pristine, ws):
    from aieco.records import Analysis

    with Store(ws) as store:
        a = store.all(Analysis).__next__()
        assert store.put(a) is False
    assert audit(ws)[0] == 0


def test_audit_of_an_unknown_analysis_is_an_error(pristine, ws):
    code, out = audit(ws, "an_doesnotexist")
    assert code == 2 and "no analysis an_doesnotexist" in out
    res = CliRunner().invoke(main, ["audit", "--workspace", str(ws), "--json", "an_doesnotexist"])
    assert res.exit_code == 2 and json.loads(res.output)["error"] == "InputError"
    assert audit(ws, pristine[1]["analysis_id"])[0] == 0


def test_connections_use_the_defensive_settings(store):
    assert store.db.execute("PRAGMA trusted_schema").fetchone()[0] == 0
    assert store.db.execute("PRAGMA cell_size_check").fetchone()[0] == 1


def test_a_report_exported_into_the_workspace_is_recorded_and_checked(pristine, ws):
    rid = pristine[1]["report_id"]
    out = ws / "exports" / "r.md"
    out.parent.mkdir()
    res = CliRunner().invoke(
        main, ["report", "export", rid, "--format", "md", "--out", str(out), "--workspace", str(ws)]
    )
    assert res.exit_code == 0, res.output
    assert audit(ws)[0] == 0
    out.write_text(out.read_text().replace("real GDP", "real GNP"))
    code, text = audit(ws)
    assert code == 1 and "MISMATCH file exports/r.md" in text


def test_a_dropped_claims_table_is_reported_not_a_traceback(pristine, ws):
    sql(ws, "DROP TABLE claims")
    code, out = audit(ws)
    assert code == 1 and "table claims is missing" in out and "Traceback" not in out


def test_a_workspace_from_before_the_chains_is_sealed_once_at_upgrade(tmp_path):
    """Rows and files written before m004 are chained as they are at the upgrade; later edits are found."""
    import sqlite_utils
    from sqlite_utils import Migrations

    from aieco.records import Relation
    from aieco.store import MIGRATIONS, _to_row

    ws = tmp_path / "old"
    ws.mkdir()
    legacy = Migrations("aieco")
    legacy._migrations = [m for m in MIGRATIONS._migrations if m.name < "m004"]
    db = sqlite_utils.Database(ws / "aieco.db")
    legacy.apply(db)
    rels = [
        Relation.create(
            src_var="a", dst_var=f"b{i}", sign="+", quote="q", location_id="l", source_id="s", confidence=0.5
        )
        for i in range(3)
    ]
    for r in rels:
        db["relations"].insert(_to_row(r))
    db.close()
    (ws / "graph_builds").mkdir()
    (ws / "graph_builds" / "G0.txt").write_text("0" * 64 + "\n")
    code, out = audit(ws)  # the audit never upgrades: the missing migration is a finding
    assert code == 1 and "migration m004_hash_chains is not recorded" in out
    from aieco.store import Store

    Store(ws).close()  # any writing command upgrades the workspace (and seals what it holds)
    assert audit(ws)[0] == 0
    sql(ws, f"UPDATE relations SET sign = '-' WHERE relation_id = '{rels[1].relation_id}'")
    (ws / "graph_builds" / "G0.txt").write_text("1" * 64 + "\n")
    code, out = audit(ws)
    assert code == 1 and rels[1].relation_id in out and "graph_builds/G0.txt" in out
