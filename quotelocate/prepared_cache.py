"""A paper's prepared text kept in the extraction cache: the normalized text and its
offset maps a :class:`~quotelocate.locate.Locator` searches, so a second run over the
same papers skips normalizing as well as extracting. The k-gram index is rebuilt from
the text (numpy builds it faster than it could be read back).

The entry lives in the document's :class:`~quotelocate.extraction_cache.ExtractionCache`
(the one it was opened through; a document opened without one is prepared as always).
Its key holds everything the prepared text depends on: the file's sha256, the extractor,
its version and flags, the text's sha256, the layout version, the rules' fingerprint,
:data:`PREPARED_VERSION` and a digest of the code that prepares and indexes (the
normalize, prepare, kgrams, layout and furniture modules as loaded), so an edit to any of
them misses the old entries even when nobody bumps a version. Entries are JSON, checked
by sha256 when read (see :mod:`quotelocate.extraction_cache`); a payload that is intact
JSON but not a prepared text of this document (wrong lengths, offsets outside the text)
is counted as dropped and rebuilt.

The furniture lines a rejection is checked against (:func:`furniture_lines`) are kept the
same way: finding them builds the page layout, which the cached reading order otherwise
spares a warm run.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import sys
from array import array
from typing import Any

from .document import Document
from .kgrams import K
from .normalize import Normalized, Rules

PREPARED_VERSION = 2
"""Version of the prepared entry's layout and of what it means; part of every key."""

_CODE_MODULES = ("normalize", "prepare", "kgrams", "layout", "furniture")


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """sha256 over the files the preparing modules were loaded from (source or bytecode)."""
    import importlib

    h = hashlib.sha256()
    for name in _CODE_MODULES:
        module = importlib.import_module(f"{__package__}.{name}")
        h.update(name.encode())
        try:
            with open(module.__file__ or "", "rb") as f:
                h.update(f.read())
        except OSError:
            h.update(repr(sys.version_info).encode())  # no file: at least the interpreter
    return h.hexdigest()[:32]


def _disk(document: Document):
    return document.__dict__.get("_extraction_cache")


def _document_key(document: Document, kind: str) -> dict:
    from .extraction_cache import document_key
    from .layout import LAYOUT_VERSION

    return document_key(document, kind, layout_version=LAYOUT_VERSION, prepared_version=PREPARED_VERSION,
                        code=code_digest())


def prepared_key(document: Document, rules: Rules) -> dict:
    """The cache key of ``document`` prepared under ``rules``."""
    return {**_document_key(document, "prepared"), "rules": rules.fingerprint, "k": K}


def load(document: Document, rules: Rules) -> Normalized | None:
    """The prepared (normalized) text of ``document`` under ``rules`` from its cache, or
    None (no cache, not there, or not valid for this document: then dropped). The
    k-gram index is not kept: built from the text with numpy, it costs less than
    reading it back would."""
    disk = _disk(document)
    if disk is None:
        return None
    payload = disk.get(prepared_key(document, rules))
    if payload is None:
        return None
    out = _from_json(payload, len(document.text))
    if out is None:
        disk.dropped += 1
        disk.hits -= 1  # read, but not usable: a miss
        disk.misses += 1
    return out


def store(document: Document, rules: Rules, norm: Normalized) -> None:
    """Keep the prepared text in the document's cache (when it has one)."""
    disk = _disk(document)
    if disk is None:
        return
    starts, ends = norm.offsets
    disk.put(
        prepared_key(document, rules),
        {
            "text": norm.text,
            "starts": _pack("i", starts),
            "ends": _pack("i", ends),
            "flags": _pack("H", norm.flags),
            "gaps": _pack("H", norm.gaps),
        },
    )


# Whole-number arrays travel as base64 of their little-endian bytes inside the JSON
# entry: decoding them is one C call each and yields whole numbers by construction,
# where a JSON list of 50,000 numbers would take a parse and a type check per number.


def _pack(code: str, values: Any) -> str:
    arr = array(code, values)
    if sys.byteorder != "little":
        arr.byteswap()
    return base64.b64encode(arr.tobytes()).decode("ascii")


def _unpack(code: str, text: Any) -> array:
    """The array packed by :func:`_pack`; ValueError when ``text`` is not one."""
    if not isinstance(text, str):
        raise ValueError("not packed")
    raw = base64.b64decode(text.encode("ascii"), validate=True)
    arr = array(code)
    if len(raw) % arr.itemsize:
        raise ValueError("not a whole number of items")
    arr.frombytes(raw)
    if sys.byteorder != "little":
        arr.byteswap()
    return arr


def _from_json(payload: Any, text_length: int) -> Normalized | None:
    if not isinstance(payload, dict):
        return None
    try:
        text = payload["text"]
        starts, ends = _unpack("i", payload["starts"]), _unpack("i", payload["ends"])
        flags, gaps = _unpack("H", payload["flags"]), _unpack("H", payload["gaps"])
    except (KeyError, TypeError, ValueError, UnicodeEncodeError, binascii.Error):
        return None
    if not isinstance(text, str):
        return None
    n = len(text)
    if not (len(starts) == len(ends) == len(flags) == n and len(gaps) == n + 1):
        return None
    if n and not (0 <= min(starts) and max(starts) <= text_length and 0 <= min(ends) and max(ends) <= text_length):
        return None
    return Normalized.of_arrays(text, starts, ends, flags, gaps)


def furniture_lines(document: Document) -> tuple[tuple[int, int, int], ...]:
    """:func:`quotelocate.layout.furniture_lines`, kept in the document's cache."""
    from .layout import furniture_lines as compute

    disk = _disk(document)
    if disk is None:
        return compute(document)
    key = _document_key(document, "furniture-lines")
    payload = disk.get(key)
    if payload is not None:
        n = len(document.text)
        try:
            lines = tuple((int(p), int(s), int(e)) for p, s, e in payload)
            if all(0 <= s <= e <= n for _, s, e in lines):
                return lines
        except (TypeError, ValueError):
            pass
        disk.dropped += 1
    lines = compute(document)
    disk.put(key, [list(t) for t in lines])
    return lines


def prepared_text(document: Document, rules: Rules) -> str:
    """``prepare(document, rules).text``, kept in the document's cache (the diagnosis
    reads the text under other rules than the locator's, without the offset maps)."""
    from .prepare import prepare

    disk = _disk(document)
    if disk is None:
        return prepare(document, rules).text
    key = {**_document_key(document, "prepared-text"), "rules": rules.fingerprint}
    payload = disk.get(key)
    if isinstance(payload, dict) and isinstance(payload.get("text"), str):
        return payload["text"]
    if payload is not None:
        disk.dropped += 1
    text = prepare(document, rules).text
    disk.put(key, {"text": text})
    return text
