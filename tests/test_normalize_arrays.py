"""The numpy composition of edits that :func:`normalize` uses on long texts gives the
offset map the list composition (:func:`apply_edits`) gives, edit for edit and rule for
rule."""

from __future__ import annotations

import importlib
import random
from array import array

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotelocate.normalize import (
    LAYOUT,
    OPTIONAL,
    Context,
    Normalized,
    NormalizedArrays,
    apply_edits,
    identity,
    normalize,
    preset,
)

normalize_module = importlib.import_module("quotelocate.normalize")  # the package exports a function of that name

FLAGS = (0, 1, 2, 4, LAYOUT, OPTIONAL, OPTIONAL | 32)


@st.composite
def states_and_edits(draw):
    text = draw(st.text(alphabet="ab -\n\u2019", min_size=1, max_size=40))
    n = len(text)
    state = Normalized(
        text=text,
        starts=draw(st.lists(st.integers(0, 60), min_size=n, max_size=n)),
        ends=draw(st.lists(st.integers(0, 60), min_size=n, max_size=n)),
        flags=array("H", draw(st.lists(st.sampled_from(FLAGS), min_size=n, max_size=n))),
        gaps=array("H", draw(st.lists(st.sampled_from(FLAGS), min_size=n + 1, max_size=n + 1))),
    )
    edits = []
    pos = draw(st.integers(0, n - 1))
    while pos < n and len(edits) < 12:
        end = draw(st.integers(pos + 1, min(n, pos + 4)))
        edits.append((pos, end, draw(st.sampled_from(["", "", " ", "x", "yz"])), draw(st.sampled_from(FLAGS[1:]))))
        pos = end + draw(st.integers(0, 3))
    return state, edits


def as_tuple(n: Normalized) -> tuple:
    return n.text, list(n.starts), list(n.ends), list(n.flags), list(n.gaps)


@given(states_and_edits())
def test_one_step_matches_the_list_composition(case):
    state, edits = case
    assert as_tuple(NormalizedArrays.of(state).apply(edits).normalized()) == as_tuple(apply_edits(state, edits))


def test_no_edits_keeps_the_state():
    state = identity("some text")
    arrays = NormalizedArrays.of(state)
    assert arrays.apply([]) is arrays
    assert as_tuple(arrays.normalized()) == as_tuple(state)


