"""One error shape for the API, one error page for people.

Every error under ``/api/`` (and ``/healthz``) is JSON
``{"error": "<code>", "detail": "<German explanation>"}`` with its 4xx/5xx
status; every other error renders ``templates/error.html``. A 404 page offers a
search for the words of the path. A 500 is always a bug: it is logged with its
traceback, and the person sees a German page or JSON without one.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

from flask import (
    Flask,
    Response,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup, escape
from werkzeug.exceptions import (
    BadHost,
    HTTPException,
    InternalServerError,
    MethodNotAllowed,
    NotFound,
    PreconditionFailed,
    SecurityError,
    default_exceptions,
)
from werkzeug.wrappers import Response as WerkzeugResponse

from faq_bot.chat import MAX_HISTORY
from faq_bot.chat.shown import MAX_TOKEN
from faq_bot.errors import UNREADABLE_INDEX, FaqBotError
from faq_bot.query import MAX_QUERY_LENGTH
from faq_bot.question import MAX_QUESTION_LENGTH
from faq_bot.text import clean_input, squash
from faq_bot.web.body import check_form

log = logging.getLogger("faq_bot.web")

# short machine-readable codes for the "error" field
CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    412: "precondition_failed",
    413: "too_large",
    415: "unsupported_media_type",
    422: "unprocessable",
    429: "too_many_requests",
    500: "internal_error",
    501: "not_implemented",
    503: "index_unavailable",
}

TITLES = {
    400: "Ungültige Anfrage",
    404: "Seite nicht gefunden",
    405: "Methode nicht erlaubt",
    406: "Format nicht lieferbar",
    412: "Vorbedingung nicht erfüllt",
    413: "Anfrage zu groß",
    415: "Format nicht unterstützt",
    422: "Anfrage nicht verarbeitbar",
    429: "Zu viele Anfragen",
    500: "Interner Fehler",
    501: "Nicht unterstützt",
    503: "Dienst nicht verfügbar",
}

DEFAULT_DETAILS = {
    400: "Die Anfrage ist ungültig.",
    404: "Diese Adresse gibt es nicht.",
    405: "Diese Methode ist für diese Adresse nicht erlaubt.",
    406: "Dieses Format kann nicht geliefert werden.",
    412: "Die Bedingung der Anfrage (If-Match) trifft auf diese Seite nicht zu; die Seite wurde "
    "daher nicht gesendet.",
    413: "Die Anfrage ist zu groß.",
    415: "Dieses Format wird nicht angenommen.",
    422: "Die Anfrage ist lesbar, lässt sich aber nicht verarbeiten.",
    429: "Zu viele Anfragen; bitte kurz warten.",
    500: "Ein interner Fehler ist aufgetreten. Das ist ein Fehler im Programm, nicht in "
    "Ihrer Anfrage; er wurde protokolliert.",
    501: "Diese Übertragungsart der Anfrage wird nicht unterstützt.",
    503: "Der Dienst ist gerade nicht verfügbar.",
}

_PATH_WORDS = re.compile(r"[^\wäöüÄÖÜß]+")


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.path.rstrip("/") in ("/api", "/healthz")


def detail_of(exc: HTTPException) -> str:
    """The German detail: the description given when raising, else a German default."""
    code = exc.code or 500
    described = exc.description
    werkzeug_class = default_exceptions.get(code)
    default_english = werkzeug_class.description if werkzeug_class else None
    if described and described != default_english:
        return str(described)
    return DEFAULT_DETAILS.get(code, "Die Anfrage konnte nicht bearbeitet werden.")


def path_words(path: str) -> str:
    """The words of a URL path, for the 404 page's search ("/entry/karten-ziehen" → ...)."""
    segments = [s for s in path.strip("/").split("/") if s]
    if segments and segments[0] in {"entry", "docs", "api", "entries", "search"}:
        segments = segments[1:]
    if len(segments) >= 2 and segments[1] == "absatz":  # a paragraph's permalink: its entry
        segments = segments[:1]
    words = _PATH_WORDS.sub(" ", " ".join(segments)).replace("_", " ")
    return squash(words)[:100]


