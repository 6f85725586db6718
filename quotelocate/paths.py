"""Where papers and stored runs live: the papers search path and the user cache.

The search path is ``$QUOTELOCATE_PAPERS`` (folders separated by ``os.pathsep``), then
``datasets/papers/`` of this checkout, then the user cache
(``$XDG_CACHE_HOME/quotelocate/papers``, default ``~/.cache/quotelocate/papers``).
Each folder is followed by its ``corpus/`` subfolder, where a shared papers folder keeps
its collection of further real papers next to the main ones.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DATASETS_DIR = REPO_ROOT / "datasets"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "quotelocate" / "papers"


CORPUS_SUBFOLDER = "corpus"
"""The subfolder of every search-path folder that is searched right after it."""


def with_corpus(folders: list[Path]) -> list[Path]:
    """Each folder followed by its ``corpus/`` subfolder (whether or not it exists)."""
    out: list[Path] = []
    for folder in folders:
        for candidate in (folder, folder / CORPUS_SUBFOLDER):
            if candidate not in out:
                out.append(candidate)
    return out


def papers_search_path() -> list[Path]:
    folders = [Path(p) for p in os.environ.get("QUOTELOCATE_PAPERS", "").split(os.pathsep) if p]
    folders.append(DATASETS_DIR / "papers")
    folders.append(cache_dir())
    return with_corpus(folders)


def find_paper(file_name: str) -> Path | None:
    """The first file called ``file_name`` on the search path; a bare name only."""
    if not file_name or Path(file_name).name != file_name or file_name in {".", ".."}:
        return None
    for folder in papers_search_path():
        candidate = folder / file_name
        if candidate.is_file():
            return candidate
    return None
