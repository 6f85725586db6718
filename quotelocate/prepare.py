"""Preparing a document for matching: the rules applied once to the whole text.

:func:`prepare` takes a :class:`~quotelocate.document.Document` and :class:`~quotelocate.normalize.Rules`
and returns the normalized text with its offset map back to ``document.text``. The
:class:`~quotelocate.locate.Locator` calls it and then only matches.

With ``layout`` on, a PDF is first read in reading order (:mod:`quotelocate.layout`).
That order depends on nothing but the document, so it is computed once per document
and kept here, keyed weakly by the document: it goes when the document goes.

>>> from quotelocate.document import Document
>>> from quotelocate.normalize import preset
>>> prepared = prepare(Document.from_text("all you\\n\\u2018need\\u2019"), preset("recommended"))
>>> prepared.text, prepared.span(8, 14)
("all you 'need'", (8, 14))
"""

from __future__ import annotations

import weakref

from .document import Document
from .furniture import margin_stamps
from .normalize import Context, Normalized, NormalizedArrays, Rules, normalize

_READING_ORDER: weakref.WeakKeyDictionary[Document, NormalizedArrays] = weakref.WeakKeyDictionary()


def _reading_order_arrays(document: Document) -> NormalizedArrays:
    """The document's reading order, computed once and kept; shared, never changed in
    place (the rules build new arrays)."""
    cached = _READING_ORDER.get(document)
    if cached is None:
        from .layout import (
            reading_order_arrays as compute,  # geometry only matters with layout on
        )

        cached = _READING_ORDER[document] = compute(document)
    return cached


def reading_order(document: Document) -> Normalized:
    """:func:`quotelocate.layout.reading_order`, computed once per document; each call
    returns a fresh copy that the caller may normalize further."""
    return _reading_order_arrays(document).normalized()


def forget(document: Document) -> None:
    """Drop the reading order kept for ``document`` (benchmarks time a cold build)."""
    _READING_ORDER.pop(document, None)


def marker_spans(document: Document, rules: Rules) -> tuple[tuple[int, int], ...]:
    """The raised markers the ``markers`` rule takes out of ``document.text``: read with
    the word gaps for spaces when ``rules.word_gaps`` is on (see
    :attr:`~quotelocate.document.Document.word_gap_markers`)."""
    return (document.word_gap_markers or document.markers) if rules.word_gaps else document.markers


def prepare(document: Document, rules: Rules, *, word_gaps: bool = False) -> Normalized:
    """``document.text`` normalized under ``rules``, with its offset map. ``word_gaps``:
    with a space at each of the document's word gaps (when ``rules.word_gaps`` is on),
    the second text a :class:`~quotelocate.locate.Locator` searches."""
    base = None
    furniture_spans: tuple[tuple[int, int], ...] = ()
    if rules.layout and document.kind == "pdf":
        base = _reading_order_arrays(document)
    elif rules.furniture and document.kind == "pdf":
        furniture_spans = margin_stamps(document)
    ctx = Context(
        page_starts=() if base is not None else document.page_starts,
        furniture_spans=furniture_spans,
        marker_spans=marker_spans(document, rules) if rules.markers else (),
        glyphs=document.glyphs if rules.unicode != "off" else (),
        word_gaps=document.word_gaps if word_gaps and rules.word_gaps else (),
    )
    return normalize(document.text if base is None else base.text, rules, context=ctx, base=base)
