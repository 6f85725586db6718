"""The ``quotelocate`` console script and ``python -m quotelocate``.

Kept apart from :mod:`quotelocate.interface.cli` so that ``quotelocate --version`` answers
without building the parser (which imports the rules and every command's module).
"""

from __future__ import annotations

import sys

from .. import __version__


def run() -> None:
    """Answer ``--version`` at once; otherwise run the command line.

    pymupdf 2.0 imports its optional layout-model package (and onnxruntime) on import,
    about a second of start-up that nothing in quotelocate uses. The command line is a
    process of its own, so it declines that package before pymupdf is loaded; a library
    caller's process is left as it is.
    """
    if sys.argv[1:] == ["--version"]:
        print(f"quotelocate {__version__}")
        sys.exit(0)
    if "pymupdf" not in sys.modules:
        sys.modules.setdefault("pymupdf.layout", None)  # type: ignore[arg-type]
    from .cli import main

    sys.exit(main())
