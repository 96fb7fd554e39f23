"""The demo corpus contract of docs/demo-channels.md, checked on the built and ingested PDFs."""

from datetime import date

import pytest

from aieco.demo.build import CORPUS_DIR, build_demo_sources, read_corpus_file
from aieco.records import Role, Source
from aieco.sources.eligibility import eligible_locations
from aieco.sources.registry import ingest
from aieco.store import Store

CUTOFF = date(2024, 12, 31)

#: relation (docs/demo-channels.md) → a sentence stating it that must be in an eligible passage
CHANNEL_SENTENCES = {
    "tariffs -> trade_volumes (-)": "Higher tariffs reduce trade volumes.",
    "trade_volumes -> real_gdp (+)": "Lower trade volumes weigh on real GDP.",
    "real_gdp -> unemployment (-)": "Weaker real GDP raises unemployment.",
    "geopolitical_risk -> uncertainty (+)": "Higher geopolitical risk raises uncertainty.",
    "uncertainty -> volatility (+)": "Greater uncertainty raises volatility.",
    "volatility -> equity_prices (-)": "Higher volatility lowers equity prices.",
    "tariffs -> import_prices (+)": "Higher tariffs raise import prices.",
    "import_prices -> inflation (+)": "Higher import prices push up inflation.",
    "long_term_rate -> mortgage_rates (+)": "Rising long-term rates push up mortgage rates.",
    "mortgage_rates -> house_prices (-)": "House prices are depressed by higher mortgage rates.",
    "house_prices -> household_wealth (+)": "Higher house prices raise household wealth.",
    "household_wealth -> consumption (+)": "Higher household wealth supports consumption.",
    "consumption -> real_gdp (+)": "Stronger consumption raises real GDP.",
    "house_prices -> credit_losses (-)": "Lower house prices raise credit losses.",
    "market_liquidity -> volatility (-)": "Thinner market liquidity raises volatility.",
    "volatility -> equity_prices (+, descriptive)": "higher volatility may have pushed up equity prices",
    "market_liquidity -> long_term_rate (+)": "Lower market liquidity pushes down long-term interest rates.",
}


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("corpus")
    store = Store(tmp / "ws")
    assert ingest(store, build_demo_sources(tmp / "built")).ok
    yield store
    store.close()


def flat(text: str) -> str:
    return " ".join(text.split())


def test_corpus_shape():
    metas = [read_corpus_file(p)[0] for p in sorted(CORPUS_DIR.glob("*.md"))]
    assert 14 <= len(metas) <= 18
    assert sum(m["publication_date"] > CUTOFF for m in metas) >= 3
    assert [m["role"] for m in metas].count("methods") == 1
    assert any(o["role"] == "development" for m in metas for o in m.get("role_override", []))
    assert all(m["title"].startswith("Illustrative") and m["publisher"].startswith("Illustrative") for m in metas)


def test_every_channel_relation_is_stated_in_an_eligible_passage(demo):
    eligible, _ = eligible_locations(demo, cutoff=CUTOFF, roles=[Role.generation])
    texts = [flat(loc.text) for loc in eligible]
    missing = [rel for rel, sentence in CHANNEL_SENTENCES.items() if not any(sentence in t for t in texts)]
    assert not missing
    # a relation repeated across documents, and the co-occurrence sentence, are there too
    assert sum("Higher tariffs reduce trade volumes." in t for t in texts) >= 2
    assert any("House prices and unemployment are both discussed in Chapter 2" in t for t in texts)


def test_rescuing_statements_are_not_eligible_at_the_cutoff(demo):
    eligible, exclusions = eligible_locations(demo, cutoff=CUTOFF, roles=[Role.generation, Role.methods])
    texts = [flat(loc.text) for loc in eligible]
    assert not any("lower market liquidity lowered equity prices" in t for t in texts)  # development chapter
    assert not any("Lower market liquidity lowers equity prices." in t for t in texts)  # published 2025
    late = {e.source_id for e in exclusions if e.reason.value == "after_cutoff"}
    assert len(late) >= 4  # three 2025 documents and the 2025 scenario workbook
    assert all(s.illustrative and "illustrative" in s.note.lower() for s in demo.all(Source))
