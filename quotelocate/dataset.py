"""Quote sets: labelled quotes pinned to one version of one paper (``datasets/*.yaml``).

:func:`load_quote_set` reads a set (a bundled name such as ``attention-v7`` or a path),
validates it strictly against the format in ``datasets/README.md``, finds the pinned
paper on the papers search path, checks the pin, opens the paper once and verifies
every anchor. It either returns a complete :class:`QuoteSet` or raises
:class:`~quotelocate.errors.DatasetError`; nothing is ever half-loaded. Every error
names the file, the line, the quote id and the field.

Safety: the file is decoded as strict UTF-8; the YAML event stream is scanned before
anything is constructed, and tags (``!!python/object``, any ``!tag``), anchors, aliases,
merge keys and duplicate keys are refused, so a YAML bomb fails at its first alias;
only then is the file read with ``yaml.safe_load``. Values that YAML 1.1 coerces
(``no``, ``on``, ``2017-12-06``, ``1.0``) are refused where a string is expected and as
keys, and lone surrogates are refused everywhere (an escaped pair such as
``"\\ud83d\\ude00"`` is read as the one character it encodes). Errors on bytes and
characters name the line and column.

:func:`fetch` downloads a set's paper into the user cache, atomically, and checks its pin.

>>> from quotelocate.document import Document
>>> doc = Document.from_text("The dominant sequence transduction models are based on RNNs.")
>>> qs = QuoteSet.from_quotes(
...     [Quote(id="q1", text="dominant sequence transduction", label="faithful", tags=("plain",),
...            anchor=Anchor(page=1, start=4, end=34, text="dominant sequence transduction"))],
...     document=doc)
>>> qs.name, len(qs), qs.quotes[0].faithful
('adhoc', 1, True)
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import tempfile
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import yaml

from . import paths
from .chunks import Chunk, Chunking, load_chunks_file, make_chunks
from .document import Document
from .errors import ChunkError, ConfigError, DatasetError, DocumentError, FetchError, PaperNotFoundError

FORMAT_VERSION = 1

BUNDLED_SETS: dict[str, str] = {
    "synthetic": "synthetic/synthetic.yaml",
    "attention-v7": "attention-v7.yaml",
    "attention-v5": "attention-v5.yaml",
}
"""Bundled set names and their files, relative to ``datasets/``."""

LABELS = ("faithful", "fabricated")

FAITHFUL_TAGS = (
    "plain", "linebreak", "ligature", "hyphen-keep", "hyphen-drop", "page-number",
    "page-break", "chunk-boundary", "neighbour-chunk", "smart-quote", "nfkc",
    "float-interleave", "footnote", "caption", "running-header", "margin-stamp",
    "two-column", "table", "column-break", "float", "spacing-accent", "glued-marker",
    "math-spacing", "suspended-hyphen", "drop-cap", "soft-hyphen", "dash-glyph",
    "rotated-page",
)  # fmt: skip
"""Artifact classes a faithful quote can exercise (``plain`` when there is none)."""

FABRICATED_TAGS = (
    "number", "case", "negation", "marker-dropped", "splice", "paraphrase", "word-swap",
    "word-missing", "word-added", "version-drift", "trivial", "lookalike",
    "invented-tail", "punctuation", "outside-material", "cross-flow", "cross-column",
    "partial-word", "dropped-exponent", "other-paper",
)  # fmt: skip
"""How a fabricated quote was made."""

MAX_SET_BYTES = 32 * 1024 * 1024
MAX_DEPTH = 16
MAX_FETCH_BYTES = 256 * 1024 * 1024

_NAME = re.compile(r"[a-z0-9-]+\Z")
_ID = re.compile(r"[A-Za-z0-9._-]+\Z")
_HEX64 = re.compile(r"[0-9a-fA-F]{64}\Z")
_SURROGATE = re.compile("[\ud800-\udfff]")

_TOP_KEYS = {"format", "name", "description", "paper", "chunking", "quotes"}
_PAPER_KEYS = {"file", "sha256", "url", "version", "text"}
_TEXT_KEYS = {"extractor", "extractor_version", "flags", "sha256"}
_CHUNKING_KEYS = {"size", "overlap", "group_size", "file"}
_QUOTE_KEYS = {"id", "text", "label", "tags", "cited_chunk", "anchor", "allow", "note"}
_ANCHOR_KEYS = {"page", "start", "end", "text"}
_ALLOW_KEYS = {"spans", "readings"}
_SPAN_KEYS = {"start", "end", "kind"}

SKIP_KINDS = ("float", "furniture", "footnote", "marker", "body")
"""Kinds of document text a faithful quote leaves out (:attr:`Allowance.spans`); ``body``
is main text a footnote or caption quote skips where the note continues in the next column."""
SPAN_KINDS = SKIP_KINDS + ("dash", "drop-cap")
"""Every span kind: the skipped ones, ``dash`` (a dash the extraction wrote as another
character) and ``drop-cap`` (a drop-cap letter, the line break after it and the rest of
its word, set in capitals: ``I⏎N`` read as "In")."""
READINGS = ("spacing-accent", "suspended-hyphen", "math-spacing")
"""Readings a faithful quote may rely on anywhere in its anchor (:attr:`Allowance.readings`)."""


# ---------------------------------------------------------------------------------------
# The data


@dataclass(frozen=True)
class Anchor:
    """Where a faithful quote is: ``text[start:end]`` of the document, starting on 1-based ``page``."""

    page: int = 1
    start: int = 0
    end: int = 0
    text: str = ""


@dataclass(frozen=True)
class AllowSpan:
    """A span ``[start, end)`` of the document text inside a faithful quote's anchor that
    the quote does not copy verbatim: ``kind`` is one of :data:`SPAN_KINDS`."""

    start: int = 0
    end: int = 0
    kind: str = "float"


@dataclass(frozen=True)
class Allowance:
    """What an independent label check may allow beyond whitespace, line-end hyphens,
    ligature glyphs and quote marks: ``spans`` the quote leaves out (floats, furniture,
    footnotes, glued markers) or reads as a dash, and ``readings`` (see :data:`READINGS`).
    The locator does not read it; it documents the label."""

    spans: tuple[AllowSpan, ...] = ()
    readings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Quote:
    """One labelled quote.

    id: unique in its set; text: what the model wrote; label: ``faithful`` or
    ``fabricated``; tags: artifact or fabrication classes; cited_chunk: the chunk the
    model cited (None: document scope); anchor: ground truth of a faithful quote
    (None for fabricated ones); allow: what an independent check of the label may
    allow (faithful quotes only; None when nothing beyond the basic readings); note: why
    it is labelled so.
    """

    id: str = ""
    text: str = ""
    label: str = "faithful"
    tags: tuple[str, ...] = ()
    cited_chunk: int | None = None
    anchor: Anchor | None = None
    note: str = ""
    allow: Allowance | None = None

    @property
    def faithful(self) -> bool:
        return self.label == "faithful"


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
    free-text ``version`` and the text fingerprint (None when the set has none)."""

    file: str = ""
    sha256: str = ""
    url: str = ""
    version: str = ""
    text: TextPin | None = None


