"""Players' words (faq_bot/data/jargon.toml): added in questions, not in the corpus;
one key (a lemma) covers its inflections."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from whoosh.analysis import LowercaseFilter, RegexTokenizer

from faq_bot.analysis import FoldFilter, JargonFilter, make_analyzer
from faq_bot.jargon import (
    PARTICLES,
    STEMMER_CACHE,
    _jargon,
    _stem,
    is_jargon_word,
    jargon_nouns,
    load_jargon,
    stemmer,
)
from faq_bot.morphology import word_class
from faq_bot.search import search
from faq_bot.text import fold


def _query_terms(text: str) -> list[tuple[str, str]]:
    return [(t.text, getattr(t, "extra", "") or "") for t in make_analyzer()(text, mode="query")]


def _added(text: str) -> set[str]:
    """The corpus's words the players' words of `text` add (stemmed): terms a question
    gains that the same text as corpus text does not (abbreviations apply to both)."""
    indexed = {t.text for t in make_analyzer()(text, mode="index")}
    return {term for term, extra in _query_terms(text) if extra == "synonym"} - indexed


@pytest.mark.parametrize(
    ("text", "added"),
    [
        ("tappen", "sperr"),
        ("quer drehen", "sperr"),
        ("Friedhof", "schrottplatz"),
        ("Deck", "depot"),
        ("killen", "zerstor"),
        ("saccen", "opf"),
        ("Stack", "aktionsstapel"),
        ("First Strike", "erstschlag"),
        ("Deep Strike", "schocktrupp"),
        ("Mortal Wounds", "todlich"),
        ("Eigenbeschuss", "friendly"),
    ],
)
def test_players_words_add_the_corpus_word(text, added):
    assert (added, "synonym") in _query_terms(text)


@pytest.mark.parametrize(
    ("lemma", "form"),
    [
        ("tappen", "tappt"),
        ("tappen", "tappst"),
        ("tappen", "getappt"),
        ("tappen", "getappte"),
        ("tappen", "getappten"),
        ("tappen", "tapped"),
        ("Deck", "Decks"),
        ("Friedhof", "Friedhöfe"),
        ("Friedhof", "Friedhofs"),
        ("killen", "gekillt"),
        ("killen", "killt"),
        ("hochjagen", "hochgejagt"),
        ("saccen", "gesacct"),
        ("chargen", "gechargt"),
        ("Mulligan", "gemulligant"),
        ("Token", "Tokens"),
        ("Save", "Saves"),
        ("Sichtlinie", "Sichtlinien"),
        ("quer legen", "quer gelegt"),
        ("quer drehen", "quer gedrehte"),
        ("querlegen", "quergelegt"),
        ("Mortal Wounds", "Mortal Wound"),
    ],
)
def test_an_inflected_form_maps_like_its_lemma(lemma, form):
    assert _added(lemma)
    assert _added(form) == _added(lemma)


def _single_keys(kind: str) -> list[str]:
    """The table's one-word keys as written: "verb" (lower-case infinitives) or "noun"."""
    found = []
    for section in _jargon().values():
        for key in section:
            if " " in key or len(key) < 5:
                continue
            if kind == "noun" and key[0].isupper():
                found.append(key)
            elif kind == "verb" and key.islower() and key.endswith("en"):
                found.append(key)
    return found


def _verb_forms(infinitive: str) -> list[str]:
    """Regular present, past and participle forms of a lower-case infinitive."""
    stem = infinitive[:-2]
    particle = next((p for p in PARTICLES if stem.startswith(p) and len(stem) > len(p) + 2), "")
    core = stem[len(particle) :]
    return [
        stem + "e",
        stem + "st",
        stem + "t",
        stem + "te",
        stem + "ten",
        f"{particle}ge{core}t",
        f"{particle}ge{core}te",
        f"{particle}ge{core}ten",
    ]


@pytest.mark.parametrize("key", _single_keys("verb"))
def test_every_verb_key_covers_its_regular_forms(key):
    expected = _added(key)
    for form in _verb_forms(fold(key)):
        if word_class(form) not in (None, "verb"):
            continue  # a common German word of another class is that word ("mille")
        assert _added(form) == expected, form


@pytest.mark.parametrize("key", _single_keys("noun"))
def test_every_noun_key_covers_its_plural(key):
    # "Decks", "Friedhofe", "Sichtlinien": whichever ending the noun takes (an
    # English "-y" takes "-ies", not tried)
    endings = ["n", "s"] if key.endswith("e") else [] if key.endswith(("y", "s")) else ["s", "e"]
    for form in (key + ending for ending in endings):
        if word_class(fold(form)) not in (None, "noun"):
            continue  # a common German word of another class is that word ("Rangen")
        assert _added(form) == _added(key), form


_KEY_WORDS = sorted({w for key in load_jargon() for w in key})
# words near the players' words: a key word with a prefix and an ending glued on
_NEAR_WORDS = st.builds(
    lambda pre, word, cut, end: pre + word[: len(word) - cut] + end,
    st.sampled_from(["", "ge", "auf", "ver", "quer", "hochge"]),
    st.sampled_from(_KEY_WORDS),
    st.integers(min_value=0, max_value=2),
    st.sampled_from(["", "t", "te", "ten", "s", "e", "en", "er", "ung", "isch"]),
)


