"""The analysis request (paper §2.1, "Analysis Request"): a validated TOML file.

A request names the application, its scope (jurisdictions, sectors, horizon, outcomes),
the information cutoff and admissible source roles, the initiating risks with their
registered channel queries, the models, seeds and repetitions, and the execution
configuration (LLM backend and model snapshot, graph and retrieval conditions, evidence
byte budget). Loading reports every problem with the file and the field that holds it.
The Analysis id is the digest of the request (and of any result setting off its default).
"""

from __future__ import annotations

import re
import tomllib
from datetime import date
from pathlib import Path
from typing import Any, Literal

import tomli_w
from pydantic import Field, ValidationError, field_validator, model_validator

from aieco.asof import AsOf
from aieco.config import get_settings
from aieco.errors import InputError
from aieco.records import Analysis, ChannelQuery, FrozenModel, Movement, Role, utc_now

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class ChannelQuerySpec(FrozenModel):
    """A registered graph query: the source variable's movement and the target's expected one."""

    id: str = Field(description="Query id within the request, e.g. 'tf1'.")
    source: str = Field(description="Source variable id (controlled vocabulary).")
    movement: Movement = Field(description="Registered movement of the source variable.")
    target: str = Field(description="Target variable id.")
    expected: Movement = Field(description="Expected movement of the target variable.")
    max_len: int = Field(5, ge=1, le=10, description="Most relations in one path.")
    top_k: int = Field(5, ge=1, description="Paths kept after ranking by S(C).")
    feedback_loop: bool = Field(False, description="Allow one terminal return to the start.")

    @model_validator(mode="after")
    def _distinct_endpoints(self) -> ChannelQuerySpec:
        if self.source == self.target and not self.feedback_loop:
            raise ValueError("source and target are the same variable; set feedback_loop = true for a loop")
        return self


class RiskSpec(FrozenModel):
    """An initiating risk and its channel queries."""

    name: str = Field(description="snake_case id, e.g. 'trade_fragmentation'.")
    label: str = Field("", description="Human-readable title.")
    description: str = Field("", description="The initiating disturbance in words.")
    channels: list[ChannelQuerySpec] = Field(min_length=1, description="Registered channel queries.")

    @field_validator("name")
    @classmethod
    def _snake(cls, v: str) -> str:
        if not _NAME.match(v):
            raise ValueError(f"risk name {v!r} must be snake_case (a-z, 0-9, _)")
        return v

    @model_validator(mode="after")
    def _unique_queries(self) -> RiskSpec:
        ids = [c.id for c in self.channels]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"channel query ids repeat: {', '.join(dup)}")
        return self


