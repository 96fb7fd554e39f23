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

#: Words and numbers; a footnote number glued to a word ("earnings1") is a token of its own, and a
#: typographic apostrophe ("banks’") is read as a plain one.
TOKEN = re.compile(r"[A-Za-z]+(?:['’]s)?|[0-9]+")
REFERENCE_RULES = ("zero", "last_observed")


def stem(word: str) -> str:
    """Lower-case ``word`` and strip plural inflection ("prices" → "price", "losses" → "loss")."""
    w = word.lower().replace("’", "'")
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


#: A verb whose object is a bare "growth"/"activity" moves the economy ("stimulate growth", "cooled activity").
GROWTH_VERB = re.compile(
    r"(?:stimulat|spur|boost|support|sustain|lift|slow|cool|weaken|strengthen|restrain|curb|hamper|hinder|dampen|"
    r"depress|drag|hurt|damag|undermin|reviv|restor|promot|foster|bolster|encourag|rais|lower|reduc|weigh|"
    r"underpin|dent|stall|revitali[sz]|jumpstart|kickstart|accelerat|constrain|limit|impair)\w*"
)


#: "activity in our trading partners", "demand abroad", "growth in the rest of the world": the economy named
#: is foreign, so the mention is external demand, not domestic real GDP.
FOREIGN_AFTER = re.compile(
    r"^\s+(?:(?:of|in|among|across|from)\s+(?:(?:the|our|its|their|[a-z]+['’]s)\s+)?"
    r"(?:(?:other|major|main|key|largest|biggest|foreign|overseas|international)\s+)*"
    r"(?:trading\s+partners?|trade\s+partners?|partner\s+(?:countries|economies)|foreign\s+economies|"
    r"export\s+markets|the\s+rest\s+of\s+the\s+world)|abroad|overseas)\b"
)
FOREIGN_CAPABLE = frozenset({"growth", "activity", "economic growth", "economic activity", "demand", "gdp growth"})
#: "Chinese aggregate demand", "China's domestic demand": China's economy (foreign to every publisher in the gold set).
CHINESE_BEFORE = re.compile(r"\b(?:chinese|china['’]s)\s+(?:aggregate\s+|domestic\s+|economic\s+)?$")


def _bare_growth_is_gdp(low: str, m: Mention) -> bool:
    """A bare "growth"/"activity" names the economy unless a noun claims it ("X growth", "growth of X")."""
    window = low[max(0, m.start - 40) : m.start]
    # "For 2023, growth had been revised up": a word before a comma claims nothing after it
    before = [] if re.search(r"[,;:(]\s*$", window) else re.findall(r"[a-z0-9'-]+", window)
    last = before[-1] if before else ""
    # "weigh on activity", "drag on growth": the preposition of a verb acting on the economy
    verb_on = (
        len(before) >= 2
        and last == "on"
        and bool(GROWTH_VERB.fullmatch(before[-2]))
        and not (len(before) >= 3 and before[-3] in ("the", "a", "an", "this", "that", "its"))  # "the drag on activity"
    ) or (
        # "restrictive monetary policy continued to be a drag on activity": a drag stated with its copula
        len(before) >= 4
        and last == "on"
        and before[-2] in ("drag", "brake", "weight")
        and before[-3] == "a"
        and before[-4] in ("be", "been", "being", "is", "are", "was", "were", "remains", "remained", "as")
    )
    if (
        last
        and not verb_on
        and last not in MACRO_MODIFIERS
        and not last.endswith("ly")
        and not GROWTH_VERB.fullmatch(last)
    ):
        return False
    # "activity" alone is as often trading or issuance activity: it names the economy only with a
    # macroeconomic adjective ("weak activity", "real activity"), never after a bare article or preposition.
    if m.text.lower() == "activity" and not verb_on and (not before or before[-1] in FUNCTION_WORDS):
        return False
    after = low[m.end : m.end + 40]
    if re.match(
        # ("a lower growth rate of loans to households": the rate of another noun's growth)
        r"\s+(?:rates?\s+)?(?:of|in)\s+(?!the\s+(?:economy|euro\s+area|eu|us|region|country)|gdp|output|the\s+economy)"
        r"(?!(?:the\s+)?(?:euro\s+area|eu|us|united|china|advanced|emerging|major|most|many|some|several|"
        r"europe|japan|germany|france|italy|spain|the\s+world|[a-z]+\s+economies))"
        # a time is no noun that claims the growth ("growth in the third quarter", "activity in 2025")
        r"(?!(?:the\s+|this\s+|that\s+)?(?:(?:first|second|third|fourth|final|last|past|coming|next|previous|latest|"
        r"recent|current|same)\s+)?(?:quarters?|half|halves|years?|months?|weeks?)\b|q[1-4]\b|(?:19|20)\d\d\b|"
        r"(?:january|february|march|april|may|june|july|august|september|october|november|december)\b)",
        after,
    ):
        return False
    return True


