"""Players' words (`data/jargon.toml`) and how a question's word is matched to them.

The table's keys are written once, as a lemma (infinitive, singular): "tappen",
"Deck", "quer drehen". A key matches a question's word by stem, so one key
covers its inflections: a word's candidate stems (`word_stems`) are the German
Snowball stems (the analyzer's stemmer) of the word, of the word without a verb
ending ("tappt" -> tapp) and of its participle without "ge" ("getappte",
"hochgejagt" -> tapp, hochjag), the same verb morphology `base_verb` applies
against the corpus's vocabulary. A key matches when its own stem is among them:
"tappen", "tappt", "getappt", "getappte" all meet "tappen"; "Decks" meets "Deck".

Keys shorter than `MIN_STEM_KEY` letters ("cp", "sac") match only as written:
their stems would meet unrelated short words.

Only a question's own words are matched, not the lemmas or roots the analyzer
adds for them: HanTa's lemma of "Deckung" or "aufgedeckt" is the verb root
"deck", which is no Deck.
"""

from __future__ import annotations

import re
import threading
import tomllib
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from importlib import resources

import Stemmer

from faq_bot.text import FOLD_CACHED_LENGTH, fold, words

__all__ = [
    "MIN_STEM_KEY",
    "STEMMER_CACHE",
    "JargonMatcher",
    "is_jargon_word",
    "jargon_matcher",
    "jargon_nouns",
    "load_jargon",
    "stemmer",
    "word_stems",
]

MIN_STEM_KEY = 4  # shorter keys match only as written
MIN_CORE = 3  # a word without its ending or "ge" keeps at least this many letters
# finite verb endings ("tappt", "tappst", "tappte", "tappten") and English "-ed"
# ("tapped"); noun and infinitive endings are the Snowball stemmer's
FINITE_ENDINGS = ("t", "et", "st", "est", "te", "ete", "ten", "eten", "tet", "ed")
# noun endings: a plural "-s" after any letter ("Upkeeps": Snowball drops it only after
# some), and "-e", "-n", "-en", "-es" once more where Snowball then strips a suffix of the
# lemma itself ("Stratageme" -> stratagem, the lemma "Stratagem" -> stratag)
WORD_ENDINGS = (*FINITE_ENDINGS, "s", "e", "n", "en", "es")
# a participle's endings, also as an adjective ("getappt", "getappter", "getapptes")
PARTICIPLE_ENDINGS = (*FINITE_ENDINGS, "tes", "ter", "tem", "etes", "eter", "etem")
# separable verb particles: "ge" follows them in a participle ("hochgejagt", "quergelegt")
PARTICLES = (
    "ab", "an", "auf", "aus", "ein", "mit", "nach", "vor", "weg", "zu", "zuruck",
    "hoch", "quer", "um", "durch", "uber", "unter", "los", "hin", "her", "raus",
    "rein", "rum", "weiter", "fest", "frei", "hinein", "heraus",
)  # fmt: skip
STEMS_CACHE = 16_384  # bounded: questions bring any word
_WORD = re.compile(r"\w+")

Form = tuple[str, str]  # ("=", folded word) or ("~", stem)

_local = threading.local()  # PyStemmer stemmers are not thread-safe: one per thread
# each thread's stemmer caches this many stems: the corpus's words fit (3,700 distinct;
# 50,000 cost 16 MiB per serving thread under made-up words, benchmarks/word_caches.py)
STEMMER_CACHE = 4_096


def stemmer() -> Stemmer.Stemmer:
    """This thread's German Snowball stemmer (PyStemmer), its cache bounded by
    `STEMMER_CACHE`: the one the analyzer and the players' words stem with."""
    found = getattr(_local, "stemmer", None)
    if found is None:
        found = _local.stemmer = Stemmer.Stemmer("german")
        found.maxCacheSize = STEMMER_CACHE
    return found


def _stem(word: str) -> str:
    return stemmer().stemWord(word)


def _cores(word: str) -> dict[str, tuple[str, ...]]:
    """`word` and, for a participle, the word without its "ge" (after a particle),
    each with the endings it may carry."""
    cores: dict[str, tuple[str, ...]] = {word: WORD_ENDINGS}
    for particle in ("", *PARTICLES):
        rest = word[len(particle) :]
        if word.startswith(particle) and rest.startswith("ge") and len(rest) - 2 >= MIN_CORE:
            cores[particle + rest[2:]] = PARTICIPLE_ENDINGS
    return cores


def word_stems(word: str) -> frozenset[str]:
    """The stems folded `word` may be an inflection of: its Snowball stem, and the
    stems of the word without a verb ending, a plural "-s" or a participle's "ge".
    Cached per word, but not a word longer than any German word of the corpus
    (`FOLD_CACHED_LENGTH`): a cache entry holds the whole word."""
    return _word_stems(word) if len(word) <= FOLD_CACHED_LENGTH else _stems_of(word)


@lru_cache(maxsize=STEMS_CACHE)
def _word_stems(word: str) -> frozenset[str]:
    return _stems_of(word)


