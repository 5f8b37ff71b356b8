"""Absolute links and citations for what the JSON API hands out.

A forum bot embeds a ruling from the API alone: beside each relative ``url`` (kept as
``../shared/spec/interfaces.md`` names it) a hit, an entry and an answer's sources carry

- ``absolute_url``: the ruling page on the request's host (behind a proxy its forwarded
  host, `faq_bot.web.create_app`), as an answer's citation has it;
- ``paragraph_url``: the absolute permalink of the paragraph
  (`faq_bot.index.EntryRecord.permalink`, `faq_bot.text.paragraph_path`)
  where one is known (a hit's best paragraph), else null;
- ``citation`` (`faq_bot.text.citation`, with the absolute URL) and ``date_text`` (the
  document's Stand, or null).

An entry gives ``paragraph_permalinks`` (absolute) beside its ``paragraph_urls``, and each
of its ``links`` and ``backlinks`` a ``url`` and ``absolute_url``: where the ruling page
links it (`faq_bot.web.reflinks`; null for a reference that resolved to no entry).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from faq_bot.text import citation
from faq_bot.web.common import base_url, host_url
from faq_bot.web.reflinks import backlink_url, link_url

if TYPE_CHECKING:
    from faq_bot.index import EntryRecord, Index

__all__ = ["base_url", "entry_links", "hit_links"]


def hit_links(index: Index, hit: dict[str, Any], base: str) -> dict[str, Any]:
    """`hit` (a hit's JSON: ``id``, ``doc``, ``title``, ``url``, ``paragraph``) with
    ``absolute_url``, ``paragraph_url``, ``citation`` and ``date_text``."""
    doc = index.document(hit.get("doc") or "") or {}
    absolute = base + hit["url"]
    paragraph = hit.get("paragraph")
    record = index.entry(hit["id"]) if paragraph is not None else None
    permalink = None
    if record is not None and paragraph is not None:
        permalink = record.permalink(paragraph)
    return {
        **hit,
        "absolute_url": absolute,
        "paragraph_url": base + permalink if permalink else None,
        "citation": citation(hit["title"], doc, absolute),
        "date_text": doc.get("date_text"),
    }


def entry_links(index: Index, record: EntryRecord, path: str, base: str) -> dict[str, Any]:
    """The link fields of an entry's JSON (`path`: its page as `url_for` gives it, with the
    app's script root; `base`: `base_url`, for the permalinks, which have none):
    ``absolute_url``, ``citation``, ``date_text``, ``paragraph_permalinks``, and the
    ``links`` and ``backlinks`` with their ``url`` and ``absolute_url``."""
    doc = index.document(record.doc) or {}
    host = host_url()
    absolute = host + path
    return {
        "absolute_url": absolute,
        "citation": citation(record.title, doc, absolute),
        "date_text": doc.get("date_text"),
        "paragraph_permalinks": [
            f"{base}{record.permalink(i)}" for i in range(len(record.plain_paragraphs))
        ],
        "links": [
            _with_url(
                link,
                link_url(index.entry(link.get("target") or ""), link.get("target_paragraph")),
                host,
            )
            for link in record.links
        ],
        "backlinks": [
            _with_url(back, backlink_url(back, index.entry(back["id"])), host)
            for back in record.backlinks
        ],
    }


def _with_url(link: dict[str, Any], url: str | None, host: str) -> dict[str, Any]:
    """`link` with the path `url` (`url_for`'s, script root included) and it on `host`."""
    return {**link, "url": url, "absolute_url": host + url if url else None}
