"""The offline relation extractor: a rule-based causal reader in the spirit of Eidos.

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
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from aieco.records import EvidenceClass, Sign
from aieco.vocab import Mention, Vocabulary

EXTRACTOR_VERSION = "lexicon-1"

# ---------------------------------------------------------------------- lexicon

POSITIVE_VERBS = (
    "raise",
    "increase",
    "boost",
    "lift",
    "push up",
    "drive up",
    "fuel",
    "amplify",
    "add to",
    "strengthen",
    "stimulate",
    "spur",
    "exacerbate",
    "intensify",
    "heighten",
    "inflate",
    "bolster",
    "buoy",
    "magnify",
    "support",
    "put upward pressure on",
    "widen",
    "elevate",
    "underpin",
    "prop up",
    "shore up",
    "accelerate",
    "worsen",
    "reignite",
    "rekindle",
    "reaccelerate",
    "re-accelerate",
)
NEGATIVE_VERBS = (
    "lower",
    "reduce",
    "weigh on",
    "weigh down",
    "dampen",
    "erode",
    "depress",
    "push down",
    "drive down",
    "curb",
    "cut",
    "decrease",
    "weaken",
    "hurt",
    "drag on",
    "drag down",
    "compress",
    "hit",
    "undermine",
    "suppress",
    "restrain",
    "dent",
    "damage",
    "diminish",
    "shrink",
    "squeeze",
    "hamper",
    "hinder",
    "slow",
    "deter",
    "impair",
    "put downward pressure on",
    "hold back",
    "choke off",
    "narrow",
    "contract",
    "mitigate",
    "cushion",
    "threaten",
    "crowd out",
    "cool",
    "temper",
    "bring down",
    "hold down",
    "rein in",
    "tame",
    "disrupt",
    "pull down",
    "subtract from",
    "detract from",
    "sap",
    "stifle",
    "restrict",
    "constrain",
    "postpone",
    "delay",
    "cancel",
    "scale back",
    "cut back",
    "pull back",
    "cut back on",
    "pull back on",
    "scale back on",
    "hold back on",
)
NEUTRAL_VERBS = (
    "be reflected in",
    "feed through to",
    "feed through into",
    "lead to",
    "result in",
    "translate into",
    "cause",
    "bring about",
    "imply",
    "mean",
    "trigger",
    "contribute to",
    "feed into",
    "pass through to",
    "pass on to",
    "give rise to",
    "generate",
    "produce",
    "spill over to",
    "spill over into",
    "prompt",
    "induce",
    "create",
    "explain",
    "account for",
    "be behind",
    "entail",
    "push",
    "drive",
    "pull",
    "send",
    "force",
    "put pressure on",
    "exert pressure on",
    "place pressure on",
)
#: "pushing yields up", "drove equity prices down": the particle after the object is its movement.
PARTICLE_AFTER = re.compile(r"^\s+(?:back\s+)?(up|down|higher|lower|above|below)\b")
SPLIT_VERB_BEFORE = re.compile(
    r"\b(?:push|pushes|pushed|pushing|drive|drives|drove|driven|driving|pull|pulls|"
    r"pulled|pulling|send|sends|sent|sending|bring|brings|brought|bringing)\s+(?:[a-z-]+\s+){0,4}$"
)
COMOVEMENT = (
    "go hand in hand with",
    "coincide with",
    "be associated with",
    "be accompanied by",
    "accompany",
    "be linked to",
    "be linked with",
    "be correlated with",
    "co-move with",
    "move together with",
    "be mirrored by",
    "be matched by",
)
#: Verbs whose sign is the movement of their object: "amplify the decline in asset prices" is a
#: negative effect on asset prices, "amplify the rise in yields" a positive one.
AMPLIFIERS = ("amplify", "exacerbate", "intensify", "magnify", "deepen", "accentuate", "compound", "reinforce")
DAMPENERS = ("mitigate", "cushion", "attenuate", "offset", "soften")
#: "Y stems from X": the source follows the verb.
REVERSE = (
    "stem from",
    "arise from",
    "originate from",
    "result from",
    "reflect",
    "be driven by",
    "be caused by",
    "be fuelled by",
    "be fueled by",
    "be triggered by",
    "be the result of",
    "be a result of",
    "be largely the result of",
    "be mainly the result of",
    "be partly the result of",
    "be attributable to",
    "be largely attributable to",
    "be mainly attributable to",
    "be attributed to",
    "be explained by",
    "be due to",
    "be largely due to",
    "be mainly due to",
    "be partly due to",
    "be primarily due to",
    "be owing to",
)
#: "Y suffers from X", "Y benefits from X": the source follows and the verb carries the sign.
REVERSE_DIRECTIONAL = (("suffer from", -1), ("benefit from", 1), ("be hurt by", -1), ("be helped by", 1))
NOUN_CUES = (
    (
        r"(?:is|are|was|were|be|been|being|prove|proves|proved)\s+(?:\w+ly\s+|somewhat\s+|very\s+|quite\s+)?(?:beneficial|favourable|favorable)"
        r"\s+(?:for|to)",
        1,
    ),
    (
        r"(?:is|are|was|were|be|been|being|prove|proves|proved)\s+(?:\w+ly\s+|somewhat\s+|very\s+|quite\s+)?"
        r"(?:harmful|detrimental|damaging|disruptive|costly)\s+(?:for|to)",
        -1,
    ),
    # "tariffs are negative for growth and positive for inflation", "bad for consumption": an evaluative predicate
    (
        r"(?:(?:is|are|was|were|be|been|being|would\s+be|will\s+be|could\s+be|may\s+be|might\s+be)\s+"
        r"(?:\w+ly\s+|very\s+|quite\s+|clearly\s+)?|(?:and|but)\s+)(?:negative|bad)\s+(?:for|to)(?=\s+(?:the\s+)?[a-z])",
        -1,
    ),
    (
        r"(?:(?:is|are|was|were|be|been|being|would\s+be|will\s+be|could\s+be|may\s+be|might\s+be)\s+"
        r"(?:\w+ly\s+|very\s+|quite\s+|clearly\s+)?|(?:and|but)\s+)(?:positive|good)\s+(?:for|to)(?=\s+(?:the\s+)?[a-z])",
        1,
    ),
    (r"(?:negatively|adversely) (?:affects?|affected|affecting|impacts?|impacted|impacting|influences?)", -1),
    (r"positively (?:affects?|affected|affecting|impacts?|impacted|impacting|influences?)", 1),
    (
        r"(?:a |an )?(?:significant |strong |large |sizeable |small |modest )?positive "
        r"(?:effect|impact|influence|relationship|association)s? (?:on|with)",
        1,
    ),
    (
        r"(?:a |an )?(?:significant |strong |large |sizeable |small |modest )?negative "
        r"(?:effect|impact|influence|relationship|association)s? (?:on|with)",
        -1,
    ),
    (r"(?:is|are|was|were|be) (?:positively|directly) (?:related|correlated|associated|linked) (?:to|with)", 1),
    (r"(?:is|are|was|were|be) (?:negatively|inversely) (?:related|correlated|associated|linked) (?:to|with)", -1),
    (r"upward pressure on", 1),
    (r"downward pressure on", -1),
    (
        r"(?:poses?|posed|posing|presents?|presented|creates?|created|represents?|represented|adds? to|added to)\s+"
        r"(?:significant\s+|major\s+|further\s+|material\s+|new\s+)?downside risks? (?:to|for)",
        -1,
    ),
    (
        r"(?:poses?|posed|posing|presents?|presented|creates?|created|represents?|represented|adds? to|added to)\s+"
        r"(?:significant\s+|major\s+|further\s+|material\s+|new\s+)?upside risks? (?:to|for)",
        1,
    ),
    (
        r"(?:is|are|was|were|be|remains?|remained)\s+(?:a\s+)?(?:key\s+|major\s+|significant\s+)?"
        r"downside risks? (?:to|for)",
        -1,
    ),
    # "… downside risks to growth and upside risks to inflation": the co-ordinated risk shares the verb
    (r"(?<=\band )(?:significant\s+|major\s+|further\s+)?downside risks? (?:to|for)", -1),
    (r"(?<=\band )(?:significant\s+|major\s+|further\s+)?upside risks? (?:to|for)", 1),
    # "poses risks to employment": a risk to a variable is its adverse move, here a fall.
    (
        r"(?:poses?|posed|posing)\s+(?:an?\s+)?(?:significant\s+|major\s+|further\s+|material\s+|new\s+|serious\s+)?"
        r"(?:risks?|threats?) (?:to|for)",
        -1,
    ),
    # "tariffs are the biggest threat to growth": a threat to a variable is its adverse move, here a fall
    (
        r"(?:is|are|was|were|remains?|remained)\s+(?:an?|the|one\s+of\s+the)\s+(?:(?:biggest|main|greatest|largest|key|"
        r"primary|major|principal|serious|significant)\s+)?threats?\s+(?:to|for|facing)",
        -1,
    ),
    # "a dampening effect on demand", "a stimulative impact on investment": the adjective signs the effect
    (
        r"(?:an?\s+)?(?:\w+\s+)?(?:dampening|depressing|restraining|contractionary|adverse|harmful|damaging|"
        r"detrimental|chilling)\s+(?:effect|impact|influence)s?\s+on",
        -1,
    ),
    (
        r"(?:an?\s+)?(?:\w+\s+)?(?:stimulative|stimulatory|expansionary|supportive|boosting|favourable|favorable|"
        r"beneficial)\s+(?:effect|impact|influence)s?\s+on",
        1,
    ),
    # "a drag on growth", "a headwind for investment", "take a toll on jobs": nouns of a negative effect
    (
        r"(?:an?\s+|the\s+)?(?:significant\s+|major\s+|key\s+|big\s+|considerable\s+|further\s+|substantial\s+|"
        r"strong\s+|notable\s+|persistent\s+|ongoing\s+)?(?:drag|headwind|toll)s?\s+(?:on|for|to)",
        -1,
    ),
    # "a boost to exports", "a tailwind for consumption", "provide support to spending"
    (
        r"(?:(?:an?\s+|the\s+)(?:significant\s+|major\s+|key\s+|big\s+|considerable\s+|further\s+|substantial\s+|"
        r"strong\s+|temporary\s+)?(?:boost|tailwind|lift)s?|(?:provides?|provided|providing|lends?|lent|lending|gives?|"
        r"gave|giving|offers?|offered|offering)\s+(?:some\s+|further\s+|additional\s+|significant\s+)?support)"
        r"\s+(?:to|for)",
        1,
    ),
)
#: Movement verbs that are intransitive when nothing follows ("X rises") and nouns before a
#: verb ("rate hikes raise …").
MOVEMENT_UP = (
    "rise",
    "increase",
    "climb",
    "surge",
    "jump",
    "rebound",
    "pick up",
    "go up",
    "hike",
    "spike",
    "soar",
    "grow",
    "edge up",
    "edge higher",
    "move up",
    "move higher",
    "tick up",
    "inch up",
    "tighten",
    "rally",
    "extend gains",
    "post gains",
    "post strong gains",
    "post substantial gains",
    "firm",
    "widen",
    "escalate",
    "appreciate",
    # "growth held up": resilience, a move up against an expected fall
    "hold up",
)
MOVEMENT_DOWN = (
    "fall",
    "decline",
    "drop",
    "decrease",
    "fall back",
    "go down",
    "slump",
    "contract",
    "cut",
    "tumble",
    "plunge",
    "shrink",
    "slow",
    "ease",
    "edge down",
    "edge lower",
    "move down",
    "move lower",
    "tick down",
    "inch down",
    "weaken",
    "deteriorate",
    "loosen",
    "dry up",
    "evaporate",
    "extend losses",
    "post losses",
    "retreat",
    "recede",
    "subside",
    "sell off",
    "correct",
    "narrow",
    "soften",
    "cool",
    "slow down",
    "fade",
    "come down",
    "dissipate",
    "abate",
    "depreciate",
)

TRANSITIVE_MOVEMENTS = (
    "increase",
    "increases",
    "increased",
    "decrease",
    "decreases",
    "decreased",
    "cut",
    "cuts",
    "tighten",
    "tightens",
    "tightened",
    "tightening",
    "ease",
    "eases",
    "eased",
    "easing",
    "loosen",
    "loosens",
    "loosened",
    "loosening",
)
#: "raises downside risks to growth": the risk phrase carries the direction on its variable.
RISK_TO = re.compile(r"\b(downside|upside)\s+risks?\s+(?:to|for)\s+(?:the\s+)?(?:euro[- ]area\s+)?$")
IRREGULAR = {
    "lead": ("led",),
    "drive": ("drove", "driven"),
    "hit": ("hit",),
    "cut": ("cut",),
    "put": ("put",),
    "mean": ("meant",),
    "bring": ("brought",),
    "give": ("gave", "given"),
    "go": ("went", "gone"),
    "feed": ("fed",),
    "shrink": ("shrank", "shrunk"),
    "hold": ("held",),
    "rise": ("rose", "risen"),
    "fall": ("fell", "fallen"),
    "grow": ("grew", "grown"),
    "spill": ("spilled", "spilt"),
}
DOUBLE_FINAL = {"drag", "spur", "cut", "hit", "put", "drop", "slump", "plug", "stop", "stem"}

UP_MODIFIERS = (
    r"higher",
    r"rising",
    r"increasing",
    r"elevated",
    r"greater",
    r"stronger",
    r"more",
    r"larger",
    r"tighter",
    r"heightened",
    r"increased",
    r"surging",
    r"soaring",
    r"persistent(?:ly)? high",
    r"high",
    r"growing",
    r"mounting",
    r"(?:an? |the )?(?:sharp |strong |large |further |sudden |significant |persistent |sustained |recent )?"
    r"(?:increase|rise|surge|jump|hike|upturn|spike|tightening|rebound|escalation|strengthening|repricing|firmness|"
    r"phasing-in|introduction|imposition|build-up|widening|growth|strength|acceleration|appreciation|recovery|"
    r"pickup|pick-up|upswing|resilience|pull-forward|front-loading|frontloading)s? (?:in|of)",
    # "an increase to import tariffs" ("a rise to" is no movement: "give rise to")
    r"(?:an? |the )?(?:permanent |sharp |large |further |significant )?(?:increase|hike)s? to",
    r"(?:higher|rising|increasing|greater) (?:levels?|number|amounts?|volumes?) of",
    r"resilient",
    r"strong",
    r"solid",
    r"buoyant",
    r"robust",
    r"positive",
)
DOWN_MODIFIERS = (
    r"lower",
    r"falling",
    r"declining",
    r"weaker",
    r"thinner",
    r"reduced",
    r"less",
    r"smaller",
    r"softer",
    r"looser",
    r"easier",
    r"decreased",
    r"deteriorating",
    r"weakening",
    r"depressed",
    r"shrinking",
    r"subdued",
    r"low",
    r"(?:an? |the )?(?:sharp |strong |large |further |sudden |significant |persistent |sustained )?"
    r"(?:decrease|decline|fall|drop|reduction|slump|contraction|deterioration|correction|loss|cut|easing|"
    r"slowdown|collapse|evaporation|drying-up|weakening|softening|loosening|weakness|softness|slowing|"
    r"deceleration|moderation|depreciation)(?:es|s)? (?:in|of)",
    r"negative",
    r"weak",
    r"poor",
    r"sluggish",
    r"fewer",
    r"softening",
    r"slowing",
    r"slower",
)

NEGATION = re.compile(
    r"\b(?:not(?!\s+only)|never|no longer|neither|nor|hardly|barely|cannot|fails? to|without|"
    # "too high to be considering lowering the rate": the infinitive is ruled out
    r"failed to|too\s+\w+\s+to)\b|n't\b"
)
NEGATION_CLAUSE = re.compile(
    r"\b(?:(?:no|little|scant) (?:evidence|sign|indication)s? (?:that|of)|"
    r"(?:not (?:clear|certain|obvious|evident)|unclear|uncertain|debatable|an open question|remains to be seen) "
    r"(?:that|whether|if)?)\b"
)
#: Words that hedge a stated relation (labelling guide: "could", "may", "might" and the like). Not "would":
#: a scenario's conditional states its channel; not "tends to": a regularity is stated, not doubted.
HEDGE = re.compile(
    r"\b(?:may|might|could|can|likely|possibly|potentially|perhaps|suggests?|appears? to|"
    r"seems? to|expected to|probably|somewhat|partly|arguably|plausibly|in principle)\b"
)
BE = r"(?:is|are|was|were|be|been|being|get|gets|got)"
#: An indirect question before the verb in its clause: the link is asked or studied, not stated.
INDIRECT_QUESTION = re.compile(r"\b(?:how|whether)\b[^,;]*$")
#: The clause of the verb ends with a question mark.
QUESTION_END = re.compile(r"[^.;!?]*\?")

# What a sentence states decides the evidence class (never the verb).
ESTIMATE = re.compile(
    r"\b(?:estimat\w*|elasticit\w*|coefficient\w*|regression\w*|semi-elasticit\w*|"
    r"\d+(?:\.\d+)? ?(?:percentage points?|pp|basis points?|bps?|%|per ?cent))\b|\d%"
)
IDENTIFICATION = re.compile(
    r"\b(?:causal effect|causally|identified|identification|instrumental variables?|natural experiment|"
    r"difference-in-differences?|exogenous (?:shock|variation)s?|randomi[sz]ed)\b"
)
STRUCTURAL = re.compile(
    r"\b(?:structural model|dsge|model simulations?|in the model|semi-structural|"
    r"simulations? with|model-based)\b"
)
IDENTITY = re.compile(r"\b(?:by definition|accounting identity|identity|mechanically|by construction)\b")
RULE = re.compile(
    r"\b(?:rules?|regulation requires|are required to|is required to|must|minimum requirements?|"
    r"legally|by law|mandated?)\b"
)
HORIZON = re.compile(
    r"\b(?:in|over) the (?:short|medium|long|near)(?:er)?[- ](?:run|term)\b|"
    r"\bwithin (?:a|one|two|three|four|\d+) (?:years?|quarters?)\b|"
    r"\bover (?:the next )?(?:one|two|three|four|five|\d+) (?:years?|quarters?)\b|\bon impact\b"
)


def _verb_forms(verb: str) -> list[str]:
    """Inflected forms of a (phrasal) verb: base, 3rd person, past, participle, gerund."""
    head, _, rest = verb.partition(" ")
    tail = f" {rest}" if rest else ""
    doubled = head + head[-1] if head in DOUBLE_FINAL else head
    if head.endswith(("s", "sh", "ch", "x", "z", "o")):
        third = head + "es"
    elif re.search(r"[^aeiou]y$", head):
        third = head[:-1] + "ies"
    else:
        third = head + "s"
    gerund = head[:-1] + "ing" if head.endswith("e") and not head.endswith("ee") else doubled + "ing"
    if head in IRREGULAR:
        past: tuple[str, ...] = IRREGULAR[head]
    elif head.endswith("e"):
        past = (head + "d",)
    elif re.search(r"[^aeiou]y$", head):
        past = (head[:-1] + "ied",)
    else:
        past = (doubled + "ed",)
    return sorted({f + tail for f in (head, third, gerund, *past)}, key=len, reverse=True)


def _alternation(phrases: tuple[str, ...] | list[str]) -> str:
    return "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in sorted(set(phrases), key=len, reverse=True))


def _phrasal_alternation(phrases: tuple[str, ...] | list[str]) -> str:
    """Like :func:`_alternation`, with an optional adverb after the verb ("weighed heavily on")."""
    out = []
    for p in sorted(set(phrases), key=len, reverse=True):
        head, _, rest = p.partition(" ")
        if rest and not head.startswith(("is", "are", "was", "were", "be")):
            out.append(re.escape(head) + r"\s+(?:\w+ly\s+)?" + re.escape(rest).replace(r"\ ", r"\s+"))
        else:
            out.append(re.escape(p).replace(r"\ ", r"\s+"))
    return "|".join(out)


def _verb_pattern(verbs: tuple[str, ...], exclude: tuple[str, ...] = ()) -> re.Pattern[str]:
    forms: list[str] = []
    for v in verbs:
        if v.startswith("be "):  # "be associated with" → "is/are/was … associated with"
            forms += [f"{be} {v[3:]}" for be in ("is", "are", "was", "were", "be", "been", "being")]
        else:
            forms += _verb_forms(v)
    forms = [f for f in forms if f not in exclude]
    return re.compile(rf"\b(?:{_phrasal_alternation(forms)})\b")


@dataclass(frozen=True)
class Cue:
    start: int
    end: int
    text: str
    sign: int  # +1, -1, or 0 for a neutral connector
    kind: str  # directional | neutral | comovement | noun | movement


CUE_PATTERNS: list[tuple[re.Pattern[str], int, str]] = [
    (_verb_pattern(POSITIVE_VERBS), 1, "directional"),
    (_verb_pattern(NEGATIVE_VERBS), -1, "directional"),
    (_verb_pattern(NEUTRAL_VERBS), 0, "neutral"),
    (_verb_pattern(COMOVEMENT), 0, "comovement"),
    *[(re.compile(rf"\b{p}\b"), s, "noun") for p, s in NOUN_CUES],
    (_verb_pattern(REVERSE), 0, "reverse"),
    # "X is a key driver of Y": the source drives the target in its own direction.
    (
        re.compile(
            r"\b(?:is|are|was|were|been|being|remains?|remained)\s+(?:an?|the|one\s+of\s+the)\s+"
            r"(?:(?:key|main|major|important|significant|primary|principal|dominant|leading|biggest|largest)\s+)?"
            r"(?:drivers?|causes?)\s+of\b"
        ),
        0,
        "neutral",
    ),
    *[(_verb_pattern((v,)), s, "reverse") for v, s in REVERSE_DIRECTIONAL],
    # Attribution: "played a key role in", "was (largely) responsible for", "was a major factor in/behind".
    (
        re.compile(
            r"\b(?:(?:plays?|played|playing)\s+(?:an?\s+|the\s+)?(?:\w+\s+)?role\s+in|"
            r"(?:is|are|was|were|been|be)\s+(?:not\s+)?(?:\w+ly\s+)?responsible\s+for|"
            r"(?:is|are|was|were|been|be)\s+(?:an?|the|one)\s+(?:\w+\s+)?(?:of\s+the\s+)?(?:\w+\s+)?factors?\s+"
            r"(?:in|behind))\b"
        ),
        0,
        "neutral",
    ),
    # "bring inflation down", "get inflation under control", "keep price pressures in check": the verb and
    # its particle enclose the object, and the particle carries the direction.
    (
        re.compile(
            r"\b(?:bring|brings|brought|bringing|get|gets|got|getting|keep|keeps|kept|keeping)\b"
            r"(?=\s+(?:[a-z-]+\s+){1,4}?(?:(?:back\s+)?down|under\s+control|in\s+check)\b|"
            r"(?<=keep|eeps|kept|ping)\s+(?:[a-z-]+\s+){1,4}?(?:low|lower|subdued|contained)\b)"
        ),
        -1,
        "directional",
    ),
    (
        re.compile(
            r"\b(?:bring|brings|brought|bringing)\b(?=\s+(?:[a-z-]+\s+){1,4}?(?:back\s+)?up\b)|"
            # "could keep services inflation elevated"
            r"\b(?:keep|keeps|kept|keeping)\b(?=\s+(?:[a-z-]+\s+){1,4}?(?:elevated|high|higher|up|strong|firm)\b)"
        ),
        1,
        "directional",
    ),
    # "make imports more expensive", "made borrowing cheaper": the complement carries the direction.
    (
        re.compile(
            r"\b(?:make|makes|made|making)\b(?=\s+(?:[a-z-]+\s+){1,3}?(?:more\s+(?:expensive|costly)|pricier|costlier)\b)"
        ),
        1,
        "directional",
    ),
    (
        re.compile(
            r"\b(?:make|makes|made|making)\b(?=\s+(?:[a-z-]+\s+){1,3}?(?:less\s+(?:expensive|costly)|cheaper)\b)"
        ),
        -1,
        "directional",
    ),
    # "knocked 0.6 percentage points off inflation", "added a quarter point to GDP growth": a contribution
    (
        re.compile(
            r"\b(?:knock|knocks|knocked|knocking|shave|shaves|shaved|shaving|trim|trims|trimmed|trimming)\b"
            r"(?=\s+(?:[\w.%-]+\s+){1,4}?off\b)"
        ),
        -1,
        "directional",
    ),
    (
        re.compile(r"\b(?:add|adds|added|adding)\b(?=\s+(?:[\w.%-]+\s+){1,4}?(?:points?|%|per\s+cent)\s+to\b)"),
        1,
        "directional",
    ),
    # "kept house prices from rising", "prevents credit from falling": the verb stops the object's move.
    (
        re.compile(
            r"\b(?:keep|keeps|kept|keeping|prevent|prevents|prevented|preventing|stop|stops|stopped|stopping)\b"
            r"(?=\s+(?:[a-z-]+\s+){1,4}?from\s+(?:rising|increasing|climbing|surging|growing|accelerating)\b)"
        ),
        -1,
        "directional",
    ),
    (
        re.compile(
            r"\b(?:keep|keeps|kept|keeping|prevent|prevents|prevented|preventing|stop|stops|stopped|stopping)\b"
            r"(?=\s+(?:[a-z-]+\s+){1,4}?from\s+(?:falling|declining|dropping|contracting|shrinking|weakening)\b)"
        ),
        1,
        "directional",
    ),
]
AMPLIFIER_RE = re.compile(rf"^(?:{_alternation([f for v in AMPLIFIERS for f in _verb_forms(v)])})$")
DAMPENER_RE = re.compile(rf"^(?:{_alternation([f for v in DAMPENERS for f in _verb_forms(v)])})$")
#: "Y fell, driven by X" / "Supported by X, Y rose": the cause of a stated movement.
CAUSE_AFTER = re.compile(
    r"\b(?:driven by|on the back of|owing to|due to|because of|in response to|reflecting|amplified by|"
    r"in the face of|in reaction to|responding to|reacting to|"
    # market commentary: "equity prices rose on expectations of lower policy rates"
    r"on\s+(?:growing\s+|rising\s+|renewed\s+)?(?:expectations|hopes|fears|prospects?|signs)\s+(?:of|for)|"
    r"supported by|fuelled by|fueled by|as a result of|buoyed by|weighed down by|boosted by|underpinned by|"
    r"hit by|dragged down by|following|given|on account of|helped by|aided by|held back by|restrained by|"
    r"hampered by|thanks to|pulled down by)\s+"
    r"(?:the\s+|a\s+|an\s+|this\s+|these\s+|such\s+|(?:investors|markets|market\s+participants)\s+"
    r"(?:anticipating|expecting|pricing\s+in)\s+)?"
    r"(?:us\s+|global\s+|new\s+|recent\s+)?$"
)
#: Movement nouns that carry their direction inside the synonym ("economic slowdown", "policy easing").
INHERENT_DOWN = re.compile(
    r"\b(?:slowdown|recession|downturn|easing|cuts?|weakening|contraction|loosening|looser|easier|"
    r"disinflation(?:ary)?|deflationary)\b"
)
INHERENT_UP = re.compile(
    r"\b(?:tightening|tighter|hikes?|increases?|rises|escalation|restraint|restrictive(?:ness)?)\b"
)
#: A shock to a variable, unqualified, is its adverse move in stress-scenario prose.
SHOCK_AFTER = re.compile(r"^\s+(?:shocks?|strains?|pressures?)\b")
#: "strains on liquidity", "pressure on funding costs": the variable's adverse move.
STRAIN_BEFORE = re.compile(r"\b(?:strains?|stress|pressures?)\s+on\s+(?:the\s+)?$")
PRESSURE_DIRECTION = re.compile(
    r"\b(upward|downward|opposing|two-sided|offsetting|countervailing|conflicting)\s+(?:[a-z-]+\s+)?pressures?\s+on\s+"
    r"(?:the\s+)?$"
)
PARTICIPLE = re.compile(
    r"^(?:giving|resulting|leading|generating|triggering|causing|prompting|fuell?ing|"
    r"putting|contributing|translating)\b"
)
#: "firm" is a movement only as "firmed"/"firming": "firms" and "firm" are mostly the noun and the adjective.
MOVEMENT_PATTERNS = [(_verb_pattern(MOVEMENT_UP, exclude=("firm", "firms")), 1), (_verb_pattern(MOVEMENT_DOWN), -1)]
# The movement may be separated from the mention by an article, "euro area" or one adjective
# ("lower potential growth", "higher US tariffs").
_FUNCTION_WORD = (
    r"(?:as|when|if|and|or|but|while|because|since|of|in|on|to|for|by|with|than|that|which|after|before|amid|"
    r"despite|although|though|whereas|so|thus|hence|is|are|was|were|be|been|has|have|had|would|could|will|may)\b"
)
_GAP = (
    rf"\s+(?:the\s+|euro[- ]area\s+)?(?:(?!{_FUNCTION_WORD})[a-z][a-z-]*\s+)?"
    # "a subdued rate of GDP growth", "the slower pace of hiring": the measure's movement is the variable's
    r"(?:(?:rate|pace|level|levels)\s+of\s+(?:the\s+)?|(?:outlook|prospects)\s+for\s+(?:the\s+)?)?"
)
UP_BEFORE = re.compile(rf"\b(?:{'|'.join(UP_MODIFIERS)}){_GAP}$")
DOWN_BEFORE = re.compile(rf"\b(?:{'|'.join(DOWN_MODIFIERS)}){_GAP}$")
#: Words that are a verb after a subject ("tariffs reduced trade") and a movement before a noun.
VERB_OR_ADJECTIVE = ("lower", "increased", "decreased", "reduced", "depressed", "weakened", "lowered")
MODAL_BEFORE = re.compile(
    r"\b(?:would|could|may|might|will|can|should|must|to|also|further|significantly|directly|not|n't|"
    r"does|do|did|tends? to|help|has|have|had|\w+ly)\s+$"
)
CONJ_ONLY = re.compile(
    r"^[\s,]*(?:and|or|as well as|and also|but also|but|while|whereas|and thereby|thereby|"
    r"and hence|and thus)?[\s,]*$"
)
COORD = re.compile(
    r"^\s*(?:,|and|or|as well as|, and|, or|&|combined with|together with|coupled with|"
    r"along with|and the|and a|and (?:the\s+)?(?:ensuing|resulting|associated|attendant)|"
    r"and (?:thereby|thus|hence|therefore|so|in turn))\s*$"
)
PREPOSITION_BEFORE = re.compile(
    r"\b(?:of|on|for|from|to|with|among|across|at|into|against|over|under|in|during|"
    r"amid|after|through|via|by|about|regarding|surrounding|around)\s+(?:the\s+|an?\s+|euro[- ]area\s+)?(?:[a-z]+\s+)?$"
)
CLAUSE_BREAK = re.compile(r"[;:]|\.\s|(?<=[a-z)])\.(?:\[\d+\]|\d{1,2})\s")
#: "the drag on activity", "a cut": a noun, not a verb ("that" is mostly a relative pronoun: "a trade war
#: that generates a slowdown").
DETERMINER_BEFORE = re.compile(r"\b(?:the|a|an|this|its|their|any|no|such)\s+$")
SUBORDINATOR = re.compile(
    r"\b(?:when|whenever|(?<!even )(?<!just )(?<!such )(?<!as well )as(?!\s+well\b)|if|because(?!\s+of\b)|"
    r"since|once|after)\b"
)
ABSOLUTE_WITH = re.compile(r"^\s*with\s+[^,;]*$")


@dataclass(frozen=True)
class Reading:
    """One relation read from a sentence."""

    src: str
    dst: str
    sign: Sign
    verb: str
    confidence: float
    evidence_class: EvidenceClass
    horizon: str | None
    hedged: bool
    negated: bool


@dataclass
class _Mention:
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


#: "to" closing a preposition, not an infinitive marker.
PREPOSITIONAL_TO = re.compile(
    r"\b(?:due|owing|thanks|prior|relative|compared|according|addition|response|reaction|respect|exposure|"
    r"contribut\w*|lead|leads|led|leading|attributable|related|linked|return|returned|returns|back)\s+to\s+$"
)


def _lower_is_a_verb(low: str, at: int, mention_ends: set[int], lo: int, mention_end: int) -> bool:
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


#: Variables measured as tightness: "supportive monetary policy" is a lower policy rate.
TIGHTNESS = frozenset({"policy_rate", "financing_conditions", "lending_standards"})
LOOSE_BEFORE = re.compile(rf"\b(?:supportive|accommodative|loose|looser|easy|easier|favourable|favorable){_GAP}$")
TIGHT_BEFORE = re.compile(rf"\b(?:restrictive|tight|tighter){_GAP}$")


#: "a deterioration in X", "the worsening of X": the variable's adverse move (tighter financing
#: conditions, lower confidence).
ADVERSE_NOUN_BEFORE = re.compile(
    r"\b(?:an?\s+|the\s+)?(?:sharp\s+|further\s+|significant\s+|resulting\s+|ensuing\s+)?"
    r"(?:deterioration|worsening|(?:adverse|deteriorating|worsening|darker|gloomier)\s+outlook)\s+"
    r"(?:in|of|for)\s+(?:the\s+)?(?:[a-z-]+\s+)?$"
)


#: "improving investor sentiment", "an improvement in market liquidity": the variable's favourable move.
FAVOURABLE_BEFORE = re.compile(
    r"\b(?:(?:an?\s+|the\s+)?(?:further\s+|significant\s+|gradual\s+)?improvements?\s+(?:in|of)\s+(?:the\s+)?|"
    r"improving\s+|improved\s+)(?:[a-z-]+\s+)?$"
)


def _modifier(
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
            if word in VERB_OR_ADJECTIVE and _lower_is_a_verb(low, at, mention_ends, _clause_start(low, at), end):
                return 0, start
            if word in VERB_OR_ADJECTIVE and re.match(r"\S+\s+(?:the|its|their|our|his|her)\s", low[at:]):
                return 0, start  # "reduced the policy rate": a determiner follows a verb, never a modifier
            if word in ("increasing", "decreasing") and re.search(r"(?:,|\bby(?:\s+\w+ly)?)\s*$", low[:at]):
                # "…, increasing credit losses", "by rapidly increasing rates": a participle or gerund, no adjective
                return 0, start  # "…, increasing credit losses": a participle after a clause, not an adjective
            return sign, at
    return 0, start


def _this_verb(low: str, m: re.Match[str]) -> bool:
    """ "This boosts Y", "this raises Y": after the pronoun "this" a word in -s is a verb (a singular
    noun after "this" has no -s: "this rise", "this cut")."""
    head = m.group().split()[0]
    return bool(re.search(r"\bthis\s+$", low[max(0, m.start() - 6) : m.start()])) and bool(re.search(r"[^s]s$", head))


#: What follows a verb used without an object: punctuation, a preposition, an adverb, a conjunction.
INTRANSITIVE_AFTER = re.compile(
    r"\s*(?:[,.;:)]|$)|\s+(?:by|in|on|at|over|during|further|again|as|when|if|after|while|amid|and|but|or|due|owing|"
    r"because|thanks|more|less|much|somewhat|than|"
    r"to|from|since|until|before|\w+ly)\b"
)


def _movement_sign(text: str) -> int:
    """+1 / -1 when ``text`` is a form of a movement verb ("increased", "weakens"), else 0."""
    for pat, sign in MOVEMENT_PATTERNS:
        if pat.fullmatch(" ".join(text.split())):
            return sign
    return 0


#: "cost increases", "wage hikes" after a preposition: a noun compound whose head is the movement noun.
COST_COMPOUND_BEFORE = re.compile(
    r"\b(?:from|of|by|to|with|amid|after|despite|because\s+of|due\s+to|and)\s+(?:further\s+|large\s+|recent\s+)?"
    r"(?:cost|input\s+cost|price|wage|tax|fee|rent)\s+$"
)


def _find_cues(low: str, mentions: list[_Mention]) -> list[Cue]:
    taken = [(x.start, x.m.end) for x in mentions]
    found: list[Cue] = []
    for pat, sign, kind in CUE_PATTERNS:
        for m in pat.finditer(low):
            if kind != "noun" and DETERMINER_BEFORE.search(low, 0, m.start()) and not _this_verb(low, m):
                continue  # "the drag on activity", "a cut" are nouns, not verbs
            if kind != "noun" and COST_COMPOUND_BEFORE.search(low, 0, m.start()) and m.group().endswith("s"):
                continue  # "arising from cost increases": a noun compound, not a verb
            found.append(Cue(m.start(), m.end(), m.group(), sign, kind))
    for pat, sign in MOVEMENT_PATTERNS:
        for m in pat.finditer(low):
            if DETERMINER_BEFORE.search(low, 0, m.start()) and not _this_verb(low, m):
                continue  # "from such surges", "a rise": nouns, not movements
            if COST_COMPOUND_BEFORE.search(low, 0, m.start()) and m.group().endswith("s"):
                continue  # "arising from cost increases", "after wage hikes": a noun compound, no verb of a subject
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


def _clause_start(low: str, pos: int) -> int:
    starts = [m.end() for m in CLAUSE_BREAK.finditer(low, 0, pos)]
    return starts[-1] if starts else 0


def _clause_end(low: str, pos: int) -> int:
    m = CLAUSE_BREAK.search(low, pos)
    return m.start() if m else len(low)


#: "in the face of tariffs, monetary policy …": a preposed adverbial ends at its comma, it lists nothing.
PREPOSED_ADVERBIAL = re.compile(
    r"(?:^|[,;]|\bthat)\s*(?:in\s+the\s+face\s+of|amid|despite|given|after|following|with|because\s+of|due\s+to|"
    r"in\s+response\s+to|against|in\s+light\s+of|notwithstanding)\s+(?:the\s+|an?\s+|higher\s+|new\s+|us\s+)*"
    r"(?:[a-z-]+\s+){0,2}$"
)


def _coordinated_left(low: str, ms: list[_Mention], idx: int, floor: int) -> list[int]:
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
    while (
        idx > 0
        and ms[idx - 1].start >= floor
        and ms[idx - 1].m.variable_id != ms[idx].m.variable_id
        and COORD.match(low[ms[idx - 1].m.end : ms[idx].start])
        and not (
            low[ms[idx - 1].m.end : ms[idx].start].strip() == ","
            and PREPOSED_ADVERBIAL.search(low[max(0, ms[idx - 1].start - 60) : ms[idx - 1].start])
        )
    ):
        idx -= 1
        out.append(idx)
    return out


def _starts_clause(low: str, x: _Mention, limit: int) -> bool:
    """A mention followed directly by the next verb is that verb's subject ("…, and weaker GDP raises …")."""
    return limit < len(low) and bool(
        re.fullmatch(r"[\s,]*(?:(?:would|could|may|might|will|can|also|further|then|\w+ly)\s+)*", low[x.m.end : limit])
    )


