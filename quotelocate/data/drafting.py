"""Draft quote sets: a pipeline's outputs turned into a set a person then labels.

:func:`~quotelocate.data.outputs.read_outputs` reads the quotes a pipeline wrote, one
record each (``paper``, ``quote``, optional ``cited_chunk``, ``label`` and ``id``; JSON
lines, CSV or Parquet); every problem names the file and line.

:func:`draft_set` pins every paper (sha256 and text fingerprint of the file found in the
given folder or on the papers search path), locates every quote under ``recommended``
and writes a format 2 set (see ``datasets/README.md``): a quote the locator found gets
its match as anchor; a rejected one its closest passage, when there is one. A record
with no label is written ``label: unreviewed``, with tags proposed from the verdict;
a labelled one keeps its label (a faithful one needs a passage to anchor it, else it
stays unreviewed and its note says why). Each quote's note says what the locator
decided, so a reviewer sees why the anchor is where it is.

:func:`write_new` writes the text atomically and never replaces an existing file unless
asked to.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..chunks import Chunking
from ..document import Document
from ..errors import DatasetError, QuoteInputError, QuotelocateError
from .outputs import OutputRecord
from .papers import Paper, TextPin, papers_search_path
from .quoteset import UNREVIEWED, Anchor, Quote, multi_quote_set_yaml, set_outline

CAUSE_TAGS = {
    "number-changed": "number",
    "case-differs": "case",
    "word-changed": "word-swap",
    "word-missing": "word-missing",
    "word-added": "word-added",
    "marker-missing": "marker-dropped",
    "punctuation-differs": "punctuation",
    "spliced": "splice",
    "confusable-character": "lookalike",
    "partial-word": "partial-word",
    "cross-flow": "cross-flow",
    "not-in-document": "paraphrase",
    "too-long": "trivial",
}
"""The fabrication tag a rejection's cause suggests."""


# ---------------------------------------------------------------------------------------
# The draft


@dataclass(frozen=True)
class Draft:
    """A drafted set: its ``text`` (format 2 YAML), the ``papers`` pinned, the ``quotes``
    written, and where each paper was found (``paper_paths``, by paper id)."""

    text: str
    papers: tuple[Paper, ...]
    quotes: tuple[Quote, ...]
    paper_paths: Mapping[str, Path]

    @property
    def unreviewed(self) -> int:
        return sum(1 for q in self.quotes if q.label == UNREVIEWED)


def set_name_for(path: str | os.PathLike) -> str:
    """A set name (``[a-z0-9-]+``) from a file name.

    >>> set_name_for("runs/Outputs_2026.v1.jsonl")
    'outputs-2026-v1'
    """
    stem = Path(path).name.rsplit(".", 1)[0]
    name = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")
    return name or "draft"


def _paper_id(file: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(file).stem).strip("-") or "paper"
    pid, n = base, 2
    while pid in taken:
        pid, n = f"{base}-{n}", n + 1
    taken.add(pid)
    return pid


def find_in(file: str, papers_dir: str | os.PathLike | None) -> Path | None:
    """``file`` in ``papers_dir``, else the first on the papers search path."""
    folders = ([Path(papers_dir)] if papers_dir is not None else []) + papers_search_path()
    for folder in folders:
        candidate = folder / file
        if candidate.is_file():
            return candidate
    return None


def proposed_tags(label: str, verdict: Any) -> tuple[str, ...]:
    """Tags to start from: ``plain`` for a faithful quote, the fabrication its cause
    suggests for a fabricated one, both guesses for an unreviewed one."""
    cause = "outside-material" if verdict.status == "outside-material" else (verdict.cause or "")
    fabricated = "outside-material" if cause == "outside-material" else CAUSE_TAGS.get(cause, "paraphrase")
    if label == "faithful":
        return ("plain",)
    if label == "fabricated":
        return (fabricated,)
    return ("plain",) if verdict.accepted else (fabricated,)


def proposed_anchor(verdict: Any, document: Document) -> tuple[Anchor | None, str]:
    """The anchor a verdict proposes (its match, where it says an outside-material quote
    is, else its closest passage) and a sentence saying which."""
    if verdict.start is not None and verdict.end is not None and verdict.end > verdict.start:
        start, end = verdict.start, verdict.end
        what = "the match" if verdict.accepted else "where the paper has it (outside the cited material)"
    elif verdict.near_miss is not None and verdict.near_miss.end > verdict.near_miss.start:
        start, end = verdict.near_miss.start, verdict.near_miss.end
        what = f"the closest passage ({verdict.near_miss.similarity:.0f}% similar)"
    else:
        return None, "no passage to propose"
    return Anchor(page=document.page_at(start), start=start, end=end, text=document.text[start:end]), what


