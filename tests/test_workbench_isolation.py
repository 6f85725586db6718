"""One session's upload never stalls another's: the workbench evaluates uploaded sets in
a worker process. Here, in-process (AppTest): an upload holding a 100,000-character
quote goes through the worker and a bundled set does not. End to end, with a real
``streamlit run``: ``tests/test_browser.py::test_a_second_session_stays_responsive_while_a_long_quote_is_evaluated``."""

from __future__ import annotations

from pathlib import Path

import yaml
from streamlit.testing.v1 import AppTest

from quotelocate.interface import workbench

REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")
SYNTH_YAML = REPO / "datasets" / "synthetic" / "synthetic.yaml"
SYNTH_PDF = REPO / "datasets" / "synthetic" / "synthetic.pdf"


def long_quote_set(n: int = 100_000) -> bytes:
    data = yaml.safe_load(SYNTH_YAML.read_text(encoding="utf-8"))
    data["name"] = "long-quote"
    text = ("the model attends to every position of the sequence at once " * (n // 40 + 1))[:n]
    data["quotes"].append({"id": "long", "text": text, "label": "fabricated", "tags": ["invented-tail"]})
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=10**9).encode("utf-8")


def test_uploads_are_evaluated_in_the_worker_and_bundled_sets_are_not(tmp_path, monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_RUNS", str(tmp_path / "runs.sqlite3"))
    monkeypatch.chdir(REPO)
    calls = []
    real = workbench.evaluate_upload

    def counting(request, **kwargs):
        calls.append(request)
        return real(request, **kwargs)

    monkeypatch.setattr(workbench, "evaluate_upload", counting)
    at = AppTest.from_file(APP, default_timeout=300).run()
    assert not at.exception and not calls
    at.selectbox(key="set").select("upload").run()
    at.get("file_uploader")[0].set_value(("quotes.yaml", long_quote_set(), "application/yaml"))
    at.get("file_uploader")[1].set_value(("paper.pdf", SYNTH_PDF.read_bytes(), "application/pdf"))
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert len(calls) == 1 and calls[0].set_path.endswith(workbench.SET_FILE)
    assert any(m.label == "False-accept rate" for m in at.metric)
