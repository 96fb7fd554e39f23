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

Speed (issue #20): path segments are read through PDFium calls taking plain integer
handles; the finder's cell search is ``_cells`` (pdfplumber's search with each corner's
edges made a set once, tested equal to ``intersections_to_cells``); the finder is not run
on a page with fewer than two vertical or two horizontal edges, which cannot hold a cell;
cell text is read with one PDFium call per cell. None of these changes an output
(``tests/test_sources_pdf_tables.py`` compares them with the plain paths on every shared
PDF). On the BIS Quarterly Review the pre-check skips few pages: pdfplumber's finder
takes most chart frames for tables (44 of 102 pages), and those pages are kept.
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
from pdfplumber.table import Table, TableFinder, TableSettings, cells_to_tables, edges_to_intersections

from aieco.errors import InputError
from aieco.records import Role, SourceLocation
from aieco.sources.clean import clean_text, numeric_row, split_at_sentence
from aieco.sources.parsed import ParsedFile

#: A vertical gap larger than this share of the median line height starts a new paragraph.
PARAGRAPH_GAP = 0.6
#: Form XObjects nested deeper than this are not searched for ruling edges.
MAX_FORM_DEPTH = 15
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: A page's character index → the character's loose box (left, bottom, right, top).
_CharBox = Callable[[int], tuple[float, ...]]


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


class _Finder(TableFinder):
    """pdfplumber's table finder with default settings, its cell search replaced by ``_cells`` (same cells)."""

    def __init__(self, page: _EdgePage):
        self.page = page
        self.settings = settings = TableSettings.resolve(None)
        self.edges = self.get_edges()
        self.intersections = edges_to_intersections(
            self.edges, settings.intersection_x_tolerance, settings.intersection_y_tolerance
        )
        self.cells = _cells(self.intersections)
        self.tables = [Table(page, group) for group in cells_to_tables(self.cells)]


def _find_tables(page: _EdgePage) -> list[Table]:
    """pdfplumber's tables ("lines" strategy) on the page's edges; none when the edges cannot make a cell.

    A cell needs two vertical and two horizontal edges (its sides); pdfplumber's edge merging
    never adds edges, so a page with fewer raw edges of either orientation has no table and
    the finder is not run.
    """
    vertical = sum(1 for e in page.edges if e["orientation"] == "v")
    if vertical < 2 or len(page.edges) - vertical < 2:
        return []
    return _Finder(page).tables


