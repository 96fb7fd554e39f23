"""The numeric contract: positive and negative controls, including inputs made to slip past a naive regex."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from aieco.records import claim_id_for
from aieco.reporting.contract import TOKEN_RE, check_numeric_contract, date_token_problem, split_sentences
from aieco.reporting.schema import SentenceDraft

CID = claim_id_for(
    "an_x",
    "trade_fragmentation",
    "real_gdp",
    "2025",
    horizon="2025-2027",
    unit="percent",
    transformation="annual_log_change",
)
CID2 = claim_id_for(
    "an_x",
    "trade_fragmentation",
    "equity_prices",
    "2025-2027",
    horizon="2025-2027",
    unit="percent",
    transformation="annual_log_change",
)
KNOWN = {CID, CID2}


def rules(text: str, **kw) -> list[str]:
    return [v.rule for v in check_numeric_contract(text, known_claims=KNOWN, **kw)]


@pytest.mark.parametrize(
    "text",
    [
        f"In {{{{DATE:2025}}}}, real GDP growth is projected at {{{{NUM:{CID}}}}}.",
        f"Equity prices average {{{{NUM:{CID2}}}}} over {{{{DATE:horizon}}}}.",
        f"Over {{{{DATE:2025-2027}}}} real GDP growth comes in at {{{{NUM:{CID}}}}}, "
        f"equity prices at {{{{NUM:{CID2}}}}}.",
        "Information is taken up to {{DATE:cutoff}}; the horizon ends in {{DATE:horizon_end}}.",
        "In {{DATE:2026Q3}} and {{DATE:2025H2}} the channel is at work.",
        "Higher tariffs weigh on trade volumes, and one of the channels runs through import prices.",
        "The second half of the horizon sees the first effects; in the next quarter banks adjust.",
        "Costs are reported in EUR terms for the euro area.",
        "The third channel is the weakest; a percentile view is not used.",
        "Real GDP growth turns negative while equity prices fall.",
        "Lower profits weigh on the CET1 ratio of banks in G20 economies.",
    ],
)
def test_positive_controls_are_accepted(text):
    assert check_numeric_contract(text, known_claims=KNOWN) == []


@pytest.mark.parametrize(
    "text, rule",
    [
        ("Real GDP falls by 5%.", "digit"),
        ("Real GDP falls by 5%.", "percent"),
        ("Real GDP falls by five percent.", "number_word"),
        ("Real GDP falls by five percent.", "percent"),
        ("Real GDP falls by twenty-five per cent.", "number_word"),
        ("Losses reach twentyfive units.", "number_word"),
        ("Losses reach two thirds of capital.", "fraction_word"),
        ("A quarter of banks breach the buffer.", "fraction_word"),
        ("Half of the banks breach the buffer.", "fraction_word"),
        ("Profits halve.", "multiplicative"),
        ("Profits fall by a third.", "fraction_word"),
        ("The CET1 ratio falls by 2 points.", "digit"),
        ("The CET 1 ratio falls.", "digit"),
        ("The CET12 ratio falls.", "digit"),
        ("The cet1 ratio falls.", "digit"),
        ("Losses double.", "multiplicative"),
        ("Losses reach €3bn.", "currency"),
        ("Losses reach €3bn.", "digit"),
        ("Losses reach € 3 bn.", "currency"),
        ("Losses reach EUR 3 billion.", "currency"),
        ("Losses reach EUR three billion.", "currency"),
        ("Losses reach EUR three billion.", "number_word"),
        ("Losses reach $200m.", "currency"),
        ("Losses reach £2025m, a money amount in the range of a year.", "currency"),
        ("Spreads widen by 25 bp.", "basis_points"),
        ("Spreads widen by 25 basis points.", "basis_points"),
        ("Spreads widen by twenty-five bps.", "basis_points"),
        ("Growth is % lower.", "percent"),
        (f"Growth is {{{{NUM:{CID}}}}}% lower.", "percent"),
        ("Growth slows by 1 0 %.", "digit"),
        ("Growth slows by １０％.", "digit"),
        ("Growth slows by １０％.", "percent"),
        ("Growth slows by ٣٥ per cent.", "digit"),
        ("Growth slows by ½ of its pace.", "digit"),
        ("Growth slows by tw\u200benty-five percent.", "number_word"),
        ("Growth slows by tw\u200benty-five percent.", "hidden_character"),
        ("Growth slows by 2\u200b5.", "digit"),
        ("Ｆｉｖｅ banks fail.", "number_word"),
        ("{{NUM:2025}} is the outcome.", "year_in_num"),
        ("{{NUM:clm.trade_fragmentation.gdp_2025.y1.abcdef12}} is the outcome.", "year_in_num"),
        ("{{NUM:rel_0123456789abcdef0123}} is the outcome.", "relation_in_num"),
        ("{{NUM:clm.trade_fragmentation.real_gdp.y1.00000000}} is unknown.", "unknown_claim"),
        ("{{NUM:gdp}} is malformed.", "malformed_token"),
        (f"{{{{ NUM:{CID} }}}} has spaces inside the braces.", "malformed_token"),
        (f"{{{{NUM:{{{{NUM:{CID}}}}}}}}} is nested.", "malformed_token"),
        (f"{{{{num:{CID}}}}} is lower case.", "malformed_token"),
        (f"{{{{PCT:{CID}}}}} has an unknown kind.", "malformed_token"),
        (f"{{NUM:{CID}}} has single braces.", "malformed_token"),
        (f"{{{{NUM:{CID}}}}} and again {{{{NUM:{CID}}}}}.", "repeated_token"),
        ("{{DATE:2027-2025}} runs backwards.", "bad_date"),
        ("{{DATE:5}} is a quantity in a date token.", "bad_date"),
        ("{{DATE:2025-07}} is a month.", "bad_date"),
    ],
)
def test_negative_controls_are_rejected(text, rule):
    assert rule in rules(text)


def test_violation_carries_rule_sentence_offset_and_text():
    text = f"Prices rise at {{{{NUM:{CID}}}}}. Losses reach €3bn today."
    found = check_numeric_contract(text, known_claims=KNOWN)
    euro = next(v for v in found if v.rule == "currency")
    assert (euro.sentence, euro.text) == (1, "€")
    assert euro.offset == len("Losses reach ")
    assert text[euro.text_offset] == "€"
    digit = next(v for v in found if v.rule == "digit")
    assert (digit.text, digit.sentence) == ("3", 1)


def test_repeated_tokens_allowed_only_when_the_schema_allows():
    text = f"{{{{NUM:{CID}}}}} and again {{{{NUM:{CID}}}}}."
    assert rules(text, allow_repeated_tokens=True) == []


def test_unknown_claims_are_not_checked_without_a_registry():
    text = "{{NUM:clm.trade_fragmentation.real_gdp.y1.00000000}} stands."
    assert check_numeric_contract(text) == []


def test_structured_sentences_check_kinds_and_claim_lists():
    drafts = [
        SentenceDraft(kind="qualitative", template=f"Growth is {{{{NUM:{CID}}}}}.", claim_ids=[CID]),
        SentenceDraft(kind="numerical", template="Growth is weak."),
        SentenceDraft(kind="numerical", template=f"Growth is {{{{NUM:{CID2}}}}}.", claim_ids=[CID]),
        SentenceDraft(kind="temporal", template=f"In {{{{DATE:2025}}}} at {{{{NUM:{CID}}}}}.", claim_ids=[CID]),
    ]
    found = {
        (v.rule, v.sentence) for v in check_numeric_contract(drafts, known_claims=KNOWN, allow_repeated_tokens=True)
    }
    assert {("num_in_qualitative", 0), ("missing_num", 1), ("claim_list_mismatch", 2), ("num_in_temporal", 3)} <= found


def test_title_is_checked_too():
    found = check_numeric_contract(
        [SentenceDraft(kind="temporal", template="From {{DATE:cutoff}}.")], title="Five risks for banks"
    )
    assert [(v.rule, v.sentence) for v in found] == [("number_word", None)]


@pytest.mark.parametrize(
    "value, ok",
    [
        ("2025", True),
        ("2025-2027", True),
        ("2025Q4", True),
        ("2026H1", True),
        ("cutoff", True),
        ("horizon", True),
        ("2025Q5", False),
        ("25", False),
        ("2027-2025", False),
        ("tomorrow", False),
        ("1800", False),
    ],
)
def test_date_forms(value, ok):
    assert (date_token_problem(value) == "") is ok


def test_sentence_split_keeps_tokens_whole():
    text = f"A {{{{NUM:{CID}}}}} stands. B follows!  C ends?"
    pieces = split_sentences(text)
    assert [t for _, t in pieces] == [f"A {{{{NUM:{CID}}}}} stands.", "B follows!", "C ends?"]
    assert all(text[s : s + len(t)] == t for s, t in pieces)


CLEAN = f"In {{{{DATE:2025}}}}, real GDP growth is projected at {{{{NUM:{CID}}}}} as tariffs rise."


@settings(max_examples=150, deadline=None)
@given(st.characters(categories=["Nd"]), st.integers(min_value=0, max_value=len(CLEAN)))
def test_any_decimal_digit_of_any_script_outside_tokens_is_rejected(digit, where):
    tokens = [m.span() for m in TOKEN_RE.finditer(CLEAN)]
    assume(not any(a < where < b for a, b in tokens))
    text = CLEAN[:where] + digit + CLEAN[where:]
    found = [v for v in check_numeric_contract(text, known_claims=KNOWN) if v.rule == "digit"]
    assert found and text[found[0].text_offset :].startswith(found[0].text)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"]),
    st.sampled_from(["five percent", "twenty-five basis points", "two thirds of", "three billion"]),
)
def test_format_characters_do_not_hide_quantity_words(hidden, phrase):
    cut = len(phrase) // 2
    text = f"Losses reach {phrase[:cut]}{hidden}{phrase[cut:]} in the adverse case."
    found = {v.rule for v in check_numeric_contract(text)}
    assert "hidden_character" in found and found & {"number_word", "percent", "basis_points", "fraction_word"}


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from(sorted(KNOWN)), min_size=1, max_size=2, unique=True),
    st.sampled_from(["Growth stands at", "Prices come in at", "The model puts the outcome at"]),
)
def test_valid_tokens_in_plain_prose_are_always_accepted(ids, lead):
    text = " ".join(f"{lead} {{{{NUM:{cid}}}}} over {{{{DATE:horizon}}}}." for cid in ids)
    assert check_numeric_contract(text, known_claims=KNOWN) == []


# --------------------------------------------------------------------------- quantity words (issue 17)

QUANTITY_FORMS = [
    # number words, English and the main EU languages
    ("House prices fall by minus one.", "number_word"),
    ("Growth is nought point one.", "number_word"),
    ("Inflation stays at drei Prozent.", "number_word"),
    ("Inflation stays at drei Prozent.", "percent"),
    ("Growth is zwei Prozent lower.", "number_word"),
    ("Loss of dreiundzwanzig units.", "number_word"),
    ("Zehn Banken fallen unter die Schwelle.", "number_word"),
    ("Le PIB baisse de trois pour cent.", "number_word"),
    ("Le PIB baisse de trois pour cent.", "percent"),
    ("Dix banques passent sous le seuil.", "number_word"),
    ("Il PIL cala di tre punti.", "number_word"),
    ("Il PIL cala del cinque per cento.", "percent"),
    ("El PIB cae un cinco por ciento.", "number_word"),
    ("El PIB cae un cinco por ciento.", "percent"),
    ("Het bbp daalt met twee procent.", "number_word"),
    ("Het bbp daalt met twee procent.", "percent"),
    ("O PIB cai dois por cento.", "number_word"),
    ("Losses reach a hundred.", "number_word"),
    ("Losses reach mille units.", "number_word"),
    ("GDP falls seize points.", "number_word"),
    ("Unemployment is up by nil.", "number_word"),
    # fractions as quantities
    ("Prices end a third lower.", "fraction_word"),
    ("Credit falls by roughly a tenth.", "fraction_word"),
    ("Output fell by a quarter.", "fraction_word"),
    ("A quarter lower than before.", "fraction_word"),
    ("Growth weakens by a tenth.", "fraction_word"),
    ("Prices fall by half.", "fraction_word"),
    ("Half the banks breach the buffer.", "fraction_word"),
    ("Unemployment rises by half a point.", "fraction_word"),
    ("Growth was one and a half points lower.", "fraction_word"),
    # multiplicatives
    ("Losses doubled.", "multiplicative"),
    ("Exports trebled.", "multiplicative"),
    ("Imports tripled.", "multiplicative"),
    ("Prices halved.", "multiplicative"),
    ("Losses rose tenfold.", "multiplicative"),
    ("Losses rose ten-fold.", "multiplicative"),
    ("Losses rose fifteenfold.", "multiplicative"),
    ("Losses rose manyfold.", "multiplicative"),
    ("Losses quintuple.", "multiplicative"),
    ("House prices are cut in half.", "multiplicative"),
    ("Prices fell twice as fast.", "multiplicative"),
    ("Die Verluste verdoppeln sich.", "multiplicative"),
    ("Inflation stays in double digits.", "multiplicative"),
    # vague counts
    ("Spreads rise a couple of points.", "vague_count"),
    ("GDP falls a full point.", "vague_count"),
    ("Rates rise a full percentage point.", "vague_count"),
    ("Spreads rise several points.", "vague_count"),
    ("Rates rise by one notch.", "vague_count"),
    ("Prices fell by a point.", "vague_count"),
    # roman numerals as amounts
    ("Rates rise IV points.", "roman_numeral"),
    ("Output fell by XII.", "roman_numeral"),
    ("Prices are X percent lower.", "roman_numeral"),
    # a DATE token as an amount, and a sign word before a value
    ("Prices fall by {{DATE:2020}} euros.", "date_as_amount"),
    ("Prices fall by {{DATE:2020}}.", "date_as_amount"),
    ("Losses reach EUR {{DATE:2020}}.", "date_as_amount"),
    ("Growth is {{DATE:2025}} percent.", "date_as_amount"),
    (f"Growth is minus {{{{NUM:{CID}}}}}.", "sign_word"),
]


@pytest.mark.parametrize("text, rule", QUANTITY_FORMS)
def test_quantity_forms_are_refused(text, rule):
    assert rule in rules(text)


ORDINARY_PROSE = [
    "One of the channels runs through trade.",
    "A half-year later, banks adjust.",
    "In the first year the effect builds.",
    "Second-round effects follow.",
    "In the first quarter activity slows.",
    "The effect appears a quarter later.",
    "Within a quarter, prices adjust.",
    "Prices rise over a quarter.",
    "The second half of the horizon is calmer.",
    "House prices fall in the second half of the year.",
    "Due to tariffs, trade falls.",
    "Once tariffs rise, trade falls.",
    "A third channel runs through confidence.",
    "Basel III rules bind banks.",
    "Pillar II requirements are met.",
    "At one stage, banks tighten lending.",
    "The null hypothesis is rejected.",
    "By {{DATE:2027}} the effect fades.",
    "From {{DATE:2025}} to {{DATE:2027}} growth slows.",
    "Trade reaches a turning point.",
    "A point of view differs.",
    "The tenth district reports.",
    "Half-yearly data are used.",
    "Manifold channels exist.",
    "The crisis may unfold slowly.",
    "In the second half the recovery starts.",
    "Banks scaffold their buffers.",
    "I expect banks to adjust.",
]


@pytest.mark.parametrize("text", ORDINARY_PROSE)
def test_ordinary_prose_is_accepted(text):
    assert check_numeric_contract(text, known_claims=KNOWN) == []


def test_quantity_refusal_names_its_offset():
    text = "Credit is steady. House prices are cut in half."
    found = [v for v in check_numeric_contract(text) if v.rule == "multiplicative"]
    assert len(found) == 1
    assert text[found[0].text_offset : found[0].text_offset + len(found[0].text)] == "cut in half"


#: "by a quarter" as a span of time is prose; as a fraction it is a quantity.
QUARTER_AS_TIME = [
    "The trough is delayed by a quarter.",
    "Unemployment lags output by a quarter.",
    "Unemployment lags output by one quarter.",
    "The peak in defaults is lagged by a quarter.",
    "The policy response is postponed by a quarter.",
    "The recovery is brought forward by a quarter.",
    "House prices trail credit by a quarter.",
    "The effect appears a quarter later.",
    "In the first quarter activity slows.",
    "The trough comes earlier by a quarter.",
    "The peak is delayed by a quarter.",
    "The recovery is delayed by half a year.",
    "The trough comes half a year later.",
]
QUARTER_AS_FRACTION = [
    ("Output fell by a quarter.", "by a quarter"),
    ("House prices drop by one quarter.", "by one quarter"),
    ("The spread is delayed by a quarter of a point.", "by a quarter"),
    ("The spread lags by a quarter percentage point.", "by a quarter"),
    ("Lending slows, with a lag, falling by a quarter.", "by a quarter"),
    ("Rates are delayed, then cut by a quarter.", "by a quarter"),
    ("The peak is delayed by a quarter more than before.", "by a quarter"),
    ("The peak is delayed by a quarter, and output falls by a quarter.", "by a quarter"),
    ("Output falls by half a year's growth.", "by half"),
    ("Prices fell by a quarter in the first quarter.", "by a quarter"),
]


@pytest.mark.parametrize("text", QUARTER_AS_TIME)
def test_a_quarter_of_time_is_prose(text):
    assert check_numeric_contract(text, known_claims=KNOWN) == []


@pytest.mark.parametrize("text, offending", QUARTER_AS_FRACTION)
def test_a_quarter_as_a_fraction_is_refused_with_its_offset(text, offending):
    found = [v for v in check_numeric_contract(text, known_claims=KNOWN) if v.rule == "fraction_word"]
    assert found, text
    v = found[-1]
    assert text[v.text_offset : v.text_offset + len(v.text)].lower() == v.text.lower()
    assert v.text.lower().startswith(offending)
    if text.startswith("The peak is delayed by a quarter,"):  # only the second, the fraction, is refused
        assert len(found) == 1 and v.text_offset == text.rindex("by a quarter")
