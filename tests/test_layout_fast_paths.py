"""The layout's vectorized steps give what their line-by-line forms give: the figure
marks found with numpy against the scan kept for boxes that are not finite numbers,
the words of every line counted over the whole text against each line's own tokens,
the body size binned with numpy against the loop kept for sizes that are not finite,
the rows of a set of lines grouped once against grouping them again, the body's lines
added to the reading order in one call against one at a time, a two-column page read as
one band, and the reading order kept per document is shared by every set of rules
without one of them changing it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quotelocate import preset
from quotelocate.document import Line
from quotelocate.layout import (
    _WORD,
    _Boxes,
    FLOW_BARRIER,
    FLOW_SEPARATOR,
    _Builder,
    _body_size,
    _body_size_loop,
    _group_rows,
    _Layout,
    _rows,
    _word_counts,
    classify,
)
from quotelocate.normalize import LAYOUT, NormalizedArrays
from quotelocate.prepare import forget, prepare, reading_order

from conftest import document

# papers with figures whose panel letters and marks the figure-mark step reads
FIGURE_PAPERS = ["natneuro2011_ephaptic_coupling.pdf", "arxiv2022_strain_sensor_elsarticle.pdf",
                 "jcap2008_apparent_accelerations.pdf", "pmj2010_iron_deficiency_hpylori.pdf"]


def _one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the layout take the line-by-line figure-mark scan."""
    arrays = _Boxes.arrays

    def not_finite(self):
        out = arrays(self)
        self.finite = False
        return out

    monkeypatch.setattr(_Boxes, "arrays", not_finite)


