"""The models aieco ships, as one explicit tuple (no registration by import side effect).

:func:`shipped` lists every specification with its function; :func:`register_shipped`
puts them into the registry (idempotent) and is what the analysis calls before it looks
models up. Adding a model means adding it here.
"""

from __future__ import annotations

from aieco.models import registry


def shipped() -> tuple[tuple[object, registry.ModelFn], ...]:
    """(specification, function) of every shipped model: macro_var, then the four bank models."""
    from aieco.models import macro
    from aieco.models.bank import spec as bank

    return (
        (macro.specification(), macro.run_macro_var),
        *((bank.bank_specification(model_id), fn) for model_id, fn in bank.BANK_MODELS),
    )


def register_shipped() -> tuple[str, ...]:
    """Register every shipped model (idempotent); the ids of every registered model, sorted."""
    for spec, fn in shipped():
        registry.register(spec, fn)
    return tuple(sorted(e.spec.model_id for e in registry.registered()))


def specification(model_id: str) -> object:
    """The specification of ``model_id``: the registered one, else the shipped or real-data bank
    model's (``bank_eba_components``, ``bank_eba_depletion``, registered only when a gate passes).

    Raises
    ------
    InputError
        When no model of that id is registered or shipped.
    """
    from aieco.errors import InputError
    from aieco.models.bank import eba_application

    base = model_id.partition(":")[0]  # validation variants: 'bank_eba_components:2016->2021'
    found = {e.spec.model_id: e.spec for e in registry.registered()}
    if base in found:
        return found[base]
    for spec, _ in shipped():
        if spec.model_id == base:
            return spec
    if base in eba_application.SPECIFIED:
        return eba_application.real_specification(base)
    raise InputError(
        f"no model {model_id!r} is registered or shipped",
        where="model id",
        fix="register the model (aieco.models.registry.register) before asking about it",
    )


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
