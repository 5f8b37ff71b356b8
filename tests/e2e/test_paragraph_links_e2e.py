"""Paragraph permalinks, copying and citing in a real chromium: what a forum user does."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from faq_bot.text import paragraph_citation, paragraph_path

pytestmark = pytest.mark.browser

BOMB = "227-pfund-bombe-basisausbau"
TITLE = "227-Pfund Bombe (Basisausbau)"
NOTE = "rgb(255, 246, 220)"  # --note, the linked paragraph's background (light theme)


def background(page, selector: str) -> str:
    return page.locator(selector).evaluate("el => getComputedStyle(el).backgroundColor")


def test_copying_a_paragraph_copies_its_absolute_permalink_without_the_search_words(
    page, base_url, index
):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.goto(f"/entry/{BOMB}?h=bezahlt#p0")
    page.locator("#p1 .para-num").click()
    plain = index.entry(BOMB).plain_paragraphs[1]
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == base_url + paragraph_path(BOMB, 1, plain)
    assert "h=" not in copied and "#" not in copied
    # the copied link opens the paragraph's own page
    page.goto(copied)
    expect(page.locator("section.linked h2")).to_have_text("Verlinkter Absatz 2")


def test_after_copying_the_copied_paragraph_is_the_marked_one(page, base_url):
    """The mark follows a copy; the line saying where the linked paragraph is from stays
    where it was (a phone review: it appeared above the tapped buttons and moved them 45 px
    down, so a quick second tap hit the text instead)."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.goto(f"/entry/{BOMB}#p0")
    assert background(page, "#p0") == NOTE
    expect(page.locator("#p0 .para-context")).to_be_visible()
    button = page.locator("#p2 .para-num")
    top = button.evaluate("b => b.getBoundingClientRect().top")
    button.click()
    expect(page.locator("#p2")).to_have_css("background-color", NOTE)
    assert background(page, "#p0") != NOTE
    expect(page.locator("#p0 .para-context")).to_be_visible()  # nothing above moved
    expect(page.locator("#p2 .para-context")).to_be_hidden()
    assert button.evaluate("b => b.getBoundingClientRect().top") == top
    page.locator("#p1 .para-cite-button").click()  # a copied citation moves the mark too
    expect(page.locator("#p1")).to_have_css("background-color", NOTE)
    assert background(page, "#p2") != NOTE
    expect(page.locator("#p1 .para-context")).to_be_hidden()


def test_copy_controls_are_buttons_and_their_confirmation_is_announced(page, base_url):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.goto(f"/entry/{BOMB}")
    status = page.get_by_role("status")
    expect(status).to_have_count(1)
    expect(status).to_have_text("")
    page.get_by_role("button", name="Absatz 2: Link kopieren").click()
    expect(status).to_have_text("Link kopiert.")
    page.get_by_role("button", name="Absatz 2: Zitat kopieren").click()
    expect(status).to_have_text("Zitat kopiert.")
    page.get_by_role("button", name="Absatz 3: Link kopieren").click()
    expect(status).to_have_text("Link kopiert.")
    page.locator(".cite summary").click()
    page.locator("button[data-copy-text]").click()
    expect(status).to_have_text("Zitat kopiert.")
    assert page.locator(".ruling-body a.para-num").count() == 0  # all became buttons


def test_zitat_kopieren_copies_the_paragraph_quoted_with_its_source_and_permalink(
    page, base_url, index
):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.goto(f"/entry/{BOMB}")
    expect(page.locator("#p1 details.para-cite")).to_be_hidden()  # JS: the button instead
    page.locator("#p1 .para-cite-button").click()
    entry = index.entry(BOMB)
    plain = entry.plain_paragraphs[1]
    doc = index.document(entry.doc)
    expected = paragraph_citation(plain, TITLE, doc, 2, base_url + paragraph_path(BOMB, 1, plain))
    assert page.evaluate("navigator.clipboard.readText()") == expected
    assert expected.startswith("„Wenn mein Gegner")
    assert f"„{TITLE}“, Absatz 2 – HoW FAQ, Stand: 30. November 2012. http" in expected


