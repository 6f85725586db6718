"""Growing a quote set one labelled quote at a time (the workbench's "save to set").

An edited set is an ordinary quote set file (format 1, see ``datasets/README.md``) in
the sets folder: ``$QUOTELOCATE_SETS``, else ``$XDG_DATA_HOME/quotelocate/sets``
(``~/.local/share/quotelocate/sets``). Its name is a set name (``[a-z0-9-]+``), never a
path. The first quote creates it with the pin, text fingerprint and chunking of the set
the quote was checked against; later quotes must be on the same paper.

:func:`save_quote` changes one quote of an existing set, or adds one (the workbench's
Label view: a label given, an anchor fixed, a passage added), refusing when the file
changed on disk since it was read, so no one's decision is overwritten unseen.

Every write is atomic: the whole new file is written beside the old one, read back and
validated by :func:`~quotelocate.data.quoteset.load_quote_set` (anchors verified against
the open paper), flushed to disk, and only then renamed over the old file. A failed
check or a crash leaves the previous file as it was.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml

from ..document import Document
from ..errors import DatasetError
from ..userdirs import data_path
from .quoteset import (
    MULTI_FORMAT_VERSION,
    Quote,
    QuoteSet,
    _quote_to_dict,
    dump_quote_set,
    load_quote_set,
    set_outline,
)

_NAME = re.compile(r"[a-z0-9-]+")


def sets_folder() -> Path:
    """``$QUOTELOCATE_SETS``, else ``$XDG_DATA_HOME/quotelocate/sets``."""
    return data_path("sets", override="QUOTELOCATE_SETS")


def edited_set_path(name: str, *, folder: str | os.PathLike | None = None) -> Path:
    """The file of the edited set ``name`` in ``folder`` (default :func:`sets_folder`).

    >>> edited_set_path("my-set", folder="/tmp/sets").as_posix()
    '/tmp/sets/my-set.yaml'
    >>> edited_set_path("../etc", folder="/tmp/sets")
    Traceback (most recent call last):
    ...
    quotelocate.errors.DatasetError: set name '../etc': use lower-case letters, digits and '-' only
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise DatasetError(f"set name {name!r}: use lower-case letters, digits and '-' only")
    return Path(folder if folder is not None else sets_folder()) / f"{name}.yaml"


def _header(quote_set: QuoteSet, name: str, path: Path) -> dict[str, Any]:
    p = quote_set.paper
    paper: dict[str, Any] = {"file": p.file, "sha256": p.sha256}
    if p.url and not p.url.startswith("file:"):  # a file: URL is relative to where the set was
        paper["url"] = p.url
    if p.version:
        paper["version"] = p.version
    if p.text is not None:
        paper["text"] = {"extractor": p.text.extractor, "extractor_version": p.text.extractor_version,
                         "flags": p.text.flags, "sha256": p.text.sha256}
    data: dict[str, Any] = {
        "format": 1,
        "name": name,
        "description": f"Quotes labelled in the workbench, checked against the set {quote_set.name}.",
        "paper": paper,
    }
    if quote_set.chunk_file is not None:
        copy = path.with_name(f"{name}.chunks{quote_set.chunk_file.suffix}")
        shutil.copyfile(quote_set.chunk_file, copy)
        data["chunking"] = {"file": copy.name, "group_size": quote_set.chunking.group_size}
    else:
        c = quote_set.chunking
        data["chunking"] = {"size": c.size, "overlap": c.overlap, "group_size": c.group_size}
    return data


def add_quote(name: str, quote: Quote, *, quote_set: QuoteSet, folder: str | os.PathLike | None = None) -> QuoteSet:
    """Append ``quote`` to the edited set ``name`` (created from ``quote_set``'s pin and
    chunking when it does not exist yet) and return the set as written.

    Raises :class:`~quotelocate.errors.DatasetError` naming the file when the existing
    file is not a valid set, is pinned to another paper, already has the quote's id, or
    the quote itself is invalid (the file is then left unchanged).
    """
    path = edited_set_path(name, folder=folder)
    document = quote_set.document()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatasetError(f"{path.parent}: cannot create the sets folder ({exc.strerror})") from None
    if path.exists():
        current = load_quote_set(path, document=document)
        if current.paper.sha256 != quote_set.paper.sha256:
            raise DatasetError(f"{path}: pinned to another paper ({current.paper.file}); pick another set name")
        if any(q.id == quote.id for q in current.quotes):
            raise DatasetError(f"{path}: quote {quote.id!r}: field 'id': already in the set; pick another id")
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
        data["quotes"].append(_quote_to_dict(quote))
    else:
        data = _header(quote_set, name, path)
        data["quotes"] = [_quote_to_dict(quote)]
    try:
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    except (yaml.YAMLError, UnicodeEncodeError) as exc:
        raise DatasetError(f"{path}: quote {quote.id!r} cannot be written as YAML ({exc})") from None
    fd, tmp = tempfile.mkstemp(prefix=f".{name}-", suffix=".yaml", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        load_quote_set(tmp, document=document)  # refuse to replace a good file by a bad one
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return load_quote_set(path, document=document)


def save_quote(path: str | os.PathLike, quote: Quote, *, expected_sha256: str, document: Document,
               add: bool = False) -> str:
    """Replace the quote with ``quote.id`` in the set file ``path`` (``add``: append it
    as a new quote) and return the sha256 of the file as written.

    ``expected_sha256``: the file's sha256 when it was read; a file changed since is
    refused, not overwritten. ``document``: the paper of the quote, which its anchor must
    read (text and page). The file is rewritten by the set writer, every other quote as
    it was, into a temporary file beside it that is validated, flushed and renamed over
    it. Raises :class:`~quotelocate.errors.DatasetError` naming the file.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DatasetError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if hashlib.sha256(raw).hexdigest() != expected_sha256:
        raise DatasetError(f"{path}: changed on disk since it was opened; nothing was saved (reload it)")
    a = quote.anchor
    if a is not None and (document.text[a.start : a.end] != a.text or document.page_at(a.start) != a.page):
        raise DatasetError(f"{path}: quote {quote.id!r}: field 'anchor': does not read the paper's text on page {a.page}")
    text = raw.decode("utf-8")
    data = yaml.safe_load(text)
    entry = _quote_to_dict(quote)
    if data.get("format") != MULTI_FORMAT_VERSION:
        entry.pop("paper", None)
    quotes = data["quotes"]
    at = next((i for i, q in enumerate(quotes) if q.get("id") == quote.id), None)
    if add:
        if at is not None:
            raise DatasetError(f"{path}: quote {quote.id!r}: field 'id': already in the set; pick another id")
        quotes.append(entry)
    elif at is None:
        raise DatasetError(f"{path}: quote {quote.id!r}: no such quote in the set")
    else:
        quotes[at] = entry
    comments = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        comments.append(line[1:].strip())
    out = dump_quote_set(data, header="\n".join(comments)).encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".yaml", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(out)
            fh.flush()
            os.fsync(fh.fileno())
        set_outline(Path(tmp))  # refuse to replace a good file by a bad one
        os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return hashlib.sha256(out).hexdigest()