# the pages whose refused input the error page gives back in its form (chat and search)
TYPED_FORMS = ("/ask", "/search")
TYPED_DOC = 100  # characters of a document id at most
# characters of a refused question or search given back to be shortened: a few times the
# longest either may be (a pasted 250 KB text came back whole, 260 KB for a phone)
TYPED_TEXT = 4 * max(MAX_QUESTION_LENGTH, MAX_QUERY_LENGTH)


@dataclass(frozen=True)
class Typed:
    """What a refused chat or search form held: the text (q), the chat's earlier turns (t),
    the document (doc), and whether it was posted (the chat form posts)."""

    path: str = ""
    q: str = ""
    turns: tuple[str, ...] = ()
    doc: str = ""
    post: bool = False


def _typed() -> Typed:
    """The refused form's fields as sent (the form's for a POST, the address's for a GET)
    of the request in hand, as `check_form` reads it; the request's own limits bound them
    (form fields and the request line)."""
    try:
        if request.method == "POST":
            # nothing of a form refused as a form (unreadable, too many fields, not UTF-8):
            # werkzeug would read all of it, and mangled ("%E4", "\ufffd")
            check_form()
        values = request.form if request.method == "POST" else request.args
        q, doc, turns = values.get("q"), values.get("doc"), values.getlist("t")
    except Exception:  # noqa: BLE001 - an unreadable form gives nothing back
        return Typed(path=request.path, post=request.method == "POST")
    return Typed(
        path=request.path,
        q=clean_input(q[:TYPED_TEXT]).strip() if isinstance(q, str) else "",
        # as many turns as a conversation keeps, each no longer than a turn token can be
        turns=tuple(t for t in turns[-MAX_HISTORY:] if len(t) <= MAX_TOKEN),
        doc=doc if isinstance(doc, str) and len(doc) <= TYPED_DOC and _known_doc(doc) else "",
        post=request.method == "POST",
    )


def _known_doc(doc: str) -> bool:
    """Whether the index has the document: an unknown one (an old link after a renaming)
    given back in the form would refuse the next try the same way."""
    try:
        from faq_bot.web.common import current_index

        return current_index().document_id(doc) is not None
    except Exception:  # noqa: BLE001 - no index, or the id itself refused: not given back
        return False


class Allowance:
    """At most `rate` uses a second on average and `burst` at once (a token bucket), for
    the whole worker process; thread-safe."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()
        self._lock = threading.Lock()

    def take(self) -> bool:
        """One use now, if the allowance has one left."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
            self._last = now
            if self._tokens < 1:
                return False
            self._tokens -= 1
            return True


# a 404 searches the words of its path (30-86 ms): pages for people who mistyped, at most
# this often per worker, so that random addresses in a loop (outside nginx's limit on the
# computing routes) cannot keep a worker searching; past it a 404 lists no hits
NOT_FOUND_SEARCHES = Allowance(rate=4.0, burst=20)


NOT_FOUND_HITS = 5


def not_found_hits(query: str, address: str | None = None) -> list:
    """Top hits for the path's words, after the entries a ruling's mistyped or cut-off
    `address` most likely meant (`faq_bot.names.entries_near`); [] when there is no index
    or no valid query, or the worker's `NOT_FOUND_SEARCHES` allowance is spent."""
    if not query or not NOT_FOUND_SEARCHES.take():
        return []
    try:
        from faq_bot.chat.items import source_hit
        from faq_bot.names import entries_near
        from faq_bot.query import QueryError
        from faq_bot.search import search
        from faq_bot.web.common import current_index

        index = current_index()
        near = [
            source_hit(index, record, None, {}, 0.0)
            for entry in (entries_near(index, address) if address else [])
            if (record := index.entry(entry)) is not None
        ]
        named = {hit.id for hit in near}
        found = [hit for hit in search(index, query, n=NOT_FOUND_HITS).hits if hit.id not in named]
        return [*near, *found][:NOT_FOUND_HITS]
    except (HTTPException, QueryError):
        return []


