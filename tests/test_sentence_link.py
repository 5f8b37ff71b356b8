"""`faq_bot.text.sentence_link`: an answer's source link names its key sentence in a text
fragment (``#:~:text=start,end``), so the ruling opens at that sentence, marked."""

from __future__ import annotations

from urllib.parse import unquote

from hypothesis import given, settings
from hypothesis import strategies as st

from faq_bot.text import sentence_link
from tests.hypothesis_profiles import examples


def test_a_short_sentence_is_named_whole():
    url = sentence_link("/entry/siegphase/absatz/1?v=6e2ca98b", "Das Spiel endet unentschieden.")
    assert (
        url == "/entry/siegphase/absatz/1?v=6e2ca98b#:~:text=Das%20Spiel%20endet%20unentschieden."
    )


def test_a_long_sentence_is_named_by_its_first_and_last_words():
    sentence = (
        "Erklären beide Spieler übereinstimmend, dass es keinem Spieler möglich ist "
        "15 Siegpunkte zu erlangen, endet das Spiel unentschieden."
    )
    directive = sentence_link("/entry/siegphase", sentence).split("#:~:text=", 1)[1]
    start, end = directive.split(",")
    assert unquote(start) == "Erklären beide Spieler übereinstimmend,"
    assert unquote(end) == "endet das Spiel unentschieden."


def test_a_link_with_an_anchor_gets_the_directive_after_it():
    assert sentence_link("/entry/spiel#p2", "Kurz.") == "/entry/spiel#p2:~:text=Kurz."


def test_a_sentence_without_words_leaves_the_link_as_it_is():
    assert sentence_link("/entry/spiel", " \n ") == "/entry/spiel"


@settings(max_examples=examples(300))
@given(st.text(min_size=1, max_size=200), st.integers(min_value=1, max_value=6))
def test_the_directive_reads_back_as_the_sentences_words(sentence, words):
    # "-", "," and "&" inside a word would split the directive: they are encoded
    url = sentence_link("/entry/x", sentence, words)
    parts = sentence.split()
    if not parts:
        assert url == "/entry/x"
        return
    directive = url.removeprefix("/entry/x#:~:text=")
    assert "&" not in directive and "-" not in directive and "#" not in directive
    named = [unquote(p) for p in directive.split(",")]
    if len(parts) <= 2 * words:
        assert named == [" ".join(parts)]
    else:
        assert named == [" ".join(parts[:words]), " ".join(parts[-words:])]
