"""Helpers the blueprints share: the current index, entry lookup, ETags, argument checks."""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, overload
from urllib.parse import quote_plus, urlencode

from flask import Response, current_app, g, make_response, redirect, request, url_for
from werkzeug.exceptions import BadRequest, HTTPException, NotFound, ServiceUnavailable
from werkzeug.wrappers import Response as BaseResponse

from faq_bot.text import clean_input, said_back

if TYPE_CHECKING:
    from faq_bot.index import EntryRecord, Index

F = TypeVar("F", bound=Callable[..., Any])


class IndexUnavailable(ServiceUnavailable):
    """The index has not been built (or cannot be opened): a 503, not a 500."""

    description = (
        "Der Suchindex ist noch nicht gebaut. Bitte `faq-bot index` ausführen "
        "und die Seite neu laden."
    )


def current_index() -> Index:
    """The index of the current build; reopened after `faq-bot index` swapped one in.

    Taken once per request, so a request sees one build (its ETag and its body
    come from the same one) and the swap check costs one readlink per request.
    """
    from faq_bot.index import IndexBrokenError, IndexMissingError

    found: Index | None = g.get("faq_bot_index")
    if found is not None:  # one build for the whole request, checked once
        return found
    holder = current_app.extensions["faq_bot.index"]
    try:
        found = g.faq_bot_index = holder.get()
    except IndexBrokenError as exc:
        raise IndexUnavailable(description=str(exc)) from exc
    except IndexMissingError as exc:
        raise IndexUnavailable() from exc
    return found


def turn_key() -> bytes:
    """The key the chat's turn tokens are signed with (`faq_bot.config.turn_secret`:
    ``FAQ_BOT_SECRET`` or the index directory's secret file), read once per app."""
    from faq_bot.config import turn_secret

    key: bytes | None = current_app.extensions.get("faq_bot.turn_key")
    if key is None:
        key = turn_secret(current_app.config["INDEX_DIR"])
        current_app.extensions["faq_bot.turn_key"] = key
    return key


def moved(location: str) -> BaseResponse:
    """A 301 to where this build puts what an address named (an alias, a paragraph that
    moved, a document's id in other letters): the browser asks again each time
    (``no-cache``) instead of keeping it for good, since a later build can lead elsewhere
    (a paragraph moved back made a redirect loop of a kept 301)."""
    response = redirect(location, code=301)
    response.headers["Cache-Control"] = "no-cache"
    return response


class EntryMoved(HTTPException):
    """The 301 `entry_or_redirect` raises for another name of an entry (`moved`):
    `canonical` is the entry's id (a JSON view answers with a body of its own,
    `faq_bot.web.api`)."""

    def __init__(self, location: str, canonical: str) -> None:
        super().__init__(response=moved(location))
        self.canonical = canonical
        self.location = location


def host_url() -> str:
    """``scheme://host`` of the request: what makes a path of `url_for` (which holds the
    app's script root already) absolute."""
    return request.host_url.rstrip("/")


def base_url() -> str:
    """``scheme://host`` of the request and the app's script root: absolute links start here
    (behind a proxy its forwarded host, `faq_bot.web.create_app`)."""
    return host_url() + request.script_root


# the JSON fields that hold a path of this site (`rooted`): a hit's, an entry's, a
# suggestion's, an answer's passage and its related entries, the checker link
LINK_KEYS = frozenset({"url", "check_url", "sentence_url"})


def page_url(endpoint: str, args: dict[str, Any], external: bool = False) -> str:
    """The address of `endpoint` (a route without parameters) with the query `args` (a
    value or a list of values each; None left out), every reserved character
    percent-encoded: a shared chat link ends in its last question, and a forum's autolink
    ends a link before a final "?" or ":" (`url_for` leaves them as they are), not before
    "%3F" (chat.js's links encode them too). Built beside `url_for`, never through it: it
    reads a field named "_anchor" or "_scheme" as its own option (a 500)."""
    pairs = [
        (name, value)
        for name, values in args.items()
        for value in (values if isinstance(values, (list, tuple)) else [values])
        if value is not None
    ]
    query = urlencode(pairs, quote_via=quote_plus)
    return url_for(endpoint, _external=external) + (f"?{query}" if query else "")


def site_path(path: str) -> str:
    """A path a stage made (`faq_bot.text.entry_path`, the checker link), under the app's
    script root as `url_for` puts the web's own links (served at ``/faq`` by gunicorn's
    ``SCRIPT_NAME`` or a proxy: ``/faq/entry/x``); the same path at the root."""
    return request.script_root + path if path.startswith("/") else path


