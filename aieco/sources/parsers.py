"""The parser for each source kind, as one pure function (no store access).

Kept apart from the registry so that worker processes parsing files in parallel import
only the parsers, not the store.
"""

from __future__ import annotations

from aieco.config import get_settings
from aieco.records import Role, SourceKind
from aieco.sources.delimited import parse_csv
from aieco.sources.manifest import ManifestEntry, role_for_sheet
from aieco.sources.parsed import ParsedFile
from aieco.sources.pdf import parse_pdf
from aieco.sources.text import parse_text
from aieco.sources.xlsx import parse_xlsx


def parse_entry(entry: ManifestEntry, source_id: str, page_range: tuple[int, int] | None = None) -> ParsedFile:
    """Run the parser for the entry's kind (no store access); ``page_range`` applies to PDFs."""
    s = get_settings().sources
    if entry.kind is SourceKind.pdf:
        pages: dict[int, Role] = {}
        for o in entry.role_overrides:
            for p in o.pages:
                pages.setdefault(p, o.role)
        return parse_pdf(entry.file, source_id, parser_version=s.pdf_parser_version,
                         max_passage_chars=s.max_passage_chars, page_roles=pages, page_range=page_range)
    if entry.kind is SourceKind.xlsx:
        sheets = {name: o.role for o in entry.role_overrides for name in o.sheets}
        return parse_xlsx(entry.file, source_id, parser_version=s.xlsx_parser_version, sheet_roles=sheets)
    if entry.kind is SourceKind.csv:
        return parse_csv(entry.file, source_id, parser_version=s.csv_parser_version, encoding=entry.encoding,
                         role=role_for_sheet(entry.role_overrides, entry.file.name))
    return parse_text(entry.file, source_id, parser_version=s.text_parser_version,
                      max_passage_chars=s.max_passage_chars, encoding=entry.encoding,
                      role=entry.role_for_page(1))
