"""The workspace store: the only module that speaks SQL.

A workspace is a folder holding ``aieco.db`` (SQLite, WAL, one table per record type)
and ``artifacts/`` (content-addressed files named by their SHA-256, verified on read).
Rows are only ever inserted; the append-only tables also refuse UPDATE and DELETE in
SQLite itself, through triggers, and every table refuses an insert of an existing key
(so ``INSERT OR REPLACE`` cannot swap a row).

Tamper evidence: every row carries ``row_digest`` (SHA-256 of all its fields, timestamps
included, and of ``prev_digest``) and ``prev_digest`` (the row digest of the row written
before it in the same table), so each table is a hash chain. The chain's head (row count
and last digest) is kept apart in ``chain_heads``; deleting, reordering, replacing or
editing a row, dropping a table or a trigger, and changing any file of the workspace are
all found by :meth:`Store.audit`. Files the workspace holds besides the database and the
artifacts (graph-build lists, index pointers, exported reports, the demo corpus) are
written through :meth:`Store.write_file` or recorded with :meth:`Store.record_file`.
"""

from __future__ import annotations

import functools
import io
import json
import math
import os
import re
import sqlite3
import tempfile
import types
import typing
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from pydantic import BaseModel

from aieco.config import get_settings
from aieco.errors import InputError, IntegrityError
from aieco.records import RECORD_TYPES, Record, canonical_json, digest, sha256_hex, utc_now

if TYPE_CHECKING:
    import pandas as pd


def _import_sqlite_utils() -> types.ModuleType:
    """sqlite-utils, imported without pandas when pandas is not loaded yet.

    sqlite-utils imports pandas (about 0.7 CPU-s, most of a cold ``aieco search``) only to map
    ``pandas.Timestamp`` to a TEXT column when it infers a table from Python values; this store
    declares every column from the record fields and inserts through its own SQL, so it never
    infers from a Timestamp. A process that has pandas already gets the usual import.
    """
    import sys

    if "sqlite_utils" in sys.modules or "pandas" in sys.modules:
        import sqlite_utils

        return sqlite_utils
    sys.modules["pandas"] = None  # type: ignore[assignment]  # "import pandas" raises ImportError
    try:
        import sqlite_utils
    finally:
        del sys.modules["pandas"]
    return sqlite_utils


sqlite_utils = _import_sqlite_utils()
Migrations = sqlite_utils.Migrations

R = TypeVar("R", bound=Record)

