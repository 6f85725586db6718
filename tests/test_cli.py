"""The command line, in-process and as a subprocess: output, exit codes, bad input."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pymupdf
import pytest

from quotelocate.interface.cli import build_parser, main

from conftest import paper_path

REPO = Path(__file__).resolve().parent.parent
V7 = "1706.03762v7.pdf"
GOOD = "self-attention layers are faster than recurrent layers when the sequence length n is smaller than the representation dimensionality d"
BAD = "Our model achieves 28.3 BLEU on the WMT 2014 English-to-German translation task"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_locate_accepts_and_marks_match():
    code, out, _ = run("locate", str(paper_path(V7)), GOOD)
    assert code == 0
    assert out.startswith("ACCEPTED (normalized) page 6, 7")
    assert ">>>self-attention layers" in out and "layout" in out
    assert "the sequence<<< [skipped: 6] >>>length n" in out


def test_locate_rejects_with_cause_and_diff():
    code, out, _ = run("locate", str(paper_path(V7)), BAD)
    assert code == 1
    assert "number-changed" in out and "28.[-4-]{+3+}" in out


def test_exact_preset_rejects_layout_quote():
    code, out, _ = run("locate", str(paper_path(V7)), GOOD, "--preset", "exact")
    assert code == 1 and "REJECTED" in out


def test_rule_flag_overrides_preset():
    code, _, _ = run("locate", str(paper_path(V7)), GOOD, "--no-furniture", "--no-layout")
    assert code == 1
    code, _, _ = run("locate", str(paper_path(V7)), GOOD, "--no-layout")
    assert code == 0


def test_batch_json_in_order_and_audit_roundtrip(tmp_path):
    quotes = tmp_path / "q.jsonl"
    rows = [
        {"id": "good", "quote": GOOD, "cited_chunk": 40},
        {"id": "bad", "quote": BAD},
        {"id": 3, "quote": "the"},
    ]
    quotes.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    code, out, _ = run("locate", str(paper_path(V7)), "--quotes", str(quotes), "--json")
    assert code == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in records] == ["good", "bad", 3]
    for key in ("id", "accepted", "status", "page", "start", "end", "rules", "cause", "fingerprint", "sha256"):
        assert all(key in r for r in records), key
    assert records[1]["cause"] == "number-changed" and records[2]["status"] == "invalid"
    stored = tmp_path / "verdicts.jsonl"
    stored.write_text(out, encoding="utf-8")
    code, out, _ = run("audit", str(stored))
    assert code == 0 and "0 differ" in out
    # a tampered verdict is listed
    records[1]["accepted"] = True
    stored.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    code, out, _ = run("audit", str(stored))
    assert code == 1 and "[line 2, id bad] accepted: stored True, now False" in out
    # a fingerprint that does not match the recorded config cannot be re-checked
    records[1]["accepted"] = False
    records[0]["fingerprint"] = "ql1-0000000000000000"
    stored.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    code, out, _ = run("audit", str(stored))
    assert code == 1 and "fingerprint" in out


def test_chunks_and_text_agree(tmp_path):
    code, out, _ = run("chunks", str(paper_path(V7)), "--json")
    assert code == 0
    chunks = [json.loads(line) for line in out.splitlines()]
    code, text, _ = run("text", str(paper_path(V7)))
    assert code == 0
    assert all(text[c["start"] : c["end"]] == c["text"] for c in chunks)
    assert chunks[1]["start"] == 448 and chunks[3]["group"] == 1


def test_explicit_chunk_file(tmp_path):
    code, text, _ = run("text", str(paper_path(V7)))
    i = text.index("Attention mechanisms have become")
    chunk_file = tmp_path / "chunks.jsonl"
    chunk_file.write_text(
        json.dumps({"index": 0, "text": text[:i]}) + "\n" + json.dumps({"index": 1, "text": text[i : i + 600]}) + "\n",
        encoding="utf-8",
    )
    q = "Attention mechanisms have become an integral part of compelling sequence modeling"
    code, out, _ = run("locate", str(paper_path(V7)), q, "--chunks", str(chunk_file), "--cited-chunk", "1", "--scope", "chunk")
    assert code == 0, out
    code, out, _ = run("locate", str(paper_path(V7)), q, "--chunks", str(chunk_file), "--cited-chunk", "0", "--scope", "chunk")
    assert code == 1 and "outside-material" in out


# -- bad input: one line on stderr, exit 2, never a traceback -------------------------


def make_encrypted(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "A secret sentence that nobody may read.")
    path = tmp_path / "locked.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")
    return path


def make_textless(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "The first page has a real text layer on it.")
    doc.new_page().draw_rect(pymupdf.Rect(50, 50, 300, 300), fill=(0, 0, 0))
    path = tmp_path / "scan.pdf"
    doc.save(path)
    return path


ZERO_PAGES = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
)


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda d: d / "missing.pdf", "no such file"),
        (lambda d: d, "is a directory"),
        (lambda d: (d / "empty.pdf").write_bytes(b"") and d / "empty.pdf" or d / "empty.pdf", "empty"),
        (lambda d: (d / "png.pdf").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64) and d / "png.pdf", "not a PDF"),
        (lambda d: (d / "zero.pdf").write_bytes(ZERO_PAGES) and d / "zero.pdf", "no pages"),
        (make_encrypted, "encrypted"),
        (make_textless, "page 2 has no usable text layer"),
    ],
    ids=["missing", "directory", "empty", "png-renamed", "zero-pages", "encrypted", "textless-page"],
)
def test_bad_documents(tmp_path, make, message):
    path = make(tmp_path)
    code, out, err = run("locate", str(path), "some quote with words")
    assert code == 2
    assert message in err and str(path) in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_encrypted_with_password_and_textless_allowed(tmp_path):
    code, out, _ = run("locate", str(make_encrypted(tmp_path)), "A secret sentence that nobody", "--password", "user")
    assert code == 0, out
    code, _, err = run("locate", str(make_encrypted(tmp_path)), "A secret sentence that nobody", "--password", "nope")
    assert code == 2 and "wrong" in err
    code, out, err = run("locate", str(make_textless(tmp_path)), "The first page has a real text", "--allow-textless-pages")
    assert code == 0 and "warning" in err and "page 2" in err


@pytest.mark.parametrize(
    "content,message",
    [
        ('{"quote": "a b c d"}\nnot json\n', "line 2: invalid JSON"),
        ('{"id": 1}\n', "line 1: 'quote' must be a string"),
        ('{"id": 1, "quote": "x y z w"}\n{"id": 1, "quote": "x y z w"}\n', "duplicate id"),
        ('{"quote": "x y z w", "cited_chunk": 99999}\n', "line 1: cited_chunk"),
    ],
)
def test_bad_quote_files(tmp_path, content, message):
    path = tmp_path / "q.jsonl"
    path.write_text(content, encoding="utf-8")
    code, _, err = run("locate", str(paper_path(V7)), "--quotes", str(path))
    assert code == 2 and message in err


def test_usage_errors_exit_2():
    assert run("locate", str(paper_path(V7)))[0] == 2
    assert run("frobnicate")[0] == 2
    assert run("locate", str(paper_path(V7)), "quote", "--preset", "lenient")[0] == 2


def test_subprocess_entry_point():
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-m", "quotelocate.interface.cli", "locate", str(paper_path(V7)), BAD, "--json"],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=120,
    )
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["cause"] == "number-changed"


def test_every_command_is_documented_in_readme():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    missing = [name for name in sub.choices if not re.search(rf"quotelocate {name}\b", readme)]
    assert not missing, f"commands not in README: {missing}"


def test_readme_library_example_holds():
    """The values the README's library example shows are what the library returns."""
    from quotelocate import Document, Locator, preset

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    locator = Locator(Document.open(paper_path(V7)), preset("recommended"))
    v = locator.locate(GOOD, cited_chunk=40)
    assert (v.accepted, v.status) == (True, "normalized")
    assert (v.pages, v.start, v.end) == ((6, 7), 18045, 18181)
    assert v.rules == ("whitespace", "layout") and v.spans == ((18045, 18117), (18121, 18181))
    for shown in ["(6, 7), 18045, 18181", "('whitespace', 'layout')", "((18045, 18117), (18121, 18181))"]:
        assert shown in readme
    miss = locator.locate(BAD)
    assert (miss.status, miss.cause) == ("not-found", "number-changed")
    assert miss.near_miss.diff_text().startswith("Our model achieves 28.[-4-]{+3+} BLEU on the WMT 2014")


