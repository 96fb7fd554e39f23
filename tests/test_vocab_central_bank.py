"""The vocabulary on central-bank prose (issue 15): senses and synonyms of speeches, minutes and testimony.

Every sentence here is composed for the test (none is copied from the gold set). Each case names
the variables the vocabulary must (or must not) read in it; a few end-to-end cases check that the
reader stays silent where the sense rule drops a mention.
"""

from __future__ import annotations

import pytest

from aieco.extraction.rules import read_sentence
from aieco.vocab import load_vocabulary, tokens


def ids(text: str) -> list[str]:
    return [m.variable_id for m in load_vocabulary().mentions_in_context(text)]


def relations(text: str) -> set[tuple[str, str, str]]:
    return {(r.src, r.dst, r.sign.value) for r in read_sentence(text, load_vocabulary())}


# --- tokens -------------------------------------------------------------------------------------


def test_footnote_number_glued_to_a_word_is_its_own_token():
    assert [t for t, _, _ in tokens("strong earnings2 lifted shares")] == ["strong", "earning", "2", "lifted", "share"]
    assert "corporate_earnings" in ids("Equity markets rose on strong earnings3 and lower yields.")


def test_typographic_apostrophe_reads_like_a_plain_one():
    assert [t for t, _, _ in tokens("banks’ funding costs")] == [t for t, _, _ in tokens("banks' funding costs")]
    assert ids("Canada’s economy slowed.") == ids("Canada's economy slowed.")


# --- "the economy" --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Higher borrowing costs are cooling the economy.",
        "The policy easing is meant to support our economy through the slowdown.",
        "A weaker economy would bring inflation down.",
        "Weakness in the economy led to rate cuts.",
    ],
)
def test_the_economy_names_real_gdp(text):
    assert "real_gdp" in ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "Advanced economies saw tariffs rise.",  # countries, not output
        "The shock spread through the economy as tariffs rose.",  # a place
        "Energy-intensive sectors of the economy face higher tariffs.",  # another head noun
        "Economy-wide wages rose.",
        "The economy-wide effects of tariffs will take time.",
        "Prices in the economy rose faster than wages.",  # a noun located in the economy is the head
        "Tariffs hurt the digital economy.",  # a sector
        "A small open economy is exposed to tariffs.",  # a kind of country
    ],
)
def test_economy_that_is_a_place_or_a_country_is_not_real_gdp(text):
    assert "real_gdp" not in ids(text)


# --- bare "interest rates" and "rates" ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Higher interest rates are weighing on household spending.",
        "The central bank cut interest rates twice this year.",
        "We raised rates quickly to restore price stability.",
        "As rates rise, households cut back on spending.",
        "The Board lowered the cash rate by 25 basis points.",
        "The Committee held the federal funds rate steady.",
    ],
)
def test_bare_interest_rates_in_policy_prose_are_the_policy_rate(text):
    assert "policy_rate" in ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "Real interest rates have trended down for decades as saving rose.",  # the natural-rate literature
        "Banks manage interest rate risk with swaps.",  # a modifier
        "Banks raised the rates paid on deposits.",  # deposit rates
        "Tax rates and vacancy rates were unchanged.",  # other rates
        "If risk aversion rises, the natural rate falls.",  # a bare singular "rate"
        "High rates of return attracted investors.",  # "rates of": a ratio, not a rate a bank sets
        "Higher interest rates on their mortgages squeezed households.",  # the rate of a loan
    ],
)
def test_other_rates_are_not_the_policy_rate(text):
    assert "policy_rate" not in ids(text)


def test_interest_rates_after_a_conjunction_keep_the_policy_reading():
    assert ids("Fiscal policy and interest rates together shape the outlook.") == ["policy_rate"]


def test_interest_rates_on_loans_and_mortgages_are_lending_and_mortgage_rates():
    assert ids("Interest rates on business loans rose.") == ["lending_rates"]
    assert ids("Interest rates on mortgages rose.") == ["mortgage_rates"]


def test_interest_rates_in_market_commentary_are_market_yields():
    got = ids("Equity prices were lifted by declining interest rates.")
    assert "long_term_rate" in got and "policy_rate" not in got
    # a policy actor in the sentence keeps the policy reading
    assert "policy_rate" in ids("The central bank raised interest rates and bond prices fell.")


