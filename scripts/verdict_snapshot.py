"""Write, or compare against, every bundled set's per-quote verdicts.

A change that should not move any verdict (a refactor, a new module layout) is checked
by taking a snapshot before it and comparing after it:

    python scripts/verdict_snapshot.py --out before.json      # every bundled set
    ... change the code ...
    python scripts/verdict_snapshot.py --compare before.json

Each bundled set is located under every preset with its own chunking and cited chunks;
the snapshot keeps every field of ``Verdict.to_dict`` except the highlight boxes'
rounding-sensitive floats, which are kept too (they come from the same extraction).
Exit 0 when nothing differs, 1 when some verdict differs (each one is listed).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from quotelocate import PRESETS, Locator, load_quote_set, preset
from quotelocate.errors import QuotelocateError

import _snapshot  # scripts/_snapshot.py, beside this script

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SETS = ["synthetic", "attention-v7", "attention-v5",
                *sorted(p.relative_to(REPO).as_posix() for p in (REPO / "datasets" / "real-corpus").glob("*.yaml"))]
"""Every bundled set: the single-paper ones by name, the real-corpus papers one file each
(their papers must be on the papers search path, corpus folder included)."""


def snapshot(set_names: list[str]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for name in set_names:
        qs = load_quote_set(REPO / name if (REPO / name).is_file() else name)
        for preset_name in sorted(PRESETS):
            locator = Locator(qs.document(), preset(preset_name), chunking=qs.chunking, chunks=qs.chunks)
            for q in qs:
                v = locator.locate(q.text, cited_chunk=q.cited_chunk)
                out[f"{name}/{preset_name}/{q.id}"] = v.to_dict()
    return out


def main(argv: list[str] | None = None) -> int:
    def sets(p: argparse.ArgumentParser) -> None:
        p.add_argument("--sets", nargs="+", default=DEFAULT_SETS, help="set names or files (default: every bundled set)")

    args, before = _snapshot.parse(__doc__.splitlines()[0], sets, argv)
    try:
        now = snapshot(args.sets)
    except QuotelocateError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if _snapshot.written(args, now, "verdicts"):
        return 0
    assert before is not None
    differ = 0
    for key in sorted(before.keys() | now.keys()):
        a, b = before.get(key), now.get(key)
        if a != b:
            differ += 1
            fields = sorted(k for k in (a or {}).keys() | (b or {}).keys() if (a or {}).get(k) != (b or {}).get(k))
            print(f"{key}: differs in {', '.join(fields)}")
    print(f"{len(now)} verdicts compared, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