def entry_address(path: str) -> str | None:
    """The entry address of a ruling's path (``/entry/<address>``, also with
    ``/absatz/<n>``; ``/api/entries/<address>``), else None."""
    segments = [s for s in path.strip("/").split("/") if s]
    if len(segments) >= 2 and segments[0] == "entry":
        return segments[1]
    if len(segments) >= 3 and segments[:2] == ["api", "entries"]:
        return segments[2]
    return None


# a Host header that cannot be read (a label over 63 characters, a malformed "xn--"
# label) or is not one of TRUSTED_HOSTS (FAQ_BOT_TRUSTED_HOSTS): no URL can be built
HOST_DETAIL = (
    "Der Host-Header der Anfrage ist ungültig oder nennt keinen Namen, unter dem dieser "
    "Dienst erreichbar ist."
)
_HOST_ERRORS = (BadHost, SecurityError)
# a page without the templates (they build URLs, which need a valid host): for errors
# of such requests and for redirects, whose body werkzeug writes in English
_BARE_PAGE = (
    '<!doctype html><html lang="de"><head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    '<meta name="color-scheme" content="light dark">'
    "<title>{title} · Regelsuche</title></head><body><h1>{title}</h1><p>{text}</p></body></html>"
)


def _bare_page(title: str, text: Markup | str) -> str:
    """`_BARE_PAGE` with `title` and the paragraph `text` (escaped unless Markup)."""
    return _BARE_PAGE.format(title=escape(title), text=escape(text))


def check_host() -> None:
    """The first hook of every request: one whose host cannot be read (`_host_unusable`)
    or is not trusted is refused with `BadHost` before anything reads its body or builds
    a URL."""
    if _host_unusable():
        raise BadHost()


QUERY_SAFE = "%=&+;/?:@!$'()*,~"


def refuse_outside_root() -> None:
    """Under a script root a server strips it as text: ``/faqentry/x`` under ``/faq``
    reaches the app as ``entry/x``. A path that then does not start with "/" lies outside
    the app: its 404, not the entry's page at an address that is not the app's. (A root
    given with its slash arrives without it: `faq_bot.web._root_without_slash`.)"""
    path = request.environ.get("PATH_INFO", "")
    if request.environ.get("SCRIPT_NAME") and path and not path.startswith("/"):
        raise NotFound()


def forgive_trailing_slash() -> WerkzeugResponse | None:
    """An address with a slash added ("/entry/aktionsstapel/", as some forums and
    hand-typed links end it) is answered with a 301 to the address without it when that
    one is a route for GET (a page, and alike an API address or a file such as /sw.js)
    and, for an entry's address, names an entry; anything else goes on to its 404. The
    target is built from the route it matches (`url_for`), never from the path as sent, so
    "//host/" leads nowhere else; the query goes along as sent, its bytes escaped where
    they must be."""
    path = request.path
    if request.method not in ("GET", "HEAD") or len(path) < 2 or not path.endswith("/"):
        return None
    if not isinstance(request.routing_exception, NotFound):
        return None
    adapter = current_app.url_map.bind_to_environ(request.environ)
    try:
        endpoint, values = adapter.match(path.rstrip("/"), method=request.method)
    except HTTPException:
        return None
    if not isinstance(endpoint, str) or endpoint == "static":
        return None
    entry_id = values.get("entry_id")
    if isinstance(entry_id, str):
        from faq_bot.web.common import current_index, named_entry

        canonical = named_entry(current_index(), entry_id)
        if canonical is None:  # its 404 at once: a redirect to a 404 helps nobody
            return None
        if not endpoint.startswith("api."):  # the API's own 301 says in JSON what moved
            # one redirect, not two on a judge's slow line ("/entry/227er/" went to
            # "/entry/227er" and then to the entry's own address)
            values = {**values, "entry_id": canonical}
    target = url_for(endpoint, **values)
    if request.query_string:  # kept as sent (escapes and all), any other byte escaped
        target += "?" + quote(request.query_string, safe=QUERY_SAFE)
    return redirect(target, code=301)


