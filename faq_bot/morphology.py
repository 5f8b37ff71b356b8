"""German morphology from HanTa (the Hanover Tagger, with its shipped German model).

``morphology(word)``: the (term, kind) pairs the analyzer adds for a word: its lemma, the
parts of a compound in HanTa's lexicon and verb roots (`faq_bot.analysis.MorphFilter`).
``word_class(word)``: "verb", "noun" or "adjective" for a common German word.
``inflected_noun(word)``: whether HanTa reads a word as a noun with a suffix ("Punkte").
``hanta_analysis(word)``: HanTa's raw (lemma, morphemes); ``install_analyses(known)`` lets
an index build use the analyses it cached (`faq_bot.morphcache`) instead of running HanTa.
``tagger()``: the tagger itself (sentences too), or None where HanTa cannot load (then
nothing is added). ``morphology_budget(n)``: within it, HanTa's terms only for distinct
words whose costs (`word_cost`) sum to at most n (a web request; see
`MORPH_REQUEST_COST`). Words are analysed by a leaner copy (`word_tagger`): a serving
worker never tags sentences. Both caches are bounded: queries bring any word.
"""

from __future__ import annotations

import gzip
import pickle
import re
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path

from faq_bot.lexicon import MIN_WORD, common_words, load_stopwords
from faq_bot.text import compatible, fold

__all__ = [
    "MORPH_CACHE",
    "MORPH_MAX_WORD",
    "MORPH_REQUEST_COST",
    "HantaAnalysis",
    "hanta_analysis",
    "inflected_noun",
    "install_analyses",
    "morphology",
    "morphology_budget",
    "morphology_words",
    "tagger",
    "word_class",
    "word_cost",
    "word_tagger",
]

_WORD = re.compile(r"\w+")

MORPH_CACHE = 65_536  # words whose analysis is kept; bounded, queries bring any word
# longest word HanTa analyses: its time grows steeply with length (a 500-letter query word
# took 2 s of CPU, 160 letters 0.2 s); the corpus's longest word has 31 letters
MORPH_MAX_WORD = 40
# what the distinct words of a user's text may cost HanTa in one web request
# (`morphology_budget`), each counted by `word_cost`: its length squared plus 12, as HanTa's
# time grows (measured on made-up words, 2-core machine idle: 17.6 to 23.9 us per unit from
# 4 to 40 letters; 4 letters 0.5 ms, 10 letters 2.2 ms, 40 letters 38.5 ms), so this bounds
# a request at about 0.7 to 1 s of HanTa behind its lock, whatever the words' lengths.
# Counted in letters (3,000) it allowed 75 words of 40 letters, 2.9 s idle and 4.7 s on a
# busy machine (an adversarial probe; five such posts at once held /healthz for 10 s).
# Real questions use at most about half of it, as they used of the letters: the page's
# ten earlier turns and a question, the costliest of eval/'s 22,000 seen questions, 19,073
# (spelling candidates and folded forms count too); eleven drawn at random 6,200 (median)
# to 8,128. Deterministic: a word counts whether its analysis is cached or not.
MORPH_REQUEST_COST = 40_000
_MORPH_LOCK = threading.Lock()  # HanTa keeps internal state; one analysis at a time
_CONTENT_TAGS = ("NN", "NE", "VV", "ADJ")
HantaAnalysis = tuple[str, tuple[tuple[str, str], ...]]


MODEL = "morphmodel_ger.pgz"
# HanTa's model is a tuple of 16 tables; the 10th (LP_trans_word) holds the sentence
# tagger's word transitions, 11 of the 25 MiB the loaded model takes, read only by
# `tag_sent`: a word's `analyze` never reads it
_MODEL_TABLES, _SENTENCE_TABLE = 16, 9


# the taggers load once per process: threads that ask at once (a worker's first
# questions) wait for the one load instead of each loading its own (25 MiB apiece)
_LOADING = threading.RLock()


