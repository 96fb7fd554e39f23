"""The `aieco` command line. Each area adds its commands in its own module here."""

from aieco.cli import analyze, bank, bench, core, data, evaluate, graph, reports, sources  # noqa: F401  (registers commands)
from aieco.cli.base import main

__all__ = ["main"]
