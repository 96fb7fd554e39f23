"""CSV parser: every non-empty cell becomes a ``sheet_cell`` location (sheet = file name).

Text is decoded as UTF-8 (a BOM is accepted). Any other encoding must be named in the
manifest entry (``encoding = "cp1252"``); a file that is not valid in the stated encoding
is refused with the byte offset of the first bad byte, never decoded by guesswork.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from aieco.errors import InputError
from aieco.records import Role
from aieco.sources.parsed import ParsedFile
from aieco.sources.xlsx import grid_locations

_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def read_text(path: Path, encoding: str | None) -> str:
    """Decode ``path`` with ``encoding`` (default UTF-8 with optional BOM) or raise InputError."""
    data = path.read_bytes()
    enc = encoding or "utf-8-sig"
    try:
        return data.decode(enc)
    except LookupError as exc:
        raise InputError(
            f"{path}: unknown text encoding {encoding!r}",
            where=str(path),
            fix='use a Python codec name such as "utf-8", "cp1252" or "latin-1"',
        ) from exc
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path} is not valid {enc} text (byte 0x{data[exc.start]:02x} at offset {exc.start})",
            where=str(path),
            fix='re-save the file as UTF-8, or name its encoding in the manifest entry, e.g. encoding = "cp1252"',
        ) from exc


def parse_csv(
    path: Path, source_id: str, *, parser_version: str, encoding: str | None = None, role: Role | None = None
) -> ParsedFile:
    """Parse a delimited text file (comma, semicolon or tab) into cell locations."""
    text = read_text(path, encoding)
    sample = text[:20_000]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t") if sample.strip() else csv.excel
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO(text), dialect))
    grid = [[_value(v) for v in row] for row in rows]
    out = ParsedFile(pages=1)
    out.locations = grid_locations(
        source_id, path.name, grid, parser_version=parser_version, role=role, warnings=out.warnings
    )
    return out


def _value(text: str) -> float | str | None:
    stripped = text.strip()
    if not stripped:
        return None
    if _NUMBER.fullmatch(stripped):
        return float(stripped)
    return text