def test_singular_interest_rate_before_a_move_is_the_policy_rate():
    assert ids("Interest rate increases slowed lending.")[0] == "policy_rate"
    assert ids("Interest rate reductions boosted business spending.") == ["policy_rate", "investment"]
    assert relations("Interest rate reductions boosted business spending.") == {("policy_rate", "investment", "-")}


def test_economic_conditions_are_real_gdp_unless_a_kind_is_defined():
    assert ids("Weak economic conditions prompted rate cuts.") == ["real_gdp", "policy_rate"]
    assert "real_gdp" not in ids("Stagflation is a set of economic conditions with high unemployment.")


def test_financial_tightening_is_tighter_financing_conditions():
    got = ids("The financial market tightening causes the economy to contract.")
    assert got == ["financing_conditions", "real_gdp"]


# --- shared head nouns -----------------------------------------------------------------------------------


def test_coordinated_modifiers_share_the_head_noun():
    assert ids("Lower rates boosted household and business spending.") == ["policy_rate", "consumption", "investment"]
    assert ids("A slowing of economic and employment growth followed.") == ["real_gdp", "employment"]
    # no second synonym with a shared head: nothing is invented
    assert ids("Firms and households cut spending.") == []


def test_first_conjunct_takes_the_head_when_the_second_is_no_synonym():
    assert ids("Tariffs hit equity and bond markets.") == ["tariffs", "equity_prices"]


def test_shared_head_of_one_variable_is_one_mention():
    assert ids("Consumer and business confidence fell.") == ["confidence"]


# --- bare growth after a verb ---------------------------------------------------------------------------


@pytest.mark.parametrize("verb", ["stimulate", "spur", "cool", "restrain", "bolster"])
def test_growth_as_the_object_of_a_verb_is_real_gdp(verb):
    assert ids(f"The Bank lowered its policy rate to {verb} growth.") == ["policy_rate", "real_gdp"]


def test_growth_of_another_noun_stays_that_noun():
    assert ids("Measures to stimulate growth in lending were announced.") == ["credit_growth"]
    assert ids("Loan growth slowed.") == ["credit_growth"]


# --- senses --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Low and stable inflation supports sustained growth.",
        "Predictable inflation helps households plan their spending.",
        "Low, stable and predictable inflation underpins investment.",
    ],
)
def test_stable_inflation_is_a_regime_not_a_move(text):
    assert "inflation" not in ids(text)
    assert relations(text) == set()


def test_low_inflation_alone_is_still_inflation():
    assert "inflation" in ids("Low inflation supported consumption.")


@pytest.mark.parametrize(
    "text",
    [
        "The euro's role as a global currency would strengthen investor confidence.",
        "Local currency bonds attracted foreign investors.",
        "Currency markets were calm.",
        "A single currency removes exchange costs.",
    ],
)
def test_currency_that_is_no_exchange_rate(text):
    assert "exchange_rate" not in ids(text)


def test_the_currency_moving_is_the_exchange_rate():
    assert "exchange_rate" in ids("The currency appreciated sharply, which lowered import prices.")


@pytest.mark.parametrize(
    "text",
    [
        "Strong capital restored confidence in the banking system and lowered funding costs.",
        "Members gained confidence that inflation was returning to target.",
        "Public confidence in the central bank's commitment kept borrowing costs low.",
    ],
)
def test_confidence_in_an_institution_or_that_a_fact_holds_is_not_sentiment(text):
    assert "confidence" not in ids(text)


def test_confidence_in_a_place_is_sentiment():
    assert "confidence" in ids("Tariffs weakened confidence in all euro area countries.")


def test_imports_that_become_more_expensive_are_import_prices():
    assert ids("Tariffs make imports more expensive.") == ["tariffs", "import_prices"]
    assert ids("Tariffs cut imports.") == ["tariffs", "trade_volumes"]
    assert relations("A weaker euro makes imports more expensive.") == {("exchange_rate", "import_prices", "-")}


def test_exports_that_become_cheaper_are_their_price_not_volumes():
    assert ids("A weaker dollar makes US exports cheaper abroad.") == ["exchange_rate"]


# --- synonyms added for speeches, minutes and testimony ---------------------------------------------------------


