"""The controlled vocabulary (paper §3.2): synonyms → one variable id each.

Loaded from the package data file ``aieco/data/vocabulary.toml``. Matching works on word
tokens, is insensitive to case and simple inflection (plural forms, see :func:`stem`) and
prefers the longest synonym, so "long-term interest rates" is one mention of
``long_term_rate`` rather than a mention of a shorter synonym.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from aieco.errors import InputError
from aieco.records import Movement, Variable

TOKEN = re.compile(r"[A-Za-z0-9]+(?:'s)?")
REFERENCE_RULES = ("zero", "last_observed")


def stem(word: str) -> str:
    """Lower-case ``word`` and strip plural inflection ("prices" → "price", "losses" → "loss")."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith("sses"):
        return w[:-2]
    if len(w) > 4 and w.endswith(("xes", "ches", "shes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


def tokens(text: str) -> list[tuple[str, int, int]]:
    """Word tokens of ``text`` as (stem, start, end) character spans."""
    return [(stem(m.group()), m.start(), m.end()) for m in TOKEN.finditer(text)]


#: Synonyms that name real GDP only in isolation ("growth slowed"), not as part of another noun
#: phrase ("credit growth" is matched whole; "trading activity", "growth in lending" are dropped).
AMBIGUOUS = frozenset({"growth", "activity"})
#: Words before a bare "growth"/"activity" that keep the macroeconomic reading.
MACRO_MODIFIERS = frozenset(
    {
        "economic",
        "real",
        "domestic",
        "overall",
        "aggregate",
        "potential",
        "weak",
        "weaker",
        "strong",
        "stronger",
        "slow",
        "slower",
        "sluggish",
        "subdued",
        "robust",
        "solid",
        "lower",
        "higher",
        "muted",
        "moderate",
        "modest",
        "soft",
        "softer",
        "resilient",
        "firm",
        "and",
        "or",
        "of",
        "on",
        "for",
        "to",
        "in",
        "the",
        "a",
        "that",
        "which",
        "weakening",
        "slowing",
        "falling",
        "declining",
        "rising",
        "positive",
        "negative",
        "future",
        "gdp",
        "output",
        "area",
        "eu",
        "european",
        "us",
        "china",
        "chinese",
        "japanese",
        "uk",
        "german",
        "national",
        "annual",
        "quarterly",
        "trend",
        "below",
        "above",
        "long",
        "nominal",
        "term",
        "run",
        "medium",
        "short",
        "near",
        "global",
        "world",
        "with",
        "by",
        "from",
        "as",
        "than",
        "supporting",
        "support",
        "boost",
        "boosted",
        "lift",
        "damp",
        "dampen",
        "weigh",
        "weighed",
        "weighing",
        "hurt",
        "hit",
        "slowed",
        "reduce",
        "reduced",
        "lowered",
        "raise",
        "raised",
    }
)
FUNCTION_WORDS = frozenset(
    {"and", "or", "of", "on", "for", "to", "in", "the", "a", "that", "which", "with", "by", "from", "as", "than"}
)
VOLATILITY_OF = re.compile(r"\s+(?:of|in)\s+(?:the\s+)?")
VOLATILITY_AFTER = re.compile(r"\s+volatility\b")
RATE_VARIABLES = frozenset({"long_term_rate", "policy_rate", "mortgage_rates", "lending_rates", "term_premium"})


def _bare_growth_is_gdp(low: str, m: Mention) -> bool:
    """A bare "growth"/"activity" names the economy unless a noun claims it ("X growth", "growth of X")."""
    before = re.findall(r"[a-z0-9'-]+", low[max(0, m.start - 40) : m.start])
    if before and before[-1] not in MACRO_MODIFIERS and not before[-1].endswith("ly"):
        return False
    # "activity" alone is as often trading or issuance activity: it names the economy only with a
    # macroeconomic adjective ("weak activity", "real activity"), never after a bare article or preposition.
    if m.text.lower() == "activity" and (not before or before[-1] in FUNCTION_WORDS):
        return False
    after = low[m.end : m.end + 40]
    if re.match(
        r"\s+(?:of|in)\s+(?!the\s+(?:economy|euro\s+area|eu|us|region|country)|gdp|output|the\s+economy)"
        r"(?!(?:the\s+)?(?:euro\s+area|eu|us|united|china|advanced|emerging|major|most|many|some|several|"
        r"europe|japan|germany|france|italy|spain|the\s+world|[a-z]+\s+economies))",
        after,
    ):
        return False
    return True


@dataclass(frozen=True)
class Mention:
    """One vocabulary variable named in a text, with its character span and matched words."""

    variable_id: str
    start: int
    end: int
    text: str
    first_token: int
    last_token: int


class Vocabulary:
    """Variables and their synonyms, with longest-match mention finding."""

    def __init__(self, variables: list[Variable], references: dict[str, str]):
        self.variables = {v.variable_id: v for v in variables}
        self.references = dict(references)
        self._phrases: dict[tuple[str, ...], str] = {}
        for v in variables:
            for phrase in [v.variable_id.replace("_", " "), v.label, *v.synonyms]:
                key = tuple(t for t, _, _ in tokens(phrase))
                if not key:
                    continue
                owner = self._phrases.get(key)
                if owner is not None and owner != v.variable_id and phrase in v.synonyms:
                    raise InputError(
                        f"synonym {phrase!r} maps to both {owner} and {v.variable_id}",
                        where="vocabulary",
                        fix="give every synonym exactly one variable",
                    )
                self._phrases.setdefault(key, v.variable_id)
        self._longest = max(len(k) for k in self._phrases)

    @classmethod
    def from_toml(cls, path: Path | None = None) -> Vocabulary:
        """Read a vocabulary file (default: the packaged ``vocabulary.toml``)."""
        if path is None:
            raw = resources.files("aieco").joinpath("data/vocabulary.toml").read_text(encoding="utf-8")
            where = "aieco/data/vocabulary.toml"
        else:
            raw = Path(path).read_text(encoding="utf-8")
            where = str(path)
        try:
            entries = tomllib.loads(raw)["variable"]
        except (tomllib.TOMLDecodeError, KeyError) as exc:
            raise InputError(
                f"cannot read the vocabulary: {exc}",
                where=where,
                fix="each variable is a [[variable]] table with id, label, synonyms",
            ) from exc
        variables, references = [], {}
        for e in entries:
            if not re.fullmatch(r"[a-z][a-z0-9_]*", str(e.get("id", ""))):
                raise InputError(
                    f"variable id {e.get('id')!r} is not snake_case", where=where, fix="use ids like 'house_prices'"
                )
            ref = e.get("reference")
            if ref is not None:
                if ref not in REFERENCE_RULES:
                    raise InputError(
                        f"reference {ref!r} of {e['id']} is unknown", where=where, fix=f"use one of {REFERENCE_RULES}"
                    )
                references[e["id"]] = ref
            variables.append(
                Variable.create(
                    variable_id=e["id"],
                    label=e["label"],
                    synonyms=list(e.get("synonyms", [])),
                    unit=e.get("unit", ""),
                    transformation=e.get("transformation", ""),
                    adverse_direction=Movement(e["adverse"]) if e.get("adverse") else None,
                    model_variable=e.get("model_variable"),
                    description=e.get("description", ""),
                )
            )
        if len({v.variable_id for v in variables}) != len(variables):
            raise InputError("duplicate variable id in the vocabulary", where=where, fix="ids must be unique")
        return cls(variables, references)

    def __contains__(self, variable_id: object) -> bool:
        return variable_id in self.variables

    def __len__(self) -> int:
        return len(self.variables)

    def get(self, variable_id: str) -> Variable:
        if variable_id not in self.variables:
            raise InputError(f"unknown variable {variable_id!r}", fix="run `aieco vocab` for the variable ids")
        return self.variables[variable_id]

    def resolve(self, phrase: str) -> str | None:
        """The variable id a phrase (an id or one synonym) names, or None."""
        if phrase in self.variables:
            return phrase
        return self._phrases.get(tuple(t for t, _, _ in tokens(phrase)))

    def model_variable(self, variable_id: str) -> str | None:
        v = self.variables.get(variable_id)
        return v.model_variable if v else None

    def reference(self, variable_id: str) -> str:
        """Reference rule of a restriction on ``variable_id``: "zero" or "last_observed"."""
        return self.references.get(variable_id, "zero")

    def mentions(self, text: str) -> list[Mention]:
        """Every variable named in ``text``, longest synonym first, left to right, no overlaps."""
        toks = tokens(text)
        out: list[Mention] = []
        i = 0
        while i < len(toks):
            for n in range(min(self._longest, len(toks) - i), 0, -1):
                key = tuple(t for t, _, _ in toks[i : i + n])
                vid = self._phrases.get(key)
                if vid is not None:
                    start, end = toks[i][1], toks[i + n - 1][2]
                    out.append(Mention(vid, start, end, text[start:end], i, i + n - 1))
                    i += n
                    break
            else:
                i += 1
        return out

    def mentions_in_context(self, text: str) -> list[Mention]:
        """:meth:`mentions` with two readings of context a financial report needs.

        * A bare "growth" or "activity" names real GDP only when nothing else claims it:
          "growth of X", "X growth", "trading activity" or "activity in the repo market" are
          about X, not the economy, so the mention is dropped.
        * Volatility of a variable is not its level: "volatility of bond yields" and
          "bond yield volatility" become one mention of the volatility variable
          (``rate_volatility`` for interest rates, else ``volatility``).
        """
        raw = self.mentions(text)
        low = text.lower()
        out: list[Mention] = []
        skip: set[int] = set()
        for k, m in enumerate(raw):
            if k in skip:
                continue
            if m.text.lower() in AMBIGUOUS and not _bare_growth_is_gdp(low, m):
                continue
            after = low[m.end :]
            nxt = raw[k + 1] if k + 1 < len(raw) else None
            vol = VOLATILITY_OF.match(after)
            if (
                m.variable_id == "volatility"
                and m.text.lower() == "volatility"
                and vol
                and nxt is not None
                and nxt.start == m.end + vol.end()
            ):
                vid = "rate_volatility" if nxt.variable_id in RATE_VARIABLES else "volatility"
                out.append(Mention(vid, m.start, nxt.end, text[m.start : nxt.end], m.first_token, nxt.last_token))
                skip.add(k + 1)
                continue
            trail = VOLATILITY_AFTER.match(after)
            if trail and m.variable_id not in ("volatility", "rate_volatility"):
                vid = "rate_volatility" if m.variable_id in RATE_VARIABLES else "volatility"
                end = m.end + trail.end()
                if nxt is not None and nxt.start < end:
                    skip.add(k + 1)
                out.append(
                    Mention(
                        vid,
                        m.start,
                        end,
                        text[m.start : end],
                        m.first_token,
                        nxt.last_token if nxt is not None and nxt.start < end else m.last_token,
                    )
                )
                continue
            out.append(m)
        return out

    def variables_in(self, text: str) -> list[str]:
        """Distinct variable ids named in ``text``, in order of first mention."""
        return list(dict.fromkeys(m.variable_id for m in self.mentions_in_context(text)))


@lru_cache(maxsize=1)
def load_vocabulary() -> Vocabulary:
    """The packaged vocabulary (read once)."""
    return Vocabulary.from_toml()
