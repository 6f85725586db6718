"""Quote sets: labelled quotes pinned to one version of a paper (``datasets/*.yaml``).

A format 1 set pins one paper (``paper:``). A format 2 set spans several: it lists
``papers:``, each with an ``id`` and its own pin, and every quote names its ``paper``.
A loaded format 2 set keeps one single-paper :class:`QuoteSet` per paper
(:attr:`QuoteSet.paper_sets`), so everything that works on one paper works on each.

:func:`load_quote_set` reads a set (a bundled name such as ``attention-v7`` or a path),
validates it strictly against the format in ``datasets/README.md``, finds each pinned
paper on the papers search path, checks the pin, opens the paper once and verifies
every anchor. It either returns a complete :class:`QuoteSet` or raises
:class:`~quotelocate.errors.DatasetError`; nothing is ever half-loaded. Every error
names the file, the line, the quote id and the field.

Safety: the file is decoded as strict UTF-8; the YAML event stream is scanned before
anything is constructed, and tags (``!!python/object``, any ``!tag``), anchors, aliases,
merge keys and duplicate keys are refused, so a YAML bomb fails at its first alias;
the values are built from that same checked stream as ``yaml.safe_load`` builds them
(one parse, by libyaml's parser when PyYAML has it). Values that YAML 1.1 coerces
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

import hashlib
import json
import os
import re
import tempfile
import urllib.parse
import urllib.request
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence


from ..chunks import Chunk, Chunking, load_chunks_file, make_chunks
from ..document import Document
from ..errors import ChunkError, ConfigError, DatasetError, DocumentError, FetchError
from . import papers
from .papers import (
    Paper,
    PinCheck,
    Resolved,
    TextPin,
    check_pin,
    papers_search_path,
    resolve,
    sha256_file,
)
from .yaml_reader import (
    SURROGATE, Validator, join_surrogate_pairs, kind, line_of, read_yaml, walk_strings,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..extraction_cache import ExtractionCache

FORMAT_VERSION = 1
"""The one-paper format (``paper:``)."""
MULTI_FORMAT_VERSION = 2
"""The several-papers format (``papers:``, and a ``paper`` id on every quote)."""
FORMATS = (FORMAT_VERSION, MULTI_FORMAT_VERSION)

BUNDLED_SETS: dict[str, str] = {
    "synthetic": "synthetic/synthetic.yaml",
    "attention-v7": "attention-v7.yaml",
    "attention-v5": "attention-v5.yaml",
    "real-corpus": "real-corpus",
}
"""Bundled set names and their files (or folders: see :func:`load_quote_set`), relative
to ``datasets/``."""

LABELS = ("faithful", "fabricated")
"""The labels a person gives a quote; only quotes with one of them are evaluated."""
UNREVIEWED = "unreviewed"
"""The label state of a quote nobody has checked yet (a draft set's quotes, see
:mod:`quotelocate.data.drafting`): it may carry a proposed anchor and tags of either
kind, and evaluation leaves it out and says how many it left out."""
LABEL_STATES = LABELS + (UNREVIEWED,)

FAITHFUL_TAGS = (
    "plain", "linebreak", "ligature", "hyphen-keep", "hyphen-drop", "page-number",
    "page-break", "chunk-boundary", "neighbour-chunk", "smart-quote", "nfkc",
    "float-interleave", "footnote", "caption", "running-header", "margin-stamp",
    "two-column", "table", "column-break", "float", "spacing-accent", "glued-marker",
    "math-spacing", "suspended-hyphen", "drop-cap", "soft-hyphen", "dash-glyph", "equals-glyph",
    "rotated-page", "word-gap", "url-break",
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
MAX_FETCH_BYTES = 256 * 1024 * 1024

_NAME = re.compile(r"[a-z0-9-]+\Z")
_ID = re.compile(r"[A-Za-z0-9._-]+\Z")
_HEX64 = re.compile(r"[0-9a-fA-F]{64}\Z")

_TOP_KEYS = {"format", "name", "description", "paper", "chunking", "quotes"}
_TOP_KEYS_MULTI = {"format", "name", "description", "papers", "chunking", "quotes"}
_PAPER_KEYS = {"file", "sha256", "url", "version", "text"}
_PAPER_KEYS_MULTI = _PAPER_KEYS | {"id", "chunking"}
_TEXT_KEYS = {"extractor", "extractor_version", "flags", "sha256"}
_CHUNKING_KEYS = {"size", "overlap", "group_size", "file"}
_QUOTE_KEYS = {"id", "text", "label", "tags", "cited_chunk", "anchor", "allow", "note"}
_QUOTE_KEYS_MULTI = _QUOTE_KEYS | {"paper"}
_ANCHOR_KEYS = {"page", "start", "end", "text"}
_ALLOW_KEYS = {"spans", "readings"}
_SPAN_KEYS = {"start", "end", "kind"}

SKIP_KINDS = ("float", "furniture", "footnote", "marker", "body")
"""Kinds of document text a faithful quote leaves out (:attr:`Allowance.spans`); ``body``
is main text a footnote or caption quote skips where the note continues in the next column."""
SPAN_KINDS = SKIP_KINDS + ("dash", "equals", "drop-cap")
"""Every span kind: the skipped ones, ``dash`` (a dash the extraction wrote as another
character), ``equals`` (an equals sign the extraction wrote as another character) and ``drop-cap`` (a drop-cap letter, the line break after it and the rest of
its word, set in capitals: ``I⏎N`` read as "In")."""
READINGS = ("spacing-accent", "suspended-hyphen", "math-spacing", "word-gap", "url-break")
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

    id: unique in its set; text: what the model wrote; label: ``faithful``,
    ``fabricated`` or ``unreviewed`` (not checked yet); tags: artifact or fabrication
    classes; cited_chunk: the chunk the
    model cited (None: document scope); anchor: ground truth of a faithful quote
    (None for fabricated ones; a proposal, or None, for an unreviewed one); allow: what an independent check of the label may
    allow (faithful quotes only; None when nothing beyond the basic readings); note: why
    it is labelled so; paper: the id of the paper it quotes, in a set that spans several
    papers ("" in a one-paper set).
    """

    id: str = ""
    text: str = ""
    label: str = "faithful"
    tags: tuple[str, ...] = ()
    cited_chunk: int | None = None
    anchor: Anchor | None = None
    note: str = ""
    paper: str = ""
    allow: Allowance | None = None

    @property
    def faithful(self) -> bool:
        return self.label == "faithful"

    @property
    def reviewed(self) -> bool:
        """False for a quote labelled ``unreviewed``."""
        return self.label != UNREVIEWED


