"""The offline relation reader's shared state: one sentence's mentions, cues and the readings found so far.

The reader (:func:`aieco.extraction.rules.read_sentence`) is a rule-based causal reader in the spirit of Eidos.
It reads signed relations between controlled-vocabulary variables from one sentence:

* a directional lexicon ("raise", "boost", "push up" → ``+``; "lower", "weigh on",
  "dampen", "erode" → ``-``) whose sign is multiplied by the movement attached to the
  source ("*lower* market liquidity raises volatility" → ``-``);
* neutral connectors ("lead to", "result in", "translate into", "go hand in hand with")
  whose sign comes from the movements on both ends ("higher X … lower Y" → ``-``);
* passive voice ("Y is depressed by higher X"), co-ordinated subjects and objects
  ("X raises Y and lowers Z"), relative clauses ("…, which in turn lowers Z"), and
  intransitive movements joined by "when/as/if" ("as X rises, Y falls");
* negation ("does not raise") gives sign ``absent``; hedges ("may", "could", "tends to")
  lower the confidence.

The evidence class is a property of what the sentence states, never of the verb
(paper, "Relations Reported in Sources"): ``descriptive`` unless the sentence reports an
estimate, an identity or a rule. "Causes" alone does not make a relation causal.

The cue tables are in :mod:`aieco.extraction.cues`, the clause helpers in :mod:`aieco.extraction.clauses`,
the rules in :mod:`aieco.extraction.rules`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from aieco.extraction.clauses import (
    Cue,
    MentionMove,
    clause_start,
    evidence_class,
    find_cues,
    infinitive_movement,
    inherent_move,
    movement_modifier,
    other_sense,
    reports_an_outcome,
    shock_move,
    without_verb,
)
from aieco.extraction.cues import (
    AMBIVALENT,
    BARE_DEMAND_BEFORE,
    CROSS_SECTION,
    DOWN_BEFORE,
    DROP_OUT,
    DROPS_OUT_AFTER,
    GDP_COMPONENTS,
    HEAD_SHIFT,
    HEDGE,
    HORIZON,
    INDIRECT_QUESTION,
    INTERRUPTED_AFTER,
    LABOUR_REBALANCED_AFTER,
    LABOUR_REBALANCING_BEFORE,
    LINE_BREAK_HYPHEN,
    MACRO_LEVELS,
    MODAL_OR_NORM,
    NEGATION,
    NEGATION_CLAUSE,
    NON_MONETARY_BEFORE,
    NOT_A_COMPONENT,
    NOUN_MOVE_AFTER,
    PARTICLE_AFTER,
    POLICY_MOVED_BEFORE,
    POLICY_STANCE_AFTER,
    POTENTIAL_GAP_AFTER,
    PRICE_LEVELS,
    PRIVATE_CREDIT,
    PRIVATE_ONLY,
    PROGRESS_BEFORE,
    PUBLIC_BEFORE,
    QUESTION_END,
    RIGHT_NODE,
    RISKS_AROUND,
    SHORTFALL_AFTER,
    SOVEREIGN_AFTER,
    SPLIT_VERB_BEFORE,
    TABLE_RESIDUE,
    TRADE_HEAD,
    TRANSMISSION_STRENGTH_BEFORE,
    UNCERTAINTY_ABOUT,
    UP_BEFORE,
)
from aieco.records import EvidenceClass, Sign
from aieco.vocab import Mention, Vocabulary

EXTRACTOR_VERSION = "lexicon-1"


@dataclass(frozen=True)
class Reading:
    """One relation read from a sentence, with the name of the rule that read it."""

    src: str
    dst: str
    sign: Sign
    verb: str
    confidence: float
    evidence_class: EvidenceClass
    horizon: str | None
    hedged: bool
    negated: bool
    rule: str = ""
    movement_rules: tuple[str, ...] = ()  # rules that recorded the movements this reading joins


#: the clause read last: (subjects, objects, end of objects, movement the clause implies for each object)
PreviousClause = tuple[list[int], list[int], int, dict[int, int]]


@dataclass
class SentenceReading:
    """One sentence as the rules see it: its mentions with their movements, its cues, and what is read so far."""

    sentence: str
    low: str
    vocab: Vocabulary
    ms: list[MentionMove]
    cues: list[Cue]
    ec: EvidenceClass
    horizon: str | None
    # Variables whose adverse move is a rise (risks): named as a cause without a movement, they are present.
    adverse_up: frozenset[str]
    found: dict[tuple[str, str, Sign], Reading] = field(default_factory=dict)
    previous: PreviousClause | None = None
    states: list[tuple[int, int, Cue]] = field(default_factory=list)  # intransitive movements: (mention, sign, cue)
    last_subs: list[int] = field(default_factory=list)
    rule: str = ""  # the rule now reading, recorded on each reading it adds
    state_rules: dict[Cue, str] = field(default_factory=dict)  # the rule that recorded each movement's cue
    # levels held ("remains strong"): joined to a cause the sentence names, never to a subordinate clause's move
    held_levels: set[Cue] = field(default_factory=set)

    def run(self, rule: str, read: Callable[[], object]) -> object:
        """Run one rule, naming it on the readings it adds and the movements it records."""
        self.rule = rule
        n = len(self.states)
        out = read()
        for _, _, cue in self.states[n:]:
            self.state_rules.setdefault(cue, rule)
        return out

    def add(self, si: int, oi: int, sign: int, cue: Cue, passive: bool, joined: tuple[Cue, ...] = ()) -> None:
        """Record that mention ``si`` moves mention ``oi`` with ``sign``, stated by ``cue`` (joining the movements
        recorded with the cues ``joined``)."""
        ms, low, ec = self.ms, self.low, self.ec
        src, dst = ms[si].m.variable_id, ms[oi].m.variable_id
        if src == dst or sign == 0:
            return
        lo = min(ms[si].start, ms[oi].start, cue.start)
        window = low[clause_start(low, lo) : cue.start]
        # a cue before both ends ("did not cut the policy rate in response to …") looks back in its clause
        neg_lo = lo if lo < cue.start else clause_start(low, cue.start)
        negated = bool(
            NEGATION.search(low[max(neg_lo, cue.start - 30) : cue.start])
            or NEGATION.search(cue.text)
            or NEGATION_CLAUSE.search(window)
        )
        if INDIRECT_QUESTION.search(window) or QUESTION_END.match(low[cue.end :]):
            return  # "studies how X affects Y", "whether X lowers Y", "Will X lower Y?": asked, not stated
        hedged = bool(HEDGE.search(low[clause_start(low, cue.start) : cue.start]))
        conf = self._confidence(si, cue, passive, hedged)
        if self._unmoved_policy(si, cue):
            direct = (
                re.fullmatch(r"\s+(?:\w+ly\s+)?by\s+(?:[a-z-]+\s+){0,4}", low[cue.end : ms[si].start])
                if passive  # "a recovery supported by accommodative fiscal and monetary policies"
                else re.fullmatch(r"\s+(?:[a-z-]+\s+){0,2}", low[ms[si].m.end : cue.start])
            )
            if MODAL_OR_NORM.search(low, max(0, cue.start - 40), cue.start) or not direct:
                return  # "monetary policy should support the economy": no move of the instrument is stated
            # "monetary policy dampens demand", "monetary policy supported growth": the verb states the stance it
            # acts with (restrictive to dampen, accommodative to support), so the instrument moves against the effect
            sign = -1
        if (
            sign < 0
            and dst == "real_gdp"
            and src in GDP_COMPONENTS
            and not ms[si].mod
            and (cue.kind == "noun" or (cue.kind == "directional" and reports_an_outcome(cue.text)))
            and not NOT_A_COMPONENT.search(ms[si].m.text.lower())
        ):
            # "exports weighed on growth", "investment subtracted from GDP": a spending component can lower
            # GDP only by falling, so the unstated move is a fall and the channel is the identity's +.
            # Only a reported outcome is growth accounting: "consumption lowers GDP" states a channel.
            sign = 1
        s = Sign.absent if negated else (Sign.positive if sign > 0 else Sign.negative)
        cue_text = " ".join(cue.text.split())
        verb = ("not " if negated else "") + cue_text + (" (passive)" if passive else "")
        evidence = EvidenceClass.descriptive if cue.kind == "comovement" and ec is EvidenceClass.predictive else ec
        movement_rules = tuple(sorted({self.state_rules[c] for c in joined if c in self.state_rules}))
        reading = Reading(src, dst, s, verb, conf, evidence, self.horizon, hedged, negated, self.rule, movement_rules)
        key = (src, dst, s)
        if key not in self.found or self.found[key].confidence < conf:
            self.found[key] = reading

    def _confidence(self, si: int, cue: Cue, passive: bool, hedged: bool) -> float:
        """How explicitly the sentence states "an increase in the source raises (lowers) the target".

        Not how strong the evidence is (the evidence class records that): a directional verb, or a connector with
        both movements stated, states it; an unstated source movement or two intransitive movements joined by
        "as/when" leave more to inference; a co-movement ("went hand in hand with") states only an association.
        """
        ms, low = self.ms, self.low
        if cue.kind == "comovement":
            base = 0.55
        elif cue.kind in ("directional", "noun") or (cue.kind != "movement" and (ms[si].mod != 0 or passive)):
            base = 0.75
        else:
            base = 0.6
        conf = base + (0.1 if self.ec is not EvidenceClass.descriptive else 0.0) - (0.2 if hedged else 0.0)
        conf -= 0.05 if len(low[ms[si].m.end : cue.start]) > 60 and not passive else 0.0
        return round(min(0.95, max(0.05, conf)), 2)

    def _unmoved_policy(self, si: int, cue: Cue) -> bool:
        """Whether the source is bare "monetary policy" acting with no stated move of the instrument."""
        ms, low = self.ms, self.low
        return bool(
            ms[si].m.variable_id == "policy_rate"
            and not ms[si].mod
            and cue.kind in ("directional", "noun")
            and re.fullmatch(r"(?:monetary\s+)?polic(?:y|ies)", ms[si].m.text.lower())
            and not re.search(
                r"\b(?:ease|eases|eased|easing|tighten\w*|loosen\w*|cut|cuts|cutting|raise[sd]?|raising|lower\w*)\s+"
                r"(?:the\s+|its\s+|their\s+|our\s+)?(?:stance\s+of\s+)?$",
                low[max(0, ms[si].m.start - 40) : ms[si].m.start],
            )
        )


def _risks_to_forecast(low: str, m: Mention) -> bool:
    """ "Risks to the inflation forecast": the forecast at risk is its variable's path, not another head."""
    return bool(
        re.match(r"\s+(?:forecasts?|projections?|outlook)\b", low[m.end :])
        and RISKS_AROUND.search(low, max(0, m.start - 60), m.start)
    )


