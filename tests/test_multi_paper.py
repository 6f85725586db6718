"""Quote sets that span several papers (format 2): loading and validation, evaluation
per paper and overall, the ``--paper`` filter, the command line, the HTML report and the
run store. The real set joins the labelled quotes of both bundled Attention copies."""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
from pathlib import Path

import pytest
import yaml

from quotelocate.data.quoteset import MULTI_FORMAT_VERSION, load_quote_set
from quotelocate.errors import DatasetError
from quotelocate.evaluation import evaluate
from quotelocate.evaluation.report import render_html
from quotelocate.evaluation.runstore import RunStore
from quotelocate.interface.cli import main

from _quote_sets import PAPER_TEXT, q

DATASETS = Path(__file__).resolve().parent.parent / "datasets"


def write_attention_pair(folder: Path, *, group_size: int = 3) -> Path:
    """A format 2 set over v7 and v5, made of the bundled sets' own quotes and pins."""
    papers, quotes = [], []
    for pid, name in (("v7", "attention-v7"), ("v5", "attention-v5")):
        raw = yaml.safe_load((DATASETS / f"{name}.yaml").read_text(encoding="utf-8"))
        chunking = dict(raw.get("chunking") or {})
        chunking["group_size"] = group_size
        papers.append({"id": pid, **raw["paper"], "chunking": chunking})
        for item in raw["quotes"]:
            quotes.append({**item, "paper": pid})
    assert len({x["id"] for x in quotes}) == len(quotes)
    data = {"format": MULTI_FORMAT_VERSION, "name": "attention-pair", "papers": papers, "quotes": quotes}
    path = folder / "attention-pair.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def pair_path(tmp_path_factory, attention_pdfs) -> Path:
    return write_attention_pair(tmp_path_factory.mktemp("pair"))


@pytest.fixture(scope="module")
def attention_pdfs():
    try:
        load_quote_set("attention-v5")
    except Exception as exc:  # the papers must be on the search path for the real-set tests
        pytest.fail(f"attention PDFs not on the papers search path: {exc}")


@pytest.fixture(scope="module")
def pair(pair_path):
    return load_quote_set(pair_path)


@pytest.fixture(scope="module")
def pair_eval(pair):
    return evaluate(pair, ["recommended", "exact"], repeats=1)


# -- loading --------------------------------------------------------------------------


def test_multi_paper_set_loads_one_set_per_paper(pair):
    assert pair.multi_paper and pair.paper_ids == ("v7", "v5")
    v7, v5 = pair.for_paper("v7"), pair.for_paper("v5")
    assert v7.paper.file == "1706.03762v7.pdf" and v5.paper.file == "1706.03762v5.pdf"
    assert len(v7) + len(v5) == len(pair) == 204 + 111
    assert {q.paper for q in v7} == {"v7"} and {q.paper for q in v5} == {"v5"}
    assert v7.document().sha256 != v5.document().sha256
    assert v7.chunks != v5.chunks
    with pytest.raises(DatasetError, match=r"spans 2 papers \(v7, v5\).*--paper ID"):
        pair.document()
    with pytest.raises(DatasetError, match=r"no paper 'v6'.*papers: v7, v5"):
        pair.for_paper("v6")


def test_paper_filter_opens_only_that_paper(pair_path):
    v5 = load_quote_set(pair_path, paper="v5")
    assert not v5.multi_paper and v5.paper_id == "v5" and len(v5) == 111
    assert v5.document().name.endswith("1706.03762v5.pdf")
    with pytest.raises(DatasetError, match=r"no paper 'nope' in this set \(papers: v7, v5\)"):
        load_quote_set(pair_path, paper="nope")


def test_single_paper_sets_load_unchanged():
    qs = load_quote_set("attention-v7")
    assert not qs.multi_paper and qs.paper_sets == () and qs.parts == (qs,)
    assert qs.paper_id == "1706.03762v7" and qs.paper_ids == ("1706.03762v7",)
    assert all(q.paper == "" for q in qs)
    assert load_quote_set("attention-v7", paper="1706.03762v7").set_hash == qs.set_hash


