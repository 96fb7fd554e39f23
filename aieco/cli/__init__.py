"""The `aieco` command line. Each area adds its commands in its own module here.

A command's module is imported only when that command runs (``COMMANDS`` in ``aieco.cli.base``
names it), so `aieco search` does not pay for the imports of `aieco analyze`. A new command
module goes into ``COMMAND_MODULES`` and its commands into ``COMMANDS``.
"""

from aieco.cli.base import main

__all__ = ["main"]
