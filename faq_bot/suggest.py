"""As-you-type suggestions: titles and aliases by prefix, then by a later word's start,
then spelt as they sound, then one typing slip away.

``suggest_titles(index, prefix, n=8) -> list[dict]``
    Titles and aliases for as-you-type suggestions: ``{"title", "id", "url"}``; those
    one typing slip away when no name starts with the prefix. Lexical only (no query
    embedding while typing).
``distinct_titles(titles) -> list[str]``
    The titles once each, as a box's suggestions offer them (two entries titled „Runde“, or
    „FLUGZEUGE“ beside „Flugzeuge“, fill the box alike), the spelling not in capitals kept.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Callable

from faq_bot.index import WARMERS, Index
from faq_bot.spelling import MIN_FUZZY_LENGTH, edits1, sound_key
from faq_bot.text import entry_path, fold

__all__ = ["distinct_titles", "suggest_titles"]

_WORD = re.compile(r"\w+")


class _TitleIndex:
    """Every title and alias under each of its word starts, sorted, for prefix lookup
    by bisection (built once per build from the store's ``names`` table); each folded
    word as `key` spells it (as typed, or its `faq_bot.spelling.sound_key`)."""

    def __init__(self, names: list[tuple[str, str]], key: Callable[[str], str] = str):
        keys: list[tuple[str, int, int]] = []  # (folded text from a word start, start?, name)
        self.names = names
        for i, (name, _id) in enumerate(names):
            words = [key(fold(w)) for w in _WORD.findall(name)]
            for k in range(len(words)):
                keys.append((" ".join(words[k:]), 0 if k == 0 else 1, i))
        keys.sort()
        self.keys = [k[0] for k in keys]
        self.longest = max((len(k) for k in self.keys), default=0)
        # (inside?, name) of each key as two arrays: a x100 corpus has ~100,000 keys
        self.inside = array("b", (k[1] for k in keys))
        self.name_of = array("I", (k[2] for k in keys))

    def lookup(self, wanted: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        lo = bisect.bisect_left(self.keys, wanted)
        hi = bisect.bisect_left(self.keys, wanted + "\uffff")
        starts: dict[tuple[str, str], None] = {}
        inner: dict[tuple[str, str], None] = {}
        for inside, i in zip(self.inside[lo:hi], self.name_of[lo:hi], strict=True):
            (inner if inside else starts)[self.names[i]] = None
        return list(starts), [k for k in inner if k not in starts]

    def lookup_near(self, wanted: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """`lookup` of every string one edit from `wanted` (`faq_bot.spelling.edits1`): the
        names a slip of the thumb would have found."""
        starts: dict[tuple[str, str], None] = {}
        inner: dict[tuple[str, str], None] = {}
        if len(wanted) > self.longest + 1:  # one edit from no name: ~54 lookups per letter
            return [], []
        for variant in edits1(wanted):
            found_starts, found_inner = self.lookup(variant)
            starts.update(dict.fromkeys(found_starts))
            inner.update(dict.fromkeys(found_inner))
        return list(starts), [k for k in inner if k not in starts]


def suggest_titles(
    index: Index, prefix: str, n: int = 8, doc: str | None = None
) -> list[dict[str, str]]:
    """Titles and aliases starting with (then containing a word starting with) `prefix`,
    one per entry (its best name: "Flakbatterie" and "Flakbatterie (Basisausbau)" name
    the same entry), of document `doc` only when given. When none does and `prefix` is
    long enough for typo tolerance (`faq_bot.spelling.MIN_FUZZY_LENGTH` letters), those
    spelt as it sounds ("Endfa", as search corrects "Endfase"), else those one edit away
    ("Feurwehr")."""
    folded = [fold(w) for w in _WORD.findall(prefix or "")]
    wanted = " ".join(folded)
    if not wanted:
        return []
    titles = index.state.once("titles", lambda: _TitleIndex(index.names()))
    starts, inner = titles.lookup(wanted)
    if not starts and not inner and len(wanted) >= MIN_FUZZY_LENGTH:
        sounds = " ".join(sound_key(w) for w in folded)
        if len(sounds) >= MIN_FUZZY_LENGTH:  # "Sssss" sounds as "s": no guess from that
            starts, inner = _sound_titles(index).lookup(sounds)
        if not starts and not inner:
            starts, inner = titles.lookup_near(wanted)
    ranked = sorted(starts, key=lambda k: (len(k[0]), k[0])) + sorted(inner, key=lambda k: k[0])
    best: dict[str, str] = {}  # entry id -> its first name in `ranked`
    for title, entry in ranked:
        if doc is not None and _doc_of(index, entry) != doc:
            continue
        best.setdefault(entry, title)
    return [{"title": t, "id": i, "url": entry_path(i)} for i, t in list(best.items())[: max(0, n)]]


def _doc_of(index: Index, entry_id: str) -> str | None:
    record = index.entry(entry_id)
    return record.doc if record is not None else None


def _sound_titles(index: Index) -> _TitleIndex:
    """The names under their words' sound keys (built once per build)."""
    return index.state.once("titles.sound", lambda: _TitleIndex(index.names(), sound_key))


def _warm_up(index: Index) -> None:
    """Build the sound-key names with the build, not on the first slip typed."""
    _sound_titles(index)


WARMERS.append(_warm_up)


def distinct_titles(titles: list[str]) -> list[str]:
    """`titles` once each by their folded words, in order; of two spellings the first not
    written in capitals alone („Flugzeuge“, not „FLUGZEUGE“), at the first one's place."""
    kept: dict[str, str] = {}
    for title in titles:
        key = fold(title)
        if key not in kept or (kept[key].isupper() and not title.isupper()):
            kept[key] = title
    return list(kept.values())
