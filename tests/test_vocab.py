"""The controlled vocabulary: size, required ids, synonym resolution, longest match, inflection."""

from __future__ import annotations

import re

import pytest

from aieco.errors import InputError
from aieco.vocab import Vocabulary, load_vocabulary, stem

DEMO_IDS = [
    "tariffs",
    "trade_volumes",
    "import_prices",
    "geopolitical_risk",
    "uncertainty",
    "volatility",
    "equity_prices",
    "real_gdp",
    "unemployment",
    "inflation",
    "long_term_rate",
    "mortgage_rates",
    "house_prices",
    "household_wealth",
    "consumption",
    "credit_losses",
    "market_liquidity",
    "fire_sales",
    "bank_funding_costs",
    "lending_standards",
    "policy_rate",
    "energy_prices",
    "cet1_ratio",
]
ISSUE_IDS = [
    "term_premium",
    "credit_spreads",
    "credit_growth",
    "investment",
    "commercial_property_prices",
    "household_debt_service",
    "corporate_defaults",
    "bank_profitability",
]


def test_vocabulary_has_forty_variables_and_every_demo_id():
    v = load_vocabulary()
    assert len(v) >= 40
    for vid in DEMO_IDS + ISSUE_IDS:
        assert vid in v, vid


@pytest.mark.parametrize(
    "var, model, adverse, reference",
    [
        ("real_gdp", "real_gdp", "decrease", "zero"),
        ("equity_prices", "equity_prices", "decrease", "zero"),
        ("house_prices", "house_prices", "decrease", "zero"),
        ("inflation", "inflation", "increase", "last_observed"),
        ("unemployment", "unemployment", "increase", "last_observed"),
        ("long_term_rate", "long_term_rate", "increase", "last_observed"),
    ],
)
def test_model_variables_adverse_direction_and_reference(var, model, adverse, reference):
    v = load_vocabulary()
    assert v.get(var).model_variable == model
    assert v.get(var).adverse_direction.value == adverse
    assert v.reference(var) == reference


def test_only_the_six_var_variables_map_to_the_model():
    v = load_vocabulary()
    assert sorted(x.variable_id for x in v.variables.values() if x.model_variable) == sorted(
        ["real_gdp", "equity_prices", "house_prices", "inflation", "unemployment", "long_term_rate"]
    )


@pytest.mark.parametrize(
    "phrase, vid",
    [
        ("policy rate", "policy_rate"),
        ("Short-term policy interest rate", "policy_rate"),
        ("HOUSE PRICES", "house_prices"),
        ("house price", "house_prices"),
        ("Credit Losses", "credit_losses"),
        ("long-term interest rates", "long_term_rate"),
        ("CET1 ratios", "cet1_ratio"),
        ("nothing here", None),
    ],
)
def test_resolve_is_case_and_inflection_insensitive(phrase, vid):
    assert load_vocabulary().resolve(phrase) == vid


def test_longest_synonym_wins():
    ms = load_vocabulary().mentions("Higher long-term interest rates and residential property prices.")
    assert [(m.variable_id, m.text) for m in ms] == [
        ("long_term_rate", "long-term interest rates"),
        ("house_prices", "residential property prices"),
    ]
    # "credit growth" is one mention, not real_gdp ("growth").
    assert load_vocabulary().variables_in("credit growth slowed") == ["credit_growth"]


@pytest.mark.parametrize(
    "word, expected",
    [
        ("prices", "price"),
        ("losses", "loss"),
        ("tariffs", "tariff"),
        ("economies", "economy"),
        ("Rates", "rate"),
        ("bus", "bus"),
    ],
)
def test_stem(word, expected):
    assert stem(word) == expected


def test_bad_vocabulary_files_are_refused(tmp_path):
    bad = tmp_path / "v.toml"
    bad.write_text('[[variable]]\nid = "Bad Id"\nlabel = "x"\n', encoding="utf-8")
    with pytest.raises(InputError, match="snake_case"):
        Vocabulary.from_toml(bad)
    bad.write_text(
        '[[variable]]\nid = "a"\nlabel = "x"\nsynonyms = ["same"]\n'
        '[[variable]]\nid = "b"\nlabel = "y"\nsynonyms = ["same"]\n',
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="maps to both"):
        Vocabulary.from_toml(bad)
    bad.write_text("not toml [", encoding="utf-8")
    with pytest.raises(InputError):
        Vocabulary.from_toml(bad)


def test_labels_carry_no_numbers():
    # Labels appear in report prose, where every number must come from a model output token.
    number = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|hundred)\b", re.I)
    assert [v.label for v in load_vocabulary().variables.values() if number.search(v.label)] == []
