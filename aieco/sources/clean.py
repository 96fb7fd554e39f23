"""Text as it is stored: no control or non-character code points, and no numeric table rows as passages.

``clean_text`` is applied by the parsers at parse time (PDF passages and cells, text, Markdown
and HTML passages), so no stored passage, and hence no quote, carries a code point a reader
cannot see. PDFium writes U+FFFE where the file had a hyphen at a line break ("non\\ufffeEU"):
it becomes "-". Other C0/C1 controls (except tab, line feed and carriage return) become a space;
private-use code points (PDF footnote marks such as U+F081), surrogates, unassigned code points
and the other non-characters are removed. The edits are returned with their offsets in the
original text, so a span of the cleaned text maps back to the original (``original_span``).

``numeric_row`` tells a line or paragraph that is mostly numbers ("8 7 6 10 8 7", a chart axis or
a table row the table finder missed): the parsers keep it out of passages, so it is never
retrieved or read for relations.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: Replacements for single code points; everything else not allowed is removed or made a space.
REPLACE = {"\ufffe": "-"}
ALLOWED_CONTROLS = frozenset("\t\n\r")
#: A line ending a sentence (full stop, question or exclamation mark, maybe a closing quote, bracket or
#: footnote number): a passage split for length ends after such a line where it can.
SENTENCE_END = re.compile(r"[.!?][\"')\]\u2019\u201d]*\d{0,2}$")
_TOKEN = re.compile(r"\S+")
_NUMBER = re.compile(r"[(\[]?[-+\u2212\u2013]?(?:\d[\d,.\u2009 ]*|\.\d+)%?[)\]]?[.,;:]?")


@dataclass(frozen=True)
class Edit:
    """One replaced code point: where it was in the original text and what replaced it."""

    at: int
    original: str
    replacement: str


@dataclass(frozen=True)
class Cleaned:
    """Cleaned text and the edits that made it from the original."""

    text: str
    edits: tuple[Edit, ...]

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that ``text[start:end]`` came from."""
        return self._original(start), self._original(end)

    def _original(self, offset: int) -> int:
        shift = 0
        for e in self.edits:
            at_clean = e.at + shift
            if at_clean >= offset:  # a code point removed at the boundary stays outside the span
                break
            if at_clean + len(e.replacement) > offset:  # inside a replacement: its original code point
                return e.at
            shift += len(e.replacement) - len(e.original)
        return offset - shift

    def describe(self) -> str:
        """A short record of the edits ('' when none), e.g. "normalised 2 code points: U+FFFE@30->'-'; …"."""
        if not self.edits:
            return ""
        shown = "; ".join(f"U+{ord(e.original):04X}@{e.at}->{e.replacement!r}" for e in self.edits[:5])
        more = f"; … {len(self.edits) - 5} more" if len(self.edits) > 5 else ""
        return f"normalised {len(self.edits)} code point(s): {shown}{more}"


def disallowed(ch: str) -> bool:
    """Whether ``ch`` may not appear in stored text (control other than tab/LF/CR, or a non-character)."""
    if ch in ALLOWED_CONTROLS:
        return False
    if ch in REPLACE:
        return True
    cat = unicodedata.category(ch)
    return cat in ("Cc", "Cs", "Co", "Cn")


def clean_text(text: str) -> Cleaned:
    """``text`` without disallowed code points (U+FFFE → '-', controls → ' ', the rest removed)."""
    if not any(disallowed(ch) for ch in text):
        return Cleaned(text, ())
    out: list[str] = []
    edits: list[Edit] = []
    for i, ch in enumerate(text):
        if not disallowed(ch):
            out.append(ch)
            continue
        rep = REPLACE.get(ch, " " if unicodedata.category(ch) == "Cc" else "")
        out.append(rep)
        edits.append(Edit(i, ch, rep))
    return Cleaned("".join(out), tuple(edits))


def numeric_row(text: str, share: float = 0.6) -> bool:
    """Whether ``text`` is a row of numbers: at least three tokens, ``share`` or more of them numeric."""
    tokens = _TOKEN.findall(text)
    if len(tokens) < 3:
        return False
    numeric = sum(1 for t in tokens if _NUMBER.fullmatch(t))
    return numeric / len(tokens) >= share


def split_at_sentence(group: list[str], line: str, max_chars: int) -> tuple[list[str], list[str]]:
    """Split ``group`` (lines that ``line`` would push past ``max_chars``) after its last line ending a
    sentence: (lines kept, lines carried over to the next passage with ``line``). Nothing is carried
    when no earlier line ends a sentence or the carried lines would not fit."""
    for j in range(len(group) - 1, -1, -1):
        if SENTENCE_END.search(group[j]):
            carried = group[j + 1 :]
            if sum(len(t) + 1 for t in carried) + len(line) <= max_chars:
                return group[: j + 1], carried
            break
    return group, []
