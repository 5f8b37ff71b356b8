"""A judge on a venue's bad wifi: the line drops in the middle of a request, or is gone
after one visit. What was typed is not lost, and a page that needs the server says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_chat_e2e import FIRST, FOLLOWUP, ask
from tests.e2e.test_phone_e2e import phone_ctx, wait_for_service_worker

pytestmark = pytest.mark.browser

__all__ = ["phone_ctx"]  # the fixture, used here by name


def test_without_javascript_a_followup_lost_on_a_dropped_line_is_back_in_the_field(nojs):
    # the browser's own error page is fine; Back must not make the judge retype the question
    nojs.goto("/ask")
    ask(nojs, FIRST)
    expect(nojs.locator("#chat-log li.turn")).to_have_count(1)
    nojs.route(
        "**/ask*",
        lambda route: (
            route.abort("internetdisconnected")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    ask(nojs, FOLLOWUP)
    nojs.wait_for_url("chrome-error://**")
    nojs.unroute("**/ask*")
    nojs.go_back()
    expect(nojs.locator("#chat-log li.turn")).to_have_count(1)
    expect(nojs.locator("#chat-q")).to_have_value(FOLLOWUP)


def test_offline_the_checker_says_it_needs_the_connection_and_keeps_its_link(phone_ctx):
    page = phone_ctx.new_page()
    page.goto("/")
    wait_for_service_worker(page)
    phone_ctx.set_offline(True)
    try:
        page.goto("/check?s=abc")
        app = page.locator("#offline-app")
        expect(app.locator("h1")).to_have_text("Aktionsstapel prüfen")
        expect(app).to_contain_text("Der Aktionsstapel-Prüfer braucht eine Verbindung zum Server")
        expect(app).not_to_contain_text("nicht gespeichert")
        expect(page).to_have_url("/check?s=abc")  # "Erneut versuchen" loads the same stack
        expect(app.locator("#offline-q")).to_be_visible()  # the rulings are still there
    finally:
        phone_ctx.set_offline(False)