@pytest.mark.parametrize(
    "phrase, variable",
    [
        ("gasoline prices", "energy_prices"),
        ("petrol prices", "energy_prices"),
        ("wage pressures", "wages"),
        ("average hourly earnings", "wages"),
        ("housing credit", "credit_growth"),
        ("credit to businesses", "credit_growth"),
        ("business spending", "investment"),
        ("yields on long-term government bonds", "long_term_rate"),
        ("spreads on government bonds", "sovereign_spreads"),
        ("unwinding of leveraged positions", "fire_sales"),
        ("cash rate", "policy_rate"),
        ("overnight rate", "policy_rate"),
        ("federal funds rate", "policy_rate"),
    ],
)
def test_added_synonyms_resolve(phrase, variable):
    assert load_vocabulary().resolve(phrase) == variable


# --- job losses, anchoring, currencies, prices of shelter and food ---------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Policy must keep inflation expectations anchored.",
        "Longer-term inflation expectations remain well anchored.",
        "The risk of inflation expectations de-anchoring has risen.",
        "A de-anchoring of inflation expectations would be costly.",
    ],
)
def test_anchoring_of_inflation_expectations_is_not_inflation(text):
    assert "inflation" not in ids(text)


def test_inflation_expectations_that_move_stay_inflation():
    assert ids("Tariffs raised inflation expectations.") == ["tariffs", "inflation"]


@pytest.mark.parametrize(
    "text",
    [
        "The euro appreciated, which lowered import prices.",
        "A stronger dollar weighs on exports.",
        "The Canadian dollar depreciated.",
        "The euro's appreciation lowered import prices.",
        "The dollar’s strength weighed on exports.",
    ],
)
def test_a_currency_that_moves_is_the_exchange_rate(text):
    assert "exchange_rate" in ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "Euro area GDP fell.",
        "Billions of dollars in losses were recorded.",
        "Dollar funding markets tightened.",
        "The euro's role as a reserve currency grew.",
        "Work on the digital euro continued.",
    ],
)
def test_a_currency_that_names_a_place_an_amount_or_a_market_is_not_the_exchange_rate(text):
    assert "exchange_rate" not in ids(text)


@pytest.mark.parametrize(
    "phrase",
    ["shelter price inflation", "rent inflation", "food prices", "gasoline prices", "housing component of prices"],
)
def test_components_of_consumer_prices_resolve(phrase):
    assert load_vocabulary().resolve(phrase) in ("inflation", "energy_prices")


@pytest.mark.parametrize(
    "phrase, variable",
    [
        ("core PCE prices", "inflation"),
        ("trimmed mean inflation", "inflation"),
        ("nonfarm payrolls", "employment"),
        ("personal consumption expenditures", "consumption"),
        ("dwelling investment", "construction_activity"),
        ("policy stance", "policy_rate"),
    ],
)
def test_terms_of_testimony_and_minutes_resolve(phrase, variable):
    assert load_vocabulary().resolve(phrase) == variable


def test_pce_prices_are_inflation_not_consumption():
    assert ids("Core PCE prices rose as tariffs took effect.") == ["inflation", "tariffs"]


@pytest.mark.parametrize(
    "text",
    [
        "The fiscal policy stance turned restrictive.",
        "Macroprudential policy tightening slowed credit growth.",
    ],
)
def test_a_policy_that_is_not_monetary_policy_is_not_the_policy_rate(text):
    assert "policy_rate" not in ids(text)


def test_monetary_policy_beside_fiscal_policy_is_still_the_policy_rate():
    assert ids("Fiscal and monetary policy tightening weighed on demand.") == ["policy_rate", "real_gdp"]


def test_counter_tariffs_are_tariffs():
    # a hyphenated prefix otherwise hides the variable ("non-tariff"); counter-tariffs are tariffs
    assert ids("Canadian counter-tariffs raised import prices.") == ["tariffs", "import_prices"]
    assert ("tariffs", "import_prices", "+") in relations("Canadian counter-tariffs raised import prices.")


@pytest.mark.parametrize(
    "text",
    [
        "The central bank stood ready to make liquidity available to banks.",
        "Funds hold cash to meet sudden liquidity needs.",
        "Banks drew on central bank liquidity facilities as rates rose.",
    ],
)
def test_funding_liquidity_is_not_market_liquidity(text):
    assert "market_liquidity" not in ids(text)


