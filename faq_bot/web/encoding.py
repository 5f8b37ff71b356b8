"""How the bytes of an address and of a form become text, in one place (JSON bodies are
read by `faq_bot.web.body.read_json`).

Two policies, on purpose:

- **Addresses are read generously.** A query string or path comes from wherever the
  address was made: an old bookmark, a forum post, a page in Latin-1. Percent escapes that
  are not UTF-8 ("Zerst%F6rer") are read as Windows-1252, which every such source uses for
  German, so the search finds "Zerstörer" instead of the text "Zerst%F6rer"
  (`utf8_query`, `utf8_path`, applied to every request by `query_as_utf8`).
- **Bodies are read strictly.** A form body comes from this service's own pages, which
  always send UTF-8; one that is not was made by something else, and guessing at it would
  answer a question nobody asked. `form_is_utf8` and `is_utf8` say whether a body is,
  and `faq_bot.web.body.check_form` refuses it with a German 400 when it is not; the
  error page then gives back none of it (`faq_bot.web.errors`), not werkzeug's mangled
  reading of it.
"""

from __future__ import annotations

import codecs
import re
from typing import Any
from urllib.parse import quote, unquote_to_bytes

# a run of percent escapes ("%F6", "%C3%BC%20"), in a form body and in an address
_ESCAPES = re.compile(rb"(?:%[0-9A-Fa-f]{2})+")
_ESCAPES_TEXT = re.compile(_ESCAPES.pattern.decode("ascii"))


def _cp1252_bytes(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: the bytes UTF-8 could not decode, read as Windows-1252."""
    assert isinstance(error, UnicodeDecodeError)
    bad = error.object[error.start : error.end]
    return bytes(bad).decode("cp1252", errors="replace"), error.end


_AS_CP1252 = "faq_bot.cp1252"
codecs.register_error(_AS_CP1252, _cp1252_bytes)


def utf8_query(query: str) -> str:
    """`query` (a WSGI query string: its bytes as Latin-1) with every run of percent escapes
    that is not UTF-8 read as Windows-1252 and escaped again as UTF-8: "Zerst%F6rer", as an
    old bookmark, a forum or a Latin-1 page escapes "Zerstörer", was searched as the text
    "Zerst%F6rer". Escapes that are UTF-8, and everything else, stay as they are."""

    def again(run: re.Match[str]) -> str:
        raw = unquote_to_bytes(run.group(0))
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:  # only the bytes that are no UTF-8 read as Windows-1252
            return quote(raw.decode("utf-8", errors=_AS_CP1252), safe="")
        return run.group(0)

    return _ESCAPES_TEXT.sub(again, query) if "%" in query else query


def utf8_path(path: str) -> str:
    """`path` (a WSGI PATH_INFO: unescaped bytes as Latin-1) with the bytes that are not
    UTF-8 read as Windows-1252: "/entry/Zerst%F6rer" finds "Zerstörer" as the search does
    (`utf8_query`) instead of a page about "Zerst\ufffdrer"."""
    if path.isascii():
        return path
    try:
        raw = path.encode("latin-1")
    except UnicodeEncodeError:  # not a WSGI string: leave it to werkzeug
        return path
    return raw.decode("utf-8", errors=_AS_CP1252).encode("utf-8").decode("latin-1")


def query_as_utf8(wsgi_app: Any) -> Any:
    """`wsgi_app` with the query string's escapes and the path made UTF-8 (`utf8_query`,
    `utf8_path`)."""

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        query = environ.get("QUERY_STRING") or ""
        path = environ.get("PATH_INFO") or ""
        fixed, fixed_path = utf8_query(query), utf8_path(path)
        if fixed != query or fixed_path != path:
            environ = {**environ, "QUERY_STRING": fixed, "PATH_INFO": fixed_path}
        return wsgi_app(environ, start_response)

    return app


def form_is_utf8(data: bytes) -> bool:
    """Whether the urlencoded form `data`, its escapes undone, is UTF-8: its raw bytes and
    each run of escapes (not the whole body unescaped at once: a body of "%%%…" took
    0.4 s so)."""
    try:
        data.decode("utf-8")
        for run in _ESCAPES.finditer(data):
            unquote_to_bytes(run.group()).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def is_utf8(data: bytes) -> bool:
    """Whether `data` is UTF-8 as it is (a multipart form's body)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
