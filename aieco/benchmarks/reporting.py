"""Reporting speed: numeric contract, claim linking, rendering, export and claim audit.

A synthetic model (six variables × three years, seeded values) runs through the registry;
its claims are registered, linked, written up by the offline writer, rendered, exported
in every format and audited.
"""

from __future__ import annotations

import tempfile
from datetime import date

import numpy as np
import pandas as pd

from aieco.benchmarks import Figure, measure
from aieco.models.registry import ModelInputs, ModelResult, PointRef, execute, register, unregister
from aieco.records import (
    ModelRequest,
    ModelSpecification,
    Relation,
    Role,
    RunStatus,
    Source,
    SourceKind,
    SourceLocation,
    VariableSpec,
    utc_now,
)
from aieco.reporting.audit import audit_claims
from aieco.reporting.claims import ClaimSpec, link_claims, register_output_tests
from aieco.reporting.contract import check_numeric_contract
from aieco.reporting.export import FORMATS, export_report
from aieco.reporting.render import render_report
from aieco.reporting.schema import ClaimBrief, RelationBrief, ReportContext
from aieco.reporting.writer import write_report

VARIABLES = ("real_gdp", "unemployment", "inflation", "equity_prices", "house_prices", "long_term_rate")
YEARS = ("2025", "2026", "2027")
MODEL_ID = "bench_reporting_model"


def _bench_model(request: ModelRequest, inputs, seed) -> ModelResult:
    values = np.random.default_rng(seed).normal(0.0, 3.0, size=(len(YEARS), len(VARIABLES)))
    table = pd.DataFrame(values, index=list(YEARS), columns=list(VARIABLES))
    points = [
        PointRef(
            variable=v,
            unit="percent",
            transformation="annual_log_change",
            period=y,
            table="paths",
            row=y,
            column=v,
            risk="bench",
        )
        for v in VARIABLES
        for y in YEARS
    ]
    return ModelResult(status=RunStatus.completed, tables={"paths": table}, points=points, diagnostics={"ok": True})


def run(quick: bool = False) -> list[Figure]:
    from aieco.store import Store

    sentences = 200 if quick else 2_000
    text = " ".join(
        "In {{DATE:2025}}, real GDP growth weakens as tariffs rise and trade volumes fall." for _ in range(sentences)
    )
    with measure() as contract:
        assert check_numeric_contract(text) == []
    spec = ModelSpecification.create(
        model_id=MODEL_ID,
        version="1",
        inputs=[],
        horizon="2025-2027",
        snapshot="bench",
        entry_point="x:y",
        outputs=[
            VariableSpec(variable=v, unit="percent", frequency="A", transformation="annual_log_change")
            for v in VARIABLES
        ],
    )
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(tmp + "/ws")
        src = Source.create(
            path="bench.txt",
            sha256="b" * 64,
            publisher="Bench",
            title="Bench source",
            publication_date=date(2024, 1, 1),
            retrieved_at=utc_now(),
            role=Role.generation,
            kind=SourceKind.text,
        )
        loc = SourceLocation.create(
            source_id=src.source_id, kind="passage", page=1, parser_version="b", text="Higher tariffs lower real GDP."
        )
        rel = Relation.create(
            src_var="tariffs",
            dst_var="real_gdp",
            sign="-",
            quote="Higher tariffs lower real GDP",
            location_id=loc.location_id,
            source_id=src.source_id,
            confidence=0.9,
        )
        store.put_many([src, loc, rel])
        specs = [
            ClaimSpec(
                analysis_id="an_bench",
                risk="bench",
                variable=v,
                unit="percent",
                horizon="2025-2027",
                transformation="annual_log_change",
                period=y,
                model_id=MODEL_ID,
            )
            for v in VARIABLES
            for y in YEARS
        ]
        entry = register(spec, _bench_model)
        try:
            tests = register_output_tests(store, specs)
            request = ModelRequest.create(
                analysis_id="an_bench", risk="bench", outputs=spec.outputs, restriction_ids=["rst_bench"]
            )
            run_ = execute(store, entry, request, ModelInputs(), seed=20241231)
        finally:
            unregister(MODEL_ID)
        with measure() as link:
            link_claims(store, run_, tests)
        ctx = ReportContext(
            analysis_id="an_bench",
            risk="bench",
            risk_label="bench risk",
            relations=[
                RelationBrief(
                    relation_id=rel.relation_id,
                    src_var="tariffs",
                    dst_var="real_gdp",
                    src_label="tariffs",
                    dst_label="real GDP",
                    sign="-",
                )
            ],
            claims=[
                ClaimBrief(
                    claim_id=s.claim_id,
                    variable=s.variable,
                    label=s.variable.replace("_", " "),
                    period=s.period,
                    unit=s.unit,
                    transformation=s.transformation,
                )
                for s in specs
            ],
        )
        with measure() as render:
            report = render_report(store, "an_bench", write_report(ctx), cutoff=date(2024, 12, 31)).report
        with measure() as export:
            for fmt in FORMATS:
                export_report(store, report.report_id, fmt)
        with measure() as audit:
            assert audit_claims(store, "an_bench") == []
        store.close()
    return [
        Figure(
            name="contract_sentences_per_s", value=sentences / contract["seconds"], unit="sentences/s", better="higher"
        ),
        Figure(name="link_18_claims", value=link["seconds"], unit="s"),
        Figure(name="write_and_render_18_claims", value=render["seconds"], unit="s", target=2.0),
        Figure(name="export_all_five_formats", value=export["seconds"], unit="s", target=5.0),
        Figure(name="audit_18_claims", value=audit["seconds"], unit="s", target=2.0),
    ]