# a host name or a bracketed address, then at most one port (`_host_unusable`)
HOST_SHAPE = re.compile(r"(\[[^\[\]]*\]|[^:\[\]]+)(:[0-9]+)?")


def _host_unusable() -> bool:
    """Whether no URL can be built for this request (see `check_host`): werkzeug could
    not bind the URL map to the host, the name does not decode, or werkzeug read it as
    no host at all (an empty Host header, a port that is no number, spaces, brackets:
    every absolute link would start "http:///"), or it is more than a name (or a bracketed
    address) and one port ("evil.com:80:80"); or an HTTP/1.1 request has no Host header,
    which RFC 9112 (3.2) says a server must refuse with a 400."""
    if isinstance(request.routing_exception, _HOST_ERRORS):
        return True
    environ = request.environ
    if environ.get("SERVER_PROTOCOL") == "HTTP/1.1" and "HTTP_HOST" not in environ:
        return True
    try:
        request.host_url  # noqa: B018 (decodes the host name, as building a URL does)
    except (UnicodeError, ValueError, *_HOST_ERRORS):
        return True
    sent = environ.get("HTTP_HOST")  # as sent: werkzeug drops a last ":80" ("x:80:80")
    return not request.host or (sent is not None and not HOST_SHAPE.fullmatch(sent))


def render_error(
    exc: HTTPException, code_name: str | None = None
) -> Response | tuple[Response, int] | tuple[str, int]:
    code = exc.code or 500
    host_error = isinstance(exc, _HOST_ERRORS)
    detail = HOST_DETAIL if host_error else detail_of(exc)
    if wants_json():
        response = jsonify(error=code_name or CODES.get(code, "error"), detail=detail)
        response.status_code = code
        _copy_allow(exc, response)
        return response
    if host_error or _host_unusable():  # the template could not build its links
        page = _bare_page(TITLES.get(code, "Fehler"), detail)
        return Response(page, status=code, mimetype="text/html")
    query = ""
    hits: list = []
    typed = Typed()
    if isinstance(exc, NotFound):
        query = path_words(request.path)
        hits = not_found_hits(query, entry_address(request.path))
    elif code == 400 and request.path in TYPED_FORMS:
        # a refused question or search (too long, say) stays in the form to be shortened,
        # with the conversation and the document it was asked in
        typed = _typed()
        query = typed.q
    html = render_template(
        "error.html",
        code=code,
        title=TITLES.get(code, "Fehler"),
        detail=detail,
        query=query,
        hits=hits,
        typed=typed,
        # the text given back is what to mend unless the error names another parameter
        text_refused=getattr(exc, "field", None) in (None, "q"),
    )
    response = Response(html, status=code, mimetype="text/html")
    _copy_allow(exc, response)
    return response


def _copy_allow(exc: HTTPException, response: Response) -> None:
    """A 405 keeps its Allow header."""
    if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
        response.headers["Allow"] = ", ".join(exc.valid_methods)


def handle_http_error(exc: HTTPException):
    if isinstance(exc, InternalServerError):
        return handle_internal_error(exc)
    return render_error(exc)


