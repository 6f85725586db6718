"""The ``quotelocate set`` commands: quote sets made from a pipeline's outputs.

``quotelocate set init OUTPUTS --papers DIR [-o SET.yaml] [--force]`` reads the quotes a
pipeline wrote (JSON lines, CSV or Parquet; see :mod:`quotelocate.data.drafting`) and
writes a draft set: every paper pinned, every quote located under ``recommended`` with
its anchor and page proposed, every unlabelled quote ``label: unreviewed``. Without
``-o`` the set goes to the sets folder (``$QUOTELOCATE_SETS``), where the workbench's
Label view finds it. An existing file is never replaced without ``--force``.
Registered by :func:`quotelocate.interface.cli.build_parser` through :func:`add_parsers`.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TextIO

from ..errors import DatasetError
from .extras import require


def add_parsers(sub: "argparse._SubParsersAction") -> None:
    group = sub.add_parser("set", help="make quote sets from a pipeline's outputs (set init)")
    actions = group.add_subparsers(dest="set_command", metavar="ACTION", parser_class=type(group))
    p = actions.add_parser("init", help="write a draft quote set from pipeline outputs: papers pinned, anchors "
                                        "proposed, unlabelled quotes marked unreviewed")
    p.add_argument("outputs", metavar="OUTPUTS",
                   help="the pipeline's outputs: .jsonl, .csv or .parquet records with paper (file name), quote, "
                        "and optionally cited_chunk, label (faithful/fabricated) and id")
    p.add_argument("--papers", metavar="DIR", help="the folder holding the papers (else the papers search path)")
    p.add_argument("-o", "--out", metavar="SET.yaml",
                   help="where to write the set (default: NAME.yaml in the sets folder, $QUOTELOCATE_SETS, "
                        "where the workbench's Label view finds it)")
    p.add_argument("--name", help="the set's name, [a-z0-9-]+ (default: from the output file's name)")
    p.add_argument("--chunk-size", type=int, default=512, metavar="N", help="characters per chunk the cited chunks "
                   "refer to (default 512)")
    p.add_argument("--chunk-overlap", type=int, default=64, metavar="N", help="default 64")
    p.add_argument("--group-size", type=int, default=3, metavar="N", help="default 3")
    p.add_argument("--force", action="store_true", help="replace an existing output file")
    p.set_defaults(handler=cmd_set_init)
    group.set_defaults(handler=_set_help(group))


def _set_help(group: argparse.ArgumentParser):
    def show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
        group.print_help(out)
        return 2

    return show


def cmd_set_init(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    require("eval", "quotelocate set init")
    import re

    from ..chunks import Chunking
    from ..data.drafting import draft_set, set_name_for, write_new
    from ..data.outputs import read_outputs
    from ..data.editing import sets_folder
    from ..data.papers import papers_search_path

    name = args.name or set_name_for(args.out or args.outputs)
    if not re.fullmatch(r"[a-z0-9-]+", name):
        raise DatasetError(f"--name {name!r}: use lower-case letters, digits and '-' only")
    target = Path(args.out) if args.out else sets_folder() / f"{name}.yaml"
    if (target.exists() or target.is_symlink()) and not args.force:  # before the slow part
        raise DatasetError(f"{target}: already exists; not overwritten (use --force to replace it)")
    if args.papers is not None and not os.path.isdir(args.papers):
        raise DatasetError(f"--papers {args.papers}: not a folder")
    chunking = Chunking(size=args.chunk_size, overlap=args.chunk_overlap, group_size=args.group_size)
    records = read_outputs(args.outputs)
    draft = draft_set(records, source=str(args.outputs), name=name, papers_dir=args.papers, chunking=chunking)
    write_new(target, draft.text, force=args.force)
    labelled = len(draft.quotes) - draft.unreviewed
    print(f"wrote {target}: {len(draft.quotes)} quotes over {len(draft.papers)} papers, "
          f"{draft.unreviewed} unreviewed, {labelled} labelled", file=out)
    searched = {p.resolve() for p in papers_search_path() if p.is_dir()} | {target.parent.resolve()}
    outside = sorted({str(p.parent.resolve()) for p in draft.paper_paths.values() if p.parent.resolve() not in searched})
    if outside:
        print(f"quotelocate: note: the papers are in {os.pathsep.join(outside)}, which is not on the papers search "
              f"path; open the set with QUOTELOCATE_PAPERS={os.pathsep.join(outside)}", file=err)
    return 0
