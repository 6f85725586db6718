"""quotelocate: check that a quote an LLM says it copied from a paper really is in it.

>>> from quotelocate import Document, Locator
>>> doc = Document.from_text("Attention is all you\\nneed, the authors wrote.")
>>> Locator(doc).locate("Attention is all you need").accepted
True

The package has four layers; imports only go down this list:

``quotelocate.interface``   the command line and the workbench's helpers (``app.py`` on top);
``quotelocate.evaluation``  rates, intervals, savings, ablation, the run store, reports;
``quotelocate.data``        quote sets, the hardened YAML reader, papers and the synthetic paper;
core                        ``document``, ``layout``, ``normalize``, ``locate``, ``diagnose``,
                            ``trace``, ``chunks``, ``limits``, ``jsonl``, ``errors``.

Every public name below is imported from its home on first use, so ``import
quotelocate`` (and ``quotelocate --version``) loads neither pymupdf nor pandas.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_HOMES = {
    "Box": "document",
    "Document": "document",
    "Chunk": "chunks",
    "Chunking": "chunks",
    "QuotelocateError": "errors",
    "Limits": "limits",
    "Locator": "locate",
    "NearMiss": "diagnose",
    "Verdict": "locate",
    "locate": "locate",
    "PRESETS": "normalize",
    "Rules": "normalize",
    "normalize": "normalize",
    "preset": "normalize",
    "Verifier": "verify",
    "verify": "verify",
    "verify_frame": "verify",
    # the evaluation and data layers need the [eval] extra
    "Evaluation": "evaluation.result",
    "SavingsAssumptions": "evaluation.savings",
    "RunStore": "evaluation.runstore",
    "audit_records": "evaluation.audit",
    "QuoteSet": "data.quoteset",
    "load_quote_set": "data.quoteset",
}

if TYPE_CHECKING:  # pragma: no cover
    from .chunks import Chunk, Chunking
    from .data.quoteset import QuoteSet, load_quote_set
    from .diagnose import NearMiss
    from .document import Box, Document
    from .errors import QuotelocateError
    from .evaluation.audit import audit_records
    from .evaluation.result import Evaluation
    from .evaluation.runstore import RunStore
    from .evaluation.savings import SavingsAssumptions
    from .limits import Limits
    from .locate import Locator, Verdict, locate
    from .normalize import PRESETS, Rules, normalize, preset
    from .verify import Verifier, verify, verify_frame


_SHADOWED = frozenset(name for name, home in _HOMES.items() if name == home)
"""Functions named like their module (``locate``, ``normalize``, ``verify``)."""


class _Package(ModuleType):
    """Importing ``quotelocate.verify`` binds the name ``verify`` on the package to the
    module; for the functions named like their module, bind the function instead, so
    ``quotelocate.verify`` is the function however the module was first imported (the
    module itself stays in ``sys.modules``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, ModuleType) and hasattr(value, name):
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'quotelocate' has no attribute {name!r}")
    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


__all__ = sorted([*_HOMES, "__version__"])
