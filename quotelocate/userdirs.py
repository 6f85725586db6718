"""Where quotelocate keeps files for a user: one rule for every folder.

A folder named by its own variable (``$QUOTELOCATE_RUNS``, ``$QUOTELOCATE_SETS``,
``$QUOTELOCATE_CACHE``) is used as given; otherwise it lies under the XDG base folder for
its kind, ``$XDG_DATA_HOME`` (default ``~/.local/share``) for data a user keeps, or
``$XDG_CACHE_HOME`` (default ``~/.cache``) for what can be made again.

>>> import os
>>> os.environ["XDG_CACHE_HOME"] = "/tmp/xdg-cache"
>>> cache_path("papers").as_posix()
'/tmp/xdg-cache/quotelocate/papers'
>>> del os.environ["XDG_CACHE_HOME"]
"""

from __future__ import annotations

import os
from pathlib import Path


def _under(xdg: str, fallback: tuple[str, ...], name: str, override: str | None) -> Path:
    given = os.environ.get(override) if override else None
    if given:
        return Path(given).expanduser()
    base = os.environ.get(xdg) or os.path.join(os.path.expanduser("~"), *fallback)
    return Path(base) / "quotelocate" / name


def data_path(name: str, *, override: str | None = None) -> Path:
    """``$<override>``, else ``$XDG_DATA_HOME/quotelocate/<name>``."""
    return _under("XDG_DATA_HOME", (".local", "share"), name, override)


def cache_path(name: str, *, override: str | None = None) -> Path:
    """``$<override>``, else ``$XDG_CACHE_HOME/quotelocate/<name>``."""
    return _under("XDG_CACHE_HOME", (".cache",), name, override)