#: A bare "economy" names real GDP ("slow the economy", "the economy weakened") only in the singular
#: after a determiner or an adjective; "economies" are countries ("advanced economies").
ECONOMY_BEFORE = re.compile(r"\b(?:the|our|this|an?|their|its|[a-z]+['’]s|[a-z]+(?:er|ing|ed|al|an|ian))\s+$")
#: "spread through the economy", "sectors of the economy": the economy is a place, or another noun is the head.
ECONOMY_PLACE = re.compile(
    r"\b(?:through|throughout|across|into|within|(?:sectors?|parts?|segments?|areas?|corners?|sides?|structure|"
    r"fundamentals|rate|capacity|share|size|composition)\s+of)\s+(?:the|our|this|an?)\s+(?:[a-z]+\s+)?$"
)


#: "prices in the economy", "slack within the economy": a noun located in the economy is the head, unless it
#: is a move of the economy itself ("weakness in the economy", "a slowdown in the economy").
ECONOMY_LOCATED = re.compile(
    r"\b(?!(?:weakness|strength|slowdown|slowing|downturn|growth|recovery|rebound|contraction|expansion|"
    r"deterioration|improvement|softening|weakening|strengthening|pickup|momentum|demand|activity)\b)"
    r"[a-z]+\s+(?:in|within)\s+(?:the|our|this)\s+$"
)


#: "the digital economy", "the green economy": a sector or a kind of economy, not output.
ECONOMY_SECTOR = re.compile(
    r"\b(?:digital|green|gig|informal|sharing|platform|knowledge|circular|low-carbon|net-zero|data|creative|"
    r"services?|shadow|cash|tokeni[sz]ed|crypto|political|market|planned|command|open|small|large|emerging|advanced)\s+$"
)


def _bare_economy_is_gdp(low: str, m: Mention) -> bool:
    if m.text.lower() != "economy" or low[m.end : m.end + 1] == "-":
        return False  # "economies" are countries; "economy-wide" modifies another noun
    before = low[max(0, m.start - 50) : m.start]
    if ECONOMY_PLACE.search(before) or ECONOMY_LOCATED.search(before) or ECONOMY_SECTOR.search(before):
        return False
    return bool(ECONOMY_BEFORE.search(before))


#: A bare "interest rate(s)" is the policy rate a central bank sets ("higher interest rates", "cut interest
#: rates"), unless an adjective names another rate ("real interest rates" of the natural-rate literature) or
#: the phrase modifies another head ("interest rate risk", "interest rate swaps").
OTHER_RATE_BEFORE = re.compile(
    r"\b(?:real|neutral|natural|nominal|equilibrium|risk-free|market|deposit|savings|fixed|floating|variable|"
    r"effective|average|implied|forward|shadow|composite|zero|negative|posted|retail|tax)\s+$"
)
RATE_HEAD_AFTER = re.compile(
    r"^\s*(?:-|risks?|channels?|swaps?|paths?|differentials?|uncertainty|stress|environment|sensitivit(?:y|ies)|"
    r"exposures?|hedg\w*|derivatives?|products?|expectations?|outlook|cycles?|levels?|structure|curve|markets?|"
    r"spreads?|gaps?|rules?|setting|shocks?|developments|normali[sz]ation|volatility|futures|sensitive)\b"
)
#: "interest rates on business loans", "rates paid on deposits", "rates of return": the rate of an asset.
RATE_OF_ASSET_AFTER = re.compile(
    r"^\s+(?:(?:paid|charged|earned|offered|of)\b|(?:on|for)\s+(?:(?:the|their|its|our|bank|business|household|"
    r"consumer|new|existing|variable|fixed|outstanding)\s+)*(?:loans?|lending|mortgages?|deposits?|savings|bonds?|debt|"
    r"credit|assets?)\b)"
)
#: A bare "rates" is the policy rate only as the object or subject of a rate move ("cut rates",
#: "higher rates", "as rates rise"); "tax rates", "vacancy rates" or "loss rates" are other rates.
BARE_RATES_BEFORE = re.compile(
    r"\b(?:cut|cuts|cutting|raise[sd]?|raising|hike[sd]?|hiking|lower(?:ed|ing)?|higher|rising|falling|"
    r"increas(?:e|es|ed|ing)|reduc(?:e|es|ed|ing)|moved|move|moving|keep|kept|holding|hold|held|"
    r"low|high|elevated)\s+(?:interest\s+)?$"
)
BARE_RATES_AFTER = re.compile(
    r"^\s+(?:rise|rose|risen|rising|fall|fell|fallen|falling|increase|decline|go\s+up|go\s+down|"
    r"are\s+(?:high|higher|low|lower|rising|falling))\b"
)
RATE_MOVE_AFTER = re.compile(r"^\s+(?:cuts?|reductions?|increases?|hikes?|rises?|declines?|decreases?)\b")
CLAUSE_START = re.compile(r"(?:^|[,;]\s*|\b(?:as|when|if|while|and|because|since)\s+)$")


