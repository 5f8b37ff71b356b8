"""The chat in a real chromium against a real server: ask, follow up, with and without JS."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

FIRST = "Wer bezahlt, wenn meine 227er gekontert wird?"
FOLLOWUP = "und wenn er eine Feuerwehr hat?"


def no_horizontal_scroll(page) -> tuple[int, int]:
    return page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )


def ask(page, question: str) -> None:
    page.locator("#chat-q").fill(question)
    page.locator("#chat-form button[type=submit]").click()


def test_chat_answer_highlight_and_paragraph_link(page, shots):
    page.goto("/ask")
    expect(page.locator("#chat-q")).to_be_focused()
    ask(page, FIRST)
    turn = page.locator("#chat-log li.turn").first
    expect(turn.locator(".turn-message")).to_contain_text("227-Pfund Bombe")
    expect(turn.locator("mark.key")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/ask\?q=.*#neu$"))  # the script asked, the URL keeps it
    expect(page).to_have_title(f"{FIRST} · Regelsuche")  # as the page of that address
    page.screenshot(path=shots / "chat-answer.png", full_page=True)
    link = turn.locator("a.passage-link")
    href = link.get_attribute("href")
    assert href and re.fullmatch(r"/entry/227-pfund-bombe-basisausbau#p\d+", href)
    link.click()
    anchor = href.split("#")[1]
    expect(page).to_have_url(re.compile(rf"/entry/227-pfund-bombe-basisausbau#{anchor}$"))
    expect(page.locator(f"#{anchor}")).to_be_in_viewport()


def test_chat_followup_keeps_the_conversation_on_the_page(page, shots):
    page.goto("/ask")
    ask(page, FIRST)
    expect(page.locator("#chat-log li.turn[data-question]")).to_have_count(1)
    ask(page, FOLLOWUP)
    turns = page.locator("#chat-log li.turn[data-question]")
    expect(turns).to_have_count(2)
    second = turns.nth(1)
    expect(second.locator(".turn-context")).to_contain_text(FIRST)
    expect(second.locator(".turn-message")).to_contain_text("Feuerwehr")
    expect(turns.nth(0).locator(".turn-q")).to_contain_text(FIRST)
    assert page.locator("#chat-form input[name=t]").count() == 2
    page.screenshot(path=shots / "chat-followup.png", full_page=True)


def test_a_sub_heading_shown_with_its_paragraph_keeps_its_own_line(page):
    """With the embedder an answer joins a lead-in or sub-heading and its paragraph with a
    newline ("2) Orte" + the paragraph); the page must show it as a line break, not as a
    space. (The browser tests serve a lexical build, which shows paragraphs alone, so the
    joined text is put into the rendered passage.)"""
    page.goto("/ask?" + urlencode({"q": FIRST}))
    passage = page.locator("#chat-log li.turn[data-question]").first.locator(".passage p")
    expect(passage).to_be_visible()
    passage.evaluate("p => { p.textContent = '2) Orte\\nUnser Held hat einen Ort entdeckt.' }")
    assert passage.inner_text() == "2) Orte\nUnser Held hat einen Ort entdeckt."


def test_chat_declines_off_topic_and_lists_nothing_as_answer(page):
    page.goto("/ask")
    ask(page, "Wie grundiere und bemale ich meine Miniaturen am besten?")
    turn = page.locator("#chat-log li.turn[data-question]").first
    expect(turn.locator(".turn-message")).to_contain_text("keine sichere Antwort")
    expect(turn.locator(".passage")).to_have_count(0)
    expect(turn.locator(".turn-a")).to_have_class(re.compile("unsure"))
    search = turn.locator(".search-link a")  # built by chat.js as the page builds it
    expect(search).to_contain_text("In der Suche nachsehen")
    assert search.get_attribute("href", timeout=5000).startswith("/search?q=Wie+grundiere")


def test_chat_copy_link_copies_the_paragraph_permalink(page, base_url):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.goto("/ask")
    ask(page, FIRST)
    copy = page.locator("#chat-log a[data-chat-copy]").first
    expect(copy).to_be_visible()
    href = copy.get_attribute("href")
    copy.click()
    expect(copy).to_have_text("Link kopiert")
    assert page.evaluate("navigator.clipboard.readText()") == f"{base_url}{href}"
    expect(page).to_have_url(re.compile(r"/ask\?q="))


def test_chat_phone_width_without_horizontal_scroll(phone, shots):
    phone.goto("/ask")
    ask(phone, FIRST)
    expect(phone.locator("#chat-log mark.key")).to_be_visible()
    phone.screenshot(path=shots / "chat-phone.png")  # the viewport: what a phone shows
    ask(phone, FOLLOWUP)
    expect(phone.locator("#chat-log li.turn[data-question]")).to_have_count(2)
    scroll, client = no_horizontal_scroll(phone)
    assert scroll <= client
    phone.locator("#chat-log li.turn").nth(1).scroll_into_view_if_needed()
    phone.screenshot(path=shots / "chat-phone-followup.png")


def test_chat_without_javascript_form_post_and_history(nojs, shots):
    nojs.goto("/ask")
    ask(nojs, FIRST)
    expect(nojs.locator("#chat-log li.turn")).to_have_count(1)
    expect(nojs.locator("#chat-log mark.key")).to_be_visible()
    first = nojs.locator("#chat-log li.turn").first.inner_html()
    ask(nojs, FOLLOWUP)
    turns = nojs.locator("#chat-log li.turn")
    expect(turns).to_have_count(2)
    # the first turn comes back as it was shown (from its token, not answered again)
    assert turns.nth(0).inner_html() == first
    assert nojs.locator("#chat-form input[name=t]").count() == 2
    expect(turns.nth(1).locator(".turn-context")).to_contain_text(FIRST)
    expect(turns.nth(1).locator(".turn-message")).to_contain_text("Feuerwehr")
    # the post was redirected to the conversation's own address (answered nothing again)
    expect(nojs).to_have_url(re.compile(r"/ask\?t=[^#]+&t=[^#]+#neu$"))
    expect(turns.nth(1).locator(".turn-q")).to_be_in_viewport()  # opens at the new answer
    # a reload shows the same page, without a form to send again; Back is the first answer
    nojs.reload()
    expect(nojs.locator("#chat-log li.turn")).to_have_count(2)
    nojs.go_back()
    expect(nojs.locator("#chat-log li.turn")).to_have_count(1)
    nojs.go_forward()
    expect(turns).to_have_count(2)
    nojs.screenshot(path=shots / "chat-nojs-viewport.png")
    scroll, client = no_horizontal_scroll(nojs)
    assert scroll <= client
    nojs.screenshot(path=shots / "chat-nojs.png", full_page=True)


def test_start_page_box_asks_and_still_searches(page, phone, shots):
    page.goto("/")
    page.locator("#q").fill("Aktionsstapel")
    page.locator("#q").press("Enter")  # Enter: the first button, search
    expect(page).to_have_url(re.compile(r"/search\?q=Aktionsstapel"))
    page.goto("/")
    page.locator("#q").fill(FIRST)
    page.get_by_role("button", name="Fragen").click()
    expect(page).to_have_url(re.compile(r"/ask\?q="))
    expect(page.locator("#chat-log mark.key")).to_be_visible()
    phone.goto("/")
    expect(phone.get_by_role("button", name="Fragen")).to_be_visible()
    scroll, client = no_horizontal_scroll(phone)
    assert scroll <= client
    phone.screenshot(path=shots / "chat-start-phone.png", full_page=False)


SCOPED = "Wer darf in dieser Phase angreifen?"  # ruled in two documents


@pytest.mark.parametrize("doc", ["how-faq", "uebersicht"])
def test_chat_answers_only_from_the_document_chosen_with_and_without_javascript(page, nojs, doc):
    for browser_page in (page, nojs):
        browser_page.goto("/ask")
        browser_page.locator("#chat-doc").select_option(doc)
        ask(browser_page, SCOPED)
        turn = browser_page.locator("#chat-log li.turn[data-question]").last
        entry = turn.get_attribute("data-entry")
        assert entry, "an answer was expected"
        meta = browser_page.request.get(f"/api/entries/{entry}").json()
        assert meta["doc"] == doc
        # the choice stays for the next question
        expect(browser_page.locator("#chat-doc")).to_have_value(doc)
    expect(page).to_have_url(re.compile(rf"[?&]doc={doc}(&|#|$)"))


def test_chat_address_keeps_the_document_answered_from_when_the_choice_changes_meanwhile(page):
    # the answer is held back until the select shows another document: the address and the
    # search link must name the document the question was limited to, not the select's value
    held = []

    def hold(route):
        held.append(route)

    page.route("**/api/ask", hold)
    page.goto("/ask")
    page.locator("#chat-doc").select_option("uebersicht")
    ask(page, "Wie grundiere und bemale ich meine Miniaturen am besten?")  # declined: search link
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the question was never sent"
    page.locator("#chat-doc").select_option("how-faq")
    held[0].continue_()
    turn = page.locator("#chat-log li.turn[data-question]").last
    expect(turn.locator(".turn-message")).to_contain_text("keine sichere Antwort")
    expect(page).to_have_url(re.compile(r"[?&]doc=uebersicht(&|#|$)"))
    href = turn.locator(".search-link a").get_attribute("href")
    assert href is not None and "doc=uebersicht" in href
    # declined within one document: it says where it looked and offers all documents
    expect(turn.locator(".scope-link")).to_contain_text("Nur in „Spielrundenübersicht")
    widen = turn.locator(".scope-link a")
    expect(widen).to_have_text("In allen Dokumenten fragen")
    assert "doc=" not in (widen.get_attribute("href") or "doc=")


LONG_ANSWER = "Wie viele Siegpunkte braucht man in der Siegphase zum Sieg?"  # 2,371 characters


def test_a_long_answer_shows_its_key_sentence_near_the_top_with_and_without_javascript(phone, nojs):
    shown = {}
    for name, page in (("js", phone), ("nojs", nojs)):
        page.goto("/ask")
        ask(page, LONG_ANSWER)
        turn = page.locator("#chat-log li.turn[data-question]").last
        expect(turn.locator("mark.key")).to_be_visible()
        quote = turn.locator(".turn-a > blockquote.passage")
        text = quote.inner_text()
        assert text.startswith("… ") and len(text) <= 800, text  # not the whole paragraph
        # the key sentence on the phone's first screen of the answer
        top = quote.evaluate("el => el.getBoundingClientRect().top")
        mark = turn.locator(".turn-a > blockquote.passage mark.key")
        assert mark.evaluate("el => el.getBoundingClientRect().top") - top < 400
        whole = turn.locator("details.passage-whole")
        expect(whole.locator("blockquote")).to_be_hidden()
        whole.locator("summary").click()
        expect(whole.locator("blockquote")).to_be_visible()
        assert len(whole.locator("blockquote").inner_text()) > 2000
        shown[name] = text
    assert shown["js"] == shown["nojs"]  # chat.js builds what the template renders


def test_the_copy_link_shows_only_where_it_copies(page, nojs):
    for browser_page, visible in ((page, True), (nojs, False)):
        browser_page.goto("/ask?" + urlencode({"q": FIRST}))  # rendered by the server
        copy = browser_page.locator("#chat-log a.chat-copy").first
        assert copy.is_visible() is visible
        expect(browser_page.locator("#chat-log a.passage-link").first).to_be_visible()
