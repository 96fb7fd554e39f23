"""The rule reader split into named rules reads exactly what the single-function reader read.

``tests/fixtures/reader_outputs.json`` was written by the reader as it stood before the split (commit
d8fdb7a, ``read_relations``): every development sentence's readings in full, and for each held-back sentence
only a SHA-256 digest of its readings, so the held-back part's per-sentence output is never stored or read
(docs/labelling-guide.md: a blind part is scored in aggregate only). Regenerate it only for a deliberate change
of a rule's behaviour (it records the rules with the retired ones back in place):
``PYTHONPATH=. python tests/test_reader_rules.py --record``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "fixtures" / "reader_outputs.json"


def reading_rows(readings) -> list[list]:
    """Readings as plain rows, in the reader's order."""
    return [
        [r.src, r.dst, r.sign.value, r.verb, r.confidence, r.evidence_class.value, r.horizon, r.hedged, r.negated]
        for r in readings
    ]


def digest(sentence_id: str, rows: list[list]) -> str:
    return hashlib.sha256(json.dumps([sentence_id, rows], sort_keys=True).encode()).hexdigest()


def outputs(read) -> dict[str, dict]:
    """Every gold sentence's readings under ``read``: rows for development, a digest for held-back."""
    from aieco.extraction.gold import load_gold
    from aieco.vocab import load_vocabulary

    vocab = load_vocabulary()
    dev: dict[str, list[list]] = {}
    held: dict[str, str] = {}
    for g in load_gold():
        rows = reading_rows(read(g.text, vocab))
        if g.split == "dev":
            dev[g.id] = rows
        else:
            held[g.id] = digest(g.id, rows)
    return {"dev": dev, "held_back_digests": held}


def rules_at_split() -> tuple:
    """The rule tuple as it was at the split: the rules run today with the retired ones back at their place."""
    from aieco.extraction import rules

    out = list(rules.RULES)
    out.insert(out.index(rules.it_causes) + 1, rules.feedback_loop)
    assert {f.__name__ for f in out} - {f.__name__ for f in rules.RULES} == set(rules.RETIRED_RULES)
    return tuple(out)


def test_the_reader_reads_what_it_read_before_the_split_on_the_whole_gold_set():
    from aieco.extraction.rules import read_sentence

    at_split = rules_at_split()
    want = json.loads(FIXTURE.read_text(encoding="utf-8"))
    got = outputs(lambda text, vocab: read_sentence(text, vocab, at_split))
    changed_dev = sorted(k for k in want["dev"] if got["dev"].get(k) != want["dev"][k])
    # sentences held back at the split are compared by digest and reported by count only (round 7, held back
    # then, has joined the development part since; the gold set's later rounds are not in the record)
    now = {**{k: digest(k, rows) for k, rows in got["dev"].items()}, **got["held_back_digests"]}
    changed_held = sum(now.get(k) != v for k, v in want["held_back_digests"].items())
    assert len(want["dev"]) == 1410 and len(want["held_back_digests"]) == 252
    assert changed_dev == [] and changed_held == 0, (changed_dev[:10], changed_held)


def test_retiring_a_rule_removes_only_its_readings_on_the_development_part():
    from aieco.extraction.rules import read_sentence

    want = json.loads(FIXTURE.read_text(encoding="utf-8"))["dev"]
    got = {k: v for k, v in outputs(read_sentence)["dev"].items() if k in want}
    # the retired feedback-loop rule named its readings by its cue
    kept = {k: [row for row in rows if row[3] != "feedback loop between"] for k, rows in want.items()}
    assert got == kept
    assert sum(len(v) for v in want.values()) - sum(len(v) for v in got.values()) == 4


def test_every_rule_is_named_by_an_example_and_listed_once():
    from aieco.extraction import rules

    every = (*rules.CLAUSE_RULES, *rules.RULES[1:])
    assert rules.RULES[0] is rules.clauses
    assert [f.__name__ for f in every] == list(rules.RULE_NAMES)
    assert len(set(rules.RULE_NAMES)) == len(rules.RULE_NAMES) == 51
    for f in every:
        assert f.__doc__ and f.__doc__.strip()[0].isupper(), f.__name__


@pytest.mark.parametrize(
    "sentence, rule, movement_rules",
    [
        ("Higher tariffs raise import prices.", "active_clause", ()),
        ("Import prices are pushed up by higher tariffs.", "passive_voice", ()),
        ("As policy rates rise, house prices fall.", "subordinate_states", ("movement_clause",)),
        ("The drag from tariffs on growth.", "effect_noun", ()),
    ],
)
def test_each_reading_names_the_rule_that_read_it(sentence, rule, movement_rules):
    from aieco.extraction.rules import read_sentence
    from aieco.vocab import load_vocabulary

    (r,) = read_sentence(sentence, load_vocabulary())
    assert (r.rule, r.movement_rules) == (rule, movement_rules)


def _readings(sentence: str) -> dict[tuple[str, str, str], str]:
    """(source, target, sign) → the rule that read it, for one sentence."""
    from aieco.extraction.rules import read_sentence
    from aieco.vocab import load_vocabulary

    return {(r.src, r.dst, r.sign.value): r.rule for r in read_sentence(sentence, load_vocabulary())}


def _assert_read_by(sentence: str, want: tuple[str, str, str], rule: str) -> None:
    got = _readings(sentence)
    assert got.get(want) == rule, got