def _cells(intersections: dict[tuple[float, float], dict[str, list[dict[str, Any]]]]) -> list[tuple[float, ...]]:
    """The cells pdfplumber's ``intersections_to_cells`` gives, in the same order.

    For each intersection (sorted), the first corner found, scanning the intersections below
    it (top to bottom) and then those to its right (left to right), that closes a rectangle
    whose four sides are each one edge shared by its two corners. Each intersection's edges
    are turned into sets once (pdfplumber rebuilds them for every comparison).
    """
    v_sets = {p: {(e["x0"], e["top"], e["x1"], e["bottom"]) for e in d["v"]} for p, d in intersections.items()}
    h_sets = {p: {(e["x0"], e["top"], e["x1"], e["bottom"]) for e in d["h"]} for p, d in intersections.items()}

    # Two intersections are joined by an edge they share: a vertical one when they lie on one
    # vertical (pdfplumber's test for equal x), a horizontal one when on one horizontal line.
    points = sorted(intersections)
    n = len(points)
    by_row: dict[float, list[tuple[float, float]]] = {}
    for p in points:  # each row's points in increasing x (points are sorted by x, then y)
        by_row.setdefault(p[1], []).append(p)
    row_index = {p: i for row in by_row.values() for i, p in enumerate(row)}
    cells = []
    for i, pt in enumerate(points):
        x, y = pt
        pt_v, pt_h = v_sets[pt], h_sets[pt]
        rights = by_row[y][row_index[pt] + 1 :]
        joined: dict[int, bool] = {}  # right point → joined to pt (computed when first needed)
        found = None
        j = i + 1
        while found is None and j < n and points[j][0] == x:  # the points below pt, top to bottom
            below_pt = points[j]
            j += 1
            if pt_v.isdisjoint(v_sets[below_pt]):
                continue
            below_h = h_sets[below_pt]
            for k, right_pt in enumerate(rights):
                ok = joined.get(k)
                if ok is None:
                    ok = joined[k] = not pt_h.isdisjoint(h_sets[right_pt])
                if not ok:
                    continue
                corner = (right_pt[0], below_pt[1])
                if (
                    corner in intersections
                    and not v_sets[corner].isdisjoint(v_sets[right_pt])
                    and not h_sets[corner].isdisjoint(below_h)
                ):
                    found = (x, y, corner[0], corner[1])
                    break
        if found is not None:
            cells.append(found)
    return cells


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
        tables = _find_tables(_EdgePage(_ruling_edges(page, height), (0.0, 0.0, width, height)))
        boxes = [t.bbox for t in tables]
        lines = _text_lines(textpage, text, count, height, boxes)
        locations: list[SourceLocation] = []
        ordinal = 0
        for passage in _passages(lines, max_chars):
            cleaned = clean_text(passage)  # no control or non-character code point is stored
            locations.append(
                SourceLocation.create(
                    kind="passage", ordinal=ordinal, text=cleaned.text, warning=cleaned.describe() or None, **common
                )
            )
            ordinal += 1
        cell_text = _cell_reader(textpage, height, len(text)) if tables else None
        for t_index, table in enumerate(tables, start=1):
            rows = [[cell_text(cell) if cell is not None else None for cell in row.cells] for row in table.rows]
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
    box = _loose_box(textpage)
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
        if boxes and _near_any(box, a, b, height, boxes):
            keep = [i for i in keep if not _inside_any(_char_centre(box, i, height), boxes)]
        line = "".join(text[i] for i in keep)
        stripped = line.strip()
        if not stripped:
            continue
        lead = len(line) - len(line.lstrip())
        first, last = keep[lead], keep[lead + len(stripped) - 1]
        tops, bottoms = [], []
        for i in (first, last):  # a glyph spans its font size above the baseline's descent (as in pdfminer)
            bottom = height - box(i)[1]
            bottoms.append(bottom)
            tops.append(bottom - _font_height(textpage, i))
        lines.append({"text": stripped, "top": min(tops), "bottom": max(bottoms)})
    return lines


def _near_any(box: _CharBox, a: int, b: int, height: float, boxes: list[tuple[float, float, float, float]]) -> bool:
    """Whether the line of characters a … b − 1 may reach into a table (its loose box, with a margin, meets one)."""
    first, last = box(a), box(b - 1)
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


def _loose_box(textpage: pdfium.PdfTextPage) -> _CharBox:
    """A character's loose box (left, bottom, right, top) as ``textpage.get_charbox(i, loose=True)``
    gives it, through one PDFium call with plain handles and one rectangle made per page."""
    rect = pdfium_c.FS_RECTF()
    raw = ctypes.cast(textpage.raw, ctypes.c_void_p).value

    def box(index: int) -> tuple[float, ...]:
        if not _LOOSE_BOX(raw, index, ctypes.addressof(rect)):
            raise pdfium.PdfiumError("Failed to get charbox.")
        return rect.left, rect.bottom, rect.right, rect.top

    return box


def _char_centre(box: _CharBox, index: int, height: float) -> tuple[float, float]:
    left, bottom, right, top = box(index)
    return (left + right) / 2, height - (top + bottom) / 2


def _cell_reader(
    textpage: pdfium.PdfTextPage, height: float, page_chars: int
) -> Callable[[tuple[float, float, float, float]], str]:
    """A reader of the text inside a cell (pdfplumber bbox) as ``PdfTextPage.get_text_bounded`` gives it.

    One PDFium call per cell into a buffer made once per page (``get_text_bounded`` makes two,
    the first only to count); PDFium ends the text with a NUL when there is room, which is
    dropped. A cell whose text may not fit is read by ``get_text_bounded``.
    """
    size = 2 * page_chars + 64
    buffer = (ctypes.c_ushort * size)()
    raw = ctypes.cast(textpage.raw, ctypes.c_void_p).value

    def read(bbox: tuple[float, float, float, float]) -> str:
        x0, top, x1, bottom = bbox
        address = ctypes.addressof(buffer)  # the closure holds the buffer alive
        n = _BOUNDED_TEXT(raw, x0, height - top, x1, height - bottom, address, size)
        if n >= size:
            return textpage.get_text_bounded(left=x0, bottom=height - bottom, right=x1, top=height - top)
        if n <= 0:
            return ""
        out = ctypes.string_at(address, 2 * n).decode("utf-16-le", errors="ignore")
        return out[:-1] if out.endswith("\x00") else out

    return read