def test_liquidity_of_a_market_is_market_liquidity():
    assert "market_liquidity" in ids("As volatility rose, liquidity in bond markets deteriorated.")


def test_the_inflation_target_is_a_goal_not_inflation():
    assert "inflation" not in ids("The Bank kept its 2% inflation target under the new framework.")
    assert "inflation" in ids("Tariffs pushed inflation above the target.")


def test_equity_in_homes_is_household_wealth_not_equity_prices():
    assert ids("Borrowers have a lot of equity in their homes.") == ["household_wealth"]
    assert relations("Rising house prices lifted equity in their homes.") == {("house_prices", "household_wealth", "+")}


# --- the reader on the new mentions: stated channels, and silence on the hard negatives --------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Higher interest rates have slowed the economy.", {("policy_rate", "real_gdp", "-")}),
        (
            "Lower interest rates supported household and business spending.",
            {("policy_rate", "consumption", "-"), ("policy_rate", "investment", "-")},
        ),
        ("The stronger euro lowered import prices.", {("exchange_rate", "import_prices", "-")}),
        ("Gasoline prices pushed up inflation.", {("energy_prices", "inflation", "+")}),
    ],
)
def test_channels_through_the_new_mentions(text, expected):
    assert relations(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Tariffs have caused layoffs at exporters.", {("tariffs", "employment", "-")}),
        ("Job cuts weighed on consumer confidence.", {("employment", "confidence", "+")}),
    ],
)
def test_job_losses_are_a_fall_in_employment(text, expected):
    assert relations(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Higher interest rates did not slow the economy this year.",  # negation
        "Will higher interest rates slow the economy?",  # question
        "Interest rates are at 4 per cent, above the neutral range.",  # level
        "The economy grew in line with interest rates.",  # co-movement
        "The economy grew by 1.5 per cent while interest rates were unchanged.",  # two levels
        "Low and stable inflation is the best contribution monetary policy can make to growth.",  # regime
    ],
)
def test_hard_negatives_with_the_new_mentions_stay_silent(text):
    assert {r for r in relations(text) if r[2] in "+-"} == set()


def test_interest_rates_never_come_from_a_shared_head_noun():
    assert ids("Movements in interest and exchange rates affected banks.") == ["exchange_rate"]


def test_economic_and_financial_conditions_are_two_variables():
    assert ids("Economic and financial conditions deteriorated.") == ["real_gdp", "financing_conditions"]


@pytest.mark.parametrize(
    "phrase, variable",
    [("credit flows", "credit_growth"), ("loans to households", "credit_growth"), ("core PCE", "inflation")],
)
def test_credit_and_price_terms_of_speeches_resolve(phrase, variable):
    assert load_vocabulary().resolve(phrase) == variable


def test_maximum_and_full_employment_are_benchmarks_not_moves():
    assert "employment" not in ids("We remain committed to maximum employment and stable prices.")
    # the employment that moves is kept; the full-employment benchmark is not a second mention
    assert ids("Wages can slow even when employment is above its full employment level.") == ["wages", "employment"]


def test_home_equity_and_the_housing_stock_are_no_market_context():
    assert ids("Higher interest rates reduce home equity.") == ["policy_rate", "household_wealth"]
    assert ids("Higher interest rates slowed additions to the housing stock.") == ["policy_rate"]


def test_payroll_taxes_are_no_jobs():
    assert "employment" not in ids("Higher payroll taxes raised labour costs.")
    assert "employment" in ids("Nonfarm payrolls rose by 150,000.")


@pytest.mark.parametrize(
    "text",
    ["Deposit-holders seek higher-yield investments.", "Private equity investments in offices fell."],
)
def test_investments_that_are_holdings_are_not_capital_spending(text):
    assert "investment" not in ids(text)


def test_investments_that_firms_delay_are_capital_spending():
    assert ids("Tariffs led firms to postpone investments.") == ["tariffs", "investment"]


@pytest.mark.parametrize("text", ["Private equity investments in offices fell.", "Banks raised equity capital."])
def test_equity_as_funding_or_a_stake_is_not_equity_prices(text):
    assert "equity_prices" not in ids(text)


def test_equities_that_move_are_equity_prices():
    assert ids("Equities rallied as tariffs eased.") == ["equity_prices", "tariffs"]


