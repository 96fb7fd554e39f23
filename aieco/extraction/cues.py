"""Cue tables of the offline rule reader: directional verbs, connectors, movement words and the
clause patterns its rules match (the lexicon; no reading logic here)."""

from __future__ import annotations

import re

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
    "exert upward pressure on",
    "exercise upward pressure on",
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
    "tackle",
    "combat",
    "fight",
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
    "exert downward pressure on",
    "exercise downward pressure on",
    "hold back",
    "choke off",
    "narrow",
    "contract",
    "mitigate",
    "relieve",
    "alleviate",
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
    "fragment",
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
    "require",
    "necessitate",
    "call for",
)
#: "pushing yields up", "drove equity prices down": the particle after the object is its movement.
#: "push energy prices higher", "push energy prices and freight costs higher": the particle of a split verb (after a
#: short noun phrase co-ordinated with the mention, which shares it)
PARTICLE_AFTER = re.compile(r"^(?:\s+and\s+(?:[a-z-]+\s+)?[a-z-]+)?\s+(?:back\s+)?(up|down|higher|lower|above|below)\b")
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
REVERSE_DIRECTIONAL = (
    ("suffer from", -1),
    ("benefit from", 1),
    ("be hurt by", -1),
    ("be helped by", 1),
    # "equity prices came under pressure from rising yields": the source pushes the subject down
    ("come under pressure from", -1),
)
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
        r"detrimental|chilling|downward)\s+(?:effect|impact|influence)s?\s+on",
        -1,
    ),
    (
        r"(?:an?\s+)?(?:\w+\s+)?(?:stimulative|stimulatory|expansionary|supportive|boosting|favourable|favorable|"
        r"beneficial|upward)\s+(?:effect|impact|influence)s?\s+on",
        1,
    ),
    # "a drag on growth", "a headwind for investment", "take a toll on jobs": nouns of a negative effect
    (
        r"(?:an?\s+|the\s+)?(?:significant\s+|major\s+|key\s+|big\s+|biggest\s+|largest\s+|main\s+|considerable\s+|"
        r"further\s+|substantial\s+|strong\s+|notable\s+|persistent\s+|ongoing\s+)?(?:drag|headwind|toll)s?\s+"
        r"(?:on|for|to|facing)",
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
    "step up",
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
    "revise up",
    "come under upward pressure",
    # the mirror of "weaken", a movement as well as a directional verb ("labour demand strengthened")
    "strengthen",
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
    "step down",
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
    "moderate",
    "come under downward pressure",
    # "inflation pressures had diminished as energy prices dropped": intransitive (the transitive use is a cue)
    "diminish",
    # "total inflation was revised down because of declines in energy prices": a forecast's move
    "revise down",
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
#: "Upside risks to inflation could come from higher energy costs", "upside risks to inflation include renewed
#: pressures on food prices", "downside risks to growth owing to weaker foreign demand": a risk to a variable
#: named before its source (the risk's direction, then the variable; group "from" ends where the sources start).
RISK_HEAD = re.compile(
    r"\b(?P<dir>upside|downside)\s+risks?\s+(?:to|for)\s+(?:the\s+)?(?:euro[- ]area\s+)?(?:headline\s+|core\s+)?"
)
#: What may stand before a fronted cause phrase in its clause ("As a result, and amplified by …", "Accordingly, in view
#: of …", "The Committee noted that, in light of …"): connectives, adverbs and a reporting clause.
FRONTED_LEAD = re.compile(
    r"(?:[\s,]|\b(?:[a-z]+ly|accordingly|as\s+a\s+result|however|moreover|overall|also|and|but|so|thus|hence|in\s+addition|"
    r"at\s+the\s+same\s+time|in\s+particular|nevertheless|still|yet|then|that)\b|"
    r"[a-z\s'’-]*?\b(?:noted|said|argued|observed|remarked|stressed|emphasi[sz]ed|pointed\s+out|judged|assessed|agreed|"
    r"expected|considered|added|explained|indicated|suggested|recalled)\s+that\b)*"
)
#: "residential investment was weak in the second quarter, likely reflecting the pickup in mortgage rates": a level
#: stated with its cause is the movement that cause explains (a level alone stays a level).
LEVEL_EXPLAINED_AFTER = re.compile(
    r"\s+(?:was|were|is|are|had\s+been|has\s+been|have\s+been|remained|remains|stayed|stays|continued\s+to\s+be|"
    # "risks that inflation could stay elevated as a result of …"
    r"(?:could|might|may|would|will)\s+(?:stay|remain))\s+"
    r"(?:(?:relatively|very|quite|particularly|still|somewhat|notably|especially)\s+)?"
    r"(?:(?P<down>weak|soft|subdued|sluggish|muted)|(?P<up>strong|robust|solid|resilient|elevated|firm))\b"
    r"(?=[^;.:]{0,40}?,?\s+(?:(?:in\s+part|partly|largely|mainly|primarily|likely|probably)\s+)*"
    r"(?:reflecting|due\s+to|owing\s+to|because\s+of|driven\s+by|supported\s+by|as\s+a\s+result\s+of|"
    r"weighed\s+down\s+by|held\s+back\s+by)\b)"
)
#: Nouns that name an adverse event itself ("disruptions", "bottlenecks"): the event is the variable's rise.
ADVERSE_EVENT = re.compile(r"\b(?:disruptions?|bottlenecks?|shortages?)\b")
#: "Risks to the inflation forecast were seen as tilted to the upside, reflecting the possibility that supply-side
#: disruptions could materialize": the risks' variable (RISKS_AROUND before it), their tilt (RISK_TILT after it) and
#: the reason given for the tilt (TILT_REASON), whose variables move the risks' variable the tilt's way.
RISKS_AROUND = re.compile(
    r"\brisks?\s+(?:to|around|for)\s+(?:the\s+)?(?:(?:staff['’]s\s+)?(?:forecast|outlook|projections?)\s+for\s+(?:the\s+)?)?$"
)
TILT_REASON = re.compile(
    r"\s*,?\s*(?:(?:partly|mainly|largely|in\s+part)\s+)?(?:reflecting|as|because|on\s+the\s+grounds\s+that|given)\s+"
    r"(?:(?:the\s+)?(?:possibility|risk|concerns?)\s+that\s+)?"
    # "risks to inflation were skewed to the upside and cited several such risks, including those associated with …"
    r"|\s*,?\s*and\s+cited\s+(?:several|various|a\s+number\s+of)\s+(?:such\s+)?risks,?\s+including\s+(?:those\s+)?"
    r"(?:associated\s+with|related\s+to|from)\s+"
)
#: "the sluggish growth in real private domestic spending and the persistently tight financial conditions were seen as
#: tilting the risks to the downside around the baseline projection for real economic activity": its subjects move the
#: variable after the tilt the tilt's way.
TILTING_RISKS = re.compile(
    r"\s+(?:(?:were|was|are|is)\s+(?:also\s+)?(?:seen|viewed|judged|regarded)\s+as\s+)?"
    r"(?:tilting|skewing|tilted|skewed)\s+the\s+risks?\s+(?:\w+\s+)?to\s+the\s+(?P<dir>upside|downside)\s+"
    r"(?:(?:around|for|to|surrounding)\s+(?:the\s+)?(?:staff['’]s\s+)?(?:baseline\s+)?"
    r"(?:(?:projection|forecast|outlook)s?\s+(?:for\s+)?)?(?:the\s+)?)?"
)
#: A cause connector between a risk's sources phrase and a mention: the mention causes an item, it is none.
CAUSE_BETWEEN = re.compile(r"\b(?:due\s+to|owing\s+to|because\s+of|caused\s+by|driven\s+by|as\s+a\s+result\s+of)\b")
#: "upside inflation risks associated with geopolitical developments": the risk's variable inside the risk phrase.
RISK_HEAD_BEFORE = re.compile(r"\b(?P<dir>upside|downside)\s+$")
RISKS_AFTER = re.compile(r"\s+risks?\b")
RISK_FROM = re.compile(
    r"\s*,?\s*(?:(?:in\s+the\s+(?:near|short|medium)\s+term|over\s+the\s+(?:near|short|medium)\s+term)\s*,?\s*)?"
    r"(?:(?:could|may|might|would|can)\s+(?:also\s+)?|(?:also|mainly|primarily|notably)\s+)?"
    r"(?:include[sd]?|including|(?:come|comes|came|stem|stems|stemmed|arise|arises|arose)\s+from|from|"
    r"stemming\s+from|arising\s+from|related\s+to|due\s+to|owing\s+to|associated\s+with|posed\s+by|"
    # "among the upside risks to inflation cited by participants were …", "as sources of upside risks to inflation,
    # some participants cited …": the risks' sources named by those who cite them
    r"(?:cited|noted|mentioned|identified|discussed|seen)\s+by\s+(?:[a-z]+\s+){0,2}?(?:participants|members)\s+"
    r"(?:were|was|included)|"
    r",\s*(?:some|many|several|most|all|a\s+few|a\s+couple\s+of|a\s+number\s+of|a\s+majority\s+of)\s+"
    r"(?:participants|members)\s+(?:also\s+)?(?:cited|noted|pointed\s+to|mentioned|highlighted))\s+"
    r"(?:the\s+|a\s+|an\s+)?(?:potential(?:ly)?\s+|possible\s+)?"
    # "were the possibility of sudden disruptions …", "the potential for disruptions to supply chains"
    r"(?:(?:possibility|prospect|potential|risk)\s+(?:of|for)\s+(?:a\s+|an\s+|the\s+)?)?"
)
#: "raises downside risks to growth": the risk phrase carries the direction on its variable.
RISK_TO = re.compile(r"\b(downside|upside)\s+risks?\s+(?:to|for)\s+(?:the\s+)?(?:euro[- ]area\s+)?$")
#: "increased the risks to the growth outlook, which were clearly skewed to the downside": risks named without a
#: direction before their variable (RISK_UNDIRECTED), which the sentence gives later (RISK_TILT) or not at all.
RISK_UNDIRECTED = re.compile(r"\bthe\s+risks?\s+(?:to|for)\s+(?:the\s+)?(?:euro[- ]area\s+)?$")
RISK_TILT = re.compile(r"\b(?:skewed|tilted)\s+(?:\w+\s+)?to(?:wards)?\s+the\s+(downside|upside)\b")
IRREGULAR = {
    "lead": ("led",),
    "come": ("came",),
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
DOUBLE_FINAL = {"drag", "spur", "cut", "hit", "put", "drop", "plug", "stop", "stem"}
UP_MODIFIERS = (
    r"upward\s+pressures?\s+in",
    # "upward base effects in energy inflation": the year-on-year rate of the variable is pushed up
    r"(?:(?:strong|sharp|large|sizeable|significant)\s+)?upward\s+base\s+effects?\s+(?:in|from)",
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
    r"(?:an? |the )?(?:sharp |strong |large |further |sudden |significant |persistent |sustained |recent |notable |"
    r"marked |substantial |modest |slight |gradual |considerable |steady |continued )?"
    r"(?:increase|rise|surge|jump|hike|upturn|spike|tightening|rebound|escalation|strengthening|repricing|firmness|gain|"
    r"phasing-in|introduction|imposition|build-up|widening|growth|strength|acceleration|appreciation|recovery|"
    r"pickup|pick-up|upswing|resilience|pull-forward|front-loading|frontloading)s? (?:in|of)",
    # "an increase to import tariffs" ("a rise to" is no movement: "give rise to")
    r"(?:an? |the )?(?:permanent |sharp |large |further |significant )?(?:increase|hike)s? to",
    # "reflecting an upward revision to inflation": the variable's move
    r"(?:an? |the )?(?:substantial |significant |sizeable |large |further |marked )?upward revisions? (?:to|of|in)",
    r"(?:higher|rising|increasing|greater) (?:levels?|number|amounts?|volumes?) of",
    r"resilient",
    r"strong",
    r"solid",
    r"buoyant",
    r"robust",
    r"positive",
    # participles before the noun ("tightening credit conditions", "accelerating wage growth")
    r"tightening",
    r"accelerating",
    r"strengthening",
)
DOWN_MODIFIERS = (
    # "this downward pressure in the energy component": the pressure inside the variable is its move ("on" is a cue)
    r"downward\s+pressures?\s+in",
    r"(?:(?:strong|sharp|large|sizeable|significant)\s+)?downward\s+base\s+effects?\s+(?:in|from)",
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
    r"diminished",
    r"shrinking",
    r"subdued",
    r"low",
    r"(?:an? |the )?(?:sharp |strong |large |further |sudden |significant |persistent |sustained |notable |marked |"
    r"substantial |modest |slight |gradual |considerable |steady )?"
    r"(?:decrease|decline|fall|drop|reduction|slump|contraction|deterioration|correction|loss|cut|easing|"
    r"slowdown|collapse|evaporation|drying-up|weakening|softening|loosening|weakness|softness|slowing|"
    r"deceleration|moderation|depreciation|downturn|"
    # "the unwinding of supply bottlenecks", "the clearing of supply chain bottlenecks", "the fading-out of the energy
    # shock": a strain that goes away
    r"unwinding|clearing|dissipation|resolution|fading|fading-out)(?:es|s)? (?:in|of)",
    r"negative",
    r"weak",
    r"poor",
    r"sluggish",
    r"fewer",
    r"softening",
    r"slowing",
    r"slower",
    # participles before the noun ("easing supply bottlenecks", "cooling labour demand")
    r"easing",
    r"cooling",
    r"moderating",
    r"loosening",
    r"(?:an? |the )?(?:substantial |significant |sizeable |large |further |marked )?downward revisions? (?:to|of|in)",
)
NEGATION = re.compile(
    r"\b(?:not(?!\s+only)|never|no longer|neither|nor|hardly|barely|cannot|fails? to|without|"
    # "too high to be considering lowering the rate": the infinitive is ruled out
    r"failed to|too\s+\w+\s+to|unlikely\s+to)\b|n't\b"
)
NEGATION_CLAUSE = re.compile(
    r"\b(?:(?:no|little|scant) (?:evidence|sign|indication)s? (?:that|of)|"
    r"(?:not (?:clear|certain|obvious|evident)|unclear|uncertain|debatable|an open question|remains to be seen) "
    r"(?:that|whether|if)?)\b"
)
#: Words that hedge a stated relation (labelling guide: "could", "may", "might" and the like). Not "would":
#: a scenario's conditional states its channel; not "tends to": a regularity is stated, not doubted.
HEDGE = re.compile(
    # "may be appropriate to return inflation to 2 percent": the modal weighs the decision, not the channel
    r"\b(?:(?:may|might|could|can)(?!\s+be\s+(?:appropriate|needed|necessary|warranted|required)\b)|likely|possibly|"
    r"potentially|perhaps|suggests?|appears? to|seems? to|probably|somewhat|partly|arguably|plausibly|"
    # the labellers' hedges (guide; notes of rounds 10-12): "appeared to", "seemed to", "the potential to"
    r"appeared to|seemed to|potential(?!\s+(?:growth|output|gdp|rates?|real)\b)|possibility|in principle)\b"
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
    """Like :func:`_alternation`, with an optional adverb after the verb ("weighed heavily on", "weigh further on")."""
    out = []
    for p in sorted(set(phrases), key=len, reverse=True):
        head, _, rest = p.partition(" ")
        if rest and not head.startswith(("is", "are", "was", "were", "be")):
            out.append(re.escape(head) + r"\s+(?:(?:\w+ly|further|more)\s+)?" + re.escape(rest).replace(r"\ ", r"\s+"))
        else:
            out.append(re.escape(p).replace(r"\ ", r"\s+"))
    return "|".join(out)


#: Verbs whose bare form is mostly the adjective ("moderate growth", "a moderate pace"): the bare form is read as
#: the verb only after "to" or a modal ("growth is likely to moderate", "inflation will moderate").
ADJECTIVE_VERBS = ("moderate",)
_AFTER_TO_OR_MODAL = (
    "(?:" + "|".join(rf"(?<=\b{w} )" for w in ("to", "will", "would", "could", "may", "might", "should")) + ")"
)


def _verb_pattern(verbs: tuple[str, ...], exclude: tuple[str, ...] = ()) -> re.Pattern[str]:
    forms: list[str] = []
    for v in verbs:
        if v.startswith("be "):  # "be associated with" → "is/are/was … associated with"
            forms += [f"{be} {v[3:]}" for be in ("is", "are", "was", "were", "be", "been", "being")]
        else:
            forms += _verb_forms(v)
    bare = "".join(f"|{_AFTER_TO_OR_MODAL}{re.escape(f)}" for f in forms if f in ADJECTIVE_VERBS)
    forms = [f for f in forms if f not in exclude and f not in ADJECTIVE_VERBS]
    return re.compile(rf"\b(?:{_phrasal_alternation(forms)}{bare})\b")


#: "higher rates needed to bring inflation back to target", "policy firming to return inflation to 2 per cent":
#: a policy move toward the target from above, so inflation falls. Read only after a policy-rate mention
#: ("higher tariffs brought inflation back to target" states no direction: it may come from below).
TO_TARGET_CUE = re.compile(
    r"\b(?:bring|brings|brought|bringing|return|returns|returned|returning|get|gets|getting)(?=\s+"
    r"(?:[\w-]+\s+){0,2}?inflation\s+(?:sustainably\s+|durably\s+)?(?:back\s+)?(?:down\s+)?(?:to|towards?)\s+"
    r"(?:the\s+|its\s+|our\s+|the\s+bank['’]s\s+)?(?:[\w%-]+\s+){0,2}?(?:targets?|2(?:\s*%|\s+per\s*cent|\s+percent))\b)"
)

CUE_PATTERNS: list[tuple[re.Pattern[str], int, str]] = [
    (_verb_pattern(POSITIVE_VERBS), 1, "directional"),
    (_verb_pattern(NEGATIVE_VERBS), -1, "directional"),
    (_verb_pattern(NEUTRAL_VERBS), 0, "neutral"),
    (_verb_pattern(COMOVEMENT), 0, "comovement"),
    *[(re.compile(rf"\b{p}\b"), s, "noun") for p, s in NOUN_CUES],
    (_verb_pattern(REVERSE), 0, "reverse"),
    # "weak economic conditions are likely to warrant exceptionally low levels of the federal funds rate": the
    # object's move is called for; the participle only before its object ("an easing was warranted" is passive)
    (
        re.compile(
            r"\b(?:warrants?|warranting|justify|justifies|justifying|"
            r"(?:warranted|justified)(?=\s+(?:an?|the|further|higher|lower|tighter|looser|more|less|additional|"
            r"[a-z]+ly)\b))\b"
        ),
        0,
        "neutral",
    ),
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
    (TO_TARGET_CUE, -1, "directional"),
    # "which puts jobs at risk": the verb before its object, "at risk" after it
    (re.compile(r"\b(?:puts?|putting|places?|placed|placing)(?=\s+(?:[\w'-]+\s+){1,4}at\s+risk\b)"), -1, "directional"),
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
    r"\b(?:driven by|on the back of|owing\s+(?:in\s+part\s+|partly\s+|largely\s+|mainly\s+|primarily\s+)?to|"
    r"due\s+(?:in\s+part\s+|partly\s+|largely\s+|mainly\s+|primarily\s+)?to|because of|in response to|reflecting|"
    r"amplified by|in the face of|in reaction to|responding to|reacting to|in light of|"
    r"against\s+the\s+(?:background|backdrop)\s+of|led\s+by|"
    # market commentary: "equity prices rose on expectations of lower policy rates"
    r"on\s+(?:growing\s+|rising\s+|renewed\s+)?(?:expectations|hopes|fears|prospects?|signs)\s+(?:of|for)|"
    r"supported by|backed by|fuelled by|fueled by|as a result of|buoyed by|weighed down by|boosted by|underpinned by|"
    r"hit by|dragged down by|following|given|on account of|helped by|aided by|held back by|restrained by|"
    # "driven primarily by lower-than-expected inflation data releases": a degree between participle and "by"
    r"(?:driven|supported|boosted|weighed\s+down|held\s+back|led|fuell?ed|buoyed|underpinned|restrained|hampered)\s+"
    r"(?:primarily|mainly|largely|partly|in\s+part|especially|notably|chiefly|mostly)\s+by|"
    r"hampered by|thanks to|pulled down by|in view of|"
    # "cut their policy rates further, in part citing easing inflation pressures": the reason a decision names
    r"(?:in\s+part\s+|partly\s+|mainly\s+|largely\s+)?citing)\s+"
    # "reflecting in large part the effects of …", "reflecting mainly higher rates"
    r"(?:(?:in\s+(?:large\s+)?part|partly|largely|mainly|primarily)\s+)?"
    r"(?:the\s+|a\s+|an\s+|this\s+|these\s+|such\s+|(?:investors|markets|market\s+participants)\s+"
    r"(?:anticipating|expecting|pricing\s+in)\s+)?"
    # "in part due to the Committee's restrictive monetary policy stance": an owner before the cause
    r"(?:[a-z]+(?:'|\u2019)s\s+)?"
    # "due to the effects of trade policy", "mainly due to the impact of U.S. tariff policy": the effect's source;
    # "due to growing concerns over future inflation": the source of the concern (an adverse variable's rise)
    r"(?:(?:(?:economic|direct|indirect|negative|adverse|overall|combined|lagged|delayed|temporary|ongoing|dampening|"
    r"restraining|downward|gradual|continued|rapid|quick|full|partial)\s+)?"
    # "driven by the delayed pass-through of the past surge in energy prices", "reflecting the delayed effects of past
    # supply bottlenecks", "the lagged pass-through of indirect effects from past energy price increases"
    r"(?:impacts?|effects?|consequences?|pass-through|(?:economic\s+)?fallout|repercussions)\s+(?:of|from)\s+(?:the\s+)?"
    r"(?:[a-z]+(?:'|\u2019)s\s+)?"  # "the economic fallout of Russia's war against Ukraine"
    r"(?:(?:indirect\s+)?effects\s+from\s+(?:the\s+)?)?(?:past\s+|earlier\s+|previous\s+)?|"
    # "as a result of the ongoing transmission of monetary policy tightening", "owing to a combination of robust
    # wage growth, …": the transmitted move, the combined causes
    r"(?:(?:ongoing|continued|past|lagged|delayed|strong)\s+)?transmission\s+of\s+(?:the\s+)?(?:past\s+)?|"
    r"(?:a\s+)?combination\s+of\s+|"
    # "reflecting signs of stronger activity", "indications of continued resilience in the economy"
    r"(?:(?:further|some|early|clear|tentative)\s+)?(?:signs|indications|evidence)\s+of\s+(?:the\s+|a\s+)?|"
    # "largely reflecting a significant drag from lower oil prices": the drag's (or boost's) source
    r"(?:(?:significant|substantial|large|small|modest|sizable|notable)\s+)?(?:drag|boost|support)\s+from\s+"
    r"(?:the\s+)?|"
    r"(?:(?:growing|rising|heightened|increased|renewed|mounting)\s+)?(?:concerns?|worries|fears)\s+"
    r"(?:over|about|regarding)\s+(?:the\s+)?(?:future\s+)?)?"
    r"(?:us\s+|u\.s\.\s+|global\s+|new\s+|recent\s+)?"
    # "owing to weaker growth in labour costs": the weak growth's adjective stands before the modifier's start
    r"(?:(?:weaker|weak|slower|slow|subdued|sluggish|softer|soft|below-trend)\s+)?$"
)
#: Movement nouns that carry their direction inside the synonym ("economic slowdown", "policy easing").
INHERENT_DOWN = re.compile(
    r"\b(?:slowdown|recession|downturn|easing|cuts?|weakening|contraction|loosening|looser|easier|"
    r"disinflation(?:ary)?|deflationary)\b"
)
INHERENT_UP = re.compile(
    r"\b(?:tightening|tighter|hikes?|increases?|rises|escalation|restraint|restrictive(?:ness)?|firming)\b"
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
    # "lower than expected energy prices", "stronger-than-expected consumption": the comparison with the expected
    # path is part of the modifier
    r"(?:-than-(?:expected|anticipated|projected|assumed|forecast))?"
    r"\s+(?:than\s+(?:expected|anticipated|projected|assumed|forecast)\s+)?"
    rf"(?:the\s+|euro[- ]area\s+)?(?:(?!{_FUNCTION_WORD})[a-z][a-z-]*\s+)?"
    # "a subdued rate of GDP growth", "the slower pace of hiring": the measure's movement is the variable's
    r"(?:(?:rate|pace|level|levels)\s+of\s+(?:the\s+)?|(?:outlook|prospects)\s+for\s+(?:the\s+)?|"
    # "weaker dynamics for underlying inflation": the dynamics' movement is the variable's
    r"dynamics\s+(?:for|in|of)\s+(?:the\s+)?|"
    # "weaker news about the euro area economy": the news' movement is the variable's
    r"(?:news|data)\s+(?:about|on|from)\s+(?:the\s+)?(?:euro[- ]area\s+)?)?"
)
UP_BEFORE = re.compile(rf"\b(?:{'|'.join(UP_MODIFIERS)}){_GAP}$")
DOWN_BEFORE = re.compile(rf"\b(?:{'|'.join(DOWN_MODIFIERS)}){_GAP}$")
#: Words that are a verb after a subject ("tariffs reduced trade") and a movement before a noun.
VERB_OR_ADJECTIVE = (
    "lower",
    "slow",
    "increased",
    "decreased",
    "reduced",
    "depressed",
    "weakened",
    "lowered",
    "diminished",
)
MODAL_BEFORE = re.compile(
    r"\b(?:would|could|may|might|will|can|should|must|to|also|further|significantly|directly|not|n't|"
    r"does|do|did|tends? to|help|has|have|had|\w+ly)\s+$"
)
CONJ_ONLY = re.compile(
    r"^[\s,]*(?:and|or|as well as|and also|but also|but|while|whereas|and thereby|thereby|"
    r"and hence|and thus)?[\s,]*(?:at\s+the\s+same\s+time\s*,?\s*)?$"
)
#: A list item the vocabulary does not name ("weakened household balance sheets", "and low levels of"): up to six
#: words, none a verb of the cue or movement tables, an auxiliary, a pronoun or a clause word.
_NOT_ITEM_WORD = (
    r"(?:is|are|was|were|be|been|being|has|have|had|will|would|could|may|might|should|can|must|do|does|did|"
    r"which|that|who|whose|while|whereas|although|though|because|since|as|if|when|but|so|thus|hence|than|also|"
    r"it|its|they|their|we|our|he|she|this|these|those|there|not|no|to|by|with|from|amid|despite)\b"
)
_ITEM_WORD = rf"(?!{_NOT_ITEM_WORD})[a-z][a-z'-]*"
LIST_ITEM = re.compile(rf"(?:(?:and|or)\s+)?(?:{_ITEM_WORD}\s*){{0,6}}")
#: A list's first item the vocabulary does not name, right before a named one ("the energy crisis, ").
UNNAMED_ITEM_END = re.compile(rf"\b(?:{_ITEM_WORD}\s+){{0,4}}{_ITEM_WORD},\s*$")
COORD = re.compile(
    # "lower activity in the short run and somewhat higher unemployment": a horizon and a degree adverb may stand
    # around the conjunction
    r"^\s*(?:(?:in|over)\s+the\s+(?:short|medium|long|near)(?:er)?[\s-](?:run|term)\s*)?"
    r"(?:,|and|or|as well as|, and|, or|&|combined with|together with|coupled with|"
    r"along with|and the|and a|and (?:the\s+)?(?:ensuing|resulting|associated|attendant)|"
    # "lower demand for exports and the impact of tight financing conditions were dampening activity"
    r"and the (?:impact|effects?) of|"
    r"and (?:thereby|thus|hence|therefore|so|in turn))"
    # "… and continued tightening of credit conditions": a degree adverb or an adjective of persistence
    r"(?:\s+(?:somewhat|slightly|much|even|still|continued|ongoing|further|persistent|lingering|prevailing|heightened|"
    r"\w+ly))?\s*$"
)
PREPOSITION_BEFORE = re.compile(
    r"\b(?:of|on|for|from|to|with|among|across|at|into|against|over|under|in|during|"
    r"amid|after|through|via|by|about|regarding|surrounding|around|vis-à-vis|vis-a-vis|versus)\s+"
    r"(?:the\s+|an?\s+|euro[- ]area\s+)?(?:[a-z]+\s+)?$"
)
CLAUSE_BREAK = re.compile(r"[;:]|\.\s|(?<=[a-z)])\.(?:\[\d+\]|\d{1,2})\s")
#: "the drag on activity", "a cut": a noun, not a verb ("that" is mostly a relative pronoun: "a trade war
#: that generates a slowdown").
DETERMINER_BEFORE = re.compile(r"\b(?:the|a|an|this|its|their|any|no|such)\s+$")
#: "as I mentioned", "as noted above", "as shown in Chart 2": a comment on the text, not a clause of time or cause.
COMMENT_CLAUSE = (
    r"\s+(?:(?:i|we|you|he|she|they)\s+(?:have\s+|had\s+)?(?:already\s+|just\s+)?)?(?:mentioned|noted|said|explained|"
    r"discussed|described|stated|indicated|shown|seen|illustrated|pointed\s+out|highlighted|argued|reported)\b"
)
SUBORDINATOR = re.compile(
    rf"\b(?:when|whenever|(?<!even )(?<!just )(?<!such )(?<!as well )as(?!\s+well\b)(?!\s+a\s+(?:result|consequence)\b)"
    rf"(?!{COMMENT_CLAUSE})|if|"
    r"because(?!\s+of\b)|"
    # "since January", "since the peak in 2022": a point in time, not a cause
    # ("since the meeting", "since the Governing Council's previous monetary policy meeting": a time)
    r"since(?!\s+the\s+(?:[\w’'-]+\s+){0,5}meeting\b)"
    # ("since earlier in the year", "since last year", "since the previous projection": a time too)
    r"(?!\s+(?:(?:early|earlier|mid|late|end[- ]|the\s+(?:start|beginning|end|middle|peak|trough|turn|summer|spring|"
    r"autumn|winter|pandemic|last|previous|first|second|third|fourth)\b|last\b|then\b|\d{4}|january|february|march|"
    r"april|may\b|june|july|august|september|october|november|december)))|once|after)\b"
)
ABSOLUTE_WITH = re.compile(r"^\s*with\s+[^,;]*$")

#: "Participants noted that, with continued rebalancing of labor market conditions, …": a fronted "with" phrase up to a
#: moved mention (WITH_FRONTED) and from it to the main clause (WITH_TO_MAIN: one comma, no verb of its own).
WITH_FRONTED = re.compile(r"(?:^|[,;:]\s*|\bthat\s+)with\s+(?:[a-z’'-]+\s+){0,6}$")
WITH_TO_MAIN = re.compile(
    r"(?:\s+(?:conditions|developments|dynamics|momentum))?(?:\s+(?:of|in)\s+[a-z’' -]{0,40})?\s*,\s+"
)
#: A level stated after a variable in a "with" phrase: "with inflation persistently high", "with the labor market still
#: very tight", "with realized inflation well above that goal".
WITH_LEVEL_AFTER = re.compile(
    r"\s+(?:(?:still|persistently|remaining|running|staying|being|so|too)\s+)*"
    r"(?:(?:far|much|well|very|unacceptably|too|significantly|substantially)\s+)*"
    r"(?:(?P<up>high|elevated|above|strong|tight|robust|solid)|(?P<down>low|weak|subdued|soft|below|moderate))\b"
)
#: A fronted phrase naming what policy reacts to: "with inflation well above …, …", "in light of the unacceptably high
#: level of inflation, …", "given persistently high inflation, …".
REACTION_FRONTED = re.compile(
    r"(?:^|[,;:]\s*|\bthat\s+)(?:with|in\s+light\s+of|given|because\s+of|in\s+view\s+of)\s+(?:[a-z’'-]+\s+){0,8}$"
)
#: A main clause's verb before the policy it states: "participants agreed that ongoing increases in the target range …".
REACTION_MAIN_VERB = re.compile(
    r"\b(?:that|would|will|should|to|agreed|judged|noted|observed|anticipated|expected|continued|decided|saw)\b"
)
#: "to" closing a preposition, not an infinitive marker.
PREPOSITIONAL_TO = re.compile(
    r"\b(?:due|owing|thanks|prior|relative|compared|according|addition|response|reaction|respect|exposure|"
    r"contribut\w*|lead|leads|led|leading|attributable|related|linked|return|returned|returns|back)\s+to\s+$"
)

#: Variables measured as tightness: "supportive monetary policy" is a lower policy rate.
TIGHTNESS = frozenset({"policy_rate", "financing_conditions", "lending_standards"})
LOOSE_BEFORE = re.compile(
    rf"\b(?:supportive|accommodative|loose|looser|easy|easier|favourable|favorable|expansionary){_GAP}$|"
    r"\b(?:easing|loosening)\s+(?:of|in)\s+(?:the\s+)?$"
)
TIGHT_BEFORE = re.compile(
    # "the cumulative tightening of monetary policy": the nominal move names the stance's move
    rf"\b(?:restrictive|tight|tighter|contractionary){_GAP}$|\btightening\s+(?:of|in)\s+(?:the\s+)?$"
)

#: "a deterioration in X", "the worsening of X": the variable's adverse move (tighter financing
#: conditions, lower confidence).
ADVERSE_NOUN_BEFORE = re.compile(
    r"\b(?:an?\s+|the\s+)?(?:sharp\s+|further\s+|significant\s+|resulting\s+|ensuing\s+)?"
    r"(?:deterioration|worsening|(?:adverse|deteriorating|worsening|darker|gloomier)\s+outlook)\s+"
    r"(?:in|of|for)\s+(?:the\s+)?(?:[a-z-]+\s+)?$|"
    # "worsening geopolitical developments", "sharply worsening financing conditions": the adjective before the noun
    r"\b(?:(?:sharply|rapidly|further|steadily)\s+)?(?:worsening|deteriorating)\s+(?:[a-z-]+\s+)?$"
)

#: "improving investor sentiment", "an improvement in market liquidity": the variable's favourable move.
#: "favourable mortgage rates", "favourable financing conditions": the variable on its favourable side (low
#: rates, loose conditions), the opposite of its adverse direction ("unfavourable" does not match).
FAVOURABLE_BEFORE = re.compile(
    r"\b(?:(?:an?\s+|the\s+)?(?:further\s+|significant\s+|gradual\s+)?improvements?\s+(?:in|of)\s+(?:the\s+)?|"
    r"improving\s+|improved\s+|(?:more\s+|very\s+|still\s+)?favou?rable\s+)(?:[a-z-]+\s+)?$"
)

#: What follows a verb used without an object: punctuation, a preposition, an adverb, a conjunction.
INTRANSITIVE_AFTER = re.compile(
    r"\s*(?:[,.;:)]|$)|\s+(?:by|in|on|at|over|during|further|again|as|when|if|after|while|amid|and|but|or|due|owing|"
    r"because|thanks|more|less|much|somewhat|than|"
    r"to|from|since|until|before|\w+ly)\b"
)

#: "cost increases", "wage hikes" after a preposition: a noun compound whose head is the movement noun.
COST_COMPOUND_BEFORE = re.compile(
    r"\b(?:from|of|by|to|with|amid|after|despite|because\s+of|due\s+to|and)\s+(?:further\s+|large\s+|recent\s+|past\s+)?"
    r"(?:[a-z-]+\s+)?(?:cost|input\s+cost|price|wage|tax|fee|rent)\s+$"
)

#: "in the face of tariffs, monetary policy …": a preposed adverbial ends at its comma, it lists nothing.
PREPOSED_ADVERBIAL = re.compile(
    r"(?:^|[,;]|\bthat)\s*(?:in\s+the\s+face\s+of|amid|despite|given|after|following|with|because\s+of|due\s+to|"
    r"in\s+response\s+to|against|in\s+light\s+of|notwithstanding)\s+(?:the\s+|an?\s+|higher\s+|new\s+|us\s+)*"
    r"(?:[a-z-]+\s+){0,2}$"
)

#: A subordinate clause opens between a candidate subject and the verb: the verb has another subject.
SUBORDINATE_GAP = re.compile(
    r"\b(?:because|since|although|though|whereas|while|when|whenever|if|once|unless|until|so that|given that|where)\s+"
    # "declines in energy prices since the beginning of the year contributed to …": a time, no clause
    r"(?!\w+ly\b)(?!(?:the\s+)?(?:start|beginning|end|middle|turn|spring|summer|autumn|fall|winter)\s+of\b)"
    # "the fall in oil prices since the cut-off date for the projections would lower …": a date, no clause
    r"(?!the\s+(?:cut-off|cutoff)\s+date\b)(?!the\s+(?:[\w’'-]+\s+){0,5}meeting\b)"
    r"(?!at\s+the\s+same\s+time\b)"  # "…, while at the same time boosting confidence": a participle follows
    r"(?!(?:early|mid|late|last|january|february|march|april|may|june|july|august|september|october|november|"
    r"december|(?:19|20)\d\d)\b)\w+"
)
#: "unemployment has risen as firms have slowed hiring": an "as" clause with its own subject
AS_CLAUSE_GAP = re.compile(
    r"(?<!such )(?<!so )(?<!just )\bas\s+(?!well\b|a\s+result\b|much\b|such\b|expected\b|anticipated\b|noted\b|"
    # ("viewed the restrictive stance as having a restraining effect on …": the view's predicate, no clause)
    r"discussed\b|mentioned\b|shown\b|seen\b|having\b|(?:a|an|the)\s+(?:[a-z-]+\s+)?(?:share|percentage|proportion|ratio|"
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
#: "economic sentiment could worsen, supply-side constraints could increase": a bare noun phrase and its modal after a
#: comma start a clause of their own (an adverb or a connective after the comma does not: "inflation, however, could").
BARE_SUBJECT_AFTER_COMMA = re.compile(
    r",\s*(?!(?:however|therefore|though|thus|hence|moreover|furthermore|also|in\s+turn|in\s+addition|which|that|and|"
    r"but|or|so|this|these|it|they|then)\b)"
    r"(?:(?!(?!supply\b)[a-z]+ly\s)(?!(?:i|we|you|he|she|they|it|this|that|these|those)\b)[a-z-]+\s+){1,3}"
    r"(?:would|could|may|might|will|should|can)\s+"
    r"(?:also\s+|further\s+|\w+ly\s+)?$"
)
NOUN_SUBJECT_AFTER_COMMA = re.compile(
    r",\s*(?:the|a|an|our|its|their|many|most|some)\s+(?:[a-z-]+\s+){0,3}"
    r"(?:(?:has|have|had|would|could|will|may|might|also|then|\w+ly)\s+)*$"
)
#: "…, helping (to) ease inflation": a participle of help after a stated move.
HELPING_AFTER_COMMA = re.compile(r",\s*(?:\w+ly\s+)?help(?:ing|s|ed)?\s+(?:to\s+)?$")
#: A personal pronoun right before the verb is its subject ("…, and they could drive up …").
#: A condition's end followed by "it" and a modal: ", it would" after "if …" (CONDITION_OPEN, no comma between).
CONDITION_IT_GAP = re.compile(r"[^,;]*,\s+it\s+(?:would|could|might|may|will|should|can)\s+(?:also\s+|then\s+)?")
#: A clause that opens with a condition ("If price pressures fed through into …").
#: A condition opening its clause: "if", "unless", "should", or an inverted "were … to" ("were inflation to persist at
#: an elevated level, the target range might need to be raised").
CONDITION_OPENS = re.compile(r"\s*(?:if|unless|should|were(?=\s[^,;]*?\bto\s))\s")
CONDITION_OPEN = re.compile(r"\b(?:if|when|once|unless)\b[^,;]*$")
PRONOUN_SUBJECT = re.compile(
    # "this should lower …" after a stated move is a relative ("…, and this should"), not a pronoun subject
    r"\b(?:they|we|i|he|she|you|(?:this|these|those)\s+(?!(?:would|could|may|might|will|can|should|must|has|have|had|"
    r"in|is|was)\b)[a-z-]+)\s+"
    r"(?:(?:would|could|may|might|will|can|should|also|then|further|have|has|had|been|be|able\s+to|"
    r"(?:need|needs|needed|decided|chose|want|wants|wanted)\s+to|\w+ly)\s+)*$"
)
#: A clause boundary between a candidate subject and its verb.
CLAUSE_JOIN = re.compile(r",\s*(?:and|but|while|whereas|although|though|yet)\b|\bwhich\b")
#: "monetary policy had still more ground to cover to bring inflation back to target", "would have further ground to
#: cover in adjusting the monetary policy stance to ensure …": policy still to be tightened (the move's end is the
#: phrase's end, after the mention or after the policy noun that follows it).
GROUND_TO_COVER_AFTER = re.compile(
    r"^\s+(?:still\s+)?(?:had|has|have|would\s+have|will\s+have)\s+(?:still\s+)?(?:more|further|some)\s+"
    r"(?:ground\s+to\s+cover|way\s+to\s+go)"
)
GROUND_TO_COVER_BEFORE = re.compile(
    r"\b(?:more|further|some)\s+(?:ground\s+to\s+cover|way\s+to\s+go)\s+in\s+[a-z]+ing\s+(?:the\s+|its\s+)?$"
)
#: A purpose infinitive after the object of a policy move ("lowered its policy rate in June to support
#: growth", "raised rates quickly in order to bring inflation down").
PURPOSE_TO = re.compile(
    r"^\s*(?:(?!\b(?:and|but|or|which|that|as|when|if|while)\b)(?:[^,;.:]|\.(?=\d))){0,40}?\b"
    r"(?:in\s+order\s+|so\s+as\s+)?to\s+"
    r"(?:(?:help|try|seek|aim)\s+(?:to\s+)?)?(?:\w+ly\s+)?$"
)
#: The purpose of a stated policy move, after the move ("needs to be tightened further to", "remain restrictive in
#: order to help"): an infinitive whose verb follows.
MOVE_PURPOSE = re.compile(
    r"^\s*(?:(?:further|now|again|somewhat|still|also|\w+ly)\s+)*(?:(?:in|at|by|from|for)\s+[^,;:.]{0,40}?\s+)?"
    # "additional policy firming that may be appropriate to return inflation to 2 percent"
    r"(?:(?:that|which)\s+(?:(?:may|might|would|could|will|should)\s+)?(?:be|is|are|was|were)\s+(?:\w+ly\s+)?"
    r"(?:appropriate|needed|necessary|required|warranted|sufficient)\s+)?"
    r"(?:(?:in\s+order|so\s+as)\s+)?to\s+(?:(?:help|try|seek|aim)\s+(?:to\s+)?)?(?:\w+ly\s+)?"
)
#: The purpose "to address (high) inflation": policy moved against inflation.
ADDRESS_VERB = re.compile(
    r"(?:address|combat|fight|counter|counteract|tackle|curb|rein\s+in|contain)\s+(?:the\s+)?"
    r"(?:(?:high|elevated|above-target|persistent|persistently\s+high|rising|excessive|ongoing)\s+)?"
)
#: "contribute to inflation stabilising": a target that settles has no direction.
STABILISING_AFTER = re.compile(r"\s+(?:stabilis|stabiliz|normalis|normaliz|settl)\w*\b")
#: "needs to be raised", "should be cut", "was raised": a passive after a modal, a need or a form of "be", whose
#: subject moves (read for an instrument only, when no agent follows).
AGENTLESS_MOVE = re.compile(
    r"\b(?:needs?|needed|has|have|had|ought)\s+to\s+be\s+(?:\w+ly\s+|further\s+)?$|"
    r"\b(?:is|are|was|were|has\s+been|have\s+been|had\s+been)\s+(?:\w+ly\s+|further\s+)?$|"
    r"\b(?:should|must|could|would|will|can|may|might)\s+(?:\w+ly\s+)?be\s+(?:\w+ly\s+|further\s+)?$"
)
#: "the negative consequences for growth and …", "the effects on activity": the head of a comparative predicate
#: is the effect, not the variable after it (``bad``: an adverse effect, the variable's fall).
EFFECT_FOR_BEFORE = re.compile(
    r"\b(?P<bad>(?:negative|adverse|harmful|detrimental|damaging)\s+)?(?:consequences|effects?|impacts?|costs)\s+"
    r"(?:for|on)\s+(?:the\s+)?(?:[a-z-]+\s+){0,3}?(?:(?:[a-z-]+\s+)?(?:and|or)\s+(?:the\s+)?)?$"
)
#: "if rising real incomes raise …", ", falling productivity": a movement word in -ing after a clause word and
#: before a noun the vocabulary does not name is that noun's adjective, no verb.
ADJECTIVE_ING = re.compile(r"(?:\b(?:if|as|because|when|while|with|of|by|the|a|an|and|or|from|to)\s+|,\s*)$")
ADJECTIVE_ING_NOUN = re.compile(
    r"\s+(?!(?:by|in|to|of|at|on|for|from|than|as|and|or|further|again|more|less|since|over|during|sharply)\b)"
    r"(?![a-z-]+ly\b)[a-z][a-z-]+\s+[a-z][a-z-]+"
)
#: "… to ensure that inflation …": the purpose is the state of what follows.
ENSURE_THAT = re.compile(r"(?:ensure|make\s+sure)\s+(?:that\s+)?(?:the\s+|our\s+)?(?:[a-z-]+\s+){0,2}$")
#: "… to return inflation to target", "to ensure that inflation returns to the 2 per cent target": a move toward
#: the target, which is against the gap whatever the policy move (a rise to bring it down, a cut to bring it up).
TO_TARGET_AFTER = re.compile(
    r"^\s+(?:(?:will|would|can|continues\s+to|is\s+brought)\s+)?(?:\w+ly\s+)?(?:returns?|returning|comes?\s+back|"
    r"converges?|converging|goes\s+back|gets\s+back|(?:back\s+)?(?:down\s+)?to|back\s+towards?|towards?)\s+"
    r"(?:(?:to|towards?|at)\s+)?(?:(?:(?:the|its|our|their)\s+)?(?:[\w.,%’'-]+\s+){0,5}?(?:target|goal|objective)s?\b|"
    r"\d+(?:\.\d+)?\s*(?:per\s*cent|percent|%))"
)
#: "to return inflation to target", "bring inflation back to target": the verbs before the target move.
RETURN_VERB = re.compile(
    r"(?:return|returning|bring|bringing|get|getting|steer|steering|guide|guiding)\s+|"
    # "to reach levels that are sufficiently restrictive to ensure a timely return of inflation to our target"
    r"(?:[^,;:.]{0,60}?\bto\s+)?(?:ensure|make\s+sure|secure|deliver|achieve|bring\s+about)\s+(?:an?\s+|the\s+)?"
    r"(?:(?:timely|sustained|durable|swift|gradual)\s+)?(?:return|convergence)\s+of\s+"
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
ADVERSE_EFFECT = re.compile(r"(?:adverse|negative|detrimental|harmful|damaging|dampening|restraining|downward)\s")
EFFECT_NOUN_FROM = re.compile(
    r"\b(?P<noun>drags?|headwinds?|hit|boost|lift|support|tailwinds?|"
    # "the adverse effects of rapid interest rate fluctuations on economic activity"
    # "the dampening effects from past interest rate increases on inflation"
    r"(?:adverse|negative|detrimental|harmful|damaging|dampening|restraining|downward|positive|beneficial|"
    r"favou?rable|supportive|upward)\s+(?:effects?|impacts?))\s+"
    r"(?P<order>from|to|on|of)\s+(?P<a>[^,;:.]{1,50}?)\s+"
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
#: "… to meet margin calls", "… to forcefully address high inflation": an infinitive of purpose after a noun
#: phrase, whose object is the need, never the subject of the verb that follows.
TO_PURPOSE = re.compile(
    r"\s+(?:in\s+order\s+)?to\s+(?:\w+ly\s+)?(?:meet|cover|satisfy|fund|pay\s+for|honou?r|address|tackle|combat|"
    r"fight|curb|contain|counteract|rein\s+in|bring\s+down)\s+(?:the\s+|their\s+|its\s+|any\s+)?"
)
#: "the pass-through of X to Y", "X pass-through into Y".
PASS_THROUGH_NOUN = re.compile(
    # what passes through is a noun phrase: a verb ends it ("the pass-through of higher labour costs had been
    # moderate enough to keep …": that "to" is an infinitive's, not the pass-through's target)
    r"\bpass[- ]?through\s+(?:of|from)\s+"
    r"(?P<x>(?:(?!\b(?:had|has|have|been|was|were|is|are|would|will|could|may|might)\b)[^,;:.]){1,50}?)"
    r"\s+(?:in)?to\s+(?:the\s+)?|"
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
#: "any pick-up in consumption is slower than expected": a rise that falls short of expectations.
SHORTFALL_AFTER = re.compile(
    r"\s+(?:(?:that|which)\s+)?(?:is|are|was|were|be|proves?|proved|turns?\s+out|turned\s+out)\s+(?:to\s+be\s+)?"
    r"(?:much\s+|even\s+|somewhat\s+)?"
    r"(?:slower|weaker|smaller|softer|more\s+subdued|more\s+modest|more\s+gradual)\s+than\s+"
    r"(?:expected|anticipated|projected|forecast|assumed)\b"
)
#: "…, as higher interest rates have been working to …": a subordinator right before a moved noun.
MOVED_SUBJECT_BEFORE = re.compile(r"(?:^|[,;]\s*|\s)(?:as|because|since)\s+(?:the\s+)?$")
MOVED_ADJECTIVE = re.compile(
    r"(?:higher|lower|rising|falling|tighter|looser|weaker|stronger|elevated|reduced|increased|declining|high|low)\s+$"
)
#: "elevated relative to productivity", "depressed compared with 2019": a comparison, not an effect.
COMPARED_AFTER = re.compile(r"\s+(?:relative\s+to|compared\s+(?:with|to)|in\s+comparison\s+(?:with|to))\b")
#: "employment continued to grow more slowly than the labour force": a slower pace is a fall of the rate.
SLOWER_PACE = re.compile(
    r"\s+(?:much\s+|somewhat\s+|even\s+|a\s+bit\s+|a\s+little\s+)?(?:more\s+slowly|less\s+(?:quickly|rapidly|"
    r"strongly|fast)|at\s+a\s+(?:slower|weaker|more\s+moderate)\s+(?:pace|rate))\b"
)
WEAK_PACE = re.compile(
    r"\s+(?:only\s+)?(?:slowly|modestly|moderately|sluggishly|slightly|marginally|weakly|"
    r"at\s+an?\s+(?:slow|slower|modest|moderate|subdued|weak|sluggish|gradual)\w*\s+(?:pace|rate))\b"
)
#: "X and thus Y": Y is the consequence of X ("and thereby Y" keeps the verb's subject: it acts by way of X).
THUS = re.compile(r"\band\s+(?:thus|hence|therefore|so|in\s+turn|consequently)\b")
#: "…, and increases Y", "… in the medium term and raises Y": a verb co-ordinated with an earlier one.
COORDINATED_VERB = re.compile(
    r"\b(?:and|but|or)\s+(?:also\s+|further\s+|then\s+|thereby\s+|\w+ly\s+)?"
    # "… a downside risk to the economy and could again push up the costs of energy"
    r"(?:(?:could|would|may|might|will|can|should)\s+(?:also\s+|again\s+|further\s+|\w+ly\s+)?)?"
    r"(?:(?:has\s+|have\s+|had\s+)?(?:help|helps|helped|helping)\s+(?:to\s+)?)?$"
)
BY_GERUND = re.compile(r"\bby\s+(?:\w+ly\s+)?$")
#: Heads that name causes without being one ("global factors: …", "temporary factors such as …").
FACTOR_HEADS = r"(?:factors|developments|shocks|effects|forces|reasons)"
TRANSPARENT_HEAD = re.compile(
    r"^\s+(?:the\s+)?(?:(?:prospects?|outlook|risks?|likelihood|probability|level|pace|rate|flows?|much|most|part|some|"
    r"half|all|(?:a\s+)?(?:large|significant|good)\s+(?:part|share))\s+(?:for|of)|"
    r"(?:strains?|pressures?|stress)\s+on|"
    # "was due to developments in volatile energy prices"
    r"(?:recent\s+|latest\s+)?developments\s+in(?:\s+(?:volatile|global|international))?|"
    # "due to temporary factors such as lower fuel prices", "due to global factors: oil prices, …", "driven by external
    # factors, including energy prices": the examples named are the objects
    rf"(?:[a-z-]+\s+)?{FACTOR_HEADS}(?:\s*:|,?\s+(?:such\s+as|like|including|namely)))"
    r"\s+(?:the\s+|an?\s+)?"
)

#: A reverse connector naming the cause of what precedes it ("the increase in inflation was due to …"): a rise so
#: attributed to a source named without a move is read as the source pushing it up.
CAUSE_NAMED = re.compile(
    r"(?:(?:is|was|are|were|has\s+been|had\s+been)\s+)?(?:\w+ly\s+)?(?:due\s+to|driven\s+by|owing\s+to)"
)
#: An attribution argued against: "cautioned against portraying the current high level of inflation as being the
#: result of just energy price developments".
ATTRIBUTION_REJECTED = re.compile(r"\bagainst\s+(?:portraying|seeing|viewing|interpreting|attributing|describing)\b")
#: A head before a colon that lists its members ("global factors: …").
FACTORS_NAMED = re.compile(rf"\s+(?:[a-z-]+\s+)?{FACTOR_HEADS}\s*")
DRIVEN_BY = re.compile(r"\bdriven\s+by\b")
#: An object outside the vocabulary ("the purchasing power of households") co-ordinated before a mention.
OUTSIDE_FIRST_ITEM = re.compile(
    r"\s+(?:the\s+)?[a-z-]+(?:\s+[a-z-]+)?\s+of\s+(?:the\s+)?[a-z-]+(?:\s+and\s+the\s+|\s*,\s+(?:the\s+)?)"
    r"(?:[a-z]+ing\s+)?"  # "reflected the intensification of the pandemic, persisting bottlenecks and …"
)
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

PRODUCING = re.compile(
    r"^(?:(?:is|are|was|were|been|being|remains?|remained)\s.*(?:drivers?|causes?)\s+of$|lead|led|result|cause|trigger|generat|produc|creat|give|gave|bring|brought|prompt|induc|contribut|spur|forc)"
)

#: A participial phrase set off by commas between a subject and its verb (", supported by robust demand, will").
APPOSITIVE_GAP = re.compile(
    r"(?:\s*,\s*(?:(?:which|that)\s+(?:is|are|was|were)\s+)?(?:supported|driven|helped|aided|fuell?ed|boosted|"
    r"underpinned|held\s+back|weighed\s+down|hampered|dampened|restrained|led|accompanied|amplified)\s+"
    r"(?:(?:in\s+part|partly|largely|mainly|also)\s+)?by\s+[^,;.]{1,100},|"
    # "the resilience of the labour market, by bolstering household confidence and spending, could lead to …",
    # "a weakening of demand, including owing to a sharper deceleration of bank credit, would …"
    r"\s*,\s*(?:by\s+[a-z]+ing|including\s+(?:owing\s+to|due\s+to|through|via|because\s+of))\s[^,;.–—]{1,140},|"
    # "the recent fall in energy prices, if it persisted, might slow inflation": a condition on the subject's move
    r"\s*,\s*if\s+(?:(?:it|this|these|they|that)\s+(?:persisted|persists|continued|continues|lasted|lasts|"
    r"materiali[sz]ed|proved\s+\w+)|sustained|persistent|confirmed|prolonged)\s*,|"
    # "weaker demand – for example owing to a stronger transmission of monetary policy – would ease price pressures"
    r"\s+[–—]\s[^–—;]{1,200}?\s[–—])\s*"
    r"(?:(?:would|could|may|might|will|can|should|also|further|\w+ly)\s+)*"
)
#: "owing to the general level of interest rates, weaker fixed investments and worsening housing market prospects":
#: a word in -ing after the "and" (or comma) of a list of causes, with no finite verb since the preposition, is an
#: adjective of the next item, not a verb whose subject is the item before.
LISTED_ADJECTIVE_BEFORE = re.compile(
    r"\b(?:owing\s+to|due\s+to|because\s+of|on\s+the\s+back\s+of|as\s+a\s+result\s+of|amid|reflecting|including|"
    r"such\s+as|reflected|reflects|included|includes)\s+"
    r"(?:(?!\b(?:was|were|is|are|had|has|have|would|will|could|may|might|which|that)\b)[^;:.–—(])*?(?:,|\band|\bor)\s+$"
)
#: "the latest developments in oil prices … would imply a downward impact on inflation": a head naming a move of no
#: stated direction, so the subject's move, and with it the sign, is unknown.
DIRECTIONLESS_HEAD = re.compile(
    r"\b(?:developments|changes|movements|fluctuations|swings|evolution)\s+(?:in|of)\s+(?:the\s+|recent\s+)?"
    # (items of a list may stand before the subject: "in oil prices, food commodity prices and the exchange rate")
    r"(?:[a-z-]+(?:\s+[a-z-]+){0,2},\s+)*(?:[a-z-]+\s+)?$"
)
#: Between a moved subject and its verb, the subject's causes: "lower demand for euro area exports due, for instance,
#: to a weaker world economy or an escalation in trade tensions would weigh on euro area growth".
CAUSED_SUBJECT_GAP = re.compile(
    r"\s*,?\s*(?:due|owing)\s*,?\s*(?:for\s+(?:instance|example)\s*,?\s*)?to\s+[^;.]{1,160}?\s*,?\s+"
    r"(?:(?:would|could|may|might|will|can|should|also|further|\w+ly)\s+)*"
)
#: A modal or a norm before a verb ("should support", "needs to dampen", "will help"): a role, not a stated effect.
MODAL_OR_NORM = re.compile(
    r"\b(?:should|must|shall|would|will|could|can|may|might|needs?\s+to|ought\s+to|has\s+to|have\s+to|aims?\s+to|"
    # a bare "to" too ("in order to support"), but not after a verb of continuing ("continues to dampen demand")
    r"is\s+(?:meant|designed|intended|expected|likely)\s+to|"
    r"(?<!continues )(?<!continued )(?<!continue )(?<!tends )(?<!tend )(?<!began )(?<!begins )(?<!begin )to)"
    r"\s+(?:\w+\s+){0,2}$"
)
#: "by more than expected", "by 50 basis points", "by about a quarter": the size of a move after "by", not its agent.
BY_MAGNITUDE = re.compile(
    r"\s+(?:(?:more|less|much|far|about|around|roughly|some|nearly|almost|over|under|up\s+to|at\s+least|only|just)\b|"
    r"(?:a|an)\s+(?:further\s+|cumulative\s+|total\s+|combined\s+)?(?:large|larger|small|smaller|wide|narrow|"
    r"significant|sizeable|sizable|substantial|modest|total|additional|extra|average|similar|full|quarter|half|third|"
    r"lot|little|bit|percentage|basis)\b|\d|(?:one|two|three|four|five|half|a\s+quarter)\b)"
)
#: A finite verb right after a mention: the mention is a clause's subject, not an item of a list.
FINITE_VERB_AFTER = re.compile(
    r"\s+(?:\w+ly\s+)?(?:is|are|was|were|has|have|had|will|would|could|may|might|can|should|must|started|began|"
    r"begun|continued|remained|remains|seemed|appeared|\w+ed)\b"
)
#: Words of a fading effect, its cause acting reversed ("the fading impact of past energy shocks").
_FADING = r"fading|waning|diminishing|receding|dissipating|unwinding"
#: Between two items of a list of causes, the second naming its cause's effect: ", the unfolding effects of", "and
#: the fading impact of past": a fading effect is the cause's reversal.
EFFECT_ITEM = re.compile(
    rf"\s*,?\s*(?:and\s+)?(?:the\s+|an?\s+)?(?:(?P<fading>{_FADING})\s+|"
    r"(?:unfolding|lagged|delayed|ongoing|continued|cumulative|gradual|indirect|direct|dampening|past)\s+){0,2}"
    r"(?:effects?|impacts?|influence)\s+of\s+(?:the\s+)?(?:past\s+)?"
)
#: Between two items of a list of causes: "and", "or", "as well as", or a comma ("owing to high uncertainty,
#: weakening global activity and tighter financing conditions").
LIST_JOIN = re.compile(
    r"\s*(?:,\s*(?:and\s+|or\s+)?|,?\s*(?:and|or|as well as)\s+(?:also\s+)?(?:to\s+|by\s+)?)(?:the\s+|an?\s+|some\s+)?"
)

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
COORDINATED_STATE = re.compile(
    # "if X were more forceful than expected or if Y weakened": the second condition repeats the subordinator
    r"\s*(?:\w+ly\s+)?(?:,?\s*(?:or|and|while|whereas)|;)\s+(?:(?:if|when|as)\s+)?(?:the\s+)?"
    # "as labour costs eased and (the effects of) past energy shocks faded": a second subject named by its effect
    r"(?:(?:effects?|impacts?)\s+of\s+(?:the\s+)?)?(?:past\s+|earlier\s+|previous\s+)?"
    # "if there were increases in energy prices …; a persistent worsening of …; or higher than anticipated wage rises":
    # conditions listed with semicolons, unnamed ones between
    r"|(?:[^;.]*;\s+)+(?:(?:or|and)\s+)?(?:(?:if|when|as)\s+)?(?:the\s+)?"
)
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
    # ("took hold" is not read: "…, as the global recession took hold" sets a scene more than it states a cause)
    r"(?:take|takes|took|taken|taking)\s+effect|persist(?:s|ed|ing)?|(?:kick|kicks|kicked)\s+in|"
    r"(?:work|works|worked|feed|feeds|fed)\s+through|(?:build|builds|built)\s+up|"
    # "if declining energy prices were to pass through to the prices of other goods more quickly than anticipated"
    r"(?:pass|passes|passed)\s+through|"
    # "a further easing of monetary policy was warranted": a move judged due is a move stated
    r"(?:is|are|was|were|would\s+be|will\s+be|could\s+be|may\s+be|might\s+be|has\s+been|had\s+been)\s+"
    r"(?:\w+ly\s+)?(?:warranted|appropriate|needed|required|justified|necessary))\b"
)
#: A comparative predicate after a copula ("liquidity is scarcer", "funding costs became higher").
COMPARATIVE_AFTER = re.compile(
    r"\s+(?:is|are|was|were|has\s+been|have\s+been|had\s+been|becomes?|became|become|gets?|got|grows?|grew|"
    # the risk assessment's outcome: "growth could be lower if …", "inflation could turn out higher than anticipated"
    r"(?:could|may|might|would|will|can)\s+(?:also\s+|well\s+)?(?:be|turn\s+out|prove|come\s+in)(?:\s+to\s+be)?|"
    r"turns?\s+out|turned\s+out|proves?|proved)\s+"
    # "if monetary policy was transmitted more forcefully than expected": the transmission's strength is the policy's
    r"(?:transmitted\s+)?(?:\w+ly\s+|much\s+|even\s+|somewhat\s+|a\s+little\s+|far\s+)?"
    r"(?:(higher|stronger|greater|larger|tighter|faster|more\s+(?:elevated|expensive|restrictive|volatile|pronounced|forceful|"
    r"powerful|forcefully|strongly))|"
    r"(?:lower|weaker|smaller|scarcer|thinner|looser|easier|softer|slower|cheaper|less\s+(?:elevated|expensive|forceful|powerful|"
    r"restrictive|volatile|pronounced)))\b"
    # a comparison with the expected path is a move; with anything else ("higher than in 2019") a level
    r"(?!\s+than\s+(?!(?:expected|anticipated|projected|assumed|forecast|foreseen|envisaged|currently\s+expected)\b))"
    r"(?:\s+than\s+(?:currently\s+)?(?:expected|anticipated|projected|assumed|forecast|foreseen|envisaged))?"
)
#: The words of a level kept, high or low ("stays elevated", "remains in check").
_KEPT_HIGH = r"high|elevated|strong|robust|firm|sticky|persistent"
_KEPT_LOW = r"low|weak|subdued|soft|muted|sluggish|in\s+check|contained|under\s+control|well\s+contained"
#: A level that persists: "remains far too high", "remained strong", "stays subdued", "is still too high" (outside
#: "if", where HELD_LEVEL_AFTER reads it; the same words).
PERSISTENT_LEVEL_AFTER = re.compile(
    r"\s+(?:(?:(?:is|are|was|were)\s+(?:expected|likely|projected|set|forecast)\s+to\s+|(?:will|would|should)\s+)?"
    # "had remained high", "has also stayed subdued": a perfect states the level held as well
    r"(?:(?:has|have|had)\s+(?:also\s+|still\s+)?(?=remained|stayed))?"
    r"(?:remains?|remained|stays?|stayed)\s+(?:(?:still|far|much|very|too|stubbornly|persistently)\s+){0,2}"
    rf"(?:({_KEPT_HIGH})|({_KEPT_LOW}))|"
    r"(?:is|are|was|were)\s+(?:still\s+)?(?:far\s+|much\s+)?too\s+(high))\b"
)
#: "economic activity could outperform our expectations", "inflation may surprise on the downside": a move against
#: the expected path.
SURPRISE_AFTER = re.compile(
    r"\s+(?:could|may|might|would|will|can)\s+(?:also\s+)?(?:(outperform)|(underperform))\s+(?:our\s+|the\s+)?"
    r"(?:expectations|projections)\b|"
    r"\s+(?:could|may|might|would|will|can)\s+(?:also\s+)?surprise\s+(?:on\s+|to\s+)?the\s+(?:(upside)|(downside))\b"
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
    rf"(?:\w+ly\s+|too\s+|very\s+)?(?:({_KEPT_HIGH})|(?:{_KEPT_LOW}))\b"
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
INVENTORY_BEFORE = re.compile(r"\binventory\s+$")  # "inventory investment" is no fixed investment
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
    r"(?:corrections?|declines|falls|drops|collapses?|slumps?|cuts|busts?|downturns?|reductions|decreases|"
    # "in response to labor market cooling": a cooling market is a falling one
    r"cooling|softening|weakening|slowdowns?))\b"
    r"(?!\s+(?:in|of)\b)"
)
NOMINAL_CAUSE_AFTER = re.compile(
    # "weaker demand – for example owing to …", "weaker demand, for example owing to …", "a slowing in real GDP growth,
    # in part due to …": an example's cause or a partial one set off
    r"(?:\s*[–—]|\s*,(?=\s+(?:for\s+(?:example|instance)|in\s+part|partly|largely|mainly|primarily)\b))?"
    r"\s+(?:[a-z]+\s+){0,3}?(?:mainly\s+|largely\s+|partly\s+|in\s+part\s+|primarily\s+)?"
    r"(?:due to|owing to|because of|as a result of|in response to)\s"
)
EXPERIENCED_AFTER = re.compile(
    r"\s+(?:ha(?:s|ve|d)\s+)?(?:also\s+)?(?:seen|saw|experienced|recorded|registered|undergone|underwent|witnessed|"
    r"posted|suffered|feels?|felt|feeling)\s+(?:an?\s+|some\s+|the\s+)?(?:[a-z]+\s+){0,2}?"
    r"(?:(increases?|rises?|surges?|jumps?|rebounds?|gains?|upturns?)|"
    r"(?:decreases?|declines?|falls?|drops?|corrections?|slumps?|contractions?|losses|downturns?|sell-offs?|"
    r"slowdowns?|weakness))\b"
)
IT_CAUSES = re.compile(r"^\s+(?:it|they|this)\s+(?:causes?|creates?|generates?|brings?|triggers?)\b")

#: "causes domestic demand to suffer", "leads yields to rise": the object's movement follows as an infinitive.
CAUSATIVE_BEFORE = re.compile(
    r"\b(?:caus|lead|led|prompt|induc|forc|push|drive|drove|need)\w*\s+(?:the\s+|an?\s+)?(?:[a-z-]+\s+)?$"
)
INFINITIVE_AFTER = re.compile(
    # ("volatility in financial markets owing to heightened uncertainty": "owing to" names a cause, no infinitive)
    r"^\s+(?:in\s+(?![a-z\s]{0,30}?\b(?:owing|due|thanks|prior|relative|compared|close)\s+to\b)[a-z\s]{1,30}?\s+)?"
    r"to\s+(?:\w+ly\s+)?(\w+(?:\s+(?:up|down|back|off))?)\b"
)
INFINITIVE_DOWN = frozenset(
    {"suffer", "deteriorate", "weaken", "fall", "decline", "drop", "contract", "shrink", "slow", "slow down", "cool"}
)
INFINITIVE_UP = frozenset({"rise", "increase", "surge", "climb", "jump", "soar", "grow", "pick up", "strengthen"})
#: "has contributed to inflation falling", "led to prices rising": the object's movement follows as a gerund.
CONTRIBUTED_TO_BEFORE = re.compile(
    r"\b(?:contribut\w*|lead|leads|leading|led|result\w*)\s+(?:to|in)\s+(?:the\s+)?(?:[a-z-]+\s+)?$"
)
#: A movement as a participle or gerund after a mention: "contributed to inflation falling", "in response to inflation
#: falling faster than expected" (group 1: a rise).
GERUND_MOVE_AFTER = re.compile(
    r"\s+(?:\w+ly\s+)?(?:(rising|increasing|climbing|picking\s+up|accelerating|strengthening|surging)|"
    r"(?:falling|declining|dropping|decreasing|slowing|weakening|moderating|coming\s+down|easing|receding))\b"
)

#: A mention followed by one of these nouns only modifies another head ("export competitiveness",
#: "trade balance", "equity exposures"): the phrase names something else than the variable.
HEAD_SHIFT = re.compile(
    r"\s+(?:competitiveness|balances?|exposures?|shares?|sectors?|firms|companies|industr(?:y|ies)|"
    r"intensity|dependence|dependency|content|components?|multipliers?|forecasts?|projections?|"
    r"data|statistics|indicators?|gaps?|intervals?|bands?|capacity|capacities|ability|surveys?)\b|"
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
    # "lower potential output would imply higher inflationary pressures": supply capacity, not GDP ("potential growth"
    # stays GDP's: the labellers of the BIS papers read it so)
    "real_gdp": re.compile(r"\b(?:potential|supply-side|nominal)\s+$"),
    "credit_growth": re.compile(r"\b(?:securities|repo|stock)\s+$"),
    # "the unwinding of carry trades": positions in markets, not trade in goods
    "trade_volumes": re.compile(r"\b(?:carry|crowded|basis|leveraged|hedging)\s+$"),
    "corporate_defaults": re.compile(r"\bby\s+$"),
    "consumption": re.compile(r"\b(?:energy|oil|gas|electricity|fuel|water|power)\s+$"),
    # "banks' equity", "their equity", "tangible common equity": capital, not equity prices
    "equity_prices": re.compile(r"(?:\bbanks?['’]?|\btheir|\bits|\bshareholders['’]?|\btangible|\bcommon|\bown)\s+$"),
}

#: "in all advanced foreign economies", "across emerging market economies": economies named as the place where
#: something moves, not as the economy that moves (the mention must end the match: "economies").
PLACE_BEFORE = re.compile(
    r"\b(?:in|across|among)\s+(?:(?:all|many|most|some|several|other|the|these|those|both|major|advanced|"
    r"emerging(?:\s+market)?|developing|large|small|key|euro[- ]area)\s+)*$"
)

#: A place ("in all advanced foreign economies"), a time ("in the current quarter") or a degree adverb ("primarily")
#: between a movement and its cause.
PLACE_OR_DEGREE = re.compile(
    r"\b(?:(?:in|across|among)\s+(?:[a-z-]+\s+){0,4}(?:economies|countries|regions|districts)|"
    # a time: "in the current quarter and the next quarter", "over the coming months", "this year"
    r"(?:in|over|during|for|until)\s+(?:the\s+)?(?:current|next|coming|following|first|second|third|fourth|last|"
    r"past|near|medium|short)\s+(?:quarters?|months?|years?|term)(?:\s+and\s+(?:the\s+)?(?:current|next|coming|"
    r"following)\s+(?:quarters?|months?|years?))?|this\s+(?:quarter|month|year)|next\s+(?:quarter|month|year)|"
    # "since the Governing Council's previous monetary policy meeting"
    r"since\s+the\s+(?:governing\s+council['’]s\s+)?(?:previous|last|[a-z]+)\s+(?:monetary\s+policy\s+)?meeting|"
    # "over the intermeeting period", "on net", "on balance": the minutes' time and netting phrases
    r"(?:over|during)\s+the\s+(?:intermeeting\s+)?period|on\s+(?:net|balance)|"
    r"primarily|mainly|largely|partly|in\s+part|importantly|chiefly|mostly)\b|"
    # a figure and its month: "increased markedly to 5.6% in February, from 5.3% in January"
    r"\b(?:to|from|by|at)\s+(?:about\s+|around\s+)?-?\d+(?:\.\d+)?\s*(?:%|per\s*cent\b|percentage\s+points?\b)"
    r"(?:\s+in\s+(?:january|february|march|april|may|june|july|august|september|october|november|december)\b)?"
)

#: "the default of the five hedge funds", "defaults by banks": the default of a named non-corporate entity
#: (a fund, a bank, a sovereign, a counterparty) is not the corporate default rate.
NON_CORPORATE_DEFAULT = re.compile(
    r"^\s+(?:of|by|on)\s+(?:the\s+|an?\s+|one\s+|two\s+|three\s+|four\s+|five\s+|several\s+|some\s+)?"
    r"(?:[a-z-]+\s+){0,3}?(?:hedge\s+funds?|funds?|banks?|counterpart(?:y|ies)|sovereigns?|governments?|"
    r"countr(?:y|ies)|dealers?|brokers?|clearing\s+members?|central\s+counterpart(?:y|ies)|ccps?)\b"
)

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
    # "uncertainty around the future path of policy rates"
    r"(?:the\s+|future\s+|us\s+|u\.s\.\s+|(?:expected\s+)?(?:path|course|pace|direction|outlook)\s+(?:of|for)\s+)*$"
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
    r"(?:^|[,;(]|\b(?:the|of|in|on|and|or|to|as|when|while|if|because|amid|with|overall|total|final|economy-wide|excess|"
    r"weak|weaker|strong|stronger|soft|softer|softening|slower|slowing|subdued|reduced|lower|higher|falling|rising|"
    r"weakening|strengthening|sluggish|robust|solid|resilient|reduce[sd]?|reducing|lower(?:s|ed|ing)|"
    r"dampen(?:s|ed|ing)?|boost(?:s|ed|ing)?|support(?:s|ed|ing)?|weigh(?:s|ed|ing)? on|cool(?:s|ed|ing)?|"
    # verbs acting on the economy's demand ("working to slow demand", "policies that stimulate demand")
    r"slow(?:s|ed)?|curb(?:s|ed|ing)?|restrain(?:s|ed|ing)?|temper(?:s|ed|ing)?|weaken(?:s|ed|ing)?|"
    r"strengthen(?:s|ed|ing)?|stimulat(?:e|es|ed|ing)|depress(?:es|ed|ing)?|hurt(?:s|ing)?))\s+$"
)
#: Variables whose volatility is not market volatility.
MACRO_LEVELS = frozenset(
    {"inflation", "real_gdp", "employment", "unemployment", "wages", "consumption", "investment", "productivity"}
)
#: Consumption and investment of the vocabulary are private: "government consumption", "public
#: investment", "government consumption and investment" (the list shares the modifier) are not.
PRIVATE_ONLY = frozenset({"consumption", "investment"})
#: "higher financing costs for governments": the cost of a sovereign's borrowing, not of private credit.
SOVEREIGN_AFTER = re.compile(r"\s+(?:for|of|to)\s+(?:the\s+)?(?:governments?|sovereigns?|states|the\s+state)\b")
PRIVATE_CREDIT = frozenset({"lending_rates", "financing_conditions", "credit_growth"})
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

#: "reducing policy restraint too soon could risk a stalling or a reversal of the progress on inflation": an agent
#: before (AGENT_TO_SETBACK) a setback to the progress on inflation (PROGRESS_SET_BACK, ending where inflation is
#: named) raises inflation against its expected fall.
PROGRESS_SET_BACK = re.compile(
    r"\b(?:(?:risk|risks|risked|risking|cause|causes|caused|causing|lead\s+to|leads\s+to|led\s+to|mean|result\s+in)\s+"
    r"(?:a\s+|an\s+|some\s+)?(?:stalling|reversal|stall|halt|setback|slowing|unwinding)"
    r"(?:\s+(?:or|and)\s+(?:a\s+|an\s+|even\s+a\s+)?(?:stalling|reversal|halt|setback|slowing|unwinding))?"
    r"\s+(?:of|in|to)\s+|"
    r"(?:stall|stalls|stalled|stalling|reverse|reverses|reversed|reversing|derail|derails|derailed|derailing|halt|halts|"
    r"halted|halting|undo|undoing|undermine|undermines|undermined|undermining)\s+)"
    r"(?:the\s+|further\s+|recent\s+|continued\s+|hard-won\s+|some\s+of\s+the\s+)*"
    r"progress\s+(?:on|in|toward|towards|made\s+on)\s+(?:(?:reducing|lowering|bringing\s+down)\s+)?(?:the\s+)?$"
)
#: Between the agent and the setback: a timing ("too soon or too much"), a comma, "thereby", a hedge and a modal.
AGENT_TO_SETBACK = re.compile(
    r"\s*(?:too\s+(?:soon|quickly|early|much|fast|late|slowly)(?:\s+or\s+too\s+(?:soon|quickly|early|much|fast|late|"
    r"slowly))?\s*)?,?\s*(?:thereby\s+)?(?:possibly\s+|potentially\s+)?"
    r"(?:(?:could|would|might|may|can|will)\s+(?:also\s+|well\s+)?)?$"
)

#: A labour market that rebalances, or comes into better balance, cools: its demand falls towards its supply.
LABOUR_REBALANCED_AFTER = re.compile(
    r"(?:\s+conditions|\s+and\s+supply)?\s+(?:(?:had|have|has|were|was|is|are)\s+)?(?:(?:generally|gradually|further)\s+)?"
    r"(?:(?:continued|continuing|continues|continue|to)\s+(?:to\s+)?)?"
    r"(?:rebalanced|rebalances|rebalance|rebalancing|(?:come|came|comes|coming|move|moved|moves|moving)\s+into\s+"
    r"(?:better|closer)\s+balance)\b"
)
LABOUR_REBALANCING_BEFORE = re.compile(
    r"\b(?:rebalancing|better\s+balance)\s+(?:of|in|between)\s+(?:the\s+)?(?:supply\s+and\s+demand\s+(?:in|of)\s+(?:the\s+)?)?$"
)

#: Prices of assets: a "repricing" of them is a fall.
PRICE_LEVELS = frozenset({"equity_prices", "house_prices", "commercial_property_prices", "asset_prices"})

#: "Profits absorbed the rise in labour costs", "wage growth buffered by lower profits", "the absorption of higher
#: labour costs by lower profit margins": what profits absorb or buffer is a cost they pay for (rule
#: ``profits_absorb``).
ABSORB = re.compile(
    r"\b(?:absorb(?:s|ed|ing)?|absorption|buffer(?:s|ed|ing)?|cushion(?:s|ed|ing)?|"
    # "profits had started to mitigate the inflationary effects of wage increases"
    r"(?:mitigat|moderat|dampen|offset)\w*(?=\s+(?:the\s+|some\s+of\s+the\s+|part\s+of\s+the\s+)?"
    r"(?:inflationary\s+)?(?:effects?|impacts?)\s+of\b))\b"
)
#: Between the absorbing verb and the cost it absorbs: "absorb part of the rise in", "buffer the pass-through of".
ABSORBED_COST = re.compile(
    r"\s+(?:(?:the|a|an|some|part|much|most|of|rise|rises|increase|increases|in|growth|impact|pass-through|"
    r"inflationary|effects?|pressures?|higher|rising|high|against|first|further|partly|partially|unit|\w+ly)\s+){0,6}$"
)
#: Between the cost and the profits that absorb it: "labour costs … buffered by (lower) profits", "absorbing labour
#: costs through their profits", "via a compression of profit margins".
ABSORBED_BY = re.compile(
    r"^\s+(?:(?:had|has|have|been|being|be|was|were|is|are|would|could|increasingly|partly|partially|\w+ly)\s+)*"
    r"(?:(?:absorb\w*|buffer\w*|cushion\w*)\s+)?(?:by|through|via|with)\s+"
    r"(?:(?:their|the|a|an|lower|falling|compressed|compression|of|in|firms'|firms’)\s+){0,4}$"
)
#: "The transmission of past rate hikes to broader financing conditions", "monetary policy had been transmitted
#: strongly to financing conditions": the move carried to where it is transmitted (rule ``transmitted_to``).
TRANSMISSION_OF = re.compile(r"\btransmission\s+of\s+")
TRANSMITTED = re.compile(r"\b(?:transmitted|transmitting)\s+(?:\w+ly\s+)?(?:in)?to\s+")
TRANSMITTED_TO = re.compile(
    r"^\s+(?:stance\s+)?(?:\w+ly\s+)?(?:(?:was|were|had|has|been|being|be)\s+)*(?:\w+ly\s+)?(?:in)?to\s+"
)
#: Where a transmission reaches: "to (the) broader financing conditions (for firms and households)".
#: ("… to risk-free interest rates and to financing conditions": a list's unnamed items may come first)
TRANSMITTED_WHERE = re.compile(
    r"^\s*(?:(?:[a-z-]+\s+){1,4}(?:and|,)\s+(?:to\s+)?)?"
    r"(?:(?:the|broader|wider|overall|bank|market|euro\s+area|euro-area|private\s+sector|corporate)\s+){0,3}$"
)
#: "Rates at levels that make a substantial contribution to the disinflation process / to returning inflation to
#: target": the source's contribution is to a fall in inflation (rule ``contribution_to_disinflation``).
CONTRIBUTION_TO_DISINFLATION = re.compile(
    r"\bcontribut(?:ion|ions|e|es|ed|ing)\s+to\s+(?:the\s+|our\s+|its\s+|this\s+|a\s+)?(?:(?:ongoing|further|final|phase|of|"
    r"the|ecb's|ecb’s|goal|aim)\s+){0,5}(?:(?=disinflation)|(?:the\s+)?(?:timely\s+)?return(?:ing)?\s+(?:of\s+)?"
    r"(?=inflation\s+to\b))"
)
#: Between a cost and the passive verb of its absorption: "wage growth would be buffered", "labour costs were being
#: increasingly absorbed".
ABSORBED_PASSIVE = re.compile(
    r"\s+(?:(?:had|has|have|been|being|be|was|were|is|are|would|could|will|should|continue|continues|continued|"
    r"to|\w+ly)\s+)+"
)
#: Financing costs and terms that a tightening transmitted to them raises.
TRANSMISSION_TARGETS = frozenset(
    {"financing_conditions", "bank_funding_costs", "lending_rates", "lending_standards", "mortgage_rates"}
)
#: "the (gradually) fading effects of restrictive monetary policy": what acts is the cause's reversal.
FADING_EFFECT_BEFORE = re.compile(
    rf"\b(?:{_FADING})\s+(?:effects?|impacts?|drag|influence)\s+of\s+"
    r"(?:the\s+)?(?:past\s+|previous\s+|earlier\s+)?$"
)
#: After a policy-rate mention: the level it is kept at is restrictive ("policy rates, through its future decisions,
#: at sufficiently restrictive levels", "keep policy rates sufficiently restrictive", "rates in restrictive territory").
#: ("raising interest rates significantly at a steady pace and in keeping them at levels that were sufficiently
#: restrictive", "to bring the key ECB interest rates to levels that would ensure a return of inflation to target")
RESTRICTIVE_AFTER = re.compile(r"^[^;.]{0,110}?\b(?:restrictive|levels\s+that\s+(?:would|will|should)\s+ensure)\b")
#: After a tightness variable, its support named ("monetary policy support was still needed", "financing conditions
#: remained sufficiently supportive"): the instrument held loose.
SUPPORT_AFTER = re.compile(
    r"^\s+(?:support|accommodation)\b|"
    r"^\s+(?:(?:would|should|must|needed\s+to|had\s+to)\s+)?(?:remain(?:ed|s)?|stay(?:ed|s)?|be|were|was|is|are)\s+"
    r"(?:\w+ly\s+)?(?:supportive|accommodative)\b"
)
#: An inflation mention named as the goal of that support: "for inflation to stabilise at the target", "to allow
#: inflation to stabilise", "to prevent inflation falling below the target".
SUPPORT_GOAL_BEFORE = re.compile(r"\b(?:for|allow|enable|ensure|prevent|help)\s+$")
SUPPORT_GOAL_AFTER = re.compile(
    r"^\s+(?:to\s+)?(?:(?:stabilise|stabilize|converge|return|be\s+maintained)\b|(?:from\s+)?falling\s+below\b)"
)
#: Before an inflation mention whose return to target is a goal: "to bring", "to ensure that", "a timely return of"
#: ("with inflation back to target" states where it is, not a goal).
TARGET_GOAL_BEFORE = re.compile(
    r"\b(?:to|ensure|ensuring|achieve|achieving|bring|bringing|return\s+of|convergence\s+of)\s+(?:[\w’'-]+\s+){0,3}$"
)
#: Before monetary policy: a transmission stronger (weaker) than expected is more (less) tightening: "weaker demand,
#: owing to a stronger transmission of monetary policy".
TRANSMISSION_STRENGTH_BEFORE = re.compile(
    r"\b(?:(?P<up>stronger|more\s+forceful|more\s+powerful)|(?:weaker|less\s+forceful|less\s+powerful))\s+"
    r"(?:than\s+(?:expected|anticipated)\s+)?transmission\s+of\s+(?:the\s+)?$"
)
#: After a level held, the "as" clause giving its reason starts with its subject: "domestic inflation remained high, as
#: wages were still rising".
#: "inflation remained much too high and the labor market remained tight; as a result, they anticipated that some
#: additional policy firming may be appropriate": a consequence connector after a stated movement (or level held).
CONSEQUENCE_GAP = re.compile(
    r"[^.;]{0,80}?[;,]\s*(?:and\s+)?(?:as\s+a\s+(?:result|consequence)|consequently|therefore|accordingly)\s*,\s*[^;.]{0,80}$"
)
HELD_BECAUSE = re.compile(r"\s*,\s*as\s+(?:the\s+)?(?:[a-z-]+\s+){0,2}")
#: After a moved policy rate, the verb of its working through to a target: "the past monetary policy tightening
#: gradually feeding through to consumer prices", "as the monetary policy tightening … fed through to the real economy".
POLICY_FEEDS_THROUGH = re.compile(
    r"\s+(?:(?:has|have|had|is|are|was|were|continues?\s+to|continued\s+to|would|will)\s+)?(?:\w+ly\s+)?"
    r"(?:feed|feeds|fed|feeding|pass|passes|passed|passing|work|works|worked|working)\s+(?:its\s+way\s+|their\s+way\s+)?"
    r"through\s+(?:in)?to\s+(?:the\s+)?(?:broader\s+|wider\s+|real\s+)?"
)
#: "The impact of tighter monetary policy was starting to become more visible in financing conditions": the head
#: before a moved policy rate and, after it, where its working is seen (rule ``policy_feeds_through``).
POLICY_IMPACT_BEFORE = re.compile(r"\b(?:impacts?|effects?|transmission)\s+of\s+(?:the\s+)?(?:past\s+|earlier\s+)?$")
POLICY_SEEN_IN = re.compile(r"[^.;,]{0,50}?\b(?:visible|evident|apparent|felt)\s+in\s+")
#: What a policy move working through lowers (a tightening lowers prices and spending) and what it raises in its own
#: direction (a tightening raises the cost and tightness of credit).
POLICY_LOWERS = frozenset(
    {"inflation", "real_gdp", "consumption", "investment", "construction_activity", "house_prices", "credit_growth"}
)
#: After a moved variable, its move leaving the year-on-year comparison (a base effect, which acts against the move):
#: "previous sharp falls in energy prices would drop out of the annual rates".
DROPS_OUT_AFTER = re.compile(
    r"\s+(?:(?:would|will|had|have|has|were\s+to|was\s+to)\s+)?(?:\w+ly\s+)?(?:drop|drops|dropped|dropping|fall|falls|fell)"
    r"\s+out\s+of\s+(?:the\s+)?(?:annual|yearly|year-on-year|twelve-month|12-month)"
)
DROP_OUT = re.compile(r"(?:drop|drops|dropped|dropping|fall|falls|fell)\s+out\s+of\b")
#: After a moved variable, the move stopped: "the decline in inflation had been interrupted".
INTERRUPTED_AFTER = re.compile(
    r"\s+(?:(?:has|had|have|was|were)\s+)?(?:been\s+)?(?:\w+ly\s+)?(?:interrupted|halted|stalled|paused|reversed)\b"
)
#: After price pressures, where they come from: "domestic price pressures, including from rising wages and still robust
#: profits", "strong price pressures coming especially from wages".
PRESSURES_FROM = re.compile(
    r"\s*,?\s*(?:(?:including|notably|especially|mainly|mostly|largely|particularly|in\s+particular)\s+)?"
    r"(?:(?:coming|stemming|arising|emanating)\s+)?(?:(?:especially|mainly|mostly|largely|notably|in\s+particular)\s+)?"
    r"from\s+(?:the\s+)?"
)
#: "Wage pressures were becoming an increasingly important source of inflation", "strong wage growth was a key driver
#: of inflation": the source before the copula, the target after "driver of".
IS_DRIVER_OF = re.compile(
    r"\s+(?:is|was|are|were|(?:has|have|had)\s+(?:again\s+|also\s+|still\s+)?(?:been|become)|becomes?|became|remains?|"
    r"remained|would\s+(?:be|remain)|(?:continued|continues|continue)\s+to\s+be)\s+"
    r"(?:(?:becoming|increasingly|still|now|also|thus|therefore|by\s+far)\s+)*"
    r"(?:an?|the|one\s+of\s+the)\s+(?:(?:increasingly|very|particularly|more|most)\s+)?"
    r"(?:(?:important|key|main|major|significant|dominant|principal|primary|strong)\s+)?"
    r"(?:drivers?|sources?|determinants?|contributors?\s+to|components?|reasons?\s+for|factors?\s+(?:for|behind))\s+"
    r"(?:of\s+)?"
    r"(?:the\s+|this\s+|overall\s+)?"
    r"(?:(?:persistence|dynamics|level)\s+of\s+)?"
)
#: "Energy prices, which had been driven higher after the outbreak of the war, continued to be the main reason for
#: …": a relative clause between a subject and its copula.
RELATIVE_ASIDE = re.compile(r",\s+which\b[^,;:]{1,200},")
#: "The war in Ukraine constituted a substantial upside risk to energy prices": a copula naming its subject a risk to
#: the variable after it, with the risk's direction.
IS_RISK_TO = re.compile(
    # "the war in Ukraine", "commodity price increases"
    r"(?:\s+(?:in|of|on|against)\s+(?:the\s+)?[a-z]+|\s+(?:increases|rises|surges|spikes|declines|falls))?"
    r"\s+(?P<verb>(?:is|was|are|were|remains?|remained|(?:has|have|had)\s+been|would\s+be|constitutes?|constituted|"
    r"poses?|posed|represents?|represented|"
    # "the possibility that geopolitical events could generate commodity price increases was also seen as an upside
    # risk to inflation"
    r"(?:is|was|are|were)\s+(?:also\s+)?(?:seen|viewed|regarded|cited|noted)\s+as)\s+(?:also\s+)?(?:an?|the)\s+"
    r"(?:[a-z]+\s+){0,2}?(?P<dir>upside|downside)\s+risks?)"
    r"\s*,?\s*(?:(?:especially|particularly|notably|mainly|primarily|in\s+particular)\s+)?(?:to|for)\s+"
    r"(?:the\s+)?(?:euro[- ]area\s+)?"
)
#: "increased energy costs – and price increases more broadly – were headwinds for consumption": a copula naming its
#: subject a headwind (drag) or a tailwind to the variable after it.
IS_HEADWIND_FOR = re.compile(
    r"(?:\s*[–—-][^–—;]{1,80}[–—])?"  # a parenthetical between dashes
    r"\s+(?P<verb>(?:is|was|are|were|remains?|remained|(?:has|have|had)\s+been|would\s+be|acted\s+as|constituted)\s+"
    r"(?:also\s+)?(?:an?\s+)?(?:[a-z]+\s+)?(?P<dir>headwinds?|drags?|tailwinds?))\s+(?:for|on|to)\s+(?:the\s+)?"
)
#: After a comparative: a head naming a likelihood or an incentive ("the bigger the risk that …").
LIKELIHOOD_HEAD = re.compile(
    r"\s+(?:the\s+)?(?:risks?|likelihood|chances?|probability|incentives?|temptation|danger)\b"
)
