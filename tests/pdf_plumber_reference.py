"""The previous PDF parser (pdfplumber, ``pdf-1``), kept as the reference the PDFium parser is compared with.

PDF parser (pdfplumber): passages that never cross a page, and table cells.

Each page yields its text passages (lines grouped into paragraphs by vertical gaps,
split at line boundaries above ``max_passage_chars``) with the exact extracted text kept
for quoting, and one ``table_cell`` location per non-empty table cell carrying the
table's row and column labels. Text inside a detected table is not repeated in the
passages. A page without a text layer is kept as one empty location with a warning.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import pdfplumber

from aieco.errors import InputError
from aieco.records import Role, SourceLocation
from aieco.sources.parsed import ParsedFile

#: A vertical gap larger than this share of the median line height starts a new paragraph.
PARAGRAPH_GAP = 0.6


def pdf_page_count(path: Path) -> int:
    """Number of pages of ``path``; raise InputError when it is unreadable or has none."""
    try:
        pdf = pdfplumber.open(path)
    except Exception as exc:  # pdfminer raises many unrelated types for bad files
        raise _unreadable(path, exc) from exc
    with pdf:
        try:
            n = len(pdf.pages)
        except Exception as exc:
            raise _unreadable(path, exc) from exc
    if n == 0:
        raise InputError(
            f"{path} has no pages",
            where=str(path),
            fix="check the file was exported completely; a PDF needs at least one page",
        )
    return n


def parse_pdf(
    path: Path,
    source_id: str,
    *,
    parser_version: str,
    max_passage_chars: int,
    page_roles: dict[int, Role] | None = None,
    page_range: tuple[int, int] | None = None,
) -> ParsedFile:
    """Parse ``path`` into passages and table cells; raise InputError when unreadable.

    ``page_range`` = (first, last), 1-based and inclusive, parses only those pages (the
    locations are the same as in a whole-file parse, since every location is per page).
    """
    page_roles = page_roles or {}
    try:
        pdf = pdfplumber.open(path)
    except Exception as exc:  # pdfminer raises many unrelated types for bad files
        raise _unreadable(path, exc) from exc
    out = ParsedFile()
    with pdf:
        try:
            pages = list(pdf.pages)
        except Exception as exc:
            raise _unreadable(path, exc) from exc
        if not pages:
            raise InputError(
                f"{path} has no pages",
                where=str(path),
                fix="check the file was exported completely; a PDF needs at least one page",
            )
        out.pages = len(pages)
        first, last = page_range or (1, len(pages))
        for number, page in enumerate(pages, start=1):
            if not first <= number <= last:
                continue
            try:
                locations, warning = _parse_page(
                    page, number, source_id, parser_version, max_passage_chars, page_roles.get(number)
                )
            except InputError:
                raise
            except Exception as exc:
                raise InputError(
                    f"{path}: page {number} could not be parsed ({type(exc).__name__}: {exc})",
                    where=f"{path} page {number}",
                    fix="re-export the PDF or remove the page",
                ) from exc
            finally:
                page.close()
            out.locations.extend(locations)
            if warning:
                out.warnings.append(f"page {number}: {warning}")
    return out


def _unreadable(path: Path, exc: Exception) -> InputError:
    # pdfplumber wraps pdfminer's error (e.g. PDFPasswordIncorrect) as its first argument
    inner = [a for a in exc.args if isinstance(a, BaseException)]
    text = " ".join(f"{type(e).__name__} {e}" for e in [exc, *inner]).lower()
    if "password" in text or "encrypt" in text:
        return InputError(
            f"{path} is encrypted and cannot be read without its password",
            where=str(path),
            fix="save an unencrypted copy of the PDF and register that file",
        )
    cause = inner[0] if inner else exc
    return InputError(
        f"{path} is not a readable PDF ({type(cause).__name__}: {cause})",
        where=str(path),
        fix="check the file is a complete PDF (download it again) or remove it from the manifest",
    )


def _parse_page(
    page: Any, number: int, source_id: str, parser_version: str, max_chars: int, role: Role | None
) -> tuple[list[SourceLocation], str | None]:
    common = dict(source_id=source_id, page=number, parser_version=parser_version, role_override=role)
    if not page.chars:
        warning = "image-only page: no text layer (OCR is not performed)" if page.images else "empty page: no text"
        return [SourceLocation.create(kind="passage", ordinal=0, text="", warning=warning, **common)], warning
    tables = page.find_tables()
    locations: list[SourceLocation] = []
    text_page = page
    if tables:
        boxes = [t.bbox for t in tables]
        text_page = page.filter(lambda obj: not _inside_any(obj, boxes))
    ordinal = 0
    for passage in _passages(text_page.extract_text_lines(strip=True), max_chars):
        locations.append(SourceLocation.create(kind="passage", ordinal=ordinal, text=passage, **common))
        ordinal += 1
    for t_index, table in enumerate(tables, start=1):
        for cell in _table_cells(table.extract()):
            locations.append(
                SourceLocation.create(
                    kind="table_cell",
                    ordinal=ordinal,
                    cell=f"t{t_index}r{cell['row']}c{cell['col']}",
                    text=cell["text"],
                    value=cell["text"],
                    row_label=cell["row_label"],
                    column_label=cell["column_label"],
                    **common,
                )
            )
            ordinal += 1
    return locations, None


def _inside_any(obj: dict[str, Any], boxes: list[tuple[float, float, float, float]]) -> bool:
    if obj.get("object_type") != "char":
        return False
    x = (obj["x0"] + obj["x1"]) / 2
    y = (obj["top"] + obj["bottom"]) / 2
    return any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)


def _passages(lines: list[dict[str, Any]], max_chars: int) -> list[str]:
    """Group text lines into paragraphs by vertical gaps; never exceed ``max_chars`` unless one line does."""
    lines = [ln for ln in lines if ln["text"].strip()]
    if not lines:
        return []
    height = statistics.median(ln["bottom"] - ln["top"] for ln in lines) or 1.0
    groups: list[list[str]] = [[lines[0]["text"]]]
    for prev, line in zip(lines, lines[1:], strict=False):
        gap = line["top"] - prev["bottom"]
        size = sum(len(t) + 1 for t in groups[-1])
        new_column = line["top"] < prev["top"] - height  # reading order went back up: next column
        if gap > PARAGRAPH_GAP * height or new_column or size + len(line["text"]) > max_chars:
            groups.append([line["text"]])
        else:
            groups[-1].append(line["text"])
    return ["\n".join(g) for g in groups]


def _table_cells(rows: list[list[str | None]]) -> list[dict[str, Any]]:
    """Non-empty cells of a table with their row label (first cell) and column label (header row)."""
    if not rows:
        return []
    header = [(_clean(c) or None) for c in rows[0]]
    cells = []
    for r, row in enumerate(rows, start=1):
        first = next((i for i, c in enumerate(row, start=1) if _clean(c)), None)
        label = _clean(row[first - 1]) if first else None
        for c, raw in enumerate(row, start=1):
            text = _clean(raw)
            if not text:
                continue
            cells.append(
                {
                    "row": r,
                    "col": c,
                    "text": text,
                    "row_label": label if first is not None and c > first else None,
                    "column_label": header[c - 1] if r > 1 and c - 1 < len(header) else None,
                }
            )
    return cells


def _clean(value: str | None) -> str:
    return " ".join(value.split()) if value else ""
