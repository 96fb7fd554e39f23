"""The numeric contract: no analytical quantity outside ``{{NUM:…}}`` tokens.

One function, :func:`check_numeric_contract`, is applied when a report is generated
(against the registered claim ids) and again after execution (against the passed claims),
so both checks reject the same forms (appendix "Report and Model-Call Tests").

Token grammar (exact; anything else with a brace is malformed)::

    {{NUM:<claim id>}}   claim id = clm.<risk>.<variable>.<period tag>.<8 hex>
    {{DATE:<when>}}      when = YYYY | YYYY-YYYY | YYYYQn | YYYYHn
                                | cutoff | horizon | horizon_start | horizon_end

Rules (``Violation.rule``): ``digit``, ``number_word``, ``fraction_word``, ``percent``,
``basis_points``, ``currency``, ``hidden_character``, ``malformed_token``, ``year_in_num``,
``relation_in_num``, ``unknown_claim``, ``repeated_token``, ``bad_date``, and, for
structured sentences, ``claim_list_mismatch``, ``num_in_qualitative``, ``num_in_temporal``,
``missing_num``.
Names listed in ``settings.report.named_terms`` (CET1, G20 …) are not quantities.
The text is checked character by character on Unicode categories (any decimal digit,
full-width or not; any currency symbol) and on its NFKC form with format characters
(zero-width spaces…) removed, so spacing or encoding tricks do not hide a quantity.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence

from pydantic import BaseModel, ConfigDict, Field

from aieco.config import get_settings
from aieco.records import SentenceKind
from aieco.reporting.schema import SentenceDraft

TOKEN_RE = re.compile(r"\{\{(NUM|DATE):([^{}\s]+)\}\}")
CLAIM_ID_RE = re.compile(
    r"clm\.(?P<risk>[a-z][a-z0-9_]*)\.(?P<variable>[a-z][a-z0-9_]*)"
    r"\.(?P<tag>[yb]\d{1,2}(?:_[yb]\d{1,2}|[qh]\d|m\d{1,2})?)\.(?P<hex>[0-9a-f]{8})\Z"
)
YEAR_RE = re.compile(r"(?<!\d)(1[89]\d\d|2[01]\d\d)(?!\d)")
RELATION_ID_RE = re.compile(r"rel_[0-9a-f]", re.I)
DATE_NAMES = ("cutoff", "horizon", "horizon_start", "horizon_end")
DATE_RE = re.compile(r"(?P<y>(?:19|20)\d\d)(?:-(?P<y2>(?:19|20)\d\d)|Q[1-4]|H[12])?\Z")

_UNITS = "zero|one|two|three|four|five|six|seven|eight|nine"
_TEENS = "ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
_TENS = "twenty|thirty|forty|fourty|fifty|sixty|seventy|eighty|ninety"
_SCALES = "hundreds?|thousands?|millions?|billions?|trillions?|dozens?|bn|mn|tn|trn"
_FRACTIONS = "halves|thirds|quarters|fifths|sixths|sevenths|eighths|ninths|tenths|hundredths|thousandths"
WORD_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("percent", re.compile(r"\bper\s*cent(?:age)?\b|\bpercent(?:age)?s?\b(?!ile)|\bpct\b|\bp\.\s?p\.|\bpp\b")),
    ("basis_points", re.compile(r"\bbasis[\s-]*points?\b|\bbps?\b|\bbpts?\b|\bb\.\s?p\.")),
    ("fraction_word", re.compile(
        rf"\b(?:a|one|two|three|four|five)[\s-]+(?:half|third|quarter|fifth|tenth)s?\s+of\b"
        rf"|\b(?:two|three|four)[\s-]+(?:{_FRACTIONS})\b"
        rf"|(?<!first )(?<!second )(?<!latter )(?<!former )\bhalf\s+of\b|\bby\s+half\b"
        rf"|\bby\s+(?:a|one)[\s-]+(?:third|quarter|fifth|tenth)\b"
        rf"|\bhalv(?:e|ed|es|ing)\b|\b(?:doubl|tripl|quadrupl)(?:e|ed|es|ing)\b|\btwofold\b|\bthreefold\b")),
    ("number_word", re.compile(
        rf"\b(?:{_TENS})(?:[\s-]?(?:{_UNITS}))?|\b(?:{_TEENS}|{_SCALES})\b"
        rf"|\b(?:two|three|four|five|six|seven|eight|nine|zero)\b"
        rf"|\bone(?=[\s-]+(?:{_SCALES}|percent|per\s*cent|basis|point|half|third|quarter|fifth|tenth)\b)")),
    ("currency", re.compile(
        r"\b(?:eur|usd|gbp|jpy|chf|cny|sek|dkk|nok|pln)\b(?=\s*(?:[0-9]|bn\b|mn\b|billion|million|thousand|trillion|"
        rf"{_TENS}|{_TEENS}|{_UNITS}))")),
)
PERCENT_SIGNS = "%\u2030\u2031\u066a\ufe6a\uff05"
SEPARATORS = " .,'\u00a0\u2009\u202f\u200b\u200c\u200d\u2060\ufeff\u066b\u066c"


class Violation(BaseModel):
    """One breach of the contract, with where it is and the offending text."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str
    sentence: int | None = Field(description="Index of the sentence (None = the title).")
    offset: int = Field(description="Character offset inside that sentence's template.")
    text: str = Field(description="The offending text as written.")
    message: str = ""
    text_offset: int | None = Field(None, description="Offset in the whole text (plain-text input only).")

    def __str__(self) -> str:
        where = "title" if self.sentence is None else f"sentence {self.sentence}"
        at = f"char {self.offset}" + (f" (text char {self.text_offset})" if self.text_offset is not None else "")
        return f"{where}, {at}: {self.rule}: {self.text!r} {self.message}".rstrip()


