"""Every default of aieco, in one place.

Values come from the environment with the ``AIECO_`` prefix (nested fields use ``__``,
e.g. ``AIECO_RETRIEVAL__TOP_K=10``). Secrets (API keys) are read from the environment
only where they are used and never stored.
"""

from __future__ import annotations

import json
import os
import typing
from collections.abc import Mapping
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: Marks a setting that cannot change any analysis result (paths, parallelism, timeouts, UI):
#: left out of the stage input digests and of analysis ids (see :func:`result_settings`).
NOT_RESULT: dict[str, Any] = {"result": False}


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StoreSettings(_Section):
    busy_timeout_ms: int = Field(
        30_000, json_schema_extra=NOT_RESULT, description="SQLite busy timeout for concurrent writers."
    )


class SourceSettings(_Section):
    pdf_parser_version: str = Field("pdf-2", description="Part of every PDF location id.")
    xlsx_parser_version: str = Field("xlsx-1", description="Part of every spreadsheet location id.")
    series_parser_version: str = Field("series-1", description="Part of every series location id.")
    csv_parser_version: str = Field("csv-1", description="Part of every CSV cell location id.")
    text_parser_version: str = Field("text-2", description="Part of every plain-text passage location id.")
    max_passage_chars: int = Field(1200, description="Longest passage kept as one location.")
    ingest_workers: int = Field(
        0, json_schema_extra=NOT_RESULT, description="Processes parsing files in parallel (0 = one per CPU)."
    )
    parallel_min_bytes: int = Field(
        1_000_000, json_schema_extra=NOT_RESULT, description="Least total size of new files worth parallel parsing."
    )
    pdf_chunk_pages: int = Field(
        12, json_schema_extra=NOT_RESULT, description="Pages of one PDF parsed per task when parsing in parallel."
    )
    parallel_min_pages: int = Field(
        200,
        json_schema_extra=NOT_RESULT,
        description="Least pages of a PDF ingested alone worth splitting over worker processes "
        "(a worker costs about 1.2 CPU-s: start-up, page chunks, results sent back; the parser reads "
        "about 70 pages per CPU-s, so below this its share is not worth what it costs).",
    )
    max_file_bytes: int = Field(200_000_000, description="Largest source file registered (bytes).")
    max_pdf_pages: int = Field(2_000, description="Most pages of one PDF registered.")
    max_unzipped_bytes: int = Field(
        1_000_000_000, gt=0, description="Largest uncompressed content of one .xlsx workbook (bytes)."
    )
    max_zip_ratio: float = Field(
        100.0,
        gt=1,
        description="Largest uncompressed/compressed ratio of a workbook over 20 MB uncompressed (real workbooks "
        "measured here: at most 18 per member; a decompression bomb: about 1000).",
    )


class RetrievalSettings(_Section):
    candidates_per_ranker: int = Field(50, gt=0, description="Candidates taken from BM25 and from LSA.")
    top_k: int = Field(20, gt=0, description="Passages returned after reciprocal rank fusion.")
    rrf_k: int = Field(60, description="Reciprocal rank fusion constant.")
    lsa_components: int = Field(128, gt=0, description="TruncatedSVD components for LSA.")
    byte_budget: int = Field(12_000, gt=0, description="Evidence serialisation limit in bytes.")


class GraphSettings(_Section):
    candidate_cap: int = Field(600, description="G0: most candidate sentences processed.")
    batch_size: int = Field(8, description="G0: candidate sentences per extraction request.")
    max_path_length: int = Field(5, ge=1, le=10, description="Most relations in one path.")
    top_paths: int = Field(5, ge=1, description="Paths kept per channel query.")
    doc_bonus: float = Field(0.05, description="S(C): reward per distinct document.")
    length_penalty: float = Field(0.03, description="S(C): penalty per relation beyond the first.")


#: Most VAR trajectories one run may draw: the simulation holds about 150 bytes per draw at once
#: (10^9 draws asked for 134 GiB), so this bound keeps a run under about 300 MB.
MAX_VAR_DRAWS = 2_000_000