@dataclass(frozen=True, eq=False)
class QuoteSet:
    """A validated quote set with its paper open and every anchor verified.

    name: set name; quotes: the quotes in file order; paper: the pin; description;
    path: the YAML file (None when built in memory); set_hash: sha256 of the file bytes
    (of a canonical JSON form for in-memory sets); chunking: how the cited chunks were
    cut; chunk_file: explicit chunks, when the set names a file; paper_path: the file
    the paper was read from; warnings: accepted deviations (a re-saved PDF with the
    same text, another extractor version); paper_sets: in a set that spans several
    papers, one single-paper set per paper in the order the file lists them (then
    ``paper`` is empty and :meth:`document` needs :meth:`for_paper` first); empty in a
    one-paper set.

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
    paper_sets: tuple["QuoteSet", ...] = ()
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

    # -- papers ------------------------------------------------------------------------
    @property
    def multi_paper(self) -> bool:
        """True for a set that lists its papers (format 2), however many it holds."""
        return bool(self.paper_sets)

    @property
    def paper_id(self) -> str:
        """The paper's id; in a one-paper set, the paper's file name without extension."""
        if self.paper_sets:
            return ""
        return self.paper.id or Path(self.paper.file).stem or self.name

    @property
    def paper_ids(self) -> tuple[str, ...]:
        """The ids of the papers the set quotes, in file order."""
        return tuple(p.paper_id for p in self.paper_sets) if self.paper_sets else (self.paper_id,)

    @property
    def parts(self) -> tuple["QuoteSet", ...]:
        """One single-paper set per paper (this set itself when it has one paper)."""
        return self.paper_sets if self.paper_sets else (self,)

    def for_paper(self, paper_id: str) -> "QuoteSet":
        """The single-paper set of ``paper_id``; :class:`DatasetError` names the known ids."""
        for part in self.parts:
            if part.paper_id == paper_id:
                return part
        raise DatasetError(
            f"{self.path or self.name}: no paper {paper_id!r} in this set (papers: {', '.join(self.paper_ids)})"
        )

    def _single(self, what: str) -> "QuoteSet":
        if not self.paper_sets:
            return self
        if len(self.paper_sets) == 1:
            return self.paper_sets[0]
        raise DatasetError(
            f"{self.path or self.name}: the set spans {len(self.paper_sets)} papers ({', '.join(self.paper_ids)}); "
            f"{what} belongs to one of them: pick it with for_paper(ID) (on the command line, --paper ID)"
        )

    # -- queries -----------------------------------------------------------------------
    def document(self) -> Document:
        """The paper, opened once at load time."""
        if self.paper_sets:
            return self._single("the document").document()
        if self._document is None:
            raise DatasetError(f"{self.path or self.name}: quote set has no document; load it with load_quote_set")
        return self._document

    @property
    def chunks(self) -> tuple[Chunk, ...]:
        """The retrieval chunks cited quotes refer to (explicit or cut by :attr:`chunking`)."""
        if self.paper_sets:
            return self._single("a chunk list").chunks
        return self._chunks

    @property
    def explicit_chunks(self) -> tuple[Chunk, ...] | None:
        """The chunks read from the set's chunk file, or None when they are cut by size."""
        if self.paper_sets:
            return self._single("a chunk list").explicit_chunks
        return self._chunks if self.chunk_file is not None else None

    @property
    def faithful(self) -> tuple[Quote, ...]:
        return tuple(q for q in self.quotes if q.faithful)

    @property
    def fabricated(self) -> tuple[Quote, ...]:
        return tuple(q for q in self.quotes if q.label == "fabricated")

    @property
    def unreviewed(self) -> tuple[Quote, ...]:
        """The quotes nobody has labelled yet (``label: unreviewed``)."""
        return tuple(q for q in self.quotes if not q.reviewed)

    def labelled_only(self) -> "QuoteSet":
        """The same set without its unreviewed quotes (and without any paper that then
        has none), for evaluation; :class:`DatasetError` when no quote is labelled."""
        if not self.unreviewed:
            return self
        if len(self.unreviewed) == len(self.quotes):
            raise DatasetError(
                f"{self.path or self.name}: all {len(self.quotes)} quotes are unreviewed; label some first "
                "(the workbench's Label view) to evaluate"
            )
        quotes = tuple(q for q in self.quotes if q.reviewed)
        if not self.paper_sets:
            return replace(self, quotes=quotes)
        parts = tuple(replace(p, quotes=tuple(q for q in p.quotes if q.reviewed)) for p in self.paper_sets)
        return replace(self, quotes=quotes, paper_sets=tuple(p for p in parts if p.quotes))

    def by_id(self, quote_id: str) -> Quote:
        for q in self.quotes:
            if q.id == quote_id:
                return q
        raise KeyError(quote_id)

    def __len__(self) -> int:
        return len(self.quotes)

    def __iter__(self) -> Iterator[Quote]:
        return iter(self.quotes)


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
    root = papers.DATASETS_DIR.resolve()
    rel = BUNDLED_SETS.get(s, f"{s}.yaml")
    candidate = papers.DATASETS_DIR / rel
    resolved = candidate.resolve()
    if not resolved.is_relative_to(root):
        raise DatasetError(f"{s!r}: the set name resolves to {resolved}, outside the datasets folder {root}")
    if not (resolved.is_file() or (rel == BUNDLED_SETS.get(s) and resolved.is_dir())):
        known = ", ".join(BUNDLED_SETS)
        raise DatasetError(f"{candidate}: no such quote set (bundled sets: {known}; give a path to load another)")
    return candidate


# ---------------------------------------------------------------------------------------
# Reading and validating the YAML


@dataclass(frozen=True)
class _PaperSpec:
    """One paper of a validated set: its pin, how its cited chunks were cut, and where
    its entry is (``papers[index]``; index None for the ``paper:`` of a format 1 set)."""

    paper: Paper
    chunking: Chunking
    chunk_file: Path | None
    index: int | None = None


