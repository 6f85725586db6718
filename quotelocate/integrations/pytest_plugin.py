"""pytest plugin: the ``quotelocate_doc`` fixture, registered by the ``pytest11`` entry point.

``quotelocate_doc(path)`` opens a PDF, Markdown or text file as a
:class:`~quotelocate.document.Document` and keeps it for the whole test session, so
every test that checks quotes against the same paper extracts it once (and
:func:`~quotelocate.testing.assert_quoted` indexes it once per set of rules)::

    from quotelocate.testing import assert_quoted

    def test_summary_quotes(quotelocate_doc):
        doc = quotelocate_doc("1706.03762v7.pdf")
        assert_quoted("The Transformer follows this overall architecture", doc)

A bare file name that is not a file in the working directory is looked for on the
papers search path (``$QUOTELOCATE_PAPERS``, then ``datasets/papers/``, then the user
cache). A file that cannot be read raises the
:class:`~quotelocate.errors.DocumentError` naming it.

Every pytest run in an environment with quotelocate installed loads this module, so
it imports nothing heavy until a test asks for a document.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable

import pytest

if TYPE_CHECKING:  # pragma: no cover
    from ..document import Document


class DocumentCache:
    """Documents opened during one test session, by resolved path, size and modification time."""

    def __init__(self) -> None:
        self._docs: dict[tuple[str, int, int], Document] = {}

    def __call__(self, path: str | os.PathLike) -> Document:
        from ..document import Document
        from .documents import find_document

        p = find_document(path)
        st = p.resolve().stat()
        key = (str(p.resolve()), st.st_size, st.st_mtime_ns)
        doc = self._docs.get(key)
        if doc is None:
            doc = Document.open(p)
            self._docs[key] = doc
        return doc

    def __len__(self) -> int:
        return len(self._docs)


@pytest.fixture(scope="session")
def quotelocate_doc() -> Callable[[str | os.PathLike], Document]:
    """A factory: ``quotelocate_doc(path)`` returns the file as a Document, opened once per session."""
    return DocumentCache()
