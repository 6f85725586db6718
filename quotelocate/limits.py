"""Extraction limits: what opening one PDF may use before it is refused.

Apart from :mod:`quotelocate.document` so that the command line can show the defaults
without loading pymupdf.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ConfigError

MAX_PAGES = 5000
MAX_FILE_BYTES = 512 * 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """What extracting one PDF may use before it is refused.

    * ``seconds`` (60): wall-clock time for opening and extracting, in the worker;
    * ``memory_mb`` (2048): memory the worker may allocate beyond what it holds at
      start (its address-space limit, ``RLIMIT_AS``);
    * ``max_pages`` (:data:`MAX_PAGES`): page count;
    * ``max_file_bytes`` (:data:`MAX_FILE_BYTES`): file size.

    Time and memory are only enforced when extraction is isolated (the default).
    """

    seconds: float = 60.0
    memory_mb: int = 2048
    max_pages: int = MAX_PAGES
    max_file_bytes: int = MAX_FILE_BYTES

    def __post_init__(self) -> None:
        for name in ("seconds", "memory_mb", "max_pages", "max_file_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:  # NaN too
                raise ConfigError(f"limits.{name}: expected a number greater than 0, got {value!r}")


DEFAULT_LIMITS = Limits()
