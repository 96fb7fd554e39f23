"""PDF parser: passages that never cross a page, and table cells.

Text comes from PDFium (``pypdfium2``): each page's text in its content order, split into
lines, grouped into paragraphs by vertical gaps (split at line boundaries above
``max_passage_chars``), with the exact extracted text kept for quoting. Tables are found by
pdfplumber's table finder (default "lines" strategy) run on the page's ruling edges, which are
read from PDFium's path objects, so pdfminer never lays out a page; each non-empty cell is one
``table_cell`` location carrying the table's row and column labels, its text read by PDFium
inside the cell. Text inside a detected table is not repeated in the passages. A page
without a text layer is kept as one empty location with a warning.

Differences from the pdfplumber parser (``pdf-1``), measured on the shared PDFs by
``tests/test_sources_pdf_pdfium.py``: lines follow the content order rather than being
sorted by height (side-by-side columns are no longer merged into one line), and spaces are
PDFium's (generated from glyph gaps and the file's own space characters) rather than
pdfplumber's word-gap rule, so some passages differ in whitespace, in where they split, or
in order. The table finder sees the same edges (path coordinates agree to rounding).
"""

from __future__ import annotations

import ctypes
import re
import statistics
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from pdfplumber.table import TableFinder, TableSettings

from aieco.errors import InputError
from aieco.records import Role, SourceLocation
from aieco.sources.parsed import ParsedFile

#: A vertical gap larger than this share of the median line height starts a new paragraph.
PARAGRAPH_GAP = 0.6
#: Form XObjects nested deeper than this are not searched for ruling edges.
MAX_FORM_DEPTH = 15
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def pdf_page_count(path: Path) -> int:
    """Number of pages of ``path``; raise InputError when it is unreadable or has none."""
    doc = _open(path)
    try:
        n = len(doc)
    finally:
        doc.close()
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
    doc = _open(path)
    out = ParsedFile()
    try:
        n = len(doc)
        if n == 0:
            raise InputError(
                f"{path} has no pages",
                where=str(path),
                fix="check the file was exported completely; a PDF needs at least one page",
            )
        out.pages = n
        first, last = page_range or (1, n)
        for number in range(max(first, 1), min(last, n) + 1):
            try:
                page = doc[number - 1]
            except Exception as exc:
                raise InputError(
                    f"{path}: page {number} could not be read ({type(exc).__name__}: {exc})",
                    where=f"{path} page {number}",
                    fix="re-export the PDF or remove the page",
                ) from exc
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
    finally:
        doc.close()
    return out


def _open(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(path))
    except Exception as exc:  # PdfiumError for damaged, encrypted or non-PDF files; OSError for unreadable ones
        raise _unreadable(path, exc) from exc


def _unreadable(path: Path, exc: Exception) -> InputError:
    """Why PDFium could not open ``path``, diagnosed with pdfminer (PDFium's error code can be stale)."""
    import pdfplumber

    try:
        with pdfplumber.open(path) as pdf:
            pages = len(pdf.pages)
    except Exception as inner:  # pdfminer raises many unrelated types for bad files
        # pdfplumber wraps pdfminer's error (e.g. PDFPasswordIncorrect) as its first argument
        causes = [inner, *(a for a in inner.args if isinstance(a, BaseException))]
        text = " ".join(f"{type(e).__name__} {e}" for e in causes).lower()
        if "password" in text or "encrypt" in text:
            return InputError(
                f"{path} is encrypted and cannot be read without its password",
                where=str(path),
                fix="save an unencrypted copy of the PDF and register that file",
            )
        cause = causes[-1]
        return InputError(
            f"{path} is not a readable PDF ({type(cause).__name__}: {cause})",
            where=str(path),
            fix="check the file is a complete PDF (download it again) or remove it from the manifest",
        )
    if pages == 0:
        return InputError(
            f"{path} has no pages",
            where=str(path),
            fix="check the file was exported completely; a PDF needs at least one page",
        )
    return InputError(
        f"{path} is not a readable PDF ({type(exc).__name__}: {exc})",
        where=str(path),
        fix="check the file is a complete PDF (download it again) or remove it from the manifest",
    )


class _EdgePage:
    """What pdfplumber's TableFinder reads of a page: its edges and bounding box."""

    def __init__(self, edges: list[dict[str, Any]], bbox: tuple[float, float, float, float]):
        self.edges = edges
        self.bbox = bbox


