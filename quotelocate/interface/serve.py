"""``quotelocate serve``: an HTTP service for pipelines that are not written in Python.

A small ASGI app (Starlette, served by uvicorn; the ``[serve]`` extra):

* ``POST /v1/verify`` takes a document and quotes and returns one verdict per quote, in
  order, each in the published ``verdict`` schema (``quotelocate schema verdict``). The
  document comes as a multipart upload (field ``document``, with the request object as
  JSON text in field ``request``), or, once uploaded, by its sha256 in a JSON body.
* ``GET /health`` says the service is up; ``GET /openapi.json`` describes the API.

A verify answer's ``Server-Timing`` header says how long the service spent on it, from
reading the body to the answer (``verify;dur=`` milliseconds), apart from queueing.

Uploaded documents are kept in a cache keyed by the sha256 of their bytes (least
recently used out first), with one locator per rules and chunking. PDFs are extracted
under the same limits as the command line (file size, pages, extraction time, memory),
and the request body is limited too. Bad input gets a 4xx answer with a JSON error
``{"error": {"code", "message"}}``; an unexpected failure a JSON 500 without a
traceback. The service binds 127.0.0.1 by default; binding any other address needs a
bearer token (``QUOTELOCATE_TOKEN``), which every ``/v1`` request must then send.

This module is imported by the command line, so Starlette and uvicorn are imported
only when the service is built.
"""

from __future__ import annotations

import argparse
import functools
import gc
import hashlib
import hmac
import ipaddress
import json
import os
import re
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from .. import __version__
from ..errors import (
    ConfigError,
    DocumentError,
    ExtractionLimitError,
    QuoteInputError,
    QuotelocateError,
)
from ..limits import DEFAULT_LIMITS, Limits
from .options import add_limit_options

if TYPE_CHECKING:  # pragma: no cover
    from starlette.applications import Starlette

    from ..document import Document
    from ..locate import Locator

TOKEN_ENV = "QUOTELOCATE_TOKEN"
"""Environment variable holding the bearer token (safer than a command-line argument,
which other users of the machine can see)."""

_SHA256 = re.compile(r"[0-9a-f]{64}\Z")
_REQUEST_KEYS = {"sha256", "quotes", "rules", "scope", "chunking", "langextract"}
_QUOTE_KEYS = {"id", "quote", "cited_chunk"}


@dataclass(frozen=True)
class ServeConfig:
    """How the service runs.

    * ``host`` ("127.0.0.1") and ``port`` (8000): where it listens;
    * ``token`` (None): bearer token every ``/v1`` request must send; required when
      ``host`` is not a loopback address;
    * ``limits`` (the command line's defaults): extraction limits for every PDF;
    * ``max_body_bytes`` (64 MiB): largest request body, upload included;
    * ``max_quotes`` (10,000) and ``max_quote_chars`` (20,000): per request and per quote;
    * ``cache_documents`` (16): documents kept, least recently used out first.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    token: str | None = None
    limits: Limits = DEFAULT_LIMITS
    max_body_bytes: int = 64 * 1024 * 1024
    max_quotes: int = 10_000
    max_quote_chars: int = 20_000
    cache_documents: int = 16

    def __post_init__(self) -> None:
        for name in ("max_body_bytes", "max_quotes", "max_quote_chars", "cache_documents"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"serve.{name}: expected a whole number of at least 1, got {value!r}")
        if self.token is not None and len(self.token) < 16:
            raise ConfigError("serve.token: use a token of at least 16 characters")
        if not is_loopback(self.host) and not self.token:
            raise ConfigError(
                f"serve: binding {self.host} exposes the service beyond this machine; "
                f"set a bearer token in ${TOKEN_ENV} (or --token) first"
            )


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ApiError(Exception):
    """An answer with a 4xx status and a JSON error body."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


@dataclass
class _Cached:
    document: Document
    locators: dict[tuple, tuple[Locator, dict[str, Any]]] = field(default_factory=dict)  # with its rules config
    info: dict[str, Any] = field(default_factory=dict)  # what every answer says about the document

    def __post_init__(self) -> None:
        doc = self.document
        self.info = {"name": os.path.basename(doc.name), "kind": doc.kind, "pages": len(doc.pages),
                     "text_sha256": doc.text_sha256, "warnings": list(doc.warnings)}  # fmt: skip