def _long_text(seed: int) -> str:
    """Text with every kind of thing the document rules edit: line breaks after letter,
    digit and suspended hyphens, soft hyphens, curly quotes, ligatures, spacing
    accents, math symbols next to spaces, runs of spaces and tabs."""
    pieces = ["trans-\nduction", "IEEE-\n754", "pre-\nand post-training", "co\u00adoperate",
              "\u2018quoted\u2019", "\u201cdouble\u201d", "e\ufb03cient", "Franc\u00b8ois", "na\u00a8\u0131ve",
              "x = y + 2", "a  \t b", "\n\n", "plain words here", "\u00b9", "10\u00b2", " ", "\n"]
    rng = random.Random(seed)
    return " ".join(rng.choice(pieces) for _ in range(1500))


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", ["recommended", "two-transform", "exact"])
def test_long_text_normalizes_alike_on_both_paths(monkeypatch, seed, name):
    text = _long_text(seed)
    assert len(text) >= normalize_module._ARRAY_MIN_CHARS
    rules = preset(name)
    # markers and glyphs are document offsets the rules map through the composed map
    markers = tuple((m, m + 1) for m in range(len(text)) if text[m] == "\u00b9")
    glyphs = tuple((g, "-") for g in range(0, len(text), 97) if text[g].isalpha())
    ctx = Context(page_starts=(0, len(text) // 2), marker_spans=markers, glyphs=glyphs)
    base = normalize(text, preset("exact").replace(layout=True))  # a base map to start from
    by_arrays = normalize(text, rules, context=ctx)
    by_arrays_on_base = normalize(text, rules, context=ctx, base=base)
    monkeypatch.setattr(normalize_module, "_ARRAY_MIN_CHARS", 10**9)
    by_lists = normalize(text, rules, context=ctx)
    by_lists_on_base = normalize(text, rules, context=ctx, base=base)
    assert as_tuple(by_arrays) == as_tuple(by_lists)
    assert as_tuple(by_arrays_on_base) == as_tuple(by_lists_on_base)
    assert by_arrays.text != text or name == "exact"
    assert isinstance(by_arrays.starts, list) and isinstance(by_arrays.flags, array)


@given(states_and_edits())
def test_both_ways_of_laying_out_the_arrays_match_the_list_composition(case):
    # apply() copies the kept runs for a few edits and gathers by index for many: each
    # way on its own gives the list composition, whichever the edit count
    state, edits = case
    expected = as_tuple(apply_edits(state, edits))
    arrays = NormalizedArrays.of(state)
    if edits:
        assert as_tuple(arrays._apply_few(edits).normalized()) == expected
        assert as_tuple(arrays._apply_gathered(edits).normalized()) == expected


def test_many_edits_take_the_gathering_way_and_match_the_list_composition():
    rng = random.Random(3)
    text = "".join(rng.choice("ab -\n\u2019") for _ in range(600))
    state = identity(text)
    edits = []
    pos = 0
    while pos < len(text) - 3:
        end = pos + rng.randint(1, 3)
        edits.append((pos, end, rng.choice(["", " ", "xy"]), rng.choice(FLAGS[1:])))
        pos = end + rng.randint(0, 4)
    assert len(edits) > normalize_module._FEW_EDITS
    assert as_tuple(NormalizedArrays.of(state).apply(edits).normalized()) == as_tuple(apply_edits(state, edits))
    few = edits[: normalize_module._FEW_EDITS]
    assert as_tuple(NormalizedArrays.of(state).apply(few).normalized()) == as_tuple(apply_edits(state, few))


def test_a_map_from_the_arrays_keeps_machine_integers_until_its_lists_are_asked_for():
    """The offsets of a long text's map stay arrays (8 bytes a character) until
    ``starts`` or ``ends`` is read; the lists are then the same numbers, and the map
    answers, compares and copies as one built from lists."""
    text = _long_text(3)
    rules = preset("recommended")
    lazy = normalize(text, rules)
    assert "starts" not in vars(lazy) and "ends" not in vars(lazy)
    starts, ends = lazy.offsets
    assert isinstance(starts, array) and starts.typecode == "q" and isinstance(ends, array)
    n = len(lazy.text)
    assert lazy.span(3, n - 2) == (starts[3], ends[n - 3])
    assert lazy.segments(0, n) == ((starts[0], ends[n - 1]),)
    assert "starts" not in vars(lazy)  # answering did not make the lists
    eager = Normalized(text=lazy.text, starts=list(starts), ends=list(ends), flags=lazy.flags, gaps=lazy.gaps)
    assert as_tuple(lazy) == as_tuple(eager)  # reads the lists
    assert isinstance(lazy.starts, list) and lazy.starts == list(starts) and lazy.ends == list(ends)
    assert lazy.offsets == (lazy.starts, lazy.ends)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        lazy.nothing  # noqa: B018


def test_a_locator_works_from_the_arrays_without_making_the_lists():
    """Building a locator and locating quotes, found or not, reads the offsets as
    arrays: the int-object lists are made only for a caller that asks for them."""
    from quotelocate import Document, Locator

    text = "\n".join(f"Sentence {i} says  that the \u201cvalue\u201d was {i * 7} in trial {i}." for i in range(800))
    assert len(text) >= normalize_module._ARRAY_MIN_CHARS
    doc = Document.from_text(text)
    loc = Locator(doc, preset("recommended"))
    found = loc.locate('was 2807 in trial 401. Sentence 402 says that the "value"')
    missed = loc.locate('was 2808 in trial 401. Sentence 402 says that the "value"')
    assert found.accepted and not missed.accepted and missed.near_miss is not None
    assert doc.text[found.start : found.end] == 'was 2807 in trial 401.\nSentence 402 says  that the \u201cvalue\u201d'
    assert "starts" not in vars(loc.norm) and "ends" not in vars(loc.norm)
