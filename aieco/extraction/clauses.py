"""Clause helpers of the offline rule reader: mentions with their movements, cues, clause bounds,
subjects and objects, and sign composition."""

from __future__ import annotations

import re
from dataclasses import dataclass

from aieco.extraction.cues import (
    ABSOLUTE_WITH,
    ADVERSE_NOUN_BEFORE,
    APPOSITIVE_GAP,
    AS_CLAUSE_GAP,
    BARE_SUBJECT_AFTER_COMMA,
    BELOW_POTENTIAL,
    CAUSAL_GAP,
    CAUSATIVE_BEFORE,
    CAUSE_AFTER,
    CAUSED_SUBJECT_GAP,
    CLAUSE_BREAK,
    CLAUSE_JOIN,
    COMPARED_AFTER,
    CONDITION_IT_GAP,
    CONDITION_OPEN,
    CONTRIBUTED_TO_BEFORE,
    COORD,
    COST_COMPOUND_BEFORE,
    CUE_PATTERNS,
    DETERMINER_BEFORE,
    DOWN_BEFORE,
    EFFECT_ITEM,
    ESTIMATE,
    FAVOURABLE_BEFORE,
    FEEDBACK,
    FINITE_VERB_AFTER,
    FRONTED_LEAD,
    GERUND_MOVE_AFTER,
    IDENTIFICATION,
    IDENTITY,
    INFINITIVE_AFTER,
    INFINITIVE_DOWN,
    INFINITIVE_UP,
    INHERENT_DOWN,
    INHERENT_UP,
    LIST_ITEM,
    LIST_JOIN,
    LISTED_ADJECTIVE_BEFORE,
    LOOSE_BEFORE,
    MODAL_BEFORE,
    MOVEMENT_PATTERNS,
    NOMINAL_FROM,
    NON_CORPORATE_DEFAULT,
    NOUN_SUBJECT_AFTER_COMMA,
    NOUN_THEN_VERB,
    OTHER_AGENT,
    OTHER_SENSE_BEFORE,
    OUTSIDE_FIRST_ITEM,
    OWN_CLAUSE_SUBJECT,
    PASS_THROUGH_FAMILIES,
    PLACE_BEFORE,
    PLACE_OR_DEGREE,
    PREPOSED_ADVERBIAL,
    PREPOSITION_BEFORE,
    PREPOSITIONAL_TO,
    PRESSURE_DIRECTION,
    PRONOUN_SUBJECT,
    RULE,
    SHOCK_AFTER,
    STRAIN_BEFORE,
    STRUCTURAL,
    SUBORDINATE_GAP,
    TIGHT_BEFORE,
    TIGHTNESS,
    TO_PURPOSE,
    TO_TARGET_CUE,
    TRANSPARENT_HEAD,
    UNNAMED_ITEM_END,
    UNREAD_VERB_OBJECT,
    UP_BEFORE,
    VERB_OR_ADJECTIVE,
)
from aieco.records import EvidenceClass
from aieco.vocab import Mention, Vocabulary


@dataclass(frozen=True)
class Cue:
    start: int
    end: int
    text: str
    sign: int  # +1, -1, or 0 for a neutral connector
    kind: str  # directional | neutral | comovement | noun | movement


@dataclass
class MentionMove:
    m: Mention
    mod: int  # +1 / -1 movement attached to the mention, 0 if none
    start: int  # start including the modifier


def evidence_class(sentence: str) -> EvidenceClass:
    """What the sentence states: an estimate, an identity, a rule, or only a description."""
    low = sentence.lower()
    if IDENTITY.search(low):
        return EvidenceClass.accounting
    if RULE.search(low):
        return EvidenceClass.institutional
    if ESTIMATE.search(low):
        if IDENTIFICATION.search(low):
            return EvidenceClass.causal
        if STRUCTURAL.search(low):
            return EvidenceClass.structural
        return EvidenceClass.predictive
    if STRUCTURAL.search(low):
        return EvidenceClass.structural
    return EvidenceClass.descriptive


def lower_is_a_verb(low: str, at: int, mention_ends: set[int], lo: int, mention_end: int) -> bool:
    """ "lower" after a subject, a modal or a co-ordinated verb is the verb ("tariffs lower GDP"),
    unless the mention it precedes is itself followed by a verb ("…, and lower trade weighs on GDP")."""
    after = low[mention_end:]
    gap = re.match(r"\s+(?:\w+ly\s+|would\s+|could\s+|may\s+|might\s+|can\s+|will\s+|also\s+)?", after)
    if gap and any(p.match(after, gap.end()) for p, _, kind in CUE_PATTERNS if kind != "noun"):
        return False
    before = low[lo:at]
    if PREPOSITIONAL_TO.search(before):
        return False  # "due to lower energy prices", "in response to lower demand": an adjective
    trimmed = before.rstrip()
    for p, _, kind in CUE_PATTERNS:  # "leads to lower …": the movement after a connector
        if kind in ("neutral", "comovement") and any(m.end() == len(trimmed) for m in p.finditer(trimmed)):
            return False
    if at - len(before) + len(trimmed) in mention_ends or MODAL_BEFORE.search(before):
        return True
    if re.search(r"\band\s+$", before):
        return any(p.search(before) for p, _, kind in CUE_PATTERNS if kind == "directional")
    return False


