"""Versioned static URLs and the fingerprint of the app's own files.

Templates link static files with ``asset_url("app.css")``, which appends
``?v=<hash of the file>``; the file is then served with a one-year immutable
cache lifetime, and a changed file gets a new URL. ``app_fingerprint`` hashes
the templates, the static files and the package's code and fitted models, so
ETags change when the pages' look or the answers change, not only when the
index does.

Stylesheets are inlined instead of linked (``inline_style("app.css")``): a
linked one costs a cold page a second round trip before anything is painted
(0.4 s at a phone's 400 ms). The CSP stays without ``'unsafe-inline'``: it
allows exactly these files' texts by their SHA-256 (``style_hashes``), read and
hashed once at startup, so an edited file gets a new hash with the next start.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import posixpath
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, current_app, url_for
from markupsafe import Markup
from werkzeug.exceptions import NotFound

_HASHES: dict[tuple[str, float], str] = {}


def file_hash(path: Path) -> str:
    """First 12 hex digits of the SHA-256 of the file's bytes, cached by mtime."""
    key = (str(path), path.stat().st_mtime)
    if key not in _HASHES:
        _HASHES[key] = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    return _HASHES[key]


def _static_hash(filename: str) -> str:
    static = Path(current_app.static_folder or "")
    path = (static / filename).resolve()
    if not path.is_relative_to(static.resolve()) or not path.is_file():
        raise FileNotFoundError(f"static file {filename!r} does not exist")
    return file_hash(path)


def is_current(filename: str, version: str) -> bool:
    """`version` is the hash `asset_url` puts in the URL of this release's `filename`
    (not another release's, during a rolling update; not a file that is not there)."""
    try:
        return version == _release_hash(filename)
    except FileNotFoundError:
        return False


def _release_hash(filename: str) -> str:
    if current_app.debug:
        return _static_hash(filename)
    hashes: dict[str, str] = current_app.extensions.setdefault("faq_bot.asset_hashes", {})
    found = hashes.get(filename)
    if found is None:
        found = hashes[filename] = _static_hash(filename)
    return found


def asset_url(filename: str) -> str:
    """URL of a static file with its content hash as cache buster.

    The hash is taken once per process, like `app_fingerprint` (part of every
    ETag): the static files belong to the release. In debug mode it follows
    edits of the files.
    """
    return url_for("static", filename=filename, v=_release_hash(filename))


# Stylesheets the templates inline (each page inlines app.css and its own).
INLINE_STYLES = ("app.css", "chat.css", "check.css")


def load_inline_styles(static: Path) -> dict[str, tuple[str, str]]:
    """{file name: (its text, its CSP source ``'sha256-…'``)} of `INLINE_STYLES`."""
    out = {}
    for name in INLINE_STYLES:
        # the HTML parser turns CR LF into LF before the browser hashes the text
        text = (static / name).read_text(encoding="utf-8").replace("\r\n", "\n")
        if "</style" in text.lower():
            raise ValueError(f"{name} contains '</style' and cannot be inlined")
        digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
        out[name] = (text, f"'sha256-{digest}'")
    return out


def inline_style(filename: str) -> Markup:
    """A ``<style>`` element with the text of `filename` (one of `INLINE_STYLES`)."""
    text, _source = current_app.extensions["faq_bot.inline_styles"][filename]
    return Markup(f"<style>{text}</style>")


def style_hashes(app: Flask) -> list[str]:
    """The CSP sources (``'sha256-…'``) of every stylesheet the pages inline."""
    return [source for _text, source in app.extensions["faq_bot.inline_styles"].values()]


PACKAGE = Path(__file__).resolve().parent.parent  # faq_bot: its code and fitted models
PACKAGE_FILES = ("*.py", "data/*")


def app_fingerprint(app: Flask, package: Path = PACKAGE) -> str:
    """A hash over the templates and static files and the package's code and data
    (part of every ETag): a release that changes how a question is answered (a
    refitted model, another passage rule) changes the ETags of pages that show
    answers, as a new index build does."""
    digest = hashlib.sha256()
    roots = [Path(app.root_path, f) for f in (app.template_folder, app.static_folder) if f]
    files = [(root, path) for root in roots for path in root.rglob("*") if path.is_file()]
    files += [(package, path) for pattern in PACKAGE_FILES for path in package.rglob(pattern)]
    for root, path in sorted(files):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _one_address_per_file(view: Callable[..., Any]) -> Callable[..., Any]:
    """Flask's static view, answering a file's own address only: werkzeug's
    `safe_join` normalises ``app.css/``, ``./app.css`` and ``x/../app.css`` to
    ``app.css`` and served the file under each of them (a cache kept each as a copy
    of its own, a version check read another address); they are a 404 now."""

    @functools.wraps(view)
    def serve(filename: str) -> Any:
        if posixpath.normpath(filename) != filename:
            raise NotFound()
        return view(filename=filename)

    return serve


def init_app(app: Flask) -> None:
    app.view_functions["static"] = _one_address_per_file(app.view_functions["static"])
    app.config.setdefault("APP_FINGERPRINT", app_fingerprint(app))
    app.extensions["faq_bot.inline_styles"] = load_inline_styles(Path(app.static_folder or ""))
    app.jinja_env.globals["asset_url"] = asset_url
    app.jinja_env.globals["inline_style"] = inline_style