def _coordinated_right(low: str, ms: list[_Mention], idx: int, limit: int) -> list[int]:
    out = [idx]
    # A mention with its own movement ("…, and weaker GDP raises …") starts a new clause, not a list.
    while (
        idx + 1 < len(ms)
        and ms[idx + 1].m.end <= limit
        and not (ms[idx + 1].mod and _starts_clause(low, ms[idx + 1], limit))
        # "… on investment and market liquidity is thinner": a mention with its own copula starts a clause
        and not re.match(r"\s+(?:is|are|was|were|has|have|had|remains?|remained)\b", low[ms[idx + 1].m.end :])
        and ms[idx + 1].m.variable_id != ms[idx].m.variable_id
        and COORD.match(low[ms[idx].m.end : ms[idx + 1].start])
    ):
        idx += 1
        out.append(idx)
    return out


def _subjects(low: str, ms: list[_Mention], cue: Cue, lo: int, floor: int = 0) -> list[int]:
    left = [i for i, x in enumerate(ms) if x.m.end <= cue.start and x.start >= lo]
    if not left:
        return []
    i = left[-1]
    if len(low[ms[i].m.end : cue.start]) > 120:
        return []
    if re.match(
        r"\s+(?:and|but|or)\s+(?:\w+ly\s+)?(?:has|have|had|is|are|was|were|will|would|could|may|might|can)\s+",
        low[ms[i].m.end : cue.start],
    ):
        return []  # "banks have maintained capital buffers and have increased provisions": an earlier subject
    if PRONOUN_SUBJECT.search(low[ms[i].m.end : cue.start]):
        return []  # "these disruptions affect jobs, and they could drive up inflation": the pronoun is the subject
    if "," in low[ms[i].m.end : cue.start] and re.search(
        r"\b(?:because|since|if|when|once|although|though|unless|as)\s+(?:the\s+)?(?:[a-z-]+\s+)?$",
        low[_clause_start(low, ms[i].start) : ms[i].start],
    ):
        return []  # "Because inflation has come down, we lowered …": the subordinate clause holds no subject
    if SUBORDINATE_GAP.search(low[ms[i].m.end : cue.start]) or AS_CLAUSE_GAP.search(low[ms[i].m.end : cue.start]):
        return []  # "Y slowed because firms cancelled investment": the verb has its own subject
    if re.fullmatch(r"\s+and\s+(?:\w+ly\s+)?", low[ms[i].m.end : cue.start]) and UNREAD_VERB_OBJECT.search(
        low[max(0, ms[i].start - 50) : ms[i].start]
    ):
        # "an environment that fosters investment and reduces uncertainty": the mention is the object of an
        # unread verb, and the two verbs share the relative pronoun's antecedent
        return []
    if OWN_CLAUSE_SUBJECT.search(low[ms[i].m.end : cue.start]):
        # "uncertainty may have weighed on sales and lower immigration may have contributed to …": after a
        # verb of its own, the mention is followed by a co-ordinated clause whose subject is another noun
        return []
    if OTHER_AGENT.search(low[ms[i].m.end : cue.start]):
        return []  # "losses could affect their ability to support the economy": the banks would support it
    if NOUN_SUBJECT_AFTER_COMMA.search(low[ms[i].m.end : cue.start]):
        return []  # "Y slowed because firms cancelled investment": the verb has its own subject
    # "The resilience of liquidity … fell": the head measures the mention, which is the subject.
    measured = re.search(
        r"\b(?:resilience|level|levels|depth|pace|stock|value|volume|volumes|amount|supply|"
        # "the effects of past rate increases weigh on …": the effects are the mention's
        r"effects?|impacts?|influence|consequences|pass-through)\s+of\s+"
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
        return _coordinated_left(low, ms, i, floor)
    # A mention inside a prepositional phrase ("tariffs on exports reduce …") is not the subject,
    # unless a relative pronoun makes it the antecedent ("a sell-off of assets, which would amplify …")
    # or "with" co-ordinates ("low activity combined with the rise in yields would …").
    before = low[max(0, ms[i].start - 30) : ms[i].start]
    relative = re.search(r",\s*which\b", low[ms[i].m.end : cue.start])
    coordinating = re.search(r"\b(?:combined|together|coupled|along)\s+with\s+(?:the\s+|an?\s+)?$", before)
    # "With GDP growth weakening, …": the mention is the subject of the absolute clause's participle
    absolute = cue.text.endswith("ing") and ABSOLUTE_WITH.search(low[_clause_start(low, ms[i].start) : ms[i].start])
    # "These make imports more expensive and put pressure on …": the object of an earlier verb
    made = re.search(r"\b(?:make|makes|made|making|render|renders|rendered|rendering)\s+(?:the\s+|us\s+)?$", before)
    if (PREPOSITION_BEFORE.search(before) or made) and not relative and not coordinating and not absolute:
        if len(left) < 2:
            return []
        i = left[-2]
        # The earlier mention must not sit in an earlier clause ("X rose, and the fall in Y hurt Z").
        if CLAUSE_JOIN.search(low[ms[i].m.end : cue.start]) or OWN_CLAUSE_SUBJECT.search(low[ms[i].m.end : cue.start]):
            return []
    listed = _coordinated_left(low, ms, i, floor)
    head = min(listed)
    if head > 0 and TO_MEET.fullmatch(low[ms[head - 1].m.end : ms[head].start]):
        # "fire sales to meet redemptions or margin calls could depress …": the act, not the need, is the subject
        return _coordinated_left(low, ms, head - 1, floor)
    return listed


#: A subordinate clause opens between a candidate subject and the verb: the verb has another subject.
SUBORDINATE_GAP = re.compile(
    r"\b(?:because|since|although|though|whereas|while|when|whenever|if|once|unless|until|so that|given that)\s+"
    r"(?!\w+ly\b)\w+"
)
#: "unemployment has risen as firms have slowed hiring": an "as" clause with its own subject
AS_CLAUSE_GAP = re.compile(
    r"(?<!such )(?<!so )(?<!just )\bas\s+(?!well\b|a\s+result\b|much\b|such\b|expected\b|anticipated\b|noted\b|"
    r"discussed\b|mentioned\b|shown\b|seen\b|(?:a|an|the)\s+(?:[a-z-]+\s+)?(?:share|percentage|proportion|ratio|"
    r"result|consequence)\b)(?!\w+ly\b)\w+"
)
#: "their ability to support", "the need to cut": the infinitive's agent is another party.
OTHER_AGENT = re.compile(
    r"\b(?:the|a|an|their|its|our|his|her|any|no)\s+(?:[a-z-]+\s+)?"
    r"(?:ability|capacity|willingness|inability|need|decision|plans?|efforts?|incentives?|room)\s+"
    r"(?:(?:of|for)\s+(?:[a-z-]+\s+){1,3})?to\s+"
    r"(?:(?:help|further|\w+ly)\s+)?$"
)
UNREAD_VERB_OBJECT = re.compile(
    r"\b(?:that|which|who)\s+(?:\w+ly\s+)?[a-z]+(?:s|ed)\s+(?:the\s+|an?\s+|more\s+)?(?:[a-z-]+\s+)?$"
)
#: "… and lower migration may have contributed to …": the co-ordinated clause has its own subject.
NEW_SUBJECT_GAP = re.compile(
    r"\b(?:and|but)\s+(?!(?:also|then|thus|so|therefore|hence|in\s+turn|further|still)\b)(?:[a-z-]+\s+){1,3}?"
    r"(?:may|might|could|would|will|should|can|has|have|had|did|does)\s+(?:(?:have|been|also|\w+ly)\s+)*$"
)
OWN_CLAUSE_SUBJECT = re.compile(
    r"\b(?:has|have|had|is|are|was|were|been|\w+ing|\w+ed)\b[^,;]*?\s(?:and|but)\s+(?:[a-z-]+\s+){1,3}?"
    r"(?:may|might|could|would|will|should|can|has|have|had|did|does)\s+(?:(?:have|been|also|\w+ly)\s+)*$"
)
#: "With growth weakening, the Governing Council cut …": a noun phrase after a comma is the verb's subject.
NOUN_SUBJECT_AFTER_COMMA = re.compile(
    r",\s*(?:the|a|an|our|its|their|many|most|some)\s+(?:[a-z-]+\s+){0,3}"
    r"(?:(?:has|have|had|would|could|will|may|might|also|then|\w+ly)\s+)*$"
)
#: "…, helping (to) ease inflation": a participle of help after a stated move.
HELPING_AFTER_COMMA = re.compile(r",\s*(?:\w+ly\s+)?help(?:ing|s|ed)?\s+(?:to\s+)?$")
#: A personal pronoun right before the verb is its subject ("…, and they could drive up …").
PRONOUN_SUBJECT = re.compile(
    # "this should lower …" after a stated move is a relative ("…, and this should"), not a pronoun subject
    r"\b(?:they|we|i|he|she|you|(?:this|these|those)\s+(?!(?:would|could|may|might|will|can|should|must|has|have|had|"
    r"in|is|was)\b)[a-z-]+)\s+"
    r"(?:(?:would|could|may|might|will|can|should|also|then|further|have|has|had|been|be|able\s+to|"
    r"(?:need|needs|needed|decided|chose|want|wants|wanted)\s+to|\w+ly)\s+)*$"
)
#: A clause boundary between a candidate subject and its verb.
CLAUSE_JOIN = re.compile(r",\s*(?:and|but|while|whereas|although|though|yet)\b|\bwhich\b")
#: A purpose infinitive after the object of a policy move ("lowered its policy rate in June to support
#: growth", "raised rates quickly in order to bring inflation down").
PURPOSE_TO = re.compile(
    r"^\s*(?:(?!\b(?:and|but|or|which|that|as|when|if|while)\b)(?:[^,;.:]|\.(?=\d))){0,40}?\b"
    r"(?:in\s+order\s+|so\s+as\s+)?to\s+"
    r"(?:(?:help|try|seek|aim)\s+(?:to\s+)?)?(?:\w+ly\s+)?$"
)
#: An instrument held where it is ("kept the policy rate unchanged", "rates on hold") states no move.
HELD = re.compile(r"\b(?:unchanged|steady|on\s+hold|constant|where\s+it\s+(?:is|was))\b")
#: A movement named as a noun before its variable ("the decline in", "a recovery in", "progress on").
NOMINAL_MOVE = re.compile(
    r"\b(?:increase|rise|surge|jump|upturn|rebound|recovery|pickup|pick-up|acceleration|decrease|decline|fall|drop|"
    r"reduction|slump|contraction|deterioration|correction|slowdown|slowing|deceleration|moderation|progress)s?\s+"
    r"(?:in|of|on|toward|towards)\b"
)
#: A gerund opening its clause ("Reducing policy restraint …", "we know that raising rates …").
GERUND_START = re.compile(r"(?:^|\bthat\s+|[,;]\s*)(?:\w+ly\s+)?\w+ing\s+(?:the\s+|its\s+|their\s+|our\s+)?$")
#: A move that falls short ("too slowly", "too little", "too late").
TOO_LITTLE = re.compile(r"\btoo\s+(?:slowly|little|late|gradually|timidly)\b")
#: "the X-er …, the Y-er …": a correlative comparative (the first part may list several "the X-er" items).
_COMP = r"(?:more|less|fewer|greater|larger|bigger|higher|stronger|faster|longer|weaker|lower|smaller|slower|softer)"
COMPARATIVE_WORD = re.compile(
    r"the\s+(?:(more|greater|larger|bigger|higher|stronger|faster|longer)|(?:less|fewer|weaker|lower|smaller|slower|"
    r"softer))\b"
)
CORRELATIVE = re.compile(rf"(?:^|[,;:]\s*|\bthat\s+)the\s+{_COMP}\b[^,;:]*?(?P<comma>,\s*)(?P<second>the\s+{_COMP}\b)")
CORRELATIVE_PART = re.compile(rf"the\s+{_COMP}\b.*?(?=\s+and\s+the\s+{_COMP}\b|,\s*the\s+{_COMP}\b|$)")
INNER_DIRECTION = re.compile(
    r"\b(?:(upward|raise|raising|rise|increase|increasing|higher|up|tighten|hike)|"
    r"(?:downward|lower|lowering|cut|cutting|reduce|reducing|decline|fall|down|ease|easing))\b"
)
#: "more difficult to cut", "harder to raise": a move made less likely.
HARDER_TO = re.compile(r"\b(?:more\s+difficult|harder|less\s+(?:likely|scope|room|reason))\s+(?:for\s+\w+\s+)?to\s+$")
#: "the drag from X on Y" (order "from") or "the boost to Y from X" (order "to").
EFFECT_NOUN_FROM = re.compile(
    r"\b(?P<noun>drags?|headwinds?|hit|boost|lift|support|tailwinds?)\s+(?P<order>from|to|on)\s+(?P<a>[^,;:.]{1,50}?)\s+"
    r"(?:on|to|for|from)\s+(?P<b>(?:the\s+)?(?:[a-z-]+\s+){0,3}[a-z-]+)"
)
#: A level stated before a relative clause ("is now at the low end of …", "remains elevated, which …").
LEVEL_AFTER = re.compile(
    r"\s+(?:is|are|was|were|remains?|remained|has\s+been|have\s+been|stays?|stayed)\s+(?:now\s+|still\s+|already\s+|"
    r"\w+ly\s+)?(?:(?:at|in)\s+the\s+)?(?:(high|higher|elevated|upper\s+end|top\s+end|above|restrictive|strong|tight)|"
    r"(?:low|lower|lower\s+end|low\s+end|bottom|below|accommodative|weak|subdued|loose))\b"
)
#: Attribution of a move to a component ("accounted for", "explain", "responsible for", "a role in").
ATTRIBUTION = re.compile(
    r"^(?:account|accounts|accounted|accounting|explain|explains|explained|explaining)\b|"
    r".*\b(?:responsible\s+for|role\s+in|factors?\s+(?:in|behind))$"
)
#: "… to meet margin calls", "… to cover redemptions": an act done to meet a need.
TO_MEET = re.compile(
    r"\s+(?:in\s+order\s+)?to\s+(?:meet|cover|satisfy|fund|pay\s+for|honou?r)\s+(?:the\s+|their\s+|its\s+|any\s+)?"
)
#: "the pass-through of X to Y", "X pass-through into Y".
PASS_THROUGH_NOUN = re.compile(
    r"\bpass[- ]?through\s+(?:of|from)\s+(?P<x>[^,;:.]{1,50}?)\s+(?:in)?to\s+(?:the\s+)?|"
    r"(?P<x2>)\bpass-?through\s+(?:in)?to\s+(?:the\s+)?"
)
#: "the effects of X include Y", "the consequences of X would be Y".
EFFECTS_INCLUDE = re.compile(
    r"\b(?:effects?|consequences?|impacts?|implications?|results?)\s+of\s+(?P<x>[^,;:.]{1,60}?)\s+"
    r"(?P<cop>include|includes|included|would\s+include|could\s+include|are|were|would\s+be|will\s+be|could\s+be)\s+"
    r"(?:\w+ly\s+)?"
)
#: "the main driver of Y is X", "a key factor behind Y has been X".
DRIVER_OF = re.compile(
    r"\b(?:factors?|drivers?|reasons?|causes?|sources?|contributors?)\s+(?:behind|of|for)\s+(?P<y>[^,;:.]{1,60}?)\s*[—–]?\s*"
    r"(?P<cop>is|was|are|were|has\s+been|have\s+been|remains?|remained)\s+(?:\w+ly\s+)?"
)
#: "the biggest threat facing the economy was the trade conflict": the source follows the copula, the target falls
THREAT_TO = re.compile(
    r"\b(?:threats?|dangers?)\s+(?:to|for|facing)\s+(?P<y>[^,;:.]{1,60}?)\s*[—–]?\s*"
    r"(?P<cop>is|was|are|were|has\s+been|have\s+been|remains?|remained)\s+(?:\w+ly\s+)?"
)
#: A rise at a weak pace ("grow slowly", "expand at a modest pace"): no direction to read.
WEAK_PACE = re.compile(
    r"\s+(?:only\s+)?(?:slowly|modestly|moderately|sluggishly|slightly|marginally|weakly|"
    r"at\s+an?\s+(?:slow|slower|modest|moderate|subdued|weak|sluggish|gradual)\w*\s+(?:pace|rate))\b"
)
#: "X and thus Y": Y is the consequence of X ("and thereby Y" keeps the verb's subject: it acts by way of X).
THUS = re.compile(r"\band\s+(?:thus|hence|therefore|so|in\s+turn|consequently)\b")
#: "…, and increases Y", "… in the medium term and raises Y": a verb co-ordinated with an earlier one.
COORDINATED_VERB = re.compile(
    r"\b(?:and|but|or)\s+(?:also\s+|further\s+|then\s+|thereby\s+|\w+ly\s+)?"
    r"(?:(?:has\s+|have\s+|had\s+)?(?:help|helps|helped|helping)\s+(?:to\s+)?)?$"
)
BY_GERUND = re.compile(r"\bby\s+(?:\w+ly\s+)?$")

TRANSPARENT_HEAD = re.compile(
    r"^\s+(?:the\s+)?(?:(?:prospects?|outlook|risks?|likelihood|probability|level|pace|rate|much|most|part|some|"
    r"half|all|(?:a\s+)?(?:large|significant|good)\s+(?:part|share))\s+(?:for|of)|"
    r"(?:strains?|pressures?|stress)\s+on|"
    # "due to temporary factors such as lower fuel prices": the examples named are the objects
    r"(?:[a-z-]+\s+)?(?:factors|developments|shocks|effects)\s+(?:such\s+as|like|including))\s+(?:the\s+|an?\s+)?"
)


def _objects(low: str, ms: list[_Mention], cue: Cue, hi: int, next_cue: int) -> list[int]:
    right = [i for i, x in enumerate(ms) if x.start >= cue.end and x.m.end <= min(hi, next_cue)]
    if not right:
        return []
    i = right[0]
    gap = low[cue.end : ms[i].start]
    if re.search(r"\b(?:and|or|but|while|whereas)\b", gap) and re.match(
        r"\s+(?:is|are|was|were|has|have|had|remains?|remained)\b", low[ms[i].m.end :]
    ):
        return []  # "conditions are tightening and liquidity is scarcer": the mention is the next clause's subject
    if re.search(r"\b(?:and|or|but|while|whereas)\b", gap) and re.fullmatch(
        r"\s+(?:(?:would|could|may|might|will|can|also|further|then|have|has|had|(?:were|was|is|are)\s+to|\w+ly|"
        # "the economy slows and employment continues to weaken": an aspect verb before the next verb
        r"(?:continues?|continued|starts?|started|begins?|began|keeps?|kept|tends?|tended|appears?|seems?)\s+to)\s+)*",
        low[ms[i].m.end : next_cue],
    ):
        return []  # "spreads widened and equity prices fell": the mention is the next clause's subject
    if re.search(r",\s*\w+ing\s+$", low[cue.end : ms[i].m.start]):
        return []  # "reduce collateral values, increasing credit losses": the mention belongs to the participle
    # "lowering the prospects for global growth", "raises the risk of fire sales": the head names the
    # variable's outlook or likelihood, so the variable is the object.
    if CAUSAL_GAP.search(gap):
        return []  # "consumer spending slowed due to weaker confidence": the mention is the cause
    gap = TRANSPARENT_HEAD.sub(" ", gap)
    # A mention behind a preposition ("depressed even in an environment of …") is no direct object.
    if len(gap.split()) > 6 or re.search(
        r"\b(?:in|of|on|for|at|from|with|amid|during|despite|even|than|between|about|via|through|by|across|"
        r"within|among|against|towards?|into|over|under|beyond|like|"
        r"as|when|whenever|if|while|whereas|because|since|although|though|after|before|until|unless|once)\b|^\s*[,;]|;",
        gap,
    ):
        return []
    return _coordinated_right(low, ms, i, min(hi, next_cue))


#: A connector naming a cause ("slowed due to X"): what follows is the cause, not the verb's object.
CAUSAL_GAP = re.compile(r"\b(?:due to|owing to|because of|thanks to|as a result of|on account of)\b")


#: Connectors that produce their target ("could cause volatility" is more volatility); "spill over to",
#: "pass through to", "translate into" carry the source's move without saying which way the target goes.
#: Connectors through which the source's move reaches the target in the same direction ("higher energy
#: prices pass through to consumer prices", "rate hikes are reflected in long-term rates").
PASSING = re.compile(
    r"^(?:(?:pass(?:es|ed|ing)?|feeds?|fed|feeding)\s+(?:through|on)\s+(?:to|into)|"
    r"(?:is|are|was|were|be|been|being)\s+reflected\s+in)$"
)
PASS_THROUGH_FAMILIES = (
    frozenset(
        {
            "policy_rate",
            "long_term_rate",
            "mortgage_rates",
            "lending_rates",
            "bank_funding_costs",
            "corporate_bond_yields",
            "term_premium",
        }
    ),
    # tariffs are a price paid on imports: passed through, they raise prices
    frozenset({"energy_prices", "import_prices", "inflation", "wages", "tariffs"}),
)


def _same_family(a: str, b: str) -> bool:
    return any(a in f and b in f for f in PASS_THROUGH_FAMILIES)


PRODUCING = re.compile(
    r"^(?:(?:is|are|was|were|been|being|remains?|remained)\s.*(?:drivers?|causes?)\s+of$|lead|led|result|cause|trigger|generat|produc|creat|give|gave|bring|brought|prompt|induc|contribut|spur|forc)"
)


def _combine(cue_sign: int, kind: str, src_mod: int, dst_mod: int, default_rise: bool = True) -> int:
    """Sign of src → dst: a directional verb carries its own sign; a connector takes the target's movement.

    A connector whose target has no stated movement produces the target ("could cause volatility",
    "leads to margin calls"): a rise.
    """
    src = src_mod or 1
    if kind in ("directional", "noun"):
        return cue_sign * src
    return src * (dst_mod or (1 if default_rise else 0))


def _inherent(text: str) -> int:
    """Direction carried by the synonym itself ("economic slowdown", "policy easing", "rate hikes")."""
    if INHERENT_DOWN.search(text):
        return -1
    if INHERENT_UP.search(text):
        return 1
    return 0


def _shock(low: str, m: Mention, start: int, vocab: Vocabulary) -> int:
    """ "(adverse) confidence shocks": a shock to a variable is its adverse move, unless called positive."""
    if not SHOCK_AFTER.match(low[m.end :]) and not STRAIN_BEFORE.search(low[max(0, start - 30) : start]):
        return 0
    if re.search(r"\bpositive\s+(?:[a-z-]+\s+)?$", low[max(0, start - 30) : start]):
        return 1
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


LIST_JOIN = re.compile(r"\s*(?:and|or|as well as)\s+(?:the\s+|an?\s+|some\s+)?")


def _cause_of_states(
    low: str, ms: list[_Mention], states: list[tuple[int, int, Cue]], adverse_up: frozenset[str] = frozenset()
) -> list[tuple[int, int, int, Cue]]:
    """ "Y fell, driven by X" and "Supported by X, Y rose": (source idx, target idx, sign, cue)."""
    out = []
    for ti, s_y, cue in states:
        taken: dict[int, re.Match[str] | None] = {}  # accepted causes of this state, with their phrase
        for si, x in enumerate(ms):
            if si == ti:
                continue
            # (a mention with a movement of its own starts the next clause: "…, and equity prices rose")
            listed = (
                si - 1 in taken
                and bool(LIST_JOIN.fullmatch(low[ms[si - 1].m.end : x.start]))
                and all(i != si for i, _, _ in states)
            )
            if listed:
                # "cut rates in the face of tariffs and uncertainty": a list shares its cause phrase
                verb = taken[si - 1]
            elif x.start > cue.end:  # "Y fell, driven by the outlook for X"
                window = low[cue.end : x.start]
                m = CAUSE_AFTER.search(window)
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
                elif len(low[max(cue.end, ms[ti].m.end) : x.start]) > 40:
                    # measured from the moved variable: "cut their hiring plans a lot in response to tariffs"
                    continue
            else:  # "Supported by X, … Y rose" / "Reflecting X, Y fell"
                head = low[_clause_start(low, x.start) : x.start]
                if not CAUSE_AFTER.search(head) or "," not in low[x.m.end : ms[ti].start]:
                    continue
                if ms[ti].start < x.start:
                    continue
            mod = x.mod
            if not listed:
                verb = CAUSE_AFTER.search(low[: x.start]) or re.search(r"\w+ by|\w+ing", low[: x.start])
            taken[si] = verb
            if not mod:
                if verb is not None and re.search(
                    r"amplified|driven|supported|fuell?ed|buoyed|boosted|underpinned|following|helped|aided|led by|"
                    r"thanks to",
                    verb.group(),
                ):
                    mod = 1
                elif verb is not None and re.search(
                    r"weighed down|hit|dragged|held back|restrained|hampered|pulled down", verb.group()
                ):
                    mod = -1
                elif x.m.variable_id in adverse_up and (
                    cue.text == "movement from"
                    or (
                        verb is not None
                        and re.search(
                            r"due to|owing to|because of|as a result of|amid|on account of|in response to|"
                            r"in the face of|in reaction to|responding to|reacting to",
                            verb.group(),
                        )
                    )
                ):
                    mod = 1  # "investment fell because of uncertainty": the presence of a risk is its rise
                else:
                    continue
            out.append((si, ti, s_y * mod, cue))
    return out


#: A table or chart caption with its cells ("Table 1: Main risks …"): residue, no statement.
TABLE_RESIDUE = re.compile(
    r"^(?:table|graph|chart|figure)\s+[a-z]?\d+(?:\.\w+)?\s*[:.]|(?:\s%){2,}|\bin (?:basis points|percentage points)\b",
    re.IGNORECASE,
)
#: "higher at banks focusing on card lending … relative to other forms of lending": a comparison
#: across units, not a channel.
CROSS_SECTION = re.compile(r"\b(?:relative to|compared (?:with|to)|than(?: at| in| for)?)\s+other\b")
#: "an adverse feedback loop between weak X and low Y": each drives the other, in the same direction.
FEEDBACK = re.compile(
    r"\b(?:adverse\s+|negative\s+|self-reinforcing\s+)?(?:feedback\s+loops?|doom\s+loops?|vicious\s+(?:circle|cycle)s?|"
    r"spirals?)\s+between\s+$"
)


EXPERIENCED_BEFORE = re.compile(
    r"\b(?:saw|see|sees|seen|experienced?|experiences|recorded|registered|witnessed|"
    r"there\s+(?:has|have|had)\s+been|there\s+(?:was|were|is|are))\s+(?:an?\s+|the\s+|some\s+)?$"
)
#: Two stated movements joined by "or"/"and" ("X were to weaken unexpectedly or Y were to fall").
COORDINATED_STATE = re.compile(r"\s*(?:\w+ly\s+)?,?\s*(?:or|and|while|whereas)\s+(?:the\s+)?")
#: Participles of producing verbs: "the volatility caused by X" is volatility X produced.
CREATED = re.compile(r"^(?:caused|created|generated|triggered|induced|produced|sparked|fuell?ed)$")
#: "… would be negative", "… is likely to be positive": the sign of a named effect.
EFFECT_PREDICATE = re.compile(
    r"\s+(?:(?:would|will|could|may|might|is|are|was|were|has\s+been|have\s+been|is\s+likely\s+to|are\s+likely\s+to|"
    r"is\s+expected\s+to|are\s+expected\s+to)\s+)?(?:be\s+)?(?:\w+ly\s+|large\s+and\s+|small\s+but\s+)?"
    r"(?:(positive|favourable|favorable|beneficial)|(?:negative|adverse|harmful|detrimental|damaging))\b"
)
#: A risk put in place or kept there ("tariffs are imposed", "uncertainty persists").
IMPOSED_AFTER = re.compile(
    r"\s+(?:(?:are|were|is|was|be|been|get|gets|got)\s+(?:\w+ly\s+)?(?:imposed|introduced|implemented|put\s+in\s+place|"
    r"applied|maintained|extended|announced|raised|increased)|(?:remain|remains|remained|stay|stays|stayed)\s+in\s+place|"
    r"persists?|persisted|"
    # "if tariffs and uncertainty were to continue", "the effects of tariffs continued to spread"
    r"(?:were\s+to\s+|was\s+to\s+)?continu(?:e|es|ed)(?!\s+to\s+(?:ease|fall|decline|recede|fade|diminish|subside)))\b"
)
LIFTED_AFTER = re.compile(
    r"\s+(?:(?:has|have|had)\s+)?(?:are|were|is|was|be|been|get|gets|got)\s+(?:\w+ly\s+)?(?:scaled\s+back|rolled\s+back|"
    r"removed|lifted|withdrawn|suspended|paused|dropped|reversed|unwound)\b"
)
#: A stated move that goes on or takes effect ("rate cuts accumulated", "the tightening takes hold").
CONTINUING_AFTER = re.compile(
    r"\s+(?:(?:has|have|had|would|will|were\s+to|was\s+to)\s+)?(?:\w+ly\s+)?(?:accumulat(?:e|es|ed|ing)|"
    r"(?:take|takes|took|taken|taking)\s+(?:effect|hold)|persist(?:s|ed|ing)?|(?:kick|kicks|kicked)\s+in|"
    r"(?:work|works|worked|feed|feeds|fed)\s+through|(?:build|builds|built)\s+up|"
    # "a further easing of monetary policy was warranted": a move judged due is a move stated
    r"(?:is|are|was|were|would\s+be|will\s+be|could\s+be|may\s+be|might\s+be|has\s+been|had\s+been)\s+"
    r"(?:\w+ly\s+)?(?:warranted|appropriate|needed|required|justified|necessary))\b"
)
#: A comparative predicate after a copula ("liquidity is scarcer", "funding costs became higher").
COMPARATIVE_AFTER = re.compile(
    r"\s+(?:is|are|was|were|has\s+been|have\s+been|had\s+been|becomes?|became|become|gets?|got|grows?|grew)\s+"
    r"(?:\w+ly\s+|much\s+|even\s+|somewhat\s+|a\s+little\s+|far\s+)?"
    r"(?:(higher|stronger|greater|larger|tighter|faster|more\s+(?:elevated|expensive|restrictive|volatile|pronounced))|"
    r"(?:lower|weaker|smaller|scarcer|thinner|looser|easier|softer|slower|cheaper|less\s+(?:elevated|expensive|"
    r"restrictive|volatile|pronounced)))\b(?!\s+than)"
)
#: The object of a call for a move ("a need for a further reduction in", "support further cuts in").
CALLED_FOR_BEFORE = re.compile(
    r"\b(?:need|case|scope|room|argument|calls?|support|supported|warrants?|warranted|justif(?:y|ies|ied)|favou?r(?:s|ed)?|"
    r"consider(?:s|ed|ing)?)\s+(?:for\s+)?(?:an?\s+|the\s+|some\s+)?$"
)
#: The stance of a tightness variable ("monetary policy would need to remain restrictive").
STANCE_AFTER = re.compile(
    r"\s+(?:(?:would|will|could|may|might|should|must|needs?|needed)\s+)?(?:to\s+)?(?:need\s+to\s+)?"
    r"(?:remain|remains|remained|stay|stays|stayed|be|is|are|was|were|become|becomes|became)\s+(?:\w+ly\s+)?"
    r"(?:(restrictive|tight|tighter|contractionary)|(?:accommodative|supportive|loose|looser|easy|easier|expansionary))\b"
)
#: A level kept ("remains in check", "stays elevated"), read as a move only under "if".
HELD_LEVEL_AFTER = re.compile(
    r"\s+(?:were\s+to\s+|was\s+to\s+|should\s+)?(?:remain|remains|remained|stay|stays|stayed|is|are|were|was)\s+"
    r"(?:\w+ly\s+|too\s+|very\s+)?(?:(high|elevated|strong|robust|firm|sticky|persistent)|"
    r"(?:low|weak|subdued|soft|muted|in\s+check|contained|under\s+control|well\s+contained))\b"
)
#: A condition stated with a copula ("had remained subdued", "has been strong").
CONDITION_AFTER = re.compile(
    r"\s+(?:has\s+|have\s+|had\s+)?(?:been|remained|remains?|was|were|is|are|stayed|stays?)\s+"
    r"(?:very\s+|quite\s+|relatively\s+|\w+ly\s+)?(?:(strong|robust|solid|elevated|buoyant|resilient|high)|"
    r"(?:weak|subdued|soft|sluggish|muted|depressed|anaemic|anemic|low))\b"
)
#: A movement noun followed by its source ("price increases from higher tariffs").
BELOW_POTENTIAL = re.compile(
    r"\s+(?:well\s+|further\s+|slightly\s+|persistently\s+)?(?:below|under)\s+(?:its\s+|their\s+)?"
    r"(?:potential|trend|capacity)\b"
)
#: Spending components of GDP: their contribution to GDP has the sign of their own move.
GDP_COMPONENTS = frozenset({"consumption", "investment", "trade_volumes", "construction_activity"})
NOT_A_COMPONENT = re.compile(r"^(?:trade|global\s+trade)$|\bimports?\b")
CONTRIBUTION_BOTH = re.compile(
    r"\bcontributions?\s+(?P<order>to|from)\s+(?P<a>(?:the\s+)?(?:[a-z-]+\s+){0,3}?[a-z-]+)\s+(?:to|from)\s+"
    r"(?P<b>(?:the\s+)?(?:[a-z-]+\s+){0,3}[a-z-]+)"
)
CONTRIBUTION_MADE = re.compile(
    r"\b(?:made|make|makes|making|provided|provides|providing)\s+(?:an?\s+|the\s+)?(?:[a-z-]+\s+){0,2}"
    r"contributions?\s+to\s+"
)
COST_FROM = re.compile(
    r"\b(?:cost\s+increases|higher\s+(?:input\s+)?costs|rising\s+(?:input\s+)?costs|increases?\s+in\s+(?:input\s+)?costs|"
    r"(?:input\s+)?cost\s+pressures)\s+(?:\w+ly\s+)?(?:stemming\s+|arising\s+|resulting\s+|coming\s+)?"
    r"(?:from|because\s+of|due\s+to|caused\s+by|related\s+to)\s+(?:the\s+|us\s+|higher\s+|new\s+)*"
)
COST_PASS_BEFORE = re.compile(r"\bpass(?:es|ed|ing)?\s+(?:on\s+|through\s+)?(?:the\s+|some\s+of\s+the\s+|their\s+)?$")
COST_PRESSURE_BEFORE = re.compile(
    r"\bupward\s+(?:price\s+)?pressures?\s+on\s+(?P<y>[a-z -]{1,30}?)\s+(?:\w+ly\s+)?"
    r"(?:arising\s+|stemming\s+|coming\s+)?"
    r"from\s+$"
)
COST_FEED_AFTER = re.compile(
    r"\s+(?:(?:may|might|could|would|will|can|is|are|be|been|have|has)\s+)*(?:\w+ly\s+)?"
    r"(?:(?:playing|play|plays|played)\s+a\s+(?:\w+\s+)?role\s+in|feed(?:s|ing)?\s+(?:through\s+)?into|"
    r"push(?:es|ed|ing)?\s+up|add(?:s|ed|ing)?\s+to)\s+(?:the\s+)?(?:[a-z]+\s+)?"
)
#: Purchases moved ahead of an expected tariff rise ("front-loaded", "brought forward", "to get ahead of").
FRONTLOAD = re.compile(
    r"\b(?:front-?load(?:s|ed|ing)?|(?:bring|brings|brought|bringing|pull|pulls|pulled|pulling)\s+forward|"
    r"pull-forward|pulled-forward|stockpil(?:ed|es|ing|e)|(?:advance|advanced|advancing)\s+(?:their\s+)?purchases|"
    r"(?P<ahead>(?:get|gets|got|getting|stay|stayed|staying)\s+ahead\s+of|(?:beat|beats|beating)\s+(?:the\s+)?|"
    r"(?:made|make|makes|making)\s+(?:\w+\s+)?purchases\s+in\s+advance\s+of))"
)
AHEAD_OF = re.compile(
    r"\b(?:ahead\s+of|in\s+advance\s+of|before|in\s+anticipation\s+of|to\s+(?:get\s+ahead\s+of|beat|avoid))\b"
)
FRONTLOAD_REASON = re.compile(r"\b(?:as|because|since)\s+(?:\w+\s+){0,3}$|\b(?:as|because|since)\b(?=[^,;]*$)")
DOWN_IN_MAIN = re.compile(r"\b(?:fell|fall|falls|declined?|declines|weak\w*|dropped|contracted|slowed|lower)\b")
FRONTLOADED = frozenset({"trade_volumes", "investment", "consumption"})
#: "the economy (could keep) growing below its potential", "output running above capacity": an output gap
POTENTIAL_GAP_AFTER = re.compile(
    r"\s+(?:(?:could|would|may|might|will|to|keeps?|kept|continues?\s+to|is|was|be|been)\s+){0,3}"
    r"(?:grow|grows|grew|growing|operate|operates|operated|operating|run|runs|ran|running|expand|expanding)\s+"
    r"(?:well\s+|further\s+|slightly\s+|persistently\s+)?(below|under|above|beyond)\s+(?:its\s+|their\s+)?"
    r"(?:potential|trend|capacity)\b"
)
NOMINAL_FROM = re.compile(r"\s+(?:resulting\s+|stemming\s+|arising\s+)?from\s+(?:the\s+|an?\s+)?")
NOUN_MOVE_AFTER = re.compile(
    r"\s+(?:(increases|rises|surges|spikes|hikes|jumps|booms)|"
    r"(?:corrections?|declines|falls|drops|collapses?|slumps?|cuts|busts?|downturns?|reductions|decreases))\b"
    r"(?!\s+(?:in|of)\b)"
)
NOMINAL_CAUSE_AFTER = re.compile(
    r"\s+(?:[a-z]+\s+){0,3}?(?:mainly\s+|largely\s+|partly\s+)?(?:due to|owing to|because of|as a result of)\s"
)
EXPERIENCED_AFTER = re.compile(
    r"\s+(?:ha(?:s|ve|d)\s+)?(?:also\s+)?(?:seen|saw|experienced|recorded|registered|undergone|underwent|witnessed|"
    r"posted|suffered|feels?|felt|feeling)\s+(?:an?\s+|some\s+|the\s+)?(?:[a-z]+\s+){0,2}?"
    r"(?:(increases?|rises?|surges?|jumps?|rebounds?|gains?|upturns?)|"
    r"(?:decreases?|declines?|falls?|drops?|corrections?|slumps?|contractions?|losses|downturns?|sell-offs?|"
    r"slowdowns?|weakness))\b"
)
IT_CAUSES = re.compile(r"^\s+(?:it|they|this)\s+(?:causes?|creates?|generates?|brings?|triggers?)\b")


def _feedback_loops(low: str, ms: list[_Mention], vocab: Vocabulary) -> list[tuple[int, int, int]]:
    """(a, b, sign) for "feedback loop between X and Y": X → Y and Y → X, each end moving as stated or,
    unstated, in its adverse direction (an adverse loop between bank profitability and low growth: +)."""

    def move(x: _Mention) -> int:
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


#: "causes domestic demand to suffer", "leads yields to rise": the object's movement follows as an infinitive.
CAUSATIVE_BEFORE = re.compile(
    r"\b(?:caus|lead|led|prompt|induc|forc|push|drive|drove)\w*\s+(?:the\s+|an?\s+)?(?:[a-z-]+\s+)?$"
)
INFINITIVE_AFTER = re.compile(r"^\s+(?:in\s+[a-z\s]{1,30}?\s+)?to\s+(?:\w+ly\s+)?(\w+(?:\s+(?:up|down|back|off))?)\b")
INFINITIVE_DOWN = frozenset(
    {"suffer", "deteriorate", "weaken", "fall", "decline", "drop", "contract", "shrink", "slow"}
)
INFINITIVE_UP = frozenset({"rise", "increase", "surge", "climb", "jump", "soar", "grow", "pick up", "strengthen"})


def _infinitive_movement(low: str, m: Mention) -> int:
    if not CAUSATIVE_BEFORE.search(low[max(0, m.start - 40) : m.start]):
        return 0
    inf = INFINITIVE_AFTER.match(low[m.end :])
    if inf is None:
        return 0
    word = inf.group(1)
    return -1 if word in INFINITIVE_DOWN else 1 if word in INFINITIVE_UP else 0


#: A mention followed by one of these nouns only modifies another head ("export competitiveness",
#: "trade balance", "equity exposures"): the phrase names something else than the variable.
HEAD_SHIFT = re.compile(
    r"\s+(?:competitiveness|balances?|exposures?|shares?|sectors?|firms|companies|industr(?:y|ies)|"
    r"intensity|dependence|dependency|content|components?|multipliers?|forecasts?|projections?|"
    r"outlook|data|statistics|indicators?|gaps?|intervals?|bands?|capacity|capacities|ability)\b|"
    # hyphenated compounds: "trade-off", "investment-grade", "GDP-weighted", "equity-linked"
    r"-[a-z]"
)
#: "trade disruptions", "trade partners", "trade deal": "trade" modifies another head.
TRADE_HEAD = re.compile(
    r"\s+(?:disruptions?|partners?|agreements?|deals?|relations(?:hips?)?|surplus(?:es)?|deficits?|measures|actions?|"
    r"negotiations?|routes?|links?|linkages|openness|shocks?|exposures?|integration|patterns?|restrictions?|"
    r"barriers?|frictions?|costs?|finance|credit|creditors?|receivables|payables)\b"
)
#: Senses of a synonym that are not the variable: "securities lending", "by default", "energy consumption".
OTHER_SENSE_BEFORE = {
    "credit_growth": re.compile(r"\b(?:securities|repo|stock)\s+$"),
    "corporate_defaults": re.compile(r"\bby\s+$"),
    "consumption": re.compile(r"\b(?:energy|oil|gas|electricity|fuel|water|power)\s+$"),
    # "banks' equity", "their equity", "tangible common equity": capital, not equity prices
    "equity_prices": re.compile(r"(?:\bbanks?['’]?|\btheir|\bits|\bshareholders['’]?|\btangible|\bcommon|\bown)\s+$"),
}


#: "the default of the five hedge funds", "defaults by banks": the default of a named non-corporate entity
#: (a fund, a bank, a sovereign, a counterparty) is not the corporate default rate.
NON_CORPORATE_DEFAULT = re.compile(
    r"^\s+(?:of|by|on)\s+(?:the\s+|an?\s+|one\s+|two\s+|three\s+|four\s+|five\s+|several\s+|some\s+)?"
    r"(?:[a-z-]+\s+){0,3}?(?:hedge\s+funds?|funds?|banks?|counterpart(?:y|ies)|sovereigns?|governments?|"
    r"countr(?:y|ies)|dealers?|brokers?|clearing\s+members?|central\s+counterpart(?:y|ies)|ccps?)\b"
)


def _other_sense(low: str, m: Mention) -> bool:
    if m.variable_id == "corporate_defaults" and NON_CORPORATE_DEFAULT.match(low[m.end : m.end + 80]):
        return True
    before = low[max(0, m.start - 25) : m.start]
    pat = OTHER_SENSE_BEFORE.get(m.variable_id)
    if m.variable_id == "equity_prices" and m.text.lower() not in ("equity", "equities"):
        pat = None
    return bool(re.search(r"[a-z]-$", before) or (pat is not None and pat.search(before)))


#: "the labour market has softened, which has slowed wage growth": the relative pronoun's antecedent
#: is the stated movement.
RELATIVE_AFTER_STATE = re.compile(
    r",\s*(?:which|and\s+this|and\s+that)\s+(?:(?:has|have|had|would|could|may|might|will|can|should|must|in\s+turn|"
    r"then|also|further|(?:is|are|was|were)\s+(?:likely|expected)\s+to|tends?\s+to|help(?:s|ed)?(?:\s+to)?|\w+ly)\s+)*$"
)
#: "uncertainty about trade policy", "concerns over inflation": the topic of the uncertainty is no
#: variable of its own here; the uncertainty is what moves.
UNCERTAINTY_ABOUT = re.compile(
    r"\b(?:uncertainty|uncertainties|unpredictability)\s+(?:about|over|around|surrounding|regarding|on|from)\s+"
    r"(?:the\s+|future\s+|us\s+|u\.s\.\s+)*$"
)
#: "ease policy", "tightened policy settings", "restrictive policy": bare "policy" moved by a central bank.
POLICY_MOVED_BEFORE = re.compile(
    r"\b(?:ease[sd]?|easing|tighten(?:s|ed|ing)?|loosen(?:s|ed|ing)?|restrictive|accommodative|tight|tighter|"
    r"looser|easier|loose)\s+(?:monetary\s+)?$"
)
#: "fiscal policy", "trade policy": another policy than the central bank's.
NON_MONETARY_BEFORE = re.compile(
    r"\b(?:fiscal|trade|tariff|government|economic|public|industrial|housing|energy|immigration|tax|budgetary|"
    r"macroprudential|prudential|climate|foreign|social|regulatory|structural|competition)\s+$"
)
#: "policy that is too tight", "policy restrictive for longer": bare "policy" with a stated stance.
POLICY_STANCE_AFTER = re.compile(
    r"\s+(?:(?:that|which)\s+(?:is|was|are|were|remains?|remained|stays?)\s+)?(?:too\s+|overly\s+|very\s+|sufficiently\s+)?"
    r"(?:(tight|tighter|restrictive|contractionary)|(?:loose|looser|accommodative|easy|easier|expansionary))\b"
)
#: Bare "demand" is aggregate demand after a function word, a verb or a movement ("weaker demand",
#: "reduce demand", "the slowdown in demand"), not after a noun ("credit demand", "government demand").
BARE_DEMAND_BEFORE = re.compile(
    r"(?:^|[,;(]|\b(?:the|of|in|on|and|or|to|overall|total|final|economy-wide|excess|"
    r"weak|weaker|strong|stronger|soft|softer|softening|slower|slowing|subdued|reduced|lower|higher|falling|rising|"
    r"weakening|strengthening|sluggish|robust|solid|resilient|reduce[sd]?|reducing|lower(?:s|ed|ing)|"
    r"dampen(?:s|ed|ing)?|boost(?:s|ed|ing)?|support(?:s|ed|ing)?|weigh(?:s|ed|ing)? on|cool(?:s|ed|ing)?))\s+$"
)
#: Variables whose volatility is not market volatility.
MACRO_LEVELS = frozenset(
    {"inflation", "real_gdp", "employment", "unemployment", "wages", "consumption", "investment", "productivity"}
)
#: Consumption and investment of the vocabulary are private: "government consumption", "public
#: investment", "government consumption and investment" (the list shares the modifier) are not.
PRIVATE_ONLY = frozenset({"consumption", "investment"})
PUBLIC_BEFORE = re.compile(
    r"\b(?:government|public|public[- ]sector|state|defen[cs]e|military|fiscal)\s+"
    r"(?:(?:consumption|investment|spending|expenditures?|purchases|demand)\s*(?:,|and|or|and/or)\s+)?$"
)


_UP_VERBS = r"(?:raise|increase|lift|boost|push up|rise|strengthen|widen)"
_DOWN_VERBS = r"(?:lower|reduce|decrease|cut|push down|fall|weaken|narrow|dampen)"
AMBIVALENT = re.compile(
    rf"\b(?:{_UP_VERBS}\w*\s+or\s+{_DOWN_VERBS}|{_DOWN_VERBS}\w*\s+or\s+{_UP_VERBS})\b|\bambiguous\b"
)
#: "have boosted, and will continue to boost, inflation": a verb repeated around ", and <auxiliaries>, "
RIGHT_NODE = re.compile(
    r"\b([A-Za-z]+(?:ed|en)),\s+(?:and|or|but)\s+(?:(?:will|would|could|may|might|can|should|continue|continues|to|"
    r"likely|further|also|probably|still)\s+){1,4}([a-z]+),\s+"
)
LINE_BREAK_HYPHEN = re.compile(r"(?<=[a-z])- (?!(?:and|or|to|as well as|nor|but)\b)(?=[a-z])")


NOUN_THEN_VERB = re.compile(r"^(.*\w+s)\s+(?:increase|rise|hike|cut)$")


#: "progress on inflation", "further progress toward bringing inflation down": disinflation.
PROGRESS_BEFORE = re.compile(
    r"\b(?:hinder|hamper|slow|stall|delay|undermine|support|aid|help|speed|accelerate|derail|jeopardi[sz]e|threaten|"
    r"impede|reverse|halt|sustain)\w*\s+(?:the\s+|further\s+|continued\s+|recent\s+|our\s+)?"
    r"(?P<p>progress\s+(?:on|in|toward|towards)\s+(?:(?:reducing|lowering|bringing\s+down)\s+)?(?:the\s+)?(?:[a-z-]+\s+)?)$"
)


#: Prices of assets: a "repricing" of them is a fall.
PRICE_LEVELS = frozenset({"equity_prices", "house_prices", "commercial_property_prices", "asset_prices"})


def _without_verb(m: Mention, low: str) -> Mention:
    """A match such as "interest rates increase" names "interest rates" followed by its verb."""
    hit = NOUN_THEN_VERB.match(m.text.lower())
    if hit is None:
        return m
    end = m.start + len(hit.group(1))
    return Mention(m.variable_id, m.start, end, m.text[: len(hit.group(1))], m.first_token, m.last_token - 1)


def _reports_an_outcome(cue_text: str) -> bool:
    """Whether a verb cue reports an outcome (past or progressive: "weighed on", "is subtracting from")."""
    first = cue_text.split()[0].lower() if cue_text.split() else ""
    return first.endswith(("ed", "ing"))


def read_relations(sentence: str, vocab: Vocabulary) -> list[Reading]:
    """Every signed relation between two distinct vocabulary variables stated in ``sentence``."""
    if TABLE_RESIDUE.search(sentence) or CROSS_SECTION.search(sentence.lower()):
        return []
    if AMBIVALENT.search(sentence.lower()):
        return []  # "may either raise or lower inflation": no direction is stated
    # PDF line-break hyphenation ("expec- tations"); "short- and long-term" keeps its hyphen.
    sentence = LINE_BREAK_HYPHEN.sub("", sentence)
    # "tariffs have boosted, and will continue to boost, inflation": one verb shared across the interruption
    sentence = RIGHT_NODE.sub(
        lambda m: m.group(1) + " " if m.group(2)[:4] == m.group(1)[:4].lower() else m.group(), sentence
    )
    raw = vocab.mentions_in_context(sentence)
    if len({m.variable_id for m in raw}) < 2:
        return []
    low = sentence.lower()
    # "policy rates increase debt costs": the inflected match of "rate increases" ends in a verb; the
    # mention is the plural noun before it.
    raw = [_without_verb(m, low) for m in raw]
    # "trade channels", "liquidity risks": a mention that names a channel or a risk, not the variable.
    raw = [
        m
        for m in raw
        if not re.match(r"\s+channels?\b", low[m.end :])
        and not HEAD_SHIFT.match(low[m.end :])
        and not (m.text.lower() == "trade" and TRADE_HEAD.match(low[m.end :]))
        and not _other_sense(low, m)
        and not (m.variable_id in PRIVATE_ONLY and PUBLIC_BEFORE.search(low[max(0, m.start - 60) : m.start]))
        and not UNCERTAINTY_ABOUT.search(low[max(0, m.start - 40) : m.start])
        and not (m.variable_id == "market_liquidity" and re.match(r"\s+(?:risks?|costs?)\b", low[m.end :]))
        and not (m.variable_id == "investment" and re.match(r"\s+(?:funds?|banks?|banking|grade)\b", low[m.end :]))
    ]
    # "inflation volatility", "output volatility": the volatility of a macroeconomic variable is
    # neither that variable's level nor market volatility.
    raw = [
        m
        for m in raw
        if not (
            m.variable_id == "volatility" and any(x.variable_id in MACRO_LEVELS for x in vocab.mentions(m.text)[:1])
        )
    ]
    if len({m.variable_id for m in raw}) < 2:
        return []
    ms = []
    ends = {m.end for m in raw}
    # "asset price corrections", "house price declines": a movement noun right after the mention.
    for m in raw:
        adverse = vocab.get(m.variable_id).adverse_direction
        adv = 0 if adverse is None else (1 if adverse.value == "increase" else -1)
        sign, start = _modifier(low, m.start, ends, m.end, m.variable_id, adv)
        if sign > 0 and m.variable_id in PRICE_LEVELS and re.search(r"\brepricing\b", low[start : m.start]):
            sign = -1  # "an abrupt repricing of equities": asset prices reprice downwards (risk premia upwards)
        if not sign:
            sign = _inherent(m.text.lower()) or _shock(low, m, start, vocab)
            if not sign and m.variable_id == "unemployment" and re.search(r"\b(?:losses|layoffs)\b", m.text.lower()):
                sign = 1  # "job losses", "layoffs": a rise in unemployment
            if (
                not sign
                and m.variable_id == "employment"
                and re.search(r"\b(?:losses|layoffs|cuts)\b", low[m.start : m.end + 8])
            ):
                sign = -1  # "job losses", "job cuts" read as employment: its fall
        progress = PROGRESS_BEFORE.search(low, max(0, m.start - 80), m.start)
        if not sign and m.variable_id == "inflation" and progress:
            sign, start = -1, progress.start("p")
        if not sign:
            sign = _infinitive_movement(low, m)
        gap = POTENTIAL_GAP_AFTER.match(low[m.end :])
        if not sign and gap and m.variable_id == "real_gdp":
            sign = -1 if gap.group(1) == "below" else 1  # "the economy growing below potential": slack, a weak economy
        if not sign:
            after_noun = NOUN_MOVE_AFTER.match(low[m.end :])
            if after_noun:
                sign = 1 if after_noun.group(1) else -1
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
            continue  # bare "policy" is monetary policy only when it is eased or tightened
        if m.text.lower() == "demand" and (
            not BARE_DEMAND_BEFORE.search(low[max(0, m.start - 30) : m.start])
            or re.match(r"\s+(?:for|from)\b", low[m.end :])
        ):
            continue  # "demand for options", "government demand": bare "demand" is the economy's only on its own
        ms.append(_Mention(m, sign, start))
    cues = _find_cues(low, ms)
    # "rate hikes raise …": a movement noun right after a mention and before a cue is the mention's modifier.
    for k, c in enumerate(cues):
        if c.kind != "movement" or k + 1 >= len(cues):
            continue
        prev = [x for x in ms if x.m.end <= c.start and not low[x.m.end : c.start].strip()]
        if prev and not low[c.end : cues[k + 1].start].strip():
            prev[-1].mod = prev[-1].mod or c.sign
            cues[k] = Cue(c.start, c.end, c.text, 0, "consumed")
    ec = evidence_class(sentence)
    hz = HORIZON.search(low)
    horizon = hz.group() if hz else None
    # Variables whose adverse move is a rise (risks): named as a cause without a movement, they are present.
    adverse_up = frozenset(
        x.m.variable_id for x in ms if getattr(vocab.get(x.m.variable_id).adverse_direction, "value", "") == "increase"
    )
    found: dict[tuple[str, str, Sign], Reading] = {}
    # (subjects, objects, end of objects, movement the clause implies for each object)
    previous: tuple[list[int], list[int], int, dict[int, int]] | None = None
    states: list[tuple[int, int, Cue]] = []  # intransitive movements: (mention idx, sign, cue)

    def add(si: int, oi: int, sign: int, cue: Cue, passive: bool) -> None:
        src, dst = ms[si].m.variable_id, ms[oi].m.variable_id
        if src == dst or sign == 0:
            return
        lo = min(ms[si].start, ms[oi].start, cue.start)
        window = low[_clause_start(low, lo) : cue.start]
        # a cue before both ends ("did not cut the policy rate in response to …") looks back in its clause
        neg_lo = lo if lo < cue.start else _clause_start(low, cue.start)
        negated = bool(
            NEGATION.search(low[max(neg_lo, cue.start - 30) : cue.start])
            or NEGATION.search(cue.text)
            or NEGATION_CLAUSE.search(window)
        )
        if INDIRECT_QUESTION.search(window) or QUESTION_END.match(low[cue.end :]):
            return  # "studies how X affects Y", "whether X lowers Y", "Will X lower Y?": asked, not stated
        hedged = bool(HEDGE.search(low[_clause_start(low, cue.start) : cue.start]))
        # Confidence measures how explicitly the sentence states "an increase in the source raises
        # (lowers) the target", not how strong the evidence is (the evidence class records that): a
        # directional verb, or a connector with both movements stated, states it; an unstated source
        # movement or two intransitive movements joined by "as/when" leave more to inference; a
        # co-movement ("went hand in hand with") states only an association.
        if cue.kind == "comovement":
            base = 0.55
        elif cue.kind in ("directional", "noun") or (cue.kind != "movement" and (ms[si].mod != 0 or passive)):
            base = 0.75
        else:
            base = 0.6
        conf = base + (0.1 if ec is not EvidenceClass.descriptive else 0.0) - (0.2 if hedged else 0.0)
        conf -= 0.05 if len(low[ms[si].m.end : cue.start]) > 60 and not passive else 0.0
        conf = round(min(0.95, max(0.05, conf)), 2)
        if (
            src == "policy_rate"
            and not ms[si].mod
            and cue.kind in ("directional", "noun")
            and not passive
            and re.fullmatch(r"(?:monetary\s+)?polic(?:y|ies)", ms[si].m.text.lower())
            and not re.search(
                r"\b(?:ease|eases|eased|easing|tighten\w*|loosen\w*|cut|cuts|cutting|raise[sd]?|raising|lower\w*)\s+"
                r"(?:the\s+|its\s+|their\s+|our\s+)?(?:stance\s+of\s+)?$",
                low[max(0, ms[si].m.start - 40) : ms[si].m.start],
            )
        ):
            return  # "monetary policy should support the economy": no move of the instrument is stated
        if (
            sign < 0
            and dst == "real_gdp"
            and src in GDP_COMPONENTS
            and not ms[si].mod
            and (cue.kind == "noun" or (cue.kind == "directional" and _reports_an_outcome(cue.text)))
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
        reading = Reading(src, dst, s, verb, conf, evidence, horizon, hedged, negated)
        key = (src, dst, s)
        if key not in found or found[key].confidence < conf:
            found[key] = reading

    last_subs: list[int] = []
    for k, cue in enumerate(cues):
        if cue.kind == "consumed":
            continue
        if cue.kind == "comovement":
            # "went hand in hand with", "coincided with": an association is described, no channel is stated.
            previous = None
            continue
        lo, hi = _clause_start(low, cue.start), _clause_end(low, cue.end)
        next_cue = next((c.start for c in cues[k + 1 :] if c.kind != "consumed"), len(low))
        after = low[cue.end :]
        by = re.match(r"\s+(?:(?:hard|heavily|badly|\w+ly)\s+)?by\b", after)
        if by is None and cue.kind == "directional" and re.search(rf"\b{BE}\s+(?:\w+ly\s+)?$", low[lo : cue.start]):
            # "consumption and investment are crowded out owing to higher rates": the cause phrase names the agent
            by = re.match(
                r"\s+(?:out\s+)?(?:(?:hard|heavily|badly|\w+ly)\s+)?(?:owing\s+to|due\s+to|because\s+of|as\s+a\s+result\s+of)"
                r"(?:\s+both)?\b",
                after,
            )
        if (
            by
            and cue.kind in ("directional", "neutral", "movement")
            and (
                re.search(rf"\b{BE}\s+(?:\w+ly\s+)?$", low[lo : cue.start]) or re.search(r"ed$|en$|hit$|cut$", cue.text)
            )
        ):
            # Passive voice: "Y is depressed by higher X" — the agent after "by" is the source.
            if cue.kind == "movement":
                continue
            targets = [i for i, x in enumerate(ms) if x.m.end <= cue.start and x.start >= lo]
            pcue = Cue(cue.start, cue.end + by.end(), cue.text, cue.sign, cue.kind)
            sources = _objects(low, ms, pcue, hi, next_cue)
            if targets and sources:
                # "the job losses and price increases caused by tariffs": a co-ordinated list is the target
                listed = sorted(_coordinated_left(low, ms, targets[-1], lo))
                for t in listed:
                    for si in sources:
                        # The target's movement is stated before the verb ("yields fell, driven by …"), not produced.
                        sign = _combine(cue.sign, cue.kind, ms[si].mod, ms[t].mod, default_rise=False)
                        if not sign and cue.kind == "neutral" and not ms[t].mod and CREATED.match(cue.text):
                            sign = ms[si].mod or 1  # "the uncertainty created by tariffs": the target is produced
                        verb = " ".join(cue.text.split()[-1:])
                        if ms[t].mod and cue.kind == "directional" and AMPLIFIER_RE.match(verb):
                            sign = (ms[si].mod or 1) * ms[t].mod  # "a correction in Y could be amplified by X"
                        elif ms[t].mod and cue.kind == "directional" and DAMPENER_RE.match(verb):
                            sign = -(ms[si].mod or 1) * ms[t].mod
                        add(si, t, sign, cue, True)
                previous = (sources, listed, ms[sources[-1]].m.end, {})
            continue
        if cue.kind == "reverse":
            # "Y stems from X", "the widening of Y reflects an increase in X": the source follows.
            targets = [i for i, x in enumerate(ms) if x.m.end <= cue.start and x.start >= lo]
            sources = _objects(low, ms, cue, hi, next_cue)
            if targets and sources:
                t = targets[-1]
                # "our decision to cut rates reflects weaker growth": the move an earlier verb gave the target
                t_mod = ms[t].mod or (previous[3].get(t, 0) if previous is not None and t in previous[1] else 0)
                for si in sources:
                    both = ms[si].mod * t_mod
                    sign = both if both else (1 if re.match(r"stem|aris|origin", cue.text) else 0)
                    if not both and t_mod and not ms[si].mod and ms[si].m.variable_id in adverse_up:
                        sign = t_mod  # "the decline in exports reflects the tariffs": the risk's presence

                    if cue.sign:  # "Y suffers from higher X": the verb's sign times the source's move
                        sign = cue.sign * (ms[si].mod or 1)
                    add(si, t, sign, Cue(cue.start, cue.end, cue.text, 0, "neutral"), True)
            continue
        objs = _objects(low, ms, cue, hi, next_cue)
        # Co-ordinated subjects never reach back into the previous clause's objects.
        subs = _subjects(low, ms, cue, lo, previous[2] if previous is not None else 0)
        participle = bool(PARTICIPLE.match(cue.text)) and bool(
            re.search(r"(?:,|\s[–—-])\s*(?:\w+\s+)?$", low[: cue.start])
        )
        if participle and objs and (not subs or subs[0] in (previous[1] if previous is not None else [])):
            # "…, giving rise to confidence shocks": the subject of the sentence's earlier clause.
            if previous is not None and previous[1]:
                subs = previous[1]
            elif last_subs:
                subs = last_subs
        if BY_GERUND.search(low, 0, cue.start) and cue.text.split()[0].endswith("ing"):
            # "X raises Y but, by strengthening Z, …": the means belongs to the clause's subject, never
            # to the nearest mention.
            subs = list(previous[0]) if previous is not None else list(last_subs)
        if (
            subs
            and cue.text.split()[0].endswith("ing")
            and re.fullmatch(r"\s*,?\s*(?:while|whilst)\s+", low[ms[subs[0]].m.end : cue.start])
            and (previous is None or subs[0] not in previous[1])
        ):
            # "AI could help the economy achieve higher growth while reducing inflation": the gerund's subject is
            # the clause's subject, never the object of a verb the reader did not read
            subs = []
        if subs:
            last_subs = subs
        if cue.kind == "movement":
            # An intransitive movement has no object right after it ("as rates rise, prices fall").
            transitive = cue.text.split()[0] in TRANSITIVE_MOVEMENTS
            objs = [
                i for i in objs if transitive and not re.search(r"[,;]|\b(?:when|as|if)\b", low[cue.end : ms[i].start])
            ]
            if subs and not objs and cue.sign > 0 and WEAK_PACE.match(low[cue.end :]):
                continue  # "the economy continues to grow slowly": weak growth, no rise to read
            if subs and not objs:
                states.extend((si, cue.sign, cue) for si in subs)
            elif not subs and objs and transitive:
                # "central banks eased monetary policy as inflation fell": the object moves.
                states.append((objs[0], cue.sign, cue))
                previous = ([], objs, ms[objs[-1]].m.end, {oi: cue.sign for oi in objs})
            elif subs and objs:
                after_state = (
                    bool(re.search(r",\s*$", low[: cue.start])) and cue.text.split()[0].endswith("ing")
                ) or bool(HELPING_AFTER_COMMA.search(low, 0, cue.start))
                for si in subs:
                    # "The labour market has cooled, easing wage pressures": the participle carries the stated move
                    moved = [sg for i, sg, c in states if i == si and c.end <= cue.start] if after_state else []
                    src_mod = ms[si].mod or (moved[-1] if moved else 0)
                    for oi in objs:
                        add(
                            si,
                            oi,
                            _combine(cue.sign, "directional", src_mod, ms[oi].mod),
                            Cue(cue.start, cue.end, cue.text, cue.sign, "directional"),
                            False,
                        )
                previous = (subs, objs, ms[objs[-1]].m.end, {})
            continue
        if cue.kind == "noun" and re.search(r"\b(?:the\s+(?:more|less|greater)|and|or|with)\s+$", low[: cue.start]):
            # "the weaker the economy and the more downward pressure on inflation": a noun phrase, no predicate
            subs = []
        implied: dict[int, int] = {}
        purpose = previous is not None and previous[1] and PURPOSE_TO.match(low[previous[2] : cue.start])
        if not subs and objs and purpose and previous is not None:
            subs = list(previous[1])  # "to tighten monetary policy to bring inflation down": the object acts
        if (
            subs
            and previous is not None
            and not previous[0]
            and subs[0] in previous[1]
            and previous[3].get(subs[0])
            and GERUND_START.search(low[_clause_start(low, ms[subs[0]].start) : ms[subs[0]].start])
        ):
            # "Reducing policy restraint too fast could hinder …": the gerund's move of its object acts
            implied = {subs[0]: previous[3][subs[0]] * (ms[subs[0]].mod or 1)}
            if TOO_LITTLE.search(low, ms[subs[0]].m.end, cue.start):
                # "reducing policy restraint too slowly or too little": a move short of what is needed leaves
                # the variable where it was, the opposite of the move
                implied[subs[0]] *= -1
        if previous is not None and (subs or objs):
            prev_subs, prev_objs, prev_end, prev_moves = previous
            between = low[prev_end : cue.start]
            relative = re.search(r"\bwhich\b|\bin turn\b|\bthis\b|\bthereby\b", between) or re.match(
                r"(?:resulting|leading|translating|contributing)\b", cue.text
            )
            if subs and subs[0] in prev_objs and CONJ_ONLY.match(between) and not relative:
                subs = prev_subs  # shared subject: "X raises Y and lowers Z"
            elif (
                (not subs or subs[0] in prev_objs or subs[0] in prev_subs)
                and not participle
                and not relative
                and COORDINATED_VERB.search(between)
                and not CLAUSE_BREAK.search(between)
                and not NEW_SUBJECT_GAP.search(between)
                and cue.kind != "movement"
            ):
                # "This boosts Y in the medium term and increases Z": the earlier verb's subject, which
                # may be no vocabulary variable at all (then nothing is read).
                subs = prev_subs
                if not subs:
                    previous = ([], objs, ms[objs[-1]].m.end, {}) if objs else previous
                    continue
            elif subs and subs[0] in prev_objs and relative and not ms[subs[0]].mod:
                # "Tariffs reduce trade, which in turn lowers GDP": the fall in trade lowers GDP.
                implied = {subs[0]: prev_moves.get(subs[0], 0)}
            elif (
                subs
                and subs[0] in prev_objs
                and prev_subs
                and re.match(r"\s+(?:that|which|who)\s", low[ms[prev_subs[-1]].m.end :])
                and not re.search(r"[,;:–—]|\b(?:and|but|or|which|that|to|as|when|if|while|because)\b", between)
            ):
                # "Low rates that supported the economy also helped fuel house prices": the relative clause has
                # ended and the main verb takes the head before "that"
                subs = prev_subs
            elif subs and subs[0] in prev_objs and PURPOSE_TO.match(between) and not ms[subs[0]].mod:
                # "The Bank lowered its policy rate to support growth": the purpose infinitive's agent is the
                # one who moved the object, so the object's stated move is what acts; unstated, nothing is read.
                if not prev_moves.get(subs[0]):
                    previous = (prev_subs, prev_objs, prev_end, prev_moves)
                    continue
                implied = {subs[0]: prev_moves[subs[0]]}
        if not subs and objs and cue.kind in ("directional", "noun"):
            # "Shocks negatively affect confidence, resulting in …": remember the object's movement.
            previous = ([], objs, ms[objs[-1]].m.end, {oi: cue.sign for oi in objs})
            if cue.kind == "directional" and not ms[objs[0]].mod:
                # "In response to higher inflation, central banks raised policy rates": the object moves; "it would
                # be more difficult to cut the policy rate": the move is held back, the opposite is stated
                held_back = bool(HARDER_TO.search(low, max(0, cue.start - 40), cue.start)) != bool(
                    re.match(r"\s+(?:(?:much|even)\s+)?(?:less|by\s+less|more\s+slowly)\b", low[ms[objs[-1]].m.end :])
                )  # "would cut the policy rate less": a smaller move, relatively the opposite
                states.append((objs[0], -cue.sign if held_back else cue.sign, cue))
            elif cue.kind == "directional" and ms[objs[0]].mod == _inherent(ms[objs[0]].m.text.lower()) != 0:
                # "we have reduced our policy restraint": the verb moves a variable named by its own move
                states.append((objs[0], cue.sign * ms[objs[0]].mod, cue))
            continue
        if subs and not objs and cue.kind == "directional" and INTRANSITIVE_AFTER.match(low[cue.end :]):
            # "If energy prices were to rise, inflation would increase": a verb of movement used intransitively.
            move = _movement_sign(cue.text)
            if move:
                states.append((subs[0], move, cue))
                continue
        if not subs or not objs:
            continue
        if not ms[subs[-1]].mod and HELD.search(low[ms[subs[-1]].m.end : cue.start]):
            continue  # "kept the policy rate unchanged to support growth": the instrument did not move
        if (
            previous is not None
            and subs
            and re.search(r",\s*(?:\w+\s+)?$", low[: cue.start])
            and cue.text.split()[0].endswith("ing")
            and all(si in previous[1] for si in subs)
        ):
            # "Fire sales depress asset prices, triggering margin calls": the object's stated move acts.
            for si in subs:
                if not ms[si].mod and previous[3].get(si):
                    implied.setdefault(si, previous[3][si])
        moves: dict[int, int] = {}
        participle_after_comma = (
            bool(re.search(r",\s*$", low[: cue.start])) and cue.text.split()[0].endswith("ing")
        ) or bool(HELPING_AFTER_COMMA.search(low, 0, cue.start))
        if participle_after_comma or RELATIVE_AFTER_STATE.search(low, 0, cue.start):
            # "Market liquidity deteriorated, amplifying price swings": the participle carries the stated move.
            for si in subs:
                moved = [sg for i, sg, c in states if i == si and c.end <= cue.start]
                if moved and not ms[si].mod:
                    implied.setdefault(si, moved[-1])
                level = LEVEL_AFTER.match(low[ms[si].m.end : cue.start])
                if not moved and not ms[si].mod and level:
                    # "the policy rate is now at the low end of the neutral range, which should support growth"
                    implied.setdefault(si, 1 if level.group(1) else -1)
        # "lead to lower inflation and thus a decline in rates": what follows "and thus" is the consequence of the
        # object before it, not a second object of the verb.
        chain = next(
            (k for k in range(1, len(objs)) if THUS.search(low[ms[objs[k - 1]].m.end : ms[objs[k]].start])), None
        )
        chained = objs[chain:] if chain is not None else []
        objs = objs[:chain] if chain is not None else objs
        for si in subs:
            # a modifier covers the list after it ("lower exports and investment"), never one before it
            # ("uncertainty and weak confidence weigh on …": only confidence is weak)
            src_mod = implied.get(si) or ms[si].mod or (ms[subs[0]].mod if ms[subs[0]].start <= ms[si].start else 0)
            for oi in objs:
                # "reductions in consumption and investment": the movement covers the whole list.
                dst_mod = ms[oi].mod or ms[objs[0]].mod
                if not dst_mod and cue.kind == "neutral" and INFINITIVE_AFTER.match(low[ms[oi].m.end :]):
                    continue  # "cause consumption to stabilise": a movement without a direction
                producing = cue.kind != "neutral" or bool(PRODUCING.match(cue.text))
                if PASSING.match(" ".join(cue.text.split())):
                    # Pass-through keeps the direction only within one family (rates to rates, prices to
                    # prices); "financing costs are reflected in house prices" says nothing of the sign.
                    producing = _same_family(ms[si].m.variable_id, ms[oi].m.variable_id)
                if (
                    ATTRIBUTION.match(" ".join(cue.text.split()))
                    and not src_mod
                    and dst_mod
                    and _same_family(ms[si].m.variable_id, ms[oi].m.variable_id)
                ):
                    # "energy prices accounted for the decline in inflation": a component moved with the total
                    src_mod = dst_mod
                sign = _combine(cue.sign, cue.kind, src_mod, dst_mod, default_rise=producing)
                risk = RISK_TO.search(low[max(0, ms[oi].m.start - 40) : ms[oi].m.start])
                if risk and cue.kind == "directional":
                    sign *= -1 if risk.group(1) == "downside" else 1
                elif risk and cue.kind == "neutral" and not dst_mod:
                    sign = (src_mod or 1) * (-1 if risk.group(1) == "downside" else 1)
                if dst_mod and cue.kind == "directional" and AMPLIFIER_RE.match(" ".join(cue.text.split())):
                    sign = (src_mod or 1) * dst_mod  # "amplify the decline in Y": Y falls further
                elif dst_mod and cue.kind == "directional" and DAMPENER_RE.match(" ".join(cue.text.split())):
                    sign = -(src_mod or 1) * dst_mod
                elif (
                    cue.kind == "directional" and ms[oi].mod and NOMINAL_MOVE.search(low, ms[oi].start, ms[oi].m.start)
                ):
                    # "slow the decline in inflation", "hinder progress on inflation", "support a recovery in
                    # spending": the verb acts on a movement, whose direction it carries to the variable
                    sign = cue.sign * (src_mod or 1) * ms[oi].mod
                add(si, oi, sign, cue, False)
                moves.setdefault(oi, (src_mod or 1) * sign)
        if chained:
            a = objs[-1]
            a_move = ms[a].mod or (cue.sign if cue.kind in ("directional", "noun") else 1) * (src_mod or 1)
            link = THUS.search(low, ms[a].m.end, ms[chained[0]].start)
            for b in chained:
                at, said = (link.start(), " ".join(link.group().split())) if link else (ms[b].start, "and thus")
                add(a, b, a_move * (ms[b].mod or a_move), Cue(at, at, said, 0, "neutral"), False)
            objs = objs + chained
        previous = (subs, objs, ms[objs[-1]].m.end, moves)

    # "financial markets saw a significant rise in volatility": the noun phrase states the movement.
    for i, x in enumerate(ms):
        if x.mod and EXPERIENCED_BEFORE.search(low[max(0, x.start - 40) : x.start]):
            states.append((i, x.mod, Cue(x.start, x.start, "saw a movement", x.mod, "movement")))
    # "a sharp increase in X due to Y": a movement stated as a noun, with its cause after it.
    for i, x in enumerate(ms):
        nominal = NOMINAL_CAUSE_AFTER.match(low[x.m.end :])
        if x.mod and x.start < x.m.start and nominal:
            # the cue sits at the connector, so a negation before it ("was not due to") is seen
            conn = re.search(r"due to|owing to|because of|as a result of", nominal.group())
            at = x.m.end + (conn.start() if conn else 0)
            states.append((i, x.mod, Cue(at, at, "movement due to", x.mod, "movement")))
        elif x.mod and NOMINAL_FROM.match(low[x.m.end :]):
            # "price increases from higher tariffs", "job losses resulting from weaker exports"
            states.append((i, x.mod, Cue(x.m.end, x.m.end, "movement from", x.mod, "movement")))
    # "house prices have seen some correction", "equities recorded strong gains": a state after the mention.
    for i, x in enumerate(ms):
        seen = EXPERIENCED_AFTER.match(low[x.m.end :])
        if seen:
            at = x.m.end + seen.end()
            states.append((i, 1 if seen.group(1) else -1, Cue(at, at, "saw a movement", 0, "movement")))
    # "if tariffs are imposed", "if uncertainty persists": a risk put in place or kept is its rise.
    for i, x in enumerate(ms):
        put = IMPOSED_AFTER.match(low[x.m.end :])
        if put and not x.mod and x.m.variable_id in adverse_up:
            at = x.m.end + put.end()
            # "if tariffs and uncertainty were to continue": the list shares the state (one cue, no cause within)
            for j in _coordinated_left(low, ms, i, _clause_start(low, x.start)):
                if not ms[j].mod and ms[j].m.variable_id in adverse_up:
                    states.append((j, 1, Cue(at, at, put.group().strip(), 1, "movement")))
    # "as tariffs were scaled back", "if the tariffs are removed": a risk taken away is its fall
    for i, x in enumerate(ms):
        lifted = LIFTED_AFTER.match(low[x.m.end :])
        if lifted and not x.mod and x.m.variable_id in adverse_up and not any(j == i for j, _, _ in states):
            at = x.m.end + lifted.end()
            for j in _coordinated_left(low, ms, i, _clause_start(low, x.start)):
                if not ms[j].mod and ms[j].m.variable_id in adverse_up:
                    states.append((j, -1, Cue(at, at, lifted.group().strip(), -1, "movement")))
    # "as rate cuts accumulated", "if strong demand persists": a stated move that goes on or takes effect.
    # "as liquidity became scarcer", "when funding costs are higher": a comparative predicate is a move.
    for i, x in enumerate(ms):
        if any(j == i for j, _, _ in states):
            continue
        going = CONTINUING_AFTER.match(low[x.m.end :]) if x.mod else None
        if going:
            at = x.m.end + going.end()
            states.append((i, x.mod, Cue(at, at, going.group().strip(), x.mod, "movement")))
            continue
        comp = COMPARATIVE_AFTER.match(low[x.m.end :])
        if comp and not x.mod:
            at = x.m.end + comp.end()
            sign = 1 if comp.group(1) else -1
            states.append((i, sign, Cue(at, at, comp.group().strip(), sign, "movement")))
    # "a need for a further reduction in the policy rate", "support further rate cuts": a move called for is
    # a move stated; "policy would need to remain restrictive": the stance of a tightness variable.
    for i, x in enumerate(ms):
        if any(j == i for j, _, _ in states):
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
            states.append((i, x.mod, Cue(x.start, x.start, "move called for", x.mod, "movement")))
            continue
        stance = STANCE_AFTER.match(low[x.m.end :])
        if stance and x.m.variable_id in TIGHTNESS and not x.mod:
            at = x.m.end + stance.end()
            sign = 1 if stance.group(1) else -1
            states.append((i, sign, Cue(at, at, stance.group().strip(), sign, "movement")))
    # "if inflation remains in check", "if unemployment stays high": a condition on a level is a conditional move
    for i, x in enumerate(ms):
        if any(j == i for j, _, _ in states) or x.mod:
            continue
        held = HELD_LEVEL_AFTER.match(low[x.m.end :])
        if held and re.search(
            r"\b(?:if|because|given\s+that)\s+(?:\w+\s+){0,3}$", low[_clause_start(low, x.start) : x.start][-30:]
        ):
            at = x.m.end + held.end()
            sign = 1 if held.group(1) else -1
            states.append((i, sign, Cue(at, at, held.group().strip(), sign, "movement")))
    # "GDP growth remained subdued, reflecting weak consumption": a stated condition whose cause follows.
    for i, x in enumerate(ms):
        cond = CONDITION_AFTER.match(low[x.m.end :])
        if cond and not x.mod:
            at = x.m.end + cond.end()
            if re.match(
                r"\s*,?\s*(?:\w+ly\s+)?(?:reflecting|due to|owing to|because of|as a result of|driven by|"
                r"on account of|on the back of|amid|following|weighed down by|held back by|supported by|boosted by)\b",
                low[at:],
            ):
                states.append((i, 1 if cond.group(1) else -1, Cue(at, at, "stated condition", 0, "movement")))
    # "the trade war and the uncertainty it causes": the second is produced by the first.
    for a in range(len(ms) - 1):
        b = a + 1
        joined = re.fullmatch(r"\s+and\s+the\s+", low[ms[a].m.end : ms[b].start])
        if joined and IT_CAUSES.match(low[ms[b].m.end :]):
            at = ms[b].m.end
            add(a, b, (ms[a].mod or 1) * (ms[b].mod or 1), Cue(at, at, "it causes", 0, "neutral"), False)
    for a, b, sign in _feedback_loops(low, ms, vocab):
        at = ms[a].start
        add(a, b, sign, Cue(at, at, "feedback loop between", sign, "noun"), False)
    # "the effect of tariffs on GDP would be negative": the predicate signs the effect.
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
            add(a, b, sign, Cue(at, at + pred.end(), pred.group().strip(), sign, "noun"), False)
    # "the weaker the economy and the more downward pressure on inflation, the more need to lower the policy rate"
    for cc in CORRELATIVE.finditer(low):
        first_end = cc.start("second") - len(cc.group("comma"))
        parts = [(p.start(), p.end()) for p in CORRELATIVE_PART.finditer(low, cc.start(), first_end)]
        second = (cc.start("second"), _clause_end(low, cc.start("second")))

        def part_moves(lo: int, hi: int) -> list[tuple[int, int]]:
            text = low[lo:hi]
            comp = COMPARATIVE_WORD.match(text)
            if comp is None:
                return []
            inner = INNER_DIRECTION.search(text, comp.end())
            move = (1 if comp.group(1) else -1) * ((1 if inner.group(1) else -1) if inner else 1)
            return [(i, move) for i, x in enumerate(ms) if lo <= x.m.start and x.m.end <= hi]

        sources = [sm for lo_, hi_ in parts for sm in part_moves(lo_, hi_)]
        targets = part_moves(*second)
        for si, sm in sources:
            for ti, tm in targets:
                add(si, ti, sm * tm, Cue(second[0], second[0], "the more … the more", 0, "neutral"), False)
    # "the drag from tariffs on growth", "the boost to spending from lower rates": an effect noun with both ends
    for e in EFFECT_NOUN_FROM.finditer(low):
        sign = -1 if e.group("noun") in ("drag", "drags", "headwind", "headwinds", "hit") else 1
        src_span, dst_span = (e.span("a"), e.span("b")) if e.group("order") == "from" else (e.span("b"), e.span("a"))
        xs = [i for i, x in enumerate(ms) if src_span[0] <= x.start and x.m.end <= src_span[1]]
        ys = [i for i, x in enumerate(ms) if dst_span[0] <= x.start and x.m.end <= dst_span[1]]
        if xs and ys:
            vid = ms[xs[-1]].m.variable_id
            move = ms[xs[-1]].mod or (1 if vid in adverse_up and vid not in TIGHTNESS else 0)
            if move:
                add(xs[-1], ys[0], sign * move, Cue(e.start(), e.start(), e.group("noun"), sign, "noun"), False)
    # "firms front-loaded exports ahead of the tariffs", "imports were brought forward to beat the tariffs":
    # purchases moved ahead of an expected tariff rise; the expected rise is the cause of their (temporary) rise
    for f in FRONTLOAD.finditer(low):
        lo_f, hi_f = _clause_start(low, f.start()), _clause_end(low, f.end())
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
            add(tariff, oi, 1, Cue(f.start(), f.end(), f.group(), 1, "directional"), False)
    # "the negative contribution to growth from exports", "exports made a large contribution to GDP growth":
    # a spending component's contribution to GDP has the sign of its own move, so the channel is +
    for c in CONTRIBUTION_BOTH.finditer(low):
        src_span, dst_span = (c.span("b"), c.span("a")) if c.group("order") == "to" else (c.span("a"), c.span("b"))
        xs = [i for i, x in enumerate(ms) if src_span[0] <= x.start and x.m.end <= src_span[1] + 60]
        ys = [i for i, x in enumerate(ms) if dst_span[0] <= x.start and x.m.end <= dst_span[1]]
        if xs and ys and ms[ys[0]].m.variable_id == "real_gdp":
            for xi in _coordinated_right(low, ms, xs[0], min(len(low), src_span[1] + 60)):
                if ms[xi].m.variable_id in GDP_COMPONENTS and not NOT_A_COMPONENT.search(ms[xi].m.text.lower()):
                    add(xi, ys[0], 1, Cue(c.start(), c.end(), "contribution to", 1, "noun"), False)
    for c in CONTRIBUTION_MADE.finditer(low):
        ys = [i for i, x in enumerate(ms) if c.end() <= x.start <= c.end() + 20 and x.m.variable_id == "real_gdp"]
        lo_c = _clause_start(low, c.start())
        xs = [i for i, x in enumerate(ms) if lo_c <= x.start and x.m.end <= c.start()]
        if ys and xs:
            for xi in _coordinated_left(low, ms, xs[-1], lo_c):
                if ms[xi].m.variable_id in GDP_COMPONENTS and not NOT_A_COMPONENT.search(ms[xi].m.text.lower()):
                    add(xi, ys[0], 1, Cue(c.start(), c.end(), "made a contribution to", 1, "noun"), False)
    # "pass higher costs from tariffs on to consumer prices", "upward pressure on inflation arising from cost
    # increases because of tariffs", "cost increases from tariffs feed into inflation": costs carry the source's
    # rise to prices; the cost link must be stated, and an adverse-up source without a stated fall rises
    for c in COST_FROM.finditer(low):
        xs = [i for i, x in enumerate(ms) if c.end() <= x.start <= c.end() + 12]
        if not xs or ms[xs[0]].mod < 0 or ms[xs[0]].m.variable_id not in adverse_up | {"energy_prices", "wages"}:
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
                add(xi, yi, 1, Cue(c.start(), c.end(), "costs from", 1, "noun"), False)
    # "fire sales to meet margin calls": the need met is the source of the act
    for a in range(len(ms) - 1):
        meet = TO_MEET.match(low[ms[a].m.end :])
        if meet and ms[a + 1].start == ms[a].m.end + meet.end():
            at = ms[a].m.end
            for b in _coordinated_right(low, ms, a + 1, len(low)):
                add(b, a, (ms[b].mod or 1) * (ms[a].mod or 1), Cue(at, at + meet.end(), "to meet", 0, "neutral"), False)
    # "the pass-through of higher tariffs to consumer prices": within a family, the move carries over
    for e in PASS_THROUGH_NOUN.finditer(low):
        xs = [i for i, x in enumerate(ms) if e.start("x") <= x.start and x.m.end <= e.end("x")]
        ys = [i for i, x in enumerate(ms) if e.end() <= x.start <= e.end() + 20]
        if re.search(r"\bno\s+(?:\w+\s+)?$", low[max(0, e.start() - 20) : e.start()]):
            continue  # "no pass-through of tariffs to inflation so far": denied, nothing to read
        if xs and ys and _same_family(ms[xs[-1]].m.variable_id, ms[ys[0]].m.variable_id):
            at = e.start()
            # the target moves with the source unless both moves are stated
            sign = ms[xs[-1]].mod * ms[ys[0]].mod or 1
            add(xs[-1], ys[0], sign, Cue(at, e.end(), "pass-through of", 0, "neutral"), False)
    # "the effects of tariffs include lower growth and higher inflation": the named effects are the targets' moves
    for e in EFFECTS_INCLUDE.finditer(low):
        xs = [i for i, x in enumerate(ms) if e.start("x") <= x.start and x.m.end <= e.end("x")]
        ys = [i for i, x in enumerate(ms) if e.end() <= x.start <= e.end() + 25 and x.mod]
        if xs and ys:
            vid = ms[xs[-1]].m.variable_id
            src_move = ms[xs[-1]].mod or (1 if vid in adverse_up and vid not in TIGHTNESS else 0)
            for yi in _coordinated_right(low, ms, ys[0], min(len(low), e.end() + 120)):
                if src_move and ms[yi].mod:
                    at = e.start("cop")
                    add(xs[-1], yi, src_move * ms[yi].mod, Cue(at, e.end(), "effects include", 0, "neutral"), False)
    # "the second factor behind the inflation burst is the surge in energy prices": the source follows the copula
    for d in DRIVER_OF.finditer(low):
        ys = [i for i, x in enumerate(ms) if d.start("y") <= x.start and x.m.end <= d.end("y")]
        xs = [i for i, x in enumerate(ms) if d.end() <= x.start <= d.end() + 25]
        if ys and xs:
            for xi in _coordinated_right(low, ms, xs[0], min(len(low), d.end() + 120)):
                vid = ms[xi].m.variable_id
                src_move = ms[xi].mod or (1 if vid in adverse_up and vid not in TIGHTNESS else 0)
                if src_move:
                    at = d.start("cop")
                    sign = src_move * (ms[ys[0]].mod or 1)
                    add(xi, ys[0], sign, Cue(at, d.end(), "is the driver of", 0, "neutral"), True)
    for d in THREAT_TO.finditer(low):
        ys = [i for i, x in enumerate(ms) if d.start("y") <= x.start and x.m.end <= d.end("y")]
        xs = [i for i, x in enumerate(ms) if d.end() <= x.start <= d.end() + 25]
        if ys and xs and not ms[ys[-1]].mod:
            for xi in _coordinated_right(low, ms, xs[0], min(len(low), d.end() + 120)):
                vid = ms[xi].m.variable_id
                src_move = ms[xi].mod or (1 if vid in adverse_up and vid not in TIGHTNESS else 0)
                if src_move:
                    add(xi, ys[-1], -src_move, Cue(d.start("cop"), d.end(), "is the threat to", -1, "noun"), True)
    for si, ti, sign, cue in _cause_of_states(low, ms, states, adverse_up):
        add(si, ti, sign, Cue(cue.start, cue.end, cue.text, 0, "movement"), False)
    # "a further correction in asset prices could be amplified if investors unwind positions": the condition
    # holds the source of an amplified (or cushioned) move
    for c in cues:
        floor = _clause_start(low, c.start)
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
        moved = [sg for i, sg, _ in states if i == src]
        move = moved[0] if moved else (1 if ms[src].m.variable_id in adverse_up else 0)
        if move:
            add(src, targets[-1], amp * move * ms[targets[-1]].mod, c, True)
    # "As X rises, Y falls" / "Y falls when X rises": the subordinate clause holds the source.
    states.sort(key=lambda st: st[2].start)
    coordinated = [False] * len(states)  # joined to the previous state by "or"/"and": the same clause
    for a in range(1, len(states)):
        (_, _, cp), (ia, _, ca) = states[a - 1], states[a]
        coordinated[a] = cp.start != ca.start and bool(COORDINATED_STATE.fullmatch(low[cp.end : ms[ia].start]))
    for a in range(len(states)):
        for b in range(a + 1, len(states)):
            (ia, sa, ca), (ib, sb, cb) = states[a], states[b]
            between = low[ca.end : ms[ib].start]
            floor_a = _clause_start(low, ms[ia].start)
            # "as X rises, Y is tightening, Z is scarcer": a state after an earlier one's comma is in the main
            # clause, whose subordinator was the earlier state's
            ends = [c.end for _, _, c in states if c.end <= ms[ia].start and "," in low[c.end : ms[ia].start]]
            before_a = low[max([floor_a, *ends]) : ms[ia].start]
            if ca.start == cb.start:
                continue  # "as exports and investment decline": one movement of a list, no cause within it
            if re.search(r"\b(?:while|whereas)\b", between):
                continue  # "if deficits stay high while … costs rise": co-conditions (or co-movements), no cause
            if all(coordinated[a + 1 : b + 1]):
                continue  # "if X were to weaken or Y were to fall": two conditions, neither causes the other
            # "if X were to weaken or Y were to fall, …": the second condition shares the first's subordinator
            first = a
            while first > 0 and coordinated[first]:
                first -= 1
            before_first = low[_clause_start(low, ms[states[first][0]].start) : ms[states[first][0]].start]
            if (
                SUBORDINATOR.search(before_a[-25:])
                or re.fullmatch(r"\s*should\s+", before_a)
                # "With GDP growth weakening, the Council cut the policy rate": an absolute clause at the start
                or (ms[ia].start < ca.start and ABSOLUTE_WITH.search(low[floor_a : ms[ia].start]))
                or (first != a and SUBORDINATOR.search(before_first[-25:]))
            ):
                add(ia, ib, sa * sb, Cue(ca.start, ca.end, f"{ca.text} … {cb.text}", 0, "movement"), False)
            elif SUBORDINATOR.search(between):
                add(ib, ia, sa * sb, Cue(cb.start, cb.end, f"{ca.text} … {cb.text}", 0, "movement"), False)
    return list(found.values())
