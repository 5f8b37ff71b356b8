"""Offline, an address the shell cannot read (a broken %-escape in an entry id or a
document id) is a page that is not stored, with the search box; not the note that the
whole offline copy is missing (the shell's decodeURIComponent threw)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, _context, offline

pytestmark = pytest.mark.browser


@pytest.fixture
def offline_ctx(browser, base_url):
    context = _context(browser, base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    yield context
    context.close()


def test_offline_a_broken_escape_in_an_address_is_a_page_not_stored(offline_ctx):
    page = offline_ctx.new_page()
    page.goto("/")
    page.evaluate(
        """() => navigator.serviceWorker.ready.then(() => new Promise((resolve) => {
            if (navigator.serviceWorker.controller) resolve(true);
            else navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true));
        }))"""
    )
    with offline(offline_ctx):
        for address in ("/entry/%E0%A4%A", "/entry/%ZZ/absatz/2", "/docs/%"):
            page.goto(address)
            app = page.locator("#offline-app")
            expect(app.locator("h1")).to_have_text("Diese Seite ist offline nicht gespeichert")
            expect(app.locator("#offline-q")).to_be_visible()
            expect(app).not_to_contain_text("Die gespeicherte Fassung fehlt")
        page.goto("/entry/flakbatterie/absatz/1")  # a readable one still opens its entry
        expect(page.locator("h1")).to_have_text("Flakbatterie (Basisausbau)")
        # as the server reads a paragraph link (a review: offline these were pages not stored)
        for address in (
            "/entry/flakbatterie/Absatz/1",
            "/entry/flakbatterie/absatz/01",
            "/entry/flakbatterie/absatz/1)",
            "/entry/flakbatterie/absatz/%201",
            "/entry/flakbatterie/absatz/1=",
            "/entry/flakbatterie/absatz/%E2%80%8B1",
        ):
            page.goto(address)
            expect(page.locator("h1")).to_have_text("Flakbatterie (Basisausbau)")
        # a number past the end, however long: the entry and how many paragraphs it has, as
        # the server says (the code review: offline these were pages not stored)
        for number in ("100000", "100000)", "9" * 30, "9" * 45):
            page.goto(f"/entry/flakbatterie/absatz/{number}")
            expect(page.locator("h1")).to_have_text("Flakbatterie (Basisausbau)")
            expect(page.locator(".linked-note")).to_contain_text(
                f"keinen Absatz {number.rstrip(')')}; er hat einen Absatz"
            )


def test_offline_shell_without_its_search_script_says_the_copy_is_missing(offline_ctx):
    """A code review: a worker of a rolling update may store a shell of one release and
    offline.js of the next, which reads its search from offline-search.js; without it the
    page says the stored copy is missing (as for a missing data file), not a blank page."""
    page = offline_ctx.new_page()
    page.route("**/offline-search.js*", lambda route: route.abort())
    page.goto("/offline")
    app = page.locator("#offline-app")
    expect(app.locator("h1")).to_have_text("Offline")
    expect(app).to_contain_text("Die gespeicherte Fassung fehlt.")
    expect(app).not_to_contain_text("wird geladen")


def test_offline_the_crumbs_separator_is_seen_and_not_read(offline_ctx):
    """An accessibility review: offline, a ruling's crumbs read „Start › HoW FAQ“ aloud,
    separator and all; the server's page hides it from a screen reader."""
    page = offline_ctx.new_page()
    page.goto("/")
    page.evaluate("() => navigator.serviceWorker.ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    with offline(offline_ctx):
        page.goto("/entry/flakbatterie")
        expect(page.locator("h1")).to_have_text("Flakbatterie (Basisausbau)")
        crumbs = page.locator(".crumbs")
        expect(crumbs).to_contain_text("Start › ")  # still seen
        snapshot = crumbs.aria_snapshot()
        assert "›" not in snapshot and "Start" in snapshot, snapshot


def test_offline_a_ruling_carries_its_documents_notes_as_online(offline_ctx):
    """A review: offline, a SoW ruling left out „Hinweis zu diesem Dokument“ (SoW's rules
    take precedence over BATTLEMIST's), and a rulebook ruling the FAQ's precedence."""
    page = offline_ctx.new_page()
    page.goto("/")
    page.evaluate("() => navigator.serviceWorker.ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    shown = {}
    for ruling in ("sow-rundenablauf", "flakbatterie"):
        page.goto(f"/entry/{ruling}")
        page.locator("details.notes").evaluate_all("all => all.forEach(d => (d.open = true))")
        shown[ruling] = page.locator("details.notes").all_inner_texts()
    with offline(offline_ctx):
        for ruling, online in shown.items():
            page.goto(f"/entry/{ruling}")
            expect(page.locator("h1")).to_be_visible()
            notes = page.locator("details.notes")
            expect(notes).to_have_count(len(online))
            for n, text in enumerate(online):
                notes.nth(n).locator("summary").click()
                expect(notes.nth(n)).to_have_text(text, use_inner_text=True)
    assert shown["sow-rundenablauf"], "the SoW ruling shows its document's note online"