@dataclass(frozen=True, eq=False)
class QuoteSet:
    """A validated quote set with its paper open and every anchor verified.

    name: set name; quotes: the quotes in file order; paper: the pin; description;
    path: the YAML file (None when built in memory); set_hash: sha256 of the file bytes
    (of a canonical JSON form for in-memory sets); chunking: how the cited chunks were
    cut; chunk_file: explicit chunks, when the set names a file; paper_path: the file
    the paper was read from; warnings: accepted deviations (a re-saved PDF with the
    same text, another extractor version).

    Build with :func:`load_quote_set` or :meth:`from_quotes`.
    """

    name: str = "adhoc"
    quotes: tuple[Quote, ...] = ()
    paper: Paper = field(default_factory=Paper)
    description: str = ""
    path: Path | None = None
    set_hash: str = ""
    chunking: Chunking = field(default_factory=Chunking)
    chunk_file: Path | None = None
    paper_path: Path | None = None
    warnings: tuple[str, ...] = ()
    _document: Document | None = field(default=None, repr=False)
    _chunks: tuple[Chunk, ...] = field(default=(), repr=False)

    # -- construction ------------------------------------------------------------------
    @classmethod
    def from_quotes(
        cls,
        quotes: Sequence[Quote],
        *,
        document: Document,
        name: str = "adhoc",
        description: str = "",
        chunking: Chunking | None = None,
        chunks: Sequence[Chunk] | None = None,
    ) -> "QuoteSet":
        """An in-memory set over an already open document; quotes are validated and
        anchors verified exactly as :func:`load_quote_set` does."""
        source = f"<quote set {name}>"
        chunking = chunking or Chunking()
        all_chunks = tuple(chunks) if chunks is not None else make_chunks(document.text, chunking)
        seen: set[str] = set()
        for i, q in enumerate(quotes):
            if not isinstance(q, Quote):
                raise DatasetError(f"{source}: quotes[{i}]: expected a Quote, got {type(q).__name__}")
            if not isinstance(q.id, str) or not _ID.match(q.id):
                raise DatasetError(f"{source}: quotes[{i}]: field 'id': {q.id!r} must match [A-Za-z0-9._-]+")
            if q.id in seen:
                raise DatasetError(f"{source}: quote {q.id!r}: field 'id': duplicate id")
            seen.add(q.id)
            _check_quote_fields(q, source, i)
        _verify_anchors(quotes, document, all_chunks, source, lines={})
        fp = document.text_fingerprint
        paper = Paper(
            file=os.path.basename(document.name),
            sha256=document.sha256,
            text=TextPin(str(fp["extractor"]), str(fp["extractor_version"]), int(fp["flags"] or 0), fp["sha256"]),
        )
        payload = json.dumps(
            {
                "name": name,
                "paper": document.sha256,
                "quotes": [_quote_to_dict(q) for q in quotes],
                "chunks": [(c.index, c.start, c.end) for c in all_chunks],
            },
            sort_keys=True,
            ensure_ascii=False,
        )
        return cls(
            name=name,
            quotes=tuple(quotes),
            paper=paper,
            description=description,
            set_hash=hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest(),
            chunking=chunking,
            warnings=tuple(document.warnings),
            _document=document,
            _chunks=all_chunks,
        )

    # -- queries -----------------------------------------------------------------------
    def document(self) -> Document:
        """The paper, opened once at load time."""
        if self._document is None:
            raise DatasetError(f"{self.path or self.name}: quote set has no document; load it with load_quote_set")
        return self._document

    @property
    def chunks(self) -> tuple[Chunk, ...]:
        """The retrieval chunks cited quotes refer to (explicit or cut by :attr:`chunking`)."""
        return self._chunks

    @property
    def explicit_chunks(self) -> tuple[Chunk, ...] | None:
        """The chunks read from the set's chunk file, or None when they are cut by size."""
        return self._chunks if self.chunk_file is not None else None

    @property
    def faithful(self) -> tuple[Quote, ...]:
        return tuple(q for q in self.quotes if q.faithful)

    @property
    def fabricated(self) -> tuple[Quote, ...]:
        return tuple(q for q in self.quotes if not q.faithful)

    def by_id(self, quote_id: str) -> Quote:
        for q in self.quotes:
            if q.id == quote_id:
                return q
        raise KeyError(quote_id)

    def __len__(self) -> int:
        return len(self.quotes)

    def __iter__(self) -> Iterator[Quote]:
        return iter(self.quotes)

    def describe(self) -> dict:
        """Provenance for evaluations and reports."""
        doc = self.document()
        return {
            "name": self.name,
            "path": str(self.path) if self.path else None,
            "set_hash": self.set_hash,
            "quotes": len(self.quotes),
            "faithful": len(self.faithful),
            "fabricated": len(self.fabricated),
            "paper": self.paper.file,
            "paper_sha256": doc.sha256,
            "text_sha256": doc.text_sha256,
            "warnings": list(self.warnings),
        }


# ---------------------------------------------------------------------------------------
# Resolution of names and the papers search path


