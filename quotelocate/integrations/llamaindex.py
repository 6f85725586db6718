"""A LlamaIndex evaluator: the quotes in a response must be in the nodes it was given.

:class:`QuoteEvaluator` is a ``llama_index.core.evaluation.BaseEvaluator`` (extra
``llamaindex``). For a query engine's ``Response`` it reads the passages in double
quotation marks (:mod:`quotelocate.integrations.quotes`), places every source node in
the paper, and accepts a quote only when it is verbatim (under the rules) in the paper
*inside the text of the retrieved nodes*: a real sentence of the paper the model was
not shown is rejected as ``outside-material``, an invented one as ``not-found`` with
its cause and diff::

    evaluator = QuoteEvaluator(Document.open("1706.03762v7.pdf"))
    result = evaluator.evaluate_response(query=question, response=query_engine.query(question))
    result.passing, result.score, result.feedback

The result is a :class:`QuoteEvaluationResult`, an ``EvaluationResult`` that also
carries ``verdicts``: every quote's verdict in the published verdict schema
(``quotelocate schema verdict``), in the order of the response. The verdicts come from
:func:`quotelocate.verify.verify`: a quote is first checked against the whole paper, and
one found there is checked again with the placed nodes as its chunks (``scope`` chunk),
so the verdict is verify's for the node that holds it. The paper is opened and indexed
once, through the Verifier the process shares (:func:`quotelocate.testing.shared_verifier`).

A node is placed in the paper by, in order: its ``start_char_idx``/``end_char_idx``
when they index the paper's text (or, with a ``page_label`` metadata entry, that page's
text) and the text there is the node's; else its normalized text found once in the
normalized paper; else its first and last words (``anchor_words`` at a time) found once
each, which places all of it but perhaps a few words at either end. A node that cannot
be placed verifies nothing, and the feedback says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from llama_index.core.bridge.pydantic import Field
from llama_index.core.evaluation import BaseEvaluator, EvaluationResult

from ..document import Document
from ..errors import ConfigError
from ..locate import Locator, Verdict
from ..normalize import Rules, normalize_quote
from ..pipeline_chunks import PipelineChunk, PlacedChunks, place_chunks
from ..testing import failure_message, shared_verifier, source_id
from ..verify import Verifier, verdict_record
from .quotes import quoted_passages

_DOC = "document"
"""The id of the evaluator's paper in its own Verifier."""


class QuoteEvaluationResult(EvaluationResult):
    """An ``EvaluationResult`` with ``verdicts``: each quote's verdict in the published
    verdict schema (:func:`quotelocate.verify.verdict_record`), in the order of the response."""

    verdicts: list[dict[str, Any]] = Field(default_factory=list, description="each quote's verdict, schema form")


@dataclass(frozen=True)
class NodePlacement:
    """Where source node ``index`` lies in the paper: ``[start, end)`` of the document text
    and ``how`` it was found (``offsets``, ``page-offsets``, ``text``, ``anchors``), or
    ``start``/``end`` None and ``how`` ``unplaced``."""

    index: int
    start: int | None
    end: int | None
    how: str


@dataclass(frozen=True)
class QuoteCheck:
    """Every quote's verdict against the nodes' material, and where each node was placed."""

    quotes: tuple[str, ...]
    verdicts: tuple[Verdict, ...]
    placements: tuple[NodePlacement, ...] | None  # None: no nodes given, checked against the whole paper

    @property
    def accepted(self) -> int:
        return sum(v.accepted for v in self.verdicts)


