"""The analysis core: the stage runner, the typed stage inputs, the stages and the pipeline.

Layers (``docs/architecture.md``): ``pipeline`` composes ``stages`` and runs them through
``runner``; the stages call the pure core (sources, graph, scenario, models, reporting);
only the runner and the stages touch the store. Import the submodules directly
(``from aieco.analysis.pipeline import analyze``); this package imports nothing on load.
"""
