"""One quote check for the whole workbench: does a quoted passage occur in its location text?

Used by extraction validation (a relation is written only when its quote occurs) and again at
the report stage (a cited relation's quote must still occur in its location). Text from PDFs
keeps line breaks, hyphenates words across them ("tighten-\\ning") and uses ligatures ("ﬁ");
a quote taken from the sentence splitter has its whitespace collapsed. Matching therefore
works on a normal form — NFKC (ligatures, compatibility forms), format characters and soft
hyphens removed, typographic quotes and dashes unified, a hyphen between two letters (a line
break's or a compound's) removed, every whitespace run one space — while :func:`locate_quote` returns the exact
span of the original text, so the citation shown is what the document says.
"""

from __future__ import annotations

import re
import unicodedata

_SUBSTITUTE = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u2033": '"',
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
}
#: A hyphen between two letters, with or without whitespace after it, is dropped: a PDF line
#: break turns "increase" into "in-\ncrease" and keeps "non-\nperforming" ambiguous, so both
#: sides are compared without such hyphens ("non-performing" and "nonperforming" match).
_BREAK_HYPHEN = re.compile(r"(?<=[^\W\d_])-\s*(?=[^\W\d_])")


def normal_form(text: str) -> tuple[str, list[int]]:
    """The matching form of ``text`` and, for each of its characters, the offset in ``text``."""
    chars: list[str] = []
    where: list[int] = []
    for i, c in enumerate(text):
        if c == "\u00ad" or unicodedata.category(c) == "Cf":
            continue
        for n in unicodedata.normalize("NFKC", _SUBSTITUTE.get(c, c)):
            n = _SUBSTITUTE.get(n, n)
            if n.isspace():
                if chars and chars[-1] == " ":
                    continue
                n = " "
            chars.append(n)
            where.append(i)
    s = "".join(chars)
    # Remove line-break hyphenation, keeping the offset map aligned.
    keep = [True] * len(s)
    for m in _BREAK_HYPHEN.finditer(s):
        for k in range(m.start(), m.end()):
            keep[k] = False
    out = "".join(c for c, k in zip(s, keep, strict=True) if k)
    where = [w for w, k in zip(where, keep, strict=True) if k]
    # Trim the ends.
    lead = len(out) - len(out.lstrip(" "))
    out2 = out.strip(" ")
    return out2, where[lead : lead + len(out2)]


#: A quote may start or end inside a word hyphenated across a line break ("an in-" of "an
#: in-\ncrease"): a hyphen at either end of the quote, on a letter's side, is not matched.
_END_HYPHEN = re.compile(r"^-\s*(?=[^\W\d_])|(?<=[^\W\d_])-$")


def quote_form(quote: str) -> str:
    """The form of ``quote`` that :func:`locate_quote` looks for ("" for a quote without a letter or digit)."""
    q, _ = normal_form(quote)
    if not any(c.isalnum() for c in q):
        return ""
    return _END_HYPHEN.sub("", q)


def locate_quote(quote: str, text: str) -> tuple[int, int] | None:
    """The exact span ``(start, end)`` of ``text`` that ``quote`` quotes, or None.

    A quote without a letter or digit quotes nothing and is never found.
    """
    q = quote_form(quote)
    if not q:
        return None
    t, where = normal_form(text)
    at = t.find(q)
    if at < 0:
        return None
    return where[at], where[at + len(q) - 1] + 1


def quote_occurs(quote: str, text: str) -> bool:
    """True when ``quote`` occurs in ``text`` up to whitespace, hyphenation, ligatures and typography."""
    return locate_quote(quote, text) is not None
