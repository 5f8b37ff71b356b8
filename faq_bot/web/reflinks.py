"""Where a cross reference and a backlink lead: one place for the ruling page and the API.

A reference that names a paragraph of its target (a table it captions, `faq_bot.links`)
leads to that paragraph's anchor; a backlink opens the referring entry at the paragraph
with the reference, past the first (an index built before the build kept that paragraph
links the entry's top). A reference that resolved to no entry leads nowhere (None).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import url_for

from faq_bot.links import paragraph_index
from faq_bot.web.render import paragraph_anchor

if TYPE_CHECKING:
    from faq_bot.index import EntryRecord

__all__ = ["backlink_url", "entry_url", "link_url", "target_paragraph"]


def entry_url(entry_id: str, paragraph: int | None = None) -> str:
    """The ruling page of `entry_id` (by `url_for`), at paragraph `paragraph`'s anchor
    when one is given."""
    url = url_for("pages.entry", entry_id=entry_id)
    return url if paragraph is None else f"{url}#{paragraph_anchor(paragraph)}"


def target_paragraph(record: EntryRecord, paragraph: Any) -> int | None:
    """`paragraph` when it is one of `record`'s paragraphs (0-based), else None."""
    n = paragraph_index(paragraph)
    return n if n is not None and 0 <= n < len(record.plain_paragraphs) else None


def link_url(target: EntryRecord | None, paragraph: Any = None) -> str | None:
    """Where a cross reference to `target` leads (at the paragraph it names when `target`
    has it), or None for a reference that resolved to no entry."""
    if target is None:
        return None
    return entry_url(target.id, target_paragraph(target, paragraph))


def backlink_url(back: dict[str, Any], source: EntryRecord | None) -> str:
    """Where the backlink `back` (``id``, ``paragraph``) leads; `source` is the referring
    entry (None: not in this index, its top)."""
    return entry_url(back["id"], (back.get("paragraph") or None) if source else None)
