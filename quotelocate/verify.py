"""One call for a pipeline's output: many quotes over many documents.

A pipeline that asked a model to quote its sources ends up with documents (files, bytes
or already opened :class:`~quotelocate.document.Document` objects, keyed by the id the
pipeline uses for them) and items ``{"doc": id, "quote": str, "cited_chunk": int?,
"chunks": [str, ...]?, "chunking": Chunking?, "rules": Rules | preset name?, "scope": str?}``. :func:`verify` returns one
:class:`~quotelocate.locate.Verdict` per item, in input order, exactly as
:meth:`Locator.locate <quotelocate.locate.Locator.locate>` would give it: each document
is opened once, and one :class:`~quotelocate.locate.Locator` is built per document,
rules and chunking and reused for every item that shares them.

``chunks`` are the texts of the chunks the pipeline cut from the document (what
``cited_chunk`` indexes), or their ``[start, end)`` spans of the document's text; without
them the document is cut with ``chunking``. Items that give other chunks of the same
document share its index: only the chunk boundaries differ.

>>> from quotelocate.document import Document
>>> docs = {"memo": Document.from_text("Attention is all you\\nneed, the authors wrote.")}
>>> [v.status for v in verify(docs, [{"doc": "memo", "quote": "Attention is all you need"},
...                                  {"doc": "memo", "quote": "Attention is all we need"}])]
['normalized', 'not-found']

:func:`verify_frame` is the same over a pandas DataFrame (pandas comes with the
``[eval]`` extra) and returns a copy with verdict columns added.
"""

from __future__ import annotations

import math
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence, Union

from .chunks import Chunk, Chunking, chunks_from_texts
from .document import Document
from .errors import ChunkError, ConfigError, QuoteInputError
from .limits import DEFAULT_LIMITS, Limits
from .locate import Locator, Verdict
from .normalize import Rules, preset

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

DocumentSource = Union[str, "os.PathLike[str]", bytes, Document, Locator]
"""A document as :func:`verify` takes it: a path, the file's bytes, a Document, or a
Locator already built over one (used as it is, for its own rules and chunking)."""

ITEM_FIELDS = ("doc", "quote", "cited_chunk", "chunks", "chunking", "rules", "scope")
"""Keys an item may have; ``doc`` and ``quote`` are required."""

FRAME_COLUMNS = ("accepted", "status", "page", "start", "end", "cause", "reason", "fingerprint")
"""Columns :func:`verify_frame` adds (after its ``prefix``)."""


def verdict_record(verdict: Verdict) -> dict[str, Any]:
    """``verdict`` in the published verdict schema's form (``quotelocate schema verdict``):
    :meth:`Verdict.to_dict` with the quote it is about.

    >>> from quotelocate.document import Document
    >>> v = Locator(Document.from_text("The encoder maps an input sequence.")).locate("maps an input sequence")
    >>> record = verdict_record(v)
    >>> record["quote"], record["status"], record["start"], record["end"]
    ('maps an input sequence', 'exact', 12, 34)
    """
    return {"quote": verdict.quote, **verdict.to_dict()}


def open_source(source: DocumentSource, *, name: str, limits: Limits = DEFAULT_LIMITS) -> Document:
    """Open one document given as a path, bytes or Document. Bytes that start like a PDF
    are extracted as a PDF under ``limits``; other bytes must be UTF-8 text. A string is
    a path; one with a line break, or longer than any path, is refused as text."""
    if isinstance(source, Document):
        return source
    if isinstance(source, Locator):
        return source.document
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if data.lstrip()[:5] == b"%PDF-":
            return Document.from_pdf_bytes(data, name=name, limits=limits)
        if len(data) > limits.max_file_bytes:
            raise QuoteInputError(f"{name}: {len(data)} bytes exceeds the file size limit of {limits.max_file_bytes}")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise QuoteInputError(f"{name}: line {line}: not valid UTF-8 at byte {exc.start} and not a PDF") from None
        return Document.from_text(text, name=name)
    if isinstance(source, str) and ("\n" in source or len(source) > 4096):
        raise QuoteInputError(
            f"{name}: a string is read as a path, and this one looks like document text; "
            "pass Document.from_text(text) or text.encode() instead"
        )
    if isinstance(source, (str, os.PathLike)):
        return Document.open(source, limits=limits)
    raise QuoteInputError(f"{name}: expected a path, bytes or a Document (or a Locator), got {type(source).__name__}")


