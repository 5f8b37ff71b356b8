"""A tournament judge settling a dispute at a table: a 360 px phone, bad wifi, in a hurry."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from faq_bot.stack import encode_permalink
from tests.e2e.conftest import offline
from tests.e2e.test_check_e2e import chip
from tests.e2e.test_phone_e2e import BOMB, QUESTION, phone_ctx, wait_for_service_worker

pytestmark = pytest.mark.browser

__all__ = ["phone_ctx"]  # the fixture, used here by name

# an older chat link: one card (A's 227-Pfund Bombe), nothing on the stack
EMPTY_STACK = encode_permalink(
    {
        "players": {"A": {"tw": 5}, "B": {"tw": 5}},
        "cards": [{"id": "k1", "name": "227-Pfund Bombe", "owner": "A", "kind": "base"}],
        "stack": [],
    }
)
TWO_CARDS = (  # two catalog cards and a word about the stack: a stack the checker resolves
    "Ich will mit meiner 227-Pfund Bombe die Radarstation des Gegners zerstören, "
    "er kontert. Wer muss wie viele TW bezahlen?"
)
LONG_ANSWER = "Wie viele Siegpunkte braucht man in der Siegphase zum Sieg?"  # a long paragraph


def test_offline_a_question_the_chat_cannot_send_links_to_its_search_in_the_stored_copy(
    phone_ctx,
):
    # the chat needs the server; the stored copy can still search: the error says where
    page = phone_ctx.new_page()
    page.goto("/ask")
    wait_for_service_worker(page)
    with offline(phone_ctx):
        page.locator("#chat-q").fill(QUESTION)
        page.locator("#chat-form button[type=submit]").click()
        expect(page.locator("#chat-error")).to_contain_text("Keine Verbindung zum Server")
        search = page.locator("#chat-error a")
        expect(search).to_have_text(f"In der Suche nachsehen: „{QUESTION}“")
        search.click()
        expect(page.locator(".offline-banner")).to_be_visible()
        expect(page).to_have_url(re.compile(r"/search\?q=Wer\+bezahlt"))
        expect(page.locator(".hit-title a").first).to_be_visible()  # from the stored copy


def test_a_checker_link_with_an_empty_stack_asks_for_entries_and_claims_no_result(phone):
    # the chat's question naming one card gets no checker link now (nothing to stack); an
    # older link with that card and nothing on the stack still opens the checker, where
    # "es passiert nichts" read as the answer to "wer bezahlt" would mislead
    phone.goto("/ask?" + urlencode({"q": QUESTION}))
    expect(phone.locator("#chat-log li.turn[data-question]")).to_have_count(1)
    expect(phone.locator(".check-link")).to_have_count(0)
    phone.goto("/check?" + urlencode({"s": EMPTY_STACK, "aus": "frage"}))
    result = phone.locator("#result")
    expect(result).to_contain_text("Noch nichts auf dem Aktionsstapel")
    expect(result).not_to_contain_text("es passiert nichts")
    expect(phone.locator("#final-players")).to_have_count(0)  # no end state of nothing
    result.get_by_role("link", name="Zum Aktionsstapel").click()
    expect(phone).to_have_url(re.compile("#rows-stack$"))


@pytest.mark.parametrize("who", ["phone", "nojs"])
def test_the_chats_checker_link_opens_at_the_result_on_a_phone(who, request):
    # the chat's link opened the checker at its top: the result lay below the phone's screen
    page = request.getfixturevalue(who)
    page.goto("/ask?" + urlencode({"q": TWO_CARDS}))
    page.locator(".check-link a").click()
    expect(page.locator("#timeline > li").first).to_be_in_viewport()
    expect(page.locator("h1")).not_to_be_in_viewport()


@pytest.mark.parametrize(
    ("address", "selectors"),
    [
        ("/search?" + urlencode({"q": "227er"}), (".hit-title a",)),
        (
            "/ask?" + urlencode({"q": LONG_ANSWER}),
            (".passage-whole > summary", ".chat-cite > summary"),
        ),
        (f"/entry/{BOMB}", ("details.cite > summary",)),
        ("/check", ("#samples > summary", "#samples a")),
        # the search's filters (folded on a result page, open on the empty search page)
        # and the chat's document choice
        ("/search?" + urlencode({"q": "227er", "doc": "how-faq"}), (".filter-box > summary",)),
        ("/search", ("select[name=doc]", "select[name=category]")),
        ("/ask", ("#chat-doc",)),
        ("/check", (".check-form select",)),
    ],
)
def test_the_controls_a_judge_taps_first_are_at_least_44_px(phone, address, selectors):
    phone.goto(address)
    for selector in selectors:
        boxes = [el.bounding_box() for el in phone.locator(selector).all()]
        assert boxes, selector
        for box in boxes:
            assert box and box["height"] >= 44 and box["width"] >= 44, (selector, box)


def test_the_search_offered_after_a_failed_question_is_at_least_44_px(routed):
    routed.goto("/ask")
    routed.route("**/api/ask", lambda route: route.abort())  # no connection
    routed.locator("#chat-q").fill("Depot?")
    routed.locator("#chat-form button[type=submit]").click()
    search = routed.locator("#chat-error a")
    expect(search).to_have_text("In der Suche nachsehen: „Depot?“")
    box = search.bounding_box()
    assert box and box["height"] >= 44 and box["width"] >= 44, box


def test_check_a_builder_step_on_a_slow_line_says_it_is_under_way(phone):
    # the form fades while a tapped card is added; the sticky bar also says so in words
    phone.goto("/check")
    held = []
    phone.route("**/check", lambda route: held.append(route))
    chip(phone, "Radarstation").click()
    resolve = phone.locator("#resolve")
    expect(resolve).to_have_text("Wird übernommen …")
    expect(resolve).to_be_in_viewport()
    for route in held:
        route.continue_()
    phone.unroute("**/check")
    expect(phone.locator("#check-status")).to_contain_text("Radarstation für A angelegt")
    expect(resolve).to_have_text("Auflösen")


def test_check_end_state_headers_keep_their_words_whole_on_a_phone(phone):
    phone.goto("/check")
    phone.locator("#samples a").first.click()
    header = phone.locator("#final-cards thead th").last
    expect(header).to_have_text("gesperrt")
    # one line: the word is not cut ("gesp" / "errt")
    height = header.evaluate("el => el.getBoundingClientRect().height")
    line = header.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)")
    padding = header.evaluate(
        "el => parseFloat(getComputedStyle(el).paddingTop)"
        " + parseFloat(getComputedStyle(el).paddingBottom)"
    )
    assert height - padding < 1.5 * line, (height, line, padding)