@dataclass(frozen=True)
class _Spec:
    """A validated set before its papers are opened (``paper``, ``chunking`` and
    ``chunk_file`` are the first paper's)."""

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
    papers: tuple[_PaperSpec, ...] = ()
    multi: bool = False


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
            f"{source}: line {line_of(data, exc.start)}, column {column}: not valid UTF-8 "
            f"(byte {data[exc.start]:#04x} at offset {exc.start}; {exc.reason})"
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    raw, lines = read_yaml(text, source)
    v = Validator(source, lines)
    if raw is None:
        raise DatasetError(f"{source}: the file is empty")
    raw = join_surrogate_pairs(raw)
    for spath, s in walk_strings(raw, ()):
        m = SURROGATE.search(s)
        if m:
            shown = spath[:-1] if spath and spath[-1] == "__key__" else spath
            qid = _quote_id_at(raw, shown)
            raise v.fail(shown, f"contains a lone surrogate U+{ord(m.group()):04X} at index {m.start()}", quote_id=qid)
    if not isinstance(raw, dict):
        raise v.fail((), f"expected a mapping, got {kind(raw)}")
    fmt = raw.get("format")
    if "format" not in raw:
        raise v.fail(("format",), "missing required field")
    if isinstance(fmt, bool) or not isinstance(fmt, int):
        raise v.fail(("format",), f"expected the integer {FORMAT_VERSION} or {MULTI_FORMAT_VERSION}, got {kind(fmt)}")
    if fmt not in FORMATS:
        raise v.fail(
            ("format",),
            f"unsupported format {fmt}; this version of quotelocate reads formats "
            f"{FORMAT_VERSION} (one paper) and {MULTI_FORMAT_VERSION} (several papers)",
        )
    multi = fmt == MULTI_FORMAT_VERSION
    if multi:
        if "paper" in raw:
            raise v.fail(("paper",), f"a format {MULTI_FORMAT_VERSION} set lists its papers under 'papers', not 'paper'")
        top = v.mapping(raw, (), _TOP_KEYS_MULTI, required=("format", "name", "papers", "quotes"))
    else:
        if "papers" in raw:
            raise v.fail(
                ("papers",), f"a format {FORMAT_VERSION} set pins one 'paper'; a set that lists 'papers' is format {MULTI_FORMAT_VERSION}"
            )
        top = v.mapping(raw, (), _TOP_KEYS, required=("format", "name", "paper", "quotes"))
    name = v.string(top["name"], ("name",), pattern=_NAME, what="a set name ([a-z0-9-]+)")
    description = ""
    if top.get("description") is not None:
        description = v.string(top["description"], ("description",), allow_empty=True)
    if multi:
        papers_specs = _read_papers(v, top["papers"], top.get("chunking"), path)
        paper, chunking, chunk_file = papers_specs[0].paper, papers_specs[0].chunking, papers_specs[0].chunk_file
        quotes = _read_quotes(v, top["quotes"], paper_ids={p.paper.id: p.index for p in papers_specs})
    else:
        paper = _read_paper(v, top["paper"])
        chunking, chunk_file = _read_chunking(v, top.get("chunking"), path)
        papers_specs = (_PaperSpec(paper, chunking, chunk_file),)
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
        papers=papers_specs,
        multi=multi,
    )


def _quote_id_at(raw: Any, path: tuple) -> str | None:
    if len(path) >= 2 and path[0] == "quotes" and isinstance(raw, dict):
        quotes = raw.get("quotes")
        if isinstance(quotes, list) and isinstance(path[1], int) and path[1] < len(quotes):
            q = quotes[path[1]]
            if isinstance(q, dict) and isinstance(q.get("id"), str) and not SURROGATE.search(q["id"]):
                return q["id"]
    return None


def _read_paper(
    v: Validator, value: Any, *, at: tuple = ("paper",), keys: set[str] = _PAPER_KEYS, paper_id: str = ""
) -> Paper:
    pid = paper_id or None
    p = v.mapping(value, at, keys, required=("file", "sha256"), quote_id=pid)
    file = v.string(p["file"], at + ("file",), quote_id=pid)
    if Path(file).name != file or file in (".", "..") or "\\" in file:
        raise v.fail(at + ("file",), f"{file!r} must be a bare file name (no folders)", quote_id=pid)
    sha = v.string(p["sha256"], at + ("sha256",), pattern=_HEX64, what="a sha256 (64 hex digits)", quote_id=pid).lower()
    url = ""
    if p.get("url") is not None:
        url = v.string(p["url"], at + ("url",), quote_id=pid)
        if urllib.parse.urlsplit(url).scheme not in ("http", "https", "file"):
            raise v.fail(at + ("url",), f"{url!r} is not an http(s) or file: URL", quote_id=pid)
    version = v.string(p["version"], at + ("version",), quote_id=pid) if p.get("version") is not None else ""
    text = None
    if p.get("text") is not None:
        t = v.mapping(p["text"], at + ("text",), _TEXT_KEYS, required=tuple(sorted(_TEXT_KEYS)), quote_id=pid)
        text = TextPin(
            extractor=v.string(t["extractor"], at + ("text", "extractor"), quote_id=pid),
            extractor_version=v.string(t["extractor_version"], at + ("text", "extractor_version"), quote_id=pid),
            flags=v.integer(t["flags"], at + ("text", "flags"), quote_id=pid),
            sha256=v.string(
                t["sha256"], at + ("text", "sha256"), pattern=_HEX64, what="a sha256 (64 hex digits)", quote_id=pid
            ).lower(),
        )
    return Paper(file=file, sha256=sha, url=url, version=version, text=text, id=paper_id)


def _read_papers(v: Validator, value: Any, set_chunking: Any, set_path: Path) -> tuple[_PaperSpec, ...]:
    """The ``papers`` list of a format 2 set; each paper's ``chunking`` overrides the set's, key by key."""
    if not isinstance(value, list):
        raise v.fail(("papers",), f"expected a list of papers, got {kind(value)}")
    if not value:
        raise v.fail(("papers",), "the list of papers is empty")
    base: dict = {}
    if set_chunking is not None:
        base = dict(v.mapping(set_chunking, ("chunking",), _CHUNKING_KEYS, required=()))
        if "file" in base:
            raise v.fail(
                ("chunking", "file"),
                "a chunk file belongs to one paper: in a set of several papers give it as papers[i].chunking.file",
            )
        _read_chunking(v, set_chunking, set_path)  # the set-wide values are valid on their own
    out: list[_PaperSpec] = []
    seen: dict[str, int] = {}
    files: dict[str, int] = {}
    for i, item in enumerate(value):
        at = ("papers", i)
        hint = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else None
        p = v.mapping(item, at, _PAPER_KEYS_MULTI, required=("id", "file", "sha256"), quote_id=hint)
        pid = v.string(p["id"], at + ("id",), pattern=_ID, what="an id ([A-Za-z0-9._-]+)", quote_id=hint)
        if pid in seen:
            first_line = v.lines.get(("papers", seen[pid], "id"), "?")
            raise v.fail(at + ("id",), f"duplicate paper id (first used on line {first_line})", quote_id=pid)
        seen[pid] = i
        paper = _read_paper(v, {k: x for k, x in p.items() if k not in ("id", "chunking")}, at=at, keys=_PAPER_KEYS, paper_id=pid)
        key = paper.sha256
        if key in files:
            raise v.fail(
                at + ("sha256",), f"the same file is already listed as paper {out[files[key]].paper.id!r}", quote_id=pid
            )
        files[key] = i
        merged = dict(base)
        own = p.get("chunking")
        if own is not None:
            own = v.mapping(own, at + ("chunking",), _CHUNKING_KEYS, required=(), quote_id=pid)
            if "file" in own:
                merged.pop("size", None)
                merged.pop("overlap", None)
            merged.update(own)
        chunking, chunk_file = _read_chunking(v, merged or None, set_path, at=at + ("chunking",) if own else ("chunking",), item_id=pid if own else None)
        out.append(_PaperSpec(paper, chunking, chunk_file, index=i))
    return tuple(out)


