"""The records of an analysis (DESIGN §2): one frozen pydantic model per noun, no I/O.

Ids are deterministic: ``<prefix>_<first 20 hex of SHA-256 of canonical JSON>`` over the
record's identity fields (by default every field but the id). Build records with
``Record.create(**fields)`` so the id is computed; ``record.verify_id()`` recomputes it.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, date, datetime
from enum import Enum
from typing import Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

from aieco.errors import IntegrityError

ID_HEX = 20


def canonical_json(obj: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8, exact float repr, NaN refused."""

    def default(o: Any) -> Any:
        if isinstance(o, BaseModel):
            return o.model_dump(mode="json")
        if isinstance(o, datetime):
            return o.isoformat()
        if isinstance(o, date):
            return o.isoformat()
        if isinstance(o, Enum):
            return o.value
        if isinstance(o, (set, frozenset)):
            return sorted(o)
        if hasattr(o, "tolist"):  # numpy scalars and arrays
            return o.tolist()
        raise TypeError(f"not JSON-serialisable: {type(o).__name__}")

    return json.dumps(
        obj,
        default=default,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        allow_nan=False,
    )


def sha256_hex(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def digest(obj: Any) -> str:
    """SHA-256 hex of the canonical JSON of ``obj``."""
    return sha256_hex(canonical_json(obj))


def make_id(prefix: str, obj: Any) -> str:
    return f"{prefix}_{digest(obj)[:ID_HEX]}"


def utc_now() -> datetime:
    return datetime.now(UTC)


# --------------------------------------------------------------------------- vocabularies


class Role(str, Enum):
    generation = "generation"
    methods = "methods"
    development = "development"
    evaluation = "evaluation"


class SourceKind(str, Enum):
    pdf = "pdf"
    xlsx = "xlsx"
    csv = "csv"
    text = "text"


class ExclusionReason(str, Enum):
    after_cutoff = "after_cutoff"
    role = "role"
    scope = "scope"
    unknown_date = "unknown_date"
    quote_not_found = "quote_not_found"


class Sign(str, Enum):
    positive = "+"
    negative = "-"
    non_monotone = "non-monotone"
    ambiguous = "ambiguous"
    absent = "absent"


class EvidenceClass(str, Enum):
    causal = "causal"
    structural = "structural"
    predictive = "predictive"
    accounting = "accounting"
    institutional = "institutional"
    descriptive = "descriptive"
    policy_judgment = "policy judgment"
    unknown = "unknown"


class ValueStatus(str, Enum):
    observed = "observed"
    simulated = "simulated"
    modelled = "modelled"


class Provenance(str, Enum):
    """Where a value or record comes from; shown wherever a user reads what is built on it."""

    real = "real"
    synthetic = "synthetic"
    illustrative = "illustrative"


class ReleaseRule(str, Enum):
    """The rule that gave an observation its release date."""

    vintage = "vintage"  # the true publication date of the vintage
    lag = "lag"  # reference period end + a documented per-series publication lag
    file = "file"  # the date the file itself states


class StageStatus(str, Enum):
    completed = "completed"
    stopped = "stopped"
    failed = "failed"


class RunStatus(str, Enum):
    completed = "completed"
    stopped = "stopped"
    failed = "failed"


class Movement(str, Enum):
    increase = "increase"
    decrease = "decrease"

    @property
    def direction(self) -> int:
        return 1 if self is Movement.increase else -1


class SentenceKind(str, Enum):
    qualitative = "qualitative"
    numerical = "numerical"
    temporal = "temporal"


# --------------------------------------------------------------------------- base


class FrozenModel(BaseModel):
    """Base of every structured boundary object that is not a stored record (LLM I/O, requests)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Record(BaseModel):
    """Base of every stored record: frozen, no extra fields, deterministic id."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False, defer_build=True)

    table: ClassVar[str] = ""
    id_field: ClassVar[str] = ""
    id_prefix: ClassVar[str] = ""
    #: Fields left out of the identity digest (e.g. wall-clock timings).
    id_excludes: ClassVar[frozenset[str]] = frozenset()
    #: If set, only these fields make the identity.
    id_only: ClassVar[frozenset[str] | None] = None
    #: Append-only tables refuse UPDATE and DELETE at the SQLite level.
    append_only: ClassVar[bool] = False
    #: Optional fields added after workspaces held rows of this record: a workspace written before may lack
    #: their column (a writing command adds it; the read-only audit accepts its absence, and the row digests
    #: still cover any value a row held).
    added_fields: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def identity(cls, fields: dict[str, Any]) -> dict[str, Any]:
        keys = cls.id_only if cls.id_only is not None else set(cls.model_fields) - {cls.id_field}
        keys = set(keys) - set(cls.id_excludes)
        return {k: fields.get(k) for k in sorted(keys)}

    @classmethod
    def create(cls, **fields: Any) -> Self:
        """Validate ``fields`` and return the record with its computed id."""
        provisional = cls.model_validate({cls.id_field: f"{cls.id_prefix}_pending", **fields})
        dumped = provisional.model_dump(mode="json")
        return provisional.model_copy(update={cls.id_field: make_id(cls.id_prefix, cls.identity(dumped))})

    @property
    def key(self) -> str:
        return getattr(self, self.id_field)

    def expected_id(self) -> str:
        return make_id(self.id_prefix, self.identity(self.model_dump(mode="json")))

    def verify_id(self) -> None:
        if self.key != self.expected_id():
            raise IntegrityError(
                f"{self.table} row {self.key} does not match its content (expected {self.expected_id()})",
                fix="the row was altered after it was written; restore it from a backup",
            )

    def digest(self) -> str:
        return digest(self.model_dump(mode="json"))


# --------------------------------------------------------------------------- sources


class Source(Record):
    """A registered file; its id comes from the SHA-256 of its bytes."""

    table: ClassVar[str] = "sources"
    id_field: ClassVar[str] = "source_id"
    id_prefix: ClassVar[str] = "src"
    id_only: ClassVar[frozenset[str]] = frozenset({"sha256"})

    source_id: str = Field(description="src_ + digest of the file's SHA-256.")
    path: str = Field(description="Path as registered (relative to the manifest or absolute).")
    sha256: str = Field(description="SHA-256 of the file's bytes.")
    size_bytes: int = Field(0, description="File size in bytes.")
    publisher: str = Field(description="Publishing institution.")
    title: str = Field(description="Document title.")
    publication_date: date | None = Field(description="Publication date; None = unknown (excluded).")
    retrieved_at: datetime = Field(description="UTC time the file was registered.")
    role: Role = Field(description="generation | methods | development | evaluation")
    jurisdiction: str = Field("EA", description="Jurisdiction the source is about.")
    kind: SourceKind = Field(description="pdf | xlsx | csv | text")
    illustrative: bool = Field(False, description="True for synthetic/illustrative demo material.")
    role_overrides: list[dict[str, Any]] = Field(
        default_factory=list, description="Page/sheet-level role overrides from the manifest."
    )
    series: dict[str, Any] = Field(default_factory=dict, description="Optional series metadata.")
    note: str = Field("", description="Free note (e.g. 'synthetic demo document').")


class SourceLocation(Record):
    """One passage, table cell or spreadsheet cell of a source."""

    table: ClassVar[str] = "source_locations"
    id_field: ClassVar[str] = "location_id"
    id_prefix: ClassVar[str] = "loc"
    # Section and paragraph follow from the file position the parser version already fixes;
    # leaving them out of the digest keeps the ids of every earlier location valid.
    id_excludes: ClassVar[frozenset[str]] = frozenset({"section", "paragraph"})

    location_id: str = Field(description="Digest of source, parser version, position and text.")
    source_id: str = Field(description="The source this location belongs to.")
    kind: Literal["passage", "table_cell", "sheet_cell", "series"] = Field(description="Location type.")
    page: int | None = Field(None, description="1-based PDF page.")
    ordinal: int = Field(0, description="Position of the location within its page or sheet.")
    sheet: str | None = Field(None, description="Worksheet name.")
    cell: str | None = Field(None, description="A1 coordinate (sheet) or r<row>c<col> (PDF table).")
    text: str = Field("", description="Exact passage text or cell text.")
    value: float | str | None = Field(None, description="Cell value (number or text).")
    row_label: str | None = Field(None, description="Row label of a cell.")
    column_label: str | None = Field(None, description="Column header of a cell.")
    formula: str | None = Field(None, description="Spreadsheet formula, if any.")
    scenario_label: str | None = Field(None, description="baseline / adverse / … from sheet or header.")
    parser_version: str = Field(description="Parser version; part of the id.")
    role_override: Role | None = Field(None, description="Chunk-level role replacing the source role.")
    warning: str | None = Field(None, description="Parser warning (e.g. image-only page).")
    section: str | None = Field(None, description="Heading path of a Markdown or HTML passage ('Risks › Housing').")
    paragraph: int | None = Field(None, description="1-based paragraph number within its section (Markdown, HTML).")


class Exclusion(Record):
    """A source or location left out of an analysis, with its reason."""

    table: ClassVar[str] = "exclusions"
    id_field: ClassVar[str] = "exclusion_id"
    id_prefix: ClassVar[str] = "exc"

    exclusion_id: str
    analysis_id: str = Field(description="Analysis (or eligibility check) the exclusion belongs to.")
    source_id: str
    location_id: str | None = Field(None, description="None when the whole source is excluded.")
    reason: ExclusionReason
    detail: str = Field("", description="Human-readable detail (dates, roles).")


class Variable(Record):
    """A controlled-vocabulary variable."""

    table: ClassVar[str] = "variables"
    id_field: ClassVar[str] = "variable_id"
    id_prefix: ClassVar[str] = "var"
    id_only: ClassVar[frozenset[str]] = frozenset({"variable_id"})

    variable_id: str = Field(description="Stable snake_case id, e.g. 'house_prices'.")
    label: str
    synonyms: list[str] = Field(default_factory=list)
    unit: str = Field("", description="Unit of the model variable, if any.")
    transformation: str = Field("", description="Registered transformation, if any.")
    adverse_direction: Movement | None = Field(None, description="Which movement is adverse.")
    model_variable: str | None = Field(None, description="VAR variable this maps to, if any.")
    description: str = ""

    @classmethod
    def create(cls, **fields: Any) -> Self:  # the id is the given snake_case id
        return cls.model_validate(fields)

    def expected_id(self) -> str:
        return self.variable_id


class Relation(Record):
    """A signed relation read from a source location (Eq. sourcerelation)."""

    table: ClassVar[str] = "relations"
    id_field: ClassVar[str] = "relation_id"
    id_prefix: ClassVar[str] = "rel"
    # ``reader`` was added after workspaces held relations: it is no part of the identity (the ids of
    # relations written before stay valid; ``extractor`` and ``verb`` already tell readers apart), and an
    # older workspace's table may lack its column until a writing command reconciles it (see added_fields).
    id_excludes: ClassVar[frozenset[str]] = frozenset({"reader"})
    added_fields: ClassVar[frozenset[str]] = frozenset({"reader"})

    relation_id: str
    src_var: str = Field(description="Source variable id (controlled vocabulary).")
    dst_var: str = Field(description="Target variable id (controlled vocabulary).")
    sign: Sign
    evidence_class: EvidenceClass = EvidenceClass.unknown
    verb: str = Field("", description="Directional verb or pattern the extractor used.")
    quote: str = Field(description="Exact quote; occurs in the location text.")
    location_id: str
    source_id: str
    publication_date: date | None = Field(None, description="Copied from the source for A(t).")
    role: Role = Field(Role.generation, description="Effective role of the location.")
    horizon: str | None = None
    jurisdiction: str | None = None
    sector: str | None = None
    regime: str | None = None
    empirical_basis: str | None = None
    confidence: float = Field(ge=0.0, le=1.0)
    graph_condition: str = Field("G0", description="G0/G1/G2… that produced the relation.")
    extractor: str = Field("", description="Extractor name and version, or LLM call id.")
    reader: str | None = Field(
        None,
        description=(
            "Which reader proposed it: 'rules:<rule>' (the offline rule reader and its named rule), "
            "'learned:<artefact digest> …' (the learned reader with its base weights and training-data digest), "
            "'llm:<backend>/<model>', or 'analyst' (a correction); None on relations stored before it was recorded."
        ),
    )
    review_decision: Literal["accepted", "rejected"] = "accepted"
    rejection_reason: str | None = None
    unresolved_attributes: list[str] = Field(default_factory=list)


class ReviewDecision(Record):
    """An analyst's decision on one relation: accept, reject or correct (append-only).

    A correction never edits the relation: it stores a new Relation with the corrected sign or
    variables (same quote, location and source) and names it here; the as-of graph and path
    search use the corrected relation, and both records stay.
    """

    table: ClassVar[str] = "review_decisions"
    id_field: ClassVar[str] = "decision_id"
    id_prefix: ClassVar[str] = "rev"
    append_only: ClassVar[bool] = True

    decision_id: str
    relation_id: str = Field(description="The relation decided on.")
    action: Literal["accept", "reject", "correct"]
    sign: Sign | None = Field(None, description="Corrected sign (action 'correct').")
    src_var: str | None = Field(None, description="Corrected source variable (action 'correct').")
    dst_var: str | None = Field(None, description="Corrected target variable (action 'correct').")
    corrected_relation_id: str | None = Field(None, description="The Relation written by a correction.")
    note: str = Field("", description="The analyst's reason.")
    analyst: str = Field(description="Who decided.")
    decided_at: datetime = Field(description="UTC time of the decision.")


class ObservedValue(Record):
    """One observation with its reference period, release date and vintage."""

    table: ClassVar[str] = "observed_values"
    id_field: ClassVar[str] = "observation_id"
    id_prefix: ClassVar[str] = "obs"

    observation_id: str
    variable: str
    value: float = Field(allow_inf_nan=False)
    unit: str
    frequency: Literal["A", "H", "Q", "M", "D"]
    jurisdiction: str
    sector: str | None = None
    reference_period: str = Field(description="e.g. 2024Q3, 2024-07, 2024H2, 2024.")
    release_date: date | None = Field(None, description="Release of this vintage; never inferred.")
    vintage: str | None = None
    series_key: str = Field("", description="Provider series code.")
    transformation: str = Field("level", description="level, qoq_log, yoy_log, rate …")
    scenario: str | None = Field(None, description="baseline / adverse / None for history.")
    location_id: str | None = None
    source_id: str | None = None
    status: ValueStatus = ValueStatus.observed
    entity: str | None = Field(None, description="The entity a value belongs to (a bank's LEI); None for aggregates.")
    release_rule: ReleaseRule | None = Field(None, description="How release_date was obtained: vintage, lag or file.")
    provenance: Provenance | None = Field(None, description="real, synthetic or illustrative; None = not declared.")


# --------------------------------------------------------------------------- channels


class ChannelQuery(Record):
    """A registered graph query: from a source variable's movement to a target's."""

    table: ClassVar[str] = "channel_queries"
    id_field: ClassVar[str] = "query_id"
    id_prefix: ClassVar[str] = "cq"

    query_id: str
    risk: str
    source_var: str
    source_movement: Movement
    target_var: str
    target_movement: Movement
    max_len: int = Field(5, ge=1, le=10)
    top_k: int = Field(5, ge=1)
    feedback_loop: bool = Field(False, description="Allow one terminal return to the start.")


class Path(Record):
    """A ranked, signed path (channel) for a query; grouped paths pool evidence per step."""

    table: ClassVar[str] = "paths"
    id_field: ClassVar[str] = "path_id"
    id_prefix: ClassVar[str] = "path"

    path_id: str
    analysis_id: str
    query_id: str
    risk: str
    variables: list[str] = Field(description="v0 … vL")
    signs: list[Sign] = Field(description="Sign of each step.")
    relation_ids: list[str] = Field(description="Representative relation per step.")
    evidence: list[list[str]] = Field(description="All pooled relation ids per step.")
    composed_sign: Sign
    score: float = Field(description="S(C), Eq. channelscore.")
    mean_confidence: float
    n_docs: int
    rank: int
    graph_condition: str = "G0"
    retrieval_condition: str = "graph"


class Restriction(Record):
    """A directional restriction on a model variable's three-year mean."""

    table: ClassVar[str] = "restrictions"
    id_field: ClassVar[str] = "restriction_id"
    id_prefix: ClassVar[str] = "rst"

    restriction_id: str
    analysis_id: str
    risk: str
    variable: str = Field(description="Vocabulary variable id.")
    model_variable: str | None = Field(None, description="Model variable it constrains.")
    direction: Literal[1, -1]
    reference: str = Field("zero", description="zero | last_observed")
    reference_value: float | None = None
    horizon: str = Field("2025-2027", description="Years the aggregation covers.")
    aggregation: str = Field("three_year_mean")
    priority: Literal[1, 2, 3]
    supporting_relation_ids: list[str]
    derivation: Literal["registered_movement", "target", "intermediate", "rule"]
    path_id: str | None = None
    graph_condition: str = "G0"
    retrieval_condition: str = "graph"


class Derivation(Record):
    """Every assessed path of a risk program, its composed direction and outcome."""

    table: ClassVar[str] = "derivations"
    id_field: ClassVar[str] = "derivation_id"
    id_prefix: ClassVar[str] = "drv"

    derivation_id: str
    analysis_id: str
    risk: str
    assessed: list[dict[str, Any]] = Field(
        description="[{path_id, query_id, composed_sign, implied_target_movement, outcome, reason}]"
    )
    restriction_ids: list[str]
    status: Literal["accepted", "stopped"]
    reason: str = ""
    registration_digest: str = Field(description="Digest of the channel-query registration.")
    graph_condition: str = "G0"


# --------------------------------------------------------------------------- models


class VariableSpec(BaseModel):
    """An input or output of a model specification."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    variable: str
    unit: str
    frequency: Literal["A", "H", "Q", "M"]
    transformation: str
    horizon: str = ""


class ModelSpecification(Record):
    table: ClassVar[str] = "model_specifications"
    id_field: ClassVar[str] = "spec_id"
    id_prefix: ClassVar[str] = "spec"

    spec_id: str
    model_id: str = Field(description="Registered name, e.g. 'macro_var'.")
    version: str
    description: str = ""
    inputs: list[VariableSpec]
    outputs: list[VariableSpec]
    scope: str = Field("EA", description="Geographic coverage.")
    horizon: str = Field("2025-2027")
    snapshot: str = Field(description="Digest of the data/parameter snapshot.")
    entry_point: str = Field(description="module:function")
    diagnostics_required: list[str] = Field(default_factory=list)
    min_restrictions: int = Field(1, description="Least restrictions a request must carry.")


class ModelRequest(Record):
    """A structured request for a numerical scenario (Eq. modelrequest)."""

    table: ClassVar[str] = "model_requests"
    id_field: ClassVar[str] = "request_id"
    id_prefix: ClassVar[str] = "mreq"

    request_id: str
    analysis_id: str
    risk: str
    outputs: list[VariableSpec]
    restriction_ids: list[str]
    horizon: str = "2025-2027"
    scope: str = "EA"
    data_versions: dict[str, str] = Field(default_factory=dict)
    rationale: str = Field("", description="Free text; may contain no digits.")
    graph_condition: str = "G0"
    retrieval_condition: str = "graph"


class ModelRun(Record):
    """One execution of a model specification (append-only)."""

    table: ClassVar[str] = "model_runs"
    id_field: ClassVar[str] = "run_id"
    id_prefix: ClassVar[str] = "run"
    append_only: ClassVar[bool] = True
    id_excludes: ClassVar[frozenset[str]] = frozenset({"started_at", "ended_at"})

    run_id: str
    analysis_id: str
    model_id: str
    spec_id: str
    request_digest: str
    input_digests: dict[str, str]
    code_digest: str
    config_digest: str
    env_digest: str
    seed: int | None
    started_at: datetime
    ended_at: datetime
    status: RunStatus
    reason: str = ""
    diagnostics: dict[str, Any] = Field(default_factory=dict)
    output_digest: str | None = Field(None, description="Artifact digest of the output tables.")
    parent_runs: list[str] = Field(default_factory=list)
    package_version: str = ""
    role: str = Field("generation", description="generation | validation | evaluation")
    graph_condition: str = "G0"
    retrieval_condition: str = "graph"


class ModelOutputPoint(Record):
    """One value of a run's output table (append-only)."""

    table: ClassVar[str] = "model_output_points"
    id_field: ClassVar[str] = "point_id"
    id_prefix: ClassVar[str] = "pt"
    append_only: ClassVar[bool] = True

    point_id: str
    run_id: str
    variable: str
    unit: str
    transformation: str
    period: str
    value: float = Field(allow_inf_nan=False)
    statistic: str = Field("value", description="value | selected | median | p05 …")
    simulation_id: int | None = None
    quantile: float | None = None
    entity: str | None = Field(None, description="Bank or other entity, if any.")
    risk: str | None = None
    status: ValueStatus = ValueStatus.simulated
    artifact_digest: str
    table_name: str = Field(description="Table inside the run's output artifact.")
    row: str
    column: str


class Claim(Record):
    """A registered numerical claim: claim_id → one output point."""

    table: ClassVar[str] = "claims"
    id_field: ClassVar[str] = "claim_id"
    id_prefix: ClassVar[str] = "clm"

    claim_id: str
    analysis_id: str
    risk: str | None = None
    point_id: str
    run_id: str
    model_id: str
    artifact_digest: str
    table_name: str
    row: str
    column: str
    variable: str
    unit: str
    transformation: str
    period: str
    rounding: int = Field(3, description="Decimals of Round(z).")
    tolerance: float = Field(1e-10)
    horizon: str = Field("", description="Scenario horizon, e.g. 2025-2027; anchors the id's period tag.")
    statistic: str = Field("value", description="value | selected | median | p05 …")
    entity: str | None = Field(None, description="Bank or other entity, if any.")

    # The id is readable and fixed before the run (OutputTests name it before any output
    # exists), so it is derived from the registered fields only; see claim_id_for.
    @classmethod
    def create(cls, **fields: Any) -> Self:
        return cls.model_validate({**fields, "claim_id": cls.expected_for(fields)})

    @classmethod
    def expected_for(cls, f: dict[str, Any]) -> str:
        return claim_id_for(
            f["analysis_id"],
            f.get("risk"),
            f["variable"],
            f["period"],
            horizon=f.get("horizon", ""),
            unit=f["unit"],
            transformation=f["transformation"],
            statistic=f.get("statistic", "value"),
            entity=f.get("entity"),
        )

    def expected_id(self) -> str:
        return self.expected_for(self.model_dump(mode="json"))


_SLUG = re.compile(r"[a-z][a-z0-9_]*\Z")
_YEARISH = re.compile(r"(?<!\d)(1[89]\d\d|2[01]\d\d)(?!\d)")


def period_tag(period: str, horizon: str = "") -> str:
    """A period without calendar years, relative to the horizon's first year (y1 = first year).

    ``2025`` → ``y1``, ``2025-2027`` → ``y1_y3``, ``2026Q3`` → ``y2q3``, ``2025H2`` → ``y1h2``,
    ``2024`` → ``b1`` (one year before the horizon). Years never enter a NUM token.
    """
    m = re.match(r"\s*(\d{4})", horizon or "")
    start = int(m.group(1)) if m else 2025

    def year(y: str) -> str:
        k = int(y) - start
        return f"y{k + 1}" if k >= 0 else f"b{-k}"

    forms = [
        (r"(\d{4})", lambda g: year(g[0])),
        (r"(\d{4})-(\d{4})", lambda g: f"{year(g[0])}_{year(g[1])}"),
        (r"(\d{4})Q([1-4])", lambda g: f"{year(g[0])}q{g[1]}"),
        (r"(\d{4})H([12])", lambda g: f"{year(g[0])}h{g[1]}"),
        (r"(\d{4})-(0[1-9]|1[0-2])", lambda g: f"{year(g[0])}m{int(g[1])}"),
    ]
    for pattern, tag in forms:
        hit = re.fullmatch(pattern, period.strip())
        if hit:
            return tag(hit.groups())
    raise ValueError(f"period {period!r} is not a year, year range, quarter, half-year or month")


def claim_id_for(
    analysis_id: str,
    risk: str | None,
    variable: str,
    period: str,
    *,
    horizon: str = "",
    unit: str = "",
    transformation: str = "",
    statistic: str = "value",
    entity: str | None = None,
) -> str:
    """``clm.<risk>.<variable>.<period tag>.<8 hex>``: readable, stable, free of calendar years.

    The hex suffix is the digest of every registered field (analysis, unit, transformation,
    statistic, entity, exact period), so two analyses never share a claim id.
    """
    risk_slug = risk or "all"
    for name, value in (("risk", risk_slug), ("variable", variable)):
        if not _SLUG.match(value) or _YEARISH.search(value):
            raise ValueError(f"claim {name} {value!r} must be snake_case without a calendar year")
    suffix = digest(
        {
            "analysis_id": analysis_id,
            "risk": risk,
            "variable": variable,
            "period": period,
            "horizon": horizon,
            "unit": unit,
            "transformation": transformation,
            "statistic": statistic,
            "entity": entity,
        }
    )[:8]
    return f"clm.{risk_slug}.{variable}.{period_tag(period, horizon)}.{suffix}"


class OutputTest(Record):
    """A test fixed before the run (phase=registered) and its result (phase=result)."""

    table: ClassVar[str] = "output_tests"
    id_field: ClassVar[str] = "test_id"
    id_prefix: ClassVar[str] = "ot"
    append_only: ClassVar[bool] = True

    test_id: str
    analysis_id: str
    claim_id: str
    phase: Literal["registered", "result"]
    variable: str
    unit: str
    horizon: str
    transformation: str
    model_id: str
    rounding: int = 3
    tolerance: float = 1e-10
    required_diagnostics: list[str] = Field(default_factory=list)
    input_versions: dict[str, str] = Field(default_factory=dict)
    result: Literal["pending", "pass", "fail"] = "pending"
    run_id: str | None = None
    point_id: str | None = None
    reported_value: float | None = None
    stored_value: float | None = None
    detail: str = ""


class ReportSentence(Record):
    table: ClassVar[str] = "report_sentences"
    id_field: ClassVar[str] = "sentence_id"
    id_prefix: ClassVar[str] = "sen"

    sentence_id: str
    report_id: str
    position: int
    kind: SentenceKind
    template: str = Field(description="Text with {{NUM:…}} / {{DATE:…}} tokens.")
    cited_relation_ids: list[str] = Field(default_factory=list)
    claim_ids: list[str] = Field(default_factory=list)
    rendered: str = ""
    status: Literal["ok", "failed"] = "ok"
    failure: str = ""


class Report(Record):
    table: ClassVar[str] = "reports"
    id_field: ClassVar[str] = "report_id"
    id_prefix: ClassVar[str] = "rpt"

    report_id: str
    analysis_id: str
    risk: str
    title: str
    template: str
    rendered: str = ""
    status: Literal["passed", "failed"]
    failure_rule: str = ""
    failure_position: int | None = None
    claim_ids: list[str] = Field(default_factory=list)
    relation_ids: list[str] = Field(default_factory=list)
    graph_condition: str = "G0"
    retrieval_condition: str = "graph"


class ValidationGate(Record):
    """External validation of a bank model and whether it may supply bank conclusions."""

    table: ClassVar[str] = "validation_gates"
    id_field: ClassVar[str] = "gate_id"
    id_prefix: ClassVar[str] = "gate"

    gate_id: str
    model_id: str
    run_id: str | None = None
    metrics: dict[str, float]
    thresholds: dict[str, float]
    passed: bool
    detail: str = ""
    fit_provenance: Provenance | None = Field(None, description="Provenance of the data the model was fitted on.")
    validation_provenance: Provenance | None = Field(None, description="Provenance of the validation outcomes.")


# --------------------------------------------------------------------------- execution


class LLMCall(Record):
    """One attempted LLM request and its answer (append-only). Never holds keys."""

    table: ClassVar[str] = "llm_calls"
    id_field: ClassVar[str] = "call_id"
    id_prefix: ClassVar[str] = "call"
    append_only: ClassVar[bool] = True
    id_only: ClassVar[frozenset[str]] = frozenset(
        {"analysis_id", "stage", "task", "sequence", "request_digest", "backend"}
    )

    call_id: str
    analysis_id: str
    stage: str
    task: str
    sequence: int = Field(description="Order of the call within its stage.")
    prompt_version: str
    backend: Literal["offline", "openai", "replay"]
    requested_model: str
    returned_model: str | None = None
    request_payload: dict[str, Any]
    request_digest: str
    raw_response: str = ""
    response_digest: str = ""
    parsed: dict[str, Any] | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    status: str = Field(description="ok | schema_violation | unparseable_response | http_error | model_mismatch | …")
    error: str = ""
    structured_mode: str = Field(
        "",
        description="openai backend: how schema-valid output was asked for "
        "(responses_json_schema | chat_json_schema | chat_json_object_schema | …).",
    )
    started_at: datetime
    ended_at: datetime


class StageRecord(Record):
    """One attempt of one stage of an analysis (append-only)."""

    table: ClassVar[str] = "stage_records"
    id_field: ClassVar[str] = "record_id"
    id_prefix: ClassVar[str] = "stg"
    append_only: ClassVar[bool] = True

    record_id: str
    analysis_id: str
    stage: str
    status: StageStatus
    reason: str = ""
    input_digest: str
    output_digest: str | None = None
    started_at: datetime
    ended_at: datetime


class Analysis(Record):
    """An accepted analysis request; its id is the digest of the request."""

    table: ClassVar[str] = "analyses"
    id_field: ClassVar[str] = "analysis_id"
    id_prefix: ClassVar[str] = "an"
    id_only: ClassVar[frozenset[str]] = frozenset({"request"})

    analysis_id: str
    request: dict[str, Any]
    label: str = ""
    created_at: datetime


class EvaluationRecord(Record):
    """An evaluation run: digests stored before scoring (phase=registered), then its result.

    Appendix "Evaluation Records": the benchmark, graph, manifest and configuration
    digests are written before any measure is computed; the result row points at the
    stored tables and at its registration.
    """

    table: ClassVar[str] = "evaluation_records"
    id_field: ClassVar[str] = "evaluation_id"
    id_prefix: ClassVar[str] = "evl"
    id_excludes: ClassVar[frozenset[str]] = frozenset({"created_at"})

    evaluation_id: str
    phase: Literal["registered", "result"]
    registration_id: str | None = Field(None, description="The registered row a result belongs to.")
    benchmark_path: str = Field(description="Benchmark file as given.")
    benchmark_digest: str = Field(description="SHA-256 of the benchmark file's bytes.")
    graph_condition: str = Field(description="G0/G1/G2… of the evaluated graph.")
    graph_digest: str = Field(description="Digest of the sorted relation ids of the evaluated graph.")
    manifest_digest: str = Field(description="Digest of the registered sources (id, sha256, role, date).")
    config_digest: str = Field(description="Digest of the settings and evaluation parameters.")
    analysis_ids: list[str] = Field(default_factory=list, description="Analyses whose paths were scored.")
    status: Literal["registered", "scored", "stopped"]
    reason: str = ""
    result_digest: str | None = Field(None, description="Artifact digest of the result tables.")
    created_at: datetime


#: Every stored record type, in schema order.
RECORD_TYPES: tuple[type[Record], ...] = (
    Source,
    SourceLocation,
    Exclusion,
    Variable,
    Relation,
    ReviewDecision,
    ObservedValue,
    ChannelQuery,
    Path,
    Restriction,
    Derivation,
    ModelSpecification,
    ModelRequest,
    ModelRun,
    ModelOutputPoint,
    Claim,
    OutputTest,
    ReportSentence,
    Report,
    ValidationGate,
    LLMCall,
    StageRecord,
    Analysis,
    EvaluationRecord,
)
