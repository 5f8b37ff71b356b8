"""What an entry is called: its names (title, aliases, id) and its category.

``named_entry(index, text, doc=None, category=None) -> str | None``
    The entry `text` names as a whole (a title, an alias or an id, with an article
    before it or in another inflection): search and the chat put it first.
``categories(index, doc=None) -> {slug: name}``, ``known_category(index, raw) -> str | None``,
``category_outside(index, category, doc) -> str | None``, ``category_slug(index, entry_id)``
    The build's (or a document's) categories, a user's category filter checked against
    them (`InputError`, German, naming the known ones), what to say when the chosen
    document has none of a category, and the slug an entry's category is compared by.
``entries_near(index, address, n=3) -> list[str]``
    The entries a mistyped or cut-off ruling address most likely meant (a 404 lists them
    first).
``ARTICLE``
    The German article a headword may be typed with (the offline copy reads it alike).
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from faq_bot.corpus import slugify
from faq_bot.errors import InputError
from faq_bot.index import Index
from faq_bot.morphology import word_class
from faq_bot.query import main_terms
from faq_bot.text import clip, nearest, said_back, without_format
from faq_bot.text import words as folded_words

__all__ = [
    "ARTICLE",
    "categories",
    "category_outside",
    "category_slug",
    "entries_near",
    "known_category",
    "named_entry",
]

KNOWN_SHOWN = 40  # categories an unknown one's message lists at most


def categories(index: Index, doc: str | None = None) -> dict[str, str]:
    """The build's categories (of document `doc`, a known id, if given), slug -> name as
    the entries write it ("basisausbau" -> "Basisausbau"), read once per build."""

    def read() -> dict[str, str]:
        names: dict[str, str] = {}
        for record in index.iter_entries(doc):
            if record.category:
                names.setdefault(slugify(record.category), record.category)
        return dict(sorted(names.items()))

    return index.state.once(f"search.categories:{doc or ''}", read)


def category_outside(index: Index, category: str | None, doc: str | None) -> str | None:
    """What to say when a known `category` (`known_category`) has no entry in document
    `doc` (a known id), a filter that can only find nothing; None when it has, or when
    either is not given. German, naming the categories the document has."""
    if not category or not doc or slugify(category) in categories(index, doc):
        return None
    document = index.document(doc) or {}
    title = document.get("title") or doc
    names = list(categories(index, doc).values())
    name = categories(index).get(slugify(category), category)  # as the entries write it
    said = f"Die Kategorie „{clip(name, 80)}“ gibt es in „{title}“ nicht"
    if not names:
        return f"{said}: Dort haben die Einträge keine Kategorien."
    listed = ", ".join(names[:KNOWN_SHOWN]) + (" …" if len(names) > KNOWN_SHOWN else "")
    return f"{said}; dort gibt es: {listed}."


def known_category(index: Index, raw: str | None) -> str | None:
    """A category filter a user gave (`raw`, stripped: a category's name or its slug), as
    the entries name it, when some entry has that category (a slug kept as given left the
    search page's choice on „alle Kategorien“, and „Filtern“ dropped it: a review), None
    when empty (every category); `InputError` (400)
    naming the known ones otherwise, as `Index.document_id` does for a document: a filter
    nothing has found nothing, said as "0 Treffer", while an unknown document was a 400."""
    # composed, as the entries write it („a“ + U+0308 is „ä“), and without the invisible
    # format characters a user's text loses everywhere (a bidi control said back turned the
    # error line around)
    category = unicodedata.normalize("NFC", without_format(raw or "")).strip() or None
    if category is None:
        return None
    known = categories(index)
    if slugify(category) not in known:
        names = list(known.values())
        if not names:
            raise InputError(
                f"Unbekannte Kategorie {said_back(category)}: Die Einträge haben keine Kategorien."
            )
        listed = ", ".join(names[:KNOWN_SHOWN]) + (" …" if len(names) > KNOWN_SHOWN else "")
        raise InputError(f"Unbekannte Kategorie {said_back(category)}. Bekannt sind: {listed}.")
    return known[slugify(category)]


# a German article before a headword: "die Endphase", "der Aktionsstapel", "eine Flak" (the
# offline copy carries the pattern and reads it alike)
ARTICLE = r"^(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines)\s+"
_ARTICLE = re.compile(ARTICLE, re.I)


def named_entry(
    index: Index, text: str, doc: str | None = None, category: str | None = None
) -> str | None:
    """The entry `text` names, when it is as a whole an entry's title, an alias or its id
    (`Index.canonical_id`: "Endphase", "ziehen karte", an abbreviation of the synonyms
    table), of `doc` and `category` if given: a judge who types a headword wants that
    entry first, whatever the learned ranking (fitted on questions, which never consist
    of a headword alone) makes of it. Search and the chat put it first. An article before
    the headword ("die Endphase") names it too, and so does a headword in another
    inflection ("Länderkarte" for "Länderkarten"), when no other entry's name is one."""
    text = text.strip()
    found = index.canonical_id(text)
    if found is None:
        article = _ARTICLE.match(text)
        words = text[article.end() :] if article else text
        found = index.canonical_id(words) if article else None
        found = found or _inflected_title(index, words, doc, category)
    record = index.entry(found) if found else None
    if record is None or (doc is not None and record.doc != doc):
        return None
    if category and category_slug(index, record.id) != slugify(category):
        return None
    return record.id


# a name's words as the analyzer stems them, and how many words it has: "Wie ziehe ich
# Karten" (two stop words dropped) is not the name "Karte ziehen"
_NameKey = tuple[tuple[str, ...], int]


class _TitleTerms(NamedTuple):
    entries: dict[_NameKey, tuple[tuple[str, str], ...]]  # (entry, name) of the names with the key
    longest: int  # words of the longest name


def _name_key(index: Index, name: str) -> _NameKey:
    return main_terms(index, name), len(folded_words(name))


def _title_terms(index: Index) -> _TitleTerms:
    """Each entry's names (title and aliases) by `_name_key`, once per build."""

    def build() -> _TitleTerms:
        entries: dict[_NameKey, tuple[tuple[str, str], ...]] = {}
        for name, entry_id in index.names():
            key = _name_key(index, name)
            if key[0]:
                entries[key] = (*entries.get(key, ()), (entry_id, name))
        return _TitleTerms(entries, max((n for _terms, n in entries), default=0))

    return index.state.once("title_terms", build)


# the endings a German noun takes in the plural or a case ("Karte" / "Karten", "Angriff" /
# "Angriffe", "Spiel" / "Spiels")
_NOUN_ENDINGS = frozenset({"", "e", "n", "en", "s", "es"})


def _inflects(typed: str, name: str) -> bool:
    """Whether `typed` is `name` in another inflection, word for word: each word is the
    name's or differs from it by a noun ending, and is no verb form ("spielen" is not a
    plural of "Spiel"). A derived word is another word ("Angreifer" for "angreifen",
    "Verteidiger" for "Verteidigung"), though the stemmer makes them one."""
    mine, theirs = folded_words(typed), folded_words(name)
    if len(mine) != len(theirs):
        return False
    for word, other in zip(mine, theirs, strict=True):
        if word == other:
            continue
        short, long = sorted((word, other), key=len)
        if not long.startswith(short) or long[len(short) :] not in _NOUN_ENDINGS:
            return False
        if word_class(word) == "verb":
            return False
    return True


def _inflected_title(
    index: Index, typed: str, doc: str | None, category: str | None = None
) -> str | None:
    """The one entry (of `doc` and `category` if given) whose name `typed` is in another
    inflection (`named_entry`, `_inflects`); None when the names of two entries are ("Runde"
    of two documents, "Runden" of either)."""
    terms = _title_terms(index)
    if len(folded_words(typed)) > terms.longest:  # a question: not analyzed again
        return None
    found = {
        entry_id
        for entry_id, name in terms.entries.get(_name_key(index, typed), ())
        if _inflects(typed, name)
        and (doc is None or ((r := index.entry(entry_id)) is not None and r.doc == doc))
        and (not category or category_slug(index, entry_id) == slugify(category))
    }
    return found.pop() if len(found) == 1 else None


def category_slug(index: Index, entry_id: str) -> str | None:
    """The slug of an entry's category (None without one): what a category filter,
    given by name or slug, is compared with."""
    record = index.entry(entry_id)
    return slugify(record.category) if record is not None and record.category else None


# A mistyped address: difflib's similarity to an entry's at least NEAR_SIMILARITY
# (`faq_bot.text`), for an address at least NEAR_LENGTH long (one letter off a short word is
# another word: "bombe", "bomber"; a link cut short by a letter or two is as similar as a slip)
NEAR_LENGTH = 8


def entries_near(index: Index, address: str, n: int = 3) -> list[str]:
    """The ids of at most `n` entries whose address (an id, alias id or title slug,
    `Index.addresses`) `address` most likely meant, most similar first: a slip
    („zerstoerr“, „karten-ziehen“), a link cut short („sow-schiffstyp“), a misprinted
    title's corrected spelling („…-fernkampfphase-…“ for „…-ferkampfphase-…“)."""
    slug = slugify(address)
    if len(slug) < NEAR_LENGTH:
        return []
    return nearest(slug, dict(index.addresses()), n)