def verdict_note(verdict: Any, what: str) -> str:
    """What the locator decided, for a quote's note."""
    head = f"recommended: {verdict.status}" + (f" ({verdict.cause})" if verdict.cause else "")
    return f"{head}; proposed anchor: {what}"


def draft_set(
    records: Sequence[OutputRecord],
    *,
    source: str,
    name: str,
    papers_dir: str | os.PathLike | None = None,
    chunking: Chunking | None = None,
    description: str = "",
) -> Draft:
    """The draft set of ``records`` (read from ``source``; see the module docstring).

    Raises :class:`QuoteInputError` naming the file and line of a record whose paper is
    not found or cannot be opened, whose cited chunk does not exist, or whose generated
    id clashes with a given one.
    """
    from ..locate import Locator
    from ..normalize import preset

    chunking = chunking or Chunking()
    rules = preset("recommended")
    papers: dict[str, Paper] = {}
    paths: dict[str, Path] = {}
    locators: dict[str, Any] = {}
    by_sha: dict[str, str] = {}
    taken: set[str] = set()
    for r in records:
        if r.paper in papers:
            continue
        where = f"{source}: line {r.line}: "
        found = find_in(r.paper, papers_dir)
        if found is None:
            raise QuoteInputError(f"{where}paper {r.paper!r} is in neither {papers_dir or 'the papers folder'} "
                                  "nor on the papers search path")
        try:
            doc = Document.open(found)
        except QuotelocateError as exc:  # a DocumentError, or an extraction limit
            raise QuoteInputError(f"{where}paper {r.paper!r}: {exc}") from None
        if doc.sha256 in by_sha:
            raise QuoteInputError(f"{where}paper {r.paper!r} has the same bytes as {by_sha[doc.sha256]!r}; "
                                  "name one file for one paper")
        by_sha[doc.sha256] = r.paper
        fp = doc.text_fingerprint
        pid = _paper_id(r.paper, taken)
        papers[r.paper] = Paper(
            file=r.paper, sha256=doc.sha256, id=pid,
            text=TextPin(str(fp["extractor"]), str(fp["extractor_version"]), int(fp["flags"] or 0), str(fp["sha256"])),
        )
        paths[pid] = found
        locators[r.paper] = Locator(doc, rules, chunking=chunking)
    given = {r.id for r in records if r.id}
    quotes: list[Quote] = []
    for r in records:
        where = f"{source}: line {r.line}: "
        locator = locators[r.paper]
        qid = r.id or f"q{r.line}"
        if not r.id and qid in given:
            raise QuoteInputError(f"{where}the id {qid!r} this record would get is already given to another; "
                                  "give this record an id")
        if r.cited_chunk is not None and r.cited_chunk >= len(locator.chunks):
            raise QuoteInputError(f"{where}cited_chunk {r.cited_chunk} is not a chunk of {r.paper} "
                                  f"(0..{len(locator.chunks) - 1} at chunk size {chunking.size})")
        verdict = locator.locate(r.quote, cited_chunk=r.cited_chunk)
        anchor, what = proposed_anchor(verdict, locator.document)
        label = r.label or UNREVIEWED
        note = verdict_note(verdict, what)
        if label == "faithful" and anchor is None:
            label, note = UNREVIEWED, f"labelled faithful in {Path(source).name}, but {note}; anchor it by hand"
        if label == "fabricated":
            anchor, note = None, verdict_note(verdict, "none (labelled fabricated)")
        quotes.append(Quote(id=qid, text=r.quote, label=label, tags=proposed_tags(label, verdict),
                            cited_chunk=r.cited_chunk, anchor=anchor, note=note, paper=papers[r.paper].id))
    pinned = tuple(papers.values())
    text = multi_quote_set_yaml(
        name=name,
        description=description or f"Draft from {Path(source).name}: {len(quotes)} quotes, proposed by quotelocate set init.",
        papers=pinned,
        quotes=quotes,
        chunking={"size": chunking.size, "overlap": chunking.overlap, "group_size": chunking.group_size},
        header=f"Draft quote set written by `quotelocate set init` from {Path(source).name}.\n"
               "Label the unreviewed quotes in the workbench's Label view.",
    )
    return Draft(text=text, papers=pinned, quotes=tuple(quotes), paper_paths=paths)


def write_new(path: str | os.PathLike, text: str, *, force: bool = False) -> Path:
    """Write ``text`` to ``path`` atomically (a temporary file beside it, checked as a
    quote set, flushed, then renamed). An existing file is replaced only with ``force``;
    else :class:`DatasetError` says so."""
    target = Path(path)
    if (target.exists() or target.is_symlink()) and not force:
        raise DatasetError(f"{target}: already exists; not overwritten (use --force to replace it)")
    folder = target.parent if str(target.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatasetError(f"{folder}: cannot create the folder ({exc.strerror or exc})") from None
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        set_outline(Path(tmp))  # a valid set, before it takes the name
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target
