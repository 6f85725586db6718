"""The k-gram index answers exactly like a dict of every k-gram's ascending start
positions, whatever the text (repeats, astral characters, lone surrogates), and never
returns a position whose k-gram differs from the key (a hash collision is filtered)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from quotelocate import kgrams
from quotelocate.kgrams import K, kgram_index


def reference(text: str) -> dict[str, list[int]]:
    index: dict[str, list[int]] = {}
    for i in range(len(text) - K + 1):
        index.setdefault(text[i : i + K], []).append(i)
    return index


ALPHABETS = st.sampled_from(["ab", "ab \n", "x\U0001f600\ud800\u00e9", "\u0000\uffff\U0010ffff-"])
TEXTS = ALPHABETS.flatmap(lambda a: st.text(alphabet=a, max_size=200))


@settings(max_examples=200, deadline=None)
@given(TEXTS, st.data())
def test_index_equals_the_dict_of_every_kgram(text: str, data) -> None:
    index = kgram_index(text)
    expected = reference(text)
    assert len(index) == max(len(text) - K + 1, 0)
    for gram, positions in expected.items():
        assert index.get(gram, ()) == positions
    probe = data.draw(st.text(alphabet=text or "a", min_size=K - 1, max_size=K + 1))
    assert list(index.get(probe, ())) == expected.get(probe, [])


def test_positions_ascend_and_absent_keys_give_the_default() -> None:
    text = "the model reads the model " * 40
    index = kgram_index(text)
    assert index.get("the mode") == sorted([*range(0, len(text), 26), *range(16, len(text), 26)])
    assert index.get("zzzzzzzz", None) is None
    assert index.get("the", "none") == "none"  # shorter than a k-gram
    assert index.get("the model", "none") == "none"  # longer than a k-gram


def test_a_hash_collision_is_never_returned(monkeypatch) -> None:
    # with a modulus of 1 every k-gram collides: the lookup must still tell them apart,
    # both for a few candidates (compared as strings) and for many (compared by numpy)
    monkeypatch.setattr(kgrams, "_PRIME", 1)
    for text in ("abcdefghij" * 20 + "zyxwvutsrq", "abcdefghijabcdefghij"):
        index = kgram_index(text)
        for gram, positions in reference(text).items():
            assert index.get(gram, ()) == positions
        assert index.get("qqqqqqqq", None) is None


def test_a_long_text_answers_through_its_bucket_table() -> None:
    # thousands of positions spread over thousands of buckets, with k-grams that occur
    # once, a few times and hundreds of times; every k-gram and some absent ones
    import random

    rng = random.Random(5)
    words = ["attention", "the", "model", "of", "layer", "self-", "x\u00e9", "\U0001f600", "42"]
    text = " ".join(rng.choice(words) for _ in range(3000))
    index = kgram_index(text)
    expected = reference(text)
    assert len(index._buckets) > 1000  # the table really splits the hashes
    assert max(map(len, expected.values())) > 100 and min(map(len, expected.values())) == 1
    for gram, positions in expected.items():
        assert index.get(gram, ()) == positions
    for _ in range(2000):
        probe = "".join(rng.choice("aeilmot \u00e9") for _ in range(K))
        assert list(index.get(probe, ())) == expected.get(probe, [])


def test_the_largest_code_points_hash_as_a_lookup_does() -> None:
    # the build sums each code unit times its place's residue before one modulo: with
    # every code unit at the Unicode maximum the sum is at its largest, and a lookup
    # (which hashes the key's bytes as one number) must still find each k-gram
    top = "\U0010ffff"
    text = top * (K + 3) + "\U0010fffe" + top * K + "\udfff" * K
    index = kgram_index(text)
    for gram, positions in reference(text).items():
        assert index.get(gram, ()) == positions


def test_the_hash_order_is_a_stable_sort_by_hash() -> None:
    # the radix passes must give what a stable argsort by hash gives: hashes in every
    # 15-bit half (near the prime too), many shared by several positions, and the
    # smallest lengths
    import numpy as np

    rng = np.random.default_rng(7)
    for m in (0, 1, 2, 17, 5000):
        for high in (kgrams._PRIME, 1 << 15, 40):  # all bits, the low half only, many equal
            h = rng.integers(0, high, m, dtype=np.uint64)
            got = kgrams._hash_order(h)
            assert got.dtype == np.int64
            assert np.array_equal(got, np.argsort(h, kind="stable")), (m, high)


def test_kgrams_that_differ_in_one_word_only_are_told_apart(monkeypatch) -> None:
    # every hash equal, and a text of two k-grams ("aaab" then "aabb", K long) that
    # differ at one place only: the build compares code units a word (two of them) at
    # a time, so each word in turn is the only one that tells them apart
    monkeypatch.setattr(kgrams, "_PRIME", 1)
    for place in range(kgrams.K):
        text = "a" * (place + 1) + "b" * (kgrams.K - place)
        index = kgram_index(text)
        assert index.get(text[: kgrams.K]) == [0] and index.get(text[1:]) == [1]
