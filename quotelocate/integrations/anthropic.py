"""Check the citations in an Anthropic Messages API response, and the quotes the model
wrote in its own prose.

With citations enabled, a response's ``content`` is a list of blocks; a ``text`` block
may carry ``citations``, each with the ``cited_text``, the ``document_index`` (the
position of the document in the request) and a location:

* ``char_location``: ``start_char_index``/``end_char_index``, 0-based, end exclusive,
  into a plain-text document;
* ``page_location``: ``start_page_number``/``end_page_number``, 1-based, end exclusive,
  in a PDF;
* ``content_block_location``: ``start_block_index``/``end_block_index``, 0-based, end
  exclusive, into a custom-content document's blocks.

:func:`verify_anthropic` checks each one against the documents: the cited text must be
in the cited document (after the rules in force, exactly as ``Locator.locate`` decides)
and inside the location claimed. Statuses:

* ``verified``: in the document and inside the claimed location;
* ``misplaced``: in the document, but not where the location says; the check says where
  it really is. A location that lies is a wrong citation even when the text is real;
* ``not-found``: not in the document (the verdict gives the cause and the closest passage);
* ``invalid``: too short to verify, or empty.

Quotes the model writes in its own prose, in quotation marks (``the paper says "…"``),
are extracted from the text blocks and checked against every document
(``kind="prose"``): ``verified`` when one holds it, else ``not-found``. A span in
quotation marks with fewer words than the rules' ``min_words`` is a term, not a quote,
and is not checked.

``documents`` lists the documents in request order: a path, the file's bytes or a
:class:`~quotelocate.document.Document` for text and PDF documents, and a list of the
blocks' texts for a custom-content document. The response is the API's JSON (a dict),
or an SDK object with ``model_dump()``; the SDK itself is never imported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..chunks import Chunk, Chunking
from ..document import Document
from ..errors import QuoteInputError
from ..limits import DEFAULT_LIMITS, Limits
from ..locate import Locator, Verdict
from ..normalize import Rules, preset
from ..verify import DocumentSource, open_source

LOCATION_KINDS = ("char_location", "page_location", "content_block_location")
CHECK_STATUSES = ("verified", "misplaced", "not-found", "invalid")

BLOCK_SEPARATOR = "\n\n"
"""Joins a custom-content document's blocks into one text (whitespace to the rules)."""

# A quotation in prose: straight or curly double quotes, or single quotes that open after
# a space or bracket and close before a non-letter (so "don't" and "the model's" are not quotes).
_PROSE_QUOTE = re.compile(
    r"\"(?P<d>[^\"\n]+)\""
    r"|\u201c(?P<c>[^\u201d\n]+)\u201d"
    r"|(?:(?<=^)|(?<=[\s(\[]))'(?P<s>[^'\n]*?[^\s'])'(?=[\s.,;:!?)\]]|$)"
    r"|(?:(?<=^)|(?<=[\s(\[]))\u2018(?P<cs>[^\u2019\n]*?\S)\u2019(?=[\s.,;:!?)\]]|$)",
    re.MULTILINE,
)


@dataclass(frozen=True)
class CitationCheck:
    """The check of one citation or one quote in prose.

    ``block``: index of the text block in ``content`` (for prose, the block where the
    quote opens); ``citation``: index in that block's ``citations`` (None for prose);
    ``kind``: a location type or ``prose``; ``document_index``: the cited document (for
    prose, the one that holds the quote, or the first); ``claimed``: the location as
    given, ``claimed_start``/``claimed_end`` the span of the document text it covers;
    ``verdict``: where the text really is (``verdict.start``, ``verdict.pages``) or why
    it is not found.
    """

    block: int
    citation: int | None
    kind: str
    document_index: int | None
    cited_text: str
    status: str
    reason: str
    verdict: Verdict | None = None
    claimed: dict[str, Any] = field(default_factory=dict)
    claimed_start: int | None = None
    claimed_end: int | None = None

    @property
    def accepted(self) -> bool:
        return self.status == "verified"

    def to_dict(self) -> dict[str, Any]:
        return {
            "block": self.block,
            "citation": self.citation,
            "kind": self.kind,
            "document_index": self.document_index,
            "cited_text": self.cited_text,
            "status": self.status,
            "accepted": self.accepted,
            "reason": self.reason,
            "claimed": dict(self.claimed),
            "claimed_start": self.claimed_start,
            "claimed_end": self.claimed_end,
            "verdict": self.verdict.to_dict() if self.verdict is not None else None,
        }