@pytest.mark.parametrize(
    "sentence, want, rule",
    [
        # session 15: three rules read on the sixteenth round's misses (ECB accounts) and measured on development
        (
            "Profits continued to buffer the pass-through of higher labour costs to inflation.",
            ("wages", "corporate_earnings", "-"),
            "profits_absorb",
        ),
        (
            "Firms were using profits to absorb part of the rise in labour costs.",
            ("wages", "corporate_earnings", "-"),
            "profits_absorb",
        ),
        (
            "Significant wage growth would be buffered by lower profits.",
            ("wages", "corporate_earnings", "-"),
            "profits_absorb",
        ),
        (
            "Firms were absorbing the higher unit labour costs through their profits.",
            ("wages", "corporate_earnings", "-"),
            "profits_absorb",
        ),
        (
            "The transmission of past policy rate hikes to broader financing conditions remained strong.",
            ("policy_rate", "financing_conditions", "+"),
            "transmitted_to",
        ),
        (
            "Restrictive monetary policy had been transmitted strongly to broader financing conditions.",
            ("policy_rate", "financing_conditions", "+"),
            "transmitted_to",
        ),
        (
            "The key ECB interest rates were at levels that were making a substantial contribution to the ongoing "
            "disinflation process.",
            ("policy_rate", "inflation", "-"),
            "contribution_to_disinflation",
        ),
        (
            "The slowdown in wage growth was expected to make a major contribution to the final phase of disinflation.",
            ("wages", "inflation", "+"),
            "contribution_to_disinflation",
        ),
        # the mends: a fading effect acts as its cause's reversal; a verb acting on "disinflation" acts on a fall
        (
            "The gradually fading effects of restrictive monetary policy were expected to support consumption.",
            ("policy_rate", "consumption", "-"),
            "active_clause",
        ),
        (
            "Past monetary policy tightening was supporting the disinflation process.",
            ("policy_rate", "inflation", "-"),
            "active_clause",
        ),
        (
            "Disinflation would be supported by the restrictive monetary policy stance.",
            ("policy_rate", "inflation", "-"),
            "passive_voice",
        ),
        # a list of causes read through items naming an effect, a fading one acting as its cause's reversal
        (
            "Inflation declined, owing to weaker growth in labour costs, the unfolding effects of restrictive "
            "monetary policy and the fading impact of the energy crisis.",
            ("wages", "inflation", "+"),
            "states_caused",
        ),
        (
            "Inflation declined, owing to weaker growth in labour costs, the unfolding effects of restrictive "
            "monetary policy and the fading impact of the energy crisis.",
            ("policy_rate", "inflation", "-"),
            "states_caused",
        ),
        (
            "Inflation declined, owing to weaker growth in labour costs, the unfolding effects of restrictive "
            "monetary policy and the fading impact of the energy crisis.",
            ("energy_prices", "inflation", "+"),
            "states_caused",
        ),
        (
            "Investment was expected to contract as a result of the ongoing transmission of monetary policy "
            "tightening.",
            ("policy_rate", "investment", "-"),
            "states_caused",
        ),
        # read on the seventeenth round's misses after its look
        (
            "Profits had started to mitigate the inflationary effects of wage increases.",
            ("wages", "corporate_earnings", "-"),
            "profits_absorb",
        ),
        (
            "Higher labour costs would continue to be absorbed by profits.",
            ("wages", "corporate_earnings", "-"),
            "profits_absorb",
        ),
        (
            "Inflation was expected to pick up again, mainly owing to energy-related base effects.",
            ("energy_prices", "inflation", "+"),
            "states_caused",
        ),
    ],
)
def test_the_rules_of_session_15(sentence, want, rule):
    _assert_read_by(sentence, want, rule)


@pytest.mark.parametrize(
    "sentence, absent",
    [
        # a question asks, a monetary policy with no stated move moves nothing, a goal named by an anaphor is none
        (
            "The question was raised whether profits would be able to absorb the rise in unit labour costs.",
            ("wages", "corporate_earnings", "-"),
        ),
        (
            "Monetary policy was being transmitted robustly to financing conditions.",
            ("policy_rate", "financing_conditions", "+"),
        ),
        (
            "Rates are at levels that will make a substantial contribution to this goal.",
            ("policy_rate", "inflation", "-"),
        ),
        # "as inflation fell and wages kept growing, real incomes would rebound": no link within the as-clause
        ("As inflation fell and wages kept growing, real incomes would rebound.", ("inflation", "wages", "-")),
        # "as A eased and past B, C and D faded": the as-clause's states are co-ordinate, none causes another
        (
            "Inflation would decline as labour cost dynamics moderated and past energy shocks, supply bottlenecks and "
            "reopening effects dissipated.",
            ("wages", "supply_chain_disruptions", "+"),
        ),
    ],
)
def test_what_the_rules_of_session_15_leave_unread(sentence, absent):
    assert absent not in _readings(sentence)