def resolve_set_path(path_or_name: str | os.PathLike) -> Path:
    """The YAML file of a bundled set name, or the path as given.

    A string with ``/``, a path separator or ``..``, or ending in ``.yaml``/``.yml`` is a
    path; anything else must be a bundled set name (``[a-z0-9-]+``) and must resolve to
    a file inside the datasets folder.
    """
    if isinstance(path_or_name, os.PathLike):
        return Path(path_or_name)
    if not isinstance(path_or_name, str) or not path_or_name:
        raise DatasetError(f"quote set: expected a set name or a path, got {path_or_name!r}")
    s = path_or_name
    if "/" in s or os.sep in s or (os.altsep and os.altsep in s) or ".." in s or s.endswith((".yaml", ".yml")):
        return Path(s)
    if not _NAME.match(s):
        raise DatasetError(
            f"{s!r}: not a bundled quote set name ({', '.join(BUNDLED_SETS)}) and not a path to a .yaml file"
        )
    root = paths.DATASETS_DIR.resolve()
    rel = BUNDLED_SETS.get(s, f"{s}.yaml")
    candidate = paths.DATASETS_DIR / rel
    resolved = candidate.resolve()
    if not resolved.is_relative_to(root):
        raise DatasetError(f"{s!r}: the set name resolves to {resolved}, outside the datasets folder {root}")
    if not resolved.is_file():
        known = ", ".join(BUNDLED_SETS)
        raise DatasetError(f"{candidate}: no such quote set (bundled sets: {known}; give a path to load another)")
    return candidate


def papers_search_path(papers_path: str | os.PathLike | Sequence[str | os.PathLike] | None = None) -> list[Path]:
    """Folders searched for a pinned paper, in order.

    ``papers_path`` (folders, or one string with ``os.pathsep`` separators) replaces
    ``$QUOTELOCATE_PAPERS``; ``datasets/papers/`` and the user cache always follow. Each
    folder is followed by its ``corpus/`` subfolder.
    """
    if papers_path is None:
        return paths.papers_search_path()
    if isinstance(papers_path, (str, os.PathLike)):
        folders = [Path(p) for p in os.fspath(papers_path).split(os.pathsep) if p]
    else:
        folders = [Path(p) for p in papers_path]
    return paths.with_corpus(folders + [paths.DATASETS_DIR / "papers", paths.cache_dir()])


def _format_search_path(folders: Sequence[Path]) -> str:
    return os.pathsep.join(str(f) for f in folders)


@dataclass(frozen=True)
class _Resolved:
    path: Path
    document: Document
    warnings: tuple[str, ...]


def _check_pin(paper: Paper, doc: Document, where: str) -> tuple[str, ...] | str:
    """Warnings when ``doc`` satisfies the pin, else the reason it does not."""
    warnings: list[str] = list(doc.warnings)
    fp = doc.text_fingerprint
    if doc.sha256.lower() == paper.sha256.lower():
        if paper.text is not None and fp["sha256"] != paper.text.sha256:
            warnings.append(
                f"{where}: bytes match the pin but the extracted text differs from the pinned text "
                f"fingerprint ({fp['extractor']} {fp['extractor_version']} vs {paper.text.extractor} "
                f"{paper.text.extractor_version}); every anchor was re-verified"
            )
        return tuple(warnings)
    if paper.text is None:
        return f"expected sha256 {paper.sha256}, found {doc.sha256} (the set pins no text fingerprint)"
    same_text = (
        fp["sha256"] == paper.text.sha256
        and fp["extractor"] == paper.text.extractor
        and fp["flags"] == paper.text.flags
    )
    if not same_text:
        return (
            f"expected sha256 {paper.sha256}, found {doc.sha256}; expected text sha256 "
            f"{paper.text.sha256} ({paper.text.extractor} {paper.text.extractor_version}, flags "
            f"{paper.text.flags}), found {fp['sha256']} ({fp['extractor']} {fp['extractor_version']}, "
            f"flags {fp['flags']})"
        )
    note = ""
    if str(fp["extractor_version"]) != paper.text.extractor_version:
        note = f"; extractor version {fp['extractor_version']} instead of {paper.text.extractor_version}"
    warnings.append(
        f"{where}: sha256 {doc.sha256} differs from the pinned {paper.sha256}, but the extracted "
        f"text is identical (text sha256 {fp['sha256']}{note}); accepted"
    )
    return tuple(warnings)


def _resolve(paper: Paper, folders: Sequence[Path], *, set_name: str, source: str) -> _Resolved:
    candidates: list[Path] = []
    for folder in folders:
        p = folder / paper.file
        if p.is_file() and p not in candidates:
            candidates.append(p)
    if not candidates:
        raise PaperNotFoundError(
            f"{source}: paper {paper.file!r} is not on the papers search path "
            f"({_format_search_path(folders) or 'empty'}); run `quotelocate fetch {set_name}` "
            "or set QUOTELOCATE_PAPERS to the folder that holds it"
        )
    # bytes that match the pin win wherever they are on the path
    for p in candidates:
        if _sha256_file(p) == paper.sha256.lower():
            doc = _open(p, source)
            pin = _check_pin(paper, doc, str(p))
            assert not isinstance(pin, str)
            return _Resolved(p, doc, pin)
    refusals = []
    for p in candidates:
        doc = _open(p, source)
        pin = _check_pin(paper, doc, str(p))
        if not isinstance(pin, str):
            return _Resolved(p, doc, pin)
        refusals.append(f"{p}: {pin}")
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
    return _resolve(paper, papers_search_path(papers_path), set_name=set_name, source=paper.file).path


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _open(path: Path, source: str) -> Document:
    try:
        return Document.open(path)
    except DocumentError as exc:
        raise DatasetError(f"{source}: paper: {exc}") from None


# ---------------------------------------------------------------------------------------
# Reading and validating the YAML


def _line_of(data: bytes, pos: int) -> int:
    return data[:pos].count(b"\n") + 1


_RESOLVER = yaml.resolver.Resolver()
_STR_TAG = "tag:yaml.org,2002:str"


