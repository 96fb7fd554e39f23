"""A small, fully linked workspace for the dashboard tests (records written directly).

It holds one analysis with every kind of record the pages show: sources (one published
after the cutoff and excluded), passages, relations (two of opposite sign on one edge),
a channel query, a path, a derivation, restrictions, a macro run with quantile points,
a bank run with per-bank points, a claim, a report whose sentence cites the claim, an
output test, an LLM call, stage records (one stopped) and a validation gate.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd

from aieco.errors import StageStopped
from aieco.models.registry import ModelInputs, ModelResult, PointRef, RegisteredModel, execute
from aieco.records import (
    Analysis,
    ChannelQuery,
    Claim,
    Derivation,
    EvidenceClass,
    Exclusion,
    ExclusionReason,
    LLMCall,
    ModelRequest,
    ModelSpecification,
    Relation,
    Report,
    Restriction,
    Role,
    RunStatus,
    Sign,
    Source,
    SourceKind,
    SourceLocation,
    StageRecord,
    StageStatus,
    ValidationGate,
    VariableSpec,
)
from aieco.records import Path as ChannelPath
from aieco.reporting.claims import ClaimSpec, link_claims, register_output_tests
from aieco.reporting.render import render_report
from aieco.reporting.schema import ReportDraft, SentenceDraft
from aieco.store import Store

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
PERIODS = ["2025", "2026", "2027"]
QUANTILES = [0.05, 0.25, 0.5, 0.75, 0.95]


class ToyInputs(ModelInputs):
    """The two toy models' inputs (each stored under its own name)."""

    data: dict | None = None
    scenario: dict | None = None


def _macro_model(request, inputs, seed):
    rng = np.random.default_rng(seed)
    draws = np.cumsum(rng.normal(-0.5, 1.0, size=(200, len(PERIODS))), axis=1)
    table = pd.DataFrame({f"q{q:.2f}": np.quantile(draws, q, axis=0) for q in QUANTILES}, index=PERIODS)
    table["selected"] = draws[int(np.argmin(draws[:, -1]))]
    points = [
        PointRef(
            "real_gdp",
            "%",
            "yoy_log",
            p,
            "real_gdp",
            p,
            f"q{q:.2f}",
            statistic=f"p{int(q * 100):02d}",
            quantile=q,
            risk="trade_fragmentation",
        )
        for q in QUANTILES
        for p in PERIODS
    ]
    points += [
        PointRef(
            "real_gdp", "%", "yoy_log", p, "real_gdp", p, "selected", statistic="selected", risk="trade_fragmentation"
        )
        for p in PERIODS
    ]
    return ModelResult(RunStatus.completed, {"real_gdp": table}, points, {"acceptance_share": 0.125, "severity": 1.75})


def _bank_model(request, inputs, seed):
    banks = ["Bank A", "Bank B"]
    table = pd.DataFrame(
        {
            f"{b}|q{q:.2f}": [14.0 - i - 3 * (1 - q) - k * 0.5 for k in range(len(PERIODS))]
            for i, b in enumerate(banks)
            for q in QUANTILES
        },
        index=PERIODS,
    )
    points = [
        PointRef(
            "cet1_ratio",
            "%",
            "level",
            p,
            "cet1",
            p,
            f"{b}|q{q:.2f}",
            statistic=f"p{int(q * 100):02d}",
            quantile=q,
            entity=b,
        )
        for b in banks
        for q in QUANTILES
        for p in PERIODS
    ]
    return ModelResult(RunStatus.completed, {"cet1": table}, points, {"paths": 25})


def _spec(model_id: str, entry: str, outputs: list[VariableSpec]) -> ModelSpecification:
    return ModelSpecification.create(
        model_id=model_id, version="test", inputs=[], outputs=outputs, snapshot="test-snapshot", entry_point=entry
    )


def build_workspace(path: Path, source_dir: Path, *, planted: str = "") -> dict[str, str]:
    """Write the workspace at ``path`` (source files under ``source_dir``); returns key ids.

    ``planted`` is appended to every relation quote and to the qualitative report sentence
    (the dashboard-safety test plants a Markdown image there).
    """
    source_dir.mkdir(parents=True, exist_ok=True)
    store = Store(path)
    try:
        return _write(store, source_dir, planted)
    finally:
        store.close()