def _moved_data(low: str, m: Mention) -> bool:
    """ "Lower-than-expected inflation data releases": data that moved are their variable's move."""
    return bool(
        re.match(r"\s+(?:data|readings?|releases?|figures?|prints?)\b", low[m.end :])
        and (
            UP_BEFORE.search(low, max(0, m.start - 60), m.start)
            or DOWN_BEFORE.search(low, max(0, m.start - 60), m.start)
        )
    )


def _vocabulary_mentions(sentence: str, vocab: Vocabulary) -> tuple[str, list[Mention]]:
    """The sentence as read (hyphenation and shared verbs mended) and its mentions that name a variable."""
    if TABLE_RESIDUE.search(sentence) or CROSS_SECTION.search(sentence.lower()):
        return sentence, []
    if AMBIVALENT.search(sentence.lower()):
        return sentence, []  # "may either raise or lower inflation": no direction is stated
    # PDF line-break hyphenation ("expec- tations"); "short- and long-term" keeps its hyphen.
    sentence = LINE_BREAK_HYPHEN.sub("", sentence)
    # "tariffs have boosted, and will continue to boost, inflation": one verb shared across the interruption
    sentence = RIGHT_NODE.sub(
        lambda m: m.group(1) + " " if m.group(2)[:4] == m.group(1)[:4].lower() else m.group(), sentence
    )
    raw = vocab.mentions_in_context(sentence)
    if len({m.variable_id for m in raw}) < 2:
        return sentence, []
    low = sentence.lower()
    # "policy rates increase debt costs": the inflected match of "rate increases" ends in a verb; the
    # mention is the plural noun before it.
    raw = [without_verb(m, low) for m in raw]
    # "trade channels", "liquidity risks": a mention that names a channel or a risk, not the variable.
    raw = [
        m
        for m in raw
        if not re.match(r"\s+channels?\b", low[m.end :])
        and not (HEAD_SHIFT.match(low[m.end :]) and not _risks_to_forecast(low, m) and not _moved_data(low, m))
        and not (m.text.lower() == "trade" and TRADE_HEAD.match(low[m.end :]))
        and not other_sense(low, m)
        and not (m.variable_id in PRIVATE_ONLY and PUBLIC_BEFORE.search(low[max(0, m.start - 60) : m.start]))
        and not (m.variable_id in PRIVATE_CREDIT and SOVEREIGN_AFTER.match(low, m.end))
        and not UNCERTAINTY_ABOUT.search(low[max(0, m.start - 40) : m.start])
        and not (m.variable_id == "market_liquidity" and re.match(r"\s+(?:risks?|costs?)\b", low[m.end :]))
        # "the previous monetary policy meeting": a meeting, not the instrument
        and not (m.variable_id == "policy_rate" and re.match(r"\s+meetings?\b", low[m.end :]))
        and not (
            m.variable_id == "investment"
            and re.match(r"\s+(?:funds?|banks?|banking|grade|financing|firms?|vehicles?)\b", low[m.end :])
        )
        # "grow at a subdued rate": a pace, not an interest rate
        and not (
            m.variable_id == "policy_rate"
            and m.text.lower() in ("rate", "rates")
            and re.search(r"\bat\s+(?:an?|the|its|their)\s+(?:[\w-]+\s+){0,2}$", low[max(0, m.start - 40) : m.start])
        )
    ]
    # "credit growth remained sluggish amid weak demand", "the resultant decline in demand … slowdown in the growth of
    # loans": beside the volume of credit, a bare "demand" is the demand for loans
    if any(m.variable_id == "credit_growth" for m in raw):
        raw = [m for m in raw if not (m.variable_id == "real_gdp" and m.text.lower() == "demand")]
    # "inflation volatility", "output volatility": the volatility of a macroeconomic variable is
    # neither that variable's level nor market volatility.
    raw = [
        m
        for m in raw
        if not (
            m.variable_id == "volatility" and any(x.variable_id in MACRO_LEVELS for x in vocab.mentions(m.text)[:1])
        )
    ]
    return sentence, raw


