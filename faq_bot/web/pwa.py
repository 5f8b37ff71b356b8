"""The installable, offline-capable app: manifest, service worker, offline shell and data.

- ``/sw.js`` is the service worker (its scope the app's root: ``/``, or ``/faq/`` under a
  script root, whose caches get names of their own). Its text names the cache
  version (index build + app fingerprint), so a new build or release changes
  the worker's bytes: the browser installs it on the next visit, it precaches
  the new copy and deletes the old caches.
- ``/offline-data.json`` is the build's offline copy (`faq_bot.offline`),
  written at index time.
- ``/offline`` is the page shell the worker answers any page with when the
  network is gone; ``static/offline.js`` renders the search, a ruling, a
  contents page or the start page in it from the offline copy (its search in
  ``static/offline-search.js``).
- ``/manifest.webmanifest`` makes the site installable.

Nothing here is needed without JavaScript: pages stay server-rendered.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from faq_bot.offline import OFFLINE_JSON
from faq_bot.spelling import MIN_FUZZY_LENGTH
from faq_bot.text import FINGERPRINT_LENGTH
from faq_bot.web.assets import asset_url
from faq_bot.web.common import current_index, not_modified
from faq_bot.web.openapi import describe
from faq_bot.web.permalink import LINK_NOTES, MIN_VERSION

bp = Blueprint("pwa", __name__)

# static files the offline shell needs (precached by the service worker)
SHELL_ASSETS = ("print.css", "app.js", "offline-search.js", "offline.js", "favicon.svg")


def cache_version() -> str:
    """Names the service worker's cache: changes with the index build and the app's files."""
    index = current_index()
    key = f"{index.version}|{current_app.config.get('APP_FINGERPRINT', '')}"
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def data_url() -> str:
    return url_for("pwa.offline_data", v=cache_version())


def stand_text(built_at: str) -> str:
    """The build time as German text: "23.11.2026, 14:57 Uhr (UTC)"."""
    try:
        when = datetime.fromisoformat(built_at)
    except ValueError:
        return built_at
    return when.strftime("%d.%m.%Y, %H:%M Uhr") + " (UTC)"


def cache_prefix(root: str) -> str:
    """The names of the offline caches of the app served under `root` start so: two apps on
    one host (``/faq`` and ``/faq-test``) never delete each other's copy (a root never ends
    with "/", so ``root + "/"`` is no other root's beginning)."""
    return f"regelsuche{root}/-" if root else "regelsuche-"


@bp.get("/sw.js")
def service_worker() -> Response:
    version = cache_version()
    unchanged = not_modified(version)  # any encoding's tag, before rendering
    if unchanged is not None:
        return unchanged
    precache = [
        url_for("pages.home"),
        url_for("pwa.offline_shell"),
        data_url(),
        *(asset_url(name) for name in SHELL_ASSETS),
    ]
    body = render_template(
        "pwa/sw.js",
        version=version,
        precache=precache,
        shell=url_for("pwa.offline_shell"),
        cache_prefix=cache_prefix(request.script_root),
        static_path=url_for("static", filename=""),
        data_path=url_for("pwa.offline_data"),
        ask_path=url_for("ask.page"),
        answer_timeout_ms=int(current_app.config["CHAT_TIMEOUT_MS"]),
    )
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(version)
    return response.make_conditional(request)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    data = {
        "name": "Regelsuche",
        "short_name": "Regeln",
        "description": "Regeln, FAQ und Kurzübersichten durchsuchen – auch offline.",
        "lang": "de",
        "start_url": url_for("pages.home"),
        "scope": url_for("pages.home"),
        "display": "standalone",
        # the page's and the header's light colours (app.css --bg, --card; base.html's
        # theme-color): an installed app's bar was a blue the pages never show
        "background_color": "#fbfaf7",
        "theme_color": "#ffffff",
        "icons": [{"src": asset_url("favicon.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }
    response = current_app.response_class(
        current_app.json.dumps(data), mimetype="application/manifest+json"
    )
    response.headers["Cache-Control"] = "public, max-age=3600"
    return response


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Where a client that reads no page (a feed reader, a JSON view in the browser, a
    bookmark sync) looks for the icon: the pages' own, instead of a 19 KB 404 page. Not
    a 301: browsers keep those for good, and the address it leads to changes with the icon
    (kept a day instead)."""
    response = redirect(asset_url("favicon.svg"), 302)
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@bp.get("/offline")
def offline_shell() -> str:
    index = current_index()
    return render_template(
        "pwa/offline.html",
        data_url=data_url(),
        stand=stand_text(index.built_at),
        built_at=index.built_at,  # offline.js shows it in the phone's own time zone
        fingerprint_length=FINGERPRINT_LENGTH,  # offline.js checks a permalink's "v" with it
        fingerprint_min=MIN_VERSION,  # and reads a "v" cut short as the server does
        min_fuzzy_length=MIN_FUZZY_LENGTH,  # and corrects a slip as the server does
        link_notes=LINK_NOTES,  # and says what the server's page says where it changed
    )


@bp.get("/offline-data.json")
def offline_data() -> Response:
    index = current_index()
    unchanged = not_modified(cache_version())  # before the file is read and compressed
    if unchanged is not None:
        return unchanged
    path = index.path / OFFLINE_JSON
    if not path.is_file():
        raise NotFound(
            description="Diese Index-Fassung hat keine Offline-Kopie. "
            "Bitte `faq-bot index` ausführen."
        )
    response = current_app.response_class(path.read_bytes(), mimetype="application/json")
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(cache_version())
    return response.make_conditional(request)


_TEXT = {"description": "Text"}
describe(
    "/sw.js",
    {"get": {"summary": "Service Worker (Offline-Kopie)", "responses": {"200": _TEXT}}},
)
describe(
    "/manifest.webmanifest",
    {"get": {"summary": "Web-App-Manifest", "responses": {"200": _TEXT}}},
)
describe(
    "/favicon.ico",
    {
        "get": {
            "summary": "Das Symbol der Seiten (Weiterleitung auf favicon.svg)",
            "responses": {"302": {"description": "Weiterleitung auf das Symbol"}},
        }
    },
)
describe(
    "/offline",
    {"get": {"summary": "Seitenrahmen für die Offline-Ansicht", "responses": {"200": _TEXT}}},
)
describe(
    "/offline-data.json",
    {
        "get": {
            "summary": "Offline-Kopie des Korpus mit Suchbegriffen (pro Index-Build)",
            "responses": {"200": _TEXT, "404": _TEXT},
        }
    },
)
