"""Every exception quotelocate raises on purpose.

"Not found" is a verdict, never an exception. Exceptions are for bad input and bad
configuration, and all of them derive from one base class::

    QuotelocateError
    ├── DocumentError            a file that cannot be read as a document
    │   ├── EncryptedDocumentError
    │   ├── EmptyDocumentError
    │   └── ExtractionLimitError
    ├── ConfigError              rules, presets, scopes or chunking that make no sense
    ├── ChunkError               explicit chunks that do not fit the document
    ├── QuoteInputError          a batch of quotes with a malformed line
    ├── DatasetError             a quote set that fails validation
    │   └── PaperNotFoundError
    ├── RunStoreError            the SQLite run store is unusable
    │   └── RunStoreBusyError
    ├── FetchError               a paper could not be downloaded or failed its pin
    ├── CacheError               the extraction cache folder cannot be used
    └── IntegrationError         an outside tool an integration hands results to failed

Every message names the file, the line, the page or the field it is about, so the
command line can print it as a single line.
"""

from __future__ import annotations


class QuotelocateError(Exception):
    """Base class of every error quotelocate raises on purpose."""


class DocumentError(QuotelocateError):
    """A file could not be read as a PDF, Markdown or plain-text document."""


class EncryptedDocumentError(DocumentError):
    """A PDF needs a password, or the password given is wrong."""


class EmptyDocumentError(DocumentError):
    """A document has no pages, or no text on any page."""


class ExtractionLimitError(DocumentError):
    """Extraction was refused because the document exceeds a configured limit."""


class ConfigError(QuotelocateError):
    """A rules setting, preset, scope or chunking parameter is invalid."""


class ChunkError(QuotelocateError):
    """Explicit chunks are malformed or do not occur in the document text."""


class QuoteInputError(QuotelocateError):
    """A batch quote file has a malformed line."""


class DatasetError(QuotelocateError):
    """A quote set failed validation; the message names file, quote id and field."""


class PaperNotFoundError(DatasetError):
    """A quote set's pinned paper is not on the papers search path."""


class RunStoreError(QuotelocateError):
    """The run store database is unreadable or corrupt."""


class RunStoreBusyError(RunStoreError):
    """Another process holds the run store's write lock for too long."""


class FetchError(QuotelocateError):
    """A paper download failed or the downloaded file does not match its pin."""


class CacheError(QuotelocateError):
    """The extraction cache folder cannot be used (a file where the folder should be)."""


class IntegrationError(QuotelocateError):
    """An outside tool an integration talks to (MLflow, promptfoo, LlamaIndex) failed or is missing."""