#: After an energy supply: its shortfall ("gas supply shortages", "oil supply disruptions").
SUPPLY_SHORTFALL_AFTER = re.compile(r"\s+(?:shortages?|shortfalls?|disruptions?|cuts?|outages?|interruptions?)\b")


def _mention_move(low: str, m: Mention, ends: set[int], vocab: Vocabulary) -> MentionMove | None:
    """The mention with the movement its words attach to it; ``None`` for a word that names no variable here."""
    adverse = vocab.get(m.variable_id).adverse_direction
    adv = 0 if adverse is None else (1 if adverse.value == "increase" else -1)
    sign, start = movement_modifier(low, m.start, ends, m.end, m.variable_id, adv)
    if sign > 0 and m.variable_id in PRICE_LEVELS and re.search(r"\brepricing\b", low[start : m.start]):
        sign = -1  # "an abrupt repricing of equities": asset prices reprice downwards (risk premia upwards)
    if sign and INTERRUPTED_AFTER.match(low[m.end :]):
        sign = -sign  # "the decline in inflation had been interrupted": the move stopped, pushed the other way
    if sign and DROPS_OUT_AFTER.match(low[m.end :]):
        sign = -sign  # "previous falls in energy prices would drop out of the annual rates": a base effect reverses
    if sign > 0 and SHORTFALL_AFTER.match(low[m.end :]):
        sign = -1  # "any pick-up in consumption is slower than expected": the shortfall is what acts
    if not sign:
        sign = inherent_move(m.text.lower()) or shock_move(low, m, start, vocab)
        if not sign and m.variable_id == "unemployment" and re.search(r"\b(?:losses|layoffs)\b", m.text.lower()):
            sign = 1  # "job losses", "layoffs": a rise in unemployment
        if (
            not sign
            and m.variable_id == "employment"
            and re.search(r"\b(?:losses|layoffs|cuts)\b", low[m.start : m.end + 8])
        ):
            sign = -1  # "job losses", "job cuts" read as employment: its fall
        if (
            not sign
            and m.variable_id == "employment"
            and re.search(r"\b(?:shed|sheds|shedding)\s+(?:\w+\s+)?$", low[max(0, m.start - 25) : m.start])
        ):
            sign = -1  # "firms would start to shed jobs": employment falls
    if (
        not sign
        and m.variable_id == "employment"
        and (
            LABOUR_REBALANCED_AFTER.match(low, m.end)
            or LABOUR_REBALANCING_BEFORE.search(low, max(0, m.start - 40), m.start)
        )
    ):
        sign = -1  # "as labor market conditions rebalanced", "the rebalancing of labor market conditions": it cools
    strength = TRANSMISSION_STRENGTH_BEFORE.search(low, max(0, m.start - 60), m.start)
    if not sign and m.variable_id == "policy_rate" and strength:
        sign, start = (1 if strength.group("up") else -1), strength.start()
    progress = PROGRESS_BEFORE.search(low, max(0, m.start - 80), m.start)
    if not sign and m.variable_id == "inflation" and progress:
        sign, start = -1, progress.start("p")
    if not sign:
        sign = infinitive_movement(low, m)
    gap = POTENTIAL_GAP_AFTER.match(low[m.end :])
    if not sign and gap and m.variable_id == "real_gdp":
        sign = -1 if gap.group(1) == "below" else 1  # "the economy growing below potential": slack, a weak economy
    if not sign:
        after_noun = NOUN_MOVE_AFTER.match(low[m.end :])
        if after_noun:
            sign = 1 if after_noun.group(1) else -1
    if not sign and m.variable_id == "oil_supply" and SUPPLY_SHORTFALL_AFTER.match(low, m.end):
        sign = -1  # "Russian gas supply shortages", "energy supply disruptions": the supply falls
    particle = PARTICLE_AFTER.match(low[m.end :])
    if not sign and particle and SPLIT_VERB_BEFORE.search(low[max(0, m.start - 60) : m.start]):
        sign = 1 if particle.group(1) in ("up", "higher", "above") else -1
    stance = POLICY_STANCE_AFTER.match(low[m.end :])
    other_policy = NON_MONETARY_BEFORE.search(low[max(0, m.start - 30) : m.start])
    if re.fullmatch(r"polic(?:y|ies)(?: settings?)?", m.text.lower()) and stance and not sign and not other_policy:
        # "policy that is too tight", "keeping policy restrictive": the stance is the move
        sign = 1 if stance.group(1) else -1
    elif re.fullmatch(r"polic(?:y|ies)(?: settings?)?", m.text.lower()) and not POLICY_MOVED_BEFORE.search(
        low[max(0, m.start - 30) : m.start]
    ):
        return None  # bare "policy" is monetary policy only when it is eased or tightened
    if m.text.lower() == "demand" and (
        not BARE_DEMAND_BEFORE.search(low[max(0, m.start - 30) : m.start])
        or re.match(r"\s+(?:for|from)\b", low[m.end :])
    ):
        return None  # "demand for options", "government demand": bare "demand" is the economy's only on its own
    return MentionMove(m, sign, start)


