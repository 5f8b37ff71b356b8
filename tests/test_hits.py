"""What a search gives, as the pages say it (`faq_bot.hits`)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from faq_bot.hits import read_note, read_words
from tests.hypothesis_profiles import examples

_WORDS = st.text(alphabet="abcäöüßXYZ227", min_size=1, max_size=8)
_GAPS = st.sampled_from([" ", ", ", "? ", " – ", "-"])


@settings(max_examples=examples(200))
@given(data=st.data(), words=st.lists(_WORDS, min_size=1, max_size=8))
def test_read_words_names_exactly_the_words_the_suggestion_replaced(data, words):
    """The suggestion replaces words one for one, keeping what lies between them: the
    words said back are those it replaced, in order, each with its reading."""
    gaps = data.draw(st.lists(_GAPS, min_size=len(words), max_size=len(words)))
    readings = [data.draw(st.one_of(st.just(w), _WORDS)) for w in words]
    query = "".join(w + g for w, g in zip(words, gaps, strict=True))
    suggestion = "".join(r + g for r, g in zip(readings, gaps, strict=True))
    replaced = [(w, r) for w, r in zip(words, readings, strict=True) if w != r]
    said = read_words(query, suggestion)
    assert said == list(dict.fromkeys(replaced))  # in order, a slip typed twice once


def test_read_words_is_empty_when_the_words_do_not_line_up():
    assert read_words("Radar station", "Radarstation") == []


def test_read_words_says_a_slip_typed_twice_once():
    """A review: „Radarstatoin … Radarstatoin“ was said back twice."""
    said = read_words("Radarstatoin oder Radarstatoin", "Radarstation oder Radarstation")
    assert said == [("Radarstatoin", "Radarstation")]


def test_read_note_says_each_word_read_otherwise_once():
    note = read_note(
        "pasiert pasiert mit dem Aktionstapel", "passiert passiert mit dem Aktionsstapel"
    )
    assert note == "„pasiert“ wurde gelesen als „passiert“, „Aktionstapel“ als „Aktionsstapel“."


def test_read_note_says_the_whole_reading_when_the_words_do_not_line_up():
    assert read_note("Aktions stapel", "Aktionsstapel") == (
        "„Aktions stapel“ wurde gelesen als „Aktionsstapel“."
    )


def test_read_note_cuts_a_long_word():
    typed, read = "x" * 60, "y" * 60
    assert read_note(typed, read) == f"„{'x' * 39}…“ wurde gelesen als „{'y' * 39}…“."
