"""The fast part of the fuzzing: replay the committed corpus through the harness.

``fuzz/harness.py`` holds the per-input checks the atheris targets run
(``check_document``, ``check_locate``); they need no atheris, so every committed seed
in ``fuzz/corpus/`` is replayed here, and every reproducer in ``fuzz/regressions/``
is a known failure (``xfail(strict=True)``: the test turns red once the bug is fixed,
so the mark is flipped and the reproducer becomes a regression test). The checks are
also shown to fail on bad verdicts, since a check that cannot fail checks nothing.
The long part, ``make fuzz``, runs the targets for a bounded time.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from quotelocate import Document, Locator, preset
from quotelocate.errors import DocumentError
from quotelocate.locate import Verdict

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
CORPUS = FUZZ / "corpus"
REGRESSIONS = FUZZ / "regressions"
TARGETS = ("document", "locate")


def _load_harness():
    spec = importlib.util.spec_from_file_location("quotelocate_fuzz_harness", FUZZ / "harness.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


harness = _load_harness()
CHECKS = {"document": harness.check_document, "locate": harness.check_locate}

# Open bugs the fuzzers found; the key is the file under fuzz/regressions/. Once a bug
# is fixed its entry goes, and the reproducer stays as a plain regression test.
OPEN_BUGS = {
}


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "README.md")


def _regression_bytes() -> dict[bytes, str]:
    return {p.read_bytes(): p.relative_to(REGRESSIONS).as_posix() for p in _files(REGRESSIONS)}


def _corpus_params():
    known = _regression_bytes()
    out = []
    for target in TARGETS:
        for path in _files(CORPUS / target):
            marks = []
            bug = known.get(path.read_bytes())
            if bug in OPEN_BUGS:
                marks.append(pytest.mark.xfail(strict=True, reason=f"same bytes as regressions/{bug}"))
            out.append(pytest.param(target, path, id=f"{target}/{path.name}", marks=marks))
    return out


def _regression_params():
    out = []
    for path in _files(REGRESSIONS):
        name = path.relative_to(REGRESSIONS).as_posix()
        target = name.split("/", 1)[0]
        marks = [pytest.mark.xfail(strict=True, reason=OPEN_BUGS[name])] if name in OPEN_BUGS else []
        out.append(pytest.param(target, path, id=name, marks=marks))
    return out


def test_corpus_is_small_and_present():
    for target in TARGETS:
        assert len(_files(CORPUS / target)) >= 5, target
    sizes = {p: p.stat().st_size for folder in (CORPUS, REGRESSIONS) for p in _files(folder)}
    assert all(size < 4096 for size in sizes.values()), {str(p): s for p, s in sizes.items() if s >= 4096}
    assert sum(sizes.values()) < 100 * 1024


def test_open_bugs_name_existing_reproducers():
    names = {p.relative_to(REGRESSIONS).as_posix() for p in _files(REGRESSIONS)}
    assert set(OPEN_BUGS) <= names


@pytest.mark.parametrize("target, path", _corpus_params())
def test_corpus_replays(target, path):
    CHECKS[target](path.read_bytes())


@pytest.mark.parametrize("target, path", _regression_params())
def test_regression(target, path):
    CHECKS[target](path.read_bytes())


# ---------------------------------------------------------------------------------------
# The checks fail when they should

LOCATE_SEED = (CORPUS / "locate" / "hyphen-quotes.bin").read_bytes()
DOCUMENT_SEED = (CORPUS / "document" / "normal.pdf").read_bytes()
TEXTLESS_SEED = (CORPUS / "document" / "textless.pdf").read_bytes()


def _bogus(**fields):
    """A stand-in for Locator.locate that answers every quote with the same verdict."""

    def locate(self, quote, *, cited_chunk=None, scope=None):
        return Verdict(**{"quote": quote, "accepted": True, "status": "exact", "pages": (1,), **fields})

    return locate


@pytest.mark.parametrize("seed", [LOCATE_SEED, DOCUMENT_SEED], ids=["locate", "document"])
def test_accepted_span_outside_the_text_is_reported(monkeypatch, seed):
    n = 10**6
    monkeypatch.setattr(Locator, "locate", _bogus(start=n, end=n + 5, spans=((n, n + 5),)))
    check = harness.check_locate if seed is LOCATE_SEED else harness.check_document
    with pytest.raises(harness.InvariantViolation, match="not inside the text"):
        check(seed)


def test_accepted_on_an_unverifiable_page_is_reported(monkeypatch):
    doc = harness.load_pdf(TEXTLESS_SEED)
    assert [p.verifiable for p in doc.pages] == [True, False]
    # page 2 holds no text, so the bogus verdict names it in its pages
    monkeypatch.setattr(Locator, "locate", _bogus(start=0, end=10, spans=((0, 10),), pages=(2,)))
    with pytest.raises(harness.InvariantViolation, match="unverifiable page"):
        harness.check_document(TEXTLESS_SEED)


def test_accepted_over_invisible_text_is_reported(monkeypatch):
    seed = (CORPUS / "document" / "hidden.pdf").read_bytes()
    start, end = harness.load_pdf(seed).hidden[0]
    monkeypatch.setattr(Locator, "locate", _bogus(start=start, end=end, spans=((start, end),)))
    with pytest.raises(harness.InvariantViolation, match="invisible text"):
        harness.check_document(seed)


def test_unsound_accepted_span_is_reported(monkeypatch):
    # every quote is "found" at the document's first 12 characters
    monkeypatch.setattr(Locator, "locate", _bogus(start=0, end=12, spans=((0, 12),)))
    with pytest.raises(harness.InvariantViolation, match="unsound"):
        harness.check_locate(LOCATE_SEED)


def test_status_that_contradicts_accepted_is_reported(monkeypatch):
    monkeypatch.setattr(Locator, "locate", _bogus(status="not-found"))
    with pytest.raises(harness.InvariantViolation, match="accepted=True with status"):
        harness.check_locate(LOCATE_SEED)


def test_rejected_clean_window_is_reported(monkeypatch):
    # a seed whose random windows include clean ones (those of LOCATE_SEED touch its
    # line-end hyphen or its punctuation)
    seed = (CORPUS / "locate" / "whitespace.bin").read_bytes()
    monkeypatch.setattr(Locator, "locate", _bogus(accepted=False, status="not-found", pages=()))
    with pytest.raises(harness.InvariantViolation, match="incomplete"):
        harness.check_locate(seed)


def test_foreign_exceptions_escape_and_package_errors_do_not(monkeypatch):
    def boom(self, quote, *, cited_chunk=None, scope=None):
        raise KeyError("boom")

    monkeypatch.setattr(Locator, "locate", boom)
    with pytest.raises(KeyError):
        harness.check_locate(LOCATE_SEED)
    with pytest.raises(KeyError):
        harness.check_document(DOCUMENT_SEED)

    def refuse(self, quote, *, cited_chunk=None, scope=None):
        raise DocumentError("refused on purpose")

    monkeypatch.setattr(Locator, "locate", refuse)
    harness.check_locate(LOCATE_SEED)  # a package error is an answer, not a crash


def test_not_a_pdf_is_an_answer():
    harness.check_document(b"")
    harness.check_document(b"%PDF-1.7\n garbage")


# ---------------------------------------------------------------------------------------
# Suspended hyphens whose evidence lies past the span


SUSPENDED_DOC = "we pair the pre-\r\n and  the post-\r\n training stages"


def test_a_span_read_as_suspended_by_its_evidence_past_it_is_sound():
    """The document reads "pre-\\r\\n and" as "pre- and" because "post-" follows; the span
    of the model's "pre- and the post-" stops at that evidence's hyphen, so on its own
    it reads "pre-and". The check reads the span as the document does."""
    doc = Document.from_text(SUSPENDED_DOC)
    rules = preset("recommended")
    quote = "pre- and the post-"
    v = Locator(doc, rules).locate(quote)
    assert v.accepted and doc.text[v.start : v.end] == "pre-\r\n and  the post-", v
    harness.check_verdict(doc, rules, quote, v)


def test_a_span_read_as_suspended_where_the_document_does_not_is_unsound():
    # no hyphenated word after the connector: the document reads "pre-and"
    doc = Document.from_text("we pair the pre-\r\n and the later stages")
    rules = preset("recommended")
    quote = "the pre- and the"
    start = doc.text.index("the pre-")
    end = doc.text.index("and the") + len("and the")
    bogus = Verdict(quote=quote, accepted=True, status="normalized", pages=(1,), start=start, end=end, spans=((start, end),))
    with pytest.raises(harness.InvariantViolation, match="unsound"):
        harness.check_verdict(doc, rules, quote, bogus)


def test_warm_up_pays_the_once_per_process_costs_before_any_input_is_timed():
    from quotelocate.normalize import _nfkc_cluster_re

    _nfkc_cluster_re.cache_clear()
    harness.warm_up("locate")
    assert _nfkc_cluster_re.cache_info().currsize == 1