def _read_chunking(
    v: Validator, value: Any, set_path: Path, *, at: tuple = ("chunking",), item_id: str | None = None
) -> tuple[Chunking, Path | None]:
    if value is None:
        return Chunking(), None
    c = v.mapping(value, at, _CHUNKING_KEYS, required=(), quote_id=item_id)
    ints = {k: v.integer(c[k], at + (k,), quote_id=item_id) for k in ("size", "overlap", "group_size") if k in c}
    chunk_file = None
    if "file" in c:
        if "size" in ints or "overlap" in ints:
            raise v.fail(at + ("file",), "give either explicit chunks (file) or size/overlap, not both", quote_id=item_id)
        rel = v.string(c["file"], at + ("file",), quote_id=item_id)
        if os.path.isabs(rel) or rel.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", rel):
            raise v.fail(at + ("file",), f"{rel!r} must be a path relative to the set's folder", quote_id=item_id)
        folder = set_path.parent.resolve()
        target = (folder / rel).resolve()
        if not target.is_relative_to(folder):
            raise v.fail(at + ("file",), f"{rel!r} leaves the set's folder {folder}", quote_id=item_id)
        chunk_file = target
    try:
        return Chunking(**ints), chunk_file
    except ConfigError as exc:
        raise v.fail(at, str(exc), quote_id=item_id) from None


def _read_quotes(v: Validator, value: Any, *, paper_ids: Mapping[str, int | None] | None = None) -> tuple[Quote, ...]:
    """The quotes; with ``paper_ids`` (a format 2 set), each must name one of those papers."""
    if not isinstance(value, list):
        raise v.fail(("quotes",), f"expected a list of quotes, got {kind(value)}")
    if not value:
        raise v.fail(("quotes",), "the list of quotes is empty")
    out: list[Quote] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(value):
        path = ("quotes", i)
        qid_raw = item.get("id") if isinstance(item, dict) else None
        qid_hint = qid_raw if isinstance(qid_raw, str) else None
        keys = _QUOTE_KEYS if paper_ids is None else _QUOTE_KEYS_MULTI
        q = v.mapping(item, path, keys, required=("id",), quote_id=qid_hint)
        qid = v.string(q["id"], path + ("id",), pattern=_ID, what="an id ([A-Za-z0-9._-]+)")
        if qid in seen:
            first_line = v.lines.get(("quotes", seen[qid], "id"), "?")
            raise v.fail(path + ("id",), f"duplicate id (first used on line {first_line})", quote_id=qid)
        seen[qid] = i
        for key in ("text", "label", "tags") + (("paper",) if paper_ids is not None else ()):
            if key not in q:
                raise v.fail(path + (key,), "missing required field", quote_id=qid)
        paper_id = ""
        if paper_ids is not None:
            paper_id = v.string(q["paper"], path + ("paper",), quote_id=qid)
            if paper_id not in paper_ids:
                raise v.fail(
                    path + ("paper",),
                    f"{paper_id!r} is not one of the set's papers ({', '.join(paper_ids)})",
                    quote_id=qid,
                )
        label = v.string(q["label"], path + ("label",), quote_id=qid)
        if label not in LABEL_STATES:
            raise v.fail(path + ("label",), f"{label!r} is not one of {', '.join(LABEL_STATES)}", quote_id=qid)
        # an empty or blank fabricated quote is a legitimate test of the `invalid` verdict
        text = v.string(q["text"], path + ("text",), quote_id=qid, allow_empty=label != "faithful")
        tags_raw = q["tags"]
        if not isinstance(tags_raw, list):
            raise v.fail(path + ("tags",), f"expected a list of tags, got {kind(tags_raw)}", quote_id=qid)
        if not tags_raw and label != UNREVIEWED:
            raise v.fail(path + ("tags",), "at least one tag is required", quote_id=qid)
        allowed = _allowed_tags(label)
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
        if label == "faithful" or (label == UNREVIEWED and q.get("anchor") is not None):
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
            if label != "faithful":
                raise v.fail(path + ("allow",), "only a faithful quote has allowances", quote_id=qid)
            allow = _read_allow(v, q["allow"], path + ("allow",), anchor, qid)
        out.append(
            Quote(id=qid, text=text, label=label, tags=tuple(tags), cited_chunk=cited, anchor=anchor, note=note,
                  paper=paper_id, allow=allow)
        )
    if paper_ids is not None:
        quoted = {q.paper for q in out}
        for pid, index in paper_ids.items():
            if pid not in quoted:
                raise v.fail(("papers", index, "id"), "no quote names this paper", quote_id=pid)
    return tuple(out)


def _read_allow(v: Validator, value: Any, path: tuple, anchor: Anchor, qid: str) -> Allowance:
    a = v.mapping(value, path, _ALLOW_KEYS, required=(), quote_id=qid)
    spans: list[AllowSpan] = []
    raw_spans = a.get("spans", [])
    if not isinstance(raw_spans, list):
        raise v.fail(path + ("spans",), f"expected a list of spans, got {kind(raw_spans)}", quote_id=qid)
    for j, item in enumerate(raw_spans):
        sp = path + ("spans", j)
        m = v.mapping(item, sp, _SPAN_KEYS, required=("start", "end", "kind"), quote_id=qid)
        start = v.integer(m["start"], sp + ("start",), quote_id=qid)
        end = v.integer(m["end"], sp + ("end",), quote_id=qid)
        span_kind = v.string(m["kind"], sp + ("kind",), quote_id=qid)
        if span_kind not in SPAN_KINDS:
            raise v.fail(sp + ("kind",), f"{span_kind!r} is not one of {', '.join(SPAN_KINDS)}", quote_id=qid)
        if not anchor.start <= start < end <= anchor.end:
            raise v.fail(
                sp, f"[{start}, {end}) must be a non-empty span inside the anchor [{anchor.start}, {anchor.end})", quote_id=qid
            )
        if spans and start < spans[-1].end:
            raise v.fail(sp + ("start",), f"{start} overlaps or precedes the previous span (spans go in text order)", quote_id=qid)
        spans.append(AllowSpan(start=start, end=end, kind=span_kind))
    readings: list[str] = []
    raw_readings = a.get("readings", [])
    if not isinstance(raw_readings, list):
        raise v.fail(path + ("readings",), f"expected a list of readings, got {kind(raw_readings)}", quote_id=qid)
    for j, item in enumerate(raw_readings):
        r = v.string(item, path + ("readings", j), quote_id=qid)
        if r not in READINGS:
            raise v.fail(path + ("readings", j), f"{r!r} is not one of {', '.join(READINGS)}", quote_id=qid)
        if r in readings:
            raise v.fail(path + ("readings", j), f"reading {r!r} is listed twice", quote_id=qid)
        readings.append(r)
    return Allowance(spans=tuple(spans), readings=tuple(readings))