def movement_modifier(
    low: str, start: int, mention_ends: set[int], end: int, variable: str = "", adverse: int = 0
) -> tuple[int, int]:
    """Movement attached before the mention starting at ``start``: (sign, start incl. modifier)."""
    offset = max(0, start - 80)
    before = low[offset:start]
    bad = ADVERSE_NOUN_BEFORE.search(before)
    if bad and adverse:
        return adverse, offset + bad.start()
    good = FAVOURABLE_BEFORE.search(before)
    if good and adverse:
        return -adverse, offset + good.start()
    if variable in TIGHTNESS:
        for pat, sign in ((LOOSE_BEFORE, -1), (TIGHT_BEFORE, 1)):
            m = pat.search(before)
            if m:
                return sign, offset + m.start()
    for pat, sign in ((UP_BEFORE, 1), (DOWN_BEFORE, -1)):
        m = pat.search(before)
        if m:
            at = offset + m.start()
            word = m.group().split()[0]
            if word in VERB_OR_ADJECTIVE and lower_is_a_verb(low, at, mention_ends, clause_start(low, at), end):
                return 0, start
            if word in VERB_OR_ADJECTIVE and re.match(r"\S+\s+(?:the|its|their|our|his|her)\s", low[at:]):
                return 0, start  # "reduced the policy rate": a determiner follows a verb, never a modifier
            if sign > 0 and GROWTH_OF.match(m.group()) and LOW_LEVEL_AFTER.match(low, end):
                return -1, at  # "growth in business investment was subdued": the growth's stated level, a weak one
            if (
                sign > 0
                and GROWTH_OF.match(m.group())
                and LOW_GROWTH_BEFORE.search(low, 0, at + m.group().index("growth"))
            ):
                return -1, at  # "a period of below-trend growth in real GDP": a weak growth
            slowing = SLOWING_OF_BEFORE.search(low, 0, at) if sign > 0 and GROWTH_OF.match(m.group()) else None
            if slowing:
                return -1, slowing.start()  # "a further slowdown in the growth of loans": the growth falls
            if word in PARTICIPLE_MODIFIERS and low[at + len(word) : start].split():
                return 0, start  # "policy tightening restrained economic activity": a participle before a verb
            if (
                word in GERUND_OR_ADJECTIVE
                and re.search(r"(?:,|\bby(?:\s+\w+ly)?)\s*$", low[:at])
                # ("was bolstered by increasing asset prices": after a passive participle's "by", an adjective)
                and not re.search(r"\b\w+(?:ed|en)\s+by\s*$", low[:at])
            ):
                # "…, increasing credit losses", "by rapidly increasing rates": a participle or gerund, no adjective
                return 0, start  # "…, increasing credit losses": a participle after a clause, not an adjective
            return sign, at
    return 0, start


#: "growth in X", "the growth of X": a nominal modifier naming the growth rate, whose level a predicate may state.
GROWTH_OF = re.compile(r"(?:an? |the )?(?:\w+ )?growth (?:in|of)\b")
#: "a further slowdown in the growth of loans", "a moderation in the growth of wages": the growth rate falls.
SLOWING_OF_BEFORE = re.compile(
    r"\b(?:slowdown|slowing|deceleration|decline|fall|drop|moderation|weakening|easing)\s+(?:in|of)\s+$"
)
#: "below-trend growth in X", "weak growth of X": the growth named is a weak one.
LOW_GROWTH_BEFORE = re.compile(
    r"\b(?:below-trend|below-potential|sub-?par|weak|weaker|slow|slower|subdued|sluggish|modest|soft|softer|tepid|"
    r"anaemic|anemic)\s+(?:\w+\s+)?$"
)
#: "… was subdued", "… remained weak": a low level stated of the subject within its clause.
LOW_LEVEL_AFTER = re.compile(
    r"[^,;.]{0,40}?\b(?:was|were|is|are|has\s+been|had\s+been|have\s+been|remained|remains|stayed)\s+"
    r"(?:\w+ly\s+|still\s+)?(?:subdued|weak|sluggish|modest|slow|soft|muted|tepid|lacklust(?:er|re)|negative)\b"
)
#: Modifiers in -ing that are a participle after a comma or a gerund after "by" ("by strengthening productivity").
GERUND_OR_ADJECTIVE = frozenset(
    (
        "increasing",
        "decreasing",
        "tightening",
        "accelerating",
        "strengthening",
        "easing",
        "cooling",
        "moderating",
        "loosening",
    )
)
#: Participles read as modifiers only right before the noun ("easing supply bottlenecks"), since a word between
#: may be the verb ("policy tightening restrained economic activity").
PARTICIPLE_MODIFIERS = GERUND_OR_ADJECTIVE - {"increasing", "decreasing"}


#: An article and an adjective of degree before a movement word: "a sharp fall", "the further rise" (nouns).
DETERMINER_DEGREE_BEFORE = re.compile(
    r"\b(?:the|a|an|this|its|their|any|no|such)\s+(?:sharp|strong|large|further|sudden|significant|marked|modest|"
    r"slight|gradual|steep|substantial|notable|renewed|continued|small|big|dramatic|considerable|rapid|slow)\s+$"
)


#: An adjective before a plural movement word followed by "in/of": "further cuts in the supply of gas" (a noun).
NOUN_AFTER_ADJECTIVE = re.compile(r"\b(?:further|additional|sharp|deep|large|new|recent|past)\s+$")


