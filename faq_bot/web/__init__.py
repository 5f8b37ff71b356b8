"""The web service: search page, ruling pages and a JSON API (Flask).

``create_app(test_config=None)`` follows the flask tutorial's factory: defaults
with ``config.from_mapping`` (``CORPUS_DIR``, ``INDEX_DIR`` from
`faq_bot.config`), then one blueprint per feature:

- `faq_bot.web.pages`: ``/``, ``/search``, ``/entry/<id>``, ``/docs/<doc>``,
  ``/opensearch.xml`` (HTML, German)
- `faq_bot.web.api`: ``/api/search``, ``/api/suggest``, ``/api/entries/<id>``,
  ``/healthz``
- `faq_bot.web.openapi`: ``/api/openapi.json``; every route must be described
  there (``describe(path, item)``), a test compares the spec with the url map
- `faq_bot.web.errors`: one JSON error shape for the API, one ``error.html``
- `faq_bot.web.security`: security and cache headers on every response
- `faq_bot.web.pwa`: manifest, service worker, offline shell and data
- `faq_bot.web.compression`: brotli/gzip responses (flask-compress)
- `faq_bot.web.crawl`: ``/robots.txt`` and ``/sitemap.xml`` (every entry's canonical address)

Later features add their own blueprint module and one line in ``BLUEPRINTS``
below (or call ``app.register_blueprint`` in `create_app`), plus their paths in
the OpenAPI description.

The index is opened once per process through an `IndexHolder`, which reopens
it when ``faq-bot index`` has swapped a new build in; views get it with
`faq_bot.web.common.current_index()`.

Production: ``gunicorn 'faq_bot.web:create_app()'`` (see docs/web.md).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

from faq_bot.config import (
    ROOT,
    default_corpus_dir,
    default_index_dir,
    env_secret,
    trusted_hosts,
)

__all__ = ["create_app"]


def template_dir() -> Path:
    """``templates/`` of the checkout, else the copy a wheel installed under
    ``<prefix>/share/faq_bot/templates`` (pyproject's data-files)."""
    checkout = ROOT / "templates"
    if checkout.is_dir():
        return checkout
    for prefix in (sys.prefix, sys.base_prefix):
        installed = Path(prefix) / "share" / "faq_bot" / "templates"
        if installed.is_dir():
            return installed
    return checkout


TEMPLATE_DIR = template_dir()
STATIC_DIR = ROOT / "faq_bot" / "static"

# (module, attribute) of every blueprint, registered in this order.
BLUEPRINTS: list[tuple[str, str]] = [
    ("faq_bot.web.pages", "bp"),
    ("faq_bot.web.api", "bp"),
    ("faq_bot.web.openapi", "bp"),
    ("faq_bot.web.check", "bp"),
    ("faq_bot.web.ask", "bp"),
    ("faq_bot.web.pwa", "bp"),
    ("faq_bot.web.crawl", "bp"),
]


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the Flask app; `test_config` overrides the defaults (e.g. ``INDEX_DIR``)."""
    import importlib

    from faq_bot.chat.wording import search_first_heading
    from faq_bot.hits import quoted_list, read_words
    from faq_bot.index import IndexHolder
    from faq_bot.query import MAX_QUERY_LENGTH
    from faq_bot.question import MAX_QUESTION_LENGTH
    from faq_bot.search import UNWORDED
    from faq_bot.suggest import distinct_titles
    from faq_bot.text import clip
    from faq_bot.web import assets, body, compression, encoding, errors, security
    from faq_bot.web.common import site_path
    from faq_bot.web.render import no_control, path_spoken, safe_snippet

    app = Flask(
        __name__,
        template_folder=str(TEMPLATE_DIR),
        static_folder=str(STATIC_DIR),
        static_url_path="/static",
    )
    app.config.from_mapping(
        CORPUS_DIR=str(default_corpus_dir()),
        INDEX_DIR=str(default_index_dir()),
        # longest query (characters) the search accepts; longer ones get a 400
        MAX_QUERY_LENGTH=MAX_QUERY_LENGTH,
        # hits on the search page and the most the API hands out at once
        SEARCH_PAGE_HITS=20,
        API_MAX_HITS=50,
        # behind a reverse proxy: trust one hop of X-Forwarded-For/-Proto/-Host
        # (absolute URLs in og:url, citations and opensearch.xml)
        TRUST_PROXY_HEADERS=os.environ.get("FAQ_BOT_BEHIND_PROXY", "") not in ("", "0"),
        # the host names the service answers to (comma-separated; unset: any): another
        # Host header gets a German 400 (faq_bot.web.errors), as no link is built for it
        TRUSTED_HOSTS=trusted_hosts(),
        JSON_SORT_KEYS=False,
        # the chat page's JavaScript gives up on an answer after this long (retry button)
        CHAT_TIMEOUT_MS=15000,
        # request bodies: enforced by werkzeug while reading, chunked bodies too
        MAX_CONTENT_LENGTH=body.MAX_ANY_BODY,
        MAX_FORM_MEMORY_SIZE=body.MAX_FORM_BUFFER,
        MAX_FORM_PARTS=body.MAX_FORM_PARTS,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]

    app.extensions["faq_bot.index"] = holder = IndexHolder(app.config["INDEX_DIR"])
    env_secret()  # a FAQ_BOT_SECRET too short to sign with fails here, not per request
    app.wsgi_app = _root_without_slash(  # type: ignore[method-assign]
        _host_lower_cased(
            _ignoring_upgrade(encoding.query_as_utf8(_morphology_bounded(app.wsgi_app)))
        )
    )
    if app.config["TRUST_PROXY_HEADERS"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            _web_scheme_only(app.wsgi_app), x_for=1, x_proto=1, x_host=1
        )

    errors.init_logging(app)

    assets.init_app(app)
    app.jinja_env.filters["snippet"] = safe_snippet
    app.jinja_env.filters["path_spoken"] = path_spoken  # „Eintrag 2 › Ziel“ without „›“ read
    app.jinja_env.filters["clip"] = clip  # a query said back in a heading, cut at a word
    app.jinja_env.filters["quoted_list"] = quoted_list  # „A“, „B“ und „C“ (`faq_bot.hits`)
    app.jinja_env.globals["read_words"] = read_words  # the words a search read otherwise
    app.jinja_env.filters["site_path"] = site_path  # a stage's path under the script root
    app.jinja_env.filters["distinct_titles"] = distinct_titles  # „Runde“ of two entries once
    app.jinja_env.finalize = no_control  # no page carries a control character
    # the chat fields' maxlength (search fields read config.MAX_QUERY_LENGTH): the server's
    # own limit, so a form cannot send a question it refuses
    app.jinja_env.globals["MAX_QUESTION_LENGTH"] = MAX_QUESTION_LENGTH
    # a query said back in a heading or title: 500 characters filled a phone's screen
    app.jinja_env.globals["SAID_QUERY"] = 80
    app.jinja_env.globals["UNWORDED"] = UNWORDED  # a hit's label: no word of the query
    app.jinja_env.globals["search_first_heading"] = search_first_heading
    security.init_app(app)
    compression.init_app(app)
    errors.init_app(app)
    app.before_request(errors.check_host)  # first: no hook reads a body or builds a URL before
    app.before_request(errors.refuse_outside_root)
    app.before_request(errors.forgive_trailing_slash)
    app.before_request(compression.ignore_ranges)
    app.after_request(compression.no_ranges)
    app.before_request(compression.drop_refused_encodings)
    app.before_request(body.read_whole_body)
    for module_name, attr in BLUEPRINTS:
        module = importlib.import_module(module_name)
        app.register_blueprint(getattr(module, attr))
    # open and warm the current build now, so no user pays for it (after the
    # blueprints' modules are imported: their warmers run too)
    holder.warm()
    return app


def _web_scheme_only(wsgi_app: Any) -> Any:
    """`wsgi_app` as ProxyFix calls it, with a forwarded scheme other than http or https
    replaced by the one the request came in with: a proxy that passes the client's
    X-Forwarded-Proto on would otherwise put "javascript://" into every absolute link."""

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("wsgi.url_scheme") not in ("http", "https"):
            original = environ.get("werkzeug.proxy_fix.orig") or {}
            environ["wsgi.url_scheme"] = original.get("wsgi.url_scheme") or "http"
        return wsgi_app(environ, start_response)

    return app


def _morphology_bounded(wsgi_app: Any) -> Any:
    """`wsgi_app` with HanTa's work bounded per request (`morphology_budget`): a request of
    many turns of made-up words had a worker analyse them for seconds behind HanTa's lock."""
    from faq_bot.morphology import morphology_budget

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        with morphology_budget():
            return wsgi_app(environ, start_response)

    return app


def _root_without_slash(wsgi_app: Any) -> Any:
    """`wsgi_app` with a script root's final slash moved to the path (``SCRIPT_NAME=/faq/``:
    gunicorn strips the root as text, leaving ``/faq/search`` as ``search`` and ``/faq/`` as
    the empty path, which werkzeug answered with a 308 to ``/faq/`` itself, a loop). Then
    every request under the root looks as under ``SCRIPT_NAME=/faq``."""

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        root = environ.get("SCRIPT_NAME", "")
        if root.endswith("/"):
            path = environ.get("PATH_INFO", "")
            environ = {**environ, "SCRIPT_NAME": root.rstrip("/"), "PATH_INFO": "/" + path}
        return wsgi_app(environ, start_response)

    return app


def _host_lower_cased(wsgi_app: Any) -> Any:
    """`wsgi_app` with the Host header lower-cased: host names are case-insensitive (RFC 3986,
    3.2.2), but werkzeug compares them with ``TRUSTED_HOSTS`` as sent, so a client that
    keeps the case typed ("FAQ.example.org") got a 400, and links the case it sent. Inside
    ProxyFix: a forwarded host is lower-cased too."""

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        host = environ.get("HTTP_HOST")
        if host and host.lower() != host:
            environ = {**environ, "HTTP_HOST": host.lower()}
        return wsgi_app(environ, start_response)

    return app


def _ignoring_upgrade(wsgi_app: Any) -> Any:
    """`wsgi_app` with a WebSocket upgrade offer removed: the service speaks no WebSocket
    and answers such a request as a plain one, as RFC 9110 (7.8) allows. werkzeug's
    routing would otherwise look for WebSocket routes and answer every page with a 400,
    or a 405 whose Allow header leaves out GET."""

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        if environ.get("HTTP_UPGRADE", "").lower() == "websocket":
            environ = {k: v for k, v in environ.items() if k != "HTTP_UPGRADE"}
        return wsgi_app(environ, start_response)

    return app