def test_without_javascript_the_citation_is_shown_and_the_number_opens_the_permalink(nojs):
    nojs.goto(f"/entry/{BOMB}")
    expect(nojs.locator(".para-cite-button")).to_have_count(0)
    nojs.locator("#p1 details.para-cite summary").click()
    citation = nojs.locator("#p1 .para-citation")
    expect(citation).to_be_visible()
    expect(citation).to_contain_text(f"„{TITLE}“, Absatz 2 – HoW FAQ")
    nojs.locator("#p1 a.para-num").click()
    expect(nojs).to_have_url(re.compile(rf"/entry/{BOMB}/absatz/2\?v=[0-9a-f]{{8}}$"))
    expect(nojs.locator("section.linked h2")).to_have_text("Verlinkter Absatz 2")


def test_the_permalink_page_marks_its_paragraph_without_an_anchor(page):
    page.goto(f"/entry/{BOMB}/absatz/3")
    expect(page.locator("section.linked")).to_be_in_viewport()
    assert background(page, "#p2") == NOTE
    expect(page.locator("#p2 .para-context")).to_be_visible()
    expect(page.locator("#p1 .para-context")).to_be_hidden()
    page.get_by_role("link", name="Im Eintrag lesen").click()
    expect(page.locator("#p2")).to_be_in_viewport()
    assert page.url.endswith("/absatz/3#p2")


def test_the_permalink_page_fits_a_phone(phone, shots):
    phone.goto(f"/entry/{BOMB}/absatz/2")
    width = phone.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]
    phone.screenshot(path=shots / "phone-paragraph-permalink.png", full_page=True)
    for selector in (".para-num", ".para-cite-button", ".linked-read a"):
        for box in [el.bounding_box() for el in phone.locator(selector).all()]:
            assert box and box["height"] >= 44 and box["width"] >= 44, (selector, box)


def test_in_high_contrast_the_linked_paragraph_keeps_a_frame(page):
    """An accessibility review: forced colours drop the mark's background and shadow, so
    only the small context line said which paragraph was linked."""
    page.emulate_media(forced_colors="active")
    page.goto(f"/entry/{BOMB}#p2")
    marked = page.locator("#p2")
    expect(marked).to_be_visible()
    assert marked.evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    assert page.locator("#p1").evaluate("el => getComputedStyle(el).outlineStyle") == "none"


def test_a_copy_without_the_clipboard_api_keeps_the_focus_on_its_control(page):
    """An accessibility review: on a plain http:// address in a LAN (no secure context, so
    no clipboard API) every copy control copied through a hidden text field and left the
    focus on the page's start: the next Tab went to „Zum Inhalt springen“."""
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    page.goto(f"/entry/{BOMB}")
    status = page.get_by_role("status")
    for name, said in (("Absatz 2: Link kopieren", "Link"), ("Absatz 2: Zitat kopieren", "Zitat")):
        control = page.get_by_role("button", name=name)
        control.focus()
        page.keyboard.press("Enter")
        expect(status).to_have_text(f"{said} kopiert.")  # the fallback copied
        assert control.evaluate("el => el === document.activeElement"), name


def test_the_entrys_citation_copy_that_fails_marks_the_citation_to_copy_by_hand(page):
    """A review: with the clipboard refused, „Zitat kopieren“ under „Zitieren“ did nothing
    (an unhandled rejection), where the paragraphs' copy controls offer the text."""
    page.add_init_script(
        "navigator.clipboard.writeText = () => Promise.reject(new Error('denied'));"
        "document.execCommand = () => false;"
    )
    page.goto(f"/entry/{BOMB}")
    page.locator("details.cite summary").click()
    page.locator("details.cite button[data-copy-text]").click()
    expect(page.get_by_role("status")).to_contain_text("markiert")
    selected = page.evaluate("String(window.getSelection())")
    assert selected.strip() == page.locator("#citation").inner_text().strip()


def test_the_search_filter_is_what_the_page_says_after_back(page):
    """A review: after Back from a filtered search, the browser restored the document
    chosen before into the folded filter, and the next search silently used it."""
    page.goto("/search?q=Hafen")
    page.locator("select[name=doc]").evaluate(
        "el => el.closest('details') && (el.closest('details').open = true)"
    )
    page.locator("select[name=doc]").select_option("sow")
    page.locator("select[name=doc]").evaluate("el => el.form.submit()")
    expect(page).to_have_url(re.compile(r"doc=sow"))
    page.go_back()
    expect(page).to_have_url(re.compile(r"q=Hafen$"))
    assert page.locator("select[name=doc]").input_value() == ""
