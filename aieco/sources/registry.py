"""The source registry: ``ingest`` registers the files of a manifest.

Each file is hashed (its Source id comes from the SHA-256 of its bytes), parsed, and
written with all its SourceLocations in one store transaction, so a source is never
half-registered. An unchanged file is a no-op; changed bytes at the same path get a new
source id while the old source stays. A file that fails is reported with its reason and
the others carry on. Refused before anything is written: an empty file, a file over
``sources.max_file_bytes``, a PDF over ``sources.max_pdf_pages`` pages, and bytes already
registered (or listed twice) with different metadata — the error names both entries.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from aieco.config import get_settings
from aieco.progress import report
from aieco.records import Source, SourceKind, sha256_hex, utc_now
from aieco.sources.manifest import ManifestEntry, load_manifest
from aieco.sources.parsed import ParsedFile
from aieco.sources.parsers import ParseOptions, check_page_limit, parse_failure, parse_or_error
from aieco.sources.pdf import pdf_page_count
from aieco.store import Store

#: progress(done, total, path) is called after each file.
Progress = Callable[[int, int, str], None]


class FileResult(BaseModel):
    """What happened to one manifest entry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int = Field(description="1-based entry of the manifest.")
    path: str = Field(description="Path as written in the manifest.")
    status: Literal["registered", "unchanged", "failed"]
    source_id: str | None = None
    kind: str | None = None
    pages: int = Field(0, description="PDF pages, worksheets, or 1 for CSV/text.")
    locations: int = 0
    warnings: list[str] = Field(default_factory=list)
    reason: str = Field("", description="Why the file failed.")