def _stems_of(word: str) -> frozenset[str]:
    if not word.isalpha():
        return frozenset({_stem(word)})
    found: set[str] = set()
    for core, endings in _cores(word).items():
        found.add(_stem(core))
        for ending in endings:
            if core.endswith(ending) and len(core) - len(ending) >= MIN_CORE:
                found.add(_stem(core[: -len(ending)]))
    return frozenset(found)


def key_forms(word: str) -> tuple[Form, ...]:
    """How a folded key word is matched: as written, and by its stem unless short."""
    exact: Form = ("=", word)
    return (exact, ("~", _stem(word))) if len(word) >= MIN_STEM_KEY else (exact,)


def word_forms(word: str) -> frozenset[Form]:
    """Every form of folded `word` a key may match."""
    return frozenset({("=", word), *(("~", s) for s in word_stems(word))})


# A key's word class: nouns are written capitalized in the table ("Deck"), verbs as
# lower-case infinitives ("tappen"). `Classify` tells the class of a question's word
# ("noun", "verb", "adjective" or None when unsure); a stem match of another class is
# no match: "decken" and "deckt" are verb forms, no Deck; "moralisch" is no Moral;
# "Killer" is a noun, no "killen".
Classify = Callable[[str], str | None]
Entry = tuple[str | None, tuple[str, ...]]  # (word class or None, the corpus's words)


def _merge(old: Entry | None, cls: str | None, value: tuple[str, ...]) -> Entry:
    if old is None:
        return cls, value
    return (old[0] if old[0] == cls else None), tuple(dict.fromkeys((*old[1], *value)))


class JargonMatcher:
    """The table's keys by their forms: one-word keys, and two-word phrases by their
    second word. `nouns` are the folded key words written capitalized."""

    def __init__(
        self,
        table: Mapping[tuple[str, ...], tuple[str, ...]],
        nouns: frozenset[str] = frozenset(),
        classify: Classify | None = None,
    ):
        self.classify = classify
        self.single: dict[Form, Entry] = {}
        self.pairs: dict[Form, dict[Form, Entry]] = {}
        for key, value in table.items():
            cls = "noun" if key[-1] in nouns else "verb"
            slots: list[dict[Form, Entry]]
            if len(key) == 1:
                slots, firsts = [self.single], key_forms(key[0])
            else:
                slots = [self.pairs.setdefault(f, {}) for f in key_forms(key[1])]
                firsts = key_forms(key[0])
            for slot in slots:
                for first in firsts:
                    slot[first] = _merge(slot.get(first), cls, value)
        self.words: frozenset[Form] = frozenset(
            {*self.single, *self.pairs, *(f for inner in self.pairs.values() for f in inner)}
        )

    def _fits(self, form: Form, cls: str | None, word: str) -> bool:
        """A match as written always fits; a stem match needs no other word class."""
        if form[0] == "=" or cls is None or self.classify is None:
            return True
        found = self.classify(word)
        # a participle may read as an adjective ("gekillte"); a noun's forms never do
        return found is None or found == cls or (cls, found) == ("verb", "adjective")

    def expansion(self, prev: str, word: str) -> tuple[str, ...]:
        """The corpus's words for `word`, alone or after `prev` (folded words)."""
        mine = sorted(word_forms(word))  # one order in every process (sets hash by seed)
        found: list[str] = []
        for form in mine:
            entry = self.single.get(form)
            if entry is not None and self._fits(form, entry[0], word):
                found.extend(entry[1])
        if prev:
            before = word_forms(prev)
            for form in mine:
                for first, (cls, value) in self.pairs.get(form, {}).items():
                    if first in before and self._fits(form, cls, word):
                        found.extend(value)
        return tuple(dict.fromkeys(found))

    def knows(self, word: str) -> bool:
        """Whether folded `word` is (an inflection of) a word of a key."""
        return not self.words.isdisjoint(word_forms(word))


@cache
def _jargon() -> dict:
    data = resources.files("faq_bot").joinpath("data/jargon.toml").read_text("utf-8")
    return tomllib.loads(data)


@cache
def load_jargon() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Players' words and two-word phrases (`data/jargon.toml`), folded -> the
    corpus's folded words."""
    table: dict[tuple[str, ...], tuple[str, ...]] = {}
    for section in _jargon().values():
        for key, value in section.items():
            parts = tuple(words(key))
            if not 1 <= len(parts) <= 2:
                raise ValueError(f"jargon.toml: {key!r} is not one or two words")
            table[parts] = tuple(words(value))
    return table


def jargon_meanings() -> list[str]:
    """The table's values (the corpus's words) as the table writes them."""
    return [v for section in _jargon().values() for v in section.values()]


@cache
def jargon_nouns() -> frozenset[str]:
    """The folded key words written capitalized in the table: nouns."""
    return frozenset(
        fold(w)
        for section in _jargon().values()
        for key in section
        for w in _WORD.findall(key)
        if w[:1].isupper()
    )


@cache
def jargon_matcher() -> JargonMatcher:
    """The table's matcher without word classes (for the spelling check)."""
    return JargonMatcher(load_jargon())


def is_jargon_word(word: str) -> bool:
    """Whether `word` is a players' word or an inflection of one ("getappte"): never
    "corrected" as a typo."""
    return jargon_matcher().knows(fold(word))