# -- validation -------------------------------------------------------------------------

OTHER_TEXT = "A second paper about convolutional sequence models.\nIt has one page only.\n"


def tiny_multi(folder: Path, *, papers_extra: str = "", quotes_extra: str = "", top_extra: str = "") -> Path:
    pdir = folder / "papers"
    pdir.mkdir(parents=True, exist_ok=True)
    entries = []
    for pid, fname, text in (("a", "a.txt", PAPER_TEXT), ("b", "b.txt", OTHER_TEXT)):
        (pdir / fname).write_text(text, encoding="utf-8")
        sha = hashlib.sha256(text.encode()).hexdigest()
        entries.append(
            f"  - id: {pid}\n    file: {fname}\n    sha256: {sha}\n"
            f"    text: {{extractor: text, extractor_version: '1', flags: 0, sha256: {sha}}}\n"
        )
    start = PAPER_TEXT.index("dominant")
    b_start = OTHER_TEXT.index("convolutional")
    body = f"""format: 2
name: tiny-multi
{top_extra}papers:
{"".join(entries)}{papers_extra}quotes:
  - id: a1
    paper: a
    text: "dominant sequence transduction models"
    label: faithful
    tags: [plain]
    anchor: {{page: 1, start: {start}, end: {start + 37}, text: "dominant sequence transduction models"}}
  - id: b1
    paper: b
    text: {q("convolutional sequence models")}
    label: faithful
    tags: [plain]
    anchor: {{page: 1, start: {b_start}, end: {b_start + 29}, text: "convolutional sequence models"}}
  - id: b2
    paper: b
    text: "A second paper about recurrent sequence models."
    label: fabricated
    tags: [word-swap]
{quotes_extra}"""
    path = folder / "tiny-multi.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def test_tiny_multi_set_is_valid(tmp_path):
    qs = load_quote_set(tiny_multi(tmp_path), papers_path=tmp_path / "papers")
    assert qs.paper_ids == ("a", "b") and [len(p) for p in qs.parts] == [1, 2]
    ev = evaluate(qs, ["recommended"], repeats=1)
    bp = ev.by_paper[ev.by_paper["config"] == "recommended"]
    assert list(bp["paper"]) == ["a", "b"]
    assert list(bp["n_faithful"]) == [1, 1] and list(bp["n_fabricated"]) == [0, 1]
    assert ev.metrics.loc[0, "false_reject"] == 0.0 and ev.metrics.loc[0, "false_accept"] == 0.0


UNKNOWN_PAPER = "  - id: c1\n    paper: c\n    text: x y z w\n    label: fabricated\n    tags: [word-swap]\n"
NO_PAPER = "  - id: c1\n    text: x y z w\n    label: fabricated\n    tags: [word-swap]\n"
UNQUOTED_PAPER = "  - id: c\n    file: c.txt\n    sha256: '" + "0" * 64 + "'\n"
BAD_SHA_PAPER = "  - id: c\n    file: c.txt\n    sha256: nothex\n"
DUPLICATE_PAPER = "  - id: a\n    file: c.txt\n    sha256: '" + "1" * 64 + "'\n"


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"quotes_extra": UNKNOWN_PAPER}, ("line 31", "quote 'c1' (quotes[3])", "field 'paper'", "'c' is not one of the set's papers (a, b)")),
        ({"quotes_extra": NO_PAPER}, ("quote 'c1' (quotes[3])", "field 'paper'", "missing required field")),
        ({"papers_extra": UNQUOTED_PAPER}, ("paper 'c' (papers[2])", "field 'id'", "no quote names this paper")),
        ({"papers_extra": BAD_SHA_PAPER}, ("line 14", "paper 'c' (papers[2])", "field 'sha256'", "64 hex digits")),
        ({"papers_extra": DUPLICATE_PAPER}, ("paper 'a' (papers[2])", "field 'id'", "duplicate paper id (first used on line 4)")),
        ({"top_extra": "chunking: {file: chunks.jsonl}\n"}, ("field 'chunking.file'", "give it as papers[i].chunking.file")),
    ],
    ids=["unknown-paper", "quote-without-paper", "paper-without-quotes", "bad-sha", "duplicate-paper-id", "set-wide-chunk-file"],
)
def test_bad_multi_set_errors_name_file_line_item_and_field(tmp_path, kwargs, words):
    path = tiny_multi(tmp_path, **kwargs)
    with pytest.raises(DatasetError) as info:
        load_quote_set(path, papers_path=tmp_path / "papers")
    msg = str(info.value)
    assert msg.startswith(str(path)), msg
    for w in words:
        assert w in msg, msg


