"""The scenario checker in a real chromium: build spec example 2 by hand, resolve, share."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

EXAMPLE2 = Path(__file__).parent.parent / "data" / "scenarios" / "example2_bomb_on_bomb.json"


def no_horizontal_scroll(page) -> bool:
    width, client = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    return width <= client


def fill_example2(page, *, catalog_fills: bool) -> None:
    """Spec example 2 from the golden file, typed in as a person would."""
    golden = json.loads(EXAMPLE2.read_text(encoding="utf-8"))
    page.select_option("#phase", golden["phase"])
    for i, (name, player) in enumerate(golden["players"].items()):
        page.fill(f"#p-{i}-name", name)
        page.fill(f"#p-{i}-tw", str(player["tw"]))
    for i, card in enumerate(golden["cards"]):
        page.fill(f"#c-{i}-name", card["name"])
        page.fill(f"#c-{i}-id", card["id"])
        page.fill(f"#c-{i}-owner", card["owner"])
    for i, entry in enumerate(golden["stack"]):
        page.fill(f"#s-{i}-source", entry["source"])
        page.locator(f"#s-{i}-source").dispatch_event("change")
        if catalog_fills:  # the script fills announcer, effect, cost from the catalog
            expect(page.locator(f"#s-{i}-type")).to_have_value(entry["effect"]["type"])
            expect(page.locator(f"#s-{i}-cost")).to_have_value(str(entry["cost"]))
            expect(page.locator(f"#s-{i}-by")).to_have_value(entry["by"])
        else:
            page.fill(f"#s-{i}-by", entry["by"])
        if "target" in entry["effect"]:
            page.fill(f"#s-{i}-target", entry["effect"]["target"])


def steps_text(page) -> list[str]:
    return [" ".join(t.split()) for t in page.locator("#timeline > li").all_inner_texts()]


def assert_example2_timeline(page) -> None:
    steps = page.locator("#timeline > li")
    expect(steps).to_have_count(3)
    texts = steps_text(page)
    assert (
        texts[0].startswith("s3")
        and "opfert 227-Pfund Bombe von A; 227-Pfund Bombe von B wird zerstört" in texts[0]
    )
    assert texts[1].startswith("s2") and "verpufft" in texts[1] and "B zahlt nichts" in texts[1]
    assert texts[2].startswith("s1") and "A zieht 1 Karte" in texts[2]
    rule = steps.nth(0).locator("a", has_text="227-Pfund Bombe (Basisausbau)")
    expect(rule).to_have_attribute("href", "/entry/227-pfund-bombe-basisausbau")


def test_check_build_example2_resolve_without_reload_and_share(page, browser, base_url, shots):
    page.goto("/check")
    fill_example2(page, catalog_fills=True)
    expect(page.locator("#c-0-kind")).to_have_value("base")  # from the catalog
    page.evaluate("window.__sameDocument = true")
    page.locator("#resolve").click()
    expect(page.locator("#timeline")).to_be_visible()
    assert page.evaluate("window.__sameDocument === true")  # fetch, not a reload
    assert_example2_timeline(page)
    expect(page).to_have_url(re.compile(r"/check\?s=[A-Za-z0-9_-]+$"))
    page.screenshot(path=shots / "check-result.png", full_page=True)

    href = page.locator("#share-link").get_attribute("href")
    assert href and href.startswith("/check?s=")
    fresh = browser.new_context(base_url=base_url, locale="de-DE")  # no cookies, no history
    try:
        other = fresh.new_page()
        other.goto(href)
        assert_example2_timeline(other)
        assert steps_text(other) == steps_text(page)
        expect(other.locator("#c-2-id")).to_have_value("bombB")
        expect(other.locator("#p-0-tw")).to_have_value("4")
    finally:
        fresh.close()


def test_check_rows_are_added_and_removed_in_place(page):
    page.goto("/check")
    rows = page.locator("#rows-stack fieldset.row")
    before = rows.count()
    page.evaluate("window.__sameDocument = true")
    page.get_by_role("button", name="Zeile hinzufügen (Eintrag)").click()
    expect(rows).to_have_count(before + 1)
    expect(rows.last.locator("legend")).to_contain_text(f"Eintrag {before + 1}")
    expect(rows.last.locator("input").first).to_be_focused()
    rows.first.get_by_role("button", name="Eintrag entfernen").click()
    expect(rows).to_have_count(before)
    expect(rows.first.locator("legend")).to_contain_text("Eintrag 1")
    assert page.evaluate("window.__sameDocument === true")


def test_check_effect_type_shows_only_its_fields(page):
    page.goto("/check")
    page.select_option("#s-0-type", "draw")
    expect(page.locator("#s-0-amount")).to_be_visible()
    expect(page.locator("#s-0-target")).to_be_hidden()
    page.select_option("#s-0-type", "destroy")
    expect(page.locator("#s-0-target")).to_be_visible()
    expect(page.locator("#s-0-amount")).to_be_hidden()


def test_check_without_javascript_posts_the_form(nojs, shots):
    nojs.goto("/check")
    nojs.get_by_role("button", name="Zeile hinzufügen (Eintrag)").click()  # a round trip
    expect(nojs).to_have_url(re.compile(r"/check#rows-stack$"))
    expect(nojs.locator("#rows-stack fieldset.row")).to_have_count(5)
    fill_example2(nojs, catalog_fills=False)  # the server fills from the catalog
    nojs.screenshot(path=shots / "check-form-nojs-phone.png", full_page=True)
    nojs.locator("#resolve").click()
    expect(nojs).to_have_url(re.compile(r"/check#checker$"))  # a POST, shown at the result
    assert_example2_timeline(nojs)
    expect(nojs.locator("#check-notes")).to_contain_text("Kartenart Basisausbau")
    assert no_horizontal_scroll(nojs)
    nojs.screenshot(path=shots / "check-result-nojs-phone.png", full_page=True)
    nojs.locator("#share-link").click()
    expect(nojs).to_have_url(re.compile(r"/check\?s="))
    assert_example2_timeline(nojs)


def test_check_sample_on_a_phone(phone, shots):
    phone.goto("/check")
    assert no_horizontal_scroll(phone)
    phone.screenshot(path=shots / "check-phone.png", full_page=True)
    phone.get_by_role("link", name="Feuerwehr schützt einen Basisausbau").click()
    expect(phone.locator("#timeline .badge").first).to_have_text("ausgeführt")
    expect(phone.locator("#timeline")).to_contain_text("verhindert")
    assert no_horizontal_scroll(phone)
    phone.screenshot(path=shots / "check-sample-phone.png", full_page=True)


def test_check_illegal_sample_lists_errors_on_a_phone(phone):
    phone.goto("/check")
    phone.get_by_role("link", name="Bombe ohne genug TW (unzulässig)").click()
    expect(phone.locator("#check-errors")).to_contain_text("insufficient_tw")
    expect(phone.locator("#timeline")).to_have_count(0)


def test_check_json_view_resolves_pasted_json(page):
    page.goto("/check")
    page.locator("#json-view summary").click()
    page.fill("#json", EXAMPLE2.read_text(encoding="utf-8"))
    page.get_by_role("button", name="JSON auflösen").click()
    assert_example2_timeline(page)
    expect(page.locator("#p-0-name")).to_have_value("A")


def test_check_bad_link_shows_a_german_error(page):
    response = page.goto("/check?s=kaputt")
    assert response is not None and response.status == 400
    expect(page.locator("#check-error")).to_contain_text("Der geteilte Link ist ungültig")


def test_check_copy_link_copies_the_permalink(page, base_url):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    page.goto("/check")
    page.get_by_role("link", name="Bombe auf die Bombe").click()
    page.locator("#copy-share").click()
    expect(page.locator("#copy-status")).to_have_text("Link kopiert.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == base_url + page.locator("#share-link").get_attribute("href")