def _allowed_tags(label: str) -> tuple[str, ...]:
    """The tags a quote with ``label`` may carry (an unreviewed one: a proposal of either kind)."""
    if label == "faithful":
        return FAITHFUL_TAGS
    if label == "fabricated":
        return FABRICATED_TAGS
    return FAITHFUL_TAGS + FABRICATED_TAGS


def _check_quote_fields(q: Quote, source: str, index: int) -> None:
    """The same checks as the YAML reader, for quotes built in code."""
    v = Validator(source, {})
    path = ("quotes", index)
    v.string(q.text, path + ("text",), quote_id=q.id, allow_empty=not q.faithful)
    if q.label not in LABEL_STATES:
        raise DatasetError(f"{source}: quote {q.id!r}: field 'label': {q.label!r} is not one of {', '.join(LABEL_STATES)}")
    allowed = _allowed_tags(q.label)
    if not q.tags and q.reviewed:
        raise DatasetError(f"{source}: quote {q.id!r}: field 'tags': at least one tag is required")
    for tag in q.tags:
        if tag not in allowed:
            raise DatasetError(f"{source}: quote {q.id!r}: field 'tags': unknown tag {tag!r} for a {q.label} quote")
    if q.cited_chunk is not None and (isinstance(q.cited_chunk, bool) or not isinstance(q.cited_chunk, int)):
        raise DatasetError(f"{source}: quote {q.id!r}: field 'cited_chunk': expected a whole number")
    if q.faithful and q.anchor is None:
        raise DatasetError(f"{source}: quote {q.id!r}: field 'anchor': every faithful quote has an anchor")
    if q.label == "fabricated" and q.anchor is not None:
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
    positions: Sequence[int] | None = None,
) -> None:
    """Check every cited chunk exists and every anchor reads its text on its page;
    ``positions``: each quote's index in the file's ``quotes`` (default: in order)."""
    v = Validator(source, lines)
    n = len(doc.text)
    for k, q in enumerate(quotes):
        i = positions[k] if positions is not None else k
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


def _yaml_string(value: str) -> str:
    """A YAML double-quoted scalar (JSON string syntax is a subset of it)."""
    return json.dumps(value, ensure_ascii=False)


def quote_set_yaml(
    *,
    name: str,
    description: str,
    paper: Paper,
    quotes: Sequence[Quote],
    chunking: Chunking | None = None,
    header: str = "",
) -> str:
    """A quote set file (format 1) as text, every string double-quoted so that nothing
    is read back as another type. The one writer the generators and builders share.

    >>> print(quote_set_yaml(name="tiny", description="", paper=Paper(file="p.pdf", sha256="0" * 64),
    ...       quotes=[Quote(id="q1", text="no", label="fabricated", tags=("case",))]))
    format: 1
    name: tiny
    description: ""
    paper:
      file: "p.pdf"
      sha256: "0000000000000000000000000000000000000000000000000000000000000000"
    quotes:
      - id: q1
        text: "no"
        label: fabricated
        tags: [case]
    <BLANKLINE>
    """
    q = _yaml_string
    out = [f"# {line}" for line in header.splitlines()] if header else []
    out += ["format: 1", f"name: {name}", f"description: {q(description)}", "paper:", f"  file: {q(paper.file)}"]
    out += _pin_lines(paper, "  ", extractor=paper.text.extractor if paper.text is not None else "")
    if chunking is not None:
        out += ["chunking:", f"  size: {chunking.size}", f"  overlap: {chunking.overlap}", f"  group_size: {chunking.group_size}"]
    out.append("quotes:")
    for quote in quotes:
        out += _quote_lines(quote)
    return "\n".join(out) + "\n"


def _quote_lines(quote: Quote) -> list[str]:
    """One quote of a set file; its ``paper`` line only in a set of several papers."""
    q = _yaml_string
    out = [f"  - id: {quote.id}"]
    if quote.paper:
        out.append(f"    paper: {q(quote.paper)}")
    out.append(f"    text: {q(quote.text)}")
    out.append(f"    label: {quote.label}")
    out.append(f"    tags: [{', '.join(quote.tags)}]")
    if quote.cited_chunk is not None:
        out.append(f"    cited_chunk: {quote.cited_chunk}")
    if quote.anchor is not None:
        a = quote.anchor
        out += ["    anchor:", f"      page: {a.page}", f"      start: {a.start}", f"      end: {a.end}", f"      text: {q(a.text)}"]
    if quote.allow is not None:
        out.append("    allow:")
        if quote.allow.spans:
            out.append("      spans:")
            out += [f"        - {{start: {sp.start}, end: {sp.end}, kind: {sp.kind}}}" for sp in quote.allow.spans]
        if quote.allow.readings:
            out.append(f"      readings: [{', '.join(quote.allow.readings)}]")
    if quote.note:
        out.append(f"    note: {q(quote.note)}")
    return out


def _pin_lines(paper: Paper, indent: str, *, extractor: str) -> list[str]:
    """A paper's pin after its ``file`` line: sha256, url, version and the text
    fingerprint, at ``indent``; ``extractor`` as the set format writes it (the bundled
    one-paper sets keep the extractor name bare)."""
    q = _yaml_string
    out = [f"{indent}sha256: {q(paper.sha256)}"]
    if paper.url:
        out.append(f"{indent}url: {q(paper.url)}")
    if paper.version:
        out.append(f"{indent}version: {q(paper.version)}")
    if paper.text is not None:
        t = paper.text
        out += [f"{indent}text:", f"{indent}  extractor: {extractor}",
                f"{indent}  extractor_version: {q(t.extractor_version)}", f"{indent}  flags: {t.flags}",
                f"{indent}  sha256: {q(t.sha256)}"]
    return out


def _chunking_lines(chunking: Mapping[str, Any], indent: str) -> list[str]:
    """A ``chunking`` mapping's keys (size, overlap, group_size, file), one a line."""
    out = []
    for key in ("size", "overlap", "group_size"):
        if chunking.get(key) is not None:
            out.append(f"{indent}{key}: {int(chunking[key])}")
    if chunking.get("file") is not None:
        out.append(f"{indent}file: {_yaml_string(str(chunking['file']))}")
    return out