def test_missing_paper_names_the_paper_entry(tmp_path):
    path = tiny_multi(tmp_path)
    (tmp_path / "papers" / "b.txt").unlink()
    with pytest.raises(DatasetError, match=r"line 8: paper 'b' \(papers\[1\]\): paper 'b.txt' is not on the papers search path"):
        load_quote_set(path, papers_path=tmp_path / "papers")


def test_anchor_errors_count_quotes_across_papers(tmp_path):
    path = tiny_multi(tmp_path)
    text = path.read_text(encoding="utf-8")
    b_start = OTHER_TEXT.index("convolutional")
    path.write_text(text.replace(f"start: {b_start}, end: {b_start + 29}", f"start: {b_start + 1}, end: {b_start + 30}"), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"line 2\d: quote 'b1' \(quotes\[1\]\): field 'anchor': anchor drifted"):
        load_quote_set(path, papers_path=tmp_path / "papers")


def test_a_one_paper_set_refuses_paper_fields(tmp_path):
    from _quote_sets import write_tiny_set

    path, papers = write_tiny_set(tmp_path)
    text = path.read_text(encoding="utf-8").replace("  - id: f2\n", "  - id: f2\n    paper: a\n")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasetError, match=r"quote 'f2' \(quotes\[1\]\): field 'paper': unknown field"):
        load_quote_set(path, papers_path=papers)


# -- evaluation -------------------------------------------------------------------------


def test_rates_per_paper_match_each_paper_evaluated_alone(pair, pair_eval):
    bp = pair_eval.by_paper
    assert list(bp["config"]) == ["recommended", "recommended", "exact", "exact"]
    assert list(bp["paper"]) == ["v7", "v5", "v7", "v5"]
    for pid in ("v7", "v5"):
        alone = evaluate(pair.for_paper(pid), ["recommended", "exact"], repeats=1).metrics.set_index("config")
        mine = bp[bp["paper"] == pid].set_index("config")
        for col in ("n_faithful", "n_fabricated", "false_reject", "fr_low", "fr_high", "false_accept", "fa_low", "fa_high", "anchor_accuracy"):
            assert list(mine[col]) == pytest.approx(list(alone[col]), nan_ok=True), (pid, col)
    overall = pair_eval.metrics.set_index("config")
    for config in ("recommended", "exact"):
        rows = bp[bp["config"] == config]
        assert rows["n_faithful"].sum() == overall.loc[config, "n_faithful"]
        rejected = (rows["false_reject"] * rows["n_faithful"]).sum()
        assert rejected / rows["n_faithful"].sum() == pytest.approx(overall.loc[config, "false_reject"])
    v = pair_eval.verdicts
    assert set(v["paper"]) == {"v7", "v5"} and len(v) == 2 * len(pair)
    assert list(v[v["config"] == "exact"]["id"]) == [q.id for q in pair.quotes]
    assert pair_eval.meta["paper"] == "2 papers" and [p["id"] for p in pair_eval.meta["papers"]] == ["v7", "v5"]
    rec = overall.loc["recommended"]
    assert rec["false_accept"] == 0.0


