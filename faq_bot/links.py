"""Cross references between entries ("s. auch Aktionsstapel", "vgl. Phasen").

The FAQ points from one entry to another in these forms (all in the real text):

- ``s. X`` and ``vgl. X`` (also inside parentheses: "(vgl. Phasen)", "(s. Ägypten)"),
- with connecting words: ``s. auch X``, ``s. dazu X``, ``s. bei X``, ``s. auch unter X``,
  ``s.auch bei X`` (no space), ``s.im entsprechenden Abschnitt unter X``,
  ``(vgl. hierzu insbesondere: X)``,
- several targets: ``s. dazu auch X und Y`` gives one reference per target,
- ``s. auch unter`` at the end of a paragraph with the target on the next one,
- ``(s. dort)``: refers to the entry named just before it in the sentence
  ("im Einklang mit der Bauphasen-Regelung (s. dort)" -> Bauphase),
- ``Siehe Abschnitt 6.5`` in the rulebooks: a numbered section of the same document,
- ``s. Tabelle 1.0 bezüglich ...`` (also ``Tab.``, ``Abbildung``, ``Abb.``): the paragraph
  of the same document that this numbered label captions ("Tabelle 1.0 Schiffskosten u.
  Bewegung": a short paragraph of its own, not a sentence), so the reference links to that
  paragraph of its entry (`Reference.target_paragraph`),
- references that name no entry ("s. jeweils entsprechenden Eintrag",
  "s. Regeln bzw. oben ...", "s. Ägypten"): kept, unresolved.

Extraction (`find_references`) reads an entry's plain paragraphs and returns
`Mention`s. Resolution (`resolve`) maps a target text to an entry id in tiers
from strict to loose: exact title; alias or title without quotes and trailing
punctuation ("Beispielkampf." , "Tarnung"); inflected forms ("Aktionsstapeln",
"Multiplayer-Spielen"); inverted titles ("Karte ziehen" / "Ziehen, Karte"). A
tier that finds two different entries gives up instead of guessing, so a
reference never links to a wrong entry: unresolved is the safe answer.
`build_links` resolves every mention against the entries of the mention's own
document and returns the `LinkGraph`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from faq_bot.corpus import Corpus, Entry
from faq_bot.text import squash

__all__ = [
    "LinkGraph",
    "Lookup",
    "Mention",
    "Reference",
    "build_links",
    "find_references",
    "pointer",
    "resolve",
    "see_also",
]


@dataclass(frozen=True)
class Reference:
    """One resolved or unresolved cross reference ("s. …" occurrence)."""

    source: str  # entry id
    paragraph: int  # index into the entry's plain_paragraphs
    text: str  # the reference as written, e.g. "s. auch unter Aktionsstapel"
    target_text: str  # the part naming the target, e.g. "Aktionsstapel"
    target: str | None  # resolved entry id, or None
    start: int  # span of target_text within plain_paragraphs[paragraph]
    end: int
    # the target entry's paragraph (0-based) a numbered label ("Tabelle 1.0") captions;
    # None: the reference names the entry as a whole
    target_paragraph: int | None = None

    @property
    def resolved(self) -> bool:
        return self.target is not None


@dataclass(frozen=True)
class Mention:
    """A reference as extracted from the text, not yet resolved.

    `candidates` is only set for "(s. dort)": the spans before it that may name
    the target, most specific first; resolution takes the first that resolves.
    """

    paragraph: int
    text: str
    target_text: str
    start: int
    end: int
    candidates: tuple[tuple[str, int, int], ...] = ()


@dataclass(frozen=True)
class LinkGraph:
    references: tuple[Reference, ...]

    @cached_property
    def _by_source(self) -> dict[str, list[Reference]]:
        found: dict[str, list[Reference]] = {}
        for r in self.references:
            found.setdefault(r.source, []).append(r)
        return found

    @cached_property
    def _by_target(self) -> dict[str, list[Reference]]:
        """Resolved references by target, built in one pass (not one scan per entry)."""
        found: dict[str, list[Reference]] = {}
        for r in self.references:
            if r.target is not None and r.source != r.target:
                found.setdefault(r.target, []).append(r)
        return found

    def outgoing(self, entry_id: str) -> list[Reference]:
        """The references written in `entry_id`, resolved and unresolved, in text order."""
        return list(self._by_source.get(entry_id, ()))

    def incoming(self, entry_id: str) -> list[Reference]:
        """The resolved references that point at `entry_id`, in document order."""
        return list(self._by_target.get(entry_id, ()))

    def backlinks(self, entry_id: str) -> list[str]:
        """Ids of the entries linking to `entry_id`, in document order, each once."""
        return list(dict.fromkeys(r.source for r in self.incoming(entry_id)))

    def unresolved(self) -> list[Reference]:
        return [r for r in self.references if r.target is None]


# --- extraction --------------------------------------------------------------------------

# "s." or "vgl." as a word of its own: not the end of "bzw.", "vs.", "Vorteils.", nor
# inside an abbreviation ("u.s.w.", "s.g." for sogenannt); right after a sentence's end
# with the space missing ("Basisschaden!).s. auch Blitzangriff") it is one
_MARKER = re.compile(r"(?<!\w)(?<!\w\.)(?:(?:s|[Vv]gl)\.(?=\s|\w|$)(?!\w\.)|[Ss]iehe(?=\s))")
_CONNECTOR = re.compile(
    r"""\s*(?:
        (?:auch|dazu|hierzu|insbesondere|unter|bei
          |im\s+entsprechenden\s+Abschnitt)
        (?![\w-])\s*:?
    )""",
    re.X | re.I,
)
_DORT = re.compile(r"\s*dort(?![\w-])")
_MAX_WORDS = 8
_TRIM = " \t\"'“”„‚‘’«»"
_TRAILING = ".,;:!?-–"
_AND = re.compile(r"\s+und\s+")
# "Abschnitt 6.5 hinsichtlich ..." names the numbered section "6.5 Schiffstypen"
_SECTION_REF = re.compile(r"^(?:(?:Abschnitt|Kapitel)\s+)?(\d+(?:\.\d+)+)(?![\d.]*\d)")
_SECTION_TITLE = re.compile(r"^(\d+(?:\.\d+)+)\s+\S")
# a numbered table or figure: "Tabelle 1.0", "Tab. 2", "Abbildung 3", "Abb. 2.0"
_LABEL = re.compile(
    r"^(Tabelle|Tab\.|Abbildung|Abb\.)\s*(\d+(?:\.\d+)*)(?![\d.]*\d)", re.IGNORECASE
)
_BARE_NUMBER = re.compile(r"^\d+(?:\.\d+)*(?![\d.]*\d)")
_LABEL_KIND = {"tabelle": "tab", "tab.": "tab", "abbildung": "abb", "abb.": "abb"}
CAPTION_CHARS = 80  # a caption is a short paragraph of its own that ends no sentence


def _target_end(text: str, start: int) -> int:
    """Where the target starting at `start` ends: at sentence punctuation, ")" or a dash."""
    depth = 0
    words = 0
    i = start
    in_word = False
    while i < len(text):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0:
            if ch in ";!?" or ch == "\n":
                return i
            if ch == ":" and (i + 1 == len(text) or text[i + 1].isspace()):
                return i
            if ch == "." and (
                i + 1 == len(text)
                or text[i + 1] in ')"”“'
                or (text[i + 1].isspace() and text[i + 2 : i + 3][:1].isupper())
            ):
                return i
            if text.startswith(" - ", i) or text.startswith(" – ", i):
                return i
        if ch.isspace():
            in_word = False
        elif not in_word:
            in_word = True
            words += 1
            if words > _MAX_WORDS:
                return i
        i += 1
    return len(text)


def _trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink [start, end) past blanks, quotes and trailing punctuation."""
    while start < end and text[start] in _TRIM:
        start += 1
    while end > start and (text[end - 1] in _TRIM or text[end - 1] in _TRAILING):
        end -= 1
    # an unbalanced "(" at the end, e.g. "Sabotage (" cut off by the word limit
    if text.count("(", start, end) > text.count(")", start, end):
        cut = text.rfind("(", start, end)
        return _trim_span(text, start, cut) if cut > start else (start, start)
    return start, end


