"""Spreadsheet parser (openpyxl): every non-empty cell becomes a ``sheet_cell`` location.

The workbook is read twice: once with formulas (``data_only=False``) and once with the
values Excel cached when it last calculated (``data_only=True``). Each cell keeps its
sheet, A1 coordinate, value, formula, row label (the first text cell to its left),
column header (the nearest header above it: text in a row without numbers, or a year in
a row of years; else the nearest text above) and a scenario label (baseline / adverse /
stress / history …) read from the sheet name, the headers above it or its row label.
A merged range is one location at its top-left cell; its text labels every cell it covers.
"""

from __future__ import annotations

import re
import warnings
import zipfile
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

from aieco.errors import InputError
from aieco.records import Role, SourceLocation
from aieco.sources.parsed import ParsedFile

#: Words that name a scenario, in the order they are tried (longest first), → label.
SCENARIO_WORDS: tuple[tuple[str, str], ...] = (
    (r"severely[\s_-]*adverse", "severely_adverse"),
    (r"adverse", "adverse"),
    (r"stress(?:ed)?", "stress"),
    (r"baseline|base|central", "baseline"),
    (r"histor(?:y|ic|ical)|outturn", "history"),
)
#: How many text cells above a cell are searched for its header and scenario.
HEADER_DEPTH = 4
_SCENARIO_RE = [(re.compile(rf"(?<![a-z]){w}(?![a-z])", re.I), label) for w, label in SCENARIO_WORDS]


def scenario_label(text: str | None) -> str | None:
    """The scenario a sheet name or header names (``'Macro (Stress)'`` → ``'stress'``), or None."""
    if not text:
        return None
    for pattern, label in _SCENARIO_RE:
        if pattern.search(text):
            return label
    return None


#: Below this uncompressed size a workbook's compression ratio is not checked (small files are harmless).
RATIO_CHECK_BYTES = 20_000_000


def refuse_zip_bomb(path: Path) -> None:
    """Refuse a workbook whose members would inflate past the settings' limits, before it is opened
    (openpyxl inflates every sheet: a 300 KB file of 300 MB took 1.08 GB of memory)."""
    from aieco.config import get_settings

    limits = get_settings().sources
    try:
        with zipfile.ZipFile(path) as z:
            members = z.infolist()
    except (zipfile.BadZipFile, OSError):
        return  # not a zip at all: the parser says so with its own message
    inflated = sum(m.file_size for m in members)
    packed = max(1, sum(m.compress_size for m in members))
    too_big = inflated > limits.max_unzipped_bytes
    too_dense = inflated > RATIO_CHECK_BYTES and inflated / packed > limits.max_zip_ratio
    if too_big or too_dense:
        raise InputError(
            f"{path} would inflate to {inflated:,} bytes from {packed:,} (ratio {inflated / packed:.0f}); "
            "refused as a decompression bomb",
            where=str(path),
            fix="check the file; a genuine workbook this large needs AIECO_SOURCES__MAX_UNZIPPED_BYTES or "
            "AIECO_SOURCES__MAX_ZIP_RATIO raised",
        )


def parse_xlsx(
    path: Path, source_id: str, *, parser_version: str, sheet_roles: dict[str, Role] | None = None
) -> ParsedFile:
    """Parse every worksheet of ``path``; raise InputError when the workbook cannot be opened."""
    sheet_roles = sheet_roles or {}
    refuse_zip_bomb(path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # openpyxl warns about unsupported extensions (data validation …)
            from openpyxl import load_workbook  # here: worker processes parsing PDFs never import openpyxl

            formulas = load_workbook(path, data_only=False)
            values = load_workbook(path, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError) as exc:
        raise InputError(
            f"{path} is not a readable .xlsx workbook ({type(exc).__name__}: {exc})",
            where=str(path),
            fix="open and re-save it in Excel/LibreOffice as .xlsx, or remove it from the manifest",
        ) from exc
    out = ParsedFile()
    for ws in formulas.worksheets:
        wv = values[ws.title]
        grid: list[list[Any]] = []
        formula_at: dict[tuple[int, int], str] = {}
        for row in ws.iter_rows():
            vals = []
            for cell in row:
                raw = cell.value
                if isinstance(raw, str) and raw.startswith("="):
                    formula_at[(cell.row, cell.column)] = raw
                    cached = wv.cell(row=cell.row, column=cell.column).value
                    vals.append(cached)
                elif hasattr(raw, "text") and type(raw).__name__ == "ArrayFormula":
                    formula_at[(cell.row, cell.column)] = str(raw.text)
                    vals.append(wv.cell(row=cell.row, column=cell.column).value)
                else:
                    vals.append(raw)
            grid.append(vals)
        merged = [(r.min_row, r.min_col, r.max_row, r.max_col) for r in ws.merged_cells.ranges]
        out.locations.extend(
            grid_locations(
                source_id,
                ws.title,
                grid,
                parser_version=parser_version,
                formulas=formula_at,
                merged=merged,
                role=sheet_roles.get(ws.title),
                warnings=out.warnings,
            )
        )
        out.pages += 1
    return out


def cell_value(value: Any) -> float | str | None:
    """A spreadsheet value as stored in a location: numbers as float, dates ISO, text as is."""
    if value is None:
        return None
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    text = str(value)
    return text if text.strip() else None


def _is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip()) and not _looks_numeric(value)


