"""Finding the paper an integration is pointed at: a path, or a bare file name on the
papers search path (``$QUOTELOCATE_PAPERS``, then ``datasets/papers/``, then the user
cache), so a test, a promptfoo config or an evaluator can name a paper without
knowing where each machine keeps it."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import DocumentError


def find_document(path: str | os.PathLike) -> Path:
    """``path`` when it exists; else a bare file name found on the papers search path.

    Raises :class:`DocumentError` naming the file (and the folders searched) otherwise.
    """
    p = Path(path)
    if p.exists():
        return p
    if p.name == os.fspath(path):
        from ..data.papers import find_paper, papers_search_path

        found = find_paper(p.name)
        if found is not None:
            return found
        folders = os.pathsep.join(str(f) for f in papers_search_path())
        raise DocumentError(f"{p}: no such file here nor on the papers search path ({folders})")
    raise DocumentError(f"{p}: no such file")
