"""Command-line options more than one command takes."""

from __future__ import annotations

import argparse

from ..limits import DEFAULT_LIMITS


def add_limit_options(p: argparse.ArgumentParser) -> None:
    """``--max-seconds``, ``--max-memory-mb`` and ``--max-pages``: what extracting one PDF may use."""
    g = p.add_argument_group("extraction limits (a PDF past one is refused)")
    g.add_argument("--max-seconds", type=float, default=DEFAULT_LIMITS.seconds, metavar="S",
                   help=f"time limit for text extraction (default {DEFAULT_LIMITS.seconds:g})")
    g.add_argument("--max-memory-mb", type=int, default=DEFAULT_LIMITS.memory_mb, metavar="MB",
                   help=f"memory limit for text extraction (default {DEFAULT_LIMITS.memory_mb})")
    g.add_argument("--max-pages", type=int, default=DEFAULT_LIMITS.max_pages, metavar="N",
                   help=f"page limit (default {DEFAULT_LIMITS.max_pages})")