class _Source:
    """One document of the request: the text, its units (pages or blocks) and locators."""

    def __init__(self, index: int, source: Any, rules: Rules, limits: Limits) -> None:
        name = f"document {index}"
        self.blocks: tuple[tuple[int, int], ...] | None = None
        if isinstance(source, (list, tuple)):
            if not source or not all(isinstance(b, str) for b in source):
                raise QuoteInputError(f"documents[{index}]: a custom-content document is a non-empty list of strings")
            spans, pos = [], 0
            for b in source:
                spans.append((pos, pos + len(b)))
                pos += len(b) + len(BLOCK_SEPARATOR)
            self.blocks = tuple(spans)
            self.document = Document.from_text(BLOCK_SEPARATOR.join(source), name=name, kind="text")
        else:
            self.document = open_source(source, name=name, limits=limits)
        self.rules = rules
        self.locator = Locator(self.document, rules)
        self._by_unit: Locator | None = None

    def units(self) -> tuple[Chunk, ...]:
        """Pages (or blocks) as chunks, so a quote can be looked for inside one of them."""
        spans = self.blocks if self.blocks is not None else [(p.start, p.end) for p in self.document.pages]
        return tuple(Chunk(i, s, e) for i, (s, e) in enumerate(spans))

    def by_unit(self) -> Locator:
        if self._by_unit is None:
            self._by_unit = Locator(self.document, self.rules, chunking=Chunking(group_size=1), chunks=self.units())
        return self._by_unit


def _as_dict(response: Any) -> Mapping[str, Any]:
    if isinstance(response, Mapping):
        return response
    dump = getattr(response, "model_dump", None)
    if callable(dump):
        data = dump()
        if isinstance(data, Mapping):
            return data
    raise QuoteInputError(f"response: expected a Messages API response (a dict), got {type(response).__name__}")


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise QuoteInputError(f"{where}: expected an integer, got {value!r}")
    return value


def _claimed_span(src: _Source, citation: Mapping[str, Any], kind: str, where: str) -> tuple[dict[str, Any], int | None, int | None, tuple[int, ...]]:
    """The location as given, the span of the text it covers (None when it lies outside
    the document) and the units (pages or blocks, 0-based) it names."""
    doc = src.document
    if kind == "char_location":
        lo = _int(citation.get("start_char_index"), f"{where}.start_char_index")
        hi = _int(citation.get("end_char_index"), f"{where}.end_char_index")
        claimed = {"start_char_index": lo, "end_char_index": hi}
        if not 0 <= lo < hi <= len(doc.text):
            return claimed, None, None, ()
        return claimed, lo, hi, ()
    if kind == "page_location":
        a = _int(citation.get("start_page_number"), f"{where}.start_page_number")
        b = _int(citation.get("end_page_number"), f"{where}.end_page_number")
        claimed = {"start_page_number": a, "end_page_number": b}
        if not 1 <= a < b <= len(doc.pages) + 1:
            return claimed, None, None, ()
        return claimed, doc.pages[a - 1].start, doc.pages[b - 2].end, tuple(range(a - 1, b - 1))
    a = _int(citation.get("start_block_index"), f"{where}.start_block_index")
    b = _int(citation.get("end_block_index"), f"{where}.end_block_index")
    claimed = {"start_block_index": a, "end_block_index": b}
    if src.blocks is None:
        raise QuoteInputError(f"{where}: a content_block_location cites document {citation.get('document_index')}, "
                              "which was not given as a list of blocks")  # fmt: skip
    if not 0 <= a < b <= len(src.blocks):
        return claimed, None, None, ()
    return claimed, src.blocks[a][0], src.blocks[b - 1][1], tuple(range(a, b))


