"""The chat while a question is on its way (bad wifi at a table): more questions, Back,
a reload. Each test holds the answers with `page.route` and lets them go."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_chat_e2e import FIRST, FOLLOWUP, SECOND, ask

pytestmark = pytest.mark.browser

TYPO = "Bombbe bezahln"  # answered with „Meinten Sie: Bombe bezahlt?“


def holding(page) -> list:
    """Hold every question sent from now on; `let_go` sends the oldest on."""
    held: list = []
    page.route("**/api/ask", lambda route: held.append(route))
    return held


def let_go(page, held: list) -> None:
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "no question was sent"
    held.pop(0).continue_()


def questions_shown(page) -> list[str]:
    return page.locator("#chat-log li.turn[data-question]").evaluate_all(
        "items => items.map(item => item.dataset.question)"
    )


def test_a_question_sent_while_one_is_on_its_way_is_asked_after_it(routed):
    """A race review: the second question's Enter (and the button) did nothing while the
    first was on its way, without a word."""
    page = routed
    page.goto("/ask")
    held = holding(page)
    ask(page, FIRST)
    page.locator("#chat-q").fill(SECOND)
    page.locator("#chat-q").press("Enter")
    expect(page.locator("#chat-q")).to_have_value("")
    expect(page.locator("#chat-log .turn-a.pending")).to_have_count(2)  # both are shown
    let_go(page, held)
    expect(page.locator("#chat-log li.turn[data-question]")).to_have_count(1)
    let_go(page, held)  # the second is sent once the first is answered
    expect(page.locator("#chat-log li.turn[data-question]")).to_have_count(2)
    assert questions_shown(page) == [FIRST, SECOND]
    expect(page.locator("#chat-log .turn-a.pending")).to_have_count(0)
    expect(page.locator("#chat-error")).to_be_hidden()


def test_meinten_sie_tapped_while_a_question_is_on_its_way_asks_after_it(routed):
    """A race review: the tap on „Meinten Sie“ cancelled the question on its way, which was
    gone without a word."""
    page = routed
    page.goto("/ask")
    ask(page, TYPO)
    suggestion = page.locator("#chat-log a[data-chat-ask]").first
    expect(suggestion).to_be_visible()
    meant = suggestion.get_attribute("data-chat-ask")
    held = holding(page)
    ask(page, SECOND)
    suggestion.click()
    let_go(page, held)
    let_go(page, held)
    expect(page.locator("#chat-log li.turn[data-question]")).to_have_count(3)
    assert questions_shown(page) == [TYPO, SECOND, meant]


def test_a_question_waiting_behind_a_failed_one_is_given_back(routed):
    page = routed
    page.goto("/ask")
    page.evaluate("document.getElementById('chat-form').dataset.timeoutMs = '1500'")
    page.route("**/api/ask", lambda route: None)  # never answered: a stalled request
    ask(page, FIRST)
    ask(page, SECOND)
    expect(page.locator("#chat-error")).to_contain_text("Zeitüberschreitung")
    expect(page.locator("#chat-q")).to_have_value(FIRST)
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{SECOND}“")
    expect(page.locator("#chat-log .turn-a.pending")).to_have_count(0)


def test_back_while_a_question_is_on_its_way_names_it_when_the_field_holds_another(routed):
    """A race review: the question went back only into an empty field; with the next one
    typed there it was gone, and the status still said „Ich suche den passenden Absatz …“."""
    page = routed
    page.goto("/ask")
    ask(page, FIRST)
    expect(page.locator("#chat-log li.turn[data-question]")).to_have_count(1)
    holding(page)
    ask(page, FOLLOWUP)
    expect(page.locator("#chat-log .turn-a.pending")).to_be_visible()
    page.locator("#chat-q").fill(SECOND)
    page.go_back()
    expect(page.locator("#chat-log li.turn")).to_have_count(0)
    expect(page.locator("#chat-q")).to_have_value(SECOND)
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{FOLLOWUP}“")
    expect(page.locator("#chat-retry")).to_be_visible()
    page.wait_for_timeout(200)  # past the live region's 50 ms
    expect(page.locator("#chat-status")).to_have_text("")


def test_a_reload_while_a_question_is_on_its_way_keeps_it_in_the_field(routed):
    """A race review: the field was emptied when the question was sent, so a reload on a
    stalled line lost it."""
    page = routed
    page.goto("/ask")
    holding(page)
    ask(page, FIRST)
    expect(page.locator("#chat-log .turn-a.pending")).to_be_visible()
    page.reload()
    expect(page.locator("#chat-q")).to_have_value(FIRST)
    expect(page.locator("#chat-error")).to_contain_text("neu geladen")
    page.unroute("**/api/ask")  # (before the reload it would fail the held question)
    page.locator("#chat-retry").click()
    expect(page.locator("#chat-log li.turn[data-question]")).to_have_count(1)
    page.reload()  # answered: nothing is given back again
    expect(page.locator("#chat-q")).to_have_value("")
    expect(page.locator("#chat-error")).to_be_hidden()


def test_back_to_the_empty_chat_after_a_reload_is_titled_as_the_empty_chat(page):
    """A race review: the title of the empty chat was taken from the page loaded, which
    after a reload was the newest question's."""
    page.goto("/ask")
    ask(page, FIRST)
    expect(page.locator("#chat-log li.turn[data-question]")).to_have_count(1)
    ask(page, SECOND)
    expect(page.locator("#chat-log li.turn[data-question]")).to_have_count(2)
    page.reload()
    page.go_back()
    expect(page.locator("#chat-log li.turn[data-question]")).to_have_count(1)
    page.go_back()
    expect(page.locator("#chat-log li.turn")).to_have_count(0)
    expect(page).to_have_title("Frage stellen · Regelsuche")
