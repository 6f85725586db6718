"""quotelocate: check that a quote an LLM says it copied from a paper really is in it.

>>> from quotelocate import Document, Locator
>>> doc = Document.from_text("Attention is all you\\nneed, the authors wrote.")
>>> Locator(doc).locate("Attention is all you need").accepted
True
"""

from .chunks import Chunk, Chunking
from .document import Box, Document
from .errors import QuotelocateError
from .locate import Locator, NearMiss, Verdict, locate
from .normalize import PRESETS, Rules, normalize, preset

__version__ = "0.1.0"

__all__ = [
    "Box",
    "Chunk",
    "Chunking",
    "Document",
    "Locator",
    "NearMiss",
    "PRESETS",
    "QuotelocateError",
    "Rules",
    "Verdict",
    "locate",
    "normalize",
    "preset",
    "__version__",
]
