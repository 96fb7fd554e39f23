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
``relation_in_num``, ``unknown_claim``, ``repeated_token``, ``bad_date``, ``multiplicative``
("doubled", "tenfold", "cut in half"), ``vague_count`` ("a couple of points", "a full point"),
``roman_numeral`` ("IV points"), ``date_as_amount`` ("fall by {{DATE:2020}} euros"),
``sign_word`` ("minus {{NUM:…}}"), and, for
structured sentences, ``claim_list_mismatch``, ``num_in_qualitative``, ``num_in_temporal``,
``missing_num``.
Number words are refused in English and, for 0–20, tens, hundred, thousand and per cent, in
German, French, Italian, Spanish, Dutch and Portuguese; numerals that are also ordinary words
("due", "once", "one", "elf") only beside an amount or unit word, so "one of the channels",
"due to", "a half-year", "the first quarter" and "second-round effects" stay prose; "by a
quarter" is a span of time after a verb that shifts in time ("delayed by a quarter", "lags
output by one quarter") and a fraction otherwise ("fell by a quarter", "by a quarter of a point").
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
_ORDINAL_FRACTIONS = "third|quarter|fifth|sixth|seventh|eighth|ninth|tenth|twentieth|hundredth|thousandth"
#: Numerals 0–20, hundred and thousand of German, French, Italian, Spanish, Dutch and Portuguese
#: that are not also ordinary English (or other-language) words; refused wherever they stand.
_EU_NUMERALS = (
    # German (compounds such as "dreiundzwanzig" are caught by their tens or scale part)
    "eins|zwei|drei|vier|f(?:ü|ue)nf|sechs|sieben|acht|neun|zehn|zw(?:ö|oe)lf|dreizehn|vierzehn|f(?:ü|ue)nfzehn|"
    "sechzehn|siebzehn|achtzehn|neunzehn|\\w*(?:zwanzig|drei(?:ß|ss)ig|vierzig|f(?:ü|ue)nfzig|sechzig|siebzig|achtzig|"
    "neunzig|hundert|tausend)\\w*|millionen|milliarden?|"
    # French
    "z(?:é|e)ro|deux|trois|quatre|cinq|huit|neuf|dix|douze|treize|quatorze|dix-sept|dix-huit|dix-neuf|vingts?|"
    "trente|quarante|cinquante|soixante|milles?|milliards?|"
    # Italian
    "tre|quattro|cinque|sette|nove|dieci|undici|dodici|tredici|quattordici|quindici|sedici|diciassette|"
    "diciotto|diciannove|venti|trenta|quaranta|cinquanta|cento|milioni|miliardi|"
    # Spanish
    "cero|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|doce|trece|catorce|diecis(?:é|e)is|diecisiete|"
    "dieciocho|diecinueve|veinte|treinta|cuarenta|cincuenta|cien|cientos?|millones|"
    # Dutch
    "twee|vijf|zes|zeven|negen|tien|twaalf|dertien|veertien|vijftien|zestien|zeventien|achttien|"
    "negentien|twintig|dertig|veertig|vijftig|honderd|duizend|miljoen|miljard|"
    # Portuguese
    "dois|duas|tr(?:ê|e)s|quatro|sete|oito|dez|treze|dezesseis|dezasseis|dezessete|dezassete|dezoito|"
    "dezenove|dezanove|vinte|trinta|quarenta|cem|milh(?:ão|ao|ões|oes)|bilh(?:ão|ao|ões|oes)|"
    # English words for zero and number compounds that are never prose
    "nought|naught|nil|umpteen"
)
#: Numerals that are also ordinary words ("due to", "once", "seize", "elf", "null hypothesis",
#: "uno", "mil"…): refused only beside an amount or unit word.
_AMBIGUOUS_NUMERALS = (
    "one|un|une|uno|una|um|uma|ein|eine|einen|einem|einer|een|null|nul|due|sei|otto|dos|once|seize|"
    "elf|elva|sept|six|cent|mil|onze|quinze|seize|seis|nove"
)
#: Words that make a neighbouring word an amount: units, scales and per-cent forms of the
#: main EU languages.
_AMOUNT_WORDS = (
    r"(?:percentage\s+|basis\s+|index\s+|full\s+|whole\s+)?points?|notch(?:es)?|pp|bps?|"
    r"per\s*cent\w*|percent\w*|prozent\w*|pour\s*cent\w*|pourcentage\w*|per\s*cento|percentual\w*|"
    r"por\s*ciento|porcentaje\w*|procent\w*|por\s*cento|punt[oi]s?|punkte?|pontos?|percentuali|"
    r"euros?|eur|usd|dollars?|pounds?|yen|francs?|units?|times|fold|jobs|"
    r"hundreds?|thousands?|millions?|billions?|trillions?|bn|mn|tn|"
    r"hundert|tausend|millionen|milliarden?|milles?|milliards?|cento|mila|milioni|miliardi|cien|ciento|"
    r"mil|millones|honderd|duizend|miljoen|miljard|cem|milh\w*|bilh\w*"
)
_COMPARATIVES = (
    r"lower|higher|less|more|smaller|larger|bigger|greater|above|below|down|up|weaker|stronger|"
    r"cheaper|dearer|fewer"
)
#: Words that make what follows an approximate amount ("roughly a tenth", "some two points").
_APPROX = (
    r"by|roughly|about|around|nearly|almost|approximately|some|fully|just|barely|close\s+to|"
    r"up\s+to|as\s+much\s+as|more\s+than|less\s+than|at\s+least|at\s+most|minus|plus|times"
)
WORD_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "percent",
        re.compile(
            r"\bper\s*cent(?:age)?\b|\bpercent(?:age)?s?\b(?!ile)|\bpct\b|\bp\.\s?p\.|\bpp\b"
            r"|\bprozent\w*|\bpour\s*cent\b|\bpourcentage\w*|\bper\s*cento\b|\bpercento\b|\bpercentual\w*"
            r"|\bpor\s*cien?to\b|\bporcentaje\w*|\bprocent\w*|\bpor\s*cento\b|\bpercentuali\b"
        ),
    ),
    ("basis_points", re.compile(r"\bbasis[\s-]*points?\b|\bbps?\b|\bbpts?\b|\bb\.\s?p\.|\bbasispunkte?\b")),
    (
        "fraction_word",
        re.compile(
            rf"\b(?:a|one|two|three|four|five)[\s-]+(?:half|{_ORDINAL_FRACTIONS})s?\s+of\b"
            rf"|\b(?:two|three|four|five|six|seven|eight|nine)[\s-]+(?:{_FRACTIONS})\b"
            rf"|(?<!first )(?<!second )(?<!latter )(?<!former )(?<!last )(?<!next )\bhalf\s+of\b"
            rf"|\b(?:by|in|into)\s+half\b|(?<!first )(?<!second )(?<!latter )(?<!former )(?<!last )(?<!next )"
            rf"\bhalf\s+(?:as|the|a|an)\b|\band\s+a\s+half\b"
            rf"|\bhalf[\s-]+(?:(?:a|one)\s+)?(?:{_AMOUNT_WORDS})\b"
            rf"|\b(?:{_APPROX})\s+(?:a\s+|one\s+)?half\b(?![\s-]+(?:year|yearly|years|of\s+the\s+(?:year|horizon|decade)))"
            rf"|(?<!within )(?<!in )(?<!for )(?<!per )(?<!after )(?<!over )(?<!than )(?<!each )"
            rf"\b(?:a|one)[\s-]+(?:{_ORDINAL_FRACTIONS})s?\b(?=\s+(?:{_COMPARATIVES})\b|\s*(?:[.,;:!?)]|$))"
            rf"|\b(?:{_APPROX})\s+(?:a|one)[\s-]+(?:{_ORDINAL_FRACTIONS})s?\b"
            rf"(?!\s+(?:later|earlier|ahead|after|before|of\s+the\s+year)\b)"
        ),
    ),
    (
        "multiplicative",
        re.compile(
            r"\bhalv(?:e|ed|es|ing)\b|\b(?:doubl|tripl|trebl|quadrupl|quintupl|sextupl|septupl|octupl|decupl)"
            r"(?:e|ed|es|ing|y)\b|\b(?:(?:a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
            r"\w*teen|twenty|thirty|forty|fifty|\w*ty|hundred|thousand|million|several|many|multi)[\s-]?fold(?:s)?)\b"
            r"|\btwice\b|\bthrice\b"
            r"|\bcut\s+in\s+(?:two|three|half)\b|\b(?:single|double|triple)[\s-]+digits?\b"
            r"|\b(?:verdoppel|verdreifach|halbier)\w*|\bdoppelt\w*|\bdoubl(?:é|e)\w*|\b(?:raddoppi|dimezz|duplic|"
            r"triplic|verdubbel|halver)\w*"
        ),
    ),
    (
        "vague_count",
        re.compile(
            rf"\b(?:a\s+couple\s+of|couple\s+of|a\s+few|few|several|many|a\s+full|full|a\s+whole|whole|a\s+single|"
            rf"single|a\s+handful\s+of|handful\s+of|a\s+dozen|dozens\s+of|a\s+score\s+of|scores\s+of|"
            rf"some|a\s+good|no\s+more\s+than\s+a)\s+(?:percentage\s+|basis\s+|index\s+)?(?:points?|notch(?:es)?|pp|bps?)\b"
            rf"|\b(?:{_APPROX}|of)\s+(?:a|one)\s+(?:percentage\s+|basis\s+|index\s+)?(?:point|notch)\b"
            rf"(?!\s+(?:in\s+time|of\s+view|at\s+which|where|when)\b)"
        ),
    ),
    (
        "number_word",
        re.compile(
            rf"\b(?:{_TENS})(?:[\s-]?(?:{_UNITS}))?|\b(?:{_TEENS}|{_SCALES})\b"
            rf"|\b(?:two|three|four|five|six|seven|eight|nine|zero)\b"
            rf"|\b(?:{_EU_NUMERALS})\b"
            rf"|\b(?:{_AMBIGUOUS_NUMERALS})(?=[\s-]+(?:{_AMOUNT_WORDS}|half|{_ORDINAL_FRACTIONS})\b)"
            rf"|(?<=\bpoint )(?:one|oh|o)\b|(?<=\bminus )(?:one|a|an|un|une|uno|una|ein|eine|een|um|uma)\b"
            rf"|(?<=\bplus )(?:one|un|une|uno|una|ein|eine|een|um|uma)\b|\bone\s+(?:point|and\s+a)\b"
        ),
    ),
    (
        "currency",
        re.compile(
            r"\b(?:eur|usd|gbp|jpy|chf|cny|sek|dkk|nok|pln)\b(?=\s*(?:[0-9]|bn\b|mn\b|billion|million|thousand|trillion|"
            rf"{_TENS}|{_TEENS}|{_UNITS}))"
        ),
    ),
)
#: A roman numeral standing as an amount ("IV points", "by XII"); case-sensitive on the text.
_ROMAN = r"(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
ROMAN_RE = re.compile(
    rf"(?<![\w-])(?P<a>{_ROMAN})(?![\w-])(?=\s+(?i:{_AMOUNT_WORDS}|{_COMPARATIVES})\b)"
    rf"|\b(?i:by|minus|plus|roughly|about|around|nearly|almost|approximately)\s+(?P<b>{_ROMAN})(?![\w-])"
)
#: A DATE token read as an amount: followed by a unit or amount word, or preceded by one.
DATE_AMOUNT_AFTER_RE = re.compile(rf"\s*(?:[%\u2030\uff05]|(?i:{_AMOUNT_WORDS})\b)")
#: A DATE token read as a magnitude by its neighbours: a comparative after it ("GDP is {{DATE:2025}} lower
#: than the baseline"), or a change verb with no temporal preposition before it ("drops {{DATE:2025}} in",
#: "contracts {{DATE:2026}}") or a verb of reaching a level ("widens to", "amounts to", "reaches").
DATE_COMPARATIVE_AFTER_RE = re.compile(
    r"\s+(?i:(?:lower|higher|below|above|under|less|more|smaller|larger|bigger|weaker|stronger|greater|"
    r"fewer|up|down|short|worse|better|beneath|beyond)\b)"
)
#: A temporal preposition before the token makes it a date whatever follows ("peaks in {{DATE:2026}} above").
DATE_TEMPORAL_BEFORE_RE = re.compile(
    r"(?i:\b(?:in|by|after|before|from|to|until|till|since|during|of|over|through|throughout|between|and|at|"
    r"for|end-|mid-|early|late))\s*\Z"
)
DATE_MAGNITUDE_BEFORE_RE = re.compile(
    r"(?i:\b(?:falls?|fell|rises?|rose|drops?|dropped|declines?|declined|contracts?|contracted|expands?|expanded|"
    r"grows?|grew|shrinks?|shrank|gains?|gained|loses?|lost|climbs?|climbed|slides?|slid|plunges?|plunged|"
    r"tumbles?|tumbled|jumps?|jumped|soars?|soared|sinks?|sank|(?:widens?|widened|narrows?|narrowed|amounts?|"
    r"amounted|comes?|came|adds?|added|rises?|falls?|drops?|climbs?|increases?|decreases?)\s+(?:up\s+)?to|"
    r"reach(?:es|ed)?|totals?|totalled|totaled|equals?|equalled|stands?\s+at|stood\s+at|"
    r"(?:a|an|the)\s+(?:gap|fall|rise|drop|decline|loss|gain|shortfall|deviation|change|contraction)\s+of))\s*\Z"
)
#: "minus {{NUM:…}}": the rendered value carries its own sign.
SIGN_BEFORE_RE = re.compile(r"(?i:\b(?:minus|plus|moins|meno|menos|min)\s*|[-\u2212+\u00b1]\s*)\Z")
DATE_AMOUNT_BEFORE_RE = re.compile(
    r"(?i:\b(?:minus|plus|eur|usd|euros?|dollars?|times|roughly|about|around|nearly|almost|approximately|some|"
    r"(?:fall|falls|fell|rise|rises|rose|drop|drops|dropped|increase|increases|increased|decrease|decreases|"
    r"decreased|decline|declines|declined|grow|grows|grew|cut|cuts|shrink|shrinks|shrank|climb|climbs|climbed|"
    r"contract|contracts|contracted|expand|expands|expanded|gain|gains|gained|lose|loses|lost)\s+by)|[$€£¥])\s*\Z"
)
#: "delayed by a quarter", "lags output by one quarter", "brought forward by a quarter": after a
#: verb that shifts something in time (with at most four words between it and "by", no
#: punctuation), "by a quarter" is a span of time, not a fraction. "by a quarter of a point"
#: and a fraction after any other verb ("fell by a quarter") stay refused.
TEMPORAL_SHIFT_BEFORE_RE = re.compile(
    r"\b(?:delay(?:s|ed|ing)?|postpon(?:e|es|ed|ing)|defer(?:s|red|ring)?|lag(?:s|ged|ging)?|"
    r"trail(?:s|ed|ing)?|lead(?:s|ing)?|led|preced(?:e|es|ed|ing)|follow(?:s|ed|ing)?|shift(?:s|ed|ing)?|"
    r"slip(?:s|ped|ping)?|push(?:es|ed|ing)?\s+back|pushed\s+out|brought\s+forward|"
    r"bring(?:s|ing)?\s+forward|mov(?:e|es|ed|ing)\s+(?:forward|back|out)|set\s+back|prolong(?:s|ed|ing)?|"
    r"earlier|later|sooner)(?:\s+[a-z][\w-]*){0,4}\s+\Z"
)
TEMPORAL_QUARTER_RE = re.compile(r"\bby\s+(?:a|one)[\s-]+quarter\b")
#: "half a year", "by half a year", "half a decade": a span of time wherever it stands
#: ("half a year's growth" is an amount and stays refused).
HALF_A_YEAR_RE = re.compile(rf"(?:\b(?:{_APPROX})\s+)?\bhalf\s+an?\s+(?:year|decade)\b(?!\s*(?:'|’|of\b))")
NOT_TEMPORAL_AFTER_RE = re.compile(rf"\s*(?:of\b|-|(?:{_COMPARATIVES}|{_AMOUNT_WORDS})\b)")
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
        if text[start : m.start()].strip():
            out.append((start, text[start : m.start()]))
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
        found = [
            v.model_copy(update={"text_offset": starts[v.sentence] + v.offset}) if v.sentence is not None else v
            for v in found
        ]
    return sorted(found, key=lambda v: (-1 if v.sentence is None else v.sentence, v.offset))


