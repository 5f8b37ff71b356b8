"""Compressed responses: brotli or gzip for HTML, JSON, CSS, JavaScript and SVG.

`flask-compress` does the work after every request. It varies the response on
``Accept-Encoding`` and turns a strong ETag ``"t"`` into ``"t:br"`` /
``"t:gzip"`` (the bytes differ per encoding, so the strong validator must too);
`faq_bot.web.common.conditional` accepts those suffixed tags on revalidation
(each where the request accepts its encoding), so a 304 still costs no rendering.
Production behind nginx may compress there instead; this layer skips responses that
already carry a Content-Encoding.

Byte ranges are not served (`ignore_ranges`, and `no_ranges` says so): a response is
compressed whole, and a range of the uncompressed bytes inside a compressed body would
be corrupt data.

A page served from the build's page cache (`faq_bot.web.common.cached_page`)
is compressed once per encoding: `PageCache` is flask-compress's cache backend
and keeps those bytes next to the page, in the same bounded per-build cache.
Every other response is compressed afresh.
"""

from __future__ import annotations

import gzip
from typing import Any

import brotli
from flask import Flask, Response, current_app, g, request
from flask_compress import Compress
from werkzeug.http import parse_accept_header

# Preferred first; what a client accepts decides. zstd and deflate are left out:
# brotli and gzip cover every browser and keep one less code path to reason about.
ALGORITHMS = ("br", "gzip")

MIMETYPES = [
    "text/html",
    "text/css",
    "text/plain",
    "text/xml",
    "application/xml",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "application/opensearchdescription+xml",
    "image/svg+xml",
]


def etag_variants(tag: str) -> list[str]:
    """The ETags of `tag` this request may revalidate: the plain one and those of the
    encodings its ``Accept-Encoding`` takes. A 304 names the variant the client keeps:
    one naming brotli to a client that takes only gzip would have a shared cache hand it
    brotli (a load probe), so that tag gets the 200 of what it does take."""
    accepted = request.accept_encodings
    return [tag, *(f"{tag}:{alg}" for alg in ALGORITHMS if accepted[alg] > 0)]


def page_key(_request: Any) -> str:
    """flask-compress's cache key: non-empty only for a page from the page cache."""
    return "page" if g.get("cached_page") is not None else ""


class PageCache:
    """flask-compress's cache backend: compressed bytes of the request's cached page.

    flask-compress asks with ``"<encoding>;<page_key()>"``; the page itself is
    named by ``g.cached_page`` (its build's cache and its key), so the compressed bytes
    live and go with that build, within the budget of the page's own cache.
    """

    @staticmethod
    def _slot(key: str) -> tuple[Any, tuple[str, ...]] | None:
        encoding, _, page = key.partition(";")
        found = g.get("cached_page")
        if not page or found is None:
            return None
        pages, full = found
        return pages, ("compressed", encoding, *full)

    def get(self, key: str) -> bytes | None:
        slot = self._slot(key)
        return slot[0].get(slot[1]) if slot else None

    def set(self, key: str, value: bytes) -> None:
        slot = self._slot(key)
        if slot and slot[0].get(slot[1]) is not value:
            slot[0].put(slot[1], value)


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_CACHE_BACKEND", PageCache)
    app.config.setdefault("COMPRESS_CACHE_KEY", page_key)
    app.config.setdefault("COMPRESS_ALGORITHM", list(ALGORITHMS))
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br"])
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES)
    app.config.setdefault("COMPRESS_LEVEL", 6)
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    Compress(app)
    # after_request hooks run last-registered first: these before flask-compress
    app.after_request(compress_errors)
    app.after_request(buffer_static)


def ignore_ranges() -> None:
    """Before every request: drop ``Range`` and ``If-Range``, so every answer is whole
    (RFC 9110 lets a server ignore Range). Responses are compressed after the view, and
    send_file's 206 would carry a range of the uncompressed file in a gzip body; the
    files are a few KB (the offline data a few hundred), nothing needs resuming."""
    request.environ.pop("HTTP_RANGE", None)
    request.environ.pop("HTTP_IF_RANGE", None)


def no_ranges(response: Response) -> Response:
    """After every request: say that ranges are not served (``Accept-Ranges: none``, RFC
    9110 14.3) where send_file or make_conditional offered ``bytes``, so a download
    manager or a media player resumes by fetching the whole answer again."""
    if "Accept-Ranges" in response.headers:
        response.headers["Accept-Ranges"] = "none"
    return response


def drop_refused_encodings() -> None:
    """Before every request: where a client refuses a coding (``gzip;q=0``), which
    flask-compress would otherwise still choose, ``Accept-Encoding`` becomes the codings
    served here that the client takes, each with the quality it gives it (a refused one
    is not taken through ``*``: "*, br;q=0" was read as "*" and answered with brotli)."""
    header = request.environ.get("HTTP_ACCEPT_ENCODING")
    if header and "q=0" in header.replace(" ", ""):
        accepted = parse_accept_header(header)
        request.environ["HTTP_ACCEPT_ENCODING"] = ", ".join(
            f"{alg};q={accepted[alg]:g}" for alg in ALGORITHMS if accepted[alg] > 0
        )


def compress_errors(response: Response) -> Response:
    """Compress an error page as flask-compress does a 2xx answer (it leaves 4xx and 5xx
    alone): a 404 page is the whole page frame, about 19 KB, and a judge on a phone pays
    for it like for a ruling (brotli: about 6 KB)."""
    config = current_app.config  # the app's compression settings, as flask-compress reads them
    if (
        response.status_code < 400
        or response.is_streamed
        or "Content-Encoding" in response.headers
        or response.mimetype not in config["COMPRESS_MIMETYPES"]
        or (response.content_length or 0) < config["COMPRESS_MIN_SIZE"]
    ):
        return response
    offered = [a for a in config["COMPRESS_ALGORITHM"] if a in ALGORITHMS]
    chosen = request.accept_encodings.best_match(offered)
    if chosen is None:
        return response
    data = response.get_data()
    if chosen == "br":
        body = brotli.compress(data, quality=int(config["COMPRESS_BR_LEVEL"]))
    else:
        body = gzip.compress(data, compresslevel=int(config["COMPRESS_LEVEL"]), mtime=0)
    response.set_data(body)
    response.headers["Content-Encoding"] = chosen
    response.vary.add("Accept-Encoding")
    return response


def buffer_static(response: Response) -> Response:
    """Read a static file into memory so it is compressed whole (br or gzip), and closed.

    The files are a few KB each; streaming them would allow only brotli and
    leave the file handle to the compressor's generator.
    """
    if request.endpoint == "static" and response.direct_passthrough:
        response.direct_passthrough = False
        data = response.get_data()
        response.close()
        response.set_data(data)
    return response
