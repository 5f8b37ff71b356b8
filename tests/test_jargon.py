"""Players' words (faq_bot/data/jargon.toml): added in questions, not in the corpus."""

from __future__ import annotations

import pytest

from faq_bot.analysis import load_jargon, make_analyzer
from faq_bot.search import search


def _query_terms(text: str) -> list[tuple[str, str]]:
    return [(t.text, getattr(t, "extra", "") or "") for t in make_analyzer()(text, mode="query")]


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
    ],
)
def test_players_words_add_the_corpus_word(text, added):
    assert (added, "synonym") in _query_terms(text)


def test_jargon_applies_to_questions_only():
    # the FAQ itself writes "Deck": indexed as written, not as "Depot"
    assert [t.text for t in make_analyzer()("Deck", mode="index")] == ["deck"]


def test_a_phrase_needs_both_words_in_order():
    assert ("sperr", "synonym") not in _query_terms("drehen quer")
    assert ("schocktrupp", "synonym") not in _query_terms("Strike")


def test_every_jargon_value_is_a_word_sequence():
    for key, value in load_jargon().items():
        assert 1 <= len(key) <= 2 and value


@pytest.mark.parametrize(
    ("query", "expected"),
    [("Friedhof", "schrottplatz"), ("Stack Reaktion", "aktionsstapel")],
)
def test_jargon_query_finds_the_corpus_entry(index, query, expected):
    ids = [h.id for h in search(index, query, n=3).hits]
    assert any(expected in i for i in ids), ids
