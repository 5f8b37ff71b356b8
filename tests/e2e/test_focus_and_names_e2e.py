"""The keyboard's focus ring is visible on every background (WCAG 1.4.11: 3:1), and the
decorative glyphs of the pages (arrows, separators, disclosure triangles) stay out of what
a screen reader reads."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.e2e.test_judge_e2e import TWO_CARDS

pytestmark = pytest.mark.browser

BOMB = "227-pfund-bombe-basisausbau"

# (selector, where it sits): the page, a card (the header), the linked paragraph's yellow
FOCUSED = [
    (".crumbs a", "page"),
    (".brand", "card"),
    ("section.linked .linked-read a", "linked paragraph"),
    ("#p3 a.xref", "marked paragraph"),
    ("#p3 .para-num", "marked paragraph"),
    ("details.notes > summary", "note"),
]

BACKGROUND = """el => {
  for (let node = el.parentElement; node; node = node.parentElement) {
    const colour = getComputedStyle(node).backgroundColor;
    if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
  }
  return getComputedStyle(document.documentElement).backgroundColor;
}"""


def rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(v) for v in re.findall(r"\d+", colour)[:3])


def luminance(colour: tuple[int, ...]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, two: str) -> float:
    high, low = sorted((luminance(rgb(one)), luminance(rgb(two))), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_focus_ring_contrasts_3_to_1_with_every_background_it_sits_on(page, scheme):
    page.emulate_media(color_scheme=scheme)
    page.goto(f"/entry/{BOMB}/absatz/4")
    page.keyboard.press("Tab")  # keyboard mode: focus() matches :focus-visible
    problems = []
    for selector, where in FOCUSED:
        element = page.locator(selector).first
        element.focus()
        style = element.evaluate(
            "el => [getComputedStyle(el).outlineStyle, getComputedStyle(el).outlineColor,"
            " getComputedStyle(el).outlineWidth]"
        )
        assert style[0] == "solid" and float(style[2].removesuffix("px")) >= 2, (selector, style)
        behind = element.evaluate(BACKGROUND)
        ratio = contrast(style[1], behind)
        if ratio < 3:
            problems.append(f"{selector} on the {where} ({behind}): {style[1]} {ratio:.2f}:1")
    assert not problems, "\n".join(problems)


def test_the_pager_and_crumbs_read_without_their_arrows_and_separators(page):
    page.goto("/entry/3-spieler-spiel")
    expect(page.locator("a[rel=prev]")).to_have_accessible_name(
        re.compile(r"^Vorheriger Eintrag 227-Pfund Bombe")
    )
    expect(page.locator("a[rel=next]")).to_have_accessible_name(re.compile(r"^Nächster Eintrag "))
    crumbs = page.locator(".crumbs").aria_snapshot()
    assert "›" not in crumbs and "Start" in crumbs
    expect(page.locator(".crumbs")).to_contain_text("›")  # still seen
    page.goto("/docs/sow")
    assert "›" not in page.locator(".crumbs").aria_snapshot()


def test_css_glyphs_are_seen_but_not_read(page, base_url):
    page.goto(f"/entry/{BOMB}")
    summary = page.locator("details.notes > summary")
    assert "▸" in summary.evaluate("el => getComputedStyle(el, '::before').content")
    expect(summary).to_have_accessible_name("Hinweis zu diesem Dokument")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    number = page.locator("#p1 .para-num")
    number.click()
    expect(number).to_have_class(re.compile("copied"))
    assert "Link kopiert" in number.evaluate("el => getComputedStyle(el, '::after').content")
    expect(number).to_have_accessible_name("Absatz 2: Link kopieren")
    page.goto("/search?q=")
    tip = page.locator(".tips li").first
    assert "›" in tip.evaluate("el => getComputedStyle(el, '::before').content")
    assert "›" not in page.locator(".tips").aria_snapshot()


def test_the_chat_links_under_an_answer_read_without_their_glyphs(page):
    page.goto("/ask?q=Wie+sp%C3%A4t+ist+es+gerade+in+Tokio%3F")  # declined: a search link
    search = page.locator(".search-link a").last
    assert "⌕" in search.evaluate("el => getComputedStyle(el, '::before').content")
    expect(search).to_have_accessible_name(re.compile(r"^In der Suche nachsehen"))
    page.goto("/ask?" + urlencode({"q": TWO_CARDS}))  # a stack the checker resolves
    check = page.locator(".check-link a").last
    assert "▶" in check.evaluate("el => getComputedStyle(el, '::before').content")
    expect(check).to_have_accessible_name(re.compile(r"^Im Aktionsstapel-Prüfer"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["/", "/check"])
def test_placeholders_read_4_5_to_1_on_their_field(page, scheme, path):
    """A QA review: in dark mode the placeholders („Suchen …“, and „Kartenname“, the only
    visible label of the checker's card name) read 3.5:1, below WCAG 1.4.3's 4.5:1."""
    page.emulate_media(color_scheme=scheme)
    page.goto(path)
    weak = []
    for field in page.locator("input[placeholder]:visible").all():
        colour = field.evaluate("el => getComputedStyle(el, '::placeholder').color")
        own = field.evaluate("el => getComputedStyle(el).backgroundColor")
        behind = (
            own if own not in ("rgba(0, 0, 0, 0)", "transparent") else field.evaluate(BACKGROUND)
        )
        if contrast(colour, behind) < 4.5:
            weak.append(f"{field.get_attribute('id')}: {colour} on {behind}")
    assert not weak, "\n".join(weak)
