"""Assertions for test suites: a quote a model produced must really be in the paper.

:func:`assert_quoted` locates a quote and raises :class:`AssertionError` when it is
rejected; the message holds the status, the cause, the closest passage (page and
similarity) and the character diff against it, so a failing test says what the model
changed. An accepted quote returns its :class:`~quotelocate.locate.Verdict`, for tests
that also check where it was found.

>>> from quotelocate.document import Document
>>> doc = Document.from_text("Our model achieves 28.4 BLEU on the WMT 2014 task.")
>>> assert_quoted("model achieves 28.4 BLEU on the WMT 2014 task", doc).status
'exact'
>>> assert_quoted("model achieves 28.3 BLEU on the WMT 2014 task", doc)
Traceback (most recent call last):
...
AssertionError: quote not found in <text> (cause: number-changed)
  quote:   'model achieves 28.3 BLEU on the WMT 2014 task'
  closest: page 1, 97% similar: 'model achieves 28.4 BLEU on the WMT 2014 task.'
  diff:    model achieves 28.[-4-]{+3+} BLEU on the WMT 2014 task[-.-]
  (document side [-...-], quote side {+...+}; rules ql2-988f35176b3363d2)

The AssertionError carries the verdict too: ``verdict`` (the
:class:`~quotelocate.locate.Verdict`) and ``record`` (its published schema form,
:func:`~quotelocate.verify.verdict_record`, what ``quotelocate schema verdict`` describes).

Documents and their indexes go through one :class:`~quotelocate.verify.Verifier` for the
whole process (a few documents at a time, a path known by the file's path, size and
modification time), so many assertions against one paper open and index it once, and the
verdict is the one :func:`~quotelocate.verify.verify` gives. This module imports only the
core; the pytest plugin (:mod:`quotelocate.integrations.pytest_plugin`) adds a fixture
on top of it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Union

from .chunks import Chunking
from .document import Document
from .errors import ConfigError, DocumentError
from .locate import Locator, Verdict
from .normalize import Rules, preset
from .verify import Verifier, verdict_record

DocumentLike = Union[Document, Locator, str, os.PathLike]
"""What :func:`assert_quoted` checks against: a document, a ready locator, or a path."""

_CACHE_SIZE = 8
_verifier = Verifier({}, cache_size=_CACHE_SIZE)
"""The documents and locators of this process's assertions and of the adapters built on them."""


def shared_verifier() -> Verifier:
    """The :class:`Verifier` :func:`assert_quoted`, the promptfoo assertion and the LlamaIndex
    evaluator share: it keeps the last few documents used, each opened and indexed once."""
    return _verifier


def source_id(document_or_path: DocumentLike, *, verifier: Verifier | None = None) -> str:
    """Add ``document_or_path`` to ``verifier`` (default: :func:`shared_verifier`) and
    return the id it has there: a path's resolved path, size and modification time (a
    file that changed is a new document), or a Document's or Locator's identity."""
    verifier = _verifier if verifier is None else verifier
    if isinstance(document_or_path, (Document, Locator)):
        kind = "document" if isinstance(document_or_path, Document) else "locator"
        doc_id = f"<{kind} {id(document_or_path):x}>"
        verifier.add(doc_id, document_or_path)
        return doc_id
    if not isinstance(document_or_path, (str, os.PathLike)):
        raise ConfigError(
            f"document_or_path: expected a Document, a Locator or a path, got {type(document_or_path).__name__}"
        )
    p = Path(document_or_path).resolve()
    try:
        st = p.stat()
    except OSError as exc:
        Document.open(document_or_path)  # raises the DocumentError naming the file
        raise DocumentError(f"{document_or_path}: {exc.strerror or exc}") from None
    doc_id = f"{p} ({st.st_size} bytes, modified {st.st_mtime_ns})"
    if doc_id not in verifier:
        verifier.add(doc_id, Path(document_or_path))  # the document is named as the caller named it
    return doc_id


def open_document(path: str | os.PathLike) -> Document:
    """:meth:`Document.open`, remembered while the file keeps its size and modification time."""
    return _verifier.document(source_id(path))


def locator_for(
    document_or_path: DocumentLike, *, rules: Rules | str = "recommended", chunking: Chunking | None = None
) -> Locator:
    """A locator for ``document_or_path`` under ``rules``, built once per document, rules and
    chunking (a Locator is used as it is; its rules must be ``rules``)."""
    doc_id = source_id(document_or_path)
    return _verifier.locator(doc_id, _resolve(rules), chunking=chunking)


def assert_quoted(
    quote: str,
    document_or_path: DocumentLike,
    *,
    rules: Rules | str = "recommended",
    cited_chunk: int | None = None,
    scope: str | None = None,
    chunking: Chunking | None = None,
) -> Verdict:
    """Fail unless ``quote`` is accepted in the document; return the verdict when it is.

    ``document_or_path`` is a :class:`Document`, a :class:`Locator` (used as it is; its
    rules must be ``rules``) or a path to a PDF, Markdown or text file. ``rules`` is a
    :class:`Rules` or a preset name (default ``recommended``). ``cited_chunk`` and
    ``scope`` are passed to :meth:`Locator.locate`: with a cited chunk the quote must
    lie in that chunk's group (or ``scope``). ``chunking`` says how the chunks were cut
    (default 512/64 characters, groups of 3).

    The verdict is :func:`~quotelocate.verify.verify`'s for the item ``{doc, quote,
    cited_chunk, scope, rules, chunking}``; a failure's AssertionError carries it as
    ``verdict`` and, in the published schema form, as ``record``.
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this one
    locator = locator_for(document_or_path, rules=rules, chunking=chunking)
    verdict = locator.locate(quote, cited_chunk=cited_chunk, scope=scope)
    if not verdict.accepted:
        error = AssertionError(failure_message(verdict, locator.document.name))
        error.verdict = verdict  # type: ignore[attr-defined]
        error.record = verdict_record(verdict)  # type: ignore[attr-defined]
        raise error
    return verdict


def failure_message(verdict: Verdict, document_name: str) -> str:
    """Why ``verdict`` was rejected, as :func:`assert_quoted` reports it."""
    what = {
        "not-found": "not found in",
        "outside-material": "outside the cited material of",
        "invalid": "not a checkable quote for",
    }.get(verdict.status, f"{verdict.status} in")
    lines = [f"quote {what} {document_name} (cause: {verdict.cause})", f"  quote:   {verdict.quote!r}"]
    if verdict.status == "outside-material":
        lines.append(f"  found:   page {verdict.page}, characters {verdict.start}-{verdict.end}; {verdict.reason}")
    elif verdict.status == "invalid":
        lines.append(f"  reason:  {verdict.reason}")
    nm = verdict.near_miss
    if nm is not None:
        lines.append(f"  closest: page {nm.page}, {nm.similarity:.0f}% similar: {nm.passage!r}")
        lines.append(f"  diff:    {nm.diff_text()}")
        lines.append(f"  (document side [-...-], quote side {{+...+}}; rules {verdict.fingerprint})")
    else:
        lines.append(f"  (rules {verdict.fingerprint})")
    return "\n".join(lines)


def _resolve(rules: Rules | str) -> Rules:
    resolved = preset(rules) if isinstance(rules, str) else rules
    if not isinstance(resolved, Rules):
        raise ConfigError(f"rules: expected Rules or a preset name, got {type(rules).__name__}")
    return resolved
