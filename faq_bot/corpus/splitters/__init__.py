"""Splitters: one per document shape, chosen by the manifest's `splitter` field.

A splitter is a function ``split(text, *, doc_id, id_prefix) -> Split``. It cuts
the text of one document into entries the way the document's own structure
says, and returns the text before the first entry as the preamble. Adding a
document shape means adding a module here and a line to `_registry`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import NamedTuple, Protocol

from faq_bot.corpus.model import Entry, Markup
from faq_bot.text import slugify  # noqa: F401  (re-exported)


class Split(NamedTuple):
    preamble: tuple[str, ...]
    entries: tuple[Entry, ...]


class Splitter(Protocol):
    def __call__(self, text: str, *, doc_id: str, id_prefix: str) -> Split: ...


def unique_id(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3`, ... when an earlier entry already holds it."""
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    taken.add(candidate)
    return candidate


def prefixed(id_prefix: str, slug: str) -> str:
    return f"{id_prefix}-{slug}" if id_prefix else slug


class EntryMaker:
    """Makes one document's entries in order, the part every splitter shares.

    Ids are prefixed slugs, unique within the document (`unique_id`); alias ids
    are the prefixed slugs of `alias_sources` other than the id, without
    repeats; positions count up from 0.
    """

    def __init__(self, doc_id: str, id_prefix: str, markup: Markup) -> None:
        self.doc_id = doc_id
        self.id_prefix = id_prefix
        self.markup: Markup = markup
        self.taken: set[str] = set()
        self.entries: list[Entry] = []

    def add(
        self,
        title: str,
        paragraphs: Iterable[str],
        *,
        id_source: str,
        alias_sources: Iterable[str] = (),
        aliases: tuple[str, ...] = (),
        category: str | None = None,
        section: str | None = None,
    ) -> Entry:
        entry_id = unique_id(prefixed(self.id_prefix, slugify(id_source)), self.taken)
        alias_ids = (prefixed(self.id_prefix, slugify(a)) for a in alias_sources)
        entry = Entry(
            id=entry_id,
            doc=self.doc_id,
            title=title,
            paragraphs=tuple(paragraphs),
            position=len(self.entries),
            aliases=aliases,
            category=category,
            section=section,
            markup=self.markup,
            alias_ids=tuple(dict.fromkeys(a for a in alias_ids if a != entry_id)),
        )
        self.entries.append(entry)
        return entry


LIST_ITEM = re.compile(r"^\s*[-•*]\s+")  # a markdown list line: "- …", "• …", "* …"
_HEADING_PUNCT = set(".,:;!?")


def short_heading(line: str, *, max_words: int, max_chars: int = 40) -> bool:
    """Whether `line` looks like a bare heading of a rules text.

    It has at most `max_words` words and `max_chars` characters, starts with a
    capital letter, has no sentence punctuation and is not a list item.
    """
    line = line.strip()
    return (
        0 < len(line) <= max_chars
        and len(line.split()) <= max_words
        and line[0].isupper()
        and not _HEADING_PUNCT & set(line)
        and not LIST_ITEM.match(line)
    )


def _registry() -> dict[str, Callable[..., Split]]:
    from faq_bot.corpus.splitters import faq, headed, numbered, prose, reference_table

    return {
        "faq": faq.split,
        "numbered": numbered.split,
        "headed": headed.split,
        "prose": prose.split,
        "reference_table": reference_table.split,
    }


def get_splitter(name: str) -> Callable[..., Split]:
    registry = _registry()
    try:
        return registry[name]
    except KeyError:
        raise KeyError(", ".join(sorted(registry))) from None  # the known ones