def _describe(kind: str, claimed: Mapping[str, Any]) -> str:
    if kind == "char_location":
        return f"characters {claimed['start_char_index']}-{claimed['end_char_index']}"
    if kind == "page_location":
        a, b = claimed["start_page_number"], claimed["end_page_number"]
        return f"page {a}" if b == a + 1 else f"pages {a}-{b - 1}"
    a, b = claimed["start_block_index"], claimed["end_block_index"]
    return f"block {a}" if b == a + 1 else f"blocks {a}-{b - 1}"


def _where_found(src: _Source, verdict: Verdict) -> str:
    pages = ", ".join(map(str, verdict.pages))
    where = f"page {pages}, characters {verdict.start}-{verdict.end}"
    if src.blocks is not None and verdict.start is not None:
        blocks = [i for i, (s, e) in enumerate(src.blocks) if s < verdict.end and verdict.start < e]  # type: ignore[operator]
        where = f"block {', '.join(map(str, blocks))}, characters {verdict.start}-{verdict.end}"
    return where


def _inside(verdict: Verdict, lo: int, hi: int) -> bool:
    spans = verdict.spans or ((verdict.start, verdict.end),)
    return all(lo <= s and e <= hi for s, e in spans)  # type: ignore[operator]


def _check_citation(src: _Source, cited: str, kind: str, citation: Mapping[str, Any], where: str) -> tuple[str, str, Verdict, dict, int | None, int | None]:
    claimed, lo, hi, units = _claimed_span(src, citation, kind, where)
    verdict = src.locator.locate(cited)
    if verdict.status == "invalid":
        return "invalid", verdict.reason, verdict, claimed, lo, hi
    if not verdict.accepted:
        return "not-found", f"not in document {citation['document_index']}: {verdict.reason}", verdict, claimed, lo, hi
    said = _describe(kind, claimed)
    if lo is not None and hi is not None:
        if _inside(verdict, lo, hi):
            return "verified", f"on {said} as cited ({_where_found(src, verdict)})", verdict, claimed, lo, hi
        if verdict.ambiguous:  # the first occurrence is elsewhere; another may be where cited
            for unit in units:
                inner = src.by_unit().locate(cited, cited_chunk=unit, scope="chunk")
                if inner.accepted:
                    return "verified", f"on {said} as cited ({_where_found(src, inner)})", inner, claimed, lo, hi
            if kind == "char_location":
                inner = _in_char_range(src, cited, lo, hi)
                if inner is not None:
                    return "verified", f"on {said} as cited ({_where_found(src, inner)})", inner, claimed, lo, hi
        return "misplaced", f"cited as {said}, but it is at {_where_found(src, verdict)}", verdict, claimed, lo, hi
    return "misplaced", f"cited as {said}, which is not in document {citation['document_index']}; it is at {_where_found(src, verdict)}", verdict, claimed, lo, hi


def _in_char_range(src: _Source, cited: str, lo: int, hi: int) -> Verdict | None:
    """An occurrence of ``cited`` inside ``[lo, hi)``: the document's locator with that
    range as its only chunk (built only when the first occurrence is elsewhere)."""
    locator = Locator(src.document, src.rules, chunking=Chunking(group_size=1), chunks=(Chunk(0, lo, hi),))
    inner = locator.locate(cited, cited_chunk=0, scope="chunk")
    return inner if inner.accepted else None


def prose_quotes(text: str) -> list[tuple[int, str]]:
    """``(offset, quote)`` for every span of ``text`` in quotation marks.

    >>> prose_quotes('As the paper says, "attention is all you need", and it\\'s \\'short\\'.')
    [(20, 'attention is all you need'), (58, 'short')]
    """
    out = []
    for m in _PROSE_QUOTE.finditer(text):
        name = next(k for k in ("d", "c", "s", "cs") if m.group(k) is not None)
        out.append((m.start(name), m.group(name)))
    return out