def _bare_rate_is_policy(low: str, m: Mention) -> bool:
    """Whether a bare "interest rate(s)" or "rates" names the policy rate (other synonyms always do)."""
    text = m.text.lower()
    before = low[max(0, m.start - 40) : m.start]
    after = low[m.end : m.end + 40]
    if text in ("interest rate", "interest rates"):
        if OTHER_RATE_BEFORE.search(before) or re.search(r"[a-z]-$", before):
            return False
        if (
            text == "interest rate"
            and not re.search(r"\b(?:the|its|our|their|a)\s+(?:policy\s+)?$", before)
            and not RATE_MOVE_AFTER.match(after)
        ):
            return False  # the singular is mostly a modifier ("interest rate risk"), or a move ("interest rate cuts")
        return not (RATE_HEAD_AFTER.match(after) or RATE_OF_ASSET_AFTER.match(after))
    if text == "rates":
        if RATE_HEAD_AFTER.match(after) or RATE_OF_ASSET_AFTER.match(after):
            return False
        return bool(BARE_RATES_BEFORE.search(before) or (CLAUSE_START.search(before) and BARE_RATES_AFTER.match(after)))
    return text != "rate"  # a bare singular "rate" is any rate ("the natural rate")


#: In market commentary, bare "interest rates" are market yields: a sentence about bonds, yields,
#: Treasuries, equities or a market shock reads them as the long-term rate, not the policy rate.
MARKET_CONTEXT = re.compile(
    r"\b(?:bonds?|yields?|treasur(?:y|ies)|equit(?:y|ies)|stocks?|securities|swaps?|market\s+shocks?|"
    r"term\s+premi\w*|(?:equity|bond|financial|capital)\s+markets?)\b"
)
#: "home equity", "the housing stock", "banks' equity": no market of the commentary sense.
NOT_A_MARKET = re.compile(
    r"\b(?:home|housing|capital|bank|banks['’]?|their|its|own|shareholders['’]?)\s+(?:equity|stocks?)\b"
)
POLICY_ACTOR = re.compile(
    r"\b(?:central\s+banks?|monetary\s+policy|governing\s+council|fomc|federal\s+reserve|the\s+fed|"
    r"the\s+bank|the\s+board|the\s+committee|we|our|policymakers|the\s+ecb|the\s+rba)\b"
)


#: "a set of economic conditions characterised by …": a definition names a kind, not a move.
KIND_OF = re.compile(r"\b(?:set|range|combination|variety|mix|array|kinds?|types?|sorts?)\s+of\s+$")
#: "low and stable inflation", "predictable inflation": price stability is a regime, not a move of inflation.
STABLE_BEFORE = re.compile(r"((?:\b(?:low|stable|predictable|steady)\b\s*(?:,|and)?\s*)+)$")
#: "a global currency", "local currency bonds", "currency markets": a currency that is no exchange rate.
CURRENCY_OTHER_BEFORE = re.compile(
    r"\b(?:local|single|fiat|global|reserve|digital|common|foreign|international|domestic|national|hard|anchor|own|"
    r"of|new|crypto|virtual|basket\s+of)\s+$"
)
#: A bare "euro" or "dollar" is the exchange rate only as a currency that moves ("the euro appreciated",
#: "a stronger dollar"), not "euro area", "dollar funding" or "billions of dollars".
CURRENCY_MOVE_BEFORE = re.compile(
    r"(?:\b(?:the|a|stronger|weaker|strong|weak|higher|lower|rising|falling|strengthening|weakening|"
    r"appreciating|depreciating|appreciation\s+of\s+the|depreciation\s+of\s+the)\s+|^)$"
)
CURRENCY_OTHER_AFTER = re.compile(
    r"^[\s-]*(?:risks?|premi\w*|markets?|mismatch\w*|unions?|boards?|hedg\w*|swaps?|debt|bonds?|denominat\w*|"
    r"composition|status|reserves?|pegs?|areas?|blocs?|crises|crisis|exposures?|invoicing|usage|role)\b"
)


