"""What search engines read: ``/robots.txt`` and ``/sitemap.xml``.

A ruling is found by a web search and linked in a forum, so the sitemap lists the address
of every page worth finding: the start page, each document and each entry, each by its
canonical id (an alias would be a redirect, which a sitemap must not list). robots.txt
keeps crawlers out of the JSON API and the chat's generated answers and names the
sitemap; the other pages not to be found say noindex. Both are built from the current
index (a few KB) and revalidate by ETag like every page.

Under a path (``SCRIPT_NAME=/faq``) a crawler reads robots.txt only at the host's root,
so ``/faq/robots.txt`` then holds the lines to copy into the host's own (docs/web.md).
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from flask import Blueprint, Response, request, url_for

from faq_bot.web.common import base_url, conditional, current_index, host_url
from faq_bot.web.openapi import describe, error_responses

bp = Blueprint("crawl", __name__)

# paths below the app's root a crawler is kept off: the JSON API, and the chat's answers
# (each computed per request). Search results and the offline shell are crawled and say
# noindex themselves: a blocked page's noindex is never read, so a forum's link to it could
# be indexed as a bare address.
NOT_CRAWLED = ("/api/", "/ask")
SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


@bp.get("/robots.txt")
@conditional
def robots() -> Response:
    root = request.script_root
    lines = ["User-agent: *", *(f"Disallow: {root}{path}" for path in NOT_CRAWLED)]
    lines.append(f"Sitemap: {base_url()}/sitemap.xml")
    return Response("\n".join(lines) + "\n", mimetype="text/plain")


def sitemap_paths() -> list[str]:
    """The paths (with the app's root) of every page the sitemap lists, start page first,
    then each document and its entries in document order."""
    index = current_index()
    paths = [url_for("pages.home")]
    for document in index.documents:
        paths.append(url_for("pages.document", doc_id=document["id"]))
        paths.extend(
            url_for("pages.entry", entry_id=record.id)
            for record in index.iter_entries(document["id"])
        )
    return paths


@bp.get("/sitemap.xml")
@conditional
def sitemap() -> Response:
    host = host_url()
    urls = "".join(f"<url><loc>{escape(host + path)}</loc></url>\n" for path in sitemap_paths())
    xml = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SITEMAP_NS}">\n{urls}</urlset>\n'
    )
    return Response(xml, mimetype="application/xml")


describe(
    "/robots.txt",
    {
        "get": {
            "summary": "Regeln für Suchmaschinen (nennt die Sitemap)",
            "responses": {
                "200": {"description": "Text", "content": {"text/plain": {}}},
                **error_responses(304),
            },
        }
    },
)
describe(
    "/sitemap.xml",
    {
        "get": {
            "summary": "Sitemap: Startseite, jedes Dokument und jeder Eintrag (kanonische ID)",
            "responses": {
                "200": {"description": "Sitemap (XML)", "content": {"application/xml": {}}},
                **error_responses(304, 503, html=True),
            },
        }
    },
)
