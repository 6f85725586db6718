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

import hashlib
import json
import sys
from pathlib import Path

from quotelocate import Document
from quotelocate.data.papers import papers_search_path

import _snapshot  # scripts/_snapshot.py, beside this script

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
    args, before = _snapshot.parse(__doc__.splitlines()[0], argv=argv)
    now = snapshot()
    if not now:
        print("no PDF on the papers search path; set QUOTELOCATE_PAPERS", file=sys.stderr)
        return 2
    if _snapshot.written(args, now, "extractions"):
        return 0
    assert before is not None
    return _snapshot.compared(before, now, "extractions")


if __name__ == "__main__":
    sys.exit(main())