@pytest.mark.parametrize(
    "sentence, want, rule",
    [
        # session 16: read on the eighteenth round's misses after its look (ECB accounts' recurring phrasing)
        (
            "Upside risks to inflation could come from higher energy and food costs.",
            ("energy_prices", "inflation", "+"),
            "risks_from",
        ),
        (
            "Upside risks to inflation included renewed upward pressures on the costs of energy.",
            ("energy_prices", "inflation", "+"),
            "risks_from",
        ),
        (
            "Upside risks to inflation include the heightened geopolitical tensions.",
            ("geopolitical_risk", "inflation", "+"),
            "risks_from",
        ),
        (
            "Members stressed their determination to set policy rates at sufficiently restrictive levels for as long "
            "as necessary to bring inflation back to target.",
            ("policy_rate", "inflation", "-"),
            "restrictive_for_target",
        ),
        (
            "Members would keep policy rates sufficiently restrictive to ensure that inflation would return to the 2% "
            "medium-term target.",
            ("policy_rate", "inflation", "-"),
            "restrictive_for_target",
        ),
        (
            "Inflation would decline with the past monetary policy tightening gradually feeding through to consumer "
            "prices.",
            ("policy_rate", "inflation", "-"),
            "policy_feeds_through",
        ),
        # an effect adjective with its source and target; a contribution to "a" timely return
        (
            "The dampening effects from past interest rate increases on inflation had yet to materialise.",
            ("policy_rate", "inflation", "-"),
            "effect_noun",
        ),
        (
            "The key interest rates were in a range of levels that, maintained for a sufficiently long duration, would "
            "make a substantial contribution to a timely return of inflation to target.",
            ("policy_rate", "inflation", "-"),
            "contribution_to_disinflation",
        ),
        # the risk assessment's conditions: a more forceful policy effect, a stronger transmission set off by dashes
        (
            "Growth could be lower if the effects of monetary policy were more forceful than expected or if the world "
            "economy weakened.",
            ("policy_rate", "real_gdp", "-"),
            "subordinate_states",
        ),
        (
            "Weaker demand – for example owing to a stronger transmission of monetary policy or a worsening of the "
            "economic environment outside the euro area – would lead to lower price pressures.",
            ("policy_rate", "real_gdp", "-"),
            "states_caused",
        ),
        (
            "Weaker demand – for example owing to a stronger transmission of monetary policy or a worsening of the "
            "economic environment outside the euro area – would lead to lower price pressures.",
            ("global_demand", "real_gdp", "+"),
            "states_caused",
        ),
        (
            "Weaker demand – for example owing to a stronger transmission of monetary policy or a worsening of the "
            "economic environment outside the euro area – would lead to lower price pressures.",
            ("real_gdp", "inflation", "+"),
            "active_clause",
        ),
        # a level held with its reason in the "as" clause right after it
        (
            "Domestic inflation remained high, as wages were still rising at an elevated pace.",
            ("wages", "inflation", "+"),
            "subordinate_states",
        ),
        # market rates and what moved them: a cause's participle, weaker news about the economy
        (
            "Shorter-term market interest rates had declined, mainly in response to inflation falling faster than "
            "expected.",
            ("inflation", "policy_rate", "+"),
            "states_caused",
        ),
        (
            "Short-term market rates had declined since the Governing Council's previous monetary policy meeting, "
            "owing mainly to weaker news about the euro area economy.",
            ("real_gdp", "policy_rate", "+"),
            "states_caused",
        ),
        # a moved subject with its causes before the verb
        (
            "Lower demand for euro area exports, owing for instance to an escalation in trade tensions, would weigh "
            "on growth.",
            ("global_demand", "real_gdp", "+"),
            "active_clause",
        ),
        # a base effect: past falls dropping out of the annual rates raise it
        (
            "Inflation was expected to rise again, because previous falls in energy prices would drop out of the "
            "annual rates.",
            ("energy_prices", "inflation", "+"),
            "subordinate_states",
        ),
        (
            "Inflation had fallen, mainly driven by lower than expected energy prices.",
            ("energy_prices", "inflation", "+"),
            "states_caused",
        ),
        # second pass: a split verb's particle after a co-ordinated noun, "in view of", a subject list through "and
        # the impact of", jobs shed, a decline interrupted, surges receding
        (
            "Geopolitical tensions could push energy prices and freight costs higher in the near term.",
            ("geopolitical_risk", "energy_prices", "+"),
            "active_clause",
        ),
        (
            "Business investment was set to remain weak in view of tight financing conditions.",
            ("financing_conditions", "investment", "-"),
            "states_caused",
        ),
        (
            "Lower foreign demand and the impact of tight financing conditions were dampening activity.",
            ("global_demand", "real_gdp", "+"),
            "active_clause",
        ),
        (
            "Firms would start to shed jobs, which would lead to lower unit labour costs.",
            ("employment", "wages", "+"),
            "active_clause",
        ),
        (
            "The decline in inflation had been interrupted owing to the recent jump in energy prices.",
            ("energy_prices", "inflation", "+"),
            "states_caused",
        ),
        (
            "Goods inflation had declined, since past energy price surges were receding.",
            ("energy_prices", "inflation", "+"),
            "subordinate_states",
        ),
        # third pass, after the nineteenth round's look, on its misses (development since the twentieth round)
        (
            "Domestic price pressures, including from rising wages, were becoming an important driver of inflation.",
            ("wages", "inflation", "+"),
            "pressures_from",
        ),
        (
            "Wage pressures were becoming an increasingly important source of inflation.",
            ("wages", "inflation", "+"),
            "is_driver_of",
        ),
        (
            "The transmission of monetary policy was increasingly dampening demand.",
            ("policy_rate", "real_gdp", "-"),
            "active_clause",
        ),
        (
            "A downturn in house prices could be amplified by higher borrowing costs.",
            ("lending_rates", "house_prices", "-"),
            "passive_voice",
        ),
        (
            "Geopolitical tensions could fragment global trade.",
            ("geopolitical_risk", "trade_volumes", "-"),
            "active_clause",
        ),
        (
            "Weaker demand, for example owing to a stronger transmission of monetary policy, would lead to lower price "
            "pressures.",
            ("policy_rate", "real_gdp", "-"),
            "states_caused",
        ),
        (
            "Growth could be slower if monetary policy was transmitted more forcefully than expected.",
            ("policy_rate", "real_gdp", "-"),
            "subordinate_states",
        ),
        (
            "Monetary policy needs to be further tightened to ensure that inflation continues to fall.",
            ("policy_rate", "inflation", "-"),
            "move_purpose",
        ),
    ],
)
def test_the_rules_of_session_16(sentence, want, rule):
    _assert_read_by(sentence, want, rule)


