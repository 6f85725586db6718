"""The workbench (``app.py``) driven in-process with ``streamlit.testing.v1.AppTest``.

Every view renders on the embedded synthetic set; a rule toggle changes the shown rates;
the share link round-trips the view state; bad uploads show an error and leave the
session usable; quote text with HTML or Markdown in it is shown literally.
"""

from __future__ import annotations

import os
import shutil
import urllib.parse
from pathlib import Path

import pandas as pd
import pytest
import yaml
from streamlit.testing.v1 import AppTest

from quotelocate.interface import workbench
from quotelocate.errors import DatasetError, DocumentError

REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")
SYNTH_YAML = REPO / "datasets" / "synthetic" / "synthetic.yaml"
SYNTH_PDF = REPO / "datasets" / "synthetic" / "synthetic.pdf"
INJECTED = {
    "inj-html": "<img src=x onerror=alert(1)> the tide model <script>alert(2)</script>",
    "inj-md": "the cost is $x$ and **bold** with [a link](http://example.com) and ![img](http://example.com/a.png)",
}


@pytest.fixture(autouse=True)
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_RUNS", str(tmp_path / "runs.sqlite3"))
    monkeypatch.setenv("QUOTELOCATE_SETS", str(tmp_path / "sets"))
    monkeypatch.chdir(REPO)


