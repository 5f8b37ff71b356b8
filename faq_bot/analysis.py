"""German-aware text analysis: one analyzer for indexing and for queries.

`make_analyzer(vocabulary)` returns a Whoosh analyzer chain::

    tokenize (\\w+) | lowercase | fold umlauts | abbreviations and synonyms
        | split letters from digits | split compounds | infinitives of verb forms
        | stop words | Snowball stem

- Folding: "ä"/"ae" -> "a", "ö"/"oe" -> "o", "ü"/"ue" -> "u", "ß" -> "ss", so
  "Schäden", "Schaeden" and "Schaden" meet (see `fold`).
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

`correct_word(word, counts)` proposes a spelling correction at edit distance 1
(a transposition counts as one edit) for words of five or more letters.
"""

from __future__ import annotations

import re
import threading
import tomllib
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from functools import cache, lru_cache
from importlib import resources

from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer
from whoosh.analysis.acore import Token
from whoosh.lang.stopwords import stoplists

from faq_bot.jargon import (  # noqa: F401  (re-exported)
    JargonMatcher,
    is_jargon_word,
    jargon_meanings,
    jargon_nouns,
    load_jargon,
    stemmer,
)
from faq_bot.text import fold, words  # noqa: F401  (re-exported)

__all__ = [
    "COMMON_ZIPF",
    "MIN_FUZZY_LENGTH",
    "analyzer_terms",
    "base_verb",
    "common_words",
    "correct_word",
    "correctable",
    "edits1",
    "fold",
    "hanta_analysis",
    "install_analyses",
    "is_jargon_word",
    "known_compound",
    "load_jargon",
    "load_stopwords",
    "load_synonyms",
    "make_analyzer",
    "meanings",
    "morphology",
    "morphology_words",
    "part_vocabulary",
    "split_compound",
    "vocabulary_from_texts",
    "without_morphology",
    "word_class",
    "words",
]

MIN_PART = 3  # shortest compound part
MIN_COMPOUND = 7  # shortest word worth splitting
MIN_FUZZY_LENGTH = 5  # typo tolerance applies to words at least this long
# A word at least this frequent in German (Zipf scale: 3 = once per million words,
# the scale's line between everyday and rare words) is never "corrected".
COMMON_ZIPF = 3.0
LINKS = ("", "s", "es", "n", "en", "e")

_WORD = re.compile(r"\w+")
_DIGITS = re.compile(r"\d+|[^\W\d_]+")


@cache
def _table() -> dict:
    data = resources.files("faq_bot").joinpath("data/synonyms.toml").read_text("utf-8")
    return tomllib.loads(data)


@cache
def load_synonyms() -> dict[str, tuple[str, ...]]:
    """Folded abbreviation -> the folded words it stands for."""
    table = _table().get("abbreviations", {})
    return {fold(k): tuple(words(v)) for k, v in table.items()}


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
    meanings = [*_table().get("abbreviations", {}).values()]
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


