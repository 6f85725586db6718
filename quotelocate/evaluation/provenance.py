"""Provenance: which set, paper, versions, machine and rules a run used.

One record, built here, goes into every :class:`~quotelocate.evaluation.result.Evaluation`
(its ``meta``), the run store and the reports, so a number can always be traced back to
what produced it.
"""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import os
import platform
from dataclasses import asdict
from typing import Mapping

from ..data.quoteset import QuoteSet
from ..normalize import Rules
from .savings import SavingsAssumptions


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return ""


def set_provenance(quote_set: QuoteSet) -> dict:
    """Which set and which papers: names, hashes, counts and the set's load warnings.

    ``paper``, ``paper_sha256``, ``text_sha256`` and ``text_fingerprint`` describe the
    paper of a one-paper set (for a set of several papers: their count, and empty
    hashes); ``papers`` lists every paper with its id, file and hashes.
    """
    papers = []
    for part in quote_set.parts:
        doc = part.document()
        papers.append(
            {
                "id": part.paper_id,
                "file": part.paper.file,
                "paper_sha256": doc.sha256,
                "text_sha256": doc.text_sha256,
                "n_quotes": len(part.quotes),
            }
        )
    single = not quote_set.multi_paper or len(papers) == 1
    first = quote_set.parts[0].document()
    return {
        "set": quote_set.name,
        "set_path": str(quote_set.path) if quote_set.path else None,
        "set_hash": quote_set.set_hash,
        "n_quotes": len(quote_set.quotes),
        "n_faithful": len(quote_set.faithful),
        "n_fabricated": len(quote_set.fabricated),
        "paper": quote_set.parts[0].paper.file if single else f"{len(papers)} papers",
        "paper_sha256": first.sha256 if single else "",
        "text_sha256": first.text_sha256 if single else "",
        "text_fingerprint": first.text_fingerprint if single else {},
        "papers": papers,
        "set_warnings": list(quote_set.warnings),
    }


def provenance(
    quote_set: QuoteSet,
    named: Mapping[str, Rules],
    *,
    scope: str | None,
    repeats: int,
    savings: SavingsAssumptions,
    share: float,
) -> dict:
    from .. import __version__

    return {
        **set_provenance(quote_set),
        "package_version": __version__,
        "pymupdf_version": _version("pymupdf"),
        "python": platform.python_version(),
        "machine": f"{platform.platform()} {platform.machine()} ({os.cpu_count()} CPUs)",
        "timestamp": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "scope": scope,
        "repeats": repeats,
        "configs": {name: rules.to_dict() for name, rules in named.items()},
        "fingerprints": {name: rules.fingerprint for name, rules in named.items()},
        "savings_assumptions": {**asdict(savings), "fabricated_share_used": share},
    }
