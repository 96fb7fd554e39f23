"""Benchmark mechanisms from evaluation material: loading and structural validation.

The benchmark (paper §5.2, appendix "Comparison Design") fixes, before any retrieval
result is computed, per initiating risk the channels of the official mechanism: each
channel has endpoint variables and one or more accepted *variants*, each a connected
ordered path of signed relations with their source locations in the evaluation
material. Parallel effects are separate channels, never one two-step chain.

File format (TOML)::

    [benchmark]
    name = "…"
    material = "what the evaluation material is"

    [[relation]]                 # every distinct signed relation, declared once
    id = "b01"
    src = "tariffs"
    dst = "trade_volumes"
    sign = "-"
    location = "document, page, paragraph"

    [[channel]]
    risk = "trade_fragmentation"
    id = "tf1"
    source = "tariffs"
    target = "real_gdp"
    variants = [["b01", "b02"]]  # ordered relation ids; a shared edge is referenced again

A relation used by several paths (a *shared edge*) is declared once and referenced by
id from each path; two declarations with the same ordered endpoints and sign are
refused, while the same endpoints with another sign are a *distinct signed relation*.
An invalid benchmark stops scoring with a :class:`StageStopped` naming the reason.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from aieco.errors import InputError, StageStopped
from aieco.records import Sign, digest

STAGE = "benchmark_validation"

#: A signed relation as the measures see it: (source variable, target variable, sign).
RelationKey = tuple[str, str, str]

SCORABLE_SIGNS = (Sign.positive, Sign.negative)


class BenchmarkRelation(BaseModel):
    """One distinct signed relation stated in the evaluation material."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(description="Benchmark relation id, referenced by channel variants.")
    src: str = Field(description="Source variable id (controlled vocabulary).")
    dst: str = Field(description="Target variable id (controlled vocabulary).")
    sign: Sign = Field(description="'+' or '-'.")
    location: str = Field(description="Where the evaluation material states it (document, page, paragraph).")

    @property
    def key(self) -> RelationKey:
        return (self.src, self.dst, self.sign.value)


class BenchmarkChannel(BaseModel):
    """A channel of one initiating risk with its accepted connected variants."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    risk: str = Field(description="Initiating risk the channel belongs to.")
    id: str = Field(description="Channel id, unique in the benchmark (e.g. the channel query name).")
    source: str = Field(description="Starting variable of every variant.")
    target: str = Field(description="Final variable of every variant.")
    mechanism: str = Field("", description="Optional mechanism name grouping parallel channels.")
    feedback_loop: bool = Field(False, description="Allow one terminal return to the starting variable.")
    variants: list[list[str]] = Field(description="Accepted variants: ordered benchmark relation ids.")


class Benchmark(BaseModel):
    """A validated benchmark: distinct relations and channels per initiating risk."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    material: str = ""
    relations: dict[str, BenchmarkRelation]
    channels: list[BenchmarkChannel]
    digest: str = Field(description="SHA-256 of the canonical benchmark content.")

    @property
    def risks(self) -> list[str]:
        """Initiating risks in first-appearance order."""
        return list(dict.fromkeys(c.risk for c in self.channels))

    def channels_of(self, risk: str) -> list[BenchmarkChannel]:
        return [c for c in self.channels if c.risk == risk]

    def variant_keys(self, channel: BenchmarkChannel) -> list[list[RelationKey]]:
        """Each variant as its ordered signed relation keys."""
        return [[self.relations[r].key for r in v] for v in channel.variants]

    def relation_keys(self, risk: str | None = None) -> set[RelationKey]:
        """Distinct signed benchmark relations (of one risk, or of all)."""
        chans = self.channels if risk is None else self.channels_of(risk)
        return {self.relations[r].key for c in chans for v in c.variants for r in v}


