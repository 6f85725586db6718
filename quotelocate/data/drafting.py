"""Draft quote sets: a pipeline's outputs turned into a set a person then labels.

:func:`read_outputs` reads the quotes a pipeline wrote, one record each: ``paper`` (a
bare file name), ``quote``, and optionally ``cited_chunk`` (0-based), ``label``
(``faithful`` or ``fabricated``, for records a person already checked) and ``id``.
Other fields are left alone. JSON lines (``.jsonl``, ``.ndjson``, ``.json``), CSV (a
header row; an empty cell is an absent value) and Parquet (``.parquet``, read by pandas
with pyarrow) are read; every problem is a :class:`~quotelocate.errors.QuoteInputError`
naming the file and the line (for CSV, the line the record starts on; for Parquet, the
row, counted from 1).

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

import csv
import io
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..chunks import Chunking
from ..document import Document
from ..errors import DatasetError, QuoteInputError, QuotelocateError
from ..jsonl import iter_jsonl, read_utf8
from .papers import Paper, TextPin, papers_search_path
from .quoteset import LABELS, UNREVIEWED, Anchor, Quote, multi_quote_set_yaml, set_outline

MAX_OUTPUTS_BYTES = 256 * 1024 * 1024
"""Largest outputs file read."""

_ID = re.compile(r"[A-Za-z0-9._-]+\Z")

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


@dataclass(frozen=True)
class OutputRecord:
    """One quote a pipeline wrote: ``paper`` file name, ``quote``, ``cited_chunk`` (None:
    none cited), ``label`` (None: nobody checked it), ``id`` ("" when none) and ``line``
    (the file line, or the Parquet row from 1)."""

    paper: str
    quote: str
    cited_chunk: int | None = None
    label: str | None = None
    id: str = ""
    line: int = 0


def _record(values: Mapping[str, Any], where: str, line: int, *, from_text: bool) -> OutputRecord:
    """A checked record from one JSON object, CSV row (``from_text``) or Parquet row."""
    def absent(v: Any) -> bool:
        return v is None or (from_text and v == "") or (isinstance(v, float) and v != v)

    paper = values.get("paper")
    if absent(paper) or not isinstance(paper, str):
        raise QuoteInputError(f"{where}'paper' is required: the file name of the paper quoted")
    if Path(paper).name != paper or paper in (".", "..") or "\\" in paper:
        raise QuoteInputError(f"{where}'paper' must be a bare file name, not a path: {paper!r}")
    quote = values.get("quote")
    if not isinstance(quote, str):
        raise QuoteInputError(f"{where}'quote' must be a string")
    chunk = values.get("cited_chunk")
    if absent(chunk):
        chunk = None
    elif from_text and isinstance(chunk, str):
        if not (chunk.strip().isascii() and chunk.strip().isdigit()):
            raise QuoteInputError(f"{where}'cited_chunk' must be a whole number from 0, not {chunk!r}")
        chunk = int(chunk.strip())
    elif isinstance(chunk, float) and chunk.is_integer():  # Parquet keeps a column with gaps as floats
        chunk = int(chunk)
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 0):
        raise QuoteInputError(f"{where}'cited_chunk' must be a whole number from 0, not {chunk!r}")
    label = values.get("label")
    if absent(label):
        label = None
    elif label not in LABELS:
        raise QuoteInputError(f"{where}'label' must be one of {', '.join(LABELS)} or absent, not {label!r}")
    rid = values.get("id")
    if absent(rid):
        rid = ""
    elif isinstance(rid, int) and not isinstance(rid, bool):
        rid = str(rid)
    if not isinstance(rid, str) or (rid and not _ID.match(rid)):
        raise QuoteInputError(f"{where}'id' must be letters, digits, '.', '_' or '-', not {rid!r}")
    return OutputRecord(paper=paper, quote=quote, cited_chunk=chunk, label=label, id=rid, line=line)


def _read_jsonl(path: Path) -> list[OutputRecord]:
    out = []
    for lineno, obj, problem in iter_jsonl(path, error=QuoteInputError):
        if problem:
            raise QuoteInputError(problem)
        assert obj is not None
        out.append(_record(obj, f"{path}: line {lineno}: ", lineno, from_text=False))
    return out


def _read_csv(path: Path) -> list[OutputRecord]:
    text = read_utf8(path, error=QuoteInputError, what="outputs file", limit=MAX_OUTPUTS_BYTES)
    if text.startswith("\ufeff"):
        text = text[1:]
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    out: list[OutputRecord] = []
    names: list[str] = []
    start = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise QuoteInputError(f"{path}: line {start}: not valid CSV ({exc})") from None
        where = f"{path}: line {start}: "
        line, start = start, reader.line_num + 1
        if not names:
            names = [h.strip() for h in row]
            missing = [f for f in ("paper", "quote") if f not in names]
            if missing:
                raise QuoteInputError(f"{where}the header has no {' or '.join(map(repr, missing))} column")
            continue
        if not row or all(not cell.strip() for cell in row):
            continue
        if len(row) != len(names):
            raise QuoteInputError(f"{where}{len(row)} cells, but the header names {len(names)} columns")
        out.append(_record(dict(zip(names, row)), where, line, from_text=True))
    return out


def _read_parquet(path: Path) -> list[OutputRecord]:
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas comes with the eval extra
        raise QuoteInputError(f"{path}: reading Parquet needs pandas and pyarrow: pip install 'quotelocate[eval]' pyarrow") from None
    try:
        frame = pd.read_parquet(path)
    except ImportError:
        raise QuoteInputError(f"{path}: reading Parquet needs pyarrow: pip install pyarrow") from None
    except FileNotFoundError:
        raise QuoteInputError(f"{path}: no such outputs file") from None
    except Exception as exc:  # noqa: BLE001 - pyarrow raises its own types for a damaged file
        raise QuoteInputError(f"{path}: not a readable Parquet file ({type(exc).__name__}: {exc})") from None
    missing = [f for f in ("paper", "quote") if f not in frame.columns]
    if missing:
        raise QuoteInputError(f"{path}: no {' or '.join(map(repr, missing))} column")
    out = []
    for i, row in enumerate(frame.to_dict("records"), start=1):
        values = {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
        out.append(_record(values, f"{path}: row {i}: ", i, from_text=False))
    return out


def read_outputs(path: str | os.PathLike) -> list[OutputRecord]:
    """The records of a pipeline's outputs file, in file order (see the module docstring).
    Raises :class:`QuoteInputError` naming the file and line of the first problem."""
    p = Path(path)
    suffix = p.suffix.lower()
    if p.is_file() and p.stat().st_size > MAX_OUTPUTS_BYTES:
        raise QuoteInputError(f"{p}: {p.stat().st_size} bytes exceeds the limit of {MAX_OUTPUTS_BYTES} for an outputs file")
    if suffix == ".parquet":
        records = _read_parquet(p)
    elif suffix == ".csv":
        records = _read_csv(p)
    elif suffix in (".jsonl", ".ndjson", ".json"):
        records = _read_jsonl(p)
    else:
        raise QuoteInputError(f"{p}: unknown outputs format; name it .jsonl, .csv or .parquet")
    if not records:
        raise QuoteInputError(f"{p}: no records")
    seen: dict[str, int] = {}
    for r in records:
        if r.id:
            if r.id in seen:
                raise QuoteInputError(f"{p}: line {r.line}: id {r.id!r} is used again (first on line {seen[r.id]})")
            seen[r.id] = r.line
    return records


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