@pytest.mark.parametrize(
    "text, absent",
    [
        ("A sovereign default would hit banks.", "corporate_defaults"),
        ("Bond redemptions were large this quarter.", "fund_outflows"),
    ],
)
def test_defaults_and_redemptions_of_other_kinds(text, absent):
    assert absent not in ids(text)


@pytest.mark.parametrize(
    "text, variable",
    [
        ("Corporate defaults rose.", "corporate_defaults"),
        ("Fund redemptions surged.", "fund_outflows"),
        ("Labour earnings rose.", "wages"),
        ("Producers cut oil output.", "oil_supply"),
    ],
)
def test_defaults_redemptions_earnings_and_oil_output(text, variable):
    assert ids(text) == [variable]


@pytest.mark.parametrize(
    "text, variable",
    [
        ("Yields on 10-year German government bonds rose.", "long_term_rate"),
        ("Yields on long-term US Treasuries climbed.", "long_term_rate"),
        ("Spreads on emerging market government bonds widened.", "sovereign_spreads"),
        ("Spreads on high-yield corporate bonds widened.", "credit_spreads"),
    ],
)
def test_yields_and_spreads_on_qualified_bonds(text, variable):
    assert ids(text) == [variable]


def test_yields_on_short_term_paper_are_not_the_long_term_rate():
    assert "long_term_rate" not in ids("Yields on short-term Treasuries fell.")


def test_demand_for_qualified_exports_is_foreign_demand():
    assert ids("Tariffs will reduce demand for Canadian-made exports.") == ["tariffs", "global_demand"]
    assert relations("Tariffs will reduce demand for Canadian-made exports.") == {("tariffs", "global_demand", "-")}


def test_cost_of_qualified_imported_goods_is_import_prices():
    text = "Tariffs raise the cost of imported intermediate inputs."
    assert ids(text) == ["tariffs", "import_prices"]
    assert relations(text) == {("tariffs", "import_prices", "+")}


@pytest.mark.parametrize(
    "text, variable",
    [
        ("Interest rates on new mortgages have come down.", "mortgage_rates"),
        ("Interest rates on variable-rate business loans rose.", "lending_rates"),
        ("The default rate on corporate loans rose.", "corporate_defaults"),
        ("Economic growth abroad has slowed.", "global_demand"),
    ],
)
def test_rates_on_qualified_loans_and_growth_abroad(text, variable):
    assert ids(text) == [variable]


@pytest.mark.parametrize(
    "phrase, variable",
    [
        ("dwelling prices", "house_prices"),
        ("labour underutilisation", "unemployment"),
        ("spending by consumers", "consumption"),
        ("spending by businesses", "investment"),
    ],
)
def test_terms_of_australian_and_canadian_minutes_resolve(phrase, variable):
    assert load_vocabulary().resolve(phrase) == variable


def test_volatility_of_the_new_rate_and_currency_mentions_is_volatility_not_level():
    assert ids("Volatility of interest rates rose.") == ["rate_volatility"]
    assert ids("Volatility in the euro increased.") == ["volatility"]


# --- fourth session, second pass: classes of the sixth round's misses -------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        # disruptions of trade are supply disruptions, not trade volumes
        ("Firms say disruptions to trade are raising their input costs.", ["supply_chain_disruptions"]),
        ("Trade-related disruptions lifted goods prices.", ["supply_chain_disruptions", "inflation"]),
        # machinery-and-equipment spending is business investment
        ("Investment in machinery and equipment fell in the spring.", ["investment"]),
        ("Equipment spending rebounded as tariff fears eased.", ["investment", "tariffs"]),
        ("Non-residential investment slowed.", ["investment"]),
        # home sales are housing activity (construction_activity), not prices
        ("Existing home sales dropped after mortgage rates rose.", ["construction_activity", "mortgage_rates"]),
        ("Housing resales picked up.", ["construction_activity"]),
        # prices of commodities are commodity prices
        ("Prices of commodities slid as global demand cooled.", ["energy_prices", "global_demand"]),
        # demand or growth in China is external demand for every central bank of the set
        ("Weaker Chinese demand weighed on iron ore exports.", ["global_demand", "trade_volumes"]),
        ("Growth in China slowed further.", ["global_demand"]),
        # growth or activity of trading partners and abroad is external demand
        ("Activity in our main trading partners softened.", ["global_demand"]),
        ("Growth among our trading partners has held up.", ["global_demand"]),
        ("Demand from export markets weakened.", ["global_demand"]),
        # session 17: "Chinese aggregate demand", "the Chinese economy" are China's (bare "aggregate demand" and
        # "the economy" stay real GDP)
        ("Chinese aggregate demand increased.", ["global_demand"]),
        ("The reopening of the Chinese economy lifted commodity prices.", ["global_demand", "energy_prices"]),
        ("Aggregate demand increased.", ["real_gdp"]),
    ],
)
def test_sixth_round_classes_resolve_by_meaning(text, expected):
    assert ids(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        # domestic growth stays real GDP; a foreign place that is not a trading-partner phrase is left alone
        ("Growth in the euro area slowed.", ["real_gdp"]),
        ("Stronger exports lifted growth.", ["trade_volumes", "real_gdp"]),
        # machinery as goods traded is not investment; home equity is not home sales
        ("Exports of machinery rose sharply.", ["trade_volumes"]),
        # trade itself still names trade volumes
        ("Trade fell after the tariffs were raised.", ["trade_volumes", "tariffs"]),
    ],
)
def test_sixth_round_classes_leave_other_senses_alone(text, expected):
    assert ids(text) == expected


