"""A macro_var run for tests, composed of exactly what the execution stage calls.

The library has one way to run a model: a ModelRequest executed by the registry with
``aieco.models.macro.model_inputs`` (``aieco.analysis.stages.execution_stage``). Tests that need
a macro run without the agents build the request here and call the registry the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from aieco.config import get_settings
from aieco.models import macro, registry
from aieco.models.catalog import register_shipped
from aieco.records import ModelRequest, ModelRun, digest, sha256_hex


def run_macro_scenario(
    store,
    analysis_id: str,
    risk: str,
    restrictions: Sequence[Any],
    observations: pd.DataFrame,
    cutoff: str | None,
    seed: int | None,
    draws: int | None = None,
    *,
    graph_condition: str = "G0",
    retrieval_condition: str = "graph",
    horizon: str | None = None,
    vintage_policy: str | None = None,
    anchors: Sequence[Any] | None = None,
    severity_reference: Any = None,
    selection_rule: str | None = None,
) -> list[ModelRun]:
    """Build the ModelRequest for ``risk`` and run every compatible registered specification
    (with the paths other risks already selected on the same data, as the execution stage does)."""
    register_shipped()
    taken = macro.taken_selections(
        store,
        sha256_hex(observations.to_csv(index=False)),
        seed,
        int(draws) if draws else get_settings().scenario.var_draws,
    )
    inputs = macro.model_inputs(
        observations,
        restrictions,
        cutoff,
        draws,
        vintage_policy=vintage_policy,
        taken=taken,
        anchors=anchors,
        severity_reference=severity_reference,
        selection_rule=selection_rule,
    )
    ids = [r.get("restriction_id") or digest(r) for r in inputs.restrictions]
    request = ModelRequest.create(
        analysis_id=analysis_id,
        risk=risk,
        outputs=macro.output_specs(horizon or macro.horizon_label()),
        restriction_ids=ids,
        horizon=horizon or macro.horizon_label(),
        scope="EA",
        data_versions={"observations": sha256_hex(observations.to_csv(index=False)), "cutoff": str(cutoff)},
        rationale="Annual paths of the six model variables selected by restriction severity",
        graph_condition=graph_condition,
        retrieval_condition=retrieval_condition,
    )
    return registry.run_compatible(store, request, inputs, seed=seed)
