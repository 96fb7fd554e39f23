"""The offline reader on the language of central-bank speeches, minutes and testimony.

Every sentence here is composed for the test (none is copied from the gold set). Each group names the
construction class it covers, with negatives that must stay silent.
"""

from __future__ import annotations

import pytest

from aieco.extraction.lexicon import read_relations
from aieco.vocab import load_vocabulary


def triples(sentence: str) -> set[tuple[str, str, str]]:
    return {(r.src, r.sign.value, r.dst) for r in read_relations(sentence, load_vocabulary())}


# Purpose clause: <policy move> [adjunct] to <verb> <variable>. The agent of the infinitive is whoever moved
# the instrument, so the instrument's stated move is the source; the verb signs the effect.
PURPOSE = [
    ("The Bank began lowering its policy rate to stimulate GDP growth.", {("policy_rate", "-", "real_gdp")}),
    ("The central bank raised the policy rate in March to curb inflation.", {("policy_rate", "-", "inflation")}),
    ("Central banks tightened monetary policy to curb inflation.", {("policy_rate", "-", "inflation")}),
    ("The bank cut the policy rate in order to support consumer spending.", {("policy_rate", "-", "consumption")}),
    ("The central bank raised the policy rate to 5% to curb inflation.", {("policy_rate", "-", "inflation")}),
    # the subject's own infinitive is not a purpose clause: the subject acts
    ("Tariffs are expected to raise inflation.", {("tariffs", "+", "inflation")}),
    ("Higher policy rates are starting to work to slow GDP growth.", {("policy_rate", "-", "real_gdp")}),
    # an instrument named without a move says nothing of the direction
    ("The central bank kept the policy rate unchanged to support GDP growth.", set()),
    # negation and questions stay what they are
    ("The Bank did not raise the policy rate to curb inflation?", set()),
]

# Verbs whose particle or complement carries the direction: "bring X down", "get X under control",
# "keep X in check", "keep X from rising", "tame X".
PARTICLE = [
    ("The central bank raised the policy rate to bring inflation down.", {("policy_rate", "-", "inflation")}),
    (
        "Central banks are rapidly increasing policy rates to get inflation under control.",
        {("policy_rate", "-", "inflation")},
    ),
    (
        "Higher policy rates are starting to slow GDP growth and tame inflation.",
        {("policy_rate", "-", "real_gdp"), ("policy_rate", "-", "inflation")},
    ),
    ("Lower energy prices brought inflation back down.", {("energy_prices", "+", "inflation")}),
    ("Tighter monetary policy kept house prices from rising.", {("policy_rate", "-", "house_prices")}),
    ("Lower policy rates prevented house prices from falling further.", {("policy_rate", "-", "house_prices")}),
    # "back to target" states no direction
    ("Higher tariffs brought inflation back to target.", set()),
]


@pytest.mark.parametrize("sentence, expected", PURPOSE + PARTICLE)
def test_purpose_and_particle(sentence: str, expected: set[tuple[str, str, str]]) -> None:
    assert triples(sentence) == expected