#: "keep inflation expectations anchored", "a de-anchoring of inflation expectations": the anchoring of
#: expectations is a concept of its own, not a move of inflation.
ANCHOR = re.compile(
    r"(?:\b(?:un|de-?)?anchor\w*\s+(?:of\s+)?(?:(?:longer|long|medium|short)[- ]term\s+)?$|"
    r"^\s+(?:(?:are|is|remain(?:ed|s)?|have\s+remained|had\s+remained|stay(?:ed|s)?|to\s+remain|to\s+stay|were|"
    r"appear\s+to\s+remain|would\s+remain)\s+)?(?:(?:well|firmly|largely|broadly|still|solidly)\s+)?(?:un|de-?)?anchor\w*|"
    r"^\s+(?:de-?|un)anchor\w*)"
)
#: "the fiscal policy stance", "macroprudential policy tightening": a policy that is not monetary policy.
NON_MONETARY_POLICY = re.compile(
    r"\b(?:fiscal|budgetary|macroprudential|macro-prudential|prudential|government|industrial|structural|public|tax|"
    r"immigration|energy|climate|economic|housing|competition|supply-side|regulatory|"
    # another government's policy ("US policy announcements", "Chinese policy stimulus", "administration policy")
    r"us|u\.s\.|american|chinese|china['’]s|administration|administration['’]s|trump|white\s+house|foreign|"
    r"[a-z]+\s+government['’]?s?)\s+(?:and\s+\w+\s+)?$"
)
#: "policy makers", "policymakers": people, not the rate they set.
POLICY_PEOPLE_AFTER = re.compile(r"^[\s-]*(?:makers?|setters?)\b")
#: "make liquidity available", "liquidity needs", "liquidity facilities": the funding liquidity of a bank or
#: a fund, or liquidity a central bank provides, is not the liquidity of a market.
FUNDING_LIQUIDITY_BEFORE = re.compile(
    r"\b(?:make|makes|made|making|provide[sd]?|providing|provision\s+of|inject\w*|sufficient|ample|emergency|"
    r"central\s+bank|demand\s+for|hoard\w*|funding|own|their|its|bank|banks['’]?)\s+$"
)
FUNDING_LIQUIDITY_AFTER = re.compile(
    r"^\s+(?:needs?|regulations?|requirements?|facilit(?:y|ies)|provision|support|buffers?|coverage|ratios?|"
    r"management|injections?|operations|available|lines?|assistance|backstops?)\b"
)
#: "confidence in the banking system", "investor confidence in the EU's governance": trust in an
#: institution or a policy, not the economy-wide sentiment of households, firms or investors.
CONFIDENCE_IN = re.compile(
    r"^\s+(?:that\b|in\s+(?:the\s+|our\s+|its\s+|their\s+|an?\s+)?(?:[a-z'’-]+\s+){0,3}?"
    r"(?:system|banks?|banking|institutions?|governance|framework|commitment|ability|currency|euro(?!\s+area)|dollar|money|"
    r"central\s+banks?|polic(?:y|ies)|targets?|leadership|governments?|authorities|regulators?|markets?|"
    r"process|approach|strategy|independence|credibility)\b)"
)
#: "make imports more expensive", "cheaper exports": imports or exports in the sense of their price.
PRICIER_AFTER = re.compile(
    r"^\s+(?:(?:much|even|far|a\s+lot|significantly|relatively)\s+)?(?:(?:more|less)\s+(?:expensive|costly)|pricier|"
    r"costlier|dearer|cheaper)\b"
)
PRICIER_BEFORE = re.compile(r"\b(?:(?:more|less)\s+(?:expensive|costly)|pricier|costlier|dearer|cheaper)\s+$")


#: A bare "spending" is households' (the private demand of speeches and minutes: "supporting income and
#: spending") unless a word before it or the sentence around it makes it public, fiscal or another sector's.
SPENDING_OTHER_BEFORE = re.compile(
    r"\b(?:government|governments['’]?|public|fiscal|defen[cs]e|military|age-related|strategic|capital|infrastructure|"
    r"social|health|healthcare|federal|state|provincial|municipal|budget|budgetary|program|programme|pension|"
    r"business|corporate|firms['’]?|investment|tourism|travel|energy|climate|green|research|r&d|transfer|total|"
    r"aggregate|nominal|real|discretionary|additional|extra|new|[a-z]+-related|[a-z]+['’]s?)\s+$"
)
SPENDING_OTHER_AFTER = re.compile(
    r"^\s+(?:on|by\s+(?:the\s+)?(?:government|governments|firms|businesses|the\s+state)|needs?|cuts?|plans?|"
    r"patterns?|programs?|programmes?|packages?|multipliers?|shocks?|rules?|reviews?|power|measures?|"
    r"commitments?|pledges?|targets?|limits?|caps?)\b"
)
FISCAL_CONTEXT = re.compile(
    r"\b(?:government|fiscal|public\s+(?:spending|finances|debt|investment)|defen[cs]e|military|budget|"
    r"tax\s+(?:receipts|revenues?|take)|revenues?\s+of\s+the\s+state)"
)