@pytest.mark.parametrize(
    "sentence, absent",
    [
        # two conditions joined by "or if" are co-ordinate: neither causes the other
        (
            "Growth could be lower if the effects of monetary policy were more forceful than expected or if the world "
            "economy weakened.",
            ("policy_rate", "global_demand", "-"),
        ),
        # a cause inside the dashes is not the verb's subject
        (
            "Weaker demand – for example owing to a stronger transmission of monetary policy – would ease price "
            "pressures.",
            ("policy_rate", "inflation", "-"),
        ),
        # the causes after a moved subject are not the verb's subject
        (
            "Lower demand for euro area exports, owing for instance to an escalation in trade tensions, would weigh "
            "on growth.",
            ("tariffs", "real_gdp", "-"),
        ),
        # with inflation at target, no goal is stated
        (
            "With inflation back to target, policy rates no longer needed to be in restrictive territory.",
            ("policy_rate", "inflation", "-"),
        ),
        # a risk to a variable whose source has no stated move (and no adverse rise)
        ("Upside risks to inflation could come from the exchange rate.", ("exchange_rate", "inflation", "+")),
        # the meeting is not the instrument
        (
            "Since the previous monetary policy meeting, inflation had declined.",
            ("policy_rate", "inflation", "-"),
        ),
        # a purpose is not a verb's object: the policy rate raised further to ensure that inflation falls
        (
            "The Riksbank judges that the policy rate now needs to be raised further to ensure that inflation "
            "continues to fall.",
            ("policy_rate", "inflation", "+"),
        ),
        # a correlative whose second part is a risk: the variables inside it are not what moves
        (
            "The more resilient the economy remained, the bigger the risk that firms would pass the higher unit "
            "labour costs on in their prices.",
            ("real_gdp", "wages", "+"),
        ),
        # a pressure named with a falling source is not read as rising with it
        ("Domestic price pressures, including from falling energy prices, eased.", ("energy_prices", "inflation", "+")),
    ],
)
def test_what_the_rules_of_session_16_leave_unread(sentence, absent):
    assert absent not in _readings(sentence)


@pytest.mark.parametrize(
    "sentence, want, rule",
    [
        # session 17: read on the misses of rounds 20-22 after their looks (each failed on the reader of session 16)
        (
            "Policy rate increases were being transmitted strongly to risk-free interest rates and to "
            "financing conditions for firms.",
            ("policy_rate", "financing_conditions", "+"),
            "transmitted_to",
        ),
        (
            "The impact of tighter monetary policy was becoming visible in financing conditions.",
            ("policy_rate", "financing_conditions", "+"),
            "policy_feeds_through",
        ),
        (
            "Monetary policy still had some way to go to bring inflation down.",
            ("policy_rate", "inflation", "-"),
            "move_purpose",
        ),
        (
            "The Governing Council would have further ground to cover in adjusting the monetary policy stance "
            "to ensure a timely return of inflation to target.",
            ("policy_rate", "inflation", "-"),
            "move_purpose",
        ),
        (
            "Inflation excluding energy and food had increased markedly to 5.6% in February, from 5.3% in "
            "January, driven by the delayed pass-through of the past surge in energy prices.",
            ("energy_prices", "inflation", "+"),
            "states_caused",
        ),
        (
            "The fall in energy prices, combined with the appreciation of the euro and continued tightening "
            "of credit conditions, was expected to dampen core inflation.",
            ("exchange_rate", "inflation", "-"),
            "active_clause",
        ),
        (
            "The fall in energy prices was lowering price pressures, while at the same time boosting confidence.",
            ("energy_prices", "confidence", "-"),
            "active_clause",
        ),
        (
            "Nominal wage growth was a little lower because of the fall in the cost of living.",
            ("inflation", "wages", "+"),
            "passive_voice",
        ),
        (
            "Risk premia had declined, compressing bond spreads and boosting equity prices.",
            ("risk_premia", "equity_prices", "-"),
            "active_clause",
        ),
        (
            "The recent fall in energy prices, if it persisted, might slow inflation.",
            ("energy_prices", "inflation", "+"),
            "active_clause",
        ),
        (
            "This downward pressure in the energy component could translate into weaker dynamics for "
            "underlying inflation.",
            ("energy_prices", "inflation", "+"),
            "active_clause",
        ),
        (
            "Russia’s war against Ukraine could again push up the costs of energy.",
            ("geopolitical_risk", "energy_prices", "+"),
            "active_clause",
        ),
        (
            "The strong downward base effects in energy inflation were projected to bring headline inflation down.",
            ("energy_prices", "inflation", "+"),
            "active_clause",
        ),
        (
            "Higher inflation, lingering uncertainty and further cuts in the supply of gas had dampened "
            "consumer confidence.",
            ("oil_supply", "confidence", "+"),
            "active_clause",
        ),
        (
            "Higher mortgage rates might induce workers to demand higher wages.",
            ("mortgage_rates", "wages", "+"),
            "active_clause",
        ),
        (
            "A deterioration in the employment outlook could prompt lower consumption.",
            ("employment", "consumption", "+"),
            "active_clause",
        ),
        (
            "The Governing Council should stay the course in raising interest rates significantly at a steady "
            "pace and in keeping them at levels that were sufficiently restrictive to ensure a timely return "
            "of inflation to the 2% target.",
            ("policy_rate", "inflation", "-"),
            "restrictive_for_target",
        ),
        # the pass on round 23's misses (each failed on the reader before it, bd40016)
        (
            "Indeed, the possibility of Russian gas supply shortages increased the probability of a recession.",
            ("oil_supply", "real_gdp", "+"),
            "active_clause",
        ),
        (
            "The depreciation of the euro was also a source of higher inflation.",
            ("exchange_rate", "inflation", "-"),
            "is_driver_of",
        ),
        (
            "Surging energy prices had again been the most important component of overall inflation.",
            ("energy_prices", "inflation", "+"),
            "is_driver_of",
        ),
        (
            "The war could further dampen confidence.",
            ("geopolitical_risk", "confidence", "-"),
            "active_clause",
        ),
        (
            "If the war were to escalate, economic sentiment could worsen.",
            ("geopolitical_risk", "confidence", "-"),
            "subordinate_states",
        ),
    ],
)
def test_the_rules_of_session_17(sentence, want, rule):
    _assert_read_by(sentence, want, rule)