class ScenarioSettings(_Section):
    cutoff: date = Field(date(2024, 12, 31), description="Default information cutoff.")
    horizon_start: int = Field(2025, description="First scenario year.")
    horizon_end: int = Field(2027, description="Last scenario year.")
    var_lags: int = Field(2, ge=1, le=12, description="VAR lag order.")
    var_draws: int = Field(
        20_000,
        gt=0,
        le=MAX_VAR_DRAWS,
        description="Residual-bootstrap trajectories (at most MAX_VAR_DRAWS: about 150 bytes each are held at once).",
    )
    var_estimator: Literal["minnesota", "ols"] = Field(
        "minnesota",
        description="VAR coefficients: 'minnesota' (posterior mean under Litterman's Minnesota prior, a Bayesian VAR) "
        "or 'ols' (the paper's least squares). See aieco.models.var.VAR_ESTIMATORS.",
    )
    minnesota_tightness: float = Field(
        0.2,
        gt=0,
        le=10,
        description="Minnesota prior: overall tightness λ (prior s.d. of a first own-lag coefficient); 0.2 is the "
        "conventional benchmark (e.g. the default mode of λ in the R package BVAR).",
    )
    minnesota_cross: float = Field(
        0.5,
        gt=0,
        le=1,
        description="Minnesota prior: relative tightness θ of other variables' lags (0.5, the usual benchmark).",
    )
    var_min_obs: int = Field(80, gt=0, description="Least complete quarterly observations for the VAR.")
    sample_start: str = Field("2000Q1", description="First quarter of the estimation sample.")
    sample_start_earliest: str = Field(
        "1995Q1",
        description="Earliest start when an early cutoff leaves fewer than var_min_obs quarters from sample_start "
        "(the sample then reaches back just far enough).",
    )
    seed: int = Field(20241231, ge=0, lt=2**63, description="Default seed.")
    kmeans_groups: int = Field(3, ge=1, description="Unconditional comparator: k-means groups.")
    tail_share: float = Field(0.10, gt=0, le=1, description="Unconditional comparator: most adverse share.")
    selection: Literal["calibrated", "paper_max"] = Field(
        "calibrated",
        description="Scenario rule: 'calibrated' (the conditional forecast of a risk's restricted variables at a "
        "target severity percentile, on the official adverse severity scale) or 'paper_max' (the paper's single "
        "most severe admissible draw, Eq. scenarioset).",
    )
    severity_percentile: float = Field(
        0.95, gt=0.0, lt=1.0, description="Calibrated rule: target severity percentile over the simulation set."
    )
    severity_scale: Literal["official", "none"] = Field(
        "official",
        description="Calibrated rule: 'official' scales every risk's deviation from the baseline by one factor so "
        "that a generic GDP-down scenario at the target percentile has the GDP deviation of the latest official "
        "adverse scenario published by the cutoff; 'none' keeps the model's own deviations.",
    )
    anchor_baseline: bool = Field(
        True, description="Anchor the VAR baseline to the latest official staff projection published by the cutoff."
    )


class BankSettings(_Section):
    quantiles: tuple[float, ...] = Field(
        tuple(round(0.05 * i, 2) for i in range(1, 20)), description="FE-QAR quantile levels."
    )
    qar_penalty: float = Field(1.0, description="FE-QAR L1 penalty on fixed effects (lambda).")
    min_obs: int = Field(8, gt=0, description="Least complete half-year observations per bank.")
    projection_paths: int = Field(25_000, gt=0, le=10_000_000, description="Projection paths per bank and scenario.")
    projection_threads: int = Field(
        0, ge=0, json_schema_extra=NOT_RESULT, description="Threads simulating banks at once (0 = one per CPU)."
    )
    bootstrap_reps: int = Field(2_000, gt=0, le=1_000_000, description="Country-cluster bootstrap replications.")
    mae_max: float = Field(2.0, description="Validation: largest MAE of CET1 depletion (pp).")
    spearman_min: float = Field(0.5, description="Validation: least Spearman correlation.")
    coverage_min: float = Field(0.75, description="Validation: least interval coverage.")
    max_start_age_years: float = Field(
        3.0,
        description="Real banks: a bank whose latest admissible actual year-end is older than this many years "
        "at the cutoff is left out of an analysis, with its reason recorded.",
    )
    cv_seeds: int = Field(10, ge=1, description="Scenario bank model: fold seeds of the bank-clustered CV.")
    cv_agreement_min: int = Field(
        9, ge=1, description="Scenario bank model: least number of CV fold seeds that must pass for the CV to pass."
    )