def test_synth_never_overwrites_other_content(tmp_path):
    code, out, _ = run("synth", "--out", str(tmp_path))
    assert code == 0 and "synthetic.pdf" in out
    first = (tmp_path / "synthetic.pdf").read_bytes()
    assert run("synth", "--out", str(tmp_path))[0] == 0  # identical: left alone
    (tmp_path / "synthetic.yaml").write_text("my own notes\n", encoding="utf-8")
    code, _, err = run("synth", "--out", str(tmp_path))
    assert code == 2 and "not overwritten" in err
    assert (tmp_path / "synthetic.yaml").read_text(encoding="utf-8") == "my own notes\n"
    assert run("synth", "--out", str(tmp_path), "--force")[0] == 0
    assert (tmp_path / "synthetic.pdf").read_bytes() == first
    assert (tmp_path / "synthetic.yaml").read_bytes() == (REPO / "datasets" / "synthetic" / "synthetic.yaml").read_bytes()


@pytest.mark.parametrize(
    "change,message",
    [
        ({"config": {"lowercase": True}}, "line 1: config: rules: unknown field lowercase"),
        ({"chunking": {"size": "big"}}, "line 1: chunking.size"),
        ({"chunking": {"colour": 1}}, "line 1: chunking: unexpected fields"),
        ({"paper": "elsewhere.pdf"}, "line 1: paper 'elsewhere.pdf' not found"),
        ({"quote": None, "cited_chunk": 99999}, "line 1"),
    ],
)
def test_audit_bad_records_name_the_line(tmp_path, change, message):
    code, out, _ = run("locate", str(paper_path(V7)), GOOD, "--json")
    record = json.loads(out)
    record.update(change)
    if record.get("quote") is None:
        record["quote"] = GOOD
    path = tmp_path / "v.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    code, _, err = run("audit", str(path))
    assert code == 2 and message in err and "Traceback" not in err