#: "demand for liquidity", "demand for safe assets", "loan demand": demand for one thing, not aggregate demand.
DEMAND_FOR_OTHER = re.compile(
    r"^\s+for\s+(?:(?:the|such|this|these|that|more|higher|new|bank|consumer|safe|liquid|risky|[a-z]+-term|"
    r"[a-z]+-month)\s+)*"
    r"(?:options?|liquidity|assets|reserves|lending|credit|loans?|mortgages?|money|cash|debt|bonds?|treasur(?:y|ies)|"
    r"securities|dollars?|funds?|funding|financing|insurance|housing|homes?|houses|energy|oil|gas|commodities|type|"
    # "demands for higher wages"
    r"wages?)\b"
    # "the demand side"; "lower demand and tighter credit supply conditions": one side of a market, the demand for loans
    r"|^\s+(?:side\b|(?:and|or)\s+(?:[a-z-]+\s+){0,2}(?:credit|loan)\s+supply\b)"
)
#: "credit supply conditions and lower demand": the demand for loans, named after their supply.
LOAN_DEMAND_BEFORE = re.compile(r"\b(?:credit|loan)\s+supply\s+(?:[a-z-]+\s+){0,2}(?:and|or)\s+(?:[a-z-]+\s+)?$")
#: "induce workers to demand higher wages": the verb, its object after it.
DEMAND_VERB = re.compile(r"\bto\s+$")
DEMAND_VERB_OBJECT = re.compile(r"^\s+(?:higher|more|greater)\s+(?!generally\b)[a-z]")
DEMAND_MODIFIER_BEFORE = re.compile(
    r"\b(?:loan|credit|housing|energy|oil|gas|money|mortgage|commodity|investor|travel|tourism|safe-haven|hedging|"
    r"funding|reserve|cash|deposit|power|electricity)\s+$"
)
#: "OPEC+ agreed to raise output", "oil producers cut output": the producers' output is oil supply.
OIL_PRODUCER_BEFORE = re.compile(
    r"\b(?:opec\+?|oil\s+producers|oil-producing\s+(?:countries|nations)|crude\s+producers|oil\s+exporters)"
    r"(?:\s+[a-z]+){0,4}\s+(?:its\s+|their\s+)?$"
)
#: "demand for labour", "demand for workers": labour demand, i.e. employment.
DEMAND_FOR_LABOUR = re.compile(r"^\s+for\s+(?:labou?r|workers|staff|employees)\b")


#: Before "supply constraints" or "supply issues", what is supplied when it is no good of a supply chain.
SUPPLY_OF_OTHER = re.compile(r"\b(?:housing|home|land|labou?r|workforce)\s+$")
SUPPLY_LIMIT = re.compile(r"supply(?:\s+chain)?\s+(?:constraints?|issues)|supply-side\s+frictions")


