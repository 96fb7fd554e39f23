"""Hand-written passages stating the demo's channel relations (docs/demo-channels.md), as stored locations."""

from __future__ import annotations

from datetime import date

from aieco.records import Role, Source, SourceLocation, utc_now
from aieco.store import Store

#: (title, publication date, role, [(page, passage, role override)])
DOCUMENTS = [
    (
        "Trade outlook",
        date(2024, 6, 1),
        "generation",
        [
            (
                1,
                "Higher tariffs reduce trade volumes across the euro area. Lower trade volumes weigh on real GDP, "
                "and weaker GDP raises unemployment.",
                None,
            ),
            (2, "Tariffs push up import prices. Higher import prices feed into higher inflation.", None),
            (3, "House prices and unemployment are both discussed in Chapter 2.", None),
        ],
    ),
    (
        "Geopolitics and markets",
        date(2024, 9, 15),
        "generation",
        [
            (
                1,
                "Rising geopolitical risk increases uncertainty, which in turn raises volatility. "
                "Higher volatility depresses equity prices.",
                None,
            ),
            (2, "Tariffs reduce trade volumes; stronger trade volumes boost GDP.", None),
        ],
    ),
    (
        "Housing report",
        date(2024, 3, 1),
        "generation",
        [
            (
                1,
                "Higher long-term rates raise mortgage rates. House prices are depressed by higher mortgage rates.",
                None,
            ),
            (
                2,
                "Rising house prices increase household wealth, and higher household wealth supports consumption. "
                "Consumption boosts GDP. Falling house prices raise credit losses.",
                None,
            ),
            (4, "In the 2022 desk-based stress test, lower house prices raised real GDP.", "development"),
        ],
    ),
    (
        "Market liquidity review",
        date(2024, 11, 20),
        "generation",
        [
            (1, "Thinner market liquidity raises volatility.", None),
            (2, "In 2024 higher volatility may have pushed up equity prices.", None),
            (3, "Lower market liquidity, through a flight to safety, pushes down long-term yields.", None),
        ],
    ),
    (
        "Market liquidity review 2025",
        date(2025, 5, 1),
        "evaluation",
        [
            (1, "Higher volatility lowers equity prices sharply.", None),
        ],
    ),
]


def register_documents(store: Store, documents=DOCUMENTS) -> list[SourceLocation]:
    """Store Source and SourceLocation records for ``documents``; return the locations."""
    sources, locations = [], []
    for k, (title, pub, role, pages) in enumerate(documents):
        src = Source.create(
            path=f"{k}.txt",
            sha256=f"{k:064d}",
            publisher="test",
            title=title,
            publication_date=pub,
            retrieved_at=utc_now(),
            role=role,
            kind="text",
            illustrative=True,
        )
        sources.append(src)
        for page, text, override in pages:
            locations.append(
                SourceLocation.create(
                    source_id=src.source_id,
                    kind="passage",
                    page=page,
                    text=text,
                    parser_version="test-1",
                    role_override=Role(override) if override else None,
                )
            )
    store.put_many(sources + locations)
    return locations


def rel(
    src: str,
    dst: str,
    sign: str = "+",
    conf: float = 0.7,
    source: str = "src_1",
    *,
    published: date | None = date(2024, 6, 1),
    role: str = "generation",
    jurisdiction: str | None = "EA",
    quote: str | None = None,
    condition: str = "G0",
    decision: str = "accepted",
):
    """A Relation record for graph tests (no extraction)."""
    from aieco.records import Relation

    return Relation.create(
        src_var=src,
        dst_var=dst,
        sign=sign,
        quote=quote or f"{src} {sign} {dst} ({source})",
        location_id=f"loc_{source}",
        source_id=source,
        publication_date=published,
        role=role,
        jurisdiction=jurisdiction,
        confidence=conf,
        graph_condition=condition,
        review_decision=decision,
        rejection_reason="x" if decision == "rejected" else None,
    )
