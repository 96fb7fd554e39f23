"""The ruling-edge reader of parser pdf-2 before it was sped up (pypdfium2's wrapped calls, one
point list per subpath), kept as the reference the fast reader in aieco/sources/pdf.py is compared with."""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterator
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

MAX_FORM_DEPTH = 15
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


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
