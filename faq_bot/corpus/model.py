"""Plain immutable values the whole pipeline passes around."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from faq_bot.corpus.markup import drop_emphasis, drop_tags, table_apart, table_row_cells
from faq_bot.text import squash

Markup = Literal["text", "markdown", "html"]

_HEADING = re.compile(r"^#{1,6}\s+", re.M)


def plain(text: str, markup: Markup = "text") -> str:
    """The searchable plain text of a paragraph written in `markup`.

    HTML tags and markdown emphasis are dropped, entities decoded, and every
    run of whitespace (no-break spaces included) collapsed to one space.
    """
    import html as _html

    if markup == "html":
        text = drop_tags(text, " ")
        text = _html.unescape(text)
    elif markup == "markdown":
        # Markdown may carry inline HTML (e.g. <u>…</u>); search never sees tags.
        text = drop_emphasis(drop_tags(text))
        text = _HEADING.sub("", text)
    return squash(text)


def table_rows(text: str, markup: Markup = "text") -> tuple[tuple[str, ...], ...] | None:
    """The rows of a paragraph that is a table: two or more tab-separated lines (the
    rulebooks' tables) or, in HTML, one ``<table>`` and nothing else (`paragraph_table`
    finds one after prose too: the quick-reference sheet's wound roll); each cell as plain
    text, padded to the widest row, the header row first; None for any other paragraph
    (its plain text runs the cells together: "Schiffstyp Bewegung …")."""
    if markup == "html":
        cells = table_row_cells(text)
        if cells is None or len(cells) < 2:
            return None
        rows = [[plain(cell, markup) for cell in row] for row in cells]
    else:
        lines = [line for line in text.split("\n") if line.strip()]
        if len(lines) < 2 or not all("\t" in line for line in lines):
            return None
        rows = [[plain(cell, markup) for cell in line.split("\t")] for line in lines]
    width = max(len(row) for row in rows)
    return tuple(tuple(row + [""] * (width - len(row))) for row in rows)


class ShownTable(NamedTuple):
    """A paragraph shown as a table (`paragraph_table`)."""

    lead: str  # the plain text of the prose before the table in its paragraph ("": none)
    rows: tuple[tuple[str, ...], ...]  # `table_rows`, the header row first


def paragraph_table(text: str, markup: Markup = "text") -> ShownTable | None:
    """A paragraph that is a table (`table_rows`) or, in HTML, prose and then one table
    (the quick-reference sheet's wound roll), as the table's rows and the prose before it;
    None for any other paragraph."""
    rows = table_rows(text, markup)
    if rows is not None:
        return ShownTable("", rows)
    if markup != "html":
        return None
    parts = table_apart(text)
    rows = table_rows(parts[-1], markup) if len(parts) == 2 else None
    return ShownTable(plain(parts[0], markup), rows) if rows is not None else None


class EntryText:
    """What follows from an entry's fields: its whole plain text and its name.

    Shared by `Entry` (which derives `plain_paragraphs` from its sources) and the
    index's `EntryRecord` (which stores them).
    """

    title: str
    aliases: tuple[str, ...]

    @property
    def plain_paragraphs(self) -> tuple[str, ...]:
        raise NotImplementedError

    @property
    def text(self) -> str:
        """The entry's whole plain text, paragraphs joined by newlines."""
        return "\n".join(self.plain_paragraphs)

    @property
    def name(self) -> str:
        """The title without its category, e.g. "227-Pfund Bombe"."""
        return self.aliases[0] if self.aliases else self.title


@dataclass(frozen=True)
class Entry(EntryText):
    """One ruling a player can land on: a FAQ headword, a rulebook section, a table row.

    `id` is stable and is the entry's URL slug (`/entry/<id>`): it depends on the
    entry's own title (and heading path) only, never on its position.
    `paragraphs` keep the source form (markdown or HTML where the source has
    markup, see `markup`); `plain_paragraphs` is what search sees.
    """

    id: str
    doc: str
    title: str
    paragraphs: tuple[str, ...]
    position: int
    aliases: tuple[str, ...] = ()
    category: str | None = None
    section: str | None = None  # heading path above the entry, e.g. "BEWEGUNGSPHASE"
    markup: Markup = "text"
    alias_ids: tuple[str, ...] = ()  # other slugs that redirect to `id`

    @property
    def plain_paragraphs(self) -> tuple[str, ...]:
        return tuple(plain(p, self.markup) for p in self.paragraphs)


@dataclass(frozen=True)
class Document:
    """A source document with its manifest metadata and its entries in order."""

    id: str
    file: str
    title: str
    game: str
    kind: Literal["faq", "rules", "reference"]
    language: str
    splitter: str
    id_prefix: str = ""
    date: str | None = None
    date_text: str | None = None
    notes: str = ""
    precedence: bool = False
    preamble: tuple[str, ...] = ()  # text before the first entry (title, dates, notes)
    entries: tuple[Entry, ...] = field(default=(), repr=False)