class DocumentCache:
    """Documents by sha256, least recently used out first, each with at most
    ``locators`` locators (one per rules and chunking, least recently used out first)."""

    def __init__(self, size: int, *, locators: int = 8) -> None:
        import asyncio

        self.size = size
        self.max_locators = locators
        self._docs: OrderedDict[str, _Cached] = OrderedDict()
        self.build_lock = asyncio.Lock()  # one extraction or index build at a time

    def __len__(self) -> int:
        return len(self._docs)

    def get(self, sha256: str) -> _Cached | None:
        entry = self._docs.get(sha256)
        if entry is not None:
            self._docs.move_to_end(sha256)
        return entry

    def put(self, sha256: str, document: Document) -> _Cached:
        entry = self._docs.get(sha256) or _Cached(document)
        self._docs[sha256] = entry
        self._docs.move_to_end(sha256)
        while len(self._docs) > self.size:
            self._docs.popitem(last=False)
        return entry

    def add_locator(self, entry: _Cached, key: tuple, locator: Locator) -> tuple[Locator, dict[str, Any]]:
        entry.locators[key] = served = (locator, locator.rules.to_dict())
        while len(entry.locators) > self.max_locators:
            entry.locators.pop(next(iter(entry.locators)))
        return served


# -- request parsing ------------------------------------------------------------------


def _parse_request(obj: Any, config: ServeConfig, *, where: str = "body") -> dict[str, Any]:
    """Validate the request object; every error names the field."""
    from ..chunks import Chunking
    from ..normalize import Rules

    if not isinstance(obj, dict):
        raise ApiError(400, "bad-request", f"{where}: expected a JSON object")
    unknown = sorted(set(obj) - _REQUEST_KEYS)
    if unknown:
        raise ApiError(400, "bad-request", f"{where}: unknown field {unknown[0]!r} (fields: {', '.join(sorted(_REQUEST_KEYS))})")
    quotes = obj.get("quotes", [])
    if not isinstance(quotes, list):
        raise ApiError(400, "bad-request", f"{where}.quotes: expected a list")
    if len(quotes) > config.max_quotes:
        raise ApiError(413, "too-many-quotes", f"{where}.quotes: {len(quotes)} quotes; the limit is {config.max_quotes}")
    items = []
    for i, q in enumerate(quotes):
        qwhere = f"{where}.quotes[{i}]"
        if isinstance(q, str):
            q = {"quote": q}
        if not isinstance(q, dict):
            raise ApiError(400, "bad-request", f"{qwhere}: expected a string or an object with 'quote'")
        extra = sorted(set(q) - _QUOTE_KEYS)
        if extra:
            raise ApiError(400, "bad-request", f"{qwhere}: unknown field {extra[0]!r}")
        text = q.get("quote")
        if not isinstance(text, str):
            raise ApiError(400, "bad-request", f"{qwhere}.quote: expected a string")
        if len(text) > config.max_quote_chars:
            raise ApiError(413, "quote-too-long", f"{qwhere}.quote: {len(text)} characters; the limit is {config.max_quote_chars}")
        qid = q.get("id", i)
        if isinstance(qid, bool) or not isinstance(qid, (str, int)):
            raise ApiError(400, "bad-request", f"{qwhere}.id: expected a string or an integer")
        cited = q.get("cited_chunk")
        if cited is not None and (isinstance(cited, bool) or not isinstance(cited, int)):
            raise ApiError(400, "bad-request", f"{qwhere}.cited_chunk: expected an integer")
        items.append({"id": qid, "quote": text, "cited_chunk": cited})
    rules_value = obj.get("rules", "recommended")
    try:
        if isinstance(rules_value, str):
            rules, fingerprint = _preset(rules_value)
        elif isinstance(rules_value, dict):
            rules = Rules.from_dict(rules_value)
            fingerprint = rules.fingerprint
        else:
            raise ConfigError("expected a preset name or a rules object")
        chunking_value = obj.get("chunking") or {}
        if not isinstance(chunking_value, dict) or set(chunking_value) - {"size", "overlap", "group_size"}:
            raise ApiError(400, "bad-request", f"{where}.chunking: expected an object with size, overlap, group_size")
        chunking = Chunking(**chunking_value)
    except (ConfigError, TypeError) as exc:
        raise ApiError(400, "bad-request", f"{where}: {exc}") from None
    scope = obj.get("scope")
    if scope is not None and scope not in ("chunk", "group", "document"):
        raise ApiError(400, "bad-request", f"{where}.scope: {scope!r} is not one of chunk, group, document")
    langextract = obj.get("langextract", False)
    if not isinstance(langextract, bool):
        raise ApiError(400, "bad-request", f"{where}.langextract: expected true or false")
    sha = obj.get("sha256")
    if sha is not None and (not isinstance(sha, str) or not _SHA256.match(sha)):
        raise ApiError(400, "bad-request", f"{where}.sha256: expected 64 lower-case hex digits")
    return {"items": items, "rules": rules, "fingerprint": fingerprint, "chunking": chunking, "scope": scope,
            "langextract": langextract, "sha256": sha}  # fmt: skip


