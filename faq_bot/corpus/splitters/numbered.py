"""Splitter for rulebooks with decimal-numbered sections and quick-reference pages at the end.

Document shape (``corpus/002_…``, The Sails of War), blocks separated by blank lines::

    THE SAILS OF WAR / Spielanleitung              <- preamble
    1.0 Einleitung                                 <- numbered section
    Danke für den Kauf … **umfassende Variante** …
    1.1 Spielziel von The Sails of War             <- subsection of 1.0
    …
    6.2 Allgemeine Regeln für Schiffe
    Tabelle 1.0 Schiffskosten u. Bewegung
    Handelsschiff<TAB>2<TAB>4 H oder E<TAB>…      <- a table: one paragraph of its section
    …
    10.0 Besondere Siegbedingungen
    Fragen zum Spiel                               <- back matter: unnumbered pages
    Rundenablauf / Truppensammlungstabelle / …     <- quick-reference pages
    SUCHCOUNTERTABELLE
    Dungeon - Verlies (Dieser Counter bleibt …)    <- one counter: an item of the page
    EREIGNISTABELLE
    Würfelerggebnis Ereignis
    01 – 25 Kein Ereignis                          <- one event: an item of the page
    Der Mond steht schlecht …

Granularity:

* One entry per numbered section ("N.M Title" alone on the first line of a
  block, numbers strictly increasing, so table rows like "1 - 4<TAB>0", list
  items like "1) …" or "1. Plazierung …" and a stray "3.5 …" inside a paragraph
  never start a section). Everything up to the next section is its paragraphs,
  one per block, tables and lists included. "N.M" with M > 0 gets the "N.0"
  section as its `section`. Unnumbered lines inside a section ("Starteinheiten",
  "Transportschiffe") stay paragraphs: they are too much like ordinary short
  lines to be cut on safely, and the section is what the rulebook cites.
* After the last numbered section the rulebook has unnumbered back matter.
  There a block is a page heading when it is a single short line (at most 60
  characters, starting with a capital letter or a number range, without
  sentence punctuation, ``@``, ``/`` or ``*``) followed by a block that is not a
  heading itself and contains running text (a lower-case letter). That rule
  keeps "Übersetzung Ferdinand Köther" (followed by a heading) and the page
  decoration "BATTLEMIST" / "THE SAILS OF WAR" (no running text) as paragraphs.
  The first such heading ends the last numbered section.
* Back-matter headings that are items of a table page become entries of their
  own with the page as `section`: a number range ("26 – 32 Waldbrände", one
  event of the event table) or a name followed by parenthesised remarks
  ("Dungeon - Verlies (Dieser Counter bleibt auf dem Spielfeld)", one search
  counter). The remarks become the entry's first paragraph, the title is the
  name.

Titles keep the source wording ("1.1 Spielziel von The Sails of War"); the first
alias is the name without its number or range, and "English – Deutsch" names
get both halves as aliases (German first). Ids are slugs of that name, with the
page title in front for items ("sow-ereignistabelle-waldbraende"), so they
survive renumbering; the numbered slug is kept as an alias id. Paragraphs are
markdown (the source uses ``**bold**`` and ``*italics*``). A block that ends without
closing punctuation before one that starts in lower case is one sentence broken by a
blank line: the two are one paragraph.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from faq_bot.corpus.splitters import EntryMaker, Split

_SECTION = re.compile(r"^[ \t]*(\d{1,3})\.(\d{1,3})[ \t]+(\S.*?)\s*$")
_RANGE = re.compile(r"^(\d+)\s*[–—-]\s*(\d+)\s+(\S.*)$")
_TRAILING_REMARK = re.compile(r"\s+\(([^()]*)\)\s*$")
_NAME_PARTS = re.compile(r"\s+[–—-]\s+")
_NOT_IN_HEADING = set(".:;!?@/*\t")
MAX_HEADING = 60


@dataclass
class _Draft:
    title: str
    slug_source: str
    aliases: tuple[str, ...] = ()
    alias_slug_sources: tuple[str, ...] = ()
    section: str | None = None
    paragraphs: list[str] = field(default_factory=list)


def _blocks(text: str) -> list[str]:
    """Runs of non-blank lines, each joined by newlines with trailing spaces removed."""
    blocks, current = [], []
    for line in text.split("\n"):
        if line.strip():
            current.append(line.rstrip())
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    return blocks


# a paragraph that ends mid-sentence (no closing punctuation) before one that starts in lower
# case: one sentence the source broke with a blank line ("Jede Küstengewässerzone hat" /
# "zwei durch einen Schrägstrich … getrennte Zahlen"); German starts no sentence in lower case
_OPEN_END = re.compile(r"[^.!?:;)\]\"“”*\s]\s*$")
_LOWER_START = re.compile(r"[a-zäöüß]")


def _rejoined(paragraphs: list[str]) -> list[str]:
    """`paragraphs` with each sentence the source broke across two of them made whole again
    (joined by a line break, as the lines within a paragraph are)."""
    out: list[str] = []
    for paragraph in paragraphs:
        if out and _OPEN_END.search(out[-1]) and _LOWER_START.match(paragraph):
            out[-1] = f"{out[-1]}\n{paragraph}"
        else:
            out.append(paragraph)
    return out


def _numbered(block: str) -> tuple[int, int, str] | None:
    first = block.split("\n", 1)[0]
    if "\t" in first or len(first) > 100:  # before the pattern: its time grows with the line's
        return None
    m = _SECTION.match(first)
    if not m or not m.group(3)[0].isalpha():
        return None
    return int(m.group(1)), int(m.group(2)), m.group(3)


def _heading_core(block: str) -> tuple[str, str] | None:
    """(name, remarks) when `block` has the form of a back-matter heading, else None."""
    if "\n" in block:
        return None
    line = block.strip()
    core = line
    while (m := _TRAILING_REMARK.search(core)) and m.start() > 0:
        core = core[: m.start()].rstrip()
    remarks = line[len(core) :].strip()
    if not core or len(core) > MAX_HEADING or _NOT_IN_HEADING & set(core):
        return None
    if not (core[0].isupper() or _RANGE.match(core)):
        return None
    return core, remarks


def _back_matter_headings(blocks: list[str]) -> list[bool]:
    """Which blocks are headings: a heading is followed by a non-heading with running text."""
    heading = [False] * len(blocks)
    for i in range(len(blocks) - 2, -1, -1):
        nxt = blocks[i + 1]
        heading[i] = (
            _heading_core(blocks[i]) is not None
            and not heading[i + 1]
            and any(c.islower() for c in nxt)
        )
    return heading


def _name_aliases(name: str) -> tuple[str, ...]:
    parts = [p.strip() for p in _NAME_PARTS.split(name) if p.strip()]
    return tuple(reversed(parts)) if len(parts) > 1 else ()


def split(text: str, *, doc_id: str, id_prefix: str) -> Split:
    blocks = _blocks(text)
    starts: list[int] = []
    last: tuple[int, int] | None = None
    for i, block in enumerate(blocks):
        num = _numbered(block)
        if num and (last is None or num[:2] > last):
            starts.append(i)
            last = num[:2]
    if not starts:
        return Split(tuple(blocks), ())

    preamble = tuple(blocks[: starts[0]])
    drafts: list[_Draft] = []
    chapters: dict[int, str] = {}
    tail_start = starts[-1] + 1
    heading = _back_matter_headings(blocks[tail_start:])
    end_of_sections = next(
        (tail_start + k for k, h in enumerate(heading) if h),
        len(blocks),
    )
    bounds = [*starts, end_of_sections]
    for start, stop in zip(bounds, bounds[1:], strict=False):
        block = blocks[start]
        first, _, rest = block.partition("\n")
        major, minor, name = _numbered(block)  # type: ignore[misc]
        if minor == 0:
            chapters[major] = first.strip()
        draft = _Draft(
            title=first.strip(),
            slug_source=name,
            aliases=(name,),
            alias_slug_sources=(first.strip(),),
            section=chapters.get(major) if minor != 0 else None,
        )
        if rest.strip():
            draft.paragraphs.append(rest)
        draft.paragraphs.extend(blocks[start + 1 : stop])
        drafts.append(draft)

    page: _Draft | None = None
    current: _Draft | None = drafts[-1]
    for k in range(end_of_sections - tail_start, len(heading)):
        block = blocks[tail_start + k]
        if not heading[k]:
            assert current is not None
            current.paragraphs.append(block)
            continue
        core, remarks = _heading_core(block)  # type: ignore[misc]
        ranged = _RANGE.match(core)
        if page is not None and (ranged or remarks):
            name = ranged.group(3) if ranged else core
            aliases = (name, *_name_aliases(name)) if ranged else _name_aliases(name)
            current = _Draft(
                title=core,
                slug_source=f"{page.title} {name}",
                aliases=aliases,
                alias_slug_sources=(name,),
                section=page.title,
                paragraphs=[remarks] if remarks else [],
            )
        else:
            current = _Draft(
                title=core,
                slug_source=core,
                aliases=_name_aliases(core),
                paragraphs=[remarks] if remarks else [],
            )
            page = current
        drafts.append(current)

    maker = EntryMaker(doc_id, id_prefix, "markdown")
    for d in drafts:
        maker.add(
            d.title,
            _rejoined(d.paragraphs),
            id_source=d.slug_source,
            alias_sources=d.alias_slug_sources,
            aliases=tuple(a for a in dict.fromkeys(d.aliases) if a != d.title),
            section=d.section,
        )
    return Split(preamble, tuple(maker.entries))
