"""JSON-lines input (quote batches, stored verdicts, explicit chunks), read strictly.

Every problem is an error of the caller's type that names the file and the line.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from .errors import QuotelocateError


def read_jsonl(
    path: str | os.PathLike, *, error: type[QuotelocateError], what: str = "lines"
) -> list[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-blank line of a JSON-lines file (``-``
    reads stdin). Missing files, invalid UTF-8, invalid JSON, non-objects and an empty
    file raise ``error`` with the file and line in the message."""
    p = Path(path)
    try:
        raw = sys.stdin.buffer.read() if str(path) == "-" else p.read_bytes()
    except FileNotFoundError:
        raise error(f"{p}: no such file") from None
    except IsADirectoryError:
        raise error(f"{p}: is a directory") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise error(f"{path}: line {line}: not valid UTF-8") from None
    records = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise error(f"{path}: line {lineno}: invalid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise error(f"{path}: line {lineno}: expected a JSON object")
        records.append((lineno, obj))
    if not records:
        raise error(f"{path}: no {what}")
    return records