@functools.lru_cache(maxsize=None)
def _preset(name: str) -> tuple[Any, str]:
    """A preset and its fingerprint, computed once per name (a request names one)."""
    from ..normalize import preset

    rules = preset(name)
    return rules, rules.fingerprint


def _open_upload(data: bytes, name: str, limits: Limits) -> Document:
    from ..verify import open_source

    if not data:
        raise ApiError(400, "bad-request", f"{name}: the uploaded document is empty")
    if name.lower().endswith(".pdf") and not data.lstrip()[:5] == b"%PDF-":
        raise DocumentError(f"{name}: not a PDF (no %PDF- header; starts with {data[:8]!r})")
    return open_source(data, name=name, limits=limits)


# -- the app --------------------------------------------------------------------------


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 description of the service (``GET /openapi.json``)."""
    from ..schema import load_schema

    verdict = load_schema("verdict")
    error = {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"type": "object", "required": ["code", "message"],
                                 "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}},
    }  # fmt: skip
    quote = {
        "oneOf": [
            {"type": "string"},
            {"type": "object", "required": ["quote"], "additionalProperties": False,
             "properties": {"id": {"type": ["string", "integer"]}, "quote": {"type": "string"},
                            "cited_chunk": {"type": ["integer", "null"], "minimum": 0}}},
        ]
    }  # fmt: skip
    request_fields = {
        "quotes": {"type": "array", "items": quote},
        "rules": {"description": "a preset name (default recommended) or a rules object (`quotelocate locate --json` config)",
                  "type": ["string", "object"]},
        "scope": {"enum": ["chunk", "group", "document"]},
        "chunking": {"type": "object", "properties": {"size": {"type": "integer"}, "overlap": {"type": "integer"},
                                                        "group_size": {"type": "integer"}}},
        "langextract": {"type": "boolean", "description": "add char_interval and alignment_status to each verdict"},
    }  # fmt: skip
    by_hash = {"type": "object", "required": ["sha256", "quotes"], "additionalProperties": False,
               "properties": {"sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"}, **request_fields}}  # fmt: skip
    upload = {
        "type": "object",
        "required": ["document"],
        "properties": {
            "document": {"type": "string", "contentMediaType": "application/octet-stream",
                         "description": "a PDF, Markdown or plain-text file"},
            "request": {"type": "string", "contentMediaType": "application/json",
                        "description": "the request object as JSON text (quotes, rules, scope, chunking, langextract)"},
        },
    }  # fmt: skip
    response = {
        "type": "object",
        "required": ["sha256", "document", "fingerprint", "verdicts"],
        "properties": {
            "sha256": {"type": "string"},
            "document": {"type": "object"},
            "fingerprint": {"type": "string"},
            "verdicts": {"type": "array", "items": {"$ref": "#/components/schemas/Verdict"}},
        },
    }
    errors = {str(code): {"description": text, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
              for code, text in [(400, "malformed request"), (401, "missing or wrong bearer token"),
                                 (404, "no document with that sha256 in the cache (upload it)"),
                                 (413, "body, document, quote or batch past a limit"), (415, "unsupported content type"),
                                 (422, "the document could not be read")]}  # fmt: skip
    return {
        "openapi": "3.1.0",
        "info": {"title": "quotelocate", "version": __version__,
                 "description": "Check that quotes an LLM says it copied from a document really are in it, and find where."},
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "paths": {
            "/health": {"get": {"summary": "the service is up", "responses": {"200": {"description": "ok"}}}},
            "/v1/verify": {
                "post": {
                    "summary": "verify quotes against a document (uploaded now, or earlier by sha256)",
                    "security": [{"bearer": []}],
                    "requestBody": {"required": True, "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/VerifyByHash"}},
                        "multipart/form-data": {"schema": {"$ref": "#/components/schemas/VerifyUpload"}},
                    }},
                    "responses": {"200": {"description": "one verdict per quote, in order",
                                          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/VerifyResponse"}}}},
                                  **errors},
                }  # fmt: skip
            },
        },
        "components": {
            "schemas": {"Verdict": verdict, "Error": error, "VerifyByHash": by_hash, "VerifyUpload": upload,
                        "VerifyResponse": response},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                           "description": "required when the service binds a non-loopback address"}},
        },  # fmt: skip
    }


def create_app(config: ServeConfig = ServeConfig()) -> Starlette:
    """The ASGI app. Needs the ``[serve]`` extra (Starlette, python-multipart)."""
    try:
        from starlette.applications import Starlette
        from starlette.concurrency import run_in_threadpool
        from starlette.exceptions import HTTPException
        from starlette.requests import Request
        from starlette.responses import JSONResponse, Response
        from starlette.routing import Route
    except ImportError:
        raise ConfigError("serve: needs the [serve] extra: pip install 'quotelocate[serve]'") from None

    from ..locate import Locator

    cache = DocumentCache(config.cache_documents)
    openapi = json.dumps(openapi_document()).encode()

    def error(status: int, code: str, message: str) -> JSONResponse:
        return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)

    def authorized(request: Request) -> bool:
        if not config.token:
            return True
        header = request.headers.get("authorization", "")
        scheme, _, given = header.partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), config.token.encode())

    async def read_body(request: Request) -> bytes:
        declared = request.headers.get("content-length")
        if declared is not None:
            if not declared.isdigit():
                raise ApiError(400, "bad-request", "Content-Length is not a number")
            if int(declared) > config.max_body_bytes:
                raise ApiError(413, "body-too-large", f"request body of {declared} bytes; the limit is {config.max_body_bytes}")
        chunks, total = [], 0
        async for chunk in request.stream():
            total += len(chunk)
            if total > config.max_body_bytes:  # counted on the bytes received, whatever the header said
                raise ApiError(413, "body-too-large", f"request body over {config.max_body_bytes} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    async def parse(request: Request) -> tuple[dict[str, Any], bytes | None, str]:
        body = await read_body(request)
        ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype == "application/json":
            try:
                obj = json.loads(body)
            except (ValueError, RecursionError) as exc:
                raise ApiError(400, "bad-json", f"body: not valid JSON ({exc})") from None
            parsed = _parse_request(obj, config)
            if parsed["sha256"] is None:
                raise ApiError(400, "bad-request", "body.sha256: required (or upload the document as multipart/form-data)")
            return parsed, None, ""
        if ctype == "multipart/form-data":
            async def replay() -> dict[str, Any]:
                return {"type": "http.request", "body": body, "more_body": False}

            try:
                form = await Request(request.scope, replay).form(max_files=1, max_fields=4, max_part_size=config.max_body_bytes)
            except HTTPException as exc:
                raise ApiError(400, "bad-multipart", f"multipart body: {exc.detail}") from None
            except Exception as exc:  # python-multipart raises its own errors on malformed bodies
                raise ApiError(400, "bad-multipart", f"multipart body: {type(exc).__name__}") from None
            upload = form.get("document")
            if upload is None or isinstance(upload, str):
                raise ApiError(400, "bad-request", "multipart body: field 'document' must be a file")
            raw = form.get("request")
            obj: Any = {}
            if raw is not None:
                if not isinstance(raw, str):
                    raise ApiError(400, "bad-request", "multipart field 'request': expected JSON text, not a file")
                try:
                    obj = json.loads(raw)
                except (ValueError, RecursionError) as exc:
                    raise ApiError(400, "bad-json", f"multipart field 'request': not valid JSON ({exc})") from None
            parsed = _parse_request(obj, config, where="request")
            data = await upload.read()
            name = os.path.basename(upload.filename or "upload")[:200] or "upload"
            await form.close()
            return parsed, data, name
        raise ApiError(415, "unsupported-media-type", f"content type {ctype or '(none)'}: send application/json or multipart/form-data")

    async def locator_for(entry: _Cached, parsed: dict[str, Any]) -> tuple[Locator, dict[str, Any]]:
        key = (parsed["fingerprint"], parsed["chunking"])
        served = entry.locators.get(key)
        if served is None:
            async with cache.build_lock:
                served = entry.locators.get(key)
                if served is None:
                    loc = await run_in_threadpool(Locator, entry.document, parsed["rules"], chunking=parsed["chunking"])
                    served = cache.add_locator(entry, key, loc)
                    # A locator's index is millions of objects; the cyclic garbage collector
                    # would walk them all on every full collection, a pause of tens of ms in
                    # the middle of some request. Nothing in them forms cycles, so leave them
                    # out of its walks (after collecting what is garbage now, which would
                    # otherwise be frozen with them): reference counting still frees them
                    # when they are evicted.
                    gc.collect()
                    gc.freeze()
        return served

    async def verify_endpoint(request: Request) -> Response:
        started = time.perf_counter()
        if not authorized(request):
            return JSONResponse({"error": {"code": "unauthorized", "message": "missing or wrong bearer token"}},
                                status_code=401, headers={"WWW-Authenticate": "Bearer"})  # fmt: skip
        parsed, data, name = await parse(request)
        if data is not None:
            sha = hashlib.sha256(data).hexdigest()
            if parsed["sha256"] is not None and parsed["sha256"] != sha:
                raise ApiError(400, "sha256-mismatch", f"request.sha256 is {parsed['sha256']}, the upload's is {sha}")
            entry = cache.get(sha)
            if entry is None:
                async with cache.build_lock:
                    entry = cache.get(sha)
                    if entry is None:
                        document = await run_in_threadpool(_open_upload, data, name, config.limits)
                        entry = cache.put(sha, document)
        else:
            sha = parsed["sha256"]
            entry = cache.get(sha)
            if entry is None:
                raise ApiError(404, "unknown-document", f"no document with sha256 {sha} here; upload it as multipart/form-data")
        locator, rules_config = await locator_for(entry, parsed)
        verdicts = []
        fields = None
        if parsed["langextract"]:
            from ..integrations.langextract import langextract_fields as fields
        for i, item in enumerate(parsed["items"]):
            try:
                verdict = locator.locate(item["quote"], cited_chunk=item["cited_chunk"], scope=parsed["scope"])
            except ConfigError as exc:
                raise ApiError(400, "bad-request", f"quotes[{i}]: {exc}") from None
            record = {"id": item["id"], "quote": item["quote"], **verdict.to_dict()}
            if fields is not None:
                record.update(fields(verdict))
            verdicts.append(record)
        return JSONResponse({
            "sha256": sha,
            "document": entry.info,
            "rules": rules_config,
            "fingerprint": locator.fingerprint,
            "verdicts": verdicts,
        }, headers={"server-timing": f"verify;dur={(time.perf_counter() - started) * 1e3:.3f}"})  # fmt: skip

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "version": __version__, "documents": len(cache)})

    async def openapi_endpoint(request: Request) -> Response:
        return Response(openapi, media_type="application/json")

    async def api_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ApiError)
        return error(exc.status, exc.code, exc.message)

    async def package_error(request: Request, exc: Exception) -> Response:
        if isinstance(exc, ExtractionLimitError):
            return error(413, "document-over-limit", str(exc))
        if isinstance(exc, (DocumentError, QuoteInputError)):
            return error(422, "unreadable-document", str(exc))
        return error(400, "bad-request", str(exc))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "http-error")
        return error(exc.status_code, code, str(exc.detail))

    async def internal_error(request: Request, exc: Exception) -> Response:
        return error(500, "internal", "internal error; the server log has the details")

    return Starlette(
        routes=[
            Route("/health", health, methods=["GET"]),
            Route("/openapi.json", openapi_endpoint, methods=["GET"]),
            Route("/v1/verify", verify_endpoint, methods=["POST"]),
        ],
        exception_handlers={
            ApiError: api_error,
            QuotelocateError: package_error,
            HTTPException: http_error,
            Exception: internal_error,
        },
    )


# -- the command ----------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    token = args.token or os.environ.get(TOKEN_ENV) or None
    limits = Limits(seconds=args.max_seconds, memory_mb=args.max_memory_mb, max_pages=args.max_pages,
                    max_file_bytes=args.max_body_mb * 1024 * 1024)  # fmt: skip
    config = ServeConfig(host=args.host, port=args.port, token=token, limits=limits,
                         max_body_bytes=args.max_body_mb * 1024 * 1024, cache_documents=args.cache_documents)  # fmt: skip
    app = create_app(config)
    try:
        import uvicorn
    except ImportError:
        raise ConfigError("serve: needs the [serve] extra: pip install 'quotelocate[serve]'") from None
    print(f"quotelocate: serving on http://{config.host}:{config.port} (GET /health, POST /v1/verify)", file=err, flush=True)
    uvicorn.run(app, host=config.host, port=config.port, log_level=args.log_level, access_log=False,
                limit_concurrency=args.max_connections, timeout_keep_alive=5)  # fmt: skip
    return 0


def add_parsers(sub: Any) -> None:
    p = sub.add_parser("serve", help="an HTTP service: POST /v1/verify, GET /health, GET /openapi.json")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; others need a token)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--token", help=f"bearer token for /v1 requests (prefer ${TOKEN_ENV}: arguments are visible to other users)")
    p.add_argument("--max-body-mb", type=int, default=64, metavar="MB", help="largest request body and document (default 64)")
    p.add_argument("--cache-documents", type=int, default=16, metavar="N", help="documents kept in memory (default 16)")
    p.add_argument("--max-connections", type=int, default=256, metavar="N", help="concurrent connections before 503 (default 256)")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    add_limit_options(p)
    p.set_defaults(handler=cmd_serve)
