"""Per-rule trace: what each normalization rule did to a quote and to the passage it
was compared with, read off the offset map of one normalization.

:func:`normalize` records, for every normalized character, the original span it came
from, the rules that produced or touched it (``flags``) and the rules that removed text
just before it (``gaps``). That is enough to cut the original text into *pieces* (a
stretch left alone, a stretch some rules rewrote, a stretch some rules removed, a
separator the layout reader inserted) without running any rule again. The text after
rule ``k`` is every piece in its final form when the last rule that touched it is at or
before ``k``, in its original form otherwise.

A stretch that several rules changed together (a no-break space NFKC turned into a
space that the whitespace rule then merged with a line break) is shown changing at the
last of them and listed under each: the map keeps the union of the rules, not the
intermediate texts.

>>> t = trace_text("the \\u201cmodel\\u201d\\nworks", Rules(quotes=True, whitespace=True))
>>> [(s.rule, s.text) for s in t.steps]
[('as given', 'the \\u201cmodel\\u201d\\nworks'), ('quotes', 'the "model"\\nworks'), ('whitespace', 'the "model" works')]
>>> t.steps[1].marked()
'the [-\\u201c-]{+"+}model[-\\u201d-]{+"+}\\nworks'
>>> t.steps[2].changed
1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from .normalize import (
    BARRIER,
    FURNITURE,
    HYPHEN_DROP,
    HYPHEN_KEEP,
    INVISIBLE,
    LAYOUT,
    OPTIONAL,
    QUOTES,
    RULES,
    UNICODE,
    WHITESPACE,
    WORD_GAP,
    Context,
    Normalized,
    Rules,
    normalize,
)

if TYPE_CHECKING:
    from .locate import Locator, Verdict

ORDER = ("layout", *RULES)
"""Rule names in the order they run (the layout reading order comes first)."""
_FLAG_RULE = {
    LAYOUT: "layout",
    FURNITURE: "furniture",
    INVISIBLE: "invisible",
    UNICODE: "unicode",
    QUOTES: "quotes",
    HYPHEN_KEEP: "hyphenation",
    HYPHEN_DROP: "hyphenation",
    WHITESPACE: "whitespace",
    WORD_GAP: "word_gaps",
}
_VISIBLE = {"\n": "↵", "\t": "⇥", "\f": "␌", "\r": "␍", " ": "·", BARRIER: "␀"}


def rules_of(flags: int) -> tuple[str, ...]:
    """Rule names of a flag set, in the order the rules run.

    >>> rules_of(WHITESPACE | UNICODE | OPTIONAL)
    ('unicode', 'whitespace')
    """
    names = {name for bit, name in _FLAG_RULE.items() if flags & bit}
    return tuple(name for name in ORDER if name in names)


def visible(text: str) -> str:
    """``text`` with whitespace and invisible characters spelled out (``↵`` for a line
    break, ``·`` for a space, ``⟨U+00AD⟩`` for other invisible ones), so a change to
    them can be seen.

    >>> visible("a\\u00ad\\nb c")
    'a⟨U+00AD⟩↵b·c'
    """
    out = []
    for ch in text:
        if ch in _VISIBLE:
            out.append(_VISIBLE[ch])
        elif ch.isspace() or not ch.isprintable():
            out.append(f"⟨U+{ord(ch):04X}⟩")
        else:
            out.append(ch)
    return "".join(out)


@dataclass(frozen=True)
class Piece:
    """A stretch of the original text: ``before`` as given, ``after`` once every rule in
    ``rules`` (in running order) has run; ``rules`` is empty for untouched text."""

    before: str
    after: str
    rules: tuple[str, ...] = ()

    def text_after(self, step: str) -> str:
        """This piece's text once the rules up to ``step`` (a name in :data:`ORDER`, or
        ``""`` for none) have run."""
        if not self.rules:
            return self.after
        if not step:
            return self.before
        return self.after if ORDER.index(self.rules[-1]) <= ORDER.index(step) else self.before


@dataclass(frozen=True)
class Step:
    """The text after one rule (``rule`` is the rule's name, or ``as given`` /
    ``as extracted`` for the text before any rule), the pieces that make it up and how
    many original characters this rule changed or removed."""

    rule: str
    text: str
    pieces: tuple[Piece, ...]
    changed: int

    def marked(self) -> str:
        """:attr:`text` with what this rule changed marked as ``[-before-]{+after+}``
        (whitespace inside the marks spelled out), and ``«…»`` around text this rule
        touched that a later rule finishes changing."""
        out = []
        before: list[str] = []  # neighbouring stretches this rule finished, shown as one change
        after: list[str] = []

        def close() -> None:
            if before and "".join(before):
                out.append(f"[-{visible(''.join(before))}-]")
            if after and "".join(after):
                out.append(f"{{+{visible(''.join(after))}+}}")
            before.clear()
            after.clear()

        for p in self.pieces:
            if self.rule in p.rules and p.rules[-1] == self.rule:
                before.append(p.before)
                after.append(p.after)
                continue
            close()
            if self.rule not in p.rules:
                out.append(p.text_after(self.rule))
            else:
                out.append(f"«{visible(p.before)}»")
        close()
        return "".join(out)


@dataclass(frozen=True)
class Trace:
    """One text through the rules: its :class:`Piece` list and one :class:`Step` per
    rule that is on (after a first step with the text as given)."""

    pieces: tuple[Piece, ...]
    steps: tuple[Step, ...]

    @property
    def final(self) -> str:
        return self.steps[-1].text


def steps_of(pieces: Sequence[Piece], rules: Rules, *, first: str, layout: bool) -> tuple[Step, ...]:
    """The texts after each rule that is on, built from ``pieces``."""
    names = [first]
    if layout and rules.layout:
        names.append("layout")
    names.extend(name for name in RULES if getattr(rules, name) not in (False, "off"))
    out = []
    for k, name in enumerate(names):
        step = "" if k == 0 else name
        text = "".join(p.text_after(step) for p in pieces)
        changed = sum(len(p.before) or len(p.after) for p in pieces if k and name in p.rules and p.rules[-1] == name)
        out.append(Step(name, text, tuple(pieces), changed))
    return tuple(out)


def pieces_of(norm: Normalized, original: str, a: int, b: int, *, lead: int | None = None,
              trail: int | None = None) -> list[Piece]:
    """Cut normalized ``[a, b)`` of ``norm`` (whose map points into ``original``) into
    :class:`Piece` s, in normalized order. ``lead``/``trail``: original offsets before
    the first / after the last character that belong to the text too (a quote's
    stripped leading and trailing whitespace); their removal flags are the gaps at
    ``a`` and ``b``."""
    (starts, ends), flags, gaps = norm.offsets, norm.flags, norm.gaps
    text = norm.text
    # runs of normalized characters that share one original span: [s, e, text, flags, gap]
    groups: list[list] = []
    i = a
    while i < b:
        s, e, f = starts[i], ends[i], flags[i]
        j = i + 1
        while j < b and starts[j] == s and ends[j] == e and (e > s or flags[j] == f):
            j += 1
        last = groups[-1] if groups else None
        if last is not None and e > s and last[1] > last[0] and s < last[1] and not gaps[i] & LAYOUT:
            # an expansion a later rule cut into (NFKC's space + mark, then the space
            # merged with the one before): one stretch of the original
            last[0], last[1] = min(last[0], s), max(last[1], e)
            last[2] += text[i:j]
            last[3] |= f | gaps[i]
        else:
            groups.append([s, e, text[i:j], f, gaps[i]])
        i = j
    out: list[Piece] = []
    plain: list[str] = []

    def flush() -> None:
        if plain:
            out.append(Piece("".join(plain), "".join(plain)))
            plain.clear()

    if lead is not None and groups and groups[0][0] > lead:
        out.append(Piece(original[lead : groups[0][0]], "", rules_of(gaps[a]) or ("layout",)))
    prev_end: int | None = None
    for s, e, after, f, gap in groups:
        if prev_end is not None and s > prev_end and e > s:
            # original text the normalized text skips: removed by a rule, or left to
            # another flow by the layout reader (which alone skips without a flag)
            flush()
            out.append(Piece(original[prev_end:s], "", rules_of(gap) or ("layout",)))
        if e == s:  # a separator the layout reader inserted
            flush()
            out.append(Piece("", after, rules_of(f) or ("layout",)))
        elif f & ~OPTIONAL or after != original[s:e]:
            flush()
            out.append(Piece(original[s:e], after, rules_of(f) or ("layout",)))
        else:
            plain.append(after)
        if e > s:
            prev_end = e
    flush()
    if trail is not None and groups and prev_end is not None and prev_end < trail:
        out.append(Piece(original[prev_end:trail], "", rules_of(gaps[b]) or ("layout",)))
    return out


def trace_text(text: str, rules: Rules) -> Trace:
    """The trace of a quote (or any text without page context) through ``rules``."""
    norm = normalize(text, rules, context=Context(is_quote=True))
    if not norm.text:
        pieces = [Piece(text, "", rules_of(norm.gaps[0]))] if text else []
    else:
        pieces = pieces_of(norm, text, 0, len(norm.text), lead=0, trail=len(text))
    return Trace(tuple(pieces), steps_of(pieces, rules, first="as given", layout=False))


def normalized_range(norm: Normalized, start: int, end: int, *, limit: int) -> tuple[int, int] | None:
    """Normalized ``[a, b)`` whose first character comes from original offset ``start``
    and whose last ends at ``end``, looking at most ``limit`` characters past ``a``;
    None when there is none."""
    starts, ends = norm.offsets
    i = -1
    while True:
        try:
            i = starts.index(start, i + 1)
        except ValueError:
            return None
        if ends[i] > starts[i]:
            break
    for j in range(i + 1, min(len(ends), i + limit) + 1):
        if ends[j - 1] == end:
            # take in the rest of an expansion that ends here too (a ligature's last letters)
            while j < len(ends) and ends[j] == end and starts[j] == starts[j - 1]:
                j += 1
            return i, j
    return None


@dataclass(frozen=True)
class RuleTrace:
    """A verdict's trace: the quote's and the passage's (``match`` when accepted or
    found elsewhere, ``closest passage`` for a near miss, None when there is no
    passage), step by step through the same rules."""

    quote: Trace
    passage: Trace | None
    passage_kind: str | None

    def rows(self) -> list[dict]:
        """One row per step: rule, texts, marked texts and characters changed."""
        names = [s.rule for s in self.quote.steps]
        if self.passage is not None:
            names = ["as given"] + [s.rule for s in self.passage.steps[1:]]
        quote_steps = {s.rule: s for s in self.quote.steps}
        quote_steps["as given"] = self.quote.steps[0]
        passage_steps = {}
        if self.passage is not None:
            passage_steps = {s.rule: s for s in self.passage.steps}
            passage_steps["as given"] = self.passage.steps[0]
        rows = []
        last_q = self.quote.steps[0]
        for name in names:
            q = quote_steps.get(name)
            if q is not None:
                last_q = q
            p = passage_steps.get(name)
            rows.append({
                "rule": name,
                "quote": last_q.text,
                "quote_marked": q.marked() if q is not None and name != "as given" else last_q.text,
                "quote_changed": q.changed if q is not None and name != "as given" else 0,
                "passage": p.text if p is not None else "",
                "passage_marked": p.marked() if p is not None and name != "as given" else (p.text if p else ""),
                "passage_changed": p.changed if p is not None and name != "as given" else 0,
            })  # fmt: skip
        return rows


def rule_trace(locator: "Locator", verdict: "Verdict") -> RuleTrace:
    """The trace of ``verdict`` (from ``locator``): the quote through the locator's
    rules, and the matched or closest passage through the same rules, read off the
    locator's own offset map of the document (of the document with a space at each word
    gap for a verdict that takes one)."""
    if "word-gaps" in verdict.rules:
        locator = locator._spaced_locator() or locator
    rules = locator.rules
    quote = trace_text(verdict.quote, rules)
    norm, original = locator.norm, locator.document.text
    found = None
    kind = None
    if verdict.near_miss is not None:
        nm = verdict.near_miss
        found = normalized_range(norm, nm.start, nm.end, limit=len(nm.passage) + 1)
        kind = "closest passage"
    elif verdict.spans:
        first, last = verdict.spans[0][0], verdict.spans[-1][1]
        found = normalized_range(norm, first, last, limit=4 * len(verdict.quote) + 64)
        kind = "match"
    if found is None:
        return RuleTrace(quote, None, None)
    a, b = found
    pieces = pieces_of(norm, original, a, b)
    if rules.hyphenation == "both" and verdict.accepted:
        pieces = _decide_optional_hyphens(pieces, quote.final)
    return RuleTrace(quote, Trace(tuple(pieces), steps_of(pieces, rules, first="as extracted", layout=True)), kind)


def _decide_optional_hyphens(pieces: list[Piece], quote: str) -> list[Piece]:
    """With ``hyphenation="both"`` the document keeps every end-of-line hyphen between
    letters as optional and the quote decides: drop the ones the quote does not have."""
    out: list[Piece] = []
    done = ""
    for p in pieces:
        if p.rules and p.rules[-1] == "hyphenation" and p.after in ("-", "\u2010") and not quote.startswith(
            done + p.after, 0
        ):
            p = Piece(p.before, "", p.rules)
        done += p.after
        out.append(p)
    return out