def _other_sense(low: str, m: Mention) -> bool:
    """A synonym used in a sense that is not its variable's (see :meth:`Vocabulary.mentions_in_context`)."""
    before = low[max(0, m.start - 50) : m.start]
    after = low[m.end : m.end + 40]
    text = m.text.lower()
    if m.variable_id == "supply_chain_disruptions" and SUPPLY_OF_OTHER.search(before) and SUPPLY_LIMIT.match(text):
        return True  # "housing supply constraints", "labor supply constraints": the supply of homes or workers
    if m.variable_id == "consumption" and text == "spending":
        return bool(
            SPENDING_OTHER_BEFORE.search(before)
            or SPENDING_OTHER_AFTER.match(after)
            or FISCAL_CONTEXT.search(low)
            # "firms and households cut spending": firms' spending is investment, the mix is neither variable (in the
            # clause of "spending": "by pushing up costs for firms, inflation dampened spending" is households')
            or re.search(r"\b(?:firms|businesses|companies|corporations|employers)\b", before.rsplit(",", 1)[-1])
        )
    if (
        m.variable_id == "real_gdp"
        and text in ("demand", "demands")
        and (
            DEMAND_FOR_OTHER.match(after)
            or DEMAND_MODIFIER_BEFORE.search(before)
            or LOAN_DEMAND_BEFORE.search(low, max(0, m.start - 80), m.start)
            or (DEMAND_VERB.search(before) and DEMAND_VERB_OBJECT.match(after))
        )
    ):
        return True  # "demand for liquidity", "loan demand": demand for one asset or service, not the economy's
    if m.variable_id == "wages" and (text.startswith("real ") or re.search(r"\breal\s+$", before)):
        return True  # "rising real wages": purchasing power, which the vocabulary lacks (real incomes)
    if m.variable_id == "investment" and text == "investment" and after.startswith("-"):
        return True  # "investment-grade bonds", "investment- and speculative-grade": a credit rating, not spending
    if m.variable_id == "inflation" and text == "inflation":
        if re.match(r"^\s+(?:targets?|targeting|goals?|objectives?|mandates?|framework|regimes?)\b", after):
            return True  # "the 2% inflation target": a goal, not inflation
        if re.match(r"^(?:\s+compensation\b|-(?:linked|indexed|protected)\b)", after):
            return True  # "inflation compensation", "inflation-linked swaps": a market price, not inflation
        chain = STABLE_BEFORE.search(before)
        return bool(chain and re.search(r"stable|predictable|steady", chain.group(1)))
    if (
        m.variable_id == "inflation"
        and "expectation" in text
        and (ANCHOR.search(low[max(0, m.start - 40) : m.start]) or ANCHOR.match(low[m.end : m.end + 60]))
    ):
        return True
    if (
        m.variable_id == "equity_prices"
        and text == "equity"
        and (
            re.search(
                r"\b(?:private|home|negative|tangible|book|own|shareholders['’]?|common|bank|banks['’]?|their|its|"
                r"return\s+on)\s+$",
                before,
            )
            or re.match(
                r"^\s+(?:investments?|stakes?|funds?|firms?|financing|capital|injections?|issuance|tranches?|"
                r"holders?|ratios?|positions?|buffers?|requirements?)\b",
                after,
            )
        )
    ):
        return True  # "private equity", "equity capital": a kind of funding or a stake, not share prices
    if m.variable_id == "corporate_defaults" and re.search(
        r"\b(?:sovereign|government|counterparty|bank|dealer|hedge\s+fund)\s+$", before
    ):
        return True  # "a sovereign default": not a firm's
    if m.variable_id == "fund_outflows" and re.search(r"\b(?:bond|debt|note|bill|loan|early)\s+$", before):
        return True  # "bond redemptions": repayment at maturity, not investors leaving funds
    if (
        m.variable_id == "investment"
        and text == "investments"
        and not re.search(
            r"\b(?:delay\w*|cancel\w*|postpon\w*|defer\w*|shelv\w*|planned|business|corporate|capital|fixed|"
            r"productive|private|new)\s+(?:(?:or|and)\s+\w+\s+)?$",
            before,
        )
    ):
        return True  # "higher-yield investments", "private equity investments": holdings, not capital spending
    if (
        m.variable_id == "employment"
        and text in ("payroll", "payrolls")
        and re.match(r"^\s+(?:tax(?:es)?|contributions?|systems?|records?|providers?|processing|costs?)\b", after)
    ):
        return True  # "payroll taxes": a levy on wages, not jobs
    if (
        m.variable_id == "employment"
        and text == "employment"
        and re.search(r"\b(?:maximum|full|sustainable|maximal|maximise|maximize)\s+$", before)
    ):
        return True  # "maximum employment", "full employment": a mandate or a benchmark, not a move
    if (
        m.variable_id == "policy_rate"
        and "polic" in text
        and "monetary" not in text
        and NON_MONETARY_POLICY.search(before)
    ):
        return True
    if m.variable_id == "policy_rate" and text == "policy" and POLICY_PEOPLE_AFTER.match(after):
        return True
    if (
        m.variable_id == "market_liquidity"
        and text == "liquidity"
        and (FUNDING_LIQUIDITY_BEFORE.search(before) or FUNDING_LIQUIDITY_AFTER.match(after))
    ):
        return True
    if m.variable_id == "confidence" and CONFIDENCE_IN.match(after):
        return True
    if m.variable_id == "exchange_rate" and re.fullmatch(r"(?:euro|dollar|loonie|yen)['’]s", text):
        # "the euro's appreciation" is a move of the currency; "the euro's role" is not
        return not re.match(
            r"^\s+(?:recent\s+|sharp\s+|strong\s+)?(?:appreciation|depreciation|rise|fall|strength|"
            r"weakness|decline|gains?|surge|slide)\b",
            after,
        )
    if m.variable_id == "exchange_rate" and text in ("euro", "euros", "dollar", "dollars", "loonie", "yen"):
        return not (
            text in ("euro", "dollar", "loonie", "yen")
            and CURRENCY_MOVE_BEFORE.search(before)
            and not CURRENCY_OTHER_AFTER.match(after)
            and not re.match(
                r"^(?:[\s-]+(?:area|zone|system|funding|denominated|liquidity|terms|amounts?|assets?|"
                r"deposits?|payments?|banknotes?|cash|coins?|shortages?|bills?|value)\b|['’]s)",
                after,
            )
        )
    if m.variable_id == "exchange_rate" and text in ("currency", "currencies"):
        return bool(CURRENCY_OTHER_BEFORE.search(before) or CURRENCY_OTHER_AFTER.match(after))
    return False


#: Synonyms whose sense the context decides (see :func:`_bare_rate_is_policy`): never formed by sharing a
#: head noun ("interest and exchange rates" names no policy rate).
SENSE_FILTERED_KEYS = frozenset({("interest", "rate")})


