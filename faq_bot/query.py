"""Query analysis: a search query checked, corrected and turned into weighted index terms.

The query is analyzed with the index's own analyzer (see `faq_bot.analysis`); it
is never parsed as query syntax, so quotes, ``AND``, ``*`` and brackets are just
characters. Words that are not in the corpus (five letters or more) are
corrected at edit distance 1. (`faq_bot.question` is another step: it
normalises a chat question's phrasing before it is searched.)

``analyze_query(index, query, *, correct=True) -> AnalyzedQuery``
    The corrected query as weighted index terms, grouped by query word
    (``AnalyzedQuery.words``); ``suggestion`` is the corrected query if a word
    was corrected. Terms the analyzer adds to a word weigh less than the word
    itself (`EXTRA_WEIGHTS`). Raises `QueryError` (German message) for an empty
    query or one longer than `MAX_QUERY_LENGTH`.

``unknown_words(index, query) -> list[str]``
    Words of the query the corpus does not know and no correction fixes.

``longer_words(index, word, doc=None, category=None) -> list[str]``
    Corpus words that begin or end with such a word („Fernkampf“: „Fernkampfphase“);
    ``longer_words_of(index, words, doc=None, category=None)`` pairs each word that has some
    with them; with a document or category filter, only words entries it admits hold.

``corpus_spelling(index, text) -> str``
    `text` with umlauts written out („Laender“) spelt as the documents spell them
    („Länder“): what the embedder reads (`faq_bot.hybrid.embedding_text`).

Ranking the analyzed query is `faq_bot.search`'s.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from faq_bot.analysis import (
    LINKS,
    AnyOf,
    entry_texts,
    split_compound,
    vocabulary_from_texts,
    without_morphology,
)
from faq_bot.errors import InputError
from faq_bot.impacts import impacts
from faq_bot.index import WARMERS, Index
from faq_bot.jargon import is_jargon_word
from faq_bot.lexicon import common_words, load_stopwords, load_synonyms
from faq_bot.morphcache import build_table
from faq_bot.morphology import hanta_analysis, morphology
from faq_bot.spelling import (
    MIN_FUZZY_LENGTH,
    correct_word,
    correctable,
    edits1,
    known_compound,
    sound_alikes,
    sound_key,
)
from faq_bot.text import (
    clean_input,
    fold,
    fold_letters,
    slugify,
    written_out,
    written_out_spellings,
)

__all__ = [
    "EXTRA_WEIGHTS",
    "MAX_QUERY_LENGTH",
    "AnalyzedQuery",
    "QueryError",
    "analyze_query",
    "corpus_spelling",
    "longer_words",
    "longer_words_of",
    "main_terms",
    "unknown_words",
]

MAX_QUERY_LENGTH = 500
# Weight of terms the analyzer adds to a word, by the filter that added them: an
# infinitive or an abbreviation's meaning is nearly the word itself; a compound
# part or a digit run matches only part of it.
EXTRA_WEIGHTS = {
    # the same word in another form counts almost fully; a part or a root of it half
    "verb": 0.9,
    "synonym": 0.9,
    "lemma": 0.9,
    "part": 0.5,
    "root": 0.5,
    "digits": 0.5,
}

_WORD = re.compile(r"\w+")


class QueryError(InputError):
    """The query cannot be searched; the message (German) says why."""


@dataclass
class AnalyzedQuery:
    """A query after correction and analysis (see `analyze_query`).

    ``text`` is the corrected query, ``terms`` maps each index term to its weight
    (1 for a word's own term, less for terms a filter added, see `EXTRA_WEIGHTS`),
    ``suggestion`` is the corrected query if a word was corrected, ``words``
    holds one set of terms per query word (the word's own term and the terms
    added for it), so a word can be counted once however it matched, and ``unknown``
    the words the corpus does not know and no correction fixes (`unknown_words`).
    """

    text: str
    terms: dict[str, float] = field(default_factory=dict)  # term -> weight
    suggestion: str | None = None
    words: list[frozenset[str]] = field(default_factory=list)  # the terms of each query word
    unknown: tuple[str, ...] = ()  # the words as typed `unknown_words` names


def _check(query: Any) -> str:
    if not isinstance(query, str):
        raise QueryError("Die Suchanfrage muss Text sein.")
    query = clean_input(query).strip()
    if not query:
        raise QueryError("Bitte einen Suchbegriff eingeben.")
    if len(query) > MAX_QUERY_LENGTH:
        raise QueryError(
            f"Die Suchanfrage ist zu lang ({len(query)} Zeichen, höchstens {MAX_QUERY_LENGTH})."
        )
    return query


def _analyzer(index: Index):
    return index.analyzer


def _known(index: Index, word: str) -> bool:
    """Whether folded `word` needs no correction."""
    if word in index.vocabulary or word in load_synonyms() or word in load_stopwords():
        return True
    if not word.isalpha():
        return True
    imp = impacts(index)
    for term, _extra, _pos in _terms(index, word):
        if imp.doc_frequency("body", term) or imp.doc_frequency("title", term):
            return True
    return False


def _stem_surfaces(index: Index) -> dict[str, str]:
    """Index term -> the most frequent corpus word that analyzes to it."""

    def make() -> dict[str, str]:
        found: dict[str, str] = {}
        # only each word's own term: HanTa's terms come after it and are skipped, and
        # the folded words ("schaden" of "Schäden") are not all in the build's table
        analyzer = without_morphology(_analyzer(index))
        for word, _count in sorted(index.vocabulary.items(), key=lambda kv: -kv[1]):
            for t in analyzer(word, mode="query"):
                if not getattr(t, "extra", False):
                    found.setdefault(t.text, index.surface.get(word, word))
                break
        return found

    return index.state.once("stem_surfaces", make)


def _sound_alikes(index: Index) -> dict[str, str]:
    """Sound key -> the corpus word `_correct` reads a slip with that key as (per build)."""
    return index.state.once("sound_alikes", lambda: sound_alikes(index.vocabulary))


def _correct(
    index: Index,
    folded: str,
    known: bool = False,
    typed: str | None = None,
    lower: str | None = None,
) -> str | None:
    """A corpus word one edit away from a word that may be a typo (see
    `correctable`): as written, or for an unknown word also as a stem. A `known`
    word (its stem is in the corpus: "Fluchtest") is corrected only as written, to
    a corpus word of another stem ("Fluchttest"); an unknown compound of known
    words ("Starthand") is a real word, not a typo. First of all, a word spelt as a corpus
    word sounds ("Endfase", "Panter": `faq_bot.spelling.sound_key`) is that word, before
    any word one edit away ("Panzer"), known stem or not (a spelling variant: "Plazierung").
    A known word is not made another word (`_another_word`: "verwunden", not "verwenden"),
    nor another person of the same verb (`_verb_form`: "kontere", not "kontert").
    `typed`: the word's letters as typed, whose edits count too (`correct_word`); `lower`:
    the word in lower case, umlauts kept (what HanTa reads)."""
    if not correctable(folded, index.vocabulary) or is_jargon_word(folded):
        return None
    found = _sound_alikes(index).get(sound_key(folded))
    if found and found != folded:
        return index.surface.get(found, found)
    fix = correct_word(folded, index.vocabulary, stem=lambda w: _main_term(index, w), typed=typed)
    if fix is not None and known and _another_word(index, lower or folded, fix):
        return None
    # whether known or not: "zerstörst" folds to a word HanTa cannot read ("zerstorst")
    if fix is not None and _verb_form(index, folded, fix):
        return None
    if fix is not None:
        return index.surface.get(fix, fix)
    if known or known_compound(folded, index.vocabulary):
        return None
    main = main_terms(index, folded)
    if not main or len(main[0]) < MIN_FUZZY_LENGTH:
        return None
    surfaces = _stem_surfaces(index)
    candidates = {c for c in edits1(main[0]) if c in surfaces}
    if not candidates:
        return None
    imp = impacts(index)
    best = max(sorted(candidates), key=lambda c: imp.doc_frequency("body", c))
    return surfaces[best]


def _another_word(index: Index, word: str, fix: str) -> bool:
    """Whether correcting `word` (lower case as typed, umlauts kept: what HanTa reads) to
    corpus word `fix` would make it another word: HanTa reads `word` as a form of a lemma
    other than itself that corpus words have ("verwunden", lemma "verwund", as
    "verwundet"; "Würfen", lemma "Wurf"), and `fix` is no form of that lemma
    ("verwenden", "dürfen"). Such a word is real German, not a slip. A slip whose lemma
    HanTa only guesses ("entfert", "mindestes": no corpus word has it) and one within its
    lemma ("verlege" -> "verlegt") are corrected as before, as is a slip HanTa reads as no
    form of another lemma ("Fluchtest", a compound of "fluch" and "test")."""
    lemmas = {t for t, kind in morphology(word) if kind == "lemma"}
    if not lemmas & _corpus_lemmas(index):
        return False
    surface = index.surface.get(fix, fix).lower()
    return not lemmas & {fix, *(t for t, kind in morphology(surface) if kind == "lemma")}


# present-tense endings a verb stem takes ("konter" + "e": "ich kontere"); a stem ending in
# d or t takes them with an e ("findest", "findet": "findt" is a slip)
VERB_ENDINGS = ("e", "st", "t")
VERB_ENDINGS_DT = ("e", "est", "et")


def _verb_form(index: Index, word: str, fix: str) -> bool:
    """Whether folded `word` is a regular form of the verb corpus word `fix` is a form of:
    HanTa reads `fix` as a verb and `word` is its stem with a verb ending ("kontere" of
    "kontert", stem "konter"; "zurückziehe" of "zurückzieht"). Correcting it would turn
    correct German into wrong German ("wenn ich kontert"), and the search finds the verb
    by its stem either way. A slip is no such form: "ziehn", "blockn" (no ending "n"),
    "einheitn" (a noun's stem)."""
    surface = index.surface.get(fix, fix).lower()
    found = hanta_analysis(surface)
    if found is None or not any(tag.startswith("VV") for _m, tag in found[1]):
        return False
    stems = {t for t, kind in morphology(surface) if kind == "lemma"}
    return any(
        word == stem + ending
        for stem in stems
        for ending in (VERB_ENDINGS_DT if stem.endswith(("d", "t")) else VERB_ENDINGS)
    )


def _corpus_lemmas(index: Index) -> frozenset[str]:
    """The lemmas HanTa reads the corpus's words as forms of (other than themselves,
    folded), once per build, from the build's own table of its words' analyses
    (`faq_bot.morphcache.build_table`, read once for this and HanTa's lookups): no HanTa
    run. Empty for a build without that table."""

    def make() -> frozenset[str]:
        lemmas = (
            (fold(word), fold(found[0]))
            for word, found in build_table(index).items()
            if found is not None
        )
        return frozenset(lemma for own, lemma in lemmas if lemma != own)

    return index.state.once("corpus_lemmas", make)


def main_terms(index: Index, text: str) -> tuple[str, ...]:
    """The terms `text`'s own words analyze to (their stems), in order, without the
    terms a filter added: two spellings of one name in other inflections ("Länderkarte",
    "Länderkarten") have the same."""
    return tuple(t for t, extra, _pos in _terms(index, text) if not extra)


def _main_term(index: Index, word: str) -> str:
    """The term a single word analyzes to (its stem), or the word itself."""
    main = main_terms(index, word)
    return main[0] if main else word


def _terms(index: Index, text: str) -> list[tuple[str, str, int]]:
    """(term, extra, position) of `text`: extra when the term was added by a filter
    (a compound part, an abbreviation's meaning, an infinitive) at the word's position."""
    return [
        (t.text, getattr(t, "extra", "") or "", t.pos)
        for t in _analyzer(index)(text, mode="query", positions=True)
    ]


def analyze_query(index: Index, query: str, *, correct: bool = True) -> AnalyzedQuery:
    """Correct unknown words and turn `query` into weighted index terms; `correct=False`:
    every word as typed (the search page's „Stattdessen wie getippt suchen“), with no
    ``suggestion``."""
    query = _check(query)
    corrected: list[str] = []
    # what the search page's „gelesen als“ and the chat's „Meinten Sie“ show: no real word
    # made a misprint
    suggested: list[str] = []
    changed = False
    last = 0
    unknown: list[str] = []
    for m in _WORD.finditer(query):
        word = m.group()
        folded = fold(word)
        known, replacement = _reading(index, word) if correct else (_known(index, folded), None)
        if not known and replacement is None:
            unknown.append(word)
        shown = (
            replacement if replacement and not _misprint_of(index, folded, replacement) else None
        )
        corrected.append(query[last : m.start()])
        corrected.append(replacement if replacement else word)
        suggested.append(query[last : m.start()])
        suggested.append(shown or word)
        changed = changed or shown is not None
        last = m.end()
    corrected.append(query[last:])
    suggested.append(query[last:])
    text = "".join(corrected)
    terms: dict[str, float] = {}
    words: dict[int, set[str]] = {}
    for term, extra, pos in _terms(index, text):
        weight = EXTRA_WEIGHTS.get(extra, 0.5) if extra else 1.0
        terms[term] = max(terms.get(term, 0.0), weight)
        words.setdefault(pos, set()).add(term)
    groups = list({frozenset(g): None for g in words.values()})
    suggestion = "".join(suggested) if changed else None
    return AnalyzedQuery(
        text=text, terms=terms, suggestion=suggestion, words=groups, unknown=tuple(unknown)
    )


def _reading(index: Index, word: str) -> tuple[bool, str | None]:
    """How the search reads `word` as typed: whether the corpus knows it (folded), and the
    corpus word it is corrected to, if any (`_correct`)."""
    folded = fold(word)
    known = _known(index, folded)
    fix = _correct(index, folded, known=known, typed=fold_letters(word), lower=word.lower())
    if fix is not None and _typed_in_part(index, word, fix):
        return known, None
    return known, fix


def _typed_in_part(index: Index, word: str, fix: str) -> bool:
    """Whether `word` is a word typed in part rather than a slip of corpus word `fix`: it
    begins longer corpus words (`_begun_by`), `fix` does not complete it („angrif“ ->
    „Angriff“ is a slip), and either it goes on past `fix` („Kartenz“, not „Karten“) or the
    words it begins occur more often than `fix` („Zerst“: zerstört, Zerstörer … 88 times,
    „zuerst“ 11; but „Gener“ is a slip of „Gegner“, 33 times against 8)."""
    lower, fixed = word.lower(), fix.lower()
    if fixed.startswith(lower):
        return False
    begun = _begun_by(index, word)
    if not begun:
        return False
    if lower.startswith(fixed):
        return True
    return sum(index.vocabulary[w] for w in begun) > index.vocabulary.get(fold(fix), 0)


# the shortest part of a compound that shows the word is real German: three-letter parts
# split slips too („ges|per|ten“, „domina|ton“), as the splitter's own minimum allows
MIN_REAL_PART = 4


def _misprint_of(index: Index, word: str, fix: str) -> bool:
    """Whether the correction of folded `word` to corpus word `fix` makes a real word a
    misprint: `word` is a common German word or a compound of corpus or common words whose
    parts all have `MIN_REAL_PART` letters („verteidigung|fall“), `fix` neither
    („verteitigungsfall“, as the source prints it). The search still reads `fix` (it is how
    the source's text is matched); the suggestion shown does not name it."""
    words = AnyOf(index.vocabulary, common_words())

    def real(w: str) -> bool:
        parts = split_compound(w, words)
        return w in common_words() or bool(parts) and min(map(len, parts)) >= MIN_REAL_PART

    return real(word) and not real(fold(fix))


def corpus_spelling(index: Index, text: str) -> str:
    """`text` with each word whose umlauts are written out, in part or all ("Laender",
    "Kuestengewässerzone"), spelt as the documents spell it ("Länder"; `usual_spelling`,
    not a heading's capitals), in the case it was typed in: the search folds both spellings
    alike, the embedder reads them as different words. A word no entry spells with an
    umlaut stays ("Duell", "aktuell"), and so does one the entries also spell as typed."""
    table = _written_out_spellings(index)

    def spelt(m: re.Match[str]) -> str:
        word = m.group()
        corpus = table.get(written_out(word))
        if corpus is None or corpus.lower() == word.lower():
            return word
        if word.isupper():
            return corpus.upper()
        return corpus.lower() if word.islower() else corpus[:1].upper() + corpus[1:]

    return _WORD.sub(spelt, text)


def _written_out_spellings(index: Index) -> dict[str, str]:
    """`faq_bot.text.written_out_spellings` of the words of the entries (the fields the
    build's vocabulary reads); made once per build."""

    def make() -> dict[str, str]:
        found: Counter[str] = Counter()
        for r in index.iter_entries():
            found.update(w for text in entry_texts(r) for w in _WORD.findall(text))
        return written_out_spellings(found)

    return index.state.once("written_out_spellings", make)


def unknown_words(index: Index, query: str) -> list[str]:
    """The words of `query` (as typed) that the corpus does not know and that no
    correction (`_correct`: a sound-alike spelling or one edit) turns into a corpus word."""
    return [m.group() for m in _WORD.finditer(query) if _reading(index, m.group()) == (False, None)]


# A word the documents hold only inside longer words, at their start („Fernkampf“ in
# „Fernkampfphase“, a word typed in part as „Angriffsdekl“) or as the last part of a compound
# noun („Batterie“ in „Flakbatterie“): typed with at least `MIN_PART` letters (shorter parts
# are half the vocabulary), the longer word at least `MORE_LETTERS` longer (an ending is
# another form, not another word); at most `LONGER_SHOWN` named, the most frequent first.
MIN_PART = 5
MORE_LETTERS = 3
LONGER_SHOWN = 3


def longer_words(
    index: Index, word: str, doc: str | None = None, category: str | None = None
) -> list[str]:
    """The corpus words, as the documents spell them, that begin with `word` as typed
    (letter case aside, umlauts as typed: „Gunst“ is no beginning of „günstiger“), or are
    nouns that end with it after a word of their own („Flak|batterie“, not „Sol|daten“ or
    „viel|leicht“). A common German word begins only nouns („Bunkerknacker“; not
    „alternative“ for „Alter“, „feindlichen“ for „Feind“), and one typed in lower case
    („wegen“, „herum“) nothing. For a word no document holds on its own (`unknown_words`), a search
    that reads nothing for it can still say where the documents use it; one filtered to document
    `doc` or `category` names only words the entries it admits hold (a link to one finds it)."""
    folded = fold(word)
    if len(folded) < MIN_PART or not word.isalpha():
        return []
    common = folded in common_words()
    if common and word.islower():
        return []
    known = AnyOf(index.vocabulary, common_words())
    _forward, backward = _sorted_vocabulary(index)
    lower = word.lower()
    shown = [
        w for w in _begun_by(index, word) if not common or index.surface.get(w, w)[:1].isupper()
    ]
    for w in (w[::-1] for w in _starting(backward, folded[::-1])):
        spelt = index.surface.get(w, w)
        if (
            spelt[:1].isupper()
            and spelt.lower().endswith(lower)
            and _own_word(w[: len(w) - len(folded)], known)
        ):
            shown.append(w)
    if doc or category:
        places = _word_places(index)
        wanted = slugify(category) if category else None
        shown = [
            w
            for w in shown
            if any(
                (not doc or d == doc) and (not wanted or c == wanted) for d, c in places.get(w, ())
            )
        ]
    ranked = sorted(dict.fromkeys(shown), key=lambda w: (-index.vocabulary[w], w))
    return [index.surface.get(w, w) for w in ranked[:LONGER_SHOWN]]


def _word_places(index: Index) -> dict[str, frozenset[tuple[str, str | None]]]:
    """Each folded word of the entries with the (document, category slug) pairs of the
    entries that hold it; made once per build."""

    def make() -> dict[str, frozenset[tuple[str, str | None]]]:
        places: dict[str, set[tuple[str, str | None]]] = {}
        for r in index.iter_entries():
            place = (r.doc, slugify(r.category) if r.category else None)
            for w in vocabulary_from_texts(entry_texts(r)):
                places.setdefault(w, set()).add(place)
        return {w: frozenset(p) for w, p in places.items()}

    return index.state.once("word_places", make)


def _own_word(part: str, known: AnyOf) -> bool:
    """Whether the first `part` of a compound (folded), without the linking letters German
    puts after it (the compound splitter's `LINKS`, „Handel|s|wege“), is a word of its own
    of `MIN_REAL_PART` letters or more (three-letter parts split words that are no
    compounds: „Sol|daten“, „Tab|ellen“)."""
    return any(
        part.endswith(link)
        and len(part) - len(link) >= MIN_REAL_PART
        and part[: len(part) - len(link)] in known
        for link in LINKS
    )


def _begun_by(index: Index, word: str) -> list[str]:
    """The folded corpus words that `word`, as typed, begins (letter case aside), at least
    `MORE_LETTERS` longer."""
    folded, lower = fold(word), word.lower()
    forward, _backward = _sorted_vocabulary(index)
    return [
        w
        for w in _starting(forward, folded)
        if len(w) - len(folded) >= MORE_LETTERS
        and index.surface.get(w, w).lower().startswith(lower)
    ]


def _sorted_vocabulary(index: Index) -> tuple[list[str], list[str]]:
    """The folded corpus words sorted, and sorted as spelt backwards (for their endings);
    made once per build."""
    return index.state.once(
        "sorted_vocabulary",
        lambda: (sorted(index.vocabulary), sorted(w[::-1] for w in index.vocabulary)),
    )


def _starting(words: list[str], prefix: str) -> set[str]:
    """The words of sorted `words` that start with `prefix`."""
    found = set()
    for i in range(bisect_left(words, prefix), len(words)):
        if not words[i].startswith(prefix):
            break
        found.add(words[i])
    return found


def longer_words_of(
    index: Index, unknown: Sequence[str], doc: str | None = None, category: str | None = None
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each of the `unknown` words (`unknown_words`: no document holds them on their own, no
    correction reaches one) with the corpus words that hold it (`longer_words`; only those
    of `doc` and `category` if given), where there are any."""
    found = ((w, tuple(longer_words(index, w, doc, category))) for w in dict.fromkeys(unknown))
    return tuple((w, words) for w, words in found if words)


def _warm_up(index: Index) -> None:
    """Build the tables `_correct` and `corpus_spelling` need, before the first query does."""
    _stem_surfaces(index)
    _sound_alikes(index)
    _corpus_lemmas(index)
    _sorted_vocabulary(index)
    _written_out_spellings(index)  # the embedder's reading of every question
    _word_places(index)  # a filtered search's longer words


WARMERS.append(_warm_up)
