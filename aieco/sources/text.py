"""Plain-text, Markdown and HTML parser: one passage per paragraph (blank-line separated).

Markdown and HTML passages carry their section: the path of headings above them
("Markets in 2024 › Volatility and valuations") and their paragraph number within it, so a
citation names "§ Volatility and valuations, ¶ 2" rather than "p. 1" for the whole file.
HTML is read with the standard library's parser: headings ``h1``–``h6`` open sections, block
elements end paragraphs, scripts and styles are skipped.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from aieco.errors import InputError
from aieco.records import Role, SourceLocation
from aieco.sources.clean import clean_text, numeric_row, split_at_sentence
from aieco.sources.delimited import read_text
from aieco.sources.parsed import ParsedFile

HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
SECTION_SEP = " › "
_BLOCK = {
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "table",
    "tr",
    "section",
    "article",
    "blockquote",
    "br",
    "pre",
    "header",
    "footer",
    "main",
    "aside",
    "nav",
    "dd",
    "dt",
    "figure",
    "figcaption",
}
_SKIP = {"script", "style", "noscript", "template", "head"}


class _HtmlToMarkdown(HTMLParser):
    """HTML as Markdown-like text: headings as ``#`` lines, blocks separated by blank lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0
        self.heading: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skip += 1
        elif re.fullmatch(r"h[1-6]", tag):
            self.heading = int(tag[1])
            self.out.append("\n\n" + "#" * self.heading + " ")
        elif tag in _BLOCK:
            self.out.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(0, self.skip - 1)
        elif re.fullmatch(r"h[1-6]", tag):
            self.heading = None
            self.out.append("\n\n")
        elif tag in _BLOCK:
            self.out.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        # Inside a block, source line breaks are spaces; a heading stays on one line.
        self.out.append(re.sub(r"\s+", " ", data))


def html_to_text(html: str) -> str:
    """The text of an HTML document with Markdown headings (for :func:`parse_text`)."""
    p = _HtmlToMarkdown()
    try:
        p.feed(html)
        p.close()
    except AssertionError as exc:  # html.parser signals unrecoverable markup this way
        raise InputError(f"HTML could not be parsed: {exc}", fix="check the file is HTML") from exc
    text = "".join(p.out)
    return "\n\n".join(ln.strip() for ln in re.split(r"\n\s*\n", text) if ln.strip())


def parse_text(
    path: Path,
    source_id: str,
    *,
    parser_version: str,
    max_passage_chars: int,
    encoding: str | None = None,
    role: Role | None = None,
) -> ParsedFile:
    """Paragraphs of a text file as ``passage`` locations (page 1); long ones split at line ends.

    Markdown (``.md``) and HTML (``.html``/``.htm``) passages carry their heading path and paragraph
    number (``section``, ``paragraph``); a heading line is a passage of its own section. A long
    paragraph is split after its last line that ends a sentence (``split_at_sentence``); a
    paragraph that is a row of numbers is not a passage.
    """
    raw = clean_text(read_text(path, encoding)).text  # no control or non-character code point is stored
    suffix = path.suffix.lower()
    structured = suffix in (".md", ".html", ".htm")
    if suffix in (".html", ".htm"):
        raw = html_to_text(raw)
    out = ParsedFile(pages=1)
    ordinal = 0
    headings: list[tuple[int, str]] = []
    paragraph = 0

    def emit(lines: list[str], heading: bool) -> None:
        nonlocal ordinal, paragraph
        if not lines:
            return
        section = SECTION_SEP.join(h for _, h in headings) or None if structured else None
        if structured and not heading:
            paragraph += 1
        out.locations.append(
            SourceLocation.create(
                source_id=source_id,
                kind="passage",
                page=1,
                ordinal=ordinal,
                text="\n".join(lines),
                parser_version=parser_version,
                role_override=role,
                section=section,
                paragraph=(paragraph if not heading else 0) if structured else None,
            )
        )
        ordinal += 1

    for para in re.split(r"\n\s*\n", raw):
        lines = [ln.rstrip() for ln in para.strip("\n").splitlines() if ln.strip()]
        if lines and numeric_row(" ".join(lines)):
            continue
        chunk: list[str] = []
        for line in lines + [None]:
            h = HEADING.match(line.strip()) if (structured and line is not None) else None
            long = chunk and line is not None and sum(len(c) + 1 for c in chunk) + len(line) > max_passage_chars
            if line is None or h or long:
                carried: list[str] = []
                if long and not h:  # split after the last line that ends a sentence (not mid-phrase)
                    chunk, carried = split_at_sentence(chunk, line, max_passage_chars)
                emit(chunk, heading=False)
                chunk = carried
            if h:
                level, title = len(h.group(1)), h.group(2).strip()
                headings = [x for x in headings if x[0] < level] + [(level, title)]
                paragraph = 0
                emit([line], heading=True)
                continue
            if line is not None:
                chunk.append(line)
    return out
