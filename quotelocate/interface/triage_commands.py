"""``quotelocate triage OUTPUTS``: where a pipeline's unlabelled outputs land, which
quotes to look at first, and the false-reject rate a labelled sample suggests.

:func:`add_parsers` registers the command on ``cli.py``'s subparsers; the handler reads
the outputs file (:func:`quotelocate.data.outputs.read_outputs`), calls
:func:`quotelocate.evaluation.triage.triage` and prints. Exit status as ``locate``: 0
every quote accepted, 1 some quote rejected, 2 bad input (one line naming file and line).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, TextIO

from ..normalize import PRESETS
from .eval_commands import add_cache_options, open_cache
from .extras import require

if TYPE_CHECKING:  # pragma: no cover
    from ..evaluation.triage import Distribution, Triage

TEXT_WIDTH = 160
"""Characters of a quote or passage the text report shows (``--json`` has them whole)."""


def add_parsers(sub: Any) -> None:
    """Add ``triage`` to an argparse subparsers object."""
    p = sub.add_parser("triage", help="triage a pipeline's outputs: verdict counts, quotes to review first, false-reject estimate")
    p.add_argument("outputs", metavar="OUTPUTS",
                   help="JSON lines or CSV, one record per quote: paper (file name), quote, cited_chunk?, id?, "
                        "label? (faithful/fabricated, for a labelled sample)")
    p.add_argument("--papers", metavar="DIRS", help="folders holding the papers (replaces $QUOTELOCATE_PAPERS)")
    p.add_argument("--preset", default="recommended", choices=sorted(PRESETS), help="rule preset (default: recommended)")
    p.add_argument("--paper", metavar="NAME", help="only the records of this paper (file name)")
    p.add_argument("--top", type=int, default=20, metavar="N", help="quotes to list for review (default 20; 0: all)")
    p.add_argument("--json", action="store_true", help="print the whole triage as one JSON object")
    g = p.add_argument_group("chunking (what the pipeline's cited_chunk numbers mean)")
    g.add_argument("--chunk-size", type=int, default=512, metavar="N", help="characters per chunk (default 512)")
    g.add_argument("--chunk-overlap", type=int, default=64, metavar="N", help="characters shared by neighbours (default 64)")
    g.add_argument("--group-size", type=int, default=3, metavar="N", help="chunks per group (default 3)")
    add_cache_options(p)
    p.set_defaults(handler=cmd_triage)


def cmd_triage(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    require("eval", "quotelocate triage")
    from ..chunks import Chunking
    from ..data.outputs import read_outputs
    from ..errors import ConfigError
    from ..evaluation.triage import triage

    if args.top < 0:
        raise ConfigError(f"--top must be 0 or more, not {args.top}")
    chunking = Chunking(size=args.chunk_size, overlap=args.chunk_overlap, group_size=args.group_size)
    records = read_outputs(args.outputs)
    result = triage(records, rules=args.preset, papers_path=args.papers, paper=args.paper, source=args.outputs,
                    chunking=chunking, cache=open_cache(args))
    top = None if args.top == 0 else args.top
    if args.json:
        out.write(json.dumps(result.to_dict(top=top), ensure_ascii=False) + "\n")
    else:
        write_text(result, out, source=args.outputs, top=top)
    return 1 if result.rejected else 0


def _clip(text: str) -> str:
    from .cli import safe

    one_line = " ".join(text.split())
    return safe(one_line if len(one_line) <= TEXT_WIDTH else one_line[: TEXT_WIDTH - 1] + "…")


def _counts(d: Distribution) -> str:
    parts = [f"{status} {n}" for status, n in d.statuses.items()]
    line = f"{d.n} quote{'s' if d.n != 1 else ''}, {d.accepted} accepted: " + ", ".join(parts)
    if d.causes:
        line += "; rejected for " + ", ".join(f"{c} {n}" for c, n in d.causes.items())
    return line


def write_text(result: Triage, out: TextIO, *, source: str, top: int | None) -> None:
    """The triage as text for a person: distributions, the review queue, the estimate."""
    from .cli import safe

    papers = len(result.by_paper)
    print(f"{safe(source)}: {len(result.records)} quotes in {papers} paper{'s' if papers != 1 else ''} under "
          f"{result.config}: {len(result.records) - result.rejected} accepted, {result.rejected} rejected", file=out)
    print("\nPer paper", file=out)
    for d in result.by_paper:
        print(f"  {safe(d.paper)}: {_counts(d)}", file=out)
    rejecting = sorted((d for d in result.by_chunk if d.accepted < d.n), key=lambda d: d.accepted - d.n)
    print("\nPer cited chunk with a rejection (most rejections first; --json lists every chunk)", file=out)
    for d in rejecting:
        chunk = "no chunk cited" if d.cited_chunk is None else f"chunk {d.cited_chunk}"
        print(f"  {safe(d.paper)} {chunk}: {_counts(d)}", file=out)
    others = len(result.by_chunk) - len(rejecting)
    if others:
        print(f"  {others} other chunk{'s' if others != 1 else ''}: every quote accepted", file=out)
    queue = result.queue if top is None else result.queue[:top]
    print(f"\nReview first ({len(queue)} of {len(result.queue)}: near misses by similarity, then group-fallback, "
          f"then outside-material)", file=out)
    if not result.queue:
        print("  nothing: no near miss, no group-fallback, no outside-material quote", file=out)
    for item in queue:
        r = item.record
        where = f"{safe(r.paper)}" + ("" if r.cited_chunk is None else f" chunk {r.cited_chunk}")
        sim = "" if item.similarity is None else f", {item.similarity:.1f}% similar"
        page = "" if item.page is None else f", page {item.page}"
        label = "" if r.label is None else f", labelled {r.label}"
        print(f"  {item.rank}. {item.kind}: {safe(r.key)} (line {r.line}) {where}{sim}{page}{label}", file=out)
        print(f"     quote:   {_clip(r.quote)}", file=out)
        print(f"     passage: {_clip(item.passage)}", file=out)
        print(f"     reason:  {_clip(item.reason)}", file=out)
    print("\nFalse rejects (from the labelled records)", file=out)
    for sentence in result.estimate.sentences():
        print(f"  {sentence}", file=out)