def rooted(data: Any) -> Any:
    """JSON a stage made (a search's hits, an answer, title suggestions) with the path under
    each of its `LINK_KEYS`, at any depth, put under the app's script root (`site_path`);
    `data` itself at the root. Only for what a stage made: a path from `url_for` holds the
    root already and would get it twice. Absolute links (``absolute_url``,
    ``paragraph_url``) are left as they are: they were made with the root."""
    if not request.script_root:
        return data
    if isinstance(data, dict):
        return {
            k: site_path(v) if k in LINK_KEYS and isinstance(v, str) else rooted(v)
            for k, v in data.items()
        }
    if isinstance(data, list):
        return [rooted(item) for item in data]
    return data


def named_entry(index: Index, entry_id: str) -> str | None:
    """The id of the entry `entry_id` names: itself, or the canonical id an alias id, a
    title slug or an abbreviation stands for; None when it names none (a 404)."""
    if index.entry(entry_id) is not None:
        return entry_id
    canonical = index.canonical_id(entry_id)
    return canonical if canonical and index.entry(canonical) is not None else None


def entry_or_redirect(
    index: Index, entry_id: str, endpoint: str, marks: bool = False, **values: Any
) -> EntryRecord:
    """The entry with id `entry_id`.

    An alias id, a title slug or an abbreviation of the synonyms table ("227er" for the
    227-Pfund Bombe) that names another entry answers with a 301 to `endpoint` (a view
    taking `entry_id` and `values`, e.g. a paragraph's number) for the canonical id,
    raised as `EntryMoved`; with `marks` the words to mark (``h``) go along (the ruling
    page reads them; a paragraph's permalink and the API do not). Anything else is a 404.
    """
    record = index.entry(entry_id)
    if record is not None:
        return record
    canonical = named_entry(index, entry_id)
    if canonical is not None:
        # the words to mark (`h`, from a search hit's link) go along where the view reads them
        words = (words_to_mark() or None) if marks else None
        exact = "1" if words and request.args.get("genau") == "1" else None  # as typed
        raise EntryMoved(
            url_for(endpoint, entry_id=canonical, h=words, genau=exact, **values), canonical
        )
    raise no_such_entry(entry_id)


def no_such_entry(entry_id: str) -> NotFound:
    """The 404 of an id that names no entry (`named_entry`), the id said back as typed,
    its control characters visible as spaces: "pha%00sen" is no "phasen"."""
    return NotFound(description=f"Einen Eintrag {said_back(entry_id)} gibt es nicht.")


def cached_page(
    index: Index, render: Callable[[], str], *key: str, users_words: bool = False
) -> bytes:
    """The page `render()` makes (UTF-8), from the build's bounded page cache.

    `key` must name everything the page depends on besides the build, the app
    (templates, config) and the URL root, which is added here (absolute links
    and ``url_for`` depend on host, scheme and script root). So a page is
    rendered (and compressed, per encoding) once per build and key, and the
    bytes for the same request stay the same; a new build starts with an empty
    cache. A page keyed by `users_words` (words to mark) is kept within a budget of
    its own, so that any number of made-up words cannot push the plain pages out.
    Debug mode (templates reloaded on change) renders every time.
    """
    if current_app.debug:
        return render().encode()
    full = (request.root_url, *key)
    pages = index.state.marked_pages if users_words else index.state.pages
    found = pages.get(full)
    if found is None:
        found = pages.put(full, render().encode())
    g.cached_page = (pages, full)  # its compressed variants are cached beside it (compression.py)
    return found


def bad_request(detail: str, field: str | None = None) -> HTTPException:
    """A 400 with a German explanation (shown on the error page / in the JSON); `field`,
    the parameter it is about where that is not the typed text (the error page marks the
    text's field as the one to mend only when it is)."""
    error = BadRequest(description=detail)
    error.field = field  # type: ignore[attr-defined]
    return error


def words_to_mark() -> str:
    """The request's `h` (the search that led to a ruling, from a hit's link), as sent up to
    the query's limit: only marks, so what lies past it is dropped, not a 400 for the whole
    ruling (a hand-made or mangled link)."""
    return (request.args.get("h") or "")[: int(current_app.config["MAX_QUERY_LENGTH"])]