def test_workers_give_the_same_verdicts(pair, pair_eval):
    par = evaluate(pair, ["recommended", "exact"], repeats=1, workers=2)
    cols = ["config", "id", "paper", "accepted", "status", "cause", "start", "end"]
    assert par.verdicts[cols].equals(pair_eval.verdicts[cols])
    assert par.by_paper["false_reject"].equals(pair_eval.by_paper["false_reject"])


def test_single_paper_evaluation_has_one_paper_row():
    qs = load_quote_set("attention-v5")
    ev = evaluate(qs, ["recommended", "exact"], repeats=1)
    assert list(ev.by_paper["paper"]) == ["1706.03762v5"] * 2
    assert list(ev.by_paper["false_reject"]) == list(ev.metrics["false_reject"])
    assert set(ev.verdicts["paper"]) == {"1706.03762v5"}


def test_report_and_json_carry_the_per_paper_table(pair_eval):
    html = render_html(pair_eval)
    assert "<h2>Per paper</h2>" in html and "<td>v5</td>" in html and "<td>v7</td>" in html
    again = type(pair_eval).from_json(json.loads(json.dumps(pair_eval.to_json())))
    assert again.by_paper.equals(pair_eval.by_paper)


def test_run_store_keeps_papers_and_migrates_a_schema_1_store(tmp_path, pair_eval):
    path = tmp_path / "runs.sqlite3"
    store = RunStore(path)
    first = store.save(pair_eval)
    # the store as schema 1 wrote it: no paper column
    with sqlite3.connect(path) as con:
        con.execute("ALTER TABLE verdicts DROP COLUMN paper")
        con.execute("PRAGMA user_version = 1")
    old = RunStore(path).load(first)
    assert set(old.verdicts["paper"]) == {""} and old.by_paper.equals(pair_eval.by_paper)
    second = RunStore(path).save(pair_eval)
    loaded = RunStore(path).load(second)
    assert list(loaded.verdicts["paper"]) == list(pair_eval.verdicts["paper"])
    assert set(RunStore(path).load(first).verdicts["paper"]) == {""}
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == 3


# -- command line -----------------------------------------------------------------------


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_cli_eval_prints_every_rate_per_paper(pair_path):
    code, out, err = run_cli("eval", str(pair_path), "--preset", "recommended", "--repeats", "1", "--no-store")
    assert code == 0, err
    assert "attention-pair: 315 quotes" in out and "on 2 papers" in out
    table = out.split("per paper (quotes: faithful + fabricated)")[1].split("\n\n")[0].splitlines()
    rows = [line.split() for line in table if line.strip()]
    assert rows[0][:3] == ["paper", "config", "quotes"]
    assert [r[:2] for r in rows[1:]] == [["v7", "recommended"], ["v7", "exact"], ["v5", "recommended"], ["v5", "exact"]]
    assert all(r[3] == "+" and "%" in r[5] for r in rows[1:])


