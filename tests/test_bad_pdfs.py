"""Hostile and broken PDFs: every case of :mod:`pdf_catalog`, plus what the
locator does with text a reader cannot see or verify, boxes on rotated pages, and the
extraction worker's limits."""

from __future__ import annotations

import hashlib
import os
import signal
import threading
import time
from pathlib import Path

import pymupdf
import pytest

import quotelocate
from quotelocate import document as document_module
from quotelocate.document import Document, Limits, render_page_png

import pdf_catalog as cat


@pytest.fixture(autouse=True)
def fresh_workers():
    """Extraction workers live from one open to the next and keep the code they were
    forked with: each test here starts with none and leaves none, so that the stand-ins
    a test patches in reach the workers it starts, and never another test's."""
    document_module._POOL.stop()
    yield
    document_module._POOL.stop()


def write_case(case: cat.Case, tmp_path: Path) -> Path:
    if case.file == "":
        return tmp_path
    path = tmp_path / case.file
    if case.build is not None:
        path.write_bytes(case.build())
    return path


def open_case(case_id: str, tmp_path: Path, **options) -> tuple[Document, Path]:
    case = next(c for c in cat.CASES if c.id == case_id)
    path = write_case(case, tmp_path)
    return Document.open(path, **{**case.options, **options}), path


def locate(doc: Document, quote: str):
    return quotelocate.Locator(doc, quotelocate.preset("recommended")).locate(quote)


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, id=c.id, marks=[pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else [])
     for c in cat.CASES],
)
def test_catalog(case, tmp_path):
    path = write_case(case, tmp_path)
    if isinstance(case.expect, cat.Raises):
        with pytest.raises(case.expect.error) as info:
            Document.open(path, **case.options)
        assert type(info.value) is case.expect.error
        message = str(info.value)
        assert message.startswith(f"{path}: "), message
        for part in case.expect.parts:
            assert part in message, message
        assert "\n" not in message
        return
    doc = Document.open(path, **case.options)
    for part in case.expect.warnings:
        assert any(part in w and str(path) in w for w in doc.warnings), doc.warnings
    if not case.expect.warnings:
        assert doc.warnings == ()
    assert doc.unverifiable_pages() == case.expect.unverifiable
    assert tuple(sorted({doc.page_at(s) for s, _ in doc.hidden})) == case.expect.hidden_pages
    with pymupdf.open(path) as pdf:
        pdf.authenticate(case.options.get("password") or "")
        reference = document_module.PAGE_SEPARATOR.join(
            page.get_text("text", flags=document_module.EXTRACT_FLAGS) for page in pdf
        )
    assert doc.text == reference


@pytest.mark.parametrize(
    "case",
    # the time bomb takes seconds without its time limit, so it is checked on both
    # worker paths by test_both_worker_paths_enforce_the_same_limits instead
    [c for c in cat.CASES if c.build is not None and not c.xfail and not c.options and c.id != "time-bomb"],
    ids=lambda c: c.id,
)
def test_in_process_and_isolated_agree(case, tmp_path):
    """``isolate=False`` raises the same error (type, file and page; mupdf's own words
    in parentheses may differ, as each worker reads only its share of the pages), or
    builds the same document."""
    path = write_case(case, tmp_path)
    outcomes = []
    for isolate in (True, False):
        try:
            doc = Document.open(path, isolate=isolate)
            outcomes.append((doc.text, doc.pages, doc.lines, doc.warnings, doc.hidden, doc.sha256))
        except quotelocate.QuotelocateError as exc:
            outcomes.append((type(exc), str(exc).split(" (")[0]))
    assert outcomes[0] == outcomes[1]


# -- 2. broken ---------------------------------------------------------------------------


