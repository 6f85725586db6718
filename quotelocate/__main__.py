"""``python -m quotelocate``: the command line."""

from .interface.cli import run

run()
