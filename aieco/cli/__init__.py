"""The `aieco` command line. Each area adds its commands in its own module here."""

from aieco.cli import (  # noqa: F401  (registers commands)
    analyze,
    bank,
    bench,
    core,
    data,
    evaluate,
    graph,
    reports,
    review,
    sources,
)
from aieco.cli.base import main

__all__ = ["main"]
