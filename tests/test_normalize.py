"""Each normalization rule on its own, the offset map, presets and fingerprints."""

from __future__ import annotations

import pytest

from quotelocate.errors import ConfigError
from quotelocate.normalize import (
    normalize_text,
    PRESETS,
    Context,
    Rules,
    find_furniture,
    normalize,
    normalize_quote,
    preset,
)

R = Rules


@pytest.mark.parametrize(
    "text,rules,expected",
    [
        ("a\n  b\t\tc", R(whitespace=True), "a b c"),
        ("‘making’ “it”", R(quotes=True), "'making' \"it\""),
        ("co\u00adoperate zero\u200bwidth", R(invisible=True), "cooperate zerowidth"),
        ("eﬃcient ﬁne", R(unicode="ligatures"), "efficient fine"),
        ("ϵ ﬁ ＡＢＣ …", R(unicode="nfkc"), "ε fi ABC ..."),
        ("10² x₂ ½", R(unicode="nfkc"), "10² x₂ ½"),  # never turned into plain digits
        ("transduc-\ntion", R(hyphenation="drop"), "transduction"),
        ("English-\nto-German", R(hyphenation="keep"), "English-to-German"),
        ("transduc-\r\ntion models", R(hyphenation="drop", whitespace=True), "transduction models"),  # CRLF text
        ("2-\n3", R(hyphenation="drop", whitespace=True), "2- 3"),  # never across digits
        ("cafe\u0301", R(unicode="nfkc"), "café"),
        ("x\u00b4y \u00a8 \u1fc1", R(unicode="nfkc"), "x\u00b4y \u00a8 \u1fc1"),  # spacing accents stay whole
    ],
)
def test_rule(text, rules, expected):
    assert normalize(text, rules).text == expected
    assert normalize_quote(text, rules)[0] == expected.strip()


def test_offset_map_points_back_to_original():
    text = "The ﬁrst trans-\nduction\n  model"
    n = normalize(text, PRESETS["recommended"].replace(hyphenation="drop"))
    assert n.text == "The first transduction model"
    i = n.text.index("first")
    assert n.span(i, i + 5) == (4, 8)  # the ligature glyph counts as one original char
    j = n.text.index("transduction")
    s, e = n.span(j, j + len("transduction"))
    assert text[s:e] == "trans-\nduction"


def test_hyphen_both_marks_optional_break():
    n = normalize("state-\nof-the-art", R(hyphenation="both"))
    assert n.text == "state-of-the-art"
    assert n.optional_positions == [5]


def test_page_numbers_need_consistent_offsets():
    pages = ["Intro text\n1\n", "1\nIntroduction and more\n2\n", "body goes on\n3\n"]
    text = "\f".join(pages)
    starts, pos = [], 0
    for p in pages:
        starts.append(pos)
        pos += len(p) + 1
    spans = find_furniture(text, starts)
    removed = [text[s:e] for s, e in spans]
    assert removed == ["1", "2", "3"]
    # the section number "1" at the top of page 2 is kept
    assert text.index("1\nIntroduction") not in [s for s, _ in spans]


def test_running_header_and_arxiv_stamp():
    pages = [f"Draft Paper Title\nbody {i} text\n{i + 1}\n" for i in range(4)]
    pages[0] += "arXiv:2601.00001v1  [cs.CL]  1 Jan 2026\n"
    text = "\f".join(pages)
    starts, pos = [], 0
    for p in pages:
        starts.append(pos)
        pos += len(p) + 1
    n = normalize(text, R(furniture=True, whitespace=True), context=Context(page_starts=tuple(starts)))
    assert "Draft Paper Title" not in n.text and "arXiv" not in n.text
    assert "body 0 text body 1 text" in n.text


OLD_RECOMMENDED = Rules(
    quotes=True, whitespace=True, invisible=True, unicode="nfkc", hyphenation="both", furniture=True, layout=True
)
"""``recommended`` before the accents, markers, suspended-hyphen, math-spacing and word-gap rules."""
NEW_RULES = ("accents", "markers", "suspended_hyphens", "math_spacing", "word_gaps", "slash_spacing", "url_spacing")


def test_fingerprint_is_stable_and_distinct():
    # A changed fingerprint means stored verdicts can no longer be audited: change
    # SEMANTICS_VERSION deliberately when rules change behaviour, then update this.
    assert PRESETS["recommended"].fingerprint == OLD_RECOMMENDED.replace(**dict.fromkeys(NEW_RULES, True)).fingerprint
    assert PRESETS["recommended"].fingerprint == "ql2-988f35176b3363d2"  # pinned: stored verdicts rely on it
    # the preset before slash spacing joined it keeps the fingerprint its verdicts were stored under
    assert PRESETS["recommended"].replace(slash_spacing=False, url_spacing=False).fingerprint == "ql2-e375ef8746042149"
    # ... and so does the preset before URL spacing joined it
    assert PRESETS["recommended"].replace(url_spacing=False).fingerprint == "ql2-8c2453b30faa835d"
    prints = {r.fingerprint for r in PRESETS.values()}
    assert len(prints) == len(PRESETS)
    assert PRESETS["exact"].fingerprint.startswith("ql2-")
    assert Rules.from_dict(PRESETS["recommended"].to_dict()) == PRESETS["recommended"]