def app(**params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(params)
    return at.run()


def ok(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    return at


def metric(at: AppTest, label: str) -> str:
    for m in at.metric:
        if m.label == label:
            return m.value
    raise AssertionError(f"no metric {label!r}: {[m.label for m in at.metric]}")


def view(at: AppTest, name: str) -> AppTest:
    at.session_state["view"] = name
    return ok(at.run())


def codes(at: AppTest) -> list[str]:
    return [c.value for c in at.code]


def injected_set() -> bytes:
    data = yaml.safe_load(SYNTH_YAML.read_text(encoding="utf-8"))
    data["name"] = "injected"
    data["description"] = "<b>description</b> $y$"
    for qid, text in INJECTED.items():
        data["quotes"].append({"id": qid, "text": text, "label": "fabricated", "tags": ["invented-tail"]})
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8")


# -- opening and every view -------------------------------------------------------------


def test_opens_on_the_synthetic_set_with_every_figure():
    at = ok(app())
    assert at.selectbox(key="set").value == "synthetic"
    assert at.selectbox(key="preset").value == "recommended"
    for label in ("False-reject rate", "False-accept rate", "Anchor accuracy", "Throughput", "Latency p50",
                  "Latency p95", "Latency p99", "Index build"):
        assert metric(at, label)
    assert any("95% interval" in c.value for c in at.caption)
    assert not at.error


def test_toggling_a_rule_changes_the_rates():
    at = ok(app())
    before = (metric(at, "False-reject rate"), metric(at, "False-accept rate"))
    at.checkbox(key="whitespace").uncheck().run()
    ok(at)
    after = (metric(at, "False-reject rate"), metric(at, "False-accept rate"))
    assert after != before
    assert at.selectbox(key="preset").value == "custom"
    at.checkbox(key="whitespace").check().run()
    assert (metric(ok(at), "False-reject rate"), metric(at, "False-accept rate")) == before
    assert at.selectbox(key="preset").value == "recommended"


def test_picking_a_preset_sets_every_rule():
    at = ok(app())
    before = metric(at, "False-reject rate")
    at.selectbox(key="preset").select("exact").run()
    ok(at)
    assert at.checkbox(key="whitespace").value is False
    assert at.checkbox(key="word_boundaries").value is False
    assert at.selectbox(key="unicode").value == "off"
    assert metric(at, "False-reject rate") != before


def test_compare_view_grid_heatmap_ablation_and_flips():
    at = view(ok(app()), "Compare")
    assert len(at.get("vega_lite_chart")) >= 2  # rates chart and per-tag heatmap
    assert any("Ablation" in m.value for m in at.markdown)
    at.selectbox(key="flip_a").select("exact").run()
    at.selectbox(key="flip_b").select("recommended").run()
    ok(at)
    flips = [m.value for m in at.markdown if "flips" in m.value]
    assert flips and not flips[0].endswith(": 0")
    at.radio(key="cmp_mode").set_value("one rule varied").run()
    at.selectbox(key="cmp_rule").select("hyphenation").run()
    ok(at)
    assert "hyphenation=both" in at.selectbox(key="flip_a").options
    at.selectbox(key="cmp_rule").select("ellipsis").run()
    ok(at)
    assert "ellipsis=fragments" in at.selectbox(key="flip_a").options
    at.selectbox(key="cmp_rule").select("ellipsis_gap").run()
    ok(at)
    assert "ellipsis_gap=1000" in at.selectbox(key="flip_a").options


def test_inspect_view_shows_diff_page_and_chunk():
    at = view(ok(app()), "Inspect")
    at.radio(key="only").set_value("rejected").run()
    ok(at)
    n = len(at.selectbox(key="quote").options)
    assert n
    for i in range(n):  # the first rejection with a near miss: diff as text, page highlighted
        at.selectbox(key="quote").select_index(i).run()
        ok(at)
        text = [t.value for t in at.text]
        if any(t.startswith("Closest passage") for t in text):
            break
    else:
        raise AssertionError("no rejected quote with a near miss")
    assert "Character diff, [-passage-]{+quote+}:" in text
    assert any("[-" in c or "{+" in c for c in codes(at))
    assert at.get("image") and "closest passage highlighted" in at.get("image")[0].proto.imgs[0].caption
    # an accepted quote: its match is highlighted on the rendered page, with the cited chunk
    at.radio(key="only").set_value("accepted").run()
    at.selectbox(key="quote").select_index(0).run()
    ok(at)
    assert at.get("image"), "the PDF page with the match is shown"
    assert any(t.startswith("Cited chunk") for t in (x.value for x in at.text))
    assert "Matched text in the paper (as extracted):" in [x.value for x in at.text]


def test_inspect_overlay_draws_the_reading_order_on_the_page():
    at = view(ok(app()), "Inspect")
    at.selectbox(key="quote").select_index(0).run()
    plain = at.get("image")[0].proto.imgs[0].url
    at.toggle(key="overlay").set_value(True).run()
    ok(at)
    assert at.get("image")[0].proto.imgs[0].url != plain  # another picture: the overlay is drawn
    legend = at.dataframe[-1].value
    assert "body" in set(legend["flow"]) and set(legend.columns) >= {"page", "flow", "colour", "lines", "order"}


SYNTH_SENTENCE = "a model that restricts every attention head to a fixed lattice of tidal phases"


def playground(text: str, chunk: str = "") -> AppTest:
    at = view(ok(app()), "Playground")
    assert any("Paste a quote" in i.value for i in at.info)
    at.text_area(key="pg_quote").input(text)
    at.text_input(key="pg_chunk").input(chunk)
    return ok(at.run())


def test_playground_traces_an_accepted_quote_rule_by_rule():
    at = playground(SYNTH_SENTENCE.replace("every attention", "every  attention"))
    assert at.success and at.success[0].value.startswith("Accepted: normalized")
    steps = [t.value for t in at.text if t.value[:1].isdigit()]
    from quotelocate.normalize import RULES

    # every rule recommended switches on, in the order the normalizer runs them
    assert [s.split(" ·")[0] for s in steps] == ["0. as given", "1. layout"] + [
        f"{i}. {name}" for i, name in enumerate(RULES, start=2)
    ]
    # the paper's ligature and line break, and the quote's double space, each marked at its rule's step
    assert any("[-\ufb01-]{+fi+}xed" in c for c in codes(at))
    assert any("tidal[-↵-]{+·+}phases" in c for c in codes(at))
    assert any("every[-··-]{+·+}attention" in c for c in codes(at))
    assert at.get("image") and "match highlighted" in at.get("image")[0].proto.imgs[0].caption


def test_playground_explains_a_rejection_with_a_diff_and_a_cited_chunk():
    at = playground(SYNTH_SENTENCE.replace("fixed", "moving"), chunk="0")
    assert at.error and "Rejected" in at.error[0].value
    assert "Character diff, [-passage-]{+quote+}:" in [t.value for t in at.text]
    assert "closest passage highlighted" in at.get("image")[0].proto.imgs[0].caption
    at.text_input(key="pg_chunk").input("99999").run()
    assert at.error and "cited chunk 99999" in error_text(at)


def test_playground_saves_a_labelled_quote_to_a_set(tmp_path):
    at = playground(SYNTH_SENTENCE)
    at.text_input(key="pg_set").input("my-edits")
    at.text_input(key="pg_id").input("pg-first")
    at.multiselect(key="pg_tags").select("plain")
    at.button[-1].click().run()  # the form's submit button
    ok(at)
    assert at.success[-1].value.startswith("Saved as pg-first (faithful); the set now has 1 quotes")
    saved = yaml.safe_load((tmp_path / "sets" / "my-edits.yaml").read_text(encoding="utf-8"))
    assert saved["quotes"][0]["anchor"]["text"] == SYNTH_SENTENCE.replace("fixed", "\ufb01xed").replace("tidal ", "tidal\n")
    assert saved["quotes"][0]["text"] == SYNTH_SENTENCE and saved["quotes"][0]["tags"] == ["plain"]
    at.button[-1].click().run()  # the same id again: refused, the file unchanged
    assert "already in the set" in error_text(at)
    assert len(yaml.safe_load((tmp_path / "sets" / "my-edits.yaml").read_text(encoding="utf-8"))["quotes"]) == 1


def test_playground_never_renders_a_pasted_quote_as_html():
    at = playground(INJECTED["inj-html"])
    assert not at.get("image") or all("onerror" not in str(m.value) for m in at.markdown)
    assert any(INJECTED["inj-html"] in c for c in codes(at))


def test_savings_view_gives_a_verdict_and_reacts_to_assumptions():
    at = view(ok(app()), "Savings")
    first = metric(at, "Measured saving")
    verdicts = [e.value for e in at.success] + [e.value for e in at.error]
    assert any("of the time spent with exact" in v for v in verdicts)
    assert any("Review seconds used: the typed-in assumptions" in i.value for i in at.info)
    assert any("paired bootstrap over quotes" in c.value for c in at.caption)
    at.number_input(key="review_no_anchor_s").set_value(300.0).run()
    assert metric(ok(at), "Measured saving") != first


def test_share_view_link_and_downloads():
    at = view(ok(app()), "Share")
    links = [c for c in codes(at) if "?" in c]
    assert links and links[0].endswith("/?view=Share")  # defaults are left out of the link
    labels = {b.label for b in at.get("download_button")}
    assert {"Download report (HTML)", "Download run (JSON)", "Download verdicts (CSV)"} <= labels


def save_current_run(at: AppTest, name: str = "", tags: str = "") -> AppTest:
    at.text_input(key="run_name").input(name)
    at.text_input(key="run_tags").input(tags)
    next(b for b in at.button if b.label == "Save the current evaluation").click().run()
    return ok(at)


def test_runs_view_saves_names_lists_and_compares_before_and_after(tmp_path):
    at = view(ok(app()), "Runs")
    assert any("No stored runs" in i.value for i in at.info)
    save_current_run(at, "baseline", "v7, before")
    at.checkbox(key="whitespace").uncheck().run()
    save_current_run(at, "no whitespace rule")
    assert (tmp_path / "runs.sqlite3").is_file()
    listed = at.dataframe[0].value
    assert list(listed["title"]) == ["baseline", "no whitespace rule"] and listed["tags"][0] == "v7,before"
    assert at.selectbox(key="run_a").value == 1 and "baseline (#1" in at.selectbox(key="run_a").format_func(1)
    assert any("Verdicts that flipped" in m.value for m in at.markdown)
    shown = [t.value for t in at.text]
    assert "The runs have one config each, paired: recommended (baseline) with current (no whitespace rule)." in shown
    assert any(t.startswith("recommended: false-reject") and "verdicts changed" in t for t in shown)
    labels = {b.label for b in at.get("download_button")}
    assert "Download the before/after report (HTML)" in labels


def test_a_run_is_relabelled_and_deleted_only_after_confirmation(tmp_path):
    at = view(ok(app()), "Runs")
    save_current_run(at, "first")
    save_current_run(at, "second")
    at.selectbox(key="run_pick").set_value(1).run()
    at.text_input(key="label_name_1").input("renamed")
    next(b for b in at.button if b.label == "Save name, tags and notes").click().run()
    ok(at)
    assert list(at.dataframe[0].value["title"]) == ["renamed", "second"]
    at.button(key="run_delete").click().run()
    assert at.warning and "cannot be undone" in at.warning[0].value
    at.button(key="run_delete_no").click().run()  # cancel: nothing deleted
    assert list(at.dataframe[0].value["title"]) == ["renamed", "second"] and not at.warning
    at.button(key="run_delete").click().run()
    at.button(key="run_delete_yes").click().run()
    ok(at)
    assert list(at.dataframe[0].value["title"]) == ["second"]


def test_timing_mode_records_decisions_and_savings_uses_their_medians(tmp_path):
    at = view(ok(app()), "Inspect")
    at.toggle(key="timing").set_value(True).run()
    ok(at)
    first = at.selectbox(key="quote").value
    anchors = []
    for i in range(10):
        shown = [t.value for t in at.text if t.value.startswith("Decide:")][0]
        anchors.append("anchor shown" in shown)
        at.button(key="time_accept" if i % 3 else "time_reject").click().run()
        ok(at)
        assert at.success and at.success[0].value.startswith("Recorded")
    assert anchors == [True, False] * 5  # alternating conditions
    assert at.selectbox(key="quote").value != first  # moved on to the next quote
    from quotelocate.evaluation.runstore import RunStore

    times = RunStore(tmp_path / "runs.sqlite3").review_times()
    assert len(times) == 10 and times["anchor_shown"].sum() == 5 and (times["seconds"] > 0).all()
    at = view(at, "Savings")
    assert at.toggle(key="use_measured").value is True
    assert any("Review seconds used: measured: median" in i.value for i in at.info)
    assert any("Review seconds: measured: median" in c.value for c in at.caption)
    at.toggle(key="use_measured").set_value(False).run()
    assert any("typed-in assumptions" in i.value for i in ok(at).info)


def test_evaluate_and_compare_show_latency_charts():
    at = ok(app())
    specs = [c.proto.spec for c in at.get("vega_lite_chart")]
    assert any('"log"' in s and "p50, p95, p99" in s for s in specs)
    assert not any('"facet"' in s or "on each paper" in s for s in specs)  # one paper: no chart per paper
    at = view(at, "Compare")
    specs = [c.proto.spec for c in at.get("vega_lite_chart")]
    assert any("p50, p95, p99" in s and "two-transform" in s for s in specs)  # every config of the grid
    assert not any('"facet"' in s or "on each paper" in s for s in specs)


# -- share state ------------------------------------------------------------------------


def test_share_link_round_trips_set_rules_and_view():
    at = ok(app())
    at.selectbox(key="preset").select("two-transform").run()
    at.selectbox(key="hyphenation").select("keep").run()
    at.number_input(key="min_words").set_value(4).run()
    at.selectbox(key="ellipsis").select("fragments").run()
    at.number_input(key="ellipsis_gap").set_value(120).run()
    at.selectbox(key="scope").select("document").run()
    at.session_state["view"] = "Inspect"
    at.run()
    quote = at.selectbox(key="quote").options[3]
    at.selectbox(key="quote").select(quote).run()
    view(at, "Share")
    link = next(c for c in codes(at) if "?" in c)
    params = {k: v[0] if len(v) == 1 else v for k, v in urllib.parse.parse_qs(urllib.parse.urlsplit(link).query).items()}
    params["view"] = "Inspect"
    again = ok(app(**params))
    for key in ("quotes", "whitespace", "invisible", "furniture", "layout", "word_boundaries"):
        assert again.checkbox(key=key).value == at.checkbox(key=key).value, key
    assert again.selectbox(key="hyphenation").value == "keep"
    assert again.number_input(key="min_words").value == 4
    assert again.selectbox(key="ellipsis").value == "fragments"
    assert again.number_input(key="ellipsis_gap").value == 120
    assert again.selectbox(key="scope").value == "document"
    assert again.selectbox(key="quote").value == quote  # the Inspect view is open on the same quote


def test_a_preset_only_link_applies_the_preset():
    at = ok(app(preset="exact"))
    assert at.checkbox(key="whitespace").value is False
    assert at.checkbox(key="word_boundaries").value is False


# -- uploads ------------------------------------------------------------------------------


def upload(at: AppTest, set_bytes: bytes | None, pdf_bytes: bytes | None) -> AppTest:
    at.selectbox(key="set").select("upload").run()
    if set_bytes is not None:
        at.get("file_uploader")[0].set_value(("quotes.yaml", set_bytes, "application/yaml"))
    if pdf_bytes is not None:
        at.get("file_uploader")[1].set_value(("paper.pdf", pdf_bytes, "application/pdf"))
    return ok(at.run())


def error_text(at: AppTest) -> str:
    return "\n".join([e.value for e in at.error] + codes(at))


@pytest.mark.parametrize(
    "set_bytes, pdf_bytes, expected",
    [
        (b"format: 1\nname: x\npaper: !!python/object/apply:os.system ['echo hi']\n", None, "tag"),
        (b"\xff\xfe not utf-8", None, "UTF-8"),
        (None, b"not a pdf at all", "not a PDF"),
        (b"- just\n- a list\n", None, "quote set"),
    ],
    ids=["yaml-tag", "not-utf8", "pdf-magic", "not-a-mapping"],
)
def test_a_bad_upload_shows_an_error_and_the_session_stays_usable(set_bytes, pdf_bytes, expected):
    at = ok(app())
    if set_bytes is None:
        set_bytes = SYNTH_YAML.read_bytes()
    at = upload(at, set_bytes, pdf_bytes)
    assert at.error, "a bad upload must show st.error"
    assert expected.lower() in error_text(at).lower()
    at.selectbox(key="set").select("synthetic").run()
    ok(at)
    assert not at.error and metric(at, "False-reject rate")


@pytest.mark.parametrize(
    "case_id, expected",
    [("memory-bomb", "memory limit of 256 MB"), ("page-tree-cycle", "page 2"),
     ("encrypted-no-password", "a password is needed"), ("time-bomb", "time limit of 1 s")],
)
def test_a_hostile_pdf_upload_is_refused_and_the_session_stays_usable(case_id, expected, monkeypatch):
    import pdf_catalog

    from quotelocate.document import Limits

    seconds = 1 if case_id == "time-bomb" else 30
    monkeypatch.setattr(workbench, "UPLOAD_LIMITS", Limits(seconds=seconds, memory_mb=256))
    case = next(c for c in pdf_catalog.CASES if c.id == case_id)
    at = upload(ok(app()), SYNTH_YAML.read_bytes(), case.build())
    assert expected in error_text(at)
    at.selectbox(key="set").select("synthetic").run()
    assert not ok(at).error and metric(at, "False-reject rate")


def test_an_oversized_upload_is_refused_server_side(monkeypatch):
    monkeypatch.setattr(workbench, "MAX_UPLOAD_BYTES", 1000)
    at = upload(ok(app()), SYNTH_YAML.read_bytes(), SYNTH_PDF.read_bytes())
    assert "exceeds the upload limit" in error_text(at)


def test_injected_html_and_markdown_in_quotes_are_shown_literally():
    at = upload(ok(app()), injected_set(), SYNTH_PDF.read_bytes())
    assert not at.error, error_text(at)
    assert metric(at, "False-accept rate")
    view(at, "Inspect")
    for qid, text in INJECTED.items():
        at.selectbox(key="quote").select(qid).run()
        ok(at)
        assert text in codes(at), "the quote is shown verbatim as text"
        for md in at.markdown:
            assert "<img" not in md.value and "$x$" not in md.value and "onerror" not in md.value
    table = at.dataframe[0].value
    assert set(INJECTED.values()) <= set(table["text"])


def test_uploaded_set_without_its_paper_names_the_missing_file(tmp_path, monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_PAPERS", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    data = yaml.safe_load(SYNTH_YAML.read_text(encoding="utf-8"))
    data["paper"]["file"] = "elsewhere.pdf"
    at = upload(ok(app()), yaml.safe_dump(data).encode(), None)
    assert "elsewhere.pdf" in error_text(at)


def test_missing_pinned_paper_offers_a_fetch(tmp_path, monkeypatch):
    empty = tmp_path / "papers"
    empty.mkdir()
    monkeypatch.setenv("QUOTELOCATE_PAPERS", str(empty))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert not (REPO / "datasets" / "papers" / "1706.03762v7.pdf").exists(), "papers are never copied into the repo"
    at = ok(app(set="attention-v7"))
    assert "not on the papers search path" in error_text(at)
    assert at.button(key="fetch")

    source = REPO.parent / "shared" / "papers" / "1706.03762v7.pdf"
    assert source.is_file(), "the pinned papers live in ../shared/papers"

    import quotelocate.data.quoteset as dataset

    def fake_fetch_all(name, **_):  # no network in tests: "download" from the shared folder
        target = tmp_path / "cache" / "quotelocate" / "papers"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target / source.name)
        return (dataset.Fetched(path=target / source.name, sha256=""),)

    monkeypatch.setattr(dataset, "fetch_all", fake_fetch_all)
    at.button(key="fetch").click().run()
    ok(at)
    assert not at.error and metric(at, "False-reject rate")


# -- the upload helpers, unit-tested ----------------------------------------------------


def test_stage_upload_uses_fixed_names_inside_the_folder(tmp_path):
    set_path, pdf_path = workbench.stage_upload(tmp_path, b"format: 1\n", b"%PDF-1.7\n...")
    assert set_path.name == "quotes.yaml" and pdf_path.name == "paper.pdf"
    assert set_path.parent.parent == tmp_path.resolve() and pdf_path.parent == set_path.parent


@pytest.mark.parametrize("pdf", [b"", b"<html>", b"PK\x03\x04zip"], ids=["empty", "html", "zip"])
def test_check_pdf_upload_refuses_non_pdfs(pdf):
    with pytest.raises((DocumentError, DatasetError)):
        workbench.check_pdf_upload(pdf)


def test_load_upload_refuses_a_paper_name_that_is_a_path(tmp_path):
    data = yaml.safe_load(SYNTH_YAML.read_text(encoding="utf-8"))
    data["paper"]["file"] = "../../etc/passwd"
    with pytest.raises(DatasetError):
        workbench.load_upload(tmp_path, yaml.safe_dump(data).encode())
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == ["quotes.yaml"]


def test_load_upload_with_the_paper_pins_it(tmp_path):
    qs = workbench.load_upload(tmp_path, SYNTH_YAML.read_bytes(), SYNTH_PDF.read_bytes())
    assert qs.name == "synthetic" and qs.document().kind == "pdf"
    with pytest.raises(DatasetError, match="does not match its pin"):
        other = REPO.parent / "shared" / "papers" / "1706.03762v7.pdf"
        workbench.load_upload(tmp_path, SYNTH_YAML.read_bytes(), other.read_bytes())


def test_chunking_can_be_changed_and_a_misfit_is_explained():
    at = ok(app())
    before = metric(at, "False-reject rate")
    at.selectbox(key="scope").select("chunk").run()
    at.number_input(key="chunk_size").set_value(1024).run()
    ok(at)
    assert at.error and "chunking does not fit" in error_text(at)  # cited chunks past the new end
    at.number_input(key="chunk_size").set_value(256).run()
    ok(at)
    assert not at.error and metric(at, "False-reject rate") != before


def test_the_app_never_renders_text_as_html():
    source = Path(APP).read_text(encoding="utf-8")
    for forbidden in ("unsafe_allow_html", "st.html(", "components.html", "components.v1"):
        assert forbidden not in source, forbidden


def test_old_upload_folders_are_pruned(tmp_path):
    import time

    old = tmp_path / (workbench.UPLOAD_PREFIX + "old")
    new = tmp_path / (workbench.UPLOAD_PREFIX + "new")
    other = tmp_path / "someone-elses-folder"
    for folder in (old, new, other):
        folder.mkdir()
        (folder / "quotes.yaml").write_text("x", encoding="utf-8")
    day_ago = time.time() - 2 * workbench.UPLOAD_MAX_AGE_S
    os.utime(old, (day_ago, day_ago))
    os.utime(other, (day_ago, day_ago))
    assert workbench.prune_upload_folders(tmp_path) == [old]
    assert not old.exists() and new.exists() and other.exists()


def test_a_set_of_several_papers_breaks_down_per_paper_and_narrows_to_one():
    at = ok(app(set="real-corpus"))
    assert "10 papers" in " ".join(c.value for c in at.caption)
    assert at.selectbox(key="paper").value == "all papers"
    table = next(df.value for df in at.dataframe if "paper" in df.value.columns)
    assert table["paper"].nunique() == 10
    # Inspect needs one paper's pages: it says how to pick one
    view(at, "Inspect")
    assert any("pick the paper" in i.value for i in at.info)
    at.selectbox(key="paper").set_value("pldi2009_tracemonkey").run()
    ok(at)
    assert not any("pick the paper" in i.value for i in at.info)
    assert "paper sha256" in " ".join(c.value for c in at.caption)
    # a shared link names the paper, and one that names no paper of the set falls back to all
    linked = ok(app(set="real-corpus", paper="pldi2009_tracemonkey", view="Inspect"))
    assert linked.selectbox(key="paper").value == "pldi2009_tracemonkey"
    assert not any("pick the paper" in i.value for i in linked.info)
    stale = ok(app(set="real-corpus", paper="no-such-paper"))
    assert stale.selectbox(key="paper").value == "all papers"


def chart_specs(at: AppTest) -> list[tuple[dict, pd.DataFrame | None]]:
    """Every Vega-Lite chart on the page: its spec, and the top-level data the chart
    element carries apart from the spec (None when its data sits in the spec's layers)."""
    import json

    from streamlit import dataframe_util

    out = []
    for chart in at.get("vega_lite_chart"):
        data = chart.proto.data.data
        out.append((json.loads(chart.proto.spec), dataframe_util.convert_arrow_bytes_to_pandas_df(data) if data else None))
    return out


def test_a_set_of_several_papers_draws_latency_and_throughput_per_paper():
    at = ok(app(set="real-corpus"))
    papers = list(at.selectbox(key="paper").options)[1:]
    assert len(papers) == 10
    specs = chart_specs(at)
    overall = [s for s, _ in specs if "facet" not in s and "p50, p95, p99" in s.get("title", "")]
    assert len(overall) == 1  # the whole set's ECDF stays
    (latency, points), = [(s, d) for s, d in specs if "facet" in s]
    assert latency["facet"]["field"] == "paper" and latency["facet"]["sort"] == papers
    assert sorted(points["paper"].unique()) == sorted(papers)  # one panel of data per paper
    marks = points.loc[points["kind"] == "mark"]
    assert len(marks) == 10 * 3 and set(marks["percentile"]) == {"p50", "p95", "p99"}
    (throughput, rows), = [(s, d) for s, d in specs if s.get("title", "").startswith("Throughput on each paper")]
    assert throughput["encoding"]["y"]["sort"] == papers and list(rows["paper"]) == papers
    assert (rows["qps_min"] <= rows["qps_max"]).all() and (rows["throughput_qps"] > 0).all()
    assert any("median latencies" in c.value for c in at.caption)
    # Compare draws them for every config of its grid (one rule varied, no ablation: quick)
    at.session_state["cmp_mode"] = "one rule varied"
    at.session_state["cmp_rule"] = "quotes"
    at.session_state["cmp_ablation"] = False
    view(at, "Compare")
    (latency, points), = [(s, d) for s, d in chart_specs(at) if "facet" in s]
    assert latency["facet"]["sort"] == papers and points["config"].nunique() >= 2
    assert points.groupby("paper")["config"].nunique().eq(points["config"].nunique()).all()
    (throughput, rows), = [(s, d) for s, d in chart_specs(at) if s.get("title", "").startswith("Throughput on each")]
    assert len(rows) == 10 * points["config"].nunique()
    view(at, "Evaluate")
    # narrowed to one paper the page is a one-paper page again: no chart per paper
    at.selectbox(key="paper").set_value("pldi2009_tracemonkey").run()
    specs = chart_specs(ok(at))
    assert not any("facet" in s or s.get("title", "").startswith("Throughput on each") for s, _ in specs)
    assert any("p50, p95, p99" in s.get("title", "") for s, _ in specs)
