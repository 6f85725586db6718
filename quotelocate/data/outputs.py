"""A pipeline's outputs: the quotes a model wrote, one record each, as JSON lines or CSV.

Each record names the ``paper`` it quotes (a bare file name, found on the papers search
path or in a folder the caller gives), the ``quote`` and, optionally, the
``cited_chunk`` the model cited (a chunk number, 0-based), an ``id`` and a ``label``
(``faithful`` or ``fabricated``, for the records a person has checked). Other fields a
pipeline writes beside these (the prompt, the model, a score) are left alone: an
outputs file is the pipeline's own record, not a format of ours.

JSON lines: one object a line (read by :func:`quotelocate.jsonl.iter_jsonl`). CSV: a
header row naming the columns, ``paper`` and ``quote`` required; an empty cell is an
absent value. A file whose name ends in ``.csv`` is CSV, one ending in ``.jsonl``,
``.ndjson`` or ``.json`` is JSON lines, and any other is CSV unless its first
non-blank character is ``{``.

Every problem raises :class:`QuoteInputError` naming the file and the line (for CSV,
the line the record ends on): a missing or wrong-typed field, a chunk number that is
not a whole number from 0, an unknown label, an id used twice, a file with no records.

>>> import os, tempfile
>>> d = tempfile.mkdtemp(); p = os.path.join(d, "out.csv")
>>> _ = open(p, "w", encoding="utf-8").write('paper,quote,cited_chunk,label\\nv7.pdf,"Attention, all",3,faithful\\n')
>>> read_outputs(p)[0]
OutputRecord(paper='v7.pdf', quote='Attention, all', cited_chunk=3, id='', label='faithful', line=2)
"""

from __future__ import annotations

import csv
import io
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ..errors import QuoteInputError
from ..jsonl import iter_jsonl, read_utf8
from .quoteset import LABELS

MAX_OUTPUTS_BYTES = 256 * 1024 * 1024
"""Largest outputs file read (a file this size holds about a million quotes)."""

FIELDS = ("paper", "quote", "cited_chunk", "id", "label")
"""The fields a record is read from; ``paper`` and ``quote`` are required."""

_JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")


@dataclass(frozen=True)
class OutputRecord:
    """One quote a pipeline produced: the ``paper`` file name, the ``quote``, the
    ``cited_chunk`` (None: the model cited none), the pipeline's ``id`` ("" when it gave
    none), the human ``label`` (None when nobody checked it) and the file ``line``."""

    paper: str
    quote: str
    cited_chunk: int | None = None
    id: str = ""
    label: str | None = None
    line: int = 0

    @property
    def key(self) -> str:
        """The record's id, or ``line N`` when it has none: what a report calls it."""
        return self.id or f"line {self.line}"


def _format(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in _JSONL_SUFFIXES:
        return "jsonl"
    try:
        with open(path, "rb") as f:
            head = f.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return "jsonl"  # the JSON-lines reader names the file and why it cannot be read
    return "jsonl" if head.startswith(b"{") else "csv"


def _record(values: Mapping[str, Any], *, where: str, line: int, from_csv: bool) -> OutputRecord:
    """A validated record from one object or row; ``where`` is ``file: line N: ``."""
    # a Parquet column with gaps holds NaN in them, and whole numbers as floats
    values = {k: None if isinstance(v, float) and math.isnan(v) else v for k, v in values.items()}
    if isinstance(values.get("cited_chunk"), float) and values["cited_chunk"].is_integer():
        values["cited_chunk"] = int(values["cited_chunk"])
    paper = values.get("paper")
    if not isinstance(paper, str) or not paper:
        raise QuoteInputError(f"{where}'paper' is required: the file name of the paper quoted")
    if Path(paper).name != paper or paper in (".", ".."):
        raise QuoteInputError(f"{where}'paper' must be a bare file name, not a path: {paper!r}")
    quote = values.get("quote")
    if not isinstance(quote, str):
        got = "missing" if quote is None else f"a {type(quote).__name__}"
        raise QuoteInputError(f"{where}'quote' must be a string ({got})")
    chunk = values.get("cited_chunk")
    if from_csv and chunk == "":
        chunk = None
    if from_csv and chunk is not None:
        text = chunk.strip()
        if not (text.isascii() and text.isdigit()):
            raise QuoteInputError(f"{where}'cited_chunk' must be a whole number from 0, not {chunk!r}")
        chunk = int(text)
    elif chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 0):
        raise QuoteInputError(f"{where}'cited_chunk' must be a whole number from 0 or null, not {chunk!r}")
    rid = values.get("id")
    if rid is None:
        rid = ""
    elif isinstance(rid, int) and not isinstance(rid, bool):
        rid = str(rid)
    elif not isinstance(rid, str):
        raise QuoteInputError(f"{where}'id' must be a string or a whole number, not {rid!r}")
    label = values.get("label")
    if label == "" and from_csv:
        label = None
    if label is not None and label not in LABELS:
        raise QuoteInputError(f"{where}'label' must be one of {', '.join(LABELS)} or absent, not {label!r}")
    return OutputRecord(paper=paper, quote=quote, cited_chunk=chunk, id=rid, label=label, line=line)