def _dort_candidates(text: str, before: int) -> tuple[tuple[str, int, int], ...]:
    """Spans before "(s. dort)" in the same sentence that may name the target."""
    sentence_start = max(text.rfind(c, 0, before) for c in ".!?:;") + 1
    head = text[sentence_start:before].rstrip(" (")
    words = list(re.finditer(r"[\w“”\"'!/-]+", head))
    out: list[tuple[str, int, int]] = []
    for n in range(min(3, len(words)), 0, -1):  # "Französische Alpen" before "Alpen"
        first, last = words[-n], words[-1]
        s, e = _trim_span(text, sentence_start + first.start(), sentence_start + last.end())
        if e > s:
            out.append((text[s:e], s, e))
    if words and "-" in words[-1].group():  # "Bauphasen-Regelung": the first part
        last = words[-1]
        offset = sentence_start + last.start()
        for part in re.finditer(r"[^-]+", last.group()):
            s, e = _trim_span(text, offset + part.start(), offset + part.end())
            if e > s:
                out.append((text[s:e], s, e))
    return tuple(out)


def _mentions_in(paragraphs: tuple[str, ...], index: int) -> list[Mention]:
    text = paragraphs[index]
    out: list[Mention] = []
    for marker in _MARKER.finditer(text):
        pos = marker.end()
        while (connector := _CONNECTOR.match(text, pos)) is not None:
            pos = connector.end()
        dort = _DORT.match(text, pos)
        if dort is not None:
            candidates = _dort_candidates(text, marker.start())
            written = text[marker.start() : dort.end()]
            target, s, e = candidates[0] if candidates else ("", marker.start(), marker.start())
            out.append(Mention(index, written, target, s, e, candidates))
            continue
        end = _target_end(text, pos)
        start, stop = _trim_span(text, pos, end)
        if start == stop and text[pos:].strip() == "" and index + 1 < len(paragraphs):
            # "s. auch unter" at the end of a paragraph, the target on the next one
            nxt = paragraphs[index + 1]
            s, e = _trim_span(nxt, 0, _target_end(nxt, 0))
            written = f"{text[marker.start() :].strip()} {nxt[s:e]}".strip()
            out.append(Mention(index + 1, written, nxt[s:e], s, e))
            continue
        written = text[marker.start() : stop].strip() if stop > start else marker.group()
        out.append(Mention(index, written, text[start:stop], start, stop))
    return out


