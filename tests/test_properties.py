"""Property tests (hypothesis) for the invariants the locator promises.

* soundness: the original span of an accepted verdict normalizes to the normalized quote;
* completeness: a substring of the document, re-rendered as a model writes it, is
  accepted at the right offset;
* mutations: changing a digit or deleting a word of an accepted quote gets it rejected,
  unless the mutant itself occurs in the document;
* normalization is idempotent and its offset map is monotone.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from quotelocate import Document, Locator, Rules
from quotelocate.kgrams import skeleton as _skeleton
from quotelocate.normalize import PRESETS, normalize, normalize_text

REC = PRESETS["recommended"]
RULESETS = st.builds(
    Rules,
    quotes=st.booleans(),
    whitespace=st.booleans(),
    invisible=st.booleans(),
    unicode=st.sampled_from(["off", "ligatures", "nfkc"]),
    hyphenation=st.sampled_from(["off", "keep", "drop", "both"]),
)
WORDS = ["attention", "model", "the", "trans", "duction", "state", "art", "of", "encoder", "layer", "10", "28.4", "[12]"]
# Documents built from words with PDF-like artifacts between them.
SEPARATORS = st.sampled_from([" ", " ", " ", "\n", "  ", "-\n", " \n ", ", ", ". "])
PDF_CHARS = st.sampled_from(["ﬁ", "ﬂ", "’", "“", "”", "\u00ad", "ϵ", "²"])


@st.composite
def pdf_text(draw):
    words = draw(st.lists(st.sampled_from(WORDS) | PDF_CHARS.map(lambda c: "e" + c + "x"), min_size=8, max_size=40))
    out = [words[0]]
    for w in words[1:]:
        out.append(draw(SEPARATORS))
        out.append(w)
    return "".join(out)


general_text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80)


@given(general_text, RULESETS)
@settings(max_examples=300, deadline=None)
def test_normalization_is_idempotent_and_monotone(text, rules):
    n = normalize(text, rules)
    # the document side and the quote side agree (the quote side also strips)
    expected = n.text.strip() if rules.whitespace else n.text
    assert normalize_text(text, rules) == expected
    assert normalize_text(n.text, rules) == expected
    assert normalize(n.text, rules).text == n.text
    assert all(a <= b for a, b in zip(n.starts, n.starts[1:]))
    assert all(s <= e for s, e in zip(n.starts, n.ends))
    assert all(0 <= s and e <= len(text) for s, e in zip(n.starts, n.ends))


def _as_model_writes(raw: str) -> str:
    """How a model re-renders a raw span: joined hyphen breaks (drop inside our
    split words, keep elsewhere), collapsed spaces, straight quotes, spelled ligatures."""
    text = re.sub(r"trans-\n\s*duction", "transduction", raw)
    text = re.sub(r"(?<=[^\W\d_])-\n\s*(?=[^\W\d_])", "-", text)
    # next to a digit the hyphen is printed and the break is no space: "IEEE-\n754" is IEEE-754
    text = re.sub(r"(?:(?<=\d)|(?<=[^\W_])(?=-\n\s*\d))-\n\s*(?=[^\W_])", "-", text)
    text = text.replace("\u00ad", "")
    text = text.translate(str.maketrans({"’": "'", "“": '"', "”": '"'}))
    text = text.replace("ﬁ", "fi").replace("ﬂ", "fl").replace("ϵ", "ε")
    return " ".join(text.split())


@given(pdf_text(), st.data())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_completeness_and_soundness(text, data):
    doc = Document.from_text(text)
    loc = Locator(doc, REC)
    # pick a span on word boundaries
    bounds = [m.span() for m in re.finditer(r"\S+", text)]
    i = data.draw(st.integers(0, len(bounds) - 1))
    j = data.draw(st.integers(i, len(bounds) - 1))
    start, end = bounds[i][0], bounds[j][1]
    raw = text[start:end]
    assume(not raw.endswith("-"))  # a model never ends a quote on a line-break hyphen
    quote = _as_model_writes(raw)
    v = loc.locate(quote)
    if v.status == "invalid":
        return
    assert v.accepted, (raw, quote, v.reason)
    # soundness: the reported span normalizes to the normalized quote (up to the
    # end-of-line hyphens that hyphenation="both" dropped for this quote)
    span_norm, quote_norm = normalize_text(text[v.start : v.end], REC), normalize_text(quote, REC)
    if "hyphenation:drop" in v.rules:
        assert _skeleton(span_norm) == _skeleton(quote_norm), (span_norm, quote_norm)
    else:
        assert span_norm == quote_norm, (span_norm, quote_norm)
    if not v.ambiguous:
        assert v.start <= start + 1 and v.end >= end - 1, (v.start, v.end, start, end)


@given(pdf_text(), st.data())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_mutations_are_rejected(text, data):
    doc = Document.from_text(text)
    loc = Locator(doc, REC)
    bounds = [m.span() for m in re.finditer(r"\S+", text)]
    assume(len(bounds) >= 4)
    i = data.draw(st.integers(0, len(bounds) - 4))
    quote = _as_model_writes(text[bounds[i][0] : bounds[i + 3][1]])
    v = loc.locate(quote)
    assume(v.accepted)
    words = quote.split(" ")
    k = data.draw(st.integers(0, len(words) - 1))
    mutants = [" ".join(words[:k] + words[k + 1 :])]
    digits = [m.start() for m in re.finditer(r"\d", quote)]
    if digits:
        d = data.draw(st.sampled_from(digits))
        mutants.append(quote[:d] + str((int(quote[d]) + 1) % 10) + quote[d + 1 :])
    norm_doc = loc.norm.text
    for mutant in mutants:
        m = loc.locate(mutant)
        if m.status == "invalid":
            continue
        # accepted only if the mutant itself really occurs (on word boundaries)
        if m.accepted:
            key = normalize_text(mutant, REC)
            assert re.search(r"(?<!\w)" + re.escape(key).replace("\\-", "-?") + r"(?!\w)", norm_doc.replace("-", "")) or key in norm_doc, (quote, mutant)


@given(st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_real_paper_windows_with_either_hyphen_choice(data):
    """On v7 with the recommended rules: any window of the reading-order text, with
    each end-of-line hyphen inside it kept or dropped at random (as a model may write
    it), is accepted at the window's place."""
    from conftest import locator

    loc = locator("1706.03762v7.pdf")
    norm = loc.norm
    text = norm.text
    starts = [m.start() for m in re.finditer(r"(?<![\w\x00])\w", text)]
    i = data.draw(st.integers(0, len(starts) - 40), label="first word")
    j = i + data.draw(st.integers(4, 30), label="words")
    a = starts[i]
    b = starts[j] - 1
    while b > a and not text[b - 1].isalnum() and text[b - 1] not in ".)]":
        b -= 1
    window = text[a:b]
    assume("\x00" not in window and len("".join(window.split())) >= 12)
    pieces, prev = [], a
    for pos in norm.optional_positions:
        if a < pos < b:
            pieces.append(text[prev:pos])
            if data.draw(st.booleans(), label=f"keep hyphen at {pos}"):
                pieces.append("-")
            prev = pos + 1
    pieces.append(text[prev:b])
    quote = "".join(pieces)
    v = loc.locate(quote)
    assert v.accepted, (quote, v.reason)
    if not v.ambiguous:
        assert v.start == norm.starts[a] and v.end == norm.ends[b - 1]
    # changing one digit or one letter's case of an accepted window gets it rejected,
    # unless the mutant itself occurs in the paper
    spots = [k for k, ch in enumerate(quote) if ch.isdigit() or ch.isalpha()]
    k = data.draw(st.sampled_from(spots), label="mutated character")
    ch = quote[k]
    new = str((int(ch) + 1) % 10) if ch.isdigit() else ch.swapcase()
    assume(new != ch)
    mutant = quote[:k] + new + quote[k + 1 :]
    m = loc.locate(mutant)
    if m.accepted:
        assert _skeleton(normalize_text(mutant, REC)) in loc._skel, mutant