def _read_jsonl(path: Path) -> list[OutputRecord]:
    out = []
    for lineno, obj, problem in iter_jsonl(path, error=QuoteInputError):
        if problem:
            raise QuoteInputError(problem)
        assert obj is not None
        out.append(_record(obj, where=f"{path}: line {lineno}: ", line=lineno, from_csv=False))
    return out


def _read_csv(path: Path) -> list[OutputRecord]:
    text = read_utf8(path, error=QuoteInputError, what="outputs file", limit=MAX_OUTPUTS_BYTES)
    text = text.removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise QuoteInputError(f"{path}: line {reader.line_num}: not valid CSV ({exc})") from None
    if header is None:
        raise QuoteInputError(f"{path}: no records (the file is empty)")
    names = [h.strip() for h in header]
    missing = [f for f in ("paper", "quote") if f not in names]
    if missing:
        raise QuoteInputError(
            f"{path}: line 1: the header has no {' or '.join(repr(m) for m in missing)} column "
            f"(it names {', '.join(repr(n) for n in names)})"
        )
    for name in FIELDS:
        if names.count(name) > 1:
            raise QuoteInputError(f"{path}: line 1: the header names {name!r} twice")
    out = []
    while True:
        lineno = reader.line_num + 1  # the line a record starts on (a quoted cell may hold line breaks)
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise QuoteInputError(f"{path}: line {lineno}: not valid CSV ({exc})") from None
        if not row or all(not cell.strip() for cell in row):
            continue
        where = f"{path}: line {lineno}: "
        if len(row) > len(names):
            raise QuoteInputError(f"{where}{len(row)} cells, but the header names {len(names)} columns")
        values = dict(zip(names, row))
        out.append(_record(values, where=where, line=lineno, from_csv=True))
    return out


def _read_parquet(path: Path) -> list[OutputRecord]:
    """Rows of a Parquet file (pandas with pyarrow); a problem names the row, from 1."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas comes with the eval extra
        raise QuoteInputError(f"{path}: reading Parquet needs pandas and pyarrow: pip install 'quotelocate[eval]' pyarrow") from None
    try:
        frame = pd.read_parquet(path)
    except ImportError:
        raise QuoteInputError(f"{path}: reading Parquet needs pyarrow: pip install pyarrow") from None
    except FileNotFoundError:
        raise QuoteInputError(f"{path}: no such outputs file") from None
    except Exception as exc:  # noqa: BLE001 - pyarrow raises its own types for a damaged file
        raise QuoteInputError(f"{path}: not a readable Parquet file ({type(exc).__name__}: {exc})") from None
    missing = [f for f in ("paper", "quote") if f not in frame.columns]
    if missing:
        raise QuoteInputError(f"{path}: no {' or '.join(map(repr, missing))} column")
    out = []
    for i, row in enumerate(frame.to_dict("records"), start=1):
        values = {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items()}
        out.append(_record(values, where=f"{path}: row {i}: ", line=i, from_csv=False))
    return out


def read_outputs(path: str | os.PathLike) -> list[OutputRecord]:
    """The records of a pipeline's outputs file (JSON lines, CSV or Parquet), in file
    order. Raises :class:`QuoteInputError` naming the file and line (or Parquet row) of
    the first problem."""
    p = Path(path)
    if p.is_file() and p.stat().st_size > MAX_OUTPUTS_BYTES:
        raise QuoteInputError(f"{p}: {p.stat().st_size} bytes exceeds the limit of {MAX_OUTPUTS_BYTES} for an outputs file")
    if p.suffix.lower() == ".parquet":
        records = _read_parquet(p)
    else:
        records = _read_jsonl(p) if _format(p) == "jsonl" else _read_csv(p)
    if not records:
        raise QuoteInputError(f"{p}: no records")
    seen: dict[str, int] = {}
    for r in records:
        if r.id:
            if r.id in seen:
                raise QuoteInputError(f"{p}: line {r.line}: id {r.id!r} is used again (first on line {seen[r.id]})")
            seen[r.id] = r.line
    return records
