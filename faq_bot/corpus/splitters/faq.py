"""Splitter for the HoW FAQ: an alphabetical glossary of headwords.

Document shape
--------------
The text opens with a preamble (the title "FAQ", the precedence note, "STAND:
<date>", "Letzte erfasste Änderung bei: ..."). Then come the entries, one per
headword, in alphabetical order. Entries are separated by a block whose only
line is a single no-break space (U+00A0) with a blank line on each side::

    <headword>
    <body line>
    <body line>

    \\xa0

    <next headword>

The first entry follows the last preamble line after a blank line only, without
a separator; it is found as the first headword-shaped line that a body line
follows directly.

Not every separator starts an entry: some bodies are themselves broken up by
separators (the "- Alam Halfa ..." list in "Ausschlussländer", the
"- Global Domination -" section of "Multiplayer-Spiel", "Ein Beispiel dazu: ..."
in "Explosive Landung"). A block after a separator starts a new entry only when
its first line has the shape of a headword (see `is_headword`); otherwise it
continues the previous entry.

Granularity
-----------
One `Entry` per headword (the FAQ's own unit; the reader looks up a term). The
body keeps its paragraphs: one paragraph per non-empty line, after joining hard
wrapped lines (a line is joined to the previous one when the previous line does
not end a sentence and this one starts lower case, or the previous one ends in
an article, preposition or conjunction, e.g. "s. auch unter" / "Aktionsstapel").

Titles, categories, aliases, ids
--------------------------------
`title` is the headword as written. A parenthesised kind at its end becomes the
`category` and the bare name becomes `aliases[0]`. Known kinds, normalised:

========================  =========================
written                   category
========================  =========================
Basisausbau(ten)          Basisausbau
Landausbau(ten)           Landausbau
Aktionskarte(n)           Aktionskarte
Länderkarte(n)            Länderkarte
Fähigkeit(en)             Fähigkeit
Fähigkeiten-Schlüsselwort Fähigkeiten-Schlüsselwort
Landeinheit(en)           Landeinheit
Schiff(e)                 Schiff
Spielmechanismus          Spielmechanismus
Spielvariante(n)          Spielvariante
Bezeichnung(en)           Bezeichnung
========================  =========================

A parenthesis that is an abbreviation ("Technologiewerte (TWs)") gives two
aliases (bare name and abbreviation) and no category. Any other parenthesis is
part of the name ("Sperrschaden (Artillerie im Direktkampf)" and "Sperrschaden
(in der Rückzugsphase)" are two entries); such a title gets no bare-name alias.
Quotes around the name are dropped in the alias ("“Einmalig”" -> "Einmalig").

`id` is the slug of the whole headword ("227-pfund-bombe-basisausbau"),
`alias_ids` the slugs of the aliases that differ from it ("227-pfund-bombe").
"""

from __future__ import annotations

import re

from faq_bot.corpus.splitters import EntryMaker, Split

CATEGORIES: dict[str, str] = {
    "basisausbau": "Basisausbau",
    "basisausbauten": "Basisausbau",
    "landausbau": "Landausbau",
    "landausbauten": "Landausbau",
    "aktionskarte": "Aktionskarte",
    "aktionskarten": "Aktionskarte",
    "länderkarte": "Länderkarte",
    "länderkarten": "Länderkarte",
    "fähigkeit": "Fähigkeit",
    "fähigkeiten": "Fähigkeit",
    "fähigkeiten-schlüsselwort": "Fähigkeiten-Schlüsselwort",
    "landeinheit": "Landeinheit",
    "landeinheiten": "Landeinheit",
    "schiff": "Schiff",
    "schiffe": "Schiff",
    "spielmechanismus": "Spielmechanismus",
    "spielvariante": "Spielvariante",
    "spielvarianten": "Spielvariante",
    "bezeichnung": "Bezeichnung",
    "bezeichnungen": "Bezeichnung",
}

_NBSP = "\xa0"
_STRIP = " \t" + _NBSP
_LIST_ITEM = re.compile(
    r"""^(?:
        [-–—•*]\s           # "- item"
      | \d+[.)]\s?          # "1. ", "2)"
      | [a-z]{1,2}\d*\)     # "a)", "aa)", "cc1)"
      | \(                  # "(hier werden ...)"
    )""",
    re.X,
)
_SENTENCE_END = re.compile(r"[.:;?,]$")
_INNER_SENTENCE = re.compile(r"[.:;?]\s")
_HEADWORD_START = re.compile(r"^[\w“„\"'‚‘]")
_ABBREVIATION = re.compile(r"^[A-ZÄÖÜ]{1,5}s?$")
_QUOTED = re.compile(r"^[“„\"‚‘'](.+)[”“\"’‘']$")
# a line ending in one of these words is cut in the middle of a phrase
_OPEN_WORDS = frozenset(
    """der die das den dem des ein eine einen einem einer eines und oder sowie bzw
    zur zum im in ins an am auf bei unter von vom mit zu für über nach aus vor durch
    gegen ohne um als wie dass sich sie ihr ihre ihren""".split()
)
_WORD_RE = re.compile(r"(\w+)$")


def is_separator(line: str) -> bool:
    """A separator line: nothing but no-break space (and blanks), at least one."""
    return _NBSP in line and not line.strip(_STRIP)


