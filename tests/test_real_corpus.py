"""The real-paper sets: their labels checked without the locator, and their evaluation.

Every ``datasets/real-corpus/<paper>.yaml`` is loaded (the paper must be on the papers
search path; a missing one fails with the path, as for the Attention sets), its labels
are checked by ``datasets/tools/check_real_corpus.py`` (which imports nothing of
quotelocate), and the set is evaluated under ``recommended`` through the public
evaluation API. A false accept fails; false rejects are printed per paper, since other
work on reading order and normalization drives them down.
"""

from __future__ import annotations

import copy
import importlib.util
import sys
from functools import cache
from pathlib import Path

import pytest
import yaml

from quotelocate.data import papers as paths
from quotelocate.data.quoteset import FABRICATED_TAGS, FAITHFUL_TAGS, load_quote_set
from quotelocate.errors import DatasetError, PaperNotFoundError

REPO = Path(__file__).resolve().parent.parent
SETS_DIR = REPO / "datasets" / "real-corpus"
SETS = sorted(SETS_DIR.glob("*.yaml"))
CORPUS_README = REPO.parent / "shared" / "papers" / "corpus" / "README.md"
CROSSING = {"column-break", "page-break", "float"}
# A paper with fewer places where a sentence crosses a break than a third of 20 quotes:
# every such place is used once, and the set as a whole still has a third.
FEW_CROSSINGS = {
    "clef2008_ave_answer_validation_msword": "five single-column pages without running furniture: the sentences "
    "that cross a page break or the table are all used",
}

# Fabricated quotes the locator accepts today, each for a reason another change removes.
# The per-paper test is a strict xfail while its paper has one (so it turns red the day
# the fix lands, and the entry must go); test_no_unexplained_false_accept keeps every
# other fabricated quote of that paper checked meanwhile.
KNOWN_FALSE_ACCEPTS: dict[str, dict[str, str]] = {}


def _load_module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


checker = _load_module("check_real_corpus", REPO / "datasets" / "tools" / "check_real_corpus.py")
corpus_eval = _load_module("real_corpus_eval", REPO / "benchmarks" / "real_corpus_eval.py")


def _papers_folders() -> list[Path]:
    return [p for p in paths.papers_search_path()]


_SETS: dict = {}


def _load(path: Path):
    if path not in _SETS:
        try:
            _SETS[path] = load_quote_set(path)
        except PaperNotFoundError as exc:
            pytest.fail(f"{exc}; set QUOTELOCATE_PAPERS to ../shared/papers")
    return _SETS[path]


@cache
def _result(path: Path):
    return corpus_eval.evaluate_set(_load(path), "recommended")


def _raw(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_one_set_per_corpus_paper():
    assert CORPUS_README.is_file(), f"{CORPUS_README} is missing; the real-paper sets are pinned to its papers"
    listed = {line.split("|")[2].strip()[:-4] for line in CORPUS_README.read_text().splitlines()
              if line.startswith("| ") and ".pdf" in line}
    assert {p.stem for p in SETS} == listed


def test_corpus_papers_are_found_in_the_corpus_subfolder(tmp_path, monkeypatch):
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "x.pdf").write_bytes(b"%PDF-1.4\n")
    monkeypatch.setenv("QUOTELOCATE_PAPERS", str(tmp_path))
    assert paths.find_paper("x.pdf") == tmp_path / "corpus" / "x.pdf"
    folders = paths.papers_search_path(str(tmp_path))
    assert folders[:2] == [tmp_path, tmp_path / "corpus"]


@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_set_loads_with_enough_quotes_of_every_kind(path):
    qs = _load(path)
    assert qs.paper.file == f"{path.stem}.pdf"
    faithful, fabricated = qs.faithful, qs.fabricated
    assert len(faithful) >= 20 and len(fabricated) >= 15
    crossing = [q for q in faithful if CROSSING & set(q.tags)]
    share = 3 if path.stem not in FEW_CROSSINGS else 6
    assert share * len(crossing) >= len(faithful), f"{len(crossing)} of {len(faithful)} faithful quotes cross a break"
    for q in qs.quotes:
        assert set(q.tags) <= set(FAITHFUL_TAGS if q.faithful else FABRICATED_TAGS)
    made = {t for q in fabricated for t in q.tags}
    for needed in ("number", "word-swap", "other-paper"):
        assert needed in made, f"{path.stem}: no fabricated quote tagged {needed!r}"
    assert made & {"negation", "case"}, f"{path.stem}: neither a negation nor a case change"
    assert made & {"cross-flow", "cross-column"}, f"{path.stem}: no splice across a float or a column"


def test_a_third_of_all_faithful_quotes_cross_a_break():
    faithful = [q for p in SETS for q in _load(p).faithful]
    crossing = [q for q in faithful if CROSSING & set(q.tags)]
    assert 3 * len(crossing) >= len(faithful), f"{len(crossing)} of {len(faithful)}"


@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_labels_pass_the_independent_checker(path):
    _load(path)  # a missing paper fails with the search path
    problems = checker.check_set(path, _papers_folders())
    assert not problems, "\n".join(problems)


def test_sets_are_generated_from_the_hand_written_quotes(capsys):
    builder = _load_module("build_real_corpus", REPO / "datasets" / "tools" / "build_real_corpus.py")
    assert builder.main(["--check"]) == 0, capsys.readouterr().err