def _parse_page(
    page: pdfium.PdfPage, number: int, source_id: str, parser_version: str, max_chars: int, role: Role | None
) -> tuple[list[SourceLocation], str | None]:
    common = dict(source_id=source_id, page=number, parser_version=parser_version, role_override=role)
    width, height = page.get_size()
    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        text = textpage.get_text_range() if count > 0 else ""
        if not text.strip():
            images = next(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=MAX_FORM_DEPTH), None)
            warning = (
                "image-only page: no text layer (OCR is not performed)" if images is not None else "empty page: no text"
            )
            return [SourceLocation.create(kind="passage", ordinal=0, text="", warning=warning, **common)], warning
        finder = TableFinder(
            _EdgePage(_ruling_edges(page, height), (0.0, 0.0, width, height)), TableSettings.resolve(None)
        )
        tables = finder.tables
        boxes = [t.bbox for t in tables]
        lines = _text_lines(textpage, text, count, height, boxes)
        locations: list[SourceLocation] = []
        ordinal = 0
        for passage in _passages(lines, max_chars):
            locations.append(SourceLocation.create(kind="passage", ordinal=ordinal, text=passage, **common))
            ordinal += 1
        for t_index, table in enumerate(tables, start=1):
            rows = [
                [_cell_text(textpage, cell, height) if cell is not None else None for cell in row.cells]
                for row in table.rows
            ]
            for cell in _table_cells(rows):
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
    finally:
        textpage.close()


def _text_lines(
    textpage: pdfium.PdfTextPage, text: str, count: int, height: float, boxes: list[tuple[float, float, float, float]]
) -> list[dict[str, Any]]:
    """The page's text lines (content order) with top and bottom (from the top of the page).

    On a page with tables, characters whose centre lies inside a table are left out.
    """
    aligned = len(text) == count  # one string character per PDFium character (no surrogate pairs)
    lines = []
    start = 0
    for match in [*_LINE_BREAK.finditer(text), None]:
        end = match.start() if match else len(text)
        a, b, start = start, end, (match.end() if match else len(text))
        segment = text[a:b]
        if not segment.strip():
            continue
        if not aligned:  # no positions: one line per segment, stacked (a paragraph break between each)
            lines.append({"text": segment.strip(), "top": 20.0 * len(lines), "bottom": 20.0 * len(lines) + 10})
            continue
        keep = list(range(a, b))
        if boxes and _near_any(textpage, a, b, height, boxes):
            keep = [i for i in keep if not _inside_any(_char_centre(textpage, i, height), boxes)]
        line = "".join(text[i] for i in keep)
        stripped = line.strip()
        if not stripped:
            continue
        lead = len(line) - len(line.lstrip())
        first, last = keep[lead], keep[lead + len(stripped) - 1]
        tops, bottoms = [], []
        for i in (first, last):  # a glyph spans its font size above the baseline's descent (as in pdfminer)
            bottom = height - textpage.get_charbox(i, loose=True)[1]
            bottoms.append(bottom)
            tops.append(bottom - _font_height(textpage, i))
        lines.append({"text": stripped, "top": min(tops), "bottom": max(bottoms)})
    return lines


def _near_any(
    textpage: pdfium.PdfTextPage, a: int, b: int, height: float, boxes: list[tuple[float, float, float, float]]
) -> bool:
    """Whether the line of characters a … b − 1 may reach into a table (its loose box, with a margin, meets one)."""
    first, last = textpage.get_charbox(a, loose=True), textpage.get_charbox(b - 1, loose=True)
    x0, x1 = min(first[0], last[0]) - 1, max(first[2], last[2]) + 1
    top, bottom = height - max(first[3], last[3]) - 20, height - min(first[1], last[1]) + 20
    return any(bx0 <= x1 and x0 <= bx1 and btop <= bottom and top <= bbottom for bx0, btop, bx1, bbottom in boxes)


def _font_height(textpage: pdfium.PdfTextPage, index: int) -> float:
    """The character's font size in page units (font size × the text matrix's vertical scale)."""
    m = pdfium_c.FS_MATRIX()
    size = pdfium_c.FPDFText_GetFontSize(textpage.raw, index)
    if pdfium_c.FPDFText_GetMatrix(textpage.raw, index, m):
        size *= (m.c * m.c + m.d * m.d) ** 0.5
    return size