def _check_text(
    text: str, index: int | None, known: Collection[str] | None, seen: dict[str, int], allow_repeated: bool
) -> list[Violation]:
    found: list[Violation] = []

    def add(rule: str, start: int, end: int, message: str = "") -> None:
        found.append(Violation(rule=rule, sentence=index, offset=start, text=text[start:end], message=message))

    masked = list(text)
    for m in TOKEN_RE.finditer(text):
        masked[m.start() : m.end()] = " " * (m.end() - m.start())
        kind, value = m.groups()
        if kind == "DATE":
            why = date_token_problem(value)
            if why:
                add("bad_date", m.start(), m.end(), why)
            elif (
                DATE_AMOUNT_AFTER_RE.match(text, m.end())
                or DATE_AMOUNT_BEFORE_RE.search(text[: m.start()])
                or (
                    DATE_COMPARATIVE_AFTER_RE.match(text, m.end())
                    and not DATE_TEMPORAL_BEFORE_RE.search(text[: m.start()])
                )
                or DATE_MAGNITUDE_BEFORE_RE.search(text[: m.start()])
            ):
                add(
                    "date_as_amount",
                    m.start(),
                    m.end(),
                    "a DATE token beside an amount or unit word is a number written as a date",
                )
            continue
        if SIGN_BEFORE_RE.search(text[: m.start()]):
            add("sign_word", m.start(), m.end(), "the rendered value carries its own sign")
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
    spans = _temporal_quarters(norm)
    for rule, pattern in WORD_RULES:
        for m in pattern.finditer(norm):
            if rule in ("fraction_word", "number_word") and any(a <= m.start() and m.end() <= b for a, b in spans):
                continue
            if m.end() > m.start():
                add(rule, where[m.start()], where[m.end() - 1] + 1, "quantities in words are analytical numbers too")
    for m in ROMAN_RE.finditer(rest):
        group = "a" if m.group("a") else "b"
        if m.group(group):
            add("roman_numeral", m.start(group), m.end(group), "a roman numeral used as an amount")


