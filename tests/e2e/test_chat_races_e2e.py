"""The chat while a question is on its way (bad wifi at a table): more questions, Back,
a reload. Each test holds the answers with `page.route` and lets them go."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.test_chat_e2e import FIRST, FOLLOWUP, SECOND, ask, two_turns_then_back

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


def stalling(page) -> None:
    """/ask with every question stalled: never answered, failed after 1.5 s."""
    page.goto("/ask")
    page.evaluate("document.getElementById('chat-form').dataset.timeoutMs = '1500'")
    page.route("**/api/ask", lambda route: None)


def expect_answers(page, count: int) -> None:
    """Wait until the chat shows `count` answered turns."""
    expect(page.locator("#chat-log li.turn[data-question]")).to_have_count(count)


def sent(page) -> list[dict]:
    """The bodies of the questions sent from now on, in order."""
    bodies: list[dict] = []

    def note(request) -> None:
        if request.url.endswith("/api/ask"):
            bodies.append(json.loads(request.post_data))

    page.on("request", note)
    return bodies


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
    expect_answers(page, 1)
    let_go(page, held)  # the second is sent once the first is answered
    expect_answers(page, 2)
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
    expect_answers(page, 3)
    assert questions_shown(page) == [TYPO, SECOND, meant]


def test_a_question_waiting_behind_a_failed_one_is_given_back(routed):
    page = routed
    stalling(page)
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
    expect_answers(page, 1)
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
    expect_answers(page, 1)
    page.reload()  # answered: nothing is given back again
    expect(page.locator("#chat-q")).to_have_value("")
    expect(page.locator("#chat-error")).to_be_hidden()


def test_back_to_the_empty_chat_after_a_reload_is_titled_as_the_empty_chat(page):
    """A race review: the title of the empty chat was taken from the page loaded, which
    after a reload was the newest question's."""
    page.goto("/ask")
    ask(page, FIRST)
    expect_answers(page, 1)
    ask(page, SECOND)
    expect_answers(page, 2)
    page.reload()
    page.go_back()
    expect_answers(page, 1)
    page.go_back()
    expect(page.locator("#chat-log li.turn")).to_have_count(0)
    expect(page).to_have_title("Frage stellen · Regelsuche")


def test_a_retry_asks_every_question_the_failure_gave_back(routed):
    """A code review: the retry asked only the failed question; those that had waited
    behind it, named in the message, were gone with it."""
    page = routed
    stalling(page)
    ask(page, FIRST)
    ask(page, SECOND)
    ask(page, TYPO)
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{SECOND}“, „{TYPO}“")
    page.unroute("**/api/ask")  # the connection is back
    page.locator("#chat-retry").click()
    expect_answers(page, 3)
    assert questions_shown(page) == [FIRST, SECOND, TYPO]
    expect(page.locator("#chat-q")).to_have_value("")


def test_a_question_refused_does_not_take_those_waiting_behind_it_along(routed):
    """A code review: a 400 for the first question (too long, say) dropped the valid ones
    waiting behind it."""
    page = routed
    page.goto("/ask")
    held: list = []
    # the first question held, the rest answered
    page.route("**/api/ask", lambda route: route.continue_() if held else held.append(route))
    ask(page, FIRST)
    ask(page, SECOND)
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    detail = {"error": "bad_request", "detail": "Die Frage ist zu lang."}
    held[0].fulfill(status=400, content_type="application/json", body=json.dumps(detail))
    expect_answers(page, 1)
    assert questions_shown(page) == [SECOND]
    expect(page.locator("#chat-error")).to_contain_text("Die Frage ist zu lang.")
    expect(page.locator("#chat-q")).to_have_value(FIRST)


def test_the_answer_before_a_waiting_question_is_said_to_a_screen_reader(routed):
    """A code review: sending the waiting question said „Ich suche …“ over the answer
    before it, which a screen reader never heard."""
    page = routed
    page.goto("/ask")
    held = holding(page)
    ask(page, FIRST)
    ask(page, SECOND)
    let_go(page, held)
    expect_answers(page, 1)
    page.wait_for_timeout(300)  # past the live region's 50 ms
    status = page.locator("#chat-status")
    expect(status).to_contain_text(", Absatz ")  # „Titel“, Absatz n: the passage
    expect(status).not_to_contain_text("Ich suche")