def test_truncated_files_really_are_repaired():
    for data in (cat.truncated(cat.text_pdf(*cat.THREE_PAGES), -30),
                 cat.truncated(cat.text_pdf(*cat.THREE_PAGES), len(cat.text_pdf(*cat.THREE_PAGES)) // 2),
                 b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n"):
        with pymupdf.open(stream=data, filetype="pdf") as pdf:
            assert pdf.is_repaired


def test_repaired_pdf_still_locates_quotes(tmp_path):
    doc, _ = open_case("truncated-xref", tmp_path)
    assert locate(doc, "Page three has some words on it for testing.").accepted


# -- 3. encrypted ------------------------------------------------------------------------


def test_right_password_locates_quotes(tmp_path):
    doc, _ = open_case("encrypted-right-password", tmp_path)
    verdict = locate(doc, "A secret sentence that nobody may read.")
    assert verdict.accepted
    # boxes and the page image reopen the PDF: with the password it was loaded with
    assert verdict.boxes and verdict.boxes[0].page == 1 and verdict.to_dict()["boxes"]
    assert render_page_png(doc, 1, boxes=verdict.boxes).startswith(b"\x89PNG")


# -- 4. unverifiable pages ---------------------------------------------------------------


def test_replacement_char_page_is_built_as_intended(tmp_path):
    doc, _ = open_case("replacement-chars-allowed", tmp_path)
    page = doc.pages[1]
    text = doc.text[page.start : page.end]
    assert text.count("\ufffd") > 50 and cat.REAL_WORDS in text


def test_quote_on_replacement_char_page_is_never_accepted(tmp_path):
    doc, _ = open_case("replacement-chars-allowed", tmp_path)
    verdict = locate(doc, cat.REAL_WORDS)
    assert verdict.accepted is False
    assert verdict.cause == "unverifiable-page"
    assert locate(doc, "The first page has a real text layer on it.").accepted


def test_scanned_page_is_unverifiable(tmp_path):
    doc, _ = open_case("scanned-page-allowed", tmp_path)
    assert [p.verifiable for p in doc.pages] == [True, False]
    assert doc.text[doc.pages[1].start : doc.pages[1].end].strip() == ""


def test_page_failure_is_reported_in_process_too(tmp_path):
    case = next(c for c in cat.CASES if c.id == "page-tree-cycle")
    path = write_case(case, tmp_path)
    with pytest.raises(quotelocate.errors.DocumentError, match=r": page 2: text extraction failed"):
        Document.open(path, isolate=False)


# -- 5. limits and the worker ------------------------------------------------------------


def test_time_limit_stops_extraction_quickly(tmp_path):
    case = next(c for c in cat.CASES if c.id == "time-bomb")
    path = write_case(case, tmp_path)
    assert path.stat().st_size < 10_000
    t0 = time.monotonic()
    with pytest.raises(quotelocate.errors.ExtractionLimitError):
        Document.open(path, limits=Limits(seconds=0.5))
    assert time.monotonic() - t0 < 5
    # the worker is usable afterwards
    doc = Document.from_pdf_bytes(cat.text_pdf("Still working after a timeout."), name="after.pdf")
    assert locate(doc, "Still working after a timeout.").accepted


def test_memory_bomb_is_a_small_file(tmp_path):
    case = next(c for c in cat.CASES if c.id == "memory-bomb")
    assert len(case.build()) < 10_000


def test_from_pdf_bytes_takes_limits():
    data = cat.text_pdf(*cat.THREE_PAGES)
    with pytest.raises(quotelocate.errors.ExtractionLimitError, match=r"^mem\.pdf: 3 pages exceeds the page limit of 1"):
        Document.from_pdf_bytes(data, name="mem.pdf", limits=Limits(max_pages=1))
    assert Document.from_pdf_bytes(data, name="mem.pdf").text == Document.from_pdf_bytes(data, isolate=False).text


@pytest.mark.parametrize("threads", [1, 2], ids=["forked", "new-interpreter"])
def test_worker_killed_by_signal_is_a_limit_error_and_is_replaced(threads, monkeypatch):
    """A crash cannot be provoked from a PDF here, so the worker is killed from outside
    (as the kernel's OOM killer would) while it extracts a slow file it has read: the
    open fails naming the signal and the limits, and the next open gets a new worker."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: threads)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    Document.from_pdf_bytes(cat.text_pdf("Warm."), name="warm.pdf")
    (proc,) = document_module._POOL._procs
    slow = next(c for c in cat.CASES if c.id == "time-bomb").build()  # seconds to extract
    killer = threading.Timer(1.0, os.kill, (proc.pid, signal.SIGKILL))
    killer.start()
    with pytest.raises(quotelocate.errors.ExtractionLimitError) as info:
        Document.from_pdf_bytes(slow, name="x.pdf", limits=Limits(seconds=60, memory_mb=512))
    killer.join()
    message = str(info.value)
    assert message.startswith("x.pdf: text extraction was killed by SIGKILL") and "512 MB" in message
    assert document_module._POOL._procs == []  # the dead worker is gone ...
    assert Document.from_pdf_bytes(cat.text_pdf("After the kill."), name="b.pdf").text.startswith("After the kill.")
    (new,) = document_module._POOL._procs  # ... and replaced
    assert new.pid != proc.pid and new.exited() is None


@pytest.mark.parametrize("threads", [1, 2], ids=["forked", "new-interpreter"])
def test_a_worker_killed_while_idle_costs_the_next_open_nothing(threads, monkeypatch):
    """A worker killed between files (no file of the open's doing) is replaced, even when
    the open sends it the file before its death is seen: it had not read it, so the file
    goes to a new worker."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: threads)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    data = cat.text_pdf("Killed while idle.")
    for _ in range(3):
        Document.from_pdf_bytes(data, name="a.pdf")
        (proc,) = document_module._POOL._procs
        os.kill(proc.pid, signal.SIGKILL)  # and at once the next open
        assert Document.from_pdf_bytes(data, name="b.pdf").text.startswith("Killed while idle.")


@pytest.mark.parametrize("threads", [1, 2], ids=["forked", "new-interpreter"])
def test_workers_are_kept_between_opens_and_replaced_when_they_go(threads, monkeypatch):
    """A worker that has extracted one file extracts the next one (the second open uses
    the same processes); one that was killed between opens is replaced."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: threads)
    monkeypatch.setattr(document_module, "_children", lambda: 2)
    data = cat.text_pdf(*cat.THREE_PAGES)
    first = Document.from_pdf_bytes(data, name="a.pdf")
    pids = [p.pid for p in document_module._POOL._procs]
    assert len(pids) == 2 and os.getpid() not in pids
    second = Document.from_pdf_bytes(data, name="a.pdf")
    assert [p.pid for p in document_module._POOL._procs] == pids
    assert (first.text, first.lines) == (second.text, second.lines)
    os.kill(pids[0], signal.SIGKILL)
    third = Document.from_pdf_bytes(data, name="a.pdf")
    now = [p.pid for p in document_module._POOL._procs]
    assert len(now) == 2 and pids[1] in now and pids[0] not in now  # the live one is kept
    assert third.text == first.text


def test_an_idle_worker_exits_and_the_next_open_starts_one(monkeypatch):
    """A forked worker shares the caller's memory as it was at the fork: it goes once it
    has been idle for a while, and the next open forks a new one."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    monkeypatch.setattr(document_module, "WORKER_IDLE_SECONDS", 0.2)
    data = cat.text_pdf("An idle worker goes.")
    Document.from_pdf_bytes(data, name="a.pdf")
    (proc,) = document_module._POOL._procs
    deadline = time.monotonic() + 10
    while proc.exited() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.exited() is not None
    assert Document.from_pdf_bytes(data, name="b.pdf").text.startswith("An idle worker goes.")
    (new,) = document_module._POOL._procs
    assert new.pid != proc.pid


@pytest.mark.parametrize("case_id, limit", [("time-bomb", "time limit"), ("memory-bomb", "memory limit")])
def test_a_worker_stopped_by_a_limit_is_replaced(case_id, limit, tmp_path, monkeypatch):
    """A worker stopped for time is killed; one that ran out of memory exits after its
    reply (its heap is suspect). Either way the next open gets a working one."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    case = next(c for c in cat.CASES if c.id == case_id)
    path = write_case(case, tmp_path)
    with pytest.raises(quotelocate.errors.ExtractionLimitError, match=limit):
        Document.open(path, **case.options)
    deadline = time.monotonic() + 10
    while any(p.exited() is None for p in document_module._POOL._procs) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(p.exited() is not None for p in document_module._POOL._procs)
    assert Document.from_pdf_bytes(cat.text_pdf("After the limit."), name="next.pdf").text.startswith("After the limit.")


def test_a_worker_lifts_the_memory_limit_after_each_file(monkeypatch):
    """The memory limit caps a worker's address space for one file, at what it uses
    then plus the limit; between files the cap is lifted, so a later file is measured
    from the worker's size at its own start."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    Document.from_pdf_bytes(cat.text_pdf("Under a cap."), name="a.pdf", limits=Limits(memory_mb=300))
    (proc,) = document_module._POOL._procs
    limits = Path(f"/proc/{proc.pid}/limits").read_text()
    line = next(ln for ln in limits.splitlines() if ln.startswith("Max address space"))
    assert line.split()[3] == "unlimited"


def test_a_forked_worker_holds_none_of_the_callers_files(tmp_path, monkeypatch):
    """A worker lives on after the open that started it: it must not keep a socket or
    file of the caller open (a closed connection would stay open in the worker)."""
    import socket

    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    with socket.socket() as sock, open(tmp_path / "held.txt", "w") as _held:
        Document.from_pdf_bytes(cat.text_pdf("No files held."), name="a.pdf")
        (proc,) = document_module._POOL._procs
        targets = {os.readlink(f"/proc/{proc.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{proc.pid}/fd")}
        assert str(tmp_path / "held.txt") not in targets
        assert f"socket:[{os.fstat(sock.fileno()).st_ino}]" not in targets
        assert len(targets) <= 6  # stdin, stdout, stderr, its two pipes and the pool's page queue


def test_a_forked_copy_of_the_caller_starts_its_own_workers(monkeypatch):
    """After a fork (a multiprocessing pool), the copy does not talk to the original's
    workers: it starts its own, and the original's keep serving the original."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    data = cat.text_pdf("Each process has its workers.")
    Document.from_pdf_bytes(data, name="a.pdf")
    (proc,) = document_module._POOL._procs
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        ok = 0
        try:
            doc = Document.from_pdf_bytes(data, name="child.pdf")
            (mine,) = document_module._POOL._procs
            ok = int(doc.text.startswith("Each process") and mine.pid != proc.pid)
            document_module._POOL.stop()
        finally:
            os.write(w, str(ok).encode())
            os._exit(0)
    os.close(w)
    answer = os.read(r, 8)
    os.close(r)
    os.waitpid(pid, 0)
    assert answer == b"1"
    assert document_module._POOL._procs == [proc] and proc.exited() is None
    assert Document.from_pdf_bytes(data, name="b.pdf").text.startswith("Each process")


def test_concurrent_opens_from_threads():
    texts = [f"Thread number {i} wrote this sentence." for i in range(4)]
    results: dict[int, str] = {}

    def work(i):
        results[i] = Document.from_pdf_bytes(cat.text_pdf(texts[i]), name=f"t{i}.pdf").text

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert [results[i].strip() for i in range(4)] == texts


# -- 6. invisible text -------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(cat.HIDDEN))
def test_invisible_text_never_verifies_a_quote(kind, tmp_path):
    doc, _ = open_case("hidden-text", tmp_path)
    quote = cat.HIDDEN[kind]
    assert quote in doc.text  # extracted like any text ...
    verdict = locate(doc, quote)
    assert verdict.accepted is False  # ... but never accepted
    assert verdict.cause == "invisible-text"
    assert locate(doc, quote[:-1].replace("This sentence is", "This sentence was")).accepted is False


def test_visible_text_next_to_invisible_text_verifies(tmp_path):
    doc, _ = open_case("hidden-text", tmp_path)
    assert locate(doc, cat.VISIBLE).accepted
    assert locate(doc, cat.WHITE_ON_BLACK).accepted  # white on a dark box is visible
    assert locate(doc, "The second page is ordinary text from start to end.").accepted


def hidden_chars(doc: Document) -> str:
    return "".join(doc.text[s:e] for s, e in doc.hidden)


def test_hidden_spans_cover_exactly_the_invisible_sentences(tmp_path):
    doc, _ = open_case("hidden-text", tmp_path)
    assert "".join(hidden_chars(doc).split()) == "".join("".join(cat.HIDDEN.values()).split())
    assert list(doc.hidden) == sorted(doc.hidden)


def test_in_process_hidden_text(tmp_path):
    doc, _ = open_case("hidden-text", tmp_path, isolate=False)
    assert doc.hidden and doc.hidden == open_case("hidden-text", tmp_path)[0].hidden
    assert locate(doc, cat.HIDDEN["white-on-white"]).accepted is False


# -- 7. rotated pages ----------------------------------------------------------------------


def _yellow_bbox(png: bytes) -> tuple[int, int, int, int]:
    """Bounding box of the highlight's yellow pixels in a rendered page."""
    pix = pymupdf.Pixmap(png)
    n, w, samples = pix.n, pix.width, pix.samples
    xs, ys = [], []
    for i in range(0, len(samples), n):
        r, g, b = samples[i], samples[i + 1], samples[i + 2]
        if r > 200 and g > 180 and b < 200:
            xs.append((i // n) % w)
            ys.append((i // n) // w)
    assert xs, "no highlight drawn"
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("rotation", cat.ROTATIONS)
def test_boxes_on_rotated_pages(rotation, tmp_path):
    doc, path = open_case("rotated", tmp_path)
    number = cat.ROTATIONS.index(rotation) + 1
    assert doc.pages[number - 1].rotation == rotation
    word = f"marker{rotation}"
    verdict = locate(doc, f"rotated by {rotation} degrees and holds {word}")
    assert verdict.accepted
    with pymupdf.open(path) as pdf:
        page = pdf[number - 1]
        (reference,) = page.search_for(word)
        on_screen = reference * page.rotation_matrix
    # the word's own box equals pymupdf's search_for rectangle
    start = doc.text.index(word, doc.pages[number - 1].start)
    (box,) = doc.boxes([(start, start + len(word))])
    assert box.page == number
    assert (box.x0, box.y0, box.x1, box.y1) == pytest.approx(tuple(reference), abs=0.5)
    # the rendered highlight lies over the word as the rotated page shows it
    zoom = 2.0
    x0, y0, x1, y1 = _yellow_bbox(render_page_png(doc, number, zoom=zoom, boxes=(box,)))
    assert (x0, y0, x1, y1) == pytest.approx(tuple(on_screen * zoom), abs=3)
    # and the verdict's boxes are on that page, one covering the word
    assert all(b.page == number for b in verdict.boxes)
    assert any(b.x0 <= box.x0 + 0.5 and b.x1 >= box.x1 - 0.5 and b.y0 <= box.y1 and b.y1 >= box.y0
               for b in verdict.boxes)


@pytest.mark.parametrize("threads", [1, 2], ids=["forked", "new-interpreter"])
@pytest.mark.parametrize("case_id", ["memory-bomb", "time-bomb", "encrypted-no-password", "rotated"])
def test_both_worker_paths_enforce_the_same_limits(case_id, threads, tmp_path, monkeypatch):
    # a single-threaded caller forks its extraction workers; with other threads running
    # they are started as new interpreters: both must give the same outcome
    monkeypatch.setattr(document_module.threading, "active_count", lambda: threads)
    case = next(c for c in cat.CASES if c.id == case_id)
    path = write_case(case, tmp_path)
    if isinstance(case.expect, cat.Raises):
        with pytest.raises(case.expect.error) as info:
            Document.open(path, **case.options)
        assert str(path) in str(info.value)
        for fragment in case.expect.parts:
            assert fragment in str(info.value)
    else:
        assert Document.open(path, **case.options).pages


def test_without_fork_extraction_is_in_process_and_says_so(monkeypatch):
    monkeypatch.delattr(document_module.os, "fork")
    doc = Document.from_pdf_bytes(cat.text_pdf("A platform without fork still loads this."), name="nofork.pdf")
    assert doc.text.startswith("A platform without fork")
    assert any("limits were not enforced" in w for w in doc.warnings)


@pytest.mark.parametrize("case_id", ["rotated", "hidden-text", "scanned-page-allowed", "truncated-half",
                                     "memory-bomb", "page-tree-cycle", "encrypted-right-password"])
def test_one_or_two_extraction_children_give_the_same_outcome(case_id, tmp_path, monkeypatch):
    # two children share the pages out through the page queue; the parent puts them back in order
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    case = next(c for c in cat.CASES if c.id == case_id)
    path = write_case(case, tmp_path)
    outcomes = []
    for children in (1, 2):
        monkeypatch.setattr(document_module, "_children", lambda: children)
        try:
            doc = Document.open(path, **case.options)
            outcomes.append((doc.text, doc.pages, doc.lines, doc.warnings, doc.hidden))
        except quotelocate.QuotelocateError as exc:
            outcomes.append((type(exc), str(exc).split(" (")[0]))
    assert outcomes[0] == outcomes[1]


def test_two_children_on_a_real_paper_give_the_in_process_document(monkeypatch):
    from conftest import paper_path

    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 2)
    path = paper_path("1706.03762v7.pdf")
    a, b = Document.open(path), Document.open(path, isolate=False)
    assert (a.text, a.pages, a.lines, a.hidden, a.warnings) == (b.text, b.pages, b.lines, b.hidden, b.warnings)


def test_when_both_children_fail_the_lowest_page_is_reported(tmp_path, monkeypatch):
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 2)
    real = document_module._extract_pages

    def failing(pdf, name, indices, memory="the memory available", spent=None):
        for i in indices:
            if i + 1 in (2, 3):  # page 2 in one child, page 3 in the other
                raise quotelocate.errors.DocumentError(f"{name}: page {i + 1}: text extraction failed (boom)")
        return real(pdf, name, indices, memory, spent)

    monkeypatch.setattr(document_module, "_extract_pages", failing)
    path = tmp_path / "three.pdf"
    path.write_bytes(cat.text_pdf(*cat.THREE_PAGES))
    with pytest.raises(quotelocate.errors.DocumentError, match=r"three\.pdf: page 2: text extraction failed"):
        Document.open(path)


def test_a_worker_that_cannot_be_started_is_a_document_error(monkeypatch):
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 2)
    real_fork, calls = os.fork, []

    def fork():
        calls.append(1)
        if len(calls) == 2:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        return real_fork()

    monkeypatch.setattr(document_module.os, "fork", fork)
    with pytest.raises(quotelocate.errors.DocumentError, match=r"^nofork\.pdf: cannot start an extraction worker"):
        Document.from_pdf_bytes(cat.text_pdf("Never extracted."), name="nofork.pdf")


@pytest.mark.parametrize("field, value", [("seconds", 0), ("seconds", float("nan")), ("memory_mb", -1),
                                          ("max_pages", True), ("max_file_bytes", "big")])
def test_bad_limits_are_config_errors(field, value):
    with pytest.raises(quotelocate.errors.ConfigError, match=rf"^limits\.{field}: expected a number greater than 0"):
        Limits(**{field: value})


# -- the child's reply: a JSON line, then texts and packed numbers ----------------------------


def test_a_reply_keeps_text_and_numbers_exactly():
    """Texts (a lone surrogate, a non-BMP character) and doubles (-0.0, a value no
    decimal of a few digits holds) come back from the packed form as they went in."""
    pages = [
        [2, "a\ud800b\n\U0001d400\n", 612.0, 792.0, 90, [0, 3, 0.1, -0.0, 1 / 3, 2.5, 9.96, 0, 1.0, 0.0, 0, 1,
                                                         4, 5, 1e-300, 2.0, 3.0, 4.0, 10.0, 1, 0.0, -1.0, 1, 0],
         ["F1", "F2"], [0, 9.96, 7.25], [[0, 1]], [], [[1, "\u2013"]], [2], [[3, 4]]],
        [4, "", 10.0, 20.0, 0, [], [], [], [], [[0, 1]], [], [], None],
    ]
    blob = document_module._encode_reply({"status": "ok", "warnings": ["w"], "pages": pages})
    records, warnings = document_module._decode_replies([blob], "x.pdf")
    assert warnings == ["w"]
    assert [r[:5] + r[6:7] + r[8:] for r in records] == [p[:5] + p[6:7] + p[8:] for p in pages]
    for got, sent in zip(records, pages):
        for i in (5, 7):  # the numbers, as doubles: same values and signs
            assert [repr(float(v)) for v in got[i]] == [repr(float(v)) for v in sent[i]]


def test_numbers_are_packed_as_an_array_of_doubles_packs_them():
    """A reply's numbers (ints among floats, signed zeros, the extremes, NaN) are the
    bytes array("d") makes of them, whichever way they are packed."""
    from array import array

    numbers = [0, 3, -1, 2**53, 0.1, -0.0, 1 / 3, 1e-300, -1e308, float("inf"), float("-inf"), float("nan"), 7.25]
    assert document_module._doubles(numbers) == array("d", numbers).tobytes()
    assert document_module._doubles([]) == b""
    assert document_module._doubles(array("d", numbers)) == array("d", numbers).tobytes()


@pytest.mark.parametrize("damage", ["cut", "sizes", "font", "spans", "offset", "nan", "inf", "negative"])
def test_a_malformed_child_reply_is_a_document_error(damage, monkeypatch):
    """A child a hostile PDF took over may send anything: a reply whose sizes do not add
    up, or whose numbers point past the font table or the spans, is refused with an
    error naming the file, never a traceback."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    real = document_module._encode_reply

    def broken(reply):
        if reply.get("status") == "ok":
            for page in reply["pages"]:
                if damage == "font":
                    page[5][7] = 10**6  # the first line's font index
                if damage == "spans":
                    page[5][11] = 10**6  # the first line's span count
                if damage in ("offset", "nan", "inf", "negative") and page[7]:
                    # the first span's offset in its line: not a whole number of characters
                    page[7][0] = {"offset": 0.5, "nan": float("nan"), "inf": float("inf"), "negative": -1.0}[damage]
        blob = real(reply)
        if damage == "cut":
            return blob[:-5]
        if damage == "sizes":
            head, _, body = blob.partition(b"\n")
            header = document_module.json.loads(head)
            header["sizes"][0] += 8
            return document_module.json.dumps(header).encode() + b"\n" + body + b"\0" * 8
        return blob

    monkeypatch.setattr(document_module, "_encode_reply", broken)
    with pytest.raises(quotelocate.errors.DocumentError, match=r"^bad\.pdf: the extraction worker sent a malformed reply$"):
        Document.from_pdf_bytes(cat.text_pdf(*cat.THREE_PAGES), name="bad.pdf")


def test_workers_started_as_new_interpreters_give_the_in_process_document(monkeypatch):
    """With other threads running the workers are new interpreters that import only the
    extraction module: the document is the one extracted in-process."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 2)
    data = cat.text_pdf(*cat.THREE_PAGES)
    a = Document.from_pdf_bytes(data, name="three.pdf")
    assert all(p.popen is not None for p in document_module._POOL._procs)
    b = Document.from_pdf_bytes(data, name="three.pdf", isolate=False)
    assert (a.text, a.pages, a.lines, a.hidden, a.markers, a.warnings) == (b.text, b.pages, b.lines, b.hidden, b.markers,
                                                                         b.warnings)
    assert len(a.pages) == 3 and a.lines


@pytest.mark.parametrize("cores, load, children", [(2, 0.2, 2), (2, 1.6, 2), (2, 6.0, 2), (1, 0.0, 1), (8, 7.6, 2)])
def test_two_workers_where_there_are_two_cores_whatever_the_load(cores, load, children, monkeypatch):
    """The load average counts the workers themselves, so it does not decide how many
    there are; the cores this process may run on do, and a pool's choice holds."""
    monkeypatch.setattr(document_module, "_CHILDREN_OVERRIDE", None)
    monkeypatch.setattr(document_module.os, "sched_getaffinity", lambda pid: set(range(cores)))
    monkeypatch.setattr(document_module.os, "getloadavg", lambda: (load, load, load))
    assert document_module._children() == children
    monkeypatch.setattr(document_module, "_CHILDREN_OVERRIDE", 1)  # a pool's choice holds whatever the cores
    assert document_module._children() == 1


def test_a_worker_that_leaves_as_a_file_arrives_is_replaced_and_the_file_extracted(tmp_path, monkeypatch):
    """An idle worker may exit just as the next file is sent to it: it read nothing and
    exited cleanly. The open then sends the file to a new worker, once."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    real = document_module._serve_extraction
    marker = tmp_path / "left-once"

    def leaves_once(rfd, wfd, queue=None):
        if not marker.exists():
            marker.write_text("1")
            os.read(rfd, 1)  # the file has arrived; the worker goes anyway
            return
        real(rfd, wfd, queue)

    monkeypatch.setattr(document_module, "_serve_extraction", leaves_once)
    doc = Document.from_pdf_bytes(cat.text_pdf("Sent twice, extracted once."), name="a.pdf")
    assert doc.text.startswith("Sent twice, extracted once.")
    assert marker.exists()


def test_a_worker_that_keeps_leaving_is_an_error_naming_the_file(monkeypatch):
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    monkeypatch.setattr(document_module, "_serve_extraction", lambda rfd, wfd, queue=None: os.read(rfd, 1) and None)
    with pytest.raises(quotelocate.errors.ExtractionLimitError, match=r"^a\.pdf: text extraction was killed"):
        Document.from_pdf_bytes(cat.text_pdf("Never extracted."), name="a.pdf")


@pytest.mark.parametrize("threads", [1, 2], ids=["forked", "new-interpreter"])
def test_a_file_sent_to_a_worker_already_gone_goes_to_a_new_one(threads, monkeypatch):
    """The death is not seen before the file is sent (the pipe is broken): the worker
    never read it, so the open sends it again to a new worker."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: threads)
    monkeypatch.setattr(document_module, "_children", lambda: 1)
    data = cat.text_pdf("Sent into a broken pipe.")
    Document.from_pdf_bytes(data, name="a.pdf")
    (proc,) = document_module._POOL._procs
    os.kill(proc.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while Path(f"/proc/{proc.pid}/status").exists() and "zombie" not in Path(f"/proc/{proc.pid}/status").read_text() \
            and time.monotonic() < deadline:
        time.sleep(0.01)
    real_exited = document_module._Proc.exited
    seen = []
    monkeypatch.setattr(document_module._Proc, "exited", lambda self: seen.append(self.pid) or None
                        if self.pid == proc.pid and len(seen) < 1 else real_exited(self))
    assert Document.from_pdf_bytes(data, name="b.pdf").text.startswith("Sent into a broken pipe.")
    assert seen == [proc.pid]  # the dead worker was taken for alive once, and the file still went through


def test_workers_take_pages_in_turn_through_the_token():
    """Two workers reading the page queue take every page once, in order, whoever gets
    free first; a token of another file is passed over; both stop at the end."""
    take, give = os.pipe()
    try:
        os.write(give, document_module._TOKEN.pack(6, 0))  # left over from another file
        os.write(give, document_module._TOKEN.pack(7, 0))
        a = document_module._taken_pages((take, give), 7, 5)
        b = document_module._taken_pages((take, give), 7, 5)
        taken = [next(a), next(b), next(b), next(a)]
        assert taken == [0, 1, 2, 3]
        assert list(b) == [4]  # b takes the last page, then sees the end
        assert list(a) == []  # a sees the end the token now carries
        left = document_module._TOKEN.unpack(os.read(take, 8))
        assert left == (7, 5)  # one token stays: the caller empties the pipe before the next file
    finally:
        os.close(take)
        os.close(give)



def _two_workers_first_page_held(monkeypatch, seconds: float, log: Path | None = None) -> None:
    """Two forked workers, whichever takes the first page held up on it for ``seconds``;
    with ``log``, each worker notes the pages it took in a file named by its pid there."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 2)
    real = document_module._extract_pages

    def held(pdf, name, indices, memory="the memory available", spent=None):
        records = []
        for index in indices:
            if index == 0:
                time.sleep(seconds)
            records += real(pdf, name, [index], memory, spent)
            if log is not None:
                with open(log / str(os.getpid()), "a") as f:
                    f.write(f"{index}\n")
        return records

    monkeypatch.setattr(document_module, "_extract_pages", held)


def test_a_worker_held_up_by_one_page_leaves_the_rest_to_the_other(tmp_path, monkeypatch):
    """Pages go to whichever worker is free: while one worker spends a second on the
    first page, the other extracts all the others (a fixed half each would leave it
    idle after its half)."""
    _two_workers_first_page_held(monkeypatch, 1.0, log=tmp_path)
    texts = [f"Page {n} of six." for n in range(1, 7)]
    doc = Document.from_pdf_bytes(cat.text_pdf(*texts), name="six.pdf")
    assert [doc.text[p.start : p.end].strip() for p in doc.pages] == texts
    taken = sorted(sorted(int(i) for i in f.read_text().split()) for f in tmp_path.iterdir())
    assert taken == [[0], [1, 2, 3, 4, 5]]


def test_a_page_that_fails_in_one_worker_spoils_neither_the_file_error_nor_the_next_file(monkeypatch):
    """A worker whose page fails has already passed the token on: the other finishes
    the file, the error names the page, and the next file starts from a queue emptied
    of the last one's token."""
    monkeypatch.setattr(document_module.threading, "active_count", lambda: 1)
    monkeypatch.setattr(document_module, "_children", lambda: 2)
    real = document_module._page_dict

    def breaks(page, rendered=None):
        raw = real(page, rendered)
        if any("BREAK" in span["text"] for block in raw["blocks"] for line in block.get("lines", ())
               for span in line["spans"]):
            raise RuntimeError("cannot read this page")
        return raw

    monkeypatch.setattr(document_module, "_page_dict", breaks)
    with pytest.raises(quotelocate.errors.DocumentError, match=r"^bad\.pdf: page 3: text extraction failed"):
        Document.from_pdf_bytes(cat.text_pdf("One.", "Two.", "BREAK three.", "Four.", "Five."), name="bad.pdf")
    pids = [p.pid for p in document_module._POOL._procs]
    assert len(pids) == 2
    for _ in range(3):
        doc = Document.from_pdf_bytes(cat.text_pdf("Alpha.", "Beta.", "Gamma.", "Delta."), name="good.pdf")
        assert [doc.text[p.start : p.end].strip() for p in doc.pages] == ["Alpha.", "Beta.", "Gamma.", "Delta."]
    assert [p.pid for p in document_module._POOL._procs] == pids  # the same workers served them


@pytest.mark.parametrize("threads", [1, 2], ids=["forked", "new-interpreter"])
def test_two_workers_give_what_one_process_gives(threads, monkeypatch):
    monkeypatch.setattr(document_module.threading, "active_count", lambda: threads)
    monkeypatch.setattr(document_module, "_children", lambda: 2)
    data = cat.many_pages_pdf(23)
    shared = Document.from_pdf_bytes(data, name="many.pdf")
    here = Document.from_pdf_bytes(data, name="many.pdf", isolate=False)
    assert len(document_module._POOL._procs) == 2
    assert shared.text == here.text and shared.pages == here.pages and shared.lines == here.lines


def test_pages_come_back_in_page_order_whichever_worker_took_them():
    """What is kept of an extraction (a cache entry) does not depend on which worker
    happened to take which page."""
    def page(number):
        return [number, f"Page {number}.\n", 612.0, 792.0, 0, [0, 7, 1.0, 2.0, 3.0, 4.0, 10.0, 0, 1.0, 0.0, 0, 1],
                ["Times"], [0, 10.0, 3.0], [], [], [], [], None]

    blobs = [document_module._encode_reply({"status": "ok", "warnings": [], "pages": [page(3), page(1)]}),
             document_module._encode_reply({"status": "ok", "warnings": [], "pages": [page(2)]})]
    records, _ = document_module._decode_replies(blobs, "a.pdf")
    assert [r[0] for r in records] == [1, 2, 3]
    assert [r[1] for r in records] == ["Page 1.\n", "Page 2.\n", "Page 3.\n"]


def test_a_worker_asked_to_share_pages_without_a_queue_refuses_rather_than_take_them_all():
    """Without the queue a worker of a shared file would extract every page, as the
    other would: the pages would come back twice. It answers with an error instead."""
    request = {"name": "a.pdf", "password": None, "limits": [30, 512, 100, 10**8], "file": 1}
    reply = document_module._child_reply(cat.text_pdf("One.", "Two."), request, None)
    assert reply["status"] == "error"
    assert reply["message"].startswith("a.pdf: the extraction worker has no page queue")
    alone = document_module._child_reply(cat.text_pdf("One.", "Two."), {**request, "file": None}, None)
    assert alone["status"] == "ok" and [page[0] for page in alone["pages"]] == [1, 2]


def _read_all(fd: int, into: bytearray, pause: float = 0.0) -> None:
    while True:
        if pause:
            time.sleep(pause)
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        into += chunk


def test_a_file_goes_to_every_worker_at_once_and_whole():
    """A file larger than any pipe goes to a fast and a slow reader side by side: each
    gets every byte, and the pipes are left in the blocking mode they had."""
    payload = bytes(range(256)) * (3 * 4096 + 7)  # about 3 MB: more than a pipe holds
    (r1, w1), (r2, w2) = os.pipe(), os.pipe()
    got1, got2 = bytearray(), bytearray()
    fast = threading.Thread(target=_read_all, args=(r1, got1))
    slow = threading.Thread(target=_read_all, args=(r2, got2, 0.002))
    fast.start(), slow.start()
    try:
        document_module._send_all([w1, w2], [b'{"size": 1}\n', payload], time.monotonic() + 30)
        assert os.get_blocking(w1) and os.get_blocking(w2)
    finally:
        os.close(w1), os.close(w2)
        fast.join(10), slow.join(10)
        os.close(r1), os.close(r2)
    assert bytes(got1) == bytes(got2) == b'{"size": 1}\n' + payload


def test_sending_to_a_worker_that_has_gone_leaves_the_others_their_file():
    """A reader that has gone is dropped, not raised over, and one that reads nothing
    does not keep the file from the others (it comes first here: sent one after the
    other, nobody would get anything): the live reader gets it all, and the stuck one is
    given up at the deadline rather than waited for."""
    payload = b"%PDF-" + b"x" * (2 << 20)
    (r1, w1), (r2, w2), (r3, w3) = os.pipe(), os.pipe(), os.pipe()
    os.close(r2)  # gone
    got = bytearray()
    reader = threading.Thread(target=_read_all, args=(r1, got))
    reader.start()
    start = time.monotonic()
    try:
        document_module._send_all([w3, w2, w1], [payload], time.monotonic() + 1.0)
        took = time.monotonic() - start
    finally:
        os.close(w1), os.close(w2), os.close(w3)
        reader.join(10)
        os.close(r1), os.close(r3)
    assert bytes(got) == payload
    assert 0.9 <= took < 5.0  # the stuck reader (r3 never read) ran out the deadline


@pytest.mark.skipif(not hasattr(__import__("fcntl"), "F_GETPIPE_SZ"), reason="pipe sizes are Linux's")
def test_worker_pipes_are_widened_where_the_system_allows():
    import fcntl

    r, w = os.pipe()
    try:
        before = fcntl.fcntl(w, fcntl.F_GETPIPE_SZ)
        document_module._widen(w)
        after = fcntl.fcntl(w, fcntl.F_GETPIPE_SZ)
        limit = int(Path("/proc/sys/fs/pipe-max-size").read_text())
        assert after == max(before, min(document_module.PIPE_BYTES, limit))
        document_module._widen(r)  # either end names the same pipe
        assert fcntl.fcntl(r, fcntl.F_GETPIPE_SZ) == after
    finally:
        os.close(r), os.close(w)


def test_the_reply_in_first_is_read_while_the_other_worker_is_still_at_work(monkeypatch):
    """The caller has nothing to do while it waits for the last worker: the reply of the
    one through first is decoded then, and the file hashed, and neither is done again."""
    _two_workers_first_page_held(monkeypatch, 0.5)
    real_decode, real_early = document_module._decode_reply, document_module._decode_early
    decoded, early = [], []
    monkeypatch.setattr(document_module, "_decode_reply", lambda blob: decoded.append(blob) or real_decode(blob))
    monkeypatch.setattr(document_module, "_decode_early", lambda blob: early.append(time.monotonic()) or real_early(blob))
    data = cat.text_pdf(*(f"Page {n} of five." for n in range(1, 6)))
    start = time.monotonic()
    doc = Document.from_pdf_bytes(data, name="five.pdf")
    end = time.monotonic()
    assert len(early) == 1 and early[0] < end - 0.2  # during the held-up page
    assert len(decoded) == 2 and len(set(decoded)) == 2  # each reply decoded once
    here = Document.from_pdf_bytes(data, name="five.pdf", isolate=False)
    assert (doc.text, doc.pages, doc.lines, doc.warnings) == (here.text, here.pages, here.lines, here.warnings)
    assert doc.sha256 == hashlib.sha256(data).hexdigest()
    assert end - start >= 0.5


def test_a_reply_decoded_early_is_taken_as_it_is_and_a_bad_one_decoded_again():
    page = [1, "One.\n", 612.0, 792.0, 0, [0, 4, 1.0, 2.0, 3.0, 4.0, 10.0, 0, 1.0, 0.0, 0, 1], ["Times"],
            [0, 10.0, 3.0], [], [], [], [], None]
    blob = document_module._encode_reply({"status": "ok", "warnings": ["w"], "pages": [page]})
    ahead = ([[2, "Two.\n", 612.0, 792.0, 0, [], [], [], [], [], [], [], None]], ["early"])
    records, warnings = document_module._decode_replies([blob, blob], "a.pdf", [None, ahead])
    assert [r[0] for r in records] == [1, 2] and warnings == ["w"]
    assert document_module._decode_early(b"not a reply\n") is None
    with pytest.raises(quotelocate.errors.DocumentError, match="^a.pdf: the extraction worker sent a malformed reply"):
        document_module._decode_replies([b"not a reply\n"], "a.pdf", [document_module._decode_early(b"not a reply\n")])


def test_an_extracted_line_makes_its_spans_when_asked_and_they_are_the_spans_it_was_given():
    """The spans of an extracted line are made from its page's numbers on first access:
    the same values a line built with them holds, and the line compares and hashes as
    that one does."""
    doc = Document.from_pdf_bytes(cat.text_pdf(*cat.THREE_PAGES), name="three.pdf", isolate=False)
    line = doc.lines[0]
    with pytest.raises(AttributeError):
        object.__getattribute__(line, "spans")  # not made yet
    spans = line.spans
    assert spans and all(type(o) is int and type(size) is float and type(y) is float for o, size, y in spans)
    assert line.start <= spans[0][0] < line.end
    assert object.__getattribute__(line, "spans") is spans and line.spans is spans  # made once
    built = document_module.Line(line.page, line.start, line.end, line.bbox, line.size, line.font, line.direction,
                                 line.block, spans)
    assert built == line and hash(built) == hash(doc.lines[0])
    fresh = document_module.Line(line.page, line.start, line.end, line.bbox, line.size, line.font, line.direction,
                                 line.block)
    assert fresh.spans == ()
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        line.nothing  # noqa: B018


def test_a_turned_line_keeps_its_spans_made_or_still_to_make():
    """A line of a turned page (new box and direction) has the spans of the line it
    turns: made from the same numbers when they were not made yet, the same tuple when
    they were. Everything else but the box and direction is the line's own. Lines hold
    their fields in slots, with no attribute dictionary."""
    doc = Document.from_pdf_bytes(cat.text_pdf(*cat.THREE_PAGES), name="three.pdf", isolate=False)
    lazy, made = doc.lines[0], doc.lines[1]
    made_spans = made.spans
    assert not hasattr(lazy, "__dict__")
    box, way = (1.0, 2.0, 3.0, 4.0), (0.0, -1.0)
    for line in (lazy, made):
        turned = document_module.turned_line(line, box, way)
        assert (turned.bbox, turned.direction) == (box, way)
        assert (turned.page, turned.start, turned.end, turned.size, turned.font, turned.block) == (
            line.page, line.start, line.end, line.size, line.font, line.block)
    assert document_module.turned_line(made, box, way).spans is made_spans
    turned = document_module.turned_line(lazy, box, way)
    with pytest.raises(AttributeError):
        object.__getattribute__(turned, "spans")  # still to make, from the lazy line's numbers
    assert turned.spans == lazy.spans and turned.spans


def test_a_line_shows_its_fields_alone():
    """What an extracted line makes its spans from is kept beside its fields, not as
    one: ``asdict`` and ``fields`` give the fields (JSON-ready), and a pickled line
    comes back equal, spans made."""
    import dataclasses
    import json
    import pickle

    doc = Document.from_pdf_bytes(cat.text_pdf(*cat.THREE_PAGES), name="three.pdf", isolate=False)
    line = doc.lines[0]
    names = ["page", "start", "end", "bbox", "size", "font", "direction", "block", "spans"]
    assert [f.name for f in dataclasses.fields(line)] == names
    fields = dataclasses.asdict(line)
    assert list(fields) == names and fields["spans"] and json.loads(json.dumps(fields))["start"] == line.start
    again = pickle.loads(pickle.dumps(doc.lines[-1]))
    assert again == doc.lines[-1] and again.spans == doc.lines[-1].spans


def test_a_decoded_reply_keeps_its_numbers_packed_and_assembles_as_extracted_here():
    """A worker's numbers stay machine doubles after decoding (a page's slice of them,
    not a float object each), and the document made from them equals the in-process
    one, spans included; a line of the decoded document makes its spans from them."""
    from array import array

    data = cat.text_pdf(*cat.THREE_PAGES)
    records, warnings = document_module._extract_here(data, "three.pdf", None, document_module.DEFAULT_LIMITS,
                                                      isolated=False)
    blob = document_module._encode_reply({"status": "ok", "warnings": warnings, "pages": records})
    decoded, _ = document_module._decode_replies([blob], "three.pdf")
    assert all(type(r[5]) is array and type(r[7]) is array and r[5].typecode == r[7].typecode == "d"
               for r in decoded)
    assert [list(r[5]) for r in decoded] == [r[5] for r in records]
    here = document_module._assemble("three.pdf", data, records, warnings, False)
    there = document_module._assemble("three.pdf", data, decoded, warnings, False)
    assert (there.text, there.pages, there.lines) == (here.text, here.pages, here.lines)  # lines compare spans too
    assert all(ln.spans for ln in there.lines)


@pytest.mark.parametrize("text,usable", [
    ("Words.\n", True),
    ("", False),
    ("  \n\u2003\n\u3000\n", False),  # only whitespace, some of it beyond ASCII
    ("ab\ufffd cd\n", True),  # a little unmapped text among words
    ("a\ufffd\n", False),  # half of what is visible is unmapped
    ("\ufffd\ufffd\n", False),
])
def test_a_page_is_usable_when_enough_of_it_is_visible_mapped_text(text, usable):
    """A page is verifiable when it shows anything but whitespace, of which less than
    half is unmapped glyphs; the page with no unmapped glyph is decided by a scan that
    stops at its first visible character, with the same answer."""
    record = [1, text, 612.0, 792.0, 0, [], [], [], [], [], [], [], None]
    other = [2, "Other page.\n", 612.0, 792.0, 0, [], [], [], [], [], [], [], None]
    doc = document_module._assemble("p.pdf", b"%PDF-", [record, other], [], True)
    assert doc.pages[0].verifiable is usable
    assert doc.pages[1].verifiable


def test_a_worker_writes_its_reply_and_frees_its_pages_before_the_collector_runs_again(monkeypatch):
    """The collector stays paused from the extraction until the pages' objects are
    freed: a collection as the extraction ends would walk every span dict still kept
    before the reply went out. Once they are freed it runs again."""
    import gc
    import json

    seen: list[tuple[str, bool]] = []
    real_write, real_release = document_module._write_all, document_module._release

    def write(fd, data):
        seen.append(("write", gc.isenabled()))
        real_write(fd, data)

    def release(spent):
        seen.append(("release", gc.isenabled()))
        real_release(spent)

    monkeypatch.setattr(document_module, "_write_all", write)
    monkeypatch.setattr(document_module, "_release", release)
    data = cat.text_pdf(*cat.THREE_PAGES)
    request = {"name": "three.pdf", "password": None, "limits": [30, 1024, 100, 10**9], "size": len(data)}
    to_worker, from_caller = os.pipe()[::-1]
    from_worker, to_caller = os.pipe()
    document_module._widen(to_worker, to_caller)
    os.write(to_worker, json.dumps(request).encode() + b"\n" + data)
    os.close(to_worker)  # the worker returns after this one request
    assert gc.isenabled()
    document_module._serve_extraction(from_caller, to_caller)
    os.close(to_caller)
    reply = b""
    while chunk := os.read(from_worker, 1 << 20):
        reply += chunk
    os.close(from_worker)
    assert reply[:1] == b"+" and b'"status": "ok"' in reply
    assert [what for what, _ in seen] == ["write", "write", "release"]  # "+", the length and reply; then free
    assert seen[1:] == [("write", False), ("release", False)]
    assert gc.isenabled()


def test_a_worker_frees_its_pages_objects_after_its_reply_and_holds_only_so_many():
    """The pages' pymupdf objects outlive their page only until the reply is out, and a
    long file never has more than SPENT_PAGES pages' worth of them alive; the records
    are the same either way."""
    data = cat.many_pages_pdf(document_module.SPENT_PAGES + 8)
    request = {"name": "many.pdf", "password": None, "limits": [30, 1024, 1000, 10**9]}
    spent: list = []
    kept = document_module._child_reply(data, request, None, spent)
    plain = document_module._child_reply(data, request, None)
    assert kept["status"] == plain["status"] == "ok"
    assert kept["pages"] == plain["pages"] and len(kept["pages"]) == document_module.SPENT_PAGES + 8
    pages = [item for item in spent if isinstance(item, tuple)]
    (pdf,) = [item for item in spent if isinstance(item, pymupdf.Document)]
    assert len(pages) == document_module.SPENT_PAGES  # the earliest were freed on the way
    assert [page.number for page, *_ in pages] == list(range(8, document_module.SPENT_PAGES + 8))
    assert not pdf.is_closed  # closed only once the reply is out
    document_module._release(spent)
    assert spent == [] and pdf.is_closed


def test_a_failing_file_still_leaves_its_document_to_be_closed():
    request = {"name": "a.pdf", "password": None, "limits": [30, 1024, 1000, 10**9], "file": 1}
    spent: list = []
    reply = document_module._child_reply(cat.text_pdf("One.", "Two."), request, None, spent)
    assert reply["status"] == "error"  # no page queue to share the pages by
    (pdf,) = spent
    document_module._release(spent)
    assert pdf.is_closed