DB_NAME = "aieco.db"
ARTIFACT_DIR = "artifacts"
APPEND_ONLY_EXTRA = ("artifacts",)
#: Tables the store keeps besides the record tables: name -> (columns, primary key).
ARTIFACT_COLUMNS: dict[str, type] = {"digest": str, "kind": str, "size": int, "created_at": str}
FILE_COLUMNS: dict[str, type] = {"file_id": str, "path": str, "sha256": str, "size": int, "written_at": str}
FILES_TABLE = "workspace_files"
HEADS_TABLE = "chain_heads"
CHAIN_COLUMNS: dict[str, type] = {"prev_digest": str, "row_digest": str}
#: ``prev_digest`` of a table's first row.
GENESIS = "genesis"
#: Files of a workspace that are the database itself (checked through its rows).
DB_FILES = frozenset({DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm", DB_NAME + "-journal"})
#: Run locks (empty files held with flock while an analysis runs).
LOCK_DIR = "locks"
#: The chain heads after the last write, for a copy kept outside the database (``aieco audit --anchor``).
ANCHOR_NAME = "anchor.json"
ANCHOR_FORMAT = "aieco-anchor-1"
#: Optional secret keying the anchor (HMAC-SHA256): without it a forger cannot write a matching anchor.
ANCHOR_KEY_VARIABLE = "AIECO_ANCHOR_KEY"


# --------------------------------------------------------------------------- column mapping


def _unwrap(annotation: Any) -> list[Any]:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        out = []
        for arg in typing.get_args(annotation):
            if arg is not type(None):
                out.extend(_unwrap(arg))
        return out
    return [annotation]


def _column_type(annotation: Any) -> type:
    kinds = _unwrap(annotation)
    if len(kinds) == 1:
        k = kinds[0]
        if typing.get_origin(k) is typing.Literal:
            values = typing.get_args(k)
            if all(isinstance(v, bool) for v in values):
                return int
            if all(isinstance(v, int) for v in values):
                return int
            return str
        if k is bool or k is int:
            return int
        if k is float:
            return float
        if k in (str, date, datetime) or (isinstance(k, type) and issubclass(k, Enum)):
            return str
    return str  # JSON text (lists, dicts, nested models, unions of scalars)


def _is_json(annotation: Any) -> bool:
    kinds = _unwrap(annotation)
    if len(kinds) != 1:
        return True
    k = kinds[0]
    if typing.get_origin(k) is typing.Literal:
        return False
    return not (k in (bool, int, float, str, date, datetime) or (isinstance(k, type) and issubclass(k, Enum)))


@functools.cache
def _columns(cls: type[Record]) -> dict[str, type]:
    return {name: _column_type(f.annotation) for name, f in cls.model_fields.items()}


@functools.cache  # read for every row written or read: the field types of a class never change
def _json_fields(cls: type[Record]) -> frozenset[str]:
    return frozenset(name for name, f in cls.model_fields.items() if _is_json(f.annotation))


def _to_row(record: Record) -> dict[str, Any]:
    dumped = record.model_dump(mode="json")
    jf = _json_fields(type(record))
    return {k: (canonical_json(v) if k in jf and v is not None else v) for k, v in dumped.items()}


def _from_row(cls: type[R], row: dict[str, Any]) -> R:
    jf = _json_fields(cls)
    data = {}
    for name in cls.model_fields:
        if name not in row:
            continue
        v = row[name]
        if name in jf and isinstance(v, str):
            v = json.loads(v)
        data[name] = v
    return cls.model_validate(data)


# --------------------------------------------------------------------------- migrations

MIGRATIONS = Migrations("aieco")


@MIGRATIONS(name="m001_initial_schema")
def _m001(db: sqlite_utils.Database) -> None:
    for cls in RECORD_TYPES:
        db[cls.table].create(_columns(cls), pk=cls.id_field, if_not_exists=True)
    db["artifacts"].create(
        {"digest": str, "kind": str, "size": int, "created_at": str}, pk="digest", if_not_exists=True
    )


@MIGRATIONS(name="m002_append_only_triggers")
def _m002(db: sqlite_utils.Database) -> None:
    for table in _append_only_tables():
        for op in ("UPDATE", "DELETE"):
            if not _trigger_exists(db, f"{table}_no_{op.lower()}"):
                db.execute(_m002_trigger_sql(table, op))


#: The lookup indexes of m003: table -> indexed columns (one single-column index each).
LOOKUP_INDEXES: dict[str, list[str]] = {
    "source_locations": ["source_id"],
    "relations": ["location_id"],
    "stage_records": ["analysis_id", "stage"],
    "model_output_points": ["run_id"],
    "model_runs": ["analysis_id"],
    "llm_calls": ["analysis_id"],
    "observed_values": ["variable"],
    "exclusions": ["analysis_id"],
}


@MIGRATIONS(name="m003_lookup_indexes")
def _m003(db: sqlite_utils.Database) -> None:
    for table, cols in LOOKUP_INDEXES.items():
        for col in cols:
            db[table].create_index([col], if_not_exists=True)


def _index_sql(name: str, table: str, columns: Iterable[str], unique: bool = False) -> str:
    cols = ", ".join(f'"{c}"' for c in columns)
    return f'CREATE {"UNIQUE " if unique else ""}INDEX "{name}" ON "{table}" ({cols})'


def expected_indexes() -> dict[str, tuple[str, str]]:
    """Every index the schema must hold besides the primary keys': name -> (table, SQL as stored,
    whitespace aside). A planted index (a UNIQUE one would refuse the next legitimate insert) is not."""
    out = {
        f"idx_{table}_{col}": (table, _index_sql(f"idx_{table}_{col}", table, [col]))
        for table, cols in LOOKUP_INDEXES.items()
        for col in cols
    }
    out["stage_records_attempt"] = ("stage_records", _index_sql("stage_records_attempt", "stage_records", STAGE_KEY))
    name = f"idx_{MIGRATIONS.migrations_table}_migration_set_name"
    table = MIGRATIONS.migrations_table
    out[name] = (table, _index_sql(name, table, ["migration_set", "name"], unique=True))
    return out


def _m002_trigger_sql(table: str, op: str) -> str:
    return (
        f"CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table} "
        f"BEGIN SELECT RAISE(ABORT, 'append-only table {table}: {op} refused'); END"
    )


def _squeezed(sql: str) -> str:
    """DDL compared without whitespace differences (SQLite keeps the text as it was written)."""
    return re.sub(r"\s*([(),])\s*", r"\1", " ".join(sql.split()))


#: Prefix of a writer's temporary file: renamed into place when complete, removed when the
#: write is interrupted; one left by a killed process holds nothing anyone reads.
TMP_PREFIX = ".tmp-"


def _write_atomically(target: Path, data: bytes, *, sync: bool = False) -> None:
    """``data`` to ``target`` through a temporary file in the same folder (removed if interrupted)."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=TMP_PREFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if sync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:  # Ctrl-C or an error between the two: leave no half-written file behind
        Path(tmp).unlink(missing_ok=True)
        raise


def _anchor_mac(key: str, heads: dict[str, Any]) -> str:
    import hashlib
    import hmac

    return hmac.new(key.encode(), json.dumps(heads, sort_keys=True).encode(), hashlib.sha256).hexdigest()


def _no_replace_sql(table: str, pk: str) -> str:
    return (
        f"CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table} "
        f'WHEN EXISTS (SELECT 1 FROM {table} WHERE "{pk}" = NEW."{pk}") '
        f"BEGIN SELECT RAISE(ABORT, 'table {table}: insert of an existing {pk} refused'); END"
    )


#: A stage completes once per input: a second, concurrent run of the same analysis meets this key.
STAGE_KEY = ("analysis_id", "stage", "input_digest")


def _one_stage_record_sql() -> str:
    # A trigger rather than a UNIQUE index: workspaces written before it may hold duplicates,
    # and the rule binds every insert from now on without rewriting them.
    same = " AND ".join(f'"{c}" = NEW."{c}"' for c in STAGE_KEY)
    return (
        "CREATE TRIGGER stage_records_one_per_attempt BEFORE INSERT ON stage_records "
        f"WHEN NEW.status = 'completed' AND EXISTS (SELECT 1 FROM stage_records WHERE {same} "
        "AND status = 'completed') "
        "BEGIN SELECT RAISE(ABORT, 'stage_records: insert refused: this stage already completed "
        "for this input'); END"
    )


@functools.cache
def table_layout() -> dict[str, tuple[dict[str, type], str]]:
    """Every chained table: name -> (columns without the chain columns, primary key)."""
    out = {cls.table: (_columns(cls), cls.id_field) for cls in RECORD_TYPES}
    out["artifacts"] = (dict(ARTIFACT_COLUMNS), "digest")
    out[FILES_TABLE] = (dict(FILE_COLUMNS), "file_id")
    return out


def _append_only_tables() -> list[str]:
    return [c.table for c in RECORD_TYPES if c.append_only] + list(APPEND_ONLY_EXTRA)


def expected_triggers() -> dict[str, tuple[str, str]]:
    """Every trigger the schema must hold: name -> (table, SQL as SQLite stores it)."""
    out: dict[str, tuple[str, str]] = {}
    for table in _append_only_tables() + [FILES_TABLE]:
        for op in ("UPDATE", "DELETE"):
            out[f"{table}_no_{op.lower()}"] = (table, _m002_trigger_sql(table, op))
    for table, (_, pk) in table_layout().items():
        out[f"{table}_no_replace"] = (table, _no_replace_sql(table, pk))
    out["stage_records_one_per_attempt"] = ("stage_records", _one_stage_record_sql())
    return out


def _create_table_with_triggers(db: sqlite_utils.Database, table: str) -> None:
    columns, pk = table_layout()[table]
    db[table].create({**columns, **CHAIN_COLUMNS}, pk=pk)
    for name, (t, sql) in expected_triggers().items():
        if t == table and not _trigger_exists(db, name):
            db.execute(sql)


def _trigger_exists(db: sqlite_utils.Database, name: str) -> bool:
    return bool(db.execute("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?", [name]).fetchall())


def _coerce(kind: type | None, v: Any) -> Any:
    """A value as its column gives it back (bools are stored as integers, ints in REAL columns as floats)."""
    if isinstance(v, bool):
        v = int(v)
    if kind is float and isinstance(v, int):
        v = float(v)
    if isinstance(v, float) and not math.isfinite(v):
        v = repr(v)  # canonical JSON refuses NaN; the text form still fixes the value
    return v


def row_digest(table: str, columns: dict[str, type], row: dict[str, Any], prev: str) -> str:
    """SHA-256 over every non-NULL field of ``row`` (timestamps included), its table and ``prev``."""
    fields = {k: _coerce(columns.get(k), v) for k, v in row.items() if k not in CHAIN_COLUMNS and v is not None}
    return digest({"table": table, "prev": prev, "row": fields})


@MIGRATIONS(name="m004_hash_chains")
def _m004(db: sqlite_utils.Database) -> None:
    db[HEADS_TABLE].create({"table_name": str, "row_count": int, "head": str}, pk="table_name", if_not_exists=True)
    layout = table_layout()
    for table in layout:
        if not db[table].exists():
            _create_table_with_triggers(db, table)
            continue
        have = set(db[table].columns_dict)
        for name, kind in CHAIN_COLUMNS.items():
            if name not in have:
                db[table].add_column(name, kind)
        _backfill_chain(db, table, layout[table])
    for name, (_, sql) in expected_triggers().items():
        if not _trigger_exists(db, name):
            db.execute(sql)
    # the one-completed-record-per-stage trigger looks rows up by this key
    db["stage_records"].create_index(list(STAGE_KEY), index_name="stage_records_attempt", if_not_exists=True)
    _record_existing_files(db)


def _record_existing_files(db: sqlite_utils.Database) -> None:
    """Files a workspace held before m004 are recorded as they are at the upgrade."""
    db_file = next((f for _, name, f in db.execute("PRAGMA database_list").fetchall() if name == "main"), "")
    if not db_file:
        return
    root = Path(db_file).resolve().parent
    if db.execute(f"SELECT 1 FROM {FILES_TABLE} LIMIT 1").fetchall():
        return  # files are recorded already: never trust what is on disk now
    chain = _Chain(db)
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_dir() or rel in DB_FILES or rel.split("/")[0] in (ARTIFACT_DIR, LOCK_DIR):
            continue
        _insert_file_row(db, chain, rel, p.read_bytes())
    chain.save()


def _insert_file_row(db: sqlite_utils.Database, chain: _Chain, rel: str, data: bytes) -> None:
    now = utc_now().isoformat()
    sha = sha256_hex(data)
    _insert_chained(
        db,
        chain,
        FILES_TABLE,
        {
            "file_id": "file_" + digest({"path": rel, "sha256": sha, "written_at": now})[:20],
            "path": rel,
            "sha256": sha,
            "size": len(data),
            "written_at": now,
        },
    )


def _insert_chained(
    db: sqlite_utils.Database,
    chain: _Chain,
    table: str,
    row: dict[str, Any],
    execute: Callable[[str, dict[str, Any]], Any] | None = None,
) -> None:
    """Insert ``row`` as the next link of its table's chain (a refused insert becomes IntegrityError)."""
    prev = chain.head(table)
    row = {**row, "prev_digest": prev, "row_digest": row_digest(table, chain.columns(table), row, prev)}
    (execute or (lambda t, r: _execute_insert(db, t, r)))(table, row)
    chain.advance(table, row["row_digest"])


def _execute_insert(db: sqlite_utils.Database, table: str, row: dict[str, Any]) -> sqlite3.Cursor:
    cols = ", ".join(f'"{c}"' for c in row)
    marks = ", ".join("?" for _ in row)
    try:
        return db.execute(f'INSERT INTO "{table}" ({cols}) VALUES ({marks})', list(row.values()))
    except sqlite3.IntegrityError as exc:
        raise IntegrityError(f"insert into {table} refused: {exc}") from exc


def _backfill_chain(db: sqlite_utils.Database, table: str, layout: tuple[dict[str, type], str]) -> None:
    """Chain the rows a workspace held before m004 (its update trigger is lifted meanwhile)."""
    columns, _ = layout
    if db.execute(f"SELECT 1 FROM {HEADS_TABLE} WHERE table_name = ?", [table]).fetchall():
        return  # already chained: m004 run again (its record removed) must not re-seal altered rows
    rows = list(db.execute(f'SELECT rowid, * FROM "{table}" ORDER BY rowid').fetchall())
    if not rows:
        return
    names = ["rowid"] + [d[0] for d in db.execute(f'SELECT * FROM "{table}" LIMIT 0').description]
    lifted = _trigger_exists(db, f"{table}_no_update")
    if lifted:
        db.execute(f"DROP TRIGGER {table}_no_update")
    prev = GENESIS
    for values in rows:
        row = dict(zip(names, values, strict=True))
        rowid = row.pop("rowid")
        d = row_digest(table, columns, row, prev)
        db.execute(f'UPDATE "{table}" SET prev_digest = ?, row_digest = ? WHERE rowid = ?', [prev, d, rowid])
        prev = d
    db.execute(
        f"INSERT OR REPLACE INTO {HEADS_TABLE} (table_name, row_count, head) VALUES (?, ?, ?)", [table, len(rows), prev]
    )
    if lifted:
        db.execute(_m002_trigger_sql(table, "UPDATE"))


def _added_fields(table: str) -> frozenset[str]:
    """Fields of ``table``'s record added after workspaces held its rows: an older table may lack them."""
    return next((cls.added_fields for cls in RECORD_TYPES if cls.table == table), frozenset())


def _reconcile_columns(db: sqlite_utils.Database) -> None:
    """Additive evolution: fields added to a record after m001 become new columns.

    A table that is missing is created (with its triggers) only when it never held a row:
    a table that was dropped after rows were written stays missing, for the audit to report.
    """
    heads = {r[0] for r in db.execute(f"SELECT table_name FROM {HEADS_TABLE}").fetchall()}
    for cls in RECORD_TYPES:
        table = db[cls.table]
        if not table.exists():
            if cls.table not in heads:  # a new record type (with its triggers), never a dropped table
                _create_table_with_triggers(db, cls.table)
            continue
        have = set(table.columns_dict)
        for name, kind in {**_columns(cls), **CHAIN_COLUMNS}.items():
            if name not in have:
                table.add_column(name, kind)


# --------------------------------------------------------------------------- the store


def _harden(conn: sqlite3.Connection) -> None:
    """SQLite's defensive settings: schema objects cannot run unsafe functions, the schema
    cannot be written directly (Python 3.12+ exposes SQLITE_DBCONFIG_DEFENSIVE), cells are checked."""
    conn.execute("PRAGMA trusted_schema = OFF")
    conn.execute("PRAGMA cell_size_check = ON")
    setconfig = getattr(conn, "setconfig", None)
    flag = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
    if setconfig is not None and flag is not None:
        setconfig(flag, True)


class Store:
    """A workspace: SQLite records plus content-addressed artifacts."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True, read_only: bool = False):
        """Open (or create) the workspace ``path``.

        ``read_only`` (the audit): the database must exist; it is opened read-only, and no
        migration, column reconciliation or folder creation runs — what the file holds is what
        the audit sees, and a missing migration is a finding, not something the audit repairs.
        """
        self.path = Path(path)
        self.read_only = read_only
        self._snapshot_commit_time: float | None = None
        if read_only and not (self.path / DB_NAME).is_file():
            raise InputError(
                f"workspace {self.path} does not exist or holds no {DB_NAME}",
                fix="run `aieco init` first, or pass the folder of a built workspace with --workspace",
            )
        if not read_only:
            self._check_folder(create)
        self.db_path = self.path / DB_NAME
        self.artifact_dir = self.path / ARTIFACT_DIR
        fresh = not self.db_path.exists()
        try:
            timeout = get_settings().store.busy_timeout_ms
            if read_only:
                target = f"{self.db_path.resolve().as_uri()}?mode=ro"
                conn = sqlite3.connect(
                    target, uri=True, timeout=timeout / 1000, isolation_level=None, check_same_thread=False
                )
            else:
                conn = sqlite3.connect(
                    self.db_path, timeout=timeout / 1000, isolation_level=None, check_same_thread=False
                )
            conn.execute(f"PRAGMA busy_timeout = {timeout}")
            if not read_only:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA foreign_keys = ON")
            _harden(conn)
            # no sqlite-utils plugins: none is used, and loading them scans every installed package
            self.db = sqlite_utils.Database(conn, execute_plugins=False)
            if read_only:
                self.db.execute("PRAGMA quick_check").fetchall()
            else:
                self._migrate()
        except sqlite3.DatabaseError as exc:
            if fresh and not read_only:
                self._remove_partial()
            raise InputError(
                f"{self.db_path} is not a usable aieco database ({exc})",
                fix="move the file away or choose another folder with --workspace",
            ) from exc
        if not read_only:
            self.artifact_dir.mkdir(exist_ok=True)

    # -- opening ------------------------------------------------------------------------

    def _check_folder(self, create: bool) -> None:
        p = self.path
        if p.exists() and not p.is_dir():
            raise InputError(
                f"workspace path {p} is a file, not a folder",
                fix="pass a folder with --workspace (it is created if missing)",
            )
        if not p.exists():
            if not create:
                raise InputError(f"workspace {p} does not exist", fix="run `aieco init` first")
            parent = p.parent if str(p.parent) else Path(".")
            if not parent.exists() or not os.access(parent, os.W_OK | os.X_OK):
                raise InputError(
                    f"cannot create workspace {p}: {parent} is missing or not writable",
                    fix="choose a writable folder with --workspace",
                )
            p.mkdir(parents=False)
        elif not os.access(p, os.W_OK | os.X_OK):
            raise InputError(
                f"workspace {p} is read-only", fix="make the folder writable or choose another with --workspace"
            )

    def _remove_partial(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            try:
                (self.path / (DB_NAME + suffix)).unlink()
            except FileNotFoundError:
                pass

    def _migrate(self) -> None:
        # quick_check raises DatabaseError on a file that is not SQLite
        self.db.execute("PRAGMA quick_check").fetchall()
        if MIGRATIONS.pending(self.db):
            with self._write_lock():
                MIGRATIONS.apply(self.db)
        if self._needs_reconcile():
            with self._write_lock():
                _reconcile_columns(self.db)

    def _needs_reconcile(self) -> bool:
        for cls in RECORD_TYPES:
            t = self.db[cls.table]
            if not t.exists() or set(cls.model_fields) - set(t.columns_dict):
                return True
        return False

    @contextmanager
    def _write_lock(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- transactions -------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All writes inside are committed together or not at all."""
        conn = self.db.conn
        if conn.in_transaction:
            yield
            return
        changes = conn.total_changes
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")
        if conn.total_changes != changes:
            self.write_anchor()

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Every read inside sees one committed state of the database (a WAL read transaction).

        Also notes when the last transaction visible in it was committed (the newest of the
        database and WAL files' modification times), so the audit can tell a file written for a
        transaction still under way from a file nobody registered.
        """
        conn = self.db.conn
        if conn.in_transaction:
            yield
            return
        conn.execute("BEGIN")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # the snapshot starts here
            times = [p.stat().st_mtime for p in (self.db_path, self.path / (DB_NAME + "-wal")) if p.exists()]
            self._snapshot_commit_time = max(times) if times else None
            yield
        finally:
            self._snapshot_commit_time = None
            conn.execute("ROLLBACK")

    # -- the anchor: chain heads kept outside the database --------------------------------

    def anchor(self) -> dict[str, Any]:
        """The chain heads as an anchor document (keyed with ``AIECO_ANCHOR_KEY`` when it is set)."""
        heads = {t: [n, h] for t, (n, h) in sorted(self.chain_heads().items())}
        doc: dict[str, Any] = {"format": ANCHOR_FORMAT, "heads": heads}
        key = os.environ.get(ANCHOR_KEY_VARIABLE)
        if key:
            doc["hmac"] = _anchor_mac(key, heads)
        return doc

    def write_anchor(self) -> None:
        """Write ``anchor.json`` after a committed write (atomically; copy it elsewhere to keep it)."""
        target = self.path / ANCHOR_NAME
        _write_atomically(target, json.dumps(self.anchor(), sort_keys=True).encode())

    def audit_anchor(self, anchor: dict[str, Any]) -> list[dict[str, str]]:
        """The database against an anchor written earlier: every chain must still hold the rows the
        anchor counted, ending in the digest it recorded (more rows since then are fine). A database
        restored from an older copy, or a chain re-sealed after an edit, is reported."""
        problems = []
        heads = anchor.get("heads") if isinstance(anchor, dict) else None
        if anchor.get("format") != ANCHOR_FORMAT or not isinstance(heads, dict):
            return [{"kind": "anchor", "id": ANCHOR_NAME, "detail": "not an aieco anchor file"}]
        key = os.environ.get(ANCHOR_KEY_VARIABLE)
        if key and anchor.get("hmac") != _anchor_mac(key, heads):
            problems.append(
                {
                    "kind": "anchor",
                    "id": ANCHOR_NAME,
                    "detail": f"the anchor's HMAC does not match {ANCHOR_KEY_VARIABLE}: forged, or written with "
                    "another key",
                }
            )
        for table, (count, head) in sorted(heads.items()):
            if count == 0:
                continue
            if not self.db[table].exists():
                problems.append({"kind": "anchor", "id": table, "detail": f"table {table} is gone"})
                continue
            row = self.db.execute(
                f'SELECT row_digest FROM "{table}" ORDER BY rowid LIMIT 1 OFFSET ?', [count - 1]
            ).fetchone()
            if row is None:
                have = self.db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
                problems.append(
                    {
                        "kind": "anchor",
                        "id": table,
                        "detail": f"{table} holds {have} rows, the anchor recorded {count}: the database was "
                        "restored from an older copy or rows were deleted",
                    }
                )
            elif row[0] != head:
                problems.append(
                    {
                        "kind": "anchor",
                        "id": table,
                        "detail": f"{table} row {count} is not the one the anchor recorded: the chain was "
                        "rewritten and re-sealed, or the database replaced",
                    }
                )
        return problems

    # -- records ------------------------------------------------------------------------

    def put(self, record: Record) -> bool:
        """Insert ``record``; an existing id is left as it is. True when a row was written."""
        return self.put_many([record]) == 1

    def put_many(self, records: Iterable[Record]) -> int:
        """Insert records in one transaction; returns how many rows were new (existing ids are left)."""
        written = 0
        with self.transaction():
            chain = _Chain(self.db)
            for record in records:
                cls = type(record)
                if self._exists(cls.table, cls.id_field, record.key):
                    continue
                self._insert_chained(chain, cls.table, _to_row(record))
                written += 1
            chain.save()
        return written

    def _exists(self, table: str, pk: str, key: str) -> bool:
        return bool(self.db.execute(f'SELECT 1 FROM "{table}" WHERE "{pk}" = ?', [key]).fetchall())

    def _insert_chained(self, chain: _Chain, table: str, row: dict[str, Any]) -> None:
        _insert_chained(self.db, chain, table, row, self._execute_insert)

    def _execute_insert(self, table: str, row: dict[str, Any]) -> sqlite3.Cursor:
        return _execute_insert(self.db, table, row)

    def get(self, cls: type[R], key: str) -> R | None:
        rows = list(self.db[cls.table].rows_where(f'"{cls.id_field}" = ?', [key]))
        return _from_row(cls, rows[0]) if rows else None

    def require(self, cls: type[R], key: str) -> R:
        found = self.get(cls, key)
        if found is None:
            raise InputError(
                f"no {cls.__name__} with id {key} in workspace {self.path}",
                fix="check the id (see `aieco audit --json` or the dashboard)",
            )
        return found

    def find(self, cls: type[R], order_by: str | None = None, limit: int | None = None, **where: Any) -> list[R]:
        """Records whose fields equal ``where`` (None matches NULL), in insertion order."""
        return [_from_row(cls, r) for r in self._rows(cls, where, order_by, limit)]

    def _rows(
        self, cls: type[Record], where: dict[str, Any], order_by: str | None, limit: int | None
    ) -> Iterator[dict[str, Any]]:
        clauses, params = [], []
        cols = set(cls.model_fields)
        for k, v in where.items():
            if k not in cols:
                raise InputError(f"{cls.__name__} has no field {k!r}")
            if v is None:
                clauses.append(f'"{k}" IS NULL')
            elif isinstance(v, (list, tuple, set, frozenset)):
                vals = [self._scalar(x) for x in v]
                if not vals:
                    return iter(())
                clauses.append(f'"{k}" IN ({", ".join("?" for _ in vals)})')
                params.extend(vals)
            else:
                clauses.append(f'"{k}" = ?')
                params.append(self._scalar(v))
        if order_by is not None and order_by.lstrip("-") not in cols | {"rowid"}:
            raise InputError(f"{cls.__name__} has no field {order_by!r} to order by")
        order = "rowid"
        if order_by:
            order = f'"{order_by.lstrip("-")}"' + (" DESC" if order_by.startswith("-") else "")
        return self.db[cls.table].rows_where(" AND ".join(clauses) or None, params or None, order_by=order, limit=limit)

    @staticmethod
    def _scalar(v: Any) -> Any:
        if isinstance(v, Enum):
            return v.value
        if isinstance(v, (date, datetime)):
            return v.isoformat()
        if isinstance(v, bool):
            return int(v)
        return v

    def count(self, cls: type[Record], **where: Any) -> int:
        if not where:
            return self.db[cls.table].count
        return sum(1 for _ in self._rows(cls, where, None, None))

    def all(self, cls: type[R]) -> Iterator[R]:
        for row in self.db[cls.table].rows_where(order_by="rowid"):
            yield _from_row(cls, row)

    def chain_heads(self) -> dict[str, tuple[int, str]]:
        """Each chained table's row count and last row digest (``chain_heads``; one small read).

        A write to any table moves its head, so these identify the state of a workspace.
        """
        if not self.db[HEADS_TABLE].exists():
            return {}
        rows = self.db.execute(f"SELECT table_name, row_count, head FROM {HEADS_TABLE} ORDER BY table_name")
        return {t: (n, h) for t, n, h in rows.fetchall()}

    def table_counts(self) -> dict[str, int]:
        return {cls.table: self.db[cls.table].count for cls in RECORD_TYPES if self.db[cls.table].exists()}

    # -- artifacts ----------------------------------------------------------------------

    def _artifact_path(self, digest: str) -> Path:
        return self.artifact_dir / digest[:2] / digest

    def put_artifact(self, data: bytes, kind: str = "bytes") -> str:
        """Store bytes under their SHA-256 (idempotent) and return the digest."""
        d = sha256_hex(data)
        target = self._artifact_path(d)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_atomically(target, data, sync=True)
        with self.transaction():
            if not self._exists("artifacts", "digest", d):
                chain = _Chain(self.db)
                self._insert_chained(
                    chain,
                    "artifacts",
                    {"digest": d, "kind": kind, "size": len(data), "created_at": utc_now().isoformat()},
                )
                chain.save()
        return d

    # -- a run of an analysis at a time -------------------------------------------------

    @contextmanager
    def run_lock(self, name: str, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
        """Hold the workspace lock ``name`` (an empty file under ``locks/``); a second process waits.

        The lock is the operating system's (``flock``), so it is released when its holder exits.
        """
        import fcntl

        lock_dir = self.path / LOCK_DIR
        lock_dir.mkdir(exist_ok=True)
        with open(lock_dir / f"{name}.lock", "a+b") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if on_wait is not None:
                    on_wait()
                fcntl.flock(fh, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    # -- other files of the workspace ---------------------------------------------------

    def write_file(self, relpath: str | os.PathLike[str], data: bytes) -> Path:
        """Write ``data`` to ``relpath`` inside the workspace (atomically) and record its digest."""
        target = self._inside(relpath)
        target.parent.mkdir(parents=True, exist_ok=True)
        _write_atomically(target, data)
        self._record_digest(target, data)
        return target

    def record_file(self, path: str | os.PathLike[str]) -> None:
        """Record the digest of a file that was written into the workspace by other code."""
        target = self._inside(path)
        self._record_digest(target, target.read_bytes())

    def _inside(self, path: str | os.PathLike[str]) -> Path:
        p = Path(path)
        target = (p if p.is_absolute() else self.path / p).resolve()
        root = self.path.resolve()
        if root not in target.parents:
            raise InputError(f"{path} is not inside workspace {self.path}")
        return target

    def _record_digest(self, target: Path, data: bytes) -> None:
        rel = target.relative_to(self.path.resolve()).as_posix()
        with self.transaction():
            if self.recorded_files().get(rel) == sha256_hex(data):
                return
            chain = _Chain(self.db)
            _insert_file_row(self.db, chain, rel, data)
            chain.save()

    def recorded_files(self) -> dict[str, str]:
        """Workspace-relative path -> SHA-256 of the file's latest recorded content."""
        if not self.db[FILES_TABLE].exists():  # a workspace the read-only audit finds not upgraded
            return {}
        rows = self.db.execute(f"SELECT path, sha256 FROM {FILES_TABLE} ORDER BY rowid").fetchall()
        return dict(rows)

    def get_artifact(self, digest: str) -> bytes:
        """The artifact's bytes, after checking they still hash to ``digest``."""
        target = self._artifact_path(digest)
        if not target.exists():
            raise IntegrityError(f"artifact {digest} is missing from {self.artifact_dir}")
        data = target.read_bytes()
        if sha256_hex(data) != digest:
            raise IntegrityError(
                f"artifact {digest} was altered: its bytes no longer match its digest", where=str(target)
            )
        return data

    def has_artifact(self, digest: str) -> bool:
        return self._artifact_path(digest).exists()

    def put_json(self, obj: Any, kind: str = "json") -> str:
        if isinstance(obj, BaseModel):
            obj = obj.model_dump(mode="json")
        return self.put_artifact(canonical_json(obj).encode("utf-8"), kind)

    def get_json(self, digest: str) -> Any:
        return json.loads(self.get_artifact(digest))

    def put_array(self, array: np.ndarray) -> str:
        buf = io.BytesIO()
        np.save(buf, np.ascontiguousarray(array), allow_pickle=False)
        return self.put_artifact(buf.getvalue(), "npy")

    def get_array(self, digest: str) -> np.ndarray:
        return np.load(io.BytesIO(self.get_artifact(digest)), allow_pickle=False)

    def put_tables(self, tables: dict[str, pd.DataFrame]) -> str:
        """Store named tables as one JSON artifact (exact float repr); returns its digest."""
        return self.put_json({name: frame_to_json(df) for name, df in sorted(tables.items())}, "tables")

    def get_tables(self, digest: str) -> dict[str, pd.DataFrame]:
        return {name: frame_from_json(obj) for name, obj in self.get_json(digest).items()}

    def artifact_digests(self) -> list[str]:
        return [r["digest"] for r in self.db["artifacts"].rows_where(order_by="rowid")]

    # -- audit --------------------------------------------------------------------------

    def audit(self, base_dir: Path | None = None) -> list[dict[str, str]]:
        """Recompute every artifact digest, source file digest, record id, row digest and chain;
        check the schema and triggers against their expected DDL and every file of the workspace.

        Returns one mismatch per problem: ``{kind, id, detail}``.
        """
        problems: list[dict[str, str]] = []
        problems += self._audit_schema()
        problems += self._audit_chains()
        for d in self.artifact_digests():
            try:
                self.get_artifact(d)
            except IntegrityError as exc:
                problems.append({"kind": "artifact", "id": d, "detail": str(exc)})
        for cls in RECORD_TYPES:
            if not self.db[cls.table].exists():
                continue
            for row in self.db[cls.table].rows_where(order_by="rowid"):
                try:
                    rec = _from_row(cls, row)
                except Exception as exc:  # a row that no longer validates is a finding
                    problems.append(
                        {
                            "kind": cls.table,
                            "id": str(row.get(cls.id_field)),
                            "detail": f"row no longer validates: {exc}",
                        }
                    )
                    continue
                if rec.key != rec.expected_id():
                    problems.append(
                        {
                            "kind": cls.table,
                            "id": rec.key,
                            "detail": f"content does not match id (expected {rec.expected_id()})",
                        }
                    )
        problems += self._audit_sources(base_dir)
        problems += self._audit_files()
        return problems

    def _audit_sources(self, base_dir: Path | None) -> list[dict[str, str]]:
        from aieco.records import Source  # local: keeps the import list short

        problems = []
        if not self.db[Source.table].exists():
            return problems
        for row in self.db[Source.table].rows_where(order_by="rowid"):
            p = Path(row["path"])
            if not p.is_absolute() and base_dir is not None:
                p = base_dir / p
            if not p.exists():
                problems.append(
                    {"kind": "source_file", "id": row["source_id"], "detail": f"file {row['path']} not found"}
                )
            elif sha256_hex(p.read_bytes()) != row["sha256"]:
                problems.append(
                    {
                        "kind": "source_file",
                        "id": row["source_id"],
                        "detail": f"file {row['path']} changed since registration (ingest it again: "
                        "it gets a new source id)",
                    }
                )
        return problems

    def _audit_schema(self) -> list[dict[str, str]]:
        """Tables, columns and triggers against the DDL the migrations write."""
        problems = []
        master = self.db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
        tables = {name for kind, name, _, _ in master if kind == "table"}
        layout = table_layout()
        for table, (columns, _pk) in layout.items():
            if table not in tables:
                problems.append({"kind": "schema", "id": table, "detail": f"table {table} is missing (dropped?)"})
                continue
            have = {c.name: c.type for c in self.db[table].columns}
            want = {**columns, **CHAIN_COLUMNS}
            for name in sorted(set(want) - set(have) - _added_fields(table)):
                problems.append({"kind": "schema", "id": table, "detail": f"table {table} lacks column {name}"})
            for name in sorted(set(have) - set(want)):
                problems.append(
                    {
                        "kind": "schema",
                        "id": table,
                        "detail": f"table {table} has a column {name} the schema does not define",
                    }
                )
        known = set(layout) | {HEADS_TABLE, MIGRATIONS.migrations_table}
        for name in sorted(tables - known):
            if not name.startswith("sqlite_"):
                problems.append({"kind": "schema", "id": name, "detail": f"unexpected table {name}"})
        for kind, name, table, _ in master:
            if kind == "view":
                problems.append({"kind": "schema", "id": name, "detail": f"unexpected view {name} on {table}"})
        triggers = {name: (table, sql) for kind, name, table, sql in master if kind == "trigger"}
        for name, (table, sql) in expected_triggers().items():
            if name not in triggers:
                problems.append(
                    {"kind": "schema", "id": name, "detail": f"trigger {name} on {table} is missing (dropped?)"}
                )
            elif " ".join(triggers[name][1].split()) != " ".join(sql.split()):
                problems.append(
                    {"kind": "schema", "id": name, "detail": f"trigger {name} on {table} differs from its expected DDL"}
                )
        for name in sorted(set(triggers) - set(expected_triggers())):
            problems.append(
                {"kind": "schema", "id": name, "detail": f"unexpected trigger {name} on {triggers[name][0]}"}
            )
        # indexes: a planted UNIQUE index would pass every row check and then refuse the next insert
        indexes = {name: (table, sql) for kind, name, table, sql in master if kind == "index" and sql}
        for name, (table, sql) in expected_indexes().items():
            if table not in tables or (name == "stage_records_attempt" and name not in indexes):
                continue  # (that one is made by a later migration, reported as pending when missing)
            if name not in indexes:
                problems.append({"kind": "schema", "id": name, "detail": f"index {name} on {table} is missing"})
            elif _squeezed(indexes[name][1]) != _squeezed(sql):
                problems.append(
                    {"kind": "schema", "id": name, "detail": f"index {name} on {table} differs from its expected DDL"}
                )
        for name in sorted(set(indexes) - set(expected_indexes())):
            problems.append({"kind": "schema", "id": name, "detail": f"unexpected index {name} on {indexes[name][0]}"})
        pending = MIGRATIONS.pending(self.db) if MIGRATIONS.migrations_table in tables else []
        for migration in pending:  # the audit never applies one: a missing record is reported
            problems.append(
                {"kind": "schema", "id": migration.name, "detail": f"migration {migration.name} is not recorded"}
            )
        return problems

    def _audit_chains(self) -> list[dict[str, str]]:
        """Every row's digest and link, and each chain's end against the head kept apart."""
        problems = []
        if not self.db[HEADS_TABLE].exists():  # a workspace never upgraded (the schema audit says which migration)
            return []
        heads = {
            t: (n, h)
            for t, n, h in self.db.execute(f"SELECT table_name, row_count, head FROM {HEADS_TABLE}").fetchall()
        }
        for table, (columns, pk) in table_layout().items():
            if not self.db[table].exists():
                if table in heads:
                    problems.append(
                        {"kind": table, "id": table, "detail": f"table {table} held {heads[table][0]} rows and is gone"}
                    )
                continue
            cur = self.db.execute(f'SELECT * FROM "{table}" ORDER BY rowid')
            names = [d[0] for d in cur.description]
            prev, count = GENESIS, 0
            for values in cur:
                row = dict(zip(names, values, strict=True))
                key = str(row.get(pk))
                count += 1
                if row.get("prev_digest") != prev:
                    problems.append(
                        {
                            "kind": table,
                            "id": key,
                            "detail": (
                                f"{table} row {key}: hash chain broken (it does not follow the row before it: "
                                "a row was deleted, inserted or reordered)"
                            ),
                        }
                    )
                want = row_digest(table, columns, row, row.get("prev_digest") or "")
                if row.get("row_digest") != want:
                    problems.append(
                        {
                            "kind": table,
                            "id": key,
                            "detail": (f"{table} row {key}: fields changed since it was written (row digest mismatch)"),
                        }
                    )
                prev = row.get("row_digest") or ""
            n, head = heads.get(table, (0, GENESIS))
            if (count, prev) != (n, head):
                problems.append(
                    {
                        "kind": table,
                        "id": table,
                        "detail": (
                            f"table {table}: chain ends after {count} rows at {prev[:12]}, but its head records "
                            f"{n} rows ending at {head[:12]} "
                            "(rows deleted, appended outside the store, or head altered)"
                        ),
                    }
                )
        return problems

    def _audit_files(self) -> list[dict[str, str]]:
        """Every file in the workspace is the database, a registered artifact, a registered
        source or a recorded file with its recorded content."""
        from aieco.records import Source

        problems = []
        root = self.path.resolve()
        recorded = self.recorded_files()
        artifacts = set(self.artifact_digests())
        sources: dict[str, set[str]] = {}
        if self.db[Source.table].exists():
            for path, sha in self.db.execute('SELECT path, sha256 FROM "sources"').fetchall():
                p = Path(path)
                p = (p if p.is_absolute() else root / p).resolve()
                sources.setdefault(p.as_posix(), set()).add(sha)
        seen = set()
        for p in sorted(root.rglob("*")):
            if p.is_dir():
                continue
            rel = p.relative_to(root).as_posix()
            if rel in DB_FILES:
                continue
            parts = rel.split("/")
            if parts[0] == LOCK_DIR and len(parts) == 2 and rel.endswith(".lock") and not p.stat().st_size:
                continue
            if rel == ANCHOR_NAME:
                continue  # checked by --anchor against a copy kept elsewhere; it changes with every write
            if p.name.startswith(TMP_PREFIX):
                continue  # a temporary file a killed writer left: never renamed, so nothing reads it
            if self._written_after_snapshot(p, rel, artifacts):
                continue
            if parts[0] == ARTIFACT_DIR:
                if parts[-1] not in artifacts:
                    problems.append(
                        {
                            "kind": "file",
                            "id": rel,
                            "detail": f"{rel} is in the artifact folder but is no registered artifact",
                        }
                    )
                continue
            seen.add(rel)
            if rel in recorded:
                if sha256_hex(p.read_bytes()) != recorded[rel]:
                    problems.append(
                        {"kind": "file", "id": rel, "detail": f"workspace file {rel} changed since it was written"}
                    )
            elif p.resolve().as_posix() in sources:
                continue  # checked against its source record above
            else:
                problems.append(
                    {
                        "kind": "file",
                        "id": rel,
                        "detail": f"workspace file {rel} was not written by aieco (no recorded digest)",
                    }
                )
        for rel in sorted(set(recorded) - seen):
            problems.append({"kind": "file", "id": rel, "detail": f"workspace file {rel} was removed"})
        return problems

    def _written_after_snapshot(self, p: Path, rel: str, artifacts: set[str]) -> bool:
        """An artifact file put in place for a transaction that had not committed when the audit's
        snapshot began: named by the digest of its bytes, unregistered, and newer than the last commit
        the snapshot sees (a writer stores the file before the row that registers it). Such a file
        is inert (nothing refers to it yet) and a later audit checks it; any other file is a finding."""
        if self._snapshot_commit_time is None or not rel.startswith(f"{ARTIFACT_DIR}/") or p.name in artifacts:
            return False
        try:
            if p.stat().st_mtime <= self._snapshot_commit_time:
                return False
            return sha256_hex(p.read_bytes()) == p.name
        except FileNotFoundError:
            return True  # a writer's temporary file, gone already

    # -- raw access for tests of the append-only rule -----------------------------------

    def execute_raw(self, sql: str, params: list[Any] | None = None) -> None:
        """Run one raw statement (tamper checks and tests); refusals become IntegrityError."""
        try:
            self.db.execute(sql, params or [])
        except sqlite3.DatabaseError as exc:
            m = re.search(r'(?:UPDATE|DELETE\s+FROM|INSERT\s+INTO)\s+"?(\w+)', sql, re.I)
            table = m.group(1) if m else "?"
            raise IntegrityError(f"{exc} (table {table})") from exc


class _Chain:
    """Heads of the hash chains touched by one write, saved to ``chain_heads`` at its end."""

    def __init__(self, db: sqlite_utils.Database):
        self.db = db
        self._heads: dict[str, tuple[int, str]] = {}
        self._layout: dict[str, dict[str, type]] = {}

    def columns(self, table: str) -> dict[str, type]:
        if table not in self._layout:
            self._layout[table] = table_layout()[table][0]
        return self._layout[table]

    def head(self, table: str) -> str:
        if table not in self._heads:
            rows = self.db.execute(
                f"SELECT row_count, head FROM {HEADS_TABLE} WHERE table_name = ?", [table]
            ).fetchall()
            self._heads[table] = (rows[0][0], rows[0][1]) if rows else (0, GENESIS)
        return self._heads[table][1]

    def advance(self, table: str, row_digest: str) -> None:
        self._heads[table] = (self._heads[table][0] + 1, row_digest)

    def save(self) -> None:
        for table, (n, head) in self._heads.items():
            self.db.execute(
                f"INSERT INTO {HEADS_TABLE} (table_name, row_count, head) VALUES (?, ?, ?) "
                "ON CONFLICT(table_name) DO UPDATE SET row_count = excluded.row_count, "
                "head = excluded.head",
                [table, n, head],
            )


def frame_to_json(df: pd.DataFrame) -> dict[str, Any]:
    return {
        "columns": [str(c) for c in df.columns],
        "index": [str(i) for i in df.index],
        "data": [[_cell(v) for v in row] for row in df.itertuples(index=False, name=None)],
    }


def frame_from_json(obj: dict[str, Any]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(obj["data"], columns=obj["columns"], index=obj["index"])


def _cell(v: Any) -> Any:
    if isinstance(v, (np.floating,)):
        v = float(v)
    elif isinstance(v, (np.integer,)):
        v = int(v)
    if isinstance(v, float) and v != v:
        return None
    return v


def open_store(path: str | os.PathLike[str] | None = None, *, create: bool = True) -> Store:
    """Open (or create) the workspace at ``path`` (default: settings.workspace)."""
    return Store(path if path is not None else get_settings().workspace, create=create)
