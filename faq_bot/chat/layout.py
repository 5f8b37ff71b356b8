"""How an entry's paragraphs hang together, read from their text alone: headings,
sub-headings, list lead-ins and their items. `faq_bot.chat.passage` joins a passage to
what belongs to it by these (`with_neighbours`).

``with_list(record, i, text)``, ``item_in_list(record, j, i, text)``
    A lead-in with as many of its list's items as fit in `PASSAGE_CHARS`; an item shown
    in its list as its lead-in shows it.
``lead_in_of(record, i)``, ``colon_lead_in(text)``, ``sub_heading(paragraphs, i)``,
``heading_like(text)``
    An item's lead-in, a lead-in ending in ":", a sub-heading of the next paragraph, and
    the narrower heading rule the passage model's ``heading`` feature was fitted with.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from faq_bot.corpus.model import Markup, paragraph_table
from faq_bot.index import EntryRecord

__all__ = [
    "CLOSING_QUOTES",
    "PASSAGE_CHARS",
    "colon_lead_in",
    "heading_like",
    "item_in_list",
    "lead_in_of",
    "sub_heading",
    "with_list",
]

PASSAGE_CHARS = 700  # a passage with its lead-in or list neighbour stays this short
HEADING_LIKE = 40  # characters: a shorter paragraph ending in ":" or framed by "-" is a heading
# characters: a shorter paragraph without closing punctuation is a sub-heading of the
# next ("Beispiel „Kein Spieler hat mehr Einheiten im Gebiet“" has 52)
SUBHEADING_CHARS = 60
SENTENCE_END = (".", "!", "?", ";", ")", "]", "…")
CLOSING_QUOTES = "\"“”„»«'’"  # noqa: RUF001 - the quote marks themselves
_LIST_MARK = re.compile(r"(?:[-–•*]|\d{1,3}[.)])\s")  # noqa: RUF001 - the dash itself


def heading_like(text: str) -> bool:
    stripped = text.strip()
    return len(stripped) < HEADING_LIKE and (
        stripped.endswith(":") or (stripped.startswith("-") and stripped.endswith("-"))
    )


def _list_item(text: str) -> bool:
    """A paragraph that starts like a list item: a bullet or a number ("- ", "• ", "1. ",
    "2) ")."""
    return _LIST_MARK.match(text.strip()) is not None


def with_list(record: EntryRecord, i: int, text: str) -> tuple[str, int, int] | None:
    """`text`, paragraph `i`, with the list after it when it leads one in (`_lists`):
    (the text, how many items it shows, how many it leaves out); None when it leads in
    no list. Whole items are shown as long as they fit within `PASSAGE_CHARS` (fifteen
    phases do not; a long lead-in may show none); the count of those left out is shown
    with a link to them: a list cut short does not pass for the whole."""
    items = _lists(record.plain_paragraphs, record.paragraphs, record.markup)[0].get(i)
    if not items:
        return None
    shown: list[str] = []
    size, left = len(text), 0
    for para in items:
        if left or size + 1 + len(para) > PASSAGE_CHARS:
            left += 1
            continue
        shown.append(para)
        size += 1 + len(para)
    return "\n".join([text, *shown]), len(shown), left


def item_in_list(
    record: EntryRecord, j: int, i: int, text: str
) -> tuple[str, int, tuple[int, int] | None] | None:
    """Item paragraph `i` (`text`) shown in its list as lead-in `j` shows it (`with_list`:
    the lead-in and as many items as fit): (that text, where `text` begins in it, ``rest``),
    or None when the items shown do not reach item `i` (then the item is shown with its
    lead-in alone). A judge sees the items before the one that answers, not a "…"."""
    listed = with_list(record, j, record.plain_paragraphs[j].strip())
    items = _lists(record.plain_paragraphs, record.paragraphs, record.markup)[0].get(j, ())
    k = i - j - 1  # the item's place in its list
    if listed is None or not 0 <= k < listed[1] or items[k] != text:  # (items are stripped)
        return None
    shown, count, left = listed
    begin = len("\n".join([record.plain_paragraphs[j].strip(), *items[:k]])) + 1
    rest = (j + 1 + count, left) if left else None
    return shown, begin, rest


def _list_after(paras: Sequence[str], i: int) -> list[str]:
    """The items (stripped) of the list after paragraph `i` when it is a lead-in (ends in
    ":" or not like a sentence: "Ein Befehl für eine Gruppe besteht aus"; no list item
    itself); none otherwise. The list: the paragraphs after it one after another that
    start like list items, or, after a lead-in ending in ":", that are short lines ("1
    Flieger-Einheit"); its first item decides which kind (a short line after marked items
    is a sub-heading: "Beispiel"); a heading framed by dashes ends it ("- ungerade
    Spieleranzahl (optional) -")."""
    text = paras[i]
    colon = colon_lead_in(text)
    if not text.strip() or not (colon or not _closed(text)) or _list_item(text):
        return []
    following = paras[i + 1 :]
    marked = bool(following) and _list_item(following[0])  # bullets or numbers
    items: list[str] = []
    for para in following:
        if not (_list_item(para) if marked else colon and _short_line(para)):
            break
        if _framed(para):  # the next part's heading, not an item
            break
        items.append(para.strip())
    return items


def _framed(text: str) -> bool:
    """A short heading framed by dashes ("- ungerade Spieleranzahl (optional) -")."""
    stripped = text.strip()
    return 2 < len(stripped) < HEADING_LIKE and stripped[0] == stripped[-1] == "-"


@functools.lru_cache(maxsize=1024)
def _lists(
    paras: tuple[str, ...], sources: tuple[str, ...], markup: Markup
) -> tuple[dict[int, tuple[str, ...]], dict[int, int]]:
    """The lists of an entry, read once per entry: each lead-in's items (`_list_after`),
    and each item's lead-in (the nearest: "Land" for "- Infanterie" in "Einheiten:",
    "Land", "- Infanterie", "See", …). A table is no
    lead-in (the ships' recruitment table before its footnote "* Eine Großstadt …"): it
    is shown as a table, alone."""
    items: dict[int, tuple[str, ...]] = {}
    leads: dict[int, int] = {}
    for j in range(len(paras)):
        found = _list_after(paras, j)
        if not found or (j < len(sources) and paragraph_table(sources[j], markup)):
            continue
        items[j] = tuple(found)
        for k in range(len(found)):
            leads[j + 1 + k] = j  # a nested list's own lead-in, nearer, wins
    return items, leads


def lead_in_of(record: EntryRecord, i: int) -> int | None:
    """The paragraph that leads in the list whose item paragraph `i` is ("Als solche
    werden Länder bezeichnet, …" for the seventh country of its list), or None."""
    return _lists(record.plain_paragraphs, record.paragraphs, record.markup)[1].get(i)


def colon_lead_in(text: str) -> bool:
    """A lead-in of the list item after it ("Dabei gilt:")."""
    return text.rstrip().endswith(":")


def _closed(text: str) -> bool:
    """Whether `text` ends like a sentence (closing quotes aside)."""
    return text.rstrip().rstrip(CLOSING_QUOTES).endswith(SENTENCE_END)


def _short_line(text: str) -> bool:
    stripped = text.strip()
    return 0 < len(stripped) <= SUBHEADING_CHARS and not _closed(stripped)


def sub_heading(paragraphs: Sequence[str], i: int) -> bool:
    """Whether paragraph `i` is a sub-heading of the next ("Beispiel „China“",
    "Kriegsschiffe", "2) Orte"): a short line without closing punctuation between
    running text, that is not after a lead-in ending in ":" nor after another short
    line (those are list items: "1 Flieger-Einheit") and that a paragraph of
    sentences follows (not another short line: "BATTLEMIST", "THE SAILS OF WAR").
    For display only: the passage model's ``heading`` feature keeps `heading_like`,
    the narrower rule it was fitted with."""
    if not _short_line(paragraphs[i]) or i + 1 >= len(paragraphs):
        return False
    if not _closed(paragraphs[i + 1]) or _short_line(paragraphs[i + 1]):
        return False
    before = paragraphs[i - 1].strip() if i > 0 else ""
    return not (colon_lead_in(before) or _short_line(before))
