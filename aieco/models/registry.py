"""Model registry and runner: specifications, compatibility, append-only ModelRuns.

A model is registered with its :class:`ModelSpecification` and an execution function
``fn(request, inputs, seed) -> ModelResult``, where ``inputs`` is the model's own frozen
:class:`ModelInputs` subclass (``aieco.models.macro.MacroVarInputs``, the bank models' inputs):
typed fields, never a loose dict. What a run stores and digests as its inputs is
:meth:`ModelInputs.artifacts` (names and JSON forms fixed, so input digests stay comparable
across releases). ``run_compatible`` checks a request against
every registered specification and executes each compatible one as its own ModelRun
(Eq. execute); no compatible specification stops the request with its reasons.
"""

from __future__ import annotations

import importlib
import inspect
import platform
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import pandas as pd
from pydantic import ConfigDict

from aieco.errors import InputError, StageStopped
from aieco.records import (
    FrozenModel,
    ModelOutputPoint,
    ModelRequest,
    ModelRun,
    ModelSpecification,
    RunStatus,
    ValueStatus,
    digest,
    sha256_hex,
    utc_now,
)
from aieco.store import Store


@dataclass(frozen=True)
class PointRef:
    """Where one output value sits in the run's tables, with its metadata."""

    variable: str
    unit: str
    transformation: str
    period: str
    table: str
    row: str
    column: str
    statistic: str = "value"
    simulation_id: int | None = None
    quantile: float | None = None
    entity: str | None = None
    risk: str | None = None
    status: ValueStatus = ValueStatus.simulated


@dataclass(frozen=True)
class ModelResult:
    """What a model function returns."""

    status: RunStatus
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    points: list[PointRef] = field(default_factory=list)
    diagnostics: dict[str, Any] = field(default_factory=dict)
    reason: str = ""


#: A specification whose horizon is the request's (the model simulates any horizon it is asked for).
ANY_HORIZON = "request"


