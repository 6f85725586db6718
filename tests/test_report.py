"""The HTML report is one self-contained offline file, escapes every piece of user and
document text, and carries the run's provenance; ``quotelocate report`` writes it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from quotelocate import PRESETS
from quotelocate.evaluation import report
from quotelocate.interface.cli import main as cli_main
from quotelocate.data.quoteset import Anchor, Quote, QuoteSet
from quotelocate.document import Document
from quotelocate.evaluation import Evaluation, SavingsAssumptions, evaluate
from quotelocate.evaluation.runstore import RunStore

REPO = Path(__file__).resolve().parent.parent

INJECTIONS = (
    "<img src=x onerror=alert(1)> is what the authors wrote",
    "the cost is $x$ and **bold** [link](http://example.com) <script>alert(2)</script>",
    "a quote that closes </td></table><iframe src=http://evil.example>",
)
EVIL_CONFIG = "<b onmouseover=alert(3)>evil</b>"

TEXT = (
    "Attention is all you\nneed, the authors wrote in their paper.\n"
    "The model uses trans-\nduction and the \u2018making\u2019 step on every page.\f"
    "A second page explains <tags> & ampersands literally for the reader."
)


@pytest.fixture(scope="module")
def evaluation() -> Evaluation:
    doc = Document.from_text(TEXT, name="paper<1>.txt")
    quotes = [
        Quote(id="f1", text="Attention is all you need", label="faithful", tags=("linebreak",),
              anchor=Anchor(page=1, start=0, end=25, text="Attention is all you\nneed")),
        Quote(id="f2", text="explains <tags> & ampersands literally", label="faithful", tags=("plain",),
              anchor=Anchor(page=2, start=TEXT.index("explains"), end=TEXT.index("explains") + 38,
                            text="explains <tags> & ampersands literally")),
    ]
    quotes += [Quote(id=f"x{i}", text=t, label="fabricated", tags=("invented-tail",)) for i, t in enumerate(INJECTIONS)]
    qs = QuoteSet.from_quotes(quotes, document=doc, name="injection")
    configs = {"exact": PRESETS["exact"], EVIL_CONFIG: PRESETS["recommended"]}
    return evaluate(qs, configs, repeats=1, ablation=True, savings=SavingsAssumptions(baseline="exact", target=0.3))


@pytest.fixture(scope="module")
def page(evaluation) -> str:
    return report.render_html(evaluation)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parse(html_text: str) -> _Collector:
    c = _Collector()
    c.feed(html_text)
    c.close()
    return c


def test_no_script_and_no_network(page):
    assert '<script src="http' not in page
    assert "<script" not in page.lower()  # charts are inline SVG: no JavaScript at all
    parsed = parse(page)
    tags = {t for t, _ in parsed.tags}
    assert "script" not in tags and "iframe" not in tags and "link" not in tags
    for tag, attrs in parsed.tags:
        for name in ("src", "href", "xlink:href", "data", "action", "srcset"):
            value = (attrs.get(name) or "").strip().lower()
            assert not value.startswith(("http:", "https:", "//", "javascript:")), (tag, name, value)
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
    assert "@import" not in page
    assert all(page[m + 4] == "#" for m in _find_all(page, "url("))  # only in-document SVG references


def _find_all(text: str, needle: str) -> list[int]:
    out, i = [], text.find(needle)
    while i >= 0:
        out.append(i)
        i = text.find(needle, i + 1)
    return out


def test_injected_text_is_escaped_and_shown_literally(page):
    assert "<img src=x" not in page and "<iframe" not in page and "<script>alert" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    assert "&lt;/td&gt;&lt;/table&gt;&lt;iframe" in page
    assert "&lt;b onmouseover=alert(3)&gt;evil&lt;/b&gt;" in page
    text = "".join(parse(page).text)
    assert INJECTIONS[0] in text
    assert "$x$ and **bold** [link](http://example.com)" in text
    assert EVIL_CONFIG in text  # the config name, as text (also inside the SVG chart labels)


def test_is_one_complete_document_with_charts(page):
    assert page.startswith("<!DOCTYPE html>")
    assert page.rstrip().endswith("</html>")
    assert page.count("<svg") >= 3  # rates chart, per-tag heatmap, savings chart
    assert "Content-Security-Policy" in page


def test_carries_run_metadata(page, evaluation):
    meta = evaluation.meta
    assert meta["set_hash"] in page
    assert meta["paper_sha256"] in page
    for fp in meta["fingerprints"].values():
        assert fp in page
    assert "version: quotelocate" in page and "version: pymupdf" in page
    assert meta["timestamp"] in page
    assert "95% Wilson score interval" in page  # how the figures were measured
    assert "Ablation" in page and "Time savings" in page


def test_render_html_from_json_round_trip(evaluation):
    again = Evaluation.from_json(json.loads(json.dumps(evaluation.to_json())))
    assert "&lt;img src=x onerror=alert(1)&gt;" in report.render_html(again, title="<t>")
    assert "<title>&lt;t&gt;</title>" in report.render_html(again, title="<t>")


def test_verdict_flips_and_errors(evaluation):
    flips = report.verdict_flips(evaluation.verdicts, "exact", EVIL_CONFIG)
    assert list(flips["id"]) == ["f1"]  # the line break only the recommended rules fold
    wrong = report.errors(evaluation.verdicts)
    assert set(wrong.loc[wrong["config"] == "exact", "id"]) == {"f1"}


def test_chart_builders_accept_the_frames(evaluation):
    for chart in (report.rates_chart(evaluation.metrics), report.rates_bars(evaluation.metrics),
                  report.tag_heatmap(evaluation.by_tag), report.savings_chart(evaluation.savings)):
        assert report.chart_svg(chart).startswith("<svg")


# -- the CLI --------------------------------------------------------------------------


def test_cli_report_from_run_json(evaluation, tmp_path, capsys):
    run = tmp_path / "run.json"
    run.write_text(json.dumps(evaluation.to_json()), encoding="utf-8")
    out = tmp_path / "report.html"
    assert cli_main(["report", str(run), "--out", str(out)]) == 0
    html_text = out.read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=alert(1)&gt;" in html_text and "<script" not in html_text


def test_cli_report_from_run_store_id(evaluation, tmp_path):
    store = tmp_path / "runs.sqlite3"
    run_id = RunStore(store).save(evaluation)
    out = tmp_path / "r.html"
    env = {**os.environ, "QUOTELOCATE_RUNS": str(store)}
    proc = subprocess.run(
        [sys.executable, "-m", "quotelocate.interface.cli", "report", str(run_id), "--out", str(out)],
        capture_output=True, text=True, env=env, cwd=REPO, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert out.is_file() and "<svg" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "content, message",
    [(None, "neither a run JSON file nor a run id"), (b"{not json", "not valid JSON"), (b'{"format": 99}', "not a quotelocate run")],
    ids=["missing", "bad-json", "not-a-run"],
)
def test_cli_report_bad_input_is_one_line(tmp_path, capsys, content, message):
    arg = str(tmp_path / "missing.json")
    if content is not None:
        (tmp_path / "missing.json").write_bytes(content)
    assert cli_main(["report", arg, "--out", str(tmp_path / "x.html")], ) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.html").exists()


def test_cli_report_never_overwrites_without_force(evaluation, tmp_path):
    run = tmp_path / "run.json"
    run.write_text(json.dumps(evaluation.to_json()), encoding="utf-8")
    out = tmp_path / "report.html"
    out.write_text("someone's notes", encoding="utf-8")
    assert cli_main(["report", str(run), "--out", str(out)]) == 2
    assert out.read_text(encoding="utf-8") == "someone's notes"
    assert cli_main(["report", str(run), "--out", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