@pytest.mark.parametrize(
    "sentence, absent",
    [
        # session 17: misreadings of rounds 20-22 no longer read (each was read by the reader of session 16)
        (
            "Banks reported declining demand for bank credit, owing to the general level of interest rates, "
            "weaker fixed investments and worsening housing market prospects.",
            ("investment", "house_prices", "-"),
        ),
        (
            "Higher mortgage rates might induce workers to demand higher wages.",
            ("mortgage_rates", "real_gdp", "+"),
        ),
        (
            "The latest developments in oil prices and the exchange rate would imply a downward impact on inflation.",
            ("energy_prices", "inflation", "-"),
        ),
        (
            "Inflation was still being pushed up by the pass-through of past energy cost increases and supply "
            "bottlenecks.",
            ("energy_prices", "supply_chain_disruptions", "+"),
        ),
        (
            "These included higher market rates, a stronger euro and markedly lower energy prices.",
            ("exchange_rate", "energy_prices", "-"),
        ),
        (
            "An extension of the fiscal measures, in view of governments’ attempts to buffer the energy price "
            "shock, could lift inflation.",
            ("energy_prices", "inflation", "+"),
        ),
        (
            "A shallow recession was unlikely to keep inflation in check.",
            ("real_gdp", "inflation", "+"),
        ),
        (
            "Lower potential output would imply higher inflationary pressures.",
            ("real_gdp", "inflation", "-"),
        ),
        (
            "The increase in interest rates was expected to lead to higher financing costs for governments.",
            ("policy_rate", "lending_rates", "+"),
        ),
        (
            "Monetary policy primarily controlled inflation via a dampening effect on economic activity.",
            ("inflation", "real_gdp", "-"),
        ),
        (
            "Given that investors expected a fast and sustained return of inflation to 2%, they expected "
            "policy rates to remain at a restrictive level for only a short period.",
            ("policy_rate", "inflation", "-"),
        ),
        (
            "The factors behind the increase in core inflation were different, with wages playing a central "
            "role in one economy.",
            ("wages", "inflation", "+"),
        ),
        (
            "At the same time, commodity prices had fallen, financing conditions had tightened and the "
            "effective exchange rate of the euro had appreciated.",
            ("financing_conditions", "exchange_rate", "+"),
        ),
        (
            "Over the medium term inflation could be higher if there were increases in the prices of energy; "
            "a persistent worsening of production capacity; or higher than anticipated wage rises.",
            ("energy_prices", "wages", "+"),
        ),
        (
            "Growth in loans to firms had weakened owing to higher borrowing rates, tighter credit supply "
            "conditions and lower demand.",
            ("lending_rates", "real_gdp", "-"),
        ),
        # the pass on round 23's misses (each was read by the reader before it, bd40016)
        (
            "The latest bank lending survey showed that banks had considerably tightened their credit standards.",
            ("credit_growth", "lending_standards", "+"),
        ),
        (
            "The upward revision reflected the ongoing reopening of the economy, especially in some services, "
            "the re-emergence of some supply disruptions, tightening labour markets and a pick-up in wage "
            "increases.",
            ("real_gdp", "employment", "+"),
        ),
        (
            "Thanks to the higher nominal GDP, the debt-to-GDP ratio was expected to decline.",
            ("real_gdp", "government_debt", "-"),
        ),
        (
            "Three sources of policy uncertainty were behind the current volatility.",
            ("volatility", "uncertainty", "+"),
        ),
        (
            "Other commodity prices had moderated since the meeting, with gas, metals and food prices declining.",
            ("inflation", "energy_prices", "+"),
        ),
        (
            "The unemployment rate had declined again in Spain, where the recovery in tourism had helped to "
            "create jobs.",
            ("unemployment", "employment", "+"),
        ),
        (
            "If geopolitical tensions were to escalate, economic sentiment could worsen, supply-side "
            "constraints could increase, and energy costs could remain higher than expected.",
            ("geopolitical_risk", "confidence", "+"),
        ),
    ],
)
def test_what_the_rules_of_session_17_leave_unread(sentence, absent):
    assert absent not in _readings(sentence)


