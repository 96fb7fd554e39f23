"""A small stored analysis for the reporting tests: sources, relations, a toy model run, claims.

The toy model is a real registered ModelSpecification executed through
``aieco.models.registry.execute``; its values are fixed numbers chosen so that rounding,
signs and units are visible in the rendered report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

import pandas as pd

from aieco.models.registry import ModelInputs, ModelResult, PointRef, execute, register, unregister
from aieco.records import (
    ModelRequest,
    ModelRun,
    ModelSpecification,
    Relation,
    Restriction,
    Role,
    RunStatus,
    Sign,
    Source,
    SourceKind,
    SourceLocation,
    VariableSpec,
    sha256_hex,
    utc_now,
)
from aieco.reporting.claims import ClaimSpec, link_claims, register_output_tests
from aieco.reporting.schema import ReportDraft, SentenceDraft
from aieco.store import Store


class HistoryInputs(ModelInputs):
    """The toy model's one input (stored under the name 'history', as its input version says)."""

    history: pd.DataFrame


ANALYSIS = "an_reportingtest00000001"
RISK = "property_correction"
YEARS = ["2025", "2026", "2027"]
VALUES = {
    "house_prices": [5.1701, -2.52712, -5.37894],
    "real_gdp": [0.77549, -1.14241, 0.5949],
    "unemployment": [7.84312, 8.1, 8.2071],
}
TRANSFORMATION = {"house_prices": "annual_log_change", "real_gdp": "annual_log_change", "unemployment": "level"}
HORIZON = "2025-2027"


def toy_model(request: ModelRequest, inputs, seed) -> ModelResult:
    paths = pd.DataFrame(VALUES, index=YEARS)
    means = pd.DataFrame({k: [sum(v) / 3] for k, v in VALUES.items()}, index=[HORIZON])
    points = [
        PointRef(
            variable=v,
            unit="percent",
            transformation=TRANSFORMATION[v],
            period=y,
            table="paths",
            row=y,
            column=v,
            risk=RISK,
        )
        for v in VALUES
        for y in YEARS
    ]
    points += [
        PointRef(
            variable=v,
            unit="percent",
            transformation=TRANSFORMATION[v],
            period=HORIZON,
            table="means",
            row=HORIZON,
            column=v,
            risk=RISK,
        )
        for v in VALUES
    ]
    return ModelResult(
        status=RunStatus.completed,
        tables={"paths": paths, "means": means},
        points=points,
        diagnostics={"stable": True, "residual_check": {"passed": True}},
    )


SPEC = ModelSpecification.create(
    model_id="toy_macro",
    version="1",
    description="toy model for reporting tests",
    inputs=[VariableSpec(variable="real_gdp", unit="percent", frequency="Q", transformation="annual_log_change")],
    outputs=[VariableSpec(variable=v, unit="percent", frequency="A", transformation=TRANSFORMATION[v]) for v in VALUES],
    horizon=HORIZON,
    snapshot="toy-snapshot",
    entry_point="reporting_world:toy_model",
    diagnostics_required=["stable"],
)


@dataclass
class World:
    store: Store
    run: ModelRun
    claims: dict[tuple[str, str], str]  # (variable, period) -> claim id
    relations: dict[str, Relation]
    sources: dict[str, Source] = field(default_factory=dict)

    def cid(self, variable: str, period: str) -> str:
        return self.claims[(variable, period)]


def _source(store: Store, publisher: str, title: str, published: date, short: str | None, tag: str) -> Source:
    path = store.path.parent / f"source-{tag}.txt"
    path.write_text(f"{publisher}: {title}")
    src = Source.create(
        path=str(path),
        sha256=sha256_hex(path.read_bytes()),
        publisher=publisher,
        title=title,
        publication_date=published,
        retrieved_at=utc_now(),
        role=Role.generation,
        kind=SourceKind.text,
        series={"short_title": short} if short else {},
    )
    store.put(src)
    return src


def _relation(
    store: Store, src: Source, page: int, text: str, quote: str, a: str, b: str, sign: Sign, decision: str = "accepted"
) -> Relation:
    loc = SourceLocation.create(source_id=src.source_id, kind="passage", page=page, text=text, parser_version="t")
    rel = Relation.create(
        src_var=a,
        dst_var=b,
        sign=sign,
        quote=quote,
        location_id=loc.location_id,
        source_id=src.source_id,
        confidence=0.8,
        review_decision=decision,
        rejection_reason=None if decision == "accepted" else "scope",
        extractor="extraction@v1/offline",  # as the offline reader's build writes it
    )
    store.put_many([loc, rel])
    return rel