def this_verb(low: str, m: re.Match[str]) -> bool:
    """ "This boosts Y", "this raises Y": after the pronoun "this" a word in -s is a verb (a singular
    noun after "this" has no -s: "this rise", "this cut")."""
    head = m.group().split()[0]
    return bool(re.search(r"\bthis\s+$", low[max(0, m.start() - 6) : m.start()])) and bool(re.search(r"[^s]s$", head))


def movement_sign(text: str) -> int:
    """+1 / -1 when ``text`` is a form of a movement verb ("increased", "weakens"), else 0."""
    for pat, sign in MOVEMENT_PATTERNS:
        if pat.fullmatch(" ".join(text.split())):
            return sign
    return 0


def a_noun(low: str, m: re.Match[str]) -> bool:
    """A verb's or movement's word used as a noun: "the drag on activity", "a rise", "arising from cost increases"."""
    if DETERMINER_BEFORE.search(low, 0, m.start()) and not this_verb(low, m):
        return True
    return bool(COST_COMPOUND_BEFORE.search(low, 0, m.start()) and m.group().endswith("s"))


def listed_or_after_adjective(low: str, m: re.Match[str]) -> bool:
    """An -ing word in a list of causes ("owing to higher rates and worsening housing market prospects", "including
    rising rates, …, easing supply bottlenecks"): an adjective; a plural after an adjective and before "in/of"
    ("further cuts in the supply of gas"): a noun. Neither is a verb."""
    word = m.group()
    if word.endswith("ing") and LISTED_ADJECTIVE_BEFORE.search(low, max(0, m.start() - 160), m.start()):
        return True
    after_adjective = NOUN_AFTER_ADJECTIVE.search(low, 0, m.start())
    return bool(word.endswith("s") and after_adjective and re.match(r"\s+(?:in|of)\b", low[m.end() :]))


def find_cues(low: str, mentions: list[MentionMove]) -> list[Cue]:
    taken = [(x.start, x.m.end) for x in mentions]
    found: list[Cue] = []
    for pat, sign, kind in CUE_PATTERNS:
        for m in pat.finditer(low):
            if pat is TO_TARGET_CUE and not any(
                x.m.variable_id == "policy_rate" and x.m.end <= m.start() for x in mentions
            ):
                continue  # "higher tariffs brought inflation back to target": no policy move, no direction
            if kind != "noun" and a_noun(low, m):
                continue
            if kind == "directional" and listed_or_after_adjective(low, m):
                continue
            if (
                kind == "directional"
                and (m.group() in VERB_OR_ADJECTIVE or m.group() == "elevated")
                and re.search(
                    r"\b(?:and|or|a|an|the|of|to|from|with|amid)\s+\w+ly\s+$", low[max(0, m.start() - 40) : m.start()]
                )
            ):
                continue  # "a stronger euro and markedly lower energy prices": an adverb of an adjective in a list
            if kind == "directional" and m.group() in VERB_OR_ADJECTIVE and PREPOSITIONAL_TO.search(low, 0, m.start()):
                continue  # "owing to lower inventories": an adjective after a prepositional "to", never a verb
            if kind == "directional" and COMPARED_AFTER.match(low, m.end()):
                continue  # "wage growth remains elevated relative to productivity": a comparison, no effect
            if (
                kind == "directional"
                and m.group() == "elevated"
                and re.search(
                    r"\b(?:stay|stays|stayed|staying|remain|remains|remained|remaining)\s+(?:\w+ly\s+)?$",
                    low[max(0, m.start() - 30) : m.start()],
                )
            ):
                continue  # "inflation could stay elevated as a result of …": a level held, the adjective
            if (
                kind == "directional"
                and m.group().endswith("ing")
                and re.search(
                    r"\b(?:as\s+a\s+result\s+of|due\s+to|owing\s+to|because\s+of)\s+$",
                    low[max(0, m.start() - 25) : m.start()],
                )
            ):
                continue  # "as a result of worsening geopolitical developments": the cause's adjective, no verb
            found.append(Cue(m.start(), m.end(), m.group(), sign, kind))
    for pat, sign in MOVEMENT_PATTERNS:
        for m in pat.finditer(low):
            if a_noun(low, m) or listed_or_after_adjective(low, m):
                continue
            if DETERMINER_DEGREE_BEFORE.search(low, max(0, m.start() - 40), m.start()):
                continue  # "a sharp fall in the demand for mortgages": a noun after its article and adjective
            # "output grows below potential": a widening slack, the economy's weak move
            below = sign > 0 and BELOW_POTENTIAL.match(low[m.end() :])
            found.append(Cue(m.start(), m.end(), m.group(), -1 if below else sign, "movement"))
    # Longest cue first; drop cues inside a mention or its modifier, and overlapping cues.
    found.sort(key=lambda c: (-(c.end - c.start), c.start))
    kept: list[Cue] = []
    for c in found:
        if any(c.start < e and s < c.end for s, e in taken):
            continue
        if any(c.start < k.end and k.start < c.end for k in kept):
            continue
        kept.append(c)
    return sorted(kept, key=lambda c: c.start)


def clause_start(low: str, pos: int) -> int:
    starts = [m.end() for m in CLAUSE_BREAK.finditer(low, 0, pos)]
    return starts[-1] if starts else 0


def clause_end(low: str, pos: int) -> int:
    m = CLAUSE_BREAK.search(low, pos)
    return m.start() if m else len(low)


