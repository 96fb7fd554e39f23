"""The offline reader's rules, one named function per construction, run in the order of :data:`RULES`.

Each rule reads one kind of construction from a :class:`~aieco.extraction.reading.SentenceReading` and adds the
relations it states (or, for the movement rules, records the movements that later rules join). Every reading
carries the name of the rule that added it (``Reading.rule``), so ``aieco bench extraction`` can score each rule.
The clause rules (:data:`CLAUSE_RULES`) run per cue, in order, until one has read the cue; the sentence rules
(:data:`RULES`) run once each, in order. :func:`read_sentence` is the reader's entry point.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from aieco.extraction.clauses import (
    OBJECT_OF_A_REMEDY,
    Cue,
    MentionMove,
    cause_of_states,
    clause_end,
    clause_objects,
    clause_start,
    clause_subjects,
    combine_signs,
    coordinated_left,
    coordinated_right,
    feedback_loops,
    inherent_move,
    movement_sign,
    same_family,
)
from aieco.extraction.cues import (
    ABSOLUTE_WITH,
    ABSORB,
    ABSORBED_BY,
    ABSORBED_COST,
    ABSORBED_PASSIVE,
    ADDRESS_VERB,
    ADJECTIVE_ING,
    ADJECTIVE_ING_NOUN,
    ADVERSE_EFFECT,
    ADVERSE_EVENT,
    AGENT_TO_SETBACK,
    AGENTLESS_MOVE,
    AHEAD_OF,
    AMPLIFIER_RE,
    ATTRIBUTION,
    ATTRIBUTION_REJECTED,
    BE,
    BY_GERUND,
    BY_MAGNITUDE,
    CALLED_FOR_BEFORE,
    CAUSE_BETWEEN,
    CAUSE_NAMED,
    CLAUSE_BREAK,
    COMPARATIVE_AFTER,
    COMPARATIVE_WORD,
    CONDITION_AFTER,
    CONDITION_OPEN,
    CONDITION_OPENS,
    CONJ_ONLY,
    CONSEQUENCE_GAP,
    CONTINUING_AFTER,
    CONTRIBUTION_BOTH,
    CONTRIBUTION_MADE,
    CONTRIBUTION_TO_DISINFLATION,
    COORDINATED_STATE,
    COORDINATED_VERB,
    CORRELATIVE,
    CORRELATIVE_PART,
    COST_FEED_AFTER,
    COST_FROM,
    COST_PASS_BEFORE,
    COST_PRESSURE_BEFORE,
    CREATED,
    DAMPENER_RE,
    DIRECTIONLESS_HEAD,
    DOWN_IN_MAIN,
    DRIVEN_BY,
    DRIVER_OF,
    EFFECT_FOR_BEFORE,
    EFFECT_NOUN_FROM,
    EFFECT_PREDICATE,
    EFFECTS_INCLUDE,
    ENSURE_THAT,
    EXPERIENCED_AFTER,
    EXPERIENCED_BEFORE,
    FACTORS_NAMED,
    FADING_EFFECT_BEFORE,
    FRONTLOAD,
    FRONTLOAD_REASON,
    FRONTLOADED,
    GDP_COMPONENTS,
    GERUND_START,
    GROUND_TO_COVER_AFTER,
    GROUND_TO_COVER_BEFORE,
    HARDER_TO,
    HELD,
    HELD_BECAUSE,
    HELD_LEVEL_AFTER,
    HELPING_AFTER_COMMA,
    IMPOSED_AFTER,
    INFINITIVE_AFTER,
    INNER_DIRECTION,
    INTRANSITIVE_AFTER,
    INVENTORY_BEFORE,
    IS_DRIVER_OF,
    IS_HEADWIND_FOR,
    IS_RISK_TO,
    IT_CAUSES,
    LABOUR_REBALANCED_AFTER,
    LEVEL_AFTER,
    LEVEL_EXPLAINED_AFTER,
    LIFTED_AFTER,
    LIKELIHOOD_HEAD,
    LOOSE_BEFORE,
    MOVE_PURPOSE,
    MOVED_ADJECTIVE,
    MOVED_SUBJECT_BEFORE,
    NEW_SUBJECT_GAP,
    NOMINAL_CAUSE_AFTER,
    NOMINAL_FROM,
    NOMINAL_MOVE,
    NOT_A_COMPONENT,
    PARTICIPLE,
    PASS_THROUGH_NOUN,
    PASSING,
    PERSISTENT_LEVEL_AFTER,
    POLICY_FEEDS_THROUGH,
    POLICY_IMPACT_BEFORE,
    POLICY_LOWERS,
    POLICY_SEEN_IN,
    PRESSURES_FROM,
    PRODUCING,
    PROGRESS_SET_BACK,
    PURPOSE_TO,
    REACTION_FRONTED,
    REACTION_MAIN_VERB,
    RELATIVE_AFTER_STATE,
    RELATIVE_ASIDE,
    RESTRICTIVE_AFTER,
    RETURN_VERB,
    RISK_FROM,
    RISK_HEAD,
    RISK_HEAD_BEFORE,
    RISK_TILT,
    RISK_TO,
    RISK_UNDIRECTED,
    RISKS_AFTER,
    RISKS_AROUND,
    SLOWER_PACE,
    STABILISING_AFTER,
    STANCE_AFTER,
    SUBORDINATOR,
    SUPPORT_AFTER,
    SUPPORT_GOAL_AFTER,
    SUPPORT_GOAL_BEFORE,
    SURPRISE_AFTER,
    TARGET_GOAL_BEFORE,
    THREAT_TO,
    THUS,
    TIGHTNESS,
    TILT_REASON,
    TILTING_RISKS,
    TO_MEET,
    TO_TARGET_AFTER,
    TOO_LITTLE,
    TRANSITIVE_MOVEMENTS,
    TRANSMISSION_OF,
    TRANSMISSION_TARGETS,
    TRANSMITTED,
    TRANSMITTED_TO,
    TRANSMITTED_WHERE,
    WEAK_PACE,
    WITH_FRONTED,
    WITH_LEVEL_AFTER,
    WITH_TO_MAIN,
)
from aieco.extraction.reading import Reading, SentenceReading, start_reading
from aieco.vocab import Vocabulary


@dataclass
class Clause:
    """One cue and the clause around it, as the clause rules resolve it."""

    k: int
    cue: Cue
    lo: int
    hi: int
    next_cue: int
    subs: list[int] = field(default_factory=list)
    objs: list[int] = field(default_factory=list)
    participle: bool = False
    implied: dict[int, int] = field(default_factory=dict)  # movement a source carries from an earlier clause
    chained: list[int] = field(default_factory=list)  # objects after "and thus": consequences of the one before
    moves: dict[int, int] = field(default_factory=dict)  # movement the clause gives each object
    src_mod: int = 0  # the last source movement paired (the "and thus" chain continues it)
    resolved: bool = False
    stopped: bool | None = None  # whether linking to the previous clause ended the cue (None: not linked yet)


def moved_noun(low: str, x: MentionMove) -> bool:
    """Whether the mention names a movement of its variable ("the decline in inflation", "the disinflation
    process", "the slowdown"), which a verb acting on it reverses or reinforces."""
    return bool(
        NOMINAL_MOVE.search(low, x.start, x.m.start) or (x.start == x.m.start and inherent_move(x.m.text.lower()))
    )


#: A degree between the copula and the verb or comparative: "was a little lower because of …", "were slightly raised".
DEGREE = r"(?:\w+ly\s+|a\s+little\s+|a\s+bit\s+|somewhat\s+|much\s+|far\s+|even\s+|still\s+)?"


def passive_voice(r: SentenceReading, c: Clause) -> bool:
    """Y is depressed by higher X: the agent after "by" (or "owing to") is the source."""
    low, ms, cue, lo, hi, next_cue = r.low, r.ms, c.cue, c.lo, c.hi, c.next_cue
    after = low[cue.end :]
    by = re.match(r"\s+(?:(?:hard|heavily|badly|\w+ly)\s+)?by\b", after)
    if by is not None and BY_MAGNITUDE.match(after, by.end()):
        by = None  # "wages increased by more than expected", "rates were raised by 50 basis points": a size, no agent
    if by is None and cue.kind == "directional" and re.search(rf"\b{BE}\s+{DEGREE}$", low[lo : cue.start]):
        # "consumption and investment are crowded out owing to higher rates": the cause phrase names the agent
        by = re.match(
            r"\s+(?:out\s+)?(?:(?:hard|heavily|badly|\w+ly)\s+)?(?:owing\s+to|due\s+to|because\s+of|as\s+a\s+result\s+of)"
            r"(?:\s+both)?\b",
            after,
        )
    passive = by and (
        re.search(rf"\b{BE}\s+{DEGREE}$", low[lo : cue.start]) or re.search(r"ed$|en$|hit$|cut$", cue.text)
    )
    if (
        not by
        and cue.kind == "directional"
        and cue.sign
        and re.search(r"(?:ed|cut)$", cue.text.split()[0])
        and AGENTLESS_MOVE.search(low[lo : cue.start])
    ):
        # "the policy rate needs to be raised further to ensure that …": a passive with no agent states its
        # subject's move (an instrument's), which later rules join; the verb has no object
        subs = [i for i, x in enumerate(ms) if x.m.end <= cue.start and x.start >= lo]
        if (
            subs
            and ms[subs[-1]].m.variable_id in TIGHTNESS
            and re.fullmatch(r"\s+(?:\w+\s+){0,6}?", low[ms[subs[-1]].m.end : cue.start])
        ):
            r.states.append((subs[-1], cue.sign, cue))
            return True
    if not passive or cue.kind not in ("directional", "neutral", "movement"):
        return False
    if cue.kind == "movement":
        return True
    targets = [i for i, x in enumerate(ms) if x.m.end <= cue.start and x.start >= lo]
    pcue = Cue(cue.start, cue.end + by.end(), cue.text, cue.sign, cue.kind)
    sources = clause_objects(low, ms, pcue, hi, next_cue)
    # "was partly explained by government measures to contain energy price increases": the object of a remedy is no
    # agent
    sources = [si for si in sources if not OBJECT_OF_A_REMEDY.search(low, max(0, ms[si].start - 40), ms[si].start)]
    if targets and sources:
        # "the job losses and price increases caused by tariffs": a co-ordinated list is the target
        listed = sorted(coordinated_left(low, ms, targets[-1], lo))
        for t in listed:
            for si in sources:
                # The target's movement is stated before the verb ("yields fell, driven by …"), not produced.
                sign = combine_signs(cue.sign, cue.kind, ms[si].mod, ms[t].mod, default_rise=False)
                if not sign and cue.kind == "neutral" and not ms[t].mod and CREATED.match(cue.text):
                    sign = ms[si].mod or 1  # "the uncertainty created by tariffs": the target is produced
                verb = " ".join(cue.text.split()[-1:])
                # the target's move: its modifier, or a move stated before ("investment fell, exacerbated by X")
                moved = ms[t].mod or next((sg for i, sg, sc in reversed(r.states) if i == t and sc.end <= cue.start), 0)
                if moved and cue.kind == "directional" and AMPLIFIER_RE.match(verb):
                    sign = (ms[si].mod or 1) * moved  # "a correction in Y could be amplified by X"
                elif moved and cue.kind == "directional" and DAMPENER_RE.match(verb):
                    sign = -(ms[si].mod or 1) * moved
                elif ms[t].mod and cue.kind == "directional" and cue.sign and moved_noun(low, ms[t]):
                    sign = cue.sign * (ms[si].mod or 1) * ms[t].mod  # "disinflation supported by restrictive policy"
                r.add(si, t, sign, cue, True)
        r.previous = (sources, listed, ms[sources[-1]].m.end, {})
    return True


def reverse_connector(r: SentenceReading, c: Clause) -> bool:
    """The widening of spreads reflects an increase in risk premia: the source follows the verb."""
    low, ms, cue, lo, hi, next_cue = r.low, r.ms, c.cue, c.lo, c.hi, c.next_cue
    if cue.kind != "reverse":
        return False
    targets = [i for i, x in enumerate(ms) if x.m.end <= cue.start and x.start >= lo]
    if ATTRIBUTION_REJECTED.search(low, 0, cue.start):
        return True  # "cautioned against portraying the high level of inflation as being the result of …"
    if low[hi : hi + 1] == ":" and FACTORS_NAMED.fullmatch(low, cue.end, hi):
        hi = next_cue = clause_end(low, hi + 1)  # "was due to global factors: oil prices, supply bottlenecks, …"
    sources = clause_objects(low, ms, cue, hi, next_cue)
    if targets and sources:
        t = targets[-1]
        # "our decision to cut rates reflects weaker growth": the move an earlier verb gave the target
        t_mod = ms[t].mod or (r.previous[3].get(t, 0) if r.previous is not None and t in r.previous[1] else 0)
        # "growth had been revised up, reflecting the expected fading of supply bottlenecks": a move stated before
        t_mod = t_mod or next((sg for i, sg, sc in reversed(r.states) if i == t and sc.end <= cue.start), 0)
        for si in sources:
            both = ms[si].mod * t_mod
            sign = both if both else (1 if re.match(r"stem|aris|origin", cue.text) else 0)
            if not both and t_mod and not ms[si].mod and ms[si].m.variable_id in r.adverse_up:
                sign = t_mod  # "the decline in exports reflects the tariffs": the risk's presence
            elif not both and t_mod > 0 and not ms[si].mod and CAUSE_NAMED.match(cue.text):
                sign = 1  # "the current increase in inflation was due to global factors: oil and commodity prices, …"
            elif (
                not t_mod
                and not ms[si].mod
                and DRIVEN_BY.search(cue.text)
                and not re.search(r"\b(?:rather\s+than|not|instead\s+of)\s+$", low[max(0, cue.start - 25) : cue.start])
            ):
                sign = 1  # "core inflation was being driven by external factors, including energy prices"

            if cue.sign:  # "Y suffers from higher X": the verb's sign times the source's move
                sign = cue.sign * (ms[si].mod or 1)
            r.add(si, t, sign, Cue(cue.start, cue.end, cue.text, 0, "neutral"), True)
    return True


def resolve_parties(r: SentenceReading, c: Clause) -> None:
    """The cue's subjects and objects: participles, "by"-gerunds and "while"-gerunds take the clause's subject."""
    if c.resolved:
        return
    c.resolved = True
    low, ms, cue, lo, hi, next_cue = r.low, r.ms, c.cue, c.lo, c.hi, c.next_cue
    c.objs = clause_objects(low, ms, cue, hi, next_cue)
    # Co-ordinated subjects never reach back into the previous clause's objects.
    c.subs = clause_subjects(low, ms, cue, lo, r.previous[2] if r.previous is not None else 0)
    c.participle = bool(PARTICIPLE.match(cue.text)) and bool(
        re.search(r"(?:,|\s[–—-])\s*(?:\w+\s+)?$", low[: cue.start])
    )
    if c.participle and c.objs and (not c.subs or c.subs[0] in (r.previous[1] if r.previous is not None else [])):
        # "…, giving rise to confidence shocks": the subject of the sentence's earlier clause.
        if r.previous is not None and r.previous[1]:
            c.subs = r.previous[1]
        elif r.last_subs:
            c.subs = r.last_subs
    if (
        BY_GERUND.search(low, 0, cue.start)
        and cue.text.split()[0].endswith("ing")
        or (cue.kind == "noun" and re.search(r"\b(?:via|through)\s+$", low[: cue.start]))
    ):
        # "X raises Y but, by strengthening Z, …" ("monetary policy controlled inflation via a dampening effect on
        # activity"): the means belongs to the clause's subject, never to the nearest mention.
        c.subs = list(r.previous[0]) if r.previous is not None else list(r.last_subs)
    if (
        c.subs
        and cue.text.split()[0].endswith("ing")
        and re.fullmatch(
            r"\s*,?\s*(?:while|whilst)\s+(?:at\s+the\s+same\s+time\s*,?\s*)?", low[ms[c.subs[0]].m.end : cue.start]
        )
        and (r.previous is None or c.subs[0] not in r.previous[1])
    ):
        # "AI could help the economy achieve higher growth while reducing inflation": the gerund's subject is
        # the clause's subject, never the object of a verb the reader did not read
        c.subs = []
    if c.subs:
        r.last_subs = c.subs


def movement_clause(r: SentenceReading, c: Clause) -> bool:
    """As policy rates rise, house prices fall: a verb of movement states its subject's move."""
    resolve_parties(r, c)
    if c.cue.kind != "movement":
        return False
    low, ms, cue = r.low, r.ms, c.cue
    noun = ADJECTIVE_ING_NOUN.match(low, cue.end) if cue.text.endswith("ing") else None
    if noun and ADJECTIVE_ING.search(low, 0, cue.start) and not any(cue.end < x.m.start < noun.end() for x in ms):
        return True  # "if rising real incomes raise spending": an adjective of a noun the vocabulary does not name
    # An intransitive movement has no object right after it ("as rates rise, prices fall").
    transitive = cue.text.split()[0] in TRANSITIVE_MOVEMENTS
    c.objs = [i for i in c.objs if transitive and not re.search(r"[,;]|\b(?:when|as|if)\b", low[cue.end : ms[i].start])]
    if c.subs and not c.objs and cue.sign > 0 and WEAK_PACE.match(low[cue.end :]):
        return True  # "the economy continues to grow slowly": weak growth, no rise to read
    if c.subs and not c.objs:
        slower = cue.sign > 0 and SLOWER_PACE.match(low[cue.end :])  # "grow more slowly": the rate falls
        r.states.extend((si, -1 if slower else cue.sign, cue) for si in c.subs)
    elif not c.subs and c.objs and transitive:
        # "central banks eased monetary policy as inflation fell": the object moves.
        r.states.append((c.objs[0], cue.sign, cue))
        r.previous = ([], c.objs, ms[c.objs[-1]].m.end, {oi: cue.sign for oi in c.objs})
    elif c.subs and c.objs:
        after_state = (bool(re.search(r",\s*$", low[: cue.start])) and cue.text.split()[0].endswith("ing")) or bool(
            HELPING_AFTER_COMMA.search(low, 0, cue.start)
        )
        for si in c.subs:
            # "The labour market has cooled, easing wage pressures": the participle carries the stated move
            moved = [sg for i, sg, sc in r.states if i == si and sc.end <= cue.start] if after_state else []
            src_mod = ms[si].mod or (moved[-1] if moved else 0)
            for oi in c.objs:
                r.add(
                    si,
                    oi,
                    combine_signs(cue.sign, "directional", src_mod, ms[oi].mod),
                    Cue(cue.start, cue.end, cue.text, cue.sign, "directional"),
                    False,
                )
        r.previous = (c.subs, c.objs, ms[c.objs[-1]].m.end, {})
    return True


def link_previous_clause(r: SentenceReading, c: Clause) -> bool:
    """Subjects taken from the clause before (shared subject, "which in turn", purpose infinitive, gerund).

    True when the link ends the cue (a co-ordinated verb of no vocabulary subject, a purpose without a move).
    """
    if c.stopped is not None:
        return c.stopped
    c.stopped = True
    low, ms, cue = r.low, r.ms, c.cue
    if cue.kind == "noun" and re.search(r"\b(?:the\s+(?:more|less|greater)|and|or|with)\s+$", low[: cue.start]):
        # "the weaker the economy and the more downward pressure on inflation": a noun phrase, no predicate
        c.subs = []
    c.implied = {}
    purpose = r.previous is not None and r.previous[1] and PURPOSE_TO.match(low[r.previous[2] : cue.start])
    if not c.subs and c.objs and purpose and r.previous is not None:
        c.subs = list(r.previous[1])  # "to tighten monetary policy to bring inflation down": the object acts
    if (
        c.subs
        and r.previous is not None
        and not r.previous[0]
        and c.subs[0] in r.previous[1]
        and r.previous[3].get(c.subs[0])
        and GERUND_START.search(low[clause_start(low, ms[c.subs[0]].start) : ms[c.subs[0]].start])
    ):
        # "Reducing policy restraint too fast could hinder …": the gerund's move of its object acts
        c.implied = {c.subs[0]: r.previous[3][c.subs[0]] * (ms[c.subs[0]].mod or 1)}
        if TOO_LITTLE.search(low, ms[c.subs[0]].m.end, cue.start):
            # "reducing policy restraint too slowly or too little": a move short of what is needed leaves
            # the variable where it was, the opposite of the move
            c.implied[c.subs[0]] *= -1
    if r.previous is not None and (c.subs or c.objs):
        prev_subs, prev_objs, prev_end, prev_moves = r.previous
        between = low[prev_end : cue.start]
        relative = re.search(r"\bwhich\b|\bin turn\b|\bthis\b|\bthereby\b", between) or re.match(
            r"(?:resulting|leading|translating|contributing)\b", cue.text
        )
        if c.subs and c.subs[0] in prev_objs and CONJ_ONLY.match(between) and not relative:
            c.subs = prev_subs  # shared subject: "X raises Y and lowers Z"
        elif (
            (not c.subs or c.subs[0] in prev_objs or c.subs[0] in prev_subs)
            and not c.participle
            and not relative
            and COORDINATED_VERB.search(between)
            and not CLAUSE_BREAK.search(between)
            and not NEW_SUBJECT_GAP.search(between)
            and cue.kind != "movement"
        ):
            # "This boosts Y in the medium term and increases Z": the earlier verb's subject, which
            # may be no vocabulary variable at all (then nothing is read).
            c.subs = prev_subs
            if not c.subs:
                r.previous = ([], c.objs, ms[c.objs[-1]].m.end, {}) if c.objs else r.previous
                return True
        elif c.subs and c.subs[0] in prev_objs and relative and not ms[c.subs[0]].mod:
            # "Tariffs reduce trade, which in turn lowers GDP": the fall in trade lowers GDP.
            c.implied = {c.subs[0]: prev_moves.get(c.subs[0], 0)}
        elif (
            c.subs
            and c.subs[0] in prev_objs
            and prev_subs
            and re.match(r"\s+(?:that|which|who)\s", low[ms[prev_subs[-1]].m.end :])
            and not re.search(r"[,;:–—]|\b(?:and|but|or|which|that|to|as|when|if|while|because)\b", between)
        ):
            # "Low rates that supported the economy also helped fuel house prices": the relative clause has
            # ended and the main verb takes the head before "that"
            c.subs = prev_subs
        elif c.subs and c.subs[0] in prev_objs and PURPOSE_TO.match(between) and not ms[c.subs[0]].mod:
            # "The Bank lowered its policy rate to support growth": the purpose infinitive's agent is the
            # one who moved the object, so the object's stated move is what acts; unstated, nothing is read.
            if not prev_moves.get(c.subs[0]):
                r.previous = (prev_subs, prev_objs, prev_end, prev_moves)
                return True
            c.implied = {c.subs[0]: prev_moves[c.subs[0]]}
    c.stopped = False
    return False


def object_move(r: SentenceReading, c: Clause) -> bool:
    """In response to higher inflation, central banks raised policy rates: the object moves (no variable acts)."""
    if link_previous_clause(r, c):
        return True
    low, ms, cue = r.low, r.ms, c.cue
    if c.subs or not c.objs or cue.kind not in ("directional", "noun"):
        return False
    # "Shocks negatively affect confidence, resulting in …": remember the object's movement.
    r.previous = ([], c.objs, ms[c.objs[-1]].m.end, {oi: cue.sign for oi in c.objs})
    if cue.kind == "directional" and not ms[c.objs[0]].mod:
        # "In response to higher inflation, central banks raised policy rates": the object moves; "it would
        # be more difficult to cut the policy rate": the move is held back, the opposite is stated
        held_back = bool(HARDER_TO.search(low, max(0, cue.start - 40), cue.start)) != bool(
            re.match(r"\s+(?:(?:much|even)\s+)?(?:less|by\s+less|more\s+slowly)\b", low[ms[c.objs[-1]].m.end :])
        )  # "would cut the policy rate less": a smaller move, relatively the opposite
        r.states.append((c.objs[0], -cue.sign if held_back else cue.sign, cue))
    elif cue.kind == "directional" and ms[c.objs[0]].mod == inherent_move(ms[c.objs[0]].m.text.lower()) != 0:
        # "we have reduced our policy restraint": the verb moves a variable named by its own move
        r.states.append((c.objs[0], cue.sign * ms[c.objs[0]].mod, cue))
    return True


def adverse_move(r: SentenceReading, i: int) -> int:
    """The move that worsens mention ``i``'s variable (+1 or -1; 0 for a variable of no adverse direction)."""
    adverse = getattr(r.vocab.get(r.ms[i].m.variable_id).adverse_direction, "value", "")
    return 1 if adverse == "increase" else -1 if adverse == "decrease" else 0


def intransitive_verb(r: SentenceReading, c: Clause) -> bool:
    """If energy prices were to rise, inflation would increase: a directional verb used intransitively."""
    if link_previous_clause(r, c):
        return True
    if c.subs and not c.objs and c.cue.kind == "directional" and INTRANSITIVE_AFTER.match(r.low[c.cue.end :]):
        move = movement_sign(c.cue.text)
        if not move and c.cue.text.startswith("worsen"):
            move = adverse_move(r, c.subs[0])  # "economic sentiment could worsen": its adverse way
        if move:
            # "if wages or profit margins increased": every co-ordinated subject moves
            r.states.extend((si, move, c.cue) for si in c.subs)
            return True
    return False


def _carried_moves(r: SentenceReading, c: Clause) -> None:
    """Movements the subjects carry from the clause before ("Fire sales depress asset prices, triggering …")."""
    low, ms, cue = r.low, r.ms, c.cue
    if (
        r.previous is not None
        and c.subs
        and re.search(r",\s*(?:\w+\s+)?$", low[: cue.start])
        and cue.text.split()[0].endswith("ing")
        and all(si in r.previous[1] for si in c.subs)
    ):
        # "Fire sales depress asset prices, triggering margin calls": the object's stated move acts.
        for si in c.subs:
            if not ms[si].mod and r.previous[3].get(si):
                c.implied.setdefault(si, r.previous[3][si])
    c.moves = {}
    participle_after_comma = (
        # "…, likely contributing to", "…, further reducing": an adverb may stand before the participle
        bool(re.search(r",\s*(?:(?:\w+ly|further|also|thereby|thus)\s+)?$", low[: cue.start]))
        and cue.text.split()[0].endswith("ing")
    ) or bool(HELPING_AFTER_COMMA.search(low, 0, cue.start))
    # "Risk premia had declined, compressing bond spreads and boosting equity prices": a second participle joined by
    # "and" to one after the comma carries the same move
    participle_after_comma = participle_after_comma or (
        cue.text.split()[0].endswith("ing")
        and bool(re.search(r",\s*(?:\w+ly\s+)?\w+ing\s+[^,;:.]{1,60}?\band\s+$", low[: cue.start]))
    )
    if participle_after_comma or RELATIVE_AFTER_STATE.search(low, 0, cue.start):
        # "Market liquidity deteriorated, amplifying price swings": the participle carries the stated move.
        for si in c.subs:
            moved = [sg for i, sg, sc in r.states if i == si and sc.end <= cue.start]
            if moved and not ms[si].mod:
                c.implied.setdefault(si, moved[-1])
            level = LEVEL_AFTER.match(low[ms[si].m.end : cue.start])
            if not moved and not ms[si].mod and level:
                # "the policy rate is now at the low end of the neutral range, which should support growth"
                c.implied.setdefault(si, 1 if level.group(1) else -1)


def active_clause(r: SentenceReading, c: Clause) -> bool:
    """Higher tariffs raise import prices and lower trade volumes: subjects and objects of a verb or connector."""
    if link_previous_clause(r, c):
        return True
    low, ms, cue = r.low, r.ms, c.cue
    if not c.subs or not c.objs:
        return True
    if not ms[c.subs[-1]].mod and HELD.search(low[ms[c.subs[-1]].m.end : cue.start]):
        return True  # "kept the policy rate unchanged to support growth": the instrument did not move
    _carried_moves(r, c)
    # "lead to lower inflation and thus a decline in rates": what follows "and thus" is the consequence of the
    # object before it, not a second object of the verb.
    chain = next(
        (k for k in range(1, len(c.objs)) if THUS.search(low[ms[c.objs[k - 1]].m.end : ms[c.objs[k]].start])), None
    )
    c.chained = c.objs[chain:] if chain is not None else []
    c.objs = c.objs[:chain] if chain is not None else c.objs
    src_mod = 0
    first = min((ms[si].start for si in c.subs), default=0)
    for si in c.subs:
        # a modifier covers the list after it ("lower exports and investment"), never one before it
        # ("uncertainty and weak confidence weigh on …": only confidence is weak)
        src_mod = c.implied.get(si) or ms[si].mod or (ms[c.subs[0]].mod if ms[c.subs[0]].start <= ms[si].start else 0)
        if not src_mod and DIRECTIONLESS_HEAD.search(low, max(0, first - 80), first):
            continue  # "the latest developments in oil prices … imply a downward impact": no direction stated
        if src_mod and FADING_EFFECT_BEFORE.search(low, max(0, ms[si].start - 60), ms[si].start):
            src_mod = -src_mod  # "the fading effects of restrictive policy support consumption": its reversal acts
        for oi in c.objs:
            # "reductions in consumption and investment": the movement covers the whole list.
            dst_mod = ms[oi].mod or ms[c.objs[0]].mod
            if (
                not dst_mod
                and cue.kind == "neutral"
                and (INFINITIVE_AFTER.match(low[ms[oi].m.end :]) or STABILISING_AFTER.match(low[ms[oi].m.end :]))
            ):
                continue  # "cause consumption to stabilise", "contribute to inflation stabilising": no direction
            producing = cue.kind != "neutral" or bool(PRODUCING.match(cue.text))
            if PASSING.match(" ".join(cue.text.split())):
                # Pass-through keeps the direction only within one family (rates to rates, prices to
                # prices); "financing costs are reflected in house prices" says nothing of the sign.
                producing = same_family(ms[si].m.variable_id, ms[oi].m.variable_id)
            if (
                ATTRIBUTION.match(" ".join(cue.text.split()))
                and not src_mod
                and dst_mod
                and same_family(ms[si].m.variable_id, ms[oi].m.variable_id)
            ):
                # "energy prices accounted for the decline in inflation": a component moved with the total
                src_mod = dst_mod
            sign = combine_signs(cue.sign, cue.kind, src_mod, dst_mod, default_rise=producing)
            if (
                PASSING.match(" ".join(cue.text.split()))
                and ms[si].m.variable_id == "exchange_rate"
                and ms[oi].m.variable_id in ("inflation", "import_prices")
                and src_mod * dst_mod != 1
            ):
                sign = -1  # "the depreciation of the euro feeds through to consumer prices": a weaker currency, dearer
            before = low[max(0, ms[oi].m.start - 40) : ms[oi].m.start]
            risk = RISK_TO.search(before)
            if risk is None and RISK_UNDIRECTED.search(before):
                risk = RISK_TILT.search(low, ms[oi].m.end)
                if risk is None:
                    continue  # "the war increased the risks to growth": which way is not said
            if risk and cue.kind == "directional":
                sign *= -1 if risk.group(1) == "downside" else 1
            elif risk and cue.kind == "neutral" and not dst_mod:
                sign = (src_mod or 1) * (-1 if risk.group(1) == "downside" else 1)
            if dst_mod and cue.kind == "directional" and AMPLIFIER_RE.match(" ".join(cue.text.split())):
                sign = (src_mod or 1) * dst_mod  # "amplify the decline in Y": Y falls further
            elif dst_mod and cue.kind == "directional" and DAMPENER_RE.match(" ".join(cue.text.split())):
                sign = -(src_mod or 1) * dst_mod
            elif cue.kind == "directional" and ms[oi].mod and moved_noun(low, ms[oi]):
                # "slow the decline in inflation", "hinder progress on inflation", "support a recovery in
                # spending", "support the disinflation process": the verb acts on a movement, whose direction it
                # carries to the variable
                sign = cue.sign * (src_mod or 1) * ms[oi].mod
            r.add(si, oi, sign, cue, False)
            c.moves.setdefault(oi, (src_mod or 1) * sign)
    head = ms[c.subs[0]].start if c.subs else 0
    if (
        c.subs
        and not any(ms[si].mod or any(i == si for i, _, _ in r.states) for si in c.subs)
        and SUBORDINATOR.search(low, max(0, head - 25, low.rfind(",", 0, head) + 1), head)
    ):
        # "inflation may surprise on the downside if monetary policy dampens demand by more than expected": in
        # a condition whose subject's own move is not stated, the object's move is the condition's state, which
        # subordinate_states joins to the main clause's
        r.states.extend((oi, c.moves[oi], cue) for oi in c.objs if c.moves.get(oi))
    c.src_mod = src_mod
    return False


def consequence_chain(r: SentenceReading, c: Clause) -> bool:
    """Higher rates lead to lower inflation and thus a decline in bond yields: what follows "and thus" is caused
    by the object before it."""
    low, ms, cue, src_mod = r.low, r.ms, c.cue, c.src_mod
    if c.chained:
        a = c.objs[-1]
        a_move = ms[a].mod or (cue.sign if cue.kind in ("directional", "noun") else 1) * (src_mod or 1)
        link = THUS.search(low, ms[a].m.end, ms[c.chained[0]].start)
        for b in c.chained:
            at, said = (link.start(), " ".join(link.group().split())) if link else (ms[b].start, "and thus")
            r.add(a, b, a_move * (ms[b].mod or a_move), Cue(at, at, said, 0, "neutral"), False)
        c.objs = c.objs + c.chained
    r.previous = (c.subs, c.objs, ms[c.objs[-1]].m.end, c.moves)
    return True


#: Rules that read one cue's clause, in order; the first that returns True has read the cue.
CLAUSE_RULES: tuple[Callable[[SentenceReading, Clause], bool], ...] = (
    passive_voice,
    reverse_connector,
    movement_clause,
    object_move,
    intransitive_verb,
    active_clause,
    consequence_chain,
)


def clauses(r: SentenceReading) -> None:
    """Each cue in turn, read by the first clause rule that applies (co-movements state no channel)."""
    low = r.low
    for k, cue in enumerate(r.cues):
        if cue.kind == "consumed":
            continue
        if cue.kind == "comovement":
            # "went hand in hand with", "coincided with": an association is described, no channel is stated.
            r.previous = None
            continue
        nxt = next((x.start for x in r.cues[k + 1 :] if x.kind != "consumed"), len(low))
        c = Clause(k, cue, clause_start(low, cue.start), clause_end(low, cue.end), nxt)
        for rule in CLAUSE_RULES:
            if r.run(rule.__name__, lambda rule=rule, c=c: rule(r, c)):
                break


def seen_movement(r: SentenceReading) -> None:
    """Financial markets saw a significant rise in volatility: the noun phrase states the movement."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        if x.mod and EXPERIENCED_BEFORE.search(low[max(0, x.start - 40) : x.start]):
            r.states.append((i, x.mod, Cue(x.start, x.start, "saw a movement", x.mod, "movement")))


def nominal_movement(r: SentenceReading) -> None:
    """A sharp increase in unemployment due to weaker demand: a movement noun with its cause after it."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        nominal = NOMINAL_CAUSE_AFTER.match(low[x.m.end :])
        # "disruptions in global supply chains due to geopolitical developments": a noun naming the adverse event
        # itself is its rise
        event = nominal and not x.mod and x.m.variable_id in r.adverse_up and ADVERSE_EVENT.search(x.m.text.lower())
        if (x.mod and x.start < x.m.start or event) and nominal:
            mod = x.mod or 1
            # the cue sits at the connector, so a negation before it ("was not due to") is seen
            conn = re.search(r"due to|owing to|because of|as a result of|in response to", nominal.group())
            at = x.m.end + (conn.start() if conn else 0)
            r.states.append((i, mod, Cue(at, at, "movement due to", mod, "movement")))
        elif x.mod and NOMINAL_FROM.match(low[x.m.end :]):
            # "price increases from higher tariffs", "job losses resulting from weaker exports"
            r.states.append((i, x.mod, Cue(x.m.end, x.m.end, "movement from", x.mod, "movement")))


def labour_rebalanced(r: SentenceReading) -> None:
    """Core services inflation should decline as the labor market continued to move into better balance: a labour
    market that rebalances is a stated fall (it cools)."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        moved = LABOUR_REBALANCED_AFTER.match(low, x.m.end) if x.m.variable_id == "employment" else None
        if moved and all(k != i for k, _, _ in r.states):
            r.states.append((i, -1, Cue(x.m.end, moved.end(), moved.group().strip(), -1, "movement")))


def level_explained(r: SentenceReading) -> None:
    """Residential investment was weak in the second quarter, likely reflecting the pickup in mortgage rates: a level
    named with its cause is the move the cause explains."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        level = LEVEL_EXPLAINED_AFTER.match(low, x.m.end)
        if level and not x.mod and all(k != i for k, _, _ in r.states):
            sign = -1 if level.group("down") else 1
            r.states.append((i, sign, Cue(level.start(), level.end(), level.group().strip(), sign, "movement")))


def movement_recorded(r: SentenceReading) -> None:
    """House prices have seen some correction, equities recorded strong gains: a state after the mention."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        seen = EXPERIENCED_AFTER.match(low[x.m.end :])
        if seen:
            at = x.m.end + seen.end()
            r.states.append((i, 1 if seen.group(1) else -1, Cue(at, at, "saw a movement", 0, "movement")))


def risk_imposed(r: SentenceReading) -> None:
    """If tariffs are imposed, if uncertainty persists: a risk put in place or kept is its rise."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        put = IMPOSED_AFTER.match(low[x.m.end :])
        if put and not x.mod and x.m.variable_id in r.adverse_up:
            at = x.m.end + put.end()
            # "if tariffs and uncertainty were to continue": the list shares the state (one cue, no cause within)
            for j in coordinated_left(low, ms, i, clause_start(low, x.start)):
                if not ms[j].mod and ms[j].m.variable_id in r.adverse_up:
                    r.states.append((j, 1, Cue(at, at, put.group().strip(), 1, "movement")))


def risk_lifted(r: SentenceReading) -> None:
    """As tariffs were scaled back: a risk taken away is its fall."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        lifted = LIFTED_AFTER.match(low[x.m.end :])
        if lifted and not x.mod and x.m.variable_id in r.adverse_up and not any(j == i for j, _, _ in r.states):
            at = x.m.end + lifted.end()
            for j in coordinated_left(low, ms, i, clause_start(low, x.start)):
                if not ms[j].mod and ms[j].m.variable_id in r.adverse_up:
                    r.states.append((j, -1, Cue(at, at, lifted.group().strip(), -1, "movement")))


def continuing_or_comparative(r: SentenceReading) -> None:
    """As rate cuts accumulated; when funding costs are higher: a move that goes on, or a comparative predicate."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        if any(j == i for j, _, _ in r.states):
            continue
        going = CONTINUING_AFTER.match(low[x.m.end :]) if x.mod else None
        if going:
            at = x.m.end + going.end()
            r.states.append((i, x.mod, Cue(at, at, going.group().strip(), x.mod, "movement")))
            continue
        comp = COMPARATIVE_AFTER.match(low[x.m.end :])
        if comp and not x.mod:
            at = x.m.end + comp.end()
            sign = 1 if comp.group(1) else -1
            effect = EFFECT_FOR_BEFORE.search(low, max(0, x.start - 80), x.start)
            if effect and not effect.group("bad"):
                continue  # "the effects on growth will be larger": the effects grow, in no stated direction
            if effect:
                sign = -sign  # "the negative consequences for growth will be much greater": growth suffers more
            r.states.append((i, sign, Cue(at, at, comp.group().strip(), sign, "movement")))
            continue
        level = PERSISTENT_LEVEL_AFTER.match(low[x.m.end :])
        # ("if inflation stays elevated": a condition on a level, read by conditional_level)
        if (
            level
            and not x.mod
            and not re.search(r"\b(?:if|unless)\s+(?:\w+\s+){0,3}$", low[max(0, x.start - 40) : x.start])
        ):
            # "because inflation remains far too high", "price pressures remain strong": a level held, read as
            # the move it keeps up (only after "remain"/"stay", or "too high")
            at = x.m.end + level.end()
            sign = 1 if level.group(1) or level.group(3) else -1
            cue = Cue(at, at, level.group().strip(), sign, "movement")
            r.states.append((i, sign, cue))
            if "too" not in level.group().split():  # "remains far too high" states more than a level
                r.held_levels.add(cue)
            continue
        surprise = SURPRISE_AFTER.match(low[x.m.end :])
        if surprise and not x.mod:
            at = x.m.end + surprise.end()
            sign = 1 if surprise.group(1) or surprise.group(3) else -1
            r.states.append((i, sign, Cue(at, at, surprise.group().strip(), sign, "movement")))


def move_called_for(r: SentenceReading) -> None:
    """A need for a further reduction in the policy rate; policy would need to remain restrictive."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        if any(j == i for j, _, _ in r.states):
            continue
        called = CALLED_FOR_BEFORE.search(low, max(0, x.start - 40), x.start)
        # "lower policy rates would support a recovery in spending": a variable that supports is a verb's subject,
        # not a call for a move
        by_variable = called is not None and any(
            y.m.end <= called.start()
            and re.fullmatch(
                r"\s+(?:(?:would|could|may|might|will|can|should|also|further|continues?\s+to|\w+ly)\s+)*",
                low[y.m.end : called.start()],
            )
            for y in ms
        )
        if x.mod and called and not by_variable:
            r.states.append((i, x.mod, Cue(x.start, x.start, "move called for", x.mod, "movement")))
            continue
        stance = STANCE_AFTER.match(low[x.m.end :])
        if stance and x.m.variable_id in TIGHTNESS and not x.mod:
            at = x.m.end + stance.end()
            sign = 1 if stance.group(1) else -1
            r.states.append((i, sign, Cue(at, at, stance.group().strip(), sign, "movement")))


def conditional_level(r: SentenceReading) -> None:
    """If unemployment stays high: a condition on a level is a conditional move."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        if any(j == i for j, _, _ in r.states) or x.mod:
            continue
        held = HELD_LEVEL_AFTER.match(low[x.m.end :])
        if held and re.search(
            r"\b(?:if|because|given\s+that)\s+(?:\w+\s+){0,3}$", low[clause_start(low, x.start) : x.start][-30:]
        ):
            at = x.m.end + held.end()
            sign = 1 if held.group(1) else -1
            r.states.append((i, sign, Cue(at, at, held.group().strip(), sign, "movement")))


def stated_condition(r: SentenceReading) -> None:
    """GDP growth remained subdued, reflecting weak consumption: a stated condition whose cause follows."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        cond = CONDITION_AFTER.match(low[x.m.end :])
        if cond and not x.mod:
            at = x.m.end + cond.end()
            if re.match(
                r"\s*,?\s*(?:\w+ly\s+)?(?:reflecting|due to|owing to|because of|as a result of|driven by|"
                r"on account of|on the back of|amid|following|weighed down by|held back by|supported by|boosted by)\b",
                low[at:],
            ):
                r.states.append((i, 1 if cond.group(1) else -1, Cue(at, at, "stated condition", 0, "movement")))


def it_causes(r: SentenceReading) -> None:
    """The trade war and the uncertainty it causes: the second is produced by the first."""
    low, ms = r.low, r.ms
    for a in range(len(ms) - 1):
        b = a + 1
        joined = re.fullmatch(r"\s+and\s+the\s+", low[ms[a].m.end : ms[b].start])
        if joined and IT_CAUSES.match(low[ms[b].m.end :]):
            at = ms[b].m.end
            r.add(a, b, (ms[a].mod or 1) * (ms[b].mod or 1), Cue(at, at, "it causes", 0, "neutral"), False)


def feedback_loop(r: SentenceReading) -> None:
    """A feedback loop between weaker growth and bank profitability: each moves the other (retired)."""
    low, ms = r.low, r.ms
    for a, b, sign in feedback_loops(low, ms, r.vocab):
        at = ms[a].start
        r.add(a, b, sign, Cue(at, at, "feedback loop between", sign, "noun"), False)


def effect_predicate(r: SentenceReading) -> None:
    """The effect of tariffs on GDP would be negative: the predicate signs the effect."""
    low, ms = r.low, r.ms
    for a in range(len(ms) - 1):
        b = a + 1
        if not re.search(r"\b(?:effects?|impacts?)\s+of\s+(?:the\s+|higher\s+|us\s+)?$", low[: ms[a].start]):
            continue
        if not re.fullmatch(r"\s+on\s+(?:the\s+)?", low[ms[a].m.end : ms[b].start]):
            continue
        pred = EFFECT_PREDICATE.match(low[ms[b].m.end :])
        if pred:
            sign = (1 if pred.group(1) else -1) * (ms[a].mod or 1)
            at = ms[b].m.end
            r.add(a, b, sign, Cue(at, at + pred.end(), pred.group().strip(), sign, "noun"), False)


def correlative(r: SentenceReading) -> None:
    """The weaker the economy and the more downward pressure on inflation, the more need to lower the policy
    rate."""
    low, ms = r.low, r.ms
    for cc in CORRELATIVE.finditer(low):
        first_end = cc.start("second") - len(cc.group("comma"))
        parts = [(p.start(), p.end()) for p in CORRELATIVE_PART.finditer(low, cc.start(), first_end)]
        second = (cc.start("second"), clause_end(low, cc.start("second")))

        def part_moves(lo: int, hi: int) -> list[tuple[int, int]]:
            text = low[lo:hi]
            comp = COMPARATIVE_WORD.match(text)
            if comp is None:
                return []
            inner = INNER_DIRECTION.search(text, comp.end())
            move = (1 if comp.group(1) else -1) * ((1 if inner.group(1) else -1) if inner else 1)
            return [(i, move) for i, x in enumerate(ms) if lo <= x.m.start and x.m.end <= hi]

        sources = [sm for lo_, hi_ in parts for sm in part_moves(lo_, hi_)]
        # "the bigger the risk that firms would pass …", "the lower the incentives for workers to claim …": the second
        # part correlates a risk or an incentive, not the variables it names
        targets = [] if LIKELIHOOD_HEAD.match(low, cc.end("second")) else part_moves(*second)
        for si, sm in sources:
            for ti, tm in targets:
                r.add(si, ti, sm * tm, Cue(second[0], second[0], "the more … the more", 0, "neutral"), False)


def effect_noun(r: SentenceReading) -> None:
    """The drag from tariffs on growth; the boost to spending from lower rates; the adverse effects of rate
    fluctuations on activity: an effect noun with both ends."""
    low, ms = r.low, r.ms
    for e in EFFECT_NOUN_FROM.finditer(low):
        noun = e.group("noun")
        if " " in noun and e.group("order") not in ("of", "from"):
            continue  # "a positive effect on growth and a modest effect on inflation": no source named
        sign = -1 if noun in ("drag", "drags", "headwind", "headwinds", "hit") or ADVERSE_EFFECT.match(noun) else 1
        src_first = e.group("order") in ("from", "of")
        src_span, dst_span = (e.span("a"), e.span("b")) if src_first else (e.span("b"), e.span("a"))
        xs = [i for i, x in enumerate(ms) if src_span[0] <= x.start and x.m.end <= src_span[1]]
        ys = [i for i, x in enumerate(ms) if dst_span[0] <= x.start and x.m.end <= dst_span[1]]
        if xs and ys:
            vid = ms[xs[-1]].m.variable_id
            move = ms[xs[-1]].mod or (1 if vid in r.adverse_up and vid not in TIGHTNESS else 0)
            if move:
                r.add(xs[-1], ys[0], sign * move, Cue(e.start(), e.start(), e.group("noun"), sign, "noun"), False)


def front_loading(r: SentenceReading) -> None:
    """Firms front-loaded exports ahead of the tariffs: the expected tariff rise caused the purchases' rise."""
    low, ms = r.low, r.ms
    for f in FRONTLOAD.finditer(low):
        lo_f, hi_f = clause_start(low, f.start()), clause_end(low, f.end())
        anchored = bool(f.group("ahead"))
        tariff = None
        for i, x in enumerate(ms):
            if x.m.variable_id != "tariffs" or x.start < f.end() or x.m.end > hi_f or x.mod < 0:
                continue
            gap = low[f.end() : x.start]
            if len(gap) <= 90 and (anchored and len(gap) <= 40 or AHEAD_OF.search(gap)):
                tariff = i
                break
        if tariff is None:
            continue
        objs = [i for i, x in enumerate(ms) if f.end() <= x.start < ms[tariff].start and x.m.variable_id in FRONTLOADED]
        if not objs and re.search(rf"\b{BE}\s+(?:\w+ly\s+)?$", low[lo_f : f.start()]):
            objs = [i for i, x in enumerate(ms) if lo_f <= x.start < f.start() and x.m.variable_id in FRONTLOADED]
        sub = FRONTLOAD_REASON.search(low, 0, f.start())
        if not objs and sub and not low[sub.end() : f.start()].count(","):
            # "exports rose strongly as firms sought to get ahead of the tariffs": the main clause holds the goods
            main = low[: sub.start()]
            objs = [
                i
                for i, x in enumerate(ms)
                if x.m.end <= sub.start()
                and x.m.variable_id in FRONTLOADED
                and x.mod >= 0
                and not DOWN_IN_MAIN.search(main)
            ]
        for oi in objs:
            r.add(tariff, oi, 1, Cue(f.start(), f.end(), f.group(), 1, "directional"), False)


def contribution_to_growth(r: SentenceReading) -> None:
    """The negative contribution to growth from exports: a spending component's contribution to GDP is + (inventory
    investment is no fixed investment)."""
    low, ms = r.low, r.ms
    for c in CONTRIBUTION_BOTH.finditer(low):
        src_span, dst_span = (c.span("b"), c.span("a")) if c.group("order") == "to" else (c.span("a"), c.span("b"))
        xs = [i for i, x in enumerate(ms) if src_span[0] <= x.start and x.m.end <= src_span[1] + 60]
        ys = [i for i, x in enumerate(ms) if dst_span[0] <= x.start and x.m.end <= dst_span[1]]
        if xs and ys and ms[ys[0]].m.variable_id == "real_gdp":
            for xi in coordinated_right(low, ms, xs[0], min(len(low), src_span[1] + 60)):
                if INVENTORY_BEFORE.search(low, max(0, ms[xi].m.start - 12), ms[xi].m.start):
                    continue
                if ms[xi].m.variable_id in GDP_COMPONENTS and not NOT_A_COMPONENT.search(ms[xi].m.text.lower()):
                    r.add(xi, ys[0], 1, Cue(c.start(), c.end(), "contribution to", 1, "noun"), False)


def contribution_made(r: SentenceReading) -> None:
    """Exports made a large contribution to GDP growth: a spending component's contribution to GDP is + (inventory
    investment is no fixed investment: "net exports and inventory investment making large negative contributions")."""
    low, ms = r.low, r.ms
    for c in CONTRIBUTION_MADE.finditer(low):
        ys = [i for i, x in enumerate(ms) if c.end() <= x.start <= c.end() + 20 and x.m.variable_id == "real_gdp"]
        lo_c = clause_start(low, c.start())
        xs = [i for i, x in enumerate(ms) if lo_c <= x.start and x.m.end <= c.start()]
        if ys and xs:
            for xi in coordinated_left(low, ms, xs[-1], lo_c):
                if INVENTORY_BEFORE.search(low, max(0, ms[xi].m.start - 12), ms[xi].m.start):
                    continue
                if ms[xi].m.variable_id in GDP_COMPONENTS and not NOT_A_COMPONENT.search(ms[xi].m.text.lower()):
                    r.add(xi, ys[0], 1, Cue(c.start(), c.end(), "made a contribution to", 1, "noun"), False)


def cost_pass_through(r: SentenceReading) -> None:
    """Cost increases from tariffs feed into inflation: costs carry the source's rise to prices."""
    low, ms = r.low, r.ms
    for c in COST_FROM.finditer(low):
        xs = [i for i, x in enumerate(ms) if c.end() <= x.start <= c.end() + 12]
        if not xs or ms[xs[0]].mod < 0 or ms[xs[0]].m.variable_id not in r.adverse_up | {"energy_prices", "wages"}:
            continue
        xi = xs[0]
        before, after = low[max(0, c.start() - 90) : c.start()], low[ms[xi].m.end : ms[xi].m.end + 70]
        ys: list[int] = []
        to = re.match(r"\s+(?:[a-z]+\s+){0,2}?(?:through\s+|on\s+)?to\s+", after)
        if COST_PASS_BEFORE.search(before) and to:
            ys = [i for i, y in enumerate(ms) if y.start == ms[xi].m.end + to.end()]
        elif (up := COST_PRESSURE_BEFORE.search(before)) is not None:
            ys = [i for i, y in enumerate(ms) if max(0, c.start() - 90) + up.start("y") == y.start]
        elif link := COST_FEED_AFTER.match(after):
            ys = [i for i, y in enumerate(ms) if y.start == ms[xi].m.end + link.end()]
        for yi in ys:
            if ms[yi].m.variable_id in ("inflation", "import_prices") and ms[yi].m.variable_id != ms[xi].m.variable_id:
                r.add(xi, yi, 1, Cue(c.start(), c.end(), "costs from", 1, "noun"), False)


def to_meet(r: SentenceReading) -> None:
    """Fire sales to meet margin calls: the need met is the source of the act."""
    low, ms = r.low, r.ms
    for a in range(len(ms) - 1):
        meet = TO_MEET.match(low[ms[a].m.end :])
        if meet and ms[a + 1].start == ms[a].m.end + meet.end():
            at = ms[a].m.end
            for b in coordinated_right(low, ms, a + 1, len(low)):
                r.add(
                    b, a, (ms[b].mod or 1) * (ms[a].mod or 1), Cue(at, at + meet.end(), "to meet", 0, "neutral"), False
                )


def pass_through_noun(r: SentenceReading) -> None:
    """The pass-through of higher tariffs to consumer prices: within a family, the move carries over."""
    low, ms = r.low, r.ms
    for e in PASS_THROUGH_NOUN.finditer(low):
        xs = [i for i, x in enumerate(ms) if e.start("x") <= x.start and x.m.end <= e.end("x")]
        ys = [i for i, x in enumerate(ms) if e.end() <= x.start <= e.end() + 20]
        if re.search(r"\bno\s+(?:\w+\s+)?$", low[max(0, e.start() - 20) : e.start()]):
            continue  # "no pass-through of tariffs to inflation so far": denied, nothing to read
        if xs and ys and same_family(ms[xs[-1]].m.variable_id, ms[ys[0]].m.variable_id):
            at = e.start()
            # the target moves with the source unless both moves are stated
            sign = ms[xs[-1]].mod * ms[ys[0]].mod or 1
            r.add(xs[-1], ys[0], sign, Cue(at, e.end(), "pass-through of", 0, "neutral"), False)


def effects_include(r: SentenceReading) -> None:
    """The effects of tariffs include lower growth and higher inflation: the named effects are the targets' moves."""
    low, ms = r.low, r.ms
    for e in EFFECTS_INCLUDE.finditer(low):
        xs = [i for i, x in enumerate(ms) if e.start("x") <= x.start and x.m.end <= e.end("x")]
        ys = [i for i, x in enumerate(ms) if e.end() <= x.start <= e.end() + 25 and x.mod]
        if xs and ys:
            vid = ms[xs[-1]].m.variable_id
            src_move = ms[xs[-1]].mod or (1 if vid in r.adverse_up and vid not in TIGHTNESS else 0)
            for yi in coordinated_right(low, ms, ys[0], min(len(low), e.end() + 120)):
                if src_move and ms[yi].mod:
                    at = e.start("cop")
                    r.add(xs[-1], yi, src_move * ms[yi].mod, Cue(at, e.end(), "effects include", 0, "neutral"), False)


def driver_of(r: SentenceReading) -> None:
    """The second factor behind the inflation burst is the surge in energy prices: the source follows the copula."""
    low, ms = r.low, r.ms
    for d in DRIVER_OF.finditer(low):
        ys = [i for i, x in enumerate(ms) if d.start("y") <= x.start and x.m.end <= d.end("y")]
        # (the source follows the copula in its own clause: "the factors behind Y were different, with wages
        # playing a central role in one economy but not the other" names none)
        if re.match(r"\s*behind\b", low[d.end() :]):
            continue  # "three sources of policy uncertainty were behind the volatility": the sources are the subject
        xs = [i for i, x in enumerate(ms) if d.end() <= x.start <= d.end() + 25 and "," not in low[d.end() : x.start]]
        if ys and xs:
            for xi in coordinated_right(low, ms, xs[0], min(len(low), d.end() + 120)):
                vid = ms[xi].m.variable_id
                src_move = ms[xi].mod or (1 if vid in r.adverse_up and vid not in TIGHTNESS else 0)
                if src_move:
                    at = d.start("cop")
                    sign = src_move * (ms[ys[0]].mod or 1)
                    r.add(xi, ys[0], sign, Cue(at, d.end(), "is the driver of", 0, "neutral"), True)


def is_driver_of(r: SentenceReading) -> None:
    """Wage pressures were becoming an increasingly important source of inflation: the source stands before the
    copula and moves its target its own way (pressures and adverse variables named alone rise)."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        d = IS_DRIVER_OF.match(low, x.m.end)
        if d is None and (aside := RELATIVE_ASIDE.match(low, x.m.end)):
            d = IS_DRIVER_OF.match(low, aside.end())  # "Energy prices, which had surged, continued to be the main …"
        if d is None:
            continue
        ys = [j for j, y in enumerate(ms) if y.start == d.end()]
        unmoved = 1 if x.m.text.lower().endswith("pressures") or x.m.variable_id in r.adverse_up else 0
        move = x.mod or unmoved
        if ys and move and ms[ys[0]].m.variable_id != x.m.variable_id:
            # "the depreciation of the euro was also a source of higher inflation": a fall that raises its target
            sign = move * (ms[ys[0]].mod or 1)
            r.add(i, ys[0], sign, Cue(x.m.end, d.end(), "is a driver of", 0, "neutral"), False)


def is_risk_to(r: SentenceReading) -> None:
    """The war in Ukraine constituted a substantial upside risk to energy prices: the subject, present or moved,
    moves the variable after the risk the risk's way (and a headwind's or a tailwind's)."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        d = IS_RISK_TO.match(low, x.m.end) or IS_HEADWIND_FOR.match(low, x.m.end)
        if d is None:
            continue
        ys = [j for j, y in enumerate(ms) if d.end() in (y.start, y.m.start) and y.m.variable_id != x.m.variable_id]
        if ys and not ms[ys[0]].mod:
            # ("were headwinds for consumption": a headwind or a drag lowers, a tailwind raises)
            way = 1 if d.group("dir") in ("upside", "tailwind", "tailwinds") else -1
            # (a headwind is an effect noun: "housing investment was a drag on GDP growth" is growth accounting)
            kind = "neutral" if d.group("dir") in ("upside", "downside") else "noun"
            cue = Cue(d.start("verb"), d.end(), " ".join(d.group("verb").split()), way, kind)
            # "constituted a material downside risk to consumer spending and investment": the risk covers the list
            for j in coordinated_right(low, ms, ys[0], clause_end(low, d.end())):
                if ms[j].m.variable_id != x.m.variable_id:
                    r.add(i, j, way * (x.mod or 1), cue, False)


def threat_to(r: SentenceReading) -> None:
    """The main threat to growth is higher uncertainty: the source lowers the threatened variable."""
    low, ms = r.low, r.ms
    for d in THREAT_TO.finditer(low):
        ys = [i for i, x in enumerate(ms) if d.start("y") <= x.start and x.m.end <= d.end("y")]
        xs = [i for i, x in enumerate(ms) if d.end() <= x.start <= d.end() + 25]
        if ys and xs and not ms[ys[-1]].mod:
            for xi in coordinated_right(low, ms, xs[0], min(len(low), d.end() + 120)):
                vid = ms[xi].m.variable_id
                src_move = ms[xi].mod or (1 if vid in r.adverse_up and vid not in TIGHTNESS else 0)
                if src_move:
                    r.add(xi, ys[-1], -src_move, Cue(d.start("cop"), d.end(), "is the threat to", -1, "noun"), True)


def states_caused(r: SentenceReading) -> None:
    """Wages rose, driven by a tight labour market: the cause of a stated movement."""
    low, ms = r.low, r.ms
    for si, ti, sign, cue in cause_of_states(low, ms, r.states, r.adverse_up):
        r.add(si, ti, sign, Cue(cue.start, cue.end, cue.text, 0, "movement"), False, (cue,))


def with_moved(r: SentenceReading) -> None:
    """With continued rebalancing of labor market conditions, nominal wage growth had continued to moderate: a moved
    variable in a fronted "with" phrase moves the subject of the main clause's stated movement."""
    low, ms = r.low, r.ms
    for ti, s_y, cue in list(r.states):
        y = ms[ti]
        for si, x in enumerate(ms[:ti]):
            fronted = WITH_FRONTED.search(low, max(0, x.start - 60), x.start)
            gap = WITH_TO_MAIN.fullmatch(low, x.m.end, y.start)
            # (the main clause's verb follows its subject: "with a weaker economy, tighter policy and … losing
            # momentum" is a list, not a clause)
            verb_next = cue.start > y.m.end and not re.search(r"[,;]", low[y.m.end : cue.start])
            if x.mod and fronted and gap and si == ti - 1 and verb_next:
                r.add(si, ti, x.mod * s_y, Cue(fronted.start(), fronted.end(), "with", 0, "movement"), False, (cue,))
        # "inflation could resume its decline as wage growth slows further with labor demand and supply moving into
        # better balance": a trailing "with" phrase after the stated movement
        for si in range(ti + 1, len(ms)):
            x = ms[si]
            trailing = re.fullmatch(
                r"[^,;]{0,30}?\bwith\s+(?:[a-z-]+\s+){0,2}", low[cue.end : x.start]
            ) and not re.search(
                r"\b(?:associated|consistent|in\s+line|coincid\w+|along|together|combined|coupled|compared)\s+with\b",
                low[cue.end : x.start],
            )  # ("could also be associated with increasing oil supply": a co-movement)
            if x.mod and cue.start > y.m.end and trailing and si == ti + 1:
                r.add(si, ti, x.mod * s_y, Cue(cue.end, x.start, "with", 0, "movement"), False, (cue,))


#: What a central bank's policy reacts to, with the reaction's sign (high unemployment calls for easier policy).
REACTION_SOURCES = {"inflation": 1, "employment": 1, "real_gdp": 1, "wages": 1, "unemployment": -1}


def policy_reaction_with(r: SentenceReading) -> None:
    """With inflation persistently high, many central banks continued to tighten monetary policy: a level or move of
    what policy reacts to, in a fronted "with" (or "in light of", "given") phrase, moves the policy stated in the main
    clause."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        if x.m.variable_id not in REACTION_SOURCES or not REACTION_FRONTED.search(low, max(0, x.start - 90), x.start):
            continue
        level = WITH_LEVEL_AFTER.match(low, x.m.end)
        move = x.mod or (0 if level is None else 1 if level.group("up") else -1)
        comma = low.find(",", x.m.end)
        if not move or comma < 0:
            continue
        stop = re.compile(r";|\.(?:\s|$)").search(low, comma)
        end = stop.start() if stop else len(low)
        stated = {k: sg for k, sg, _ in r.states}
        for j, y in enumerate(ms):
            sign = stated.get(j) or y.mod
            main = low[comma : y.start]
            if (
                y.m.variable_id != "policy_rate"
                or not comma < y.start
                or y.m.end > end
                or not sign
                # the policy named by the main clause's verb ("agreed that ongoing increases in the federal funds rate
                # would be appropriate"), not an item of the "with" phrase's list ("with a weaker economy, tighter
                # monetary policy and …"), nor an indirect question ("to assess how restrictive the policy stance
                # was"), nor the real rate
                or not (j in stated or REACTION_MAIN_VERB.search(main))
                or not main.strip(" ,")
                or re.search(r"\b(?:how|whether|what)\b", main)
                # ("cautioned against prematurely loosening monetary policy": a move argued against; "the transmission
                # of policy rate increases": an earlier move's effect)
                or re.search(r"\b(?:against|not|avoid|avoiding|never)\b", main)
                or re.search(r"\b(?:transmission|effects?|impact|pass-through)\s+of\s+$", main)
                # ("… would still be below neutral after this meeting's policy rate hike": a time, not the reaction)
                or re.search(r"\b(?:after|before|following|since|despite)\s+(?:[\w’']+\s+){0,3}$", main)
                or re.search(r"\breal\s+$", low[max(0, y.m.start - 10) : y.m.start])
            ):
                continue
            cue = Cue(x.m.end, comma, "with … (policy reacts)", 0, "movement")
            r.add(i, j, move * sign * REACTION_SOURCES[x.m.variable_id], cue, False)
            break


def amplified_if(r: SentenceReading) -> None:
    """A further correction in asset prices could be amplified if investors unwind positions: the condition holds
    the source of an amplified (or cushioned) move."""
    low, ms = r.low, r.ms
    for c in r.cues:
        floor = clause_start(low, c.start)
        if c.kind != "directional" or not re.search(rf"\b{BE}\s+(?:\w+ly\s+)?$", low[floor : c.start]):
            continue
        verb = " ".join(c.text.split()[-1:])
        amp = 1 if AMPLIFIER_RE.match(verb) else -1 if DAMPENER_RE.match(verb) else 0
        cond = re.match(r"\s+(?:\w+ly\s+)?(?:if|should|when|whenever)\b", low[c.end :])
        if not amp or not cond:
            continue
        targets = [i for i, x in enumerate(ms) if x.m.end <= c.start and x.start >= floor and x.mod]
        after = [i for i, x in enumerate(ms) if x.start >= c.end + cond.end()]
        if not targets or not after:
            continue
        src = after[0]
        moved = [(sg, sc) for i, sg, sc in r.states if i == src]
        move = moved[0][0] if moved else (1 if ms[src].m.variable_id in r.adverse_up else 0)
        if move:
            r.add(src, targets[-1], amp * move * ms[targets[-1]].mod, c, True, tuple(sc for _, sc in moved[:1]))


def subordinate_states(r: SentenceReading) -> None:
    """As policy rates rise, house prices fall: the subordinate clause holds the source."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        # "inflation has fallen as higher interest rates have been working to …": a moved noun opening the
        # subordinate clause is that clause's stated move
        opens = MOVED_ADJECTIVE.fullmatch(low, x.start, x.m.start) and MOVED_SUBJECT_BEFORE.search(
            low, max(0, x.start - 12), x.start
        )
        if x.mod and opens and all(j != i for j, _, _ in r.states):  # a stated modifier ("higher"), not inherent
            r.states.append((i, x.mod, Cue(x.start, x.start, "moved subject", x.mod, "movement")))
    for k, (i, _, c) in enumerate(r.states):
        if re.match(r"(?:worsen|deteriorat)", c.text) and adverse_move(r, i):
            # "economic sentiment could worsen", "unemployment worsened": the variable moves its adverse way
            r.states[k] = (i, adverse_move(r, i), c)
    r.states.sort(key=lambda st: st[2].start)
    coordinated = [False] * len(r.states)  # joined to the previous state by "or"/"and": the same clause
    for a in range(1, len(r.states)):
        (_, _, cp), (_, _, ca) = r.states[a - 1], r.states[a]
        if cp.start == ca.start:
            coordinated[a] = coordinated[a - 1]  # one movement of a list stands with its list's first item
            continue
        # "… moderated and past energy shocks, supply bottlenecks and … effects dissipated": a list sharing one
        # movement is joined to the state before by the words before its first item
        first = min(ms[i].start for i, _, c in r.states if c.start == ca.start)
        coordinated[a] = bool(COORDINATED_STATE.fullmatch(low[cp.end : first]))
    for a in range(len(r.states)):
        for b in range(a + 1, len(r.states)):
            (ia, sa, ca), (ib, sb, cb) = r.states[a], r.states[b]
            between = low[ca.end : ms[ib].start]
            floor_a = clause_start(low, ms[ia].start)
            # "as X rises, Y is tightening, Z is scarcer": a state after an earlier one's comma is in the main
            # clause, whose subordinator was the earlier state's
            ends = [c.end for _, _, c in r.states if c.end <= ms[ia].start and "," in low[c.end : ms[ia].start]]
            before_a = low[max([floor_a, *ends]) : ms[ia].start]
            if ca.start == cb.start:
                continue  # "as exports and investment decline": one movement of a list, no cause within it
            if any(i == ib and c.start < cb.start and c.start != cb.start for i, _, c in r.states):
                # "as inflation fell and wages kept growing, real incomes would rebound": a second movement given to
                # a mention that moved already is an unnamed subject's
                continue
            if (ca in r.held_levels or cb in r.held_levels) and not (
                ca in r.held_levels and HELD_BECAUSE.fullmatch(low, ca.end, ms[ib].start)
            ):
                # "as inflation remained high, growth slowed": a level held is read with a named cause only, or with
                # the "as" clause right after it ("inflation remained high, as wages were still rising")
                continue
            if re.search(r"\b(?:while|whereas)\b", between) or (
                re.search(r",\s*(?:or\s+|and\s+)?if\b", between) and CONDITION_OPEN.search(low, 0, ms[ia].start)
            ):
                # "if deficits stay high while … costs rise", "especially if geopolitical tensions were to escalate
                # further, if oil supply remained sluggish": co-conditions (or co-movements), no cause
                continue
            if re.search(r"\bwith\s+(?:[a-z-]+\s+){0,2}$", between):
                continue  # "as wage growth slows with labor demand and supply moving into better balance": with_moved
            if re.search(r"\bto\s+(?:avoid|prevent)\b|,\s*which\b", between):
                # "as the energy crisis faded, governments should roll back support to avoid driving up inflationary
                # pressures, which would call for …": a move averted, or one in a relative clause, is no main state
                continue
            if all(coordinated[a + 1 : b + 1]):
                continue  # "if X were to weaken or Y were to fall": two conditions, neither causes the other
            # "if X were to weaken or Y were to fall, …": the second condition shares the first's subordinator
            first = a
            while first > 0 and coordinated[first]:
                first -= 1
            before_first = low[clause_start(low, ms[r.states[first][0]].start) : ms[r.states[first][0]].start]
            # ("the reversal of supply shocks, if sustained, could spur confidence …": a subordinate clause closed by
            # its comma before the mention holds no state of it)
            sub = SUBORDINATOR.search(before_a[-25:])
            if sub and "," in before_a[-25:][sub.end() :]:
                sub = None
            if (
                sub
                or re.fullmatch(r"\s*should\s+", before_a)
                # "With GDP growth weakening, the Council cut the policy rate": an absolute clause at the start
                or (ms[ia].start < ca.start and ABSOLUTE_WITH.search(low[floor_a : ms[ia].start]))
                or (first != a and SUBORDINATOR.search(before_first[-25:]))
                # "If price pressures fed through into higher than anticipated wage rises, inflation could …": a
                # state deeper in a condition that opens its clause
                or (CONDITION_OPENS.match(low, floor_a) and "," not in low[floor_a : ms[ia].start])
            ):
                r.add(ia, ib, sa * sb, Cue(ca.start, ca.end, f"{ca.text} … {cb.text}", 0, "movement"), False, (ca, cb))
            elif SUBORDINATOR.search(between):
                r.add(ib, ia, sa * sb, Cue(cb.start, cb.end, f"{ca.text} … {cb.text}", 0, "movement"), False, (ca, cb))


def consequence_stated(r: SentenceReading) -> None:
    """Inflation remained much too high; as a result, participants anticipated that additional policy firming may be
    appropriate: a movement (or a level held) before a consequence connector moves the movement stated after it."""
    low, ms = r.low, r.ms
    states = sorted(r.states, key=lambda st: st[2].start)
    for ia, sa, ca in states:
        for ib, sb, cb in states:
            if cb.start > ca.end and ms[ib].start > ca.end and CONSEQUENCE_GAP.fullmatch(low, ca.end, ms[ib].start):
                r.add(
                    ia,
                    ib,
                    sa * sb,
                    Cue(ca.start, ca.end, f"{ca.text} … as a result … {cb.text}", 0, "movement"),
                    False,
                    (ca, cb),
                )


def move_purpose(r: SentenceReading) -> None:
    """Monetary policy needs to be tightened further to ensure that inflation continues to fall: the purpose of a
    stated policy move is the move's effect."""
    low, ms = r.low, r.ms
    # the move's end: after the verb ("needs to be tightened"), or after its object ("raised interest rates")
    moves = [(i, sg, max(c.end, ms[i].m.end)) for i, sg, c in r.states if ms[i].m.variable_id == "policy_rate"]
    moves += [(i, x.mod, x.m.end) for i, x in enumerate(ms) if x.m.variable_id == "policy_rate" and x.mod]
    for i, x in enumerate(ms):
        ahead = GROUND_TO_COVER_AFTER.match(low[x.m.end :]) if x.m.variable_id == "policy_rate" else None
        if ahead or (x.m.variable_id == "policy_rate" and GROUND_TO_COVER_BEFORE.search(low, 0, x.start)):
            moves.append((i, 1, x.m.end + (ahead.end() if ahead else 0)))  # more ground to cover: a tightening
    for i, a, end in moves:
        purpose = MOVE_PURPOSE.match(low[end:])
        if purpose is None:
            continue
        at = end + purpose.end()
        later = [j for j, y in enumerate(ms) if y.start >= at and y.m.variable_id != "policy_rate"]
        if not later or re.search(r"[,;:.]", low[at : ms[later[0]].start]):
            continue
        j = later[0]
        verb = next((c for c in r.cues if c.start == at and c.kind == "directional" and c.sign), None)
        before = low[at : ms[j].start]
        if verb is not None and len(low[verb.end : ms[j].start]) <= 25:
            sign = a * verb.sign  # "to bring down inflation", "to support the recovery in spending"
        elif ENSURE_THAT.fullmatch(before) and (ms[j].mod or any(k == j for k, _, _ in r.states)):
            sign = a * (ms[j].mod or next(sg for k, sg, _ in r.states if k == j))
        elif ms[j].m.variable_id == "inflation" and (ENSURE_THAT.fullmatch(before) or RETURN_VERB.fullmatch(before)):
            if not TO_TARGET_AFTER.match(low[ms[j].m.end :]):
                continue
            sign = -1  # "to return inflation to target": against the gap, whichever way policy moved
        elif ms[j].m.variable_id == "inflation" and ADDRESS_VERB.fullmatch(before):
            sign = -1  # "tightened monetary policy to address high inflation": against it, as above
        else:
            continue
        r.add(i, j, sign, Cue(end, at, "purpose of the move", 0, "neutral"), False)


def profits_absorb(r: SentenceReading) -> None:
    """Profits were absorbing part of the rising labour costs: a cost rise that profits absorb lowers them."""
    low, ms = r.low, r.ms
    earn = [i for i, x in enumerate(ms) if x.m.variable_id == "corporate_earnings"]
    wage = [i for i, x in enumerate(ms) if x.m.variable_id == "wages"]
    if not earn or not wage:
        return
    for a in ABSORB.finditer(low):
        cue = Cue(a.start(), a.end(), a.group(), -1, "directional")
        # the cost after the verb: "absorbing part of the rise in labour costs", "the absorption of higher labour
        # costs (by lower profit margins)"
        costs = [w for w in wage if ms[w].start >= a.end() and ABSORBED_COST.match(low[a.end() : ms[w].start])]
        for w in costs[:1]:
            # profits as the verb's subject ("profits continued to buffer", "firms were using profits to absorb")
            before = [e for e in earn if ms[e].m.end <= a.start() and a.start() - ms[e].m.end <= 40]
            # or named after the cost ("… labour costs through their profits / by lower profit margins")
            after = [
                e for e in earn if ms[e].start >= ms[w].m.end and ABSORBED_BY.match(low[ms[w].m.end : ms[e].start])
            ]
            for e in (before or after)[-1:]:
                if clause_start(low, a.start()) <= min(ms[e].start, ms[w].start):
                    r.add(w, e, -1, cue, False)
        # the cost before a passive verb: "wage growth would be buffered by lower profits"
        passive = [
            w for w in wage if ms[w].m.end <= a.start() and ABSORBED_PASSIVE.fullmatch(low[ms[w].m.end : a.start()])
        ]
        for w in passive[-1:]:
            after = [e for e in earn if ms[e].start >= a.end() and ABSORBED_BY.match(low[a.end() : ms[e].start])]
            for e in after[:1]:
                r.add(w, e, -1, cue, True)


def transmitted_to(r: SentenceReading) -> None:
    """The transmission of past rate hikes to broader financing conditions: the move reaches what it is
    transmitted to."""
    low, ms = r.low, r.ms
    ends: list[tuple[int, int, Cue]] = []  # (source, where the "to" ends, cue)
    for t in TRANSMISSION_OF.finditer(low):
        xs = [i for i, x in enumerate(ms) if t.end() <= x.start <= t.end() + 12]
        to = TRANSMITTED_TO.match(low[ms[xs[0]].m.end :]) if xs else None
        if xs and to:
            ends.append((xs[0], ms[xs[0]].m.end + to.end(), Cue(t.start(), t.end(), "transmission of", 0, "noun")))
    for t in TRANSMITTED.finditer(low):
        floor = clause_start(low, t.start())
        xs = [i for i, x in enumerate(ms) if floor <= x.start and x.m.end <= t.start() and t.start() - x.m.end <= 90]
        if xs:
            ends.append((xs[-1], t.end(), Cue(t.start(), t.end(), "transmitted to", 0, "neutral")))
    for xi, at, cue in ends:
        if not ms[xi].mod:
            continue  # "monetary policy was transmitted to financing conditions": no move is stated
        # (the target's own modifier is no move: "broader financing conditions")
        ys = [i for i, y in enumerate(ms) if y.m.start >= at and TRANSMITTED_WHERE.match(low[at : y.m.start])]
        if not ys:
            continue
        for yi in coordinated_right(low, ms, ys[0], len(low)):
            if ms[yi].m.variable_id in TRANSMISSION_TARGETS:
                r.add(xi, yi, ms[xi].mod, cue, False)


def contribution_to_disinflation(r: SentenceReading) -> None:
    """Rates are at levels that will make a substantial contribution to the disinflation process: what contributes to
    inflation's fall lowers it by its own move (rates held at restrictive levels by staying high)."""
    low, ms = r.low, r.ms
    for c in CONTRIBUTION_TO_DISINFLATION.finditer(low):
        ys = [i for i, y in enumerate(ms) if c.end() <= y.m.start <= c.end() + 3 and y.m.variable_id == "inflation"]
        floor = clause_start(low, c.start())
        # "the key ECB interest rates were in a range of levels that, maintained for a sufficiently long duration,
        # would make …": a level held may stand further back than a cause
        xs = [i for i, x in enumerate(ms) if x.m.end <= c.start() and c.start() - x.m.end <= 240]
        if not ys or not xs:
            continue
        xi = xs[-1]
        held = ms[xi].m.variable_id == "policy_rate" and re.search(
            r"\b(?:at|in\s+a\s+range\s+of)\s+(?:\w+\s+)?levels\b", low[ms[xi].m.end : c.start()]
        )
        if not held and c.start() - ms[xi].m.end > 120:
            continue
        move = ms[xi].mod or (1 if held else 0)
        if move and (ms[xi].start >= floor or held):
            r.add(xi, ys[0], -move, Cue(c.start(), c.end(), "contribution to disinflation", -1, "neutral"), False)


def risks_from(r: SentenceReading) -> None:
    """Upside risks to inflation could come from higher energy and food costs: a risk to a variable named before its
    sources moves the variable the risk's way when the sources move as stated (or rise, for a risk's own rise)."""
    low, ms = r.low, r.ms
    heads = [(h.group("dir"), h.end(), None) for h in RISK_HEAD.finditer(low)]
    # "upside inflation risks associated with …": the variable stands inside the risk phrase
    heads += [
        (h.group("dir"), y.m.start, after.end())
        for y in ms
        if (h := RISK_HEAD_BEFORE.search(low, max(0, y.m.start - 12), y.m.start))
        and (after := RISKS_AFTER.match(low, y.m.end))
    ]
    for way_word, at, risks_end in heads:
        ys = [i for i, y in enumerate(ms) if y.m.start == at]
        if not ys:
            continue
        # "downside risks to economic activity and employment, including …": the risk covers the list
        ys = coordinated_right(low, ms, ys[0], clause_end(low, at)) if risks_end is None else ys
        frm = RISK_FROM.match(low, risks_end or ms[ys[-1]].m.end)
        if not frm:
            continue
        limit = clause_end(low, frm.end())
        xs = [i for i, x in enumerate(ms) if frm.end() <= x.start and x.m.end <= limit and x.start - frm.end() <= 60]
        # "the possibility of sudden disruptions in supply chains due to geopolitical developments": the first source
        # is the risk's item, never the cause of an item the vocabulary lacks
        xs = [i for i in xs if not CAUSE_BETWEEN.search(low, frm.end(), ms[i].start)]
        if not xs:
            continue
        way = 1 if way_word == "upside" else -1
        cue = Cue(frm.start(), frm.end(), f"{way_word} risks to", way, "neutral")
        for xi in coordinated_right(low, ms, xs[0], limit):
            # "owing to upside risks to wage growth": the source's own risk is its move
            inner = RISK_TO.search(low[max(0, ms[xi].m.start - 40) : ms[xi].m.start])
            move = ms[xi].mod or (1 if inner and inner.group(1) == "upside" else -1 if inner else 0)
            move = move or (1 if ms[xi].m.variable_id in r.adverse_up else 0)
            for yi in ys:
                if move and ms[xi].m.variable_id != ms[yi].m.variable_id:
                    r.add(xi, yi, way * move, cue, False)


def tilt_reflecting(r: SentenceReading) -> None:
    """Risks to the inflation forecast were seen as tilted to the upside, reflecting the possibility that supply-side
    disruptions could materialize: the reason given for a tilt moves the risks' variable the tilt's way (a variable
    that only moves another named in the reason is that one's cause, not the tilt's)."""
    low, ms = r.low, r.ms
    for j, y in enumerate(ms):
        if not RISKS_AROUND.search(low, max(0, y.m.start - 60), y.m.start):
            continue
        tilt = RISK_TILT.match(low, y.m.end) or RISK_TILT.search(low, y.m.end, clause_end(low, y.m.end))
        if tilt is None or re.search(r"[,;]", low[y.m.end : tilt.start()]):
            continue
        reason = TILT_REASON.match(low, tilt.end())
        if reason is None:
            continue
        stop = re.compile(r";|\.(?:\s|$)").search(low, reason.end())  # the reason runs to the sentence's end
        end = stop.start() if stop else len(low)
        xs = [i for i, x in enumerate(ms) if reason.end() <= x.start and x.m.end <= end and i != j]
        upstream = {src for src, dst, _ in r.found if dst in {ms[i].m.variable_id for i in xs}}
        way = 1 if tilt.group(1) == "upside" else -1
        cue = Cue(tilt.start(), reason.end(), f"risks tilted to the {tilt.group(1)}, reflecting", way, "neutral")
        for i in xs:
            vid = ms[i].m.variable_id
            move = ms[i].mod or (1 if vid in r.adverse_up else 0)
            if move and vid != y.m.variable_id and vid not in upstream:
                r.add(i, j, way * move, cue, False)


def tilting_risks(r: SentenceReading) -> None:
    """Persistently tight financial conditions were seen as tilting the risks to the downside around the baseline
    projection for real economic activity: what tilts the risks moves the variable the tilt's way."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        tilt = TILTING_RISKS.match(low, x.m.end)
        # (one adjective may stand before the variable: "for real economic activity")
        ys = [
            j
            for j, y in enumerate(ms)
            if tilt and y.m.start >= tilt.end() and re.fullmatch(r"(?:[a-z-]+\s+)?", low[tilt.end() : y.m.start])
        ]
        if not ys:
            continue
        way = 1 if tilt.group("dir") == "upside" else -1
        cue = Cue(x.m.end, tilt.end(), f"tilting the risks to the {tilt.group('dir')}", way, "neutral")
        for k in coordinated_left(low, ms, i, clause_start(low, ms[i].start)):
            vid = ms[k].m.variable_id
            move = ms[k].mod or (1 if vid in r.adverse_up else 0)
            if move and vid != ms[ys[0]].m.variable_id:
                r.add(k, ys[0], way * move, cue, False)


def restrictive_for_target(r: SentenceReading) -> None:
    """Policy rates kept at sufficiently restrictive levels for as long as necessary to bring inflation back to
    target: rates held high for inflation's return to target lower it."""
    low, ms = r.low, r.ms
    held = [i for i, x in enumerate(ms) if x.m.variable_id == "policy_rate" and RESTRICTIVE_AFTER.match(low[x.m.end :])]
    goals = [
        j
        for j, y in enumerate(ms)
        if y.m.variable_id == "inflation"
        and TO_TARGET_AFTER.match(low[y.m.end :])
        and TARGET_GOAL_BEFORE.search(low[max(0, y.m.start - 40) : y.m.start])
    ]
    # "given that investors expected a fast and sustained return of inflation to 2%, they expected policy rates to
    # remain restrictive": a return expected is no goal of the rates
    goals = [
        j
        for j in goals
        if not re.search(r"\bexpect\w*\s+(?:[a-z-]+\s+){0,6}$", low[max(0, ms[j].m.start - 60) : ms[j].m.start])
    ]
    if held and goals:
        at = ms[held[0]].m.end
        r.add(held[0], goals[0], -1, Cue(at, at, "restrictive for the target", -1, "neutral"), False)


def support_for_target(r: SentenceReading) -> None:
    """Monetary policy support was still needed for inflation to stabilise at the 2% target: a tightness variable
    held loose for inflation's return to target raises it (the instrument's move lowers inflation)."""
    low, ms = r.low, r.ms
    held = [
        i
        for i, x in enumerate(ms)
        if x.m.variable_id in TIGHTNESS
        and (SUPPORT_AFTER.match(low[x.m.end :]) or LOOSE_BEFORE.search(low, max(0, x.m.start - 40), x.m.start))
    ]
    for i in held:
        goals = [
            j
            for j, y in enumerate(ms)
            if y.m.variable_id == "inflation"
            and 0 < y.start - ms[i].m.end <= 150
            and SUPPORT_GOAL_BEFORE.search(low, max(0, y.start - 20), y.start)
            and SUPPORT_GOAL_AFTER.match(low[y.m.end :])
        ]
        if goals:
            at = ms[i].m.end
            r.add(i, goals[0], -1, Cue(at, at, "supportive for the target", -1, "neutral"), False)


def policy_feeds_through(r: SentenceReading) -> None:
    """The past monetary policy tightening gradually feeding through to consumer prices (or "the impact of tighter
    monetary policy becoming visible in financing conditions"): a policy move working through lowers prices and
    spending, and raises the cost and tightness of credit, in its own direction."""
    low, ms = r.low, r.ms
    for i, x in enumerate(ms):
        through = POLICY_FEEDS_THROUGH.match(low, x.m.end) if x.m.variable_id == "policy_rate" and x.mod else None
        if through is None and x.m.variable_id == "policy_rate" and x.mod:
            # "the impact of tighter monetary policy was becoming visible in financing conditions"
            impact = POLICY_IMPACT_BEFORE.search(low, max(0, x.start - 30), x.start)
            through = POLICY_SEEN_IN.match(low, x.m.end) if impact else None
        if through is None:
            continue
        at = through.end()
        for j in (k for k, y in enumerate(ms) if y.start >= at and TRANSMITTED_WHERE.match(low[at : y.start])):
            vid = ms[j].m.variable_id
            way = -1 if vid in POLICY_LOWERS else 1 if vid in TRANSMISSION_TARGETS else 0
            if way:
                r.add(i, j, way * x.mod, Cue(x.m.end, at, "feeding through to", way, "neutral"), False)


def pressures_from(r: SentenceReading) -> None:
    """Domestic price pressures, including from rising wages and still robust profits: price pressures named with
    their sources rise with them (a source named without a move is read as pushing them up)."""
    low, ms = r.low, r.ms
    for j, y in enumerate(ms):
        if y.m.variable_id != "inflation" or not re.search(r"\bpressures?$", y.m.text.lower()):
            continue
        frm = PRESSURES_FROM.match(low, y.m.end)
        if frm is None:
            continue
        xs = [i for i, x in enumerate(ms) if x.start == frm.end() or x.m.start == frm.end()]
        if not xs:
            continue
        cue = Cue(frm.start(), frm.end(), "pressures from", 1, "neutral")
        for xi in coordinated_right(low, ms, xs[0], clause_end(low, frm.end())):
            if ms[xi].m.variable_id != "inflation" and ms[xi].mod >= 0:
                r.add(xi, j, 1, cue, False)


def progress_set_back(r: SentenceReading) -> None:
    """Reducing policy restraint too soon or too much could risk a stalling or a reversal of the progress on
    inflation: an agent that sets back the progress on inflation moves inflation up with its own move (a gerund's
    move when it opens the agent: "reducing" restraint is its fall)."""
    low, ms = r.low, r.ms
    for j, y in enumerate(ms):
        if y.m.variable_id != "inflation" or y.mod > 0:
            continue
        back = PROGRESS_SET_BACK.search(low, max(0, y.m.start - 110), y.m.start)
        if back is None:
            continue
        agents = [i for i, x in enumerate(ms[:j]) if AGENT_TO_SETBACK.fullmatch(low[x.m.end : back.start()])]
        if not agents:
            continue
        x = ms[agents[-1]]
        gerund = [c for c in r.cues if c.kind == "directional" and c.end < x.start and not low[c.end : x.start].strip()]
        move = (gerund[-1].sign * (x.mod or 1)) if gerund else x.mod
        if x.m.variable_id != "inflation" and move:
            r.add(agents[-1], j, move, Cue(back.start(), back.end(), "sets back the progress on", 1, "neutral"), False)


#: The reader's rules in the order they run; later rules read the movements earlier ones recorded.
RULES: tuple[Callable[[SentenceReading], None], ...] = (
    clauses,
    seen_movement,
    nominal_movement,
    labour_rebalanced,
    level_explained,
    movement_recorded,
    risk_imposed,
    risk_lifted,
    continuing_or_comparative,
    move_called_for,
    conditional_level,
    stated_condition,
    it_causes,
    effect_predicate,
    correlative,
    effect_noun,
    front_loading,
    contribution_to_growth,
    contribution_made,
    cost_pass_through,
    to_meet,
    pass_through_noun,
    effects_include,
    driver_of,
    is_driver_of,
    is_risk_to,
    threat_to,
    states_caused,
    with_moved,
    policy_reaction_with,
    amplified_if,
    subordinate_states,
    consequence_stated,
    move_purpose,
    profits_absorb,
    transmitted_to,
    contribution_to_disinflation,
    risks_from,
    tilt_reflecting,
    tilting_risks,
    restrictive_for_target,
    support_for_target,
    policy_feeds_through,
    pressures_from,
    progress_set_back,
)

#: Rules taken out of :data:`RULES`, with why: kept so that the reader as it was can be run again (with the rule
#: back at its place, ``read_sentence(..., rules=...)``) and the rule re-admitted if its figures change.
RETIRED_RULES: dict[str, str] = {
    "feedback_loop": "development precision 0.50 (2 of 4 proposals labelled), below 0.6 (issue 30)",
}

#: Every rule's name, clause rules first: what ``Reading.rule`` can hold.
RULE_NAMES: tuple[str, ...] = tuple(f.__name__ for f in CLAUSE_RULES) + tuple(f.__name__ for f in RULES[1:])


def read_sentence(
    sentence: str, vocab: Vocabulary, rules: Sequence[Callable[[SentenceReading], None]] = RULES
) -> list[Reading]:
    """Every signed relation between two distinct vocabulary variables stated in ``sentence``, by rule."""
    r = start_reading(sentence, vocab)
    if r is None:
        return []
    for rule in rules:
        r.run(rule.__name__, lambda rule=rule: rule(r))
    return list(r.found.values())
