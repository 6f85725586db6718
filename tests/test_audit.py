"""The audit compares every field of a stored verdict the rules determine and names the
fields that differ; a signed verdict file detects a weakened config whose fingerprint
was recomputed, which a fingerprint alone cannot."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from quotelocate.evaluation.audit import COMPARED
from quotelocate.interface.cli import main
from quotelocate.normalize import Rules

PAPER_TEXT = (
    "Attention is all you need for translation, the authors claim in their paper.\n"
    "We report results on two machine translation tasks and on parsing.\n"
)
QUOTES = ["We report results on two machine translation tasks", "We report results on three translation tasks"]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def files(tmp_path) -> tuple[Path, Path]:
    paper = tmp_path / "paper.txt"
    paper.write_text(PAPER_TEXT, encoding="utf-8")
    quotes = tmp_path / "q.jsonl"
    quotes.write_text("".join(json.dumps({"id": i, "quote": q}) + "\n" for i, q in enumerate(QUOTES)), encoding="utf-8")
    return paper, quotes


def _locate(paper: Path, quotes: Path, *extra: str) -> list[dict]:
    code, out, err = run("locate", str(paper), "--quotes", str(quotes), "--json", *extra)
    assert code == 1, err  # the second quote is rejected
    return [json.loads(line) for line in out.split("\n") if line]


def _audit(tmp_path: Path, paper: Path, records: list[dict], *extra: str) -> tuple[int, str, str]:
    stored = tmp_path / "verdicts.jsonl"
    stored.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return run("audit", str(stored), "--paper", str(paper), *extra)


TAMPER = {
    "accepted": lambda r: not r["accepted"],
    "status": lambda r: "normalized",
    "cause": lambda r: "word-changed",
    "page": lambda r: 2,
    "pages": lambda r: [1, 2],
    "start": lambda r: r["start"] + 1,
    "end": lambda r: r["end"] - 1,
    "spans": lambda r: [[r["start"], r["end"] - 5], [r["end"] - 3, r["end"]]],
    "rules": lambda r: ["whitespace"],
    "occurrences": lambda r: 2,
    "scope": lambda r: "group",
}


def test_every_field_the_rules_determine_is_compared():
    assert set(TAMPER) == set(COMPARED)


@pytest.mark.parametrize("name", list(TAMPER))
def test_a_tampered_field_is_named(tmp_path, files, name):
    paper, quotes = files
    records = _locate(paper, quotes)
    code, out, _ = _audit(tmp_path, paper, records)
    assert code == 0 and "audited 2 verdicts: 0 differ" in out
    records[0][name] = TAMPER[name](records[0])
    code, out, _ = _audit(tmp_path, paper, records)
    assert code == 1
    assert f"[line 1, id 0] {name}: stored {records[0][name]!r}" in out
    assert f"fields that differ: {name} (1)" in out
    assert "audited 2 verdicts: 1 differ" in out


def test_a_missing_field_is_a_difference(tmp_path, files):
    paper, quotes = files
    records = _locate(paper, quotes)
    del records[1]["cause"]
    code, out, _ = _audit(tmp_path, paper, records, "--json")
    assert code == 1 and "[line 2, id 1] cause: stored '(missing)', now 'word-changed'" in out
    assert json.loads(out.strip().split("\n")[-1])["fields"] == ["cause"]


def _weaken(record: dict) -> None:
    """A config without word boundaries, its fingerprint recomputed to match."""
    record["config"]["word_boundaries"] = False
    record["fingerprint"] = Rules.from_dict(record["config"]).fingerprint


def test_a_weakened_config_with_a_recomputed_fingerprint_is_caught_only_by_a_signature(tmp_path, files):
    paper, quotes = files
    key = tmp_path / "key"
    key.write_text("pipeline secret\n", encoding="utf-8")
    records = _locate(paper, quotes, "--sign-key-file", str(key))
    assert all(r["signature"].startswith("hmac-sha256:") for r in records)
    code, out, _ = _audit(tmp_path, paper, records, "--verify-key-file", str(key))
    assert code == 0 and "0 differ" in out
    _weaken(records[0])
    # the fingerprint only proves which rules were used: unsigned, the audit agrees
    code, out, _ = _audit(tmp_path, paper, records)
    assert code == 0 and "0 differ" in out
    code, out, _ = _audit(tmp_path, paper, records, "--verify-key-file", str(key))
    assert code == 1 and "[line 1, id 0] signature:" in out and "1 differ" in out
    other = tmp_path / "other-key"
    other.write_text("someone else", encoding="utf-8")
    code, out, _ = _audit(tmp_path, paper, _locate(paper, quotes, "--sign-key-file", str(key)), "--verify-key-file", str(other))
    assert code == 1 and "2 differ" in out
    code, out, _ = _audit(tmp_path, paper, _locate(paper, quotes), "--verify-key-file", str(key))
    assert code == 1 and "signature: stored None" in out  # unsigned records are refused


def test_key_file_problems_are_input_errors(tmp_path, files):
    paper, quotes = files
    code, out, err = run("locate", str(paper), "--quotes", str(quotes), "--json", "--sign-key-file", str(tmp_path / "nope"))
    assert code == 2 and out == "" and "nope: no such key file" in err
    empty = tmp_path / "empty"
    empty.write_text("\n", encoding="utf-8")
    code, out, err = run("locate", str(paper), "--quotes", str(quotes), "--json", "--sign-key-file", str(empty))
    assert code == 2 and "the key file is empty" in err
    code, _, err = run("locate", str(paper), "--quotes", str(quotes), "--sign-key-file", str(empty))
    assert code == 2 and "add --json" in err


def test_error_records_of_keep_going_are_noted_not_audited(tmp_path, files):
    paper, quotes = files
    records = _locate(paper, quotes)
    records.insert(1, {"id": 9, "error": "q.jsonl: line 2: invalid JSON"})
    code, out, _ = _audit(tmp_path, paper, records)
    assert code == 0 and "note: line 2 is an input error record" in out and "audited 2 verdicts: 0 differ" in out
