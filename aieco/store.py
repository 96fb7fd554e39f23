"""The workspace store: the only module that speaks SQL.

A workspace is a folder holding ``aieco.db`` (SQLite, WAL, one table per record type)
and ``artifacts/`` (content-addressed files named by their SHA-256, verified on read).
Rows are only ever inserted; the append-only tables also refuse UPDATE and DELETE in
SQLite itself, through triggers.
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
import sqlite3
import tempfile
import types
import typing
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd
import sqlite_utils
from pydantic import BaseModel
from sqlite_utils import Migrations

from aieco.config import get_settings
from aieco.errors import InputError, IntegrityError
from aieco.records import RECORD_TYPES, Record, canonical_json, sha256_hex, utc_now

R = TypeVar("R", bound=Record)

DB_NAME = "aieco.db"
ARTIFACT_DIR = "artifacts"
APPEND_ONLY_EXTRA = ("artifacts",)


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
    for table in [c.table for c in RECORD_TYPES if c.append_only] + list(APPEND_ONLY_EXTRA):
        for op in ("UPDATE", "DELETE"):
            db.execute(
                f"CREATE TRIGGER IF NOT EXISTS {table}_no_{op.lower()} BEFORE {op} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, 'append-only table {table}: {op} refused'); END"
            )


@MIGRATIONS(name="m003_lookup_indexes")
def _m003(db: sqlite_utils.Database) -> None:
    for table, cols in {
        "source_locations": ["source_id"],
        "relations": ["location_id"],
        "stage_records": ["analysis_id", "stage"],
        "model_output_points": ["run_id"],
        "model_runs": ["analysis_id"],
        "llm_calls": ["analysis_id"],
        "observed_values": ["variable"],
        "exclusions": ["analysis_id"],
    }.items():
        for col in cols:
            db[table].create_index([col], if_not_exists=True)


def _reconcile_columns(db: sqlite_utils.Database) -> None:
    """Additive evolution: fields added to a record after m001 become new columns."""
    for cls in RECORD_TYPES:
        table = db[cls.table]
        if not table.exists():
            table.create(_columns(cls), pk=cls.id_field)
            continue
        have = set(table.columns_dict)
        for name, kind in _columns(cls).items():
            if name not in have:
                table.add_column(name, kind)


# --------------------------------------------------------------------------- the store


class Store:
    """A workspace: SQLite records plus content-addressed artifacts."""

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True):
        self.path = Path(path)
        self._check_folder(create)
        self.db_path = self.path / DB_NAME
        self.artifact_dir = self.path / ARTIFACT_DIR
        fresh = not self.db_path.exists()
        try:
            conn = sqlite3.connect(self.db_path, timeout=get_settings().store.busy_timeout_ms / 1000,
                                   isolation_level=None, check_same_thread=False)
            conn.execute(f"PRAGMA busy_timeout = {get_settings().store.busy_timeout_ms}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA foreign_keys = ON")
            self.db = sqlite_utils.Database(conn)
            self._migrate()
        except sqlite3.DatabaseError as exc:
            if fresh:
                self._remove_partial()
            raise InputError(
                f"{self.db_path} is not a usable aieco database ({exc})",
                fix="move the file away or choose another folder with --workspace",
            ) from exc
        self.artifact_dir.mkdir(exist_ok=True)

    # -- opening ------------------------------------------------------------------------

    def _check_folder(self, create: bool) -> None:
        p = self.path
        if p.exists() and not p.is_dir():
            raise InputError(f"workspace path {p} is a file, not a folder",
                             fix="pass a folder with --workspace (it is created if missing)")
        if not p.exists():
            if not create:
                raise InputError(f"workspace {p} does not exist", fix="run `aieco init` first")
            parent = p.parent if str(p.parent) else Path(".")
            if not parent.exists() or not os.access(parent, os.W_OK | os.X_OK):
                raise InputError(f"cannot create workspace {p}: {parent} is missing or not writable",
                                 fix="choose a writable folder with --workspace")
            p.mkdir(parents=False)
        elif not os.access(p, os.W_OK | os.X_OK):
            raise InputError(f"workspace {p} is read-only",
                             fix="make the folder writable or choose another with --workspace")

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
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")

    # -- records ------------------------------------------------------------------------

    def put(self, record: Record) -> bool:
        """Insert ``record``; an existing id is left as it is. True when a row was written."""
        return self.put_many([record]) == 1

    def put_many(self, records: Iterable[Record]) -> int:
        """Insert records in one transaction; returns how many rows were new."""
        written = 0
        with self.transaction():
            for record in records:
                table = type(record).table
                cur = self._execute_insert(table, _to_row(record))
                written += cur.rowcount
        return written

    def _execute_insert(self, table: str, row: dict[str, Any]) -> sqlite3.Cursor:
        cols = ", ".join(f'"{c}"' for c in row)
        marks = ", ".join("?" for _ in row)
        try:
            return self.db.execute(f'INSERT OR IGNORE INTO "{table}" ({cols}) VALUES ({marks})',
                                   list(row.values()))
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(f"insert into {table} refused: {exc}") from exc

    def get(self, cls: type[R], key: str) -> R | None:
        rows = list(self.db[cls.table].rows_where(f'"{cls.id_field}" = ?', [key]))
        return _from_row(cls, rows[0]) if rows else None

    def require(self, cls: type[R], key: str) -> R:
        found = self.get(cls, key)
        if found is None:
            raise InputError(f"no {cls.__name__} with id {key} in workspace {self.path}",
                             fix="check the id (see `aieco audit --json` or the dashboard)")
        return found

    def find(self, cls: type[R], order_by: str | None = None, limit: int | None = None,
             **where: Any) -> list[R]:
        """Records whose fields equal ``where`` (None matches NULL), in insertion order."""
        return [_from_row(cls, r) for r in self._rows(cls, where, order_by, limit)]

    def _rows(self, cls: type[Record], where: dict[str, Any], order_by: str | None,
              limit: int | None) -> Iterator[dict[str, Any]]:
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
        return self.db[cls.table].rows_where(" AND ".join(clauses) or None, params or None,
                                             order_by=order, limit=limit)

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

    def table_counts(self) -> dict[str, int]:
        return {cls.table: self.db[cls.table].count for cls in RECORD_TYPES}

    # -- artifacts ----------------------------------------------------------------------

    def _artifact_path(self, digest: str) -> Path:
        return self.artifact_dir / digest[:2] / digest

    def put_artifact(self, data: bytes, kind: str = "bytes") -> str:
        """Store bytes under their SHA-256 (idempotent) and return the digest."""
        d = sha256_hex(data)
        target = self._artifact_path(d)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        with self.transaction():
            self.db.execute(
                "INSERT OR IGNORE INTO artifacts (digest, kind, size, created_at) VALUES (?, ?, ?, ?)",
                [d, kind, len(data), utc_now().isoformat()],
            )
        return d

    def get_artifact(self, digest: str) -> bytes:
        """The artifact's bytes, after checking they still hash to ``digest``."""
        target = self._artifact_path(digest)
        if not target.exists():
            raise IntegrityError(f"artifact {digest} is missing from {self.artifact_dir}")
        data = target.read_bytes()
        if sha256_hex(data) != digest:
            raise IntegrityError(f"artifact {digest} was altered: its bytes no longer match its digest",
                                 where=str(target))
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
        """Recompute every artifact digest, source file digest and record id.

        Returns one mismatch per problem: ``{kind, id, detail}``.
        """
        problems: list[dict[str, str]] = []
        for d in self.artifact_digests():
            try:
                self.get_artifact(d)
            except IntegrityError as exc:
                problems.append({"kind": "artifact", "id": d, "detail": str(exc)})
        for cls in RECORD_TYPES:
            for row in self.db[cls.table].rows_where(order_by="rowid"):
                try:
                    rec = _from_row(cls, row)
                except Exception as exc:  # a row that no longer validates is a finding
                    problems.append({"kind": cls.table, "id": str(row.get(cls.id_field)),
                                     "detail": f"row no longer validates: {exc}"})
                    continue
                if rec.key != rec.expected_id():
                    problems.append({"kind": cls.table, "id": rec.key,
                                     "detail": f"content does not match id (expected {rec.expected_id()})"})
        from aieco.records import Source  # local: keeps the import list short

        for src in self.all(Source):
            p = Path(src.path)
            if not p.is_absolute() and base_dir is not None:
                p = base_dir / p
            if not p.exists():
                problems.append({"kind": "source_file", "id": src.source_id,
                                 "detail": f"file {src.path} not found"})
            elif sha256_hex(p.read_bytes()) != src.sha256:
                problems.append({"kind": "source_file", "id": src.source_id,
                                 "detail": f"file {src.path} changed since registration (ingest it again: "
                                           "it gets a new source id)"})
        return problems

    # -- raw access for tests of the append-only rule -----------------------------------

    def execute_raw(self, sql: str, params: list[Any] | None = None) -> None:
        """Run one raw statement (tamper checks and tests); refusals become IntegrityError."""
        try:
            self.db.execute(sql, params or [])
        except sqlite3.DatabaseError as exc:
            m = re.search(r'(?:UPDATE|DELETE\s+FROM|INSERT\s+INTO)\s+"?(\w+)', sql, re.I)
            table = m.group(1) if m else "?"
            raise IntegrityError(f"{exc} (table {table})") from exc


def frame_to_json(df: pd.DataFrame) -> dict[str, Any]:
    return {
        "columns": [str(c) for c in df.columns],
        "index": [str(i) for i in df.index],
        "data": [[_cell(v) for v in row] for row in df.itertuples(index=False, name=None)],
    }


def frame_from_json(obj: dict[str, Any]) -> pd.DataFrame:
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