@pytest.mark.parametrize("name", FIGURE_PAPERS)
def test_figure_marks_by_numpy_and_one_by_one_agree(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = document(name)
    vectorized = classify(doc)
    _one_by_one(monkeypatch)
    assert classify(doc) == vectorized
    # the step decides something on these papers: a mark read as part of a figure
    monkeypatch.setattr(_Layout, "_figure_marks", lambda self, indices: None)
    assert classify(doc) != vectorized


def test_non_finite_box_takes_the_scan() -> None:
    boxes = _Boxes([])
    boxes.x0 = [0.0, float("nan")]
    boxes.y0 = boxes.x1 = boxes.y1 = [0.0, 1.0]
    boxes.arrays()
    assert boxes.finite is False


@pytest.mark.parametrize("name", ["1706.03762v7.pdf", "acl2020_specter.pdf"])
def test_shared_reading_order_is_left_unchanged_by_the_rules(name: str) -> None:
    doc = document(name)
    forget(doc)
    first = reading_order(doc)
    results = {}
    for rules in (preset("recommended"), preset("exact").replace(layout=True), preset("two-transform").replace(layout=True)):
        results[rules.fingerprint] = prepare(doc, rules)
    again = reading_order(doc)
    assert (again.text, again.starts, again.ends, list(again.flags), list(again.gaps)) == (
        first.text, first.starts, first.ends, list(first.flags), list(first.gaps))
    for rules in (preset("recommended"), preset("exact").replace(layout=True)):
        forget(doc)
        fresh = prepare(doc, rules)
        kept = results[rules.fingerprint]
        assert (fresh.text, fresh.starts, fresh.ends, list(fresh.flags)) == (
            kept.text, kept.starts, kept.ends, list(kept.flags))
    # a copy handed out is the caller's: changing it leaves the kept order alone
    first.starts[0] = -1
    assert reading_order(doc).starts[0] != -1
    assert isinstance(prepare(doc, preset("recommended")).starts, list)
    assert not isinstance(reading_order(doc), NormalizedArrays)


def _counted_line_by_line(text: str, lines: list[Line]) -> tuple[list[int], list[int]]:
    words, tokens = [], []
    for line in lines:
        parts = text[line.start : line.end].split()
        words.append(sum(1 for part in parts if _WORD.search(part)))
        tokens.append(len(parts))
    return words, tokens


def _line(start: int, end: int) -> Line:
    return Line(1, start, end, (0.0, 0.0, 1.0, 1.0), 10.0, "f", (1.0, 0.0), 0)


@given(st.text(alphabet=["a", "\u00e9", "1", "_", " ", "\n", "\t", "\u00a0", "\u00b2", "-", "\u2028", "\x1c", "\ud800"],
               max_size=30), st.data())
def test_word_counts_over_the_text_match_each_lines_own(text: str, data) -> None:
    # the text's own lines (space on both sides) and arbitrary spans (cut inside tokens)
    lines, pos = [], 0
    for part in text.split("\n"):
        lines.append(_line(pos, pos + len(part)))
        pos += len(part) + 1
    for _ in range(data.draw(st.integers(0, 4))):
        start = data.draw(st.integers(0, len(text)))
        lines.append(_line(start, data.draw(st.integers(start, len(text)))))
    assert _word_counts(text, lines) == _counted_line_by_line(text, lines)


@pytest.mark.parametrize("name", ["1706.03762v7.pdf", "pmj2010_iron_deficiency_hpylori.pdf"])
def test_word_counts_of_a_paper_match_each_lines_own(name: str) -> None:
    doc = document(name)
    words, tokens = _word_counts(doc.text, doc.lines)
    assert (words, tokens) == _counted_line_by_line(doc.text, list(doc.lines))
    assert sum(words) > 1000


SIZES = st.sampled_from([0.0, -1.0, 7.25, 7.75, 8.9626, 9.0, 9.25, 9.75, 10.0, 10.25, 12.0])


@given(st.lists(st.tuples(SIZES, st.booleans(), st.sampled_from([0, 1, 3, 10, 50])), max_size=40))
def test_body_size_by_numpy_matches_the_loop(lines) -> None:
    # half-point bins (a tie goes to the bin seen first), then the median size in the bin
    sizes, horizontal, lengths = ([line[k] for line in lines] for k in range(3))
    assert _body_size(sizes, horizontal, lengths) == _body_size_loop(sizes, horizontal, lengths)


def test_body_size_of_a_size_that_is_not_a_number_fails_as_the_loop_does() -> None:
    with pytest.raises(ValueError):
        _body_size([10.0, float("nan")], [True, True], [5, 5])
    assert _body_size([10.0, float("nan")], [True, False], [5, 5]) == 10.0


@pytest.mark.parametrize("name", ["acl2020_specter.pdf", "pldi2009_tracemonkey.pdf"])
def test_rows_handed_out_are_shared_unchangeable_and_equal_to_a_new_grouping(name: str) -> None:
    layout = _Layout(document(name))
    for indices in layout.by_page.values():
        first = _rows(indices, layout.boxes)
        assert first == _group_rows(indices, layout.boxes)
        assert _rows(list(indices), layout.boxes) is first  # found once per input
        with pytest.raises((AttributeError, TypeError)):
            first[0].append(-1)  # no caller can change what the next one gets
        with pytest.raises(TypeError):
            first[0][0] = -1


def _read_by_hand(text: str, pairs, barrier_first: bool) -> tuple:
    """The reading order of ``pairs`` as the builder documents it, character by
    character: a line goes on from where the last one ended when only whitespace lies
    between, else a separator (mapped to the empty span where the text before ended,
    flagged LAYOUT) comes first and the map jumps after it."""
    chars, starts, ends, flags, jumps = [], [], [], [], []

    def take(s: int, e: int) -> None:
        for k in range(s, e):
            chars.append(text[k])
            starts.append(k)
            ends.append(k + 1)
            flags.append(0)

    def separator(at: int, sep: str) -> None:
        for ch in sep:
            chars.append(ch)
            starts.append(at)
            ends.append(at)
            flags.append(LAYOUT)
        jumps.append(len(chars))

    prev = None
    if barrier_first:
        take(0, len(text))
        prev = len(text) if text else None
        separator(prev or 0, FLOW_BARRIER)
        prev = None
    for s, e in pairs:
        if prev is not None and prev <= s and not text[prev:s].strip():
            s = prev
        elif prev is not None:
            separator(prev, FLOW_SEPARATOR)
        if e > s:
            take(s, e)
            prev = e
    gaps = [0] * (len(chars) + 1)
    for j in jumps:
        gaps[j] |= LAYOUT
    return "".join(chars), starts, ends, flags, gaps


@given(st.text(alphabet=["a", " ", "\n", "\f"], max_size=24), st.lists(st.tuples(st.integers(0, 24), st.integers(0, 24)),
       max_size=12), st.booleans(), st.integers(0, 12))
def test_lines_read_in_one_call_or_in_several_give_the_documented_reading(text: str, pairs, barrier_first: bool,
                                                                       cut: int) -> None:
    # lines in and out of text order, empty ones, overlapping ones, whitespace between
    pairs = [(min(s, len(text)), min(e, len(text))) for s, e in pairs]
    one, several = _Builder(text), _Builder(text)
    for b in (one, several):
        if barrier_first:  # a flow read before: the next line starts after a barrier
            b.line(0, len(text))
            b.barrier()
    one.lines(pairs)
    several.lines(pairs[:cut])
    for s, e in pairs[cut:]:
        several.line(s, e)
    expected = _read_by_hand(text, pairs, barrier_first)
    for b in (one, several):
        n = b.arrays().normalized()
        assert (n.text, list(n.starts), list(n.ends), list(n.flags), list(n.gaps)) == expected


@pytest.mark.parametrize("name", ["acl2020_specter.pdf", "arxiv2022_strain_sensor_elsarticle.pdf"])
def test_two_column_page_of_one_band_reads_its_left_column_then_its_right(name: str) -> None:
    # a two-column page with no line across both columns and no cut between bands is
    # read as one band: the left column, then the right, each top to bottom
    layout = _Layout(document(name))
    order = layout.body_order()
    assert sorted(order) == sorted(i for i, k in enumerate(layout.kinds) if k == "body")
    one_band = 0
    for number in layout.two_column:
        indices = layout.by_page[number]
        body = [i for i in order if layout.lines[i].page == number]
        cuts = layout._cuts(indices)
        spanning = [i for i in indices if layout.column[i] == "S" and layout.kinds[i] not in ("furniture", "blank")]
        if cuts or spanning:
            continue
        one_band += 1
        assert body == sorted(body, key=lambda i: (layout.column[i] != "L", i))
        assert {layout.column[i] for i in body} == {"L", "R"}
    assert one_band >= 1


_CAPTIONISH = st.lists(st.sampled_from(["Fig", "fig", "FIGURE", "Table", "tab", "Algorithm", "Plate", "s", ".", " ",
                                        "\t", "\u00a0", "1", "2.3", "IV", "a", "A", ":", "\u2014", "Title", "x"]),
                       max_size=8).map("".join)


@given(_CAPTIONISH)
def test_a_line_that_opens_no_caption_kind_is_no_caption(text):
    """A column is searched for captions only when one of its lines opens with a
    caption's kind word: every line either caption pattern matches opens with one."""
    from quotelocate.layout import _CAPTION, _CAPTION_START, _TITLED_CAPTION

    if _CAPTION.match(text) or _TITLED_CAPTION.match(text):
        assert _CAPTION_START.match(text)
    assert _CAPTION.match("Figure 3: Results") and not _CAPTION_START.match("The Figure 3: Results")
