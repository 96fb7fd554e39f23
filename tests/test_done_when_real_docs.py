"""Issue 15, done when: a workspace built only from ../shared/data/docs finds the paper's channels.

Ingests the ESRB 2018 adverse scenario, the BIS Quarterly Review of March 2024 and the EBA guide
(Bank of England files are left out: not needed, and all rights reserved), builds the G0
relations with no candidate cap, and checks with `aieco paths` that trade/tariffs → real GDP and
geopolitical risk → equity prices have admissible paths built from the quoted sentences named
below; a report sentence citing a PDF relation passes the quote check; a review decision changes
the paths and is covered by the audit. The BIS PDF takes one to two minutes to parse: slow.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from sources_files import manifest

from aieco.audit import run_audit
from aieco.cli import main
from aieco.extraction.build import build_relations
from aieco.records import Relation, ReviewDecision
from aieco.reporting.render import check_attribution
from aieco.reporting.schema import SentenceDraft
from aieco.sources.registry import ingest
from aieco.store import Store

DOCS = [
    ("docs/esrb-2018-adverse-scenario.pdf", "ESRB", "2018-01-16", "generation", "EU"),
    ("docs/bis-quarterly-review-2024.pdf", "BIS", "2024-03-31", "generation", "GLOBAL"),
    ("docs/eba-transparency-2024-csv-guide.pdf", "EBA", '"unknown"', "methods", "EU"),
]
PROTECTIONISM = (
    "the phasing-in of more protectionist policies in some advanced economies would also exert a "
    "large negative effect on global demand"
)
GLOBAL_DEMAND = "The fall in global demand would lead to a decline in economic activity in the European Union"
CONFIDENCE = "Political uncertainty and increased volatility in financial markets could also trigger adverse confidence"
SENTIMENT = "Reflecting this negative sentiment, Chinese equities extended losses"
GEOPOLITICS = "Despite the prevailing uncertainty stemming from interest rate paths (Box A) and geopolitical tensions"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    from tests_shared import shared_data_dir

    data = shared_data_dir()
    tmp = tmp_path_factory.mktemp("done_when")
    m = manifest(
        tmp / "manifest.toml",
        [
            {
                "path": str(data / p),
                "title": p.split("/")[-1],
                "publisher": pub,
                "publication_date": d,
                "role": role,
                "jurisdiction": j,
            }
            for p, pub, d, role, j in DOCS
        ],
    )
    store = Store(tmp / "ws")
    assert ingest(store, m, allow_outside=[data / "docs"]).ok
    report = build_relations(store, max_candidates=None)
    assert report.dropped_by_cap == 0 and report.accepted > 0
    yield store
    store.close()


def _paths(store, src, dst):
    out = CliRunner().invoke(
        main, ["paths", "--from", src, "--to", dst, "--as-of", "2024-12-31", "-w", str(store.path), "--json"]
    )
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def _quotes(path):
    return [r["quote"] for r in path["relations"]]


def test_trade_to_real_gdp_and_geopolitical_risk_to_equity_prices(ws):
    trade = _paths(ws, "tariffs", "real_gdp")
    assert trade and trade[0]["composed_sign"] == "-"
    quotes = _quotes(trade[0])
    assert trade[0]["variables"] == ["tariffs", "global_demand", "real_gdp"]
    assert PROTECTIONISM in quotes[0] and GLOBAL_DEMAND in quotes[1]

    geo = _paths(ws, "geopolitical_risk", "equity_prices")
    assert geo and all(p["composed_sign"] == "-" for p in geo)
    via_confidence = next(
        p for p in geo if p["variables"] == ["geopolitical_risk", "uncertainty", "confidence", "equity_prices"]
    )
    q = _quotes(via_confidence)
    assert GEOPOLITICS in q[0] and CONFIDENCE in q[1] and SENTIMENT in q[2]


def test_a_report_citing_a_pdf_relation_passes_the_quote_check(ws):
    [rel] = [r for r in ws.find(Relation, src_var="tariffs", dst_var="global_demand") if PROTECTIONISM in r.quote]
    draft = [
        SentenceDraft(
            kind="qualitative",
            template="Protectionism would weigh on global demand.",
            cited_relation_ids=[rel.relation_id],
        )
    ]
    found, cites = check_attribution(ws, draft)
    assert found == []
    assert cites[rel.relation_id].reference.startswith("(ESRB,") and cites[rel.relation_id].reference.endswith("p. 2)")
    assert "\n" in cites[rel.relation_id].location.text  # the PDF passage keeps its line breaks


def test_a_review_decision_changes_the_paths_and_is_audited(ws):
    before = _paths(ws, "geopolitical_risk", "equity_prices")
    [sentiment] = [r for r in ws.find(Relation, src_var="confidence", dst_var="equity_prices") if SENTIMENT in r.quote]
    assert any(sentiment.relation_id in [x["relation_id"] for x in p["relations"]] for p in before)
    out = CliRunner().invoke(
        main,
        [
            "review",
            sentiment.relation_id,
            "--reject",
            "--note",
            "Chinese equities: not the euro-area channel",
            "--analyst",
            "test",
            "-w",
            str(ws.path),
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    after = _paths(ws, "geopolitical_risk", "equity_prices")
    assert after != before
    assert all(sentiment.relation_id not in [x["relation_id"] for x in p["relations"]] for p in after)
    assert ws.count(ReviewDecision) == 1
    audit = run_audit(ws)
    assert audit["clean"], audit["mismatches"]
    assert audit["checked"] >= ws.count(ReviewDecision)