def is_headword(line: str) -> bool:
    """Whether `line` has the shape of a headword rather than of body text.

    A headword is short, starts with a letter, digit or opening quote, is not a
    list item, and neither ends in nor contains sentence punctuation ("!" is
    allowed: "Tarnung!", "Sturm! (Fähigkeit)").
    """
    line = line.strip(_STRIP)
    if not line or len(line) > 80 or len(line.split()) > 8:
        return False
    if not _HEADWORD_START.match(line) or _LIST_ITEM.match(line):
        return False
    if _SENTENCE_END.search(line) or _INNER_SENTENCE.search(line):
        return False
    # "s. Multiplayer-Spiel" and similar lower-case starts are body text
    return not line[0].islower()


def _continues(previous: str, line: str) -> bool:
    """Whether `line` is a hard-wrapped continuation of `previous`."""
    if not previous or not line or _LIST_ITEM.match(line):
        return False
    if re.search(r"[.!?:;)\]\"“”]$", previous):
        return False
    if previous.startswith("- ") and previous.endswith(" -"):  # "- Global Domination -"
        return False
    if line[0].islower():
        return True
    word = _WORD_RE.search(previous)
    return word is not None and word.group(1).lower() in _OPEN_WORDS


def paragraphs(lines: list[str]) -> tuple[str, ...]:
    """Body lines to paragraphs: one per non-empty line, hard wraps joined."""
    out: list[str] = []
    previous_blank = True
    for raw in lines:
        line = raw.strip(_STRIP)
        if not line:
            previous_blank = True
            continue
        if out and not previous_blank and _continues(out[-1], line):
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
        previous_blank = False
    return tuple(out)


def trailing_paren(line: str) -> tuple[str, str] | None:
    """(the text before, the text inside) of a parenthesis ending `line`, the text before
    without the spaces in front of "(": what ``^(.*?)\\s*\\(([^()]+)\\)$`` matched
    ("Ölfeld (Basisausbau)" -> ("Ölfeld", "Basisausbau")), found without the pattern's
    rescan of a run of spaces from each of its characters; None when there is none."""
    end = line[:-1] if line.endswith(")\n") else line  # "$" also before a final line break
    if not end.endswith(")"):
        return None
    opening = end.rfind("(", 0, len(end) - 1)
    inside = end[opening + 1 : -1]
    if opening < 0 or not inside or ")" in inside:
        return None
    before = end[:opening].rstrip()  # str.rstrip strips what \s matches
    return None if "\n" in before else (before, inside)


def parse_headword(headword: str) -> tuple[str | None, tuple[str, ...]]:
    """The category and the aliases of a headword.

    >>> parse_headword("227-Pfund Bombe (Basisausbau)")
    ('Basisausbau', ('227-Pfund Bombe',))
    >>> parse_headword("Technologiewerte (TWs)")
    (None, ('Technologiewerte', 'TWs'))
    >>> parse_headword("Sperrschaden (in der Rückzugsphase)")
    (None, ())
    """
    category: str | None = None
    aliases: list[str] = []
    name = headword
    found = trailing_paren(headword)
    if found and found[0]:
        before, inside = found
        paren = inside.strip()
        if paren.casefold() in CATEGORIES:
            category = CATEGORIES[paren.casefold()]
            name = before
        elif _ABBREVIATION.match(paren):
            name = before
            aliases.append(paren)
    quoted = _QUOTED.match(name)
    bare = quoted.group(1) if quoted else name
    if bare != headword:
        aliases.insert(0, bare)
    return category, tuple(aliases)


def _first_entry_line(lines: list[str]) -> int | None:
    """Index of the first headword that a body line follows directly."""
    for i, line in enumerate(lines[:-1]):
        if is_headword(line) and lines[i + 1].strip(_STRIP):
            return i
    return None


def split(text: str, *, doc_id: str, id_prefix: str = "") -> Split:
    lines = text.split("\n")
    blocks: list[list[str]] = [[]]
    for line in lines:
        if is_separator(line):
            blocks.append([])
        else:
            blocks[-1].append(line)

    preamble: list[str] = []
    raw_entries: list[tuple[str, list[str]]] = []  # (headword, body lines)
    for block in blocks:
        filled = [i for i, line in enumerate(block) if line.strip(_STRIP)]
        if not filled:
            continue
        first = filled[0]
        if raw_entries and is_headword(block[first]):
            raw_entries.append((block[first].strip(_STRIP), block[first + 1 :]))
        elif raw_entries:
            # a block that continues the previous entry's body
            raw_entries[-1][1].extend(["", *block])
        else:
            start = _first_entry_line(block)
            if start is None:
                preamble.extend(line.strip(_STRIP) for line in block if line.strip(_STRIP))
                continue
            preamble.extend(line.strip(_STRIP) for line in block[:start] if line.strip(_STRIP))
            raw_entries.append((block[start].strip(_STRIP), block[start + 1 :]))

    maker = EntryMaker(doc_id, id_prefix, "text")
    for headword, body in raw_entries:
        category, aliases = parse_headword(headword)
        maker.add(
            headword,
            paragraphs(body),
            id_source=headword,
            alias_sources=aliases,
            aliases=aliases,
            category=category,
        )
    return Split(tuple(preamble), tuple(maker.entries))
