"""The source registry: ``ingest`` registers the files of a manifest.

Each file is hashed (its Source id comes from the SHA-256 of its bytes), parsed, and
written with all its SourceLocations in one store transaction, so a source is never
half-registered. An unchanged file is a no-op; changed bytes at the same path get a new
source id while the old source stays. A file that fails is reported with its reason and
the others carry on.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from aieco.config import get_settings
from aieco.errors import InputError
from aieco.records import Source, SourceKind, sha256_hex, utc_now
from aieco.sources.delimited import parse_csv
from aieco.sources.manifest import ManifestEntry, load_manifest, role_for_sheet
from aieco.sources.parsed import ParsedFile
from aieco.sources.pdf import parse_pdf
from aieco.sources.text import parse_text
from aieco.sources.xlsx import parse_xlsx
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

    def counts(self) -> dict[str, int]:
        out = {"registered": 0, "unchanged": 0, "failed": 0}
        for f in self.files:
            out[f.status] += 1
        return out


def ingest(store: Store, manifest_path: str | Path, progress: Progress | None = None) -> IngestReport:
    """Register and parse every file of the manifest; one bad file never stops the others.

    Raises InputError only when the manifest itself is unusable (syntax, unknown role,
    malformed date …); per-file problems are returned in the report.
    """
    entries = load_manifest(manifest_path)
    results = []
    for done, entry in enumerate(entries, start=1):
        results.append(ingest_entry(store, entry))
        if progress is not None:
            progress(done, len(entries), entry.path)
    return IngestReport(manifest=str(manifest_path), files=results)


def ingest_entry(store: Store, entry: ManifestEntry) -> FileResult:
    """Register one manifest entry (Source + all its locations in one transaction)."""
    base = dict(index=entry.index, path=entry.path, kind=entry.kind.value)
    try:
        data = entry.file.read_bytes()
    except FileNotFoundError:
        return FileResult(**base, status="failed",
                          reason=f"file {entry.file} not found; correct `path` (relative to the manifest) "
                                 "or remove the entry")
    except OSError as exc:
        return FileResult(**base, status="failed", reason=f"cannot read {entry.file}: {exc}")
    sha = sha256_hex(data)
    source = Source.create(
        path=str(entry.file), sha256=sha, size_bytes=len(data), publisher=entry.publisher, title=entry.title,
        publication_date=entry.publication_date, retrieved_at=utc_now(), role=entry.role,
        jurisdiction=entry.jurisdiction, kind=entry.kind, illustrative=entry.illustrative,
        role_overrides=[o.as_record() for o in entry.role_overrides], series=entry.series, note=entry.note)
    existing = store.get(Source, source.source_id)
    if existing is not None:
        return FileResult(**base, status="unchanged", source_id=existing.source_id)
    try:
        parsed = parse_entry(entry, source.source_id)
    except InputError as exc:
        return FileResult(**base, status="failed", source_id=source.source_id, reason=str(exc))
    with store.transaction():
        store.put_many([source, *parsed.locations])
    return FileResult(**base, status="registered", source_id=source.source_id, pages=parsed.pages,
                      locations=len(parsed.locations), warnings=parsed.warnings)


def parse_entry(entry: ManifestEntry, source_id: str) -> ParsedFile:
    """Run the parser for the entry's kind (no store access)."""
    s = get_settings().sources
    if entry.kind is SourceKind.pdf:
        pages: dict[int, object] = {}
        for o in entry.role_overrides:
            for p in o.pages:
                pages.setdefault(p, o.role)
        return parse_pdf(entry.file, source_id, parser_version=s.pdf_parser_version,
                         max_passage_chars=s.max_passage_chars, page_roles=pages)
    if entry.kind is SourceKind.xlsx:
        sheets = {name: o.role for o in entry.role_overrides for name in o.sheets}
        return parse_xlsx(entry.file, source_id, parser_version=s.xlsx_parser_version, sheet_roles=sheets)
    if entry.kind is SourceKind.csv:
        return parse_csv(entry.file, source_id, parser_version=s.csv_parser_version, encoding=entry.encoding,
                         role=role_for_sheet(entry.role_overrides, entry.file.name))
    return parse_text(entry.file, source_id, parser_version=s.text_parser_version,
                      max_passage_chars=s.max_passage_chars, encoding=entry.encoding,
                      role=entry.role_for_page(1))