_QUALIFIERS = r"(?:[a-z0-9.'’-]+\s+){0,3}?"
#: Yields and spreads on a qualified bond ("yields on 10-year German government bonds"), demand for
#: qualified exports.
INSTRUMENT_PHRASES = (
    (
        re.compile(
            rf"\byields?\s+on\s+{_QUALIFIERS}(?:government\s+bonds?|sovereign\s+bonds?|treasur(?:y|ies)|gilts|bunds|"
            r"government\s+debt|(?:long-term|long-dated|10-year|ten-year)\s+bonds?)\b"
        ),
        "long_term_rate",
    ),
    (re.compile(rf"\bspreads?\s+on\s+{_QUALIFIERS}(?:government|sovereign)\s+(?:bonds?|debt)\b"), "sovereign_spreads"),
    (re.compile(rf"\bspreads?\s+on\s+{_QUALIFIERS}corporate\s+(?:bonds?|debt)\b"), "credit_spreads"),
    # "demand for Canadian-made exports", "demand for our goods exports": foreign demand
    (re.compile(rf"\bdemand\s+for\s+{_QUALIFIERS}exports\b"), "global_demand"),
    # "higher levels of debt for some households", "the indebtedness of households": household debt
    (
        re.compile(
            r"\b(?:debts?|indebtedness|leverage)\s+(?:of|for|among|held\s+by|owed\s+by)\s+(?:the\s+)?"
            r"(?:(?:some|many|most|all|indebted|canadian|australian|us|euro\s+area|[a-z]+-income)\s+)?households\b"
        ),
        "household_debt",
    ),
    # "debt of non-financial firms", "the leverage of companies": corporate leverage
    (
        re.compile(
            r"\b(?:debts?|indebtedness|leverage)\s+(?:of|for|among|held\s+by|owed\s+by)\s+(?:the\s+)?"
            r"(?:(?:some|many|most|all|indebted|non-financial|nonfinancial|highly\s+indebted|small|large|listed)\s+)?"
            r"(?:firms|businesses|companies|corporations|corporates)\b"
        ),
        "corporate_leverage",
    ),
    # "funds may have to sell assets to meet redemptions", "sell fixed-income assets": selling of assets under
    # pressure, the fire-sale channel of financial-stability reports (not "selling Treasuries" of a hedge)
    (
        re.compile(
            r"\b(?:sell|sells|selling|sold|dump(?:s|ed|ing)?|offload(?:s|ed|ing)?)\s+(?:off\s+)?"
            r"(?:(?:their|some|more|other|these|those)\s+)?"
            r"(?:(?:fixed-income|risky|risk|illiquid|less\s+liquid|liquid|financial)\s+)?assets\b"
        ),
        "fire_sales",
    ),
    # "interest rates on new mortgages", "interest rates on variable-rate business loans" (not "the default
    # rate on corporate loans")
    (re.compile(rf"\binterest\s+rates?\s+on\s+{_QUALIFIERS}mortgages?\b"), "mortgage_rates"),
    (re.compile(rf"\binterest\s+rates?\s+on\s+{_QUALIFIERS}(?:loans|lending)\b"), "lending_rates"),
    # "the cost of imported intermediate inputs", "prices of imported consumer goods"
    (
        re.compile(
            r"\b(?:prices?|costs?)\s+(?:of|for)\s+(?:the\s+|these\s+|those\s+)?imported\s+(?:[a-z-]+\s+){0,2}?"
            r"(?:goods|inputs|products|components|parts|materials|food|items|vehicles|machinery|equipment)\b"
        ),
        "import_prices",
    ),
)
#: "a sharp repricing of assets", "a repricing in risky assets": the assets are asset prices (the reader signs a
#: repricing of a price level as its fall); the span is the assets alone. Bare "assets" are otherwise holdings.
ASSET_REPRICING = re.compile(
    r"\b(?:repricing|re-pricing|revaluation)\s+(?:of|in)\s+(?:the\s+)?"
    r"(?P<v>(?:(?:financial|risky|risk|riskier)\s+)?assets)\b"
)
SHORT_TERM = re.compile(r"\b(?:short-term|short-dated|bills?|\d+-month|one-year|two-year|2-year|1-year)\b")


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
                shared = self._elliptic(toks, i)
                if shared is not None:
                    start, end = toks[i][1], toks[i][2]
                    out.append(Mention(shared, start, end, text[start:end], i, i))
                i += 1
        return out

    def _elliptic(self, toks: list[tuple[str, int, int]], i: int) -> str | None:
        """ "household and business spending": the first conjunct shares the second's head noun.

        The word at ``i`` names a variable when it is followed by "and"/"or" and a synonym whose
        head, put after the word, is a synonym of another variable ("household spending")."""
        if i + 3 >= len(toks) or toks[i + 1][0] not in ("and", "or"):
            return None
        for n in range(min(self._longest, len(toks) - i - 2), 1, -1):
            second = tuple(t for t, _, _ in toks[i + 2 : i + 2 + n])
            other = self._phrases.get(second)
            if other is None:
                continue
            for k in range(1, n):
                key = (toks[i][0], *second[k:])
                vid = self._phrases.get(key)
                if vid is not None and vid != other and key not in SENSE_FILTERED_KEYS:
                    return vid
            return None
        # "equity and bond markets": the second conjunct is no synonym, the first with the head is one
        for n in range(min(self._longest, len(toks) - i - 3), 0, -1):
            key = (toks[i][0], *(t for t, _, _ in toks[i + 3 : i + 3 + n]))
            vid = self._phrases.get(key)
            if vid is not None and key not in SENSE_FILTERED_KEYS:
                return vid
        return None

    def _qualified_instruments(self, text: str, raw: list[Mention]) -> list[Mention]:
        """ "yields on long-term US Treasuries", "spreads on EME government bonds": a yield or spread on a
        qualified bond names the bond variable, whatever the qualifiers between (they replace the
        mentions inside the phrase)."""
        spans = []
        for pat, vid in INSTRUMENT_PHRASES:
            for hit in pat.finditer(text.lower()):
                if SHORT_TERM.search(hit.group()):
                    continue
                spans.append((hit.start(), hit.end(), vid))
        spans.extend((hit.start("v"), hit.end("v"), "asset_prices") for hit in ASSET_REPRICING.finditer(text.lower()))
        if not spans:
            return raw
        toks = tokens(text)
        out = [m for m in raw if not any(a < m.end and m.start < b for a, b, _ in spans)]
        for a, b, vid in spans:
            idx = [k for k, (_, s0, e0) in enumerate(toks) if s0 >= a and e0 <= b]
            out.append(Mention(vid, a, b, text[a:b], idx[0], idx[-1]))
        return sorted(out, key=lambda m: m.start)

    def mentions_in_context(self, text: str) -> list[Mention]:
        """:meth:`mentions` with the readings of context that reports, speeches and minutes need.

        * A bare "growth" or "activity" names real GDP only when nothing else claims it:
          "growth of X", "X growth", "trading activity" or "activity in the repo market" are
          about X, not the economy, so the mention is dropped ("stimulate growth" keeps it).
        * A bare "economy" is real GDP in the singular after a determiner or an adjective ("cool
          the economy"), not as a place ("through the economy"), a sector ("the digital economy")
          or the location of another noun ("prices in the economy").
        * A bare "interest rates" or "rates" is the policy rate when a rate moves ("cut rates",
          "higher interest rates"), not "real interest rates", "interest rate risk" or "rates paid
          on deposits"; in market commentary without a policy actor it is the long-term rate.
        * Senses that are not the variable's are dropped (:func:`_other_sense`): stable inflation,
          the inflation target, anchored inflation expectations, a currency that does not move,
          confidence in an institution, funding liquidity, a non-monetary policy, full employment;
          imports that become dearer are import prices.
        * Volatility of a variable is not its level: "volatility of bond yields" and
          "bond yield volatility" become one mention of the volatility variable
          (``rate_volatility`` for interest rates, else ``volatility``).

        :meth:`mentions` itself reads shared head nouns: "household and business spending" names
        consumption and investment.
        """
        raw = self._qualified_instruments(text, self.mentions(text))
        low = text.lower()
        out: list[Mention] = []
        skip: set[int] = set()
        for k, m in enumerate(raw):
            if k in skip:
                continue
            if m.text.lower() == "output" and OIL_PRODUCER_BEFORE.search(low[max(0, m.start - 50) : m.start]):
                m = Mention("oil_supply", m.start, m.end, m.text, m.first_token, m.last_token)
            if m.text.lower() == "demand" and m.variable_id == "real_gdp" and DEMAND_FOR_LABOUR.match(low[m.end :]):
                end = m.end + DEMAND_FOR_LABOUR.match(low[m.end :]).end()
                m = Mention("employment", m.start, end, text[m.start : end], m.first_token, m.last_token + 2)
            foreign = FOREIGN_AFTER.match(low[m.end :]) if m.text.lower() in FOREIGN_CAPABLE else None
            if (
                m.variable_id == "real_gdp"
                and m.text.lower() in FOREIGN_CAPABLE | {"aggregate demand", "domestic demand", "economy"}
                and CHINESE_BEFORE.search(low, max(0, m.start - 30), m.start)
            ):
                # "Chinese aggregate demand", "the Chinese economy": a foreign economy in every document of the set
                m = Mention("global_demand", m.start, m.end, m.text, m.first_token, m.last_token)
            elif foreign:
                # the mention spans the foreign place ("demand from export markets"): nothing inside it is
                # a mention of its own
                end = m.end + foreign.end()
                inner = [j for j in range(k + 1, len(raw)) if raw[j].start < end]
                skip.update(inner)
                last = raw[inner[-1]].last_token if inner else m.last_token
                m = Mention("global_demand", m.start, end, text[m.start : end], m.first_token, last)
            elif m.text.lower() in AMBIGUOUS and not _bare_growth_is_gdp(low, m):
                continue
            if m.text.lower() in ("economy", "economies") and not _bare_economy_is_gdp(low, m):
                continue
            if m.variable_id == "policy_rate" and not _bare_rate_is_policy(low, m):
                continue
            if _other_sense(low, m):
                continue
            if m.text.lower() == "economic conditions" and KIND_OF.search(low[max(0, m.start - 30) : m.start]):
                continue
            if m.text.lower() in ("imports", "import", "exports", "export") and (
                PRICIER_AFTER.match(low[m.end :]) or PRICIER_BEFORE.search(low[max(0, m.start - 30) : m.start])
            ):
                if m.text.lower().startswith("export"):
                    continue  # the price of exports: no variable of the vocabulary
                m = Mention("import_prices", m.start, m.end, m.text, m.first_token, m.last_token)
            if (
                m.text.lower() in ("interest rates", "interest rate", "rates")
                and MARKET_CONTEXT.search(NOT_A_MARKET.sub(" ", low))
                and not POLICY_ACTOR.search(low)
            ):
                m = Mention("long_term_rate", m.start, m.end, m.text, m.first_token, m.last_token)
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