def multi_quote_set_yaml(
    *,
    name: str,
    description: str,
    papers: Sequence[Paper],
    quotes: Sequence[Quote],
    chunking: Mapping[str, Any] | None = None,
    paper_chunking: Mapping[str, Mapping[str, Any]] | None = None,
    header: str = "",
) -> str:
    """A set file of several papers (format 2) as text, written as :func:`quote_set_yaml`
    writes format 1: every paper's ``id`` and pin, then the quotes, each naming its
    ``paper``. ``chunking``: the set-wide keys (size, overlap, group_size);
    ``paper_chunking``: a paper id's own keys (a chunk ``file`` belongs there).

    >>> print(multi_quote_set_yaml(name="two", description="", papers=[Paper(file="a.pdf", sha256="0" * 64, id="a")],
    ...       quotes=[Quote(id="q1", text="so it goes", label="unreviewed", paper="a")]))
    format: 2
    name: two
    description: ""
    papers:
      - id: a
        file: "a.pdf"
        sha256: "0000000000000000000000000000000000000000000000000000000000000000"
    quotes:
      - id: q1
        paper: "a"
        text: "so it goes"
        label: unreviewed
        tags: []
    <BLANKLINE>
    """
    q = _yaml_string
    out = [f"# {line}" for line in header.splitlines()] if header else []
    out += [f"format: {MULTI_FORMAT_VERSION}", f"name: {name}", f"description: {q(description)}"]
    if chunking:
        out += ["chunking:", *_chunking_lines(chunking, "  ")]
    out.append("papers:")
    for paper in papers:
        out += [f"  - id: {paper.id}", f"    file: {q(paper.file)}"]
        out += _pin_lines(paper, "    ", extractor=q(paper.text.extractor) if paper.text is not None else "")
        own = (paper_chunking or {}).get(paper.id)
        if own:
            out += ["    chunking:", *_chunking_lines(own, "      ")]
    out.append("quotes:")
    for quote in quotes:
        out += _quote_lines(quote)
    return "\n".join(out) + "\n"


def dump_quote_set(data: Mapping[str, Any], *, header: str = "") -> str:
    """A set assembled as a mapping (as ``yaml.safe_load`` reads one back), written by
    :func:`quote_set_yaml` (format 1) or :func:`multi_quote_set_yaml` (format 2).
    Loading the text validates it."""
    quotes = [
        Quote(id=q["id"], text=q["text"], label=q["label"], tags=tuple(q["tags"]), cited_chunk=q.get("cited_chunk"),
              anchor=Anchor(**q["anchor"]) if q.get("anchor") else None, note=q.get("note") or "",
              allow=_allowance(q["allow"]) if q.get("allow") else None, paper=q.get("paper") or "")
        for q in data["quotes"]
    ]
    if data.get("format") == MULTI_FORMAT_VERSION:
        papers = [_paper_of(p, paper_id=p["id"]) for p in data["papers"]]
        return multi_quote_set_yaml(
            name=data["name"], description=data.get("description") or "", papers=papers, quotes=quotes,
            chunking=data.get("chunking"), header=header,
            paper_chunking={p["id"]: p["chunking"] for p in data["papers"] if p.get("chunking")},
        )
    p = data["paper"]
    pin = p.get("text")
    return quote_set_yaml(
        name=data["name"],
        description=data.get("description", ""),
        paper=Paper(
            file=p["file"], sha256=p["sha256"], url=p.get("url", ""), version=p.get("version", ""),
            text=None if pin is None else TextPin(str(pin["extractor"]), str(pin["extractor_version"]), int(pin["flags"]), str(pin["sha256"])),
        ),
        chunking=Chunking(**data["chunking"]) if data.get("chunking") else None,
        quotes=quotes,
        header=header,
    )


def _paper_of(p: Mapping[str, Any], *, paper_id: str = "") -> Paper:
    pin = p.get("text")
    return Paper(
        file=p["file"], sha256=p["sha256"], url=p.get("url") or "", version=p.get("version") or "", id=paper_id,
        text=None if pin is None else TextPin(str(pin["extractor"]), str(pin["extractor_version"]), int(pin["flags"]), str(pin["sha256"])),
    )