def coordinated_left(low: str, ms: list[MentionMove], idx: int, floor: int) -> list[int]:
    out = [idx]
    if (
        re.search(
            r"\b(?:combined|together|coupled|along)\s+with\s+(?:the\s+|an?\s+)?$",
            low[max(0, ms[idx].start - 30) : ms[idx].start],
        )
        and idx > 0
        and ms[idx - 1].start >= floor
    ):
        # "X combined with Y": both are subjects, whatever lies between X and "combined".
        gap = low[ms[idx - 1].m.end : ms[idx].start]
        if len(gap) < 40 and not re.search(r"[,;]", gap):
            out.append(idx - 1)
            return out
    listed = False  # a list's "and"/"or" has been crossed: unnamed items may stand between named ones
    joined = 0  # the items found before a "together with" between commas
    while (
        idx > 0
        and ms[idx - 1].start >= floor
        and ms[idx - 1].m.variable_id != ms[idx].m.variable_id
        and (
            COORD.match(low[ms[idx - 1].m.end : ms[idx].start])
            or list_item_gap(low[ms[idx - 1].m.end : ms[idx].start], listed)
            or WITH_JOIN.fullmatch(low[ms[idx - 1].m.end : ms[idx].start])
        )
        and not (
            low[ms[idx - 1].m.end : ms[idx].start].strip() == ","
            and PREPOSED_ADVERBIAL.search(low[max(0, ms[idx - 1].start - 60) : ms[idx - 1].start])
        )
    ):
        listed = listed or bool(re.search(r"\b(?:and|or)\s*$", low[ms[idx - 1].m.end : ms[idx].start]))
        if WITH_JOIN.fullmatch(low[ms[idx - 1].m.end : ms[idx].start]):
            joined = len(out)
        idx -= 1
        out.append(idx)
    if joined and re.search(r"\b(?:from|by)\s+(?:\w+\s+){0,3}$", low[clause_start(low, ms[idx].start) : ms[idx].start]):
        # "the decline in wealth resulting from drops in equity and house prices, together with tighter credit": the
        # items before "together with" are the causes inside the first subject, not subjects
        return out[:joined]
    return out


#: The object of a remedy's infinitive ("designed to tackle the energy price crisis", "attempts to buffer the energy
#: price shock"): what the remedy addresses, never the subject of the verb after it (``clause_subjects``).
OBJECT_OF_A_REMEDY = re.compile(
    r"\bto\s+(?:tackle|buffer|address|offset|counter|counteract|combat|fight|mitigate|cushion|absorb|contain|"
    r"alleviate|compensate\s+for)\s+(?:the\s+|its\s+|their\s+|this\s+)?(?:[a-z-]+\s+)?$"
)
#: "the fall in energy prices, combined with the recent appreciation of the euro, was expected to dampen core
#: inflation": a subject set off with "combined with" between commas is one of the subjects (``coordinated_left``).
WITH_JOIN = re.compile(r"\s*,\s*(?:combined|together|coupled|along)\s+with\s*")


def list_item_gap(gap: str, listed: bool) -> bool:
    """ ", weakened household balance sheets, and ": items the vocabulary does not name, inside a list.

    The gap holds comma-separated noun phrases (no verb, pronoun or clause word) and, unless the list's
    "and"/"or" was crossed already, ends with it; the last piece may lead into the next mention ("low levels of").
    """
    if "," not in gap or not (listed or re.search(r"\b(?:and|or)\s*$", gap)):
        return False
    pieces = [p.strip() for p in gap.split(",")]
    if pieces[0] or len(pieces) > 5:
        return False
    return all(LIST_ITEM.fullmatch(p) for p in pieces[1:])


def starts_clause(low: str, x: MentionMove, limit: int) -> bool:
    """A mention followed directly by the next verb is that verb's subject ("…, and weaker GDP raises …")."""
    return limit < len(low) and bool(
        re.fullmatch(r"[\s,]*(?:(?:would|could|may|might|will|can|also|further|then|\w+ly)\s+)*", low[x.m.end : limit])
    )


def coordinated_right(low: str, ms: list[MentionMove], idx: int, limit: int) -> list[int]:
    out = [idx]
    # A mention with its own movement ("…, and weaker GDP raises …") starts a new clause, not a list.
    while (
        idx + 1 < len(ms)
        and ms[idx + 1].m.end <= limit
        and not (ms[idx + 1].mod and starts_clause(low, ms[idx + 1], limit))
        # "… on investment and market liquidity is thinner": a mention with its own copula starts a clause
        and not re.match(r"\s+(?:is|are|was|were|has|have|had|remains?|remained)\b", low[ms[idx + 1].m.end :])
        and ms[idx + 1].m.variable_id != ms[idx].m.variable_id
        and COORD.match(low[ms[idx].m.end : ms[idx + 1].start])
    ):
        idx += 1
        out.append(idx)
    return out


