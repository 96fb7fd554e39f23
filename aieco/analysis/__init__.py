"""The analysis core: the stage runner, the typed stage inputs, the stages and the pipeline.

Layers (``docs/architecture.md``): ``pipeline`` composes ``stages`` and runs them through
``runner``; the stages call the pure core (sources, graph, scenario, models, reporting) and
return typed outputs (``outputs``) with the records they produced, which the runner writes
(the core functions that still write during a stage are listed in docs/architecture.md).
Import the submodules directly (``from aieco.analysis.pipeline import analyze``); this package
imports nothing on load.
"""