@pytest.mark.parametrize(
    "sentence, want, rule",
    [
        # session 18: the pass on round 24's misses (each failed on the reader before it, 33a38ed)
        (
            "Energy prices continued to be the main reason for the high rate of inflation.",
            ("energy_prices", "inflation", "+"),
            "is_driver_of",
        ),
        (
            "Energy costs, which had risen sharply after the invasion, continued to be the main contributor to "
            "inflation.",
            ("energy_prices", "inflation", "+"),
            "is_driver_of",
        ),
        (
            "The war in Ukraine constituted a substantial upside risk to energy prices.",
            ("geopolitical_risk", "energy_prices", "+"),
            "is_risk_to",
        ),
        (
            "The war had substantially increased the risks to the growth outlook, which were skewed to the downside.",
            ("geopolitical_risk", "real_gdp", "-"),
            "active_clause",
        ),
        (
            "If demand were to weaken in the wake of an economic slowdown, it would lower pressures on prices.",
            ("real_gdp", "inflation", "+"),
            "subordinate_states",
        ),
        (
            "The rise in inflation was due to global factors: energy prices, supply bottlenecks and the war.",
            ("supply_chain_disruptions", "inflation", "+"),
            "reverse_connector",
        ),
        (
            "Core inflation was being driven by external factors, including energy prices and bottlenecks.",
            ("energy_prices", "inflation", "+"),
            "reverse_connector",
        ),
        (
            "If price pressures feed through into higher wage rises, inflation could turn out to be higher.",
            ("wages", "inflation", "+"),
            "subordinate_states",
        ),
        (
            "The Russian invasion had pushed up commodity prices.",
            ("geopolitical_risk", "energy_prices", "+"),
            "active_clause",
        ),
        (
            "The war had caused substantial volatility in financial markets owing to heightened uncertainty.",
            ("geopolitical_risk", "volatility", "+"),
            "active_clause",
        ),
        # the pass on round 25's misses (each failed on the reader before it, 715525b)
        (
            "Monetary policy support was still needed for inflation to stabilise at the 2% target.",
            ("policy_rate", "inflation", "-"),
            "support_for_target",
        ),
        (
            "Financing conditions needed to remain supportive for inflation to converge to the target.",
            ("financing_conditions", "inflation", "-"),
            "support_for_target",
        ),
        (
            "Increased energy costs – and price increases more broadly – were headwinds for consumption.",
            ("energy_prices", "consumption", "-"),
            "is_risk_to",
        ),
        (
            "High energy costs constituted a downside risk to consumer spending and investment.",
            ("energy_prices", "investment", "-"),
            "is_risk_to",
        ),
        (
            "Energy prices remained by far the most important factor for inflation.",
            ("energy_prices", "inflation", "+"),
            "is_driver_of",
        ),
        (
            "The slowdown in growth reflected the spread of the virus, persisting bottlenecks and still high energy "
            "prices.",
            ("energy_prices", "real_gdp", "-"),
            "reverse_connector",
        ),
        (
            "For 2023, growth had been revised up, reflecting the expected fading of supply bottlenecks.",
            ("supply_chain_disruptions", "real_gdp", "-"),
            "reverse_connector",
        ),
        (
            "The fall in oil prices since the cut-off date would mechanically lower inflation.",
            ("energy_prices", "inflation", "+"),
            "active_clause",
        ),
        (
            "The upward revision to inflation was due to developments in volatile energy prices.",
            ("energy_prices", "inflation", "+"),
            "reverse_connector",
        ),
    ],
)
def test_the_rules_of_session_18(sentence, want, rule):
    _assert_read_by(sentence, want, rule)


@pytest.mark.parametrize(
    "sentence, absent",
    [
        # session 18: misreadings the pass on round 24's misses removes (each was read by the reader before it)
        ("The war in Ukraine had increased the risks to the growth outlook.", ("geopolitical_risk", "real_gdp", "+")),
        (
            "If demand were to weaken in the wake of an economic slowdown, it would lower inflation.",
            ("real_gdp", "inflation", "-"),
        ),
        # the pass on round 25's misses
        (
            "A much lower inflation figure was partly explained by government measures to contain energy price "
            "increases.",
            ("energy_prices", "inflation", "-"),
        ),
        (
            "This cautioned against portraying the high level of inflation as being the result of energy price "
            "developments.",
            ("energy_prices", "inflation", "+"),
        ),
        (
            "Inflation could be higher if the surge in energy prices intensified, especially if geopolitical tensions "
            "were to escalate, if oil supply remained sluggish.",
            ("geopolitical_risk", "oil_supply", "-"),
        ),
    ],
)
def test_what_the_rules_of_session_18_leave_unread(sentence, absent):
    assert absent not in _readings(sentence)


