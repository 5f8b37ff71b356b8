"""German morphology (HanTa) as added terms of the one analyzer."""

from __future__ import annotations

import json
import pickle
import threading
import time
import types
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.analysis import make_analyzer
from faq_bot.morphcache import CompactTable
from faq_bot.morphology import MORPH_MAX_WORD, morphology, morphology_budget, word_cost


def _added(text: str) -> set[tuple[str, str]]:
    return {
        (t.text, t.extra) for t in make_analyzer()(text, mode="query") if getattr(t, "extra", False)
    }


@pytest.mark.parametrize(
    ("word", "parts"),
    [("starthand", {"start", "hand"}), ("aktionstapel", {"aktion", "stapel"})],
)
def test_lexicon_compounds_yield_their_parts(word, parts):
    assert {t for t, kind in morphology(word) if kind == "part"} == parts


def test_participle_and_noun_of_one_verb_share_a_root():
    getarnt = {t for t, _kind in _added("getarnt")}
    tarnung = {t for t, _kind in _added("Tarnung")}
    assert "tarn" in getarnt & tarnung


def test_inflected_form_yields_its_lemma():
    assert ("einheit", "lemma") in morphology("einheiten")


def test_stop_words_and_short_or_odd_words_add_nothing():
    assert _added("darf ich das") == set()
    assert morphology("abc") == ()
    assert morphology("w6") == ()


def test_overlong_words_are_not_analysed():
    """HanTa's time grows steeply with a word's length (a 500-letter query word took 2 s)."""
    longest = "bewegungsgeschwindigkeitswerten"  # the corpus's longest word: still analysed
    assert len(longest) <= MORPH_MAX_WORD and morphology(longest)
    assert morphology("bewegungsgeschwindigkeitswerten" * 2) == ()


def test_morphology_is_cached_per_word():
    from faq_bot.morphology import _morphology

    _morphology.cache_clear()
    morphology("handkarten")
    morphology("handkarten")
    info = _morphology.cache_info()
    assert info.hits == 1 and info.misses == 1 and info.maxsize is not None


_TEXT = st.text(max_size=12)


@settings(max_examples=examples(100), deadline=None)
@given(
    st.dictionaries(
        _TEXT, st.none() | st.tuples(_TEXT, st.lists(st.tuples(_TEXT, _TEXT), max_size=4))
    )
)
def test_compact_build_table_gives_back_every_analysis(table):
    """A server holds the build's HanTa table compactly; every lookup gives what the
    file says, whatever characters the analyses hold."""
    raw = json.loads(json.dumps(table))
    compact = CompactTable(raw)
    assert set(compact) == set(table) and len(compact) == len(table)
    for word, value in table.items():
        expected = None if value is None else (value[0], tuple(map(tuple, value[1])))
        assert compact[word] == expected


def test_overlong_words_do_not_fill_the_word_caches():
    """A word over 40 letters (a query may bring hundreds of distinct 480-letter ones) is
    worked on but not kept: each cache entry would hold the whole word as its key."""
    from faq_bot import jargon
    from faq_bot import morphology as morph
    from faq_bot.analysis import DecompoundFilter

    splitter = DecompoundFilter(["hand", "karte"])
    words = [f"{'handkarte' * 8}{chr(97 + i % 26) * (i // 26 + 1)}" for i in range(200)]
    before = (
        morph._morphology.cache_info().currsize,
        morph._word_class.cache_info().currsize,
        jargon._word_stems.cache_info().currsize,
    )
    for w in words:
        assert morph.morphology(w) == () and morph.word_class(w) is None
        assert jargon.word_stems(w)
        splitter.parts(w)
    after = (
        morph._morphology.cache_info().currsize,
        morph._word_class.cache_info().currsize,
        jargon._word_stems.cache_info().currsize,
    )
    assert after == before
    assert not splitter._cache
    # a word of the corpus's length is still cached
    assert jargon.word_stems("handkarten") and splitter.parts("handkarten") is not None
    assert "handkarten" in splitter._cache


WORDS = [
    "einheiten",
    "getarnt",
    "tarnung",
    "starthand",
    "aktionsstapel",
    "ungesperrt",
    "Spieler",
    "Schaden",
    "zerstören",
    "abzuwenden",
    "opfern",
    "Nachschubphase",
    "deploye",
    "fluchtest",
    "xyzzy",
    "Übermaß",
    "kämpfte",
    "Gegners",
    "schnell",
    "ab",
]


