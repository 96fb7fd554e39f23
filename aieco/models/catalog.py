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