@pytest.mark.parametrize(
    "sentence, want, rule",
    [
        # session 19: the pass on round 26's misses (FOMC minutes; each failed on the reader before it)
        (
            "Wage growth slowed, in part because of higher-than-expected unemployment.",
            ("unemployment", "wages", "-"),
            "states_caused",
        ),
        (
            "Output growth slowed, in part due to the Committee's restrictive monetary policy.",
            ("policy_rate", "real_gdp", "-"),
            "states_caused",
        ),
        (
            "Participants expected a modest slowing in consumer spending, in part due to tighter lending standards.",
            ("lending_standards", "consumption", "-"),
            "states_caused",
        ),
        (
            "Headline inflation slowed, mainly reflecting the rapid pass-through of lower energy prices.",
            ("energy_prices", "inflation", "+"),
            "states_caused",
        ),
        (
            "Cutting policy rates too soon could risk a stalling or a reversal of the progress on inflation.",
            ("policy_rate", "inflation", "-"),
            "progress_set_back",
        ),
        (
            "Participants noted that reducing policy restraint too quickly could stall the progress on inflation.",
            ("policy_rate", "inflation", "-"),
            "progress_set_back",
        ),
        (
            "Among the upside risks to inflation cited by participants were stronger-than-expected consumption and "
            "higher energy prices.",
            ("consumption", "inflation", "+"),
            "risks_from",
        ),
        (
            "Participants saw downside risks to economic activity and employment, including weaker global growth.",
            ("global_demand", "employment", "+"),
            "risks_from",
        ),
        (
            "A few participants noted upside inflation risks associated with geopolitical tensions.",
            ("geopolitical_risk", "inflation", "+"),
            "risks_from",
        ),
        (
            "As sources of upside risks to inflation, some participants cited disruptions to supply chains.",
            ("supply_chain_disruptions", "inflation", "+"),
            "risks_from",
        ),
        (
            "Members pointed to disruptions in global supply chains due to geopolitical tensions.",
            ("geopolitical_risk", "supply_chain_disruptions", "+"),
            "states_caused",
        ),
        (
            "Abroad, output expanded slowly, as restrictive monetary policy continued to be a drag on activity.",
            ("policy_rate", "real_gdp", "-"),
            "active_clause",
        ),
        (
            "Several central banks cut their policy rates, in part citing easing inflation pressures.",
            ("inflation", "policy_rate", "+"),
            "states_caused",
        ),
        (
            "Residential investment was weak in the first quarter, likely reflecting higher mortgage rates.",
            ("mortgage_rates", "construction_activity", "-"),
            "states_caused",
        ),
        (
            "Participants noted that, with continued rebalancing of labor market conditions, wage growth had "
            "continued to slow.",
            ("employment", "wages", "+"),
            "with_moved",
        ),
        (
            "Participants cited risks of a slowing in consumer spending in response to labor market cooling.",
            ("employment", "consumption", "+"),
            "states_caused",
        ),
        # the pass on round 27's misses (the FOMC minutes of March to June 2024)
        (
            "Risks to the inflation forecast were seen as tilted to the upside, reflecting the possibility that "
            "supply-side disruptions could materialize.",
            ("supply_chain_disruptions", "inflation", "+"),
            "tilt_reflecting",
        ),
        (
            "The risks around the forecast for economic activity were seen as skewed to the downside on the grounds "
            "that higher inflation could result in tighter financial conditions.",
            ("financing_conditions", "real_gdp", "-"),
            "tilt_reflecting",
        ),
        (
            "The possibility that geopolitical events could generate energy price increases was also seen as an "
            "upside risk to inflation.",
            ("energy_prices", "inflation", "+"),
            "is_risk_to",
        ),
        (
            "Core services inflation was expected to decline as the labor market continued to move into better "
            "balance.",
            ("employment", "inflation", "+"),
            "subordinate_states",
        ),
        (
            "The better balance between labor demand and supply had contributed to an easing of wage pressures.",
            ("employment", "wages", "+"),
            "active_clause",
        ),
        (
            "Inflation could resume its decline as wage growth slows further with labor demand and supply moving into "
            "better balance.",
            ("employment", "wages", "+"),
            "with_moved",
        ),
        (
            "Spending by higher-income households was likely being bolstered by increasing asset prices.",
            ("asset_prices", "consumption", "+"),
            "passive_voice",
        ),
        (
            "Participants viewed restrictive monetary policy as having a restraining effect on consumption.",
            ("policy_rate", "consumption", "-"),
            "active_clause",
        ),
        (
            "Participants pointed to risks that inflation could stay elevated as a result of worsening geopolitical "
            "developments.",
            ("geopolitical_risk", "inflation", "+"),
            "states_caused",
        ),
        # the pass on round 28's misses (the FOMC minutes of December 2022 to March 2023)
        (
            "Inflation remained much too high; as a result, participants anticipated that some additional policy "
            "firming may be appropriate.",
            ("inflation", "policy_rate", "+"),
            "consequence_stated",
        ),
        (
            "Persistently tight financial conditions were seen as tilting the risks to the downside around the "
            "baseline projection for real economic activity.",
            ("financing_conditions", "real_gdp", "-"),
            "tilting_risks",
        ),
        (
            "Treasury yields declined over the intermeeting period, driven primarily by lower-than-expected inflation "
            "data releases.",
            ("inflation", "long_term_rate", "+"),
            "states_caused",
        ),
        (
            "Global equity indexes rose, supported in part by lower natural gas prices.",
            ("energy_prices", "equity_prices", "-"),
            "states_caused",
        ),
        (
            "Foreign economic growth slowed, weighed down by repercussions of Russia's war against Ukraine.",
            ("geopolitical_risk", "global_demand", "-"),
            "states_caused",
        ),
        # the pass on round 29's misses (the FOMC minutes of July to November 2022)
        (
            "With inflation persistently high, many central banks continued to tighten monetary policy.",
            ("inflation", "policy_rate", "+"),
            "policy_reaction_with",
        ),
        (
            "In light of the unacceptably high level of inflation, participants remarked that moving to a restrictive "
            "policy stance was appropriate.",
            ("inflation", "policy_rate", "+"),
            "policy_reaction_with",
        ),
        (
            "Many foreign central banks tightened monetary policy to address high inflation.",
            ("policy_rate", "inflation", "-"),
            "move_purpose",
        ),
    ],
)
def test_the_rules_of_session_19(sentence, want, rule):
    _assert_read_by(sentence, want, rule)


@pytest.mark.parametrize(
    "sentence, want, rule",
    [
        # session 20: the pass on round 30's misses (the FOMC minutes of March to June 2022; each failed on the reader
        # before it): "the invasion" names the war, and risks cited after a tilt are its reasons
        (
            "In the near term, the invasion and related events were likely to create additional upward pressure on "
            "inflation and weigh on economic activity.",
            ("geopolitical_risk", "inflation", "+"),
            "active_clause",
        ),
        (
            "In the near term, the invasion and related events were likely to create additional upward pressure on "
            "inflation and weigh on economic activity.",
            ("geopolitical_risk", "real_gdp", "-"),
            "active_clause",
        ),
        (
            "Most participants agreed that risks to inflation were skewed to the upside and cited several such risks, "
            "including those associated with ongoing supply bottlenecks and rising energy and commodity prices.",
            ("supply_chain_disruptions", "inflation", "+"),
            "tilt_reflecting",
        ),
        (
            "Most participants agreed that risks to inflation were skewed to the upside and cited several such risks, "
            "including those associated with ongoing supply bottlenecks and rising energy and commodity prices.",
            ("energy_prices", "inflation", "+"),
            "tilt_reflecting",
        ),
        # the pass on round 31's misses (the FOMC minutes of September and December 2021): supply constraints and
        # issues are supply disruptions, "continued gains in" a variable is its rise, "the flow of" credit is credit
        (
            "An easing of supply constraints was expected to support continued gains in economic activity and "
            "employment as well as a reduction in inflation.",
            ("supply_chain_disruptions", "employment", "-"),
            "active_clause",
        ),
        (
            "An easing of supply constraints was expected to support continued gains in economic activity and "
            "employment as well as a reduction in inflation.",
            ("supply_chain_disruptions", "inflation", "+"),
            "active_clause",
        ),
        (
            "Over the following two years, the boost to consumer prices caused by supply issues was expected to "
            "partly reverse.",
            ("supply_chain_disruptions", "inflation", "+"),
            "passive_voice",
        ),
        (
            "These asset purchases help foster accommodative financial conditions, thereby supporting the flow of "
            "credit to households and businesses.",
            ("financing_conditions", "credit_growth", "-"),
            "active_clause",
        ),
    ],
)
def test_the_rules_of_session_20(sentence, want, rule):
    _assert_read_by(sentence, want, rule)