@settings(max_examples=examples(300))
@given(_NEAR_WORDS)
def test_whatever_gains_players_words_is_never_corrected(word):
    # the spelling check's gate covers every word the question analyzer expands
    if _added(word):
        assert is_jargon_word(word)


@settings(max_examples=examples(100))
@given(st.lists(_NEAR_WORDS, min_size=1, max_size=4).map(" ".join))
def test_corpus_text_never_gains_players_words(text):
    chain = RegexTokenizer(r"\w+") | LowercaseFilter() | FoldFilter()
    jargon = chain | JargonFilter(load_jargon(), jargon_nouns())
    as_corpus = [t.text for t in jargon(text, mode="index")]
    assert as_corpus == [t.text for t in chain(text, mode="index")]


def test_jargon_applies_to_questions_only():
    # the FAQ itself writes "Deck": indexed as written, not as "Depot"
    assert [t.text for t in make_analyzer()("Deck", mode="index")] == ["deck"]


def test_a_phrase_needs_both_words_in_order():
    assert ("sperr", "synonym") not in _query_terms("drehen quer")
    assert ("schocktrupp", "synonym") not in _query_terms("Strike")


@pytest.mark.parametrize(
    "word", ["decken", "deckt", "gedeckt", "Deckung", "aufgedeckt", "Killer", "moralische"]
)
def test_a_key_does_not_match_a_word_of_another_class(word):
    # the verb decken is no Deck, nor HanTa's root "deck" of Deckung; a Killer is no
    # killen; moralisch (an adjective) is no Moral
    assert not _added(word)


def test_short_keys_match_only_as_written():
    assert ("opf", "synonym") in _query_terms("sac")
    assert not _added("Sack")


def test_every_jargon_key_is_one_or_two_words_with_a_value():
    for key, value in load_jargon().items():
        assert 1 <= len(key) <= 2 and value
    assert {"deck", "friedhof", "token"} <= jargon_nouns()
    assert "tappen" not in jargon_nouns()


def test_a_word_of_the_corpus_is_not_rewritten(index):
    # every word of the corpus's own text, as a question: none gains players' words,
    # except the key the FAQ itself uses for the player's deck and its plural
    # (`is_jargon_word`, a cheap superset of what matches, picks the words to analyse)
    rewritten = {w for w in index.vocabulary if is_jargon_word(w) and _added(w)}
    assert rewritten == {"deck", "decks"}


def test_every_value_is_the_corpus_s_wording(index):
    # each of a value's words is a corpus word, or another inflection of one
    stems = {_stem(w) for w in index.vocabulary}
    for key, value in load_jargon().items():
        missing = [w for w in value if len(w) >= 3 and w.isalpha() and _stem(w) not in stems]
        assert not missing, (key, missing)


@pytest.mark.parametrize("word", ["getappte", "gekillten", "Friedhöfe", "gesacct", "Tokens"])
def test_an_inflected_players_word_is_not_corrected(word):
    assert is_jargon_word(word)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Friedhof", "schrottplatz"),
        ("Stack Reaktion", "aktionsstapel"),
        ("Eigenbeschuss", "friendly-fire"),
    ],
)
def test_jargon_query_finds_the_corpus_entry(index, query, expected):
    ids = [h.id for h in search(index, query, n=3).hits]
    assert any(expected in i for i in ids), ids


def test_an_index_pickled_before_the_word_class_guard_keeps_noun_keys_nouns():
    # older builds pickled the filter without its nouns: "decken" must not become Deck
    import pickle

    from faq_bot.analysis import JargonFilter
    from faq_bot.jargon import jargon_nouns

    old = JargonFilter.__new__(JargonFilter)
    old.__setstate__({"table": load_jargon()})
    assert old.nouns == jargon_nouns()
    restored = pickle.loads(pickle.dumps(old))
    assert restored == JargonFilter(load_jargon(), jargon_nouns())


def test_each_thread_stems_with_its_own_stemmer_and_its_cache_is_bounded():
    # PyStemmer's stemmers are not thread-safe; a serving thread's cache must not grow
    # with every new word a visitor types (benchmarks/word_caches.py)
    seen = []
    worker = threading.Thread(target=lambda: seen.append(stemmer()))
    worker.start()
    worker.join()
    assert stemmer() is stemmer() and seen[0] is not stemmer()
    assert stemmer().maxCacheSize == STEMMER_CACHE <= 16_384


def test_the_stem_filter_pickles_a_state_so_earlier_releases_can_open_a_new_index():
    # releases before the shared stemmer set their stemmer up in __setstate__, which
    # unpickling calls only when the pickle carries a state (a BUILD opcode)
    import pickle
    import pickletools

    from faq_bot.analysis import GermanStemFilter

    ops = [op.name for op, _arg, _pos in pickletools.genops(pickle.dumps(GermanStemFilter()))]
    assert "BUILD" in ops
