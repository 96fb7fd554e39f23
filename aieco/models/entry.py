"""What describes one model in the catalog (:mod:`aieco.models.catalog`): :class:`ModelEntry` and the
:class:`InputContext` its input builder reads. Kept apart from the catalog, which imports the model modules,
so that a model module can declare its entry without importing the catalog (no import cycle)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from aieco.asof import AsOf
from aieco.models import registry
from aieco.records import ModelSpecification
from aieco.store import Store

Kind = Literal["macro", "bank"]


@dataclass(frozen=True)
class InputContext:
    """What an input builder may read when the execution stage runs a model for one risk program."""

    store: Store
    request: Any  # the AnalysisRequest
    as_of: AsOf  # the request's one as-of rule (cutoff, scope, vintage policy), passed on unchanged
    risk: str
    restrictions: tuple[dict[str, Any], ...]  # the restriction payloads, timed ('years') by their evidence
    seed: int | None
    repetition: int = 1


InputBuilder = Callable[[InputContext], registry.ModelInputs]


@dataclass(frozen=True)
class ModelEntry:
    """One model: everything the stages, the report and the dashboard need to know about it."""

    model_id: str
    label: str  # readable name, e.g. 'VAR scenario generator'
    kind: Kind
    specification: Callable[[], ModelSpecification]  # built on demand (it may read the settings)
    run: registry.ModelFn
    #: The analysis's execution stage builds the model's inputs with this (None: the model is run by
    #: another stage — the bank application — and an analysis cannot request it directly).
    build_inputs: InputBuilder | None = None
    #: Output tables of a run, name → what it holds (the ModelOutputPoints point into them).
    tables: Mapping[str, str] = field(default_factory=dict)
    #: Registered for every analysis (False: registered by its own stage when it may run, e.g. behind a gate).
    analysis: bool = True
    #: The figures of the report's scenario paragraph this model supplies over a horizon: (variable, ClaimSpec
    #: fields — unit, transformation, period, statistic) pairs, registered before it runs (None: none).
    scenario_figures: Callable[[str], list[tuple[str, dict[str, str]]]] | None = None
