"""Write, or compare against, what the layout build makes of every paper on the papers path.

A change to the layout reader or the normalizer that should not change their output (a
faster path) is checked by taking a snapshot before it and comparing after it:

    python scripts/layout_snapshot.py --out before.json
    ... change the code ...
    python scripts/layout_snapshot.py --compare before.json

Per PDF on the papers search path (``$QUOTELOCATE_PAPERS`` and its ``corpus/``) and the
bundled synthetic PDF, the snapshot keeps a sha256 each of: every line's role (kind and
flow), the furniture lines, the reading order (its text and every array of its offset
map), and the document normalized under each preset (text and offset map), as the
locator prepares it. Exit 0 when nothing differs, 1 when some paper differs (each part
that differs is listed), 2 on bad arguments.
"""

from __future__ import annotations

import hashlib
import json
import sys

from quotelocate import Document
from quotelocate.layout import classify, furniture_lines, reading_order
from quotelocate.normalize import PRESETS, Normalized
from quotelocate.prepare import prepare

import _snapshot  # scripts/_snapshot.py, beside this script
from extraction_snapshot import _papers  # the same papers, found the same way


def _hash(payload: object) -> str:
    return hashlib.sha256(json.dumps(payload).encode("utf-8", "surrogatepass")).hexdigest()


def _mapped(n: Normalized) -> str:
    return _hash([n.text, list(n.starts), list(n.ends), list(n.flags), list(n.gaps)])


def snapshot() -> dict[str, str]:
    out: dict[str, str] = {}
    for pdf in _papers():
        doc = Document.open(pdf)
        out[f"{pdf.name}/roles"] = _hash([[role.kind, role.flow] for role in classify(doc)])
        out[f"{pdf.name}/furniture"] = _hash(furniture_lines(doc))
        out[f"{pdf.name}/reading order"] = _mapped(reading_order(doc))
        for name, rules in PRESETS.items():
            out[f"{pdf.name}/normalized {name}"] = _mapped(prepare(doc, rules))
    return out


def main(argv: list[str] | None = None) -> int:
    args, before = _snapshot.parse(__doc__.splitlines()[0], argv=argv)
    now = snapshot()
    if _snapshot.written(args, now, "layout parts"):
        return 0
    assert before is not None
    return _snapshot.compared(before, now, "layout parts")


if __name__ == "__main__":
    sys.exit(main())