def tagger():
    """The Hanover Tagger with its shipped German model, or None where it cannot
    load (then the analyzer simply adds no morphology)."""
    with _LOADING:
        return _tagger()


def word_tagger():
    """The tagger for single words: HanTa's model without its sentence table, so a
    serving worker holds about 11 MiB less; its analyses are those of `tagger` (a test
    compares). Where the full tagger is loaded already (a build), that one; where the
    model is not as expected, the full tagger too."""
    with _LOADING:
        return _word_tagger()


@cache
def _tagger():
    try:
        from HanTa import HanoverTagger  # type: ignore[import-untyped]

        return HanoverTagger.HanoverTagger(MODEL)
    except Exception:  # noqa: BLE001 - any failure means: no morphology
        return None


@cache
def _word_tagger():
    if _tagger.cache_info().currsize:
        return _tagger()
    try:
        found = _lean_tagger()
    except Exception:  # noqa: BLE001 - the full tagger's way, with its own fallback
        found = None
    return found if found is not None else _tagger()


def _lean_tagger():
    """A new HanTa tagger from its German model without the sentence table, or None
    where the model is not as expected (`word_tagger` loads it once)."""
    from HanTa import HanoverTagger

    with gzip.open(Path(HanoverTagger.__file__).with_name(MODEL)) as fh:
        model = list(pickle.load(fh))  # what HanTa itself does with its file
    if len(model) != _MODEL_TABLES or not isinstance(model[_SENTENCE_TABLE], dict):
        return None
    model[_SENTENCE_TABLE] = {}
    lean = pickle.dumps(tuple(model), protocol=pickle.HIGHEST_PROTOCOL)
    # the full model goes before the lean one is built from bytes: its memory is
    # freed whole instead of staying as the lean tables' fragmented neighbours
    del model
    found = HanoverTagger.HanoverTagger(None, model=pickle.loads(lean))
    found.strict = False  # as when HanTa loads a model file
    return found


# HanTa's analyses of the corpus words, installed by the index build from its cache
# (`faq_bot.morphcache`): a rebuild of unchanged text runs no HanTa analysis.
_KNOWN: Mapping[str, HantaAnalysis | None] = {}


def hanta_analysis(word: str) -> HantaAnalysis | None:
    """HanTa's (lemma, morphemes) of lower-case `word` (``taglevel=3`` without the
    tag), or None where HanTa is missing or fails on it. Deterministic per word."""
    known = _KNOWN  # one table throughout, though another build may install its own
    if word in known:
        return known[word]
    found = word_tagger()
    if found is None:
        return None
    try:
        with _MORPH_LOCK:
            lemma, morphemes, _tag = found.analyze(word, taglevel=3)
    except Exception:  # noqa: BLE001 - HanTa fails on odd input: no analysis
        return None
    return str(lemma), tuple((str(m), str(t)) for m, t in morphemes)


def install_analyses(known: Mapping[str, HantaAnalysis | None]) -> None:
    """Use these HanTa analyses instead of running HanTa on their words."""
    global _KNOWN
    _KNOWN = known


def morphology_words(text: str) -> set[str]:
    """The lower-case words of `text` the analyzer asks `morphology` about, in the
    compatibility form `morphology` reads them in (its table's keys)."""
    stop = load_stopwords()
    return {
        w
        for w in (compatible(m).lower() for m in _WORD.findall(text))
        if len(w) >= 4 and w.isalpha() and fold(w) not in stop
    }


def word_cost(word: str) -> int:
    """What analysing `word` costs HanTa, in units of about 20 us: its time grows with the
    square of the word's length, plus a part per word (see `MORPH_REQUEST_COST`)."""
    return len(word) ** 2 + 12


class _Budget:
    __slots__ = ("left", "seen")

    def __init__(self, cost: int):
        self.left = cost
        self.seen: set[str] = set()

    def allows(self, word: str) -> bool:
        if word in self.seen:
            return True
        cost = word_cost(word)
        if self.left < cost:
            return False
        self.left -= cost
        self.seen.add(word)
        return True


