"""An entry's names: which entry a headword typed alone names (`faq_bot.names`)."""

from __future__ import annotations

import pytest

from faq_bot.names import named_entry


@pytest.mark.parametrize(
    "query",
    [
        "Wie ziehe ich Karten",  # the stems of "Karte ziehen", with two stop words
        "Bombe",  # the stem of no name alone ("227-Pfund Bombe (Basisausbau)")
        "Aktionsstapel Karten",  # more words than the name
        # a derived word is another word, though it stems as a name does (a review: these
        # named Verteidiger, Angreifer and Spiel)
        "Verteidigung",
        "angreifen",
        "Spielerin",
        "spielen",  # a verb form, not a plural of "Spiel"
    ],
)
def test_words_that_are_no_name_in_another_inflection_name_no_entry(index, query):
    assert named_entry(index, query) is None


def test_an_inflection_the_names_of_two_entries_share_names_one_only_in_its_document(index):
    """ "Runde" is an entry of two documents: "Runden" could mean either, and names one
    only where the search is held to one document."""
    assert {e for name, e in index.names() if name == "Runde"} == {"runde", "runde-runde"}
    assert named_entry(index, "Runden") is None
    assert named_entry(index, "Runden", doc="runde") == "runde-runde"
    assert named_entry(index, "Runde") is not None  # as typed, a name still names


def test_an_inflection_the_names_of_two_entries_share_names_one_only_in_its_category(index):
    """ "Besatzungsmacht" names an FAQ headword and a base of that name: "Besatzungsmächte"
    means either, and the base where the search is held to the category Basisausbau."""
    assert named_entry(index, "Besatzungsmächte") is None
    assert named_entry(index, "Besatzungsmächte", category="Basisausbau") == (
        "besatzungsmacht-basisausbau"
    )
