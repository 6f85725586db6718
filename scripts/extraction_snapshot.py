"""Write, or compare against, what extraction makes of every paper on the papers path.

A change to extraction that should not change its output (a faster path, a new worker
protocol) is checked by taking a snapshot before it and comparing after it:

    python scripts/extraction_snapshot.py --out before.json
    ... change the code ...
    python scripts/extraction_snapshot.py --compare before.json

Per PDF on the papers search path (``$QUOTELOCATE_PAPERS`` and its ``corpus/``) and the
bundled synthetic PDF, opened
both ways (in the extraction workers and in-process), the snapshot keeps a sha256 of the
document's text, every line (page, offsets, box, size, font, direction, block, spans),
the hidden spans, the raised markers and the mis-mapped glyphs. Exit 0 when nothing
differs, 1 when some paper differs (each one is listed), 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

from quotelocate import Document
from quotelocate.data.papers import papers_search_path

REPO = Path(__file__).resolve().parent.parent


def _papers() -> list[Path]:
    """The bundled synthetic PDF and every PDF on the papers search path (the first of a name)."""
    found: dict[str, Path] = {"synthetic.pdf": REPO / "datasets" / "synthetic" / "synthetic.pdf"}
    for folder in papers_search_path():
        if folder.is_dir():
            for pdf in sorted(folder.glob("*.pdf")):
                found.setdefault(pdf.name, pdf)
    return [found[name] for name in sorted(found)]


def _digest(doc: Document) -> str:
    lines = [[ln.page, ln.start, ln.end, ln.bbox, ln.size, ln.font, ln.direction, ln.block, ln.spans]
             for ln in doc.lines]
    payload = [doc.text, lines, doc.hidden, doc.markers, doc.glyphs]
    return hashlib.sha256(json.dumps(payload).encode("utf-8", "surrogatepass")).hexdigest()


def snapshot() -> dict[str, str]:
    out: dict[str, str] = {}
    for pdf in _papers():
        for isolate in (True, False):
            out[f"{pdf.name}/{'workers' if isolate else 'in-process'}"] = _digest(Document.open(pdf, isolate=isolate))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--out", help="write the snapshot to this JSON file")
    g.add_argument("--compare", help="compare against a snapshot written earlier")
    args = p.parse_args(argv)
    if args.out and os.path.lexists(args.out):  # never replace an earlier snapshot
        p.error(f"{args.out}: already exists; pick a new name (an earlier snapshot is never replaced)")
    before = None
    if args.compare:
        try:
            with open(args.compare, encoding="utf-8") as f:
                before = json.load(f)
        except (OSError, ValueError) as exc:
            p.error(f"{args.compare}: cannot read a snapshot ({exc})")
        if not isinstance(before, dict):
            p.error(f"{args.compare}: not a snapshot (expected a JSON object)")
    now = snapshot()
    if not now:
        print("no PDF on the papers search path; set QUOTELOCATE_PAPERS", file=sys.stderr)
        return 2
    if args.out:
        with open(args.out, "x", encoding="utf-8") as f:
            json.dump(now, f, indent=1, sort_keys=True)
        print(f"{len(now)} extractions written to {args.out}")
        return 0
    assert before is not None
    differ = sorted(k for k in set(before) | set(now) if before.get(k) != now.get(k))
    for key in differ:
        print(f"differs: {key}")
    print(f"{len(set(before) & set(now))} extractions compared, {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
