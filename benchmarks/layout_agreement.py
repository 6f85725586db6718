"""How often the reading-order roles agree with pymupdf's layout model, per paper.

The heuristic in :mod:`quotelocate.layout` gives every text line a role from geometry
and typography alone. pymupdf 2.0 ships a trained layout model (``pymupdf.layout``,
``page.get_layout()`` then ``page.layout_information``: typed boxes). This script uses
the model as an independent oracle: every line the model puts in one of its boxes is
compared, role against class, after both are folded to four roles:

============  ===================================================  ============================
role          heuristic kinds                                      model classes
============  ===================================================  ============================
body          body                                                 text, title, section-header,
                                                                   list-item, formula
footnote      footnote                                             footnote
float         caption, float                                       caption, picture, table
furniture     furniture                                            page-header, page-footer
============  ===================================================  ============================

A line belongs to the model box its bounding box overlaps most; lines in no box, and
blank lines, are left out. The model crashes the interpreter on some pages (a
segmentation fault inside its native code), so it runs in a child process that is
restarted after a crash; such pages are counted and left out.

    python benchmarks/layout_agreement.py [--papers DIR] [--json] [--disagreements N]
        [--snapshot JSON | --write-snapshot JSON]

prints the share of lines whose roles agree, per paper, with the number of lines
compared, the pages the model could not read, and the confusion counts.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from quotelocate import Document  # noqa: E402
from quotelocate.layout import classify  # noqa: E402
from quotelocate.data.papers import find_paper  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _corpus import CORPUS  # noqa: E402

ROLE_OF_KIND = {
    "body": "body",
    "footnote": "footnote",
    "caption": "float",
    "float": "float",
    "furniture": "furniture",
}
ROLE_OF_CLASS = {
    "text": "body",
    "title": "body",
    "section-header": "body",
    "list-item": "body",
    "formula": "body",
    "footnote": "footnote",
    "caption": "float",
    "picture": "float",
    "table": "float",
    "page-header": "furniture",
    "page-footer": "furniture",
}
ROLES = ("body", "footnote", "float", "furniture")

_CHILD = r"""
import json, sys
import pymupdf
import pymupdf.layout  # noqa: F401  (registers page.get_layout)
path, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with pymupdf.open(path) as pdf:
    for index in range(first, min(last, pdf.page_count)):
        print(json.dumps({"page": index + 1, "started": True}), flush=True)
        page = pdf[index]
        page.get_layout()
        boxes = [[float(b[0]), float(b[1]), float(b[2]), float(b[3]), str(b[4])]
                 for b in (page.layout_information or [])]
        print(json.dumps({"page": index + 1, "boxes": boxes}), flush=True)
"""


def model_boxes(path: Path, pages: int, *, first: int = 0, timeout: float = 600.0) -> tuple[dict[int, list], list[int]]:
    """The layout model's boxes per 1-based page, for the 0-based pages ``first`` to
    ``pages - 1``, and the pages it crashed on."""
    boxes: dict[int, list] = {}
    failed: list[int] = []
    while first < pages:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, str(path), str(first), str(pages)],
            capture_output=True, text=True, timeout=timeout, check=False,
        )
        started = None
        for line in proc.stdout.splitlines():
            record = json.loads(line)
            if "boxes" in record:
                boxes[record["page"]] = record["boxes"]
            else:
                started = record["page"]
        if proc.returncode == 0:
            break
        if started is None or started in boxes:
            raise RuntimeError(f"{path.name}: the layout model failed before reading a page: {proc.stderr[-300:]}")
        failed.append(started)
        first = started  # 0-based index of the page after the crash
    return boxes, failed


_CHILD_PAGES = r"""
import json, sys
import pymupdf
import pymupdf.layout  # noqa: F401
for path, number in json.loads(sys.argv[1]):
    with pymupdf.open(path) as pdf:
        page = pdf[number - 1]
        page.get_layout()
        boxes = [[float(b[0]), float(b[1]), float(b[2]), float(b[3]), str(b[4])]
                 for b in (page.layout_information or [])]
    print(json.dumps(boxes), flush=True)
"""


def model_boxes_of_pages(pages: list[tuple[Path, int]], *, timeout: float = 600.0) -> list[list]:
    """The model's boxes of a few 1-based pages, in one child process (the model loads
    once). Pages the model crashes on must not be among them."""
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD_PAGES, json.dumps([[str(p), n] for p, n in pages])],
        capture_output=True, text=True, timeout=timeout, check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the layout model failed: {proc.stderr[-300:]}")
    return [json.loads(line) for line in proc.stdout.splitlines()]


def write_snapshot(path: Path, papers: dict[str, Path]) -> None:
    """Store the model's boxes of every page of ``papers`` (name -> PDF) as JSON, with
    the model's version and each paper's sha256, rounded to 0.1 pt: the tests compare
    the heuristic against this snapshot instead of running the model on every page."""
    import hashlib
    from importlib.metadata import version

    out: dict = {"pymupdf_layout": version("pymupdf_layout"), "pymupdf": version("pymupdf"), "papers": {}}
    for name, pdf in papers.items():
        doc = Document.open(pdf)
        boxes, failed = model_boxes(pdf, len(doc.pages))
        out["papers"][name] = {
            "sha256": hashlib.sha256(pdf.read_bytes()).hexdigest(),
            "failed_pages": failed,
            "pages": {str(p): [[round(v, 1) for v in b[:4]] + [b[4]] for b in bs] for p, bs in sorted(boxes.items())},
        }
    path.write_text(json.dumps(out, separators=(",", ":")), encoding="utf-8")


def read_snapshot(path: Path) -> dict:
    """A snapshot written by :func:`write_snapshot`, pages keyed by int."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for paper in data["papers"].values():
        paper["pages"] = {int(p): bs for p, bs in paper["pages"].items()}
    return data


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