def _scan_events(text: str, source: str) -> dict[tuple, int]:
    """Refuse tags, anchors, aliases, merge keys, duplicate and complex keys and deep
    nesting by scanning the event stream (nothing is constructed); return the 1-based
    line of every node, keyed by its path. Errors name the line, the quote and the field."""
    lines: dict[tuple, int] = {}
    ids: dict[int, str] = {}  # quotes[i] -> its id, once seen
    # frames: [kind, path, keys, current key, next index]
    stack: list[list[Any]] = []
    documents = 0

    def fail(path: tuple, line: int, message: str) -> DatasetError:
        qid = ids.get(path[1]) if len(path) >= 2 and path[0] == "quotes" and isinstance(path[1], int) else None
        return _Validator(source, {path: line}).fail(path, message, quote_id=qid)

    def advance() -> None:
        if stack:
            top = stack[-1]
            if top[0] == "map":
                top[3] = None
            else:
                top[4] += 1

    try:
        for ev in yaml.parse(text, Loader=yaml.SafeLoader):
            line = ev.start_mark.line + 1 if ev.start_mark is not None else 0
            if isinstance(ev, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise DatasetError(f"{source}: line {line}: more than one YAML document in the file")
                continue
            if isinstance(ev, yaml.CollectionEndEvent):
                stack.pop()
                advance()
                continue
            if not isinstance(ev, yaml.NodeEvent):
                continue
            top = stack[-1] if stack else None
            is_key = top is not None and top[0] == "map" and top[3] is None
            if top is None:
                path: tuple = ()
            elif is_key:
                path = top[1] + (ev.value if isinstance(ev, yaml.ScalarEvent) else "?",)
            elif top[0] == "map":
                path = top[1] + (top[3],)
            else:
                path = top[1] + (top[4],)
            if isinstance(ev, yaml.AliasEvent):
                raise fail(path, line, f"YAML aliases (*{ev.anchor}) are not allowed in a quote set")
            if ev.anchor is not None:
                raise fail(path, line, f"YAML anchors (&{ev.anchor}) are not allowed in a quote set")
            tag = getattr(ev, "tag", None)
            if tag is not None:
                shown = tag.replace("tag:yaml.org,2002:", "!!")
                raise fail(path, line, f"YAML tags ({shown}) are not allowed in a quote set")
            if is_key:
                assert top is not None
                if not isinstance(ev, yaml.ScalarEvent):
                    raise fail(top[1], line, "a mapping key must be a plain string")
                if ev.value == "<<" and ev.style is None:
                    raise fail(top[1], line, "YAML merge keys (<<) are not allowed")
                if ev.style is None and _RESOLVER.resolve(yaml.ScalarNode, ev.value, (True, False)) != _STR_TAG:
                    raise fail(
                        top[1], line,
                        f"key {ev.value!r} is not read as a string by YAML 1.1 (yes/no/on/off, numbers and "
                        "dates are coerced); quote it",
                    )
                if ev.value in top[2]:
                    raise fail(path, line, f"duplicate key {ev.value!r}")
                top[2].add(ev.value)
                top[3] = ev.value
                lines[path + ("__key__",)] = line
                continue
            lines[path] = line
            if isinstance(ev, yaml.ScalarEvent):
                if len(path) == 3 and path[0] == "quotes" and path[2] == "id" and isinstance(path[1], int):
                    ids[path[1]] = ev.value
                advance()
            else:
                if len(stack) >= MAX_DEPTH:
                    raise fail(path, line, f"nested more than {MAX_DEPTH} levels deep")
                kind = "map" if isinstance(ev, yaml.MappingStartEvent) else "seq"
                stack.append([kind, path, set(), None, 0])
    except yaml.reader.ReaderError as exc:  # a character YAML forbids (control characters, U+FFFE…)
        line = text.count("\n", 0, exc.position) + 1
        column = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise DatasetError(
            f"{source}: line {line}, column {column}: not valid YAML (character U+{exc.character:04X} is not allowed)"
            if isinstance(exc.character, int)
            else f"{source}: line {line}, column {column}: not valid YAML ({exc.reason})"
        ) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DatasetError(f"{source}: {where}not valid YAML ({problem})") from None
    return lines


def _dotted(path: tuple) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


class _Validator:
    """Builds the typed objects from the loaded YAML, failing with file, line, quote and field."""

    def __init__(self, source: str, lines: Mapping[tuple, int]) -> None:
        self.source = source
        self.lines = lines

    def fail(self, path: tuple, message: str, *, quote_id: str | None = None) -> DatasetError:
        line = None
        p = path
        while True:  # the line of the field, else of the nearest enclosing node (the root too)
            if p in self.lines:
                line = self.lines[p]
                break
            if not p:
                break
            p = p[:-1]
        head = f"{self.source}: line {line}" if line else self.source
        parts = [head]
        if len(path) >= 2 and path[0] == "quotes" and isinstance(path[1], int):
            label = f"quote {quote_id!r}" if quote_id else "quote"
            parts.append(f"{label} (quotes[{path[1]}])")
            rest = path[2:]
            if rest:
                parts.append(f"field {_dotted(rest)!r}")
        elif path:
            parts.append(f"field {_dotted(path)!r}")
        return DatasetError(": ".join(parts + [message]))

    # -- typed getters -------------------------------------------------------------------
    def mapping(self, value: Any, path: tuple, keys: set[str], *, required: Sequence[str], quote_id: str | None = None) -> dict:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected a mapping, got {_kind(value)}", quote_id=quote_id)
        for key in value:
            if not isinstance(key, str):
                raise self.fail(path, f"key {key!r} is not a string (YAML 1.1 coerced it; quote it)", quote_id=quote_id)
        unknown = sorted(set(value) - keys)
        if unknown:
            raise self.fail(
                path + (unknown[0],),
                f"unknown field (allowed: {', '.join(sorted(keys))})",
                quote_id=quote_id,
            )
        for key in required:
            if key not in value:
                raise self.fail(path + (key,), "missing required field", quote_id=quote_id)
        return value

    def string(
        self,
        value: Any,
        path: tuple,
        *,
        quote_id: str | None = None,
        pattern: re.Pattern | None = None,
        allow_empty: bool = False,
        what: str = "",
    ) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"expected a string, got {_kind(value)}{_coercion_hint(value)}", quote_id=quote_id)
        if not allow_empty and not value.strip():
            raise self.fail(path, "must not be empty", quote_id=quote_id)
        m = _SURROGATE.search(value)
        if m:
            raise self.fail(
                path, f"contains a lone surrogate U+{ord(m.group()):04X} at index {m.start()}", quote_id=quote_id
            )
        if "\x00" in value:
            raise self.fail(path, "contains a NUL character", quote_id=quote_id)
        if pattern is not None and not pattern.match(value):
            raise self.fail(path, f"{value!r} is not {what or 'valid'}", quote_id=quote_id)
        return value

    def integer(self, value: Any, path: tuple, *, minimum: int = 0, quote_id: str | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(path, f"expected a whole number, got {_kind(value)}", quote_id=quote_id)
        if value < minimum:
            raise self.fail(path, f"must be >= {minimum}, got {value}", quote_id=quote_id)
        return value


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, (_dt.date, _dt.datetime)):
        return f"a date ({value.isoformat()})"
    if isinstance(value, (int, float)):
        return f"number {value!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"string {value!r}"
    return type(value).__name__