def check_query(raw: str | None, *, required: bool) -> str:
    """The cleaned query (`faq_bot.text.clean_input`, stripped); 400 when it is too long as
    sent (the OpenAPI description's maxLength: control characters count, though cleaning
    turns them into spaces), or missing but required (a query of control characters alone
    is missing)."""
    raw = raw or ""
    limit = int(current_app.config["MAX_QUERY_LENGTH"])
    if len(raw) > limit:
        raise bad_request(
            f"Die Suchanfrage ist zu lang ({len(raw)} Zeichen); "
            f"erlaubt sind höchstens {limit} Zeichen."
        )
    query = clean_input(raw).strip()
    if required and not query:
        raise bad_request("Bitte einen Suchbegriff angeben (Parameter „q“).")
    return query


def check_int(raw: str | None, *, name: str, default: int, low: int, high: int) -> int:
    if raw is None or raw == "":
        return default
    try:  # digits only: int() also reads "1_0", "+5", " 5" and full-width digits
        negative = raw.startswith("-") and raw[1:].isascii() and raw[1:].isdigit()
        if not (raw.isascii() and raw.isdigit()) and not negative:  # -1: out of range
            raise ValueError(raw)
        value = int(raw)
    except ValueError:
        raise bad_request(
            f"Der Parameter „{name}“ muss eine ganze Zahl sein, nicht {said_back(raw, 40)}.",
            field=name,
        ) from None
    if not low <= value <= high:
        raise bad_request(
            f"Der Parameter „{name}“ muss zwischen {low} und {high} liegen.", field=name
        )
    return value


def check_flag(raw: str | None, *, name: str) -> bool:
    """A yes/no parameter: ``1`` yes, missing, empty or ``0`` no; anything else a 400."""
    if raw in (None, "", "0"):
        return False
    if raw == "1":
        return True
    raise bad_request(
        f"Der Parameter „{name}“ kann nur 1 oder 0 sein, nicht {said_back(raw, 40)}.", field=name
    )


def etag_for(index: Index, extra: str = "") -> str:
    """ETag of the current GET request: app files + index build + scheme, host, path and
    arguments (absolute addresses in the body are built from the first two) (+ `extra`:
    anything else the body depends on)."""
    key = "|".join(
        [
            current_app.config.get("APP_FINGERPRINT", ""),
            index.version,
            request.root_url,
            request.path,
            request.query_string.decode("latin-1"),
            extra,
        ]
    )
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def not_modified(tag: str) -> Response | None:
    """The 304 for a client that holds the representation tagged `tag`, or one of its
    compressed variants ("<tag>:br") in an encoding the request accepts
    (`faq_bot.web.compression.etag_variants`), before anything is rendered or read; else
    None.
    Compared weakly, as RFC 9110 asks of If-None-Match (a proxy that compresses makes a
    strong tag weak: W/"<tag>"). ``If-None-Match: *`` is left to the caller: it matches
    any *existing* representation, so only a response that would be a 200 may become a
    304 (never a 404 or 400)."""
    from faq_bot.web.compression import etag_variants

    if request.if_none_match.star_tag:
        return None
    held = [t for t in etag_variants(tag) if request.if_none_match.contains_weak(t)]
    return _not_modified(held[0]) if held else None


def _not_modified(tag: str) -> Response:
    response = current_app.response_class(status=304)
    response.set_etag(tag)
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = "no-cache"
    return response


def turn_key_tag() -> str:
    """A public fingerprint of `turn_key` (an HMAC under it, never the key itself):
    part of the ETag of pages that check turn tokens, so a new secret changes it."""
    return hmac.new(turn_key(), b"etag", hashlib.sha256).hexdigest()[:16]


@overload
def conditional(view: F) -> F: ...
@overload
def conditional(
    view: None = None, *, also: Callable[[], str] | None = None
) -> Callable[[F], F]: ...
def conditional(view: F | None = None, *, also: Callable[[], str] | None = None) -> Any:
    """Answer revalidations with 304 before rendering; tag fresh responses with an ETag.

    The ETag depends on the index build, the app's files (templates, static files,
    code and fitted models: `faq_bot.web.assets.app_fingerprint`) and the request's
    path and query, so a new build or a new release changes it;
    ``@conditional(also=f)``: and on ``f()`` (e.g. `turn_key_tag`).
    """
    if view is None:
        return functools.partial(conditional, also=also)

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Response:
        tag = etag_for(current_index(), also() if also is not None else "")
        unchanged = not_modified(tag)
        if unchanged is not None:
            return unchanged
        response = make_response(view(*args, **kwargs))
        if response.status_code == 200:
            if request.if_none_match.star_tag:
                return _not_modified(tag)
            response.set_etag(tag)
            response.headers.setdefault("Cache-Control", "no-cache")
        return response

    return wrapper