class IngestReport(BaseModel):
    """The result of ingesting one manifest."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    manifest: str
    files: list[FileResult]

    @property
    def failures(self) -> list[FileResult]:
        return [f for f in self.files if f.status == "failed"]

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def counts(self) -> dict[str, int]:
        out = {"registered": 0, "unchanged": 0, "failed": 0}
        for f in self.files:
            out[f.status] += 1
        return out


def ingest(
    store: Store,
    manifest_path: str | Path,
    progress: Progress | None = None,
    *,
    workers: int | None = None,
    allow_outside: Sequence[str | Path] = (),
    executor: Any = None,
) -> IngestReport:
    """Register and parse every file of the manifest; one bad file never stops the others.

    Files are hashed and checked against the registry here; new files are parsed in up to
    ``workers`` processes (default: settings, 0 = one per CPU; PDFs in chunks of pages)
    when their total size reaches ``settings.sources.parallel_min_bytes``, and each file is
    written in its own transaction as soon as all its parts are parsed. Raises InputError only when the manifest itself
    is unusable (syntax, unknown role, malformed date …); per-file problems are returned
    in the report. Files outside the manifest's folder are refused unless inside ``allow_outside``.
    With ``executor`` (:mod:`aieco.executors`) every file or PDF page range is one task on it, and this
    process alone writes the store.
    """
    entries = load_manifest(manifest_path, allow_outside)
    results: dict[int, FileResult] = {}
    pending: list[tuple[ManifestEntry, Source]] = []

    def finish(result: FileResult) -> None:
        results[result.index] = result
        report("parsing sources", len(results), len(entries), Path(result.path).name)
        if progress is not None:
            progress(len(results), len(entries), result.path)

    first_of: dict[str, tuple[ManifestEntry, Source]] = {}
    for entry in entries:
        checked = register_check(store, entry)
        if isinstance(checked, Source):
            twin = first_of.setdefault(checked.source_id, (entry, checked))
            if twin[0] is not entry:  # the same bytes listed twice in this manifest
                finish(
                    _same_bytes(entry, checked, twin[1], f"entry #{twin[0].index} ({twin[0].path})")
                    or FileResult(
                        index=entry.index,
                        path=entry.path,
                        kind=entry.kind.value,
                        status="unchanged",
                        source_id=checked.source_id,
                    )
                )
                continue
        if isinstance(checked, FileResult):
            finish(checked)
        else:
            pending.append((entry, checked))
    n = _worker_count(workers, [src.size_bytes for _, src in pending])
    if executor is not None:
        _parse_on_executor(store, pending, executor, finish)
    elif n <= 1:
        for entry, source in pending:
            finish(write_parsed(store, entry, source, parse_or_error(entry, source.source_id)))
    else:
        _parse_in_processes(store, pending, n, finish)
    return IngestReport(manifest=str(manifest_path), files=[results[e.index] for e in entries])


def _parse_in_processes(
    store: Store, pending: list[tuple[ManifestEntry, Source]], n: int, finish: Callable[[FileResult], None]
) -> None:
    """Parse PDFs in chunks of pages (and other files whole) in ``n`` processes; write each file when complete.

    Several files are always parsed in parallel. A PDF ingested alone is parsed here, in this
    process, when it has fewer than ``sources.parallel_min_pages`` pages: on the BIS Quarterly
    Review (102 pages) a worker cost 1.2 CPU-s more than it saved (57 pages per CPU-s in one
    process, 34 with a worker, and the wall time no better on two shared cores).
    """
    settings = get_settings().sources
    options = ParseOptions.from_settings()  # plain values: a worker never imports aieco.config
    tasks, parts = _plan_parts(store, pending, options, finish)
    pages = sum(r[1] - r[0] + 1 for _, _, _, r in tasks if r is not None)
    if not tasks:
        return
    if len(parts) == 1 and (len(tasks) < 2 or pages < settings.parallel_min_pages):
        # one file in one part, or one PDF too short to repay a worker: parsed whole here, as sequentially
        entry, source = tasks[0][0], tasks[0][1]
        finish(write_parsed(store, entry, source, parse_or_error(entry, source.source_id, None, options)))
        return
    ctx = multiprocessing.get_context("spawn")  # never fork a process holding SQLite and threads

    def done(entry: ManifestEntry, source: Source, k: int, part: ParsedFile | str) -> None:
        got = parts[entry.index]
        got[k] = part
        if all(p is not None for p in got):
            finish(write_parsed(store, entry, source, _merge(got)))

    # n − 1 worker processes, and this process parses too: from the last task back, every task no
    # worker has started (a worker needs about half a second to start; this process is ready now)
    with ProcessPoolExecutor(max_workers=max(1, min(n - 1, len(tasks) - 1)), mp_context=ctx) as pool:
        futures = {
            pool.submit(parse_or_error, entry, source.source_id, r, options): (entry, source, k, r)
            for entry, source, k, r in tasks
        }
        for future in reversed(list(futures)):
            if not future.cancel():  # a worker has it (and, first in first out, every earlier one)
                break
            entry, source, k, r = futures[future]
            done(entry, source, k, parse_or_error(entry, source.source_id, r, options))
        for future in as_completed([f for f in futures if not f.cancelled()]):
            entry, source, k, _ = futures[future]
            done(entry, source, k, future.result())


Task = tuple[ManifestEntry, Source, int, "tuple[int, int] | None"]


def _plan_parts(
    store: Store,
    pending: list[tuple[ManifestEntry, Source]],
    options: ParseOptions,
    finish: Callable[[FileResult], None],
) -> tuple[list[Task], dict[int, list[ParsedFile | str | None]]]:
    """Parse tasks: PDFs in chunks of ``sources.pdf_chunk_pages`` pages, other files whole (a PDF whose
    page count fails is written as failed here); and the empty slots of each file's parts."""
    chunk = get_settings().sources.pdf_chunk_pages
    tasks: list[Task] = []
    parts: dict[int, list[ParsedFile | str | None]] = {}
    for entry, source in pending:
        ranges: list[tuple[int, int] | None] = [None]
        if entry.kind is SourceKind.pdf:
            try:
                count = pdf_page_count(entry.file)
                check_page_limit(entry, count, options)
            except Exception as exc:  # noqa: BLE001  (any failure of a parser is the file's failure)
                finish(write_parsed(store, entry, source, str(parse_failure(entry, exc))))
                continue
            ranges = [(a, min(a + chunk - 1, count)) for a in range(1, count + 1, chunk)]
        parts[entry.index] = [None] * len(ranges)
        tasks += [(entry, source, k, r) for k, r in enumerate(ranges)]
    return tasks, parts


def _parse_task(options: ParseOptions, task: Task) -> ParsedFile | str:
    """One part of one file (an executor's task: pure, no store)."""
    entry, source, _, pages = task
    return parse_or_error(entry, source.source_id, pages, options)


def _parse_on_executor(
    store: Store, pending: list[tuple[ManifestEntry, Source]], executor: Any, finish: Callable[[FileResult], None]
) -> None:
    """Parse every part on ``executor`` (aieco.executors); write each file, in one transaction, once all its
    parts are back. A lost worker leaves its file unwritten (the files already written stay whole)."""
    options = ParseOptions.from_settings()
    tasks, parts = _plan_parts(store, pending, options, finish)
    # Files are written in manifest order, as the sequential ingest writes them: the store's insertion order is
    # what later stages read (graph build's candidate cap breaks ties by it), so a file whose parts come back
    # early waits for the files before it.
    order = [entry.index for entry, _ in pending if entry.index in parts]
    source_of = {entry.index: (entry, source) for entry, source in pending}
    ready = 0
    for i, part in executor.map_unordered(_parse_task, tasks, shared=options):
        entry, source, k, _ = tasks[i]
        parts[entry.index][k] = part
        while ready < len(order) and all(p is not None for p in parts[order[ready]]):
            entry, source = source_of[order[ready]]
            finish(write_parsed(store, entry, source, _merge(parts[order[ready]])))
            ready += 1