def _allowance(data: Mapping[str, Any]) -> Allowance:
    return Allowance(
        spans=tuple(AllowSpan(int(sp["start"]), int(sp["end"]), str(sp["kind"])) for sp in data.get("spans", ())),
        readings=tuple(data.get("readings", ())),
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
    if q.paper:
        d["paper"] = q.paper
    return d


# ---------------------------------------------------------------------------------------
# Public entry points


def load_quote_set(
    path_or_name: str | os.PathLike,
    *,
    papers_path: str | os.PathLike | Sequence[str | os.PathLike] | None = None,
    document: Document | None = None,
    paper: str | None = None,
    cache: "ExtractionCache | None" = None,
) -> QuoteSet:
    """Read, validate and pin-check a quote set; open its papers and verify every anchor.

    ``path_or_name``: a bundled set name (``synthetic``, ``attention-v7``,
    ``attention-v5``) or a path to a YAML file. ``papers_path`` replaces
    ``$QUOTELOCATE_PAPERS`` at the front of the search path (the set's own folder is
    searched last, which is where ``synthetic`` keeps its PDF). ``paper``: the id of
    one paper of the set; only that paper is opened and its single-paper set returned
    (in a one-paper set, the id is the file name without extension). ``document``: an
    already open paper to use instead of searching (in a set of several papers, the
    one ``paper`` names); its pin is checked the same way. ``cache``: an
    :class:`~quotelocate.extraction_cache.ExtractionCache` the papers are opened through.

    Raises :class:`DatasetError` (naming file, line, quote or paper id and field),
    :class:`PaperNotFoundError` when a paper is not on the search path.
    """
    folder = _set_folder(path_or_name)
    if folder is not None:
        return _load_folder(folder, papers_path=papers_path, document=document, paper=paper, cache=cache)
    spec = _read_spec(path_or_name)
    chosen = list(spec.papers)
    if paper is not None:
        chosen = [p for p in spec.papers if _spec_paper_id(p) == paper]
        if not chosen:
            known = ", ".join(_spec_paper_id(p) for p in spec.papers)
            raise DatasetError(f"{spec.source}: no paper {paper!r} in this set (papers: {known})")
    if document is not None and len(chosen) != 1:
        raise DatasetError(
            f"{spec.source}: the set spans {len(chosen)} papers; an open document stands for one of them: name it with paper=ID"
        )
    folders = papers_search_path(papers_path)
    set_folder = spec.path.parent
    confined = None
    if set_folder not in folders:  # searched last, and only for a paper that really lies inside it
        folders = folders + [set_folder]
        confined = set_folder
    parts = tuple(_load_part(spec, ps, folders, path_or_name, document, cache, confined) for ps in chosen)
    if not spec.multi or paper is not None:
        return parts[0]
    return QuoteSet(
        name=spec.name,
        quotes=spec.quotes,
        description=spec.description,
        path=spec.path,
        set_hash=hashlib.sha256(spec.data).hexdigest(),
        chunking=spec.chunking,
        warnings=tuple(dict.fromkeys(w for part in parts for w in part.warnings)),
        paper_sets=parts,
    )


@dataclass(frozen=True)
class SetOutline:
    """A set read and validated without opening any paper: what a caller that opens
    each paper elsewhere (a worker process, a cluster) needs. ``path`` is absolute;
    ``set_hash`` is the one :func:`load_quote_set` gives the whole set."""

    name: str
    path: Path
    set_hash: str
    paper_ids: tuple[str, ...]
    quote_ids: tuple[str, ...]
    multi_paper: bool
    unreviewed_ids: tuple[str, ...] = ()
    labelled_paper_ids: tuple[str, ...] = ()

    @property
    def labelled_ids(self) -> tuple[str, ...]:
        """The ids of the quotes that carry a label (not ``unreviewed``), in file order."""
        skip = set(self.unreviewed_ids)
        return tuple(q for q in self.quote_ids if q not in skip)


def set_outline(path_or_name: str | os.PathLike) -> SetOutline:
    """The :class:`SetOutline` of a set (:class:`DatasetError` as :func:`load_quote_set`)."""
    folder = _set_folder(path_or_name)
    if folder is not None:
        specs = _folder_specs(folder)
        parts = [_outline_of(spec) for spec in specs]
        return SetOutline(
            name=_folder_name(folder),
            path=folder.resolve(),
            set_hash=_folder_hash(specs),
            paper_ids=tuple(pid for part in parts for pid in part.paper_ids),
            quote_ids=tuple(qid for part in parts for qid in part.quote_ids),
            multi_paper=True,
            unreviewed_ids=tuple(qid for part in parts for qid in part.unreviewed_ids),
            labelled_paper_ids=tuple(pid for part in parts for pid in part.labelled_paper_ids),
        )
    return _outline_of(_read_spec(path_or_name))


def _outline_of(spec: _Spec) -> SetOutline:
    return SetOutline(
        name=spec.name,
        path=spec.path.resolve(),
        set_hash=hashlib.sha256(spec.data).hexdigest(),
        paper_ids=tuple(_spec_paper_id(ps) for ps in spec.papers),
        quote_ids=tuple(q.id for q in spec.quotes),
        multi_paper=spec.multi,
        unreviewed_ids=tuple(q.id for q in spec.quotes if not q.reviewed),
        labelled_paper_ids=tuple(
            pid for pid in (_spec_paper_id(ps) for ps in spec.papers)
            if any(q.reviewed and (q.paper == pid or not spec.multi) for q in spec.quotes)
        ),
    )


# ---------------------------------------------------------------------------------------
# A folder of sets is one set of several papers


def _set_folder(path_or_name: str | os.PathLike) -> Path | None:
    """The folder when ``path_or_name`` names a folder of sets, else None."""
    path = resolve_set_path(path_or_name)
    return path if path.is_dir() else None


def _folder_name(folder: Path) -> str:
    name = folder.resolve().name.lower()
    return name if _NAME.match(name) else "folder"


def _folder_specs(folder: Path) -> list[_Spec]:
    """Every ``*.yaml`` set in ``folder`` (not its subfolders), read and validated, in
    file name order; a paper or quote id used twice across the files is an error that
    names both files."""
    files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    if not files:
        raise DatasetError(f"{folder}: a folder of quote sets holds no .yaml file")
    specs = [_read_spec(f) for f in files]
    papers_seen: dict[str, Path] = {}
    quotes_seen: dict[str, Path] = {}
    for spec in specs:
        for ps in spec.papers:
            pid = _spec_paper_id(ps)
            if pid in papers_seen:
                raise DatasetError(f"{spec.source}: paper {pid!r} is already in {papers_seen[pid]} of the same folder")
            papers_seen[pid] = spec.path
        for q in spec.quotes:
            if q.id in quotes_seen:
                raise DatasetError(
                    f"{spec.source}: quote {q.id!r}: the id is already used in {quotes_seen[q.id]} of the same folder"
                )
            quotes_seen[q.id] = spec.path
    return specs


def _folder_hash(specs: Sequence[_Spec]) -> str:
    h = hashlib.sha256()
    for spec in specs:
        h.update(spec.path.name.encode() + b"\0" + hashlib.sha256(spec.data).digest())
    return h.hexdigest()


def _load_folder(
    folder: Path,
    *,
    papers_path: str | os.PathLike | Sequence[str | os.PathLike] | None,
    document: Document | None,
    paper: str | None,
    cache: "ExtractionCache | None",
) -> QuoteSet:
    """A folder of sets as one set of several papers: each file keeps its own pins,
    chunking and checks; the papers are in file name order, and every quote names its
    paper (a one-paper file's paper is known by its file name without extension)."""
    specs = _folder_specs(folder)
    owners = {_spec_paper_id(ps): spec for spec in specs for ps in spec.papers}
    if paper is not None:
        if paper not in owners:
            raise DatasetError(f"{folder}: no paper {paper!r} in this folder of sets (papers: {', '.join(owners)})")
        return load_quote_set(owners[paper].path, papers_path=papers_path, document=document, paper=paper, cache=cache)
    if document is not None:
        raise DatasetError(
            f"{folder}: the folder's sets span {len(owners)} papers; an open document stands for one of them: name it with paper=ID"
        )
    parts = tuple(
        part
        for spec in specs
        for part in load_quote_set(spec.path, papers_path=papers_path, cache=cache).parts
    )
    quotes = tuple(replace(q, paper=part.paper_id) for part in parts for q in part.quotes)
    return QuoteSet(
        name=_folder_name(folder),
        quotes=quotes,
        description=f"the {len(specs)} sets of {folder.name}/, one set of {len(parts)} papers",
        path=folder,
        set_hash=_folder_hash(specs),
        warnings=tuple(dict.fromkeys(w for part in parts for w in part.warnings)),
        paper_sets=parts,
    )


def _spec_paper_id(ps: _PaperSpec) -> str:
    return ps.paper.id or Path(ps.paper.file).stem


def _load_part(
    spec: _Spec,
    ps: _PaperSpec,
    folders: list[Path],
    path_or_name: str | os.PathLike,
    document: Document | None,
    cache: "ExtractionCache | None" = None,
    confined: Path | None = None,
) -> QuoteSet:
    """One paper of a set: opened, pin-checked, chunked, every anchor verified."""
    where = spec.source
    if ps.index is not None:
        line = spec.lines.get(("papers", ps.index))
        where = f"{spec.source}: line {line}: paper {ps.paper.id!r} (papers[{ps.index}])" if line else spec.source
    if document is not None:
        pin = check_pin(ps.paper, document, document.name)
        if not pin.ok:
            raise DatasetError(f"{where}: paper {ps.paper.file!r} ({document.name}) does not match its pin: {pin.reason}")
        resolved = Resolved(Path(document.name), document, pin.warnings)
    else:
        resolved = resolve(ps.paper, folders, set_name=_fetch_name(path_or_name, spec), source=where,
                           confined=confined, cache=cache)
    doc = resolved.document
    field_name = "chunking.file" if ps.index is None else f"papers[{ps.index}].chunking.file"
    if ps.chunk_file is not None:
        try:
            chunks = load_chunks_file(ps.chunk_file, doc.text)
        except ChunkError as exc:
            raise DatasetError(f"{where}: field {field_name!r}: {exc}") from None
    else:
        chunks = make_chunks(doc.text, ps.chunking)
    if spec.multi:
        positions = [i for i, q in enumerate(spec.quotes) if q.paper == ps.paper.id]
        quotes = tuple(spec.quotes[i] for i in positions)
        set_hash = hashlib.sha256(spec.data + b"\0" + ps.paper.id.encode()).hexdigest()
    else:
        positions, quotes = None, spec.quotes
        set_hash = hashlib.sha256(spec.data).hexdigest()
    _verify_anchors(quotes, doc, chunks, spec.source, lines=spec.lines, positions=positions)
    return QuoteSet(
        name=spec.name,
        quotes=quotes,
        paper=ps.paper,
        description=spec.description,
        path=spec.path,
        set_hash=set_hash,
        chunking=ps.chunking,
        chunk_file=ps.chunk_file,
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
    paper: str | None = None,
) -> Fetched:
    """Download a set's pinned paper from ``paper.url`` into ``dest`` (default: the
    user cache, the last folder of the papers search path) and check its pin.

    The download goes to a temporary file in ``dest`` that becomes the target only
    when the bytes match the pinned sha256, or have the pinned text fingerprint (a
    warning then says so). A file already there under the paper's name is never
    replaced: it is used when it satisfies the pin, else :class:`FetchError` says to
    move it away. ``opener`` is called as ``opener(url, timeout=timeout)`` and
    must return a readable, closable response (tests pass a fake; nothing else here
    touches the network). ``paper``: which paper of a set of several (its id); see
    :func:`fetch_all` for every paper. Raises :class:`FetchError`.
    """
    try:
        folder = _set_folder(name_or_path)
        specs = _folder_specs(folder) if folder is not None else [_read_spec(name_or_path)]
    except DatasetError as exc:
        raise FetchError(str(exc)) from None
    where = str(folder) if folder is not None else specs[0].source
    listed = [(spec, ps) for spec in specs for ps in spec.papers]
    ids = [_spec_paper_id(ps) for _, ps in listed]
    if paper is None and len(listed) > 1:
        raise FetchError(f"{where}: the set spans {len(ids)} papers ({', '.join(ids)}); name one, or fetch them all")
    if paper is not None and paper not in ids:
        raise FetchError(f"{where}: no paper {paper!r} in this set (papers: {', '.join(ids)})")
    spec, chosen = listed[ids.index(paper)] if paper is not None else listed[0]
    return _fetch_paper(spec, chosen, dest=dest, opener=opener, timeout=timeout)


def fetch_all(
    name_or_path: str | os.PathLike,
    *,
    dest: str | os.PathLike | None = None,
    opener: Callable[..., Any] = urllib.request.urlopen,
    timeout: float = 60.0,
) -> tuple[Fetched, ...]:
    """:func:`fetch` for every paper of the set, in the order the set lists them (a
    folder of sets: every paper of every file, in file name order)."""
    try:
        folder = _set_folder(name_or_path)
        specs = _folder_specs(folder) if folder is not None else [_read_spec(name_or_path)]
    except DatasetError as exc:
        raise FetchError(str(exc)) from None
    return tuple(
        _fetch_paper(spec, ps, dest=dest, opener=opener, timeout=timeout) for spec in specs for ps in spec.papers
    )


def _fetch_paper(
    spec: _Spec, ps: _PaperSpec, *, dest: str | os.PathLike | None, opener: Callable[..., Any], timeout: float
) -> Fetched:
    paper = ps.paper
    url_field = "paper.url" if ps.index is None else f"papers[{ps.index}].url"
    if not paper.url:
        raise FetchError(f"{spec.source}: field {url_field!r}: the set gives no URL to download {paper.file!r} from")
    if urllib.parse.urlsplit(paper.url).scheme not in ("http", "https"):
        shipped = spec.path.parent / paper.file
        if shipped.is_file():
            try:
                doc = Document.open(shipped) if sha256_file(shipped) != paper.sha256 else None
            except DocumentError as exc:
                raise FetchError(f"{spec.source}: {exc}") from None
            pin = check_pin(paper, doc, str(shipped)) if doc is not None else PinCheck(True)
            if pin.ok:
                return Fetched(path=shipped, sha256=sha256_file(shipped), downloaded=False, warnings=pin.warnings)
        raise FetchError(
            f"{spec.source}: field {url_field!r}: {paper.url!r} is not an http(s) URL; "
            f"{paper.file!r} ships with the set, there is nothing to download"
        )
    if dest is None:
        # a pinned copy already on the papers search path needs no download
        for candidate in papers_search_path():
            present = candidate / paper.file
            if present.is_file() and sha256_file(present) == paper.sha256:
                return Fetched(path=present, sha256=paper.sha256, downloaded=False)
    folder = Path(dest) if dest is not None else papers.cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FetchError(f"{folder}: cannot create the download folder ({exc.strerror})") from None
    target = folder / paper.file
    if target.is_file() and sha256_file(target) == paper.sha256:
        return Fetched(path=target, sha256=paper.sha256, downloaded=False)
    if target.exists() or target.is_symlink():
        # someone's file under the paper's name: kept if its text satisfies the pin, never replaced
        existing = None
        try:
            existing = Document.open(target) if target.is_file() else None
        except DocumentError:
            pass
        pin = check_pin(paper, existing, str(target)) if existing is not None else PinCheck(False, reason="it cannot be opened")
        if pin.ok:
            return Fetched(path=target, sha256=sha256_file(target), downloaded=False, warnings=pin.warnings)
        raise FetchError(
            f"{target}: already exists and does not match the pin of {spec.source} ({pin.reason}); "
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
            pin = check_pin(paper, doc, paper.url)
            if not pin.ok:
                raise FetchError(f"{paper.url}: downloaded file does not match the pin of {spec.source}: {pin.reason}")
            warnings = pin.warnings
        os.replace(tmp, target)
        return Fetched(path=target, sha256=digest, downloaded=True, warnings=warnings)
    finally:
        if tmp.exists():
            tmp.unlink()


def bundled_sets() -> dict[str, Path]:
    """Bundled set names and the files they resolve to (whether or not they exist yet)."""
    return {name: papers.DATASETS_DIR / rel for name, rel in BUNDLED_SETS.items()}