def _proto(fn: Any, restype: Any, *argtypes: Any) -> Any:
    """``fn`` called with plain integer handles (no per-call wrapping in pypdfium2's pointer types)."""
    return ctypes.cast(fn, ctypes.CFUNCTYPE(restype, *argtypes))


_VP, _INT = ctypes.c_void_p, ctypes.c_int
_COUNT_OBJECTS = _proto(pdfium_c.FPDFPage_CountObjects, _INT, _VP)
_GET_OBJECT = _proto(pdfium_c.FPDFPage_GetObject, _VP, _VP, _INT)
_FORM_COUNT = _proto(pdfium_c.FPDFFormObj_CountObjects, _INT, _VP)
_FORM_OBJECT = _proto(pdfium_c.FPDFFormObj_GetObject, _VP, _VP, _INT)
_OBJ_TYPE = _proto(pdfium_c.FPDFPageObj_GetType, _INT, _VP)
_OBJ_MATRIX = _proto(pdfium_c.FPDFPageObj_GetMatrix, _INT, _VP, _VP)
_SEG_COUNT = _proto(pdfium_c.FPDFPath_CountSegments, _INT, _VP)
_SEGMENT = _proto(pdfium_c.FPDFPath_GetPathSegment, _VP, _VP, _INT)
_SEG_POINT = _proto(pdfium_c.FPDFPathSegment_GetPoint, _INT, _VP, _VP, _VP)
_SEG_TYPE = _proto(pdfium_c.FPDFPathSegment_GetType, _INT, _VP)
_SEG_CLOSE = _proto(pdfium_c.FPDFPathSegment_GetClose, _INT, _VP)
_DOUBLE = ctypes.c_double
_LOOSE_BOX = _proto(pdfium_c.FPDFText_GetLooseCharBox, _INT, _VP, _INT, _VP)
_BOUNDED_TEXT = _proto(pdfium_c.FPDFText_GetBoundedText, _INT, _VP, _DOUBLE, _DOUBLE, _DOUBLE, _DOUBLE, _VP, _INT)


def _ruling_edges(page: pdfium.PdfPage, height: float) -> list[dict[str, Any]]:
    """Horizontal and vertical edges of every path on the page (in forms too), as pdfplumber's ``page.edges``.

    Each straight segment of a path is an edge when it is horizontal or vertical; a closed
    subpath also contributes its closing segment. Coordinates are pdfplumber's (top = distance
    from the top of the page).
    """
    edges: list[dict[str, Any]] = []
    x, y = ctypes.c_float(), ctypes.c_float()
    px, py = ctypes.addressof(x), ctypes.addressof(y)  # made once: a chart page has thousands of segments
    count, get_segment, get_point, get_type, get_close = _SEG_COUNT, _SEGMENT, _SEG_POINT, _SEG_TYPE, _SEG_CLOSE
    moveto = pdfium_c.FPDF_SEGMENT_MOVETO
    add = edges.append
    for obj, (a, b, c, d, e, f) in _paths(page):
        start = prev = None  # the subpath's first point, the last point
        closed = False
        for i in range(count(obj)):
            seg = get_segment(obj, i)
            get_point(seg, px, py)
            xv, yv = x.value, y.value
            point = (a * xv + c * yv + e, height - (b * xv + d * yv + f))
            if prev is None:
                start = point
            elif get_type(seg) == moveto:  # a new subpath: close the last one if it was closed
                if closed and start != prev:
                    _add_edge(add, prev, start)
                start, closed = point, False
            elif prev[1] == point[1] or prev[0] == point[0]:
                _add_edge(add, prev, point)
            prev = point
            if not closed and get_close(seg):
                closed = True
        if closed and start != prev:
            _add_edge(add, prev, start)
    return edges


