"""Security and caching headers on every response.

The pages load nothing but their own static files: no inline script, no
external resource, so the Content-Security-Policy can be strict. The only
inline code is the pages' stylesheets (`faq_bot.web.assets.inline_style`),
allowed one by one by their SHA-256, never by ``'unsafe-inline'``. Static files
are linked with a content hash (`faq_bot.web.assets.asset_url`) and cached for
a year.
"""

from __future__ import annotations

from flask import Flask, Response, current_app, request

from faq_bot.web.assets import is_current, style_hashes


def content_security_policy(style_sources: list[str]) -> str:
    """The CSP: own files only, plus the inline stylesheets with these hashes."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            " ".join(["style-src 'self'", *style_sources]),
            "img-src 'self' data:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

STATIC_CACHE = "public, max-age=31536000, immutable"


def add_headers(response: Response) -> Response:
    headers = response.headers
    present = {name.lower() for name in headers.keys()}  # one pass, not one per header
    if "content-security-policy" not in present:
        headers.add("Content-Security-Policy", current_app.config["CONTENT_SECURITY_POLICY"])
    for name, value in SECURITY_HEADERS.items():
        if name.lower() not in present:
            headers.add(name, value)
    if request.endpoint == "static":
        filename = (request.view_args or {}).get("filename", "")
        if response.status_code not in (200, 304):  # a 404, a 412: not kept at all
            response.headers["Cache-Control"] = "no-store"
        elif is_current(filename, request.args.get("v", "")):
            response.headers["Cache-Control"] = STATIC_CACHE
        else:  # unversioned, or another release's version: never pinned for a year
            response.headers["Cache-Control"] = "public, max-age=300"
    elif "cache-control" not in present:
        # a response its view gave no policy (a 404 page, the OpenSearch description,
        # /api/openapi.json): a 404 is cacheable by default and the next build may have the
        # page, so an error is not kept; the rest is asked for again before it is reused
        headers["Cache-Control"] = "no-store" if response.status_code >= 400 else "no-cache"
    return response


def init_app(app: Flask) -> None:
    """Needs `faq_bot.web.assets.init_app` first (the inline stylesheets' hashes)."""
    app.config["CONTENT_SECURITY_POLICY"] = content_security_policy(style_hashes(app))
    app.after_request(add_headers)
