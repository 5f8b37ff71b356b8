"""Splitter for quick-reference sheets: markdown headings over "term<TAB>definition" rows.

Document shape (``corpus/004_…``, the round overview)::

    # SPIELRUNDENÜBERSICHT - 10. EDITION        <- document title: preamble
    ## BEWEGUNGSPHASE
    ### 1. EINHEITEN BEWEGEN
    Normale Bewegung<TAB><p>Bis zu B".</p> <p>…</p>
    ## 2. VERSTÄRKUNGEN                         <- really a sibling of "1. EINHEITEN BEWEGEN"
    <TAB><p>Einheiten in Reserve …</p>          <- row without a term: the heading's own text
    FLUGZEUGE<TAB><p>…</p>
    -----------<TAB>---                         <- table-separator artifact
    # ATTACKEN AUSFÜHREN
    Unmodifizierte Würfe von 6 …               <- prose under a heading
    2. Verwundungswurf<TAB>Wirf … <table>…</table><TAB>S der Attacke …<TAB>W6-Ergebnis …
    S ist gleich W<TAB>4+                       <- plain-text echo of that <table>

Granularity: every row is one entry, because a player looks up one term
("Vorrücken", "Schocktruppen"). Its title is the term, its `section` the heading
path ("BEWEGUNGSPHASE › 1. EINHEITEN BEWEGEN"), its paragraph the definition
cell kept verbatim as HTML (`markup="html"`; rendering sanitises it, `plain()`
strips it for search).

Decisions:

* Ids come from the heading path plus the term with leading numbers dropped
  ("uebersicht-bewegungsphase-einheiten-bewegen-normale-bewegung"), so a term that
  occurs in two phases gets two ids and renumbering does not break permalinks.
  The bare term's slug is offered as an alias id (the corpus loader drops it
  when it is ambiguous).
* A numbered term or heading ("1. Befehlspunkt") gets the name without the
  number as its first alias.
* A heading whose number continues the numbering of a deeper open heading
  ("## 2. VERSTÄRKUNGEN" after "### 1. EINHEITEN BEWEGEN") is put on that
  deeper level: the source's heading levels are inconsistent there.
* Text under a heading before its first row (prose lines, rows without a term)
  becomes an entry titled by the heading itself, placed under the parent path.
  Prose between rows is a further paragraph of the row above it.
* A first-level heading directly followed by another heading, before any
  content, is the document's title and goes to the preamble, not into sections.
* A heading with no text and no entries below it still becomes an (empty)
  entry, so that no heading is lost.
* Rows made only of dashes are separator artifacts of a table conversion and
  are dropped. Cells that repeat, as plain text, the cells of an HTML
  ``<table>`` in the entry above (extra columns of that row, or the rows
  following it) are dropped too: the table is shown once, in its HTML form.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from faq_bot.corpus.markup import cell_texts, drop_tags
from faq_bot.corpus.splitters import EntryMaker, Split
from faq_bot.text import squash

SECTION_SEP = " › "

# the heading text is group 2 without trailing " ", tab and "#" (stripped after the match:
# a lazy group before "[ \t#]*$" takes time with the square of a run of them)
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*)$")
_NUMBER = re.compile(r"^(\d+)\.\s+(?=\S)")
_SEPARATOR_CELL = re.compile(r"^-+$")


def strip_number(text: str) -> str:
    """ "1. Befehlspunkt" -> "Befehlspunkt"; text without a leading number is unchanged."""
    return _NUMBER.sub("", text, count=1).strip()


def _number(text: str) -> int | None:
    m = _NUMBER.match(text)
    return int(m.group(1)) if m else None


def _table_cells(source: str) -> set[str]:
    """The normalised texts of all <td>/<th> cells in an HTML fragment."""
    return {squash(html.unescape(drop_tags(c, " "))) for c in cell_texts(source)}


@dataclass
class _Heading:
    level: int
    text: str
    used: bool = False  # an entry was made for it or below it


@dataclass
class _Draft:
    title: str
    path: tuple[str, ...]
    paragraphs: list[str] = field(default_factory=list)
    table_cells: set[str] = field(default_factory=set)


def _aliases(title: str) -> tuple[str, ...]:
    bare = strip_number(title)
    return (bare,) if bare and bare != title else ()


def split(text: str, *, doc_id: str, id_prefix: str) -> Split:
    lines = text.split("\n")
    preamble: list[str] = []
    drafts: list[_Draft] = []
    stack: list[_Heading] = []
    current: _Draft | None = None  # where prose and echo rows attach
    intro: _Draft | None = None  # the heading's own entry while no row followed yet

    def close_headings(down_to_level: int) -> None:
        """Pop headings of level >= down_to_level; an unused one becomes an empty entry."""
        while stack and stack[-1].level >= down_to_level:
            h = stack.pop()
            if not h.used:
                drafts.append(_Draft(title=h.text, path=tuple(x.text for x in stack)))
                for above in stack:
                    above.used = True

    def mark_used() -> None:
        for h in stack:
            h.used = True

    def heading_entry() -> _Draft:
        """The entry for the innermost open heading's own text (created on demand)."""
        nonlocal intro, current
        if intro is None:
            h = stack[-1]
            intro = _Draft(title=h.text, path=tuple(x.text for x in stack[:-1]))
            drafts.append(intro)
            mark_used()
        current = intro
        return intro

    seen_content = False
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if not line.strip():
            continue
        m = _HEADING.match(line)
        if m:
            level, heading = len(m.group(1)), m.group(2).rstrip(" \t#").strip()
            if not heading:
                continue
            if not seen_content and not stack and level == 1 and _next_is_heading(lines, i):
                preamble.append(heading)
                continue
            n = _number(heading)
            if n is not None and n > 1:
                for h in stack:
                    if h.level > level and _number(h.text) == n - 1:
                        level = h.level
                        break
            close_headings(level)
            stack.append(_Heading(level, heading))
            current = intro = None
            continue
        seen_content = True
        if "\t" not in line:
            if current is not None:
                current.paragraphs.append(line.strip())
            elif stack:
                heading_entry().paragraphs.append(line.strip())
            else:
                preamble.append(line.strip())
            continue
        cells = [c.strip() for c in line.split("\t")]
        filled = [c for c in cells if c]
        if not filled:
            continue
        if all(_SEPARATOR_CELL.match(c) for c in filled):
            continue
        if current is not None and current.table_cells:
            if all(squash(c) in current.table_cells for c in filled):
                continue  # plain-text echo of the table shown above
        term, rest = cells[0], [c for c in cells[1:] if c]
        if not term:
            if current is None and not stack:
                preamble.extend(rest)
                continue
            target = current if current is not None else heading_entry()
            target.paragraphs.extend(rest)
            for p in rest:
                target.table_cells |= _table_cells(p)
            continue
        draft = _Draft(title=term, path=tuple(h.text for h in stack))
        if rest:
            definition, extra = rest[0], rest[1:]
            draft.paragraphs.append(definition)
            draft.table_cells = _table_cells(definition)
            draft.paragraphs.extend(
                c for c in extra if not (draft.table_cells and squash(c) in draft.table_cells)
            )
        drafts.append(draft)
        mark_used()
        current, intro = draft, None
    close_headings(0)

    maker = EntryMaker(doc_id, id_prefix, "html")
    for d in drafts:
        words = [strip_number(p) for p in d.path] + [strip_number(d.title)]
        maker.add(
            d.title,
            d.paragraphs,
            id_source=" ".join(words),
            alias_sources=(strip_number(d.title),),
            aliases=_aliases(d.title),
            section=SECTION_SEP.join(d.path) or None,
        )
    return Split(tuple(preamble), tuple(maker.entries))


def _next_is_heading(lines: list[str], i: int) -> bool:
    for raw in lines[i + 1 :]:
        if raw.strip():
            return bool(_HEADING.match(raw.rstrip()))
    return False
