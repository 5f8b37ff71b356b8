"""German-aware text analysis: one analyzer for indexing and for queries.

`make_analyzer(vocabulary)` returns a Whoosh analyzer chain::

    tokenize (\\w+) | lowercase | fold umlauts | abbreviations and synonyms
        | split letters from digits | split compounds | infinitives of verb forms
        | stop words | Snowball stem

- Folding: "ä"/"ae" -> "a", "ö"/"oe" -> "o", "ü"/"ue" -> "u", "ß" -> "ss", so
  "Schäden", "Schaeden" and "Schaden" meet (see `faq_bot.text.fold`).
- Abbreviations and player slang come from `faq_bot/data/synonyms.toml`; the
  words a key stands for are added at the key's position ("TW" also yields
  "technologiewert").
- Compounds: a word that splits into two or three words of `vocabulary` (each at
  least three letters and no stop word, joined directly or by a linking "s",
  "es", "n", "en" or "e") also yields its parts at its own position, so "Stapel"
  finds "Aktionsstapel". Hyphenated words are split by the tokenizer already.
- Verb forms: a participle or finite form also yields its infinitive when the
  vocabulary has it ("gesperrt" -> "sperren", see `base_verb`).
- The stems come from PyStemmer's German Snowball stemmer.

Because the vocabulary is part of the analyzer, it is pickled into the index
schema: queries against an index are analyzed with the vocabulary of its corpus.

The word lists it reads are `faq_bot.lexicon`; HanTa's morphology is
`faq_bot.morphology`; spelling correction of query words is `faq_bot.spelling`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Iterable, Iterator, Mapping
from functools import cache
from typing import Any

from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer
from whoosh.analysis.acore import Token

from faq_bot.jargon import (
    JargonMatcher,
    jargon_meanings,
    jargon_nouns,
    load_jargon,
    stemmer,
)
from faq_bot.lexicon import MIN_WORD, load_stopwords, load_synonyms, synonym_table
from faq_bot.morphology import morphology, word_class
from faq_bot.text import FOLD_CACHED_LENGTH, fold, words

__all__ = [
    "AnyOf",
    "analyzer_terms",
    "base_verb",
    "entry_texts",
    "make_analyzer",
    "meanings",
    "part_vocabulary",
    "split_compound",
    "vocabulary_from_texts",
    "without_morphology",
]

MIN_COMPOUND = 7  # shortest word worth splitting
LINKS = ("", "s", "es", "n", "en", "e")

_DIGITS = re.compile(r"\d+|[^\W\d_]+")


def _reading_chain():
    """The analyzer's first part: words, their morphology, folded, with the
    tables' meanings of abbreviations and players' words added."""
    return (
        RegexTokenizer(r"\w+")
        | LowercaseFilter()
        | MorphFilter()
        | FoldFilter()
        | SynonymFilter(load_synonyms())
        | JargonFilter(load_jargon(), jargon_nouns())
    )


@cache
def _meaning_chain():
    return _reading_chain()


@cache
def _as_written() -> dict[str, str]:
    """Folded word of the tables' meanings -> the word as the table writes it."""
    meanings = [*synonym_table().get("abbreviations", {}).values()]
    meanings += jargon_meanings()
    return {fold(w): w for text in meanings for w in re.findall(r"\w+", text)}


def meanings(text: str) -> list[str]:
    """The corpus's words for the abbreviations and players' words in `text`
    ("TW", "tappen" -> "Technologiewert", "sperren"), as the tables write them,
    each once: the query analysis adds them as terms; the embedder, which knows
    neither table, is given them as words (`faq_bot.hybrid.embedding_text`)."""
    added = (
        t.text
        for t in _meaning_chain()(text, mode="query")
        if getattr(t, "extra", None) == "synonym"
    )
    written = _as_written()
    return [written.get(w, w) for w in dict.fromkeys(added)]


def entry_texts(entry: Any) -> tuple[str, ...]:
    """The texts of an entry (a corpus `Entry` or an index `EntryRecord`) that a build
    analyses and its vocabulary counts: title, aliases, category, section, paragraphs."""
    e = entry
    return (e.title, *e.aliases, e.category or "", e.section or "", *e.plain_paragraphs)


