"""Saving playground quotes to a quote set: labelled, anchored, validated, written atomically."""

from __future__ import annotations

import pytest

from quotelocate.data import editing
from quotelocate.data.quoteset import Anchor, Quote, load_quote_set
from quotelocate.errors import DatasetError, QuoteInputError
from quotelocate.interface.workbench import labelled_quote
from quotelocate.locate import Locator
from quotelocate.normalize import PRESETS

SENTENCE = "a model that restricts every attention head to a fixed lattice of tidal phases"


@pytest.fixture(scope="module")
def synthetic():
    qs = load_quote_set("synthetic")
    return qs, Locator(qs.document(), PRESETS["recommended"], chunking=qs.chunking)


def test_a_faithful_quote_is_anchored_on_its_match_and_reloads(synthetic, tmp_path):
    qs, loc = synthetic
    v = loc.locate(SENTENCE, cited_chunk=None)
    q = labelled_quote(v, quote_id="pg-1", label="faithful", tags=["ligature", "linebreak"], note="from the playground")
    assert (q.anchor.start, q.anchor.end) == (v.start, v.end) and q.anchor.text == qs.document().text[v.start : v.end]
    saved = editing.add_quote("my-set", q, quote_set=qs, folder=tmp_path)
    assert saved.path == tmp_path / "my-set.yaml" and [x.id for x in saved.quotes] == ["pg-1"]
    assert saved.paper.sha256 == qs.paper.sha256 and saved.chunking == qs.chunking
    # a second quote, a rejected one labelled fabricated: no anchor
    fab = labelled_quote(loc.locate(SENTENCE.replace("fixed", "moving")), quote_id="pg-2", label="fabricated",
                         tags=["word-swap"])
    assert fab.anchor is None
    again = editing.add_quote("my-set", fab, quote_set=qs, folder=tmp_path)
    assert [x.id for x in again.quotes] == ["pg-1", "pg-2"]
    reloaded = load_quote_set(tmp_path / "my-set.yaml", document=qs.document())
    assert reloaded.quotes == again.quotes and reloaded.quotes[0].note == "from the playground"
    assert not list(tmp_path.glob(".my-set-*"))  # no temporary file left behind


def test_a_false_reject_labelled_faithful_is_anchored_on_its_closest_passage(synthetic):
    qs, loc = synthetic
    v = loc.locate(SENTENCE.replace("fixed", "fixd"))
    assert not v.accepted and v.near_miss is not None
    q = labelled_quote(v, quote_id="pg-3", label="faithful", tags=["plain"])
    assert (q.anchor.start, q.anchor.end) == (v.near_miss.start, v.near_miss.end)


def test_a_refused_quote_leaves_the_file_unchanged(synthetic, tmp_path):
    qs, loc = synthetic
    v = loc.locate(SENTENCE)
    editing.add_quote("s", labelled_quote(v, quote_id="pg-1", label="faithful", tags=["plain"]), quote_set=qs,
                      folder=tmp_path)
    before = (tmp_path / "s.yaml").read_bytes()
    with pytest.raises(DatasetError, match="already in the set"):
        editing.add_quote("s", labelled_quote(v, quote_id="pg-1", label="faithful", tags=["plain"]), quote_set=qs,
                          folder=tmp_path)
    with pytest.raises(DatasetError, match="unknown tag 'number' for a faithful quote"):
        editing.add_quote("s", labelled_quote(v, quote_id="pg-2", label="faithful", tags=["number"]), quote_set=qs,
                          folder=tmp_path)
    bad_anchor = Quote(id="pg-3", text=SENTENCE, label="faithful", tags=("plain",),
                       anchor=Anchor(page=1, start=0, end=5, text="wrong"))
    with pytest.raises(DatasetError, match="anchor drifted"):
        editing.add_quote("s", bad_anchor, quote_set=qs, folder=tmp_path)
    assert (tmp_path / "s.yaml").read_bytes() == before
    assert not list(tmp_path.glob(".s-*"))


def test_set_names_never_become_paths(synthetic, tmp_path):
    qs, loc = synthetic
    q = labelled_quote(loc.locate(SENTENCE), quote_id="pg-1", label="faithful", tags=["plain"])
    for name in ("../x", "a/b", "UPPER", ""):
        with pytest.raises(DatasetError, match="lower-case letters"):
            editing.add_quote(name, q, quote_set=qs, folder=tmp_path)
    assert not any(tmp_path.iterdir())


def test_a_quote_with_no_passage_cannot_be_labelled_faithful(synthetic):
    _, loc = synthetic
    v = loc.locate("zq")
    with pytest.raises(QuoteInputError, match="no passage"):
        labelled_quote(v, quote_id="pg-9", label="faithful", tags=["plain"])
