"""The JSON API: search, title suggestions, one entry, health.

Errors are JSON ``{"error": "<code>", "detail": "<German text>"}`` (see
`faq_bot.web.errors`). Shapes are described in `faq_bot.web.openapi`.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from werkzeug.exceptions import NotFound

from faq_bot.dense import dense_mode
from faq_bot.embed import embedding_model
from faq_bot.text import entry_path, read_as, said_back
from faq_bot.web.api_links import entry_links, hit_links
from faq_bot.web.common import (
    EntryMoved,
    IndexUnavailable,
    bad_request,
    base_url,
    check_flag,
    check_int,
    check_query,
    conditional,
    current_index,
    entry_or_redirect,
    host_url,
    rooted,
)
from faq_bot.web.render import paragraph_anchor

bp = Blueprint("api", __name__)


@bp.get("/api/search")
@conditional
def search() -> Any:
    from faq_bot.names import category_outside, known_category
    from faq_bot.query import QueryError
    from faq_bot.search import search as run_search

    index = current_index()
    query = check_query(request.args.get("q"), required=True)
    n = check_int(
        request.args.get("n"),
        name="n",
        default=10,
        low=1,
        high=int(current_app.config["API_MAX_HITS"]),
    )
    doc = index.document_id(request.args.get("doc"))
    category = known_category(index, request.args.get("category"))
    outside = category_outside(index, category, doc)
    if outside:  # a filter that can only find nothing: a client's mistake to fix
        raise bad_request(outside)
    mode = (request.args.get("mode") or "").strip() or None
    exact = check_flag(request.args.get("genau"), name="genau")  # as the search page reads it
    try:
        result = run_search(
            index, query, n=n, doc=doc, category=category, mode=mode, correct=not exact
        )
    except QueryError as exc:
        raise bad_request(str(exc)) from None
    base = base_url()
    data = result.to_json()  # with each hit's links added
    data["hits"] = [hit_links(index, hit.to_json(), base) for hit in result.hits]
    return jsonify(rooted(data))


@bp.get("/api/suggest")
@conditional
def suggest() -> Any:
    """Titles (headwords and aliases) starting with or containing `q`, for the datalist."""
    from faq_bot.suggest import distinct_titles, suggest_titles

    index = current_index()
    prefix = check_query(request.args.get("q"), required=False)
    n = check_int(request.args.get("n"), name="n", default=8, low=1, high=20)
    doc = index.document_id(request.args.get("doc"))  # a document page's own search box
    if request.args.get("format") not in (None, "", "json", "opensearch"):
        raise bad_request("Der Parameter „format“ muss „json“ oder „opensearch“ sein.")
    suggestions = (
        [_suggestion_json(s) for s in suggest_titles(index, prefix, n=n, doc=doc)] if prefix else []
    )
    if request.args.get("format") == "opensearch":  # the browser's search-box suggestions
        body = [prefix, distinct_titles([s["title"] for s in suggestions])]
        return current_app.response_class(
            json.dumps(body, ensure_ascii=False), mimetype="application/x-suggestions+json"
        )
    return jsonify(query=prefix, suggestions=rooted(suggestions))


def _suggestion_json(item: Any) -> dict:
    if isinstance(item, str):
        return {"title": item}
    if isinstance(item, dict):
        return item
    if isinstance(item, tuple | list):
        title, entry_id = item[0], item[1] if len(item) > 1 else None
        out = {"title": title}
        if entry_id:
            out |= {"id": entry_id, "url": entry_path(entry_id)}
        return out
    return {"title": str(getattr(item, "title", item))}


@bp.get("/api/entries/<entry_id>")
@conditional
def entry(entry_id: str) -> Any:
    index = current_index()
    try:
        record = entry_or_redirect(index, entry_id, "api.entry")
    except NotFound as exc:
        return _not_found(entry_id, exc)
    except EntryMoved as exc:  # another name of an entry: the 301 with a JSON body
        return _moved(entry_id, exc.canonical, exc.location)
    data = record.to_json()
    doc = index.document(record.doc) or {}
    prev, nxt = index.neighbours(record.id)
    data["url"] = url_for("pages.entry", entry_id=record.id)
    data["paragraph_urls"] = [
        f"{data['url']}#{paragraph_anchor(i)}" for i in range(len(record.paragraphs))
    ]
    data |= entry_links(index, record, data["url"], base_url())
    data["document"] = {
        k: doc.get(k)
        for k in ("id", "title", "game", "kind", "date", "date_text", "notes", "precedence")
    }
    data["previous"] = prev.id if prev else None
    data["next"] = nxt.id if nxt else None
    return jsonify(data)


def _moved(entry_id: str, canonical: str, location: str) -> Response:
    """The 301 of an alias id, title slug or abbreviation (`entry_or_redirect`) with a JSON
    body: a German message and the canonical entry's id and links (a client that does not
    follow redirects learns where the entry is)."""
    record = current_index().entry(canonical)
    title = record.title if record is not None else canonical
    path = url_for("pages.entry", entry_id=canonical)
    if read_as(entry_id) == canonical:  # the id with a bidi control or spaces
        message = f"{said_back(entry_id)} ist die ID des Eintrags „{title}“ ohne diese Zeichen."
    else:
        message = f"{said_back(entry_id)} ist ein anderer Name des Eintrags „{title}“; "
        message += f"seine ID ist „{canonical}“."
    response = jsonify(
        message=message,
        id=canonical,
        title=title,
        url=path,
        absolute_url=host_url() + path,  # `path` from url_for holds the script root
        api_url=location,
    )
    response.status_code = 301
    response.headers["Location"] = location
    response.headers["Cache-Control"] = "no-cache"  # as `moved`: a later build may differ
    return response


def _not_found(entry_id: str, exc: NotFound) -> Response:
    """The 404 of an unknown id in the error shape, with ``suggestions``: the entries the
    ruling page's 404 (``/entry/<id>``) lists, from the same search of the id's words."""
    from faq_bot.web.errors import detail_of, not_found_hits, path_words

    index, base = current_index(), base_url()
    hits = not_found_hits(path_words(entry_path(entry_id)), entry_id)
    response = jsonify(
        error="not_found",
        detail=detail_of(exc),
        suggestions=rooted([hit_links(index, hit.to_json(with_text=False), base) for hit in hits]),
    )
    response.status_code = 404
    return response


@bp.get("/healthz")
def healthz() -> Any:
    """200 when the index answers a real query, 503 (JSON error) otherwise.

    Health means "can answer a question": the check searches the title of the
    first entry and wants it back, so a build whose files are partial or
    corrupted takes the node out of a load balancer.
    """
    from faq_bot.search import search as run_search

    index = current_index()
    try:
        probe = next(index.iter_entries()).title
        found = run_search(index, probe, n=1).hits
    except Exception as exc:  # any failure of the real query: unavailable, not a bug
        current_app.logger.exception("health check query failed")
        raise IndexUnavailable(
            description="Der Suchindex ist beschädigt und beantwortet keine Anfrage. "
            "Bitte `faq-bot index` ausführen."
        ) from exc
    if not found:
        raise IndexUnavailable(
            description="Der Suchindex findet nichts, nicht einmal einen Titel. "
            "Bitte `faq-bot index` ausführen."
        )
    response = jsonify(
        status="ok",
        index=index.version,
        built_at=getattr(index, "built_at", None),
        documents=len(index.documents),
        search=dense_mode(index),
        **embedding_model(),
    )
    response.headers["Cache-Control"] = "no-store"
    return response
