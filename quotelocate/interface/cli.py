"""The ``quotelocate`` command line: thin wrappers that parse, build rules, call the
library and print. Exit codes follow grep: 0 every quote accepted (or nothing to
check), 1 some quote rejected or some audited verdict changed, 2 bad input or usage
(one line naming the file and line, before any verdict is written), 3 an internal
error (a bug: a short message and a request to report it, never a traceback).

Text meant for people escapes control characters that come from quotes or papers, so
a quote cannot move the cursor or recolour a terminal.

Commands: ``locate``, ``audit``, ``chunks``, ``text``, ``synth``, plus the evaluation
commands (``eval``, ``runs``, ``compare``, ``fetch``, ``report``), ``schema``, ``serve``,
``triage`` and ``set`` registered by their modules.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Sequence, TextIO

from .. import __version__
from ..chunks import Chunking
from ..errors import ConfigError, QuoteInputError, QuotelocateError
from ..jsonl import iter_jsonl, read_jsonl
from ..limits import Limits
from ..normalize import PRESETS, Rules, preset
from . import eval_commands, report_commands, schema_commands, serve, set_commands, triage_commands
from .extras import require
from .options import add_limit_options

if TYPE_CHECKING:  # pragma: no cover
    from ..document import Document
    from ..locate import Locator, Verdict

EXIT_OK, EXIT_REJECTED, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 2, 3
REPORT_HINT = "this is a bug in quotelocate; please report it with the command and input that caused it"

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def safe(text: Any) -> str:
    """``text`` with control characters (C0 but tab and newline, DEL, C1) written as
    ``\\xNN``: printable to a terminal whatever a quote or paper holds."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # exit 2 with one line, like grep
        raise _UsageError(f"{self.prog}: {message}")


# -- shared options -------------------------------------------------------------------

_BOOL_RULES = {
    "quotes": "fold curly quote marks to straight ones",
    "whitespace": "collapse whitespace runs to one space",
    "invisible": "remove soft hyphens and zero-width characters",
    "furniture": "remove page numbers, running headers/footers and margin stamps",
    "layout": "read PDF pages as flows (body, footnotes, floats) and stitch the body",
    "word_boundaries": "matches must not start or end inside a word",
    "accents": "compose spacing accents with their letter (Franc\u00b8ois -> François)",
    "markers": "raised footnote/citation markers glued to a word may be left out or kept",
    "suspended_hyphens": "read 'pre-<line break>and post-' as 'pre- and post-' (with --hyphenation)",
    "math_spacing": "ignore a space between a math symbol and a letter or digit",
    "word_gaps": "a word gap the page sets but the text has no space for may be a space in the quote, or none",
    "slash_spacing": "ignore a space right after a slash (a URL or path broken at a line end)",
    "url_spacing": "ignore a space inside a URL after a dot, hyphen, = or the like (a URL broken at a line end)",
}


def add_rule_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("rules (start from --preset, then override)")
    g.add_argument("--preset", default="recommended", choices=sorted(PRESETS), help="named rule set (default: recommended)")
    for name, help_text in _BOOL_RULES.items():
        flag = "quote-marks" if name == "quotes" else name.replace("_", "-")
        g.add_argument(f"--{flag}", dest=f"rule_{name}", action=argparse.BooleanOptionalAction, default=None, help=help_text)
    g.add_argument("--unicode", dest="rule_unicode", choices=["off", "ligatures", "nfkc"], default=None)
    g.add_argument("--hyphenation", dest="rule_hyphenation", choices=["off", "keep", "drop", "both"], default=None)
    g.add_argument("--ellipsis", dest="rule_ellipsis", choices=["verbatim", "fragments"], default=None,
                   help="read '...' in a quote verbatim, or as fragments that must each match in order")
    g.add_argument("--ellipsis-gap", dest="rule_ellipsis_gap", type=int, default=None, metavar="N",
                   help="longest omission an ellipsis may stand for, in characters (default 300)")
    g.add_argument("--min-chars", dest="rule_min_chars", type=int, default=None, metavar="N")
    g.add_argument("--min-words", dest="rule_min_words", type=int, default=None, metavar="N")
    g.add_argument("--max-chars", dest="rule_max_chars", type=int, default=None, metavar="N",
                   help="longer quotes are invalid (default 5000; 0: no limit)")