def test_audit_notes_a_different_extraction(tmp_path):
    code, out, _ = run("locate", str(paper_path(V7)), GOOD, "--json")
    record = json.loads(out)
    assert record["extractor"]["name"] == "pymupdf" and len(record["text_sha256"]) == 64
    record["text_sha256"] = "0" * 64
    record["extractor"]["version"] = "1.23"
    path = tmp_path / "v.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    code, out, _ = run("audit", str(path))
    assert code == 0 and "extracted text differs" in out and "1.23" in out


def test_extraction_limits_from_the_command_line(tmp_path):
    import pdf_catalog

    bomb = tmp_path / "bomb.pdf"
    bomb.write_bytes(pdf_catalog.bomb_page(256, b"BT /F1 12 Tf 72 720 Td (", b") Tj ET"))
    code, out, err = run("locate", str(bomb), "any quote of enough words", "--max-memory-mb", "200")
    assert code == 2 and f"{bomb}: page 2: text extraction exceeded the memory limit of 200 MB" in err
    three = tmp_path / "three.pdf"
    three.write_bytes(pdf_catalog.text_pdf(*pdf_catalog.THREE_PAGES))
    code, out, err = run("text", str(three), "--max-pages", "2")
    assert code == 2 and "3 pages exceeds the page limit of 2" in err
    code, out, err = run("text", str(three), "--max-seconds", "0")
    assert code == 2 and "limits.seconds: expected a number greater than 0" in err
    assert err.count("\n") == 1  # one line, no traceback


def test_the_run_store_option_is_store_and_db_still_works(tmp_path):
    store = tmp_path / "runs.sqlite3"
    code, out, err = run("runs", "--store", str(store))
    assert code == 0 and "deprecated" not in err
    code, out, err = run("runs", "--db", str(store))
    assert code == 0 and "--db is deprecated; use --store" in err
    code, _, err = run("runs", "--db", str(store), "--store", str(tmp_path / "other.sqlite3"))
    assert code == 2 and "name different run stores" in err