_BUDGET: ContextVar[_Budget | None] = ContextVar("morphology_budget", default=None)


@contextmanager
def morphology_budget(cost: int = MORPH_REQUEST_COST) -> Iterator[None]:
    """Within it, `morphology` gives HanTa's terms for the distinct words it is asked about
    while their costs (`word_cost`) fit in `cost`, and () for a word that does not fit
    any more (the words' own terms stay)."""
    token = _BUDGET.set(_Budget(cost))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def morphology(word: str, counted: bool = True) -> tuple[tuple[str, str], ...]:
    """(term, kind) pairs HanTa adds for lower-case `word`, folded, without the
    word itself: its "lemma" ("einheiten" -> "einheit", "getarnt" -> "tarn"), the
    "part"s of a compound in its lexicon ("starthand" -> "start", "hand"), and
    verb "root"s ("ungesperrt" -> "sperr", "tarnung" -> "tarn"). Cached per word; a
    word that is not analysed (too short or long, not letters) is not kept. Within
    `morphology_budget`, () once its cost is used up, for a word that is `counted`
    (a user's; the corpus's words are not: their terms are cached for the whole build).
    HanTa reads the word in compatibility form (`compatible`): „ﬂughafen“ pasted from a
    PDF (a ligature) or typed full-width got none of „flughafen“'s terms, so a search for
    it matched 2 entries of 20 (an API probe); math letters („𝐓“) have no lower case
    of their own, so the word is lowered once more."""
    word = compatible(word).lower()
    if not 4 <= len(word) <= MORPH_MAX_WORD or not word.isalpha():
        return ()
    budget = _BUDGET.get() if counted else None
    if budget is not None and not budget.allows(word):
        return ()
    return _morphology(word)


@lru_cache(maxsize=MORPH_CACHE)
def _morphology(word: str) -> tuple[tuple[str, str], ...]:
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
        if t != own and len(t) >= MIN_WORD and t.isalpha() and t not in stop
    )


def word_class(word: str) -> str | None:
    """HanTa's word class of a folded common German word (see `common_words`): "verb"
    when it analyses it as a verb form, else "noun" or "adjective", else None. None
    for a rare word: HanTa guesses at words its lexicon lacks ("deploye" a noun)."""
    if not 4 <= len(word) <= MORPH_MAX_WORD or not word.isalpha() or word not in common_words():
        return None
    return _word_class(word)


@lru_cache(maxsize=MORPH_CACHE)
def inflected_noun(word: str) -> bool:
    """Whether HanTa reads common German `word` (as typed) as a noun with a noun suffix:
    a plural or an oblique case ("Punkte", "Reaktionen", "Schiffes"), never a neuter
    singular nominative or accusative. A nominalised verb ("Abwerfen") is read as a verb
    form; a rare word is not read at all (HanTa takes the typo "Ereigniss" for a form)."""
    lower = word.lower()  # not folded: HanTa reads umlauts
    if not MIN_WORD <= len(lower) <= MORPH_MAX_WORD or not lower.isalpha():
        return False
    if fold(lower) not in common_words():
        return False
    raw = hanta_analysis(lower)
    if raw is None or len(raw[1]) < 2:
        return False
    morphemes = raw[1]
    return morphemes[0][1].startswith("NN") and morphemes[-1][1] == "SUF_NN"


@lru_cache(maxsize=MORPH_CACHE)
def _word_class(word: str) -> str | None:
    raw = hanta_analysis(word)
    tags = [tag for _m, tag in raw[1]] if raw is not None else []
    if any(tag.startswith("VV") for tag in tags):
        return "verb"
    if any(tag.startswith(("NN", "NE")) for tag in tags):
        return "noun"
    if any(tag.startswith("ADJ") for tag in tags):
        return "adjective"
    return None