@pytest.mark.parametrize(
    "sentence, absent",
    [
        # session 19: misreadings the pass on round 26's misses removes (each was read by the reader before it)
        (
            "Nominal Treasury yields declined, driven by reductions in both inflation compensation and real yields.",
            ("inflation", "long_term_rate", "+"),
        ),
        (
            "Yields on fixed-income securities, including investment- and speculative-grade corporate bonds and "
            "mortgage-backed securities, moved lower, generally following decreases in benchmark Treasury yields.",
            ("long_term_rate", "investment", "+"),
        ),
        (
            "Consumption had been supported by rising real wages and elevated household wealth.",
            ("wages", "consumption", "+"),
        ),
        (
            "Labor market conditions had generally eased since earlier in the year, and the unemployment rate had "
            "moved up.",
            ("unemployment", "employment", "-"),
        ),
        (
            "Upside risks to inflation included disruptions in shipping routes due to geopolitical tensions, stronger "
            "consumption, or persistent shelter price increases.",
            ("geopolitical_risk", "inflation", "+"),
        ),
        # the pass on round 27's misses
        (
            "Participants pointed to risks that inflation could stay elevated as a result of worsening geopolitical "
            "developments.",
            ("inflation", "geopolitical_risk", "+"),
        ),
        # the pass on round 28's misses
        (
            "Inflation remained much too high; as a result, participants anticipated that some additional policy "
            "firming may be appropriate.",
            ("policy_rate", "inflation", "+"),
        ),
    ],
)
def test_what_the_rules_of_session_19_leave_unread(sentence, absent):
    assert absent not in _readings(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        # an item of the "with" phrase's own list, not the main clause's policy
        "With a weaker economy, tighter monetary policy and the world economy losing momentum, inflation should fall.",
        # a move argued against
        "In view of the persistent and high level of inflation, participants cautioned against prematurely loosening "
        "monetary policy.",
        # the real rate, and a policy move named in a time phrase
        "With inflation elevated, some participants emphasized that the real federal funds rate would still be low "
        "after this meeting's policy rate hike.",
    ],
)
def test_a_policy_reaction_is_read_only_from_the_main_clause(sentence):
    assert "policy_reaction_with" not in _readings(sentence).values()


def test_rule_scores_add_up_to_the_development_score_and_no_rule_is_below_the_floor():
    from aieco.benchmarks.extraction import RULE_PRECISION_FLOOR
    from aieco.extraction.gold import evaluate, load_gold, score_rules
    from aieco.extraction.rules import read_sentence
    from aieco.vocab import load_vocabulary

    gold = [g for g in load_gold() if g.split == "dev"]
    (dev,), _ = evaluate(gold=gold)
    vocab = load_vocabulary()
    by_rule: dict[str, list[int]] = {}
    for g in gold:
        want = {(x.src, x.dst, x.sign) for x in g.relations}
        for r in read_sentence(g.text, vocab):
            if r.sign.value in "+-":
                n = by_rule.setdefault(r.rule, [0, 0])
                n[0] += 1
                n[1] += (r.src, r.dst, r.sign.value) in want
    assert sum(n[0] for n in by_rule.values()) == dev.proposed
    assert sum(n[1] for n in by_rule.values()) == dev.true_positives
    scores = {s.rule: s for s in score_rules(gold)}
    for name, (proposed, hits) in by_rule.items():  # a rule's own readings are among those it is scored on
        assert scores[name].proposed >= proposed and scores[name].true_positives >= hits
    low = {s.rule: s.precision for s in scores.values() if s.proposed and s.precision < RULE_PRECISION_FLOOR}
    assert low == {}


def test_rules_are_scored_on_the_development_part_only():
    from aieco.errors import InputError
    from aieco.extraction.gold import load_gold, score_rules

    with pytest.raises(InputError, match="development part only"):
        score_rules(load_gold(), "held_back")


def test_the_bench_reports_each_rules_figures_with_the_precision_floor():
    from aieco.benchmarks.extraction import rule_figures
    from aieco.extraction.gold import RuleScore

    figs = rule_figures(
        [
            RuleScore(rule="a", proposed=4, true_positives=2, precision=0.5, recall=0.01),
            RuleScore(rule="b", proposed=0, true_positives=0, precision=0.0, recall=0.0),
        ]
    )
    named = {f.name: f for f in figs}
    assert named["dev rule a: precision"].met is False and named["dev rule a: proposed"].value == 4
    assert "dev rule b: precision" not in named and named["dev rule b: proposed"].value == 0


def test_no_function_of_the_reader_is_longer_than_120_lines():
    import ast

    root = Path(__file__).resolve().parents[1] / "aieco" / "extraction"
    long = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno - node.lineno >= 120:
                long.append(f"{path.name}:{node.name}")
    assert long == []


if __name__ == "__main__" and "--record" in sys.argv:
    from aieco.extraction.rules import read_sentence

    at_split = rules_at_split()
    out = outputs(lambda text, vocab: read_sentence(text, vocab, at_split))
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for part in ("dev", "held_back_digests") for k, v in out[part].items()]
    n = len(out["dev"])
    text = '{"dev": {\n' + ",\n".join(lines[:n]) + '\n},\n"held_back_digests": {\n' + ",\n".join(lines[n:]) + "\n}}\n"
    FIXTURE.write_text(text, encoding="utf-8")
    print(f"wrote {FIXTURE}")
