"""The one place that reads and checks what a client sends in a request body.

Limits are enforced while reading, not from ``Content-Length`` alone: the app sets
Flask's ``MAX_CONTENT_LENGTH`` and ``MAX_FORM_MEMORY_SIZE`` from `MAX_ANY_BODY` and
`MAX_FORM_BUFFER` (`faq_bot.web.create_app`), so werkzeug stops a chunked or lying body
after `MAX_ANY_BODY` bytes with a 413; each body is read within its route's limit
(`body_limit`), `MAX_BODY` where the route sets none. JSON (a body, a form field, a
decoded share link) is refused with a German 400 when it is not UTF-8, nested deeper
than `MAX_JSON_DEPTH`, or holds a lone surrogate escape (``"\\ud800"``), which no later
step could encode. A form (``application/x-www-form-urlencoded``) whose fields,
unescaped, are not UTF-8 is refused with a German 400 too: werkzeug would read it as no
fields at all ("Bitte eine Frage eingeben" for a question sent in Latin-1) or keep the
escapes as text; so is a multipart form whose body is not UTF-8 (werkzeug would read
"\ufffd" for each such byte). A form of more than `MAX_FORM_PARTS` fields, in either
encoding, is refused with a German 413.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, request
from werkzeug.exceptions import NotImplemented as NotImplementedCoding
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType

from faq_bot import strictjson
from faq_bot.errors import BodyTooLarge, FaqBotError, InputError
from faq_bot.stack.read import MAX_INPUT_BYTES
from faq_bot.text import has_surrogate, said_back
from faq_bot.web.encoding import form_is_utf8, is_utf8

MAX_BODY = 256 * 1024  # bytes of a request body (JSON or form) where the route sets no limit
# bytes of the largest body a route takes (`body_limit`), werkzeug's ceiling for all: a
# scenario sent to /api/check, which takes what the scenario reader takes
MAX_ANY_BODY = MAX_INPUT_BYTES
# bytes of a multipart form werkzeug buffers while parsing it: the whole body, which is in
# memory already (`raw_body` caches it); 64 KB, werkzeug's buffer of unread parts plus its
# next read, refused forms of many small fields from about 130 KB. No form route takes more
# than `MAX_BODY` (werkzeug's own parsing of a 3 MB form of escapes took two seconds).
MAX_FORM_BUFFER = MAX_BODY
# fields of one form, whatever its encoding: the checker's at its largest (stack.form's
# MAX_ROWS rows of each list, every field sent: about 4,000) fits
MAX_FORM_PARTS = 5_000
MAX_JSON_DEPTH = 32  # nested arrays/objects of any JSON a client sends

F = TypeVar("F", bound=Callable[..., Any])


class BodyError(InputError):
    """A request body that cannot be read as sent; the message says why (German)."""


def _too_deep() -> BodyError:
    return BodyError(
        f"Das JSON ist zu tief verschachtelt (höchstens {MAX_JSON_DEPTH} Ebenen erlaubt)."
    )


def _bad_character(where: str) -> BodyError:
    return BodyError(
        f"{where} enthält ein ungültiges Zeichen (ein einzelnes UTF-16-Surrogat wie "
        "\\ud800). Bitte nur gültigen Text senden."
    )


def _depth_of(text: str) -> int:
    """Deepest nesting of arrays and objects in JSON `text` (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_JSON_DEPTH:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


def check_tree(value: Any, where: str = "Die Anfrage", max_values: int | None = None) -> Any:
    """`value` (parsed JSON) unchanged; `BodyError` when nested deeper than
    `MAX_JSON_DEPTH` or a string has a lone surrogate (keys included). With `max_values`
    the walk stops after that many values and leaves the rest to the reader, which refuses
    so many by their count (a scenario: 300,000 empty lists took 0.6 s to walk here)."""
    found = strictjson.flaw(value, MAX_JSON_DEPTH, max_values)
    if found is not None and found[0] != "many":
        raise _too_deep() if found[0] == "deep" else _bad_character(where)
    return value


def check_json_text(
    text: str,
    where: str = "Das JSON",
    before_parsing: Callable[[str], None] | None = None,
    max_values: int | None = None,
) -> None:
    """Refuse JSON text that is too deep or holds lone surrogates, before anyone
    parses it for real (and what `before_parsing` refuses, after those cheap checks;
    `max_values` as `check_tree`). Text that is no JSON at all is left to the caller."""
    if has_surrogate(text):
        raise _bad_character(where)
    if _depth_of(text) > MAX_JSON_DEPTH:
        raise _too_deep()
    if before_parsing is not None:
        before_parsing(text)
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        return
    check_tree(parsed, where, max_values)


def check_strings(values: list[str], where: str) -> list[str]:
    for value in values:
        if has_surrogate(value):
            raise _bad_character(where)
    return values


def _too_large(limit: int) -> BodyTooLarge:
    return BodyTooLarge(
        f"Die Anfrage ist zu groß; erlaubt sind höchstens {limit} Bytes ({limit // 1024} KB)."
    )


def _server_read_errors() -> tuple[type[Exception], ...]:
    """What the server raises while reading a malformed body (gunicorn's parse errors;
    none under another server)."""
    try:
        from gunicorn.http.errors import ParseException
    except ImportError:  # pragma: no cover - gunicorn is a dependency
        return ()
    return (ParseException,)


_READ_ERRORS: tuple[type[Exception], ...] = (OSError, ValueError, *_server_read_errors())


def raw_body(limit: int | None = None) -> bytes:
    """The whole body, at most `limit` bytes (default: the route's `body_limit`, else
    `MAX_BODY`; never more than the app's ``MAX_CONTENT_LENGTH``), else `BodyTooLarge` (413).

    werkzeug cuts a body without ``Content-Length`` (chunked) silently at the
    app's limit; one more byte read tells whether there was more. The body is
    cached, so ``request.form`` parses these same bytes afterwards.
    """
    cap = int(current_app.config.get("MAX_CONTENT_LENGTH") or MAX_ANY_BODY)
    limit = min(limit or _route_limit() or MAX_BODY, cap)
    if request.content_length is not None and request.content_length > limit:
        raise _too_large(limit)
    try:
        data = request.get_data(cache=True)
        if len(data) >= cap and request.content_length is None and request.stream.read(1):
            raise _too_large(limit)
    except RequestEntityTooLarge:
        raise _too_large(limit) from None
    except FaqBotError:  # our own 413 above (an InputError, so a ValueError too)
        raise
    except _READ_ERRORS:
        # the server could not read the body as sent (gunicorn: a chunk size that is no
        # hex number, a missing CRLF, a bad trailer; a body cut short): the client's
        # fault, not a bug
        raise _unreadable() from None
    if len(data) > limit:
        raise _too_large(limit)
    if request.content_length is not None and len(data) < request.content_length:
        # the client closed its side before sending what Content-Length promised:
        # gunicorn hands over what came, which may still parse as a shorter request
        raise _unreadable()
    return data


def _unreadable() -> BodyError:
    return BodyError(
        "Der Anfragetext ist fehlerhaft übertragen oder unvollständig; bitte erneut senden."
    )


def body_limit(limit: int) -> Callable[[F], F]:
    """Mark a view as taking a body of at most `limit` bytes (instead of `MAX_BODY`; at
    most `MAX_ANY_BODY`, the app's ``MAX_CONTENT_LENGTH``): `read_whole_body` enforces it,
    so a 413 names the route's own limit whatever the body's size. Apply below the route
    decorator."""
    if limit > MAX_ANY_BODY:
        raise ValueError(f"body limit {limit} above MAX_ANY_BODY ({MAX_ANY_BODY})")

    def mark(view: F) -> F:
        view.body_limit = limit  # type: ignore[attr-defined]
        return view

    return mark


def read_whole_body() -> None:
    """Before every request with a body: read it within the route's limit
    (`body_limit`, else `MAX_BODY`), once. A compressed body (``Content-Encoding``) is
    refused with a 415, as RFC 9110 asks of a server that does not decode it; a transfer
    coding other than chunked (``Transfer-Encoding: gzip, chunked``, which gunicorn
    de-chunks but does not decompress) with a 501, as RFC 9112 (6.1) says."""
    if request.method in ("POST", "PUT", "PATCH"):
        codings = request.headers.get("Transfer-Encoding", "").lower().split(",")
        if any(c.strip() not in ("", "chunked", "identity") for c in codings):
            raise NotImplementedCoding(
                description="Diese Übertragungsart der Anfrage (Transfer-Encoding) wird nicht "
                "unterstützt; bitte ohne Kompression senden."
            )
        coding = request.headers.get("Content-Encoding", "identity").strip().lower()
        if coding not in ("", "identity"):
            raise UnsupportedMediaType(
                description=f"Komprimierte Anfragen (Content-Encoding: {coding[:40]}) werden "
                "nicht angenommen; bitte unkomprimiert senden."
            )
        raw_body(_route_limit())


def check_form() -> None:
    """For a view that reads a form (``POST /ask``, ``POST /check``), before it does: a
    German 413 when the form has more than `MAX_FORM_PARTS` fields (werkzeug counts only a
    multipart form's, and says no more than that the request is too large; an urlencoded
    form of 60,000 fields it parsed whole), and a German 400 when an urlencoded form's
    fields, their escapes undone, are not UTF-8 (werkzeug would read no field at all, or
    keep the escapes as text), or a multipart form's body is not (werkzeug would read each
    such byte as "\ufffd" and answer a question nobody asked; the views take no files, so
    no part of it may be binary). A body of any other type (JSON, text) is a German 415
    naming the JSON API, not an empty form."""
    if request.mimetype == "application/x-www-form-urlencoded":
        data = raw_body()
        fields, utf8 = data.count(b"&") + 1, form_is_utf8
    elif request.mimetype == "multipart/form-data":
        data = raw_body()
        boundary = request.mimetype_params.get("boundary", "").encode("latin-1", "replace")
        fields, utf8 = (_parts(data, boundary) if boundary else 0), is_utf8
    elif raw_body():  # JSON or text the form would drop without a word
        raise UnsupportedMediaType(
            description="Diese Seite nimmt Formulardaten an, wie ein Browser sie sendet, nicht "
            f"{said_back(request.mimetype or 'ohne Content-Type', 60)}. Ein Szenario als JSON "
            "geht an /api/check, eine Frage als JSON an /api/ask."
        )
    else:
        return
    if fields > MAX_FORM_PARTS:
        raise BodyTooLarge(
            f"Das Formular hat zu viele Felder; erlaubt sind höchstens {MAX_FORM_PARTS}."
        )
    if not utf8(data):
        raise BodyError(
            "Die Formulardaten sind kein gültiges UTF-8; bitte die Seite neu laden und "
            "noch einmal senden."
        )
    # a multipart part without a field name, which no browser sends: werkzeug keeps it
    # under the key None, which the views' readers took for a field name (a 500)
    if request.mimetype == "multipart/form-data" and None in request.form:
        raise BodyError(
            "Das Formular enthält ein Feld ohne Namen; bitte die Seite neu laden und noch "
            "einmal senden."
        )


def _parts(data: bytes, boundary: bytes) -> int:
    """The parts of the multipart body `data`: its delimiters as werkzeug reads them
    (``--boundary`` on a line of its own, at the start or after any line break; RFC 2046
    allows the boundary's text anywhere else in a value) but the closing one
    (``--boundary--``), which a body cut short may lack."""
    opening = re.compile(
        rb"(?:\A|\r\n|\n|\r)--" + re.escape(boundary) + rb"(?!--)[ \t]*(?=\r\n|\n|\r)"
    )
    return len(opening.findall(data))


def _route_limit() -> int | None:
    """The request's view's `body_limit`, None where it sets none."""
    view = current_app.view_functions.get(request.endpoint or "")
    return getattr(view, "body_limit", None)


def read_json(media_error: str) -> Any:
    """The request's JSON, checked: 415 (with `media_error`) when not sent as JSON,
    `BodyError` (400) when not UTF-8, not JSON, too deep or with lone surrogates. The
    body was read within the route's limit before the view ran (`read_whole_body`)."""
    if not request.is_json:
        raise UnsupportedMediaType(description=media_error)
    raw = raw_body(_route_limit())
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BodyError("Die Anfrage ist kein gültiges UTF-8.") from None
    # a byte order mark (Windows tools write one) is no JSON, and RFC 8259 lets a parser
    # ignore it; /api/check's reader does too
    text = text.removeprefix("\ufeff")
    check_json_text(text, "Die Anfrage")
    try:
        return strictjson.loads(text)
    except strictjson.RepeatedKeyError as exc:  # the first value would be dropped unsaid
        raise BodyError(
            f"{exc.said} steht in der Anfrage zweimal; jedes Feld darf nur einmal vorkommen."
        ) from None
    except RecursionError:  # past `check_json_text`'s depth check only by a fault of its own
        raise _too_deep() from None
    except ValueError as exc:
        raise BodyError(f"Die Anfrage {strictjson.refusal_german(exc)}.") from None
