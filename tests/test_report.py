"""The HTML report is one self-contained offline file, escapes every piece of user and
document text, and carries the run's provenance; ``quotelocate report`` writes it."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from quotelocate import PRESETS
from quotelocate.normalize import SEMANTICS_VERSION
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


# -- theme, print, latency, and the before/after report ----------------------------------


def test_follows_the_viewers_theme_and_prints_on_a4(page):
    assert "color-scheme:light dark" in page and "@media (prefers-color-scheme:dark)" in page
    assert "@page{size:A4" in page and "@media print" in page
    assert "color:#1b1b1b;line-height" not in page  # no forced light text colour outside the light palette


def test_latency_chart_marks_the_percentiles(evaluation, page):
    ecdf, marks = report.latency_ecdf(evaluation.verdicts)
    m = evaluation.metrics.set_index("config")
    for config, group in marks.groupby("config"):
        got = group.set_index("percentile")["latency_ms"]
        assert got["p50"] == pytest.approx(m.loc[config, "p50_ms"]) and got["p99"] == pytest.approx(m.loc[config, "p99_ms"])
    assert ecdf.groupby("config")["share"].max().eq(1.0).all()
    svg = report.chart_svg(report.latency_chart(evaluation.verdicts))
    assert svg.startswith("<svg") and "log scale" in svg
    assert "<h2>Latency</h2>" in page


@pytest.fixture(scope="module")
def after(evaluation) -> Evaluation:
    """The same quotes under a changed config: the second config loses quote folding."""
    doc = Document.from_text(TEXT, name="paper<1>.txt")
    qs = QuoteSet.from_quotes(
        [Quote(id="f1", text="Attention is all you need", label="faithful", tags=("linebreak",),
               anchor=Anchor(page=1, start=0, end=25, text="Attention is all you\nneed")),
         Quote(id="f2", text="explains <tags> & ampersands literally", label="faithful", tags=("plain",),
               anchor=Anchor(page=2, start=TEXT.index("explains"), end=TEXT.index("explains") + 38,
                             text="explains <tags> & ampersands literally"))]
        + [Quote(id=f"x{i}", text=t, label="fabricated", tags=("invented-tail",)) for i, t in enumerate(INJECTIONS)],
        document=doc, name="injection")
    configs = {"exact": PRESETS["exact"], EVIL_CONFIG: PRESETS["exact"]}
    return evaluate(qs, configs, repeats=1, savings=SavingsAssumptions(baseline="exact", target=0.3))


def test_before_after_report_has_deltas_tests_flips_and_configs(evaluation, after):
    from quotelocate.evaluation.change_report import change_tables, render_change_html

    t = change_tables(evaluation, after, a_title="before", b_title="after")
    d = t.deltas.set_index("config")
    assert d.loc[EVIL_CONFIG, "d_false_reject"] == pytest.approx(0.5)  # f1 (line break) now rejected
    assert d.loc["exact", "n_changed"] == 0 and not bool(d.loc[EVIL_CONFIG, "same_rules"])
    assert (d["holm_p_faithful"] >= d["mcnemar_p_faithful"]).all()
    flipped = t.flips.set_index(["config", "id"])
    assert list(flipped.index) == [(EVIL_CONFIG, "f1")]
    assert flipped.loc[(EVIL_CONFIG, "f1"), "diff_a"] == "" and "{+ +}" in flipped.loc[(EVIL_CONFIG, "f1"), "diff_b"]
    assert set(t.by_tag["tag"]) == {"linebreak"}
    assert set(t.configs["run"]) == {"before", "after"} and t.configs["fingerprint"].str.startswith(f"ql{SEMANTICS_VERSION}-").all()
    html_text = render_change_html(evaluation, after, a_title="<before>", b_title="after")
    assert "<script" not in html_text.lower() and "&lt;before&gt;" in html_text
    assert "<del>" in html_text or "<ins>" in html_text  # the flipped quote's diff, marked up safely
    assert "Verdicts that flipped (1)" in html_text and "Holm" in html_text
    assert "&lt;b onmouseover=alert(3)&gt;evil&lt;/b&gt;" in html_text and "<b onmouseover" not in html_text
    assert "@media print" in html_text and html_text.count("<svg") >= 2
    for fp in after.meta["fingerprints"].values():
        assert fp in html_text


def test_cli_report_of_two_runs(evaluation, after, tmp_path, capsys):
    store = tmp_path / "runs.sqlite3"
    a = RunStore(store).save(evaluation, name="before the change")
    b = RunStore(store).save(after, name="after the change")
    out = tmp_path / "change.html"
    assert cli_main(["report", str(a), str(b), "--out", str(out), "--store", str(store)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "quotelocate: before the change → after the change" in text and "Verdicts that flipped (1)" in text
    assert cli_main(["report", str(a), "999", "--out", str(tmp_path / "x.html"), "--store", str(store)]) == 2
    assert "no run 999" in capsys.readouterr().err


def test_throughput_chart_shows_the_spread_over_repeats(evaluation):
    m = evaluation.metrics
    assert (m["qps_min"] <= m["qps_max"]).all() and m["qps_min"].notna().all()
    svg = report.chart_svg(report.throughput_chart(m))
    assert svg.startswith("<svg") and "slowest to fastest timing repeat" in svg


# -- latency and throughput on each paper of a multi-paper set ----------------------------

SECOND = "Second paper: we measure every quote three times and report the median of the runs."


def _one_paper(prefix: str, text: str, name: str, faithful: str, fabricated: str) -> QuoteSet:
    start = text.index(faithful)
    quotes = [Quote(id=f"{prefix}-f", text=faithful, label="faithful", tags=("plain",),
                    anchor=Anchor(page=1, start=start, end=start + len(faithful), text=faithful)),
              Quote(id=f"{prefix}-x", text=fabricated, label="fabricated", tags=("invented-tail",))]
    return QuoteSet.from_quotes(quotes, document=Document.from_text(text, name=name), name=prefix)


@pytest.fixture(scope="module")
def two_papers() -> Evaluation:
    """Two papers, the first with markup in its id (paper ids come from file names)."""
    a = _one_paper("a", TEXT, "paper<1>.txt", "Attention is all you\nneed", "Attention is half of what you need")
    b = _one_paper("b", SECOND, "second.txt", "report the median of the runs", "report the mean of the runs")
    both = dataclasses.replace(a, name="two papers", quotes=a.quotes + b.quotes, paper_sets=(a, b))
    return evaluate(both, {"exact": PRESETS["exact"], EVIL_CONFIG: PRESETS["recommended"]}, repeats=3)


def test_latency_ecdf_per_paper_takes_shares_and_percentiles_within_each_paper():
    v = pd.DataFrame({"config": ["a"] * 6 + ["b"] * 2, "paper": ["p1", "p1", "p1", "p2", "p2", "p2", "p1", "p2"],
                      "latency_ms": [1.0, 2.0, 3.0, 10.0, 30.0, 20.0, 5.0, 7.0]})
    ecdf, marks = report.latency_ecdf(v, per_paper=True)
    assert list(ecdf.columns) == ["paper", "config", "latency_ms", "share"]
    p2 = ecdf.loc[(ecdf["paper"] == "p2") & (ecdf["config"] == "a")]
    assert p2["latency_ms"].tolist() == [10.0, 20.0, 30.0] and p2["share"].tolist() == pytest.approx([1 / 3, 2 / 3, 1.0])
    m = marks.set_index(["paper", "config", "percentile"])["latency_ms"]
    assert m[("p1", "a", "p50")] == 2.0 and m[("p2", "a", "p50")] == 20.0
    assert m[("p2", "a", "p95")] == pytest.approx(29.0) and m[("p1", "b", "p99")] == 5.0
    assert len(marks) == 4 * 3  # three marks per paper and config
    # without per_paper the same frame gives one curve per config, as before
    ecdf_all, marks_all = report.latency_ecdf(v)
    assert "paper" not in ecdf_all.columns and marks_all.set_index(["config", "percentile"]).loc[("a", "p50"), "latency_ms"] == 6.5


def test_throughput_per_paper_is_measured_like_the_overall_one(two_papers):
    v, bp = two_papers.verdicts, two_papers.by_paper
    data = report.paper_throughput(bp)
    assert list(data["paper"].unique()) == ["paper<1>", "second"]  # the set's order
    for r in data.to_dict("records"):
        mine = v.loc[(v["paper"] == r["paper"]) & (v["config"] == r["config"]), "latency_ms"]
        assert r["throughput_qps"] == pytest.approx(len(mine) / (mine.sum() / 1000.0))
        assert 0 < r["qps_min"] <= r["qps_max"]
    # and its percentiles are the per-paper ECDF's marks
    _, marks = report.latency_ecdf(v, per_paper=True)
    got = marks.set_index(["paper", "config", "percentile"])["latency_ms"]
    for r in bp.to_dict("records"):
        assert got[(r["paper"], r["config"], "p50")] == pytest.approx(r["p50_ms"])
        assert got[(r["paper"], r["config"], "p99")] == pytest.approx(r["p99_ms"])
    table = report.paper_timing_table(bp)
    assert len(table) == 4 and table.loc[0, "p50 ms"] == f"{bp.loc[bp['paper'] == 'paper<1>', 'p50_ms'].iloc[0]:.2f}"


def test_per_paper_specs_have_one_panel_per_paper(two_papers):
    v = two_papers.verdicts
    spec = report.paper_latency_spec(v)
    assert spec["facet"]["field"] == "paper" and spec["facet"]["sort"] == ["paper<1>", "second"]
    rows = pd.DataFrame(spec["data"]["values"])
    assert set(rows["paper"]) == {"paper<1>", "second"} and len(rows.loc[rows["kind"] == "mark"]) == 2 * 2 * 3
    assert "text" not in {layer["mark"]["type"] for layer in spec["spec"]["layer"]}  # two configs: no crowded labels
    one = report.paper_latency_spec(v.loc[v["config"] == "exact"])
    assert "text" in {layer["mark"]["type"] for layer in one["spec"]["layer"]}
    ten = pd.DataFrame({"config": "c", "paper": [f"p{i}" for i in range(10)], "latency_ms": 1.0})
    assert report.paper_latency_spec(ten)["columns"] == 3  # ten papers: a grid of small multiples
    thr = report.paper_throughput_spec(two_papers.by_paper)
    assert thr["encoding"]["y"]["sort"] == ["paper<1>", "second"] and len(thr["data"]["values"]) == 4
    # the plot keeps its width beside long paper ids: the workbench would otherwise fit the
    # labels and legend into that width and squeeze the bars to nothing
    assert thr["autosize"]["type"] == "pad"
    assert not report.several_papers(v.loc[v["paper"] == "second"])


def test_report_of_several_papers_has_svg_charts_per_paper(two_papers, page):
    html_text = report.render_html(two_papers)
    latency = html_text.index("<h3>Latency on each paper</h3>")
    throughput = html_text.index("<h3>Throughput on each paper</h3>")
    assert html_text.index("<h2>Latency</h2>") < latency < throughput < html_text.index("<h2>Per paper</h2>")
    svgs = [html_text[i:html_text.index("</svg>", i)] for i in (html_text.index("<svg", latency),
                                                                html_text.index("<svg", throughput))]
    for svg in svgs:  # each paper's panel or bar group is labelled with its id, escaped
        assert "paper&lt;1&gt;" in svg and "second" in svg
    assert "paper<1>" not in html_text and "<script" not in html_text.lower()
    assert "median latencies" in html_text and "slowest-fastest repeat" in html_text
    # a one-paper evaluation's report has no per-paper charts, as before
    assert "on each paper" not in page


def test_before_after_report_of_several_papers_draws_each_runs_per_paper_charts(two_papers):
    from quotelocate.evaluation.change_report import render_change_html

    html_text = render_change_html(two_papers, two_papers, a_title="before", b_title="after")
    assert html_text.count("<h3>Latency on each paper</h3>") == 2
    assert html_text.count("<h3>Throughput on each paper</h3>") == 2