class LLMSettings(_Section):
    backend: str = Field("offline", description="offline | openai | replay")
    model: str = Field("gpt-4o-2024-08-06", description="Requested model snapshot.")
    base_url: str | None = Field(None, description="OpenAI-compatible endpoint (no key here).")
    temperature: float = Field(0.0, description="Sampling temperature.")
    max_output_tokens: int = Field(2048, description="Output token limit per call.")
    request_budget: int = Field(200, ge=0, description="Most LLM requests per analysis.")
    cost_budget_usd: float | None = Field(None, description="Most USD spent per analysis (None = no limit).")
    timeout_s: float = Field(60.0, json_schema_extra=NOT_RESULT, description="HTTP timeout per request.")
    concurrency: int = Field(
        8,
        ge=1,
        json_schema_extra=NOT_RESULT,
        description="Requests of one stage in flight at once (1 = one at a time).",
    )
    price_per_million_input: dict[str, float] = Field(
        default_factory=lambda: {"gpt-4o-2024-08-06": 2.5}, description="USD per 1M input tokens."
    )
    price_per_million_output: dict[str, float] = Field(
        default_factory=lambda: {"gpt-4o-2024-08-06": 10.0}, description="USD per 1M output tokens."
    )


class ReportSettings(_Section):
    rounding: int = Field(
        3,
        description="Decimals ρ of Round(z) for a claim whose unit has no registered rule "
        "(aieco.reporting.claims.UNIT_RULES: one decimal for % and pp).",
    )
    tolerance: float = Field(1e-10, description="ε of Eq. outputtestpass for a registered claim.")
    max_claims_per_sentence: int = Field(3, description="Offline writer: most NUM tokens in one sentence.")
    named_terms: tuple[str, ...] = Field(
        ("CET1", "AT1", "G7", "G20", "COVID-19"),
        description="Names whose digits are not quantities (matched exactly, case-sensitive, as whole words).",
    )


class DashboardSettings(_Section):
    build_demo_on_first_launch: bool = Field(
        True,
        json_schema_extra=NOT_RESULT,
        description="Build and run the real default workspace (aieco.default) when the dashboard opens on "
        "an empty workspace.",
    )


ENV_PREFIX = "AIECO_"
ENV_NESTED = "__"