def test_fields_added_later_keep_old_fingerprints():
    # a config stored before the later fields existed loads with their defaults and
    # keeps its fingerprint (the verdicts stored under the previous recommended preset
    # still audit); switching a new rule on gives a new one
    old = {k: v for k, v in OLD_RECOMMENDED.to_dict().items() if not k.startswith("ellipsis") and k not in NEW_RULES}
    assert Rules.from_dict(old).fingerprint == "ql2-d108844d45cb6aa3"
    assert OLD_RECOMMENDED.fingerprint == "ql2-d108844d45cb6aa3"
    fragments = PRESETS["recommended"].replace(ellipsis="fragments")
    assert fragments.fingerprint != PRESETS["recommended"].fingerprint
    assert fragments.replace(ellipsis_gap=50).fingerprint != fragments.fingerprint
    assert "ellipsis=fragments" in fragments.active()
    prints = {OLD_RECOMMENDED.replace(**{name: True}).fingerprint for name in NEW_RULES}
    assert len(prints) == len(NEW_RULES) and OLD_RECOMMENDED.fingerprint not in prints
    assert {"accents", "markers", "suspended_hyphens", "math_spacing"} <= set(PRESETS["recommended"].active())


@pytest.mark.parametrize(
    "kwargs",
    [{"unicode": "nfkd"}, {"hyphenation": "maybe"}, {"whitespace": "yes"}, {"min_chars": -1},
     {"ellipsis": "skip"}, {"ellipsis_gap": -5}, {"ellipsis_gap": True}, {"accents": 1}, {"markers": "yes"},
     {"suspended_hyphens": None}, {"math_spacing": "on"}],
)
def test_bad_rules_are_config_errors(kwargs):
    with pytest.raises(ConfigError):
        Rules(**kwargs)


def test_unknown_preset_and_field():
    with pytest.raises(ConfigError, match="unknown preset"):
        preset("lenient")
    with pytest.raises(ConfigError, match="unknown field"):
        Rules.from_dict({"lowercase": True})


def test_fast_verdict_equals_dataclass_init():
    from quotelocate import Document, Locator
    from quotelocate.locate import Verdict

    doc = Document.from_text("Attention is all you need, the authors wrote.")
    v = Locator(doc).locate("Attention is all you need")
    rebuilt = Verdict(**{k: v.__dict__[k] for k in Verdict.__dataclass_fields__})
    assert rebuilt == v and v.accepted and v.boxes == ()
    assert set(v.__dict__) - {"_boxes"} == set(Verdict.__dataclass_fields__)
    with pytest.raises(AttributeError):
        v.accepted = False  # still frozen


@pytest.mark.parametrize("rules", list(PRESETS.values()) + [R(hyphenation="drop", whitespace=True)])
@pytest.mark.parametrize("quote", ["plain ascii words here", "a  b", "x\ny-\nz", " lead", "tail ", "‘q’ ﬁ"])
def test_quote_fast_path_matches_rule_by_rule(quote, rules):
    from quotelocate.normalize import RULES, _QUOTE_CTX, _apply_text, _enabled

    text = quote
    for name, fn in RULES.items():
        if name != "furniture" and _enabled(rules, name):
            text = _apply_text(text, fn(text, rules, _QUOTE_CTX))
    assert normalize_quote(quote, rules)[0] == text


def test_rule_flags_range_or_matches_definition():
    import random

    from quotelocate.normalize import OPTIONAL

    text = "The ﬁrst trans-\nduction ‘model’\n 2\n\u00adlayer  of   the\u200b encoder-\ndecoder " * 20
    n = normalize(text, PRESETS["recommended"].replace(layout=False))
    rng = random.Random(7)
    for _ in range(2000):
        a = rng.randrange(len(n.text))
        b = rng.randrange(a + 1, len(n.text) + 1)
        want = 0
        for v in n.flags[a:b]:
            want |= v
        for v in n.gaps[a + 1 : b]:
            want |= v
        assert n.rule_flags(a, b) == want & ~OPTIONAL


@pytest.mark.parametrize("text", ["ｶﾞｲﾄﾞ and ﾊﾟﾝ", "ﾞstarts with a voiced mark", "cafe\u0301 ﬁne ½"])
def test_nfkc_is_idempotent_on_halfwidth_voiced_marks(text):
    # NFKC turns U+FF9E/FF9F into combining marks; they must compose with their base in
    # the same pass ("ｶﾞ" -> "ガ", not "カ\u3099"), or a second pass would change the text
    rules = PRESETS["recommended"]
    once = normalize_text(text, rules)
    assert normalize_text(once, rules) == once
    assert "\u3099" not in once[1:] and "\u309a" not in once[1:]


def test_invisible_rule_prefilter_lists_every_character_its_patterns_match() -> None:
    # the rule skips a text holding none of the listed characters: a character the
    # patterns match but the list misses would silently stay in the text
    import importlib
    import sys

    module = importlib.import_module("quotelocate.normalize")  # the package exports a function of that name
    matched = {chr(c) for c in range(sys.maxunicode + 1) if module._INVISIBLE_ALL.fullmatch(chr(c))}
    assert matched == set(module._INVISIBLE_CHARS)
    assert {chr(c) for c in range(sys.maxunicode + 1) if module._INVISIBLE.match(chr(c) + "x")} <= matched


def test_document_whitespace_runs_are_those_of_the_plain_two_way_pattern():
    """The document's whitespace runs: a space followed by more whitespace, or any other
    whitespace with all that follows it; the scanning form finds exactly those runs."""
    import itertools
    import re

    from quotelocate.normalize import _WS_DOC

    plain = re.compile(r" \s+|[^\S ]\s*")
    alphabet = [" ", "\n", "\t", "\r", "\u00a0", "\u2028", "\u3000", "a", "."]
    for n in range(1, 6):
        for chars in itertools.product(alphabet, repeat=n):
            text = "".join(chars)
            assert [m.span() for m in _WS_DOC.finditer(text)] == [m.span() for m in plain.finditer(text)], repr(text)