def split_sentences(text: str) -> list[tuple[int, str]]:
    """Sentences of a plain text with their start offsets (tokens never contain whitespace)."""
    out, start = [], 0
    for m in re.finditer(r"(?<=[.!?])\s+(?=\S)|\n\s*\n", text):
        if text[start:m.start()].strip():
            out.append((start, text[start:m.start()]))
        start = m.end()
    if text[start:].strip():
        out.append((start, text[start:]))
    return out


def check_numeric_contract(
    report: Sequence[SentenceDraft] | str,
    *,
    known_claims: Collection[str] | None = None,
    title: str | None = None,
    allow_repeated_tokens: bool = False,
) -> list[Violation]:
    """Every violation of the numeric contract in a report (empty list = accepted).

    ``report`` is a list of structured sentences or a plain text (split into sentences).
    ``known_claims``: the claim ids a NUM token may name (registered ids at generation,
    passed claims after execution); None skips that check.
    """
    starts: list[int] = []
    if isinstance(report, str):
        pieces = split_sentences(report)
        starts = [start for start, _ in pieces]
        sentences = [(None, t) for _, t in pieces]
    else:
        sentences = [(s, s.template) for s in report]
    found: list[Violation] = []
    seen: dict[str, int] = {}
    if title is not None:
        found += _check_text(title, None, known_claims, seen, allow_repeated=True)
    for index, (draft, text) in enumerate(sentences):
        found += _check_text(text, index, known_claims, seen, allow_repeated_tokens)
        if draft is not None:
            found += _check_structure(draft, index)
    if starts:
        found = [v.model_copy(update={"text_offset": starts[v.sentence] + v.offset}) if v.sentence is not None else v
                 for v in found]
    return sorted(found, key=lambda v: (-1 if v.sentence is None else v.sentence, v.offset))


def _check_text(text: str, index: int | None, known: Collection[str] | None, seen: dict[str, int],
                allow_repeated: bool) -> list[Violation]:
    found: list[Violation] = []

    def add(rule: str, start: int, end: int, message: str = "") -> None:
        found.append(Violation(rule=rule, sentence=index, offset=start, text=text[start:end], message=message))

    masked = list(text)
    for m in TOKEN_RE.finditer(text):
        masked[m.start():m.end()] = " " * (m.end() - m.start())
        kind, value = m.groups()
        if kind == "DATE":
            why = date_token_problem(value)
            if why:
                add("bad_date", m.start(), m.end(), why)
            continue
        rule, why = claim_token_problem(value, known)
        if rule:
            add(rule, m.start(), m.end(), why)
            continue
        if value in seen and not allow_repeated:
            add("repeated_token", m.start(), m.end(), "each claim is rendered once per report")
        seen.setdefault(value, index if index is not None else -1)
    rest = _mask_named_terms("".join(masked))
    for m in re.finditer(r"[{}]+", rest):
        add("malformed_token", m.start(), m.end(), "a brace outside a valid {{NUM:…}} or {{DATE:…}} token")
    _check_characters(text, rest, add)
    return found


