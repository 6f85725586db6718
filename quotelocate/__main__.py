"""``python -m quotelocate``: the command line."""

from .interface.entry import run

run()