@cache
def common_words() -> frozenset[str]:
    """Folded common German words (Zipf >= `COMMON_ZIPF`), from
    `data/common_words_de.txt` (written by `scripts/make-common-words`)."""
    text = resources.files("faq_bot").joinpath("data/common_words_de.txt").read_text("utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


@cache
def load_stopwords() -> frozenset[str]:
    extra = _table().get("stopwords", {}).get("words", [])
    return frozenset(fold(w) for w in (*stoplists["de"], *extra))


def vocabulary_from_texts(texts: Iterable[str]) -> Counter[str]:
    """Folded word counts of `texts` (letters only, at least three of them)."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(w for w in words(text) if len(w) >= MIN_PART and w.isalpha())
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
        for i in range(MIN_PART, len(word) - MIN_PART + 1):
            head = word[:i]
            if head not in vocab or head in stop:
                continue
            for link in LINKS:
                tail = word[i + len(link) :]
                if word.startswith(link, i) and len(tail) >= 5:
                    links.setdefault((head, tail), set()).add(link)
    return vocab | {tail for (_head, tail), ls in links.items() if len(ls) >= 2}


class _Either:
    """Words of any of some word sets, looked up in each: no union is built."""

    __slots__ = ("_sets",)

    def __init__(self, *sets: Container[str]):
        self._sets = sets

    def __contains__(self, word: object) -> bool:
        return any(word in s for s in self._sets)


def split_compound(
    word: str, vocabulary: Iterable[str] | frozenset[str] | _Either
) -> tuple[str, ...]:
    """The parts of a folded compound word, or () when it is no known compound.

    Prefers the split with the fewest parts, then the one whose shortest part is
    longest. At most three parts.
    """
    vocab = (
        vocabulary if isinstance(vocabulary, frozenset | set | _Either) else frozenset(vocabulary)
    )
    if len(word) < MIN_COMPOUND or not word.isalpha():
        return ()
    stop = load_stopwords()

    def known(part: str) -> bool:
        return len(part) >= MIN_PART and part in vocab and part not in stop

    def best(w: str, depth: int) -> tuple[str, ...] | None:
        choice: tuple[str, ...] | None = None
        for i in range(MIN_PART, len(w) - MIN_PART + 1):
            head = w[:i]
            if not known(head):
                continue
            for link in LINKS:
                tail = w[i + len(link) :]
                if not w.startswith(link, i) or len(tail) < MIN_PART:
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
    return bool(split_compound(word, _Either(counts, common_words())))


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


# --- morphology (HanTa) -------------------------------------------------------------

MORPH_CACHE = 65_536  # words whose analysis is kept; bounded, queries bring any word
# longest word HanTa analyses: its time grows steeply with length (a 500-letter query word
# took 2 s of CPU, 160 letters 0.2 s); the corpus's longest word has 31 letters
MORPH_MAX_WORD = 40
_MORPH_LOCK = threading.Lock()  # HanTa keeps internal state; one analysis at a time
_CONTENT_TAGS = ("NN", "NE", "VV", "ADJ")
HantaAnalysis = tuple[str, tuple[tuple[str, str], ...]]


@cache
def _tagger():
    """The Hanover Tagger with its shipped German model, or None where it cannot
    load (then the analyzer simply adds no morphology)."""
    try:
        from HanTa import HanoverTagger  # type: ignore[import-untyped]

        return HanoverTagger.HanoverTagger("morphmodel_ger.pgz")
    except Exception:  # noqa: BLE001 - any failure means: no morphology
        return None


# HanTa's analyses of the corpus words, installed by the index build from its cache
# (`faq_bot.morphcache`): a rebuild of unchanged text runs no HanTa analysis.
_KNOWN: Mapping[str, HantaAnalysis | None] = {}


def hanta_analysis(word: str) -> HantaAnalysis | None:
    """HanTa's (lemma, morphemes) of lower-case `word` (``taglevel=3`` without the
    tag), or None where HanTa is missing or fails on it. Deterministic per word."""
    known = _KNOWN  # one table throughout, though another build may install its own
    if word in known:
        return known[word]
    tagger = _tagger()
    if tagger is None:
        return None
    try:
        with _MORPH_LOCK:
            lemma, morphemes, _tag = tagger.analyze(word, taglevel=3)
    except Exception:  # noqa: BLE001 - HanTa fails on odd input: no analysis
        return None
    return str(lemma), tuple((str(m), str(t)) for m, t in morphemes)


def install_analyses(known: Mapping[str, HantaAnalysis | None]) -> None:
    """Use these HanTa analyses instead of running HanTa on their words."""
    global _KNOWN
    _KNOWN = known


def morphology_words(text: str) -> set[str]:
    """The lower-case words of `text` the analyzer asks `morphology` about."""
    stop = load_stopwords()
    return {
        w
        for w in (m.lower() for m in _WORD.findall(text))
        if len(w) >= 4 and w.isalpha() and fold(w) not in stop
    }


@lru_cache(maxsize=MORPH_CACHE)
def morphology(word: str) -> tuple[tuple[str, str], ...]:
    """(term, kind) pairs HanTa adds for lower-case `word`, folded, without the
    word itself: its "lemma" ("einheiten" -> "einheit", "getarnt" -> "tarn"), the
    "part"s of a compound in its lexicon ("starthand" -> "start", "hand"), and
    verb "root"s ("ungesperrt" -> "sperr", "tarnung" -> "tarn")."""
    if not 4 <= len(word) <= MORPH_MAX_WORD or not word.isalpha():
        return ()
    raw = hanta_analysis(word)
    if raw is None:
        return ()
    lemma, morphemes = raw
    found: dict[str, str] = {fold(lemma): "lemma"}
    content = [m for m, tag in morphemes if tag.startswith(_CONTENT_TAGS)]
    if len(content) >= 2:
        for m in content:
            found.setdefault(fold(m), "part")
    for m, tag in morphemes:
        if tag.startswith("VV"):
            found.setdefault(fold(m), "root")
    if lemma.endswith("ung") and len(lemma) >= 7:
        found.setdefault(fold(lemma[:-3]), "root")
    own = fold(word)
    stop = load_stopwords()
    return tuple(
        (t, kind)
        for t, kind in found.items()
        if t != own and len(t) >= MIN_PART and t.isalpha() and t not in stop
    )


@lru_cache(maxsize=MORPH_CACHE)
def word_class(word: str) -> str | None:
    """HanTa's word class of a folded common German word (see `common_words`): "verb"
    when it analyses it as a verb form, else "noun" or "adjective", else None. None
    for a rare word: HanTa guesses at words its lexicon lacks ("deploye" a noun)."""
    if not 4 <= len(word) <= MORPH_MAX_WORD or not word.isalpha() or word not in common_words():
        return None
    raw = hanta_analysis(word)
    tags = [tag for _m, tag in raw[1]] if raw is not None else []
    if any(tag.startswith("VV") for tag in tags):
        return "verb"
    if any(tag.startswith(("NN", "NE")) for tag in tags):
        return "noun"
    if any(tag.startswith("ADJ") for tag in tags):
        return "adjective"
    return None


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
    `morphology`) at its position; runs before folding, so HanTa sees umlauts."""

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:
        stop = load_stopwords()
        for t in tokens:
            extra = () if fold(t.text) in stop else morphology(t.text)
            if not extra:
                yield t
                continue
            copies = [_copy(t, term, kind) for term, kind in extra]
            yield t
            yield from copies


class FoldFilter(Filter):
    """Umlauts and ß folded (see `fold`)."""

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
