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
  (document side [-...-], quote side {+...+}; rules ql2-998929d2b5614cd5)

Documents opened from a path and their indexes are kept (a few of each, keyed by the
file's path, size and modification time and by the rules), so many assertions against
one paper index it once. This module imports only the core; the pytest plugin
(:mod:`quotelocate.integrations.pytest_plugin`) adds a fixture on top of it.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path
from typing import Union

from .chunks import Chunking
from .document import Document
from .errors import ConfigError
from .locate import Locator, Verdict
from .normalize import Rules, preset

DocumentLike = Union[Document, Locator, str, os.PathLike]
"""What :func:`assert_quoted` checks against: a document, a ready locator, or a path."""

_CACHE_SIZE = 8
_documents: OrderedDict[tuple, Document] = OrderedDict()
_locators: OrderedDict[tuple, Locator] = OrderedDict()


def open_document(path: str | os.PathLike) -> Document:
    """:meth:`Document.open`, remembered while the file keeps its size and modification time."""
    p = Path(path).resolve()
    try:
        st = p.stat()
    except OSError:
        return Document.open(path)  # raises DocumentError naming the file
    key = (str(p), st.st_size, st.st_mtime_ns)
    doc = _documents.get(key)
    if doc is None:
        doc = Document.open(p)
        _remember(_documents, key, doc)
    else:
        _documents.move_to_end(key)
    return doc


def locator_for(
    document_or_path: DocumentLike, *, rules: Rules | str = "recommended", chunking: Chunking | None = None
) -> Locator:
    """A locator for ``document_or_path`` under ``rules``, built once per document and rules."""
    if isinstance(document_or_path, Locator):
        if (isinstance(rules, str) and preset(rules) != document_or_path.rules) or (
            isinstance(rules, Rules) and rules != document_or_path.rules
        ):
            raise ConfigError("rules: a Locator was given with other rules than the ones asked for")
        return document_or_path
    if isinstance(document_or_path, Document):
        doc = document_or_path
    elif isinstance(document_or_path, (str, os.PathLike)):
        doc = open_document(document_or_path)
    else:
        raise ConfigError(
            f"document_or_path: expected a Document, a Locator or a path, got {type(document_or_path).__name__}"
        )
    resolved = preset(rules) if isinstance(rules, str) else rules
    if not isinstance(resolved, Rules):
        raise ConfigError(f"rules: expected Rules or a preset name, got {type(rules).__name__}")
    key = (id(doc), doc.sha256, resolved.fingerprint, chunking)
    loc = _locators.get(key)
    if loc is None or loc.document is not doc:
        loc = Locator(doc, resolved, chunking=chunking)
        _remember(_locators, key, loc)
    else:
        _locators.move_to_end(key)
    return loc


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
    """
    __tracebackhide__ = True  # pytest shows the caller's line, not this one
    locator = locator_for(document_or_path, rules=rules, chunking=chunking)
    verdict = locator.locate(quote, cited_chunk=cited_chunk, scope=scope)
    if not verdict.accepted:
        raise AssertionError(failure_message(verdict, locator.document.name))
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


def _remember(cache: OrderedDict, key: tuple, value: object) -> None:
    cache[key] = value
    while len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)