def clause_subjects(low: str, ms: list[MentionMove], cue: Cue, lo: int, floor: int = 0) -> list[int]:
    left = [i for i, x in enumerate(ms) if x.m.end <= cue.start and x.start >= lo]
    if not left:
        return []
    i = left[-1]
    # "a recovery in demand, supported by accommodative policies, will put upward pressure on inflation": the
    # subject stands before the participial phrase set off by commas
    appositive = next((j for j in reversed(left[:-1]) if APPOSITIVE_GAP.fullmatch(low, ms[j].m.end, cue.start)), None)
    if appositive is not None:
        i = appositive
        left = left[: left.index(appositive) + 1]
    if appositive is None:
        # "lower demand for exports due, for instance, to a weaker world economy would weigh on growth": the causes
        # named after a moved subject are not the verb's subject
        appositive = next(
            (
                j
                for j in reversed(left[:-1])
                if ms[j].mod
                and ms[j].m.variable_id != ms[i].m.variable_id
                and CAUSED_SUBJECT_GAP.fullmatch(low, ms[j].m.end, cue.start)
            ),
            None,
        )
        if appositive is not None:
            i = appositive
            left = left[: left.index(appositive) + 1]
    end = cue.start  # where the gap after the subject ends for the checks below
    if appositive is None and APPOSITIVE_GAP.fullmatch(low, ms[i].m.end, cue.start):
        end = ms[i].m.end  # "the recent fall in energy prices, if it persisted, might slow …": a phrase set off
    if appositive is None and len(low[ms[i].m.end : end]) > 120:
        return []  # (a phrase set off by commas or dashes may be long: the subject stands before it)
    if re.match(
        r"(?:\s+and\s+[a-z-]+(?:\s+[a-z-]+)?)?"  # "affect the economy and financial markets and consequently have"
        r"\s+(?:and|but|or)\s+(?:\w+ly\s+)?(?:has|have|had|is|are|was|were|will|would|could|may|might|can)\s+",
        low[ms[i].m.end : end],
    ):
        return []  # "banks have maintained capital buffers and have increased provisions": an earlier subject
    if PRONOUN_SUBJECT.search(low[ms[i].m.end : end]):
        return []  # "these disruptions affect jobs, and they could drive up inflation": the pronoun is the subject
    if CONDITION_IT_GAP.fullmatch(low, ms[i].m.end, cue.start) and CONDITION_OPEN.search(low, 0, ms[i].start):
        # "if demand were to weaken in the wake of an economic slowdown, it would lower pressures on prices": the
        # mention stands in the condition, and "it" (the condition) is the subject (subordinate_states reads it)
        return []
    if "," in low[ms[i].m.end : end] and re.search(
        r"\b(?:because|since|if|when|once|although|though|unless|as)\s+(?:the\s+)?(?:[a-z-]+\s+)?$",
        low[clause_start(low, ms[i].start) : ms[i].start],
    ):
        return []  # "Because inflation has come down, we lowered …": the subordinate clause holds no subject
    if SUBORDINATE_GAP.search(low[ms[i].m.end : end]) or AS_CLAUSE_GAP.search(low[ms[i].m.end : end]):
        return []  # "Y slowed because firms cancelled investment": the verb has its own subject
    if re.fullmatch(r"\s+and\s+(?:\w+ly\s+)?", low[ms[i].m.end : end]) and UNREAD_VERB_OBJECT.search(
        low[max(0, ms[i].start - 50) : ms[i].start]
    ):
        # "an environment that fosters investment and reduces uncertainty": the mention is the object of an
        # unread verb, and the two verbs share the relative pronoun's antecedent
        return []
    if OWN_CLAUSE_SUBJECT.search(low[ms[i].m.end : end]):
        # "uncertainty may have weighed on sales and lower immigration may have contributed to …": after a
        # verb of its own, the mention is followed by a co-ordinated clause whose subject is another noun
        return []
    if OBJECT_OF_A_REMEDY.search(low, max(0, ms[i].start - 40), ms[i].start) and not (
        i > 0 and TO_PURPOSE.fullmatch(low[ms[i - 1].m.end : ms[i].start])
    ):
        # "the fiscal measures designed to tackle the energy price crisis were expected to dampen inflation": the
        # mention is what the measures address, not the verb's subject (a named remedy is: "higher policy rates to
        # tackle inflation have weighed on house prices", below)
        return []
    if OTHER_AGENT.search(low[ms[i].m.end : end]):
        return []  # "losses could affect their ability to support the economy": the banks would support it
    if NOUN_SUBJECT_AFTER_COMMA.search(low[ms[i].m.end : end]) or BARE_SUBJECT_AFTER_COMMA.search(
        low[ms[i].m.end : end]
    ):
        return []  # "Y slowed because firms cancelled investment": the verb has its own subject
    # "The resilience of liquidity … fell": the head measures the mention, which is the subject.
    measured = re.search(
        # ("the period of restrictive monetary policy needed to rein in high inflation")
        r"\b(?:resilience|level|levels|depth|pace|stock|value|volume|volumes|amount|supply|period|phase|"
        # "the effects of past rate increases weigh on …": the effects are the mention's
        r"effects?|impacts?|influence|consequences|pass-through|transmission)\s+of\s+"
        r"(?:the\s+|past\s+|earlier\s+|previous\s+|recent\s+)?$",
        low[max(0, ms[i].start - 30) : ms[i].start],
    ) or re.search(
        # "expectations of a severe recession lead to …", "the threat of higher tariffs weighs on …":
        # the head names the prospect of the variable's move, which is what acts.
        r"\b(?:expectations?|prospects?|threat|fears?|anticipation|possibility|spectre|specter)\s+of\s+"
        r"(?:the\s+|an?\s+|further\s+)?(?:[a-z-]+\s+)?$",
        low[max(0, ms[i].start - 30) : ms[i].start],
    )
    if measured:
        return coordinated_left(low, ms, i, floor)
    # A mention inside a prepositional phrase ("tariffs on exports reduce …") is not the subject,
    # unless a relative pronoun makes it the antecedent ("a sell-off of assets, which would amplify …")
    # or "with" co-ordinates ("low activity combined with the rise in yields would …").
    before = low[max(0, ms[i].start - 30) : ms[i].start]
    relative = re.search(r",\s*which\b", low[ms[i].m.end : end])
    coordinating = re.search(r"\b(?:combined|together|coupled|along)\s+with\s+(?:the\s+|an?\s+)?$", before)
    # "With GDP growth weakening, …": the mention is the subject of the absolute clause's participle
    absolute = cue.text.endswith("ing") and ABSOLUTE_WITH.search(low[clause_start(low, ms[i].start) : ms[i].start])
    # "These make imports more expensive and put pressure on …": the object of an earlier verb
    made = re.search(r"\b(?:make|makes|made|making|render|renders|rendered|rendering)\s+(?:the\s+|us\s+)?$", before)
    if (PREPOSITION_BEFORE.search(before) or made) and not relative and not coordinating and not absolute:
        if len(left) < 2:
            return []
        i = left[-2]
        # The earlier mention must not sit in an earlier clause ("X rose, and the fall in Y hurt Z").
        between = low[ms[i].m.end : max(end, ms[left[-1]].m.end)]
        if CLAUSE_JOIN.search(between) or OWN_CLAUSE_SUBJECT.search(between):
            return []
    listed = coordinated_left(low, ms, i, floor)
    head = min(listed)
    if head > 0 and TO_PURPOSE.fullmatch(low[ms[head - 1].m.end : ms[head].start]):
        # "fire sales to meet redemptions or margin calls could depress …": the act, not the need, is the subject
        return coordinated_left(low, ms, head - 1, floor)
    return listed


