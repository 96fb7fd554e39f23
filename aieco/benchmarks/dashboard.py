"""Dashboard responsiveness on the demo workspace (settings.workspace, built by `aieco demo`).

Every page interaction reruns the page script: it opens the Store, computes the workspace
digest (the cache key) and reads its views from the cache. The first load of a page
computes its views uncached. The issue's target: interactions respond within 1 s.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from dashboard import views  # replaced by the browser bench (J)
from aieco.benchmarks import Figure, timed
from aieco.config import get_settings
from aieco.errors import InputError
from aieco.store import Store

INTERACTION_TARGET_S = 1.0


def page_views(store: Store) -> dict[str, list]:
    """The uncached view calls each page makes on first load (for the selected analysis)."""
    ids = views.analysis_ids(store)
    analysis = ids[0] if ids else ""
    runs = views.runs_frame(store)
    run_id = runs["run_id"].iloc[0] if len(runs) else None
    sources = views.sources_frame(store)
    source_id = sources["source_id"].iloc[0] if len(sources) else None
    reports = views.reports_frame(store)
    report_id = reports["report_id"].iloc[0] if len(reports) else None
    return {
        "request": [lambda: views.analyses_frame(store)],
        "sources": [lambda: views.sources_frame(store), lambda: views.exclusions_frame(store),
                    *([lambda: views.locations_frame(store, source_id)] if source_id else [])],
        "channel_graph": [lambda: views.relations_frame(store), lambda: views.risks(store),
                          lambda: views.channel_graph_html(store, tuple(views.as_of_relation_ids(store, None, "G0")))],
        "paths": [lambda: views.paths_frame(store, analysis), lambda: views.restrictions_frame(store, analysis),
                  lambda: views.derivations_frame(store, analysis)],
        "model_runs": [lambda: views.runs_frame(store, analysis),
                       *([lambda: views.points_frame(store, run_id)] if run_id else [])],
        "bank_capital": [lambda: views.bank_runs(store), lambda: views.validation_frame(store)],
        "reports": [lambda: views.reports_frame(store),
                    *([lambda: views.report_sentences(store, report_id)] if report_id else []),
                    *([lambda fmt=fmt: views.report_export(store, report_id, fmt) for fmt in views.EXPORT_FORMATS]
                      if report_id else [])],
        "audit": [lambda: views.stages_frame(store, analysis), lambda: views.llm_calls_frame(store, analysis)],
    }


def run(quick: bool = False) -> list[Figure]:
    workspace = get_settings().workspace
    if (workspace / "aieco.db").exists():
        with Store(workspace) as store:
            if not views.is_empty(store):
                return measure_workspace(workspace, quick)
    # No demo workspace yet: build and run the demo in a scratch folder, as the app's first launch does.
    from aieco.demo import build_demo, run_demo

    with tempfile.TemporaryDirectory() as tmp:
        with Store(Path(tmp) / "ws") as store:
            build_demo(store)
            run_demo(store)
        return measure_workspace(Path(tmp) / "ws", quick)


def measure_workspace(workspace: Path, quick: bool) -> list[Figure]:
    repeat = 5 if quick else 20

    def open_and_digest() -> None:
        with Store(workspace) as s:
            views.workspace_digest(s)

    figures = [Figure(name="interaction_overhead_open_and_digest", value=min(timed(open_and_digest, repeat)),
                      unit="s", target=INTERACTION_TARGET_S)]
    with Store(workspace) as store:
        if views.is_empty(store):
            raise InputError(f"workspace {workspace} is empty", fix="run `aieco demo` first")
        for page, calls in page_views(store).items():
            seconds = min(timed(lambda calls=calls: [c() for c in calls], max(repeat // 5, 1)))
            figures.append(Figure(name=f"first_load_views_{page}", value=seconds, unit="s"))
    return figures