class AnalysisRequest(FrozenModel):
    """Everything an analysis needs, fixed before it runs."""

    application: str = Field("stress_scenario", description="Application the outcomes belong to.")
    title: str = Field("", description="Short title shown in reports and the dashboard.")
    jurisdictions: list[str] = Field(
        default_factory=lambda: ["EA"],
        min_length=1,
        description="Jurisdictions in scope (EA, EU, a country code, GLOBAL); other sources and series are excluded.",
    )
    excluded_jurisdictions: list[str] = Field(
        default_factory=list,
        description="Jurisdictions refused even when the scope's hierarchy admits them "
        "(an EA request admits EU and GLOBAL sources unless they are listed here).",
    )
    sectors: list[str] = Field(default_factory=lambda: ["banks"], description="Sectors the outcomes concern.")
    horizon: str = Field("2025-2027", description="First and last scenario year, 'YYYY-YYYY'.")
    outcomes: list[str] = Field(default_factory=list, description="Requested outcome variables.")
    cutoff: date = Field(description="Information cutoff: nothing published after it is used.")
    vintage_policy: Literal["strict", "approximate"] = Field(
        "strict",
        description="strict: only true vintages (release rule vintage or file); approximate: also "
        "documented publication lags on the latest vintage (aieco/data/publication_lags.toml).",
    )
    allowed_roles: list[Role] = Field(
        default_factory=lambda: [Role.generation, Role.methods],
        min_length=1,
        description="Source roles the analysis may read (evaluation sources are kept for scoring).",
    )
    risks: list[RiskSpec] = Field(min_length=1, description="Initiating risks, each with its channel queries.")
    models: list[str] = Field(default_factory=lambda: ["macro_var"], description="Admissible model ids.")
    seeds: list[int] = Field(
        default_factory=lambda: [get_settings().scenario.seed],
        min_length=1,
        description="Seed of repetition k is seeds[k mod len(seeds)].",
    )
    repetitions: int = Field(1, ge=1, le=50, description="Times the whole analysis runs (one seed each).")
    selection: Literal["calibrated", "paper_max"] = Field(
        default_factory=lambda: get_settings().scenario.selection,
        description="Scenario rule: 'calibrated' (the conditional forecast at a target severity percentile, on the "
        "official severity scale) or 'paper_max' (the paper's most severe admissible draw).",
    )
    severity_percentile: float = Field(
        default_factory=lambda: get_settings().scenario.severity_percentile,
        gt=0.0,
        lt=1.0,
        description="Calibrated rule: target severity percentile of the risk's severity score (0.95: one in twenty).",
    )
    backend: Literal["offline", "openai", "replay"] = Field(
        "offline", description="LLM backend: offline (deterministic, no key), openai (any compatible endpoint), replay."
    )
    model_snapshot: str = Field(
        default_factory=lambda: get_settings().llm.model,
        description="Model id the openai backend requests; a different returned id stops the stage.",
    )
    graph_condition: str = Field(
        "G0", pattern=r"^G\d$", description="Relation graph read: G0 offline reader, G1 decomposed, G2 verified."
    )
    retrieval_condition: Literal["graph", "document", "hybrid"] = Field(
        "graph", description="GraphRAG, Document RAG or Hybrid; the direct condition is never an agent result."
    )
    byte_budget: int = Field(
        default_factory=lambda: get_settings().retrieval.byte_budget,
        gt=0,
        description="Most bytes of evidence passed to an agent (the same budget for every retrieval condition).",
    )

    @field_validator("retrieval_condition", mode="before")
    @classmethod
    def _not_direct(cls, v: Any) -> Any:
        if v == "direct":  # the comparator is run by `aieco evaluate`, never by the agent
            raise ValueError(
                "the direct condition (LLM numbers without retrieval or model) is an evaluation "
                "comparator and never accepted as an agent result; use graph, document or hybrid"
            )
        return v

    @field_validator("seeds")
    @classmethod
    def _seeds(cls, v: list[int]) -> list[int]:
        bad = [s for s in v if not 0 <= s < 2**63]
        if bad:
            raise ValueError(f"seeds {bad} must be whole numbers from 0 to 2^63 - 1")
        return v

    @field_validator("jurisdictions", "excluded_jurisdictions")
    @classmethod
    def _known_jurisdictions(cls, v: list[str]) -> list[str]:
        from aieco.asof import unknown_jurisdictions

        bad = unknown_jurisdictions(v)
        if bad:
            raise ValueError(
                f"jurisdictions {bad} are not known: use ISO 3166 country codes, EA, EU or GLOBAL "
                "(aliases EA20, EU27, WORLD)"
            )
        return v

    @field_validator("cutoff")
    @classmethod
    def _cutoff_not_in_the_future(cls, v: date) -> date:
        today = date.today()
        if v > today:
            raise ValueError(
                f"cutoff {v} is after today ({today}): an information cutoff can only be a date already passed"
            )
        return v

    @field_validator("horizon")
    @classmethod
    def _horizon(cls, v: str) -> str:
        m = re.fullmatch(r"(\d{4})-(\d{4})", v)
        if not m or int(m.group(1)) > int(m.group(2)):
            raise ValueError(f"horizon {v!r} must read 'YYYY-YYYY' with the first year not after the last")
        return v

    @model_validator(mode="after")
    def _unique_risks(self) -> AnalysisRequest:
        names = [r.name for r in self.risks]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"risk names repeat: {', '.join(dup)}")
        return self

    @property
    def years(self) -> tuple[int, int]:
        a, b = self.horizon.split("-")
        return int(a), int(b)

    def seed(self, repetition: int) -> int:
        """Seed of repetition ``repetition`` (1-based)."""
        return self.seeds[(repetition - 1) % len(self.seeds)]

    def risk(self, name: str) -> RiskSpec:
        for r in self.risks:
            if r.name == name:
                return r
        raise InputError(f"the request has no risk {name!r}", fix=f"choose one of {[r.name for r in self.risks]}")

    def channel_queries(self, risk: str) -> list[ChannelQuery]:
        """The risk's registered queries as ChannelQuery records."""
        return [
            ChannelQuery.create(
                risk=risk,
                source_var=c.source,
                source_movement=c.movement,
                target_var=c.target,
                target_movement=c.expected,
                max_len=c.max_len,
                top_k=c.top_k,
                feedback_loop=c.feedback_loop,
            )
            for c in self.risk(risk).channels
        ]

    def as_dict(self) -> dict[str, Any]:
        # an empty exclusion list is left out so requests written before it keep their analysis id
        skip = set() if self.excluded_jurisdictions else {"excluded_jurisdictions"}
        return self.model_dump(mode="json", exclude=skip)

    def as_of(self, roles: Any = None) -> AsOf:
        """The request's as-of rule (``roles``: the plan's admissible roles, else the allowed roles)."""
        return AsOf.of_request(self, roles)

    def analysis_identity(self) -> dict[str, Any]:
        """What the analysis id digests: the request, and the result settings off their defaults.

        A setting that can change a result (``aieco.config.result_settings``) set to another value
        makes another analysis with its own ids, never a second set of records under these; with
        every such setting at its default the id is the digest of the request alone, as before.
        The workspace, parallelism, timeouts and dashboard settings are never part of it.
        """
        from aieco.config import changed_result_settings

        changed = changed_result_settings()
        return {**self.as_dict(), "settings": changed} if changed else self.as_dict()

    def analysis(self) -> Analysis:
        """The Analysis record: its id is the digest of :meth:`analysis_identity`."""
        return Analysis.create(request=self.analysis_identity(), label=self.title, created_at=utc_now())

    @property
    def analysis_id(self) -> str:
        return self.analysis().analysis_id