def _coercion_hint(value: Any) -> str:
    if isinstance(value, bool):
        return " (YAML 1.1 reads unquoted yes/no/on/off/true/false as booleans; quote the value)"
    if isinstance(value, (_dt.date, _dt.datetime)):
        return " (YAML reads unquoted dates as dates; quote the value)"
    if isinstance(value, (int, float)):
        return " (YAML reads unquoted numbers as numbers; quote the value)"
    return ""


def _walk_strings(value: Any, path: tuple) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(k, str):
                yield path + (k, "__key__"), k
            yield from _walk_strings(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _walk_strings(v, path + (i,))


@dataclass(frozen=True)
class _Spec:
    """A validated set before its paper is opened."""

    source: str
    path: Path
    data: bytes
    name: str
    description: str
    paper: Paper
    chunking: Chunking
    chunk_file: Path | None
    quotes: tuple[Quote, ...]
    lines: Mapping[tuple, int]


def _read_spec(path_or_name: str | os.PathLike) -> _Spec:
    path = resolve_set_path(path_or_name)
    source = str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DatasetError(f"{source}: no such quote set file") from None
    except OSError as exc:
        raise DatasetError(f"{source}: cannot read ({exc.strerror})") from None
    if path.is_dir():
        raise DatasetError(f"{source}: is a directory, not a quote set file")
    if size > MAX_SET_BYTES:
        raise DatasetError(f"{source}: {size} bytes exceeds the limit of {MAX_SET_BYTES} for a quote set")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DatasetError(f"{source}: cannot read ({exc.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DatasetError(
            f"{source}: line {_line_of(data, exc.start)}, column {column}: not valid UTF-8 "
            f"(byte {data[exc.start]:#04x} at offset {exc.start}; {exc.reason})"
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _scan_events(text, source)
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:  # the scan already parsed it; constructor errors remain
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise DatasetError(f"{source}: {where}not a valid quote set ({getattr(exc, 'problem', exc)})") from None
    v = _Validator(source, lines)
    if raw is None:
        raise DatasetError(f"{source}: the file is empty")
    raw = _join_surrogate_pairs(raw)
    for spath, s in _walk_strings(raw, ()):
        m = _SURROGATE.search(s)
        if m:
            shown = spath[:-1] if spath and spath[-1] == "__key__" else spath
            qid = _quote_id_at(raw, shown)
            raise v.fail(shown, f"contains a lone surrogate U+{ord(m.group()):04X} at index {m.start()}", quote_id=qid)
    top = v.mapping(raw, (), _TOP_KEYS, required=("format", "name", "paper", "quotes"))
    fmt = top["format"]
    if isinstance(fmt, bool) or not isinstance(fmt, int):
        raise v.fail(("format",), f"expected the integer {FORMAT_VERSION}, got {_kind(fmt)}")
    if fmt != FORMAT_VERSION:
        raise v.fail(("format",), f"unsupported format {fmt}; this version of quotelocate reads format {FORMAT_VERSION}")
    name = v.string(top["name"], ("name",), pattern=_NAME, what="a set name ([a-z0-9-]+)")
    description = ""
    if top.get("description") is not None:
        description = v.string(top["description"], ("description",), allow_empty=True)
    paper = _read_paper(v, top["paper"])
    chunking, chunk_file = _read_chunking(v, top.get("chunking"), path)
    quotes = _read_quotes(v, top["quotes"])
    return _Spec(
        source=source,
        path=path,
        data=data,
        name=name,
        description=description,
        paper=paper,
        chunking=chunking,
        chunk_file=chunk_file,
        quotes=quotes,
        lines=lines,
    )


_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")


def _join_surrogate_pairs(value: Any) -> Any:
    """JSON-style escapes of a character outside the BMP (``"\\ud83d\\ude00"``) as the
    one character they encode; a surrogate without its partner stays, to be refused."""
    if isinstance(value, str):
        if not _SURROGATE.search(value):
            return value
        return _PAIR.sub(lambda m: m.group().encode("utf-16-le", "surrogatepass").decode("utf-16-le"), value)
    if isinstance(value, dict):
        return {_join_surrogate_pairs(k): _join_surrogate_pairs(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_join_surrogate_pairs(v) for v in value]
    return value


def _quote_id_at(raw: Any, path: tuple) -> str | None:
    if len(path) >= 2 and path[0] == "quotes" and isinstance(raw, dict):
        quotes = raw.get("quotes")
        if isinstance(quotes, list) and isinstance(path[1], int) and path[1] < len(quotes):
            q = quotes[path[1]]
            if isinstance(q, dict) and isinstance(q.get("id"), str) and not _SURROGATE.search(q["id"]):
                return q["id"]
    return None


def _read_paper(v: _Validator, value: Any) -> Paper:
    p = v.mapping(value, ("paper",), _PAPER_KEYS, required=("file", "sha256"))
    file = v.string(p["file"], ("paper", "file"))
    if Path(file).name != file or file in (".", "..") or "\\" in file:
        raise v.fail(("paper", "file"), f"{file!r} must be a bare file name (no folders)")
    sha = v.string(p["sha256"], ("paper", "sha256"), pattern=_HEX64, what="a sha256 (64 hex digits)").lower()
    url = ""
    if p.get("url") is not None:
        url = v.string(p["url"], ("paper", "url"))
        if urllib.parse.urlsplit(url).scheme not in ("http", "https", "file"):
            raise v.fail(("paper", "url"), f"{url!r} is not an http(s) or file: URL")
    version = v.string(p["version"], ("paper", "version")) if p.get("version") is not None else ""
    text = None
    if p.get("text") is not None:
        t = v.mapping(p["text"], ("paper", "text"), _TEXT_KEYS, required=tuple(sorted(_TEXT_KEYS)))
        text = TextPin(
            extractor=v.string(t["extractor"], ("paper", "text", "extractor")),
            extractor_version=v.string(t["extractor_version"], ("paper", "text", "extractor_version")),
            flags=v.integer(t["flags"], ("paper", "text", "flags")),
            sha256=v.string(
                t["sha256"], ("paper", "text", "sha256"), pattern=_HEX64, what="a sha256 (64 hex digits)"
            ).lower(),
        )
    return Paper(file=file, sha256=sha, url=url, version=version, text=text)


def _read_chunking(v: _Validator, value: Any, set_path: Path) -> tuple[Chunking, Path | None]:
    if value is None:
        return Chunking(), None
    c = v.mapping(value, ("chunking",), _CHUNKING_KEYS, required=())
    ints = {k: v.integer(c[k], ("chunking", k)) for k in ("size", "overlap", "group_size") if k in c}
    chunk_file = None
    if "file" in c:
        if "size" in ints or "overlap" in ints:
            raise v.fail(("chunking", "file"), "give either explicit chunks (file) or size/overlap, not both")
        rel = v.string(c["file"], ("chunking", "file"))
        if os.path.isabs(rel) or rel.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", rel):
            raise v.fail(("chunking", "file"), f"{rel!r} must be a path relative to the set's folder")
        folder = set_path.parent.resolve()
        target = (folder / rel).resolve()
        if not target.is_relative_to(folder):
            raise v.fail(("chunking", "file"), f"{rel!r} leaves the set's folder {folder}")
        chunk_file = target
    try:
        return Chunking(**ints), chunk_file
    except ConfigError as exc:
        raise v.fail(("chunking",), str(exc)) from None


def _read_quotes(v: _Validator, value: Any) -> tuple[Quote, ...]:
    if not isinstance(value, list):
        raise v.fail(("quotes",), f"expected a list of quotes, got {_kind(value)}")
    if not value:
        raise v.fail(("quotes",), "the list of quotes is empty")
    out: list[Quote] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(value):
        path = ("quotes", i)
        qid_raw = item.get("id") if isinstance(item, dict) else None
        qid_hint = qid_raw if isinstance(qid_raw, str) else None
        q = v.mapping(item, path, _QUOTE_KEYS, required=("id",), quote_id=qid_hint)
        qid = v.string(q["id"], path + ("id",), pattern=_ID, what="an id ([A-Za-z0-9._-]+)")
        if qid in seen:
            first_line = v.lines.get(("quotes", seen[qid], "id"), "?")
            raise v.fail(path + ("id",), f"duplicate id (first used on line {first_line})", quote_id=qid)
        seen[qid] = i
        for key in ("text", "label", "tags"):
            if key not in q:
                raise v.fail(path + (key,), "missing required field", quote_id=qid)
        label = v.string(q["label"], path + ("label",), quote_id=qid)
        if label not in LABELS:
            raise v.fail(path + ("label",), f"{label!r} is not one of {', '.join(LABELS)}", quote_id=qid)
        # an empty or blank fabricated quote is a legitimate test of the `invalid` verdict
        text = v.string(q["text"], path + ("text",), quote_id=qid, allow_empty=label == "fabricated")
        tags_raw = q["tags"]
        if not isinstance(tags_raw, list):
            raise v.fail(path + ("tags",), f"expected a list of tags, got {_kind(tags_raw)}", quote_id=qid)
        if not tags_raw:
            raise v.fail(path + ("tags",), "at least one tag is required", quote_id=qid)
        allowed = FAITHFUL_TAGS if label == "faithful" else FABRICATED_TAGS
        tags: list[str] = []
        for j, t in enumerate(tags_raw):
            tag = v.string(t, path + ("tags", j), quote_id=qid)
            if tag not in allowed:
                raise v.fail(
                    path + ("tags", j),
                    f"unknown tag {tag!r} for a {label} quote (allowed: {', '.join(allowed)})",
                    quote_id=qid,
                )
            if tag in tags:
                raise v.fail(path + ("tags", j), f"tag {tag!r} is listed twice", quote_id=qid)
            tags.append(tag)
        cited = None
        if q.get("cited_chunk") is not None:
            cited = v.integer(q["cited_chunk"], path + ("cited_chunk",), quote_id=qid)
        note = v.string(q["note"], path + ("note",), quote_id=qid, allow_empty=True) if q.get("note") is not None else ""
        anchor = None
        if label == "faithful":
            if q.get("anchor") is None:
                raise v.fail(path + ("anchor",), "missing required field (every faithful quote has an anchor)", quote_id=qid)
            a = v.mapping(q["anchor"], path + ("anchor",), _ANCHOR_KEYS, required=("page", "start", "end", "text"), quote_id=qid)
            anchor = Anchor(
                page=v.integer(a["page"], path + ("anchor", "page"), minimum=1, quote_id=qid),
                start=v.integer(a["start"], path + ("anchor", "start"), quote_id=qid),
                end=v.integer(a["end"], path + ("anchor", "end"), quote_id=qid),
                text=v.string(a["text"], path + ("anchor", "text"), quote_id=qid),
            )
            if anchor.end <= anchor.start:
                raise v.fail(path + ("anchor", "end"), f"end {anchor.end} must be greater than start {anchor.start}", quote_id=qid)
        elif "anchor" in q:
            raise v.fail(path + ("anchor",), "a fabricated quote has no anchor", quote_id=qid)
        allow = None
        if q.get("allow") is not None:
            if anchor is None:
                raise v.fail(path + ("allow",), "only a faithful quote has allowances", quote_id=qid)
            allow = _read_allow(v, q["allow"], path + ("allow",), anchor, qid)
        out.append(
            Quote(id=qid, text=text, label=label, tags=tuple(tags), cited_chunk=cited, anchor=anchor, note=note, allow=allow)
        )
    return tuple(out)


def _read_allow(v: _Validator, value: Any, path: tuple, anchor: Anchor, qid: str) -> Allowance:
    a = v.mapping(value, path, _ALLOW_KEYS, required=(), quote_id=qid)
    spans: list[AllowSpan] = []
    raw_spans = a.get("spans", [])
    if not isinstance(raw_spans, list):
        raise v.fail(path + ("spans",), f"expected a list of spans, got {_kind(raw_spans)}", quote_id=qid)
    for j, item in enumerate(raw_spans):
        sp = path + ("spans", j)
        m = v.mapping(item, sp, _SPAN_KEYS, required=("start", "end", "kind"), quote_id=qid)
        start = v.integer(m["start"], sp + ("start",), quote_id=qid)
        end = v.integer(m["end"], sp + ("end",), quote_id=qid)
        kind = v.string(m["kind"], sp + ("kind",), quote_id=qid)
        if kind not in SPAN_KINDS:
            raise v.fail(sp + ("kind",), f"{kind!r} is not one of {', '.join(SPAN_KINDS)}", quote_id=qid)
        if not anchor.start <= start < end <= anchor.end:
            raise v.fail(
                sp, f"[{start}, {end}) must be a non-empty span inside the anchor [{anchor.start}, {anchor.end})", quote_id=qid
            )
        if spans and start < spans[-1].end:
            raise v.fail(sp + ("start",), f"{start} overlaps or precedes the previous span (spans go in text order)", quote_id=qid)
        spans.append(AllowSpan(start=start, end=end, kind=kind))
    readings: list[str] = []
    raw_readings = a.get("readings", [])
    if not isinstance(raw_readings, list):
        raise v.fail(path + ("readings",), f"expected a list of readings, got {_kind(raw_readings)}", quote_id=qid)
    for j, item in enumerate(raw_readings):
        r = v.string(item, path + ("readings", j), quote_id=qid)
        if r not in READINGS:
            raise v.fail(path + ("readings", j), f"{r!r} is not one of {', '.join(READINGS)}", quote_id=qid)
        if r in readings:
            raise v.fail(path + ("readings", j), f"reading {r!r} is listed twice", quote_id=qid)
        readings.append(r)
    return Allowance(spans=tuple(spans), readings=tuple(readings))


def _check_quote_fields(q: Quote, source: str, index: int) -> None:
    """The same checks as the YAML reader, for quotes built in code."""
    v = _Validator(source, {})
    path = ("quotes", index)
    v.string(q.text, path + ("text",), quote_id=q.id, allow_empty=not q.faithful)
    if q.label not in LABELS:
        raise DatasetError(f"{source}: quote {q.id!r}: field 'label': {q.label!r} is not one of {', '.join(LABELS)}")
    allowed = FAITHFUL_TAGS if q.faithful else FABRICATED_TAGS
    if not q.tags:
        raise DatasetError(f"{source}: quote {q.id!r}: field 'tags': at least one tag is required")
    for tag in q.tags:
        if tag not in allowed:
            raise DatasetError(f"{source}: quote {q.id!r}: field 'tags': unknown tag {tag!r} for a {q.label} quote")
    if q.cited_chunk is not None and (isinstance(q.cited_chunk, bool) or not isinstance(q.cited_chunk, int)):
        raise DatasetError(f"{source}: quote {q.id!r}: field 'cited_chunk': expected a whole number")
    if q.faithful and q.anchor is None:
        raise DatasetError(f"{source}: quote {q.id!r}: field 'anchor': every faithful quote has an anchor")
    if not q.faithful and q.anchor is not None:
        raise DatasetError(f"{source}: quote {q.id!r}: field 'anchor': a fabricated quote has no anchor")
    if not q.faithful and q.allow is not None:
        raise DatasetError(f"{source}: quote {q.id!r}: field 'allow': only a faithful quote has allowances")


def _snippet(text: str, limit: int = 120) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _verify_anchors(
    quotes: Sequence[Quote],
    doc: Document,
    chunks: Sequence[Chunk],
    source: str,
    *,
    lines: Mapping[tuple, int],
) -> None:
    v = _Validator(source, lines)
    n = len(doc.text)
    for i, q in enumerate(quotes):
        path = ("quotes", i)
        if q.cited_chunk is not None and not 0 <= q.cited_chunk < len(chunks):
            raise v.fail(
                path + ("cited_chunk",),
                f"chunk {q.cited_chunk} does not exist (the paper has chunks 0..{len(chunks) - 1})",
                quote_id=q.id,
            )
        a = q.anchor
        if a is None:
            continue
        if a.end > n:
            raise v.fail(path + ("anchor", "end"), f"{a.end} is past the end of the text ({n} characters)", quote_id=q.id)
        now = doc.text[a.start : a.end]
        if now != a.text:
            raise v.fail(
                path + ("anchor",),
                f"anchor drifted: text[{a.start}:{a.end}] now reads {_snippet(now)}, the set expects {_snippet(a.text)}",
                quote_id=q.id,
            )
        page = doc.page_at(a.start)
        if page != a.page:
            raise v.fail(
                path + ("anchor", "page"),
                f"anchor drifted: offset {a.start} is on page {page} now, the set says page {a.page}",
                quote_id=q.id,
            )


def _quote_to_dict(q: Quote) -> dict:
    d: dict[str, Any] = {"id": q.id, "text": q.text, "label": q.label, "tags": list(q.tags)}
    if q.cited_chunk is not None:
        d["cited_chunk"] = q.cited_chunk
    if q.anchor is not None:
        d["anchor"] = {"page": q.anchor.page, "start": q.anchor.start, "end": q.anchor.end, "text": q.anchor.text}
    if q.allow is not None:
        d["allow"] = {
            "spans": [{"start": sp.start, "end": sp.end, "kind": sp.kind} for sp in q.allow.spans],
            "readings": list(q.allow.readings),
        }
    if q.note:
        d["note"] = q.note
    return d


# ---------------------------------------------------------------------------------------
# Public entry points


def load_quote_set(
    path_or_name: str | os.PathLike,
    *,
    papers_path: str | os.PathLike | Sequence[str | os.PathLike] | None = None,
    document: Document | None = None,
) -> QuoteSet:
    """Read, validate and pin-check a quote set; open its paper and verify every anchor.

    ``path_or_name``: a bundled set name (``synthetic``, ``attention-v7``,
    ``attention-v5``) or a path to a YAML file. ``papers_path`` replaces
    ``$QUOTELOCATE_PAPERS`` at the front of the search path (the set's own folder is
    searched last, which is where ``synthetic`` keeps its PDF). ``document``: an
    already open paper to use instead of searching; its pin is checked the same way.

    Raises :class:`DatasetError` (naming file, line, quote id and field),
    :class:`PaperNotFoundError` when the paper is not on the search path.
    """
    spec = _read_spec(path_or_name)
    if document is not None:
        pin = _check_pin(spec.paper, document, document.name)
        if isinstance(pin, str):
            raise DatasetError(f"{spec.source}: paper {spec.paper.file!r} ({document.name}) does not match its pin: {pin}")
        resolved = _Resolved(Path(document.name), document, pin)
    else:
        folders = papers_search_path(papers_path)
        set_folder = spec.path.parent
        if set_folder not in folders:
            folders = folders + [set_folder]
        resolved = _resolve(spec.paper, folders, set_name=_fetch_name(path_or_name, spec), source=spec.source)
    doc = resolved.document
    if spec.chunk_file is not None:
        try:
            chunks = load_chunks_file(spec.chunk_file, doc.text)
        except ChunkError as exc:
            raise DatasetError(f"{spec.source}: field 'chunking.file': {exc}") from None
    else:
        chunks = make_chunks(doc.text, spec.chunking)
    _verify_anchors(spec.quotes, doc, chunks, spec.source, lines=spec.lines)
    return QuoteSet(
        name=spec.name,
        quotes=spec.quotes,
        paper=spec.paper,
        description=spec.description,
        path=spec.path,
        set_hash=hashlib.sha256(spec.data).hexdigest(),
        chunking=spec.chunking,
        chunk_file=spec.chunk_file,
        paper_path=resolved.path,
        warnings=tuple(dict.fromkeys(resolved.warnings)),
        _document=doc,
        _chunks=chunks,
    )


def _fetch_name(path_or_name: str | os.PathLike, spec: _Spec) -> str:
    if isinstance(path_or_name, str) and path_or_name in BUNDLED_SETS:
        return path_or_name
    return str(spec.path)


@dataclass(frozen=True)
class Fetched:
    """What :func:`fetch` did: the file now on the search path, its sha256, whether it
    was downloaded (False: a matching copy was already there) and any warning."""

    path: Path
    sha256: str
    downloaded: bool = True
    warnings: tuple[str, ...] = ()


def fetch(
    name_or_path: str | os.PathLike,
    *,
    dest: str | os.PathLike | None = None,
    opener: Callable[..., Any] = urllib.request.urlopen,
    timeout: float = 60.0,
) -> Fetched:
    """Download a set's pinned paper from ``paper.url`` into ``dest`` (default: the
    user cache, the last folder of the papers search path) and check its pin.

    The download goes to a temporary file in ``dest`` that becomes the target only
    when the bytes match the pinned sha256, or have the pinned text fingerprint (a
    warning then says so). A file already there under the paper's name is never
    replaced: it is used when it satisfies the pin, else :class:`FetchError` says to
    move it away. ``opener`` is called as ``opener(url, timeout=timeout)`` and
    must return a readable, closable response (tests pass a fake; nothing else here
    touches the network). Raises :class:`FetchError`.
    """
    try:
        spec = _read_spec(name_or_path)
    except DatasetError as exc:
        raise FetchError(str(exc)) from None
    paper = spec.paper
    if not paper.url:
        raise FetchError(f"{spec.source}: field 'paper.url': the set gives no URL to download {paper.file!r} from")
    if urllib.parse.urlsplit(paper.url).scheme not in ("http", "https"):
        shipped = spec.path.parent / paper.file
        if shipped.is_file():
            try:
                doc = Document.open(shipped) if _sha256_file(shipped) != paper.sha256 else None
            except DocumentError as exc:
                raise FetchError(f"{spec.source}: {exc}") from None
            pin = _check_pin(paper, doc, str(shipped)) if doc is not None else ()
            if not isinstance(pin, str):
                return Fetched(path=shipped, sha256=_sha256_file(shipped), downloaded=False, warnings=pin)
        raise FetchError(
            f"{spec.source}: field 'paper.url': {paper.url!r} is not an http(s) URL; "
            f"{paper.file!r} ships with the set, there is nothing to download"
        )
    if dest is None:
        # a pinned copy already on the papers search path needs no download
        for candidate in papers_search_path():
            present = candidate / paper.file
            if present.is_file() and _sha256_file(present) == paper.sha256:
                return Fetched(path=present, sha256=paper.sha256, downloaded=False)
    folder = Path(dest) if dest is not None else paths.cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FetchError(f"{folder}: cannot create the download folder ({exc.strerror})") from None
    target = folder / paper.file
    if target.is_file() and _sha256_file(target) == paper.sha256:
        return Fetched(path=target, sha256=paper.sha256, downloaded=False)
    if target.exists() or target.is_symlink():
        # someone's file under the paper's name: kept if its text satisfies the pin, never replaced
        existing = None
        try:
            existing = Document.open(target) if target.is_file() else None
        except DocumentError:
            pass
        pin = _check_pin(paper, existing, str(target)) if existing is not None else "it cannot be opened"
        if not isinstance(pin, str):
            return Fetched(path=target, sha256=_sha256_file(target), downloaded=False, warnings=pin)
        raise FetchError(
            f"{target}: already exists and does not match the pin of {spec.source} ({pin}); "
            "not overwritten: move it away and fetch again"
        )
    fd, tmp_name = tempfile.mkstemp(prefix=f".{paper.file}.", suffix=".part", dir=folder)
    tmp = Path(tmp_name)
    try:
        h = hashlib.sha256()
        total = 0
        with os.fdopen(fd, "wb") as out:
            try:
                response = opener(paper.url, timeout=timeout)
                with response:
                    while True:
                        block = response.read(1 << 20)
                        if not block:
                            break
                        total += len(block)
                        if total > MAX_FETCH_BYTES:
                            raise FetchError(f"{paper.url}: more than {MAX_FETCH_BYTES} bytes; refusing")
                        h.update(block)
                        out.write(block)
            except FetchError:
                raise
            except (OSError, ValueError, EOFError) as exc:
                raise FetchError(f"{paper.url}: download failed ({exc})") from None
            except Exception as exc:  # http.client errors and whatever a custom opener raises
                raise FetchError(f"{paper.url}: download failed ({type(exc).__name__}: {exc})") from None
            out.flush()
            os.fsync(out.fileno())
        digest = h.hexdigest()
        warnings: tuple[str, ...] = ()
        if digest != paper.sha256:
            data = tmp.read_bytes()
            try:
                doc = Document.from_pdf_bytes(data, name=paper.url) if data[:1024].find(b"%PDF-") >= 0 else None
            except DocumentError as exc:
                raise FetchError(f"{paper.url}: expected sha256 {paper.sha256}, found {digest}; and {exc}") from None
            if doc is None:
                raise FetchError(f"{paper.url}: expected sha256 {paper.sha256}, found {digest} (not a PDF)")
            pin = _check_pin(paper, doc, paper.url)
            if isinstance(pin, str):
                raise FetchError(f"{paper.url}: downloaded file does not match the pin of {spec.source}: {pin}")
            warnings = pin
        os.replace(tmp, target)
        return Fetched(path=target, sha256=digest, downloaded=True, warnings=warnings)
    finally:
        if tmp.exists():
            tmp.unlink()


def bundled_sets() -> dict[str, Path]:
    """Bundled set names and the files they resolve to (whether or not they exist yet)."""
    return {name: paths.DATASETS_DIR / rel for name, rel in BUNDLED_SETS.items()}
