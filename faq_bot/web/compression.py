"""Compressed responses: brotli or gzip for HTML, JSON, CSS, JavaScript and SVG.

`flask-compress` does the work after every request. It varies the response on
``Accept-Encoding`` and turns a strong ETag ``"t"`` into ``"t:br"`` /
``"t:gzip"`` (the bytes differ per encoding, so the strong validator must too);
`faq_bot.web.common.conditional` accepts those suffixed tags on revalidation,
so a 304 still costs no rendering. Production behind nginx may compress there
instead; this layer skips responses that already carry a Content-Encoding.
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask_compress import Compress

# Preferred first; what a client accepts decides. zstd and deflate are left out:
# brotli and gzip cover every browser and keep one less code path to reason about.
ALGORITHMS = ("br", "gzip")

MIMETYPES = [
    "text/html",
    "text/css",
    "text/plain",
    "text/xml",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "application/opensearchdescription+xml",
    "image/svg+xml",
]


def etag_variants(tag: str) -> list[str]:
    """The ETags a client may hold for `tag`: plain and one per content encoding."""
    return [tag, *(f"{tag}:{alg}" for alg in ALGORITHMS)]


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_ALGORITHM", list(ALGORITHMS))
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br"])
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES)
    app.config.setdefault("COMPRESS_LEVEL", 6)
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    Compress(app)
    # after_request hooks run last-registered first: this one before flask-compress
    app.after_request(buffer_static)


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
