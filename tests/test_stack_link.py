"""The checker link for a chat question (`faq_bot.stack.link`): which questions get one,
and the scenario it guesses from the question's words."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from faq_bot.stack import decode_permalink, read_scenario, validate
from faq_bot.stack.link import check_url_for


def test_check_url_for_a_stack_question_with_catalog_cards():
    url = check_url_for(
        "Ich will mit meiner 227-Pfund Bombe die Radarstation des Gegners zerstören, "
        "er kontert. Wer muss wie viele TW bezahlen?"
    )
    assert url and url.startswith("/check?s=")
    address = urlsplit(url)
    assert parse_qs(address.query)["aus"] == ["frage"]
    assert address.fragment == "result"  # the page opens at its result, not its heading
    scenario = decode_permalink(parse_qs(urlsplit(url).query)["s"][0])
    assert {c["name"] for c in scenario["cards"]} == {"227-Pfund Bombe", "Radarstation"}
    assert {c["owner"] for c in scenario["cards"]} == {"A", "B"}
    parsed = read_scenario(scenario)
    assert not validate(parsed)
    # the radar's draw is what the bomb answers: bottom of the stack
    assert [e["effect"]["type"] for e in scenario["stack"]] == ["draw", "destroy"]


@pytest.mark.parametrize(
    "question",
    [
        "Wie viele TW kostet ein Basisausbau?",  # stack word, no card
        "Was macht die Radarstation?",  # a card, no stack word
        "Wie bemale ich Miniaturen?",
    ],
)
def test_check_url_only_for_cards_and_stack_words(question):
    assert check_url_for(question) is None


@pytest.mark.parametrize(
    "question",
    [
        # a judge's review: the link kept one bomb and put the radar with the other player,
        # and the checker said the radar is destroyed, the opposite of the answer above it
        "B antwortet mit seiner 227er auf meine Radarstation und ich kontere mit meiner "
        "227er auf seine Bombe. Was passiert?",
        "Was passiert, wenn ich auf die 227er meines Gegners mit meiner eigenen 227er antworte?",
    ],
)
def test_no_check_url_when_the_question_names_a_card_twice(question):
    """A scenario holds each card once: the link would drop an action."""
    assert check_url_for(question) is None


def test_a_card_named_with_its_longer_alias_counts_once():
    assert check_url_for("Kontert die 227er-Bombe meine Radarstation, wer zahlt zuerst?")