def clause_objects(low: str, ms: list[MentionMove], cue: Cue, hi: int, next_cue: int) -> list[int]:
    right = [i for i, x in enumerate(ms) if x.start >= cue.end and x.m.end <= min(hi, next_cue)]
    if not right:
        return []
    i = right[0]
    gap = low[cue.end : ms[i].start]
    if re.search(r"[,;]\s*(?:and|but|while|whereas)\b", gap):
        return []  # "stock prices increased moderately, and the VIX decreased": a new clause, not an object
    if re.search(r"\b(?:and|or|but|while|whereas)\b", gap) and re.match(
        # ("… and the effective exchange rate of the euro had appreciated")
        r"(?:\s+of\s+(?:the\s+)?[a-z-]+)?\s+(?:is|are|was|were|has|have|had|remains?|remained)\b",
        low[ms[i].m.end :],
    ):
        return []  # "conditions are tightening and liquidity is scarcer": the mention is the next clause's subject
    if re.search(r"\b(?:and|or|but|while|whereas)\b", gap) and re.fullmatch(
        r"\s+(?:(?:would|could|may|might|will|can|also|further|then|have|has|had|(?:were|was|is|are)\s+to|\w+ly|"
        # "the economy slows and employment continues to weaken": an aspect verb before the next verb
        r"(?:continues?|continued|starts?|started|begins?|began|keeps?|kept|tends?|tended|appears?|seems?)\s+to)\s+)*",
        low[ms[i].m.end : next_cue],
    ):
        return []  # "spreads widened and equity prices fell": the mention is the next clause's subject
    outside = OUTSIDE_FIRST_ITEM.fullmatch(TRANSPARENT_HEAD.sub(" ", gap))
    if outside:
        # "reducing the purchasing power of households and the earnings of businesses", "reflected the
        # intensification of the pandemic, persisting bottlenecks and still high energy prices": the mention is a
        # later object of the verb, after one the vocabulary lacks (after a comma, only in a list that goes on)
        listed = coordinated_right(low, ms, i, min(hi, next_cue))
        if "," not in outside.group() or len(listed) > 1:
            return listed
    if re.search(r",\s*(?!including\b)\w+ing\s+$", low[cue.end : ms[i].m.start]):
        return []  # "reduce collateral values, increasing credit losses": the mention belongs to the participle
    # "lowering the prospects for global growth", "raises the risk of fire sales": the head names the
    # variable's outlook or likelihood, so the variable is the object.
    if CAUSAL_GAP.search(gap):
        return []  # "consumer spending slowed due to weaker confidence": the mention is the cause
    if re.search(r"\bto\s+(?:ensure|make\s+sure|secure)\b|\bso\s+that\b", gap):
        return []  # "it needs to be raised further to ensure that inflation falls": a purpose, not the verb's object
    gap = TRANSPARENT_HEAD.sub(" ", gap)
    # A mention behind a preposition ("depressed even in an environment of …") is no direct object.
    if len(gap.split()) > 6 or re.search(
        r"\b(?:in|of|on|for|at|from|with|amid|during|despite|even|than|between|about|via|through|by|across|"
        r"within|among|against|towards?|into|over|under|beyond|like|"
        r"as|when|whenever|if|while|whereas|because|since|although|though|after|before|until|unless|once)\b|^\s*[,;]|;",
        gap,
    ):
        return []
    return coordinated_right(low, ms, i, min(hi, next_cue))


def same_family(a: str, b: str) -> bool:
    return any(a in f and b in f for f in PASS_THROUGH_FAMILIES)


def combine_signs(cue_sign: int, kind: str, src_mod: int, dst_mod: int, default_rise: bool = True) -> int:
    """Sign of src → dst: a directional verb carries its own sign; a connector takes the target's movement.

    A connector whose target has no stated movement produces the target ("could cause volatility",
    "leads to margin calls"): a rise.
    """
    src = src_mod or 1
    if kind in ("directional", "noun"):
        return cue_sign * src
    return src * (dst_mod or (1 if default_rise else 0))


