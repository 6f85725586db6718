"""Papers: where pinned papers are found, and whether a file is the paper a set pins.

The search path is the folders given by the caller (or ``$QUOTELOCATE_PAPERS``, folders
separated by ``os.pathsep``), then ``datasets/papers/`` of this checkout, then the user
cache (``$XDG_CACHE_HOME/quotelocate/papers``, default ``~/.cache/quotelocate/papers``).
Each folder is searched, then its ``corpus/`` subfolder when it has one, so a folder of
papers can keep a corpus of other papers beside them.

A pin is the sha256 of the file plus, optionally, the fingerprint of its extracted text
(:class:`TextPin`); :func:`check_pin` says whether a document satisfies it.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..document import Document
from ..errors import DatasetError, DocumentError, PaperNotFoundError
from ..userdirs import cache_path

if TYPE_CHECKING:  # pragma: no cover
    from ..extraction_cache import ExtractionCache

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
DATASETS_DIR = REPO_ROOT / "datasets"

PathsArg = str | os.PathLike | Sequence[str | os.PathLike] | None
"""Folders to search instead of ``$QUOTELOCATE_PAPERS``: a sequence, or one string with
``os.pathsep`` separators."""


def cache_dir() -> Path:
    """The user cache that ``quotelocate fetch`` downloads into."""
    return cache_path("papers")


def papers_search_path(papers_path: PathsArg = None) -> list[Path]:
    """Folders searched for a pinned paper, in order.

    ``papers_path`` replaces ``$QUOTELOCATE_PAPERS``; ``datasets/papers/`` and the user
    cache always follow. Every folder is followed by its ``corpus/`` subfolder when it has one.
    """
    if papers_path is None:
        given = [Path(p) for p in os.environ.get("QUOTELOCATE_PAPERS", "").split(os.pathsep) if p]
    elif isinstance(papers_path, (str, os.PathLike)):
        given = [Path(p) for p in os.fspath(papers_path).split(os.pathsep) if p]
    else:
        given = [Path(p) for p in papers_path]
    folders: list[Path] = []
    for folder in [*given, DATASETS_DIR / "papers", cache_dir()]:
        for f in (folder, folder / "corpus"):
            if f not in folders and (f is folder or f.is_dir()):
                folders.append(f)
    return folders


def find_paper(file_name: str, papers_path: PathsArg = None) -> Path | None:
    """The first file called ``file_name`` on the search path; a bare name only."""
    if not file_name or Path(file_name).name != file_name or file_name in {".", ".."}:
        return None
    for folder in papers_search_path(papers_path):
        candidate = folder / file_name
        if candidate.is_file():
            return candidate
    return None


@dataclass(frozen=True)
class PinCheck:
    """Whether a document satisfies a pin: ``ok`` with ``warnings``, or the ``reason`` it does not."""

    ok: bool
    warnings: tuple[str, ...] = ()
    reason: str = ""


@dataclass(frozen=True)
class TextPin:
    """The text fingerprint a set's anchors were checked on (see :attr:`Document.text_fingerprint`)."""

    extractor: str = ""
    extractor_version: str = ""
    flags: int = 0
    sha256: str = ""

    def to_dict(self) -> dict:
        return {
            "extractor": self.extractor,
            "extractor_version": self.extractor_version,
            "flags": self.flags,
            "sha256": self.sha256,
        }


@dataclass(frozen=True)
class Paper:
    """The pinned paper: bare ``file`` name, ``sha256`` of its bytes, download ``url``,
    free-text ``version``, the text fingerprint (None when the set has none) and ``id``,
    the name quotes use for it in a set that spans several papers ("" in a one-paper set)."""

    file: str = ""
    sha256: str = ""
    url: str = ""
    version: str = ""
    text: TextPin | None = None
    id: str = ""


def _format_search_path(folders: Sequence[Path]) -> str:
    return os.pathsep.join(str(f) for f in folders)


@dataclass(frozen=True)
class Resolved:
    path: Path
    document: Document
    warnings: tuple[str, ...]