def rules_from_args(args: argparse.Namespace) -> Rules:
    rules = preset(args.preset)
    changes = {k[5:]: v for k, v in vars(args).items() if k.startswith("rule_") and v is not None}
    return rules.replace(**changes) if changes else rules


CHUNKERS = ("characters", "sentence-splitter")


def add_chunk_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("chunking (what the model was shown)")
    g.add_argument("--chunk-size", type=int, default=512, metavar="N", help="characters per chunk (default 512)")
    g.add_argument("--chunk-overlap", type=int, default=64, metavar="N", help="characters shared by neighbours (default 64)")
    g.add_argument("--group-size", type=int, default=3, metavar="N", help="chunks per group (default 3)")
    g.add_argument("--chunks", metavar="FILE",
                   help="the pipeline's own chunks, JSON lines: {text, page?, start?, end?}, llama-index nodes or "
                        "LangChain Documents; placed on the paper by aligning their text (chunk ids and --group-size "
                        "then mean what they meant in the pipeline)")
    g.add_argument("--chunker", choices=CHUNKERS, default=CHUNKERS[0],
                   help="how chunks are cut without --chunks: 'characters' (--chunk-size/--chunk-overlap "
                        "characters, the default) or 'sentence-splitter' (LlamaIndex SentenceSplitter, one document "
                        "per page, --chunk-size/--chunk-overlap in tokens, as a LlamaIndex pipeline cuts them; "
                        "needs the 'llamaindex' extra, downloads nothing)")


def add_document_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("paper", help="PDF, Markdown or plain-text file")
    p.add_argument("--password", help="password of an encrypted PDF")
    p.add_argument(
        "--allow-textless-pages",
        action="store_true",
        help="load PDFs with pages that have no text layer; quotes there are never accepted",
    )
    add_limit_options(p)


def open_document(args: argparse.Namespace, err: TextIO) -> Document:
    from ..document import Document

    limits = Limits(seconds=args.max_seconds, memory_mb=args.max_memory_mb, max_pages=args.max_pages)
    doc = Document.open(args.paper, password=args.password, allow_textless_pages=args.allow_textless_pages,
                        limits=limits)
    for warning in doc.warnings:
        print(f"quotelocate: warning: {warning}", file=err)
    return doc


def build_locator(args: argparse.Namespace, doc: Document, rules: Rules, err: TextIO | None = None) -> Locator:
    """The Locator the options describe; a chunk of ``--chunks`` that cannot be placed
    is reported on ``err`` (its span is empty, so nothing is accepted in it alone)."""
    from ..locate import Locator
    from ..pipeline_chunks import load_pipeline_chunks

    chunking = Chunking(size=args.chunk_size, overlap=args.chunk_overlap, group_size=args.group_size)
    chunks = None
    if getattr(args, "chunks", None):
        placed = load_pipeline_chunks(args.chunks, doc)
        for error in placed.errors:
            print(f"quotelocate: warning: {args.chunks}: {error}; it holds no text of the paper", file=err or sys.stderr)
        chunks = placed.chunks
    elif getattr(args, "chunker", CHUNKERS[0]) == "sentence-splitter":
        require("llamaindex", "--chunker sentence-splitter")
        from ..integrations.llamaindex import sentence_splitter_chunks

        chunks = sentence_splitter_chunks(doc, chunk_size=args.chunk_size, chunk_overlap=args.chunk_overlap).chunks
    return Locator(doc, rules, chunking=chunking, chunks=chunks)


# -- locate ---------------------------------------------------------------------------