@dataclass
class Agreement:
    """Agreement on one paper: lines compared, lines that agree, the confusion counts
    (heuristic role, model role) and the pages the model could not read."""

    paper: str
    compared: int = 0
    agreed: int = 0
    confusion: Counter = field(default_factory=Counter)
    failed_pages: list[int] = field(default_factory=list)
    examples: list[tuple[int, str, str, str]] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.agreed / self.compared if self.compared else 0.0


def agreement(path: Path, *, document: Document | None = None, boxes: dict | None = None,
              failed: list[int] | None = None) -> Agreement:
    """Compare the heuristic roles of ``path`` with the model's classes."""
    doc = document or Document.open(path)
    if boxes is None:
        boxes, failed = model_boxes(path, len(doc.pages))
    roles = classify(doc)
    result = Agreement(path.name, failed_pages=list(failed or []))
    for line, role in zip(doc.lines, roles):
        mine = ROLE_OF_KIND.get(role.kind)
        page_boxes = boxes.get(line.page)
        if mine is None or not page_boxes:
            continue
        best = max(page_boxes, key=lambda b: _overlap(line.bbox, b))
        if _overlap(line.bbox, best) <= 0:
            continue
        theirs = ROLE_OF_CLASS.get(best[4])
        if theirs is None:
            continue
        result.compared += 1
        result.confusion[(mine, theirs)] += 1
        if mine == theirs:
            result.agreed += 1
        else:
            result.examples.append((line.page, mine, theirs, doc.text[line.start : line.end]))
    return result


def table(results: list[Agreement]) -> str:
    """A Markdown table: paper, lines compared, agreement, and the two commonest
    disagreements."""
    out = ["| paper | lines | agree | commonest disagreements (heuristic → model) | model failed on pages |",
           "| --- | ---: | ---: | --- | --- |"]
    for r in results:
        worst = [(k, n) for k, n in r.confusion.most_common() if k[0] != k[1]][:2]
        text = ", ".join(f"{a} → {b} ({n})" for (a, b), n in worst) or "none"
        pages = ", ".join(map(str, r.failed_pages)) or "none"
        out.append(f"| {r.paper} | {r.compared} | {100 * r.share:.1f}% | {text} | {pages} |")
    compared = sum(r.compared for r in results)
    agreed = sum(r.agreed for r in results)
    out.append(f"| all | {compared} | {100 * agreed / max(compared, 1):.1f}% | | |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=Path, help="folder of the corpus PDFs (default: the papers search path)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--disagreements", type=int, default=0, metavar="N",
                        help="also print N disagreeing lines per paper")
    parser.add_argument("--write-snapshot", type=Path, metavar="JSON",
                        help="store the model's boxes for the tests (tests/data/layout_model_boxes.json)")
    parser.add_argument("--snapshot", type=Path, metavar="JSON",
                        help="compare against stored boxes instead of running the model")
    args = parser.parse_args(argv)
    paths = {}
    for name in CORPUS:
        path = (args.papers / name) if args.papers else find_paper(name)
        if path is None or not Path(path).is_file():
            print(f"{name}: not found; pass --papers or set QUOTELOCATE_PAPERS", file=sys.stderr)
            return 1
        paths[name] = Path(path)
    if args.write_snapshot:
        write_snapshot(args.write_snapshot, paths)
    stored = read_snapshot(args.snapshot or args.write_snapshot)["papers"] if (args.snapshot or args.write_snapshot) else {}
    results = []
    for name, path in paths.items():
        if name in stored:
            results.append(agreement(path, boxes=stored[name]["pages"], failed=stored[name]["failed_pages"]))
        else:
            results.append(agreement(path))
    if args.json:
        print(json.dumps([{"paper": r.paper, "compared": r.compared, "agreed": r.agreed, "share": r.share,
                           "failed_pages": r.failed_pages,
                           "confusion": {f"{a}->{b}": n for (a, b), n in r.confusion.items()}} for r in results],
                         indent=2))
        return 0
    print(table(results))
    for r in results[: len(results) if args.disagreements else 0]:
        print(f"\n{r.paper}")
        for page, mine, theirs, text in r.examples[: args.disagreements]:
            print(f"  p{page} {mine:>9} vs {theirs:<9} {text[:70]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
