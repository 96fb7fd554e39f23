"""One quote check (aieco.quotes) for extraction validation and the report stage."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aieco.quotes import locate_quote, quote_form, quote_occurs

PDF_TEXT = (
    "Overall, the increase in borrower credit risk would result in banks facing higher levels of non-\n"
    "performing loans (NPLs) and a concomitant rise in forgone interest income. The resulting in-\n"
    "crease in corporate ﬁnancing costs would negatively affect investment."
)


@pytest.mark.parametrize(
    "quote, exact",
    [
        # the sentence splitter's whitespace-collapsed form of a hyphenated line break
        (
            "The resulting in- crease in corporate ﬁnancing costs would negatively affect investment.",
            "The resulting in-\ncrease in corporate ﬁnancing costs would negatively affect investment.",
        ),
        # a reader that joined the word and resolved the ligature
        (
            "The resulting increase in corporate financing costs would negatively affect investment.",
            "The resulting in-\ncrease in corporate ﬁnancing costs would negatively affect investment.",
        ),
        # "non-\nperforming" keeps its hyphen only in the PDF; a quote with "non-performing" has one too
        ("higher levels of non-performing loans", "higher levels of non-\nperforming loans"),
    ],
)
def test_pdf_quotes_are_found_and_the_exact_span_is_kept(quote, exact):
    span = locate_quote(quote, PDF_TEXT)
    assert span is not None and PDF_TEXT[span[0] : span[1]] == exact


def test_typography_and_format_characters_are_ignored():
    assert not quote_occurs("banks' funding costs", "pressure on banks\u2019 funding\u00adcosts")
    assert quote_occurs("banks' funding costs", "pressure on banks\u2019  funding\ncosts")
    assert quote_occurs("2018\u20132020", "over 2018-2020")
    assert quote_occurs("risk", "ri\u200bsk premia")


@pytest.mark.parametrize(
    ("quote", "text", "exact"),
    [
        # A quote cut inside a word hyphenated across a line break (hypothesis found the first).
        ("aaaaaaaaaaa-", "aaaaaaaaaaa-a", "aaaaaaaaaaa"),
        ("an in-", "an in-\ncrease", "an in"),
        ("-crease in rates", "an in-\ncrease in rates", "crease in rates"),
    ],
)
def test_a_quote_may_start_or_end_inside_a_hyphenated_word(quote, text, exact):
    span = locate_quote(quote, text)
    assert span is not None and text[span[0] : span[1]] == exact


@pytest.mark.parametrize("quote", ["", "   ", "house prices rose", "Overall, the decrease", "investment. The"])
def test_what_is_not_there_is_not_found(quote):
    assert not quote_occurs(quote, PDF_TEXT)


@given(st.text(alphabet=st.sampled_from("ab \n-ﬁ’"), max_size=40), st.integers(0, 40), st.integers(0, 40))
def test_every_substring_is_found_where_it_is(text, i, j):
    i, j = sorted((min(i, len(text)), min(j, len(text))))
    quote = text[i:j]
    if not quote_form(quote):  # no letter or digit: quotes nothing
        assert locate_quote(quote, text) is None
        return
    span = locate_quote(quote, text)
    assert span is not None
    assert quote_form(text[span[0] : span[1]]) == quote_form(quote)