def test_cli_eval_paper_filter(pair_path):
    code, out, err = run_cli("eval", str(pair_path), "--paper", "v5", "--preset", "exact", "--repeats", "1", "--no-store", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["meta"]["n_quotes"] == 111 and {v["paper"] for v in data["verdicts"]} == {"v5"}
    assert [r["paper"] for r in data["by_paper"]] == ["v5"]
    code, out, err = run_cli("eval", str(pair_path), "--paper", "v6", "--no-store")
    assert code == 2 and "no paper 'v6' in this set (papers: v7, v5)" in err


# -- a folder of sets --------------------------------------------------------------------


def one_paper_set(folder: Path, stem: str, text: str, quote_id: str, words: str) -> Path:
    """A format 1 set over the text file ``papers/<stem>.txt`` with one faithful quote."""
    pdir = folder / "papers"
    pdir.mkdir(parents=True, exist_ok=True)
    (pdir / f"{stem}.txt").write_text(text, encoding="utf-8")
    sha = hashlib.sha256(text.encode()).hexdigest()
    start = text.index(words)
    body = f"""format: 1
name: set-{stem}
paper:
  file: {stem}.txt
  sha256: {sha}
  text: {{extractor: text, extractor_version: '1', flags: 0, sha256: {sha}}}
quotes:
  - id: {quote_id}
    text: {q(words)}
    label: faithful
    tags: [plain]
    anchor: {{page: 1, start: {start}, end: {start + len(words)}, text: {q(words)}}}
  - id: {quote_id}-fab
    text: {q(words.replace("sequence", "image"))}
    label: fabricated
    tags: [word-swap]
"""
    sets = folder / "sets"
    sets.mkdir(exist_ok=True)
    path = sets / f"{stem}.yaml"
    path.write_text(body, encoding="utf-8")
    return path


@pytest.fixture()
def set_folder(tmp_path) -> Path:
    one_paper_set(tmp_path, "beta", OTHER_TEXT, "b1", "convolutional sequence models")
    one_paper_set(tmp_path, "alpha", PAPER_TEXT, "a1", "dominant sequence transduction models")
    return tmp_path / "sets"


def test_a_folder_of_sets_is_one_set_of_several_papers(set_folder):
    from quotelocate.data.quoteset import set_outline

    papers = set_folder.parent / "papers"
    qs = load_quote_set(set_folder, papers_path=papers)
    assert qs.multi_paper and qs.paper_ids == ("alpha", "beta")  # file name order
    assert [q.id for q in qs.quotes] == ["a1", "a1-fab", "b1", "b1-fab"]
    assert [q.paper for q in qs.quotes] == ["alpha", "alpha", "beta", "beta"]
    outline = set_outline(set_folder)
    assert outline.multi_paper and outline.paper_ids == qs.paper_ids and outline.set_hash == qs.set_hash
    assert outline.quote_ids == tuple(q.id for q in qs.quotes)
    assert outline.labelled_paper_ids == qs.paper_ids and outline.unreviewed_ids == ()  # every quote is labelled
    one = load_quote_set(set_folder, papers_path=papers, paper="beta")
    assert not one.multi_paper and [q.id for q in one.quotes] == ["b1", "b1-fab"]
    ev = evaluate(qs, ["recommended"], repeats=1)
    bp = ev.by_paper[ev.by_paper["config"] == "recommended"]
    assert list(bp["paper"]) == ["alpha", "beta"] and list(bp["n_fabricated"]) == [1, 1]
    assert ev.metrics.loc[0, "false_reject"] == 0.0 and ev.metrics.loc[0, "false_accept"] == 0.0
    # the hash follows the files: editing one changes it
    path = set_folder / "beta.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("tags: [word-swap]", "tags: [word-swap, number]"), encoding="utf-8")
    assert set_outline(set_folder).set_hash != qs.set_hash


def test_a_folder_of_sets_refuses_an_id_used_twice_and_names_both_files(set_folder):
    one_paper_set(set_folder.parent, "gamma", OTHER_TEXT + "More text.\n", "b1", "convolutional sequence models")
    with pytest.raises(DatasetError) as info:
        load_quote_set(set_folder, papers_path=set_folder.parent / "papers")
    msg = str(info.value)
    assert "gamma.yaml" in msg and "quote 'b1'" in msg and "beta.yaml" in msg, msg


def test_a_folder_of_sets_on_the_command_line(set_folder, capsys):
    papers = set_folder.parent / "papers"
    code = main(["eval", str(set_folder), "--papers", str(papers), "--preset", "recommended", "--no-store"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "per paper" in out and "alpha" in out and "beta" in out
    code = main(["eval", str(set_folder), "--papers", str(papers), "--preset", "recommended", "--no-store",
                 "--paper", "nope"])
    err = capsys.readouterr().err
    assert code == 2 and "no paper 'nope'" in err and "alpha, beta" in err, err


def test_the_real_corpus_is_a_bundled_folder_of_sets():
    from quotelocate.data.quoteset import set_outline

    outline = set_outline("real-corpus")  # reads and validates every file, opens no paper
    assert outline.multi_paper and len(outline.paper_ids) == 10
    assert len(outline.quote_ids) == len(set(outline.quote_ids)) >= 400