class QuoteEvaluator(BaseEvaluator):
    """Passes when every quoted passage of a response is in the paper, inside its source nodes.

    ``document`` is a :class:`Document`, a :class:`Locator` or a path (a bare file name
    is looked for on the papers search path). ``rules``: a preset name or
    :class:`Rules` (default ``recommended``). ``min_quotes``: a response with fewer
    quoted passages fails (default 1; 0 lets a response without quotes pass).
    ``anchor_words``: words per anchor when a node is placed by its ends (default 8).
    The score is the share of quotes accepted.
    """

    def __init__(
        self,
        document: Document | Locator | str | os.PathLike,
        *,
        rules: Rules | str = "recommended",
        min_quotes: int = 1,
        anchor_words: int = 8,
    ) -> None:
        if isinstance(document, (str, os.PathLike)):
            from .documents import find_document

            document = find_document(document)
        shared = shared_verifier()
        locator = shared.locator(source_id(document, verifier=shared), rules)
        self._locator = locator
        self._verifier = Verifier({_DOC: locator}, rules=locator.rules)  # holds the paper's one locator
        if isinstance(min_quotes, bool) or not isinstance(min_quotes, int) or min_quotes < 0:
            raise ConfigError(f"min_quotes: expected a whole number >= 0, got {min_quotes!r}")
        if isinstance(anchor_words, bool) or not isinstance(anchor_words, int) or anchor_words < 3:
            raise ConfigError(f"anchor_words: expected a whole number >= 3, got {anchor_words!r}")
        self.min_quotes = min_quotes
        self.anchor_words = anchor_words

    @property
    def locator(self) -> Locator:
        return self._locator

    # -- PromptMixin: this evaluator asks no model, so it has no prompts ---------------------
    def _get_prompts(self) -> dict:
        return {}

    def _update_prompts(self, prompts: Any) -> None:
        return None

    # -- BaseEvaluator ---------------------------------------------------------------------
    def evaluate_response(self, query: Optional[str] = None, response: Any = None, **kwargs: Any) -> EvaluationResult:
        """Evaluate a ``Response``: its text and its ``source_nodes`` (with their offsets)."""
        return self._result(query, response)

    async def aevaluate_response(self, query: Optional[str] = None, response: Any = None, **kwargs: Any) -> EvaluationResult:
        return self._result(query, response)

    async def aevaluate(
        self,
        query: Optional[str] = None,
        response: Optional[str] = None,
        contexts: Optional[Sequence[str]] = None,
        **kwargs: Any,
    ) -> EvaluationResult:
        """Evaluate a response string against context strings (placed by their text only).

        ``contexts=None`` checks the quotes against the whole paper.
        """
        if response is None:
            raise ConfigError("response: the evaluator needs the response text")
        nodes = None if contexts is None else [_Context(text) for text in contexts]
        return self._finish(query, response, nodes, contexts)

    # -- the check -------------------------------------------------------------------------
    def check(self, response: str, nodes: Sequence[Any] | None) -> QuoteCheck:
        """Verdicts of the quotes in ``response`` against ``nodes`` (``NodeWithScore``,
        ``TextNode`` or anything with ``get_content()``); ``None`` means the whole paper."""
        quotes = tuple(q.text for q in quoted_passages(response))
        whole = self._verifier.verify([{"doc": _DOC, "quote": q} for q in quotes])
        if nodes is None:
            return QuoteCheck(quotes, tuple(whole), None)
        placements = tuple(self.place(i, node) for i, node in enumerate(nodes))
        regions = _merge([(p.start, p.end) for p in placements if p.start is not None], self.locator.document.text)
        verdicts = tuple(self._inside(q, v, regions) if v.accepted else v for q, v in zip(quotes, whole))
        return QuoteCheck(quotes, verdicts, placements)

    def _inside(self, quote: str, whole: Verdict, regions: list[tuple[int, int]]) -> Verdict:
        """The verdict for the first region that holds ``quote`` (found in the whole paper),
        else an outside-material rejection; the regions after the first hit are not tried."""
        for i in range(len(regions)):
            item = {"doc": _DOC, "quote": quote, "chunks": regions, "cited_chunk": i, "scope": "chunk"}
            v = self._verifier.verify([item])[0]
            if v.accepted:
                return v
        return _outside(whole, len(regions))

    def place(self, index: int, node: Any) -> NodePlacement:
        """Where node ``index`` lies in the paper (see the module docstring)."""
        inner = getattr(node, "node", node)
        text = _content(inner)
        locator = self.locator
        doc = locator.document
        start, end = getattr(inner, "start_char_idx", None), getattr(inner, "end_char_idx", None)
        if isinstance(start, int) and isinstance(end, int) and 0 <= start < end:
            if doc.text[start:end] == text:
                return NodePlacement(index, start, end, "offsets")
            page = _page_number((getattr(inner, "metadata", None) or {}).get("page_label"))
            if page is not None and 1 <= page <= len(doc.pages):
                base = doc.pages[page - 1].start
                if doc.text[base + start : base + end] == text:
                    return NodePlacement(index, base + start, base + end, "page-offsets")
        norm = locator.norm
        q, _ = normalize_quote(text, locator.rules)
        q = q.strip()
        if q:
            a = _find_once(norm.text, q)
            if a is not None:
                s, e = norm.span(a, a + len(q))
                return NodePlacement(index, s, e, "text")
        words = q.split(" ") if locator.rules.whitespace else q.split()
        head = self._anchor(words, forward=True)
        tail = self._anchor(words, forward=False)
        if head is not None and tail is not None and head < tail:
            return NodePlacement(index, head, tail, "anchors")
        return NodePlacement(index, None, None, "unplaced")

    def _anchor(self, words: list[str], *, forward: bool) -> int | None:
        """The document offset where the first (or last) uniquely found run of words starts (ends)."""
        n, k = len(words), self.anchor_words
        if n < k:
            return None
        norm = self.locator.norm
        sep = " "
        offsets = range(0, n - k + 1) if forward else range(n - k, -1, -1)
        for i in list(offsets)[: 4 * k]:
            piece = sep.join(words[i : i + k])
            a = _find_once(norm.text, piece)
            if a is not None:
                s, e = norm.span(a, a + len(piece))
                return s if forward else e
        return None

    def _result(self, query: Optional[str], response: Any) -> EvaluationResult:
        if response is None or not isinstance(getattr(response, "response", None), str):
            raise ConfigError("response: expected a LlamaIndex Response with response text")
        nodes = list(getattr(response, "source_nodes", None) or [])
        return self._finish(query, response.response, nodes, [_content(getattr(n, "node", n)) for n in nodes])

    def _finish(self, query: Optional[str], text: str, nodes: Sequence[Any] | None, contexts: Any) -> QuoteEvaluationResult:
        check = self.check(text, nodes)
        name = self.locator.document.name
        n = len(check.quotes)
        lines = []
        if n < self.min_quotes:
            lines.append(f"{n} quoted passage(s) in the response; at least {self.min_quotes} expected")
        if check.placements is None:
            lines.append("no source nodes given: quotes checked against the whole paper")
        else:
            unplaced = [p.index for p in check.placements if p.how == "unplaced"]
            if unplaced:
                lines.append(f"source node(s) {', '.join(map(str, unplaced))} could not be placed in {name}; they verify nothing")
        lines.append(f"{check.accepted} of {n} quote(s) in {name}" + ("" if check.placements is None else " inside the source nodes"))
        lines.extend(failure_message(v, name) for v in check.verdicts if not v.accepted)
        passing = n >= self.min_quotes and check.accepted == n
        return QuoteEvaluationResult(
            query=query,
            response=text,
            contexts=list(contexts) if contexts is not None else None,
            passing=passing,
            score=(check.accepted / n) if n else (1.0 if passing else 0.0),
            feedback="\n".join(lines),
            verdicts=[verdict_record(v) for v in check.verdicts],
        )