def _is_year(value: Any) -> bool:
    return isinstance(value, float) and value.is_integer() and 1900 <= value <= 2100


def _looks_numeric(text: str) -> bool:
    return bool(re.fullmatch(r"\s*[-+(]?[\d.,]+%?\)?\s*", text))


def grid_locations(
    source_id: str,
    sheet: str,
    grid: list[list[Any]],
    *,
    parser_version: str,
    formulas: dict[tuple[int, int], str] | None = None,
    merged: list[tuple[int, int, int, int]] | None = None,
    role: Role | None = None,
    warnings: list[str] | None = None,
) -> list[SourceLocation]:
    """Locations for the non-empty cells of one sheet given as rows of values (row 1 first).

    ``formulas`` maps (row, col) (1-based) to the formula text; ``merged`` lists ranges as
    (min_row, min_col, max_row, max_col).
    """
    formulas = formulas or {}
    values = [[cell_value(v) for v in row] for row in grid]
    # the label grid: a merged range's text covers every cell of the range
    labels = [list(row) for row in values]
    for r0, c0, r1, c1 in merged or []:
        anchor = values[r0 - 1][c0 - 1] if r0 - 1 < len(values) and c0 - 1 < len(values[r0 - 1]) else None
        for r in range(r0, min(r1, len(labels)) + 1):
            row = labels[r - 1]
            for c in range(c0, min(c1, len(row)) + 1):
                row[c - 1] = anchor
    header_row = [not any(isinstance(v, float) for v in row) for row in labels]
    year_row = [
        any(isinstance(v, float) for v in row) and all(_is_year(v) for v in row if isinstance(v, float))
        for row in labels
    ]
    # per column: the nearest label above from a header row (text) or a year row (e.g. 2025)
    nearest: dict[int, str] = {}
    sheet_scenario = scenario_label(sheet)
    # per column: the nearest text cells above (from header rows, and from any row), nearest last
    above: dict[int, dict[str, list[str]]] = {}
    out: list[SourceLocation] = []
    ordinal = 0
    for r, row in enumerate(values, start=1):
        first_text = next((c for c, v in enumerate(labels[r - 1], start=1) if _is_text(v)), None)
        row_label = str(labels[r - 1][first_text - 1]).strip() if first_text else None
        for c, value in enumerate(row, start=1):
            formula = formulas.get((r, c))
            if value is None and formula is None:
                continue
            seen = above.get(c)
            headers = (seen["header"][::-1] or seen["any"][::-1]) if seen else []
            column_label = nearest.get(c) or (headers[0] if headers else None)
            scenario = (
                sheet_scenario
                or next((s for s in (scenario_label(h) for h in headers) if s), None)
                or scenario_label(row_label)
            )
            warning = None
            if formula is not None and value is None:
                warning = "formula without a cached value (the workbook was never calculated)"
                if warnings is not None:
                    warnings.append(f"{sheet}!{column_letter(c)}{r}: {warning}")
            out.append(
                SourceLocation.create(
                    source_id=source_id,
                    kind="sheet_cell",
                    sheet=sheet,
                    cell=f"{column_letter(c)}{r}",
                    ordinal=ordinal,
                    text="" if value is None else str(value),
                    value=value,
                    row_label=row_label if first_text is not None and c > first_text else None,
                    column_label=column_label,
                    formula=formula,
                    scenario_label=scenario,
                    parser_version=parser_version,
                    role_override=role,
                    warning=warning,
                )
            )
            ordinal += 1
        for c, v in enumerate(labels[r - 1], start=1):
            if year_row[r - 1] and _is_year(v):
                nearest[c] = str(int(v))
            elif (header_row[r - 1] or year_row[r - 1]) and _is_text(v):
                nearest[c] = str(v).strip()
            if _is_text(v):
                seen = above.setdefault(c, {"header": [], "any": []})
                for key in ("header", "any") if header_row[r - 1] else ("any",):
                    seen[key] = (seen[key] + [str(v).strip()])[-HEADER_DEPTH:]
    return out


def column_letter(index: int) -> str:
    """Spreadsheet column name of the 1-based ``index`` (1 → A, 26 → Z, 27 → AA), as openpyxl names it."""
    if index < 1:
        raise ValueError(f"column index {index} is below 1")
    letters = ""
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters
