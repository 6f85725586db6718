"""One call for a pipeline's output: many quotes over many documents.

A pipeline that asked a model to quote its sources ends up with documents (files, bytes
or already opened :class:`~quotelocate.document.Document` objects, keyed by the id the
pipeline uses for them) and items ``{"doc": id, "quote": str, "cited_chunk": int?,
"chunks": [str, ...]?, "rules": Rules | preset name?}``. :func:`verify` returns one
:class:`~quotelocate.locate.Verdict` per item, in input order, exactly as
:meth:`Locator.locate <quotelocate.locate.Locator.locate>` would give it: each document
is opened once, and one :class:`~quotelocate.locate.Locator` is built per document,
rules and chunking and reused for every item that shares them.

``chunks`` are the texts of the chunks the pipeline cut from the document (what
``cited_chunk`` indexes); without them the document is cut with ``chunking``.

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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence, Union

from .chunks import Chunking, chunks_from_texts
from .document import Document
from .errors import ConfigError, QuoteInputError
from .limits import DEFAULT_LIMITS, Limits
from .locate import Locator, Verdict
from .normalize import Rules, preset

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

DocumentSource = Union[str, "os.PathLike[str]", bytes, Document]
"""A document as :func:`verify` takes it: a path, the file's bytes, or a Document."""

ITEM_FIELDS = ("doc", "quote", "cited_chunk", "chunks", "rules", "scope")
"""Keys an item may have; ``doc`` and ``quote`` are required."""

FRAME_COLUMNS = ("accepted", "status", "page", "start", "end", "cause", "reason", "fingerprint")
"""Columns :func:`verify_frame` adds (after its ``prefix``)."""


def open_source(source: DocumentSource, *, name: str, limits: Limits = DEFAULT_LIMITS) -> Document:
    """Open one document given as a path, bytes or Document. Bytes that start like a PDF
    are extracted as a PDF under ``limits``; other bytes must be UTF-8 text. A string is
    a path; one with a line break, or longer than any path, is refused as text."""
    if isinstance(source, Document):
        return source
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
    raise QuoteInputError(f"{name}: expected a path, bytes or a Document, got {type(source).__name__}")


@dataclass
class Verifier:
    """Documents keyed by id, opened on first use, and the locators built over them.

    ``rules`` (default ``recommended``), ``chunking`` and ``scope`` apply to every item
    that does not set its own; ``limits`` applies to every PDF opened. Keep one Verifier
    to check several batches against the same documents without re-indexing them.
    """

    documents: Mapping[str, DocumentSource]
    rules: Rules | str = "recommended"
    chunking: Chunking | None = None
    scope: str | None = None
    limits: Limits = DEFAULT_LIMITS
    _opened: dict[str, Document] = field(default_factory=dict, repr=False)
    _locators: dict[tuple, Locator] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.documents, Mapping):
            raise QuoteInputError(f"documents: expected a mapping of id to document, got {type(self.documents).__name__}")
        self.rules = _rules(self.rules, "rules")

    def document(self, doc_id: str) -> Document:
        """The document with this id, opened on first use."""
        doc = self._opened.get(doc_id)
        if doc is None:
            if doc_id not in self.documents:
                raise QuoteInputError(f"documents: no document with id {doc_id!r}")
            doc = open_source(self.documents[doc_id], name=str(doc_id), limits=self.limits)
            self._opened[doc_id] = doc
        return doc

    def locator(self, doc_id: str, rules: Rules, chunks: tuple[str, ...] | None = None, *, where: str = "chunks") -> Locator:
        """The one locator for this document, rules and chunks, built on first use."""
        key = (doc_id, rules.fingerprint, chunks)
        loc = self._locators.get(key)
        if loc is None:
            doc = self.document(doc_id)
            explicit = chunks_from_texts(chunks, doc.text, where=where) if chunks is not None else None
            loc = Locator(doc, rules, chunking=self.chunking, chunks=explicit)
            self._locators[key] = loc
        return loc

    def verify(self, items: Iterable[Mapping[str, Any]]) -> list[Verdict]:
        """One verdict per item, in input order. Raises
        :class:`~quotelocate.errors.QuoteInputError` naming the item on malformed input."""
        if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
            raise QuoteInputError(f"items: expected a sequence of mappings, got {type(items).__name__}")
        out = []
        for i, item in enumerate(items):
            where = f"items[{i}]"
            doc_id, quote, cited, chunks, rules, scope = self._item(item, where)
            locator = self.locator(doc_id, rules, chunks, where=f"{where}.chunks")
            try:
                out.append(locator.locate(quote, cited_chunk=cited, scope=scope))
            except ConfigError as exc:
                raise QuoteInputError(f"{where}: {exc}") from None
        return out

    def _item(self, item: Any, where: str) -> tuple[str, str, int | None, tuple[str, ...] | None, Rules, str | None]:
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
        if doc_id not in self.documents:
            raise QuoteInputError(f"{where}.doc: no document with id {doc_id!r}")
        quote = item.get("quote")
        if not isinstance(quote, str):
            raise QuoteInputError(f"{where}.quote: expected a string, got {type(quote).__name__}")
        cited = _optional_int(item.get("cited_chunk"), f"{where}.cited_chunk")
        chunks = item.get("chunks")
        if _missing(chunks):
            chunks = None
        elif isinstance(chunks, (str, bytes)) or not isinstance(chunks, Sequence):
            raise QuoteInputError(f"{where}.chunks: expected a list of chunk texts, got {type(chunks).__name__}")
        else:
            chunks = tuple(chunks)
        rules = self.rules if _missing(item.get("rules")) else _rules(item["rules"], f"{where}.rules")
        scope = item.get("scope")
        scope = self.scope if _missing(scope) else scope
        return doc_id, quote, cited, chunks, rules, scope  # type: ignore[return-value]


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

    ``documents`` maps an id to a path, the file's bytes or a :class:`Document`; only the
    documents the items name are opened. Items are mappings ``{"doc", "quote"}`` with
    optional ``cited_chunk``, ``chunks`` (the chunk texts ``cited_chunk`` indexes),
    ``rules`` and ``scope``; ``rules``, ``chunking``, ``scope`` and ``limits`` are the
    defaults (see :class:`Verifier`).
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


def _rules(value: Any, where: str) -> Rules:
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        try:
            return preset(value)
        except ConfigError as exc:
            raise QuoteInputError(f"{where}: {exc}") from None
    raise QuoteInputError(f"{where}: expected Rules or a preset name, got {type(value).__name__}")
