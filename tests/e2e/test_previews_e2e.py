"""Cross-reference previews in a real chromium: beside the link, never over it (WCAG 2.4.11),
and the link's description for a screen reader, not part of its name."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

BOMB = "227-pfund-bombe-basisausbau"
LINK = "#p3 a.xref[href='/entry/aktionsstapel']"


def rect(locator) -> dict:
    return locator.evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"
    )


def overlaps(a: dict, b: dict) -> bool:
    return not (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or a["bottom"] <= b["top"]
        or b["bottom"] <= a["top"]
    )


def test_a_reference_preview_is_the_links_description_not_part_of_its_name(page):
    page.goto(f"/entry/{BOMB}")
    link = page.locator(LINK)
    preview = link.get_attribute("data-preview")
    assert preview
    page.keyboard.press("Tab")
    link.focus()
    expect(link).to_have_accessible_name("Aktionsstapel")
    expect(link).to_have_accessible_description(preview)
    see_also = page.locator(".see-also a.xref")
    expect(see_also).to_have_accessible_name("Aktionsstapel")
    expect(see_also).to_have_accessible_description(preview)


@pytest.mark.parametrize("where", ["bottom", "top"])
def test_the_preview_of_a_focused_link_never_covers_it(page, where):
    page.goto(f"/entry/{BOMB}")
    link = page.locator(LINK)
    # the link at the window's bottom (the old bar covered it there) or at its top; room
    # to scroll either way (CSSOM: the CSP allows it)
    page.evaluate("document.body.style.paddingBottom = '2000px'")
    page.keyboard.press("Tab")  # keyboard mode, so focus() matches :focus-visible
    offset = "innerHeight - 40" if where == "bottom" else "20"
    link.evaluate(f"el => window.scrollBy(0, el.getBoundingClientRect().top - ({offset}))")
    link.focus()
    box = page.locator(".xref-preview")
    expect(box).to_be_visible()
    expect(box).to_have_text(link.get_attribute("data-preview"))
    expect(box).to_have_attribute("aria-hidden", "true")
    shown, own = rect(box), rect(link)
    assert not overlaps(shown, own), (shown, own)
    height = page.evaluate("innerHeight")
    assert 0 <= own["top"] and own["bottom"] <= height  # the link itself stays in view
    if where == "bottom":
        assert own["bottom"] > height - 60 and shown["bottom"] <= own["top"]  # above it
    else:
        assert shown["top"] >= own["bottom"]  # below it
    width = page.evaluate("document.documentElement.clientWidth")
    assert 0 <= shown["left"] and shown["right"] <= width
    page.keyboard.press("Escape")
    expect(box).to_be_hidden()


def test_the_preview_shows_on_hover_and_stays_while_the_pointer_moves_onto_it(page):
    page.goto(f"/entry/{BOMB}")
    link = page.locator(LINK)
    link.hover()
    box = page.locator(".xref-preview")
    expect(box).to_be_visible()
    assert not overlaps(rect(box), rect(link))
    box.hover()  # WCAG 1.4.13: the pointer can move onto the extra content
    page.wait_for_timeout(500)
    expect(box).to_be_visible()
    page.locator("h1").hover()
    expect(box).to_be_hidden()


def test_without_javascript_the_preview_is_no_part_of_the_link_name(nojs):
    nojs.goto(f"/entry/{BOMB}")
    link = nojs.locator(LINK)
    link.hover()
    content = link.evaluate("el => getComputedStyle(el, '::after').content")
    assert link.get_attribute("data-preview") in content  # the hover bar still shows it
    expect(link).to_have_accessible_name("Aktionsstapel")


def test_a_tap_previews_beside_the_link_and_a_second_tap_follows_it(phone):
    phone.goto(f"/entry/{BOMB}")
    link = phone.locator(LINK)
    link.scroll_into_view_if_needed()
    link.tap()
    box = phone.locator(".xref-preview")
    expect(box).to_be_visible()
    expect(box).to_have_text(link.get_attribute("data-preview"))
    # a phone review: nothing said that a second tap opens the entry
    hint = box.evaluate("el => getComputedStyle(el, '::after').content")
    assert "noch einmal antippen" in hint
    assert not overlaps(rect(box), rect(link))
    width = phone.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]
    link.tap()
    expect(phone).to_have_url(re.compile(r"/entry/aktionsstapel$"))


def test_a_tapped_preview_covers_no_other_link_so_the_next_one_is_one_tap_away(phone):
    """A phone review: the preview of a tapped backlink floated over the next backlink, so
    reaching it took a tap to close the box first. On touch the box opens in the text's
    flow, below the link's line: the links after it move down, none is covered."""
    phone.goto("/entry/aktionsstapel")
    links = phone.locator(".backlinks a.xref[data-preview]")
    assert links.count() >= 2
    first, second = links.nth(0), links.nth(1)
    first.scroll_into_view_if_needed()
    first.tap()
    box = phone.locator(".xref-preview")
    expect(box).to_be_visible()
    expect(box).to_have_text(first.get_attribute("data-preview"))
    assert not overlaps(rect(box), rect(first))
    second.scroll_into_view_if_needed()
    assert not overlaps(rect(box), rect(second))
    second.tap()  # previews the second (the first tap on a link), does not follow it
    expect(box).to_have_text(second.get_attribute("data-preview"))
    assert "/entry/aktionsstapel" in phone.url
    assert not overlaps(rect(box), rect(first)) and not overlaps(rect(box), rect(second))