def vocabulary_from_texts(texts: Iterable[str]) -> Counter[str]:
    """Folded word counts of `texts` (letters only, at least three of them)."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(w for w in words(text) if len(w) >= MIN_WORD and w.isalpha())
    return counts


def part_vocabulary(vocabulary: Iterable[str]) -> frozenset[str]:
    """`vocabulary` plus the tails that follow one known word with two linking forms.

    "Schadenverteilungsphase" and "Schadensverteilungsphase" both end in
    "verteilungsphase" after the known word "schaden": that tail becomes a part,
    so the two spellings share their parts.
    """
    vocab = frozenset(vocabulary)
    stop = load_stopwords()
    links: dict[tuple[str, str], set[str]] = {}
    for word in vocab:
        if len(word) < MIN_COMPOUND or not word.isalpha():
            continue
        for i in range(MIN_WORD, len(word) - MIN_WORD + 1):
            head = word[:i]
            if head not in vocab or head in stop:
                continue
            for link in LINKS:
                tail = word[i + len(link) :]
                if word.startswith(link, i) and len(tail) >= 5:
                    links.setdefault((head, tail), set()).add(link)
    return vocab | {tail for (_head, tail), ls in links.items() if len(ls) >= 2}


class AnyOf:
    """Words of any of some word sets, looked up in each: no union is built."""

    __slots__ = ("_sets",)

    def __init__(self, *sets: Container[str]):
        self._sets = sets

    def __contains__(self, word: object) -> bool:
        return any(word in s for s in self._sets)


def split_compound(
    word: str, vocabulary: Iterable[str] | frozenset[str] | AnyOf
) -> tuple[str, ...]:
    """The parts of a folded compound word, or () when it is no known compound.

    Prefers the split with the fewest parts, then the one whose shortest part is
    longest. At most three parts.
    """
    vocab = vocabulary if isinstance(vocabulary, frozenset | set | AnyOf) else frozenset(vocabulary)
    if len(word) < MIN_COMPOUND or not word.isalpha():
        return ()
    stop = load_stopwords()

    def known(part: str) -> bool:
        return len(part) >= MIN_WORD and part in vocab and part not in stop

    def best(w: str, depth: int) -> tuple[str, ...] | None:
        choice: tuple[str, ...] | None = None
        for i in range(MIN_WORD, len(w) - MIN_WORD + 1):
            head = w[:i]
            if not known(head):
                continue
            for link in LINKS:
                tail = w[i + len(link) :]
                if not w.startswith(link, i) or len(tail) < MIN_WORD:
                    continue
                if known(tail):
                    cand: tuple[str, ...] | None = (head, tail)
                elif depth < 2:
                    rest = best(tail, depth + 1)
                    cand = (head, *rest) if rest else None
                else:
                    cand = None
                if cand and (
                    choice is None
                    or (len(cand), -min(map(len, cand))) < (len(choice), -min(map(len, choice)))
                ):
                    choice = cand
        return choice

    return best(word, 1) or ()


# --- Whoosh filters ---------------------------------------------------------------


def _copy(t: Token, text: str, kind: str) -> Token:
    """An added term at the position of the word `t`; `extra` says which filter added it:
    "synonym", "digits", "part" (of a compound), "verb" (an infinitive), "lemma"
    or "root" (HanTa's lemma and verb root)."""
    c = t.copy()
    c.text = text
    c.extra = kind
    return c


class MorphFilter(Filter):
    """Adds HanTa's lemma, compound parts and verb roots of a word (see
    `morphology`) at its position; runs before folding, so HanTa sees umlauts. Only a
    query's words count against a request's `morphology_budget`: the corpus's (analysed
    with mode "index", and cached for the build) never go without their terms."""

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:
        stop = load_stopwords()
        for t in tokens:
            counted = getattr(t, "mode", "query") != "index"
            extra = () if fold(t.text) in stop else morphology(t.text, counted=counted)
            if not extra:
                yield t
                continue
            copies = [_copy(t, term, kind) for term, kind in extra]
            yield t
            yield from copies


class FoldFilter(Filter):
    """Umlauts and ß folded (`faq_bot.text.fold`)."""

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:
        for t in tokens:
            t.text = fold(t.text)
            yield t


class SynonymFilter(Filter):
    """Adds the words an abbreviation stands for at the abbreviation's position."""

    def __init__(self, table: Mapping[str, tuple[str, ...]]):
        self.table = dict(table)

    def expansion(self, prev: str, word: str) -> tuple[str, ...]:
        return self.table.get(word, ())

    def applies(self, t: Token) -> bool:
        return True

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:
        prev = ""
        for t in tokens:
            expansion = self.expansion(prev, t.text) if self.applies(t) else ()
            if not getattr(t, "extra", False):
                prev = t.text
            if not expansion:
                yield t
                continue
            extra = [_copy(t, w, "synonym") for w in dict.fromkeys(expansion) if w != t.text]
            yield t
            yield from extra


class JargonFilter(SynonymFilter):
    """In questions only, adds the corpus's words for a player's word or two-word
    phrase ("tappen", "getappt", "quer drehen" -> "sperren") at the (last) word's
    position; keys match inflected words by stem (see `faq_bot.jargon`). Only the
    question's own words are matched, not the terms other filters added."""

    def __init__(
        self,
        table: Mapping[tuple[str, ...], tuple[str, ...]],
        nouns: frozenset[str] = frozenset(),
    ):
        self.table = dict(table)  # type: ignore[arg-type]
        self.nouns = frozenset(nouns)

    def __getstate__(self):
        return {"table": self.table, "nouns": self.nouns}

    def __setstate__(self, state):
        self.table = state["table"]
        # an index built before the word-class guard pickled no nouns: the shipped
        # table's nouns, so its noun keys are not matched as verbs ("decken" -> Deck)
        self.nouns = state.get("nouns") or jargon_nouns()

    def __eq__(self, other):
        return type(other) is type(self) and (other.table, other.nouns) == (self.table, self.nouns)

    def __hash__(self):
        return hash(len(self.table))

    @property
    def matcher(self) -> JargonMatcher:
        # built on first use, not pickled: indexes keep only the table
        found = self.__dict__.get("_matcher")
        if found is None:
            found = JargonMatcher(self.table, self.nouns, word_class)  # type: ignore[arg-type]
            self.__dict__["_matcher"] = found
        return found

    def expansion(self, prev: str, word: str) -> tuple[str, ...]:
        return self.matcher.expansion(prev, word)

    def applies(self, t: Token) -> bool:
        return t.mode == "query" and not getattr(t, "extra", False)


class DigitSplitFilter(Filter):
    """A word mixing digits and letters ("227er", "w6") also yields its runs."""

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:
        for t in tokens:
            runs = _DIGITS.findall(t.text)
            if len(runs) < 2:
                yield t
                continue
            extra = [_copy(t, r, "digits") for r in runs]
            yield t
            yield from extra


class DecompoundFilter(Filter):
    """A compound of known words also yields its parts at its own position."""

    def __init__(self, vocabulary: Iterable[str] = ()):
        self.vocabulary = frozenset(vocabulary)
        self._cache: dict[str, tuple[str, ...]] = {}

    def __getstate__(self):
        return {"vocabulary": self.vocabulary}

    def __setstate__(self, state):
        self.vocabulary = state["vocabulary"]
        self._cache = {}

    def __eq__(self, other):
        return type(other) is type(self) and other.vocabulary == self.vocabulary

    def __hash__(self):
        return hash(len(self.vocabulary))

    def parts(self, word: str) -> tuple[str, ...]:
        try:
            return self._cache[word]
        except KeyError:
            parts = split_compound(word, self.vocabulary) if self.vocabulary else ()
            if len(word) > FOLD_CACHED_LENGTH:  # a query's overlong word: not kept
                return parts
            if len(self._cache) > 200_000:  # bounded: queries bring arbitrary words
                self._cache.clear()
            self._cache[word] = parts
            return parts

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:
        for t in tokens:
            parts = self.parts(t.text)
            if not parts:
                yield t
                continue
            extra = [_copy(t, p, "part") for p in parts]
            yield t
            yield from extra


_VERB_ENDINGS = ("t", "te", "ten", "tes", "ter", "tem", "et", "ete", "eten")


def base_verb(word: str, vocabulary: frozenset[str]) -> str | None:
    """The infinitive in `vocabulary` of a folded participle or finite verb form.

    "gesperrt", "gesperrte", "sperrt" -> "sperren"; "verzahlt" -> "verzahlen".
    The Snowball stemmer leaves these apart; this joins them. None when no
    infinitive of the form is in the vocabulary.
    """
    if len(word) < 5 or not word.isalpha():
        return None
    cores: list[tuple[str, tuple[str, ...]]] = [(word, _VERB_ENDINGS)]
    if word.startswith("ge") and len(word) >= 6:
        cores.append((word[2:], (*_VERB_ENDINGS, "en", "ene", "enen", "enes")))
    for core, endings in cores:
        for ending in endings:
            if not core.endswith(ending) or len(core) - len(ending) < 4:
                continue
            base = core[: -len(ending)]
            for infinitive in (base + "en", base + "n"):
                if infinitive != word and infinitive in vocabulary:
                    return infinitive
    return None


class VerbFormFilter(Filter):
    """A participle or finite verb form also yields its infinitive ("gesperrt" -> "sperren")."""

    def __init__(self, vocabulary: Iterable[str] = ()):
        self.vocabulary = frozenset(vocabulary)

    def __eq__(self, other):
        return type(other) is type(self) and other.vocabulary == self.vocabulary

    def __hash__(self):
        return hash(len(self.vocabulary))

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:
        for t in tokens:
            base = base_verb(t.text, self.vocabulary) if self.vocabulary else None
            yield t
            if base is not None:
                yield _copy(t, base, "verb")


class GermanStopFilter(Filter):
    """Drops stop words (German function words and question phrasing)."""

    def __init__(self, stopwords: Iterable[str]):
        self.stopwords = frozenset(stopwords)

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:
        for t in tokens:
            if t.text not in self.stopwords:
                yield t
            elif t.mode == "query" and t.removestops is False:
                yield t


class GermanStemFilter(Filter):
    """German Snowball stems with the thread's stemmer (`faq_bot.jargon.stemmer`:
    PyStemmer's are not thread-safe)."""

    def __getstate__(self):
        # an empty state, pickled into the index's schema: releases before the shared
        # stemmer set their per-instance stemmer up in __setstate__, which runs only when
        # the pickle carries a state, so an index built now still opens with them
        return {}

    def __eq__(self, other):
        return type(other) is type(self)

    def __hash__(self):
        return hash(type(self))

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:
        stem = stemmer().stemWord
        here: set[str] = set()
        for t in tokens:
            if not t.text.isdigit():
                t.text = stem(t.text)
            # added terms may stem to the word's own stem: emit each once per position
            if not getattr(t, "extra", False):
                here = set()
            elif t.text in here:
                continue
            here.add(t.text)
            yield t


def make_analyzer(vocabulary: Iterable[str] = ()):
    """The analyzer chain; `vocabulary` (folded corpus words) drives compound splitting."""
    vocabulary = frozenset(vocabulary)
    return (
        _reading_chain()
        | DigitSplitFilter()
        | DecompoundFilter(vocabulary)
        | VerbFormFilter(vocabulary)
        | GermanStopFilter(load_stopwords())
        | GermanStemFilter()
    )


def without_morphology(analyzer):
    """`analyzer` without its `MorphFilter`: the same terms for each word itself, in
    the same places, only none of HanTa's added terms. For work that needs only
    the words' own terms: HanTa costs milliseconds per word it has not seen."""
    from whoosh.analysis import CompositeAnalyzer

    items = getattr(analyzer, "items", None)
    if items is None or not any(isinstance(f, MorphFilter) for f in items):
        return analyzer
    return CompositeAnalyzer(*(f for f in items if not isinstance(f, MorphFilter)))


def analyzer_terms(analyzer, text: str, mode: str = "query") -> list[str]:
    """The distinct terms `analyzer` makes of `text`, in order of first appearance."""
    seen: dict[str, None] = {}
    for t in analyzer(text, mode=mode):
        seen.setdefault(t.text, None)
    return list(seen)