def test_a_waiting_question_is_asked_in_the_document_chosen_when_it_was_asked(routed):
    """A code review: a waiting question went with the document chosen when it was sent."""
    page = routed
    page.goto("/ask")
    bodies = sent(page)
    held = holding(page)
    ask(page, FIRST)
    ask(page, SECOND)  # in every document
    page.locator("#chat-form select[name=doc]").select_option(index=1)
    let_go(page, held)
    let_go(page, held)
    expect_answers(page, 2)
    assert [(b["question"], b["doc"]) for b in bodies] == [(FIRST, None), (SECOND, None)]


def test_a_question_on_its_way_when_forward_reloads_the_page_is_kept(routed):
    """A code review: Forward to a turn the page does not hold reloads it; the question
    on its way was given back into the field first, and the reload lost it."""
    page = routed
    two_turns_then_back(page)
    page.reload()  # this page holds the first turn only
    holding(page)
    ask(page, TYPO)
    expect(page.locator("#chat-log .turn-a.pending")).to_be_visible()
    page.go_forward()  # the second turn: loaded from its address
    expect_answers(page, 2)
    expect(page.locator("#chat-q")).to_have_value(TYPO)


def test_a_reload_after_a_failure_gives_its_questions_back_again(routed):
    """A race review: the questions a failure gave back (in the field, named) were gone
    after a reload."""
    page = routed
    stalling(page)
    ask(page, FIRST)
    ask(page, SECOND)
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{SECOND}“")
    page.reload()
    expect(page.locator("#chat-q")).to_have_value(FIRST)
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{SECOND}“")


def test_forward_after_back_keeps_the_questions_back_named(routed):
    """A race review: Back named the questions on their way (the field held another), and
    Forward wiped the message."""
    page = routed
    page.goto("/ask")
    ask(page, FIRST)
    expect_answers(page, 1)
    holding(page)
    ask(page, SECOND)
    page.locator("#chat-q").fill("x")
    page.go_back()
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{SECOND}“")
    page.go_forward()
    expect_answers(page, 1)
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{SECOND}“")
    expect(page.locator("#chat-q")).to_have_value("x")


def test_a_new_question_keeps_the_questions_a_failure_named_on_offer(routed):
    """A race review: sending another question threw away, without a word, the questions
    the failure had named (and „Noch einmal versuchen“ with them)."""
    page = routed
    stalling(page)
    ask(page, FIRST)
    ask(page, SECOND)
    page.locator("#chat-q").fill(FOLLOWUP)  # the next one, typed while waiting
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{FIRST}“, „{SECOND}“")
    page.unroute("**/api/ask")  # the connection is back
    page.locator("#chat-q").press("Enter")
    expect_answers(page, 1)
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{FIRST}“, „{SECOND}“")
    page.locator("#chat-retry").click()
    expect_answers(page, 3)
    assert questions_shown(page) == [FOLLOWUP, FIRST, SECOND]


def test_a_question_back_goes_back_into_the_field_survives_a_reload(routed):
    """A race review: Back put the question on its way into the field, and a reload then
    lost it (only the questions on their way were kept)."""
    page = routed
    page.goto("/ask")
    ask(page, FIRST)
    expect_answers(page, 1)
    holding(page)
    ask(page, SECOND)
    page.go_back()
    expect(page.locator("#chat-q")).to_have_value(SECOND)
    page.reload()
    expect(page.locator("#chat-q")).to_have_value(SECOND)


def test_a_wifi_login_page_is_not_called_a_server_error_with_code_200(routed):
    """A race review: an HTML page with status 200 (a hotel wifi's login) was said to be
    „Fehlercode 200“ of the server."""
    page = routed
    page.goto("/ask")
    page.route(
        "**/api/ask",
        lambda route: route.fulfill(
            status=200, content_type="text/html", body="<h1>Bitte im WLAN anmelden</h1>"
        ),
    )
    ask(page, FIRST)
    error = page.locator("#chat-error")
    expect(error).to_be_visible()
    expect(error).not_to_contain_text("Fehlercode 200")
    expect(error).to_contain_text("WLAN")
    expect(page.locator("#chat-retry")).to_be_visible()