def start_reading(sentence: str, vocab: Vocabulary) -> SentenceReading | None:
    """The sentence ready for the rules, or ``None`` when it names fewer than two variables."""
    sentence, raw = _vocabulary_mentions(sentence, vocab)
    if len({m.variable_id for m in raw}) < 2:
        return None
    low = sentence.lower()
    ends = {m.end for m in raw}
    # "asset price corrections", "house price declines": a movement noun right after the mention.
    ms = [x for x in (_mention_move(low, m, ends, vocab) for m in raw) if x is not None]
    cues = find_cues(low, ms)
    # "previous falls in energy prices would drop out of the annual rates": the base effect is the reversed move (the
    # mention's modifier is reversed already), so the verb states that move, not a fall
    for k, c in enumerate(cues):
        if c.kind == "movement" and DROP_OUT.match(low, c.start):
            moved = [x for x in ms if x.m.end <= c.start and x.mod and DROPS_OUT_AFTER.match(low[x.m.end :])]
            if moved:
                cues[k] = Cue(c.start, c.end, c.text, moved[-1].mod, "movement")
    # "rate hikes raise …": a movement noun right after a mention and before a cue is the mention's modifier.
    for k, c in enumerate(cues):
        if c.kind != "movement" or k + 1 >= len(cues):
            continue
        prev = [x for x in ms if x.m.end <= c.start and not low[x.m.end : c.start].strip()]
        # ("past energy price surges were receding": an auxiliary may stand before the movement verb)
        if prev and re.fullmatch(
            r"\s*(?:(?:were|was|are|is|had|has|have|been|being)\s+)*", low[c.end : cues[k + 1].start]
        ):
            prev[-1].mod = prev[-1].mod or c.sign
            cues[k] = Cue(c.start, c.end, c.text, 0, "consumed")
    ec = evidence_class(sentence)
    hz = HORIZON.search(low)
    horizon = hz.group() if hz else None
    adverse_up = frozenset(
        x.m.variable_id for x in ms if getattr(vocab.get(x.m.variable_id).adverse_direction, "value", "") == "increase"
    )
    return SentenceReading(sentence, low, vocab, ms, cues, ec, horizon, adverse_up)