class ModelInputs(FrozenModel):
    """The typed, frozen inputs of one model run (a model declares its own subclass).

    :meth:`artifacts` is what the run stores and digests, by input name: a DataFrame as a table,
    anything else as canonical JSON, a None field left out. A subclass whose stored form differs from
    its fields (e.g. an :class:`~aieco.asof.AsOf` stored as the cutoff and policy it has always been
    stored as) overrides it, so the input digests of earlier runs stay comparable.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True, arbitrary_types_allowed=True)

    def artifacts(self) -> dict[str, Any]:
        return {name: value for name in type(self).model_fields if (value := getattr(self, name)) is not None}


ModelFn = Callable[[ModelRequest, Any, int | None], ModelResult]


@dataclass(frozen=True)
class RegisteredModel:
    spec: ModelSpecification
    fn: ModelFn


_REGISTRY: dict[str, RegisteredModel] = {}


def register(spec: ModelSpecification, fn: ModelFn | None = None) -> RegisteredModel:
    """Register a specification (its function is loaded from ``spec.entry_point`` if omitted)."""
    fn = fn or load_entry_point(spec.entry_point)
    entry = RegisteredModel(spec, fn)
    _REGISTRY[spec.model_id] = entry
    return entry


def registered() -> list[RegisteredModel]:
    return list(_REGISTRY.values())


def unregister(model_id: str) -> None:
    _REGISTRY.pop(model_id, None)


def load_entry_point(entry_point: str) -> ModelFn:
    module, _, name = entry_point.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise InputError(
            f"model entry point {entry_point!r} cannot be loaded: {exc}",
            fix="register the specification with an existing module:function",
        ) from exc


def incompatibilities(request: ModelRequest, spec: ModelSpecification) -> list[str]:
    """Reasons ``spec`` cannot serve ``request`` (empty list = compatible)."""
    reasons = []
    offered = {(o.variable, o.unit, o.frequency, o.transformation) for o in spec.outputs}
    for out in request.outputs:
        if (out.variable, out.unit, out.frequency, out.transformation) not in offered:
            reasons.append(
                f"output {out.variable} [{out.unit}, {out.frequency}, {out.transformation}] "
                f"not produced by {spec.model_id}"
            )
    if spec.horizon != ANY_HORIZON and request.horizon != spec.horizon:
        reasons.append(f"horizon {request.horizon} differs from {spec.model_id}'s {spec.horizon}")
    if request.scope != spec.scope:
        reasons.append(f"scope {request.scope} differs from {spec.model_id}'s {spec.scope}")
    if len(request.restriction_ids) < spec.min_restrictions:
        reasons.append(
            f"{len(request.restriction_ids)} restrictions; {spec.model_id} needs at least {spec.min_restrictions}"
        )
    return reasons


def code_digest(fn: Callable[..., Any]) -> str:
    module = inspect.getmodule(fn)
    try:
        src = inspect.getsource(module) if module else inspect.getsource(fn)
    except (OSError, TypeError):
        src = repr(fn)
    return sha256_hex(src)


def env_digest() -> tuple[str, dict[str, str]]:
    versions = {"python": sys.version.split()[0], "platform": platform.machine()}
    for pkg in ("aieco", "numpy", "pandas", "statsmodels", "scikit-learn", "highspy", "scipy"):
        try:
            versions[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            versions[pkg] = "absent"
    return digest(versions), versions


def package_version() -> str:
    try:
        return metadata.version("aieco")
    except metadata.PackageNotFoundError:
        return "0+local"


def execute(
    store: Store,
    entry: RegisteredModel,
    request: ModelRequest,
    inputs: ModelInputs,
    *,
    seed: int | None,
    config: Mapping[str, Any] | None = None,
    parent_runs: list[str] | None = None,
    role: str = "generation",
) -> ModelRun:
    """Run one model on its typed ``inputs`` and write its ModelRun, output artifact and ModelOutputPoints."""
    if not isinstance(inputs, ModelInputs):
        raise InputError(
            f"the inputs of {entry.spec.model_id} are a {type(inputs).__name__}, not typed model inputs",
            where=f"{entry.spec.model_id} inputs",
            fix="build the model's ModelInputs subclass (its catalog entry's input builder)",
        )
    spec = entry.spec
    store.put(spec)
    store.put(request)
    input_digests = {}
    for name, value in sorted(inputs.artifacts().items()):
        if isinstance(value, pd.DataFrame):
            input_digests[name] = store.put_tables({name: value})
        else:
            input_digests[name] = store.put_json(value, kind=f"input:{name}")
    env_d, _ = env_digest()
    base = dict(
        analysis_id=request.analysis_id,
        model_id=spec.model_id,
        spec_id=spec.spec_id,
        request_digest=request.digest(),
        input_digests=input_digests,
        code_digest=code_digest(entry.fn),
        config_digest=digest(dict(config or {})),
        env_digest=env_d,
        seed=seed,
        parent_runs=list(parent_runs or []),
        package_version=package_version(),
        role=role,
        graph_condition=request.graph_condition,
        retrieval_condition=request.retrieval_condition,
    )
    started = utc_now()
    try:
        result = entry.fn(request, inputs, seed)
    except StageStopped as stop:
        result = ModelResult(status=RunStatus.stopped, reason=stop.reason)
    except InputError as exc:
        result = ModelResult(status=RunStatus.failed, reason=str(exc))
    output_digest = store.put_tables(result.tables) if result.tables else None
    # every run records the horizon it served (a model may state it more precisely itself)
    diagnostics = {"horizon": request.horizon, **result.diagnostics}
    run = ModelRun.create(
        **base,
        started_at=started,
        ended_at=utc_now(),
        status=result.status,
        reason=result.reason,
        diagnostics=diagnostics,
        output_digest=output_digest,
    )
    stored = store.get_tables(output_digest) if output_digest else {}
    points = []
    for ref in result.points:
        table = stored.get(ref.table)
        if table is None or str(ref.row) not in table.index or str(ref.column) not in table.columns:
            raise InputError(
                f"output point {ref.variable} {ref.period} refers to a missing cell "
                f"({ref.table}, {ref.row}, {ref.column}) of its run's output"
            )
        value = float(table.loc[str(ref.row), str(ref.column)])
        points.append(
            ModelOutputPoint.create(
                run_id=run.run_id,
                variable=ref.variable,
                unit=ref.unit,
                transformation=ref.transformation,
                period=ref.period,
                value=value,
                statistic=ref.statistic,
                simulation_id=ref.simulation_id,
                quantile=ref.quantile,
                entity=ref.entity,
                risk=ref.risk,
                status=ref.status,
                artifact_digest=output_digest,
                table_name=ref.table,
                row=str(ref.row),
                column=str(ref.column),
            )
        )
    with store.transaction():
        store.put(run)
        store.put_many(points)
    return store.get(ModelRun, run.run_id) or run


def run_compatible(
    store: Store,
    request: ModelRequest,
    inputs: ModelInputs | Callable[[ModelSpecification], ModelInputs],
    *,
    seed: int | None,
    config: Mapping[str, Any] | None = None,
    parent_runs: list[str] | None = None,
) -> list[ModelRun]:
    """Execute every registered specification compatible with ``request``."""
    compatible, refusals = [], {}
    for entry in registered():
        why = incompatibilities(request, entry.spec)
        if why:
            refusals[entry.spec.model_id] = why
        else:
            compatible.append(entry)
    if not compatible:
        detail = "; ".join(f"{m}: {', '.join(r)}" for m, r in refusals.items()) or "no model is registered"
        raise StageStopped(
            f"no compatible model specification for request {request.request_id} ({detail})", stage="execution"
        )
    runs = []
    for entry in compatible:
        model_inputs = inputs(entry.spec) if callable(inputs) else inputs
        runs.append(execute(store, entry, request, model_inputs, seed=seed, config=config, parent_runs=parent_runs))
    return runs


def read_point(store: Store, point: ModelOutputPoint) -> float:
    """Re-read a point's value from its run's stored artifact (verifies the digest)."""
    tables = store.get_tables(point.artifact_digest)
    if point.table_name not in tables:
        raise InputError(f"table {point.table_name} missing from artifact {point.artifact_digest}")
    table = tables[point.table_name]
    return float(table.loc[point.row, point.column])