QUOTES = (
    "higher tariffs reduce trade volumes",
    "trade volumes raise real GDP",
    "volatility lowers equity prices",
    "volatility went with higher equity prices",
)


def _write(store: Store, source_dir: Path, planted: str = "") -> dict[str, str]:
    request = {"risks": ["trade_fragmentation", "market_illiquidity"], "cutoff": "2024-12-31"}
    analysis = Analysis.create(request=request, label="test analysis", created_at=T0)
    aid = analysis.analysis_id
    store.put(analysis)

    sources, locations = [], []
    for i, (title, published) in enumerate(
        [
            ("Trade outlook", date(2024, 6, 1)),
            ("Liquidity review", date(2024, 9, 1)),
            ("Later outlook", date(2025, 3, 1)),
        ]
    ):
        f = source_dir / f"doc{i}.txt"
        f.write_text(title)
        sha = hashlib.sha256(f.read_bytes()).hexdigest()
        src = Source.create(
            path=str(f),
            sha256=sha,
            size_bytes=f.stat().st_size,
            publisher="Test Bank",
            title=title,
            publication_date=published,
            retrieved_at=T0,
            role=Role.generation,
            kind=SourceKind.text,
            illustrative=True,
            note="synthetic test document",
        )
        sources.append(src)
        text = (
            f"{title}: higher tariffs reduce trade volumes and trade volumes raise real GDP; volatility "
            "lowers equity prices; volatility went with higher equity prices."
        )
        if planted:  # every quote below, each followed by the planted text
            text = f"{title}: " + " ".join(f"{q}{planted}." for q in QUOTES)
        locations.append(
            SourceLocation.create(source_id=src.source_id, kind="passage", page=1, text=text, parser_version="test-1")
        )
    store.put_many(sources + locations)
    store.put(
        Exclusion.create(
            analysis_id=aid,
            source_id=sources[2].source_id,
            reason=ExclusionReason.after_cutoff,
            detail="published 2025-03-01 after the cutoff 2024-12-31",
        )
    )

    def rel(src_var, dst_var, sign, quote, k):
        return Relation.create(
            src_var=src_var,
            dst_var=dst_var,
            sign=sign,
            evidence_class=EvidenceClass.causal,
            verb="reduce",
            quote=quote + planted,
            location_id=locations[k].location_id,
            source_id=sources[k].source_id,
            publication_date=sources[k].publication_date,
            confidence=0.8,
            extractor="extraction@v1/offline",  # as the offline reader's build writes it
        )

    relations = [
        rel("tariffs", "trade_volumes", Sign.negative, "higher tariffs reduce trade volumes", 0),
        rel("trade_volumes", "real_gdp", Sign.positive, "trade volumes raise real GDP", 0),
        rel("volatility", "equity_prices", Sign.negative, "volatility lowers equity prices", 1),
        rel("volatility", "equity_prices", Sign.positive, "volatility went with higher equity prices", 1),
    ]
    store.put_many(relations)

    query = ChannelQuery.create(
        risk="trade_fragmentation",
        source_var="tariffs",
        source_movement="increase",
        target_var="real_gdp",
        target_movement="decrease",
    )
    path = ChannelPath.create(
        analysis_id=aid,
        query_id=query.query_id,
        risk="trade_fragmentation",
        variables=["tariffs", "trade_volumes", "real_gdp"],
        signs=[Sign.negative, Sign.positive],
        relation_ids=[relations[0].relation_id, relations[1].relation_id],
        evidence=[[relations[0].relation_id], [relations[1].relation_id]],
        composed_sign=Sign.negative,
        score=0.77,
        mean_confidence=0.8,
        n_docs=1,
        rank=1,
    )
    restriction = Restriction.create(
        analysis_id=aid,
        risk="trade_fragmentation",
        variable="real_gdp",
        model_variable="real_gdp",
        direction=-1,
        priority=1,
        supporting_relation_ids=[r.relation_id for r in relations[:2]],
        derivation="target",
        path_id=path.path_id,
    )
    derivation = Derivation.create(
        analysis_id=aid,
        risk="trade_fragmentation",
        assessed=[
            {
                "path_id": path.path_id,
                "query_id": query.query_id,
                "composed_sign": "-",
                "implied_target_movement": "decrease",
                "outcome": "accepted",
                "reason": "agrees with the registration",
            }
        ],
        restriction_ids=[restriction.restriction_id],
        status="accepted",
        registration_digest="test",
    )
    store.put_many([query, path, restriction, derivation])

    gdp = VariableSpec(variable="real_gdp", unit="%", frequency="A", transformation="yoy_log")
    # The claim is registered before the run and linked after it, by the reporting library.
    claim_spec = ClaimSpec(
        analysis_id=aid,
        risk="trade_fragmentation",
        variable="real_gdp",
        unit="%",
        horizon="2025-2027",
        transformation="yoy_log",
        period="2027",
        model_id="test_macro",
        statistic="selected",
    )
    register_output_tests(store, [claim_spec])
    model_request = ModelRequest.create(
        analysis_id=aid, risk="trade_fragmentation", outputs=[gdp], restriction_ids=[restriction.restriction_id]
    )
    macro = execute(
        store,
        RegisteredModel(_spec("test_macro", "tests.populated_workspace:_macro_model", [gdp]), _macro_model),
        model_request,
        ToyInputs(data={"rows": 3}),
        seed=7,
    )
    link_claims(store, macro)
    cet1 = VariableSpec(variable="cet1_ratio", unit="%", frequency="A", transformation="level")
    bank = execute(
        store,
        RegisteredModel(_spec("test_bank", "tests.populated_workspace:_bank_model", [cet1]), _bank_model),
        model_request,
        ToyInputs(scenario={"run": macro.run_id}),
        seed=7,
        parent_runs=[macro.run_id],
    )
    store.put(
        ValidationGate.create(
            model_id="test_bank",
            run_id=bank.run_id,
            metrics={"mae": 1.2, "spearman": 0.6, "n_banks": 2.0},
            thresholds={"mae_max": 2.0, "spearman_min": 0.5},
            passed=True,
        )
    )

    claim = store.require(Claim, claim_spec.claim_id)
    draft = ReportDraft(
        title="Trade fragmentation",
        risk="trade_fragmentation",
        sentences=[
            SentenceDraft(
                kind="qualitative",
                template="An illustrative source finds that higher tariffs reduce trade volumes." + planted,
                cited_relation_ids=[relations[0].relation_id],
            ),
            SentenceDraft(
                kind="numerical",
                template=f"In the selected path, real GDP in {{{{DATE:2027}}}} is {{{{NUM:{claim.claim_id}}}}}.",
                claim_ids=[claim.claim_id],
            ),
        ],
    )
    try:
        report = render_report(store, aid, draft).report
    except StageStopped:
        if not planted:
            raise
        # the planted URL's digits fail the numeric contract: the failed report is stored and shown for audit
        (report,) = store.find(Report, analysis_id=aid)
    call = LLMCall.create(
        analysis_id=aid,
        stage="report",
        task="report_writing",
        sequence=0,
        prompt_version="t1",
        backend="offline",
        requested_model="offline",
        returned_model="offline",
        request_payload={"x": 1},
        request_digest="d",
        input_tokens=120,
        output_tokens=40,
        status="ok",
        started_at=T0,
        ended_at=T0 + timedelta(seconds=1),
    )
    stages = [
        StageRecord.create(
            analysis_id=aid,
            stage=name,
            status=status,
            reason=reason,
            input_digest=name,
            started_at=T0 + timedelta(seconds=i),
            ended_at=T0 + timedelta(seconds=i + 1),
        )
        for i, (name, status, reason) in enumerate(
            [
                ("eligibility", StageStatus.completed, ""),
                ("paths", StageStatus.completed, ""),
                (
                    "restrictions",
                    StageStatus.stopped,
                    "market_illiquidity: every path composes against its registered movement",
                ),
            ]
        )
    ]
    store.put_many([call, *stages])
    return {
        "analysis_id": aid,
        "report_id": report.report_id,
        "claim_id": claim.claim_id,
        "macro_run": macro.run_id,
        "bank_run": bank.run_id,
        "point_id": claim.point_id,
    }