def _temporal_quarters(norm: str) -> list[tuple[int, int]]:
    """Spans read as time: "by a quarter" / "by one quarter" after a verb of shifting in time
    (``TEMPORAL_SHIFT_BEFORE_RE``) and not followed by "of", an amount or a comparative; and
    "half a year" / "half a decade" (``HALF_A_YEAR_RE``)."""
    return [
        (m.start(), m.end())
        for m in TEMPORAL_QUARTER_RE.finditer(norm)
        if not NOT_TEMPORAL_AFTER_RE.match(norm, m.end())
        and TEMPORAL_SHIFT_BEFORE_RE.search(norm[max(0, m.start() - 80) : m.start()])
    ] + [(m.start(), m.end()) for m in HALF_A_YEAR_RE.finditer(norm)]


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
        found.append(
            Violation(
                rule="claim_list_mismatch",
                sentence=index,
                offset=0,
                text=draft.template,
                message=f"tokens name {sorted(set(ids))}, claim_ids lists {sorted(set(draft.claim_ids))}",
            )
        )
    if draft.kind is not SentenceKind.numerical and ids:
        found.append(
            Violation(
                rule=f"num_in_{draft.kind.value}",
                sentence=index,
                offset=draft.template.find("{{NUM"),
                text=draft.template,
                message=f"a {draft.kind.value} sentence carries no model output",
            )
        )
    if draft.kind is SentenceKind.numerical and not ids:
        found.append(
            Violation(
                rule="missing_num",
                sentence=index,
                offset=0,
                text=draft.template,
                message="a numerical sentence needs at least one {{NUM:…}} token",
            )
        )
    return found