def test_foreign_growth_is_not_a_channel_into_domestic_output():
    # before the rule "activity in our trading partners" was domestic real GDP, giving a channel of
    # foreign demand into itself read as a channel into output
    assert relations("Stronger Chinese demand lifts activity in China's other trading partners.") == set()


def test_trade_disruptions_raise_inflation():
    text = "Trade disruptions could push up inflation."
    assert ("supply_chain_disruptions", "inflation", "+") in relations(text)
    assert not any(src == "trade_volumes" for src, _, _ in relations(text))


@pytest.mark.parametrize(
    "text",
    [
        "Heightened policy uncertainty could trigger an abrupt repricing of financial assets.",
        "Escalating tariffs could cause a sharp repricing in risky assets.",
    ],
)
def test_repricing_of_assets_is_a_fall_in_asset_prices(text):
    assert {(dst, sign) for _, dst, sign in relations(text)} == {("asset_prices", "-")}


@pytest.mark.parametrize(
    "text",
    [
        "Banks hold more liquid assets than before.",  # holdings, not prices
        "Households sold assets to pay down their debt.",
        "Assets held by investment funds grew.",
    ],
)
def test_bare_assets_are_holdings_not_asset_prices(text):
    assert "asset_prices" not in ids(text)


def test_repricing_of_assets_negated_or_asked_stays_silent():
    assert {sign for _, _, sign in relations("Tariffs did not cause a repricing of assets.")} <= {"absent"}
    assert relations("Will higher uncertainty trigger a repricing of financial assets?") == set()


# --- "demand" of one thing is not aggregate demand -------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Demand for credit softened as borrowing costs climbed.",
        "Loan demand from firms weakened in the survey.",
        "Demand for safe assets jumped during the turmoil.",
        "Housing demand recovered once mortgage rates eased.",
        "Energy demand fell in the mild winter.",
        "Demand for liquidity by funds surged.",
    ],
)
def test_demand_for_an_asset_or_service_is_not_real_gdp(text):
    assert "real_gdp" not in ids(text)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Weaker demand is easing price pressures.", ["real_gdp", "inflation"]),
        ("Demand for goods and services slowed.", ["real_gdp"]),
        ("Demand for workers cooled as hiring slowed.", ["employment", "employment"]),
        ("Demand for labor has eased.", ["employment"]),
    ],
)
def test_aggregate_and_labour_demand_keep_their_variables(text, expected):
    assert ids(text) == expected


def test_loan_demand_gives_no_channel_into_output():
    assert relations("Higher interest rates reduced loan demand.") == set()
    assert relations("Higher interest rates reduced demand.") == {("policy_rate", "real_gdp", "-")}


# --- synonyms of the same meanings in other words ---------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Average weekly earnings rose faster than prices.", ["wages"]),
        ("Average earnings growth has slowed.", ["wages"]),  # workers' pay, not firms' earnings
        ("Earnings growth of listed firms slowed.", ["corporate_earnings"]),
        ("Prices for imported machinery rose.", ["import_prices"]),
        ("Prices of goods and services rose less quickly.", ["inflation"]),
        ("Shipping disruptions in the Red Sea raised costs.", ["supply_chain_disruptions"]),
        ("Logistics disruptions have faded.", ["supply_chain_disruptions"]),
    ],
)
def test_other_wordings_of_wages_prices_and_disruptions(text, expected):
    assert ids(text) == expected