def find_references(entry: Entry) -> list[Mention]:
    """Every cross reference written in `entry`, in text order, unresolved."""
    paragraphs = entry.plain_paragraphs
    return [m for i in range(len(paragraphs)) for m in _mentions_in(paragraphs, i)]


# --- resolution --------------------------------------------------------------------------

_ENDINGS = ("ern", "en", "er", "es", "n", "s", "e")


def _norm(text: str) -> str:
    """Case-folded, blanks collapsed, quotes and trailing punctuation dropped."""
    text = squash(text).casefold()
    text = text.strip(_TRIM).rstrip(_TRAILING + " ")
    return re.sub(r"[\"“”„‚‘’']", "", text)


def _stem(text: str) -> str:
    """A crude German stem of the last word: "multiplayer-spielen" -> "multiplayer-spiel"."""
    text = _norm(text)
    head, sep, last = text.rpartition(" ")
    head2, sep2, last = last.rpartition("-")
    for ending in _ENDINGS:
        if last.endswith(ending) and len(last) - len(ending) >= 3:
            last = last[: -len(ending)]
            break
    return head + sep + head2 + sep2 + last


def _inverted(text: str) -> str | None:
    """ "Ziehen, Karte" -> "Karte Ziehen"; None when there is no single comma."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        return None
    return f"{parts[1]} {parts[0]}"


@dataclass
class Lookup:
    """Entry names in tiers from strict to loose; build once, resolve many targets."""

    tiers: list[dict[str, set[str]]] = field(default_factory=lambda: [{}, {}, {}])
    _ids: set[str] = field(default_factory=set)
    # a numbered label ("tab 1.0") -> the (entry id, paragraph) it captions
    captions: dict[str, set[tuple[str, int]]] = field(default_factory=dict)

    @classmethod
    def of(cls, entries: Iterable[Entry]) -> Lookup:
        lookup = cls()
        for entry in entries:
            lookup.add(entry)
        return lookup

    def add(self, entry: Entry) -> None:
        exact, loose, stems = self.tiers
        self._ids.add(entry.id)
        if (number := _SECTION_TITLE.match(entry.title)) is not None:
            for key in (number.group(1), f"abschnitt {number.group(1)}"):
                loose.setdefault(key, set()).add(entry.id)
        exact.setdefault(squash(entry.title).casefold(), set()).add(entry.id)
        for n, paragraph in enumerate(entry.plain_paragraphs):
            if (key := _caption_key(paragraph)) is not None:
                self.captions.setdefault(key, set()).add((entry.id, n))
        for name in (entry.title, *entry.aliases):
            forms = [name]
            if (inv := _inverted(name)) is not None:
                forms.append(inv)
            for form in forms:
                loose.setdefault(_norm(form), set()).add(entry.id)
                stems.setdefault(_stem(form), set()).add(entry.id)

    def resolve_label(self, label: str) -> tuple[str, int] | None:
        """(entry id, paragraph) of the caption a numbered label names ("Tabelle 1.0"),
        or None (none, or two captions with the label: no guess)."""
        found = _LABEL.match(label.strip())
        places = self.captions.get(_label_key(found)) if found else None
        return next(iter(places)) if places and len(places) == 1 else None

    def resolve(self, target_text: str) -> str | None:
        text = squash(target_text)
        if not text:
            return None
        exact, loose, stems = self.tiers
        keys: list[tuple[dict[str, set[str]], str]] = [
            (exact, text.casefold()),
            (loose, _norm(text)),
            (stems, _stem(text)),
        ]
        if (inv := _inverted(text)) is not None:
            keys += [(loose, _norm(inv)), (stems, _stem(inv))]
        for tier, key in keys:
            ids = tier.get(key)
            if ids:
                # two different entries answer the same name: refuse to guess
                return next(iter(ids)) if len(ids) == 1 else None
        return None


def _label_key(found: re.Match[str]) -> str:
    return f"{_LABEL_KIND[found.group(1).casefold()]} {found.group(2)}"


def _caption_key(paragraph: str) -> str | None:
    """The label key of a paragraph that captions a table or figure ("Tabelle 1.0
    Schiffskosten u. Bewegung"), else None; a sentence that starts with a label ("Abb. 2
    der OR zeigt ein Beispiel.") captions nothing."""
    text = squash(paragraph)
    if len(text) > CAPTION_CHARS or text.endswith((".", "!", "?", ":")):
        return None
    found = _LABEL.match(text)
    return _label_key(found) if found else None


def resolve(
    target_text: str, corpus_or_lookup: Corpus | Lookup, doc: str | None = None
) -> str | None:
    """The id of the entry `target_text` names, or None.

    With a `Corpus`, the entries of `doc` are searched (all documents when `doc`
    is None: FAQ documents first, then the others, one document at a time).
    """
    if isinstance(corpus_or_lookup, Lookup):
        return corpus_or_lookup.resolve(target_text)
    docs = [d for d in corpus_or_lookup.documents if doc is None or d.id == doc]
    docs.sort(key=lambda d: d.kind != "faq")
    for document in docs:
        found = Lookup.of(document.entries).resolve(target_text)
        if found is not None:
            return found
    return None


Resolved = tuple[str, str | None, int, int, int | None]


def _resolve_mention(mention: Mention, lookup: Lookup) -> list[Resolved]:
    """(target_text, target, start, end, target paragraph) for each target the mention
    names."""
    if mention.candidates:
        for text, start, end in mention.candidates:
            target = lookup.resolve(text)
            if target is not None:
                return [(text, target, start, end, None)]
        return [(mention.target_text, None, mention.start, mention.end, None)]
    target = lookup.resolve(mention.target_text)
    if target is not None:
        return [(mention.target_text, target, mention.start, mention.end, None)]
    text = mention.target_text
    label = _labelled(text, lookup)
    if label is not None:
        # "Tabelle 2.1 und Bauphase" and "Tabelle 2.1 und 2.2" are two references; "Tabelle
        # 1.0 bezüglich der Kosten für Schiffe" and "Tabelle 1.0 und die Kosten der Schiffe"
        # name the table alone; pieces that name nothing are dropped, the others kept
        split = _split(text, mention, lookup) if _AND.match(text, len(label[0])) else None
        kept = [piece for piece in split or () if piece[1] is not None]
        if kept:
            return kept
        head, place = label
        return [(head, place[0], mention.start, mention.start + len(head), place[1])]
    section = _SECTION_REF.match(text)
    if section is not None:  # "Abschnitt 6.5 hinsichtlich näherer Informationen"
        head = section.group(0)
        target = lookup.resolve(head)
        if target is not None:
            return [(head, target, mention.start, mention.start + len(head), None)]
    if "," in text:  # "Phasen, dort ..." -> "Phasen"
        cut = text.index(",")
        head = text[:cut].rstrip()
        target = lookup.resolve(head)
        if target is not None:
            return [(head, target, mention.start, mention.start + len(head), None)]
    return _split(text, mention, lookup) or [(text, None, mention.start, mention.end, None)]


def _split(text: str, mention: Mention, lookup: Lookup) -> list[Resolved] | None:
    """One reference per piece of `text` between "und"s ("Sabotage und Bauphase"), a piece
    read as a title or as a numbered label ("Bauphase und Tabelle 2.1"; a bare number after
    a label is another of its kind: "Tabelle 2.1 und 2.2"); None without an "und"."""
    parts = list(_AND.finditer(text))
    if not parts:
        return None
    out: list[Resolved] = []
    kind = None  # the word of the last label ("Tabelle")
    bounds = [0, *(p for m in parts for p in (m.start(), m.end())), len(text)]
    for s, e in zip(bounds[::2], bounds[1::2], strict=True):
        piece = text[s:e]
        # the number alone continues the label list before any title ("2.2 Bewegung")
        found = _same_kind(piece, kind, lookup) if _BARE_NUMBER.fullmatch(piece) else None
        target = lookup.resolve(piece) if found is None else None
        if found is None and target is None:
            found = _labelled(piece, lookup) or _same_kind(piece, kind, lookup)
        label = _LABEL.match(piece)
        kind = label.group(1) if label is not None else kind
        if found is not None:
            head, (target, paragraph) = found
            out.append((head, target, mention.start + s, mention.start + s + len(head), paragraph))
        else:
            out.append((piece, target, mention.start + s, mention.start + e, None))
    return out


def _same_kind(piece: str, kind: str | None, lookup: Lookup) -> tuple[str, tuple[str, int]] | None:
    """The number `piece` begins with as a label of `kind` ("2.2" after "Tabelle 2.1") and
    the (entry, paragraph) of its caption, or None."""
    number = _BARE_NUMBER.match(piece)
    if kind is None or number is None:
        return None
    again = _labelled(f"{kind} {number.group(0)}", lookup)
    return (number.group(0), again[1]) if again is not None else None


def _labelled(text: str, lookup: Lookup) -> tuple[str, tuple[str, int]] | None:
    """The numbered label `text` begins with ("Tabelle 1.0") and the (entry, paragraph)
    of the one caption it names, or None."""
    label = _LABEL.match(text)
    place = lookup.resolve_label(label.group(0)) if label is not None else None
    return (label.group(0), place) if label is not None and place is not None else None


def paragraph_index(value: Any) -> int | None:
    """A stored paragraph number (an int, not a bool: JSON's true is no paragraph), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def see_also(links: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """An entry's stored references (`Reference.to_json` dicts) as its "Siehe auch" on the
    ruling page lists them: the first reference to each target (an entry, or a paragraph of
    one: also of the entry itself, "Tabelle 1.0" under its own table) in order, an
    unresolved one keyed by the text naming it. The offline copy lists their resolved
    target entries once each, without paragraphs and without the entry itself
    (`faq_bot.offline`)."""
    out: dict[str, Mapping[str, Any]] = {}
    for link in links:
        key = link.get("target") or f"?{link.get('target_text') or link.get('text')}"
        paragraph = paragraph_index(link.get("target_paragraph"))
        if link.get("target") and paragraph is not None:
            key += f"#{paragraph}"
        out.setdefault(key, link)
    return list(out.values())


# what stands before the target of a reference that is a whole paragraph: "s. bei ",
# "s. ", "vgl. ", "s.im entsprechenden Abschnitt unter "
# (each word ends at a space, so the pattern cannot split words in many ways)
_POINTER_LEAD = re.compile(r"\(?\s*(?:s\.|vgl\.|siehe)\s*(?:[^\W\d]+\s+){0,4}$", re.IGNORECASE)


def pointer(paragraphs: Sequence[str], links: Sequence[Mapping[str, Any]]) -> dict[str, str] | None:
    """The reference of an entry that is nothing but it, split for a hit that links it:
    ``{"lead", "text", "tail", "target"}`` ("s. bei ", "Beispielkampf", "", its entry id),
    else None. Nineteen FAQ entries are such pointers („Kampf“: „s. bei Beispielkampf“); a
    phone review found one the first hit of „Kampf“, a tap away from any rule."""
    if len(paragraphs) != 1 or len(links) != 1:
        return None
    link, text = links[0], paragraphs[0]
    start, end, target = link.get("start"), link.get("end"), link.get("target")
    if not (target and isinstance(start, int) and isinstance(end, int) and start < end):
        return None
    lead, tail = text[:start], text[end:]
    if not _POINTER_LEAD.match(lead) or tail.strip(" .;)"):
        return None
    return {"lead": lead, "text": text[start:end], "tail": tail, "target": str(target)}


def build_links(corpus: Corpus) -> LinkGraph:
    """Extract and resolve every cross reference; targets come from the same document."""
    references: list[Reference] = []
    for document in corpus.documents:
        lookup = Lookup.of(document.entries)
        for entry in document.entries:
            for mention in find_references(entry):
                for text, target, start, end, para in _resolve_mention(mention, lookup):
                    references.append(
                        Reference(
                            source=entry.id,
                            paragraph=mention.paragraph,
                            text=mention.text,
                            target_text=text,
                            target=target,
                            start=start,
                            end=end,
                            target_paragraph=para,
                        )
                    )
    return LinkGraph(tuple(references))
