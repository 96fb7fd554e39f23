"""The parser for each source kind, as one pure function (no store access).

Kept apart from the registry so that worker processes parsing files in parallel import
only the parsers, not the store. ``parse_entry`` is the one seam every parser is called
through: whatever a parser raises on a bad file becomes an InputError naming the file and
the reason, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass

from aieco.errors import InputError
from aieco.records import Role, SourceKind
from aieco.sources.manifest import ManifestEntry, role_for_sheet
from aieco.sources.parsed import ParsedFile


@dataclass(frozen=True)
class ParseOptions:
    """The settings the parsers read, as plain values.

    A worker process receives these with each task instead of importing ``aieco.config``
    (pydantic-settings and what it pulls in cost about 0.15 CPU-s per process); each kind's
    parser module is imported only when a file of that kind is parsed.
    """

    pdf_parser_version: str
    xlsx_parser_version: str
    csv_parser_version: str
    text_parser_version: str
    max_passage_chars: int
    max_pdf_pages: int

    @classmethod
    def from_settings(cls) -> ParseOptions:
        from aieco.config import get_settings

        s = get_settings().sources
        return cls(
            pdf_parser_version=s.pdf_parser_version,
            xlsx_parser_version=s.xlsx_parser_version,
            csv_parser_version=s.csv_parser_version,
            text_parser_version=s.text_parser_version,
            max_passage_chars=s.max_passage_chars,
            max_pdf_pages=s.max_pdf_pages,
        )


def parse_entry(
    entry: ManifestEntry,
    source_id: str,
    page_range: tuple[int, int] | None = None,
    options: ParseOptions | None = None,
) -> ParsedFile:
    """Run the parser for the entry's kind (no store access); ``page_range`` applies to PDFs.

    ``options`` default to the settings. Any failure is raised as an InputError naming the
    file and the reason.
    """
    options = options or ParseOptions.from_settings()
    try:
        if entry.kind is SourceKind.pdf and page_range is None:  # refuse before reading every page
            from aieco.sources.pdf import pdf_page_count

            check_page_limit(entry, pdf_page_count(entry.file), options)
        return _dispatch(entry, source_id, page_range, options)
    except InputError:
        raise
    except RecursionError as exc:
        raise parse_failure(entry, exc) from None
    except Exception as exc:  # noqa: BLE001  (a parser library's own error types are many and unlisted)
        raise parse_failure(entry, exc) from exc


def parse_failure(entry: ManifestEntry, exc: BaseException) -> InputError:
    """The InputError for a parser failure: file, kind and the parser's reason in one line."""
    if isinstance(exc, InputError):
        return exc
    reason = " ".join(str(exc).split())[:300] or "no detail"
    return InputError(
        f"{entry.file} cannot be read as {entry.kind.value}: {type(exc).__name__}: {reason}",
        where=f"manifest entry #{entry.index} ({entry.path})",
        fix="check that the file is a complete, valid file of that kind (or correct `kind`)",
    )


def check_page_limit(entry: ManifestEntry, pages: int, options: ParseOptions | None = None) -> None:
    limit = (options or ParseOptions.from_settings()).max_pdf_pages
    if pages > limit:
        raise InputError(
            f"{entry.file} has {pages} pages, over the limit of {limit}",
            where=f"manifest entry #{entry.index} ({entry.path})",
            fix="split the document or raise sources.max_pdf_pages (AIECO_SOURCES__MAX_PDF_PAGES)",
        )


def _dispatch(entry: ManifestEntry, source_id: str, page_range: tuple[int, int] | None, s: ParseOptions) -> ParsedFile:
    if entry.kind is SourceKind.pdf:
        from aieco.sources.pdf import parse_pdf

        pages: dict[int, Role] = {}
        for o in entry.role_overrides:
            for p in o.pages:
                pages.setdefault(p, o.role)
        return parse_pdf(
            entry.file,
            source_id,
            parser_version=s.pdf_parser_version,
            max_passage_chars=s.max_passage_chars,
            page_roles=pages,
            page_range=page_range,
        )
    if entry.kind is SourceKind.xlsx:
        from aieco.sources.xlsx import parse_xlsx

        sheets = {name: o.role for o in entry.role_overrides for name in o.sheets}
        return parse_xlsx(entry.file, source_id, parser_version=s.xlsx_parser_version, sheet_roles=sheets)
    if entry.kind is SourceKind.csv:
        from aieco.sources.delimited import parse_csv

        return parse_csv(
            entry.file,
            source_id,
            parser_version=s.csv_parser_version,
            encoding=entry.encoding,
            role=role_for_sheet(entry.role_overrides, entry.file.name),
        )
    from aieco.sources.text import parse_text

    return parse_text(
        entry.file,
        source_id,
        parser_version=s.text_parser_version,
        max_passage_chars=s.max_passage_chars,
        encoding=entry.encoding,
        role=entry.role_for_page(1),
    )


def parse_or_error(
    entry: ManifestEntry,
    source_id: str,
    page_range: tuple[int, int] | None = None,
    options: ParseOptions | None = None,
) -> ParsedFile | str:
    """The parsed file, or the reason it could not be parsed (a string pickles across processes).

    Here rather than in the registry so a worker process imports the parsers only (not the
    store, nor the settings when ``options`` are given).
    """
    try:
        return parse_entry(entry, source_id, page_range, options)
    except InputError as exc:  # parse_entry turns every parser failure into an InputError
        return str(exc)
