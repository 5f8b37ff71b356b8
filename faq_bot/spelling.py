"""Spelling correction of query words, gated by a German word-frequency list.

``correctable(word, counts)``: whether a folded word may be a typo (long enough, letters
only, neither a corpus word nor a common German word, `faq_bot.lexicon.common_words`).
``correct_word(word, counts, stem)``: the most frequent corpus word one edit away.
``known_compound(word, counts)``: a real compound of corpus or common words, not a typo.
``edits1(word)``: every string one edit away (a transposition counts as one edit).
``sound_key(word)``: the folded word with the spellings that sound alike in German made
one (``SOUND_ALIKE``): "endfase" and "endphase" share one, so a slip two edits away from a
corpus word, past `correct_word`'s reach, is still corrected (`faq_bot.query`), as offline.
``sound_alikes(counts)``: each sound key's most frequent vocabulary word.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

from faq_bot.analysis import AnyOf, split_compound
from faq_bot.lexicon import common_words

__all__ = [
    "MIN_FUZZY_LENGTH",
    "SOUND_ALIKE",
    "correct_word",
    "correctable",
    "edits1",
    "known_compound",
    "sound_alikes",
    "sound_key",
]

MIN_FUZZY_LENGTH = 5  # typo tolerance applies to words at least this long

# German spellings of one sound, applied in order to a folded word: (pattern, replacement).
# Written so that every browser's RegExp reads them alike (the offline copy carries them): no
# group reference in a replacement, no lookbehind (Safari before 16.4 refuses it).
SOUND_ALIKE = (
    ("ph", "f"),
    ("th", "t"),
    ("dt", "t"),
    ("ck", "k"),
    ("tz", "z"),
    ("ie", "i"),
    # a lengthening h after a vowel, not before one: "zahl", "fahren"
    *((f"{vowel}h(?![aeiouy])", vowel) for vowel in "aeiouy"),
    ("([b-df-hj-np-tv-z])(?=\\1)", ""),  # a doubled consonant: "kontrolle"
)
_SOUND_ALIKE = tuple((re.compile(p), r) for p, r in SOUND_ALIKE)


def edits1(word: str) -> Iterator[str]:
    """Every string one deletion, transposition, substitution or insertion away."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    for i in range(len(word) + 1):
        left, right = word[:i], word[i:]
        if right:
            yield left + right[1:]  # deletion
        if len(right) > 1:
            yield left + right[1] + right[0] + right[2:]  # transposition
        for c in letters:
            if right:
                yield left + c + right[1:]  # substitution
            yield left + c + right  # insertion


def correctable(word: str, counts: Mapping[str, int]) -> bool:
    """Whether folded `word` may be a typo: long enough, letters only, neither a
    corpus word (`counts`) nor a common German word (see `common_words`)."""
    return (
        len(word) >= MIN_FUZZY_LENGTH
        and word.isalpha()
        and word not in counts
        and word not in common_words()
    )


def known_compound(word: str, counts: Mapping[str, int]) -> bool:
    """Whether folded `word` splits into corpus or common German words ("starthand"
    -> start + hand): a real word the corpus lacks, not a typo of a corpus word."""
    # looked up in both, not joined: a join copies the whole vocabulary per question word
    return bool(split_compound(word, AnyOf(counts, common_words())))


def correct_word(
    word: str, counts: Mapping[str, int], stem: Callable[[str], str] | None = None
) -> str | None:
    """The most frequent vocabulary word one edit away from folded `word`, or None.

    Only for `correctable` words. With `stem`, a candidate with the word's own stem
    is another inflection of it, not a correction, and is skipped.
    """
    if not correctable(word, counts):
        return None
    found = {w for w in edits1(word) if w in counts and len(w) >= MIN_FUZZY_LENGTH}
    if stem is not None:
        own = stem(word)
        found = {w for w in found if stem(w) != own}
    if not found:
        return None
    return max(sorted(found), key=lambda w: counts[w])


def sound_key(word: str) -> str:
    """Folded `word` with the spellings of `SOUND_ALIKE` made one ("endfase", "endphase"
    -> "endfase"; "kontrole", "kontrolle" -> "kontrole")."""
    for pattern, replacement in _SOUND_ALIKE:
        word = pattern.sub(replacement, word)
    return word


def sound_alikes(counts: Mapping[str, int]) -> dict[str, str]:
    """`sound_key` -> the most frequent vocabulary word with it (words of at least
    `MIN_FUZZY_LENGTH` letters; ties by the word, so the table is the same every build)."""
    best: dict[str, str] = {}
    for word in sorted(counts):
        if len(word) < MIN_FUZZY_LENGTH or not word.isalpha():
            continue
        key = sound_key(word)
        if key not in best or counts[word] > counts[best[key]]:
            best[key] = word
    return best
