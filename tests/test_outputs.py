"""The outputs-file reader: a pipeline's quotes as JSON lines or CSV, validated, with
every problem named by file and line."""

from __future__ import annotations

import json

import pytest

from quotelocate.data.outputs import OutputRecord, read_outputs
from quotelocate.errors import QuoteInputError


def _jsonl(tmp_path, rows, name="out.jsonl"):
    p = tmp_path / name
    p.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return p


def test_jsonl_records_in_file_order_with_optional_fields(tmp_path):
    p = _jsonl(tmp_path, [
        {"paper": "a.pdf", "quote": "one two three four", "cited_chunk": 2, "id": "q1", "label": "faithful",
         "model": "ignored extra field"},
        "",
        {"paper": "b.pdf", "quote": "five six seven", "id": 7, "label": None, "cited_chunk": None},
    ])
    assert read_outputs(p) == [
        OutputRecord("a.pdf", "one two three four", 2, "q1", "faithful", 1),
        OutputRecord("b.pdf", "five six seven", None, "7", None, 3),
    ]
    assert read_outputs(p)[1].key == "7"


def test_csv_records_with_quoted_newlines_and_empty_cells(tmp_path):
    p = tmp_path / "out.csv"
    p.write_text('\ufeffpaper,quote,cited_chunk,label,id\n'
                 'a.pdf,"a quote, with a comma\nand a line break",,,\n'
                 'a.pdf,plain quote here,4,fabricated,x\n', encoding="utf-8")
    recs = read_outputs(p)
    assert recs == [
        OutputRecord("a.pdf", "a quote, with a comma\nand a line break", None, "", None, 2),
        OutputRecord("a.pdf", "plain quote here", 4, "x", "fabricated", 4),
    ]
    assert recs[0].key == "line 2"  # the line the record starts on


def test_format_is_sniffed_when_the_suffix_says_nothing(tmp_path):
    j = _jsonl(tmp_path, [{"paper": "a.pdf", "quote": "q"}], name="out.txt")
    c = tmp_path / "out.dat"
    c.write_text("paper,quote\na.pdf,q\n", encoding="utf-8")
    assert read_outputs(j) == [OutputRecord("a.pdf", "q", line=1)]
    assert read_outputs(c) == [OutputRecord("a.pdf", "q", line=2)]


@pytest.mark.parametrize("row, message", [
    ({"quote": "q"}, "line 2: 'paper' is required"),
    ({"paper": "../a.pdf", "quote": "q"}, "line 2: 'paper' must be a bare file name"),
    ({"paper": "a.pdf"}, "line 2: 'quote' must be a string (missing)"),
    ({"paper": "a.pdf", "quote": 3}, "line 2: 'quote' must be a string (a int)"),
    ({"paper": "a.pdf", "quote": "q", "cited_chunk": -1}, "line 2: 'cited_chunk' must be a whole number"),
    ({"paper": "a.pdf", "quote": "q", "cited_chunk": True}, "line 2: 'cited_chunk' must be a whole number"),
    ({"paper": "a.pdf", "quote": "q", "cited_chunk": "3"}, "line 2: 'cited_chunk' must be a whole number"),
    ({"paper": "a.pdf", "quote": "q", "label": "Faithful"}, "line 2: 'label' must be one of faithful, fabricated"),
    ({"paper": "a.pdf", "quote": "q", "id": [1]}, "line 2: 'id' must be a string"),
    ({"paper": "a.pdf", "quote": "q", "id": "q1"}, "line 2: id 'q1' is used again (first on line 1)"),
    ("[1, 2]", "line 2: expected a JSON object"),
    ("{not json", "line 2: invalid JSON"),
])
def test_bad_jsonl_line_is_named(tmp_path, row, message):
    p = _jsonl(tmp_path, [{"paper": "a.pdf", "quote": "q", "id": "q1"}, row])
    with pytest.raises(QuoteInputError) as exc:
        read_outputs(p)
    assert str(exc.value).startswith(f"{p}: {message}")


@pytest.mark.parametrize("text, message", [
    ("paper,text\na.pdf,q\n", "line 1: the header has no 'quote' column"),
    ("paper,quote,quote\na.pdf,q,r\n", "line 1: the header names 'quote' twice"),
    ("paper,quote\na.pdf,q\na.pdf,q,extra\n", "line 3: 3 cells, but the header names 2 columns"),
    ("paper,quote,cited_chunk\na.pdf,q,\na.pdf,q,2.5\n", "line 3: 'cited_chunk' must be a whole number from 0, not '2.5'"),
    ("paper,quote,label\na.pdf,q,maybe\n", "line 2: 'label' must be one of faithful, fabricated"),
    ("paper,quote\na.pdf\n", "line 2: 'quote' must be a string (missing)"),
    ('paper,quote\na.pdf,"unterminated\n', "line 2: not valid CSV (unexpected end of data)"),
    ("paper,quote\n", "no records"),
    ("", "no records"),
])
def test_bad_csv_line_is_named(tmp_path, text, message):
    p = tmp_path / "out.csv"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(QuoteInputError) as exc:
        read_outputs(p)
    assert str(exc.value).startswith(f"{p}: {message}")


def test_unreadable_files_are_named(tmp_path):
    with pytest.raises(QuoteInputError, match="no such file"):
        read_outputs(tmp_path / "missing.jsonl")
    with pytest.raises(QuoteInputError, match="is a directory"):
        read_outputs(tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"paper,quote\na.pdf,caf\xe9\n")
    with pytest.raises(QuoteInputError, match=r"bad.csv: line 2: not valid UTF-8"):
        read_outputs(bad)