class _Context:
    """A context string standing in for a node without offsets."""

    def __init__(self, text: str) -> None:
        self.text = text

    def get_content(self) -> str:
        return self.text


def _content(node: Any) -> str:
    text = node.get_content() if hasattr(node, "get_content") else getattr(node, "text", None)
    if not isinstance(text, str):
        raise ConfigError(f"source node: expected text content, got {type(text).__name__}")
    return text


def _page_number(label: Any) -> int | None:
    if isinstance(label, int) and not isinstance(label, bool):
        return label
    if isinstance(label, str) and label.strip().isdigit():
        return int(label)
    return None


def _find_once(text: str, piece: str) -> int | None:
    a = text.find(piece)
    if a < 0 or text.find(piece, a + 1) >= 0:
        return None
    return a


def _merge(spans: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """Node spans merged where they overlap or only whitespace separates them."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and (a <= out[-1][1] or not text[out[-1][1] : a].strip()):
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _outside(whole: Verdict, n_regions: int) -> Verdict:
    from dataclasses import replace

    where = f"page {'-'.join(map(str, whole.pages))}"
    reason = f"in the paper ({where}), but in none of the {n_regions} placed source node region(s)"
    return replace(
        whole, accepted=False, status="outside-material", cause="outside-material", reason=reason, scope="chunk"
    )


# ---------------------------------------------------------------------------------------
# Chunks cut the way a LlamaIndex pipeline cuts them


def _bundled_tokenizer() -> Any:
    """tiktoken's ``cl100k_base``, the encoding ``SentenceSplitter`` counts tokens in by
    default, loaded from the copy llama-index-core ships: never downloaded, whatever
    ``TIKTOKEN_CACHE_DIR`` the environment names."""
    import llama_index.core
    import tiktoken

    folder = os.path.join(os.path.dirname(os.path.abspath(llama_index.core.__file__)), "_static", "tiktoken_cache")
    if not os.path.isdir(folder) or not os.listdir(folder):
        raise ConfigError(
            f"llama-index-core ships no tokenizer data in {folder}; pass tokenizer= to sentence_splitter_chunks"
        )
    saved = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = folder
    try:
        encoding = tiktoken.get_encoding("cl100k_base")
    finally:
        if saved is None:
            del os.environ["TIKTOKEN_CACHE_DIR"]
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = saved
    return lambda text: encoding.encode(text, allowed_special="all")


def sentence_splitter_chunks(
    document: Document, *, chunk_size: int = 512, chunk_overlap: int = 64, tokenizer: Any = None
) -> PlacedChunks:
    """The chunks a LlamaIndex pipeline makes of ``document`` with
    ``SentenceSplitter(chunk_size, chunk_overlap)`` (tokens), one LlamaIndex document per
    page with its ``page_label``, placed on the paper's text: for users who have no chunk
    file of their own, so cited chunk ids and groups mean what they mean in such a pipeline.

    ``tokenizer``: a callable text -> tokens; by default tiktoken's ``cl100k_base`` from
    llama-index-core's bundled copy (nothing is downloaded). Every chunk is a verbatim
    piece of its page, so each is placed by its offsets (:attr:`PlacedChunks.exact`).
    """
    from llama_index.core import Document as LlamaDocument
    from llama_index.core.node_parser import SentenceSplitter

    if chunk_size < 1 or not 0 <= chunk_overlap < chunk_size:
        raise ConfigError(f"sentence splitter: need chunk_size >= 1 and 0 <= chunk_overlap < chunk_size, got {chunk_size}/{chunk_overlap}")
    splitter = SentenceSplitter(
        chunk_size=chunk_size, chunk_overlap=chunk_overlap, tokenizer=tokenizer or _bundled_tokenizer()
    )
    pages = [
        LlamaDocument(text=document.text[p.start : p.end], metadata={"page_label": str(p.number)})
        for p in document.pages
    ]
    nodes = splitter.get_nodes_from_documents(pages)
    chunks = [
        PipelineChunk(
            index=i, text=node.get_content(), page=_page_number(node.metadata.get("page_label")),
            start=node.start_char_idx, end=node.end_char_idx, id=node.node_id,
        )
        for i, node in enumerate(nodes)
    ]  # fmt: skip
    return place_chunks(chunks, document)