def _char_centre(textpage: pdfium.PdfTextPage, index: int, height: float) -> tuple[float, float]:
    left, bottom, right, top = textpage.get_charbox(index, loose=True)
    return (left + right) / 2, height - (top + bottom) / 2


def _cell_text(textpage: pdfium.PdfTextPage, bbox: tuple[float, float, float, float], height: float) -> str:
    x0, top, x1, bottom = bbox
    return textpage.get_text_bounded(left=x0, bottom=height - bottom, right=x1, top=height - top)


def _ruling_edges(page: pdfium.PdfPage, height: float) -> list[dict[str, Any]]:
    """Horizontal and vertical edges of every path on the page (in forms too), as pdfplumber's ``page.edges``.

    Each straight segment of a path is an edge when it is horizontal or vertical; a closed
    subpath also contributes its closing segment. Coordinates are pdfplumber's (top = distance
    from the top of the page).
    """
    edges: list[dict[str, Any]] = []
    x, y = ctypes.c_float(), ctypes.c_float()
    px, py = ctypes.byref(x), ctypes.byref(y)  # made once: a chart page has thousands of segments
    count, get_segment = pdfium_c.FPDFPath_CountSegments, pdfium_c.FPDFPath_GetPathSegment
    get_point, get_type, get_close = (
        pdfium_c.FPDFPathSegment_GetPoint,
        pdfium_c.FPDFPathSegment_GetType,
        pdfium_c.FPDFPathSegment_GetClose,
    )
    moveto = pdfium_c.FPDF_SEGMENT_MOVETO
    for obj, matrix in _paths(page):
        a, b, c, d, e, f = matrix
        sub: list[tuple[float, float]] = []
        closed = False
        for i in range(count(obj)):
            seg = get_segment(obj, i)
            get_point(seg, px, py)
            xv, yv = x.value, y.value
            point = (a * xv + c * yv + e, height - (b * xv + d * yv + f))
            if sub and get_type(seg) == moveto:
                edges += _segment_edges(sub, closed)
                sub, closed = [], False
            sub.append(point)
            if not closed and get_close(seg):
                closed = True
        if sub:
            edges += _segment_edges(sub, closed)
    return edges


def _paths(page: pdfium.PdfPage) -> Iterator[tuple[Any, tuple[float, ...]]]:
    """Every path object with its matrix to page space (through enclosing form XObjects)."""

    def walk(
        count: Callable[[], int], get: Callable[[int], Any], parent: tuple[float, ...], depth: int
    ) -> Iterator[tuple[Any, tuple[float, ...]]]:
        for i in range(count()):
            obj = get(i)
            kind = pdfium_c.FPDFPageObj_GetType(obj)
            if kind == pdfium_c.FPDF_PAGEOBJ_PATH:
                yield obj, _compose(_matrix(obj), parent)
            elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < MAX_FORM_DEPTH:
                yield from walk(
                    lambda o=obj: pdfium_c.FPDFFormObj_CountObjects(o),
                    lambda j, o=obj: pdfium_c.FPDFFormObj_GetObject(o, j),
                    _compose(_matrix(obj), parent),
                    depth + 1,
                )

    yield from walk(
        lambda: pdfium_c.FPDFPage_CountObjects(page.raw),
        lambda i: pdfium_c.FPDFPage_GetObject(page.raw, i),
        _IDENTITY,
        0,
    )


def _matrix(obj: Any) -> tuple[float, ...]:
    m = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, m):
        return _IDENTITY
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _compose(inner: tuple[float, ...], outer: tuple[float, ...]) -> tuple[float, ...]:
    """The matrix applying ``inner`` then ``outer`` (PDF row-vector convention)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _segment_edges(points: list[tuple[float, float]], closed: bool) -> list[dict[str, Any]]:
    if len(points) < 2:
        return []
    if closed and points[0] != points[-1]:
        points = [*points, points[0]]
    out = []
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if y0 == y1:
            orientation = "h"
        elif x0 == x1:
            orientation = "v"
        else:
            continue  # neither horizontal nor vertical: no ruling edge
        left, right, top, bottom = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
        out.append(
            {
                "x0": left,
                "x1": right,
                "top": top,
                "bottom": bottom,
                "width": right - left,
                "height": bottom - top,
                "orientation": orientation,
                "object_type": "curve",
            }
        )
    return out


def _inside_any(point: tuple[float, float], boxes: list[tuple[float, float, float, float]]) -> bool:
    x, y = point
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
