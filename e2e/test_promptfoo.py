"""The shipped promptfoo assertion, run end to end by the real promptfoo CLI (``make e2e``).

promptfoo comes from the npm registry, pinned in ``integrations/promptfoo/package.json``
(``npm ci`` there installs it); its python assertions run in ``$PROMPTFOO_PYTHON``, the
Python that has quotelocate. The sample config uses promptfoo's ``echo`` provider, so
no model is called: each test's answer stands for a model's output.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
HERE = REPO / "integrations" / "promptfoo"
PROMPTFOO = HERE / "node_modules" / ".bin" / "promptfoo"


def _run_promptfoo(tmp_path: Path, config: Path) -> tuple[subprocess.CompletedProcess, dict]:
    assert PROMPTFOO.exists(), f"{PROMPTFOO} missing: run `npm ci` in {HERE} (make e2e does)"
    out = tmp_path / "results.json"
    env = {
        **os.environ,
        "PROMPTFOO_PYTHON": os.environ.get("PROMPTFOO_PYTHON", sys.executable),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH", "")])),
        "PROMPTFOO_DISABLE_TELEMETRY": "1",
        "PROMPTFOO_DISABLE_UPDATE": "1",
        "PROMPTFOO_CONFIG_DIR": str(tmp_path / "promptfoo-home"),  # its database, not the user's
    }
    proc = subprocess.run(
        [str(PROMPTFOO), "eval", "-c", str(config), "-o", str(out), "--no-cache", "--no-progress-bar", "--no-share"],
        cwd=config.parent, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert out.exists(), f"promptfoo wrote no results (exit {proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc, json.loads(out.read_text(encoding="utf-8"))


def _by_description(results: dict) -> dict[str, dict]:
    return {r["testCase"]["description"]: r for r in results["results"]["results"]}


def test_sample_config_passes_faithful_quotes_and_fails_invented_ones(tmp_path):
    proc, results = _run_promptfoo(tmp_path, HERE / "promptfooconfig.yaml")
    assert proc.returncode == 100, proc.stderr[-3000:]  # promptfoo's exit code when some test failed
    rows = _by_description(results)
    assert sorted(rows) == sorted(
        ["faithful quote across a page break", "two faithful quotes, curly marks", "invented number", "no quote at all"]
    )
    for name, passed in [
        ("faithful quote across a page break", True),
        ("two faithful quotes, curly marks", True),
        ("invented number", False),
        ("no quote at all", False),
    ]:
        assert rows[name]["success"] is passed, (name, rows[name]["gradingResult"])
    component = lambda name: rows[name]["gradingResult"]["componentResults"][0]  # noqa: E731
    assert "page 6-7 (normalized)" in component("faithful quote across a page break")["reason"]
    assert component("two faithful quotes, curly marks")["reason"].startswith("2 of 2 quote(s) found")
    invented = component("invented number")
    assert invented["score"] == 0 and "(cause: number-changed)" in invented["reason"]
    assert "28.[-4-]{+3+} BLEU" in invented["reason"]
    assert "0 quoted passage(s) in the output" in component("no quote at all")["reason"]
    # every quote's verdict comes back through promptfoo in the published schema form, and
    # promptfoo lists one result per quote beside the assertion's own
    import jsonschema

    from quotelocate.schema import load_schema

    validator = jsonschema.Draft202012Validator(load_schema("verdict"))
    curly = rows["two faithful quotes, curly marks"]["gradingResult"]["componentResults"]
    records = curly[0]["metadata"]["verdicts"]
    assert [r["accepted"] for r in records] == [True, True] and records[1]["quote"] == "The Transformer follows this overall architecture"
    assert [c["metadata"]["verdict"] for c in curly[1:]] == records
    crossing = component("faithful quote across a page break")["metadata"]["verdicts"][0]
    assert (crossing["status"], crossing["pages"]) == ("normalized", [6, 7])
    assert invented["metadata"]["verdicts"][0]["cause"] == "number-changed"
    for row in rows.values():
        for record in row["gradingResult"]["componentResults"][0]["metadata"]["verdicts"]:
            assert [e.message for e in validator.iter_errors(record)] == []


def test_a_bad_option_fails_with_a_reason_naming_it(tmp_path):
    shutil.copy(HERE / "quotelocate_assert.py", tmp_path / "quotelocate_assert.py")
    (tmp_path / "promptfooconfig.yaml").write_text(
        """
prompts: ["{{answer}}"]
providers: [echo]
tests:
  - description: missing paper
    vars: {answer: 'It says "the Transformer follows this overall architecture".'}
    assert:
      - type: python
        value: file://quotelocate_assert.py
        config: {paper: no-such-paper.pdf}
  - description: misspelled option
    vars: {answer: 'It says "the Transformer follows this overall architecture".'}
    assert:
      - type: python
        value: file://quotelocate_assert.py
        config: {paper: 1706.03762v7.pdf, rule: exact}
""",
        encoding="utf-8",
    )
    proc, results = _run_promptfoo(tmp_path, tmp_path / "promptfooconfig.yaml")
    rows = _by_description(results)
    missing = rows["missing paper"]["gradingResult"]["componentResults"][0]
    assert not missing["pass"] and "no-such-paper.pdf: no such file here nor on the papers search path" in missing["reason"]
    misspelled = rows["misspelled option"]["gradingResult"]["componentResults"][0]
    assert not misspelled["pass"] and "unknown option(s) rule" in misspelled["reason"]
