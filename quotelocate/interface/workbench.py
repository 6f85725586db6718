"""The workbench's input handling and view state, kept free of Streamlit so it is tested
like the rest of the package (``app.py`` only wires these to widgets).

* Uploads: :func:`load_upload` checks an uploaded quote set (YAML) and paper (PDF) —
  size limit, ``%PDF-`` header, strict validation by
  :func:`~quotelocate.data.quoteset.load_quote_set` (``yaml.safe_load`` after refusing tags
  and aliases) — and stages them under fixed names in a folder the caller owns (one per
  session). An uploaded file's name never becomes a path.
* View state: :func:`share_query` turns the values of the URL-bound widgets into the
  query string that reopens the same set, rules and view; :func:`matching_preset` names
  the preset a rules config equals; :func:`vary_rule` builds a comparison grid that
  varies one rule.
* Playground: :func:`cited_chunk_of` reads the cited chunk a user pasted (a number or
  the chunk's text); :func:`labelled_quote` turns a checked quote into a quote-set entry.
* Label: :func:`label_queue` orders a draft set's unreviewed quotes, :func:`label_case`
  gathers what the view shows for one, :func:`decided_quote`, :func:`anchor_from_text`
  and :func:`added_quote` turn a decision into a quote (saved by
  :func:`~quotelocate.data.editing.save_quote`), :func:`with_quote` updates the open set.

>>> share_query({"set": "synthetic", "quotes": False, "view": "Inspect", "chunk_size": None}, {"set": "synthetic"})
{'quotes': 'false', 'view': 'Inspect'}
>>> matching_preset(PRESETS["two-transform"]), matching_preset(Rules(quotes=True))
('two-transform', 'custom')
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from ..chunks import Chunk, Chunking
from ..data.quoteset import Anchor, Quote, QuoteSet, load_quote_set
from ..document import Document, Limits
from ..errors import ConfigError, DatasetError, DocumentError, PaperNotFoundError, QuoteInputError, QuotelocateError
from ..locate import Verdict
from ..normalize import ELLIPSIS_MODES, HYPHENATION_MODES, PRESETS, UNICODE_MODES, Rules

if TYPE_CHECKING:
    from .eval_worker import WorkerRequest

MAX_UPLOAD_BYTES = 50 * 1024 * 1024
UPLOAD_LIMITS = Limits(seconds=30, memory_mb=1024, max_pages=2000)
"""Extraction limits for an uploaded PDF: a shared server is stricter than the library."""
"""Largest accepted upload (matches ``server.maxUploadSize`` in ``.streamlit/config.toml``)."""

SET_FILE = "quotes.yaml"
PAPER_FILE = "paper.pdf"


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def check_upload_size(data: bytes, what: str, *, max_bytes: int | None = None) -> None:
    """Refuse an empty upload or one larger than ``max_bytes`` (default :data:`MAX_UPLOAD_BYTES`)."""
    max_bytes = MAX_UPLOAD_BYTES if max_bytes is None else max_bytes
    if not data:
        raise DatasetError(f"{what}: the uploaded file is empty")
    if len(data) > max_bytes:
        raise DatasetError(f"{what}: {_mb(len(data))} exceeds the upload limit of {_mb(max_bytes)}")


def check_upload_object(upload: Any, what: str, *, max_bytes: int | None = None) -> None:
    """Refuse an uploaded file object (Streamlit's ``UploadedFile``, any ``BytesIO``) that
    is empty or larger than ``max_bytes``, from the size of its in-memory buffer, before
    its bytes are copied, hashed or written anywhere."""
    max_bytes = MAX_UPLOAD_BYTES if max_bytes is None else max_bytes
    size = getattr(upload, "size", None)
    if not isinstance(size, int):
        size = upload.getbuffer().nbytes
    if size == 0:
        raise DatasetError(f"{what}: the uploaded file is empty")
    if size > max_bytes:
        raise DatasetError(f"{what}: {_mb(size)} exceeds the upload limit of {_mb(max_bytes)}")


def check_pdf_upload(data: bytes, *, max_bytes: int | None = None) -> None:
    """Refuse an uploaded paper that is too large or has no ``%PDF-`` header."""
    check_upload_size(data, "paper", max_bytes=max_bytes)
    if data[:1024].find(b"%PDF-") < 0:
        raise DocumentError(f"paper: not a PDF (no %PDF- header; starts with {data[:8]!r})")


def upload_digest(set_bytes: bytes, pdf_bytes: bytes | None) -> str:
    """Content hash of an upload pair; names its staging folder and keys caches."""
    h = hashlib.sha256()
    h.update(hashlib.sha256(set_bytes).digest())
    h.update(hashlib.sha256(pdf_bytes or b"").digest())
    return h.hexdigest()


UPLOAD_PREFIX = "quotelocate-upload-"
UPLOAD_MAX_AGE_S = 24 * 3600


def prune_upload_folders(root: str | os.PathLike, *, max_age_s: float = UPLOAD_MAX_AGE_S,
                         now: float | None = None) -> list[Path]:
    """Remove per-session upload folders (``quotelocate-upload-*`` in ``root``) that
    nothing has touched for ``max_age_s`` seconds; returns what was removed. Streamlit
    has no end-of-session hook, so each new session tidies up after old ones."""
    import shutil
    import time

    now = time.time() if now is None else now
    removed = []
    for folder in Path(root).glob(UPLOAD_PREFIX + "*"):
        try:
            if folder.is_dir() and not folder.is_symlink() and now - folder.stat().st_mtime > max_age_s:
                shutil.rmtree(folder)
                removed.append(folder)
        except OSError:
            continue  # another session is using or removing it
    return removed


def stage_upload(folder: str | os.PathLike, set_bytes: bytes, pdf_bytes: bytes | None = None, *,
                 max_bytes: int | None = None) -> tuple[Path, Path | None]:
    """Check an upload and write it as ``<folder>/<digest>/quotes.yaml`` (and
    ``paper.pdf``). Returns the two paths; nothing is written when a check fails."""
    check_upload_size(set_bytes, "quote set", max_bytes=max_bytes)
    if pdf_bytes is not None:
        check_pdf_upload(pdf_bytes, max_bytes=max_bytes)
    root = Path(folder).resolve()
    target = root / upload_digest(set_bytes, pdf_bytes)[:16]
    target.mkdir(parents=True, exist_ok=True)
    set_path = target / SET_FILE
    set_path.write_bytes(set_bytes)
    pdf_path = None
    if pdf_bytes is not None:
        pdf_path = target / PAPER_FILE
        pdf_path.write_bytes(pdf_bytes)
    return set_path, pdf_path


def load_upload(folder: str | os.PathLike, set_bytes: bytes, pdf_bytes: bytes | None = None, *,
                max_bytes: int | None = None) -> QuoteSet:
    """Load an uploaded quote set, with its uploaded paper when one is given (else the
    pinned paper is looked up on the papers search path as for any set).

    Raises :class:`~quotelocate.errors.DatasetError` (including
    :class:`~quotelocate.errors.PaperNotFoundError`) or
    :class:`~quotelocate.errors.DocumentError` with a one-line message.
    """
    set_path, pdf_path = stage_upload(folder, set_bytes, pdf_bytes, max_bytes=max_bytes)
    try:
        document = Document.open(pdf_path, limits=UPLOAD_LIMITS) if pdf_path is not None else None
        return load_quote_set(set_path, document=document)
    except PaperNotFoundError as exc:  # its message lists the server's search path
        paper = getattr(exc, "file", None) or "named in the set"
        raise PaperNotFoundError(f"uploaded quote set: its paper {paper!r} is not on this server's papers search "
                                 "path; upload the paper as well") from None
    except QuotelocateError as exc:
        exc.args = (public_message(str(exc), set_path.parent),)
        raise exc from None


OUTPUTS_FILES = {".csv": "outputs.csv", ".jsonl": "outputs.jsonl", ".ndjson": "outputs.jsonl", ".json": "outputs.jsonl"}
"""The fixed name an uploaded outputs file is staged under, by the suffix of its upload
name (any other suffix: ``outputs``, whose format the reader tells from its content)."""


def load_outputs_upload(folder: str | os.PathLike, data: bytes, upload_name: str, *,
                        max_bytes: int | None = None) -> list:
    """Check an uploaded outputs file (size), stage it as ``<folder>/outputs-<digest>/``
    under a fixed name and read it (:func:`quotelocate.data.outputs.read_outputs`).
    Errors name the upload by its own name, never the staged path; nothing is written
    when the size check fails."""
    from ..data.outputs import read_outputs

    check_upload_size(data, "outputs file", max_bytes=max_bytes)
    name = OUTPUTS_FILES.get(Path(upload_name).suffix.lower(), "outputs")
    target = Path(folder).resolve() / f"outputs-{hashlib.sha256(data).hexdigest()[:16]}"
    target.mkdir(parents=True, exist_ok=True)
    path = target / name
    path.write_bytes(data)
    try:
        return read_outputs(path)
    except QuotelocateError as exc:
        shown = Path(upload_name).name or "uploaded outputs file"
        exc.args = (str(exc).replace(str(path), shown),)
        raise exc from None


def public_message(message: str, staging: str | os.PathLike) -> str:
    """``message`` with the server's paths replaced by what the user uploaded: the staged
    set and paper by their roles, the staging and temporary folders by a placeholder, so
    an error never tells a visitor where the server keeps files.

    >>> public_message("/tmp/x/ab/quotes.yaml: line 3: bad; /tmp/x/ab/paper.pdf; /tmp/y", "/tmp/x/ab")
    'uploaded quote set: line 3: bad; uploaded paper; <server folder>/y'
    """
    import tempfile

    staging = Path(staging)
    replacements = [(staging / SET_FILE, "uploaded quote set"), (staging / PAPER_FILE, "uploaded paper")]
    folders = {staging, staging.parent, Path(tempfile.gettempdir())}
    folders |= {f.resolve() for f in list(folders)}
    replacements += [(f, "<server folder>") for f in sorted(folders, key=lambda f: -len(str(f)))]
    for path, shown in replacements:
        message = message.replace(str(path), shown)
    return message


def evaluate_upload(request: "WorkerRequest", *, timeout_s: float | None = None):
    """:func:`~quotelocate.interface.eval_worker.evaluate_in_worker` for a staged upload:
    evaluated in a child process that is killed past ``timeout_s``, so one session's
    upload never stalls another's; error messages name roles, not the server's paths."""
    from .eval_worker import evaluate_in_worker

    try:
        return evaluate_in_worker(request, timeout_s=timeout_s)
    except QuotelocateError as exc:
        exc.args = (public_message(str(exc), Path(request.set_path).parent),)
        raise exc from None


def with_chunking(quote_set: QuoteSet, chunking: Chunking) -> QuoteSet:
    """The same quotes over the same paper, cut into other chunks (cited chunk indices
    keep their numbers, so they then point elsewhere: a what-if)."""
    if chunking == quote_set.chunking and quote_set.chunk_file is None:
        return quote_set
    return QuoteSet.from_quotes(
        quote_set.quotes,
        document=quote_set.document(),
        name=quote_set.name,
        description=quote_set.description,
        chunking=chunking,
    )


# ---------------------------------------------------------------------------------------
# View state


def share_query(values: Mapping[str, Any], defaults: Mapping[str, Any] | None = None) -> dict[str, str | list[str]]:
    """Query parameters for the given widget values, serialized as Streamlit's
    ``bind="query-params"`` reads them (booleans ``true``/``false``, lists repeated);
    ``None`` and values equal to their entry in ``defaults`` are left out, as a widget
    falls back to its default when its parameter is absent."""
    defaults = defaults or {}
    out: dict[str, str | list[str]] = {}
    for key, value in values.items():
        if value is None or (key in defaults and defaults[key] == value):
            continue
        if isinstance(value, bool):
            out[key] = "true" if value else "false"
        elif isinstance(value, (list, tuple)):
            out[key] = [str(v) for v in value]
        elif isinstance(value, float) and value.is_integer():
            out[key] = str(int(value))
        else:
            out[key] = str(value)
    return out


def share_url(base: str, params: Mapping[str, str | list[str]]) -> str:
    """``base`` (any query string dropped) with ``params`` as its query string."""
    parts = urllib.parse.urlsplit(base or "")
    query = urllib.parse.urlencode(params, doseq=True)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path or "/", query, ""))


def matching_preset(rules: Rules) -> str:
    """The name of the preset equal to ``rules``, or ``custom``."""
    for name, p in PRESETS.items():
        if p == rules:
            return name
    return "custom"


VARIABLE_RULES = ("quotes", "whitespace", "invisible", "unicode", "hyphenation", "furniture", "layout",
                  "word_boundaries", "min_chars", "min_words", "ellipsis", "ellipsis_gap", "accents", "markers",
                  "suspended_hyphens", "math_spacing", "word_gaps", "slash_spacing", "url_spacing")


def vary_rule(rules: Rules, name: str, *, lengths: tuple[int, ...] = (0, 8, 12, 20, 40)) -> dict[str, Rules]:
    """``rules`` with the one rule ``name`` set to each of its values, named
    ``name=value`` (``lengths`` for ``min_chars``; a fifth of them for ``min_words``).

    >>> list(vary_rule(Rules(), "hyphenation"))
    ['hyphenation=off', 'hyphenation=keep', 'hyphenation=drop', 'hyphenation=both']
    """
    if name not in VARIABLE_RULES:
        raise ConfigError(f"vary: {name!r} is not a rule ({', '.join(VARIABLE_RULES)})")
    if name == "unicode":
        values: tuple[Any, ...] = UNICODE_MODES
    elif name == "hyphenation":
        values = HYPHENATION_MODES
    elif name == "min_chars":
        values = lengths
    elif name == "min_words":
        values = tuple(sorted({max(0, n // 4) for n in lengths}))
    elif name == "ellipsis":
        values = ELLIPSIS_MODES
    elif name == "ellipsis_gap":
        values = (50, 150, 300, 1000)
        rules = rules.replace(ellipsis="fragments")  # the gap means nothing verbatim
    else:
        values = (False, True)
    out = {}
    for value in values:
        label = ("on" if value else "off") if isinstance(value, bool) else value
        out[f"{name}={label}"] = rules.replace(**{name: value})
    return out


# ---------------------------------------------------------------------------------------
# Playground


def cited_chunk_of(value: str | None, chunks: Sequence[Chunk], text: str) -> int | None:
    """The cited chunk a user gave: empty for none, a chunk index, or the chunk's text
    itself (pasted as the model saw it; surrounding whitespace ignored).

    >>> from quotelocate.chunks import make_chunks
    >>> text = "alpha beta gamma delta " * 4
    >>> chunks = make_chunks(text, Chunking(size=32, overlap=0, group_size=1))
    >>> cited_chunk_of(" 2 ", chunks, text), cited_chunk_of(text[32:64], chunks, text), cited_chunk_of("", chunks, text)
    (2, 1, None)
    """
    value = (value or "").strip()
    if not value:
        return None
    if value.isdigit():
        index = int(value)
        if index >= len(chunks):
            raise QuoteInputError(f"cited chunk {index}: the paper has chunks 0..{len(chunks) - 1}")
        return index
    for c in chunks:
        if text[c.start : c.end].strip() == value:
            return c.index
    raise QuoteInputError("cited chunk: neither a chunk number nor the text of one of the paper's chunks")


def labelled_quote(verdict: Verdict, *, quote_id: str, label: str, tags: Sequence[str], note: str = "") -> Quote:
    """A quote-set entry for a checked quote. A faithful one is anchored where the
    locator found it, else on its closest passage (a false reject: the labeller says
    that passage is the source); a fabricated one has no anchor."""
    anchor = None
    if label == "faithful":
        document = verdict.document
        if document is None:
            raise QuoteInputError(f"quote {quote_id!r}: the verdict has no document to anchor it in")
        if verdict.start is not None and verdict.end is not None:
            start, end = verdict.start, verdict.end
        elif verdict.near_miss is not None:
            start, end = verdict.near_miss.start, verdict.near_miss.end
        else:
            raise QuoteInputError(f"quote {quote_id!r}: no passage was found to anchor a faithful quote on")
        anchor = Anchor(page=document.page_at(start), start=start, end=end, text=document.text[start:end])
    cited = verdict.cited_chunk
    return Quote(id=quote_id, text=verdict.quote, label=label, tags=tuple(tags), cited_chunk=cited, anchor=anchor,
                 note=note)


# ---------------------------------------------------------------------------------------
# Label view: going through the unreviewed quotes of a draft set


def draft_set_names(folder: str | os.PathLike | None = None) -> list[str]:
    """The sets in the sets folder (``$QUOTELOCATE_SETS``) a name can open, sorted:
    ``NAME.yaml`` files whose ``NAME`` is a set name (never a path)."""
    from ..data.editing import sets_folder

    root = Path(folder) if folder is not None else sets_folder()
    if not root.is_dir():
        return []
    return sorted(p.stem for p in root.glob("*.yaml") if p.is_file() and re.fullmatch(r"[a-z0-9-]+", p.stem))


def file_sha256(path: str | os.PathLike) -> str:
    """The sha256 of a file's bytes ('' when it cannot be read)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""


def label_queue(quote_set: QuoteSet, *, skipped: Sequence[str] = ()) -> tuple[str, ...]:
    """The ids of the unreviewed quotes still to label, in file order, skipped ones last."""
    ids = [q.id for q in quote_set.unreviewed]
    return tuple([i for i in ids if i not in skipped] + [i for i in ids if i in skipped])


@dataclass(frozen=True)
class LabelCase:
    """One unreviewed quote as the Label view shows it: the ``quote``, the one-paper
    set of its ``paper``, the ``verdict`` under the view's rules, the ``anchor``
    proposed (the set's, else the verdict's) and what it is (``anchor_source``), and
    ``occurrences``: every place the anchor's text occurs verbatim in the paper."""

    quote: Quote
    paper: QuoteSet
    verdict: Verdict
    anchor: Anchor | None
    anchor_source: str
    occurrences: tuple[Anchor, ...]


def paper_of(quote_set: QuoteSet, quote: Quote) -> QuoteSet:
    """The one-paper set that holds ``quote``."""
    return quote_set.for_paper(quote.paper) if quote.paper else quote_set.parts[0]


def label_case(quote_set: QuoteSet, quote_id: str, locator: Any) -> LabelCase:
    """The :class:`LabelCase` of ``quote_id``; ``locator`` is a Locator over its paper."""
    from ..data.drafting import proposed_anchor

    quote = quote_set.by_id(quote_id)
    part = paper_of(quote_set, quote)
    document = part.document()
    cited = quote.cited_chunk if quote.cited_chunk is not None and quote.cited_chunk < len(locator.chunks) else None
    verdict = locator.locate(quote.text, cited_chunk=cited)
    anchor, source = quote.anchor, "the anchor in the set"
    if anchor is None:
        anchor, source = proposed_anchor(verdict, document)
    occurrences = anchors_of_text(document, anchor.text) if anchor is not None else ()
    return LabelCase(quote, part, verdict, anchor, source, occurrences or ((anchor,) if anchor else ()))


def anchors_of_text(document: Document, text: str, *, limit: int = 50) -> tuple[Anchor, ...]:
    """Every place (up to ``limit``) where ``text`` occurs verbatim in the document's text."""
    out: list[Anchor] = []
    if not text:
        return ()
    start = document.text.find(text)
    while start >= 0 and len(out) < limit:
        out.append(Anchor(page=document.page_at(start), start=start, end=start + len(text), text=text))
        start = document.text.find(text, start + 1)
    return tuple(out)


def anchor_from_text(locator: Any, text: str) -> Anchor:
    """The anchor of a passage a person typed: where the locator finds it in the paper,
    under its rules (so line breaks, ligatures and hyphens need not be typed as
    extracted). A passage it does not accept is refused with its reason: a similar
    passage is never taken for it."""
    if not text or not text.strip():
        raise QuoteInputError("the passage is empty")
    verdict = locator.locate(text, scope="document")
    if not verdict.accepted or verdict.start is None or verdict.end is None:
        raise QuoteInputError(f"not in the paper under the rules ({verdict.status}: {verdict.reason})")
    document = locator.document
    return Anchor(page=document.page_at(verdict.start), start=verdict.start, end=verdict.end,
                  text=document.text[verdict.start : verdict.end])


def decided_quote(quote: Quote, *, label: str, tags: Sequence[str], anchor: Anchor | None = None) -> Quote:
    """``quote`` with a person's decision: ``faithful`` (anchored on ``anchor``),
    ``fabricated`` (no anchor) or ``unreviewed`` (a fixed anchor, label still open).
    Tags must suit the label; :class:`QuoteInputError` says what is wrong."""
    from ..data.quoteset import FABRICATED_TAGS, FAITHFUL_TAGS, LABEL_STATES

    if label not in LABEL_STATES:
        raise QuoteInputError(f"label {label!r}: not one of {', '.join(LABEL_STATES)}")
    allowed = {"faithful": FAITHFUL_TAGS, "fabricated": FABRICATED_TAGS}.get(label, FAITHFUL_TAGS + FABRICATED_TAGS)
    wrong = [t for t in tags if t not in allowed]
    if wrong:
        raise QuoteInputError(f"tags {', '.join(wrong)}: not tags of a {label} quote")
    if label != "unreviewed" and not tags:
        raise QuoteInputError(f"a {label} quote needs at least one tag")
    if label == "faithful" and anchor is None:
        raise QuoteInputError(f"quote {quote.id!r}: no passage to anchor it on; fix the anchor first")
    return dataclasses.replace(quote, label=label, tags=tuple(dict.fromkeys(tags)),
                               anchor=None if label == "fabricated" else anchor,
                               allow=quote.allow if label == "faithful" else None)


def added_quote(quote_set: QuoteSet, paper: QuoteSet, anchor: Anchor, text: str) -> Quote:
    """A new faithful quote of ``paper``: the passage as typed, anchored where it was found."""
    taken = {q.id for q in quote_set.quotes}
    base = f"{paper.paper_id}-added-{anchor.start}"
    qid, n = base, 2
    while qid in taken:
        qid, n = f"{base}-{n}", n + 1
    return Quote(id=qid, text=text.strip(), label="faithful", tags=("plain",), anchor=anchor,
                 note="added from a passage in the Label view", paper=paper.paper.id if quote_set.multi_paper else "")


def with_quote(quote_set: QuoteSet, quote: Quote, *, set_hash: str) -> QuoteSet:
    """The loaded set with ``quote`` replaced (or added), as its file now holds it: the
    papers stay open, so a decision does not reopen them."""
    def put(quotes: tuple[Quote, ...]) -> tuple[Quote, ...]:
        if any(q.id == quote.id for q in quotes):
            return tuple(quote if q.id == quote.id else q for q in quotes)
        return quotes + (quote,)

    if not quote_set.paper_sets:
        return dataclasses.replace(quote_set, quotes=put(quote_set.quotes), set_hash=set_hash)
    parts = tuple(dataclasses.replace(p, quotes=put(p.quotes)) if p.paper.id == quote.paper else p
                  for p in quote_set.paper_sets)
    return dataclasses.replace(quote_set, quotes=put(quote_set.quotes), paper_sets=parts, set_hash=set_hash)
