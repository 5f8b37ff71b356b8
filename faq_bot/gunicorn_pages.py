"""The German pages of the requests gunicorn refuses itself, before the app sees them.

A request gunicorn cannot parse never reaches the app: a request line longer than
`faq_bot.serving.LIMIT_REQUEST_LINE` (414), a header too large (431), a malformed
header such as ``Content-Length: abc`` (400), an unsupported transfer coding (501).
gunicorn answers those itself with an English HTML page (``gunicorn.util.write_error``),
and nginx (``deploy/nginx.conf``) passes it through when it reaches gunicorn at all
(nginx answers malformed framing and request lines over its own buffers itself, with
``deploy/errors``). The service's worker (`faq_bot.gunicorn_worker.GermanThreadWorker`)
answers them with `write_error`'s short German page instead, with the same status, the
standard reason phrase and the app's security headers; what gunicorn found goes to its
log as before. Headers that do not arrive in time (the worker's ``HEADER_WAIT``) are
answered 408 the same way. Mostly there is no request to go by, so an ``/api/`` path gets
the page too, not the JSON error shape; a request line gunicorn could read but refused
(`write_line_error`: characters a client left unencoded, ``curl ".../api/search?q=Bombé"``)
names its path, and is answered as the app answers there (JSON under ``/api/``), saying
what to encode. Served under a path (``SCRIPT_NAME``, docs/web.md), the pages lead back
to the start page under that path.
"""

from __future__ import annotations

import html
import json
import os
import socket
from http import HTTPStatus

from gunicorn import util

from faq_bot.web.errors import DEFAULT_DETAILS, TITLES

__all__ = ["PAGES", "write_error", "write_line_error"]

# status -> (title, what the user reads); gunicorn's English detail is not shown
PAGES = {
    400: ("Ungültige Anfrage", "Der Server konnte diese Anfrage nicht lesen."),
    403: ("Nicht erlaubt", "Diese Anfrage ist nicht erlaubt."),
    404: (TITLES[404], DEFAULT_DETAILS[404]),  # a path outside SCRIPT_NAME, as the app's 404
    408: (
        "Zeitüberschreitung",
        "Die Anfrage kam nicht rechtzeitig vollständig an. Bitte die Seite neu laden.",
    ),
    414: (
        "Adresse zu lang",
        "Die Adresse ist zu lang. Bitte einen kürzeren Suchbegriff verwenden oder ein neues "
        "Gespräch beginnen.",
    ),
    417: ("Ungültige Anfrage", "Die Erwartung dieser Anfrage kann der Server nicht erfüllen."),
    431: ("Anfrage zu groß", "Die Kopfzeilen der Anfrage sind zu groß."),
    500: (
        "Interner Fehler",
        "Beim Server ist ein Fehler aufgetreten. Bitte später noch einmal versuchen.",
    ),
    501: (TITLES[501], DEFAULT_DETAILS[501]),  # as the app's own 501 (faq_bot.web.body)
}
FALLBACK = ("Fehler", "Der Server konnte diese Anfrage nicht bearbeiten.")
# as the app's pages send them (faq_bot.web.security), for a page without styles or scripts
SECURITY_HEADERS = (
    "Content-Security-Policy: default-src 'none'; frame-ancestors 'none'; base-uri 'none'; "
    "form-action 'none'\r\n"
    "X-Content-Type-Options: nosniff\r\n"
    "X-Frame-Options: DENY\r\n"
    "Referrer-Policy: strict-origin-when-cross-origin\r\n"
)

PAGE = """<!doctype html>
<html lang="de">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{title} – Regelsuche</title></head>
<body>
<h1>{title}</h1>
<p>{text}</p>
<p><a href="{home}">Zur Startseite</a></p>
</body>
</html>
"""


def write_error(sock: socket.socket, status: int, reason: str, message: str) -> None:
    """Write a German error page for `status` to `sock` (``gunicorn.util.write_error``'s
    signature; `message`, gunicorn's English detail, is left out)."""
    title, text = PAGES.get(status, FALLBACK)
    _write(sock, status, _page(title, text), "text/html; charset=utf-8")


# a request line with characters a client must percent-encode (an umlaut, as gunicorn reads
# the bytes: latin-1): what to do about it
UNENCODED = (
    "Die Adresse enthält Zeichen, die nicht kodiert sind (etwa Umlaute: ä wird %C3%A4). "
    'Bitte die Adresse kodiert senden, z. B. mit curl -G --data-urlencode "q=…".'
)


def write_line_error(sock: socket.socket, line: str) -> None:
    """Answer a request line gunicorn refused (`line`, its bytes read as latin-1) with a 400
    as the app answers at its path: the JSON error shape under ``/api/``, else the page;
    said as unencoded characters where it has some."""
    parts = line.split(" ")
    target = parts[1] if len(parts) > 1 else line  # a parser that gives only the target
    if target.lower().startswith(("http://", "https://")):  # the absolute form
        target = "/" + target.partition("://")[2].partition("/")[2]
    root = os.environ.get("SCRIPT_NAME", "").rstrip("/")
    text = UNENCODED if not line.isascii() else PAGES[400][1]
    if target.startswith(root + "/api/"):
        # as the app's jsonify writes it (compact)
        detail = {"error": "bad_request", "detail": text}
        body = json.dumps(detail, ensure_ascii=False, separators=(",", ":"))
        _write(sock, 400, body, "application/json")
    else:
        _write(sock, 400, _page(PAGES[400][0], text), "text/html; charset=utf-8")


def _page(title: str, text: str) -> str:
    # the start page under the path gunicorn serves the app under (SCRIPT_NAME), if any
    home = html.escape(os.environ.get("SCRIPT_NAME", "").rstrip("/") + "/")
    return PAGE.format(title=html.escape(title), text=html.escape(text), home=home)


def _write(sock: socket.socket, status: int, text: str, content_type: str) -> None:
    body = text.encode("utf-8")
    try:  # gunicorn leaves "Bad Request" as the reason of its 501 and 500
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = "Error"
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        f"Content-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"{SECURITY_HEADERS}"
        "\r\n"
    ).encode("ascii")
    util.write_nonblock(sock, head + body)
