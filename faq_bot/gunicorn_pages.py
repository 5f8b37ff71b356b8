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
answered 408 the same way. There is no request to go by, so an ``/api/`` path gets the
page too, not the JSON error shape; served under a path (``SCRIPT_NAME``, docs/web.md),
the pages lead back to the start page under that path.
"""

from __future__ import annotations

import html
import os
import socket
from http import HTTPStatus

from gunicorn import util

from faq_bot.web.errors import DEFAULT_DETAILS, TITLES

__all__ = ["PAGES", "write_error"]

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
    # the start page under the path gunicorn serves the app under (SCRIPT_NAME), if any
    home = html.escape(os.environ.get("SCRIPT_NAME", "").rstrip("/") + "/")
    page = PAGE.format(title=html.escape(title), text=html.escape(text), home=home)
    body = page.encode("utf-8")
    try:  # gunicorn leaves "Bad Request" as the reason of its 501 and 500
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = "Error"
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        f"{SECURITY_HEADERS}"
        "\r\n"
    ).encode("ascii")
    util.write_nonblock(sock, head + body)
