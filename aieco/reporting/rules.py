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
``relation_direction`` / ``relation_direction_unread``
    A sentence that names both ends of a cited relation must state that relation's effect as
    cause → effect with its sign. The sentence is read by the extraction reader's clause
    analysis (the reader that read the source passages): an effect of the opposite sign
    ("a rise in X lifts Y" citing X → Y with sign −), a denied effect ("does not lift"), or
    Y made the cause of X is ``relation_direction``; a direction stated without a reading of
    X as the cause of Y ("X rises and Y falls") is ``relation_direction_unread``.
``uncited_direction`` / ``uncited_qualitative`` / ``unknown_relation`` / ``rejected_relation``
/ ``quote_not_found``
    A directional or qualitative sentence needs an accepted citation whose quote is in its
    location (checked in :func:`aieco.reporting.render.check_attribution`).
``quoted_span_not_in_passage``
    Text a sentence puts in double quotes (straight or typographic) must occur, normalised
    as :mod:`aieco.quotes` normalises, in a passage the sentence cites; an ellipsis inside
    the quotation marks a cut, so each piece must occur (:func:`quoted_span_violations`).

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


def variable_label(variable: str) -> str:
    """A readable variable name for prose and charts: the vocabulary label without its
    parenthetical detail ("Long-term interest rate (10-year …)" → "long-term interest rate"),
    so no digit of a definition can enter the report text; acronyms (GDP, CET1) keep their case."""
    from aieco.vocab import load_vocabulary

    vocab = load_vocabulary()
    if variable not in vocab:
        return variable.replace("_", " ")
    text = re.sub(r"\s*\([^)]*\)", "", vocab.get(variable).label).strip()
    return " ".join(w if w.isupper() or any(c.isdigit() for c in w) else w.lower() for w in text.split())


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
    """A directional or qualitative sentence without any citation.

    A sentence is directional when it has a direction word, or when the extraction reader's
    clause analysis reads a signed (or denied) relation between two variables in it ("tariffs
    have a negative effect on real GDP"), whatever kind the draft gives it."""
    if s.cited_relation_ids:
        return None
    direction = DIRECTION_RE.search(masked(s.template).lower())
    at, word = (direction.start(), direction.group(0)) if direction else (-1, "")
    if direction is None:
        from aieco.extraction.rules import read_sentence
        from aieco.vocab import load_vocabulary

        text = prose(s.template)
        readings = read_sentence(text, load_vocabulary())
        if readings:
            at, word = _governing_word(text.lower(), readings[0].verb, 0)
            word = text[at : at + len(word)]
    if at < 0 and s.kind is not SentenceKind.qualitative:
        return None
    return Violation(
        rule="uncited_direction" if at >= 0 else "uncited_qualitative",
        sentence=index,
        offset=max(at, 0),
        text=word if at >= 0 else s.template,
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


#: Signed words beyond the movement verbs: "a negative effect on", "downward pressure on",
#: "adverse", "favourable" (a sentence with one of them states a direction).
SIGNED_RE = re.compile(
    r"\b(?:positive(?:ly)?|negative(?:ly)?|advers(?:e|ely)|favourabl[ey]|favorabl[ey]|pressure\s+on|"
    r"downside|upside|inverse(?:ly)?|opposite|same\s+direction|together|hurt\w*|damag\w*|harm\w*|"
    r"support\w*|bolster\w*|fuel\w*|spur\w*|dent\w*|curb\w*|squeez\w*|hit|hits|hamper\w*|impair\w*)\b"
)


#: Between a movement word and the variable it moves: "higher X", "a rise in X", "a fall in the X".
CAUSE_MOVEMENT_GAP = re.compile(r"\s*(?:(?:in|of)\s+)?(?:the\s+)?")


@dataclass(frozen=True)
class StatedEffect:
    """What a sentence states of one cited relation, read by the extraction reader's clause
    analysis (:func:`aieco.extraction.rules.read_sentence`): ``sign`` +1/-1 for an effect of
    the cause on the effect, 0 for a denied effect ("does not lift"), None when the sentence
    states no cause-and-effect reading between the two; ``reversed`` when the sentence makes the
    relation's effect the cause; ``at``/``word`` the word that governs the stated effect."""

    sign: int | None
    reversed: bool
    at: int
    word: str


def _governing_word(low: str, verb: str, near: int) -> tuple[int, str]:
    """Offset and text of the reader's cue in the sentence: the occurrence (of any part of a
    two-part cue such as "rise … fall") nearest ``near``."""
    parts = [p for p in verb.removeprefix("not ").removesuffix(" (passive)").split(" … ") if p.strip()]
    found = []
    for part in parts:
        pattern = r"\b" + r"\s+".join(re.escape(w) for w in part.split()) + r"\b"
        found += [(m.start(), m.group(0)) for m in re.finditer(pattern, low)]
    if not found:
        return near, ""
    return min(found, key=lambda f: abs(f[0] - near))


def stated_effect(template: str, rel: RelationFacts) -> StatedEffect | None:
    """How a sentence states relation ``rel`` (None when it does not name both its ends).

    The sentence, tokens and citation markers blanked, is read by the same clause analysis
    that read the source passages: the cause is the reading's source, the effect its target,
    and the reading's sign already combines the cause's movement ("a fall in X", "falling X",
    "lower X") with the verb ("lifts", "weighs on", passive "is depressed by", relative
    "X, which weighs on Y", "as X rises, Y falls", "X leads to lower Y"); a negated verb
    ("does not lift") is a denied effect. "X and Y move in opposite directions / together"
    states the product directly.
    """
    from aieco.extraction.rules import read_sentence
    from aieco.vocab import load_vocabulary

    vocab = load_vocabulary()
    text = prose(template)
    low = text.lower()
    ends = {(m.variable_id, m.start) for m in vocab.mentions_in_context(text)}
    src = [at for var, at in ends if var == rel.src_var]
    dst = [at for var, at in ends if var == rel.dst_var]
    if not src or not dst:
        return None
    readings = read_sentence(text, vocab)
    forward = [r for r in readings if (r.src, r.dst) == (rel.src_var, rel.dst_var)]
    backward = [r for r in readings if (r.src, r.dst) == (rel.dst_var, rel.src_var)]
    near = min(dst)
    if forward:
        # A denial or a sign against the relation wins over an agreeing reading of the same pair.
        want = 1 if rel.sign == "+" else -1
        worst = next((r for r in forward if r.negated), None) or next(
            (r for r in forward if (1 if r.sign.value == "+" else -1) != want), forward[0]
        )
        at, word = _governing_word(low, worst.verb, near)
        sign = 0 if worst.negated else (1 if worst.sign.value == "+" else -1)
        return StatedEffect(sign, False, at, word)
    hit = OPPOSITE_RE.search(low, min(src)) or SAME_RE.search(low, min(src))
    if hit is not None:
        return StatedEffect(-1 if OPPOSITE_RE.match(low, hit.start()) else 1, False, hit.start(), hit.group(0))
    if backward:
        at, word = _governing_word(low, backward[0].verb, min(src))
        return StatedEffect(None, True, at, word)
    # Direction words outside the variables' names and other than the cause's own movement
    # ("higher X feeds into Y" states no direction of Y): a direction is stated, but not as
    # this relation's cause and effect.
    named = list(low)
    for m in vocab.mentions_in_context(text):
        named[m.start : m.end] = " " * (m.end - m.start)
    bare = "".join(named)
    words = sorted([*DIRECTION_RE.finditer(bare), *SIGNED_RE.finditer(bare)], key=lambda w: w.start())
    words = [w for w in words if not any(CAUSE_MOVEMENT_GAP.fullmatch(low, w.end(), at) for at in src)]
    if not words:
        return StatedEffect(None, False, -1, "")
    return StatedEffect(None, False, words[0].start(), words[0].group(0))


def relation_direction_violations(
    sentences: Sequence[SentenceDraft],
    relations: Mapping[str, RelationFacts],
    labels: Mapping[str, Sequence[str]] | None = None,
) -> list[Violation]:
    """A sentence naming both ends of a cited signed relation must state that relation's
    effect, with the relation's sign, as cause → effect (:func:`stated_effect`).

    ``relation_direction`` refuses a stated effect of the opposite sign ("a rise in X lifts Y"
    citing X → Y with sign −, "a fall in X lifts Y" citing +), a denied effect ("X does not
    lift Y": the relation states an effect, the sentence its absence), and a sentence that
    makes Y the cause of X. ``relation_direction_unread`` refuses a sentence that names both
    ends and a direction but no cause-and-effect reading between them ("X rises and Y
    falls", "higher W raises X and lowers Y" citing X → Y), since nothing checks what it
    claims. A sentence naming both ends without any direction word ("the channel runs from X
    to Y") states no direction and passes. ``labels`` is accepted for the common signature;
    relations join vocabulary variables only.
    """
    del labels
    found = []
    for index, s in enumerate(sentences):
        for rid in s.cited_relation_ids:
            rel = relations.get(rid)
            if rel is None or rel.sign not in ("+", "-"):
                continue
            stated = stated_effect(s.template, rel)
            if stated is None or (stated.sign is None and not stated.reversed and stated.at < 0):
                continue
            word = prose(s.template)[stated.at : stated.at + len(stated.word)]  # as written, not lower-cased
            stated = StatedEffect(stated.sign, stated.reversed, stated.at, word)
            want = 1 if rel.sign == "+" else -1
            claim = f"cited relation {rid} says {rel.src_var} → {rel.dst_var} has sign {rel.sign}"
            if stated.reversed:
                message = f"{claim}; the sentence makes {rel.dst_var} the cause of {rel.src_var}"
            elif stated.sign == 0:
                message = f"{claim}; the sentence denies an effect of {rel.src_var} on {rel.dst_var}"
            elif stated.sign is None:
                found.append(
                    Violation(
                        rule="relation_direction_unread",
                        sentence=index,
                        offset=stated.at,
                        text=stated.word,
                        message=f"{claim}; the sentence names both and a direction but does not state "
                        f"{rel.src_var} as the cause of a movement in {rel.dst_var} "
                        "(write 'a rise/fall in <cause> raises/lowers <effect>')",
                    )
                )
                continue
            elif stated.sign != want:
                message = f"{claim}; the sentence states an effect of sign {'+' if stated.sign > 0 else '-'}"
            else:
                continue
            found.append(
                Violation(
                    rule="relation_direction",
                    sentence=index,
                    offset=stated.at,
                    text=stated.word,
                    message=message,
                )
            )
    return found


#: A span in double quotes: straight ("…") or typographic (“…”, „…“).
QUOTED_RE = re.compile(r'["\u201c\u201e](?P<q>[^"\u201c\u201d\u201e]+)["\u201d\u201c]')
#: An ellipsis marks text left out of a quotation: the pieces around it are checked one by one.
ELLIPSIS_RE = re.compile(r"\u2026|\.\.\.|\[\u2026\]|\[\.\.\.\]")


def quoted_span_violations(sentences: Sequence[SentenceDraft], passages: Mapping[str, str]) -> list[Violation]:
    """Every span a sentence puts in double quotes must occur in a passage it cites.

    ``passages`` maps a cited relation id to its location's text (relations that do not
    resolve are left out: other rules name them). A quotation in a sentence that cites no
    resolvable passage is refused too: a reader would take it for the source's words.
    """
    from aieco.quotes import quote_form, quote_occurs

    found = []
    for index, s in enumerate(sentences):
        texts = [passages[r] for r in s.cited_relation_ids if r in passages]
        for m in QUOTED_RE.finditer(prose(s.template)):
            pieces = [p for p in ELLIPSIS_RE.split(m.group("q")) if quote_form(p)]
            if not pieces:
                continue  # quotation marks around no words quote nothing
            missing = [p for p in pieces if not any(quote_occurs(p, t) for t in texts)]
            if not missing:
                continue
            found.append(
                Violation(
                    rule="quoted_span_not_in_passage",
                    sentence=index,
                    offset=m.start(),
                    text=m.group(0),
                    message=(
                        f"the quoted words {missing[0].strip()!r} are not in "
                        + ("any passage the sentence cites" if texts else "a cited passage: the sentence cites none")
                        + " — quote the source's words exactly, or drop the quotation marks"
                    ),
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
