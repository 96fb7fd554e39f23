"""The `aieco` command line. Each area adds its commands in its own module here.

A command's module is imported only when that command runs, and `aieco --help` imports none:
``COMMANDS`` in ``aieco.cli.base`` names each top-level command's module and the summary the
help lists. A new command is its function in a module here plus its line in ``COMMANDS``.
"""

from aieco.cli.base import main

__all__ = ["main"]