@settings(max_examples=examples(80), deadline=None)
@given(
    st.one_of(
        st.sampled_from(WORDS),
        st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüß", min_size=1, max_size=24),
    )
)
def test_the_word_tagger_analyses_every_word_as_hantas_full_model(word):
    from faq_bot.morphology import tagger

    lean_one = _lean().analyze(word, taglevel=3)
    full_one = tagger().analyze(word, taglevel=3)
    assert lean_one == full_one


@cache
def _lean():
    """A lean tagger of its own: `word_tagger()` is the full one wherever this process
    loaded that first (a build in an earlier test), and would compare it with itself."""
    from faq_bot.morphology import _lean_tagger, tagger

    lean = _lean_tagger()
    assert lean is not None and lean is not tagger() and lean.LP_trans_word == {}
    return lean


def test_the_word_tagger_leaves_out_only_the_sentence_table(monkeypatch):
    from faq_bot import morphology

    monkeypatch.setattr(morphology, "_tagger", _fresh(morphology._tagger))
    monkeypatch.setattr(morphology, "_word_tagger", _fresh(morphology._word_tagger))
    lean = morphology.word_tagger()
    assert lean.LP_trans_word == {} and not lean.strict
    assert morphology.tagger().LP_trans_word  # the full one keeps it, for sentences
    assert morphology.word_tagger() is lean  # loaded once


def test_where_a_build_loaded_the_full_tagger_words_use_that_one(monkeypatch):
    from faq_bot import morphology

    monkeypatch.setattr(morphology, "_tagger", _fresh(morphology._tagger))
    monkeypatch.setattr(morphology, "_word_tagger", _fresh(morphology._word_tagger))
    full = morphology.tagger()
    assert morphology.word_tagger() is full


def test_threads_asking_at_once_load_one_word_tagger(monkeypatch):
    """A worker's first questions arrive on several threads: each loading its own
    tagger took 25 MiB apiece (4 threads: RssAnon +98 MiB instead of +31)."""
    from faq_bot import morphology

    monkeypatch.setattr(morphology, "_tagger", _fresh(morphology._tagger))
    monkeypatch.setattr(morphology, "_word_tagger", _fresh(morphology._word_tagger))
    loads = []

    def slow_loads(data):  # the window in which another thread asks
        loads.append(len(data))
        time.sleep(0.2)
        return pickle.loads(data)

    slow = types.SimpleNamespace(**{**vars(pickle), "loads": slow_loads})
    monkeypatch.setattr(morphology, "pickle", slow)
    found = []
    threads = [
        threading.Thread(target=lambda: found.append(morphology.word_tagger())) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(loads) == 1 and len(found) == 4
    assert all(tagger is found[0] for tagger in found)


def _fresh(cached):
    """An empty cache of the same function."""
    return cache(cached.__wrapped__)


def test_a_morphology_budget_analyses_words_while_their_costs_fit():
    """A word costs its length squared plus 12, as HanTa's time grows."""
    assert [word_cost(w) for w in ("einheiten", "getarnt", "sperrt")] == [93, 61, 48]
    with morphology_budget(93 + 61 + 60):
        first, second = morphology("einheiten"), morphology("getarnt")
        assert first and second
        assert morphology("einheiten") == first  # a word already counted
        assert morphology("tarnung") == ()  # costs 61, 60 are left
        assert morphology("sperrt")  # costs 48
    assert morphology("tarnung")  # outside the budget: analysed


def test_a_spent_budget_never_takes_the_corpus_terms_a_build_caches():
    """A review: a request whose made-up words spent the budget warmed a new build (and
    filled the entries' term caches) without HanTa's terms, for every later request too."""
    analyzer = make_analyzer()
    with morphology_budget(0):
        indexed = {t.text for t in analyzer("getarnt Starthand", mode="index")}
        asked = {t.text for t in analyzer("getarnt Starthand", mode="query")}
    assert {"tarn", "start", "hand"} <= indexed  # HanTa's lemma and compound parts
    assert not {"tarn", "start"} & asked  # a question's words go without them