def inherent_move(text: str) -> int:
    """Direction carried by the synonym itself ("economic slowdown", "policy easing", "rate hikes")."""
    if INHERENT_DOWN.search(text):
        return -1
    if INHERENT_UP.search(text):
        return 1
    return 0


def shock_move(low: str, m: Mention, start: int, vocab: Vocabulary) -> int:
    """ "(adverse) confidence shocks": a shock to a variable is its adverse move, unless called positive."""
    if not SHOCK_AFTER.match(low[m.end :]) and not STRAIN_BEFORE.search(low[max(0, start - 30) : start]):
        return 0
    if re.search(r"\b(?:positive|favou?rable)\s+(?:[a-z-]+\s+){0,2}$", low[max(0, start - 40) : start]):
        return 1  # ("a positive income and wealth shock")
    # "downward pressure on inflation", "upward price pressures on rents": the adjective names the move;
    # "opposing" or "two-sided" pressures name none, so nothing is read from them.
    pressure = PRESSURE_DIRECTION.search(low[max(0, start - 50) : start])
    if pressure:
        opened = start - len(pressure.group())
        if re.search(r"\b(?:no|little|not\s+much)\s+(?:[a-z-]+\s+)?$", low[max(0, opened - 30) : opened]):
            return 0  # "no downward pressure on inflation from …": denied, nothing to read
        return {"upward": 1, "downward": -1}.get(pressure.group(1), 0)
    adverse = vocab.get(m.variable_id).adverse_direction
    if adverse is None:
        return 0
    return 1 if adverse.value == "increase" else -1


#: A comma or semicolon before a conjunction: what follows is a clause of its own.
NEW_CLAUSE = re.compile(r"(?:[,;]\s*(?:and|but|while|whereas)|;)\s")


def cause_of_states(
    low: str, ms: list[MentionMove], states: list[tuple[int, int, Cue]], adverse_up: frozenset[str] = frozenset()
) -> list[tuple[int, int, int, Cue]]:
    """ "Y fell, driven by X" and "Supported by X, Y rose": (source idx, target idx, sign, cue)."""
    out = []
    for ti, s_y, cue in states:
        taken: dict[int, re.Match[str] | None] = {}  # accepted causes of this state, with their phrase
        moves: dict[int, int] = {}  # their movements
        for si, x in enumerate(ms):
            if si == ti:
                continue
            # (a mention with a movement of its own starts the next clause: "…, and equity prices rose")
            # "owing to weaker labour costs, the unfolding effects of restrictive policy and the fading impact of
            # the energy crisis": an item may name its cause's effect, a fading one acting as the cause's reversal
            join = low[ms[si - 1].m.end : x.start]
            effect = EFFECT_ITEM.fullmatch(join)
            listed = (
                si - 1 in taken
                and bool(LIST_JOIN.fullmatch(join) or effect)
                and all(i != si for i, _, _ in states)
                # "…, the housing market started to react": a mention with a verb of its own starts a clause
                and not FINITE_VERB_AFTER.match(low, x.m.end)
            )
            if listed:
                # "cut rates in the face of tariffs and uncertainty": a list shares its cause phrase
                verb = taken[si - 1]
            elif x.start > cue.end:  # "Y fell, driven by the outlook for X"
                window = low[cue.end : x.start]
                m = CAUSE_AFTER.search(window)
                if m is None and UNNAMED_ITEM_END.search(window):
                    # "owing to the energy crisis, high uncertainty, …": an unnamed first item of the list of causes
                    m = CAUSE_AFTER.search(UNNAMED_ITEM_END.sub("", window, count=1))
                if cue.text == "movement from":
                    m = NOMINAL_FROM.fullmatch(window)
                if m is None:
                    m2 = re.search(
                        r"(?:driven by|on the back of|reflecting|due to|owing to|in response to)"
                        r"\s+(?:the\s+)?(?:outlook|expectations?|prospects?)\s+(?:for|of)\s+(?:the\s+)?$",
                        window,
                    )
                    if m2 is None or len(window) > 60:
                        continue
                elif len(PLACE_OR_DEGREE.sub("", low[max(cue.end, ms[ti].m.end) : cue.end + m.start()])) > 40:
                    # measured from the moved variable to the cause phrase: "cut their hiring plans a lot in response
                    # to tariffs" (the phrase itself may be long: "mainly due to the effects of"); a place and a degree
                    # adverb do not count ("moderated in all advanced foreign economies, primarily as a result of")
                    continue
                elif any(
                    cue.end <= z.start < cue.end + m.start() and NEW_CLAUSE.search(low, cue.end, z.start) for z in ms
                ):
                    # "investment picks up as demand rises, and exports remain strong, supported by X": the cause
                    # phrase belongs to the clause it follows
                    continue
            else:  # "Supported by X, … Y rose" / "Reflecting X, Y fell"
                head = low[clause_start(low, x.start) : x.start]
                fronted = CAUSE_AFTER.search(head)
                if not fronted or "," not in low[x.m.end : ms[ti].start]:
                    continue
                if fronted.group().startswith("against"):
                    continue  # "Against the backdrop of volatility, exchange rates would depreciate": a setting
                if re.search(r"[a-z]", head[: fronted.start()]) and not FRONTED_LEAD.fullmatch(head[: fronted.start()]):
                    # "were the possibility of disruptions due to geopolitical developments, a larger easing …, more
                    # persistent price increases": a cause phrase inside the clause is an item's cause, not fronted
                    continue
                if ms[ti].start < x.start:
                    continue
            # "reflecting higher investment and consumption": the modifier covers the list after it
            mod = x.mod or (moves.get(si - 1, 0) if listed and not effect else 0)
            if not listed:
                verb = CAUSE_AFTER.search(low[: x.start]) or re.search(r"\w+ by|\w+ing", low[: x.start])
            taken[si] = verb
            moving = GERUND_MOVE_AFTER.match(low, x.m.end)
            if not mod and moving:
                mod = 1 if moving.group(1) else -1  # "in response to inflation falling faster than expected"
            if not mod:
                if verb is not None and re.search(
                    r"amplified|driven|supported|fuell?ed|buoyed|boosted|underpinned|following|helped|aided|led by|"
                    r"thanks to|on the back of",
                    verb.group(),
                ):
                    mod = 1
                elif verb is not None and re.search(
                    r"weighed down|hit|dragged|held back|restrained|hampered|pulled down", verb.group()
                ):
                    # "held back by weak demand" names a fall; "weighed down by the war against Ukraine" an adverse
                    # variable present, its rise
                    mod = 1 if x.m.variable_id in adverse_up else -1
                # ("owing to wage pressures": pressures named without a move push their variable up)
                elif (x.m.variable_id in adverse_up or re.search(r"\bpressures?$", x.m.text.lower())) and (
                    cue.text == "movement from"
                    or (
                        verb is not None
                        and re.search(
                            r"due\s+(?:\w+\s+){0,2}to|owing\s+(?:\w+\s+){0,2}to|because of|in light of|against the|"
                            r"as a result of|amid|on account of|in response to|"
                            r"in the face of|in reaction to|responding to|reacting to",
                            verb.group(),
                        )
                    )
                ):
                    mod = 1  # "investment fell because of uncertainty": the presence of a risk is its rise
                else:
                    continue
            if listed and effect and effect.group("fading"):
                mod = -mod
            moves[si] = mod
            out.append((si, ti, s_y * mod, cue))
    return out