def test_housing_supply_constraints_are_not_supply_chain_disruptions():
    assert "supply_chain_disruptions" not in ids("Housing supply constraints kept rents high.")
    # session 20: bare supply constraints and issues are supply disruptions, labour's are not
    assert "supply_chain_disruptions" not in ids("Labor supply constraints held back hiring.")
    assert ids("Supply constraints and supply issues eased.") == ["supply_chain_disruptions"] * 2


def test_shipping_disruptions_push_up_prices_of_goods():
    assert relations("Shipping disruptions pushed up prices of goods.") == {
        ("supply_chain_disruptions", "inflation", "+")
    }


# --- debt "of"/"for" households or firms --------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Debt for many households climbed during the boom.", ["household_debt"]),
        ("The indebtedness of Canadian households remains high.", ["household_debt"]),
        ("Debt held by households grew faster than income.", ["household_debt"]),
        ("The leverage of non-financial firms edged down.", ["corporate_leverage"]),
        ("Debt owed by businesses rose.", ["corporate_leverage"]),
    ],
)
def test_debt_of_households_or_firms(text, expected):
    assert ids(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Government debt rose as households received transfers.",  # the households are not the debtors
        "Debt relief for households was extended.",
    ],
)
def test_debt_near_households_without_the_phrase_is_not_household_debt(text):
    assert "household_debt" not in ids(text)


def test_rising_property_prices_raise_debt_of_households():
    text = "Rising property prices led to heavier debt for some households."
    assert relations(text) == {("house_prices", "household_debt", "+")}
    assert relations("Property prices and the debt of households both rose.") == set()


# --- bare "spending" ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Spending held up as real incomes recovered.",
        "Tighter policy has been weighing on spending.",
        "Job gains continue to support spending.",
    ],
)
def test_bare_spending_is_household_spending(text):
    assert "consumption" in ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "Defence spending is set to rise sharply.",
        "Government spending rose in the third quarter.",
        "Higher interest costs will squeeze spending on infrastructure.",
        "The budget plans additional spending next year.",  # fiscal context
        "Spending needs for the green transition are large.",
        "The spending multiplier is larger in recessions.",
        "Age-related spending will keep growing.",
    ],
)
def test_public_or_sectoral_spending_is_not_consumption(text):
    assert "consumption" not in ids(text)


def test_spending_in_a_fiscal_sentence_gives_no_household_channel():
    assert relations("Higher tax revenues could lead to more spending.") == set()
    assert relations("Higher interest rates weighed on spending.") == {("policy_rate", "consumption", "-")}


# --- commercial property, oil producers, dwellings, market functioning ---------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Office property prices have dropped sharply since the pandemic.", ["commercial_property_prices"]),
        ("Office valuations kept falling as vacancies rose.", ["commercial_property_prices"]),
        ("Residential property prices kept rising.", ["house_prices"]),  # residential stays house prices
        ("OPEC+ agreed to raise its output in the summer.", ["oil_supply"]),
        ("Oil producers cut output sharply.", ["oil_supply"]),
        ("Output fell as OPEC members argued.", ["real_gdp"]),  # the producers are not the subject
        ("Residential building slowed in the spring.", ["construction_activity"]),
        ("Treasury market functioning deteriorated in March.", ["market_liquidity"]),
    ],
)
def test_commercial_property_oil_producers_dwellings_and_market_functioning(text, expected):
    assert ids(text) == expected


def test_office_price_falls_are_not_house_price_falls():
    text = "Higher interest rates pushed down office property prices."
    assert relations(text) == {("policy_rate", "commercial_property_prices", "-")}


# --- trade-policy measures are tariffs ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Trade frictions between the two blocs have intensified.",
        "New US trade actions were announced in April.",
        "Import levies on steel took effect.",
        "Customs duties were raised on many goods.",
        "Tariff threats kept firms on edge.",
    ],
)
def test_trade_policy_measures_are_tariffs(text):
    assert "tariffs" in ids(text)
    assert "trade_volumes" not in ids(text)