def _merge(parts: list[ParsedFile | str | None]) -> ParsedFile | str:
    """The chunks of one file, in page order, as one parse (or the first failure)."""
    for p in parts:
        if isinstance(p, str):
            return p
    done = [p for p in parts if isinstance(p, ParsedFile)]
    return ParsedFile(
        locations=[loc for p in done for loc in p.locations],
        pages=done[0].pages,
        warnings=[w for p in done for w in p.warnings],
    )


def _worker_count(workers: int | None, sizes: list[int]) -> int:
    """Processes for parsing files of these sizes (one PDF alone may still be split into page chunks)."""
    s = get_settings().sources
    n = s.ingest_workers if workers is None else workers
    n = n or os.cpu_count() or 1
    if not sizes or sum(sizes) < s.parallel_min_bytes:
        return 1  # starting worker processes costs more than it saves on small inputs
    return n


def register_check(store: Store, entry: ManifestEntry) -> FileResult | Source:
    """Hash the entry's file: a FileResult when it is missing, unreadable or already registered, else its Source."""
    base = dict(index=entry.index, path=entry.path, kind=entry.kind.value)
    limit = get_settings().sources.max_file_bytes
    try:
        if not entry.file.is_file():
            raise FileNotFoundError(entry.file)
        size = entry.file.stat().st_size
        if size == 0:
            return FileResult(
                **base,
                status="failed",
                reason=f"file {entry.file} is empty (0 bytes); remove the entry or supply the file",
            )
        if size > limit:
            return FileResult(
                **base,
                status="failed",
                reason=f"file {entry.file} has {size} bytes, over the limit of {limit} "
                "(settings sources.max_file_bytes, env AIECO_SOURCES__MAX_FILE_BYTES)",
            )
        data = entry.file.read_bytes()
    except FileNotFoundError:
        return FileResult(
            **base,
            status="failed",
            reason=f"file {entry.file} not found; correct `path` (relative to the manifest) or remove the entry",
        )
    except OSError as exc:
        return FileResult(**base, status="failed", reason=f"cannot read {entry.file}: {exc}")
    source = Source.create(
        path=str(entry.file),
        sha256=sha256_hex(data),
        size_bytes=len(data),
        publisher=entry.publisher,
        title=entry.title,
        publication_date=entry.publication_date,
        retrieved_at=utc_now(),
        role=entry.role,
        jurisdiction=entry.jurisdiction,
        kind=entry.kind,
        illustrative=entry.illustrative,
        role_overrides=[o.as_record() for o in entry.role_overrides],
        series=entry.series,
        note=entry.note,
    )
    known = store.get(Source, source.source_id)
    if known is not None:
        return _same_bytes(entry, source, known, f"registered source {known.source_id} ({known.path})") or FileResult(
            **base, status="unchanged", source_id=source.source_id
        )
    return source


#: Source fields that are the entry's metadata (what two entries of the same bytes must agree on).
METADATA_FIELDS = (
    "title",
    "publisher",
    "publication_date",
    "role",
    "jurisdiction",
    "kind",
    "illustrative",
    "role_overrides",
    "series",
    "note",
)


def _same_bytes(entry: ManifestEntry, source: Source, other: Source, other_name: str) -> FileResult | None:
    """A failure naming both entries when the same bytes come with different metadata, else None."""
    differ = [f for f in METADATA_FIELDS if getattr(source, f) != getattr(other, f)]
    if not differ:
        return None
    detail = "; ".join(f"{f}: {getattr(source, f)!r} here, {getattr(other, f)!r} there" for f in differ)
    return FileResult(
        index=entry.index,
        path=entry.path,
        kind=entry.kind.value,
        status="failed",
        source_id=source.source_id,
        reason=f"entry #{entry.index} ({entry.path}) has the same bytes as {other_name} but different "
        f"metadata ({detail}); one file has one set of metadata: correct one of the two entries",
    )


def write_parsed(store: Store, entry: ManifestEntry, source: Source, parsed: ParsedFile | str) -> FileResult:
    """Write the Source and all its locations in one transaction (or report the parse failure)."""
    base = dict(index=entry.index, path=entry.path, kind=entry.kind.value, source_id=source.source_id)
    if isinstance(parsed, str):
        return FileResult(**base, status="failed", reason=parsed)
    with store.transaction():
        store.put_many([source, *parsed.locations])
    return FileResult(
        **base, status="registered", pages=parsed.pages, locations=len(parsed.locations), warnings=parsed.warnings
    )


def ingest_entry(store: Store, entry: ManifestEntry) -> FileResult:
    """Register one manifest entry in this process (Source + all its locations in one transaction)."""
    checked = register_check(store, entry)
    if isinstance(checked, FileResult):
        return checked
    return write_parsed(store, entry, checked, parse_or_error(entry, checked.source_id))
