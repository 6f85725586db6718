"""From a pipeline's outputs to a labelled quote set: ``quotelocate set init``, the
``unreviewed`` label state, the Label view's logic and the Label view itself (AppTest).

The synthetic paper (``datasets/synthetic/synthetic.pdf``, generated and committed) is
the paper most quotes come from, so the tests need no download; one test adds the real
v7 paper from the papers search path to check that several papers are pinned.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import yaml

from quotelocate.data import editing
from quotelocate.data.outputs import read_outputs
from quotelocate.data.quoteset import Anchor, Quote, QuoteSet, load_quote_set
from quotelocate.document import Document
from quotelocate.errors import DatasetError, QuoteInputError
from quotelocate.interface import cli, workbench
from quotelocate.locate import Locator
from quotelocate.normalize import preset

REPO = Path(__file__).resolve().parent.parent
SYNTH_DIR = REPO / "datasets" / "synthetic"
SYNTH_PDF = SYNTH_DIR / "synthetic.pdf"
FOUND = "a model that restricts every attention head to a fixed lattice of tidal phases"
CHANGED = "On a benchmark of 42 gauges, SLA"  # the paper says 41
FAITHFUL = "Harmonic analysis has predicted the astronomical tide for more than a century"
INVENTED = "Tide gauges were replaced by satellites in every harbour of the survey"
HOSTILE = "<img src=x onerror=alert(1)> **bold** $x$ the tide"


@pytest.fixture(scope="module")
def synth() -> Document:
    return Document.open(SYNTH_PDF)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def records() -> list[dict]:
    return [
        {"paper": "synthetic.pdf", "quote": FOUND},
        {"paper": "synthetic.pdf", "quote": CHANGED, "label": "fabricated", "id": "fab-1"},
        {"paper": "synthetic.pdf", "quote": FAITHFUL, "label": "faithful", "cited_chunk": 0},
        {"paper": "synthetic.pdf", "quote": INVENTED},
    ]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def write_csv(path: Path, rows: list[dict]) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["id", "paper", "quote", "cited_chunk", "label", "model"])
        w.writeheader()
        for r in rows:
            w.writerow({**{k: "" for k in w.fieldnames}, **r, "model": "some-llm"})
    return path


def draft(tmp_path: Path, rows: list[dict] | None = None, name: str = "draft") -> Path:
    out = tmp_path / f"{name}.yaml"
    code, _, err = run("set", "init", str(write_jsonl(tmp_path / "outputs.jsonl", rows or records())),
                       "--papers", str(SYNTH_DIR), "-o", str(out))
    assert code == 0, err
    return out


def quotes_by_id(path: Path) -> dict[str, dict]:
    return {q["id"]: q for q in yaml.safe_load(path.read_text(encoding="utf-8"))["quotes"]}


# -- set init ------------------------------------------------------------------------------


def test_set_init_pins_papers_proposes_anchors_and_marks_unlabelled_quotes_unreviewed(tmp_path, synth, v7):
    rows = records() + [{"paper": "1706.03762v7.pdf", "quote": "The Transformer follows this overall architecture",
                         "cited_chunk": 15}]
    out = tmp_path / "drafts" / "pipeline.yaml"
    code, printed, err = run("set", "init", str(write_jsonl(tmp_path / "outputs.jsonl", rows)),
                             "--papers", str(SYNTH_DIR), "-o", str(out))
    assert code == 0, err
    assert printed.strip() == f"wrote {out}: 5 quotes over 2 papers, 3 unreviewed, 2 labelled"
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    assert data["format"] == 2 and data["name"] == "pipeline"
    pins = {p["file"]: p for p in data["papers"]}
    for doc, file in ((synth, "synthetic.pdf"), (v7, "1706.03762v7.pdf")):
        assert pins[file]["sha256"] == doc.sha256
        assert pins[file]["text"]["sha256"] == doc.text_fingerprint["sha256"] == doc.text_sha256
    q = {x["id"]: x for x in data["quotes"]}
    assert [x["label"] for x in data["quotes"]] == ["unreviewed", "fabricated", "faithful", "unreviewed", "unreviewed"]
    # an accepted quote: its match, with the page, read off the paper's text
    a = q["q1"]["anchor"]
    assert a["text"] == synth.text[a["start"] : a["end"]] and a["page"] == synth.page_at(a["start"]) == 1
    assert "\ufb01xed" in a["text"] and q["q1"]["note"] == "recommended: normalized; proposed anchor: the match"
    assert q["q1"]["tags"] == ["plain"]
    # a labelled fabrication keeps its label, has no anchor, and its tag comes from the cause
    assert "anchor" not in q["fab-1"] and q["fab-1"]["tags"] == ["number"]
    assert q["fab-1"]["note"].startswith("recommended: not-found (number-changed)")
    # a labelled faithful quote is anchored where the locator found it
    assert q["q3"]["anchor"]["text"].replace("\n", " ") == FAITHFUL and q["q3"]["cited_chunk"] == 0
    # an invented quote: the closest passage is proposed, and the note says how close it is
    assert "closest passage" in q["q4"]["note"] and q["q4"]["tags"] != ["plain"]
    v7_anchor = q["q5"]["anchor"]
    assert q["q5"]["paper"] == "1706.03762v7" and v7.text[v7_anchor["start"] : v7_anchor["end"]] == v7_anchor["text"]
    # the draft is a valid set: it loads with every anchor verified against its paper
    loaded = load_quote_set(out, papers_path=[SYNTH_DIR, REPO.parent / "shared" / "papers"])
    assert len(loaded.unreviewed) == 3 and len(loaded.faithful) == 1 and len(loaded.fabricated) == 1
    assert loaded.paper_ids == ("synthetic", "1706.03762v7")


def test_csv_and_parquet_outputs_give_the_same_draft_as_json_lines(tmp_path):
    rows = records()
    rows[0] = {**rows[0], "quote": FOUND.replace("tidal phases", "tidal\nphases")}  # a line break inside a cell
    jsonl = draft(tmp_path, rows, name="from-jsonl")
    csv_path = write_csv(tmp_path / "outputs.csv", [{**r, "cited_chunk": r.get("cited_chunk", "")} for r in rows])
    assert [r.line for r in read_outputs(csv_path)] == [2, 4, 5, 6]  # the line each record starts on
    code, _, err = run("set", "init", str(csv_path), "--papers", str(SYNTH_DIR), "-o", str(tmp_path / "from-csv.yaml"))
    assert code == 0, err
    pd = pytest.importorskip("pandas")
    parquet = tmp_path / "outputs.parquet"
    pd.DataFrame(rows).to_parquet(parquet)
    code, _, err = run("set", "init", str(parquet), "--papers", str(SYNTH_DIR), "-o", str(tmp_path / "from-parquet.yaml"))
    assert code == 0, err

    def strip(path: Path) -> list[dict]:  # ids of unnamed records come from their line, which differs by format
        return [{k: v for k, v in q.items() if k != "id"} for q in quotes_by_id(path).values()]

    assert strip(tmp_path / "from-csv.yaml") == strip(jsonl) == strip(tmp_path / "from-parquet.yaml")


def test_an_existing_file_is_never_replaced_without_force(tmp_path):
    out = draft(tmp_path)
    before = out.read_bytes()
    code, _, err = run("set", "init", str(tmp_path / "outputs.jsonl"), "--papers", str(SYNTH_DIR), "-o", str(out))
    assert code == 2 and err.strip() == f"quotelocate: error: {out}: already exists; not overwritten (use --force to replace it)"
    assert out.read_bytes() == before
    write_jsonl(tmp_path / "outputs.jsonl", records()[:2])
    code, _, err = run("set", "init", str(tmp_path / "outputs.jsonl"), "--papers", str(SYNTH_DIR), "-o", str(out), "--force")
    assert code == 0, err
    assert len(quotes_by_id(out)) == 2
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left behind


def test_without_o_the_draft_goes_to_the_sets_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_SETS", str(tmp_path / "sets"))
    code, printed, err = run("set", "init", str(write_jsonl(tmp_path / "Run_7.jsonl", records())), "--papers", str(SYNTH_DIR))
    assert code == 0, err
    assert (tmp_path / "sets" / "run-7.yaml").is_file() and "run-7.yaml" in printed
    assert workbench.draft_set_names(tmp_path / "sets") == ["run-7"]
    assert "not on the papers search path" in err and str(SYNTH_DIR) in err  # how to open it later


@pytest.mark.parametrize(
    "content, suffix, expected",
    [
        ('{"paper": "synthetic.pdf", "quote": "ok quote here"}\n\n{"paper": "synthetic.pdf", "quote": 7}\n',
         ".jsonl", "line 3: 'quote' must be a string"),
        ('{"paper": "synthetic.pdf", "quote": "x"}\n{"paper": "synthetic.pdf", "quote": "y", "label": "true"}\n',
         ".jsonl", "line 2: 'label' must be one of faithful, fabricated or absent"),
        ('{"paper": "../synthetic.pdf", "quote": "x"}\n', ".jsonl", "line 1: 'paper' must be a bare file name"),
        ('{"paper": "synthetic.pdf", "quote": "x"\n', ".jsonl", "line 1: invalid JSON"),
        ('paper,quote,cited_chunk\nsynthetic.pdf,"a, b",1\nsynthetic.pdf,c,two\n', ".csv",
         "line 3: 'cited_chunk' must be a whole number from 0"),
        ('paper,text\nsynthetic.pdf,a\n', ".csv", "line 1: the header has no 'quote' column"),
        ('{"paper": "missing.pdf", "quote": "x"}\n', ".jsonl", "line 1: paper 'missing.pdf' is in neither"),
        ('{"paper": "synthetic.pdf", "quote": "x", "cited_chunk": 999}\n', ".jsonl",
         "line 1: cited_chunk 999 is not a chunk of synthetic.pdf"),
        ('{"paper": "synthetic.pdf", "quote": "x", "id": "a"}\n{"paper": "synthetic.pdf", "quote": "y", "id": "a"}\n',
         ".jsonl", "line 2: id 'a' is used again (first on line 1)"),
    ],
    ids=["wrong-type", "bad-label", "path-as-paper", "bad-json", "csv-bad-chunk", "csv-no-quote", "paper-missing",
         "chunk-out-of-range", "duplicate-id"],
)
def test_a_bad_record_exits_2_with_one_line_naming_file_and_line(tmp_path, content, suffix, expected):
    source = tmp_path / f"outputs{suffix}"
    source.write_text(content, encoding="utf-8")
    out = tmp_path / "draft.yaml"
    code, printed, err = run("set", "init", str(source), "--papers", str(SYNTH_DIR), "-o", str(out))
    assert code == 2 and printed == ""
    assert err.count("\n") == 1 and err.startswith(f"quotelocate: error: {source}: ") and expected in err, err
    assert not out.exists()


def test_set_is_a_command_group_whose_help_loads_nothing_heavy():
    import subprocess
    import sys

    probe = ("import sys, contextlib, io\n"
             "from quotelocate.interface import cli\n"
             "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
             "    try:\n"
             "        cli.main(['set', 'init', '--help'])\n"
             "    except SystemExit:\n"
             "        pass\n"
             "print('OUTPUTS' in out.getvalue() and '--papers' in out.getvalue(),\n"
             "      [m for m in ('fitz', 'pymupdf', 'numpy', 'pandas') if m in sys.modules])")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.stdout.strip() == "True []", result.stderr
    code, printed, _ = run("set")
    assert code == 2 and "init" in printed


# -- the unreviewed label state ------------------------------------------------------------


def test_unreviewed_quotes_load_with_or_without_a_proposed_anchor_and_tags(tmp_path, synth):
    out = draft(tmp_path)
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    data["quotes"][0]["tags"] = []
    del data["quotes"][0]["anchor"]
    out.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    qs = load_quote_set(out, papers_path=[SYNTH_DIR])
    q = qs.by_id("q1")
    assert q.label == "unreviewed" and q.anchor is None and q.tags == () and not q.reviewed
    assert [x.id for x in qs.unreviewed] == ["q1", "q4"] and [x.id for x in qs.fabricated] == ["fab-1"]


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda q: q.update(label="maybe"), "'maybe' is not one of faithful, fabricated, unreviewed"),
        (lambda q: q["anchor"].update(start=q["anchor"]["start"] + 1), "anchor drifted"),
        (lambda q: q.update(allow={"readings": ["math-spacing"]}), "only a faithful quote has allowances"),
        (lambda q: q.update(tags=["no-such-tag"]), "unknown tag 'no-such-tag' for a unreviewed quote"),
    ],
    ids=["unknown-label", "drifted-proposal", "allowance", "unknown-tag"],
)
def test_an_unreviewed_quote_is_checked_like_any_other(tmp_path, change, expected):
    out = draft(tmp_path)
    data = yaml.safe_load(out.read_text(encoding="utf-8"))
    change(data["quotes"][0])
    out.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(DatasetError, match="quote 'q1'") as info:
        load_quote_set(out, papers_path=[SYNTH_DIR])
    assert expected in str(info.value)


def small_set(unreviewed: int) -> QuoteSet:
    doc = Document.from_text("The ferry did not run on Sunday because the river was low after a dry summer.")
    text = "the river was low after a dry summer"
    start = doc.text.index(text)
    quotes = [
        Quote(id="f1", text=text, label="faithful", tags=("plain",), anchor=Anchor(1, start, start + len(text), text)),
        Quote(id="x1", text="the river was high after a wet summer", label="fabricated", tags=("word-swap",)),
    ]
    quotes += [Quote(id=f"u{i}", text="The ferry did not run on Sunday", label="unreviewed") for i in range(unreviewed)]
    return QuoteSet.from_quotes(quotes, document=doc)


def test_evaluation_counts_only_labelled_quotes_and_says_how_many_are_unreviewed():
    from quotelocate.evaluation import evaluate

    with_drafts = evaluate(small_set(3), ["recommended"], repeats=1)
    without = evaluate(small_set(0), ["recommended"], repeats=1)
    assert with_drafts.meta["unreviewed"] == 3 and without.meta["unreviewed"] == 0
    assert list(with_drafts.verdicts.loc[with_drafts.verdicts["config"] == "recommended", "id"]) == ["f1", "x1"]
    cols = ["n_faithful", "n_fabricated", "false_reject", "false_accept"]
    assert with_drafts.metrics[cols].equals(without.metrics[cols])
    from quotelocate.evaluation.ablation import add_ablation

    ablated = add_ablation(with_drafts, small_set(3))  # as `quotelocate eval --ablation` calls it, with the whole set
    assert ablated.ablation is not None and len(ablated.ablation)
    only_drafts = QuoteSet.from_quotes(small_set(2).unreviewed, document=small_set(0).document())
    with pytest.raises(DatasetError, match="all 2 quotes are unreviewed"):
        evaluate(only_drafts, ["recommended"], repeats=1)


def test_eval_command_says_how_many_quotes_are_unreviewed(tmp_path, monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_RUNS", str(tmp_path / "runs.sqlite3"))
    out = draft(tmp_path)
    code, printed, err = run("eval", str(out), "--papers", str(SYNTH_DIR), "--preset", "recommended", "--repeats", "1",
                             "--no-store", "--workers", "1")
    assert code == 0, err
    assert "2 unreviewed quotes are not counted" in printed
    assert "draft: 2 quotes (1 faithful, 1 fabricated)" in printed


# -- the Label view's logic ---------------------------------------------------------------


def test_label_queue_keeps_file_order_and_puts_skipped_quotes_last():
    qs = small_set(3)
    assert workbench.label_queue(qs) == ("u0", "u1", "u2")
    assert workbench.label_queue(qs, skipped=["u0"]) == ("u1", "u2", "u0")


def test_a_typed_anchor_is_found_under_the_rules_and_a_similar_passage_is_refused(synth):
    locator = Locator(synth, preset("recommended"))
    anchor = workbench.anchor_from_text(locator, FOUND)  # typed with "fi" and a space, the paper has ﬁ and a line break
    assert anchor.text == synth.text[anchor.start : anchor.end] and "\ufb01" in anchor.text and anchor.page == 1
    with pytest.raises(QuoteInputError, match="not in the paper under the rules .not-found: .*'41' in the document, '42' in the quote"):
        workbench.anchor_from_text(locator, CHANGED)
    with pytest.raises(QuoteInputError, match="empty"):
        workbench.anchor_from_text(locator, "  ")


def test_a_decision_needs_an_anchor_for_faithful_drops_it_for_fabricated_and_checks_tags():
    q = small_set(0).by_id("f1")
    fab = workbench.decided_quote(q, label="fabricated", tags=["number"])
    assert fab.label == "fabricated" and fab.anchor is None
    assert workbench.decided_quote(q, label="faithful", tags=["plain"], anchor=q.anchor).anchor == q.anchor
    with pytest.raises(QuoteInputError, match="no passage to anchor"):
        workbench.decided_quote(q, label="faithful", tags=["plain"], anchor=None)
    with pytest.raises(QuoteInputError, match="tags number: not tags of a faithful quote"):
        workbench.decided_quote(q, label="faithful", tags=["number"], anchor=q.anchor)
    with pytest.raises(QuoteInputError, match="at least one tag"):
        workbench.decided_quote(q, label="fabricated", tags=[])


def test_save_quote_rewrites_one_quote_atomically_and_refuses_a_file_changed_meanwhile(tmp_path, synth):
    path = draft(tmp_path)
    qs = load_quote_set(path, papers_path=[SYNTH_DIR])
    before = quotes_by_id(path)
    case = workbench.label_case(qs, "q1", Locator(synth, preset("recommended")))
    assert case.anchor == qs.by_id("q1").anchor and case.occurrences == (case.anchor,)
    assert case.verdict.accepted and case.paper.paper_id == "synthetic"
    decided = workbench.decided_quote(case.quote, label="faithful", tags=["ligature", "linebreak"], anchor=case.anchor)
    digest = editing.save_quote(path, decided, expected_sha256=qs.set_hash, document=synth)
    after = quotes_by_id(path)
    assert after["q1"]["label"] == "faithful" and after["q1"]["tags"] == ["ligature", "linebreak"]
    assert {k: v for k, v in after.items() if k != "q1"} == {k: v for k, v in before.items() if k != "q1"}
    assert path.read_text(encoding="utf-8").startswith("# Draft quote set written by `quotelocate set init`")
    reloaded = load_quote_set(path, papers_path=[SYNTH_DIR])
    assert reloaded.set_hash == digest
    held = workbench.with_quote(qs, decided, set_hash=digest)
    assert held.by_id("q1") == reloaded.by_id("q1") and held.for_paper("synthetic").by_id("q1").label == "faithful"
    assert workbench.label_queue(held) == workbench.label_queue(reloaded) == ("q4",)
    # someone else changed the file: nothing is overwritten
    text = path.read_bytes()
    with pytest.raises(DatasetError, match="changed on disk since it was opened"):
        editing.save_quote(path, decided, expected_sha256=qs.set_hash, document=synth)
    # an anchor that does not read the paper is refused, and the file stays as it was
    bad = Quote(**{**decided.__dict__, "anchor": Anchor(1, 0, 5, "wrong")})
    with pytest.raises(DatasetError, match="does not read the paper's text"):
        editing.save_quote(path, bad, expected_sha256=digest, document=synth)
    assert path.read_bytes() == text
    # a new quote from a passage is appended, and its id is new
    anchor = workbench.anchor_from_text(Locator(synth, preset("recommended")), FAITHFUL)
    new = workbench.added_quote(held, held.for_paper("synthetic"), anchor, FAITHFUL)
    editing.save_quote(path, new, expected_sha256=digest, document=synth, add=True)
    assert quotes_by_id(path)[new.id]["label"] == "faithful" and new.id.startswith("synthetic-added-")
    assert len(load_quote_set(path, papers_path=[SYNTH_DIR]).faithful) == 3


# -- the Label view (AppTest) -------------------------------------------------------------


@pytest.fixture()
def label_app(tmp_path, monkeypatch):
    from streamlit.testing.v1 import AppTest

    sets = tmp_path / "sets"
    sets.mkdir()
    rows = records() + [{"paper": "synthetic.pdf", "quote": HOSTILE, "id": "hostile"}]
    source = write_jsonl(tmp_path / "outputs.jsonl", rows)
    code, _, err = run("set", "init", str(source), "--papers", str(SYNTH_DIR), "-o", str(sets / "pipeline.yaml"))
    assert code == 0, err
    monkeypatch.setenv("QUOTELOCATE_RUNS", str(tmp_path / "runs.sqlite3"))
    monkeypatch.setenv("QUOTELOCATE_SETS", str(sets))
    monkeypatch.setenv("QUOTELOCATE_PAPERS", f"{REPO.parent / 'shared' / 'papers'}:{SYNTH_DIR}")
    monkeypatch.chdir(REPO)
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.query_params["view"] = "Label"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at, sets / "pipeline.yaml"


def texts(at) -> list[str]:
    return [t.value for t in at.text]


def click(at, key: str):
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_label_view_confirms_rejects_and_skips_saving_each_decision(label_app):
    at, path = label_app
    assert at.selectbox(key="label_set").value == "pipeline"
    assert texts(at)[0] == "3 unreviewed of 5 quotes · 1 faithful · 1 fabricated · 0 skipped"
    assert "q1 · paper synthetic.pdf" in texts(at)
    assert any(t.startswith("Verdict: normalized") for t in texts(at))
    assert at.get("image") and "proposed anchor highlighted" in at.get("image")[0].proto.imgs[0].caption
    click(at, "label_faithful")
    assert at.success[0].value == "Saved q1 as faithful."
    assert quotes_by_id(path)["q1"]["label"] == "faithful"
    # next: the invented quote, with its cause and closest passage shown as text
    assert "q4 · paper synthetic.pdf" in texts(at)
    assert any(t.startswith("Closest passage (near miss), page") for t in texts(at))
    before = path.read_bytes()
    click(at, "label_skip")
    assert path.read_bytes() == before and "hostile · paper synthetic.pdf" in texts(at)
    # a quote carrying HTML and Markdown is shown literally, never rendered
    assert HOSTILE in [c.value for c in at.code]
    assert all("onerror" not in m.value and "**bold**" not in m.value for m in at.markdown)
    click(at, "label_fabricated")
    saved = quotes_by_id(path)["hostile"]
    assert saved["label"] == "fabricated" and "anchor" not in saved and saved["tags"]
    assert "q4 · paper synthetic.pdf" in texts(at)  # the skipped quote comes back last
    click(at, "label_fabricated")
    assert any(s.value == "Every quote of this set is labelled." for s in at.success)
    assert load_quote_set(path, papers_path=[SYNTH_DIR]).unreviewed == ()


def test_label_view_fixes_an_anchor_and_adds_a_quote_from_a_passage(label_app):
    at, path = label_app
    at.text_area(key="label_anchor_q1").input(CHANGED).run()
    click(at, "label_use_typed")
    assert any("not in the paper under the rules" in c.value for c in at.code)  # refused: a similar passage is not enough
    assert quotes_by_id(path)["q1"]["anchor"]["start"] == 409
    at.text_area(key="label_anchor_q1").input(FAITHFUL).run()
    click(at, "label_use_typed")
    fixed = quotes_by_id(path)["q1"]
    assert fixed["label"] == "unreviewed" and fixed["anchor"]["text"].replace("\n", " ") == FAITHFUL
    assert at.success[0].value.startswith("Anchor of q1 set to page 1")
    at.text_area(key="label_new_passage").input("On a benchmark of 41 gauges").run()
    click(at, "label_add")
    added = [q for q in quotes_by_id(path).values() if q["id"].startswith("synthetic-added-")]
    assert len(added) == 1 and added[0]["label"] == "faithful" and added[0]["text"] == "On a benchmark of 41 gauges"
    assert texts(at)[0].startswith("3 unreviewed of 6 quotes · 2 faithful")


def test_label_view_never_overwrites_a_file_changed_by_someone_else(label_app):
    at, path = label_app
    edited = path.read_text(encoding="utf-8").replace("Label the unreviewed quotes", "Someone else edited this")
    path.write_text(edited, encoding="utf-8")  # after the view read the file, before the click
    click(at, "label_faithful")
    assert any("changed on disk since it was opened" in c.value for c in at.code)
    assert path.read_text(encoding="utf-8") == edited
    assert "q1 · paper synthetic.pdf" in texts(at)  # reopened from the file as it now is
    click(at, "label_faithful")
    assert quotes_by_id(path)["q1"]["label"] == "faithful"
    assert "Someone else edited this" in path.read_text(encoding="utf-8")


def test_cause_tags_name_real_causes_and_real_fabrication_tags():
    from quotelocate.data.drafting import CAUSE_TAGS
    from quotelocate.data.quoteset import FABRICATED_TAGS
    from quotelocate.locate import VERDICT_CAUSES

    assert set(CAUSE_TAGS) <= set(VERDICT_CAUSES)
    assert set(CAUSE_TAGS.values()) <= set(FABRICATED_TAGS)


def test_the_published_schema_accepts_an_unreviewed_quote_as_the_loader_does(synth):
    import jsonschema

    from quotelocate.data.quoteset import LABEL_STATES
    from quotelocate.schema import load_schema

    schema = load_schema("quote-set")
    check = jsonschema.Draft202012Validator(schema)
    assert tuple(schema["$defs"]["quote"]["properties"]["label"]["enum"]) == LABEL_STATES
    data = yaml.safe_load((SYNTH_DIR / "synthetic.yaml").read_text(encoding="utf-8"))
    data["quotes"].append({"id": "draft-1", "text": "a quote nobody checked", "label": "unreviewed", "tags": []})
    assert list(check.iter_errors(data)) == []
    data["quotes"][-1]["tags"] = ["no-such-tag"]
    assert list(check.iter_errors(data)), "an unknown tag is refused for an unreviewed quote too"
    data["quotes"][-1]["tags"] = []
    data["quotes"][0]["tags"] = []
    assert list(check.iter_errors(data)), "a faithful quote still needs a tag"


def test_every_occurrence_of_an_anchor_is_offered_with_its_page():
    doc = Document.from_text("The river was low.\fThe river was low again, and the river was low once more.")
    found = workbench.anchors_of_text(doc, "river was low")
    assert [(a.page, doc.text[a.start : a.end]) for a in found] == [(1, "river was low"), (2, "river was low"),
                                                                    (2, "river was low")]
    assert workbench.anchors_of_text(doc, "river was high") == () and len(workbench.anchors_of_text(doc, "r", limit=2)) == 2