def validate_benchmark(
    raw: dict[str, Any], *, vocabulary: Iterable[str] | None = None, where: str = "benchmark"
) -> Benchmark:
    """Check a parsed benchmark table structurally; raise StageStopped with the first reason."""

    def stop(reason: str) -> StageStopped:
        return StageStopped(f"invalid benchmark: {reason}", stage=STAGE, where=where)

    head = raw.get("benchmark", {})
    if not isinstance(head, dict) or not head.get("name"):
        raise stop("missing [benchmark] table with a name")
    relations = [_parse(BenchmarkRelation, r, f"relation[{i}]", stop) for i, r in enumerate(raw.get("relation", []))]
    channels = [_parse(BenchmarkChannel, c, f"channel[{i}]", stop) for i, c in enumerate(raw.get("channel", []))]
    if not channels:
        raise stop("no [[channel]] entries")
    vocab = set(vocabulary) if vocabulary is not None else None

    by_id: dict[str, BenchmarkRelation] = {}
    by_key: dict[RelationKey, str] = {}
    for r in relations:
        if r.id in by_id:
            raise stop(f"relation id {r.id!r} declared twice")
        if r.sign not in SCORABLE_SIGNS:
            raise stop(f"relation {r.id}: sign {r.sign.value!r} is not a benchmark sign ('+' or '-')")
        if r.src == r.dst:
            raise stop(f"relation {r.id}: endpoints must be two distinct variables ({r.src})")
        for v in (r.src, r.dst):
            if vocab is not None and v not in vocab:
                raise stop(f"relation {r.id}: variable {v!r} is not in the controlled vocabulary")
        if r.key in by_key:
            # A shared edge is one relation referenced from several paths, not two declarations.
            raise stop(
                f"relations {by_key[r.key]} and {r.id} are the same signed relation "
                f"{r.src} {r.sign.value}-> {r.dst}; declare it once and reference that id from each path"
            )
        by_id[r.id] = r
        by_key[r.key] = r.id

    seen_channels: set[str] = set()
    for c in channels:
        if c.id in seen_channels:
            raise stop(f"channel id {c.id!r} declared twice")
        seen_channels.add(c.id)
        if not c.variants:
            raise stop(f"channel {c.id}: no variants")
        for n, variant in enumerate(c.variants, start=1):
            _check_variant(c, n, variant, by_id, stop)
    content = {
        "benchmark": head,
        "relation": [r.model_dump(mode="json") for r in relations],
        "channel": [c.model_dump(mode="json") for c in channels],
    }
    return Benchmark(
        name=str(head["name"]),
        material=str(head.get("material", "")),
        relations=by_id,
        channels=channels,
        digest=digest(content),
    )


def _parse(cls: type[BaseModel], entry: Any, label: str, stop: Any) -> Any:
    try:
        return cls.model_validate(entry)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise stop(f"field {label}.{'.'.join(map(str, first['loc']))}: {first['msg']}") from None


def _check_variant(
    c: BenchmarkChannel, n: int, variant: list[str], by_id: dict[str, BenchmarkRelation], stop: Any
) -> None:
    label = f"channel {c.id} variant {n}"
    if not variant:
        raise stop(f"{label}: empty path")
    unknown = [r for r in variant if r not in by_id]
    if unknown:
        raise stop(f"{label}: unknown relation id(s) {', '.join(unknown)}")
    if len(set(variant)) != len(variant):
        dup = next(r for r in variant if variant.count(r) > 1)
        raise stop(f"{label}: relation {dup} occurs twice in one path")
    rels = [by_id[r] for r in variant]
    if rels[0].src != c.source:
        raise stop(f"{label}: starts at {rels[0].src}, not at the channel source {c.source}")
    if rels[-1].dst != c.target:
        raise stop(f"{label}: ends at {rels[-1].dst}, not at the channel target {c.target}")
    for a, b in zip(rels, rels[1:], strict=False):
        if a.dst != b.src:
            raise stop(f"{label}: disconnected — {a.id} ends at {a.dst} but {b.id} starts at {b.src}")
    visited = [rels[0].src] + [r.dst for r in rels]
    inner = visited[:-1] if (c.feedback_loop and visited[-1] == visited[0]) else visited
    if len(set(inner)) != len(inner):
        raise stop(f"{label}: repeats a variable ({' -> '.join(visited)})")


def load_benchmark(path: str | Path, *, vocabulary: Iterable[str] | None = None) -> Benchmark:
    """Read a benchmark TOML file and validate it (StageStopped when structurally invalid)."""
    p = Path(path)
    if not p.is_file():
        raise InputError(
            f"benchmark file {p} not found",
            where=str(p),
            fix="pass --benchmark FILE or use the demo's aieco/demo/benchmark.toml",
        )
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(
            f"benchmark file is not valid TOML: {exc}", where=str(p), fix="correct the TOML syntax"
        ) from None
    return validate_benchmark(raw, vocabulary=vocabulary, where=str(p))


def demo_benchmark_path() -> Path:
    """The benchmark shipped with the demo for its three initiating risks."""
    return Path(__file__).resolve().parents[1] / "demo" / "benchmark.toml"