def test_tariff_movement_nouns_stay_outside_the_synonym():
    # the movement noun after "tariff" is read by the reader, not swallowed by a synonym
    assert relations("Exports were pulled forward ahead of expected tariff hikes.") == relations(
        "Exports were pulled forward ahead of expected tariff increases."
    )
    assert relations("Trade frictions weighed on business investment.") == {("tariffs", "investment", "-")}


# --- another government's "policy" and policy makers are not the policy rate --------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Markets reacted sharply to US policy announcements.",
        "Shifts in administration policy unsettled investors.",
        "Chinese policy stimulus supported commodity demand.",
        "Policy makers were divided on the outlook.",
        "Several policy-makers favoured a pause.",
    ],
)
def test_foreign_government_policy_and_policy_makers_are_not_the_policy_rate(text):
    assert "policy_rate" not in ids(text)


@pytest.mark.parametrize(
    "text",
    [
        "The US monetary policy stance remained restrictive.",
        "The central bank eased policy further.",
        "Fed policy has become less restrictive.",
    ],
)
def test_monetary_policy_of_any_country_stays_the_policy_rate(text):
    assert ids(text)[:1] == ["policy_rate"]


def test_us_policy_announcements_give_no_monetary_channel():
    assert relations("US policy announcements pushed up market volatility.") == set()


# --- labour-market slack is underutilisation ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["Labor market slack has widened.", "There is more slack in the labour market than a year ago."],
)
def test_labour_market_slack_is_unemployment_not_employment(text):
    assert ids(text) == ["unemployment"]


def test_more_labour_market_slack_eases_wages():
    # read as employment, "more slack" would have signed the channel the wrong way
    assert relations("Growing labour market slack should ease wage pressures.") == {("unemployment", "wages", "-")}
    assert relations("The labour market cooled and wage growth eased.") == set()  # co-movement


# --- financial-stability wordings ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Bank equity prices fell sharply in March.", ["equity_prices"]),  # prices of bank shares, not capital
        ("Higher losses would erode bank equity.", ["cet1_ratio"]),
        ("Bank shares slumped after the failure.", ["equity_prices"]),
        ("Hedge funds expanded their Treasury basis trade positions.", ["nbfi_leverage"]),  # not trade volumes
        ("Interest payments on mortgages are rising at renewal.", ["household_debt_service"]),
        ("Office property valuations kept falling.", ["commercial_property_prices"]),
        ("Property values declined in most cities.", ["house_prices"]),
    ],
)
def test_financial_stability_wordings(text, expected):
    assert ids(text) == expected


def test_a_basis_trade_unwind_is_not_a_trade_channel():
    assert not any(
        "trade_volumes" in (src, dst)
        for src, dst, _ in relations("An unwinding of basis trades could amplify selling pressure in Treasury markets.")
    )


# --- selling assets under pressure is the fire-sale channel -----------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Funds might be forced to sell illiquid assets quickly.",
        "Insurers could start selling risky assets.",
        "Leveraged investors offloaded their assets at a discount.",
    ],
)
def test_selling_assets_is_fire_sales(text):
    assert ids(text) == ["fire_sales"]


@pytest.mark.parametrize(
    "text",
    [
        "Hedge funds sold Treasuries and received fixed on swaps.",  # a hedge, no assets named
        "The bank holds assets of 2 trillion.",
        "Asset managers bought assets in the dip.",
    ],
)
def test_other_asset_transactions_are_not_fire_sales(text):
    assert "fire_sales" not in ids(text)


def test_redemptions_force_asset_sales():
    assert relations("Heavy redemptions could force managers to sell less liquid assets.") == {
        ("fund_outflows", "fire_sales", "+")
    }


# --- a time after "growth in" does not claim the growth --------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Growth in the second quarter was weaker than expected.",
        "Growth in recent months has softened.",
        "Growth in 2026 should pick up.",
        "Growth in Q3 was held back by weak exports.",
    ],
)
def test_growth_in_a_period_is_the_economy(text):
    assert ids(text)[:1] == ["real_gdp"]


@pytest.mark.parametrize("text", ["Growth in credit slowed.", "Activity in the repo market rose."])
def test_growth_in_another_noun_is_still_that_nouns(text):
    assert "real_gdp" not in ids(text)