def verify_anthropic(
    response: Any,
    documents: Sequence[DocumentSource | Sequence[str]],
    *,
    rules: Rules | str = "recommended",
    prose: bool = True,
    limits: Limits = DEFAULT_LIMITS,
) -> list[CitationCheck]:
    """Check every citation in ``response`` and, with ``prose``, every quote the model
    wrote in quotation marks; one :class:`CitationCheck` each, citations first in the
    order they appear, then prose quotes in the order they appear. Raises
    :class:`~quotelocate.errors.QuoteInputError` naming the field on a malformed response.
    """
    data = _as_dict(response)
    content = data.get("content")
    if not isinstance(content, list):
        raise QuoteInputError(f"response.content: expected a list of content blocks, got {type(content).__name__}")
    if isinstance(documents, (str, bytes)) or not isinstance(documents, Sequence):
        raise QuoteInputError("documents: expected the documents in request order (a list)")
    rules = preset(rules) if isinstance(rules, str) else rules
    sources: dict[int, _Source] = {}

    def source(i: int, where: str) -> _Source:
        if not 0 <= i < len(documents):
            raise QuoteInputError(f"{where}.document_index: {i} is not a document of the request (0..{len(documents) - 1})")
        if i not in sources:
            sources[i] = _Source(i, documents[i], rules, limits)
        return sources[i]

    checks: list[CitationCheck] = []
    prose_text: list[tuple[int, int, str]] = []  # (block, offset in the joined text, text)
    pos = 0
    for b, block in enumerate(content):
        where = f"response.content[{b}]"
        if not isinstance(block, Mapping):
            raise QuoteInputError(f"{where}: expected a content block (an object), got {type(block).__name__}")
        if block.get("type") != "text":
            continue  # tool use, thinking, images: no text of the model's to check
        text = block.get("text")
        if not isinstance(text, str):
            raise QuoteInputError(f"{where}.text: expected a string, got {type(text).__name__}")
        prose_text.append((b, pos, text))
        pos += len(text)
        citations = block.get("citations") or []
        if not isinstance(citations, list):
            raise QuoteInputError(f"{where}.citations: expected a list, got {type(citations).__name__}")
        for c, citation in enumerate(citations):
            cwhere = f"{where}.citations[{c}]"
            if not isinstance(citation, Mapping):
                raise QuoteInputError(f"{cwhere}: expected a citation (an object), got {type(citation).__name__}")
            kind = citation.get("type")
            if kind not in LOCATION_KINDS:
                raise QuoteInputError(f"{cwhere}.type: {kind!r} is not one of {', '.join(LOCATION_KINDS)}")
            cited = citation.get("cited_text")
            if not isinstance(cited, str):
                raise QuoteInputError(f"{cwhere}.cited_text: expected a string, got {type(cited).__name__}")
            index = _int(citation.get("document_index"), f"{cwhere}.document_index")
            src = source(index, cwhere)
            status, reason, verdict, claimed, lo, hi = _check_citation(src, cited, kind, citation, cwhere)
            checks.append(CitationCheck(block=b, citation=c, kind=kind, document_index=index, cited_text=cited,
                                        status=status, reason=reason, verdict=verdict, claimed=claimed,
                                        claimed_start=lo, claimed_end=hi))  # fmt: skip
    if prose and documents:
        joined = "".join(t for _, _, t in prose_text)
        for offset, quote in prose_quotes(joined):
            if len(quote.split()) < max(rules.min_words, 1):
                continue  # a term in quotation marks, not a quote
            block = next(b for b, start, _ in reversed(prose_text) if start <= offset)
            checks.append(_check_prose(quote, block, [source(i, "documents") for i in range(len(documents))]))
    return checks


def _check_prose(quote: str, block: int, srcs: list[_Source]) -> CitationCheck:
    first: tuple[int, Verdict] | None = None
    for i, src in enumerate(srcs):
        verdict = src.locator.locate(quote)
        if verdict.accepted:
            return CitationCheck(block=block, citation=None, kind="prose", document_index=i, cited_text=quote,
                                 status="verified", reason=f"in document {i} at {_where_found(src, verdict)}",
                                 verdict=verdict)  # fmt: skip
        if first is None or (verdict.near_miss and (first[1].near_miss is None or verdict.near_miss.similarity > first[1].near_miss.similarity)):
            first = (i, verdict)
    assert first is not None
    i, verdict = first
    status = "invalid" if verdict.status == "invalid" else "not-found"
    reason = verdict.reason if status == "invalid" else f"in no document; closest in document {i}: {verdict.reason}"
    return CitationCheck(block=block, citation=None, kind="prose", document_index=i, cited_text=quote,
                         status=status, reason=reason, verdict=verdict)  # fmt: skip