@dataclass
class Verifier:
    """Documents keyed by id, opened on first use, and the locators built over them.

    ``rules`` (default ``recommended``), ``chunking`` and ``scope`` apply to every item
    that does not set its own; ``limits`` applies to every PDF opened. Keep one Verifier
    to check several batches against the same documents without re-indexing them.

    One locator is built per document, rules and chunking; items that give explicit
    ``chunks`` use one of the document's locators under their rules, cut into their
    chunks (grouped by ``chunking.group_size``), sharing its index. A document given as a
    :class:`Locator` is checked by that locator (an item asking for other rules, or for
    other chunking without chunks of its own, is refused).

    ``cache_size`` (default None: no bound) keeps at most that many documents open with
    their locators; the one used least recently is closed first, and opened again if an
    item names it later. Documents added with :meth:`add` are forgotten with it.
    """

    documents: Mapping[str, DocumentSource]
    rules: Rules | str = "recommended"
    chunking: Chunking | None = None
    scope: str | None = None
    limits: Limits = DEFAULT_LIMITS
    cache_size: int | None = None
    _added: dict[str, DocumentSource] = field(default_factory=dict, repr=False)
    _opened: dict[str, Document] = field(default_factory=dict, repr=False)
    _locators: dict[tuple, Locator] = field(default_factory=dict, repr=False)
    _used: OrderedDict[str, None] = field(default_factory=OrderedDict, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.documents, Mapping):
            raise QuoteInputError(f"documents: expected a mapping of id to document, got {type(self.documents).__name__}")
        self.rules = _rules(self.rules, "rules")
        if self.cache_size is not None and (
            isinstance(self.cache_size, bool) or not isinstance(self.cache_size, int) or self.cache_size < 1
        ):
            raise ConfigError(f"cache_size: expected a whole number >= 1 or None, got {self.cache_size!r}")

    def add(self, doc_id: str, source: DocumentSource) -> None:
        """Add a document after construction (or replace the one added under ``doc_id``);
        a source that is the same object as before keeps what was opened and built for it."""
        if self._added.get(doc_id) is not source:
            self._forget(doc_id)
            self._added[doc_id] = source
        self._use(doc_id)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._added or doc_id in self.documents

    @property
    def opened(self) -> tuple[str, ...]:
        """Ids of the documents open now, least recently used first."""
        return tuple(d for d in self._used if d in self._opened)

    def source(self, doc_id: str) -> DocumentSource:
        """What ``doc_id`` was given as."""
        if doc_id in self._added:
            return self._added[doc_id]
        if doc_id not in self.documents:
            raise QuoteInputError(f"documents: no document with id {doc_id!r}")
        return self.documents[doc_id]

    def document(self, doc_id: str) -> Document:
        """The document with this id, opened on first use."""
        doc = self._opened.get(doc_id)
        if doc is None:
            doc = open_source(self.source(doc_id), name=str(doc_id), limits=self.limits)
            self._opened[doc_id] = doc
        self._use(doc_id)
        return doc

    def locator(
        self,
        doc_id: str,
        rules: Rules | str | None = None,
        chunks: Sequence[str] | Sequence[Chunk] | Sequence[tuple[int, int]] | None = None,
        *,
        chunking: Chunking | None = None,
        where: str = "chunks",
    ) -> Locator:
        """The locator for this document, rules (default: the Verifier's) and chunking
        (default: the Verifier's), built on first use; with ``chunks`` (their texts, or
        their ``[start, end)`` spans of the document's text) the same locator cut into them."""
        rules = self.rules if rules is None else _rules(rules, "rules")
        asked = chunking if chunking is not None else self.chunking
        source = self.source(doc_id)
        if isinstance(source, Locator):
            if source.rules != rules:
                raise ConfigError(
                    f"rules: the Locator given for {doc_id!r} has other rules ({source.fingerprint}) "
                    f"than the ones asked for ({rules.fingerprint})"
                )
            if chunks is None and asked is not None and asked != source.chunking:
                raise ConfigError(f"chunking: the Locator given for {doc_id!r} is cut into other chunks ({source.chunking})")
            loc, default = source, source.chunking
        else:
            default = Chunking()
            loc = None
            fingerprint = rules.fingerprint
            if chunks is not None:  # any locator of this document under these rules has the index to share
                loc = next((v for k, v in self._locators.items() if k[:2] == (doc_id, fingerprint)), None)
            if loc is None:
                key = (doc_id, fingerprint, asked or default)
                loc = self._locators.get(key)
                if loc is None:
                    loc = Locator(self.document(doc_id), rules, chunking=asked or default)
                    self._locators[key] = loc
        self._use(doc_id)
        if chunks is None:
            return loc
        explicit = _explicit_chunks(chunks, loc.document.text, where)
        return loc.with_chunks(explicit, group_size=(asked or default).group_size)

    def verify(self, items: Iterable[Mapping[str, Any]]) -> list[Verdict]:
        """One verdict per item, in input order. Raises
        :class:`~quotelocate.errors.QuoteInputError` naming the item on malformed input."""
        if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
            raise QuoteInputError(f"items: expected a sequence of mappings, got {type(items).__name__}")
        out = []
        cut: dict[tuple, Locator] = {}  # this batch's locators cut into explicit chunks
        for i, item in enumerate(items):
            where = f"items[{i}]"
            doc_id, quote, cited, chunks, chunking, rules, scope = self._item(item, where)
            # only a locator cut into explicit chunks is worth keeping for the batch
            key = None if chunks is None else (doc_id, rules.fingerprint, chunking, chunks)
            locator = None if key is None else cut.get(key)
            if locator is None:
                try:
                    locator = self.locator(doc_id, rules, chunks, chunking=chunking, where=f"{where}.chunks")
                except ConfigError as exc:
                    raise QuoteInputError(f"{where}: {exc}") from None
                if key is not None:
                    cut[key] = locator
            try:
                out.append(locator.locate(quote, cited_chunk=cited, scope=scope))
            except ConfigError as exc:
                raise QuoteInputError(f"{where}: {exc}") from None
        return out

    def _use(self, doc_id: str) -> None:
        self._used[doc_id] = None
        self._used.move_to_end(doc_id)
        while self.cache_size is not None and len(self._used) > self.cache_size:
            oldest = next(iter(self._used))
            self._forget(oldest)
            self._added.pop(oldest, None)

    def _forget(self, doc_id: str) -> None:
        self._used.pop(doc_id, None)
        self._opened.pop(doc_id, None)
        for key in [k for k in self._locators if k[0] == doc_id]:
            del self._locators[key]

    def _item(
        self, item: Any, where: str
    ) -> tuple[str, str, int | None, tuple | None, Chunking | None, Rules, str | None]:
        if not isinstance(item, Mapping):
            raise QuoteInputError(f"{where}: expected a mapping with 'doc' and 'quote', got {type(item).__name__}")
        unknown = sorted(str(k) for k in item if k not in ITEM_FIELDS)
        if unknown:
            raise QuoteInputError(f"{where}: unknown field {unknown[0]!r} (fields: {', '.join(ITEM_FIELDS)})")
        doc_id = item.get("doc")
        if not isinstance(doc_id, (str, int, bool)) and hasattr(doc_id, "__index__"):
            doc_id = doc_id.__index__()  # a numpy integer from a DataFrame column
        if not isinstance(doc_id, (str, int)) or isinstance(doc_id, bool):
            raise QuoteInputError(f"{where}.doc: expected a document id, got {doc_id!r}")
        if doc_id not in self:
            raise QuoteInputError(f"{where}.doc: no document with id {doc_id!r}")
        quote = item.get("quote")
        if not isinstance(quote, str):
            raise QuoteInputError(f"{where}.quote: expected a string, got {type(quote).__name__}")
        cited = _optional_int(item.get("cited_chunk"), f"{where}.cited_chunk")
        chunks = item.get("chunks")
        if _missing(chunks):
            chunks = None
        elif isinstance(chunks, (str, bytes)) or not isinstance(chunks, Sequence):
            raise QuoteInputError(f"{where}.chunks: expected a list of chunk texts or spans, got {type(chunks).__name__}")
        else:
            chunks = tuple(c if isinstance(c, (str, Chunk)) else tuple(c) if isinstance(c, Sequence) else c for c in chunks)
        chunking = _chunking(item.get("chunking"), f"{where}.chunking")
        rules = self.rules if _missing(item.get("rules")) else _rules(item["rules"], f"{where}.rules")
        scope = item.get("scope")
        scope = self.scope if _missing(scope) else scope
        return doc_id, quote, cited, chunks, chunking, rules, scope  # type: ignore[return-value]