def _mask_named_terms(text: str) -> str:
    """Names such as CET1 or G20 carry digits that are not quantities (settings.report.named_terms)."""
    terms = get_settings().report.named_terms
    if not terms:
        return text
    pattern = r"(?<![\w-])(?:" + "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)) + r")(?![\w-])"
    return re.sub(pattern, lambda m: "N" * len(m.group(0)), text)


def _check_characters(text: str, rest: str, add) -> None:
    # Digits of any script (Unicode categories Nd/No/Nl), grouped with the spaces, points
    # and commas between them, so "1 0 %" or "3,5" is one finding.
    i = 0
    while i < len(rest):
        if _is_numeric(rest[i]):
            j = end = i + 1
            while j < len(rest) and (_is_numeric(rest[j]) or rest[j] in SEPARATORS):
                if _is_numeric(rest[j]):
                    end = j + 1
                j += 1
            add("digit", i, end, "numbers belong in {{NUM:…}} tokens")
            i = end
        else:
            i += 1
    for i, c in enumerate(rest):
        cat = unicodedata.category(c)
        if cat == "Sc":
            add("currency", i, i + 1, "currency amounts must come from a model output")
        elif c in PERCENT_SIGNS:
            add("percent", i, i + 1, "units are rendered from the claim, never written")
        elif cat == "Cf":
            add("hidden_character", i, i + 1, "invisible format character")
    norm, where = normalise(rest)
    for rule, pattern in WORD_RULES:
        for m in pattern.finditer(norm):
            add(rule, where[m.start()], where[m.end() - 1] + 1, "quantities in words are analytical numbers too")


def _is_numeric(c: str) -> bool:
    return unicodedata.category(c) in ("Nd", "No", "Nl")


def normalise(text: str) -> tuple[str, list[int]]:
    """NFKC, lower case, format characters removed; with each output char's source offset."""
    chars, where = [], []
    for i, c in enumerate(text):
        if unicodedata.category(c) == "Cf":
            continue
        for n in unicodedata.normalize("NFKC", c).lower():
            chars.append(n)
            where.append(i)
    return "".join(chars), where


def claim_token_problem(value: str, known: Collection[str] | None) -> tuple[str, str]:
    """(rule, why) for a NUM token's claim id, or ("", "") when it is acceptable."""
    if RELATION_ID_RE.search(value):
        return "relation_in_num", "a relation id is a citation, not a number"
    m = CLAIM_ID_RE.match(value)
    head = value[: m.start("hex")] if m else value
    if YEAR_RE.search(head):
        return "year_in_num", "calendar years go in {{DATE:…}} tokens"
    if not m:
        return "malformed_token", "not a claim id (clm.<risk>.<variable>.<period>.<hex>)"
    if known is not None and value not in known:
        return "unknown_claim", "no registered (or passed) claim has this id"
    return "", ""


def date_token_problem(value: str) -> str:
    """Why a DATE token's value is not an allowed temporal form ('' when it is)."""
    if value in DATE_NAMES:
        return ""
    m = DATE_RE.match(value)
    if not m:
        return "allowed: YYYY, YYYY-YYYY, YYYYQn, YYYYHn, cutoff, horizon, horizon_start, horizon_end"
    if m.group("y2") and int(m.group("y2")) < int(m.group("y")):
        return "a year range must not end before it starts"
    return ""


def _check_structure(draft: SentenceDraft, index: int) -> list[Violation]:
    found = []
    ids = [v for k, v in TOKEN_RE.findall(draft.template) if k == "NUM"]
    if sorted(set(ids)) != sorted(set(draft.claim_ids)):
        found.append(Violation(rule="claim_list_mismatch", sentence=index, offset=0, text=draft.template,
                               message=f"tokens name {sorted(set(ids))}, claim_ids lists "
                                       f"{sorted(set(draft.claim_ids))}"))
    if draft.kind is not SentenceKind.numerical and ids:
        found.append(Violation(rule=f"num_in_{draft.kind.value}", sentence=index, offset=draft.template.find("{{NUM"),
                               text=draft.template, message=f"a {draft.kind.value} sentence carries no model output"))
    if draft.kind is SentenceKind.numerical and not ids:
        found.append(Violation(rule="missing_num", sentence=index, offset=0, text=draft.template,
                               message="a numerical sentence needs at least one {{NUM:…}} token"))
    return found
