"""The published JSON Schemas: real command-line output and the bundled quote sets
validate against them, broken records do not, and their enums are the package's own."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from quotelocate.diagnose import CAUSES
from quotelocate.interface.cli import main
from quotelocate.interface.schema_commands import SCHEMA_CHOICES
from quotelocate.locate import SCOPES, STATUSES, VERDICT_CAUSES
from quotelocate.normalize import FLAG_NAMES, Rules
from quotelocate.data.quoteset import BUNDLED_SETS, FABRICATED_TAGS, FAITHFUL_TAGS, READINGS, SPAN_KINDS
from quotelocate.schema import SCHEMA_NAMES, load_schema

from conftest import paper_path

REPO = Path(__file__).resolve().parent.parent
DATASETS = REPO / "datasets"


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = load_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def errors(name: str, instance) -> list[str]:
    return [e.message for e in validator(name).iter_errors(instance)]


def _cli_batch(tmp_path: Path, paper: Path, set_file: Path, extra: list[dict], *flags: str) -> list[dict]:
    """Run the real command line as a subprocess on every quote of a bundled set."""
    data = yaml.safe_load(set_file.read_text(encoding="utf-8"))
    lines = [{"id": q["id"], "quote": q["text"], "cited_chunk": q.get("cited_chunk")} for q in data["quotes"]] + extra
    quotes = tmp_path / "quotes.jsonl"
    quotes.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "quotelocate", "locate", str(paper), "--quotes", str(quotes), "--json", *flags],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr  # the sets hold fabricated quotes, so some are rejected
    records = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["id"] for r in records] == [x["id"] for x in lines]
    return records


@pytest.mark.parametrize("set_name", ["attention-v7", "synthetic"])
def test_real_batch_output_validates(tmp_path, set_name):
    set_file = DATASETS / BUNDLED_SETS[set_name]
    paper = paper_path("1706.03762v7.pdf") if set_name == "attention-v7" else DATASETS / "synthetic" / "synthetic.pdf"
    extra = [{"id": "too-short", "quote": "two words"}, {"id": 7, "quote": ""}]
    records = _cli_batch(tmp_path, paper, set_file, extra)
    batch, verdict = validator("batch-line"), validator("verdict")
    for record in records:
        assert not list(batch.iter_errors(record)), (record["id"], [e.message for e in batch.iter_errors(record)])
        bare = {k: v for k, v in record.items() if k not in ("config", "paper", "chunking", "version", "extractor", "text_sha256")}
        assert not list(verdict.iter_errors(bare)), record["id"]
    # the output covers every kind of verdict, so the schema's branches are all exercised
    statuses = {r["status"] for r in records}
    assert {"exact", "normalized", "not-found", "invalid"} <= statuses
    assert any(r["near_miss"] for r in records) and any(r["boxes"] for r in records)
    if set_name == "attention-v7":
        assert {"group-fallback", "outside-material"} <= statuses


def test_langextract_output_validates(tmp_path):
    records = _cli_batch(tmp_path, DATASETS / "synthetic" / "synthetic.pdf", DATASETS / "synthetic" / "synthetic.yaml",
                         [], "--langextract")  # fmt: skip
    batch = validator("batch-line")
    for record in records:
        assert not list(batch.iter_errors(record)), record["id"]
        if record["accepted"]:
            assert record["char_interval"] == {"start_pos": record["start"], "end_pos": record["end"]}
            assert record["alignment_status"] == ("match_fuzzy" if record["rules"] else "match_exact")
        else:
            assert record["char_interval"] is None and record["alignment_status"] is None
    assert {r["alignment_status"] for r in records} == {"match_exact", "match_fuzzy", None}
    code, _, err = _run_main("locate", str(DATASETS / "synthetic" / "synthetic.pdf"), "a quote here", "--langextract")
    assert code == 2 and "--langextract needs --json" in err


def _run_main(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out=out, err=err), out.getvalue(), err.getvalue()


def test_broken_records_are_refused(tmp_path):
    records = _cli_batch(tmp_path, DATASETS / "synthetic" / "synthetic.pdf", DATASETS / "synthetic" / "synthetic.yaml", [])
    good = next(r for r in records if r["near_miss"])
    assert errors("batch-line", good) == []
    mutations = {
        "unknown status": lambda r: r.update(status="probably"),
        "missing fingerprint": lambda r: r.pop("fingerprint"),
        "unknown field": lambda r: r.update(score=0.9),
        "unknown rule": lambda r: r.update(rules=["lowercase"]),
        "page 0": lambda r: r.update(page=0),
        "negative offset": lambda r: r.update(start=-1),
        "short box": lambda r: r.update(boxes=[[1, 0.0, 0.0, 1.0]]),
        "bad sha256": lambda r: r.update(text_sha256="abc"),
        "unknown config field": lambda r: r["config"].update(lowercase=True),
        "near miss without diff": lambda r: r["near_miss"].pop("diff"),
        "char_interval without end": lambda r: r.update(char_interval={"start_pos": 3}),
        "made-up alignment": lambda r: r.update(alignment_status="match_lesser"),
    }
    for what, mutate in mutations.items():
        bad = copy.deepcopy(good)
        mutate(bad)
        assert errors("batch-line", bad), what


@pytest.mark.parametrize("set_name", sorted(BUNDLED_SETS))
def test_bundled_quote_sets_validate(set_name):
    target = DATASETS / BUNDLED_SETS[set_name]
    files = sorted(target.glob("*.yaml")) if target.is_dir() else [target]  # a folder of sets: each file
    assert files
    for file in files:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        assert errors("quote-set", data) == [], file.name


def test_broken_quote_sets_are_refused():
    data = yaml.safe_load((DATASETS / "synthetic" / "synthetic.yaml").read_text(encoding="utf-8"))
    faithful = next(i for i, q in enumerate(data["quotes"]) if q["label"] == "faithful")
    fabricated = next(i for i, q in enumerate(data["quotes"]) if q["label"] == "fabricated")
    mutations = {
        "format 2": lambda d: d.update(format=2),
        "upper-case name": lambda d: d.update(name="Synthetic"),
        "paper in a folder": lambda d: d["paper"].update(file="../x.pdf"),
        "faithful without anchor": lambda d: d["quotes"][faithful].pop("anchor"),
        "fabricated with anchor": lambda d: d["quotes"][fabricated].update(anchor={"page": 1, "start": 0, "end": 1, "text": "x"}),
        "fabrication tag on a faithful quote": lambda d: d["quotes"][faithful].update(tags=["number"]),
        "no tags": lambda d: d["quotes"][faithful].update(tags=[]),
        "bad id": lambda d: d["quotes"][faithful].update(id="has space"),
        "no quotes": lambda d: d.update(quotes=[]),
        "file and size": lambda d: d.update(chunking={"file": "c.jsonl", "size": 10}),
    }
    for what, mutate in mutations.items():
        bad = copy.deepcopy(data)
        mutate(bad)
        assert errors("quote-set", bad), what


def test_schema_enums_are_the_packages_own():
    fields = load_schema("verdict")["$defs"]["fields"]["properties"]
    assert tuple(fields["status"]["enum"]) == STATUSES
    assert tuple(fields["scope"]["enum"]) == SCOPES
    assert set(fields["rules"]["items"]["enum"]) == set(FLAG_NAMES.values())
    assert set(CAUSES) <= set(VERDICT_CAUSES)
    assert set(VERDICT_CAUSES) | {None} == set(fields["cause"]["enum"])
    config = load_schema("batch-line")["properties"]["config"]
    assert set(config["properties"]) == {f.name for f in dataclasses.fields(Rules)}
    assert set(config["required"]) <= set(Rules().to_dict())
    qs = load_schema("quote-set")["$defs"]
    assert tuple(qs["faithfulTag"]["enum"]) == FAITHFUL_TAGS and tuple(qs["fabricatedTag"]["enum"]) == FABRICATED_TAGS
    allow = qs["quote"]["properties"]["allow"]["properties"]
    assert tuple(allow["spans"]["items"]["properties"]["kind"]["enum"]) == SPAN_KINDS
    assert tuple(allow["readings"]["items"]["enum"]) == READINGS
    assert SCHEMA_CHOICES == SCHEMA_NAMES


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_command_prints_the_schema(name):
    out, err = io.StringIO(), io.StringIO()
    assert main(["schema", name], out=out, err=err) == 0
    printed = json.loads(out.getvalue())
    assert printed == load_schema(name)
    jsonschema.Draft202012Validator.check_schema(printed)
    assert printed["$id"] == f"urn:quotelocate:schema:{name}"


def test_schema_command_refuses_unknown_names_and_stays_light():
    out, err = io.StringIO(), io.StringIO()
    assert main(["schema", "verdicts"], out=out, err=err) == 2 and "invalid choice" in err.getvalue()
    probe = (
        "import sys, io\n"
        "from quotelocate.interface.cli import main\n"
        "for argv in (['--help'], ['schema', 'verdict']):\n"
        "    try:\n"
        "        main(argv, out=io.StringIO(), err=io.StringIO())\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted(m for m in ('pymupdf', 'numpy', 'pandas', 'starlette', 'uvicorn', 'jsonschema') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "[]"
