"""The ``quotelocate report`` command: one self-contained HTML file from a stored run,
or the before/after report of two.

``quotelocate report RUN --out report.html``: ``RUN`` is a run id in the run store
(see ``quotelocate runs``) or a path to a run JSON file (what ``Evaluation.to_json``
writes, e.g. the workbench's "Download run (JSON)"). ``quotelocate report A B --out
FILE``: what changed from run ``A`` to run ``B`` (rate deltas with paired tests, per-tag
and per-paper deltas, every flipped verdict with its diff, both configs). Registered by
:func:`quotelocate.interface.cli.build_parser` through :func:`add_parsers`.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..errors import ConfigError, QuotelocateError, RunStoreError
from .eval_commands import add_store_option, store_path
from .extras import require

if TYPE_CHECKING:  # pragma: no cover
    from ..evaluation.result import Evaluation

MAX_RUN_JSON_BYTES = 512 * 1024 * 1024


def add_parsers(sub: "argparse._SubParsersAction") -> None:
    p = sub.add_parser("report", help="write a self-contained offline HTML report of a stored run, or of the "
                                      "change between two runs")
    p.add_argument("run", metavar="RUN", help="run id in the run store, or a path to a run JSON file")
    p.add_argument("after", metavar="RUN_B", nargs="?",
                   help="a second run: write the before/after report from RUN to RUN_B instead")
    p.add_argument("--out", default="report.html", metavar="FILE", help="output file (default report.html; - for stdout)")
    add_store_option(p)
    p.add_argument("--title", help="report title (default: quotelocate evaluation: SET)")
    p.add_argument("--force", action="store_true", help="replace an existing output file")
    p.set_defaults(handler=cmd_report)


def load_run(run: str, *, store: str | None = None) -> Evaluation:
    """The evaluation named by ``run``: an existing file is read as run JSON, a whole
    number is a run id in the run store."""
    path = Path(run)
    if path.is_file():
        return _read_run_json(path)
    if run.strip().isdigit():
        from ..evaluation.runstore import RunStore

        return RunStore(store).load(int(run))
    raise RunStoreError(f"{run}: neither a run JSON file nor a run id (see `quotelocate runs`)")


def run_title(run: str, *, store: str | None = None) -> str:
    """What to call ``run`` in a report: a stored run's name (or ``run N``), a file's name."""
    path = Path(run)
    if path.is_file():
        return path.name
    from ..evaluation.runstore import RunStore

    return RunStore(store).info(int(run))["title"]


def _read_run_json(path: Path) -> Evaluation:
    from ..evaluation.result import Evaluation

    size = path.stat().st_size
    if size > MAX_RUN_JSON_BYTES:
        raise RunStoreError(f"{path}: {size} bytes is too large for a run JSON file")
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RunStoreError(f"{path}: not valid UTF-8 at byte {exc.start}") from None
    except json.JSONDecodeError as exc:
        raise RunStoreError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
    try:
        return Evaluation.from_json(data)
    except ConfigError as exc:
        raise RunStoreError(f"{path}: not a quotelocate run ({exc})") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise RunStoreError(f"{path}: malformed run JSON ({type(exc).__name__}: {exc})") from None


def _write_atomically(path: Path, text: str) -> None:
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # a report is for sharing: the usual file mode, not mkstemp's 0600
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def cmd_report(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    require("eval", "quotelocate report")
    from ..evaluation.report import render_html

    store = store_path(args, err)
    evaluation = load_run(args.run, store=store)
    if args.after is None:
        html = render_html(evaluation, title=args.title)
    else:
        from ..evaluation.change_report import render_change_html

        after = load_run(args.after, store=store)
        html = render_change_html(evaluation, after, a_title=run_title(args.run, store=store),
                                  b_title=run_title(args.after, store=store), title=args.title)
    if args.out == "-":
        out.write(html)
        return 0
    target = Path(args.out)
    if target.exists() and not args.force:
        raise QuotelocateError(f"{target}: already exists; not overwritten (use --force to replace it)")
    try:
        _write_atomically(target, html)
    except OSError as exc:
        raise QuotelocateError(f"{target}: cannot write the report ({exc.strerror or exc})") from None
    print(f"wrote {target} ({len(html.encode('utf-8')):,} bytes)", file=out)
    return 0
