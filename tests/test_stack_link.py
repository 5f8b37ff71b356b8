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


def _guessed(question: str) -> dict:
    url = check_url_for(question)
    assert url, question
    return decode_permalink(parse_qs(urlsplit(url).query)["s"][0])


def _stack(scenario: dict) -> list[tuple[str, str, str]]:
    """(card, who announced it, what it aims at: a card's name or the countered card's)"""
    cards = {c["id"]: c["name"] for c in scenario["cards"]}
    sources = {e["id"]: cards[e["source"]] for e in scenario["stack"]}
    return [
        (
            cards[e["source"]],
            e["by"],
            cards.get(e["effect"].get("target")) or sources.get(e["effect"].get("target"), ""),
        )
        for e in scenario["stack"]
    ]


@pytest.mark.parametrize(
    "question",
    [
        # the counter named first: it was left off the stack (nothing below it yet)
        "Ich spiele Erfolgreiche Abwehr gegen die Explosive Landung meines Gegners. Wer bezahlt?",
        # named after: unchanged
        "Mein Gegner kontert meine Explosive Landung mit einer Erfolgreichen Abwehr. Wer bezahlt?",
    ],
)
def test_a_counter_answers_the_other_players_action_whichever_is_named_first(question):
    stack = _stack(_guessed(question))
    assert [card for card, _by, _aim in stack] == ["Explosive Landung", "Erfolgreiche Abwehr"]
    (_landing, landing_by, _), (_defence, defence_by, aim) = stack
    assert landing_by != defence_by and aim == "Explosive Landung"


def test_a_counter_does_not_answer_its_own_players_ability():
    # a counter named first went on top of the ability of its own player below it (A's
    # Abwehr „countering“ A's Radarstation) while B's bomb came after it, uncountered
    scenario = _guessed(
        "Kann ich mit Abwehr auf seine 227er reagieren, wenn er meine Radarstation angreift?"
    )
    stack = _stack(scenario)
    assert [card for card, _by, _aim in stack][-1] == "Erfolgreiche Abwehr"
    by = dict((card, who) for card, who, _aim in stack)
    assert stack[-1][2] == "227-Pfund Bombe" and by["Erfolgreiche Abwehr"] != by["227-Pfund Bombe"]
    read_scenario(scenario)  # a scenario the checker reads (its hint says what Abwehr counters)
