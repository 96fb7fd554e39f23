"""What a parser returns for one file: its locations, page count and warnings."""

from __future__ import annotations

from dataclasses import dataclass, field

from aieco.records import SourceLocation


@dataclass
class ParsedFile:
    """The locations of one file, in reading order, plus what the parser noticed."""

    locations: list[SourceLocation] = field(default_factory=list)
    pages: int = 0
    warnings: list[str] = field(default_factory=list)