def _field_path(loc: tuple[Any, ...], data: Any) -> str:
    """'risks[1] (property_correction).channels[0].movement' for a validation error location."""
    text, node = "", data
    for item in loc:
        if isinstance(item, int):
            text += f"[{item}]"
            child = node[item] if isinstance(node, list) and item < len(node) else None
            if isinstance(child, dict) and isinstance(child.get("name") or child.get("id"), str):
                text += f" ({child.get('name') or child.get('id')})"
            node = child
        else:
            text += ("." if text else "") + str(item)
            node = node.get(item) if isinstance(node, dict) else None
    return text


def parse_request(data: dict[str, Any], where: str = "request") -> AnalysisRequest:
    """Validate a request mapping; the error names every bad field."""
    try:
        return AnalysisRequest.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            field = _field_path(tuple(err["loc"]), data) or "(top level)"
            msg = err["msg"].removeprefix("Value error, ")
            problems.append(f"{field}: {msg}")
        raise InputError(
            f"invalid analysis request: {'; '.join(problems)}",
            where=where,
            fix="correct the named field(s); see aieco/demo/requests/ for complete examples",
        ) from exc


def request_problems(request: AnalysisRequest, registered_models: list[str] | tuple[str, ...]) -> list[str]:
    """What the launch's request check refuses, one problem per entry, each saying what to fix.

    The same rules as the analysis's ``request_checks`` stage: every channel variable and
    outcome is a vocabulary variable, every model is registered, the horizon starts after
    the information cutoff.
    """
    from aieco.vocab import load_vocabulary

    vocab = load_vocabulary()
    problems = []
    for risk in request.risks:
        for c in risk.channels:
            for var in (c.source, c.target):
                if var not in vocab:
                    problems.append(
                        f"risk {risk.name}, query {c.id}: {var!r} is not a vocabulary variable — "
                        "choose one from the vocabulary (aieco vocab)"
                    )
    unknown_outcomes = [o for o in request.outcomes if o not in vocab]
    if unknown_outcomes:
        problems.append(f"outcomes {unknown_outcomes} are not vocabulary variables")
    missing = [m for m in request.models if m not in registered_models]
    if missing:
        problems.append(f"models {missing} are not registered — use one of {sorted(registered_models)}")
    if request.years[0] <= request.cutoff.year:
        problems.append(
            f"horizon {request.horizon} starts before the information cutoff {request.cutoff} — "
            f"start the horizon after {request.cutoff.year}"
        )
    return problems


def load_request(path: str | Path) -> AnalysisRequest:
    """Read and validate an AnalysisRequest TOML file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise InputError(
            f"request file {path} does not exist", where=str(path), fix="pass the path of a request TOML file"
        ) from exc
    except (UnicodeDecodeError, IsADirectoryError) as exc:
        raise InputError(
            f"request file {path} is not UTF-8 text ({exc})",
            where=str(path),
            fix="save the request as a UTF-8 TOML file",
        ) from exc
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(
            f"request file {path} is not valid TOML: {exc}",
            where=str(path),
            fix="correct the TOML syntax at the line named",
        ) from exc
    return parse_request(data, where=str(path))


def dumps_request(request: AnalysisRequest) -> str:
    """The request as TOML (round-trips through :func:`load_request`)."""
    data = request.model_dump(mode="python", exclude_none=True)
    data["allowed_roles"] = [r.value for r in request.allowed_roles]
    for risk in data["risks"]:
        for c in risk["channels"]:
            c["movement"], c["expected"] = c["movement"].value, c["expected"].value
    return tomli_w.dumps(data)


def save_request(request: AnalysisRequest, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(dumps_request(request), encoding="utf-8")
    return path