class Settings(BaseModel):
    """The one settings object (see :func:`environment_values` for how the environment is read)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    workspace: Path = Field(Path("store"), json_schema_extra=NOT_RESULT, description="Default workspace folder.")
    store: StoreSettings = StoreSettings()
    sources: SourceSettings = SourceSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    graph: GraphSettings = GraphSettings()
    scenario: ScenarioSettings = ScenarioSettings()
    bank: BankSettings = BankSettings()
    llm: LLMSettings = LLMSettings()
    report: ReportSettings = ReportSettings()
    dashboard: DashboardSettings = DashboardSettings()


def _json_field(annotation: Any) -> bool:
    """Whether an environment value for a field of this type is JSON (a list, tuple, mapping or section)."""
    if typing.get_origin(annotation) in (tuple, list, dict, set, frozenset):
        return True
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def environment_values(environ: Mapping[str, str]) -> dict[str, Any]:
    """The ``AIECO_`` variables as nested field values, read as pydantic-settings read them.

    Names are case-insensitive; ``__`` separates a section from its field (and a mapping field
    from its key); a value for a list, tuple, mapping or whole section is JSON; other values
    are passed as strings for pydantic to convert. A variable naming no top-level field is
    ignored; one naming no field of a section is passed on (and refused by the section).
    Read here rather than through pydantic-settings, whose import (with asyncio) showed as
    about 0.08 s of every CLI command under ``-X importtime`` (tens of CPU-ms measured directly).
    """
    out: dict[str, Any] = {}
    for key, raw in sorted(environ.items()):
        if not key.upper().startswith(ENV_PREFIX):
            continue
        path = key[len(ENV_PREFIX) :].lower().split(ENV_NESTED)
        if path[0] not in Settings.model_fields:
            continue
        annotation: Any = Settings.model_fields[path[0]].annotation
        for name in path[1:]:  # into a section's field, or a mapping's key
            section = isinstance(annotation, type) and issubclass(annotation, BaseModel)
            fields = annotation.model_fields if section else {}
            annotation = fields[name].annotation if name in fields else None
        value: Any = raw
        if _json_field(annotation):
            try:
                value = json.loads(raw)
            except ValueError:
                value = raw  # pydantic reports what is wrong with it
        node = out
        for name in path[:-1]:
            node = node.setdefault(name, {})
            if not isinstance(node, dict):
                break
        else:
            previous = node.get(path[-1])
            if isinstance(previous, dict) and isinstance(value, dict):
                value = {**value, **previous}  # the nested variables win over a JSON value
            node[path[-1]] = value
    return out


def result_settings(settings: BaseModel) -> dict[str, Any]:
    """The settings that can change an analysis result, flattened to ``section.field`` keys (JSON values).

    Every field not marked :data:`NOT_RESULT` counts: a new setting is part of the stage input
    digests unless its declaration says it cannot change a result.
    """
    out: dict[str, Any] = {}
    for name, info in type(settings).model_fields.items():
        extra = info.json_schema_extra
        if isinstance(extra, dict) and extra.get("result") is False:
            continue
        value = getattr(settings, name)
        if isinstance(value, BaseModel):
            out.update({f"{name}.{k}": v for k, v in result_settings(value).items()})
        else:
            out[name] = json.loads(json.dumps(value, default=str))  # dates, paths, tuples as JSON reads them
    return out


def changed_result_settings(settings: Settings | None = None) -> dict[str, Any]:
    """The result settings that differ from their defaults (``section.field`` → value, sorted)."""
    current = result_settings(settings or get_settings())
    default = result_settings(Settings())
    return {k: v for k, v in sorted(current.items()) if default.get(k) != v}


#: Environment variables holding secrets: their values never reach the store or the output.
SECRET_VARIABLES = ("OPENAI_API_KEY", "AIECO_API_KEY")
REDACTED = "[redacted]"
_registered_secrets: set[str] = set()


def register_secret(value: str | None) -> None:
    """Treat ``value`` (e.g. an API key passed to a backend, not read from the environment) as a secret."""
    if value and len(value.strip()) >= 4:
        _registered_secrets.add(value.strip())


def secret_values() -> list[str]:
    """The secrets in force (environment and registered), longest first; values under 4 characters are
    not treated as secrets (redacting them would blank ordinary words)."""
    found = {os.environ.get(name, "").strip() for name in SECRET_VARIABLES} | _registered_secrets
    return sorted((v for v in found if len(v) >= 4), key=len, reverse=True)


def redact(value: Any) -> Any:
    """``value`` with every secret value replaced by ``[redacted]`` (strings inside lists and mappings too)."""
    secrets = secret_values()
    if not secrets:
        return value

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            for secret in secrets:
                if secret in v:
                    v = v.replace(secret, REDACTED)
            return v
        if isinstance(v, dict):
            return {walk(k): walk(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return type(v)(walk(x) for x in v)
        return v

    return walk(value)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (read once from the environment).

    Raises
    ------
    InputError
        Naming the environment variable and what it must be, when a value is refused.
    """
    from pydantic import ValidationError

    try:
        return Settings.model_validate(environment_values(os.environ))
    except ValidationError as exc:
        from aieco.errors import InputError

        problems = [
            f"{ENV_PREFIX}{ENV_NESTED.join(str(p) for p in e['loc']).upper()}: {e['msg']}" for e in exc.errors()
        ]
        raise InputError(
            "invalid setting: " + "; ".join(problems),
            where="environment",
            fix="correct or unset the named AIECO_ variable(s) (defaults and bounds: aieco/config.py)",
        ) from None
