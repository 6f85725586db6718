"""Verdicts in LangExtract's terms: ``char_interval {start_pos, end_pos}`` and an
alignment status, so code that reads LangExtract extractions can read quotelocate's.

LangExtract aligns an extraction to its source and says how: ``match_exact``,
``match_greater``, ``match_lesser`` or ``match_fuzzy``. quotelocate accepts a quote only
when it is the passage, character for character, after the rules in force, so only two
of those apply: ``match_exact`` (verbatim as extracted) and ``match_fuzzy`` (verbatim
once line breaks, hyphens, ligatures, page furniture and the like were folded; the
verdict's ``rules`` say which). A rejected quote has no alignment and no interval:
LangExtract readers highlight whatever has an interval, and a rejected quote must not
be highlighted as if it were grounded. The verdict's own ``start``/``end`` still say
where an ``outside-material`` quote is.

>>> from quotelocate.document import Document
>>> from quotelocate.locate import Locator
>>> loc = Locator(Document.from_text("Attention is all you\\nneed, they wrote."))
>>> langextract_fields(loc.locate("Attention is all you need"))
{'char_interval': {'start_pos': 0, 'end_pos': 25}, 'alignment_status': 'match_fuzzy'}
>>> langextract_fields(loc.locate("Attention is all we need"))
{'char_interval': None, 'alignment_status': None}
"""

from __future__ import annotations

from typing import Any

from ..locate import Verdict

MATCH_EXACT = "match_exact"
MATCH_FUZZY = "match_fuzzy"


def alignment_status(verdict: Verdict) -> str | None:
    """``match_exact`` for a verbatim match, ``match_fuzzy`` for one that needed rules,
    None for a rejected quote."""
    if not verdict.accepted:
        return None
    return MATCH_FUZZY if verdict.rules else MATCH_EXACT


def char_interval(verdict: Verdict) -> dict[str, int] | None:
    """``{"start_pos", "end_pos"}`` of an accepted match in the document text, else None."""
    if not verdict.accepted or verdict.start is None or verdict.end is None:
        return None
    return {"start_pos": verdict.start, "end_pos": verdict.end}


def langextract_fields(verdict: Verdict) -> dict[str, Any]:
    """The two fields a LangExtract reader looks for."""
    return {"char_interval": char_interval(verdict), "alignment_status": alignment_status(verdict)}


def to_langextract(verdict: Verdict) -> dict[str, Any]:
    """``verdict.to_dict()`` with :func:`langextract_fields` added (the ``verdict`` schema
    allows both)."""
    record = verdict.to_dict()
    record.update(langextract_fields(verdict))
    return record
