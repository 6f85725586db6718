"""pytest plugin: the ``quotelocate_doc`` fixture, registered by the ``pytest11`` entry point.

``quotelocate_doc(path)`` opens a PDF, Markdown or text file as a
:class:`~quotelocate.document.Document` and keeps it for the whole test session, so
every test that checks quotes against the same paper extracts it once (and
:func:`~quotelocate.testing.assert_quoted` indexes it once per set of rules)::

    from quotelocate.testing import assert_quoted

    def test_summary_quotes(quotelocate_doc):
        doc = quotelocate_doc("1706.03762v7.pdf")
        assert_quoted("The Transformer follows this overall architecture", doc)

The documents are opened through a :class:`~quotelocate.verify.Verifier` kept for the
session (a file known by its path, size and modification time, so one that changed is
opened again). A bare file name that is not a file in the working directory is looked for on the
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
        from ..verify import Verifier

        self.verifier = Verifier({})

    def __call__(self, path: str | os.PathLike) -> Document:
        from ..testing import source_id
        from .documents import find_document

        return self.verifier.document(source_id(find_document(path), verifier=self.verifier))

    def __len__(self) -> int:
        return len(self.verifier.opened)


@pytest.fixture(scope="session")
def quotelocate_doc() -> Callable[[str | os.PathLike], Document]:
    """A factory: ``quotelocate_doc(path)`` returns the file as a Document, opened once per session."""
    return DocumentCache()
