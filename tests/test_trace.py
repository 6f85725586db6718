"""The per-rule trace (quotelocate.trace): read off one normalization's offset map, it
must agree with the normalizer itself, step by step where a character has one rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quotelocate import Document, Locator
from quotelocate.normalize import PRESETS, RULES, Rules, normalize_quote
from quotelocate.trace import normalized_range, rule_trace, trace_text, visible

ALL_ON = Rules(quotes=True, whitespace=True, invisible=True, unicode="nfkc", hyphenation="drop")
# Each artifact here is touched by exactly one rule, so every step has one true text.
ONE_RULE_EACH = "  the \ufb01rst \u201cmodel\u201d uses trans-\nduction and soft\u00adhyphens  everywhere "


def cumulative(rules: Rules, upto: str) -> Rules:
    """``rules`` with only the rules up to ``upto`` (in running order) left on."""
    names = list(RULES)
    off = {name: (False if isinstance(getattr(rules, name), bool) else "off") for name in names[names.index(upto) + 1 :]}
    return rules.replace(**off)


def test_each_step_is_the_text_after_the_rules_so_far():
    t = trace_text(ONE_RULE_EACH, ALL_ON)
    assert [s.rule for s in t.steps] == ["as given", "invisible", "unicode", "quotes", "hyphenation", "whitespace"]
    assert t.steps[0].text == ONE_RULE_EACH
    for step in t.steps[1:]:
        assert step.text == normalize_quote(ONE_RULE_EACH, cumulative(ALL_ON, step.rule))[0], step.rule
    assert t.final == "the first \"model\" uses transduction and softhyphens everywhere"


def test_each_step_counts_and_marks_only_what_its_rule_changed():
    t = {s.rule: s for s in trace_text(ONE_RULE_EACH, ALL_ON).steps}
    assert t["unicode"].changed == 1 and t["unicode"].marked().count("[-\ufb01-]{+fi+}") == 1
    assert t["quotes"].changed == 2 and "[-\u201c-]{+\"+}model[-\u201d-]{+\"+}" in t["quotes"].marked()
    assert t["invisible"].changed == 1 and "soft[-⟨U+00AD⟩-]hyphens" in t["invisible"].marked()
    assert t["hyphenation"].changed == 2 and "trans[--↵-]duction" in t["hyphenation"].marked()
    # leading, doubled and trailing spaces: three stretches, five characters
    assert t["whitespace"].changed == 5
    assert t["whitespace"].marked().startswith("[-··-]the")
    assert "[-" not in trace_text("plain ascii quote", ALL_ON).steps[-1].marked()


def test_a_stretch_two_rules_changed_shows_at_the_last_and_is_marked_by_both():
    t = {s.rule: s for s in trace_text("a\u00a0\nb c d e", Rules(unicode="nfkc", whitespace=True)).steps}
    assert t["unicode"].text == "a\u00a0\nb c d e"  # not yet: whitespace finishes it
    assert "«⟨U+00A0⟩↵»" in t["unicode"].marked()
    assert t["whitespace"].text == "a b c d e"
    assert "[-⟨U+00A0⟩↵-]{+·+}" in t["whitespace"].marked()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab ,.-\n\t\u00a0\u00ad\u200b\ufb01\ufb03\u2018\u2019\u201c\u201d\u00b2e\u0301\u2010")),
               max_size=40),
       st.sampled_from(sorted(PRESETS)))
def test_the_last_step_is_the_normalized_quote(text, preset):
    rules = PRESETS[preset]
    t = trace_text(text, rules)
    assert t.final == normalize_quote(text, rules)[0]
    assert t.steps[0].text == text
    assert "".join(p.before for p in t.pieces) == text


def test_a_match_traces_back_to_the_extracted_text_and_forward_to_the_quote():
    doc = Document.from_text("Intro line.\nThe model uses trans-\nduction and the \u2018making\u2019 step, of\ufb01cially.\nEnd.")
    loc = Locator(doc, "recommended")
    v = loc.locate("uses transduction and the 'making' step, officially")
    assert v.accepted
    tr = rule_trace(loc, v)
    assert tr.passage_kind == "match"
    assert tr.passage.steps[0].text == doc.text[v.start : v.end]
    assert tr.passage.final == tr.quote.final
    steps = {s.rule: s for s in tr.passage.steps}
    assert "trans[--↵-]duction" in steps["hyphenation"].marked()  # hyphenation=both: the quote dropped it
    assert "[-\ufb01-]{+fi+}" in steps["unicode"].marked()
    assert steps["quotes"].changed == 2
    rows = tr.rows()
    assert rows[0]["rule"] == "as given" and rows[-1]["passage"] == rows[-1]["quote"]


def test_a_near_miss_traces_its_closest_passage():
    doc = Document.from_text("Our model achieves 28.4 BLEU on the WMT 2014\nEnglish-to-German translation task.")
    loc = Locator(doc, "recommended")
    v = loc.locate("Our model achieves 28.3 BLEU on the WMT 2014 English-to-German translation task.")
    assert not v.accepted and v.near_miss is not None
    tr = rule_trace(loc, v)
    assert tr.passage_kind == "closest passage"
    assert tr.passage.final == v.near_miss.passage
    whitespace = next(step for step in tr.passage.steps if step.rule == "whitespace")
    assert "2014[-↵-]{+·+}English" in whitespace.marked()


def test_no_passage_for_an_invalid_quote():
    doc = Document.from_text("Some text that is long enough to search in.")
    loc = Locator(doc, "recommended")
    tr = rule_trace(loc, loc.locate("too short"))
    assert tr.passage is None and tr.passage_kind is None
    assert [r["passage"] for r in tr.rows()] == [""] * len(tr.rows())


def test_normalized_range_finds_an_expansion_whole():
    doc = Document.from_text("An of\ufb01ce here, and more words.")
    loc = Locator(doc, Rules(unicode="ligatures"))
    start = doc.text.index("of")
    a, b = normalized_range(loc.norm, start, start + 3, limit=20)  # "of" and the ligature
    assert loc.norm.text[a:b] == "offi"
    assert normalized_range(loc.norm, 10_000, 10_004, limit=20) is None


@pytest.mark.parametrize("text, shown", [("a\nb", "a↵b"), ("x\u200by", "x⟨U+200B⟩y"), ("\x00", "␀")])
def test_visible_spells_out_invisible_characters(text, shown):
    assert visible(text) == shown