def test_the_checker_catches_wrong_labels(tmp_path):
    path = SETS[0]
    data = _raw(path)
    faithful = [q for q in data["quotes"] if q["label"] == "faithful"]
    fabricated = [q for q in data["quotes"] if q["label"] == "fabricated"]

    def problems(mutated: dict) -> list[str]:
        out = tmp_path / path.name
        out.write_text(yaml.safe_dump(mutated, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return checker.check_set(out, _papers_folders())

    assert problems(data) == []
    # a changed word in a faithful quote
    bad = copy.deepcopy(data)
    q = next(q for q in bad["quotes"] if q["label"] == "faithful" and " the " in q["text"])
    q["text"] = q["text"].replace(" the ", " a ", 1)
    assert any(q["id"] in p and "not a reading" in p for p in problems(bad))
    # a faithful quote copied as a fabricated one
    bad = copy.deepcopy(data)
    fab = next(q for q in bad["quotes"] if q["label"] == "fabricated")
    fab["text"] = faithful[0]["text"]
    assert any(fab["id"] in p and "the paper reads it" in p for p in problems(bad))
    # a skipped span taken away: the quote no longer reads its anchor
    bad = copy.deepcopy(data)
    q = next(q for q in bad["quotes"] if q.get("allow", {}).get("spans"))
    del q["allow"]
    assert any(q["id"] in p for p in problems(bad))
    # a body sentence joined to the float that interrupts it is no reading of the paper
    assert any("cross-flow" in q["tags"] for q in fabricated)


@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_no_false_accept_under_recommended(path, request):
    known = KNOWN_FALSE_ACCEPTS.get(path.stem)
    if known:
        request.applymarker(pytest.mark.xfail(strict=True, reason="; ".join(known.values())))
    _load(path)
    result = _result(path)
    assert result.n_fabricated >= 15
    assert result.false_accepts == (), f"{path.stem}: fabricated quotes accepted: {result.false_accepts}"


@pytest.mark.parametrize("path", SETS, ids=[p.stem for p in SETS])
def test_no_unexplained_false_accept(path):
    _load(path)
    result = _result(path)
    unexplained = set(result.false_accepts) - set(KNOWN_FALSE_ACCEPTS.get(path.stem, {}))
    assert not unexplained, f"{path.stem}: fabricated quotes accepted: {sorted(unexplained)}"


def test_false_reject_table(record_property, capsys):
    for path in SETS:
        _load(path)
    result = corpus_eval.CorpusResult(config="recommended", papers=tuple(_result(p) for p in SETS))
    text = corpus_eval.table(result)
    record_property("real_corpus_table", text)
    with capsys.disabled():
        print("\n" + text)
    assert result.n_faithful == sum(p.n_faithful for p in result.papers) >= 20 * len(SETS)
    assert "| **all" in text and f"{len(result.false_rejects)}/{result.n_faithful}" in text
    # every accepted faithful quote is on its labelled page and overlaps its anchor
    assert all(p.off_anchor == () for p in result.papers), [p.off_anchor for p in result.papers]


# ---------------------------------------------------------------------------------------
# The allowances in the set format


def _tiny(tmp_path: Path, quote_extra: str, label: str = "faithful") -> Path:
    text = "Attention is all you\nneed, the authors wrote."
    from quotelocate.document import Document

    doc = Document.from_text(text)
    anchor = "    anchor: {page: 1, start: 0, end: 25, text: \"Attention is all you\\nneed\"}\n" if label == "faithful" else ""
    tag = "linebreak" if label == "faithful" else "word-swap"
    body = (
        "format: 1\nname: tiny\npaper:\n  file: tiny.txt\n  sha256: " + doc.sha256 + "\n"
        "quotes:\n  - id: q1\n    text: Attention is all you need\n    label: " + label + "\n"
        "    tags: [" + tag + "]\n" + anchor + quote_extra
    )
    p = tmp_path / "tiny.yaml"
    p.write_text(body, encoding="utf-8")
    return p, doc


@pytest.mark.parametrize(
    "extra, message",
    [
        ("    allow: {spans: [{start: 3, end: 5, kind: sidebar}]}\n", "not one of float"),
        ("    allow: {spans: [{start: 20, end: 30, kind: float}]}\n", "inside the anchor"),
        ("    allow: {readings: [ligature-ish]}\n", "not one of spacing-accent"),
        ("    allow: {spans: [{start: 3, end: 6, kind: marker}, {start: 4, end: 8, kind: marker}]}\n", "overlaps"),
        ("    allow: {spans: [{start: 3, end: 6}]}\n", "missing required field"),
    ],
)
def test_bad_allowances_are_refused_with_the_field(tmp_path, extra, message):
    path, doc = _tiny(tmp_path, extra)
    with pytest.raises(DatasetError, match=message) as info:
        load_quote_set(path, document=doc)
    assert "q1" in str(info.value) and "allow" in str(info.value)


def test_allowances_load_and_a_fabricated_quote_has_none(tmp_path):
    path, doc = _tiny(tmp_path, "    allow: {spans: [{start: 20, end: 21, kind: furniture}], readings: [math-spacing]}\n")
    q = load_quote_set(path, document=doc).quotes[0]
    assert q.allow.spans[0].kind == "furniture" and q.allow.readings == ("math-spacing",)
    path, doc = _tiny(tmp_path, "    allow: {readings: [math-spacing]}\n", label="fabricated")
    with pytest.raises(DatasetError, match="only a faithful quote"):
        load_quote_set(path, document=doc)
