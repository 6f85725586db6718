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

# The evaluation side pulls in pandas and statsmodels; import it only when asked for,
# so `import quotelocate` stays light for pipelines that only locate quotes. The
# evaluate() function lives in the module of the same name: quotelocate.evaluate.evaluate.
_LAZY = {
    "Evaluation": ("evaluate", "Evaluation"),
    "SavingsAssumptions": ("evaluate", "SavingsAssumptions"),
    "load_quote_set": ("dataset", "load_quote_set"),
    "QuoteSet": ("dataset", "QuoteSet"),
    "RunStore": ("runstore", "RunStore"),
    "audit_records": ("audit", "audit_records"),
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(f".{module}", __name__), attr)
    raise AttributeError(f"module 'quotelocate' has no attribute {name!r}")

__all__ = [
    "Box",
    "Chunk",
    "Chunking",
    "Document",
    "Locator",
    "NearMiss",
    "PRESETS",
    "QuotelocateError",
    "QuoteSet",
    "Rules",
    "RunStore",
    "SavingsAssumptions",
    "Verdict",
    "audit_records",
    "Evaluation",
    "load_quote_set",
    "locate",
    "normalize",
    "preset",
    "__version__",
]
