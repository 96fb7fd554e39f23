"""One rule set for direction and attribution, shared by generation, ``check-report`` and the renderer.

The rules are pure functions of the sentences, the claims they name (variable,
transformation and, once linked, value) and the relations they cite; the store look-ups
happen in :func:`aieco.reporting.render.check_report_draft`, the one entry point every
caller uses, so a draft accepted by ``check-report`` is accepted by the renderer and the
other way round.

Rules (``Violation.rule``, each with the character offset inside its sentence):

``variable_mismatch``
    A ``{{NUM:…}}`` token's claim measures another variable than the one the sentence
    names next to it ("the unemployment rate at {{NUM:<inflation claim>}}").
``unnamed_variable``
    A token's sentence names no variable at all, so the reader cannot tell what it measures.
``direction_inconsistent``
    A direction word contradicts the sign of the value it describes ("house prices decline"
    next to a positive house-price change). Levels and targets ("rise to X") carry no sign.
``relation_direction``
    A sentence that names both ends of a cited relation states an effect of the opposite
    sign ("a rise in X lifts Y" citing a relation X → Y with sign −).
``uncited_direction`` / ``uncited_qualitative`` / ``unknown_relation`` / ``rejected_relation``
/ ``quote_not_found``
    A directional or qualitative sentence needs an accepted citation whose quote is in its
    location (checked in :func:`aieco.reporting.render.check_attribution`).

Plain-text reports cite relations as ``[rel:<relation id>]`` anywhere in the sentence
(usually before its full stop); :func:`plain_text_drafts` turns such a text into
structured sentences with the markers blanked, so offsets stay those of the text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from aieco.models.bank import outputs as bank_outputs
from aieco.records import SentenceKind
from aieco.reporting.contract import TOKEN_RE, Violation, split_sentences
from aieco.reporting.schema import SentenceDraft

UP_WORDS = (
    r"ris(?:e|es|ing|en)|rose|increas(?:e|es|ed|ing)|climb(?:s|ed|ing)?|grows|grew|growing|higher|upward|"
    r"upwards|expand(?:s|ed|ing)?|expansion|accelerat\w*|strengthen\w*|gain(?:s|ed)?|surg(?:e|es|ed|ing)|"
    r"jump(?:s|ed)?|boost\w*|lift(?:s|ed|ing)?|push(?:es|ed)? up|recover\w*|rebound\w*|widen\w*|"
    r"rais(?:e|es|ed|ing)"
)
DOWN_WORDS = (
    r"declin(?:e|es|ed|ing)|fall(?:s|ing)?|fell|fallen|drop(?:s|ped|ping)?|decreas(?:e|es|ed|ing)|"
    r"lower(?:s|ed|ing)?|"
    r"downward|downwards|contract(?:s|ed|ing|ion)|shrink\w*|shrank|weaken\w*|correction|slump\w*|"
    r"slow(?:s|ed|ing)?|slowdown|deteriorat\w*|tumbl\w*|plung\w*|erod\w*|erosion|downturn|"
    r"recession|weigh(?:s|ed|ing)? on|reduc(?:e|es|ed|ing)|depress(?:es|ed|ing)?|dampen\w*"
)
DIRECTION_RE = re.compile(rf"\b(?:(?P<up>{UP_WORDS})|(?P<down>{DOWN_WORDS}))\b")
#: "rise to X" states a target level, not the sign of a change.
TARGET_RE = re.compile(r"\s+(?:[a-z]+\s+){0,2}?to\s+\{\{NUM:")
#: "… move in opposite directions" / "… in the same direction" states the sign of a relation.
SAME_RE = re.compile(r"\bsame\s+direction|\btogether\b")
OPPOSITE_RE = re.compile(r"\bopposite\s+directions?|\binversely\b")
LEVEL_TRANSFORMATIONS = {"level", "rate", "ratio", "index", "share", "levels", "end_level", "peak", "trough"}
#: Plain-text citation syntax: ``[rel:rel_…]``.
CITE_RE = re.compile(r"\s?\[rel:(?P<id>[A-Za-z0-9_.\-]+)\]")


@dataclass(frozen=True)
class ClaimFacts:
    """What the rules need to know of a claim: its variable, transformation and (once linked) value."""

    claim_id: str
    variable: str
    transformation: str
    value: float | None = None


@dataclass(frozen=True)
class RelationFacts:
    relation_id: str
    src_var: str
    dst_var: str
    sign: str  # "+" | "-" | other (no direction)


def masked(template: str) -> str:
    """The template with DATE tokens blanked (NUM tokens kept as anchors), same length."""
    return TOKEN_RE.sub(lambda m: m.group(0) if m.group(1) == "NUM" else " " * len(m.group(0)), template)


def prose(template: str) -> str:
    """The template with every token blanked (for word matching), same length."""
    return TOKEN_RE.sub(lambda m: " " * len(m.group(0)), template)


#: Names of model outputs that are not vocabulary variables (cross-bank figures).
OUTPUT_LABELS: dict[str, tuple[str, ...]] = dict(bank_outputs.OUTPUT_LABELS)


def mentions(text: str, labels: Mapping[str, Sequence[str]] | None = None) -> list[tuple[int, int, str]]:
    """(start, end, variable) of every variable named in ``text``: vocabulary synonyms
    (longest match) and any extra ``labels``; a label overlapping a vocabulary mention wins
    when it is longer."""
    from aieco.vocab import load_vocabulary

    found = [(m.start, m.end, m.variable_id) for m in load_vocabulary().mentions(text)]
    low = text.lower()
    for var, words in [*OUTPUT_LABELS.items(), *(labels or {}).items()]:
        for w in words:
            for m in re.finditer(rf"\b{re.escape(w.lower())}\b", low):
                found = [f for f in found if f[1] <= m.start() or f[0] >= m.end() or f[1] - f[0] > len(w)]
                if not any(f[0] < m.end() and m.start() < f[1] for f in found):
                    found.append((m.start(), m.end(), var))
    return sorted(found)


def uncited(s: SentenceDraft, index: int) -> Violation | None:
    """A directional or qualitative sentence without any citation."""
    direction = DIRECTION_RE.search(masked(s.template).lower())
    if s.cited_relation_ids or not (s.kind is SentenceKind.qualitative or direction is not None):
        return None
    return Violation(
        rule="uncited_direction" if direction else "uncited_qualitative",
        sentence=index,
        offset=direction.start() if direction else 0,
        text=direction.group(0) if direction else s.template,
        message="a directional or qualitative sentence must cite an accepted relation",
    )


def variable_violations(
    sentences: Sequence[SentenceDraft],
    claims: Mapping[str, ClaimFacts],
    labels: Mapping[str, Sequence[str]] | None = None,
) -> list[Violation]:
    """Each NUM token must sit next to a name of its claim's variable (the nearest name
    before the token, else the nearest after it)."""
    found = []
    for index, s in enumerate(sentences):
        text = prose(s.template)
        named = mentions(text, labels)
        for m in TOKEN_RE.finditer(s.template):
            if m.group(1) != "NUM" or m.group(2) not in claims:
                continue
            facts = claims[m.group(2)]
            before = [n for n in named if n[1] <= m.start()]
            after = [n for n in named if n[0] >= m.end()]
            near = before[-1] if before else (after[0] if after else None)
            if near is None:
                found.append(
                    Violation(
                        rule="unnamed_variable",
                        sentence=index,
                        offset=m.start(),
                        text=m.group(0),
                        message=f"the sentence does not say the value is {facts.variable}",
                    )
                )
            elif near[2] != facts.variable:
                found.append(
                    Violation(
                        rule="variable_mismatch",
                        sentence=index,
                        offset=near[0],
                        text=text[near[0] : near[1]],
                        message=f"the text names {near[2]} but claim {facts.claim_id} measures {facts.variable}",
                    )
                )
    return found


def direction_violations(
    sentences: Sequence[SentenceDraft],
    values: Mapping[str, tuple[float, object]],
    labels: Mapping[str, Sequence[str]] | None = None,
) -> list[Violation]:
    """Direction words that contradict the sign of the change they describe.

    ``values`` maps a claim id to (value, claim) where claim has ``variable`` and
    ``transformation``. A direction word attaches to the nearest variable named in its
    sentence, else to the nearest NUM token. The value checked is that variable's claim in
    the same sentence (the token nearest the word), else in the previous one ("this decline
    in house prices"), else in the next one (framing before the number), within one
    paragraph. Levels ("rise to X", level transformations) carry no sign and are not checked.
    """
    claims_in = [
        [(m.start(), m.group(2)) for m in TOKEN_RE.finditer(s.template) if m.group(1) == "NUM" and m.group(2) in values]
        for s in sentences
    ]
    found = []
    for index, s in enumerate(sentences):
        text = masked(s.template).lower()
        named = [(start, var) for start, _, var in mentions(prose(s.template), labels)]
        for d in DIRECTION_RE.finditer(text):
            if TARGET_RE.match(s.template, d.end()):
                continue
            anchors = named or [(pos, values[cid][1].variable) for pos, cid in claims_in[index]]
            if not anchors:
                continue
            variable = min(anchors, key=lambda a: abs(a[0] - d.start()))[1]
            for neighbour in (index, index - 1, index + 1):
                if not 0 <= neighbour < len(sentences) or sentences[neighbour].paragraph != s.paragraph:
                    continue  # a neighbouring sentence of another paragraph is another topic
                hits = [
                    cid
                    for pos, cid in sorted(claims_in[neighbour], key=lambda c: abs(c[0] - d.start()))
                    if values[cid][1].variable == variable
                ]
                if hits:
                    value, claim = values[hits[0]]
                    sign = (value > 0) - (value < 0)
                    want = 1 if d.group("up") else -1
                    if claim.transformation.lower() not in LEVEL_TRANSFORMATIONS and sign and sign != want:
                        found.append(
                            Violation(
                                rule="direction_inconsistent",
                                sentence=index,
                                offset=d.start(),
                                text=d.group(0),
                                message=f"{claim.variable} {'rises' if sign > 0 else 'falls'} in claim {hits[0]} "
                                f"(sentence {neighbour}) but the text says {d.group(0)!r}",
                            )
                        )
                    break
    return found


def relation_direction_violations(
    sentences: Sequence[SentenceDraft],
    relations: Mapping[str, RelationFacts],
    labels: Mapping[str, Sequence[str]] | None = None,
) -> list[Violation]:
    """A sentence naming both ends of a cited relation must state an effect of its sign.

    The cause's direction is the direction word nearest before the cause's name (none:
    a rise, "X weighs on Y"); the effect's is the last direction word between the two names,
    else the first after the effect's name; "same direction"/"opposite directions" state
    the product directly.
    """
    found = []
    for index, s in enumerate(sentences):
        text = masked(s.template).lower()
        named = mentions(prose(s.template), labels)
        words = [
            (d.start(), d.end(), 1 if d.group("up") else -1, d.group(0))
            for d in DIRECTION_RE.finditer(text)
            if not TARGET_RE.match(s.template, d.end())
        ]
        for rid in s.cited_relation_ids:
            rel = relations.get(rid)
            if rel is None or rel.sign not in ("+", "-"):
                continue
            src = [n for n in named if n[2] == rel.src_var]
            dst = [n for n in named if n[2] == rel.dst_var and (not src or n[0] > src[0][0])]
            if not src or not dst:
                continue
            a, b = src[0], dst[0]
            want = 1 if rel.sign == "+" else -1
            stated, at, word = None, b[0], text[b[0] : b[1]]
            same, opposite = SAME_RE.search(text, a[1]), OPPOSITE_RE.search(text, a[1])
            if opposite or same:
                hit = opposite or same
                stated, at, word = (-1 if opposite else 1), hit.start(), hit.group(0)
            else:
                cause = [w for w in words if w[1] <= a[0]]
                between = [w for w in words if a[1] <= w[0] and w[1] <= b[0]]
                after = [w for w in words if w[0] >= b[1]]
                if not cause and len(between) >= 2:  # "X rises, which lifts Y"
                    cause, between = between[:1], between[1:]
                effect = between[-1] if between else (after[0] if after else None)
                if effect is not None:
                    stated = (cause[-1][2] if cause else 1) * effect[2]
                    at, word = effect[0], effect[3]
            if stated is not None and stated != want:
                found.append(
                    Violation(
                        rule="relation_direction",
                        sentence=index,
                        offset=at,
                        text=word,
                        message=f"cited relation {rid} says {rel.src_var} → {rel.dst_var} has sign {rel.sign}, "
                        f"the sentence states the opposite",
                    )
                )
    return found


def plain_text_drafts(text: str) -> list[tuple[int, SentenceDraft]]:
    """A plain-text report as (start offset, structured sentence): ``[rel:ID]`` markers become
    citations (blanked in the template, so offsets are the text's); the kind is numerical
    with a NUM token, qualitative with a citation or a direction word, temporal otherwise."""
    out = []
    for start, sentence in split_sentences(text):
        cites = [m.group("id") for m in CITE_RE.finditer(sentence)]
        template = CITE_RE.sub(lambda m: " " * len(m.group(0)), sentence)
        nums = [v for k, v in TOKEN_RE.findall(template) if k == "NUM"]
        if nums:
            kind = SentenceKind.numerical
        elif cites or DIRECTION_RE.search(masked(template).lower()):
            kind = SentenceKind.qualitative
        else:
            kind = SentenceKind.temporal
        out.append(
            (
                start,
                SentenceDraft(
                    kind=kind,
                    template=template,
                    cited_relation_ids=list(dict.fromkeys(cites)),
                    claim_ids=list(dict.fromkeys(nums)),
                ),
            )
        )
    return out


def locate_in_text(
    text: str, pieces: Sequence[tuple[int, SentenceDraft]], violations: Sequence[Violation]
) -> list[Violation]:
    """Violations of a plain text with ``text_offset`` set; a refused citation points at its
    ``[rel:ID]`` marker's id."""
    out = []
    for v in violations:
        if v.sentence is None:
            out.append(v)
            continue
        start, draft = pieces[v.sentence]
        offset = v.offset
        if v.text in draft.cited_relation_ids:
            at = text.find(f"[rel:{v.text}]", start)
            offset = at + len("[rel:") - start if at >= 0 else offset
            v = v.model_copy(update={"offset": offset})
        out.append(v.model_copy(update={"text_offset": start + offset}))
    return sorted(out, key=lambda v: (-1 if v.text_offset is None else v.text_offset, v.rule))
