"""The quotes in a model's answer: the passages it put in double quotation marks.

A pipeline that asks a model to back each claim with a verbatim quote gets an answer
like ``The authors report "28.4 BLEU on the WMT 2014 English-to-German translation
task" ...``. The promptfoo assertion and the LlamaIndex evaluator check each passage
in straight (``"…"``), curly (``“…”``), low-high (``„…“``) or guillemet (``«…»``)
double quotation marks. Single quotation marks are not read as quotes, since they are
also apostrophes (``the model's``).

>>> [q.text for q in quoted_passages('He wrote “attention is all you need” and "no recurrence".')]
['attention is all you need', 'no recurrence']
>>> quoted_passages('a « guillemet quote » here')[0]
QuotedPassage(text='guillemet quote', start=4, end=19)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_QUOTED = re.compile(
    r'"(?P<straight>[^"]+)"'
    r"|\u201c(?P<curly>[^\u201c\u201d]+)\u201d"
    r"|\u201e(?P<low>[^\u201c\u201d\u201e]+)[\u201c\u201d]"
    r"|\u00ab(?P<guillemet>[^\u00ab\u00bb]+)\u00bb"
)


@dataclass(frozen=True)
class QuotedPassage:
    """One quoted passage: its ``text`` (without the marks, trimmed) at ``[start, end)`` of the answer."""

    text: str
    start: int
    end: int


def quoted_passages(answer: str) -> list[QuotedPassage]:
    """Every passage of ``answer`` in double quotation marks, in order."""
    out = []
    for m in _QUOTED.finditer(answer):
        group = next(name for name in ("straight", "curly", "low", "guillemet") if m.group(name) is not None)
        raw_start, raw_end = m.span(group)
        raw = answer[raw_start:raw_end]
        lead = len(raw) - len(raw.lstrip())
        text = raw.strip()
        if text:
            out.append(QuotedPassage(text=text, start=raw_start + lead, end=raw_start + lead + len(text)))
    return out
