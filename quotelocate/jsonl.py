"""JSON-lines input (quote batches, stored verdicts, explicit chunks), read strictly.

Every problem is an error of the caller's type that names the file and the line. Lines
are split on ``\\n`` (a ``\\r`` before it is dropped) and nothing else: U+2028, U+2029,
U+0085 and the other characters ``str.splitlines`` breaks on may stand unescaped inside a
JSON string (``json.dumps(..., ensure_ascii=False)`` writes them so), and must come back.
A line that parses but holds something no later step can handle (a lone surrogate
escape such as ``"\\ud800"``, which is not a character and cannot be written out as
UTF-8; a number past Python's digit limit; nesting deeper than :data:`MAX_DEPTH`) is an
error of that line too.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any, Iterator

from .errors import QuotelocateError

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects a line may have (quote records are flat)."""
_SURROGATE = re.compile("[\ud800-\udfff]")
_TOKENS = re.compile(r'[\[{\]}]|"(?:[^"\\]|\\.)*"')
"""Brackets, and strings (skipped whole, so brackets inside them do not count)."""


def _problem(obj: Any) -> str:
    """Why a parsed line cannot be used, or ''. Walks without recursion."""
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            m = _SURROGATE.search(item)
            if m:
                return f"lone surrogate \\u{ord(m.group()):04x} in a string (not a Unicode character)"
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return ""


def _too_deep(line: str) -> bool:
    """True when the line's arrays and objects nest deeper than :data:`MAX_DEPTH`
    (checked before parsing, since the parser recurses once per level)."""
    if line.count("[") + line.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    for m in _TOKENS.finditer(line):
        token = m.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif token in "]}":
            depth -= 1
    return False


def read_utf8(path: str | os.PathLike, *, error: type[QuotelocateError], what: str = "file",
              limit: int | None = None) -> str:
    """The text of ``path`` (``-``: standard input), as strict UTF-8. A missing file, a
    folder, a file over ``limit`` bytes, an unreadable file and bad UTF-8 each raise
    ``error`` with one line naming the file (and the line of the bad bytes)."""
    p = Path(path)
    try:
        if str(path) == "-":
            raw = sys.stdin.buffer.read()
        else:
            size = p.stat().st_size
            if limit is not None and size > limit:
                raise error(f"{p}: {size} bytes exceeds the limit of {limit} for a {what}")
            raw = p.read_bytes()
    except FileNotFoundError:
        raise error(f"{p}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{p}: is a directory" + ("" if what == "file" else f", not a {what}")) from None
    except OSError as exc:
        raise error(f"{p}: cannot read ({exc.strerror or exc})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise error(f"{path}: line {line}: not valid UTF-8") from None


def iter_jsonl(
    path: str | os.PathLike, *, error: type[QuotelocateError]
) -> Iterator[tuple[int, dict[str, Any] | None, str]]:
    """``(line number, object, problem)`` for each non-blank line: ``problem`` is '' for a
    usable object, else a message naming the file and line (the object is then None).
    A file that cannot be read at all raises ``error``."""
    text = read_utf8(path, error=error)
    for lineno, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            line = line[:-1]
        if not line.strip():
            continue
        where = f"{path}: line {lineno}: "
        if _too_deep(line):
            yield lineno, None, f"{where}nested deeper than {MAX_DEPTH} levels"
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            yield lineno, None, f"{where}invalid JSON ({exc.msg})"
            continue
        except (ValueError, RecursionError) as exc:  # e.g. an integer past the digit limit
            msg = "a number has too many digits" if "digits" in str(exc) else "cannot be parsed"
            yield lineno, None, f"{where}invalid JSON ({msg})"
            continue
        if not isinstance(obj, dict):
            yield lineno, None, f"{where}expected a JSON object"
            continue
        problem = _problem(obj)
        if problem:
            yield lineno, None, f"{where}{problem}"
            continue
        yield lineno, obj, ""


def read_jsonl(
    path: str | os.PathLike, *, error: type[QuotelocateError], what: str = "lines"
) -> list[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-blank line of a JSON-lines file (``-``
    reads stdin). Missing files, invalid UTF-8, invalid JSON, non-objects, unusable
    values and an empty file raise ``error`` with the file and line in the message."""
    records = []
    for lineno, obj, problem in iter_jsonl(path, error=error):
        if problem:
            raise error(problem)
        assert obj is not None
        records.append((lineno, obj))
    if not records:
        raise error(f"{path}: no {what}")
    return records
