"""The models aieco knows, one :class:`ModelEntry` each (no registration by import side effect).

An entry is the whole description of a model: its id, readable label, kind (``macro``: it generates
scenario paths from an analysis's restrictions; ``bank``: it applies a path, or real bank data, to
bank capital), the :class:`~aieco.records.ModelSpecification` (inputs, outputs with unit, frequency
and transformation: the output schema the registry matches a request against), the execution
function, the input builder that turns an analysis's context into the model's typed inputs, and the
output tables a run writes. The analysis stages, the report writer and the dashboard read labels,
kinds and builders from here, so adding a model is its module plus one entry: :func:`shipped` for a
model aieco ships, :func:`add` for one added at run time (a test adds a model with one call).

:func:`register_shipped` puts every entry meant for analyses into the registry (idempotent) and is
what the analysis calls before it looks models up.
"""

from __future__ import annotations

from aieco.errors import InputError
from aieco.models import registry
from aieco.models.entry import InputBuilder, InputContext, Kind, ModelEntry
from aieco.records import ModelSpecification

__all__ = ["InputBuilder", "InputContext", "Kind", "ModelEntry"]


def shipped() -> tuple[ModelEntry, ...]:
    """Every model aieco ships: macro_var, the four FE bank models and the three real-data bank models."""
    from aieco.models import macro
    from aieco.models.bank import eba_application
    from aieco.models.bank import spec as bank

    return (
        macro.ENTRY,
        *bank.ENTRIES,
        *eba_application.ENTRIES,
    )


_ADDED: dict[str, ModelEntry] = {}


def add(entry: ModelEntry) -> ModelEntry:
    """Add a model at run time (one call: the entry is known to the stages, report and dashboard, and
    registered); an id aieco ships is refused."""
    if any(e.model_id == entry.model_id for e in shipped()):
        raise InputError(
            f"model {entry.model_id!r} is shipped with aieco", where="model id", fix="give the new model its own id"
        )
    _ADDED[entry.model_id] = entry
    if entry.analysis:
        registry.register(entry.specification(), entry.run)
    return entry


def remove(model_id: str) -> None:
    """Forget a model added with :func:`add` (and unregister it)."""
    if _ADDED.pop(model_id, None) is not None:
        registry.unregister(model_id)


def entries() -> tuple[ModelEntry, ...]:
    """Every known model: the shipped ones, then those added at run time."""
    return (*shipped(), *_ADDED.values())


def register_shipped() -> tuple[str, ...]:
    """Register every model meant for analyses (idempotent); the ids of every registered model, sorted."""
    for e in entries():
        if e.analysis:
            registry.register(e.specification(), e.run)
    return tuple(sorted(e.spec.model_id for e in registry.registered()))


def base_id(model_id: str) -> str:
    """The catalog id of a run's model id (validation variants: 'bank_eba_components:2016->2021')."""
    return model_id.partition(":")[0]


def find(model_id: str) -> ModelEntry | None:
    """The entry of ``model_id`` (a variant resolves to its model), or None."""
    base = base_id(model_id)
    return next((e for e in entries() if e.model_id == base), None)


def entry(model_id: str) -> ModelEntry:
    """The entry of ``model_id``.

    Raises
    ------
    InputError
        When the catalog knows no such model.
    """
    found = find(model_id)
    if found is None:
        raise InputError(
            f"no model {model_id!r} is registered or in the catalog",
            where="model id",
            fix="add the model to aieco.models.catalog (shipped() or add())",
        )
    return found


def label(model_id: str) -> str:
    """The model's readable name ('VAR scenario generator'; a variant in brackets); unknown ids as they are."""
    found = find(model_id)
    variant = model_id.partition(":")[2]
    name = found.label if found else base_id(model_id)
    return f"{name} ({variant})" if variant else name


def kind(model_id: str) -> Kind | None:
    """``macro`` or ``bank`` from the model's entry; None for a model the catalog does not know."""
    found = find(model_id)
    return found.kind if found else None


def is_bank(model_id: str) -> bool:
    return kind(model_id) == "bank"


def specification(model_id: str) -> ModelSpecification:
    """The specification of ``model_id``: the registered one, else its catalog entry's.

    Raises
    ------
    InputError
        When no model of that id is registered or in the catalog (:func:`entry`).
    """
    found = {e.spec.model_id: e.spec for e in registry.registered()}
    return found.get(base_id(model_id)) or entry(model_id).specification()


def takes_macro_path(model_id: str) -> bool:
    """Whether the outputs of ``model_id`` condition on a scenario path, read from its specification:
    a model takes a macro path when it declares input variables (``spec.inputs``). A model that declares
    none (the real-data bank models: depletion under an EBA-style adverse exercise from each bank's
    starting position) gives no outcome of an analysis's scenario — the report and the dashboard say so.

    Raises
    ------
    InputError
        When ``model_id`` is unknown (:func:`specification`).
    """
    return bool(specification(model_id).inputs)
