"""The offline extractor on hand-written sentences with known relations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aieco.extraction.clauses import evidence_class
from aieco.extraction.decompose import decompose_passage
from aieco.extraction.rules import read_sentence
from aieco.extraction.schemas import VerificationItem
from aieco.extraction.screen import split_sentences
from aieco.extraction.verify import verify_item
from aieco.vocab import load_vocabulary


def triples(sentence: str) -> set[tuple[str, str, str]]:
    return {(r.src, r.sign.value, r.dst) for r in read_sentence(sentence, load_vocabulary())}


@pytest.mark.parametrize(
    "sentence, expected",
    [
        # positive and negative directional verbs
        ("Tariffs push up import prices.", {("tariffs", "+", "import_prices")}),
        ("Higher long-term interest rates weigh on house prices.", {("long_term_rate", "-", "house_prices")}),
        ("Energy prices erode household wealth.", {("energy_prices", "-", "household_wealth")}),
        # the movement on the source multiplies the verb's sign
        ("Thinner market liquidity raises volatility.", {("market_liquidity", "-", "volatility")}),
        ("Lower market liquidity pushes down long-term interest rates.", {("market_liquidity", "+", "long_term_rate")}),
        # connectors take the sign from both movements ("higher X … lower Y")
        ("An increase in tariffs leads to lower trade volumes.", {("tariffs", "-", "trade_volumes")}),
        ("Higher geopolitical risk causes higher uncertainty.", {("geopolitical_risk", "+", "uncertainty")}),
        # co-movement is described, never a channel
        ("In 2024 higher volatility went hand in hand with higher equity prices.", set()),
        # passive voice
        ("House prices are depressed by higher mortgage rates.", {("mortgage_rates", "-", "house_prices")}),
        ("Consumption is boosted by rising household wealth.", {("household_wealth", "+", "consumption")}),
        # two relations in one sentence: shared subject, relative clause, co-ordinated objects
        (
            "Tariffs reduce trade volumes and depress GDP.",
            {("tariffs", "-", "trade_volumes"), ("tariffs", "-", "real_gdp")},
        ),
        (
            "Tariffs reduce trade volumes, which in turn lowers GDP.",
            {("tariffs", "-", "trade_volumes"), ("trade_volumes", "+", "real_gdp")},
        ),
        (
            "Policy rate hikes raise mortgage rates and bank funding costs.",
            {("policy_rate", "+", "mortgage_rates"), ("policy_rate", "+", "bank_funding_costs")},
        ),
        (
            "Lower trade volumes weigh on real GDP, and weaker GDP raises unemployment.",
            {("trade_volumes", "+", "real_gdp"), ("real_gdp", "-", "unemployment")},
        ),
        # intransitive movements joined by a subordinator
        ("As long-term rates rise, house prices fall.", {("long_term_rate", "-", "house_prices")}),
        ("House prices fall when mortgage rates rise.", {("mortgage_rates", "-", "house_prices")}),
        # prepositional phrase inside the subject
        ("Higher tariffs imposed on European exports would reduce euro area GDP.", {("tariffs", "-", "real_gdp")}),
        # "lower"/"reduced" are verbs after a subject and movements before a noun
        ("Tariffs lower GDP.", {("tariffs", "-", "real_gdp")}),
        ("Tariffs reduced trade volumes.", {("tariffs", "-", "trade_volumes")}),
        ("Lower potential growth lowers investment.", {("real_gdp", "+", "investment")}),
        ("Political uncertainty and increased volatility could trigger shocks.", set()),
        # a consequence clause carries the implied movement; a movement covers a co-ordinated list
        (
            "Shocks negatively affect confidence, resulting in reductions in consumption and investment.",
            {("confidence", "+", "consumption"), ("confidence", "+", "investment")},
        ),
        # a mention behind a preposition is neither subject nor object
        ("Disagreement over long-term yields started to grow as inflation surged.", set()),
        ("The VIX can be depressed even in an environment of heightened uncertainty.", set()),
        # a verb form after a determiner is a noun; "lower X" before a verb is a movement
        ("The euro area exports half of its output, so the drag on activity can be material.", set()),
        (
            "Higher tariffs reduce trade volumes, and lower trade volumes weigh on real GDP.",
            {("tariffs", "-", "trade_volumes"), ("trade_volumes", "+", "real_gdp")},
        ),
        # negation → absent
        ("Higher tariffs do not raise unemployment.", {("tariffs", "absent", "unemployment")}),
        ("There is no evidence that energy prices reduce consumption.", {("energy_prices", "absent", "consumption")}),
        (
            "Tariffs not only reduce trade volumes but also raise import prices.",
            {("tariffs", "-", "trade_volumes"), ("tariffs", "+", "import_prices")},
        ),
        # co-occurrence without a relation → nothing
        ("House prices and unemployment are both discussed in Chapter 2.", set()),
        ("Inflation was 2.4% while unemployment stood at 6.5%.", set()),
        ("Only one variable: inflation rose.", set()),
    ],
)
def test_known_relations(sentence, expected):
    assert triples(sentence) == expected


@pytest.mark.parametrize(
    "sentence, confidence",
    [
        ("Higher volatility lowers equity prices.", 0.75),  # directional verb
        ("An increase in tariffs leads to lower trade volumes.", 0.75),  # both movements stated
        ("Tariffs lead to lower trade volumes.", 0.6),  # the source's movement is left to inference
        ("As long-term rates rise, house prices fall.", 0.6),  # two intransitive movements
        ("Higher tariffs may raise import prices.", 0.55),  # hedged
        ("We estimate that higher tariffs reduce GDP by 0.3%.", 0.85),  # a stated estimate
    ],
)
def test_confidence_measures_how_explicit_the_reading_is(sentence, confidence):
    [reading] = read_sentence(sentence, load_vocabulary())
    assert reading.confidence == confidence


def test_hedges_lower_the_confidence_and_confidence_is_a_probability():
    v = load_vocabulary()
    plain = read_sentence("Higher tariffs raise import prices.", v)[0]
    hedged = read_sentence("Higher tariffs may raise import prices.", v)[0]
    assert hedged.hedged and not plain.hedged
    assert 0.0 <= hedged.confidence < plain.confidence <= 1.0


@pytest.mark.parametrize(
    "sentence, cls",
    [
        ("Tariffs cause lower trade volumes.", "descriptive"),  # "causes" never makes a relation causal
        ("We estimate that a 10% rise in tariffs reduces GDP by 0.3%.", "predictive"),
        ("Using an instrumental variable we estimate the causal effect: tariffs reduce GDP by 0.2%.", "causal"),
        ("By definition, higher credit losses reduce the CET1 ratio.", "accounting"),
        ("Under the regulation banks are required to hold capital; losses reduce the CET1 ratio.", "institutional"),
    ],
)
def test_evidence_class_comes_from_what_is_stated(sentence, cls):
    assert evidence_class(sentence).value == cls


def test_sentence_split_keeps_exact_text_and_abbreviations():
    text = "Tariffs raise prices, e.g. import prices.  Higher\nrates weigh on GDP. (See Chart 2.) Done.4 Next"
    assert split_sentences(text) == [
        "Tariffs raise prices, e.g. import prices.",
        "Higher rates weigh on GDP.",
        "(See Chart 2.) Done.",
        "Next",
    ]


def test_decomposition_keeps_exact_quotes():
    passage = "Tariffs reduce trade volumes; higher import prices raise inflation, while consumption falls."
    pieces = decompose_passage(passage)
    assert [q for _, q in pieces] == [
        "Tariffs reduce trade volumes",
        "higher import prices raise inflation",
        "while consumption falls.",
    ]
    assert pieces[1][0] == "Higher import prices raise inflation."
    for _, quote in pieces:
        assert quote in passage


@pytest.mark.parametrize(
    "src, sign, dst, quote, verdict",
    [
        ("tariffs", "-", "trade_volumes", "Tariffs reduce trade volumes.", "supported"),
        ("tariffs", "+", "trade_volumes", "Tariffs reduce trade volumes.", "contradicted"),
        ("house_prices", "+", "unemployment", "House prices and unemployment are discussed.", "unsupported"),
        ("tariffs", "-", "real_gdp", "Tariffs reduce trade volumes.", "unsupported"),
    ],
)
def test_g2_verification(src, sign, dst, quote, verdict):
    item = VerificationItem(index=0, src_var=src, dst_var=dst, sign=sign, quote=quote)
    assert verify_item(item, load_vocabulary()).verdict == verdict


PHRASES = {
    "tariffs": "tariffs",
    "import_prices": "import prices",
    "house_prices": "house prices",
    "mortgage_rates": "mortgage rates",
    "household_wealth": "household wealth",
    "consumption": "consumption",
    "volatility": "volatility",
    "equity_prices": "equity prices",
    "uncertainty": "uncertainty",
    "credit_losses": "credit losses",
}
VERBS = [
    ("raises", "raise", "raised", 1),
    ("lowers", "lower", "lowered", -1),
    ("pushes up", "push up", "pushed up", 1),
    ("weighs on", "weigh on", "weighed on", -1),
    ("boosts", "boost", "boosted", 1),
    ("dampens", "dampen", "dampened", -1),
]


@settings(max_examples=150, deadline=None)
@given(
    src=st.sampled_from(sorted(PHRASES)),
    dst=st.sampled_from(sorted(PHRASES)),
    mod=st.sampled_from([("", 1), ("higher ", 1), ("lower ", -1), ("rising ", 1), ("falling ", -1)]),
    verb=st.sampled_from(VERBS),
    passive=st.booleans(),
    hedge=st.sampled_from(["", "may "]),
)
def test_sign_is_the_source_movement_times_the_verb(src, dst, mod, verb, passive, hedge):
    """Property: for active and passive templates the sign is movement × verb sign; nothing else is read."""
    if src == dst:
        return
    active, base, participle, verb_sign = verb
    if passive:
        sentence = f"{PHRASES[dst].capitalize()} {'may be' if hedge else 'is'} {participle} by {mod[0]}{PHRASES[src]}."
    else:
        sentence = f"{(mod[0] + PHRASES[src]).capitalize()} {hedge}{base if hedge else active} {PHRASES[dst]}."
    readings = read_sentence(sentence, load_vocabulary())
    expected = "+" if mod[1] * verb_sign > 0 else "-"
    assert [(r.src, r.sign.value, r.dst) for r in readings] == [(src, expected, dst)], sentence
    assert readings[0].hedged == bool(hedge) and 0.0 <= readings[0].confidence <= 1.0


@pytest.mark.parametrize("text", ["", "   \n ", "no sentence end"])
def test_sentence_split_degenerate_input(text):
    assert split_sentences(text) == ([text.strip()] if text.strip() else [])


def test_hedged_readings_are_kept_and_flagged():
    from aieco.extraction.schemas import ExtractionRequest, Statement
    from aieco.extraction.tasks import extract_offline

    out = extract_offline(
        ExtractionRequest(
            statements=[
                Statement(candidate_id="a", location_id="l", text="Higher tariffs could weigh on global demand."),
                Statement(candidate_id="b", location_id="l", text="Higher tariffs weigh on global demand."),
            ],
            variables=["tariffs", "global_demand"],
        )
    )
    by = {p.candidate_id: p for p in out.relations}
    assert by["a"].sign == by["b"].sign == "-"
    assert by["a"].verb.endswith("[hedged]") and not by["b"].verb.endswith("[hedged]")
    assert by["a"].confidence < by["b"].confidence


@pytest.mark.parametrize(
    "sentence, expected",
    [
        # financial-stability language (issue 15)
        (
            "The fall in global demand would lead to a decline in economic activity.",
            {("global_demand", "+", "real_gdp")},
        ),
        ("The economic slowdown would result in an increase in unemployment.", {("real_gdp", "-", "unemployment")}),
        ("A sell-off of assets would amplify the decline in asset prices.", {("fire_sales", "-", "asset_prices")}),
        ("Bond yields fell, driven by the outlook for policy easing.", {("policy_rate", "+", "long_term_rate")}),
        ("Political uncertainty could trigger adverse confidence shocks.", {("uncertainty", "-", "confidence")}),
        (
            "Protectionist policies would exert a large negative effect on global demand.",
            {("tariffs", "-", "global_demand")},
        ),
        ("Higher energy prices raise downside risks to growth.", {("energy_prices", "-", "real_gdp")}),
        (
            "Rising geopolitical tensions pose downside risks to euro area GDP.",
            {("geopolitical_risk", "-", "real_gdp")},
        ),
        ("Trade tensions are a key downside risk to growth.", {("tariffs", "-", "real_gdp")}),
        ("Higher inflation poses upside risks to wages.", {("inflation", "+", "wages")}),
        ("Rate hikes tighten financing conditions.", {("policy_rate", "+", "financing_conditions")}),
        ("Lower policy rates ease financial conditions.", {("policy_rate", "+", "financing_conditions")}),
        ("Higher policy rates pushed bond yields up.", {("policy_rate", "+", "long_term_rate")}),
        (
            "A slowdown in aggregate demand would exert downward pressure on lending rates.",
            {("real_gdp", "+", "lending_rates")},
        ),
        (
            "The resilience of market liquidity fell on the back of lower commodity prices.",
            {("energy_prices", "+", "market_liquidity")},
        ),
        ("Robust liquidity can shield markets from such surges when financial conditions tighten.", set()),
        ("Volatility of bond yields rose and equity prices fell.", set()),
        ("Trading activity fell as equity prices dropped.", set()),
        ("Equity prices rose in line with investor sentiment.", set()),
        ("Stock prices and credit spreads coincided with lower volatility.", set()),
        # second round (session 2): constructs met in the development documents
        # feedback loops are not read: the rule was retired at development precision 0.50 (issue 30)
        ("An adverse feedback loop between weak bank profitability and low economic growth.", set()),
        ("A vicious circle between falling house prices and rising non-performing loans.", set()),
        ("Equity prices were buoyed by lower bond yields.", {("long_term_rate", "-", "equity_prices")}),
        ("Higher policy rates cause consumption to fall.", {("policy_rate", "-", "consumption")}),
        ("Higher policy rates cause consumption to stabilise.", set()),
        ("The growth in lending raises bank profitability.", {("credit_growth", "+", "bank_profitability")}),
        (
            "Higher policy rates would tighten financing conditions – leading to a decline in investment.",
            {("policy_rate", "+", "financing_conditions"), ("financing_conditions", "-", "investment")},
        ),
        ("Table 2: Higher tariffs reduce trade volumes 1.2 0.4 –0.3", set()),
        ("Graph 3.B: Higher tariffs reduce trade volumes.", set()),
        ("Rising delinquencies increase losses on consumer credit.", {("non_performing_loans", "+", "credit_losses")}),
        # third round (development documents incl. the Bank of Canada report)
        ("Rising tariffs threaten jobs.", {("tariffs", "-", "employment")}),
        ("Higher energy prices pose risks to economic growth.", {("energy_prices", "-", "real_gdp")}),
        ("Trade tensions raise the risk of fire sales.", {("tariffs", "+", "fire_sales")}),
        ("Higher policy rates lower the prospects for economic growth.", {("policy_rate", "-", "real_gdp")}),
        ("Higher volatility could lead to margin calls.", {("volatility", "+", "margin_calls")}),
        ("Higher tariffs could spill over to equity markets.", set()),
        ("Central banks eased monetary policy as inflation fell.", {("inflation", "+", "policy_rate")}),
        (
            "Following the tariff increases, markets saw a sharp rise in volatility.",
            {("tariffs", "+", "volatility")},
        ),
        (
            "Trade tensions and the uncertainty they cause weigh on investment.",
            {("tariffs", "+", "uncertainty"), ("tariffs", "-", "investment"), ("uncertainty", "-", "investment")},
        ),
        ("Higher volatility could cause strains on market liquidity.", {("volatility", "-", "market_liquidity")}),
        (
            "Profits are higher at banks focusing on lending, since lending raises bank profitability relative to "
            "other activities.",
            set(),
        ),
        ("Investment funds raise equity prices.", set()),
        ("Rising unpredictability of trade policy raises volatility.", {("uncertainty", "+", "volatility")}),
        # fourth round (session 3): error classes of the whole gold set, in composed sentences
        # government and public demand are not the private variables
        ("Government consumption raises inflation.", set()),
        ("Public investment boosts productivity.", set()),
        ("Government consumption and investment raise inflation.", set()),
        ("Higher private investment boosts productivity.", {("investment", "+", "productivity")}),
        # a mention that only modifies another head is not the variable
        ("A stronger exchange rate dampens export competitiveness.", set()),
        ("Higher tariffs worsen the trade balance and lower output.", {("tariffs", "-", "real_gdp")}),
        ("Wider trade-offs raise inflation.", set()),
        ("Securities lending raises market liquidity.", set()),
        ("Energy consumption raises energy prices.", set()),
        # subjects: pronoun, co-ordinated verbs, the means of the clause's subject, clause boundaries
        ("This boosts investment in the medium term and increases productivity.", set()),
        (
            "Lower policy rates boost investment in the medium term and increase consumption.",
            {("policy_rate", "-", "investment"), ("policy_rate", "-", "consumption")},
        ),
        ("Tariffs raise inflation but, by weakening employment, lower wages.", {("tariffs", "+", "inflation")}),
        (
            "Uncertainty rose, and the worsening of financing conditions weighs on investment.",
            {("financing_conditions", "-", "investment")},
        ),
        (
            "Trade tensions have clouded the outlook, lowering global demand and raising inflation expectations.",
            {("tariffs", "-", "global_demand"), ("tariffs", "+", "inflation")},
        ),
        # verbs and adjectives that carry the sign, with the source after the verb
        ("Consumption suffers from higher unemployment.", {("unemployment", "-", "consumption")}),
        ("Bank profitability benefits from higher policy rates.", {("policy_rate", "+", "bank_profitability")}),
        ("Lower energy prices are beneficial for consumption.", {("energy_prices", "-", "consumption")}),
        ("A trade war would be highly damaging for global demand.", {("tariffs", "-", "global_demand")}),
        ("Higher government debt crowds out investment.", {("government_debt", "-", "investment")}),
        # a nominal adverse move, and the prospect of a move
        (
            "A deterioration in financing conditions would hurt investment.",
            {("financing_conditions", "-", "investment")},
        ),
        ("A deterioration in confidence would hurt consumption.", {("confidence", "+", "consumption")}),
        (
            "Expectations of a recession lead to lower inflation expectations.",
            {("real_gdp", "+", "inflation")},
        ),
        # pass-through keeps the direction only within rates or within prices
        ("Policy rate hikes are reflected in long-term yields.", {("policy_rate", "+", "long_term_rate")}),
        ("The rise in financing costs is reflected in house prices.", set()),
        ("Higher energy prices pass through to consumer prices.", {("energy_prices", "+", "inflation")}),
        # indirect questions and PDF line breaks
        ("This box studies how higher tariffs reduce trade.", set()),
        ("It is unclear whether higher tariffs reduce trade.", set()),
        ("Higher tariffs re- duce trade volumes.", {("tariffs", "-", "trade_volumes")}),
        # a movement stated after the mention
        ("House prices have seen a correction as policy rates rose.", {("policy_rate", "-", "house_prices")}),
        # a list after the verb may hold modified items
        (
            "Consumption suffers from both tighter financing conditions and consumer confidence shocks.",
            {("financing_conditions", "-", "consumption"), ("confidence", "+", "consumption")},
        ),
        # more verbs and forms: adverb inside a phrasal verb, "cool", "bring down", "force", "put pressure on"
        ("Higher policy rates weighed heavily on house prices.", {("policy_rate", "-", "house_prices")}),
        ("Higher mortgage rates have cooled housing markets.", {("mortgage_rates", "-", "house_prices")}),
        ("Lower oil prices have helped bring down inflation.", {("energy_prices", "+", "inflation")}),
        ("Redemptions from funds could force asset sales.", {("fund_outflows", "+", "fire_sales")}),
        ("Weak economic growth would put pressure on bank profitability.", {("real_gdp", "+", "bank_profitability")}),
        # a verb of movement without an object, and an object moved by an agent outside the vocabulary
        ("If energy prices were to rise, inflation would increase.", {("energy_prices", "+", "inflation")}),
        ("In response to higher inflation, central banks raised policy rates.", {("inflation", "+", "policy_rate")}),
        # a subordinate clause is no object of the verb before it
        ("The volatility of bond yields increased as policy rates rose.", {("policy_rate", "+", "rate_volatility")}),
        ("Risk premia compressed as investor sentiment improved.", set()),
        ("Credit growth slowed while lending standards tightened.", set()),
        # questions and denied or doubted links
        ("Will higher policy rates reduce house prices?", set()),
        ("Equity prices rose without weighing on credit spreads.", {("equity_prices", "absent", "credit_spreads")}),
        ("It is not clear that higher tariffs reduce trade volumes.", {("tariffs", "absent", "trade_volumes")}),
        # senses that are not the variable, co-movement and levels
        ("Investment-grade spreads widened as equity prices fell.", set()),
        ("Output gaps have closed as growth recovered.", set()),
        ("Oil prices fell and equity prices rose.", set()),
        ("Equity prices fell by 10%, while bond yields rose by 50 basis points.", set()),
        ("Countries with higher household debt saw larger falls in house prices.", set()),
        # amplified in the passive, a participle after a stated move or after a clause, ambivalent verbs
        (
            "A disorderly correction in asset prices could be amplified by forced selling.",
            {("fire_sales", "-", "asset_prices")},
        ),
        ("Market liquidity deteriorated, amplifying price swings.", {("market_liquidity", "-", "volatility")}),
        (
            "Declining house prices would reduce collateral values, increasing credit losses.",
            {("house_prices", "-", "credit_losses")},
        ),
        ("Non-bank leverage could amplify market stress through fire sales.", set()),
        ("Higher tariffs may either raise or lower inflation.", set()),
        ("Low unemployment has supported household debt servicing capacity.", set()),
        # a function word is no adjective between a movement and a mention
        (
            "The default rate on corporate loans increased as economic growth slowed.",
            {("real_gdp", "-", "corporate_defaults")},
        ),
        # synonyms added in session 3 (general terms), and bank equity is capital, not equity prices
        ("A flight to quality pushed down government bond yields.", {("risk_aversion", "-", "long_term_rate")}),
        ("Loan originations fell as mortgage rates rose.", {("mortgage_rates", "-", "credit_growth")}),
        ("Rate increases have lowered bank equity.", {("policy_rate", "-", "cet1_ratio")}),
        ("Higher policy rates lowered their equity.", set()),
        # a participle after an object carries the object's stated move; a next clause's subject is no object
        (
            "Fire sales could depress asset prices further, triggering margin calls.",
            {("fire_sales", "-", "asset_prices"), ("asset_prices", "-", "margin_calls")},
        ),
        (
            "Credit spreads widened and equity prices fell when geopolitical tensions rose.",
            {("geopolitical_risk", "+", "credit_spreads"), ("geopolitical_risk", "-", "equity_prices")},
        ),
        # a subject outside the vocabulary shared by two co-ordinated verbs: nothing is read
        ("Stress in the banking sector could tighten lending standards and reduce credit supply.", set()),
        ("The default of the five hedge funds would follow higher market volatility.", set()),
        # "there has been a slowdown in X because …", "given Y", verbs of postponing; a subordinate clause
        # has its own subject
        (
            "There has been a slowdown in loan growth because firms have postponed investment given high uncertainty.",
            {("investment", "+", "credit_growth"), ("uncertainty", "-", "investment")},
        ),
        ("Loan growth slowed because banks cancelled investment plans.", set()),
        # "a key driver of", "looser policy", "nominal growth", a nominal movement with its cause
        ("Geopolitical risk is a key driver of energy prices.", {("geopolitical_risk", "+", "energy_prices")}),
        ("Financial conditions eased, driven by looser policy.", {("policy_rate", "+", "financing_conditions")}),
        (
            "A sharp increase in bond yields due to an adverse outlook for inflation.",
            {("inflation", "+", "long_term_rate")},
        ),
        ("Adverse feedback loops between bank profitability and low nominal growth.", set()),  # retired rule
        # an inverted conditional ("Should X escalate, Y could rise")
        (
            "Should geopolitical tensions escalate, energy prices could rise sharply.",
            {("geopolitical_risk", "+", "energy_prices")},
        ),
        # a movement noun after the mention; a subordinate clause's subject outside the vocabulary
        (
            "A sudden increase in risk aversion could lead to sharp asset price corrections.",
            {("risk_aversion", "-", "asset_prices")},
        ),
        (
            "Sovereign stress could return if fiscal deficits stay high while growth weakens and financing costs rise.",
            set(),
        ),
        # causes after a stated move, "and thereby", an adverb before a verb, feed-through, favourable moves
        ("House prices have declined on account of higher mortgage rates.", {("mortgage_rates", "-", "house_prices")}),
        (
            "Tariffs raise import prices and thereby inflation.",
            {("tariffs", "+", "import_prices"), ("tariffs", "+", "inflation")},
        ),
        ("Weaker global demand has consequently reduced exports.", {("global_demand", "+", "trade_volumes")}),
        ("Energy price increases have fed through to consumer prices.", {("energy_prices", "+", "inflation")}),
        ("Credit spreads narrowed, helped by improving investor sentiment.", {("confidence", "-", "credit_spreads")}),
        # a verb after "and have" belongs to an earlier subject outside the vocabulary
        ("Banks have maintained capital buffers and have increased provisions for credit losses.", set()),
    ],
)
def test_report_language(sentence, expected):
    assert triples(sentence) == expected


# Everyday words of speeches and minutes, mapped by meaning, and the constructions they come in
# (sentences composed for the test, none taken from the gold set).
@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        # vocabulary by meaning: jobs, labour market, the currency, demand for exports, consumer prices
        ("Tariffs will reduce jobs.", {("tariffs", "-", "employment")}),
        ("A weaker labour market would reduce inflation.", {("employment", "+", "inflation")}),
        ("A lower Canadian dollar would boost exports.", {("exchange_rate", "-", "trade_volumes")}),
        ("US tariffs are reducing demand for Canadian exports.", {("tariffs", "-", "global_demand")}),
        ("Higher tariffs mean higher prices for consumers.", {("tariffs", "+", "inflation")}),
        ("Tariffs will lead to job losses in manufacturing.", {("tariffs", "-", "employment")}),
        ("Strong earnings have supported equity prices.", {("corporate_earnings", "+", "equity_prices")}),
        ("Trade uncertainty has caused firms to postpone investment.", {("uncertainty", "-", "investment")}),
        # the topic of "uncertainty about X" is not a second source
        (
            "Uncertainty about trade policy is weighing on business confidence.",
            {("uncertainty", "-", "confidence")},
        ),
        # appreciation / depreciation of a currency; weakness in, fewer, an increase to
        (
            "The depreciation of the Canadian dollar has pushed up import prices.",
            {("exchange_rate", "-", "import_prices")},
        ),
        ("The weakness in household consumption has lowered GDP growth.", {("consumption", "+", "real_gdp")}),
        ("Lower exports would mean fewer jobs.", {("trade_volumes", "+", "employment")}),
        ("A permanent increase to import tariffs would raise inflation.", {("tariffs", "+", "inflation")}),
        # a cause after "due to" / "because of" is the cause, never the verb's object
        ("Consumer spending slowed due to weaker confidence.", {("confidence", "+", "consumption")}),
        # a bare risk after "because of" / "in response to" is its rise
        ("Investment declined because of uncertainty.", {("uncertainty", "-", "investment")}),
        ("Businesses cut back on investment in response to the tariffs.", {("tariffs", "-", "investment")}),
        # a personal pronoun before the verb is its subject
        ("These disruptions will affect businesses and jobs, and they could drive up inflation.", set()),
        # "which" takes the stated movement of its antecedent; soften is a movement
        ("The labour market has softened, which has slowed wage growth.", {("employment", "+", "wages")}),
        # two co-ordinated conditions: neither causes the other, and both share the subordinator for the
        # main clause; bare "policy" only when eased or tightened
        (
            "If the labour market were to weaken or inflation were to fall, the policy rate could be cut.",
            {("employment", "+", "policy_rate"), ("inflation", "+", "policy_rate")},
        ),
        ("If oil prices were to rise or the labour market were to weaken.", set()),
        (
            "If the labour market were to weaken or inflation were to fall, we can ease policy.",
            {("employment", "+", "policy_rate"), ("inflation", "+", "policy_rate")},
        ),
        ("Central banks eased policy as inflation declined.", {("inflation", "+", "policy_rate")}),
        ("Fiscal policy would support demand.", set()),
        # the volatility of a macro variable is neither its level nor market volatility
        ("Tariffs would increase inflation volatility.", set()),
        ("Tariffs would increase equity volatility.", {("tariffs", "+", "volatility")}),
        # bare "demand" is aggregate demand only on its own ("weaker demand"), never "demand for X"
        ("Weaker demand would put downward pressure on inflation.", {("real_gdp", "+", "inflation")}),
        ("Higher rates have reduced demand for credit.", set()),
        ("Higher government demand would raise inflation.", set()),
        # a measure's movement is the variable's ("a subdued rate of growth"); disinflation is a fall
        (
            "The subdued rate of GDP growth reflects the weakness in household consumption.",
            {("consumption", "+", "real_gdp")},
        ),
        ("Disinflationary shocks could push policy rates down.", {("inflation", "+", "policy_rate")}),
        # a movement noun with its source after "from"
        (
            "Consumers will pay about one-third of the price increases from higher tariffs.",
            {("tariffs", "+", "inflation")},
        ),
        ("Inflation fell from 5% to 3% as energy prices declined.", {("energy_prices", "+", "inflation")}),
        # "trade" heading another noun is not trade volumes: trade disruptions are supply disruptions
        (
            "Trade disruptions would reduce exports and GDP.",
            {("supply_chain_disruptions", "-", "trade_volumes"), ("supply_chain_disruptions", "-", "real_gdp")},
        ),
        # fade is a movement; co-ordinated subjects of one movement all move, and cause nothing among themselves
        (
            "Inflation has eased as supply chain disruptions have faded.",
            {("supply_chain_disruptions", "+", "inflation")},
        ),
        (
            "In this scenario, GDP falls as exports and investment decline.",
            {("trade_volumes", "+", "real_gdp"), ("investment", "+", "real_gdp")},
        ),
        # "lower the level of X"; housing activity; "bring X down"
        ("A persistent trade war would permanently lower the level of GDP.", {("tariffs", "-", "real_gdp")}),
        ("Higher borrowing costs have weighed on housing activity.", {("lending_rates", "-", "construction_activity")}),
        # nouns of an effect: a drag on, a headwind for, a toll on, a boost to, support to, a risk to
        ("Tariffs will be a drag on economic growth.", {("tariffs", "-", "real_gdp")}),
        ("Uncertainty has been a headwind for business investment.", {("uncertainty", "-", "investment")}),
        ("Weaker exports have taken a toll on employment.", {("trade_volumes", "+", "employment")}),
        ("A weaker currency gives a boost to exports.", {("exchange_rate", "-", "trade_volumes")}),
        ("Lower oil prices will provide support to household consumption.", {("energy_prices", "-", "consumption")}),
        ("The trade war poses a significant risk to employment.", {("tariffs", "-", "employment")}),
        # the cost of imported goods; job losses are a fall in employment (the count of jobs)
        ("Higher tariffs increase the cost of imported goods.", {("tariffs", "+", "import_prices")}),
        ("Falling exports would translate into job losses.", {("trade_volumes", "+", "employment")}),
        # a stated condition with its cause after it; a currency that depreciated
        ("GDP growth had remained subdued, reflecting weak consumption.", {("consumption", "+", "real_gdp")}),
        ("Inflation remained high because of strong wage growth.", {("wages", "+", "inflation")}),
        ("Inflation remained high while unemployment remained low.", set()),
        (
            "The Australian dollar had depreciated, which would add to inflation.",
            {("exchange_rate", "-", "inflation")},
        ),
        # arrears, losses for lenders; "policy rates increase" is a noun and its verb, not "rate increases"
        (
            "Increases in debt service costs would lead to higher arrears.",
            {("household_debt_service", "+", "non_performing_loans")},
        ),
        ("A correction in house prices could lead to losses for lenders.", {("house_prices", "-", "credit_losses")}),
        (
            "Higher policy rates increase debt-servicing costs for households.",
            {("policy_rate", "+", "household_debt_service")},
        ),
        # a risk put in place or kept is its rise
        (
            "If tariffs remain in place, exports will decline and unemployment will rise.",
            {("tariffs", "-", "trade_volumes"), ("tariffs", "+", "unemployment")},
        ),
        ("Exports could fall sharply if tariffs are imposed.", {("tariffs", "-", "trade_volumes")}),
        ("Investment would weaken if uncertainty persists.", {("uncertainty", "-", "investment")}),
        # a passive with an adverb ("hit hard by"); what a producing participle creates
        ("Exports have been hit hard by tariffs.", {("tariffs", "-", "trade_volumes")}),
        (
            "The uncertainty created by tariffs is weighing on investment.",
            {("tariffs", "+", "uncertainty"), ("uncertainty", "-", "investment")},
        ),
        ("Tariffs create uncertainty.", {("tariffs", "+", "uncertainty")}),
        (
            "Higher mortgage payments are expected to weigh on consumption.",
            {("household_debt_service", "-", "consumption")},
        ),
        # an adjective signs the effect
        ("Uncertainty has a chilling effect on business investment.", {("uncertainty", "-", "investment")}),
        ("Lower oil prices have an expansionary effect on consumption.", {("energy_prices", "-", "consumption")}),
        # attribution: reflect, be behind, explain, account for, be the result of, be attributable to
        ("The decline in exports reflects the tariffs.", {("tariffs", "-", "trade_volumes")}),
        ("Tariffs explain much of the decline in exports.", {("tariffs", "-", "trade_volumes")}),
        ("The rise in unemployment is largely the result of weaker exports.", {("trade_volumes", "-", "unemployment")}),
        ("Weaker exports account for most of the slowdown in GDP growth.", {("trade_volumes", "+", "real_gdp")}),
        ("The slowdown in growth is mainly attributable to weaker consumption.", {("consumption", "+", "real_gdp")}),
        ("Exports account for 30% of GDP.", set()),
        # a subordinate clause closed by a comma holds no subject of the main verb; "come down" is a fall
        (
            "Because inflation has come down, we have been able to lower the policy rate.",
            {("inflation", "+", "policy_rate")},
        ),
        # "the effect of X on Y would be negative": the predicate signs the effect; unsigned effects say nothing
        ("The effect of tariffs on GDP would be negative.", {("tariffs", "-", "real_gdp")}),
        (
            "The impact of lower oil prices on consumption has been positive.",
            {("energy_prices", "-", "consumption")},
        ),
        ("The effects of tariffs on inflation are uncertain.", set()),
        # a demonstrative noun phrase before the verb is its subject
        (
            "Tariffs would raise inflation this year, and this increase would fade next year.",
            {("tariffs", "+", "inflation")},
        ),
    ],
)
def test_speech_language(sentence, expected):
    assert triples(sentence) == expected
