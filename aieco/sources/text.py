"""Plain-text and Markdown parser: one passage per paragraph (blank-line separated)."""

from __future__ import annotations

import re
from pathlib import Path

from aieco.records import Role, SourceLocation
from aieco.sources.delimited import read_text
from aieco.sources.parsed import ParsedFile


def parse_text(path: Path, source_id: str, *, parser_version: str, max_passage_chars: int,
               encoding: str | None = None, role: Role | None = None) -> ParsedFile:
    """Paragraphs of a text file as ``passage`` locations (page 1); long ones split at line ends."""
    out = ParsedFile(pages=1)
    ordinal = 0
    for para in re.split(r"\n\s*\n", read_text(path, encoding)):
        lines = [ln.rstrip() for ln in para.strip("\n").splitlines() if ln.strip()]
        chunk: list[str] = []
        for line in lines + [None]:
            if line is None or (chunk and sum(len(c) + 1 for c in chunk) + len(line) > max_passage_chars):
                if chunk:
                    out.locations.append(SourceLocation.create(
                        source_id=source_id, kind="passage", page=1, ordinal=ordinal, text="\n".join(chunk),
                        parser_version=parser_version, role_override=role))
                    ordinal += 1
                chunk = []
            if line is not None:
                chunk.append(line)
    return out
