"""No traceback from input: every malformed line exits 2 with one line naming the file
and line before any verdict is written; ``--keep-going`` writes error records instead;
an internal error exits 3, never 1; what ``locate --json`` writes, ``locate --quotes``
and ``audit`` read back, whatever Unicode the quotes hold."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from quotelocate.interface.cli import main
from quotelocate.locate import Locator

REPO = Path(__file__).resolve().parent.parent
PAPER_TEXT = (
    "Attention is all you need for translation, the authors claim in their paper.\n"
    "We report results on two machine translation tasks and on parsing.\u2028"
    "A line separator, a paragraph separator\u2029 and a next line\u0085 sit inside this text.\n"
)
GOOD = "We report results on two machine translation tasks"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def paper(tmp_path) -> Path:
    path = tmp_path / "paper.txt"
    path.write_text(PAPER_TEXT, encoding="utf-8")
    return path


DEEP = "[" * 100_000 + "]" * 100_000
BAD_LINES = {
    "lone-surrogate": ('{"id": 3, "quote": "abc \\ud800 def ghi jkl"}', "line 3: lone surrogate \\ud800"),
    "huge-integer-id": ('{"id": ' + "9" * 5000 + ', "quote": "We report results on two"}', "line 3: invalid JSON (a number has too many digits)"),
    "deep-array": ('{"id": 3, "quote": ' + DEEP + "}", "line 3: nested deeper than 64 levels"),
    "deep-array-alone": (DEEP, "line 3: nested deeper than 64 levels"),
    "quote-wrong-type": ('{"id": 3, "quote": ["a", "b"]}', "line 3: 'quote' must be a string"),
    "id-wrong-type": ('{"id": {"a": 1}, "quote": "We report results on two"}', "line 3: 'id' must be a string or integer"),
    "cited-chunk-out-of-range": ('{"id": 3, "quote": "We report results on two", "cited_chunk": 7}', "line 3: cited_chunk 7 is not a chunk index (0..0)"),
    "cited-chunk-negative": ('{"id": 3, "quote": "We report results on two", "cited_chunk": -1}', "line 3: cited_chunk -1 is not a chunk index"),
    "cited-chunk-huge": ('{"id": 3, "quote": "We report results on two", "cited_chunk": ' + "7" * 4000 + "}", "line 3: cited_chunk 777"),
}


def _batch(tmp_path: Path, bad: str) -> Path:
    path = tmp_path / "q.jsonl"
    good = [json.dumps({"id": i, "quote": GOOD}) for i in (1, 2)]
    path.write_text("\n".join([*good, bad]) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("name", list(BAD_LINES))
@pytest.mark.parametrize("as_json", [False, True])
def test_a_bad_line_exits_2_naming_file_and_line_before_any_verdict(tmp_path, paper, name, as_json):
    bad, message = BAD_LINES[name]
    path = _batch(tmp_path, bad)
    code, out, err = run("locate", str(paper), "--quotes", str(path), *(["--json"] if as_json else []))
    assert code == 2
    assert out == ""  # the two good lines before it were not answered
    assert err.count("\n") == 1 and str(path) in err and message in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", list(BAD_LINES))
def test_keep_going_writes_an_error_record_and_still_exits_2(tmp_path, paper, name):
    bad, message = BAD_LINES[name]
    path = _batch(tmp_path, bad)
    code, out, err = run("locate", str(paper), "--quotes", str(path), "--json", "--keep-going")
    assert code == 2 and err == ""
    records = [json.loads(line) for line in out.split("\n") if line]
    assert [r.get("accepted") for r in records[:2]] == [True, True]
    assert set(records[2]) == {"id", "error"} and message in records[2]["error"]
    assert records[2]["id"] == 3  # the record's id where it is usable, else its line (also 3)
    code, out, _ = run("locate", str(paper), "--quotes", str(path), "--keep-going")
    assert code == 2 and f"ERROR: {path}: line 3" in out


def test_a_quote_argument_that_is_not_utf8_exits_2():
    env = dict(os.environ, PYTHONPATH=str(REPO))
    paper = REPO / "tests" / "cases" / "README.md"
    proc = subprocess.run(
        [sys.executable, "-m", "quotelocate", "locate", str(paper), b"We report \xff\xfe results on two", "--json"],
        capture_output=True, env=env, cwd=REPO, timeout=120,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == b""
    assert b"not valid UTF-8" in proc.stderr and b"Traceback" not in proc.stderr


def test_an_internal_error_exits_3_with_a_hint_to_report_it(paper, monkeypatch):
    def broken(self, *args, **kwargs):
        raise RuntimeError("an invariant does not hold")

    monkeypatch.setattr(Locator, "locate", broken)
    code, out, err = run("locate", str(paper), GOOD)
    assert code == 3
    assert err.count("\n") == 1 and "internal error (RuntimeError: an invariant does not hold)" in err
    assert "please report it" in err and "Traceback" not in err


def test_control_characters_from_quotes_are_escaped_in_text_output(paper):
    code, out, _ = run("locate", str(paper), "We report \x1b[31mresults\x1b[0m on two machine \x07 tasks")
    assert code == 1
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b[31m" in out


def test_line_and_paragraph_separators_round_trip(tmp_path, paper):
    quotes = ["A line separator, a paragraph separator\u2029 and a next line\u0085 sit",
              "two machine translation tasks and on parsing.\u2028A line separator"]
    path = tmp_path / "q.jsonl"
    path.write_text("".join(json.dumps({"id": i, "quote": q}, ensure_ascii=False) + "\n" for i, q in enumerate(quotes)),
                    encoding="utf-8")
    code, out, err = run("locate", str(paper), "--quotes", str(path), "--json", "--preset", "exact")
    assert code == 0, err
    stored = tmp_path / "verdicts.jsonl"
    stored.write_text(out, encoding="utf-8")
    assert [json.loads(line)["quote"] for line in out.split("\n") if line] == quotes
    code, again, err = run("locate", str(paper), "--quotes", str(stored), "--json", "--preset", "exact")
    assert (code, again) == (0, out), err
    code, report, err = run("audit", str(stored), "--paper", str(paper))
    assert code == 0 and "audited 2 verdicts: 0 differ" in report, report + err


QUOTES = st.one_of(
    st.text(min_size=1, max_size=80),
    st.sampled_from(["We report results on two", "translation tasks and on parsing.\u2028A line"]).flatmap(
        lambda base: st.text(max_size=4).map(lambda extra: base + extra)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(QUOTES, min_size=1, max_size=8))
@example(["\u2028\u2029\u0085\x1c\x1d\x1e\x0b\x0c", "We report results on two\r"])
def test_arbitrary_unicode_quotes_survive_locate_json_and_audit(tmp_path_factory, quotes):
    tmp = tmp_path_factory.mktemp("rt")
    paper = tmp / "paper.txt"
    paper.write_text(PAPER_TEXT, encoding="utf-8")
    path = tmp / "q.jsonl"
    path.write_text("".join(json.dumps({"id": i, "quote": q}, ensure_ascii=False) + "\n" for i, q in enumerate(quotes)),
                    encoding="utf-8")
    code, out, err = run("locate", str(paper), "--quotes", str(path), "--json", "--keep-going")
    if any("\ud800" <= c <= "\udfff" for q in quotes for c in q):
        assert code == 2
        return
    assert code in (0, 1), err
    records = [json.loads(line) for line in out.split("\n") if line]
    assert [r["quote"] for r in records] == quotes
    stored = tmp / "verdicts.jsonl"
    stored.write_text(out, encoding="utf-8")
    code, report, err = run("audit", str(stored), "--paper", str(paper))
    assert code == 0 and f"audited {len(quotes)} verdicts: 0 differ" in report, report + err