def _add_edge(add: Callable[[dict[str, Any]], None], p: tuple[float, float], q: tuple[float, float]) -> None:
    """Add the segment p–q as an edge when it is horizontal or vertical."""
    (x0, y0), (x1, y1) = p, q
    if y0 == y1:
        orientation = "h"
    elif x0 == x1:
        orientation = "v"
    else:
        return  # neither horizontal nor vertical: no ruling edge
    left, right, top, bottom = (x0, x1, y0, y1) if x0 <= x1 else (x1, x0, y0, y1)
    if top > bottom:
        top, bottom = bottom, top
    add(
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


def _paths(page: pdfium.PdfPage) -> Iterator[tuple[int, tuple[float, ...]]]:
    """Every path object (as an integer handle) with its matrix to page space (through enclosing form XObjects)."""
    m = pdfium_c.FS_MATRIX()
    pm = ctypes.addressof(m)

    def matrix(obj: int) -> tuple[float, ...]:
        return (m.a, m.b, m.c, m.d, m.e, m.f) if _OBJ_MATRIX(obj, pm) else _IDENTITY

    def walk(
        holder: int, count: Callable[[int], int], get: Callable[[int, int], int], parent: tuple[float, ...], depth: int
    ) -> Iterator[tuple[int, tuple[float, ...]]]:
        for i in range(count(holder)):
            obj = get(holder, i)
            kind = _OBJ_TYPE(obj)
            if kind == pdfium_c.FPDF_PAGEOBJ_PATH:
                yield obj, _compose(matrix(obj), parent)
            elif kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth < MAX_FORM_DEPTH:
                yield from walk(obj, _FORM_COUNT, _FORM_OBJECT, _compose(matrix(obj), parent), depth + 1)

    yield from walk(ctypes.cast(page.raw, ctypes.c_void_p).value, _COUNT_OBJECTS, _GET_OBJECT, _IDENTITY, 0)


def _compose(inner: tuple[float, ...], outer: tuple[float, ...]) -> tuple[float, ...]:
    """The matrix applying ``inner`` then ``outer`` (PDF row-vector convention)."""
    a, b, c, d, e, f = inner
    A, B, C, D, E, F = outer
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _inside_any(point: tuple[float, float], boxes: list[tuple[float, float, float, float]]) -> bool:
    x, y = point
    return any(x0 <= x <= x1 and top <= y <= bottom for x0, top, x1, bottom in boxes)


def _passages(lines: list[dict[str, Any]], max_chars: int) -> list[str]:
    """Group text lines into paragraphs by vertical gaps.

    A paragraph longer than ``max_chars`` is split after its last line that ends a sentence
    (:func:`split_at_sentence`; at the last line when none does), so a passage, and a quote read
    from it, does not stop mid-phrase where the text allows. Lines that are rows of numbers (chart
    axes, table rows the finder missed) are left out: they are never a passage.
    """
    lines = [ln for ln in lines if ln["text"].strip() and not numeric_row(ln["text"])]
    if not lines:
        return []
    height = statistics.median(ln["bottom"] - ln["top"] for ln in lines) or 1.0
    groups: list[list[str]] = [[lines[0]["text"]]]
    for prev, line in zip(lines, lines[1:], strict=False):
        gap = line["top"] - prev["bottom"]
        new_column = line["top"] < prev["top"] - height  # reading order went back up: next column
        if gap > PARAGRAPH_GAP * height or new_column:
            groups.append([line["text"]])
        elif sum(len(t) + 1 for t in groups[-1]) + len(line["text"]) > max_chars:
            groups[-1], carried = split_at_sentence(groups[-1], line["text"], max_chars)
            groups.append([*carried, line["text"]])
        else:
            groups[-1].append(line["text"])
    # a paragraph of short number lines (a chart axis, one value a line) is a row of numbers too
    return [text for text in ("\n".join(g) for g in groups) if not numeric_row(text)]


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
    return " ".join(clean_text(value).text.split()) if value else ""