def handle_internal_error(exc: Exception):
    """A 500: log the bug with its traceback, show no traceback."""
    original = getattr(exc, "original_exception", None) or exc
    log.error("internal error on %s %s", request.method, request.path, exc_info=original)
    error = InternalServerError()
    try:
        return render_error(error)
    except Exception:  # the error page itself failed: plain text, still German
        log.exception("error page failed")
        if wants_json():
            return jsonify(error="internal_error", detail=DEFAULT_DETAILS[500]), 500
        return Response(DEFAULT_DETAILS[500], status=500, mimetype="text/plain")


def handle_faq_bot_error(exc: FaqBotError):
    """Every expected failure of the stages: its status, code and German message."""
    if exc.http_status >= 500:
        log.error("%s on %s %s: %s", type(exc).__name__, request.method, request.path, exc)
    error = HTTPException(description=str(exc))
    error.code = exc.http_status
    return render_error(error, code_name=exc.code)


def init_logging(app: Flask) -> None:
    """Send the app's log (500 tracebacks included) to gunicorn's error log when
    running under gunicorn, else to stderr, from the start: not only once the app
    logger was touched."""
    target = logging.getLogger("faq_bot")
    gunicorn_error = logging.getLogger("gunicorn.error")
    if gunicorn_error.handlers:
        target.handlers = list(gunicorn_error.handlers)
        target.setLevel(gunicorn_error.level or logging.INFO)
        target.propagate = False
    elif not target.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        target.addHandler(handler)
        target.setLevel(logging.INFO)
    app.logger.handlers = []
    app.logger.parent = target  # the Flask app logger reports through faq_bot's handlers


def handle_unreadable_index(exc: Exception):
    """whoosh failed reading a damaged build: 503 with the error shape, logged."""
    log.error("index unreadable on %s %s", request.method, request.path, exc_info=exc)
    error = HTTPException(
        description="Der Suchindex ist beschädigt und kann nicht gelesen werden. "
        "Bitte `faq-bot index` ausführen."
    )
    error.code = 503
    return render_error(error)


def german_redirect(response: Response) -> Response:
    """After every request: a redirect's body in German (werkzeug writes an English
    "Redirecting..." page, for the 301 of an alias id and the 308 of a doubled slash);
    under /api/ in JSON, as everything there (an API probe: the 301 of a slash added and
    the 308 of a doubled slash were HTML pages)."""
    location = response.headers.get("Location")
    if 300 <= response.status_code < 400 and location and response.mimetype == "text/html":
        if wants_json():
            response.set_data(
                json.dumps(
                    {"message": "Diese Adresse ist umgezogen.", "location": location},
                    ensure_ascii=False,
                    separators=(",", ":"),  # as jsonify writes it
                )
            )
            response.mimetype = "application/json"
            return response
        # a 303 answers a form post (the chat without JavaScript): nothing moved
        text = "Weiter zur Antwort" if response.status_code == 303 else "Diese Seite ist umgezogen"
        link = Markup('{0}: <a href="{1}">{1}</a>').format(text, location)
        response.set_data(_bare_page("Weiterleitung", link))
    return response


def precondition_failed(response: Response) -> Response:
    """After every request: a 412 is the German error, not the file. werkzeug's
    ``send_file`` answers an ``If-Match`` that does not match (static files, ``/sw.js``)
    with a 412 that still carries the whole file and its validators."""
    if response.status_code != 412:
        return response
    if request.if_match.star_tag:  # "*" matches any existing file (RFC 9110 13.1.1);
        response.status_code = 200  # werkzeug compares it as an ETag and fails it
        return response
    response.close()  # the file it would have sent stays open otherwise
    return make_response(render_error(PreconditionFailed()))


def init_app(app: Flask) -> None:
    for kind in UNREADABLE_INDEX:
        app.register_error_handler(kind, handle_unreadable_index)
    app.register_error_handler(FaqBotError, handle_faq_bot_error)
    app.register_error_handler(HTTPException, handle_http_error)
    app.register_error_handler(Exception, handle_internal_error)
    app.after_request(german_redirect)
    app.after_request(precondition_failed)