def check_pin(paper: Paper, doc: Document, where: str) -> PinCheck:
    """Whether ``doc`` satisfies ``paper``'s pin, with the warnings or the reason."""
    warnings: list[str] = list(doc.warnings)
    fp = doc.text_fingerprint
    if doc.sha256.lower() == paper.sha256.lower():
        if paper.text is not None and fp["sha256"] != paper.text.sha256:
            warnings.append(
                f"{where}: bytes match the pin but the extracted text differs from the pinned text "
                f"fingerprint ({fp['extractor']} {fp['extractor_version']} vs {paper.text.extractor} "
                f"{paper.text.extractor_version}); every anchor was re-verified"
            )
        return PinCheck(True, tuple(warnings))
    if paper.text is None:
        return PinCheck(False, reason=f"expected sha256 {paper.sha256}, found {doc.sha256} (the set pins no text fingerprint)")
    same_text = (
        fp["sha256"] == paper.text.sha256
        and fp["extractor"] == paper.text.extractor
        and fp["flags"] == paper.text.flags
    )
    if not same_text:
        return PinCheck(False, reason=(
            f"expected sha256 {paper.sha256}, found {doc.sha256}; expected text sha256 "
            f"{paper.text.sha256} ({paper.text.extractor} {paper.text.extractor_version}, flags "
            f"{paper.text.flags}), found {fp['sha256']} ({fp['extractor']} {fp['extractor_version']}, "
            f"flags {fp['flags']})"
        ))
    note = ""
    if str(fp["extractor_version"]) != paper.text.extractor_version:
        note = f"; extractor version {fp['extractor_version']} instead of {paper.text.extractor_version}"
    warnings.append(
        f"{where}: sha256 {doc.sha256} differs from the pinned {paper.sha256}, but the extracted "
        f"text is identical (text sha256 {fp['sha256']}{note}); accepted"
    )
    return PinCheck(True, tuple(warnings))


def resolve(paper: Paper, folders: Sequence[Path], *, set_name: str, source: str,
            confined: Path | None = None, cache: "ExtractionCache | None" = None) -> Resolved:
    """The file on ``folders`` that satisfies ``paper``'s pin. ``confined``: a folder
    (the set's own) whose paper must really live inside it: a symlink there that leads
    out of it is refused, since a set could otherwise point the checker at any file the
    server can read. ``cache``: the extraction cache to open the paper through."""
    candidates: list[Path] = []
    for folder in folders:
        p = folder / paper.file
        if confined is not None and folder == confined and (p.is_symlink() or p.exists()):
            target = p.resolve()
            if not target.is_relative_to(confined.resolve()):
                raise DatasetError(
                    f"{source}: paper {paper.file!r} in the set's folder is a symbolic link that leads out of "
                    "that folder; put the paper itself there, or its folder on QUOTELOCATE_PAPERS"
                )
        if p.is_file() and p not in candidates:
            candidates.append(p)
    if not candidates:
        missing = PaperNotFoundError(
            f"{source}: paper {paper.file!r} is not on the papers search path "
            f"({_format_search_path(folders) or 'empty'}); run `quotelocate fetch {set_name}` "
            "or set QUOTELOCATE_PAPERS to the folder that holds it"
        )
        missing.file = paper.file  # type: ignore[attr-defined]  # for callers that must not show the path
        raise missing
    # bytes that match the pin win wherever they are on the path
    for p in candidates:
        if sha256_file(p) == paper.sha256.lower():
            doc = open_paper(p, source, cache=cache)
            return Resolved(p, doc, check_pin(paper, doc, str(p)).warnings)
    refusals = []
    for p in candidates:
        doc = open_paper(p, source, cache=cache)
        pin = check_pin(paper, doc, str(p))
        if pin.ok:
            return Resolved(p, doc, pin.warnings)
        refusals.append(f"{p}: {pin.reason}")
    raise DatasetError(f"{source}: paper {paper.file!r} does not match its pin: " + "; ".join(refusals))


def resolve_paper(
    paper: Paper,
    *,
    papers_path: str | os.PathLike | Sequence[str | os.PathLike] | None = None,
    set_name: str = "SET",
) -> Path:
    """The file on the search path that satisfies ``paper``'s pin.

    Bytes whose sha256 matches are used as is; other bytes with the same text
    fingerprint are accepted (:func:`load_quote_set` records a warning); anything else
    raises :class:`DatasetError` with the expected and found hashes. A missing file
    raises :class:`PaperNotFoundError` naming the search path.
    """
    return resolve(paper, papers_search_path(papers_path), set_name=set_name, source=paper.file).path


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def open_paper(path: Path, source: str, *, cache: "ExtractionCache | None" = None) -> Document:
    try:
        return Document.open(path, cache=cache)
    except DocumentError as exc:
        raise DatasetError(f"{source}: paper: {exc}") from None