def _read_quotes(path: str, *, keep_going: bool = False) -> list[dict[str, Any]]:
    """The batch's records in order. A bad line raises :class:`QuoteInputError` naming
    the file and line, or with ``keep_going`` becomes ``{"id", "error", "line"}``."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for lineno, obj, problem in iter_jsonl(path, error=QuoteInputError):
        qid: Any = lineno
        if obj is not None:
            qid, item, problem = _quote_record(path, lineno, obj, seen)
        if problem:
            if not keep_going:
                raise QuoteInputError(problem)
            out.append({"id": qid, "error": problem, "line": lineno})
        else:
            out.append(item)
    if not out:
        raise QuoteInputError(f"{path}: no quotes")
    return out


def _quote_record(path: str, lineno: int, obj: dict[str, Any], seen: set[str]) -> tuple[Any, dict[str, Any], str]:
    """(id, record, problem) of one parsed line; ``problem`` is '' when it is usable."""
    where = f"{path}: line {lineno}: "
    qid = obj.get("id", lineno)
    if not isinstance(qid, (str, int)) or isinstance(qid, bool):
        return lineno, {}, f"{where}'id' must be a string or integer"
    quote = obj.get("quote")
    if not isinstance(quote, str):
        return qid, {}, f"{where}'quote' must be a string"
    if str(qid) in seen:
        return qid, {}, f"{where}duplicate id {qid!r}"
    seen.add(str(qid))
    cited = obj.get("cited_chunk")
    if cited is not None and (isinstance(cited, bool) or not isinstance(cited, int)):
        return qid, {}, f"{where}'cited_chunk' must be an integer"
    paper = obj.get("paper")
    if paper is not None and not isinstance(paper, str):
        return qid, {}, f"{where}'paper' must be a file name"
    return qid, {"id": qid, "quote": quote, "cited_chunk": cited, "line": lineno, "paper": paper}, ""


def _citation_problem(item: dict[str, Any], locator: Locator, scope: str | None) -> str:
    """Why ``item``'s citation cannot be checked against ``locator``'s chunks, or ''."""
    cited, n = item["cited_chunk"], len(locator.chunks)
    if cited is not None and not 0 <= cited < n:
        shown = str(cited) if len(str(cited)) <= 20 else str(cited)[:17] + "..."
        return f"cited_chunk {shown} is not a chunk index (0..{n - 1})"
    if cited is None and scope in ("chunk", "group"):
        return f"scope {scope!r} needs a cited chunk"
    return ""


def verdict_record(verdict: Verdict, *, qid: Any, locator: Locator) -> dict[str, Any]:
    """One JSON line of batch output: the verdict plus what ``audit`` needs."""
    record = {"id": qid, "quote": verdict.quote}
    record.update(verdict.to_dict())
    record["config"] = locator.rules.to_dict()
    record["paper"] = os.path.basename(locator.document.name)
    record["chunking"] = {
        "size": locator.chunking.size,
        "overlap": locator.chunking.overlap,
        "group_size": locator.chunking.group_size,
    }
    record["version"] = __version__
    record["extractor"] = {k: locator.document.extractor.get(k) for k in ("name", "version", "flags")}
    record["text_sha256"] = locator.document.text_sha256
    return record


def _print_verdict(verdict: Verdict, locator: Locator, out: TextIO) -> None:
    if verdict.accepted or verdict.status == "outside-material":
        head = "ACCEPTED" if verdict.accepted else "REJECTED"
        pages = ", ".join(map(str, verdict.pages))
        print(f"{head} ({verdict.status}) page {pages}, chars {verdict.start}-{verdict.end}", file=out)
        print(f"  {safe(verdict.reason)}", file=out)
        if verdict.rules:
            print(f"  rules used: {', '.join(verdict.rules)}", file=out)
        if verdict.ambiguous:
            print(f"  ambiguous: occurs {verdict.occurrences} times; showing the first", file=out)
        print(f"  {safe(_marked_context(verdict, locator))}", file=out)
        return
    print(f"REJECTED ({verdict.status}) {verdict.cause}: {safe(verdict.reason)}", file=out)
    miss = verdict.near_miss
    if miss is not None:
        print(f"  closest passage, page {miss.page}, chars {miss.start}-{miss.end}:", file=out)
        print(f"    {safe(miss.passage)}", file=out)
        print(f"  diff ([-document-]{{+quote+}}): {safe(miss.diff_text())}", file=out)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _marked_context(verdict: Verdict, locator: Locator, width: int = 60) -> str:
    """One line: context, the match between >>> <<<, and any material the reading order
    skipped inside it (a page number, a footnote, a table) in [skipped: …]."""
    text = locator.document.text
    assert verdict.start is not None and verdict.end is not None  # accepted or outside-material
    spans = verdict.spans or ((verdict.start, verdict.end),)
    pieces = [f"…{_flat(text[max(0, spans[0][0] - width) : spans[0][0]])} "]
    for i, (s, e) in enumerate(spans):
        if i:
            gap = _flat(text[spans[i - 1][1] : s])
            pieces.append(f" [skipped: {gap[:40] + '…' if len(gap) > 40 else gap}] ")
        pieces.append(f">>>{_flat(text[s:e])}<<<")
    pieces.append(f" {_flat(text[spans[-1][1] : spans[-1][1] + width])}…")
    return "".join(pieces)


def cmd_locate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if (args.quote is None) == (args.quotes is None):
        raise _UsageError("quotelocate locate: give either a QUOTE or --quotes FILE")
    if args.langextract and not args.json:
        raise _UsageError("quotelocate locate: --langextract needs --json")
    rules = rules_from_args(args)
    if os.path.isdir(args.paper):
        return _locate_corpus(args, rules, out, err)
    key = None
    if args.sign_key_file:
        if not args.json:
            raise _UsageError("quotelocate locate: --sign-key-file signs JSON records; add --json")
        from ..evaluation.signing import read_key, sign

        key = read_key(args.sign_key_file)
    if args.quotes:
        items = _read_quotes(args.quotes, keep_going=args.keep_going)
    else:
        bad = re.search("[\ud800-\udfff]", args.quote)
        if bad:  # undecodable bytes in the argument arrive as lone surrogates
            raise QuoteInputError(f"quote argument: not valid UTF-8 (at character {bad.start()})")
        items = [{"id": 1, "quote": args.quote, "cited_chunk": args.cited_chunk, "line": None}]
    doc = open_document(args, err)
    locator = build_locator(args, doc, rules, err)
    # every record is checked before the first verdict is written
    for i, item in enumerate(items):
        if "error" not in item:
            problem = _citation_problem(item, locator, args.scope)
            if problem:
                where = f"{args.quotes}: line {item['line']}: " if args.quotes else ""
                if not args.keep_going:
                    raise QuoteInputError(f"{where}{problem}")
                items[i] = {"id": item["id"], "error": f"{where}{problem}", "line": item["line"]}
    rejected = errors = 0
    for item in items:
        if "error" in item:
            errors += 1
            if args.json:
                print(json.dumps({"id": item["id"], "error": item["error"]}, ensure_ascii=False), file=out)
            else:
                print(f"[{safe(item['id'])}] ERROR: {safe(item['error'])}", file=out)
            continue
        try:
            verdict = locator.locate(item["quote"], cited_chunk=item["cited_chunk"], scope=args.scope)
        except ConfigError as exc:
            where = f"{args.quotes}: line {item['line']}: " if args.quotes else ""
            raise QuoteInputError(f"{where}{exc}") from None
        rejected += not verdict.accepted
        if args.json:
            record = verdict_record(verdict, qid=item["id"], locator=locator)
            if args.langextract:
                from ..integrations.langextract import langextract_fields

                record.update(langextract_fields(verdict))
            if key is not None:
                record["signature"] = sign(record, key)
            print(json.dumps(record, ensure_ascii=False), file=out)
        else:
            if args.quotes:
                print(f"[{safe(item['id'])}] ", end="", file=out)
            _print_verdict(verdict, locator, out)
    if errors:
        return EXIT_ERROR
    return EXIT_REJECTED if rejected else EXIT_OK


def _locate_corpus(args: argparse.Namespace, rules: Rules, out: TextIO, err: TextIO) -> int:
    """``locate FOLDER --quotes FILE``: one task per paper (see :mod:`.batch`)."""
    from tqdm import tqdm

    from .batch import locate_corpus

    if not args.quotes:
        raise _UsageError(
            f"quotelocate locate: {args.paper}: is a directory; to check quotes over a folder of papers, "
            "give --quotes FILE whose lines name each quote's paper"
        )
    if args.chunks or args.password:
        raise _UsageError("quotelocate locate: --chunks and --password name one paper; they do not apply to a folder")
    if args.keep_going or args.langextract or args.sign_key_file:
        raise _UsageError("quotelocate locate: --keep-going, --langextract and --sign-key-file apply to one paper, "
                          "not to a folder")
    items = _read_quotes(args.quotes)
    cluster = args.cluster or os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    papers = len({item["paper"] for item in items})
    bar = tqdm(total=papers, file=err, unit="paper", desc="locate", disable=None, leave=False)
    cache = eval_commands.open_cache(args)
    try:
        records = locate_corpus(
            args.paper, items, source=args.quotes, rules=rules,
            chunking=Chunking(size=args.chunk_size, overlap=args.chunk_overlap, group_size=args.group_size),
            scope=args.scope, limits=Limits(seconds=args.max_seconds, memory_mb=args.max_memory_mb, max_pages=args.max_pages),
            allow_textless_pages=args.allow_textless_pages, cache_dir=str(cache.path) if cache is not None else None,
            workers=0 if args.workers is None else args.workers, cluster=cluster,
            progress=lambda done, total: bar.update(done - bar.n),
        )
    finally:
        bar.close()
    rejected = 0
    for rec in records:
        rejected += not rec["accepted"]
        if args.json:
            print(json.dumps(rec, ensure_ascii=False), file=out)
        elif rec["accepted"] or rec["status"] == "outside-material":
            head = "ACCEPTED" if rec["accepted"] else "REJECTED"
            print(f"[{rec['id']}] {head} ({rec['status']}) {rec['paper']} page {rec['page']}, chars {rec['start']}-{rec['end']}", file=out)
        else:
            print(f"[{rec['id']}] REJECTED ({rec['status']}) {rec['paper']} {rec.get('cause') or ''}: {rec.get('reason', '')}", file=out)
    return EXIT_REJECTED if rejected else EXIT_OK


# -- audit ----------------------------------------------------------------------------


def cmd_audit(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..evaluation.audit import audit_records

    key = None
    if args.verify_key_file:
        from ..evaluation.signing import read_key

        key = read_key(args.verify_key_file)
    records = read_jsonl(args.verdicts, error=QuoteInputError, what="verdicts")
    report = audit_records(records, paper=args.paper, source=args.verdicts, verify_key=key)
    for line in report.lines():
        print(line, file=out)
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False), file=out)
    return EXIT_REJECTED if report.changed else EXIT_OK


# -- chunks / text / synth ------------------------------------------------------------


def cmd_chunks(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    doc = open_document(args, err)
    locator = build_locator(args, doc, Rules(), err)
    size = locator.chunking.group_size
    for c in locator.chunks:
        text = doc.text[c.start : c.end]
        pages = doc.pages_for(c.start, c.end)
        row: dict[str, Any] = {
            "index": c.index,
            "group": c.index // size,
            "start": c.start,
            "end": c.end,
            "pages": list(pages),
            "text": text,
        }
        if args.json:
            print(json.dumps(row, ensure_ascii=False), file=out)
        else:
            preview = " ".join(text.split())[:70]
            print(f"{c.index:4d}  group {row['group']:3d}  {c.start:7d}-{c.end:<7d} p{pages[0]:<3d} {preview}", file=out)
    return EXIT_OK


def cmd_text(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    doc = open_document(args, err)
    if args.page is not None:
        if not 1 <= args.page <= len(doc.pages):
            raise _UsageError(f"quotelocate text: --page must be 1..{len(doc.pages)}")
        page = doc.pages[args.page - 1]
        out.write(doc.text[page.start : page.end])
    else:
        out.write(doc.text)
    return EXIT_OK


def cmd_synth(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ..data.synthetic import write_synthetic

    for path in write_synthetic(Path(args.out), force=args.force):
        print(path, file=out)
    return EXIT_OK


# -- wiring ---------------------------------------------------------------------------

Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="quotelocate", description="Check that quotes really are in a paper, and find where.")
    parser.add_argument("--version", action="version", version=f"quotelocate {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("locate", help="locate one quote or a JSON-lines batch in a paper")
    add_document_options(p)
    p.add_argument("quote", nargs="?", help="the quote (or use --quotes)")
    p.add_argument("--quotes", metavar="FILE", help='JSON lines {"id", "quote", "cited_chunk"}; - for stdin')
    p.add_argument("--cited-chunk", type=int, metavar="N", help="chunk the model cited (single quote)")
    p.add_argument("--scope", choices=["chunk", "group", "document"], help="default: group with a cited chunk, else document")
    p.add_argument("--json", action="store_true", help="one JSON object per quote, in input order")
    p.add_argument("--langextract", action="store_true",
                   help="with --json, add LangExtract's char_interval and alignment_status to each object")
    p.add_argument("--sign-key-file", metavar="FILE",
                   help="with --json: sign every record with the key in FILE (HMAC-SHA256; see audit --verify-key-file)")
    p.add_argument("--keep-going", action="store_true",
                   help='write {"id", "error"} for a bad line and go on (the exit status is still 2)')
    g = p.add_argument_group("a folder of papers (PAPER is a folder; each quote line names its \"paper\")")
    g.add_argument("--workers", type=int, default=None, metavar="N", help="local processes, one paper per task (default: one per CPU)")
    g.add_argument("--cluster", metavar="ADDR", help="run the papers as tasks on a Dask cluster, dask://HOST:PORT (default $DASK_SCHEDULER_ADDRESS)")
    eval_commands.add_cache_options(g)
    add_rule_options(p)
    add_chunk_options(p)
    p.set_defaults(handler=cmd_locate)

    p = sub.add_parser("audit", help="re-check stored verdicts with the rules they record")
    p.add_argument("verdicts", help="JSON lines written by `locate --json`")
    p.add_argument("--paper", help="the paper file (default: the recorded name on the papers search path)")
    p.add_argument("--json", action="store_true", help="also print a JSON summary")
    p.add_argument("--verify-key-file", metavar="FILE",
                   help="every record must carry a valid signature made with the key in FILE")
    p.set_defaults(handler=cmd_audit)

    p = sub.add_parser("chunks", help="list the chunks a model was shown")
    add_document_options(p)
    p.add_argument("--json", action="store_true")
    add_chunk_options(p)
    p.set_defaults(handler=cmd_chunks)

    p = sub.add_parser("text", help="print the extracted text that offsets refer to")
    add_document_options(p)
    p.add_argument("--page", type=int, help="only this 1-based page")
    p.set_defaults(handler=cmd_text)

    p = sub.add_parser("synth", help="write the deterministic synthetic paper and its quote set")
    p.add_argument("--out", default="datasets/synthetic", help="output folder (default datasets/synthetic)")
    p.add_argument("--force", action="store_true", help="replace existing files that differ")
    p.set_defaults(handler=cmd_synth)

    eval_commands.add_parsers(sub)
    report_commands.add_parsers(sub)
    schema_commands.add_parsers(sub)
    serve.add_parsers(sub)
    triage_commands.add_parsers(sub)
    set_commands.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "handler", None):
            parser.print_help(out)
            return EXIT_ERROR
        return args.handler(args, out, err)
    except _UsageError as exc:
        print(str(exc), file=err)
        return EXIT_ERROR
    except QuotelocateError as exc:
        print(f"quotelocate: error: {safe(exc)}", file=err)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("quotelocate: interrupted", file=err)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the last line of defence: never exit 1
        detail = safe(f"{type(exc).__name__}: {exc}")
        detail = detail if len(detail) <= 200 else detail[:199] + "…"
        print(f"quotelocate: internal error ({detail}); {REPORT_HINT}", file=err)
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