def build_world(store: Store, *, link: bool = True) -> World:
    esrb = _source(
        store,
        "ESRB",
        "Adverse macro-financial scenario for the 2018 EU-wide stress test",
        date(2018, 1, 16),
        "Adverse scenario",
        "a",
    )
    ecb = _source(store, "ECB", "Financial Stability Review November 2023", date(2023, 11, 22), "FSR Nov", "b")
    rels = {
        "rates_mortgage": _relation(
            store,
            esrb,
            5,
            "Higher long-term rates feed into mortgage rates across the euro area.",
            "Higher long-term rates feed into mortgage rates",
            "long_term_rate",
            "mortgage_rates",
            Sign.positive,
        ),
        "mortgage_house": _relation(
            store,
            ecb,
            31,
            "Rising mortgage rates weigh on house prices in several countries.",
            "Rising mortgage rates weigh on house prices",
            "mortgage_rates",
            "house_prices",
            Sign.negative,
        ),
        "house_gdp": _relation(
            store,
            ecb,
            36,
            "Falling house prices reduce household wealth and real GDP.",
            "Falling house prices reduce household wealth and real GDP",
            "house_prices",
            "real_gdp",
            Sign.positive,
        ),
        "rejected": _relation(
            store,
            ecb,
            40,
            "House prices and unemployment move together in some regions.",
            "House prices and unemployment move together",
            "house_prices",
            "unemployment",
            Sign.negative,
            decision="rejected",
        ),
    }
    store.put(
        Restriction.create(
            analysis_id=ANALYSIS,
            risk=RISK,
            variable="house_prices",
            model_variable="house_prices",
            direction=-1,
            priority=1,
            derivation="target",
            supporting_relation_ids=[rels["rates_mortgage"].relation_id, rels["mortgage_house"].relation_id],
        )
    )
    entry = register(SPEC, toy_model)
    history = pd.DataFrame({"real_gdp": [0.5, 0.7, 0.9]}, index=["2024Q2", "2024Q3", "2024Q4"])
    input_digest = store.put_tables({"history": history})
    specs = [
        ClaimSpec(
            analysis_id=ANALYSIS,
            risk=RISK,
            variable=v,
            unit="percent",
            horizon=HORIZON,
            transformation=TRANSFORMATION[v],
            period=p,
            model_id="toy_macro",
            required_diagnostics=["stable"],
            input_versions={"history": input_digest},
        )
        for v in VALUES
        for p in [*YEARS, HORIZON]
    ]
    tests = register_output_tests(store, specs)
    request = ModelRequest.create(analysis_id=ANALYSIS, risk=RISK, outputs=SPEC.outputs, restriction_ids=["rst_x"])
    try:
        run = execute(store, entry, request, HistoryInputs(history=history), seed=7)
    finally:
        unregister("toy_macro")
    if link:
        link_claims(store, run, tests)
    claims = {(s.variable, s.period): s.claim_id for s in specs}
    return World(store, run, claims, rels, {"esrb": esrb, "ecb": ecb})


def good_draft(w: World) -> ReportDraft:
    """A report that passes: cited mechanism, dates in tokens, signs agreeing with words."""
    return ReportDraft(
        title="Impact of higher financing costs on property markets",
        risk=RISK,
        sentences=[
            SentenceDraft(
                kind="qualitative",
                template="Higher long-term rates feed into mortgage rates.",
                cited_relation_ids=[w.relations["rates_mortgage"].relation_id],
            ),
            SentenceDraft(
                kind="temporal", template="The projection covers {{DATE:horizon}} with data up to {{DATE:cutoff}}."
            ),
            SentenceDraft(
                kind="numerical",
                template=f"In {{{{DATE:2025}}}}, house prices are projected at "
                f"{{{{NUM:{w.cid('house_prices', '2025')}}}}} and real GDP growth at "
                f"{{{{NUM:{w.cid('real_gdp', '2025')}}}}}.",
                claim_ids=[w.cid("house_prices", "2025"), w.cid("real_gdp", "2025")],
            ),
            SentenceDraft(
                kind="numerical",
                template=f"House prices then decline by {{{{NUM:{w.cid('house_prices', '2026')}}}}} in "
                f"{{{{DATE:2026}}}}.",
                cited_relation_ids=[w.relations["mortgage_house"].relation_id],
                claim_ids=[w.cid("house_prices", "2026")],
            ),
            SentenceDraft(
                kind="numerical",
                template=f"The unemployment rate is projected to rise to "
                f"{{{{NUM:{w.cid('unemployment', '2027')}}}}} by {{{{DATE:2027}}}}.",
                cited_relation_ids=[w.relations["house_gdp"].relation_id],
                claim_ids=[w.cid("unemployment", "2027")],
            ),
        ],
    )