def verify(
    documents: Mapping[str, DocumentSource],
    items: Iterable[Mapping[str, Any]],
    *,
    rules: Rules | str = "recommended",
    chunking: Chunking | None = None,
    scope: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> list[Verdict]:
    """Verify every item against its document; one verdict per item, in input order.

    ``documents`` maps an id to a path, the file's bytes, a :class:`Document` or a
    :class:`Locator`; only the documents the items name are opened. Items are mappings
    ``{"doc", "quote"}`` with optional ``cited_chunk``, ``chunks`` (the chunk texts or
    spans ``cited_chunk`` indexes), ``chunking`` (a :class:`Chunking` or a mapping of its
    fields), ``rules`` and ``scope``; ``rules``, ``chunking``, ``scope`` and ``limits``
    are the defaults (see :class:`Verifier`).
    """
    verifier = Verifier(documents, rules=rules, chunking=chunking, scope=scope, limits=limits)
    return verifier.verify(items)


def verify_frame(
    frame: "pd.DataFrame",
    documents: Mapping[str, DocumentSource],
    *,
    rules: Rules | str = "recommended",
    chunking: Chunking | None = None,
    scope: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    prefix: str = "",
) -> "pd.DataFrame":
    """A copy of ``frame`` (columns ``doc``, ``quote`` and optionally ``cited_chunk``,
    ``chunks``, ``rules``, ``scope``) with the verdict columns :data:`FRAME_COLUMNS` added,
    each named ``prefix + column``. A column that already exists is an error, never
    overwritten. Missing values (``None``, ``NaN``) in optional columns mean "not given".
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise QuoteInputError(f"frame: expected a pandas DataFrame, got {type(frame).__name__}")
    for required in ("doc", "quote"):
        if required not in frame.columns:
            raise QuoteInputError(f"frame: missing column {required!r}")
    names = [prefix + c for c in FRAME_COLUMNS]
    clash = [n for n in names if n in frame.columns]
    if clash:
        raise QuoteInputError(f"frame: column {clash[0]!r} already exists; pass prefix= to name the verdict columns")
    used = [c for c in ITEM_FIELDS if c in frame.columns]
    items = [{c: row[k] for k, c in enumerate(used) if not _missing(row[k])} for row in frame[used].itertuples(index=False)]
    verdicts = verify(documents, items, rules=rules, chunking=chunking, scope=scope, limits=limits)
    out = frame.copy()
    for name, column in zip(names, FRAME_COLUMNS):
        if column == "page":
            values: list[Any] = [v.page for v in verdicts]
        else:
            values = [getattr(v, column) for v in verdicts]
        dtype = "boolean" if column == "accepted" else "Int64" if column in ("page", "start", "end") else "object"
        out[name] = pd.array(values, dtype=dtype)
    return out


# -- helpers --------------------------------------------------------------------------


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _optional_int(value: Any, where: str) -> int | None:
    if _missing(value):
        return None
    if isinstance(value, bool):
        raise QuoteInputError(f"{where}: expected a chunk index, got {value!r}")
    if isinstance(value, int):
        return value
    if hasattr(value, "__index__"):  # numpy integers from a DataFrame
        return int(value.__index__())
    if isinstance(value, float) and value.is_integer():  # an int column with gaps becomes float
        return int(value)
    raise QuoteInputError(f"{where}: expected a chunk index, got {value!r}")


def _chunking(value: Any, where: str) -> Chunking | None:
    if _missing(value) or isinstance(value, Chunking):
        return value
    if isinstance(value, Mapping):
        unknown = sorted(str(k) for k in value if k not in ("size", "overlap", "group_size"))
        if unknown:
            raise QuoteInputError(f"{where}: unknown field {unknown[0]!r} (fields: size, overlap, group_size)")
        try:
            return Chunking(**{str(k): v for k, v in value.items() if not _missing(v)})
        except ConfigError as exc:
            raise QuoteInputError(f"{where}: {exc}") from None
    raise QuoteInputError(f"{where}: expected a Chunking or a mapping of size, overlap and group_size, got {type(value).__name__}")


def _explicit_chunks(chunks: Sequence[Any], text: str, where: str) -> tuple[Chunk, ...]:
    """Chunk texts found in ``text`` in order, or spans taken as they are."""
    if chunks and all(isinstance(c, str) for c in chunks):
        return chunks_from_texts(chunks, text, where=where)
    out = []
    for i, c in enumerate(chunks):
        if isinstance(c, Chunk):
            c = (c.start, c.end)
        if (
            isinstance(c, str) or not isinstance(c, Sequence) or len(c) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in c)
        ):  # fmt: skip
            raise ChunkError(f"{where}[{i}]: expected chunk texts, or [start, end] spans of the document text, got {c!r}")
        start, end = c
        if not 0 <= start <= end <= len(text) or (out and start < out[-1].start):
            raise ChunkError(f"{where}[{i}]: span [{start}, {end}] is not within 0..{len(text)} in order of start")
        out.append(Chunk(i, start, end))
    if not out:
        raise ChunkError(f"{where}: expected at least one chunk")
    return tuple(out)


def _rules(value: Any, where: str) -> Rules:
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        try:
            return preset(value)
        except ConfigError as exc:
            raise QuoteInputError(f"{where}: {exc}") from None
    raise QuoteInputError(f"{where}: expected Rules or a preset name, got {type(value).__name__}")