def test_the_note_that_the_queue_is_full_goes_once_there_is_room(routed):
    """A race review: „Es warten schon 5 Fragen …“ stayed under the answers given after."""
    page = routed
    page.goto("/ask")
    held = holding(page)
    for n in range(7):
        ask(page, f"{SECOND} ({n})")
    expect(page.locator("#chat-error")).to_contain_text("Es warten schon 5 Fragen")
    let_go(page, held)
    expect_answers(page, 1)
    expect(page.locator("#chat-error")).to_be_hidden()


def test_a_second_failure_keeps_the_questions_the_first_one_named(routed):
    """A code review: a failure replaced the questions an earlier failure had named (in
    the message, the retry and what a reload gives back)."""
    page = routed
    stalling(page)
    ask(page, FIRST)
    ask(page, SECOND)
    page.locator("#chat-q").fill(TYPO)  # typed while waiting: both are named
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{FIRST}“, „{SECOND}“")
    page.locator("#chat-q").press("Enter")  # TYPO stalls too
    error = page.locator("#chat-error")
    expect(error).not_to_contain_text("Zeitüberschreitung")  # the first failure's message went
    expect(error).to_contain_text(f"Nicht beantwortet: „{FIRST}“, „{SECOND}“")  # they did not
    expect(error).to_contain_text("Zeitüberschreitung")  # the second failure
    expect(page.locator("#chat-q")).to_have_value(FIRST)
    expect(error).to_contain_text(f"Nicht beantwortet: „{SECOND}“, „{TYPO}“")
    page.unroute("**/api/ask")
    page.locator("#chat-retry").click()
    expect_answers(page, 3)
    assert sorted(questions_shown(page)) == sorted([FIRST, SECOND, TYPO])


def test_a_named_question_asked_again_is_no_longer_named(routed):
    """A code review: a named question asked while another was on its way stayed named
    after its answer, and the retry asked it twice."""
    page = routed
    stalling(page)
    ask(page, FIRST)
    ask(page, SECOND)
    page.locator("#chat-q").fill(TYPO)
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{FIRST}“, „{SECOND}“")
    page.unroute("**/api/ask")
    held = holding(page)
    page.locator("#chat-q").press("Enter")  # TYPO on its way
    ask(page, SECOND)  # waits behind it
    let_go(page, held)
    let_go(page, held)
    expect_answers(page, 2)
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{FIRST}“.")
    page.unroute("**/api/ask")
    page.locator("#chat-retry").click()
    expect_answers(page, 3)
    assert questions_shown(page) == [TYPO, SECOND, FIRST]


def test_the_failed_question_sent_again_goes_to_the_document_chosen_now(routed):
    """A code review: Enter on the failed question asked it in the document chosen when
    it failed, not the one chosen since."""
    page = routed
    stalling(page)
    ask(page, FIRST)
    expect(page.locator("#chat-error")).to_contain_text("Zeitüberschreitung")
    page.unroute("**/api/ask")
    bodies = sent(page)
    chosen = page.locator("#chat-form select[name=doc] option").nth(1).get_attribute("value")
    page.locator("#chat-form select[name=doc]").select_option(chosen)
    page.locator("#chat-q").press("Enter")
    expect_answers(page, 1)
    assert [b["doc"] for b in bodies] == [chosen]


def test_the_retry_after_back_and_forward_asks_the_fields_question_first(routed):
    """A race review: after Back and Forward the question in the field had left the retry,
    which asked the follow-up waiting behind it alone, read with the wrong question."""
    page = routed
    page.goto("/ask")
    ask(page, FIRST)
    expect_answers(page, 1)
    holding(page)
    ask(page, SECOND)
    ask(page, FOLLOWUP)
    page.go_back()
    expect(page.locator("#chat-q")).to_have_value(SECOND)
    page.go_forward()
    expect_answers(page, 1)
    expect(page.locator("#chat-error")).to_contain_text(f"Nicht beantwortet: „{FOLLOWUP}“")
    page.unroute("**/api/ask")
    page.locator("#chat-retry").click()
    expect_answers(page, 3)
    assert questions_shown(page) == [FIRST, SECOND, FOLLOWUP]
    expect(page.locator("#chat-q")).to_have_value("")
