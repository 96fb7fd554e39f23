"""Moved to :mod:`aieco.analysis` (runner, inputs, stages, pipeline); kept as a re-export for callers.

New code imports from ``aieco.analysis.pipeline`` / ``aieco.analysis.runner``.
"""

from aieco.analysis.pipeline import (
    Agreement,
    AnalysisOutcome,
    ProgramOutcome,
    agreement,
    analyze,
    repetition_analysis,
)
from aieco.analysis.runner import ProgressFn, RunOutcome, Stage, StageContext, run_stages

__all__ = [
    "Agreement",
    "AnalysisOutcome",
    "ProgramOutcome",
    "ProgressFn",
    "RunOutcome",
    "Stage",
    "StageContext",
    "agreement",
    "analyze",
    "repetition_analysis",
    "run_stages",
]
