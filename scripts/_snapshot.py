"""What the before/after snapshot scripts share: ``--out`` or ``--compare``, never
replacing an earlier snapshot, and reading one back with a clear error."""

from __future__ import annotations

import argparse
import json
import os
from typing import Callable


def parse(description: str, more: Callable[[argparse.ArgumentParser], None] | None = None,
          argv: list[str] | None = None) -> tuple[argparse.Namespace, dict | None]:
    """The parsed arguments and, with ``--compare``, the snapshot read back. Exits with
    status 2 and a one-line message when ``--out`` names an existing file or the
    snapshot cannot be read."""
    p = argparse.ArgumentParser(description=description)
    if more is not None:
        more(p)
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
            p.error(f"{args.compare}: cannot read a snapshot: {exc}")
        if not isinstance(before, dict):
            p.error(f"{args.compare}: not a snapshot (expected a JSON object)")
    return args, before


def written(args: argparse.Namespace, snapshot: dict, noun: str) -> bool:
    """With ``--out``: write ``snapshot`` to that new file (never over an existing one),
    say how many ``noun`` it holds, and return True; else False."""
    if not args.out:
        return False
    with open(args.out, "x", encoding="utf-8") as f:
        json.dump(snapshot, f, ensure_ascii=False, sort_keys=True)
    print(f"{len(snapshot)} {noun} written to {args.out}")
    return True


def compared(before: dict, now: dict, noun: str) -> int:
    """List every key whose value differs (or is in one snapshot only), say how many
    ``noun`` were compared, and return the exit status: 0 when none differs, else 1."""
    differ = sorted(k for k in set(before) | set(now) if before.get(k) != now.get(k))
    for key in differ:
        print(f"differs: {key}")
    print(f"{len(set(before) & set(now))} {noun} compared, {len(differ)} differ")
    return 1 if differ else 0