def feedback_loops(low: str, ms: list[MentionMove], vocab: Vocabulary) -> list[tuple[int, int, int]]:
    """(a, b, sign) for "feedback loop between X and Y": X → Y and Y → X, each end moving as stated or,
    unstated, in its adverse direction (an adverse loop between bank profitability and low growth: +)."""

    def move(x: MentionMove) -> int:
        if x.mod:
            return x.mod
        adverse = vocab.get(x.m.variable_id).adverse_direction
        return 0 if adverse is None else (1 if adverse.value == "increase" else -1)

    out = []
    for a in range(len(ms) - 1):
        b = a + 1
        if not FEEDBACK.search(low[max(0, ms[a].start - 60) : ms[a].start]):
            continue
        if not re.fullmatch(r"\s+and\s+(?:the\s+)?", low[ms[a].m.end : ms[b].start]):
            continue
        sign = (move(ms[a]) or 1) * (move(ms[b]) or 1)
        out += [(a, b, sign), (b, a, sign)]
    return out


def infinitive_movement(low: str, m: Mention) -> int:
    """The object's movement stated after it: "led yields to rise", "contributed to inflation falling"."""
    if CONTRIBUTED_TO_BEFORE.search(low[max(0, m.start - 40) : m.start]):
        gerund = GERUND_MOVE_AFTER.match(low, m.end)
        if gerund:
            return 1 if gerund.group(1) else -1
    if not CAUSATIVE_BEFORE.search(low[max(0, m.start - 40) : m.start]):
        return 0
    inf = INFINITIVE_AFTER.match(low[m.end :])
    if inf is None:
        return 0
    word = inf.group(1)
    return -1 if word in INFINITIVE_DOWN else 1 if word in INFINITIVE_UP else 0


def other_sense(low: str, m: Mention) -> bool:
    if m.variable_id == "corporate_defaults" and NON_CORPORATE_DEFAULT.match(low[m.end : m.end + 80]):
        return True
    if m.text.lower().endswith("economies") and PLACE_BEFORE.search(low, max(0, m.start - 60), m.start):
        return True  # "inflation moderated in all advanced foreign economies": a place, not the variable
    before = low[max(0, m.start - 25) : m.start]
    pat = OTHER_SENSE_BEFORE.get(m.variable_id)
    if m.variable_id == "equity_prices" and m.text.lower() not in ("equity", "equities"):
        pat = None
    if m.variable_id == "real_gdp" and m.text.lower() not in ("output", "gdp", "real gdp", "real output"):
        pat = None
    return bool(re.search(r"[a-z]-$", before) or (pat is not None and pat.search(before)))


def without_verb(m: Mention, low: str) -> Mention:
    """A match such as "interest rates increase" names "interest rates" followed by its verb."""
    hit = NOUN_THEN_VERB.match(m.text.lower())
    if hit is None:
        return m
    end = m.start + len(hit.group(1))
    return Mention(m.variable_id, m.start, end, m.text[: len(hit.group(1))], m.first_token, m.last_token - 1)


def reports_an_outcome(cue_text: str) -> bool:
    """Whether a verb cue reports an outcome (past or progressive: "weighed on", "is subtracting from")."""
    first = cue_text.split()[0].lower() if cue_text.split() else ""
    return first.endswith(("ed", "ing"))
